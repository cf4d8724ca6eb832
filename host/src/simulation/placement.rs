//! Where a simulation runs and what it steps, and the one factory that
//! turns (mesh, devices) into a solver: the CPU, one GPU, several GPUs in
//! this process, or one GPU of a run over several processes, for the
//! uniform grid, voxel tissue and tetrahedral meshes. A new kind of mesh is a new
//! [`Mesh`] variant and its arm here.

use std::sync::Arc;

use thiserror::Error;

use crate::backend::{CpuSolver, GpuDevice, GpuSolver, KernelConfig, Solver, SolverError};
use crate::domain::Domain;
use crate::models::{ModelVisitor, dispatch};
use crate::multi::gpu::SplitRun;
use crate::multi::nccl::UniqueId;
use crate::multi::{Exchange, GpuMultiSolver, MultiError};
use crate::scalar::Scalar;
use crate::state::State;
use crate::tet::gpu_split::TetSplitError;
use crate::tet::{TetCpuSolver, TetGpuMultiSolver, TetGpuSolver, TetProblem};
use crate::tissue::cpu::TissueCpuSolver;
use crate::tissue::gpu::TissueGpuSolver;
use crate::tissue::gpu_solver::{GpuMesh, GpuMeshSolver};
use crate::tissue::split::TissueSplit;
use crate::tissue::split_gpu::{TissueGpuMultiSolver, TissueSplitError};
use crate::tissue::{Operator, TissueError, TissueLayout, WeightChoice};
use kernels_gpu::CellModel;

/// What is stepped: the uniform grid of the domain (its Laplacian), a
/// tissue (voxels with fibres) with its operator, or a tetrahedral mesh
/// ready for its solvers (whose domain is the mesh's node line,
/// [`TetProblem::line`]).
#[derive(Clone, Debug)]
pub enum Mesh {
    Grid,
    Tissue(TissueMesh),
    Tet(Arc<TetProblem>),
}

/// A tissue's operator and how its solvers store it.
#[derive(Clone, Debug)]
pub struct TissueMesh {
    pub op: Arc<Operator>,
    pub layout: TissueLayout,
    pub weights: WeightChoice,
}

/// The devices a run takes.
pub enum Devices {
    Cpu,
    /// One GPU, or several sharing the grid along z (sub-domain i on GPU i).
    Gpus(Vec<GpuDevice>),
    /// One process of a run over several (one GPU each): sub-domain `rank`
    /// of `world` on `device`, halos through NCCL with the id every rank
    /// was given.
    Rank {
        device: GpuDevice,
        rank: usize,
        world: usize,
        id: UniqueId,
    },
}

/// How GPU solvers run (the defaults are the fast ones; the switches are
/// for measurements and for machines where a feature fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuOptions {
    /// Replay stretches of steps as CUDA graphs (one GPU, every mesh, and
    /// box grids split over the GPUs of one process).
    pub graphs: bool,
    /// Programmatic launches between the steps of a graph (Hopper).
    pub pdl: bool,
    /// Boundary slices first and sent while the interior is computed; on
    /// a mesh, snapshots copied out behind the next steps.
    pub overlap: bool,
    /// How halos travel between GPUs of this process.
    pub exchange: Exchange,
}

impl GpuOptions {
    /// Sets a one-GPU mesh solver's graphs, programmatic edges and copies
    /// behind the steps.
    fn apply<M: CellModel, T: Scalar, G: GpuMesh<T>>(&self, solver: &mut GpuMeshSolver<M, T, G>) {
        solver.set_overlap_copies(self.overlap);
        solver.set_graphs(self.graphs);
        solver.set_programmatic_launch(self.pdl);
    }
}

impl Default for GpuOptions {
    fn default() -> Self {
        Self { graphs: true, pdl: true, overlap: true, exchange: Exchange::Peer }
    }
}

