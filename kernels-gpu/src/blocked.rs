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
//! grid: level 0 is read from memory over the whole frame, level k is
//! exactly the owned cells. Neighbouring blocks recompute the cells their
//! frames share, so blocks never exchange data and each cell of each level
//! is computed by the same [`step_cell`] on the same values as the
//! one-step kernels: the result is bit-identical to k single steps. Cells
//! outside the grid are never needed: the mirror rule (U[-1] = U[1])
//! points back into the region one level down, which is one cell wider.
//!
//! # One barrier per plane (levels skewed by one plane)
//! At iteration t a thread loads plane t of level 0 at its column and, for
//! l = 1..=k in turn, computes plane t - l of level l. What that reads:
//! - along z, its own column's level l - 1 at planes t - l - 1, t - l and
//!   t - l + 1, kept in registers (a window of three values per level; the
//!   newest was computed by the same thread moments before, the others in
//!   the two iterations before);
//! - in x and y, four neighbours of level l - 1 at plane t - l, which other
//!   threads computed in iteration t - 1 and left in shared memory: each
//!   level below k keeps two planes there (written plane, read plane,
//!   alternating by the plane's parity), so one barrier at the end of an
//!   iteration orders every write before every read of it;
//! - the cell's local variables, which never leave the thread: loaded with
//!   level 0's plane, carried in registers from level to level (the locals
//!   of plane t - l after l - 1 steps were left by level l - 1 in the
//!   previous iteration) and stored by level k.
//!
//! # Instructions per cell
//! The pass is bound by instruction issue, not by DRAM (the first form of
//! this kernel, which walked each level's region through shared memory
//! with one thread per cell of the region, issued three times the
//! single-step columns kernel's instructions per cell-update). Here
//! everything a thread needs to find its cells is fixed for the block: its
//! column's grid index, its place in the shared planes, its four
//! neighbours' offsets there (the mirror rule folded in once) and the
//! levels its column belongs to. Per cell-update what remains is four
//! shared loads, one shared store, [`laplacian7`] and [`step_cell`]; the
//! price is idle lanes: a thread whose column lies outside level l's
//! region waits while its warp computes that level (`halo_work` bounds it).
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

/// Slices per block along z when the run does not choose (`--z-chunk 0`).
/// On an H100 (Karma f32, docs/BENCHMARKS.md "Temporal blocking") 32 was
/// the faster at 256^3 with 32x32 blocks (64 leaves 400 blocks, three
/// waves with a ragged tail), 64 the faster at 512^3 by 5%.
pub const DEFAULT_Z_CHUNK: u32 = 32;

/// Threads per block when the run does not choose (`--block`): a frame
/// of 32 x 16 columns writes a tile of 28 x 12 cells with k = 2 and fits
/// every model the kernel takes (up to 128 registers a thread). Karma in
/// f32, capped at 64 registers, runs 32 x 32, which idles fewer lanes in
/// the halo (best against best on an H100: 1.02x at 256^3, 1.07x at
/// 512^3).
pub const DEFAULT_BLOCK: (u32, u32) = (32, 16);

/// [`DEFAULT_BLOCK`] in f64, where the kernels take 84-144 registers a
/// thread (ptxas, sm_90; BOCF the most): 384 threads fit 170.
pub const DEFAULT_BLOCK_F64: (u32, u32) = (32, 12);

/// Planes of U each level below k keeps in shared memory: the one the next
/// level reads and the one it writes in the same iteration.
const U_SLOTS: u32 = 2;

