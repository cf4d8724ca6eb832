//! What happens to variable 0 besides the time step, written once for the
//! CPU and the GPU: stimuli (set-value and current) and the recording of
//! threshold crossings (activation and repolarisation times).
//!
//! Both run on the device without a round trip through the host. The
//! recorder is fused into every step kernel: the kernel has the cell's old
//! and new value in registers, so detecting a crossing costs two compares
//! per cell, and memory is touched only at a crossing (once or twice per
//! beat per cell), which keeps a run with activation and APD maps at the
//! speed of a run without them. A stimulus is a small kernel over its
//! region before the step it belongs to.

use crate::layout::grid::GridDims;
use crate::layout::tower::TowerLayout;
use crate::model::MAX_CARRIERS;
use crate::real::{Real, compensated_add};
use crate::stencil::mirror;

/// Where and how a step kernel records threshold crossings of variable 0.
///
/// `#[repr(C)]`, passed by value to every step kernel and the stimulus
/// kernel; the addresses are device pointers on the GPU and host pointers
/// on the CPU (0 when absent).
///
/// Two modes:
/// - first crossings (`count == 0`): `activation[i]` is the first upward
///   crossing of `up`, `repolarisation[i]` the first downward crossing of
///   `down` after it; NaN until they happen;
/// - per beat (`count != 0`, `beats` slots): the last `beats` activations of
///   each cell and the repolarisation that followed each, in a ring indexed
///   by `count[i]` (activations so far) modulo `beats`; slot `s` of cell
///   `i` is at `s * cells + i`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorder<T> {
    /// `*mut f32`, `beats * cells` times in ms; 0: nothing is recorded.
    pub activation: u64,
    /// `*mut f32`, as `activation`; 0: no repolarisation times.
    pub repolarisation: u64,
    /// `*mut u32`, activations so far per cell; 0: first-crossing mode.
    pub count: u64,
    /// Time at the start of the step being taken, ms.
    pub t_ms: f64,
    pub dt_ms: f64,
    /// Cells per slot (the buffer's grid, halo slices included).
    pub cells: u32,
    /// Slots per cell (1 in first-crossing mode).
    pub beats: u32,
    /// Activation threshold (upward crossings).
    pub up: T,
    /// Repolarisation threshold (downward crossings).
    pub down: T,
}

impl<T: Real> Recorder<T> {
    /// Records nothing (what `fibril bench` passes).
    pub const fn off() -> Self {
        Self {
            activation: 0,
            repolarisation: 0,
            count: 0,
            t_ms: 0.0,
            dt_ms: 0.0,
            cells: 0,
            beats: 1,
            up: T::ZERO,
            down: T::ZERO,
        }
    }

    /// The same recorder for the step that starts at `t_ms`.
    #[inline(always)]
    pub const fn at(mut self, t_ms: f64) -> Self {
        self.t_ms = t_ms;
        self
    }

    /// Records a crossing between `before` (the cell's value at the start
    /// of the step) and `after` (at its end), at the time where the straight
    /// line between them meets the threshold.
    ///
    /// # Safety
    /// When recording is on, the addresses hold the lengths the type's doc
    /// gives and `i < cells`; no other thread touches cell `i`'s entries.
    #[inline(always)]
    pub unsafe fn record(&self, i: u32, before: T, after: T) {
        if let Some(up) = self.crossed(before, after) {
            let threshold = if up { self.up } else { self.down };
            let t = self.crossing_time(threshold, before, after);
            // SAFETY: forwarded from the caller.
            unsafe { self.crossing(i, up, t) }
        }
    }

    /// Records a jump of the cell's value at the start of the step (a
    /// stimulus): a crossing at `t_ms` itself.
    ///
    /// # Safety
    /// As [`Recorder::record`].
    #[inline(always)]
    pub unsafe fn record_jump(&self, i: u32, before: T, after: T) {
        if let Some(up) = self.crossed(before, after) {
            // SAFETY: forwarded from the caller.
            unsafe { self.crossing(i, up, self.t_ms as f32) }
        }
    }

