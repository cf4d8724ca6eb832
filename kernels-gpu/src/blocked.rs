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
//! # One barrier per plane (levels skewed by two planes)
//! The block marches its planes upwards. At iteration t it loads plane t
//! of level 0 (U over the level-0 region, the locals over the level-1
//! region: a local is only needed where a step is taken) and, for l =
//! 1..=k, computes plane t - 2l of level l from planes t - 2l - 1, t - 2l
//! and t - 2l + 1 of level l - 1 (mirrored at the grid's ends). Level l - 1
//! writes plane t - 2l + 2 in that same iteration, so every value an
//! iteration reads was written in an earlier one: the iteration is one
//! phase with one block barrier after it (the unskewed march, plane t - l,
//! needs a barrier after every level: k + 1 per plane). Levels 0..k-1 keep
//! their last four planes in shared memory (three read, one written: a ring
//! indexed by plane % 4); level k goes straight to memory. A cell's local
//! variables are advanced in place as its plane climbs the levels, in a
//! ring of 2k + 1 planes (plane p is loaded at iteration p and finished at
//! iteration p + 2k).
//!
//! # Instructions per cell
//! The pass is bound by instruction issue, not by DRAM, so the per-cell
//! work outside [`step_cell`] is kept to a few integer operations: each
//! level's region is walked in rows of its width by a counter in bytes
//! (thread, thread + threads, ...), its row found by one `mul.hi` with a
//! reciprocal computed once per block ([`Magic`]: no integer division per
//! cell), its place in the frame by one multiply-add; shared memory is
//! addressed with 32-bit byte offsets ([`Shared`]) so that a neighbour is
//! one integer add away; the mirror rule is applied only in
//! blocks whose regions touch the grid's sides in x or y; the number of
//! steps is a constant of the code ([`run_pass`] picks one of four
//! instances), so the levels are unrolled and their maps kept in registers.
//!
//! # Why an iteration is a phase
//! An iteration is a function of (tile, iteration, thread, shared memory)
//! that reads only what earlier iterations wrote: no thread reads in an
//! iteration what another thread writes in the same iteration (each level
//! writes a plane of its ring that no level reads in that iteration; the
//! locals of a cell are touched by one thread per iteration). So running an
//! iteration for every thread of a block one thread after another, with the
//! barrier being the end of the loop over threads, computes what the GPU
//! computes; [`emulate`] does exactly that on the CPU (in both thread
//! orders), and the tests compare it with the CPU reference solver.

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

/// Planes of U each level below k keeps in shared memory: the three its
/// next level reads and the one it writes in the same iteration.
const U_RING: u32 = 4;

/// Planes of each local variable in shared memory for `steps` steps: plane
/// p lives from iteration p (loaded) to iteration p + 2 steps (stored).
const fn local_ring(steps: u32) -> u32 {
    2 * steps + 1
}

/// Dynamic shared memory of a block, in elements: the frame (the tile grown
/// by k on each side in x and y) times 4 planes for each of the levels
/// 0..k-1 plus 2k + 1 planes of each local variable.
pub const fn shared_elems(tile_x: u32, tile_y: u32, steps: u32, locals: u32) -> u64 {
    let frame = (tile_x + 2 * steps) as u64 * (tile_y + 2 * steps) as u64;
    frame * (U_RING as u64 * steps as u64 + local_ring(steps) as u64 * locals as u64)
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

/// A block's shared memory, addressed by byte offsets (u32, so that a
/// cell's neighbours are one integer add apart): a pointer and its length
/// in elements (checked in debug builds, which the emulator's tests are).
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

    /// The element at byte offset `at`.
    ///
    /// # Safety
    /// `at` is a multiple of the element's size inside the memory.
    #[inline(always)]
    unsafe fn get(self, at: u32) -> T {
        self.check(at);
        // SAFETY: inside the memory (the tile's index arithmetic; checked in debug).
        unsafe { *self.ptr.byte_add(at as usize) }
    }

    /// Writes the element at byte offset `at`.
    ///
    /// # Safety
    /// As [`Shared::get`].
    #[inline(always)]
    unsafe fn set(self, at: u32, v: T) {
        self.check(at);
        // SAFETY: as in `get`.
        unsafe { *self.ptr.byte_add(at as usize) = v }
    }

    #[inline(always)]
    fn check(self, at: u32) {
        let size = core::mem::size_of::<T>();
        debug_assert!((at as usize).is_multiple_of(size), "shared offset {at} not a multiple of {size}");
        debug_assert!(at as usize / size < self.len, "shared index {} of {}", at as usize / size, self.len);
    }
}

