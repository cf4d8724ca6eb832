//! Temporal blocking: k time steps per pass over the fields (k = 1..4),
//! written once as plain functions that the GPU kernel
//! ([`crate::kernels::blocked`]) and a CPU emulator ([`emulate`]) both run.
//!
//! One step per pass moves at least 16 bytes per cell-update in f32 (read
//! U and v, write U and v), which bounds every single-step kernel by the
//! memory roofline. A pass of k steps reads the fields once and writes
//! them once, so the compulsory traffic falls to 16/k bytes per
//! cell-update; the price is recomputing a halo.
//!
//! # Tiling (overlapped tiles, planes marched along z)
//! A block owns a tile of `tile_x x tile_y` cells in xy and a chunk of
//! `z_chunk` slices. Level l (the state after l steps of the pass) is
//! computed on the owned cells grown by `k - l` cells in x, y and z,
//! clipped to the grid: level 0 is read from memory over the tile grown by
//! k, level k is exactly the owned cells. Neighbouring blocks recompute the
//! cells their grown regions share (overlapped tiles), so blocks never
//! exchange data and each cell of each level is computed by the same
//! [`step_cell`] on the same values as the one-step kernels: the result is
//! bit-identical to k single steps. Cells outside the grid are never
//! needed: the mirror rule (U[-1] = U[1]) points back into the region one
//! level down, which is one cell wider.
//!
//! The block marches its planes upwards. At iteration t it
//! 1. loads plane t of level 0 (U over the level-0 region, the locals over
//!    the level-1 region: a local is only needed where a step is taken);
//! 2. for l = 1..=k, computes plane t - l of level l from planes t - l - 1,
//!    t - l and t - l + 1 of level l - 1 (mirrored at the grid's ends),
//!
//! with a block barrier after every phase. Levels 0..k-1 keep their last
//! three planes in shared memory (a ring indexed by plane % 3); level k
//! goes straight to memory. A cell's local variables are advanced in place
//! as its plane climbs the levels, in a ring of k + 1 planes (plane p is
//! loaded at iteration p and finished at iteration p + k).
//!
//! # Why phases
//! Each phase is a function of (tile, iteration, thread, shared memory)
//! that reads only what earlier phases wrote: no thread reads in a phase
//! what another thread writes in the same phase (each phase writes one
//! level's plane and reads the level below; the locals of a cell are
//! touched by one thread). So running the phases of a block one thread
//! after another, with the barrier being the end of the loop over threads,
//! computes what the GPU computes; [`emulate`] does exactly that on the
//! CPU, and the tests compare it with the CPU reference solver.

use crate::cell::{StepCoeffs, step_cell};
use crate::events::Recorder;
use crate::layout::grid::{GridDims, ZWindow};
use crate::model::{CellModel, Locals};
use crate::real::Real;
use crate::stencil::{laplacian7, mirror_offsets};

/// The most steps one pass takes.
pub const MAX_STEPS_PER_PASS: u32 = 4;

/// Slices per block along z when the run does not choose (`--z-chunk 0`):
/// with k = 4 a chunk of 32 recomputes 12 extra planes of the 128 it owns
/// (9%), and a 256^3 grid gets 2,048 blocks of 32x8, enough for every SM.
pub const DEFAULT_Z_CHUNK: u32 = 32;

/// Dynamic shared memory of a block, in elements: the frame (the tile grown
/// by k on each side in x and y) times 3 planes for each of the levels
/// 0..k-1 plus k + 1 planes of each local variable.
pub const fn shared_elems(tile_x: u32, tile_y: u32, steps: u32, locals: u32) -> u64 {
    let frame = (tile_x + 2 * steps) as u64 * (tile_y + 2 * steps) as u64;
    frame * (3 * steps as u64 + (steps as u64 + 1) * locals as u64)
}

/// What one pass does, passed by value to the kernel (`#[repr(C)]`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    /// Steps of this pass, 1..=[`MAX_STEPS_PER_PASS`].
    pub steps: u32,
    /// Slices each block owns along z (>= 1).
    pub z_chunk: u32,
    /// The run's step count at the start of the pass: step l of the pass
    /// (1-based) starts at `(first_step + l - 1) * dt`, the time the
    /// recorder stamps its crossings with, as for a single step.
    pub first_step: u64,
}

