//! The CPU solver of a tetrahedral mesh: the reference of the GPU's node
//! kernel. Every node is stepped by the very function the kernel calls
//! (`kernels_gpu::tet::step_node`) on buffers laid out as on the device,
//! by the solver every mesh on the CPU shares
//! (`crate::tissue::cpu_solver`: the host fields and events, the nodes a
//! line of stored cells), so stimuli, maps and NaN checks act as on the
//! grid; this file adds the mesh's table ([`TetOnCpu`]).

use std::sync::Arc;

use kernels_gpu::CellModel;
use kernels_gpu::tet::EllTable;

use super::cells::TetCells;
use super::problem::TetProblem;
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::scalar::Scalar;
use crate::state::State;
use crate::tissue::cpu_solver::{CpuMeshSolver, HostMesh};
use crate::tissue::host_fields::Lay;

/// A tetrahedral mesh stepped on the CPU.
pub type TetCpuSolver<M, T> = CpuMeshSolver<M, T, TetOnCpu<T>>;

/// The mesh's weights in the run's precision beside its nodes (the
/// neighbour table is the problem's).
pub struct TetOnCpu<T> {
    weights: Vec<T>,
}

impl<M: CellModel, T: Scalar> CpuMeshSolver<M, T, TetOnCpu<T>> {
    /// A solver of `problem` for the domain's model and time step (checked
    /// against the operator by [`TetProblem::check_dt`] before).
    ///
    /// # Panics
    /// If `domain` or `initial` is not of the problem's node line or of
    /// model `M` (programming errors).
    pub fn new(domain: &Domain, problem: &Arc<TetProblem>, initial: &State<T>) -> Self {
        TetCells::check_inputs::<M, T>(domain, problem, initial);
        // The nodes are the domain's cells, in the solver's order.
        let coeffs = CellCoeffs::new(domain, problem.nodes(), Some);
        let mesh = TetOnCpu { weights: problem.weights() };
        Self::build(domain, (TetCells::new(problem), mesh), coeffs, initial)
    }
}

impl<T: Scalar> HostMesh for TetOnCpu<T> {
    type Cells = TetCells;

    fn lay(&self, nodes: &TetCells) -> Lay {
        let op = &nodes.problem.op;
        Lay::Nodes(EllTable {
            nodes: op.nodes as u32,
            width: op.width as u32,
            weights: self.weights.as_ptr() as u64,
            neighbours: op.neighbours.as_ptr() as u64,
        })
    }

    fn method(&self, nodes: &TetCells) -> String {
        format!("cpu-tet-ell{}", nodes.problem.op.width)
    }
}
