//! A tetrahedral mesh split over GPUs ([`super::split`]): each part steps
//! its owned nodes with the single GPU's node kernel over its own rows of
//! the table, and its halos are refilled after every step by the split
//! solver that the voxel tissue's z-split uses too
//! ([`crate::tissue::split_solver`]), so that the run equals one GPU's bit
//! for bit. What the mesh brings is [`TetParts`]: the node kernel, each
//! part's rows of the neighbour table, the node line's scatter and gather.

use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, DevicePtr};
use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::registry::Kernel;
use kernels_gpu::tet::EllTable;
use kernels_gpu::{CellModel, Locals};
use thiserror::Error;

use super::cells::TetCells;
use super::ecg::LeadFields;
use super::gpu::device_bytes;
use super::problem::TetProblem;
use super::split::{MeshSplitError, TetSplit};
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::cell_params::device::step_kernel;
use crate::domain::Domain;
use crate::events::stimulus::Stimulus;
use crate::multi::error::MultiError;
use crate::multi::gpu::Exchange;
use crate::scalar::Scalar;
use crate::solver::SolverError;
use crate::state::State;
use crate::tissue::gpu_fields::StepLaunch;
use crate::tissue::split_parts::DevicePart;
use crate::tissue::split_solver::{GpuSplitSolver, PartUpload, SplitMesh};

/// Why a split mesh solver could not be built.
#[derive(Debug, Error)]
pub enum TetSplitError {
    #[error(transparent)]
    Split(#[from] MeshSplitError),
    #[error(transparent)]
    Multi(#[from] MultiError),
    #[error(transparent)]
    Solver(#[from] SolverError),
}

/// A mesh split over GPUs (part i on `devices[i]`; a GPU may appear
/// several times). Only variable 0 crosses between parts.
pub type TetGpuMultiSolver<M, T> = GpuSplitSolver<M, T, TetParts>;

/// The mesh's side of a split over GPUs: the split, the problem, and each
/// part's neighbour table on its GPU.
pub struct TetParts {
    split: TetSplit,
    problem: Arc<TetProblem>,
    /// Each part's neighbour table (stored nodes, `width` per owned node),
    /// filled as the parts are uploaded.
    neighbours: Vec<CudaSlice<u32>>,
    ecg: LeadFields,
}

impl<M: CellModel, T: Scalar> GpuSplitSolver<M, T, TetParts> {
    /// `problem` split into one part per device of `devices`, uploaded
    /// from `initial`.
    pub fn new(
        devices: &[GpuDevice],
        ptx: &str,
        domain: &Domain,
        problem: &Arc<TetProblem>,
        exchange: Exchange,
        initial: &State<T>,
    ) -> Result<Self, TetSplitError> {
        TetCells::check_inputs::<M, T>(domain, problem, initial);
        if exchange == Exchange::Nccl {
            return Err(MultiError::CopiesOnly { mesh: "mesh" }.into());
        }
        let split = TetSplit::new(problem, devices.len())?;
        let mesh =
            TetParts { split, problem: problem.clone(), neighbours: Vec::new(), ecg: LeadFields::default() };
        Ok(Self::build(devices, ptx, domain, mesh, exchange, initial)?)
    }

    pub fn split(&self) -> &TetSplit {
        &self.mesh().split
    }
}

impl<M: CellModel, T: Scalar> SplitMesh<M, T> for TetParts {
    type Cut = TetSplit;

    fn cut(&self) -> &TetSplit {
        &self.split
    }

    /// A part's halo holds U only: counted as nodes with every variable.
    fn part_bytes(&self, i: usize) -> u64 {
        let (width, variables) = (self.problem.op.width, M::INFO.variables.len());
        device_bytes(self.split.parts[i].stored(), width, variables, T::BYTES)
    }

    fn upload_part(&mut self, i: usize, to: PartUpload<'_>) -> Result<DevicePart<T>, SolverError> {
        let part = &self.split.parts[i];
        let sizes = (part.stored(), M::Locals::<T>::COUNT * part.owned.len());
        let weights = part.weights::<T>(&self.problem);
        let kernel = step_kernel(to.domain, Kernel::TetNodes);
        let on_gpu = DevicePart::new::<M>(to.device, to.ptx, kernel, sizes, &weights, &part.index())?;
        let table =
            on_gpu.stream().clone_htod(&part.neighbours).map_err(cuda("uploading the neighbour table"))?;
        self.neighbours.push(table);
        Ok(on_gpu)
    }

    /// Every stored node: a stimulus's region is tested node by node.
    fn stimulus_ranges(&self, i: usize, _: &Stimulus) -> Vec<Range<u32>> {
        let every = 0..self.split.parts[i].stored() as u32;
        vec![every]
    }

    /// The nodes need no index: the node line is the whole domain.
    fn launch_step<C: Copy>(
        &self,
        i: usize,
        _: u64,
        launch: StepLaunch<'_, T, C>,
    ) -> Result<(), SolverError> {
        let table = EllTable {
            nodes: self.split.parts[i].owned.len() as u32,
            width: self.problem.op.width as u32,
            weights: launch.weights,
            neighbours: self.neighbours[i].device_ptr(launch.stream).0,
        };
        // SAFETY: the step kernel is <model>_tet[_sets]_<t> of this
        // model and precision, `_sets` exactly with the sets
        // (`step_kernel`), a set per stored node; U, U_next hold the part's
        // stored nodes (owned first), the locals COUNT times the owned
        // ones, the weights and the neighbours `width` per owned node,
        // every neighbour a stored node; the recorder is off or over the
        // stored nodes.
        unsafe { launch.nodes(table) }
    }

    fn ecg(&mut self, probes: &[EcgProbe], parts_u: &[Vec<T>]) -> Vec<f64> {
        let u = self.split.gather_u(parts_u);
        self.ecg.sample_at(&self.problem.mesh, probes, &u)
    }

    fn method(&self) -> String {
        format!("tet-ell{} split", self.problem.op.width)
    }
}