/// Division by a divisor fixed for a block, by one `mul.hi`: `n / d` is
/// `(n * m) >> 32` with `m = ceil(2^32 / d)`, exact whenever `n * d <
/// 2^32` (write `m d = 2^32 + e`, `0 <= e < d`, and `n = q d + r`: then
/// `n m / 2^32 = q + (r + n e / 2^32) / d` and `r + n e / 2^32 < r + 1 <=
/// d`). The tiles' byte counters and row widths stay far below that
/// (`Tile::new` checks it in debug builds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Magic {
    m: u32,
}

impl Magic {
    /// The reciprocal of `d`, 2 <= d.
    #[inline(always)]
    pub const fn new(d: u32) -> Self {
        // u32::MAX / d + 1 = ceil(2^32 / d) (also where d divides 2^32).
        Self { m: u32::MAX / d + 1 }
    }

    /// `n / d` for `n * d < 2^32`.
    #[inline(always)]
    pub fn quotient(self, n: u32) -> u32 {
        #[cfg(target_arch = "nvptx64")]
        {
            crate::gpu::mul_hi_u32(n, self.m)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            ((n as u64 * self.m as u64) >> 32) as u32
        }
    }
}

/// How the threads of a block walk one level's region of the tile, in
/// bytes of the element type: cell n of the region (row by row) is at
/// byte counter `c = n * size`, in row `y = c / (w * size)`, at frame
/// offset `first_b + c + y * row_skip_b` and at global index `first_cell +
/// c / size + y * grid_skip` of plane 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LevelMap {
    /// The region: x_lo..x_hi, y_lo..y_hi, planes z_lo..z_hi.
    x_lo: u32,
    x_hi: u32,
    y_lo: u32,
    y_hi: u32,
    z_lo: u32,
    z_hi: u32,
    /// Width of the region.
    w: u32,
    /// Cells of the region times the element size (the counter's end).
    cells_b: u32,
    /// Divides the counter by the row's bytes.
    row: Magic,
    /// (frame width - w) times the element size.
    row_skip_b: u32,
    /// Byte offset of the region's first cell in the frame.
    first_b: u32,
    /// nx - w.
    grid_skip: u32,
    /// Index of the region's first cell in plane 0.
    first_cell: u32,
}

/// The geometry of one block's pass of `K` steps: what it owns, the maps
/// of its levels and where each plane lives in shared memory (byte
/// offsets for elements of `size` bytes).
#[derive(Clone, Copy, Debug)]
pub struct Tile<const K: u32> {
    g: GridDims,
    threads: u32,
    /// Owned cells: x0..x1, y0..y1, z0..z1.
    x0: u32,
    x1: u32,
    y0: u32,
    y1: u32,
    z0: u32,
    z1: u32,
    frame_w: u32,
    /// Elements of one plane of the frame.
    frame: u32,
    locals: u32,
    /// Bytes of an element.
    size: u32,
    /// Some level's region touches a side of the grid in x or y, where the
    /// mirror rule applies; elsewhere every neighbour is the plain one.
    edge: bool,
    /// Levels 0..=K (the rest unused).
    maps: [LevelMap; MAX_STEPS_PER_PASS as usize + 1],
}

