//! CSW, the classic sliding window (Micikevicius 2009; paper section 3.1).
//!
//! 2D blocks tile the xy plane and march along z. At each z the block's
//! tile and its one-cell halo sit in shared memory; the values at z - 1 and
//! z + 1 of each thread's column stay in registers and slide up one slice
//! per iteration. Fields are row-major, so x halos are two 4-byte columns
//! per block (the uncoalesced reads the tower layout removes).

use super::entry::StepArgs;
use crate::cell::step_cell;
use crate::gpu::{block_dim, block_idx, dynamic_shared, sync_threads, thread_idx};
use crate::layout::grid::GridDims;
use crate::model::{CellModel, Locals};
use crate::real::Real;
use crate::stencil::{laplacian7, mirror, mirror_neighbours};

/// # Safety
/// `u`, `u_next` hold `dims.cells() < 2^32` row-major values and `local`
/// `M::Locals::COUNT` times as many (see the naive kernel); every axis has
/// two cells or more; `u` and
/// `u_next` do not overlap; `window` lies in `0..nz` and is not empty; the
/// block marches over its slices. Launch with grid `(ceil(nx / bx), ceil(ny / by), 1)`,
/// block `(bx, by, 1)` and `csw_shared_elems(bx, by)` elements of dynamic
/// shared memory. Any grid size works: threads outside the mesh only take
/// part in the barriers.
///
/// # Tiling
/// Shared tile `(bx + 2) x (by + 2)`, pitch `bx + 2`; tile (i + 1, j + 1)
/// holds cell (x0 + i, y0 + j). Halo cells outside the domain are never
/// read: the mirror rule maps those neighbours back inside the tile.
#[inline(always)]
pub unsafe fn step<M: CellModel, T: Real>(args: StepArgs<'_, M, T, GridDims>) {
    let StepArgs { u, u_next, local, layout: g, step, coeffs: c, window, rec } = args;
    let (tx, ty) = thread_idx();
    let (bxi, byi, _) = block_idx();
    let (bx, by) = block_dim();
    let (x0, y0) = (bxi * bx, byi * by);
    let (x, y) = (x0 + tx, y0 + ty);
    let inside = x < g.nx && y < g.ny;
    let pitch = bx + 2;
    let tile = dynamic_shared::<T>();
    let slice = g.slice_cells() as u32;
    let column = y.min(g.ny - 1) * g.nx + x.min(g.nx - 1);
    // Tile positions of this cell's x and y neighbours under the mirror rule.
    let (xm, xp) = mirror_neighbours(x.min(g.nx - 1), g.nx);
    let (ym, yp) = mirror_neighbours(y.min(g.ny - 1), g.ny);
    let t_xm = (ty + 1) * pitch + (xm + 1 - x0);
    let t_xp = (ty + 1) * pitch + (xp + 1 - x0);
    let t_ym = (ym + 1 - y0) * pitch + tx + 1;
    let t_yp = (yp + 1 - y0) * pitch + tx + 1;
    let t_c = (ty + 1) * pitch + tx + 1;
    let flat = ty * bx + tx;
    let halo_count = 2 * (bx + by);
    let stride = g.cells();

    // SAFETY (whole body): global indices are cells of the grid (clamped or
    // mirrored into range, and < 2^32); tile indices are < (bx+2)(by+2).
    // Every thread reaches both barriers of every iteration.
    unsafe {
        let at = |z: u32| (z * slice + column) as usize;
        // z neighbours by the mirror rule: U[-1] = U[1], U[nz] = U[nz - 2].
        let (zm, zp) = mirror_neighbours(window.begin, g.nz);
        let mut below = if inside { *u.add(at(zm)) } else { T::ZERO };
        let mut cur = if inside { *u.add(at(window.begin)) } else { T::ZERO };
        let mut above = if inside { *u.add(at(zp)) } else { T::ZERO };
        for z in window.begin..window.end {
            // Prefetch the slice two above (mirrored at the top) before the barrier.
            let z2 = mirror(z as i64 + 2, g.nz as i64) as u32;
            let ahead = if inside && z + 1 < window.end { *u.add(at(z2)) } else { above };
            let mut locals = if inside {
                M::Locals::<T>::load(local, stride, at(z))
            } else {
                M::Locals::<T>::from_fn(|_| T::ZERO)
            };
            if inside {
                *tile.add(t_c as usize) = cur;
            }
            // Halo: top row, bottom row, left column, right column.
            let mut k = flat;
            while k < halo_count {
                let (hx, hy, t) = if k < bx {
                    (x0 + k, y0.wrapping_sub(1), k + 1)
                } else if k < 2 * bx {
                    (x0 + k - bx, y0 + by, (by + 1) * pitch + k - bx + 1)
                } else if k < 2 * bx + by {
                    (x0.wrapping_sub(1), y0 + k - 2 * bx, (k - 2 * bx + 1) * pitch)
                } else {
                    (x0 + bx, y0 + k - 2 * bx - by, (k - 2 * bx - by + 1) * pitch + bx + 1)
                };
                // wrapping_sub(1) of 0 is u32::MAX: outside, like any cell past the edge.
                if hx < g.nx && hy < g.ny {
                    *tile.add(t as usize) = *u.add((z * slice + hy * g.nx + hx) as usize);
                }
                k += bx * by;
            }
            sync_threads();
            if inside {
                let lap = laplacian7(
                    cur,
                    *tile.add(t_xm as usize),
                    *tile.add(t_xp as usize),
                    *tile.add(t_ym as usize),
                    *tile.add(t_yp as usize),
                    below,
                    above,
                );
                let un = step_cell::<M, T>(cur, lap, &mut locals, step, c);
                *u_next.add(at(z)) = un;
                locals.store(local, stride, at(z));
                rec.record(at(z) as u32, cur, un);
            }
            sync_threads();
            below = cur;
            cur = above;
            above = ahead;
        }
    }
}
