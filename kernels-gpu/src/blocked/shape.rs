//! The shape of a pass: how many steps, which block, which tile and
//! z-chunk, the launch that covers a window, the shared memory it takes,
//! and the halo's and the waves' cost that the host ranks blocks by.

use super::forward::Forwards;
use crate::layout::grid::{GridDims, ZWindow};

/// The most steps one pass takes.
pub const MAX_STEPS_PER_PASS: u32 = 4;

/// Steps per pass when the run does not choose (`--steps-per-pass 0`): on
/// an H100 (f32, 32x32 blocks, docs/history/BENCHMARKS-2026.md "Temporal blocking") 3
/// was the fastest for every model that has the kernel at 256^3, and for
/// Karma at 512^3.
pub const DEFAULT_STEPS_PER_PASS: u32 = 3;

/// Slices per block along z when the run does not choose (`--z-chunk 0`).
/// On an H100 (Karma f32, docs/history/BENCHMARKS-2026.md "Temporal blocking") 32 was
/// the faster at 256^3 with 32x32 blocks (64 leaves 400 blocks, three
/// waves with a ragged tail), 64 the faster at 512^3 by 5%.
pub const DEFAULT_Z_CHUNK: u32 = 32;

/// Threads per block in f32 when the run does not choose (`--block`): a
/// frame of 32 x 32 columns writes a tile of 26 x 26 cells with k = 3,
/// which idles fewer lanes in the halo than 32 x 16 (28 x 10); every f32
/// kernel is capped at 64 registers (`build.rs`) so that it fits. On an
/// H100 (docs/history/BENCHMARKS-2026.md "Temporal blocking") 32 x 32 was the faster
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
pub(super) const fn plane_bytes<T>() -> u32 {
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
    /// The boundary planes this pass also stores into halos (a split
    /// part's; [`Forwards::NONE`] on one GPU).
    pub forwards: Forwards,
}

/// Grid and block of a launch (CUDA's `(x, y, z)` triples).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchShape {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
}

/// The launch of a pass of `steps` steps over `window` of `g` with blocks
/// of `block` threads: one block per tile ([`tile_of`]) and z-chunk. The
/// launcher and [`emulate`](super::emulate) both take it from here.
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