/// Grid and block of a launch (CUDA's `(x, y, z)` triples).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
}

/// The launch of a pass over `window` of `g`: one block of `tile_x x
/// tile_y` threads per tile and z-chunk. The launcher and [`emulate`]
/// both take it from here.
pub const fn launch_shape(g: GridDims, tile: (u32, u32), window: ZWindow, z_chunk: u32) -> LaunchShape {
    LaunchShape {
        grid: (g.nx.div_ceil(tile.0), g.ny.div_ceil(tile.1), window.len().div_ceil(z_chunk)),
        block: (tile.0, tile.1, 1),
    }
}

/// A block's shared memory: a pointer and its length in elements (checked
/// in debug builds, which the emulator's tests are).
#[derive(Clone, Copy)]
pub struct Shared<T> {
    ptr: *mut T,
    len: usize,
}

impl<T: Copy> Shared<T> {
    /// # Safety
    /// `ptr` holds `len` elements, readable and writable for as long as
    /// the value is used.
    #[inline(always)]
    pub unsafe fn new(ptr: *mut T, len: usize) -> Self {
        Self { ptr, len }
    }

    #[inline(always)]
    unsafe fn get(self, i: u32) -> T {
        debug_assert!((i as usize) < self.len, "shared index {i} of {}", self.len);
        // SAFETY: i < len (the tile's index arithmetic; checked in debug).
        unsafe { *self.ptr.add(i as usize) }
    }

    #[inline(always)]
    unsafe fn set(self, i: u32, v: T) {
        debug_assert!((i as usize) < self.len, "shared index {i} of {}", self.len);
        // SAFETY: as in `get`.
        unsafe { *self.ptr.add(i as usize) = v }
    }
}

/// The geometry of one block's pass: what it owns, the regions of each
/// level and where each plane lives in shared memory.
#[derive(Clone, Copy, Debug)]
pub struct Tile {
    g: GridDims,
    /// Steps of the pass.
    k: u32,
    threads: u32,
    /// Owned cells: x0..x1, y0..y1, z0..z1.
    x0: u32,
    x1: u32,
    y0: u32,
    y1: u32,
    z0: u32,
    z1: u32,
    frame_w: u32,
    frame: u32,
    locals: u32,
}

impl Tile {
    /// The tile of block `block` (CUDA's blockIdx) of a launch with
    /// blocks of `tile` threads over `window`, for a model with `locals`
    /// local variables.
    #[inline(always)]
    pub fn new(
        g: GridDims,
        tile: (u32, u32),
        block: (u32, u32, u32),
        window: ZWindow,
        pass: &Pass,
        locals: u32,
    ) -> Self {
        let k = pass.steps;
        let x0 = block.0 * tile.0;
        let y0 = block.1 * tile.1;
        let z0 = window.begin + block.2 * pass.z_chunk;
        let frame_w = tile.0 + 2 * k;
        Tile {
            g,
            k,
            threads: tile.0 * tile.1,
            x0,
            x1: min(g.nx, x0 + tile.0),
            y0,
            y1: min(g.ny, y0 + tile.1),
            z0,
            z1: min(window.end, z0 + pass.z_chunk),
            frame_w,
            frame: frame_w * (tile.1 + 2 * k),
            locals,
        }
    }

    /// The iterations of the march: from the first plane of level 0 until
    /// level k has its last owned plane.
    #[inline(always)]
    pub fn iterations(&self) -> core::ops::Range<u32> {
        self.planes(0).0..self.z1 + self.k
    }

    /// Elements of shared memory the tile uses ([`shared_elems`]).
    pub fn shared_elems(&self) -> usize {
        self.frame as usize * (3 * self.k + (self.k + 1) * self.locals) as usize
    }

