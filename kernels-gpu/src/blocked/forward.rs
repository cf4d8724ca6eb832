//! Halos written by the pass that computes them: after its march, each
//! block of a split part's blocked pass copies the owned planes of its
//! columns that are halos elsewhere, from the `u_next` and locals it has
//! just written, straight into those halos (a neighbour's, over NVLink, or
//! its own mirror halo at a global end of the grid).
//!
//! Why: on two H200s at 256^3 (Karma f32, four-step passes in 32x30
//! blocks) a part's half of the grid alone ran 29,725 steps/s, the split
//! 26,290 with the boundary runs stepped apart from the interior and
//! 26,371 with one launch and the copies after it: the boundary launches
//! each march a frame of 4 + 2 x 4 planes for four planes of output and,
//! with a block per SM, cannot run beside the interior, and the copies
//! after the launch sit on the pass's critical path. Forwarded, the split
//! ran 28,348 (docs/history/BENCHMARKS-2026.md, "Two GPUs: halos written
//! by the pass"). The copy runs after the march rather than inside its
//! last level: a test per cell there cost the one-GPU pass, which forwards
//! nothing, 5%.
//!
//! The values are the ones the pass wrote to its own `u_next` and
//! `local_next`, so a forwarded halo holds exactly what a copy would.

use crate::model::Locals;
use crate::real::Real;

/// How many runs one pass may forward: a part between two neighbours sends
/// two; a part at a global end sends one and fills its mirror halo there;
/// a part alone between both ends fills two mirrors.
pub const MAX_FORWARDS: usize = 4;

/// One run of planes forwarded: plane `p` of the pass's grid, for `p` in
/// `first..first + count`, is stored again at plane `to + step (p -
/// first)` of the destination's buffers (`step` is +1 for a neighbour's
/// halo, -1 for a mirror halo, whose order reverses). `u` and `local` are
/// the destination's U_next and locals (device addresses; `local` 0 when
/// the locals do not cross, the one-slice halos of a one-step pass, whose
/// halo cells are read as neighbours only), `cells` the destination
/// buffer's cell count (the stride between its locals). The destination
/// has the source's x-y plane.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forward {
    pub u: u64,
    pub local: u64,
    pub cells: u32,
    pub first: u32,
    pub count: u32,
    pub to: u32,
    pub step: i32,
    pub _pad: u32,
}

impl Forward {
    /// No run (count 0).
    pub const NONE: Self = Self { u: 0, local: 0, cells: 0, first: 0, count: 0, to: 0, step: 1, _pad: 0 };

    /// The destination plane of the run's plane `offset` (from `first`).
    #[inline(always)]
    fn plane_at(&self, offset: u32) -> u32 {
        (self.to as i32).wrapping_add(self.step.wrapping_mul(offset as i32)) as u32
    }

    /// The destination plane of plane `p`, if this run forwards it.
    pub fn destination(&self, p: u32) -> Option<u32> {
        let offset = p.wrapping_sub(self.first);
        (offset < self.count).then(|| self.plane_at(offset))
    }

    /// Copies cell `cell` of every plane of `planes` that this run
    /// forwards from the source buffers (`u`, and the locals `local` at
    /// stride `cells`) to its destination.
    ///
    /// # Safety
    /// The source buffers hold those cells; `self.u` (and `self.local`,
    /// unless 0) address a buffer of `self.cells` values (`COUNT` times as
    /// many, variable after variable) in which every destination plane of
    /// the run, at `plane_cells` cells a plane, lies, written by nothing
    /// else during the pass.
    #[inline(always)]
    #[allow(clippy::too_many_arguments, reason = "the source buffers and the cell, spelled out")]
    unsafe fn copy_column<T: Real, L: Locals<T>>(
        &self,
        planes: &core::ops::Range<u32>,
        cell: u32,
        plane_cells: u32,
        u: *const T,
        local: *const T,
        cells: u32,
    ) {
        let from = if self.first > planes.start { self.first } else { planes.start };
        let end = self.first + self.count;
        let to = if end < planes.end { end } else { planes.end };
        for p in from..to {
            let dest = self.plane_at(p - self.first);
            let (i, j) = ((p * plane_cells + cell) as usize, (dest * plane_cells + cell) as usize);
            // SAFETY: as the function's contract.
            unsafe {
                *(self.u as *mut T).add(j) = *u.add(i);
                if self.local != 0 {
                    L::load(local, cells as usize, i).store(self.local as *mut T, self.cells as usize, j);
                }
            }
        }
    }
}

/// The runs a pass forwards (the first `len` of `runs`), passed by value
/// inside [`super::Pass`]. Indexed by constants only: indexing a by-value
/// kernel parameter with a run-time value copies it to local memory in
/// every thread (seen in the PTX of the halo copy kernel).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forwards {
    pub runs: [Forward; MAX_FORWARDS],
    pub len: u32,
    pub _pad: u32,
}

