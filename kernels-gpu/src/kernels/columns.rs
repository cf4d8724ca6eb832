//! Columns: each thread steps four neighbouring cells along x and marches
//! them up a chunk of z-slices, on the row-major grid.
//!
//! What it saves against the one-thread-per-cell kernel ([`super::naive`]),
//! whose instructions, not its bytes, bound it on Hopper: the index and
//! mirror arithmetic is paid once per column instead of once per cell; the
//! four cells of a row move as one 128-bit load or store ([`Quad`]), for U
//! and for every local variable; the slices below and at the cell stay in
//! registers as the column climbs (three planes, as in the sliding window
//! of [`super::csw`], without shared memory), so per four cells the kernel
//! reads one new quad of U above, the quads of the rows y - 1 and y + 1,
//! and the two x neighbours beyond the quad. Every cell still runs
//! [`laplacian7`] and [`step_cell`] on the same values in the same order as
//! the CPU, so the result is bit-identical.

use super::entry::StepArgs;
use crate::cell::step_cell;
use crate::gpu::{block_dim, block_idx, thread_idx};
use crate::layout::grid::GridDims;
use crate::layout::quad::{self, QUAD};
use crate::model::{CellModel, Locals};
use crate::real::Real;
use crate::stencil::laplacian7;

/// One step of the cells of `window`, on a grid with three axes of two
/// cells or more and `nx` a multiple of 4.
///
/// # Safety
/// As the naive kernel's ([`super::naive::step`]), and: `nx % 4 == 0`;
/// `u`, `u_next` and `local` are 16-byte aligned; `z_chunk >= 1`.
///
/// # Parameters
/// `u` is read, `u_next` written at the window's cells, `local` read and
/// written there (the naive kernel's contract); `z_chunk` is the number of
/// slices each thread climbs.
///
/// # Thread mapping
/// Launch with `grid = (ceil(nx / 4 / bx), ceil(ny / by), ceil(window.len() /
/// z_chunk))` and any 2D block; threads outside the mesh return. Thread
/// (x, y) of the launch owns cells `4x..4x + 4` of row y, and block z the
/// slices `window.begin + z_chunk * blockIdx.z` up to `z_chunk` of them
/// (fewer in the last chunk).
#[inline(always)]
pub unsafe fn step<M: CellModel, T: Real>(args: StepArgs<'_, M, T, GridDims>, z_chunk: u32) {
    let StepArgs { u, u_next, local, layout: g, step, coeffs, window, rec } = args;
    let (tx, ty) = thread_idx();
    let (bx, by, bz) = block_idx();
    let (dx, dy) = block_dim();
    let x0 = (bx * dx + tx) * QUAD;
    let y = by * dy + ty;
    if x0 >= g.nx || y >= g.ny {
        return;
    }
    let z_begin = window.begin + bz * z_chunk;
    let z_end = if window.end - z_begin > z_chunk { z_begin + z_chunk } else { window.end };
    let row = g.nx;
    let slice = g.nx * g.ny;
    let stride = g.cells();
    // The mirror rule once per column, as offsets from the quad's first
    // cell (wrapping: -row is row.wrapping_neg()): U[-1] = U[1] is the
    // quad's second cell, U[nx] = U[nx - 2] its third.
    let left = if x0 == 0 { 1 } else { u32::MAX };
    let right = if x0 + QUAD == g.nx { 2 } else { QUAD };
    let y_lo = if y == 0 { row } else { row.wrapping_neg() };
    let y_hi = if y + 1 == g.ny { row.wrapping_neg() } else { row };
    let mut i = (z_begin * g.ny + y) * g.nx + x0;
    let at = |i: u32, offset: u32| i.wrapping_add(offset) as usize;
    // SAFETY (whole body): every index is a cell of the grid (offsets from
    // the mirror rule stay inside each axis, cells < 2^32), every quad
    // starts at a multiple of 4 (nx % 4 == 0) of an aligned buffer, and
    // the caller guarantees the buffers' sizes.
    unsafe {
        // What one slice of the column reads besides the planes in
        // registers: the quad above, the rows y - 1 and y + 1, the two x
        // neighbours beyond the quad and the locals.
        let load_slice = |i: u32, z: u32| {
            let above_i = if z + 1 == g.nz { i - slice } else { i + slice };
            Slice {
                above: quad::load(u, above_i as usize),
                ym: quad::load(u, at(i, y_lo)),
                yp: quad::load(u, at(i, y_hi)),
                xl: *u.add(at(i, left)),
                xr: *u.add(at(i, right)),
                locals: M::Locals::<T>::load_quad(local, stride, i as usize),
            }
        };
        let below_i = if z_begin == 0 { i + slice } else { i - slice };
        let mut below = quad::load(u, below_i as usize);
        let mut cur = quad::load(u, i as usize);
        let mut this = load_slice(i, z_begin);
        let mut z = z_begin;
        while z < z_end {
            // The next slice's loads go out before this slice's arithmetic
            // and stores, so their latency overlaps them (nothing this
            // thread stores is read back: U_next is another buffer, and
            // the locals of the next slice are other cells).
            let next = if z + 1 < z_end { load_slice(i.wrapping_add(slice), z + 1) } else { this };
            let Slice { above, ym, yp, xl, xr, mut locals } = this;
            // The row through the quad with its two x neighbours; cells are
            // named by constant indices only, so everything stays in
            // registers.
            let xs = [xl, cur[0], cur[1], cur[2], cur[3], xr];
            let mut cell = |j: usize| {
                let lap = laplacian7(xs[j + 1], xs[j], xs[j + 2], ym[j], yp[j], below[j], above[j]);
                step_cell::<M, T>(xs[j + 1], lap, &mut locals[j], step, coeffs)
            };
            let out = [cell(0), cell(1), cell(2), cell(3)];
            quad::store(u_next, i as usize, out);
            M::Locals::<T>::store_quad(&locals, local, stride, i as usize);
            if rec.activation != 0 {
                rec.record(i, cur[0], out[0]);
                rec.record(i + 1, cur[1], out[1]);
                rec.record(i + 2, cur[2], out[2]);
                rec.record(i + 3, cur[3], out[3]);
            }
            below = cur;
            cur = above;
            this = next;
            i = i.wrapping_add(slice);
            z += 1;
        }
    }
}

/// The values one slice of a column reads from memory (see [`step`]).
#[derive(Clone, Copy)]
struct Slice<T, L> {
    above: [T; 4],
    ym: [T; 4],
    yp: [T; 4],
    xl: T,
    xr: T,
    locals: [L; 4],
}