    /// The xy region of `level`: x0..x1, y0..y1 grown by k - level, clipped.
    #[inline(always)]
    fn region(&self, level: u32) -> (u32, u32, u32, u32) {
        let m = self.k - level;
        (
            self.x0.saturating_sub(m),
            min(self.g.nx, self.x1 + m),
            self.y0.saturating_sub(m),
            min(self.g.ny, self.y1 + m),
        )
    }

    /// The planes of `level`: z0..z1 grown by k - level, clipped to the grid.
    #[inline(always)]
    fn planes(&self, level: u32) -> (u32, u32) {
        let m = self.k - level;
        (self.z0.saturating_sub(m), min(self.g.nz, self.z1 + m))
    }

    /// Position of cell (x, y) in the frame (x >= x0 - k, y >= y0 - k).
    #[inline(always)]
    fn frame_index(&self, x: u32, y: u32) -> u32 {
        (y + self.k - self.y0) * self.frame_w + (x + self.k - self.x0)
    }

    /// Start of plane `plane` of level `level` (< k) in shared memory.
    #[inline(always)]
    fn u_plane(&self, level: u32, plane: u32) -> u32 {
        (level * 3 + plane % 3) * self.frame
    }

    /// Start of local variable `var` of plane `plane` in shared memory.
    #[inline(always)]
    fn local_plane(&self, plane: u32, var: u32) -> u32 {
        (3 * self.k + (plane % (self.k + 1)) * self.locals + var) * self.frame
    }

    /// The n-th cell of the region (x_lo, x_hi, y_lo, y_hi), row by row.
    #[inline(always)]
    fn cell_of(region: (u32, u32, u32, u32), n: u32) -> (u32, u32) {
        let w = region.1 - region.0;
        (region.0 + n % w, region.2 + n / w)
    }

    #[inline(always)]
    fn region_cells(region: (u32, u32, u32, u32)) -> u32 {
        (region.1 - region.0) * (region.3 - region.2)
    }
}

#[inline(always)]
const fn min(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
}

/// Phase 0 of iteration `t`: thread `thread` loads its share of plane t of
/// level 0 (U over the level-0 region) and of the locals (over the level-1
/// region) into shared memory.
///
/// # Safety
/// `shared` holds [`Tile::shared_elems`] elements; `u` holds the grid's
/// cells row-major and `local` `COUNT` times as many (variable after
/// variable), neither written during the pass.
#[inline(always)]
pub unsafe fn load_phase<M: CellModel, T: Real>(
    tile: &Tile,
    t: u32,
    thread: u32,
    shared: Shared<T>,
    u: *const T,
    local: *const T,
) {
    let g = tile.g;
    let stride = g.cells();
    let (lo, hi) = tile.planes(0);
    // SAFETY (whole body): every (x, y, t) is a cell of the grid (regions
    // and planes are clipped to it), every shared index lies in the tile's
    // frame planes.
    unsafe {
        if lo <= t && t < hi {
            let region = tile.region(0);
            let dst = tile.u_plane(0, t);
            let mut n = thread;
            while n < Tile::region_cells(region) {
                let (x, y) = Tile::cell_of(region, n);
                shared.set(dst + tile.frame_index(x, y), *u.add(g.index(x, y, t)));
                n += tile.threads;
            }
        }
        let (lo, hi) = tile.planes(1);
        if M::Locals::<T>::COUNT > 0 && lo <= t && t < hi {
            let region = tile.region(1);
            let mut n = thread;
            while n < Tile::region_cells(region) {
                let (x, y) = Tile::cell_of(region, n);
                let (f, i) = (tile.frame_index(x, y), g.index(x, y, t));
                let mut var = 0;
                while var < M::Locals::<T>::COUNT {
                    shared.set(tile.local_plane(t, var as u32) + f, *local.add(var * stride + i));
                    var += 1;
                }
                n += tile.threads;
            }
        }
    }
}

