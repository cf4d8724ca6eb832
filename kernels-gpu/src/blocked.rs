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
//! # Tiling (overlapped tiles, columns marched along z)
//! A block of `bx x by` threads writes a tile of `(bx - 2k) x (by - 2k)`
//! cells in xy and a chunk of `z_chunk` slices: every thread owns one
//! column of the frame (the tile grown by k on each side) and marches it
//! upwards. Level l (the state after l steps of the pass) is computed on
//! the owned cells grown by `k - l` cells in x, y and z, clipped to the
//! grid in x and y: level 0 is read from memory over the whole frame,
//! level k is exactly the owned cells. Neighbouring blocks recompute the
//! cells their frames share, so blocks never exchange data and each cell
//! of each level is computed by the same [`step_cell`] on the same values
//! as the one-step kernels: the result is bit-identical to k single steps.
//! Columns outside the grid are never needed: the mirror rule (U[-1] =
//! U[1]) points back into the region one level down, which is one cell
//! wider. Along z the march is not clipped: at the grid's ends it runs k
//! planes past them on the mirror image of the grid ([`reflect`]), which
//! the levels step like any plane (the image of a plane comes out as the
//! plane's own values, bit for bit), so no level tests for an end.
//!
//! # One barrier per plane (levels skewed by one plane)
//! At iteration j a thread loads plane p of level 0 at its column and, for
//! l = 1..=k in turn, computes plane p - l of level l. What that reads:
//! - along z, its own column's level l - 1 at planes p - l - 1, p - l and
//!   p - l + 1, kept in registers (a window of three values per level; the
//!   newest was computed by the same thread moments before, the others in
//!   the two iterations before);
//! - in x and y, four neighbours of level l - 1 at plane p - l, which other
//!   threads computed in iteration j - 1 and left in shared memory: each
//!   level below k keeps two planes there, written and read by the
//!   iteration's parity, so one barrier at the end of an iteration orders
//!   every write before every read of it;
//! - the cell's local variables, which never leave the thread: loaded with
//!   level 0's plane, carried in registers from level to level (the locals
//!   of plane p - l after l - 1 steps were left by level l - 1 in the
//!   previous iteration) and stored by level k.
//!
//! # Instructions per cell
//! The pass is bound by instruction issue, not by DRAM (the first form of
//! this kernel, which walked each level's region through shared memory
//! with one thread per cell of the region, issued three times the
//! single-step columns kernel's instructions per cell-update). Here
//! everything a thread needs to find its cells is fixed for the block: its
//! column's grid index, its five addresses in a shared plane (its own and
//! its neighbours', the mirror rule folded in once) and the levels its
//! column belongs to; the addresses move once an iteration, and each level
//! finds its planes at a constant offset from them (the planes' stride is
//! fixed, [`MAX_FRAME`]). Per cell-update what remains is four shared
//! loads, one shared store, [`laplacian7`], [`step_cell`] and the test of
//! the level's turn; the price is idle lanes: a thread whose column lies
//! outside level l's region waits while its warp computes that level
//! (`halo_work` bounds it). The loop runs two iterations a turn (six in
//! the model's common case, whose values the entry point makes constants
//! of the code: [`crate::model::CellModel::common_case`]), so that the
//! parity and the register windows are fixed in each; Karma's pass issues
//! about 2.65 warp instructions per cell-update at k = 3
//! (docs/BENCHMARKS.md, "The blocked kernel's fourth form").
//!
//! # Why an iteration is a phase
//! An iteration is a function of (tile, iteration, thread, its registers,
//! shared memory) that reads in shared memory only what earlier iterations
//! wrote: each level writes the plane of its pair that no level reads in
//! that iteration. So running an iteration for every thread of a block one
//! thread after another, with the barrier being the end of the loop over
//! threads and each thread's registers kept between iterations, computes
//! what the GPU computes; [`emulate`] does exactly that on the CPU (in both
//! thread orders, on shared memory and registers filled with NaN), and the
//! tests compare it with the CPU reference solver.

use crate::cell::{StepCoeffs, step_cell};
use crate::events::Recorder;
use crate::layout::grid::{GridDims, ZWindow};
use crate::model::{CellModel, Locals};
use crate::real::Real;
use crate::stencil::{laplacian7, mirror_offsets};

/// The most steps one pass takes.
pub const MAX_STEPS_PER_PASS: u32 = 4;

/// Steps per pass when the run does not choose (`--steps-per-pass 0`): on
/// an H100 (f32, 32x32 blocks, docs/BENCHMARKS.md "Temporal blocking") 3
/// was the fastest for every model that has the kernel at 256^3, and for
/// Karma at 512^3.
pub const DEFAULT_STEPS_PER_PASS: u32 = 3;

/// Slices per block along z when the run does not choose (`--z-chunk 0`).
/// On an H100 (Karma f32, docs/BENCHMARKS.md "Temporal blocking") 32 was
/// the faster at 256^3 with 32x32 blocks (64 leaves 400 blocks, three
/// waves with a ragged tail), 64 the faster at 512^3 by 5%.
pub const DEFAULT_Z_CHUNK: u32 = 32;

