//! towerDS (paper section 3.2, Algorithm 2): the stencil on the tower layout.
//!
//! Two variants, because the paper is loose about it (its Algorithm 2 takes
//! z from blockIdx.z, its text speaks of a sliding window):
//! * `karma_tower_*`: one block per tower slice, grid `(towers_x, towers_y, nz)`,
//!   z neighbours read from the same tower (Algorithm 2 as written);
//! * `karma_tower_march_*`: one block per tower, marching along z with the
//!   z neighbours in registers, like CSW.
//!
//! Per slice a block loads its core U (coalesced rows) into shared memory,
//! the halo rows y0 - 1 and y0 + by from the towers above and below, and
//! the x halos from its own two extra lines (two coalesced reads, no
//! divergence); computes; writes the new core U into the other buffer and v
//! in place; and the threads of the edge columns also write their new U
//! into the extra lines of the neighbouring towers (or, at the domain's x
//! edges, the mirror column into the tower's own line).
//!
//! Departure from Algorithm 2 (lines 42-49): the paper stages the new U in
//! shared memory behind a second barrier so that threads 0..2*by write the
//! extra lines coalesced. Here the edge threads write straight from their
//! registers: 2*by four-byte stores per block and slice, merged in L2, for
//! one barrier and `bx * by` shared elements less (docs/history/BENCHMARKS-2026.md has
//! the measurements of the versions).
//!
//! `karma_tower_march_*` takes a `z_chunk`: each block climbs that many
//! slices (the whole tower when `z_chunk >= nz`, the paper's sliding-window
//! reading); with `z_chunk = 1` it does the work of `karma_tower_*`.

use super::entry::StepArgs;
use crate::cell::step_cell;
use crate::gpu::{block_idx, dynamic_shared, sync_threads, thread_idx};
use crate::layout::tower::TowerLayout;
use crate::model::{CellModel, Locals};
use crate::real::Real;
use crate::stencil::{laplacian7, mirror_neighbours};

/// Sentinel for "this thread writes no extra line".
const NO_LINE: u32 = u32::MAX;

/// Per-thread constants of a tower block, computed once per launch: every
/// index inside the z loop is one of these plus `z * wall_length`.
#[derive(Clone, Copy)]
struct Block {
    lay: TowerLayout,
    tx: u32,
    ty: u32,
    flat: u32,
    pitch: u32,
    /// Slice 0 of this tower.
    slice0: u32,
    /// Slice-0 index of the first cell of the halo rows above and below
    /// (neighbouring towers, or the mirror row at the domain's y edges).
    top_row0: u32,
    bottom_row0: u32,
    /// Slice-0 index of the extra-line element this thread's new U goes to,
    /// or [`NO_LINE`].
    line_dst0: u32,
    /// Row-major index of this thread's cell at z = 0 (for the locals).
    v0: u32,
}

impl Block {
    #[inline(always)]
    fn new(lay: TowerLayout) -> Self {
        let (tx, ty) = thread_idx();
        let (tower_x, tower_y, _) = block_idx();
        let (bx, by) = (lay.bx, lay.by);
        let last_x = lay.towers_x() - 1;
        let last_y = lay.towers_y() - 1;
        let slice0 = lay.slice_base(tower_x, tower_y, 0);
        // Row y0 - 1, or the mirror row 1 at y = 0 (in the tower below when by = 1).
        let top_row0 = if tower_y > 0 {
            lay.slice_base(tower_x, tower_y - 1, 0) + (by - 1) * bx
        } else if by >= 2 {
            slice0 + bx
        } else {
            lay.slice_base(tower_x, 1, 0)
        };
        // Row y0 + by, or the mirror row ny - 2 at the top edge.
        let bottom_row0 = if tower_y < last_y {
            lay.slice_base(tower_x, tower_y + 1, 0)
        } else if by >= 2 {
            slice0 + (by - 2) * bx
        } else {
            lay.slice_base(tower_x, last_y - 1, 0)
        };
        // Column 0 feeds the left neighbour's right line; at the domain's
        // left edge column 1 is the mirror kept in this tower's left line.
        // Symmetrically on the right.
        let line_dst0 = if tx == 0 && tower_x > 0 {
            lay.slice_base(tower_x - 1, tower_y, 0) + lay.right_line_offset(ty)
        } else if tx == 1 && tower_x == 0 {
            slice0 + lay.left_line_offset(ty)
        } else if tx == bx - 1 && tower_x < last_x {
            lay.slice_base(tower_x + 1, tower_y, 0) + lay.left_line_offset(ty)
        } else if tx == bx - 2 && tower_x == last_x {
            slice0 + lay.right_line_offset(ty)
        } else {
            NO_LINE
        };
        let v0 = (tower_y * by + ty) * lay.dims.nx + tower_x * bx + tx;
        Self { lay, tx, ty, flat: ty * bx + tx, pitch: bx + 2, slice0, top_row0, bottom_row0, line_dst0, v0 }
    }

