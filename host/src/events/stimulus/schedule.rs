//! All stimuli of a run ([`StimulusSchedule`]), and their application to
//! a buffer of variable 0 on the host: the CPU's loop over the routine
//! the GPU's stimulus kernel runs.

use kernels_gpu::events::{Recorder, SlicePlacement, stimulate_cell};
use kernels_gpu::{GridDims, ModelInfo};

use super::compiled::{LocalArray, Stimulus};
use super::region::Region;
use super::spec::{StimulusError, StimulusSpec};
use crate::scalar::Scalar;
use crate::state::State;

/// All stimuli of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StimulusSchedule {
    pub stimuli: Vec<Stimulus>,
}

impl StimulusSchedule {
    /// Whether any stimulus is active at `step`, wherever it lies.
    pub fn any_active_at(&self, step: u64) -> bool {
        self.stimuli.iter().any(|s| s.active_at(step))
    }

    /// Compiles every spec (errors name the first bad one, counting from 1).
    pub fn compile(
        specs: &[StimulusSpec],
        dims: GridDims,
        dt_ms: f64,
        model: &ModelInfo,
    ) -> Result<Self, StimulusError> {
        let stimuli = specs
            .iter()
            .enumerate()
            .map(|(i, s)| s.compile(i + 1, dims, dt_ms, model))
            .collect::<Result<_, _>>()?;
        Ok(Self { stimuli })
    }

    pub fn is_empty(&self) -> bool {
        self.stimuli.is_empty()
    }

    /// The first step `>= from` at which some stimulus is active.
    pub fn next_due(&self, from: u64) -> Option<u64> {
        self.stimuli.iter().filter_map(|s| s.next_active(from)).min()
    }

    /// Applies every stimulus active at `step` to a whole-grid state on the
    /// host, in the order given (what the solvers do on their memory);
    /// returns how many were.
    pub fn apply_at<T: Scalar>(&self, step: u64, state: &mut State<T>, dt_ms: f64) -> usize {
        let dims = state.dims();
        let place = SlicePlacement::whole(dims.nz);
        let mut applied = 0;
        let model = state.model();
        // The state keeps each variable in an array of its own.
        let arrays: Vec<u64> =
            (1..model.variables.len()).map(|k| state.slice_mut(k).as_mut_ptr() as u64).collect();
        let array = |k: usize| LocalArray { address: arrays[k], cell_step: 1, cells: dims.cells() };
        for s in self.stimuli.iter().filter(|s| s.active_at(step)) {
            let u = state.slice_mut(0);
            apply_with_mask(s, u, (dims, place), dt_ms, &Recorder::off(), None, Some((model, &array)));
            applied += 1;
        }
        applied
    }

    /// (Stimulus, step) applications in steps `from..to`.
    pub fn applications(&self, from: u64, to: u64) -> u64 {
        let mut n = 0;
        for s in &self.stimuli {
            let mut k = from;
            while let Some(a) = s.next_active(k).filter(|&a| a < to) {
                n += 1;
                k = a + 1;
            }
        }
        n
    }
}

/// Applies `s` to a row-major buffer of variable 0 of `local` cells placed
/// in the whole grid by `place` (see [`Stimulus::local_box`]), recording
/// jumps with `rec`: the CPU's loop over the routine the stimulus kernel
/// runs.
pub fn apply_to_buffer<T: Scalar>(
    s: &Stimulus,
    u: &mut [T],
    local: GridDims,
    place: SlicePlacement,
    dt_ms: f64,
    rec: &Recorder<T>,
) {
    apply_with_mask(s, u, (local, place), dt_ms, rec, None, None);
}

/// The model of a buffer and where the buffer keeps each local variable
/// (by its index among the locals), for a stimulus that carries charge
/// into one ([`Stimulus::carry_into`]).
pub type Carrying<'a> = (&'a ModelInfo, &'a dyn Fn(usize) -> LocalArray);

/// [`apply_to_buffer`] with a mask region's bits for this buffer already
/// made ([`Mask::local_bits`](super::region::Mask::local_bits); made here
/// when `None`), and the buffer's locals, which a model's stimulus
/// carrier is added to (left alone when `None`).
pub fn apply_with_mask<T: Scalar>(
    s: &Stimulus,
    u: &mut [T],
    (local, place): (GridDims, SlicePlacement),
    dt_ms: f64,
    rec: &Recorder<T>,
    bits: Option<&[u32]>,
    locals: Option<Carrying<'_>>,
) {
    let whole = GridDims::new(local.nx, local.ny, place.global_nz);
    let Some((origin, extent)) = s.local_box(whole, local, place) else { return };
    let mut args = s.args::<T>(whole, dt_ms);
    if let Some((model, array)) = locals {
        s.carry_into(&mut args, model, array, dt_ms);
    }
    let made;
    if let Region::Mask(mask) = &s.region {
        let bits = match bits {
            Some(b) => b,
            None => {
                made = mask.local_bits(local, place);
                &made[..]
            }
        };
        assert!(bits.len() * 32 >= local.cells(), "a bit per cell of the buffer");
        args.mask = bits.as_ptr() as u64;
    }
    assert_eq!(u.len(), local.cells(), "the buffer holds the grid");
    let ptr = u.as_mut_ptr();
    for z in origin.nz..origin.nz + extent.nz {
        for y in origin.ny..origin.ny + extent.ny {
            for x in origin.nx..origin.nx + extent.nx {
                // SAFETY: (x, y, z) is a cell of `local` (the box is clipped
                // to it), `u` holds `local`, the recorder is the caller's.
                unsafe { stimulate_cell(ptr, local, None, place, &args, rec, (x, y, z)) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::CellModel;
    use kernels_gpu::models::Karma;

    use crate::events::stimulus::region::RegionKind;
    use crate::events::stimulus::testing::DT;

    #[test]
    fn schedule_finds_the_next_due_step_and_applies_in_order() {
        let dims = GridDims::new(5, 5, 5);
        let mut a = StimulusSpec::new(RegionKind::Box, 0.5);
        a.x = Some([0, 0]);
        a.value = Some(2.0);
        let mut b = StimulusSpec::new(RegionKind::Box, 0.5);
        b.x = Some([0, 1]);
        b.value = Some(1.5);
        let sched = StimulusSchedule::compile(&[a, b], dims, DT, Karma::INFO).unwrap();
        assert_eq!(sched.next_due(0), Some(10));
        assert_eq!(sched.next_due(11), None);
        let mut f = State::<f64>::uniform(Karma::INFO, dims, &[0.0, 0.25]);
        assert_eq!(sched.apply_at(9, &mut f, DT), 0);
        assert_eq!(sched.apply_at(10, &mut f, DT), 2);
        assert_eq!(sched.applications(0, 10), 0);
        assert_eq!(sched.applications(0, 11), 2);
        // The later stimulus wins where they overlap; v is untouched.
        assert_eq!(f.u()[[0, 0, 0]], 1.5);
        assert_eq!(f.u()[[0, 0, 1]], 1.5);
        assert_eq!(f.u()[[0, 0, 2]], 0.0);
        assert!(f.var(1).iter().all(|&v| v == 0.25));
    }
}