/// Dynamic shared memory of a block of `block_x x block_y` threads taking
/// `steps` steps per pass, in elements: two planes of the frame for each
/// of the levels 0..k-1 (the local variables stay in registers).
pub const fn shared_elems(block_x: u32, block_y: u32, steps: u32) -> u64 {
    block_x as u64 * block_y as u64 * U_SLOTS as u64 * steps as u64
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
                let bits: u32;
                core::arch::asm!(
                    "ld.shared.b32 {v}, [{a}];",
                    v = out(reg32) bits,
                    a = in(reg32) addr,
                    options(readonly, nostack, preserves_flags),
                );
                core::mem::transmute_copy(&bits)
            } else {
                let bits: u64;
                core::arch::asm!(
                    "ld.shared.b64 {v}, [{a}];",
                    v = out(reg64) bits,
                    a = in(reg32) addr,
                    options(readonly, nostack, preserves_flags),
                );
                core::mem::transmute_copy(&bits)
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
                let bits: u32 = core::mem::transmute_copy(&v);
                core::arch::asm!(
                    "st.shared.b32 [{a}], {v};",
                    a = in(reg32) addr,
                    v = in(reg32) bits,
                    options(nostack, preserves_flags),
                );
            } else {
                let bits: u64 = core::mem::transmute_copy(&v);
                core::arch::asm!(
                    "st.shared.b64 [{a}], {v};",
                    a = in(reg32) addr,
                    v = in(reg64) bits,
                    options(nostack, preserves_flags),
                );
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
    /// Owned cells: x0..x1, y0..y1, and the chunk's slices up to z1.
    x0: u32,
    x1: u32,
    y0: u32,
    y1: u32,
    z1: u32,
    /// Planes of level l: z_lo[l]..z_hi[l] (the owned chunk grown by k - l,
    /// clipped to the grid); levels 0..=K, the rest unused.
    z_lo: [u32; MAX_STEPS_PER_PASS as usize + 1],
    z_hi: [u32; MAX_STEPS_PER_PASS as usize + 1],
    /// Bytes of one plane of the frame in shared memory.
    plane_b: u32,
}

impl<const K: u32> Tile<K> {
    /// The tile of block `index` (CUDA's blockIdx) of a launch with
    /// blocks of `block` threads over `window`, for elements of type `T`.
    #[inline(always)]
    pub fn new<T>(
        g: GridDims,
        block: (u32, u32),
        index: (u32, u32, u32),
        window: ZWindow,
        z_chunk: u32,
    ) -> Self {
        let (tile_x, tile_y) = (block.0 - 2 * K, block.1 - 2 * K);
        let x0 = index.0 * tile_x;
        let y0 = index.1 * tile_y;
        let z0 = window.begin + index.2 * z_chunk;
        let (x1, y1, z1) = (min(g.nx, x0 + tile_x), min(g.ny, y0 + tile_y), min(window.end, z0 + z_chunk));
        let mut z_lo = [0; MAX_STEPS_PER_PASS as usize + 1];
        let mut z_hi = [0; MAX_STEPS_PER_PASS as usize + 1];
        let mut level = 0;
        while level <= K {
            z_lo[level as usize] = z0.saturating_sub(K - level);
            z_hi[level as usize] = min(g.nz, z1 + K - level);
            level += 1;
        }
        let plane_b = block.0 * block.1 * core::mem::size_of::<T>() as u32;
        Tile { g, block, x0, x1, y0, y1, z1, z_lo, z_hi, plane_b }
    }

    /// The iterations of the march: from the first plane of level 0 until
    /// level K has its last owned plane (at iteration plane + K).
    #[inline(always)]
    pub fn iterations(&self) -> core::ops::Range<u32> {
        self.z_lo[0]..self.z1 + K
    }

    /// Elements of shared memory the tile uses ([`shared_elems`]).
    pub fn shared_elems(&self) -> usize {
        shared_elems(self.block.0, self.block.1, K) as usize
    }

    /// Byte offset of the shared plane where level `level` (< K) keeps
    /// plane `plane`: two per level, by the plane's parity.
    #[inline(always)]
    fn slot(&self, level: u32, plane: u32) -> u32 {
        (level * U_SLOTS + (plane & 1)) * self.plane_b
    }
}

#[inline(always)]
const fn min(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
}

/// What a thread knows of its column for the whole pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The iterations at which level l computes this column (level 0:
    /// loads it): `first[l]..first[l] + count[l]`, empty where the column
    /// is not in the level's region. One subtraction and one comparison
    /// decide a level's turn.
    first: [u32; MAX_STEPS_PER_PASS as usize + 1],
    count: [u32; MAX_STEPS_PER_PASS as usize + 1],
    /// Index of the column's cell in plane 0.
    cell: u32,
    /// Byte offset of the column in a shared plane.
    at_b: u32,
    /// Byte offsets of the x and y neighbours from `at_b`, the mirror rule
    /// applied (wrapping: -1 is u32::MAX times the size).
    xm_b: u32,
    xp_b: u32,
    ym_b: u32,
    yp_b: u32,
}

