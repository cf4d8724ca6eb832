//! Where a solver stands in the run's events: the step count that stimuli
//! and maps go by, and whether that step's stimuli are in U already. One
//! copy for every solver (box and tissue, CPU and GPU, one domain or
//! split), so that they cannot drift apart in when a stimulus applies.

use super::run::{EventStart, Events};

/// The run's events and where a solver stands in them: the step count
/// (from the step `set_events` gives) and whether that step's stimuli are
/// in U already, so that reading the state, the maps or the ECG between
/// two steps applies them once.
#[derive(Clone, Debug)]
pub struct EventClock {
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

    /// Whether stimulus `k` of the run is active at the current step.
    pub fn active(&self, k: usize) -> bool {
        self.events.stimuli.stimuli[k].active_at(self.step)
    }

    /// `events`, for a run that stands at `start`.
    pub fn restart(&mut self, events: &Events, start: EventStart) {
        self.events = events.clone();
        self.step = start.step;
        self.stimulated = start.stimuli_applied.then_some(start.step);
    }
}