    /// `Some(true)` for an upward crossing of `up`, `Some(false)` for a
    /// downward one of `down` (never both: they would need after >= up >
    /// down > after or the reverse), `None` otherwise or when off.
    #[inline(always)]
    fn crossed(&self, before: T, after: T) -> Option<bool> {
        if self.activation == 0 {
            return None;
        }
        let up = before < self.up && after >= self.up;
        let down = before >= self.down && after < self.down;
        if up | down { Some(up) } else { None }
    }

    /// `t_ms + frac * dt_ms`, frac the linear interpolant's zero, in f64
    /// whatever `T` is, rounded once to f32 (the maps' type).
    #[inline(always)]
    fn crossing_time(&self, threshold: T, before: T, after: T) -> f32 {
        let (b, a) = (before.to_f64(), after.to_f64());
        let frac = (threshold.to_f64() - b) / (a - b);
        (self.t_ms + frac * self.dt_ms) as f32
    }

    /// Writes the crossing into the maps.
    ///
    /// # Safety
    /// As [`Recorder::record`].
    #[inline(always)]
    unsafe fn crossing(&self, i: u32, up: bool, t: f32) {
        // SAFETY: forwarded from the caller.
        unsafe {
            write_crossing(self.activation, self.repolarisation, self.count, self.cells, self.beats, i, up, t)
        }
    }
}

/// Writes a crossing into the maps (`act`, `rep` and `count` are the
/// recorder's addresses). Rare (once or twice per beat per cell), so kept
/// out of line: the step kernels' common path stays short. Every argument
/// is a scalar: the NVPTX back end passes an aggregate through a copy on
/// the stack, whose frame every step kernel then set up on its common path
/// (four instructions a thread, 24 bytes of stack).
///
/// # Safety
/// As [`Recorder::record`].
#[inline(never)]
#[cold]
#[allow(clippy::too_many_arguments, reason = "scalars on purpose: see the doc")]
unsafe fn write_crossing(act: u64, rep: u64, count: u64, cells: u32, beats: u32, i: u32, up: bool, t: f32) {
    let i = i as usize;
    let cells = cells as usize;
    let has_rep = rep != 0;
    let (act, rep) = (act as *mut f32, rep as *mut f32);
    // SAFETY: the caller guarantees the buffers' lengths and exclusive
    // access to cell i's entries.
    unsafe {
        if count == 0 {
            let first = *act.add(i);
            if up {
                if first.is_nan() {
                    *act.add(i) = t;
                }
            } else if has_rep && !first.is_nan() && (*rep.add(i)).is_nan() {
                *rep.add(i) = t;
            }
            return;
        }
        let count = count as *mut u32;
        let c = *count.add(i);
        let beats = if beats == 0 { 1 } else { beats };
        if up {
            let slot = (c % beats) as usize * cells + i;
            *act.add(slot) = t;
            if has_rep {
                *rep.add(slot) = f32::NAN;
            }
            *count.add(i) = c.saturating_add(1);
        } else if has_rep && c > 0 {
            let slot = ((c - 1) % beats) as usize * cells + i;
            if (*rep.add(slot)).is_nan() {
                *rep.add(slot) = t;
            }
        }
    }
}

/// What a stimulus does to variable 0 in its region.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StimulusMode {
    /// u = amount (the paper's S1 and S2: a set value).
    Set = 0,
    /// u += amount, with amount = current * dt: a current injected during
    /// the step, split off from the step that follows (first order in dt,
    /// like the forward Euler step itself).
    Add = 1,
}

