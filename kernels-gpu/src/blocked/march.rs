//! The march of one block's pass: a thread's registers between
//! iterations, one iteration (level 0's load and every level's plane)
//! and the whole pass with a barrier between iterations; what the GPU
//! kernel runs and the emulator runs thread by thread.

use super::forward::Forwards;
use super::shape::{MAX_STEPS_PER_PASS, plane_bytes};
use super::shared::Shared;
use super::tile::{Column, Tile};
use crate::cell::{StepCoeffs, step_cell};
use crate::events::Recorder;
use crate::model::{CellModel, Locals};
use crate::real::Real;
use crate::stencil::laplacian7;

/// A thread's registers between iterations: its column's U at the next
/// plane of level 0, loaded one iteration ahead (so that the load's
/// latency overlaps an iteration's arithmetic instead of stalling the
/// store to shared memory before the barrier), and that cell's index; for
/// each level below k, its column's U at the last three planes (oldest
/// first); for each level below k, the locals of the plane that level
/// finished in the previous iteration (level 0: loaded). Entries of levels
/// >= k are unused.
#[derive(Clone, Copy, Debug)]
pub struct Registers<T, L> {
    ahead: T,
    ahead_i: u32,
    window: [[T; 3]; MAX_STEPS_PER_PASS as usize],
    carry: [L; MAX_STEPS_PER_PASS as usize],
}

impl<T: Real, L: Locals<T>> Registers<T, L> {
    /// The registers before the first iteration: every value NaN (so that
    /// a read of a value no iteration wrote shows), and the first plane of
    /// level 0 loaded ahead.
    ///
    /// # Safety
    /// As [`iteration`].
    #[inline(always)]
    pub unsafe fn start<M: CellModel<Locals<T> = L>, const K: u32>(
        tile: &Tile<K>,
        col: &Column,
        a: &PassArgs<'_, M, T>,
    ) -> Self {
        let mut regs = Self {
            ahead: T::NAN,
            ahead_i: 0,
            window: [[T::NAN; 3]; MAX_STEPS_PER_PASS as usize],
            carry: [L::from_fn(|_| T::NAN); 4],
        };
        // SAFETY: forwarded.
        unsafe { regs.load_ahead(tile, col, 0, a.u) };
        regs
    }

    /// U at the plane level 0 loads at iteration `j`, where the column is
    /// in level 0's region and `j` an iteration of the march (else NaN).
    ///
    /// # Safety
    /// As [`iteration`].
    #[inline(always)]
    unsafe fn load_ahead<const K: u32>(&mut self, tile: &Tile<K>, col: &Column, j: u32, u: *const T) {
        self.ahead = T::NAN;
        if col.levels > 0 && j < tile.iterations().end {
            self.ahead_i = tile.load_index(col, j);
            // SAFETY: a reflected plane at a column of the grid is a cell.
            self.ahead = unsafe { *u.add(self.ahead_i as usize) };
        }
    }
}

/// The model, the numerics and where the pass writes: what every level of
/// every iteration needs besides the tile and the shared memory.
pub struct PassArgs<'a, M: CellModel, T: Real> {
    /// The state at the pass's start (U, then the locals variable after
    /// variable), read only.
    pub u: *const T,
    pub local: *const T,
    /// The state after the pass, written at the owned cells only.
    pub u_next: *mut T,
    pub local_next: *mut T,
    pub step: &'a StepCoeffs<T>,
    pub coeffs: &'a M::Coeffs<T>,
    pub rec: &'a Recorder<T>,
    pub first_step: u64,
    /// Where the finished boundary planes are stored again (a split
    /// part's halos; none on one GPU).
    pub forwards: &'a Forwards,
}