impl Column {
    /// The column of thread `(tx, ty)` of the block of `tile`.
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
            let mut l = 0;
            while l <= K {
                // Level l spans the tile grown by K - l: frame columns l..b - l,
                // and never past the grid (x < nx checked above).
                let in_x = l <= tx && tx < bx - l && x < tile.x1 + (K - l);
                let in_y = l <= ty && ty < by - l && y < tile.y1 + (K - l);
                if in_x && in_y {
                    levels |= 1 << l;
                }
                l += 1;
            }
        }
        // Level l computes plane p at iteration p + l.
        let mut first = [0; MAX_STEPS_PER_PASS as usize + 1];
        let mut count = [0; MAX_STEPS_PER_PASS as usize + 1];
        let mut l = 0;
        while l <= K {
            if levels & (1 << l) != 0 {
                first[l as usize] = tile.z_lo[l as usize] + l;
                count[l as usize] = tile.z_hi[l as usize] - tile.z_lo[l as usize];
            }
            l += 1;
        }
        let (xm, xp) = if inside { mirror_offsets(x, g.nx) } else { (-1, 1) };
        let (ym, yp) = if inside { mirror_offsets(y, g.ny) } else { (-1, 1) };
        let row_b = bx * size;
        Column {
            first,
            count,
            cell: y.wrapping_mul(g.nx).wrapping_add(x),
            at_b: (ty * bx + tx) * size,
            xm_b: (xm as u32).wrapping_mul(size),
            xp_b: (xp as u32).wrapping_mul(size),
            ym_b: (ym as u32).wrapping_mul(row_b),
            yp_b: (yp as u32).wrapping_mul(row_b),
        }
    }

    /// Bit l set: level l computes this column at some iteration (bit 0:
    /// level 0 loads it).
    #[cfg(test)]
    fn levels(&self) -> u32 {
        (0..=MAX_STEPS_PER_PASS).filter(|&l| self.count[l as usize] > 0).fold(0, |bits, l| bits | 1 << l)
    }

    /// Whether level `level` computes this column at iteration `t` (level
    /// 0: loads it).
    #[inline(always)]
    fn turn(&self, level: u32, t: u32) -> bool {
        t.wrapping_sub(self.first[level as usize]) < self.count[level as usize]
    }
}

/// A thread's registers between iterations: its column's U at the next
/// plane of level 0, loaded one iteration ahead (so that the load's
/// latency overlaps an iteration's arithmetic instead of stalling the
/// store to shared memory before the barrier); for each level below k, its
/// column's U at the last three planes (oldest first); for each level
/// below k, the locals of the plane that level finished in the previous
/// iteration (level 0: loaded). Entries of levels >= k are unused.
#[derive(Clone, Copy, Debug)]
pub struct Registers<T, L> {
    ahead: T,
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
        let first = tile.iterations().start;
        Self {
            // SAFETY: forwarded.
            ahead: unsafe { load_ahead(tile, col, first, a.u) },
            window: [[T::NAN; 3]; MAX_STEPS_PER_PASS as usize],
            carry: [L::from_fn(|_| T::NAN); 4],
        }
    }
}