/// Phase `level` (1..=k) of iteration `t`: thread `thread` steps its share
/// of plane t - level from level - 1 to `level`, into shared memory, or for
/// the last level into `u_next` and `local_next`. Crossings of the owned
/// cells are recorded at every level, with the time of that level's step.
///
/// # Safety
/// As [`load_phase`], and: `u_next` and `local_next` have the sizes of `u`
/// and `local`, overlap nothing else, and are written only at the owned
/// cells; `rec` is off or valid for the grid.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "one phase of the kernel's parameter list")]
pub unsafe fn level_phase<M: CellModel, T: Real>(
    tile: &Tile,
    t: u32,
    level: u32,
    thread: u32,
    shared: Shared<T>,
    u_next: *mut T,
    local_next: *mut T,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    first_step: u64,
) {
    if t < level {
        return;
    }
    let p = t - level;
    let (lo, hi) = tile.planes(level);
    if p < lo || p >= hi {
        return;
    }
    let g = tile.g;
    let stride = g.cells();
    // The z neighbours by the mirror rule (nz >= 2): U[-1] = U[1], U[nz] = U[nz - 2].
    let below = if p == 0 { 1 } else { p - 1 };
    let above = if p + 1 == g.nz { g.nz - 2 } else { p + 1 };
    let src = tile.u_plane(level - 1, p);
    let src_below = tile.u_plane(level - 1, below);
    let src_above = tile.u_plane(level - 1, above);
    let last = level == tile.k;
    let dst = if last { 0 } else { tile.u_plane(level, p) };
    let owned_plane = tile.z0 <= p && p < tile.z1;
    let rec = rec.at((first_step + (level - 1) as u64) as f64 * rec.dt_ms);
    let region = tile.region(level);
    let fw = tile.frame_w;
    let offset = |f: u32, o: i32, stride: u32| f.wrapping_add((o as u32).wrapping_mul(stride));
    let mut n = thread;
    // SAFETY (whole body): shared indices lie in the frame planes (the
    // mirror rule keeps neighbours inside the region of level - 1, one cell
    // wider than this level's); global indices are cells of the grid.
    unsafe {
        while n < Tile::region_cells(region) {
            let (x, y) = Tile::cell_of(region, n);
            let f = tile.frame_index(x, y);
            let (xm, xp) = mirror_offsets(x, g.nx);
            let (ym, yp) = mirror_offsets(y, g.ny);
            let c = shared.get(src + f);
            let lap = laplacian7(
                c,
                shared.get(src + offset(f, xm, 1)),
                shared.get(src + offset(f, xp, 1)),
                shared.get(src + offset(f, ym, fw)),
                shared.get(src + offset(f, yp, fw)),
                shared.get(src_below + f),
                shared.get(src_above + f),
            );
            let mut locals = M::Locals::<T>::from_fn(|var| shared.get(tile.local_plane(p, var as u32) + f));
            let un = step_cell::<M, T>(c, lap, &mut locals, step, coeffs);
            let i = (p * g.ny + y) * g.nx + x;
            if last {
                *u_next.add(i as usize) = un;
                locals.store(local_next, stride, i as usize);
            } else {
                shared.set(dst + f, un);
                let mut var = 0;
                while var < M::Locals::<T>::COUNT {
                    shared.set(tile.local_plane(p, var as u32) + f, locals.get(var));
                    var += 1;
                }
            }
            if owned_plane && tile.x0 <= x && x < tile.x1 && tile.y0 <= y && y < tile.y1 {
                rec.record(i, c, un);
            }
            n += tile.threads;
        }
    }
}

/// The order in which [`emulate`] runs the threads of a phase. Running
/// both orders and finding the same bits shows that no thread depends on
/// another's writes within a phase.
#[cfg(not(target_arch = "nvptx64"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadOrder {
    Forward,
    Reverse,
}

