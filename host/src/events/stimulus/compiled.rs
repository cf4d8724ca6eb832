//! A stimulus ready to run: its region, what it does while active and the
//! steps at which it is, and the arguments of the stimulus routine that
//! applies it to a buffer of the grid.

use kernels_gpu::GridDims;
use kernels_gpu::ModelInfo;
use kernels_gpu::events::{SlicePlacement, StimulusArgs, StimulusMode};
use kernels_gpu::model::MAX_CARRIERS;

use super::region::{Region, RegionKind};
use crate::scalar::Scalar;

/// What a stimulus does while active.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Variable 0 set to this value.
    Set(f64),
    /// du/dt raised by this current.
    Current(f64),
}

/// Where a buffer keeps one local variable (host or device memory), for
/// a stimulus that carries charge into it: cell i's value at `address`
/// plus `i * cell_step` values, for the first `cells` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalArray {
    pub address: u64,
    pub cell_step: usize,
    pub cells: usize,
}

impl LocalArray {
    /// Local variable `k` of locals kept a variable after another,
    /// `stride` values each (the kernels' layout), at `base`.
    pub fn by_variable<T>(base: u64, stride: usize, cells: usize, k: usize) -> Self {
        Self { address: base + (k * stride * std::mem::size_of::<T>()) as u64, cell_step: 1, cells }
    }

    /// Local variable `k` of locals kept cell after cell, `count` each.
    pub fn by_cell<T>(base: u64, count: usize, cells: usize, k: usize) -> Self {
        Self { address: base + (k * std::mem::size_of::<T>()) as u64, cell_step: count, cells }
    }
}

/// A stimulus ready to run: a region and the steps at which it is active.
#[derive(Clone, Debug, PartialEq)]
pub struct Stimulus {
    pub kind: RegionKind,
    pub region: Region,
    pub action: Action,
    /// First step at which it is active.
    pub start_step: u64,
    /// Consecutive steps it stays active in each beat (at least 1).
    pub steps: u64,
    /// Steps between beats, for periodic pacing.
    pub period_steps: Option<u64>,
    /// Number of beats (with a period); `None` repeats until the run ends.
    pub count: Option<u64>,
}

impl Stimulus {
    /// What the stimulus routine needs, for a time step of `dt_ms`: a
    /// current becomes the increment `current * dt`, rounded once to `T`.
    pub fn args<T: Scalar>(&self, dims: GridDims, dt_ms: f64) -> StimulusArgs<T> {
        let mut args = self.region.args::<T>(dims);
        match self.action {
            Action::Set(value) => args.amount = T::from_f64(value),
            Action::Current(current) => {
                args.mode = StimulusMode::Add as u32;
                args.amount = T::from_f64(current * dt_ms);
            }
        }
        args
    }

    /// Points `args` (this stimulus's) at `model`'s stimulus carriers,
    /// where the model has any and this stimulus injects a current:
    /// `array(k)` says where the buffer keeps local variable k. Each
    /// carried amount is `per_u * current * dt`, rounded once.
    pub fn carry_into<T: Scalar>(
        &self,
        args: &mut StimulusArgs<T>,
        model: &ModelInfo,
        array: impl Fn(usize) -> LocalArray,
        dt_ms: f64,
    ) {
        let (Action::Current(current), Some(stimulus)) = (self.action, model.stimulus_current) else {
            return;
        };
        assert!(stimulus.carriers.len() <= MAX_CARRIERS, "{}: too many stimulus carriers", model.name);
        for (k, carrier) in stimulus.carriers.iter().enumerate() {
            let at = array(carrier.variable - 1);
            args.carriers[k] = at.address;
            args.carries[k] = carrier.carry.map_or(0, |c| array(c - 1).address);
            args.carrier_cells = u32::try_from(at.cells).expect("a buffer's cells fit u32");
            args.carrier_step = u32::try_from(at.cell_step).expect("a cell's locals fit u32");
            args.carried[k] = T::from_f64(carrier.per_u * current * dt_ms);
        }
    }

    /// The cells of a buffer of `local` cells placed in the whole grid by
    /// `place` (a sub-domain with its halo slices, or the whole grid) that
    /// the stimulus may touch: a box `(origin, extent)` in the buffer's
    /// cells, or `None` if it touches none of them.
    pub fn local_box(
        &self,
        whole: GridDims,
        local: GridDims,
        place: SlicePlacement,
    ) -> Option<(GridDims, GridDims)> {
        let (lo, hi) = self.region.bounds(whole);
        let inside = |z: &u32| (lo[2]..hi[2]).contains(&place.global_z(*z));
        let first = (0..local.nz).find(inside)?;
        let last = (0..local.nz).rev().find(inside).unwrap_or(first);
        if lo[0] >= hi[0] || lo[1] >= hi[1] {
            return None;
        }
        Some((
            GridDims::new(lo[0], lo[1], first),
            GridDims::new(hi[0] - lo[0], hi[1] - lo[1], last + 1 - first),
        ))
    }

    /// Whether it is active at `step`.
    pub fn active_at(&self, step: u64) -> bool {
        self.next_active(step) == Some(step)
    }

    /// The first step `>= from` at which it is active.
    pub fn next_active(&self, from: u64) -> Option<u64> {
        if from <= self.start_step {
            return Some(self.start_step);
        }
        let since = from - self.start_step;
        let Some(period) = self.period_steps else {
            return (since < self.steps).then_some(from);
        };
        let beat = since / period;
        let offset = since % period;
        let limit = self.count.unwrap_or(u64::MAX);
        if beat >= limit {
            return None;
        }
        if offset < self.steps {
            return Some(from);
        }
        (beat + 1 < limit).then(|| self.start_step + (beat + 1) * period)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::stimulus::spec::StimulusSpec;
    use crate::events::stimulus::testing::compile;

    #[test]
    fn a_duration_clamps_u_at_every_step_of_it() {
        let dims = GridDims::new(4, 4, 4);
        let mut spec = StimulusSpec::new(RegionKind::Box, 1.0);
        spec.duration_ms = 0.15;
        let s = compile(&spec, dims).unwrap();
        assert_eq!((s.start_step, s.steps), (20, 3));
        let active: Vec<u64> = (0..40).filter(|&k| s.active_at(k)).collect();
        assert_eq!(active, vec![20, 21, 22]);
        // Once = one step.
        spec.duration_ms = 0.0;
        let s = compile(&spec, dims).unwrap();
        assert_eq!((0..40).filter(|&k| s.active_at(k)).count(), 1);
    }

    #[test]
    fn pacing_repeats_count_times() {
        let dims = GridDims::new(4, 4, 4);
        let mut spec = StimulusSpec::new(RegionKind::Box, 0.5);
        spec.duration_ms = 0.1;
        spec.period_ms = Some(1.0);
        spec.count = Some(3);
        let s = compile(&spec, dims).unwrap();
        let active: Vec<u64> = (0..100).filter(|&k| s.active_at(k)).collect();
        assert_eq!(active, vec![10, 11, 30, 31, 50, 51]);
        assert_eq!(s.next_active(12), Some(30));
        assert_eq!(s.next_active(52), None);
        // Without a count it goes on.
        spec.count = None;
        let s = compile(&spec, dims).unwrap();
        assert_eq!(s.next_active(1_000_000_002), Some(1_000_000_010));
    }
}