/// Iteration `j` of the thread of column `col`: the load of level 0's
/// plane and each level l's plane ([`Tile::iterations`]). Between two
/// iterations the block's threads meet at a barrier.
///
/// Shared memory holds, for each level l below K, two planes at byte
/// offsets `(2l + s) x plane` for the iteration parity s: iteration j
/// writes every level's plane of parity `j & 1` and reads those of the
/// other parity, which the previous iteration wrote (level l reads level
/// l - 1's plane one iteration after it was computed). So the thread's
/// five addresses move once per iteration, and each level adds a
/// constant.
///
/// # Safety
/// `shared` holds [`Tile::shared_elems`] elements; `u` holds the grid's
/// cells row-major and `local` `COUNT` times as many (variable after
/// variable), neither written during the pass; `u_next` and `local_next`
/// have the sizes of `u` and `local`, overlap nothing else, and are written
/// only at the owned cells; `rec` is valid for the grid where `RECORD` (which
/// records the owned cells' crossings; a pass without maps runs the
/// instance without, so that it pays nothing per cell for them); each run
/// of `forwards` satisfies [`Forwards::copy_column`]'s contract for the grid's
/// x-y plane; `col` and
/// `regs` are this thread's, `regs` as the previous iteration left it.
#[inline(always)]
pub unsafe fn iteration<M: CellModel, T: Real, const K: u32, const RECORD: bool>(
    tile: &Tile<K>,
    col: &Column,
    regs: &mut Registers<T, M::Locals<T>>,
    j: u32,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
) {
    let g = tile.g;
    let parity = (j & 1) * plane_bytes::<T>();
    let other = plane_bytes::<T>() - parity;
    let at =
        Addresses { write: col.at_b.wrapping_add(parity), read: col.around_b.map(|b| b.wrapping_add(other)) };
    // Level 0: U over the frame (loaded in the previous iteration; the
    // next plane's load goes out now), the locals where level 1 will step
    // them in the next iteration.
    let u0 = regs.ahead;
    let i0 = regs.ahead_i;
    // SAFETY (loads): a column of level 0 at a plane of the march is (by
    // reflection) a cell of the grid; the slot lies in the shared memory.
    unsafe {
        // Unconditional: the column's own place, read only where level 0 has it.
        shared.set(at.write, u0);
        regs.load_ahead(tile, col, j + 1, a.u);
        let mut carry = regs.carry;
        if col.turn(1, j + 1) && j + 1 < tile.iterations().end {
            carry[0] = M::Locals::<T>::load(a.local, g.cells(), i0 as usize);
        }
        let w = regs.window[0];
        regs.window[0] = [w[1], w[2], u0];
        // SAFETY: forwarded; the levels are unrolled by their constant index.
        level::<M, T, K, 1, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        if K >= 2 {
            level::<M, T, K, 2, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        }
        if K >= 3 {
            level::<M, T, K, 3, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        }
        if K >= 4 {
            level::<M, T, K, 4, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        }
        regs.carry = carry;
    }
}

/// A thread's shared-memory addresses in one iteration, at level 0: where
/// it writes its column (this iteration's parity) and where it reads the
/// four neighbours (the other parity).
struct Addresses {
    write: u32,
    read: [u32; 4],
}