impl<const K: u32> Tile<K> {
    /// The tile of block `block` (CUDA's blockIdx) of a launch with
    /// blocks of `tile` threads over `window`, for a model with `locals`
    /// local variables of type `T`.
    #[inline(always)]
    pub fn new<T>(
        g: GridDims,
        tile: (u32, u32),
        block: (u32, u32, u32),
        window: ZWindow,
        z_chunk: u32,
        locals: u32,
    ) -> Self {
        let size = core::mem::size_of::<T>() as u32;
        let x0 = block.0 * tile.0;
        let y0 = block.1 * tile.1;
        let z0 = window.begin + block.2 * z_chunk;
        let (x1, y1, z1) = (min(g.nx, x0 + tile.0), min(g.ny, y0 + tile.1), min(window.end, z0 + z_chunk));
        let frame_w = tile.0 + 2 * K;
        let empty = LevelMap {
            x_lo: 0,
            x_hi: 0,
            y_lo: 0,
            y_hi: 0,
            z_lo: 0,
            z_hi: 0,
            w: 0,
            cells_b: 0,
            row: Magic { m: 0 },
            row_skip_b: 0,
            first_b: 0,
            grid_skip: 0,
            first_cell: 0,
        };
        let mut maps = [empty; MAX_STEPS_PER_PASS as usize + 1];
        let mut level = 0;
        while level <= K {
            let m = K - level;
            let (x_lo, x_hi) = (x0.saturating_sub(m), min(g.nx, x1 + m));
            let (y_lo, y_hi) = (y0.saturating_sub(m), min(g.ny, y1 + m));
            let w = x_hi - x_lo;
            let cells_b = w * (y_hi - y_lo) * size;
            debug_assert!(cells_b as u64 * (w * size) as u64 + (w * size) as u64 <= 1 << 32);
            maps[level as usize] = LevelMap {
                x_lo,
                x_hi,
                y_lo,
                y_hi,
                z_lo: z0.saturating_sub(m),
                z_hi: min(g.nz, z1 + m),
                w,
                cells_b,
                row: Magic::new(w * size),
                row_skip_b: (frame_w - w) * size,
                first_b: ((y_lo + K - y0) * frame_w + (x_lo + K - x0)) * size,
                grid_skip: g.nx - w,
                first_cell: y_lo * g.nx + x_lo,
            };
            level += 1;
        }
        let one = maps[1];
        Tile {
            g,
            threads: tile.0 * tile.1,
            x0,
            x1,
            y0,
            y1,
            z0,
            z1,
            frame_w,
            frame: frame_w * (tile.1 + 2 * K),
            locals,
            size,
            edge: one.x_lo == 0 || one.x_hi == g.nx || one.y_lo == 0 || one.y_hi == g.ny,
            maps,
        }
    }

    /// The iterations of the march: from the first plane of level 0 until
    /// level K has its last owned plane (at iteration plane + 2K).
    #[inline(always)]
    pub fn iterations(&self) -> core::ops::Range<u32> {
        self.maps[0].z_lo..self.z1 + 2 * K
    }

    /// Elements of shared memory the tile uses ([`shared_elems`]).
    pub fn shared_elems(&self) -> usize {
        (self.frame * (U_RING * K + local_ring(K) * self.locals)) as usize
    }

    /// Byte offset of plane `plane` of level `level` (< K) in shared memory.
    #[inline(always)]
    fn u_plane(&self, level: u32, plane: u32) -> u32 {
        (level * U_RING + plane % U_RING) * self.frame * self.size
    }

    /// Byte offset of the first local variable of plane `plane` in shared
    /// memory (variable v is v frames further).
    #[inline(always)]
    fn local_plane(&self, plane: u32) -> u32 {
        (U_RING * K + (plane % local_ring(K)) * self.locals) * self.frame * self.size
    }
}

#[inline(always)]
const fn min(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
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
}