/// A stimulus region in the cells of the whole grid, and what it does.
///
/// `#[repr(C)]`: passed by value to the stimulus kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StimulusArgs<T> {
    /// Half-open bounding box on the whole grid, (x, y, z).
    pub lo: [u32; 3],
    pub hi: [u32; 3],
    /// 0: the box; 1: a ball of centre `center` and radius^2 `radius2`
    /// (cells); 2: the cells whose bit is set in `mask`.
    pub kind: u32,
    /// A [`StimulusMode`].
    pub mode: u32,
    pub center: [f64; 3],
    pub radius2: f64,
    /// `*const u32`, one bit per cell of the buffer's grid (bit i % 32 of
    /// word i / 32, row-major); 0 unless `kind == 2`.
    pub mask: u64,
    /// The value set, or the increment added.
    pub amount: T,
    /// `*mut T` each: the arrays of the model's stimulus carriers
    /// ([`crate::model::StimulusCarrier`]) in the buffer's locals, indexed
    /// as the locals are (row-major cell, or stored cell); 0 where the
    /// model has fewer or the stimulus sets a value.
    pub carriers: [u64; MAX_CARRIERS],
    /// `*mut T` each, laid out as `carriers`: the arrays of the carriers'
    /// rounding errors ([`crate::model::StimulusCarrier::carry`]); 0 where
    /// a carrier has none. Read in f32 only.
    pub carries: [u64; MAX_CARRIERS],
    /// Cells of those arrays: stored cells from this index on (a part's
    /// halo) have no locals and are left alone.
    pub carrier_cells: u32,
    /// Values from one cell's carrier to the next's: 1 where the locals
    /// are a variable after another, the number of locals where they are
    /// cell after cell (the CPU's grid solver).
    pub carrier_step: u32,
    /// What one application adds to each carrier: its `per_u` times the
    /// current times dt, formed in f64 and rounded once to `T`.
    pub carried: [T; MAX_CARRIERS],
}

pub const REGION_BOX: u32 = 0;
pub const REGION_SPHERE: u32 = 1;
pub const REGION_MASK: u32 = 2;

impl<T: Real> StimulusArgs<T> {
    /// Whether global cell (x, y, z) is in the region; `i` is its index in
    /// the buffer the mask was built for.
    ///
    /// # Safety
    /// With a mask, `mask` holds a bit for index `i`.
    #[inline(always)]
    pub unsafe fn contains(&self, x: u32, y: u32, z: u32, i: u32) -> bool {
        let p = [x, y, z];
        let mut a = 0;
        while a < 3 {
            if p[a] < self.lo[a] || p[a] >= self.hi[a] {
                return false;
            }
            a += 1;
        }
        match self.kind {
            REGION_SPHERE => {
                let d = [x as f64 - self.center[0], y as f64 - self.center[1], z as f64 - self.center[2]];
                d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= self.radius2
            }
            REGION_MASK => {
                // SAFETY: the caller guarantees the mask covers i.
                let word = unsafe { *(self.mask as *const u32).add((i / 32) as usize) };
                word & (1 << (i % 32)) != 0
            }
            _ => true,
        }
    }

    /// The new value of a cell of the region.
    #[inline(always)]
    pub fn apply(&self, u: T) -> T {
        if self.mode == StimulusMode::Add as u32 { u + self.amount } else { self.amount }
    }

    /// Adds the carried charge to cell `i`'s carriers (the locals'
    /// index), where there are any; called once per application, beside
    /// [`StimulusArgs::apply`]. In f32 a carrier with a rounding error of
    /// its own takes the charge by [`compensated_add`], as the model's
    /// step adds its currents.
    ///
    /// # Safety
    /// Each of `carriers` and `carries` is 0 or holds a value every
    /// `carrier_step` for `carrier_cells` cells.
    #[inline(always)]
    pub unsafe fn carry(&self, i: u32) {
        if i >= self.carrier_cells {
            return;
        }
        let mut k = 0;
        while k < MAX_CARRIERS {
            if self.carriers[k] != 0 {
                let cell = i as usize * self.carrier_step as usize;
                let at = (self.carriers[k] as *mut T).wrapping_add(cell);
                // SAFETY: i < carrier_cells, per the contract.
                unsafe {
                    if T::BYTES == 4 && self.carries[k] != 0 {
                        let carry = (self.carries[k] as *mut T).wrapping_add(cell);
                        (*at, *carry) = compensated_add(*at, *carry, self.carried[k]);
                    } else {
                        *at = *at + self.carried[k];
                    }
                }
            }
            k += 1;
        }
    }
}

