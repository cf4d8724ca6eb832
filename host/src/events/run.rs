//! The events of a run as the solvers take them: the stimuli and the
//! recording for the whole grid ([`Events`]), the step they start at
//! ([`EventStart`]).

use super::recording::Recording;
use super::stimulus::StimulusSchedule;

/// Where a solver's events start: the step the state is at, and whether
/// the stimuli due at that step are already in the state (a checkpoint
/// holds the state after them; a new run's initial state does not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventStart {
    pub step: u64,
    pub stimuli_applied: bool,
}

impl EventStart {
    /// A new run, at step 0.
    pub const NEW: EventStart = EventStart { step: 0, stimuli_applied: false };

    /// A run resumed from a checkpoint at `step`.
    pub const fn resumed(step: u64) -> Self {
        Self { step, stimuli_applied: true }
    }
}

/// The events of a run, for the whole grid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Events {
    pub stimuli: StimulusSchedule,
    pub recording: Option<Recording>,
}