/// U at plane `plane` of the column where level 0 has it, else NaN.
///
/// # Safety
/// As [`iteration`].
#[inline(always)]
unsafe fn load_ahead<T: Real, const K: u32>(tile: &Tile<K>, col: &Column, plane: u32, u: *const T) -> T {
    let g = tile.g;
    if col.turn(0, plane) {
        // SAFETY: a column of level 0 at a plane of level 0 is a cell of the grid.
        unsafe { *u.add(plane.wrapping_mul(g.nx * g.ny).wrapping_add(col.cell) as usize) }
    } else {
        T::NAN
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

/// Iteration `t` of the thread of column `col`: the load of plane t
/// (level 0) and each level l's plane t - l. Between two iterations the
/// block's threads meet at a barrier.
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
    t: u32,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
) {
    let g = tile.g;
    let i = t.wrapping_mul(g.nx * g.ny).wrapping_add(col.cell);
    // Level 0: U over the frame (loaded in the previous iteration; the
    // next plane's load goes out now), the locals where level 1 will step
    // them.
    let u0 = regs.ahead;
    // SAFETY (loads): a column of level 0 at a plane of level 0 is a cell
    // of the grid; the slot lies in the shared memory.
    unsafe {
        // Unconditional: the column's own place, read only where level 0 has it.
        shared.set(tile.slot(0, t) + col.at_b, u0);
        regs.ahead = load_ahead(tile, col, t + 1, a.u);
        let mut carry = regs.carry;
        if col.turn(1, t + 1) {
            carry[0] = M::Locals::<T>::load(a.local, g.cells(), i as usize);
        }
        let w = regs.window[0];
        regs.window[0] = [w[1], w[2], u0];
        // SAFETY: forwarded; the levels are unrolled by their constant index.
        level::<M, T, K, 1, RECORD>(tile, col, regs, &mut carry, t, shared, a);
        if K >= 2 {
            level::<M, T, K, 2, RECORD>(tile, col, regs, &mut carry, t, shared, a);
        }
        if K >= 3 {
            level::<M, T, K, 3, RECORD>(tile, col, regs, &mut carry, t, shared, a);
        }
        if K >= 4 {
            level::<M, T, K, 4, RECORD>(tile, col, regs, &mut carry, t, shared, a);
        }
        regs.carry = carry;
    }
}

/// Level L of iteration t for one column: plane t - L from level L - 1
/// to level L, into shared memory and the registers, or for the last
/// level into `u_next` and `local_next`. Crossings of the owned cells are
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
    t: u32,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
) {
    let g = tile.g;
    // Plane t - L (wrapping below 0: then past every level's planes).
    let p = t.wrapping_sub(L);
    let mut un = T::NAN;
    if col.turn(L, t) {
        // The column's planes p - 1, p, p + 1 of level L - 1, mirrored at
        // the grid's ends (nz >= 2): U[-1] = U[1], U[nz] = U[nz - 2].
        let w = regs.window[L as usize - 1];
        let centre = w[1];
        let below = if p == 0 { w[2] } else { w[0] };
        let above = if p + 1 == g.nz { w[0] } else { w[2] };
        let src = tile.slot(L - 1, p) + col.at_b;
        // SAFETY (whole block): the neighbours lie in level L - 1's region
        // (one column wider than level L's, or mirrored into it), whose
        // plane p was written in iteration t - 1; the cell is of the grid.
        unsafe {
            let lap = laplacian7(
                centre,
                shared.get(src.wrapping_add(col.xm_b)),
                shared.get(src.wrapping_add(col.xp_b)),
                shared.get(src.wrapping_add(col.ym_b)),
                shared.get(src.wrapping_add(col.yp_b)),
                below,
                above,
            );
            let mut locals = regs.carry[L as usize - 1];
            un = step_cell::<M, T>(centre, lap, &mut locals, a.step, a.coeffs);
            let i = p.wrapping_mul(g.nx * g.ny).wrapping_add(col.cell);
            if L == K {
                *a.u_next.add(i as usize) = un;
                locals.store(a.local_next, g.cells(), i as usize);
            } else {
                shared.set(tile.slot(L, p) + col.at_b, un);
                carry[L as usize] = locals;
            }
            // Owned: level K computes the cell (at iteration p + K).
            if RECORD && col.turn(K, p + K) {
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
pub unsafe fn run_block<M: CellModel, T: Real, const K: u32, const RECORD: bool>(
    tile: &Tile<K>,
    col: &Column,
    shared: Shared<T>,
    a: &PassArgs<'_, M, T>,
    mut barrier: impl FnMut(),
) {
    // SAFETY: forwarded to the caller.
    let mut regs = unsafe { Registers::<T, M::Locals<T>>::start::<M, K>(tile, col, a) };
    for t in tile.iterations() {
        // SAFETY: forwarded to the caller.
        unsafe { iteration::<M, T, K, RECORD>(tile, col, &mut regs, t, shared, a) };
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
        let mut shared = vec![T::NAN; shared_elems(bx, by, K) as usize];
        for bz in self.ordered(shape.grid.2) {
            for by_ in self.ordered(shape.grid.1) {
                for bx_ in self.ordered(shape.grid.0) {
                    let t = Tile::<K>::new::<T>(
                        self.g,
                        self.block,
                        (bx_, by_, bz),
                        self.window,
                        self.pass.z_chunk,
                    );
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
        // 32 x 16 threads, k = 4: two planes for each of the levels 0..3.
        assert_eq!(shared_elems(32, 16, 4), 512 * 8);
        assert_eq!(shared_elems(32, 8, 1), 256 * 2);
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
    fn levels_shrink_by_one_column_a_level_and_stay_in_the_grid() {
        let g = GridDims::new(70, 17, 45);
        // k = 3, tile 26 x 4: block (2, 3) owns x 52..70 (clipped), y 12..16.
        let t = Tile::<3>::new::<f32>(g, (32, 10), (2, 3, 1), ZWindow::all(45), 16);
        assert_eq!((t.x0, t.x1, t.y0, t.y1, t.z1), (52, 70, 12, 16, 32));
        assert_eq!((t.z_lo, t.z_hi), ([13, 14, 15, 16, 0], [35, 34, 33, 32, 0]));
        assert_eq!(t.iterations(), 13..35);
        let levels = |tx, ty| Column::new::<f32, 3>(&t, tx, ty).levels();
        // Level l computes planes 13 + l..35 - l at iterations 13 + 2l..35.
        let c = Column::new::<f32, 3>(&t, 3, 3);
        assert_eq!((c.first, c.count), ([13, 15, 17, 19, 0], [22, 20, 18, 16, 0]));
        assert!(c.turn(3, 19) && c.turn(3, 34) && !c.turn(3, 35) && !c.turn(3, 18));
        let outside = Column::new::<f32, 3>(&t, 21, 3);
        assert!((0..40).all(|it| (0..=3).all(|l| !outside.turn(l, it))));
        // Frame column 0 is x = 49: level 0 only; column 3 (x = 52) every level.
        assert_eq!(levels(0, 3), 0b0001);
        assert_eq!(levels(1, 3), 0b0011);
        assert_eq!(levels(3, 3), 0b1111);
        // x = 69 is the grid's last column (owned); x = 70 is outside.
        assert_eq!(levels(20, 3), 0b1111);
        assert_eq!(levels(21, 3), 0);
        // y = 16 (row 7) is the grid's last row, one past the tile: levels 0..2.
        assert_eq!(levels(5, 7), 0b0111);
        assert_eq!(levels(5, 8), 0, "y = 17 is outside");
        // The mirror rule at x = 69: the +x neighbour is the -x one.
        let c = Column::new::<f32, 3>(&t, 20, 7);
        assert_eq!((c.xm_b, c.xp_b), (4u32.wrapping_neg(), 4u32.wrapping_neg()));
        assert_eq!((c.ym_b, c.yp_b), ((32 * 4u32).wrapping_neg(), (32 * 4u32).wrapping_neg()));
        assert_eq!(c.cell, 16 * 70 + 69);
        let first = Tile::<2>::new::<f64>(g, (32, 8), (0, 0, 0), ZWindow::all(45), 16);
        let corner = Column::new::<f64, 2>(&first, 2, 2);
        assert_eq!((corner.levels(), corner.cell, corner.at_b), (0b111, 0, (2 * 32 + 2) * 8));
        assert_eq!((corner.xm_b, corner.ym_b), (8, 32 * 8), "x = -1 is x = 1, y = -1 is y = 1");
        assert_eq!(Column::new::<f64, 2>(&first, 1, 2).levels(), 0, "x = -1 is outside the grid");
    }

    #[test]
    fn halo_work_falls_with_larger_blocks_and_chunks() {
        // 32 x 16, k = 2, 32 slices: 512 columns x (32 + 2 + 32) planes over 336 x 32 x 2.
        let w = halo_work((32, 16), 2, 32);
        assert!((w - 512.0 * 66.0 / (336.0 * 64.0)).abs() < 1e-12, "{w}");
        assert!(halo_work((32, 32), 2, 32) < w && halo_work((32, 16), 2, 64) < w);
        assert_eq!(halo_work((32, 4), 2, 8), f64::INFINITY);
    }
}
