//! The CPU solver of a tetrahedral mesh: the reference of the GPU's node
//! kernel. Every node is stepped by the very function the kernel calls
//! (`kernels_gpu::tet::step_node`) on buffers laid out as on the device,
//! through the tissue's host fields and events (the nodes are a line of
//! stored cells), so stimuli, maps and NaN checks act as on the grid.

use std::sync::Arc;

use kernels_gpu::tet::EllTable;
use kernels_gpu::{CellModel, Locals, StepCoeffs};

use super::ecg::LeadFields;
use super::problem::TetProblem;
use crate::backend::cpu::cpu_name;
use crate::cell_params::CellCoeffs;
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
use crate::state::State;
use crate::tissue::cpu::{HostTissue, Lay};
use kernels_gpu::ecg::EcgProbe;

pub struct TetCpuSolver<M: CellModel, T: Scalar> {
    problem: Arc<TetProblem>,
    step: StepCoeffs<T>,
    coeffs: CellCoeffs<M, T>,
    fields: HostTissue<T>,
    weights: Vec<T>,
    ecg: LeadFields,
}

/// Asserts that a solver of model `M` for `problem` is given a domain
/// and a state of its node line (programming errors otherwise).
pub(crate) fn check_inputs<M: CellModel, T: Scalar>(domain: &Domain, problem: &TetProblem, state: &State<T>) {
    assert_eq!(domain.dims(), problem.line(), "the domain is the mesh's node line");
    assert_eq!(state.dims(), problem.line(), "a state of the mesh's nodes");
    assert_eq!(state.model().name, M::INFO.name, "a state of the solver's model");
}

impl<M: CellModel, T: Scalar> TetCpuSolver<M, T> {
    /// A solver of `problem` for the domain's model and time step (checked
    /// against the operator by [`TetProblem::check_dt`] before).
    ///
    /// # Panics
    /// If `domain` or `initial` is not of the problem's node line or of
    /// model `M` (programming errors).
    pub fn new(domain: &Domain, problem: &Arc<TetProblem>, initial: &State<T>) -> Self {
        check_inputs::<M, T>(domain, problem, initial);
        let mut solver = Self {
            problem: problem.clone(),
            // The weights are the operator in 1/time: the diffusion term
            // is multiplied by dt.
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            // The nodes are the domain's cells, in the solver's order.
            coeffs: CellCoeffs::new(domain, problem.nodes(), Some),
            fields: HostTissue::new(problem.nodes(), domain.dt_ms()),
            weights: problem.weights(),
            ecg: LeadFields::default(),
        };
        solver.load(initial);
        solver
    }

    fn load(&mut self, state: &State<T>) {
        let local: Vec<T> = (1..state.len()).flat_map(|k| state.slice(k).iter().copied()).collect();
        self.fields.load(state.slice(0).to_vec(), local);
    }

    fn table(&self) -> EllTable {
        let op = &self.problem.op;
        EllTable {
            nodes: op.nodes as u32,
            width: op.width as u32,
            weights: self.weights.as_ptr() as u64,
            neighbours: op.neighbours.as_ptr() as u64,
        }
    }

    fn stimulate(&mut self) {
        // The nodes are the line's cells (no index table).
        self.fields.stimulate(self.problem.line(), 0, M::INFO);
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TetCpuSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Cpu(cpu_name())
    }

    fn method(&self) -> String {
        format!("cpu-tet-ell{}", self.problem.op.width)
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        let lay = Lay::Nodes(self.table());
        for _ in 0..steps {
            self.stimulate();
            // SAFETY: the table is this solver's, over its nodes (every
            // neighbour a node), the fields hold the nodes.
            unsafe { self.fields.step::<M>(lay, &self.step, &self.coeffs, 0..self.problem.nodes()) };
        }
        Ok(())
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        self.stimulate();
        let n = self.problem.nodes();
        let mut vars = vec![self.fields.u.clone()];
        for k in 0..M::Locals::<T>::COUNT {
            vars.push(self.fields.local[k * n..(k + 1) * n].to_vec());
        }
        Ok(State::from_vecs(M::INFO, self.problem.line(), vars))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        assert_eq!(state.dims(), self.problem.line(), "a state of the mesh's nodes");
        self.load(state);
        Ok(())
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        let every = 0..self.problem.nodes() as u32;
        let ranges = events.stimuli.stimuli.iter().map(|_| vec![every.clone()]).collect();
        self.fields.set_events((events, start), self.problem.line(), ranges, maps.cloned());
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate();
        Ok(self.fields.events.maps.clone())
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate();
        Ok(self.ecg.sample_at(&self.problem.mesh, probes, &self.fields.u))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        Ok(self.fields.any_nonfinite())
    }
}
