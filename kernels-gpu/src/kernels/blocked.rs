//! Temporal blocking on the GPU: k steps per pass (the algorithm and its
//! tiling are in [`crate::blocked`], shared with the CPU emulator).

use super::entry::StepArgs;
use crate::blocked::{Column, Pass, PassArgs, Shared, Tile, run_block};
use crate::gpu::{block_dim, block_idx, dynamic_shared, sync_threads, thread_idx};
use crate::layout::grid::{GridDims, ZWindow};
use crate::model::CellModel;
use crate::real::Real;

/// `pass.steps` steps of the cells of `window`, on a grid with three axes
/// of two cells or more.
///
/// # Safety
/// `u`, `u_next` hold `g.cells() < 2^32` row-major values, `local` and
/// `local_next` `M::Locals::COUNT` times as many (variable k of cell i at
/// `k * cells + i`; any pointers for a model without locals); the four do
/// not overlap; `window` lies in `0..nz` and the slices within `k` of it
/// hold the state; `pass.forwards`' runs address buffers of the grid's x-y
/// plane that hold their destination planes, written by nothing else
/// during the pass (a neighbour's U_next and locals, or this grid's own
/// halos outside `window`); `1 <= pass.steps <= 4`, `pass.z_chunk >= 1`; the block
/// is more than `2 * pass.steps` threads wide and tall and has at most
/// [`crate::blocked::MAX_FRAME`] threads.
///
/// # Parameters
/// `u` and `local` are read (the state at the pass's start), `u_next` and
/// `local_next` written at the window's cells (the state k steps later);
/// `rec` records the crossings of every step of the pass.
///
/// # Thread mapping
/// Launch with [`crate::blocked::launch_shape`] (one block per tile of
/// the block less k columns on each side, and z-chunk) and
/// [`crate::blocked::shared_elems`]`(pass.steps)` elements of
/// dynamic shared memory. Thread (x, y) marches column (x, y) of its
/// block's frame; every thread reaches every barrier.
#[inline(always)]
pub unsafe fn step<M: CellModel, T: Real>(
    args: StepArgs<'_, M, T, GridDims>,
    local_next: *mut T,
    pass: Pass,
) {
    let StepArgs { u, u_next, local, layout: g, step, coeffs, window, rec } = args;
    // The pass twice: with the model's common case, whose values are
    // constants of the code, and with the coefficients as passed
    // (`CellModel::common_case`; one copy for models without one). On an
    // H100 the common case made Karma's pass 1.12x faster (the exponent's
    // and the tanh's branches left every level); naive and columns have
    // it too (since their common path lost its stack frame: Karma 1.07x at
    // 64^3 in naive, 1.05x at 128^3 in columns). The common case also
    // marches six iterations a turn of its loop instead of two
    // (`run_block`'s SIX): 1.5-2.7% faster again, but slow to compile
    // (ptxas took twice as long over the whole module when every instance
    // had it), so only the instance a default run takes has it.
    let args = |coeffs| PassArgs::<M, T> {
        u,
        local,
        u_next,
        local_next,
        step,
        coeffs,
        rec,
        first_step: pass.first_step,
        forwards: &pass.forwards,
    };
    // SAFETY: forwarded.
    unsafe {
        match M::common_case(coeffs) {
            Some(common) => pass_of::<M, T, true>(g, window, pass, &args(&common)),
            None => pass_of::<M, T, false>(g, window, pass, &args(coeffs)),
        }
    }
}

/// The pass's instance for its steps (1..=4), its march six iterations a
/// turn with `SIX` (else two).
///
/// # Safety
/// As [`step`].
#[inline(always)]
unsafe fn pass_of<M: CellModel, T: Real, const SIX: bool>(
    g: GridDims,
    window: ZWindow,
    pass: Pass,
    args: &PassArgs<'_, M, T>,
) {
    // SAFETY: forwarded; `pass.steps` picks the instance (1..=4).
    unsafe {
        match pass.steps {
            1 => block::<M, T, 1, SIX>(g, window, pass.z_chunk, args),
            2 => block::<M, T, 2, SIX>(g, window, pass.z_chunk, args),
            3 => block::<M, T, 3, SIX>(g, window, pass.z_chunk, args),
            _ => block::<M, T, 4, SIX>(g, window, pass.z_chunk, args),
        }
    }
}

/// The block's pass with `K` steps, a constant of the code (so that the
/// levels unroll and their registers stay registers).
///
/// # Safety
/// As [`step`].
#[inline(always)]
unsafe fn block<M: CellModel, T: Real, const K: u32, const SIX: bool>(
    g: GridDims,
    window: ZWindow,
    z_chunk: u32,
    args: &PassArgs<'_, M, T>,
) {
    let (tx, ty) = thread_idx();
    let dims = block_dim();
    let tile = Tile::<K>::new(g, dims, block_idx(), window, z_chunk);
    let col = Column::new::<T, K>(&tile, tx, ty);
    // SAFETY: the launch gives the block `tile.shared_elems()` elements of
    // dynamic shared memory; the buffers are as the contract says; every
    // thread runs the same iterations (their bounds depend on the block
    // only), so every thread reaches every barrier.
    unsafe {
        let shared = Shared::new(dynamic_shared::<T>(), tile.shared_elems());
        // Two instances, so that a pass without maps pays nothing per
        // cell for the recorder.
        if args.rec.activation != 0 {
            run_block::<M, T, K, true, SIX>(&tile, &col, shared, args, || sync_threads());
        } else {
            run_block::<M, T, K, false, SIX>(&tile, &col, shared, args, || sync_threads());
        }
    }
}