    /// Fills the tile's halo for slice z (Algorithm 2, lines 15-37): rows
    /// from the towers above and below, x halos from this tower's own extra
    /// lines. Threads take the `2 (bx + by)` halo cells in turn.
    ///
    /// # Safety
    /// `u` is a tower-layout buffer of `lay`; `tile` has `(bx+2)(by+2)` elements.
    #[inline(always)]
    unsafe fn load_halo<T: Real>(&self, u: *const T, tile: *mut T, z: u32) {
        let (bx, by) = (self.lay.bx, self.lay.by);
        let dz = z * self.lay.wall_length();
        let lines = self.slice0 + dz + bx * by;
        let mut k = self.flat;
        while k < 2 * (bx + by) {
            let (src, t) = if k < bx {
                (self.top_row0 + dz + k, k + 1)
            } else if k < 2 * bx {
                (self.bottom_row0 + dz + k - bx, (by + 1) * self.pitch + k - bx + 1)
            } else if k < 2 * bx + by {
                (lines + k - 2 * bx, (k - 2 * bx + 1) * self.pitch)
            } else {
                (lines + k - 2 * bx, (k - 2 * bx - by + 1) * self.pitch + bx + 1)
            };
            // SAFETY: src is inside the layout (mirrored rows are real rows),
            // t inside the tile; guaranteed by the caller's sizes.
            unsafe { *tile.add(t as usize) = *u.add(src as usize) };
            k += bx * by;
        }
    }

    /// Laplacian of this thread's cell from the tile and its z neighbours.
    ///
    /// # Safety
    /// The tile is complete (after the barrier following `load_halo`).
    #[inline(always)]
    unsafe fn laplacian<T: Real>(&self, tile: *const T, centre: T, below: T, above: T) -> T {
        let c = ((self.ty + 1) * self.pitch + self.tx + 1) as usize;
        let p = self.pitch as usize;
        // SAFETY: neighbours of an interior tile position are inside the tile.
        unsafe {
            laplacian7(
                centre,
                *tile.add(c - 1),
                *tile.add(c + 1),
                *tile.add(c - p),
                *tile.add(c + p),
                below,
                above,
            )
        }
    }
}