/// Level L of iteration j for one column: its plane from level L - 1 to
/// level L, into shared memory and the registers, or for the last level
/// into `u_next` and `local_next`. Crossings of the owned cells are
/// recorded at every level, with the time of that level's step. `carry`
/// receives this level's locals for the next iteration (`regs.carry` still
/// holds the previous one's).
///
/// # Safety
/// As [`iteration`].
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "one level of the iteration, its state spelled out")]
unsafe fn level<M: CellModel, T: Real, const K: u32, const L: u32, const RECORD: bool>(
    tile: &Tile<K>,
    col: &Column,
    regs: &mut Registers<T, M::Locals<T>>,
    carry: &mut [M::Locals<T>; MAX_STEPS_PER_PASS as usize],
    j: u32,
    shared: Shared<T>,
    at: &Addresses,
    a: &PassArgs<'_, M, T>,
) {
    let g = tile.g;
    let mut un = T::NAN;
    if col.turn(L, j) {
        // The column's planes p - 1, p, p + 1 of level L - 1 (past the
        // grid's ends, their mirror images: no test here).
        let [below, centre, above] = regs.window[L as usize - 1];
        let from = 2 * (L - 1) * plane_bytes::<T>();
        // SAFETY (whole block): the neighbours lie in level L - 1's region
        // (one column wider than level L's, or mirrored into it), whose
        // plane was written in iteration j - 1; the owned cells are of the
        // grid.
        unsafe {
            let lap = laplacian7(
                centre,
                shared.get(at.read[0].wrapping_add(from)),
                shared.get(at.read[1].wrapping_add(from)),
                shared.get(at.read[2].wrapping_add(from)),
                shared.get(at.read[3].wrapping_add(from)),
                below,
                above,
            );
            let mut locals = regs.carry[L as usize - 1];
            un = step_cell::<M, T>(centre, lap, &mut locals, a.step, a.coeffs);
            let p = tile.plane(j, L);
            let i = (p as u32).wrapping_mul(g.nx * g.ny).wrapping_add(col.cell);
            if L == K {
                // Level K's planes are the owned ones.
                *a.u_next.add(i as usize) = un;
                locals.store(a.local_next, g.cells(), i as usize);
            } else {
                shared.set(at.write.wrapping_add(2 * L * plane_bytes::<T>()), un);
                carry[L as usize] = locals;
            }
            // Owned: level K computes the column, and the plane is the tile's.
            if RECORD && col.levels > K && tile.owns_plane(p) {
                let rec = a.rec.at((a.first_step + (L - 1) as u64) as f64 * a.rec.dt_ms);
                rec.record(i, centre, un);
            }
        }
    }
    if L < K {
        let w = regs.window[L as usize];
        regs.window[L as usize] = [w[1], w[2], un];
    }
}

/// One block's pass of `K` steps: every iteration of the march for the
/// thread of column `col`, `barrier` between iterations (the GPU's
/// `__syncthreads`).
///
/// # Safety
/// As [`iteration`], and `barrier` makes the shared-memory writes of every
/// thread of the block visible to all of them.
#[inline(always)]
pub unsafe fn run_block<M: CellModel, T: Real, const K: u32, const RECORD: bool, const SIX: bool>(
    tile: &Tile<K>,
    col: &Column,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
    mut barrier: impl FnMut(),
) {
    // SAFETY: forwarded to the caller.
    let mut regs = unsafe { Registers::<T, M::Locals<T>>::start::<M, K>(tile, col, a) };
    let end = tile.iterations().end;
    // One iteration and its barrier.
    macro_rules! iterate {
        ($j:expr) => {
            // SAFETY: forwarded to the caller.
            unsafe { iteration::<M, T, K, RECORD>(tile, col, &mut regs, $j, shared, a) };
            barrier();
        };
    }
    // Two iterations a turn of the loop (six with SIX), so that each sees
    // its parity as a constant (its shared planes at fixed offsets) and,
    // with six, the registers' windows of three planes move by renaming
    // rather than copies (Karma f32 on an H100, docs/history/BENCHMARKS-2026.md: two a
    // turn 1.10x faster than one, six 1.02x faster than two).
    let per_turn = if SIX { 6 } else { 2 };
    for turn in 0..end / per_turn {
        let j = per_turn * turn;
        iterate!(j);
        iterate!(j + 1);
        if SIX {
            iterate!(j + 2);
            iterate!(j + 3);
            iterate!(j + 4);
            iterate!(j + 5);
        }
    }
    for j in end / per_turn * per_turn..end {
        iterate!(j);
    }
    // The forwarded halos last, from what this thread stored: outside the
    // march, so that a pass on one GPU (none forwarded) runs the march's
    // code unchanged (a store per cell inside the last level cost the
    // single-GPU pass 5% at 256^3 on an H200: registers are capped at 64).
    if a.forwards.len > 0 && col.levels > K {
        let g = tile.g;
        let owned = tile.z0..tile.z0 + tile.planes;
        // SAFETY: the column's owned planes of `u_next` and `local_next`
        // were stored by this thread above; the runs are the caller's.
        unsafe {
            a.forwards.copy_column::<T, M::Locals<T>>(
                owned,
                col.cell,
                g.nx * g.ny,
                a.u_next,
                a.local_next,
                g.cells() as u32,
            )
        };
    }
}