/// One pass of the blocked kernel on the CPU: every block of
/// [`launch_shape`] in turn (in `order`, like its threads), each phase run
/// for every thread of the block before the next phase starts (the
/// barrier), on a shared memory filled with NaN so that a read of
/// anything no phase wrote shows in the result. The same functions as the
/// GPU kernel, on host memory; `rec` holds host addresses when on.
///
/// # Panics
/// If a buffer has the wrong length, the grid has an axis of one cell,
/// `pass.steps` is not in 1..=4 or the window is not inside the grid.
#[cfg(not(target_arch = "nvptx64"))]
#[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
pub fn emulate<M: CellModel, T: Real>(
    u: &[T],
    u_next: &mut [T],
    local: &[T],
    local_next: &mut [T],
    g: GridDims,
    tile: (u32, u32),
    window: ZWindow,
    pass: Pass,
    step: &StepCoeffs<T>,
    coeffs: &M::Coeffs<T>,
    rec: &Recorder<T>,
    order: ThreadOrder,
) {
    let count = M::Locals::<T>::COUNT;
    assert!(g.axes() == 3, "the blocked kernel steps 3D grids");
    assert!((1..=MAX_STEPS_PER_PASS).contains(&pass.steps) && pass.z_chunk >= 1);
    assert!(window.end <= g.nz && !window.is_empty());
    assert_eq!((u.len(), u_next.len()), (g.cells(), g.cells()));
    assert_eq!((local.len(), local_next.len()), (count * g.cells(), count * g.cells()));
    let shape = launch_shape(g, tile, window, pass.z_chunk);
    let threads = tile.0 * tile.1;
    let ordered = |n: u32| -> Vec<u32> {
        let mut all: Vec<u32> = (0..n).collect();
        if order == ThreadOrder::Reverse {
            all.reverse();
        }
        all
    };
    let mut shared = vec![T::NAN; shared_elems(tile.0, tile.1, pass.steps, count as u32) as usize];
    for bz in ordered(shape.grid.2) {
        for by in ordered(shape.grid.1) {
            for bx in ordered(shape.grid.0) {
                let t = Tile::new(g, tile, (bx, by, bz), window, &pass, count as u32);
                shared.fill(T::NAN);
                // SAFETY: `shared` holds the tile's elements; the buffers
                // were checked above; the blocks write disjoint owned cells
                // of the `_next` buffers and read only `u` and `local`.
                unsafe {
                    let sh = Shared::new(shared.as_mut_ptr(), shared.len());
                    for it in t.iterations() {
                        for thread in ordered(threads) {
                            load_phase::<M, T>(&t, it, thread, sh, u.as_ptr(), local.as_ptr());
                        }
                        for level in 1..=pass.steps {
                            for thread in ordered(threads) {
                                level_phase::<M, T>(
                                    &t,
                                    it,
                                    level,
                                    thread,
                                    sh,
                                    u_next.as_mut_ptr(),
                                    local_next.as_mut_ptr(),
                                    step,
                                    coeffs,
                                    rec,
                                    pass.first_step,
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_memory_and_launch_shape() {
        // Karma (1 local), 32x8, k = 4: a 40 x 16 frame, 12 U planes and 5 local planes.
        assert_eq!(shared_elems(32, 8, 4, 1), 640 * 17);
        assert_eq!(shared_elems(32, 8, 1, 0), 34 * 10 * 3);
        let g = GridDims::new(70, 17, 45);
        let s = launch_shape(g, (32, 8), ZWindow::all(45), 16);
        assert_eq!(s, LaunchShape { grid: (3, 3, 3), block: (32, 8, 1) });
    }

    #[test]
    fn regions_grow_by_the_levels_left_and_stay_in_the_grid() {
        let g = GridDims::new(70, 17, 45);
        let pass = Pass { steps: 3, z_chunk: 16, first_step: 0 };
        let t = Tile::new(g, (32, 8), (1, 2, 1), ZWindow::all(45), &pass, 1);
        assert_eq!((t.x0, t.x1, t.y0, t.y1, t.z0, t.z1), (32, 64, 16, 17, 16, 32));
        assert_eq!(t.region(0), (29, 67, 13, 17));
        assert_eq!(t.region(3), (32, 64, 16, 17));
        assert_eq!(t.planes(0), (13, 35));
        assert_eq!(t.planes(2), (15, 33));
        assert_eq!(t.iterations(), 13..35);
        let first = Tile::new(g, (32, 8), (0, 0, 0), ZWindow::all(45), &pass, 1);
        assert_eq!((first.region(0), first.planes(0)), ((0, 35, 0, 11), (0, 19)));
        assert_eq!(first.frame_index(0, 0), 3 * 38 + 3);
    }
}
