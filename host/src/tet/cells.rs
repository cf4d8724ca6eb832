//! A tetrahedral mesh's nodes as the one-domain solvers store them: a
//! line of cells (`TetProblem::line`), in the problem's node order, which
//! is the domain's, so states and maps cross as they are; every stimulus
//! is tested node by node; the pseudo-ECG is sampled at the electrodes
//! through the mesh's lead fields.

use std::ops::Range;
use std::sync::Arc;

use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::{CellModel, GridDims};

use super::ecg::LeadFields;
use super::problem::TetProblem;
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::events::stimulus::Stimulus;
use crate::scalar::Scalar;
use crate::state::State;
use crate::tissue::mesh_cells::MeshCells;

/// The nodes of `problem`, with the lead fields of the electrodes sampled
/// so far (made at the first sample of each).
pub(crate) struct TetCells {
    pub problem: Arc<TetProblem>,
    ecg: LeadFields,
}

impl TetCells {
    pub fn new(problem: &Arc<TetProblem>) -> Self {
        Self { problem: problem.clone(), ecg: LeadFields::default() }
    }

    /// Asserts that a solver of model `M` for `problem` is given a domain
    /// and a state of its node line (programming errors otherwise).
    pub fn check_inputs<M: CellModel, T: Scalar>(domain: &Domain, problem: &TetProblem, state: &State<T>) {
        assert_eq!(domain.dims(), problem.line(), "the domain is the mesh's node line");
        assert_eq!(state.dims(), problem.line(), "a state of the mesh's nodes");
        assert_eq!(state.model().name, M::INFO.name, "a state of the solver's model");
    }
}

impl MeshCells for TetCells {
    fn stored(&self) -> usize {
        self.problem.nodes()
    }

    fn dims(&self) -> GridDims {
        self.problem.line()
    }

    /// The nodes are the line's cells (no index table).
    fn host_index(&self) -> u64 {
        0
    }

    /// Every node: a stimulus's region is tested node by node.
    fn stimulus_ranges(&self, _: &Stimulus) -> Vec<Range<u32>> {
        let every = 0..self.problem.nodes() as u32;
        vec![every]
    }

    fn state<M: CellModel, T: Scalar>(&self, vars: &[&[T]]) -> State<T> {
        State::from_vecs(M::INFO, self.problem.line(), vars.iter().map(|v| v.to_vec()).collect())
    }

    fn scatter<M: CellModel, T: Scalar>(&self, state: &State<T>) -> (Vec<T>, Vec<T>) {
        assert_eq!(state.dims(), self.problem.line(), "a state of the mesh's nodes");
        assert_eq!(state.model().name, M::INFO.name, "a state of the solver's model");
        let local = (1..state.len()).flat_map(|k| state.slice(k).iter().copied()).collect();
        (state.slice(0).to_vec(), local)
    }

    fn maps_in(&self, maps: &Maps) -> Maps {
        maps.clone()
    }

    fn maps_out(&self, maps: &Maps) -> Maps {
        maps.clone()
    }

    fn ecg<M: CellModel, T: Scalar>(&mut self, probes: &[EcgProbe], u: &[T]) -> Vec<f64> {
        self.ecg.sample_at(&self.problem.mesh, probes, u)
    }
}
