//! What the four tissue solvers (CPU and GPU, one domain or split into
//! parts) share beside the kernels: the checks of what they are given, and
//! the run's events with the step count that stimuli and maps go by. One
//! copy, so that the solvers cannot drift apart in when a stimulus applies.

use kernels_gpu::events::SlicePlacement;
use kernels_gpu::{CellModel, GridDims};

use super::weights::Operator;
use crate::domain::Domain;
use crate::events::stimulus::{Region, Stimulus};
use crate::events::{EventStart, Events};
use crate::scalar::Scalar;
use crate::state::State;

/// Asserts that a solver of model `M` is built for `domain`'s grid from an
/// initial state and an operator of that grid and model (a programming
/// error otherwise).
pub(super) fn check_inputs<M: CellModel, T: Scalar>(domain: &Domain, op: &Operator, initial: &State<T>) {
    assert_eq!(initial.dims(), domain.dims(), "initial state matches the domain");
    assert_eq!(op.dims, domain.dims(), "the tissue's grid is the domain's");
    assert_eq!(initial.model().name, M::INFO.name, "initial state of this model");
}

/// Asserts that a state given to a solver of model `M` on the grid `dims`
/// is of that grid and model.
pub(super) fn check_state<M: CellModel, T: Scalar>(state: &State<T>, dims: GridDims) {
    assert_eq!(state.dims(), dims, "state matches the solver's grid");
    assert_eq!(state.model().name, M::INFO.name, "state of the solver's model");
}

/// Variable 0 of model `M` at rest: the value the pseudo-ECG's box field
/// takes outside the tissue.
pub(super) fn rest_u<M: CellModel, T: Scalar>() -> T {
    T::from_f64(M::INFO.variables[0].rest)
}

/// A mask stimulus's bits over the whole box `dims` (the stored cells of
/// every layout and part name their cell by its box index); `None` for
/// the other regions.
pub(super) fn box_mask_bits(s: &Stimulus, dims: GridDims) -> Option<Vec<u32>> {
    match &s.region {
        Region::Mask(mask) => Some(mask.local_bits(dims, SlicePlacement::whole(dims.nz))),
        _ => None,
    }
}

/// The run's events and where a solver stands in them: the step count
/// (from the step `set_events` gives) and whether that step's stimuli are
/// in U already, so that reading the state, the maps or the ECG between
/// two steps applies them once.
pub(super) struct EventClock {
    pub dt_ms: f64,
    /// The current step.
    pub step: u64,
    /// The step whose stimuli are in U.
    stimulated: Option<u64>,
    pub events: Events,
}

impl EventClock {
    /// At step 0 without events.
    pub fn new(dt_ms: f64) -> Self {
        Self { dt_ms, step: 0, stimulated: None, events: Events::default() }
    }

    /// The time of the current step.
    pub fn t_ms(&self) -> f64 {
        self.step as f64 * self.dt_ms
    }

    /// Whether the stimuli of the current step are still to be applied;
    /// from this call on they count as applied.
    pub fn take_stimuli(&mut self) -> bool {
        if self.stimulated == Some(self.step) {
            return false;
        }
        self.stimulated = Some(self.step);
        true
    }

    /// `events`, for a run that stands at `start`.
    pub fn restart(&mut self, events: &Events, start: EventStart) {
        self.events = events.clone();
        self.step = start.step;
        self.stimulated = start.stimuli_applied.then_some(start.step);
    }
}