/// Where a buffer's slices lie in the whole grid: local slice `z` holds
/// global slice `mirror(z + offset, nz)` (a sub-domain's halo slices
/// included: the one below the bottom sub-domain is global slice 1 by the
/// mirror rule). One GPU: offset 0, every slice its own.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlicePlacement {
    pub offset: i32,
    pub global_nz: u32,
}

impl SlicePlacement {
    pub const fn whole(nz: u32) -> Self {
        Self { offset: 0, global_nz: nz }
    }

    #[inline(always)]
    pub const fn global_z(&self, local_z: u32) -> u32 {
        mirror(local_z as i64 + self.offset as i64, self.global_nz as i64) as u32
    }
}

/// Every place of a tower-layout buffer that holds cell (x, y, z): its core
/// entry and the extra lines of the neighbouring towers (or the mirror
/// columns at the x edges) that copy it. Returns the positions and how
/// many of the three are used.
#[inline(always)]
pub const fn tower_copies(lay: &TowerLayout, x: u32, y: u32, z: u32) -> ([u32; 3], usize) {
    let (bx, by) = (lay.bx, lay.by);
    let (tx, ty, lx, ly) = (x / bx, y / by, x % bx, y % by);
    let mut at = [lay.index(x, y, z), 0, 0];
    let mut n = 1;
    // The tower to the left keeps column x0 of this one in its right line.
    if lx == 0 && tx > 0 {
        at[n] = lay.slice_base(tx - 1, ty, z) + lay.right_line_offset(ly);
        n += 1;
    }
    // The tower to the right keeps column x0 + bx - 1 in its left line.
    if lx + 1 == bx && tx + 1 < lay.towers_x() {
        at[n] = lay.slice_base(tx + 1, ty, z) + lay.left_line_offset(ly);
        n += 1;
    }
    // Mirror columns: the left line of the first tower holds x = 1, the
    // right line of the last one x = nx - 2.
    if x == 1 {
        at[n] = lay.slice_base(0, ty, z) + lay.left_line_offset(ly);
        n += 1;
    } else if x + 2 == lay.dims.nx {
        at[n] = lay.slice_base(lay.towers_x() - 1, ty, z) + lay.right_line_offset(ly);
        n += 1;
    }
    (at, n)
}