/// Iteration `t` of thread `thread`: its share of the load of plane t
/// (level 0) and of each level's plane t - 2 level. Between two iterations
/// the block's threads meet at a barrier.
///
/// # Safety
/// `shared` holds [`Tile::shared_elems`] elements; `u` holds the grid's
/// cells row-major and `local` `COUNT` times as many (variable after
/// variable), neither written during the pass; `u_next` and `local_next`
/// have the sizes of `u` and `local`, overlap nothing else, and are written
/// only at the owned cells; `rec` is off or valid for the grid.
#[inline(always)]
pub unsafe fn iteration<M: CellModel, T: Real, const K: u32>(
    tile: &Tile<K>,
    t: u32,
    thread: u32,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
) {
    // SAFETY: forwarded; the levels are unrolled by their constant index.
    unsafe {
        load::<M, T, K>(tile, t, thread, shared, a.u, a.local);
        level::<M, T, K, 1>(tile, t, thread, shared, a);
        if K >= 2 {
            level::<M, T, K, 2>(tile, t, thread, shared, a);
        }
        if K >= 3 {
            level::<M, T, K, 3>(tile, t, thread, shared, a);
        }
        if K >= 4 {
            level::<M, T, K, 4>(tile, t, thread, shared, a);
        }
    }
}

/// Thread `thread` loads its share of plane t of level 0 (U over the
/// level-0 region) and of the locals (over the level-1 region).
///
/// # Safety
/// As [`iteration`].
#[inline(always)]
unsafe fn load<M: CellModel, T: Real, const K: u32>(
    tile: &Tile<K>,
    t: u32,
    thread: u32,
    shared: Shared<T>,
    u: *const T,
    local: *const T,
) {
    let g = tile.g;
    let size = tile.size;
    let step_b = tile.threads * size;
    let slice = g.nx * g.ny;
    // SAFETY (whole body): every cell walked is a cell of the grid (regions
    // and planes are clipped to it), every shared offset lies in the
    // tile's frame planes.
    unsafe {
        let map = tile.maps[0];
        if map.z_lo <= t && t < map.z_hi {
            let dst = tile.u_plane(0, t) + map.first_b;
            let first = t * slice + map.first_cell;
            let mut c = thread * size;
            while c < map.cells_b {
                let y = map.row.quotient(c);
                let f = c.wrapping_add(y.wrapping_mul(map.row_skip_b));
                let i = first + c / size + y * map.grid_skip;
                shared.set(dst + f, *u.add(i as usize));
                c += step_b;
            }
        }
        let map = tile.maps[1];
        let count = M::Locals::<T>::COUNT as u32;
        if count > 0 && map.z_lo <= t && t < map.z_hi {
            let dst = tile.local_plane(t) + map.first_b;
            let var_b = tile.frame * size;
            let first = t * slice + map.first_cell;
            let stride = g.cells();
            let mut c = thread * size;
            while c < map.cells_b {
                let y = map.row.quotient(c);
                let f = dst + c.wrapping_add(y.wrapping_mul(map.row_skip_b));
                let i = (first + c / size + y * map.grid_skip) as usize;
                let mut var = 0;
                while var < count {
                    shared.set(f + var * var_b, *local.add(var as usize * stride + i));
                    var += 1;
                }
                c += step_b;
            }
        }
    }
}

