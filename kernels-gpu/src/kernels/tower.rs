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
//! in place; then threads 0..2*by (consecutive, so coalesced) copy the new
//! edge columns into the extra lines of the neighbouring towers, or, at the
//! domain's x edges, the mirror column into the tower's own line.

use crate::gpu::{block_idx, dynamic_shared, sync_threads, thread_idx};
use crate::model::{KarmaCoeffs, karma_step};
use crate::real::Real;
use crate::stencil::{laplacian7, mirror};
use crate::tower::TowerLayout;

/// Per-thread constants of a tower block.
#[derive(Clone, Copy)]
struct Block {
    lay: TowerLayout,
    /// Tower coordinates of this block.
    tower_x: u32,
    tower_y: u32,
    /// Thread position in the block and flat (warp-contiguous) index.
    tx: u32,
    ty: u32,
    flat: u32,
    pitch: u32,
}

impl Block {
    fn new(lay: TowerLayout) -> Self {
        let (tx, ty) = thread_idx();
        let (tower_x, tower_y, _) = block_idx();
        Self { lay, tower_x, tower_y, tx, ty, flat: ty * lay.bx + tx, pitch: lay.bx + 2 }
    }

    /// Row-major index of this thread's cell at height z (for v).
    fn v_index(&self, z: u32) -> usize {
        let d = self.lay.dims;
        let x = self.tower_x * self.lay.bx + self.tx;
        let y = self.tower_y * self.lay.by + self.ty;
        ((z * d.ny + y) * d.nx + x) as usize
    }

    /// Tower-layout index of global row `gy`, column `x0 + lx`, height z.
    fn row_index(&self, gy: u32, lx: u32, z: u32) -> u32 {
        let by = self.lay.by;
        self.lay.slice_base(self.tower_x, gy / by, z) + (gy % by) * self.lay.bx + lx
    }