/// Threads per block in f32 when the run does not choose (`--block`): a
/// frame of 32 x 32 columns writes a tile of 26 x 26 cells with k = 3,
/// which idles fewer lanes in the halo than 32 x 16 (28 x 10); every f32
/// kernel is capped at 64 registers (`build.rs`) so that it fits. On an
/// H100 (docs/BENCHMARKS.md "Temporal blocking") 32 x 32 was the faster
/// block for every model at k = 3 (Karma 1.05x, Mitchell-Schaeffer 1.08x
/// at 256^3).
pub const DEFAULT_BLOCK: (u32, u32) = (32, 32);

/// [`DEFAULT_BLOCK`] in f64, where the kernels take 70-124 registers a
/// thread (ptxas, sm_90; BOCF the most): 384 threads fit 170.
pub const DEFAULT_BLOCK_F64: (u32, u32) = (32, 12);

/// Planes of U each level below k keeps in shared memory: the one the next
/// level reads and the one it writes in the same iteration.
const U_SLOTS: u32 = 2;

/// Columns a frame holds at most (CUDA's 1024 threads a block), and the
/// stride of the shared planes in elements whatever the block: with a
/// stride fixed at compile time, each level's planes lie at constant
/// offsets from a thread's addresses, which the loads and stores take as
/// immediates instead of an address computation per level.
pub const MAX_FRAME: u32 = 1024;

/// Dynamic shared memory of a block taking `steps` steps per pass, in
/// elements: two planes of [`MAX_FRAME`] for each of the levels 0..k-1
/// (the local variables stay in registers).
pub const fn shared_elems(steps: u32) -> u64 {
    MAX_FRAME as u64 * U_SLOTS as u64 * steps as u64
}

/// Bytes of one shared plane of elements of type `T`.
const fn plane_bytes<T>() -> u32 {
    MAX_FRAME * core::mem::size_of::<T>() as u32
}
/// The tile a block of `block` threads writes with `steps` steps per pass:
/// the block less `steps` columns on each side, `None` where nothing is
/// left.
pub const fn tile_of(block: (u32, u32), steps: u32) -> Option<(u32, u32)> {
    let halo = 2 * steps;
    if block.0 > halo && block.1 > halo { Some((block.0 - halo, block.1 - halo)) } else { None }
}