/// The shared body: this block advances slices `z_begin..z_end` of its
/// tower (which the caller takes from `args.window`), keeping the z
/// neighbours in registers as it climbs.
///
/// # Safety
/// `u` and `u_next` are distinct tower-layout buffers of `lay.ds_size()`
/// elements with valid extra lines in `u`; `local` is row-major with
/// `M::Locals::COUNT * lay.dims.cells()` elements (as in the naive kernel);
/// ny and nz are at least 2. Launch with grid `(towers_x, towers_y, G)`,
/// block `(bx, by, 1)`, `tower_shared_elems(bx, by)` elements of dynamic
/// shared memory, and `z_begin..z_end` a range of slices such that the G
/// blocks of a tower cover `0..nz` exactly once. Every element of `u_next`
/// (core and extra lines) of those slices is written.
#[inline(always)]
unsafe fn advance_slices<M: CellModel, T: Real>(
    args: StepArgs<'_, M, T, TowerLayout>,
    z_begin: u32,
    z_end: u32,
) {
    let StepArgs { u, u_next, local, layout: lay, step, coeffs: c, rec, .. } = args;
    let b = Block::new(lay);
    let tiles = dynamic_shared::<T>();
    let tile_elems = ((lay.bx + 2) * (lay.by + 2)) as usize;
    let wall = lay.wall_length();
    let nz = lay.dims.nz;
    let slice = lay.dims.slice_cells() as u32;
    let stride = lay.dims.cells();
    let own0 = b.slice0 + lay.core_offset(b.tx, b.ty);
    let centre_tile = ((b.ty + 1) * b.pitch + b.tx + 1) as usize;
    // Mirror rule along z: U[-1] = U[1], U[nz] = U[nz - 2].
    let (zm, zp) = mirror_neighbours(z_begin, nz);
    // SAFETY: indices per the layout; every thread reaches every barrier
    // (z_begin..z_end is uniform across the block). Slice z uses tile
    // (z - z_begin) % 2: a thread can only start filling a tile again after
    // the next slice's barrier, which all threads reach only once they have
    // finished reading it.
    unsafe {
        let mut below = *u.add((own0 + zm * wall) as usize);
        let mut cur = *u.add((own0 + z_begin * wall) as usize);
        let mut above = *u.add((own0 + zp * wall) as usize);
        for z in z_begin..z_end {
            let tile = tiles.add(((z - z_begin) & 1) as usize * tile_elems);
            // Slice z + 2, mirrored to nz - 2 when z + 2 = nz.
            let ahead = if z + 1 < z_end {
                let z2 = if z + 2 < nz { z + 2 } else { nz - 2 };
                *u.add((own0 + z2 * wall) as usize)
            } else {
                above
            };
            let vi = (b.v0 + z * slice) as usize;
            let mut locals = M::Locals::<T>::load(local, stride, vi);
            *tile.add(centre_tile) = cur;
            b.load_halo(u, tile, z);
            sync_threads();
            let lap = b.laplacian(tile, cur, below, above);
            let un = step_cell::<M, T>(cur, lap, &mut locals, step, c);
            *u_next.add((own0 + z * wall) as usize) = un;
            locals.store(local, stride, vi);
            rec.record(vi as u32, cur, un);
            // Algorithm 2, lines 45-49: edge columns into the neighbours'
            // extra lines (or the mirror into this tower's own).
            if b.line_dst0 != NO_LINE {
                *u_next.add((b.line_dst0 + z * wall) as usize) = un;
            }
            below = cur;
            cur = above;
            above = ahead;
        }
    }
}

/// One slice per block, z = window.begin + blockIdx.z (Algorithm 2 as written).
///
/// # Safety
/// See [`advance_slices`]; `window` in `0..nz`, grid `(towers_x, towers_y, window.len())`.
#[inline(always)]
pub unsafe fn step_slice<M: CellModel, T: Real>(args: StepArgs<'_, M, T, TowerLayout>) {
    let (_, _, g) = block_idx();
    let z = args.window.begin + g;
    unsafe { advance_slices::<M, T>(args, z, z + 1) }
}

/// Each block marches up `z_chunk` slices of its tower's window (the whole
/// window when `z_chunk >= window.len()`).
///
/// # Safety
/// See [`advance_slices`]; `window` in `0..nz` and not empty, `z_chunk >= 1`,
/// grid `(towers_x, towers_y, ceil(window.len() / z_chunk))`.
#[inline(always)]
pub unsafe fn step_march<M: CellModel, T: Real>(args: StepArgs<'_, M, T, TowerLayout>, z_chunk: u32) {
    let (_, _, g) = block_idx();
    let window = args.window;
    let z_begin = window.begin + g * z_chunk;
    let z_end = if window.end - z_begin > z_chunk { z_begin + z_chunk } else { window.end };
    unsafe { advance_slices::<M, T>(args, z_begin, z_end) }
}