/// Applies a stimulus to one cell of a buffer (row-major or towers) and
/// records the jump; the body of the stimulus kernel and of the CPU loop.
///
/// # Safety
/// `u` is the buffer of `grid` (row-major, or `lay`'s layout when given),
/// (x, y, z) a cell of it, the recorder and the mask valid for `grid`.
#[inline(always)]
pub unsafe fn stimulate_cell<T: Real>(
    u: *mut T,
    grid: GridDims,
    lay: Option<&TowerLayout>,
    place: SlicePlacement,
    args: &StimulusArgs<T>,
    rec: &Recorder<T>,
    (x, y, z): (u32, u32, u32),
) {
    let i = grid.index(x, y, z) as u32;
    // SAFETY: as the caller guarantees.
    unsafe {
        if !args.contains(x, y, place.global_z(z), i) {
            return;
        }
        match lay {
            None => {
                let before = *u.add(i as usize);
                let after = args.apply(before);
                *u.add(i as usize) = after;
                rec.record_jump(i, before, after);
            }
            Some(lay) => {
                let (at, n) = tower_copies(lay, x, y, z);
                let before = *u.add(at[0] as usize);
                let after = args.apply(before);
                let mut k = 0;
                while k < n {
                    *u.add(at[k] as usize) = after;
                    k += 1;
                }
                rec.record_jump(i, before, after);
            }
        }
        // The locals are row-major in both layouts.
        args.carry(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn maps(cells: usize, beats: usize) -> (Vec<f32>, Vec<f32>, Vec<u32>) {
        (vec![f32::NAN; cells * beats], vec![f32::NAN; cells * beats], vec![0; cells])
    }

    fn recorder(act: &mut [f32], rep: &mut [f32], count: Option<&mut [u32]>, beats: u32) -> Recorder<f64> {
        Recorder {
            activation: act.as_mut_ptr() as u64,
            repolarisation: rep.as_mut_ptr() as u64,
            count: count.map_or(0, |c| c.as_mut_ptr() as u64),
            t_ms: 0.0,
            dt_ms: 0.5,
            cells: 2,
            beats,
            up: 0.5,
            down: 0.25,
        }
    }

    #[test]
    fn first_crossings_are_interpolated_and_kept() {
        let (mut act, mut rep, _) = maps(2, 1);
        let rec = recorder(&mut act, &mut rep, None, 1);
        unsafe {
            rec.at(10.0).record(0, 0.0, 1.0); // crosses 0.5 half-way: 10.25
            rec.at(10.5).record(0, 1.0, 0.0); // down through 0.25 at 3/4: 10.875
            rec.at(20.0).record(0, 0.0, 1.0); // a second beat: first kept
            rec.at(20.5).record(0, 1.0, 0.0);
            rec.at(30.0).record(1, 1.0, 0.0); // down before any activation: ignored
            rec.at(31.0).record(1, 0.4, 0.49); // no crossing
        }
        assert_eq!(act[0], 10.25);
        assert_eq!(rep[0], 10.875);
        assert!(act[1].is_nan() && rep[1].is_nan());
    }

    #[test]
    fn per_beat_mode_keeps_the_last_beats_in_a_ring() {
        let (mut act, mut rep, mut count) = maps(2, 2);
        let rec = recorder(&mut act, &mut rep, Some(&mut count), 2);
        unsafe {
            for beat in 0..3 {
                let t = 100.0 * beat as f64;
                rec.at(t).record(1, 0.0, 1.0);
                rec.at(t + 50.0).record(1, 1.0, 0.0);
            }
            // A stimulus jump is a crossing at the step's start.
            rec.at(400.0).record_jump(0, 0.0, 3.0);
        }
        assert_eq!(count, vec![1, 3]);
        // Beat 2 (t = 200) went to slot 0, beat 1 (t = 100) is in slot 1.
        assert_eq!((act[1], act[2 + 1]), (200.25, 100.25));
        assert_eq!((rep[1], rep[2 + 1]), (250.375, 150.375));
        assert_eq!(act[0], 400.0);
        assert!(rep[0].is_nan());
    }

    #[test]
    fn off_records_nothing() {
        unsafe { Recorder::<f32>::off().record(0, 0.0, 1.0) };
    }

    #[test]
    fn regions_and_modes() {
        let mut args = StimulusArgs::<f32> {
            lo: [1, 1, 1],
            hi: [4, 4, 4],
            kind: REGION_BOX,
            mode: StimulusMode::Set as u32,
            center: [2.0, 2.0, 2.0],
            radius2: 1.0,
            mask: 0,
            amount: 3.0,
            carriers: [0; MAX_CARRIERS],
            carries: [0; MAX_CARRIERS],
            carrier_cells: 0,
            carrier_step: 1,
            carried: [0.0; MAX_CARRIERS],
        };
        unsafe {
            assert!(args.contains(1, 3, 3, 0) && !args.contains(0, 2, 2, 0) && !args.contains(2, 2, 4, 0));
            args.kind = REGION_SPHERE;
            assert!(args.contains(2, 2, 3, 0) && !args.contains(3, 3, 2, 0));
            let mask = [0b100u32, 0];
            args.kind = REGION_MASK;
            args.mask = mask.as_ptr() as u64;
            assert!(args.contains(2, 2, 2, 2) && !args.contains(2, 2, 2, 3));
        }
        assert_eq!(args.apply(0.5), 3.0);
        args.mode = StimulusMode::Add as u32;
        assert_eq!(args.apply(0.5), 3.5);
        // The carriers: cells below `carrier_cells` take `carried`, the
        // others (a part's halo) and a stimulus without one nothing.
        let mut locals = [10.0f32, 10.0, 10.0, 10.0, 10.0, 10.0];
        unsafe { args.carry(0) };
        let base = locals.as_mut_ptr() as u64;
        (args.carriers[0], args.carrier_cells, args.carried[0]) = (base, 2, 0.25);
        unsafe { args.carry(1) };
        assert_eq!(locals, [10.0, 10.25, 10.0, 10.0, 10.0, 10.0]);
        // Two carriers, cell after cell (two locals each).
        (args.carriers, args.carrier_step, args.carried) = ([base, base + 4], 2, [0.5, -1.0]);
        unsafe {
            args.carry(1);
            args.carry(2);
        }
        assert_eq!(locals, [10.0, 10.25, 10.5, 9.0, 10.0, 10.0]);
        // A carrier with a rounding error of its own (the second local of
        // each cell here) keeps charges below half its ulp: 2^-25 added to
        // 1.0f32 (ulp 2^-23) 1,024 times is 2^-15 with the compensation,
        // nothing without it.
        let mut pairs = [1.0f32, 0.0];
        let base = pairs.as_mut_ptr() as u64;
        (args.carriers, args.carries, args.carrier_cells) = ([base, 0], [base + 4, 0], 1);
        (args.carrier_step, args.carried) = (2, [2f32.powi(-25), 0.0]);
        for _ in 0..1024 {
            unsafe { args.carry(0) };
        }
        assert_eq!(pairs[0], 1.0 + 2f32.powi(-15));
        args.carries = [0; MAX_CARRIERS];
        for _ in 0..1024 {
            unsafe { args.carry(0) };
        }
        assert_eq!(pairs[0], 1.0 + 2f32.powi(-15), "without a carry, 2^-25 rounds away");
        // f64 adds plainly, bit for bit as before, and leaves the carry at 0.
        let mut pairs = [1.0f64, 0.0];
        let base = pairs.as_mut_ptr() as u64;
        let mut args = StimulusArgs::<f64> {
            lo: [0; 3],
            hi: [1; 3],
            kind: REGION_BOX,
            mode: StimulusMode::Add as u32,
            center: [0.0; 3],
            radius2: 0.0,
            mask: 0,
            amount: 1.0,
            carriers: [base, 0],
            carries: [base + 8, 0],
            carrier_cells: 1,
            carrier_step: 2,
            carried: [0.1, 0.0],
        };
        unsafe { args.carry(0) };
        args.carried[0] = 0.2;
        unsafe { args.carry(0) };
        assert_eq!(pairs, [1.0 + 0.1 + 0.2, 0.0]);
    }

    #[test]
    fn slices_of_a_sub_domain_map_to_the_whole_grid_by_the_mirror_rule() {
        let bottom = SlicePlacement { offset: -1, global_nz: 10 };
        assert_eq!([0, 1, 2, 5].map(|z| bottom.global_z(z)), [1, 0, 1, 4]);
        let top = SlicePlacement { offset: 5, global_nz: 10 };
        assert_eq!([0, 4, 5].map(|z| top.global_z(z)), [5, 9, 8]);
        assert_eq!(SlicePlacement::whole(7).global_z(3), 3);
    }
}