/// Thread `thread` steps its share of plane t - 2L from level L - 1 to
/// level L, into shared memory, or for the last level into `u_next` and
/// `local_next`. Crossings of the owned cells are recorded at every level,
/// with the time of that level's step.
///
/// # Safety
/// As [`iteration`].
#[inline(always)]
unsafe fn level<M: CellModel, T: Real, const K: u32, const L: u32>(
    tile: &Tile<K>,
    t: u32,
    thread: u32,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
) {
    let map = tile.maps[L as usize];
    if t < 2 * L {
        return;
    }
    let p = t - 2 * L;
    if p < map.z_lo || p >= map.z_hi {
        return;
    }
    let g = tile.g;
    let size = tile.size;
    let count = M::Locals::<T>::COUNT as u32;
    // The z neighbours by the mirror rule (nz >= 2): U[-1] = U[1], U[nz] = U[nz - 2].
    let below = if p == 0 { 1 } else { p - 1 };
    let above = if p + 1 == g.nz { g.nz - 2 } else { p + 1 };
    let src = tile.u_plane(L - 1, p) + map.first_b;
    let src_below = tile.u_plane(L - 1, below) + map.first_b;
    let src_above = tile.u_plane(L - 1, above) + map.first_b;
    let last = L == K;
    let dst = if last { 0 } else { tile.u_plane(L, p) + map.first_b };
    let loc = tile.local_plane(p) + map.first_b;
    let var_b = tile.frame * size;
    let row_b = tile.frame_w * size;
    let first = p * g.nx * g.ny + map.first_cell;
    let stride = g.cells();
    let step_b = tile.threads * size;
    let mut c = thread * size;
    // SAFETY (whole body): shared offsets lie in the frame planes (the
    // mirror rule keeps neighbours inside the region of level L - 1, one
    // cell wider than this level's, and interior tiles read that region's
    // plain neighbours); global indices are cells of the grid.
    unsafe {
        while c < map.cells_b {
            let y = map.row.quotient(c);
            let f = c.wrapping_add(y.wrapping_mul(map.row_skip_b));
            // The neighbours' byte offsets: plain inside, mirrored at the sides.
            let (xm, xp, ym, yp) = if tile.edge {
                let x = c / size - y * map.w;
                let (xm, xp) = mirror_offsets(map.x_lo + x, g.nx);
                let (ym, yp) = mirror_offsets(map.y_lo + y, g.ny);
                (
                    (xm as u32).wrapping_mul(size),
                    (xp as u32).wrapping_mul(size),
                    (ym as u32).wrapping_mul(row_b),
                    (yp as u32).wrapping_mul(row_b),
                )
            } else {
                (size.wrapping_neg(), size, row_b.wrapping_neg(), row_b)
            };
            let at = src + f;
            let centre = shared.get(at);
            let lap = laplacian7(
                centre,
                shared.get(at.wrapping_add(xm)),
                shared.get(at.wrapping_add(xp)),
                shared.get(at.wrapping_add(ym)),
                shared.get(at.wrapping_add(yp)),
                shared.get(src_below + f),
                shared.get(src_above + f),
            );
            let at_local = loc + f;
            let mut locals = M::Locals::<T>::from_fn(|var| shared.get(at_local + var as u32 * var_b));
            let un = step_cell::<M, T>(centre, lap, &mut locals, a.step, a.coeffs);
            let i = first + c / size + y * map.grid_skip;
            if last {
                *a.u_next.add(i as usize) = un;
                locals.store(a.local_next, stride, i as usize);
            } else {
                shared.set(dst + f, un);
                let mut var = 0;
                while var < count {
                    shared.set(at_local + var * var_b, locals.get(var as usize));
                    var += 1;
                }
            }
            if a.rec.activation != 0 {
                let (x, y) = (map.x_lo + c / size - y * map.w, map.y_lo + y);
                let owned = tile.z0 <= p && p < tile.z1;
                if owned && tile.x0 <= x && x < tile.x1 && tile.y0 <= y && y < tile.y1 {
                    let rec = a.rec.at((a.first_step + (L - 1) as u64) as f64 * a.rec.dt_ms);
                    rec.record(i, centre, un);
                }
            }
            c += step_b;
        }
    }
}

/// One block's pass of `K` steps: every iteration of the march for thread
/// `thread`, `barrier` between iterations (the GPU's `__syncthreads`).
///
/// # Safety
/// As [`iteration`], and `barrier` makes the shared-memory writes of every
/// thread of the block visible to all of them.
#[inline(always)]
pub unsafe fn run_block<M: CellModel, T: Real, const K: u32>(
    tile: &Tile<K>,
    thread: u32,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
    mut barrier: impl FnMut(),
) {
    for t in tile.iterations() {
        // SAFETY: forwarded to the caller.
        unsafe { iteration::<M, T, K>(tile, t, thread, shared, a) };
        barrier();
    }
}

