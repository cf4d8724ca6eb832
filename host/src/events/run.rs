//! The events of a run as the solvers take them: the stimuli and the
//! recording for the whole grid ([`Events`]), the step they start at
//! ([`EventStart`]), and one host buffer's share with its step counter
//! and maps ([`HostEvents`]).

use kernels_gpu::GridDims;
use kernels_gpu::events::{Recorder, SlicePlacement};

use super::recording::{Maps, Recording};
use super::stimulus::{self, StimulusSchedule, apply_with_mask};
use crate::scalar::Scalar;

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

/// One buffer's share of the events (the whole grid, or a sub-domain with
/// its halo slices), for a solver whose variable 0 lives in host memory:
/// the step counter, the stimuli, and the maps the recorder writes into.
#[derive(Clone, Debug)]
pub struct HostEvents {
    pub events: Events,
    pub step: u64,
    /// The step whose stimuli are in the state.
    pub stimulated: Option<u64>,
    pub dt_ms: f64,
    pub local: GridDims,
    pub place: SlicePlacement,
    pub maps: Option<Maps>,
    /// Each mask stimulus's bits for this buffer (others `None`).
    pub masks: Vec<Option<Vec<u32>>>,
}

impl HostEvents {
    /// No events, step 0, for a whole grid.
    pub fn none(local: GridDims, dt_ms: f64) -> Self {
        Self {
            events: Events::default(),
            step: 0,
            stimulated: None,
            dt_ms,
            local,
            place: SlicePlacement::whole(local.nz),
            maps: None,
            masks: Vec::new(),
        }
    }

    /// The buffer's bits of every mask stimulus (for [`HostEvents::masks`]).
    pub fn mask_bits(events: &Events, local: GridDims, place: SlicePlacement) -> Vec<Option<Vec<u32>>> {
        events
            .stimuli
            .stimuli
            .iter()
            .map(|s| match &s.region {
                stimulus::Region::Mask(mask) => Some(mask.local_bits(local, place)),
                _ => None,
            })
            .collect()
    }

    /// Applies the stimuli active at the current step to `u` (variable 0 of
    /// the buffer), recording the jumps, unless they are applied already.
    /// Called before a step and before the state or the maps are read, so
    /// that the state at step s is always the state after s's stimuli.
    pub fn stimulate<T: Scalar>(&mut self, u: &mut [T]) {
        if self.stimulated == Some(self.step) {
            return;
        }
        self.stimulated = Some(self.step);
        let rec = self.recorder::<T>();
        for (k, s) in self.events.stimuli.stimuli.iter().enumerate() {
            if s.active_at(self.step) {
                let bits = self.masks.get(k).and_then(|m| m.as_deref());
                apply_with_mask(s, u, (self.local, self.place), self.dt_ms, &rec, bits);
            }
        }
    }

    /// The recorder at the current step (off without maps).
    pub fn recorder<T: Scalar>(&mut self) -> Recorder<T> {
        let t_ms = self.step as f64 * self.dt_ms;
        match &mut self.maps {
            Some(maps) => {
                let addresses = maps.host_addresses();
                maps.recording.recorder::<T>(addresses, self.local.cells(), self.dt_ms).at(t_ms)
            }
            None => Recorder::off(),
        }
    }
}