/// Why no solver could be built for a run.
#[derive(Debug, Error)]
pub enum PlacementError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error(transparent)]
    Multi(#[from] MultiError),
    #[error(transparent)]
    Tissue(#[from] TissueError),
    #[error(transparent)]
    TissueSplit(#[from] TissueSplitError),
    #[error(
        "this program was built without fibril's GPU kernels (the fibril_host crate alone); build it against \
         the fibril crate, whose builder carries them, or run on the CPU"
    )]
    NoKernels,
    #[error(
        "a tissue runs in one process (the CPU, one GPU, or several GPUs with --gpus N or --gpu-ids, which \
         split it by tissue cells); start one process with --exchange peer or host, not one per GPU"
    )]
    TissueOverProcesses,
    #[error(transparent)]
    TetSplit(#[from] TetSplitError),
    #[error(
        "a tetrahedral mesh runs in one process (the CPU, one GPU, or several GPUs with --gpus N or \
         --gpu-ids, which split its node order); start one process with --exchange peer or host, not one \
         per GPU"
    )]
    TetOverProcesses,
}

/// Everything a solver is made from.
pub struct SolverPlan<'a, T> {
    pub mesh: &'a Mesh,
    pub devices: &'a Devices,
    /// The GPU kernels (PTX); `None` in a build without them.
    pub kernels: Option<&'a str>,
    pub kernel: KernelConfig,
    pub options: GpuOptions,
    pub domain: &'a Domain,
    pub initial: &'a State<T>,
}