impl Forwards {
    /// Nothing forwarded: every pass of a grid on one GPU.
    pub const NONE: Self = Self { runs: [Forward::NONE; MAX_FORWARDS], len: 0, _pad: 0 };

    /// `runs` forwarded.
    ///
    /// # Panics
    /// If there are more than [`MAX_FORWARDS`].
    pub fn new(runs: &[Forward]) -> Self {
        assert!(runs.len() <= MAX_FORWARDS, "at most {MAX_FORWARDS} forwarded runs a pass");
        let mut all = Self::NONE;
        all.runs[..runs.len()].copy_from_slice(runs);
        all.len = runs.len() as u32;
        all
    }

    /// Copies cell `cell` (its index in the x-y plane) of each plane of
    /// `planes` that a run forwards, from the pass's output (`u`, and the
    /// locals `local` at stride `cells`), into the run's halo: what a
    /// block does for each owned column after its march.
    ///
    /// # Safety
    /// Each of the first `len` runs satisfies `Forward::copy_column`'s
    /// contract.
    #[inline(always)]
    pub unsafe fn copy_column<T: Real, L: Locals<T>>(
        &self,
        planes: core::ops::Range<u32>,
        cell: u32,
        plane_cells: u32,
        u: *const T,
        local: *const T,
        cells: u32,
    ) {
        // SAFETY (each): forwarded; constant indices (see the type's doc).
        unsafe {
            if self.len > 0 {
                self.runs[0].copy_column::<T, L>(&planes, cell, plane_cells, u, local, cells);
            }
            if self.len > 1 {
                self.runs[1].copy_column::<T, L>(&planes, cell, plane_cells, u, local, cells);
            }
            if self.len > 2 {
                self.runs[2].copy_column::<T, L>(&planes, cell, plane_cells, u, local, cells);
            }
            if self.len > 3 {
                self.runs[3].copy_column::<T, L>(&planes, cell, plane_cells, u, local, cells);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_neighbours_run_keeps_its_order_and_a_mirrors_reverses() {
        let up = Forward { first: 4, count: 4, to: 0, step: 1, ..Forward::NONE };
        assert_eq!(
            (3..9).map(|p| up.destination(p)).collect::<Vec<_>>(),
            [None, Some(0), Some(1), Some(2), Some(3), None]
        );
        // Mirror of halo depth 4: halo z takes owned plane 8 - z (U[-1] = U[1]).
        let mirror = Forward { first: 5, count: 4, to: 3, step: -1, ..Forward::NONE };
        assert_eq!((5..9).map(|p| mirror.destination(p).unwrap()).collect::<Vec<_>>(), [3, 2, 1, 0]);
        assert_eq!(mirror.destination(4), None);
        assert_eq!(mirror.destination(9), None);
    }

    #[test]
    fn copies_the_owned_planes_of_a_run_with_u_and_the_locals_at_each_stride() {
        // Source: 4 planes of 2 cells, two locals; destination 3 planes.
        let (plane, src_cells, cells) = (2u32, 8u32, 6u32);
        let src_u: Vec<f32> = (0..src_cells).map(|i| i as f32).collect();
        let src_local: Vec<f32> = (0..2 * src_cells).map(|i| 100.0 + i as f32).collect();
        let mut u = vec![0.0f32; cells as usize];
        let mut local = vec![0.0f32; 2 * cells as usize];
        let run = Forward {
            u: u.as_mut_ptr() as u64,
            local: local.as_mut_ptr() as u64,
            cells,
            first: 1,
            count: 3,
            to: 2,
            step: -1,
            _pad: 0,
        };
        let all = Forwards::new(&[run]);
        // SAFETY: the sources and destinations lie in the vectors.
        unsafe {
            // The block owns planes 2..4 only: planes 2 and 3 go to 1 and 0.
            all.copy_column::<f32, [f32; 2]>(2..4, 1, plane, src_u.as_ptr(), src_local.as_ptr(), src_cells);
        }
        assert_eq!(u, [0.0, 7.0, 0.0, 5.0, 0.0, 0.0]);
        assert_eq!(local, [0.0, 107.0, 0.0, 105.0, 0.0, 0.0, 0.0, 115.0, 0.0, 113.0, 0.0, 0.0]);
        // Without locals only U moves.
        let mut u2 = vec![0.0f32; cells as usize];
        let only_u = Forwards::new(&[Forward { u: u2.as_mut_ptr() as u64, local: 0, step: 1, to: 0, ..run }]);
        // SAFETY: as above.
        unsafe {
            only_u.copy_column::<f32, [f32; 2]>(0..8, 0, plane, src_u.as_ptr(), src_local.as_ptr(), src_cells)
        };
        assert_eq!(u2, [2.0, 0.0, 4.0, 0.0, 6.0, 0.0]);
    }

    #[test]
    #[should_panic(expected = "at most 4")]
    fn more_runs_than_fit_are_refused() {
        let _ = Forwards::new(&[Forward::NONE; 5]);
    }
}