    /// Fills the tile's halo for slice z (Algorithm 2, lines 15-37).
    ///
    /// # Safety
    /// `u` is a tower-layout buffer of `lay`; `tile` has `(bx+2)(by+2)` elements.
    unsafe fn load_halo<T: Real>(&self, u: *const T, tile: *mut T, z: u32) {
        let (bx, by) = (self.lay.bx, self.lay.by);
        let ny = self.lay.dims.ny as i64;
        let y0 = self.tower_y * by;
        let base = self.lay.slice_base(self.tower_x, self.tower_y, z);
        let mut k = self.flat;
        while k < 2 * (bx + by) {
            let (src, t) = if k < bx {
                let gy = mirror(y0 as i64 - 1, ny) as u32;
                (self.row_index(gy, k, z), k + 1)
            } else if k < 2 * bx {
                let gy = mirror((y0 + by) as i64, ny) as u32;
                (self.row_index(gy, k - bx, z), (by + 1) * self.pitch + k - bx + 1)
            } else if k < 2 * bx + by {
                let r = k - 2 * bx;
                (base + self.lay.left_line_offset(r), (r + 1) * self.pitch)
            } else {
                let r = k - 2 * bx - by;
                (base + self.lay.right_line_offset(r), (r + 1) * self.pitch + bx + 1)
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
    unsafe fn laplacian<T: Real>(&self, tile: *const T, centre: T, below: T, above: T) -> T {
        let c = (self.ty + 1) * self.pitch + self.tx + 1;
        // SAFETY: neighbours of an interior tile position are inside the tile.
        unsafe {
            laplacian7(
                centre,
                *tile.add(c as usize - 1),
                *tile.add(c as usize + 1),
                *tile.add((c - self.pitch) as usize),
                *tile.add((c + self.pitch) as usize),
                below,
                above,
            )
        }
    }

    /// Writes the block's new edge columns into the extra lines of slice z
    /// of `u_next` (Algorithm 2, lines 45-49). Threads 0..by handle the left
    /// edge, by..2*by the right edge.
    ///
    /// # Safety
    /// `out` holds the block's new core U (`bx * by`, row-major), complete.
    unsafe fn write_extra_lines<T: Real>(&self, out: *const T, u_next: *mut T, z: u32) {
        let (bx, by) = (self.lay.bx, self.lay.by);
        let last = self.lay.towers_x() - 1;
        let f = self.flat;
        let (src_col, dst) = if f < by {
            let r = f;
            if self.tower_x == 0 {
                // Mirror: U[-1] = U[1], kept in this tower's own left line.
                (1, self.lay.slice_base(0, self.tower_y, z) + self.lay.left_line_offset(r))
            } else {
                (0, self.lay.slice_base(self.tower_x - 1, self.tower_y, z) + self.lay.right_line_offset(r))
            }
        } else if f < 2 * by {
            let r = f - by;
            if self.tower_x == last {
                (bx - 2, self.lay.slice_base(last, self.tower_y, z) + self.lay.right_line_offset(r))
            } else {
                (
                    bx - 1,
                    self.lay.slice_base(self.tower_x + 1, self.tower_y, z) + self.lay.left_line_offset(r),
                )
            }
        } else {
            return;
        };
        let row = if f < by { f } else { f - by };
        // SAFETY: dst is an extra-line element of the layout; the source is in `out`.
        unsafe { *u_next.add(dst as usize) = *out.add((row * bx + src_col) as usize) };
    }
}

/// One slice per block (Algorithm 2 as written).
///
/// # Safety
/// `u` and `u_next` are distinct tower-layout buffers of `lay.ds_size()`
/// elements with valid extra lines in `u`; `v` is row-major with
/// `lay.dims.cells()` elements. Launch with grid `(towers_x, towers_y, nz)`,
/// block `(bx, by, 1)` and `tower_shared_elems(bx, by)` elements of dynamic
/// shared memory. Every element of `u_next` (core and extra lines) is written.
#[inline(always)]
unsafe fn step_slice<T: Real>(u: *const T, v: *mut T, u_next: *mut T, lay: TowerLayout, c: &KarmaCoeffs<T>) {
    let b = Block::new(lay);
    let (_, _, z) = block_idx();
    let tile = dynamic_shared::<T>();
    // SAFETY: the tile region is (bx+2)(by+2) elements, `out` follows it.
    let out = unsafe { tile.add(((lay.bx + 2) * (lay.by + 2)) as usize) };
    let wall = lay.wall_length();
    let base = lay.slice_base(b.tower_x, b.tower_y, z);
    let own = base + lay.core_offset(b.tx, b.ty);
    let (zm, zp) =
        (mirror(z as i64 - 1, lay.dims.nz as i64) as u32, mirror(z as i64 + 1, lay.dims.nz as i64) as u32);
    // SAFETY: indices per the layout; every thread reaches both barriers.
    unsafe {
        let centre = *u.add(own as usize);
        let below = *u.add((own - z * wall + zm * wall) as usize);
        let above = *u.add((own - z * wall + zp * wall) as usize);
        let vi = b.v_index(z);
        let vc = *v.add(vi);
        *tile.add(((b.ty + 1) * b.pitch + b.tx + 1) as usize) = centre;
        b.load_halo(u, tile, z);
        sync_threads();
        let lap = b.laplacian(tile, centre, below, above);
        let (un, vn) = karma_step(centre, vc, lap, c);
        *u_next.add(own as usize) = un;
        *v.add(vi) = vn;
        *out.add(b.flat as usize) = un;
        sync_threads();
        b.write_extra_lines(out, u_next, z);
    }
}

/// One block per tower, marching along z with the z neighbours in registers.
///
/// # Safety
/// As [`step_slice`], but launch with grid `(towers_x, towers_y, 1)`.
#[inline(always)]
unsafe fn step_march<T: Real>(u: *const T, v: *mut T, u_next: *mut T, lay: TowerLayout, c: &KarmaCoeffs<T>) {
    let b = Block::new(lay);
    let tile = dynamic_shared::<T>();
    // SAFETY: as in step_slice.
    let out = unsafe { tile.add(((lay.bx + 2) * (lay.by + 2)) as usize) };
    let wall = lay.wall_length();
    let nz = lay.dims.nz;
    let own0 = lay.slice_base(b.tower_x, b.tower_y, 0) + lay.core_offset(b.tx, b.ty);
    // SAFETY: indices per the layout; every thread reaches every barrier.
    unsafe {
        let mut cur = *u.add(own0 as usize);
        let mut above = *u.add((own0 + wall) as usize);
        let mut below = above; // mirror at z = 0
        for z in 0..nz {
            let z2 = mirror(z as i64 + 2, nz as i64) as u32;
            let ahead = if z + 1 < nz { *u.add((own0 + z2 * wall) as usize) } else { above };
            let vi = b.v_index(z);
            let vc = *v.add(vi);
            *tile.add(((b.ty + 1) * b.pitch + b.tx + 1) as usize) = cur;
            b.load_halo(u, tile, z);
            sync_threads();
            let lap = b.laplacian(tile, cur, below, above);
            let (un, vn) = karma_step(cur, vc, lap, c);
            *u_next.add((own0 + z * wall) as usize) = un;
            *v.add(vi) = vn;
            *out.add(b.flat as usize) = un;
            sync_threads();
            b.write_extra_lines(out, u_next, z);
            below = cur;
            cur = above;
            above = ahead;
        }
    }
}

macro_rules! tower_entry_points {
    ($($name:ident: $body:ident, $t:ty;)*) => {$(
        /// Karma step on the tower layout; see the module docs and the
        /// safety section of the generic body named in the source.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(
            u: *const $t,
            v: *mut $t,
            u_next: *mut $t,
            layout: TowerLayout,
            coeffs: KarmaCoeffs<$t>,
        ) {
            unsafe { $body(u, v, u_next, layout, &coeffs) }
        }
    )*};
}

tower_entry_points! {
    karma_tower_f32: step_slice, f32;
    karma_tower_f64: step_slice, f64;
    karma_tower_march_f32: step_march, f32;
    karma_tower_march_f64: step_march, f64;
}