/// The order in which [`emulate`] runs the threads of an iteration.
/// Running both orders and finding the same bits shows that no thread
/// depends on another's writes within an iteration.
#[cfg(not(target_arch = "nvptx64"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadOrder {
    Forward,
    Reverse,
}

/// One pass of the blocked kernel on the CPU: every block of
/// [`launch_shape`] in turn (in `order`, like its threads), each iteration
/// run for every thread of the block before the next iteration starts (the
/// barrier), on a shared memory filled with NaN so that a read of
/// anything no iteration wrote shows in the result. The same functions as
/// the GPU kernel, on host memory; `rec` holds host addresses when on.
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
    let args = PassArgs::<M, T> {
        u: u.as_ptr(),
        local: local.as_ptr(),
        u_next: u_next.as_mut_ptr(),
        local_next: local_next.as_mut_ptr(),
        step,
        coeffs,
        rec,
        first_step: pass.first_step,
    };
    let e = Emulation { g, tile, window, pass, order };
    match pass.steps {
        1 => e.run::<M, T, 1>(&args),
        2 => e.run::<M, T, 2>(&args),
        3 => e.run::<M, T, 3>(&args),
        _ => e.run::<M, T, 4>(&args),
    }
}

/// The launch [`emulate`] runs, for its instances of each step count.
#[cfg(not(target_arch = "nvptx64"))]
struct Emulation {
    g: GridDims,
    tile: (u32, u32),
    window: ZWindow,
    pass: Pass,
    order: ThreadOrder,
}

#[cfg(not(target_arch = "nvptx64"))]
impl Emulation {
    fn ordered(&self, n: u32) -> Vec<u32> {
        let mut all: Vec<u32> = (0..n).collect();
        if self.order == ThreadOrder::Reverse {
            all.reverse();
        }
        all
    }