impl<T: Scalar> SolverPlan<'_, T> {
    /// The solver of model `M` for this plan.
    pub fn build_for<M: CellModel>(&self) -> Result<Box<dyn Solver<T>>, PlacementError> {
        let (domain, initial) = (self.domain, self.initial);
        let ptx = || self.kernels.ok_or(PlacementError::NoKernels);
        Ok(match (self.mesh, self.devices) {
            (Mesh::Grid, Devices::Cpu) => Box::new(CpuSolver::<M, T>::new(domain, initial)),
            (Mesh::Grid, Devices::Gpus(gpus)) if gpus.len() == 1 => {
                let mut solver = GpuSolver::<M, T>::new(&gpus[0], ptx()?, self.kernel, domain, initial)?;
                solver.set_graphs(self.options.graphs);
                solver.set_programmatic_launch(self.options.pdl);
                Box::new(solver)
            }
            (Mesh::Grid, Devices::Gpus(gpus)) => {
                let run = SplitRun { ptx: ptx()?, config: self.kernel, domain, initial };
                let mut solver =
                    GpuMultiSolver::<M, T>::new(gpus, &run, self.options.exchange, self.options.overlap)?;
                solver.set_graphs(self.options.graphs);
                Box::new(solver)
            }
            (Mesh::Grid, Devices::Rank { device, rank, world, id }) => {
                let run = SplitRun { ptx: ptx()?, config: self.kernel, domain, initial };
                Box::new(GpuMultiSolver::<M, T>::new_rank(
                    device,
                    &run,
                    self.options.overlap,
                    (*rank, *world),
                    *id,
                )?)
            }
            (Mesh::Tissue(t), Devices::Cpu) => {
                Box::new(TissueCpuSolver::<M, T>::with_weights(domain, &t.op, t.layout, t.weights, initial)?)
            }
            (Mesh::Tissue(t), Devices::Gpus(gpus)) if gpus.len() == 1 => {
                let (op, layout) = (&t.op, t.layout);
                let mut solver = TissueGpuSolver::<M, T>::with_weights(
                    &gpus[0],
                    ptx()?,
                    domain,
                    op,
                    layout,
                    t.weights,
                    initial,
                )?;
                self.options.apply(&mut solver);
                Box::new(solver)
            }
            (Mesh::Tissue(t), Devices::Gpus(gpus)) => {
                let split = TissueSplit::new(&t.op, gpus.len(), t.layout).map_err(TissueSplitError::from)?;
                let split = split.with_weights(t.weights);
                let exchange = self.options.exchange;
                Box::new(TissueGpuMultiSolver::<M, T>::new(
                    gpus,
                    ptx()?,
                    domain,
                    &t.op,
                    split,
                    exchange,
                    initial,
                )?)
            }
            (Mesh::Tissue(_), Devices::Rank { .. }) => return Err(PlacementError::TissueOverProcesses),
            (Mesh::Tet(p), Devices::Cpu) => Box::new(TetCpuSolver::<M, T>::new(domain, p, initial)),
            (Mesh::Tet(p), Devices::Gpus(gpus)) if gpus.len() == 1 => {
                let mut solver = TetGpuSolver::<M, T>::new(&gpus[0], ptx()?, domain, p, initial)?;
                self.options.apply(&mut solver);
                Box::new(solver)
            }
            (Mesh::Tet(p), Devices::Gpus(gpus)) => {
                let exchange = self.options.exchange;
                Box::new(TetGpuMultiSolver::<M, T>::new(gpus, ptx()?, domain, p, exchange, initial)?)
            }
            (Mesh::Tet(_), Devices::Rank { .. }) => return Err(PlacementError::TetOverProcesses),
        })
    }

    /// The solver for the domain's model, chosen at run time.
    pub fn build(&self) -> Result<Box<dyn Solver<T>>, PlacementError> {
        struct Build<'p, 'a, T>(&'p SolverPlan<'a, T>);
        impl<T: Scalar> ModelVisitor for Build<'_, '_, T> {
            type Output = Result<Box<dyn Solver<T>>, PlacementError>;
            // The precision asked of `dispatch` is T's; S is not used.
            fn visit<M: CellModel, S: Scalar>(self) -> Self::Output {
                self.0.build_for::<M>()
            }
        }
        dispatch(self.domain.model().info(), T::PRECISION, Build(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ModelSetup;
    use crate::tet::{Diffusivity, NodeOrder, TetMesh};

    /// The factory's tetrahedral arm builds the mesh's CPU solver, which
    /// steps as the solver built directly does, bit for bit.
    #[test]
    fn a_tetrahedral_mesh_is_one_arm_of_the_factory() {
        let mesh = TetMesh::kuhn_box([5, 4, 3], 0.6);
        let problem = Arc::new(
            TetProblem::new(&mesh, NodeOrder::ReverseCuthillMcKee, &|_| Some(Diffusivity::isotropic(1.0)))
                .unwrap(),
        );
        let line = problem.line();
        let domain =
            Domain::with_own_operator(line, 0.6, 0.05, 1.0, ModelSetup::new("karma", None, &[]).unwrap())
                .unwrap();
        let info = domain.model().info();
        let mut start = State::<f32>::rest(info, line);
        start.slice_mut(0)[..20].fill(3.0);
        let plan = SolverPlan {
            mesh: &Mesh::Tet(problem.clone()),
            devices: &Devices::Cpu,
            kernels: None,
            kernel: KernelConfig::new(crate::kernel_config::KernelKind::Naive, Default::default()),
            options: GpuOptions::default(),
            domain: &domain,
            initial: &start,
        };
        let mut built = plan.build().unwrap();
        let mut direct =
            TetCpuSolver::<kernels_gpu::models::karma::Karma, f32>::new(&domain, &problem, &start);
        built.advance(50).unwrap();
        direct.advance(50).unwrap();
        let (a, b) = (built.state().unwrap(), direct.state().unwrap());
        assert_eq!(a.slice(0), b.slice(0));
        assert_ne!(a.slice(0), start.slice(0), "the wave moved");
        assert_eq!(built.method(), "cpu-tet-ell14");
        // The GPU arms need the kernels, which the host crate alone lacks.
        let gpus = Devices::Gpus(Vec::new());
        let plan = SolverPlan { devices: &gpus, ..plan };
        assert!(matches!(plan.build(), Err(PlacementError::NoKernels)));
    }
}
