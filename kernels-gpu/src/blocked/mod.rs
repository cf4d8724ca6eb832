//! Temporal blocking: k time steps per pass over the fields (k = 1..4),
//! written once as plain functions that the GPU kernel
//! (`crate::kernels::blocked`, built for the GPU only) and a CPU emulator ([`emulate`]) both run.
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
//! U\[1\]) points back into the region one level down, which is one cell
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
//! (docs/history/BENCHMARKS-2026.md, "The blocked kernel's fourth form").
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
//!
//! [`step_cell`]: crate::cell::step_cell
//! [`laplacian7`]: crate::stencil::laplacian7

#[cfg(not(target_arch = "nvptx64"))]
pub mod emulation;
pub mod forward;
pub mod march;
pub mod shape;
pub mod shared;
pub mod tile;

#[cfg(not(target_arch = "nvptx64"))]
pub use emulation::{ThreadOrder, emulate};
pub use forward::{Forward, Forwards, MAX_FORWARDS};
pub use march::{PassArgs, Registers, iteration, run_block};
pub use shape::{
    DEFAULT_BLOCK, DEFAULT_BLOCK_F64, DEFAULT_STEPS_PER_PASS, DEFAULT_Z_CHUNK, LaunchShape, MAX_FRAME,
    MAX_STEPS_PER_PASS, Pass, block_for_tile, halo_work, launch_shape, shared_elems, tile_of,
};
#[cfg(not(target_arch = "nvptx64"))]
pub use shape::{predicted_cost, wave_efficiency};
pub use shared::Shared;
pub use tile::{Column, Tile, reflect};