/// The block that writes tiles of `tile` cells with `steps` steps per pass
/// (the inverse of [`tile_of`]).
pub const fn block_for_tile(tile: (u32, u32), steps: u32) -> (u32, u32) {
    (tile.0 + 2 * steps, tile.1 + 2 * steps)
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

/// The launch of a pass of `steps` steps over `window` of `g` with blocks
/// of `block` threads: one block per tile ([`tile_of`]) and z-chunk. The
/// launcher and [`emulate`] both take it from here.
///
/// # Panics
/// If the block leaves no tile ([`tile_of`]); the host checks that first.
pub const fn launch_shape(
    g: GridDims,
    block: (u32, u32),
    window: ZWindow,
    z_chunk: u32,
    steps: u32,
) -> LaunchShape {
    let Some(tile) = tile_of(block, steps) else {
        panic!("the block leaves no tile for these steps per pass")
    };
    LaunchShape {
        grid: (g.nx.div_ceil(tile.0), g.ny.div_ceil(tile.1), window.len().div_ceil(z_chunk)),
        block: (block.0, block.1, 1),
    }
}

/// Lane-steps a pass of `steps` steps spends per cell-update it delivers,
/// in a block of `block` threads away from the grid's sides, with
/// `z_chunk` slices, counting every thread in every level's turn: `block
/// cells x (z_chunk + levels' extra planes)` over `tile cells x z_chunk x
/// steps`. 1 would be no halo at all. An upper bound of what the GPU
/// issues: a warp none of whose lanes lies in a level's region skips that
/// level (with 32-wide blocks a warp is a row of the frame: in 32x32 at
/// k = 3 the rows take 84 level turns a plane for 63.4 warps' worth of
/// kept cell-updates, 1.32x, where this gives 1.61x with the z halo).
pub fn halo_work(block: (u32, u32), steps: u32, z_chunk: u32) -> f64 {
    let Some(tile) = tile_of(block, steps) else { return f64::INFINITY };
    let frame = (block.0 * block.1) as f64;
    // Level l runs over z_chunk + 2 (k - l) planes.
    let planes: u32 = (1..=steps).map(|l| z_chunk + 2 * (steps - l)).sum();
    frame * planes as f64 / ((tile.0 * tile.1) as f64 * z_chunk as f64 * steps as f64)
}

/// The share of `slots` (SMs x blocks an SM holds) a pass of `steps`
/// steps in blocks of `block` threads and `z_chunk` slices keeps busy on
/// `dims`, averaged over its waves: the blocks over the waves' slots. A
/// block of 1,024 threads fills an SM, so a pass runs in waves of one block
/// per SM and a last wave of a few blocks leaves most SMs idle (Karma k = 3
/// at 256^3 in 32x32 blocks: 10 x 10 tiles x 8 chunks = 800 blocks, 7 waves
/// of 132, 87%; 32x26, 10 x 13 x 4 = 520 blocks, 4 waves, 98%).
#[cfg(not(target_arch = "nvptx64"))]
pub fn wave_efficiency(dims: GridDims, block: (u32, u32), steps: u32, z_chunk: u32, slots: u32) -> f64 {
    if tile_of(block, steps).is_none() {
        return 0.0;
    }
    let (gx, gy, gz) = launch_shape(dims, block, ZWindow::all(dims.nz), z_chunk.max(1), steps).grid;
    let blocks = gx as u64 * gy as u64 * gz as u64;
    let slots = slots.max(1) as u64;
    blocks as f64 / (blocks.div_ceil(slots) * slots) as f64
}

/// A pass's predicted cost per cell-update, in units of one thread's level
/// turn on a fully busy GPU: [`halo_work`] over [`wave_efficiency`]. A
/// ranking, not a time: it leaves out what a plane costs whatever its rows
/// (the barrier, the shared planes), so it favours short blocks more than
/// the GPU does; `--kernel tune` times what it ranks first. (This and
/// [`wave_efficiency`] are the host's: left out of the PTX.)
#[cfg(not(target_arch = "nvptx64"))]
pub fn predicted_cost(dims: GridDims, block: (u32, u32), steps: u32, z_chunk: u32, slots: u32) -> f64 {
    halo_work(block, steps, z_chunk) / wave_efficiency(dims, block, steps, z_chunk, slots)
}

/// One `ld.shared` or `st.shared` of a `width`-bit element at a 32-bit
/// address in the shared window, the value in a register of `class`
/// (`Shared::get` and `Shared::set` in f32 and f64). Expands to an `asm!`,
/// so it is used inside `unsafe`.
#[cfg(target_arch = "nvptx64")]
macro_rules! shared_access {
    (ld, $width:literal, $bits:ty, $class:ident, $addr:expr) => {{
        let bits: $bits;
        core::arch::asm!(
            concat!("ld.shared.b", $width, " {v}, [{a}];"),
            v = out($class) bits,
            a = in(reg32) $addr,
            options(readonly, nostack, preserves_flags),
        );
        bits
    }};
    (st, $width:literal, $class:ident, $addr:expr, $value:expr) => {
        core::arch::asm!(
            concat!("st.shared.b", $width, " [{a}], {v};"),
            a = in(reg32) $addr,
            v = in($class) $value,
            options(nostack, preserves_flags),
        )
    };
}

/// A block's shared memory, addressed by byte offsets (u32, so that a
/// neighbour is one integer add away): a pointer and its length in
/// elements (checked in debug builds, which the emulator's tests are). On
/// the GPU the accesses are `ld.shared` and `st.shared` with 32-bit
/// addresses: through the generic pointer every access cost a 64-bit
/// conversion and add besides the 32-bit one (the nvptx64 target keeps
/// shared pointers 64 bits wide).
#[derive(Clone, Copy)]
pub struct Shared<T> {
    #[cfg(not(target_arch = "nvptx64"))]
    ptr: *mut T,
    len: usize,
    /// The memory's address in the shared window.
    #[cfg(target_arch = "nvptx64")]
    window: u32,
    #[cfg(target_arch = "nvptx64")]
    element: core::marker::PhantomData<*mut T>,
}

impl<T: Copy> Shared<T> {
    /// # Safety
    /// `ptr` holds `len` elements, readable and writable for as long as
    /// the value is used; on the GPU it points into the block's shared memory.
    #[inline(always)]
    pub unsafe fn new(ptr: *mut T, len: usize) -> Self {
        #[cfg(target_arch = "nvptx64")]
        {
            let window: u32;
            // SAFETY: address arithmetic on a register, touches no memory.
            unsafe {
                core::arch::asm!(
                    "{{ .reg .u64 s; cvta.to.shared.u64 s, {p}; cvt.u32.u64 {w}, s; }}",
                    p = in(reg64) ptr as u64,
                    w = out(reg32) window,
                    options(pure, nomem, nostack, preserves_flags),
                );
            }
            Self { len, window, element: core::marker::PhantomData }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        Self { ptr, len }
    }

    /// The element at byte offset `at`.
    ///
    /// # Safety
    /// `at` is a multiple of the element's size inside the memory.
    #[inline(always)]
    unsafe fn get(self, at: u32) -> T {
        self.check(at);
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: inside the memory (the tile's index arithmetic); the
        // element is 4 or 8 bytes (f32, f64), read as its bits.
        unsafe {
            let addr = self.window.wrapping_add(at);
            if core::mem::size_of::<T>() == 4 {
                core::mem::transmute_copy(&shared_access!(ld, "32", u32, reg32, addr))
            } else {
                core::mem::transmute_copy(&shared_access!(ld, "64", u64, reg64, addr))
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        // SAFETY: inside the memory (the tile's index arithmetic; checked in debug).
        unsafe {
            *self.ptr.byte_add(at as usize)
        }
    }

    /// Writes the element at byte offset `at`.
    ///
    /// # Safety
    /// As [`Shared::get`].
    #[inline(always)]
    unsafe fn set(self, at: u32, v: T) {
        self.check(at);
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: as in `get`.
        unsafe {
            let addr = self.window.wrapping_add(at);
            if core::mem::size_of::<T>() == 4 {
                shared_access!(st, "32", reg32, addr, core::mem::transmute_copy::<T, u32>(&v));
            } else {
                shared_access!(st, "64", reg64, addr, core::mem::transmute_copy::<T, u64>(&v));
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        // SAFETY: as in `get`.
        unsafe {
            *self.ptr.byte_add(at as usize) = v
        }
    }

    #[inline(always)]
    fn check(self, at: u32) {
        let size = core::mem::size_of::<T>();
        debug_assert!((at as usize).is_multiple_of(size), "shared offset {at} not a multiple of {size}");
        debug_assert!(at as usize / size < self.len, "shared index {} of {}", at as usize / size, self.len);
    }
}

/// The geometry of one block's pass of `K` steps: what it owns and the
/// planes each level computes.
#[derive(Clone, Copy, Debug)]
pub struct Tile<const K: u32> {
    g: GridDims,
    /// Threads of the block (the frame's columns).
    block: (u32, u32),
    /// Owned cells: x0..x1, y0..y1, and `planes` slices from z0.
    x0: u32,
    x1: u32,
    y0: u32,
    y1: u32,
    z0: u32,
    planes: u32,
}

impl<const K: u32> Tile<K> {
    /// The tile of block `index` (CUDA's blockIdx) of a launch with
    /// blocks of `block` threads over `window`.
    #[inline(always)]
    pub fn new(
        g: GridDims,
        block: (u32, u32),
        index: (u32, u32, u32),
        window: ZWindow,
        z_chunk: u32,
    ) -> Self {
        debug_assert!(block.0 * block.1 <= MAX_FRAME, "a frame of {block:?} columns");
        let (tile_x, tile_y) = (block.0 - 2 * K, block.1 - 2 * K);
        let x0 = index.0 * tile_x;
        let y0 = index.1 * tile_y;
        let z0 = window.begin + index.2 * z_chunk;
        let (x1, y1, z1) = (min(g.nx, x0 + tile_x), min(g.ny, y0 + tile_y), min(window.end, z0 + z_chunk));
        Tile { g, block, x0, x1, y0, y1, z0, planes: z1 - z0 }
    }

    /// The iterations of the march. Iteration j loads plane `z0 - K + j`
    /// of level 0 and computes plane `z0 - K + j - l` of each level l at
    /// which `j >= 2l`: level l spans the owned planes grown by `K - l`
    /// on each side, and every level finishes at the last iteration.
    #[inline(always)]
    pub fn iterations(&self) -> core::ops::Range<u32> {
        0..self.planes + 2 * K
    }

    /// Elements of shared memory the tile uses ([`shared_elems`]).
    pub fn shared_elems(&self) -> usize {
        shared_elems(K) as usize
    }

    /// Plane of level `level` at iteration `j`; below 0 or at nz and
    /// beyond where the march runs past the grid's ends (those planes hold
    /// the mirror image of the grid's, see [`reflect`]).
    #[inline(always)]
    fn plane(&self, j: u32, level: u32) -> i32 {
        (self.z0 + j) as i32 - (K + level) as i32
    }

    /// Index of the cell of `col` at the plane level 0 loads at iteration
    /// `j` (reflected into the grid).
    #[inline(always)]
    fn load_index(&self, col: &Column, j: u32) -> u32 {
        let g = self.g;
        reflect(self.plane(j, 0), g.nz).wrapping_mul(g.nx * g.ny).wrapping_add(col.cell)
    }

    /// Whether plane `p` is owned by the tile along z.
    #[inline(always)]
    fn owns_plane(&self, p: i32) -> bool {
        (p.wrapping_sub(self.z0 as i32) as u32) < self.planes
    }
}

/// The plane of the grid `0..nz` (nz >= 2) whose values plane `p` of the
/// march holds: the grid reflected about its first and last planes, as
/// often as needed (U[-1] = U[1], U[nz] = U[nz - 2], ...). A march that
/// runs k planes past an end of the grid computes, at each level, the
/// mirror image of the planes inside it bit for bit (the mirror rule of
/// the single step is this reflection; [`laplacian7`] adds the z pair
/// first, so a plane and its image sum the same values in the same
/// order), which spares every level the mirror rule's tests.
#[inline(always)]
pub fn reflect(p: i32, nz: u32) -> u32 {
    if (p as u32) < nz {
        return p as u32;
    }
    let last = nz as i32 - 1;
    let mut p = p;
    loop {
        if p < 0 {
            p = -p;
        } else if p > last {
            p = 2 * last - p;
        } else {
            return p as u32;
        }
    }
}

#[inline(always)]
const fn min(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
}

/// What a thread knows of its column for the whole pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The column is in the regions of levels `0..levels` (nested: each
    /// level's region lies inside the one below it); 0 outside the grid.
    levels: u32,
    /// Index of the column's cell in plane 0.
    cell: u32,
    /// Byte offset of the column in a shared plane, and those of its x
    /// and y neighbours (x-, x+, y-, y+), the mirror rule applied
    /// (wrapping where the column is outside the grid; never read there).
    at_b: u32,
    around_b: [u32; 4],
}

impl Column {
    /// The column of thread `(tx, ty)` of the block of `tile`, in a shared
    /// memory of elements of type `T`.
    #[inline(always)]
    pub fn new<T, const K: u32>(tile: &Tile<K>, tx: u32, ty: u32) -> Self {
        let g = tile.g;
        let size = core::mem::size_of::<T>() as u32;
        let (bx, by) = tile.block;
        // Grid coordinates, wrapping below 0 (then >= nx, outside).
        let x = (tile.x0 + tx).wrapping_sub(K);
        let y = (tile.y0 + ty).wrapping_sub(K);
        let inside = x < g.nx && y < g.ny;
        let mut levels = 0;
        if inside {
            // Level l spans the tile grown by K - l: frame columns l..b - l,
            // and never past the grid (x < nx checked above).
            while levels <= K {
                let l = levels;
                let in_x = l <= tx && tx < bx - l && x < tile.x1 + (K - l);
                let in_y = l <= ty && ty < by - l && y < tile.y1 + (K - l);
                if !(in_x && in_y) {
                    break;
                }
                levels += 1;
            }
        }
        let (xm, xp) = if inside { mirror_offsets(x, g.nx) } else { (-1, 1) };
        let (ym, yp) = if inside { mirror_offsets(y, g.ny) } else { (-1, 1) };
        let at_b = (ty * bx + tx) * size;
        let row_b = bx * size;
        Column {
            levels,
            cell: y.wrapping_mul(g.nx).wrapping_add(x),
            at_b,
            around_b: [
                at_b.wrapping_add((xm as u32).wrapping_mul(size)),
                at_b.wrapping_add((xp as u32).wrapping_mul(size)),
                at_b.wrapping_add((ym as u32).wrapping_mul(row_b)),
                at_b.wrapping_add((yp as u32).wrapping_mul(row_b)),
            ],
        }
    }

    /// Whether level `level` computes this column at iteration `j` (level
    /// 0: loads it), `j` being an iteration of the march.
    #[inline(always)]
    fn turn(&self, level: u32, j: u32) -> bool {
        level < self.levels && j >= 2 * level
    }
}

/// A thread's registers between iterations: its column's U at the next
/// plane of level 0, loaded one iteration ahead (so that the load's
/// latency overlaps an iteration's arithmetic instead of stalling the
/// store to shared memory before the barrier), and that cell's index; for
/// each level below k, its column's U at the last three planes (oldest
/// first); for each level below k, the locals of the plane that level
/// finished in the previous iteration (level 0: loaded). Entries of levels
/// >= k are unused.
#[derive(Clone, Copy, Debug)]
pub struct Registers<T, L> {
    ahead: T,
    ahead_i: u32,
    window: [[T; 3]; MAX_STEPS_PER_PASS as usize],
    carry: [L; MAX_STEPS_PER_PASS as usize],
}

impl<T: Real, L: Locals<T>> Registers<T, L> {
    /// The registers before the first iteration: every value NaN (so that
    /// a read of a value no iteration wrote shows), and the first plane of
    /// level 0 loaded ahead.
    ///
    /// # Safety
    /// As [`iteration`].
    #[inline(always)]
    pub unsafe fn start<M: CellModel<Locals<T> = L>, const K: u32>(
        tile: &Tile<K>,
        col: &Column,
        a: &PassArgs<'_, M, T>,
    ) -> Self {
        let mut regs = Self {
            ahead: T::NAN,
            ahead_i: 0,
            window: [[T::NAN; 3]; MAX_STEPS_PER_PASS as usize],
            carry: [L::from_fn(|_| T::NAN); 4],
        };
        // SAFETY: forwarded.
        unsafe { regs.load_ahead(tile, col, 0, a.u) };
        regs
    }

    /// U at the plane level 0 loads at iteration `j`, where the column is
    /// in level 0's region and `j` an iteration of the march (else NaN).
    ///
    /// # Safety
    /// As [`iteration`].
    #[inline(always)]
    unsafe fn load_ahead<const K: u32>(&mut self, tile: &Tile<K>, col: &Column, j: u32, u: *const T) {
        self.ahead = T::NAN;
        if col.levels > 0 && j < tile.iterations().end {
            self.ahead_i = tile.load_index(col, j);
            // SAFETY: a reflected plane at a column of the grid is a cell.
            self.ahead = unsafe { *u.add(self.ahead_i as usize) };
        }
    }
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

/// Iteration `j` of the thread of column `col`: the load of level 0's
/// plane and each level l's plane ([`Tile::iterations`]). Between two
/// iterations the block's threads meet at a barrier.
///
/// Shared memory holds, for each level l below K, two planes at byte
/// offsets `(2l + s) x plane` for the iteration parity s: iteration j
/// writes every level's plane of parity `j & 1` and reads those of the
/// other parity, which the previous iteration wrote (level l reads level
/// l - 1's plane one iteration after it was computed). So the thread's
/// five addresses move once per iteration, and each level adds a
/// constant.
///
/// # Safety
/// `shared` holds [`Tile::shared_elems`] elements; `u` holds the grid's
/// cells row-major and `local` `COUNT` times as many (variable after
/// variable), neither written during the pass; `u_next` and `local_next`
/// have the sizes of `u` and `local`, overlap nothing else, and are written
/// only at the owned cells; `rec` is valid for the grid where `RECORD` (which
/// records the owned cells' crossings; a pass without maps runs the
/// instance without, so that it pays nothing per cell for them); `col` and
/// `regs` are this thread's, `regs` as the previous iteration left it.
#[inline(always)]
pub unsafe fn iteration<M: CellModel, T: Real, const K: u32, const RECORD: bool>(
    tile: &Tile<K>,
    col: &Column,
    regs: &mut Registers<T, M::Locals<T>>,
    j: u32,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
) {
    let g = tile.g;
    let parity = (j & 1) * plane_bytes::<T>();
    let other = plane_bytes::<T>() - parity;
    let at =
        Addresses { write: col.at_b.wrapping_add(parity), read: col.around_b.map(|b| b.wrapping_add(other)) };
    // Level 0: U over the frame (loaded in the previous iteration; the
    // next plane's load goes out now), the locals where level 1 will step
    // them in the next iteration.
    let u0 = regs.ahead;
    let i0 = regs.ahead_i;
    // SAFETY (loads): a column of level 0 at a plane of the march is (by
    // reflection) a cell of the grid; the slot lies in the shared memory.
    unsafe {
        // Unconditional: the column's own place, read only where level 0 has it.
        shared.set(at.write, u0);
        regs.load_ahead(tile, col, j + 1, a.u);
        let mut carry = regs.carry;
        if col.turn(1, j + 1) && j + 1 < tile.iterations().end {
            carry[0] = M::Locals::<T>::load(a.local, g.cells(), i0 as usize);
        }
        let w = regs.window[0];
        regs.window[0] = [w[1], w[2], u0];
        // SAFETY: forwarded; the levels are unrolled by their constant index.
        level::<M, T, K, 1, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        if K >= 2 {
            level::<M, T, K, 2, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        }
        if K >= 3 {
            level::<M, T, K, 3, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        }
        if K >= 4 {
            level::<M, T, K, 4, RECORD>(tile, col, regs, &mut carry, j, shared, &at, a);
        }
        regs.carry = carry;
    }
}

/// A thread's shared-memory addresses in one iteration, at level 0: where
/// it writes its column (this iteration's parity) and where it reads the
/// four neighbours (the other parity).
struct Addresses {
    write: u32,
    read: [u32; 4],
}

/// Level L of iteration j for one column: its plane from level L - 1 to
/// level L, into shared memory and the registers, or for the last level
/// into `u_next` and `local_next`. Crossings of the owned cells are
/// recorded at every level, with the time of that level's step. `carry`
/// receives this level's locals for the next iteration (`regs.carry` still
/// holds the previous one's).
///
/// # Safety
/// As [`iteration`].
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "one level of the iteration, its state spelled out")]
unsafe fn level<M: CellModel, T: Real, const K: u32, const L: u32, const RECORD: bool>(
    tile: &Tile<K>,
    col: &Column,
    regs: &mut Registers<T, M::Locals<T>>,
    carry: &mut [M::Locals<T>; MAX_STEPS_PER_PASS as usize],
    j: u32,
    shared: Shared<T>,
    at: &Addresses,
    a: &PassArgs<'_, M, T>,
) {
    let g = tile.g;
    let mut un = T::NAN;
    if col.turn(L, j) {
        // The column's planes p - 1, p, p + 1 of level L - 1 (past the
        // grid's ends, their mirror images: no test here).
        let [below, centre, above] = regs.window[L as usize - 1];
        let from = 2 * (L - 1) * plane_bytes::<T>();
        // SAFETY (whole block): the neighbours lie in level L - 1's region
        // (one column wider than level L's, or mirrored into it), whose
        // plane was written in iteration j - 1; the owned cells are of the
        // grid.
        unsafe {
            let lap = laplacian7(
                centre,
                shared.get(at.read[0].wrapping_add(from)),
                shared.get(at.read[1].wrapping_add(from)),
                shared.get(at.read[2].wrapping_add(from)),
                shared.get(at.read[3].wrapping_add(from)),
                below,
                above,
            );
            let mut locals = regs.carry[L as usize - 1];
            un = step_cell::<M, T>(centre, lap, &mut locals, a.step, a.coeffs);
            let p = tile.plane(j, L);
            let i = (p as u32).wrapping_mul(g.nx * g.ny).wrapping_add(col.cell);
            if L == K {
                // Level K's planes are the owned ones.
                *a.u_next.add(i as usize) = un;
                locals.store(a.local_next, g.cells(), i as usize);
            } else {
                shared.set(at.write.wrapping_add(2 * L * plane_bytes::<T>()), un);
                carry[L as usize] = locals;
            }
            // Owned: level K computes the column, and the plane is the tile's.
            if RECORD && col.levels > K && tile.owns_plane(p) {
                let rec = a.rec.at((a.first_step + (L - 1) as u64) as f64 * a.rec.dt_ms);
                rec.record(i, centre, un);
            }
        }
    }
    if L < K {
        let w = regs.window[L as usize];
        regs.window[L as usize] = [w[1], w[2], un];
    }
}

/// One block's pass of `K` steps: every iteration of the march for the
/// thread of column `col`, `barrier` between iterations (the GPU's
/// `__syncthreads`).
///
/// # Safety
/// As [`iteration`], and `barrier` makes the shared-memory writes of every
/// thread of the block visible to all of them.
#[inline(always)]
pub unsafe fn run_block<M: CellModel, T: Real, const K: u32, const RECORD: bool, const SIX: bool>(
    tile: &Tile<K>,
    col: &Column,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
    mut barrier: impl FnMut(),
) {
    // SAFETY: forwarded to the caller.
    let mut regs = unsafe { Registers::<T, M::Locals<T>>::start::<M, K>(tile, col, a) };
    let end = tile.iterations().end;
    // One iteration and its barrier.
    macro_rules! iterate {
        ($j:expr) => {
            // SAFETY: forwarded to the caller.
            unsafe { iteration::<M, T, K, RECORD>(tile, col, &mut regs, $j, shared, a) };
            barrier();
        };
    }
    // Two iterations a turn of the loop (six with SIX), so that each sees
    // its parity as a constant (its shared planes at fixed offsets) and,
    // with six, the registers' windows of three planes move by renaming
    // rather than copies (Karma f32 on an H100, docs/BENCHMARKS.md: two a
    // turn 1.10x faster than one, six 1.02x faster than two).
    let per_turn = if SIX { 6 } else { 2 };
    for turn in 0..end / per_turn {
        let j = per_turn * turn;
        iterate!(j);
        iterate!(j + 1);
        if SIX {
            iterate!(j + 2);
            iterate!(j + 3);
            iterate!(j + 4);
            iterate!(j + 5);
        }
    }
    for j in end / per_turn * per_turn..end {
        iterate!(j);
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
/// barrier), each thread with its own registers, on a shared memory and
/// registers filled with NaN so that a read of anything no iteration wrote
/// shows in the result. The same functions as the GPU kernel, on host
/// memory; `rec` holds host addresses when on.
///
/// # Panics
/// If a buffer has the wrong length, the grid has an axis of one cell,
/// `pass.steps` is not in 1..=4, the block leaves no tile or the window is
/// not inside the grid.
#[cfg(not(target_arch = "nvptx64"))]
#[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
pub fn emulate<M: CellModel, T: Real>(
    u: &[T],
    u_next: &mut [T],
    local: &[T],
    local_next: &mut [T],
    g: GridDims,
    block: (u32, u32),
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
    assert!(tile_of(block, pass.steps).is_some(), "block {block:?} leaves no tile for {} steps", pass.steps);
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
    let e = Emulation { g, block, window, pass, order };
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
    block: (u32, u32),
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
        let shape = launch_shape(self.g, self.block, self.window, self.pass.z_chunk, K);
        let (bx, by) = self.block;
        let mut shared = vec![T::NAN; shared_elems(K) as usize];
        for bz in self.ordered(shape.grid.2) {
            for by_ in self.ordered(shape.grid.1) {
                for bx_ in self.ordered(shape.grid.0) {
                    let t =
                        Tile::<K>::new(self.g, self.block, (bx_, by_, bz), self.window, self.pass.z_chunk);
                    assert_eq!(t.shared_elems(), shared.len());
                    shared.fill(T::NAN);
                    let columns: Vec<Column> =
                        (0..bx * by).map(|n| Column::new::<T, K>(&t, n % bx, n / bx)).collect();
                    // SAFETY: `shared` holds the tile's elements; `emulate`
                    // checked the buffers; the blocks write disjoint owned
                    // cells of the `_next` buffers and read only `u` and
                    // `local`.
                    unsafe {
                        let mut regs: Vec<_> =
                            columns.iter().map(|c| Registers::start::<M, K>(&t, c, args)).collect();
                        let sh = Shared::new(shared.as_mut_ptr(), shared.len());
                        for it in t.iterations() {
                            for thread in self.ordered(bx * by) {
                                let n = thread as usize;
                                if args.rec.activation != 0 {
                                    iteration::<M, T, K, true>(&t, &columns[n], &mut regs[n], it, sh, args);
                                } else {
                                    iteration::<M, T, K, false>(&t, &columns[n], &mut regs[n], it, sh, args);
                                }
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
    fn shared_memory_tiles_and_launch_shape() {
        // k = 4: two planes of the largest frame for each of the levels 0..3.
        assert_eq!(shared_elems(4), 1024 * 8);
        assert_eq!(shared_elems(1), 1024 * 2);
        assert_eq!(plane_bytes::<f64>(), 8192);
        assert_eq!(tile_of((32, 16), 2), Some((28, 12)));
        assert_eq!(tile_of((32, 8), 4), None);
        assert_eq!(tile_of((32, 9), 4), Some((24, 1)));
        assert_eq!(block_for_tile((5, 3), 4), (13, 11));
        let g = GridDims::new(70, 17, 45);
        let s = launch_shape(g, (32, 8), ZWindow::all(45), 16, 2);
        // Tiles of 28 x 4: 3 along x, 5 along y; 3 chunks of 16 slices.
        assert_eq!(s, LaunchShape { grid: (3, 5, 3), block: (32, 8, 1) });
    }

    #[test]
    fn reflection_is_the_mirror_rule_applied_as_often_as_needed() {
        assert_eq!([-1, 0, 4, 5, 6].map(|p| reflect(p, 6)), [1, 0, 4, 5, 4]);
        assert_eq!([-3, -2, 7, 8].map(|p| reflect(p, 6)), [3, 2, 3, 2]);
        // Two planes: the march of k = 4 past both ends bounces more than once.
        assert_eq!([-4, -3, -2, -1, 2, 3, 4, 5].map(|p| reflect(p, 2)), [0, 1, 0, 1, 0, 1, 0, 1]);
    }

    #[test]
    fn levels_shrink_by_one_cell_a_level_and_stay_in_the_grid() {
        let g = GridDims::new(70, 17, 45);
        // k = 3, tile 26 x 4: block (2, 3) owns x 52..70 (clipped), y 12..16.
        let t = Tile::<3>::new(g, (32, 10), (2, 3, 1), ZWindow::all(45), 16);
        assert_eq!((t.x0, t.x1, t.y0, t.y1, t.z0, t.planes), (52, 70, 12, 16, 16, 16));
        // Level 0 loads planes 13..35, level l computes 13 + l..35 - l at
        // iterations 2l..22.
        assert_eq!(t.iterations(), 0..22);
        assert_eq!((t.plane(0, 0), t.plane(21, 0), t.plane(6, 3), t.plane(21, 3)), (13, 34, 16, 31));
        assert!(t.owns_plane(16) && t.owns_plane(31) && !t.owns_plane(15) && !t.owns_plane(32));
        let levels = |tx, ty| Column::new::<f32, 3>(&t, tx, ty).levels;
        let c = Column::new::<f32, 3>(&t, 3, 3);
        assert!(c.turn(3, 6) && c.turn(3, 21) && !c.turn(3, 5) && c.turn(0, 0) && !c.turn(4, 21));
        let outside = Column::new::<f32, 3>(&t, 21, 3);
        assert!((0..22).all(|j| (0..=3).all(|l| !outside.turn(l, j))));
        // Frame column 0 is x = 49: level 0 only; column 3 (x = 52) every level.
        assert_eq!(levels(0, 3), 1);
        assert_eq!(levels(1, 3), 2);
        assert_eq!(levels(3, 3), 4);
        // x = 69 is the grid's last column (owned); x = 70 is outside.
        assert_eq!(levels(20, 3), 4);
        assert_eq!(levels(21, 3), 0);
        // y = 16 (row 7) is the grid's last row, one past the tile: levels 0..2.
        assert_eq!(levels(5, 7), 3);
        assert_eq!(levels(5, 8), 0, "y = 17 is outside");
        // The mirror rule at x = 69: the +x neighbour is the -x one.
        let c = Column::new::<f32, 3>(&t, 20, 7);
        assert_eq!(c.at_b, (7 * 32 + 20) * 4);
        assert_eq!(c.around_b, [c.at_b - 4, c.at_b - 4, c.at_b - 32 * 4, c.at_b - 32 * 4]);
        assert_eq!(c.cell, 16 * 70 + 69);
        // The first chunk marches from plane -2 (k = 2), reflected into the grid.
        let first = Tile::<2>::new(g, (32, 8), (0, 0, 0), ZWindow::all(45), 16);
        let corner = Column::new::<f64, 2>(&first, 2, 2);
        assert_eq!((corner.levels, corner.cell, corner.at_b), (3, 0, (2 * 32 + 2) * 8));
        assert_eq!(corner.around_b[0], corner.at_b + 8, "x = -1 is x = 1");
        assert_eq!(corner.around_b[2], corner.at_b + 32 * 8, "y = -1 is y = 1");
        assert_eq!([0, 1, 2].map(|j| first.load_index(&corner, j)), [2 * 70 * 17, 70 * 17, 0]);
        assert_eq!(Column::new::<f64, 2>(&first, 1, 2).levels, 0, "x = -1 is outside the grid");
    }

    #[test]
    fn halo_work_falls_with_larger_blocks_and_chunks() {
        // 32 x 16, k = 2, 32 slices: 512 columns x (32 + 2 + 32) planes over 336 x 32 x 2.
        let w = halo_work((32, 16), 2, 32);
        assert!((w - 512.0 * 66.0 / (336.0 * 64.0)).abs() < 1e-12, "{w}");
        assert!(halo_work((32, 32), 2, 32) < w && halo_work((32, 16), 2, 64) < w);
        assert_eq!(halo_work((32, 4), 2, 8), f64::INFINITY);
    }

    #[test]
    fn waves_leave_sms_idle_when_the_blocks_do_not_fill_the_last() {
        let cube = GridDims::new(256, 256, 256);
        // Karma k = 3 on 132 SMs: the worked examples of `wave_efficiency`.
        assert!((wave_efficiency(cube, (32, 32), 3, 32, 132) - 800.0 / 924.0).abs() < 1e-12);
        assert!((wave_efficiency(cube, (32, 26), 3, 64, 132) - 520.0 / 528.0).abs() < 1e-12);
        // Mitchell-Schaeffer k = 4, one chunk: 11 x 11 tiles fit one wave,
        // 32x28's 11 x 13 need two (measured on an H100: 16,986 and 10,284 steps/s).
        assert!((wave_efficiency(cube, (32, 32), 4, 256, 132) - 121.0 / 132.0).abs() < 1e-12);
        assert!((wave_efficiency(cube, (32, 28), 4, 256, 132) - 143.0 / 264.0).abs() < 1e-12);
        assert!(
            predicted_cost(cube, (32, 28), 4, 256, 132) > 1.5 * predicted_cost(cube, (32, 32), 4, 256, 132)
        );
        assert_eq!(wave_efficiency(cube, (8, 8), 4, 32, 132), 0.0);
    }
}
