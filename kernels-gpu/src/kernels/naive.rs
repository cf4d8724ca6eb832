//! The baseline kernel: one thread per cell on the row-major grid, for
//! every model and grid shape.
//!
//! This is the "usual parallel approach" of the paper's section 3 (one CUDA
//! thread per mesh point, neighbours read straight from global memory and
//! reused through the caches), the yardstick for the sliding-window and
//! tower kernels.

use super::entry::StepArgs;
use crate::cell::CellStep;
use crate::gpu::{block_dim, block_idx, thread_idx};
use crate::layout::grid::GridDims;
use crate::model::CellModel;
use crate::real::Real;
use crate::stencil::{laplacian3, laplacian5, laplacian7, mirror_offsets};

/// One step of the cells of `window`, on a compacted grid with `AXES`
/// axes of two cells or more (3, 2 or 1; a single cell runs as a cable of
/// one cell).
///
/// # Safety
/// `u` and `u_next` each hold `g.cells()` elements, row-major, and do not
/// overlap; `local` holds `M::Locals::COUNT * g.cells()` elements (local
/// variable k of cell i at `k * g.cells() + i`), or is any pointer when the
/// model has no locals; `g.cells() < 2^32`; `g` is compacted with exactly
/// `AXES` leading axes of two cells or more (one cell when `AXES = 1` and
/// `nx = 1`); `window` lies in `0..nz`; `rec` is off or valid for `g`.
///
/// # Parameters
/// `u` is read, `u_next` written at the window's cells, `local` read and
/// written at the window's cells; slices outside the window are neither
/// read (beyond their z neighbours) nor written.
///
/// # Thread mapping
/// Launch with `grid = (ceil(nx / bx), ceil(ny / by), window.len())` and
/// any block (a 1D block for a cable); threads outside the mesh return.
/// x, y from the block and grid, z = window.begin + blockIdx.z; one cell
/// per thread.
#[inline(always)]
pub unsafe fn step<M: CellModel, T: Real, const AXES: u32>(args: StepArgs<'_, M, T, GridDims>) {
    let StepArgs { u, u_next, local, layout: g, step, coeffs, window, rec } = args;
    let (tx, ty) = thread_idx();
    let (bx, by, bz) = block_idx();
    let z = window.begin + bz;
    let (dx, dy) = block_dim();
    let x = bx * dx + tx;
    let y = by * dy + ty;
    if x >= g.nx || y >= g.ny {
        return;
    }
    // 32-bit index arithmetic (the host refuses grids of 2^32 cells or
    // more): one IMAD per neighbour address instead of 64-bit pointer math.
    // Offsets from the mirror rule are -1 or +1, scaled by the axis stride
    // with wrapping arithmetic (-1 * stride wraps to i - stride).
    let row = g.nx;
    let slice = g.nx * g.ny;
    let i = (z * g.ny + y) * g.nx + x;
    let at = |offset: i32, stride: u32| i.wrapping_add((offset as u32).wrapping_mul(stride)) as usize;
    // SAFETY: each index is a cell of the grid (the mirror rule keeps every
    // neighbour inside [0, n) on its axis, and cells < 2^32 so no index
    // wraps), and the caller guarantees the buffer sizes.
    unsafe {
        let uc = *u.add(i as usize);
        let lap = if AXES == 3 {
            let (xm, xp) = mirror_offsets(x, g.nx);
            let (ym, yp) = mirror_offsets(y, g.ny);
            let (zm, zp) = mirror_offsets(z, g.nz);
            laplacian7(
                uc,
                *u.add(at(xm, 1)),
                *u.add(at(xp, 1)),
                *u.add(at(ym, row)),
                *u.add(at(yp, row)),
                *u.add(at(zm, slice)),
                *u.add(at(zp, slice)),
            )
        } else if AXES == 2 {
            let (xm, xp) = mirror_offsets(x, g.nx);
            let (ym, yp) = mirror_offsets(y, g.ny);
            laplacian5(uc, *u.add(at(xm, 1)), *u.add(at(xp, 1)), *u.add(at(ym, row)), *u.add(at(yp, row)))
        } else {
            // A single cell is its own mirror image on both sides.
            let (xm, xp) = if g.nx == 1 { (0, 0) } else { mirror_offsets(x, g.nx) };
            laplacian3(uc, *u.add(at(xm, 1)), *u.add(at(xp, 1)))
        };
        CellStep::<M, T> { u, u_next, local, step, coeffs, rec }.store(uc, lap, (g.cells(), i as usize));
    }
}
