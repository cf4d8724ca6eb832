//! The baseline kernel: one thread per cell on the row-major grid.
//!
//! This is the "usual parallel approach" of the paper's section 3 (one CUDA
//! thread per mesh point, neighbours read straight from global memory and
//! reused through the caches), the yardstick for the sliding-window and
//! tower kernels.

use crate::gpu::{block_dim, block_idx, thread_idx};
use crate::grid::{GridDims, ZWindow};
use crate::model::{KarmaCoeffs, karma_step};
use crate::real::Real;
use crate::stencil::{laplacian7, mirror_offsets};

/// # Safety
/// `u`, `v` and `u_next` each hold `dims.cells()` elements, row-major;
/// `u` does not overlap `u_next`; `dims.cells() < 2^32`; `window` lies in
/// `0..nz`. Launch with `grid = (ceil(nx / bx), ceil(ny / by), window.len())`
/// and any 2D block: threads outside the mesh return. Slices outside the
/// window are neither read (beyond their z neighbours) nor written.
///
/// # Thread mapping
/// x, y from the 2D block and grid, z = window.begin + blockIdx.z; one cell per thread.
#[inline(always)]
unsafe fn step<T: Real>(
    u: *const T,
    v: *mut T,
    u_next: *mut T,
    g: GridDims,
    coeffs: &KarmaCoeffs<T>,
    window: ZWindow,
) {
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
    let (xm, xp) = mirror_offsets(x, g.nx);
    let (ym, yp) = mirror_offsets(y, g.ny);
    let (zm, zp) = mirror_offsets(z, g.nz);
    let i = (z * g.ny + y) * g.nx + x;
    let at = |offset: i32, stride: u32| i.wrapping_add((offset as u32).wrapping_mul(stride)) as usize;
    // SAFETY: each index is a cell of the grid (the mirror rule keeps every
    // neighbour inside [0, n) on its axis, and cells < 2^32 so no index
    // wraps), and the caller guarantees the buffer sizes.
    unsafe {
        let uc = *u.add(i as usize);
        let lap = laplacian7(
            uc,
            *u.add(at(xm, 1)),
            *u.add(at(xp, 1)),
            *u.add(at(ym, row)),
            *u.add(at(yp, row)),
            *u.add(at(zm, slice)),
            *u.add(at(zp, slice)),
        );
        let i = i as usize;
        let (un, vn) = karma_step(uc, *v.add(i), lap, coeffs);
        *u_next.add(i) = un;
        *v.add(i) = vn;
    }
}

row_major_entry_points!(step: karma_naive_f32, karma_naive_f64);
