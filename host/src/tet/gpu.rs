//! The GPU solver of a tetrahedral mesh: one thread per node
//! (`<model>_tet_<t>`, the body of `kernels_gpu::tet::step_node`, as on
//! the CPU), the weights and the neighbour table resident. The solver is
//! the one every mesh on one GPU shares (`crate::tissue::gpu_solver`:
//! the device fields, stimuli, maps, graphs, copies behind the steps and
//! NaN checks, the nodes a line of stored cells); this file adds the
//! mesh's table and the launch of its node kernel ([`TetOnGpu`]).

use std::sync::Arc;

use cudarc::driver::{CudaSlice, DevicePtr};
use kernels_gpu::registry::Kernel;
use kernels_gpu::tet::EllTable;
use kernels_gpu::{CellModel, Locals};

use super::cells::TetCells;
use super::problem::TetProblem;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::cell_params::CellCoeffs;
use crate::cell_params::device::{DeviceCellCoeffs, step_kernel};
use crate::domain::Domain;
use crate::scalar::Scalar;
use crate::solver::SolverError;
use crate::state::State;
use crate::tissue::gpu_fields::{DeviceTissue, StepLaunch};
use crate::tissue::gpu_solver::{GpuMesh, GpuMeshSolver, state_copy_bytes};

/// A tetrahedral mesh resident on one GPU.
pub type TetGpuSolver<M, T> = GpuMeshSolver<M, T, TetOnGpu>;

/// The mesh's neighbour table on one GPU beside its nodes (the stored
/// cells, a line of them: `TetCells`).
pub struct TetOnGpu {
    neighbours: CudaSlice<u32>,
}

/// Bytes a mesh of `nodes` nodes with a table `width` wide takes on a
/// GPU for a model of `variables` variables in `bytes`-byte values: U
/// twice, the locals, and per entry a weight and a u32 neighbour.
pub fn device_bytes(nodes: usize, width: usize, variables: usize, bytes: usize) -> u64 {
    let fields = (variables + 1) * nodes * bytes;
    let table = width * nodes * (bytes + 4);
    (fields + table) as u64
}

impl<M: CellModel, T: Scalar> GpuMeshSolver<M, T, TetOnGpu> {
    /// Loads the node kernel of `M`, uploads the problem's table and
    /// `initial`.
    pub fn new(
        device: &GpuDevice,
        ptx: &str,
        domain: &Domain,
        problem: &Arc<TetProblem>,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        TetCells::check_inputs::<M, T>(domain, problem, initial);
        let (n, width) = (problem.nodes(), problem.op.width);
        let variables = M::INFO.variables.len();
        let copy = state_copy_bytes(n, variables, T::BYTES);
        device.check_fits(device_bytes(n, width, variables, T::BYTES) + copy)?;
        let stream = device.context().default_stream();
        let sizes = (n, M::Locals::<T>::COUNT * n);
        let kernel = step_kernel(domain, Kernel::TetNodes);
        let tissue = DeviceTissue::new::<M>(device, ptx, stream.clone(), kernel, sizes, &problem.weights())?;
        let neighbours =
            stream.clone_htod(&problem.op.neighbours).map_err(cuda("uploading the neighbour table"))?;
        // The nodes are the domain's cells, in the solver's order.
        let coeffs = DeviceCellCoeffs::upload(&CellCoeffs::new(domain, n, Some), &stream)?;
        Self::build(tissue, (TetCells::new(problem), TetOnGpu { neighbours }), coeffs, domain, initial)
    }
}

impl<T: Scalar> GpuMesh<T> for TetOnGpu {
    type Cells = TetCells;

    fn launch_step<C: Copy>(
        &self,
        nodes: &TetCells,
        launch: StepLaunch<'_, T, C>,
    ) -> Result<(), SolverError> {
        let op = &nodes.problem.op;
        let (nodes, width) = (op.nodes as u32, op.width as u32);
        let neighbours = self.neighbours.device_ptr(launch.home).0;
        let table = EllTable { nodes, width, weights: launch.weights, neighbours };
        // SAFETY: the step kernel is <model>_tet[_sets]_<t> of this model
        // and precision, `_sets` exactly with the sets (`step_kernel`), a
        // set per node; U, U_next hold the nodes, the locals COUNT times as
        // many, the weights and the neighbours `width` per node (every
        // neighbour a node); the recorder is off or over the nodes' maps.
        unsafe { launch.nodes(table) }
    }

    fn method(&self, nodes: &TetCells) -> String {
        format!("tet-ell{}", nodes.problem.op.width)
    }
}