    fn run<M: CellModel, T: Real, const K: u32>(&self, args: &PassArgs<'_, M, T>) {
        let count = M::Locals::<T>::COUNT as u32;
        let shape = launch_shape(self.g, self.tile, self.window, self.pass.z_chunk);
        let threads = self.tile.0 * self.tile.1;
        let mut shared = vec![T::NAN; shared_elems(self.tile.0, self.tile.1, K, count) as usize];
        for bz in self.ordered(shape.grid.2) {
            for by in self.ordered(shape.grid.1) {
                for bx in self.ordered(shape.grid.0) {
                    let t = Tile::<K>::new::<T>(
                        self.g,
                        self.tile,
                        (bx, by, bz),
                        self.window,
                        self.pass.z_chunk,
                        count,
                    );
                    assert_eq!(t.shared_elems(), shared.len());
                    shared.fill(T::NAN);
                    // SAFETY: `shared` holds the tile's elements; `emulate`
                    // checked the buffers; the blocks write disjoint owned
                    // cells of the `_next` buffers and read only `u` and
                    // `local`.
                    unsafe {
                        let sh = Shared::new(shared.as_mut_ptr(), shared.len());
                        for it in t.iterations() {
                            for thread in self.ordered(threads) {
                                iteration::<M, T, K>(&t, it, thread, sh, args);
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
        // Karma (1 local), 32x8, k = 4: a 40 x 16 frame, 16 U planes and 9 local planes.
        assert_eq!(shared_elems(32, 8, 4, 1), 640 * 25);
        assert_eq!(shared_elems(32, 8, 1, 0), 34 * 10 * 4);
        let g = GridDims::new(70, 17, 45);
        let s = launch_shape(g, (32, 8), ZWindow::all(45), 16);
        assert_eq!(s, LaunchShape { grid: (3, 3, 3), block: (32, 8, 1) });
    }

    #[test]
    fn regions_grow_by_the_levels_left_and_stay_in_the_grid() {
        let g = GridDims::new(70, 17, 45);
        let t = Tile::<3>::new::<f32>(g, (32, 8), (1, 2, 1), ZWindow::all(45), 16, 1);
        assert_eq!((t.x0, t.x1, t.y0, t.y1, t.z0, t.z1), (32, 64, 16, 17, 16, 32));
        let region = |l: usize| {
            let m = t.maps[l];
            (m.x_lo, m.x_hi, m.y_lo, m.y_hi, m.z_lo, m.z_hi)
        };
        assert_eq!(region(0), (29, 67, 13, 17, 13, 35));
        assert_eq!(region(2), (31, 65, 15, 17, 15, 33));
        assert_eq!(region(3), (32, 64, 16, 17, 16, 32));
        assert_eq!(t.iterations(), 13..38);
        assert!(t.edge, "its regions reach y = ny");
        let first = Tile::<3>::new::<f64>(g, (32, 8), (0, 0, 0), ZWindow::all(45), 16, 1);
        let m = first.maps[0];
        assert_eq!((m.x_lo, m.x_hi, m.y_lo, m.y_hi, m.z_lo, m.z_hi), (0, 35, 0, 11, 0, 19));
        // Cell (0, 0) sits 3 rows and 3 columns into the frame, 8 bytes a cell.
        assert_eq!(m.first_b, (3 * 38 + 3) * 8);
        let inner =
            Tile::<2>::new::<f32>(GridDims::new(96, 24, 8), (32, 8), (1, 1, 0), ZWindow::all(8), 8, 1);
        assert!(!inner.edge);
    }

    /// The walk of every level's region visits each of its cells once, at
    /// the frame offset and grid index of that cell, for every width a
    /// frame can have and both element sizes.
    #[test]
    fn region_walk_finds_every_cell_by_multiplication() {
        fn walk<T>(g: GridDims, tile: (u32, u32), block: (u32, u32, u32)) {
            let t = Tile::<4>::new::<T>(g, tile, block, ZWindow::all(g.nz), 4, 1);
            let size = core::mem::size_of::<T>() as u32;
            for l in 0..=4 {
                let m = t.maps[l];
                let mut seen = 0;
                for c in (0..m.cells_b).step_by(size as usize) {
                    let y = m.row.quotient(c);
                    let n = c / size;
                    assert_eq!((y, n - y * m.w), (n / m.w, n % m.w), "level {l} cell {n} of width {}", m.w);
                    let (x, yy) = (m.x_lo + n % m.w, m.y_lo + n / m.w);
                    let f = m.first_b + c + y * m.row_skip_b;
                    assert_eq!(f, ((yy + 4 - t.y0) * t.frame_w + (x + 4 - t.x0)) * size);
                    assert_eq!(m.first_cell + n + y * m.grid_skip, yy * g.nx + x);
                    seen += 1;
                }
                assert_eq!(seen, (m.x_hi - m.x_lo) * (m.y_hi - m.y_lo));
            }
        }
        for w in [1, 2, 3, 5, 7, 31, 32, 33, 64, 96, 127, 128, 255, 256, 511, 1024] {
            let g = GridDims::new(3 * w + 3, 21, 6);
            for block in [(0, 0, 0), (1, 1, 0), (2, 2, 1)] {
                walk::<f32>(g, (w, 3), block);
                walk::<f64>(g, (w, 2), block);
            }
        }
    }

    #[test]
    fn magic_division_is_exact_where_promised() {
        for d in 2..3000u32 {
            let magic = Magic::new(d);
            let limit = ((1u64 << 32) / d as u64).min(1 << 20) as u32;
            for n in (0..limit).step_by(((limit / 4000) as usize).max(1)).chain([limit - 1]) {
                assert_eq!(magic.quotient(n), n / d, "{n} / {d}");
            }
        }
    }
}
