//! Temporal blocking on the GPU: k steps per pass (the algorithm and its
//! tiling are in [`crate::blocked`], shared with the CPU emulator).

use crate::blocked::{Pass, Shared, Tile, level_phase, load_phase};
use crate::cell::StepCoeffs;
use crate::events::Recorder;
use crate::gpu::{block_dim, block_idx, dynamic_shared, sync_threads, thread_idx};
use crate::layout::grid::{GridDims, ZWindow};
use crate::model::{CellModel, Locals};
use crate::real::Real;

/// `pass.steps` steps of the cells of `window`, on a grid with three axes
/// of two cells or more.
///
/// # Safety
/// `u`, `u_next` hold `g.cells() < 2^32` row-major values, `local` and
/// `local_next` `M::Locals::COUNT` times as many (variable k of cell i at
/// `k * cells + i`; any pointers for a model without locals); the four do
/// not overlap; `window` lies in `0..nz` and the slices within `k` of it
/// hold the state; `1 <= pass.steps <= 4`, `pass.z_chunk >= 1`.
///
/// # Parameters
/// `u` and `local` are read (the state at the pass's start), `u_next` and
/// `local_next` written at the window's cells (the state k steps later);
/// `rec` records the crossings of every step of the pass.
///
/// # Thread mapping
/// Launch with [`crate::blocked::launch_shape`] (one block of `tile_x x
/// tile_y` threads per tile and z-chunk) and
/// [`crate::blocked::shared_elems`]`(tile_x, tile_y, pass.steps, COUNT)`
/// elements of dynamic shared memory. Every thread reaches every barrier.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
pub unsafe fn step<M: CellModel, T: Real>(
    u: *const T,
    u_next: *mut T,
    local: *mut T,
    g: GridDims,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    window: ZWindow,
    rec: &Recorder<T>,
    local_next: *mut T,
    pass: Pass,
) {
    let (tx, ty) = thread_idx();
    let tile_dims = block_dim();
    let tile = Tile::new(g, tile_dims, block_idx(), window, &pass, M::Locals::<T>::COUNT as u32);
    let thread = ty * tile_dims.0 + tx;
    // SAFETY: the launch gives the block `tile.shared_elems()` elements of
    // dynamic shared memory; the buffers are as the contract says; every
    // thread runs the same loops (their bounds depend on the block only),
    // so every thread reaches every barrier.
    unsafe {
        let shared = Shared::new(dynamic_shared::<T>(), tile.shared_elems());
        for t in tile.iterations() {
            load_phase::<M, T>(&tile, t, thread, shared, u, local);
            sync_threads();
            let mut level = 1;
            while level <= pass.steps {
                level_phase::<M, T>(
                    &tile,
                    t,
                    level,
                    thread,
                    shared,
                    u_next,
                    local_next,
                    step,
                    coeffs,
                    rec,
                    pass.first_step,
                );
                sync_threads();
                level += 1;
            }
        }
    }
}
