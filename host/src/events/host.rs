//! The events of a solver whose fields live in host memory (every CPU
//! solver, box or tissue, one domain or a part of a split): the clock, the
//! mask bits its stimulus code reads, and the maps its recorder writes
//! into. One copy, so that every CPU solver applies a step's stimuli once
//! and records with the same recorder.

use kernels_gpu::GridDims;
use kernels_gpu::events::{Recorder, SlicePlacement};

use super::clock::EventClock;
use super::recording::Maps;
use super::run::{EventStart, Events};
use super::stimulus::{self, Stimulus};
use crate::scalar::Scalar;

/// The events of a solver whose variable 0 lives in host memory (one
/// buffer: a box, a tissue's stored cells, or one part of a split): the
/// clock, each mask stimulus's bits as the buffer's stimulus code reads
/// them, and the maps the recorder writes into.
#[derive(Clone, Debug)]
pub struct HostEvents {
    pub clock: EventClock,
    /// The cells the maps hold.
    pub cells: usize,
    pub maps: Option<Maps>,
    /// Each mask stimulus's bits (others `None`).
    pub masks: Vec<Option<Vec<u32>>>,
}

impl HostEvents {
    /// No events, step 0, for a buffer of `cells` cells.
    pub fn none(cells: usize, dt_ms: f64) -> Self {
        Self { clock: EventClock::new(dt_ms), cells, maps: None, masks: Vec::new() }
    }

    /// The bits of every mask stimulus of `events` in the slices `place`
    /// puts the buffer `local` at (for [`HostEvents::restart`]).
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

    /// `events` for a run that stands at `start`, with the buffer's mask
    /// bits and maps (given exactly when the events record).
    pub fn restart(
        &mut self,
        events: &Events,
        start: EventStart,
        masks: Vec<Option<Vec<u32>>>,
        maps: Option<Maps>,
    ) {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        self.clock.restart(events, start);
        self.masks = masks;
        self.maps = maps;
    }

    /// Unless they are applied already, hands `apply` each stimulus active
    /// at the current step (its index, itself, its mask bits) with the
    /// recorder of the step, in the schedule's order. Called before a step
    /// and before the state or the maps are read, so that the state at
    /// step s is always the state after s's stimuli.
    pub fn stimulate<T: Scalar>(
        &mut self,
        mut apply: impl FnMut(usize, &Stimulus, Option<&[u32]>, &Recorder<T>),
    ) {
        if !self.clock.take_stimuli() {
            return;
        }
        let rec = self.recorder::<T>();
        for (k, s) in self.clock.events.stimuli.stimuli.iter().enumerate() {
            if s.active_at(self.clock.step) {
                apply(k, s, self.masks.get(k).and_then(|m| m.as_deref()), &rec);
            }
        }
    }

    /// The recorder at the current step (off without maps).
    pub fn recorder<T: Scalar>(&mut self) -> Recorder<T> {
        match &mut self.maps {
            Some(maps) => {
                let addresses = maps.host_addresses();
                maps.recording.recorder::<T>(addresses, self.cells, self.clock.dt_ms).at(self.clock.t_ms())
            }
            None => Recorder::off(),
        }
    }
}
