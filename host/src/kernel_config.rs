//! Which kernel runs, with which block size, and what that implies: the
//! data layout, the device memory (paper eq. 6) and the launch shape.

use std::fmt;
use std::str::FromStr;

use kernels_gpu::blocked::{self, MAX_STEPS_PER_PASS};
use kernels_gpu::layout::quad::QUAD;
use kernels_gpu::layout::tower::{Axis, TowerLayoutError, block_is_valid};
use kernels_gpu::registry::{self, Kernel};
use kernels_gpu::{DEFAULT_BLOCK, GridDims, TowerLayout, ZWindow, csw_shared_elems, tower_shared_elems};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::scalar::Precision;

/// The most blocks a launch may have along y and z (CUDA's limit).
const MAX_GRID_YZ: u32 = 65_535;

/// The stencil kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelKind {
    /// One thread per cell on the row-major grid (the baseline).
    Naive,
    /// Classic sliding window: 2D blocks march along z (paper section 3.1).
    Csw,
    /// towerDS, one block per tower slice (paper Algorithm 2).
    Tower,
    /// towerDS with each block marching along its tower.
    TowerMarch,
    /// Four cells per thread along x, each thread marching up a chunk of
    /// z-slices (row-major; 3D grids with nx a multiple of 4).
    Columns,
    /// k steps per pass over the fields (temporal blocking,
    /// `kernels_gpu::blocked`; 3D grids).
    Blocked,
}

/// Dynamic shared memory a block may use on Hopper (H100, H200) once the
/// kernel opts in (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`): 227
/// KiB. The solver asks the device for its own limit; this value serves
/// the checks made without a device.
pub const HOPPER_SHARED_PER_BLOCK: u64 = 227 * 1024;

/// Dynamic shared memory a block gets without opting in (every CUDA GPU).
pub const SHARED_WITHOUT_OPT_IN: u64 = 48 * 1024;

/// The steps of the next pass of the blocked kernel: at most `max` and
/// `left`, and shortened so that no stimulus falls inside it (a stimulus
/// due at a step is applied before that step, between passes): a pass from
/// `first` ends before the first step `first + j` (j >= 1) at which
/// `stimulus_at` is true. Recording needs no shortening (the kernel records
/// every step's crossings); the run loop ends `advance` at every output
/// step, so no output falls inside a pass either.
pub fn pass_steps(max: u32, left: u64, first: u64, stimulus_at: impl Fn(u64) -> bool) -> u32 {
    let k = (max as u64).min(left) as u32;
    (1..k).find(|&j| stimulus_at(first + j as u64)).unwrap_or(k)
}

/// Slices each thread of `columns` climbs when `--z-chunk` is 0: the best
/// of 1, 2, 4 and 8 at 256^3 and within 1.5% of the best at 512^3 on an
/// H100 (docs/history/BENCHMARKS-2026.md).
pub const COLUMNS_Z_CHUNK: u32 = 4;

/// Whether `columns` steps a model with `locals` local variables in
/// `precision` faster than `naive` (what `--kernel auto` asks). Measured on
/// an H100 at 256^3 (docs/history/BENCHMARKS-2026.md): in f32, 6-45% faster for the
/// models with at most 2 locals (Karma, Aliev-Panfilov, Fenton-Karma,
/// Mitchell-Schaeffer, pure diffusion), 24-55% slower for those with 3 or
/// more (BOCF and the ionic models: four cells' states per thread cost
/// occupancy where the reaction, not memory, bounds the step); in f64 the
/// quads double the registers and columns is at best level with naive.
pub fn columns_is_faster(locals: usize, precision: Precision) -> bool {
    precision == Precision::F32 && locals <= 2
}

impl KernelKind {
    pub const ALL: [KernelKind; 6] = [
        KernelKind::Naive,
        KernelKind::Csw,
        KernelKind::Tower,
        KernelKind::TowerMarch,
        KernelKind::Columns,
        KernelKind::Blocked,
    ];

    /// Name on the command line and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            KernelKind::Naive => "naive",
            KernelKind::Csw => "csw",
            KernelKind::Tower => "tower",
            KernelKind::TowerMarch => "tower-march",
            KernelKind::Columns => "columns",
            KernelKind::Blocked => "blocked",
        }
    }

    /// The registry's kernel for a compacted grid with `axes` axes of two
    /// cells or more (the naive kernel has one per grid shape).
    pub const fn registry_kernel(self, axes: u32) -> Kernel {
        match self {
            KernelKind::Naive => match axes {
                3 => Kernel::Naive3d,
                2 => Kernel::Naive2d,
                _ => Kernel::Naive1d,
            },
            KernelKind::Csw => Kernel::Csw,
            KernelKind::Tower => Kernel::Tower,
            KernelKind::TowerMarch => Kernel::TowerMarch,
            KernelKind::Columns => Kernel::Columns,
            KernelKind::Blocked => Kernel::Blocked,
        }
    }

    /// The PTX entry point of this kernel for `model`, a grid with `axes`
    /// axes of two cells or more and `precision`, from the registry.
    pub fn entry_point(self, model: &str, axes: u32, precision: Precision) -> Option<&'static str> {
        registry::entry_point(model, self.registry_kernel(axes), precision.name()).map(|e| e.name)
    }

    /// The models that have this kernel (in f32), in registry order: for
    /// `blocked` the models with at most 3 local variables, whose state
    /// fits its registers (`kernels_gpu::for_each_model!`).
    pub fn models(self) -> Vec<&'static str> {
        registry::ENTRY_POINTS
            .iter()
            .filter(|e| e.kernel == self.registry_kernel(3) && e.precision == "f32")
            .map(|e| e.model)
            .collect()
    }

    /// The kernels `model` has.
    pub fn available_for(model: &str) -> Vec<KernelKind> {
        KernelKind::ALL
            .into_iter()
            .filter(|k| registry::entry_point(model, k.registry_kernel(3), "f32").is_some())
            .collect()
    }

    /// Whether U is stored in the tower layout (else row-major).
    pub const fn uses_towers(self) -> bool {
        matches!(self, KernelKind::Tower | KernelKind::TowerMarch)
    }

    /// Whether the kernel runs grids with axes of one cell (2D, 1D, a cell).
    pub const fn any_shape(self) -> bool {
        matches!(self, KernelKind::Naive)
    }
}

impl fmt::Display for KernelConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.block)?;
        match self.kind {
            KernelKind::TowerMarch if self.z_chunk != 0 => write!(f, " z{}", self.z_chunk)?,
            KernelKind::Columns => write!(f, " z{}", self.columns_z_chunk())?,
            KernelKind::Blocked => write!(f, " k{} z{}", self.steps_per_pass, self.blocked_z_chunk())?,
            _ => {}
        }
        Ok(())
    }
}

impl fmt::Display for KernelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Threads per block along x and y ("32x8"; a string in JSON and TOML).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockSize {
    pub x: u32,
    pub y: u32,
}

impl Default for BlockSize {
    fn default() -> Self {
        Self { x: DEFAULT_BLOCK.0, y: DEFAULT_BLOCK.1 }
    }
}

impl fmt::Display for BlockSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.x, self.y)
    }
}

impl Serialize for BlockSize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for BlockSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for BlockSize {
    type Err = KernelConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || KernelConfigError::BlockSyntax { text: s.to_string() };
        let (x, y) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let block =
            BlockSize { x: x.trim().parse().map_err(|_| bad())?, y: y.trim().parse().map_err(|_| bad())? };
        if !block_is_valid(block.x, block.y) {
            return Err(KernelConfigError::BadBlock { block });
        }
        Ok(block)
    }
}

/// Why a kernel configuration cannot run on a grid.
#[derive(Debug, Error, PartialEq)]
pub enum KernelConfigError {
    #[error("cannot read block size {text:?}: write it as BXxBY, for example --block 32x8")]
    BlockSyntax { text: String },
    #[error(
        "block {block} is not allowed: x must be a multiple of 32 (whole warps) and x*y at most 1024; \
         for example 32x8, 64x4 or 128x2"
    )]
    BadBlock { block: BlockSize },
    #[error(
        "the tower layout needs {axis} to be a multiple of the block's {axis} size {block}, but {axis} = {cells}; \
         use {sizes}, another --block, or --kernel csw or naive (any size)"
    )]
    NotMultiple { axis: &'static str, cells: u32, block: u32, sizes: String },
    #[error("{kernel} would launch {blocks} blocks along {axis}, more than CUDA's {MAX_GRID_YZ}; {fix}")]
    TooManyBlocks { kernel: KernelKind, axis: &'static str, blocks: u32, fix: &'static str },
    #[error("the {kernel} kernel exists for {models} only, not for model {model}; use --kernel {available}")]
    NotForModel { kernel: KernelKind, model: String, models: String, available: String },
    #[error(
        "the {kernel} kernel needs at least 2 cells along every axis, but the grid is {nx}x{ny}x{nz}; \
         use --kernel naive for sheets, cables and single cells"
    )]
    NeedsThreeAxes { kernel: KernelKind, nx: u32, ny: u32, nz: u32 },
    #[error(
        "one GPU handles fewer than 2^32 array elements (the kernels index in 32 bits); this grid needs {elements}"
    )]
    TooLarge { elements: u64 },
    #[error(
        "the columns kernel steps 4 cells per thread along x and needs nx to be a multiple of 4, but nx = {nx}; \
         use nx = {sizes}, or --kernel naive (any size)"
    )]
    NotQuads { nx: u32, sizes: String },
    #[error(
        "--steps-per-pass {steps} is not possible: the blocked kernel takes 1 to {MAX_STEPS_PER_PASS} steps per pass \
         (other kernels take one); use --kernel blocked --steps-per-pass 2, 3 or 4"
    )]
    StepsPerPass { steps: u32 },
    #[error(
        "the blocked kernel needs {needed} bytes of shared memory a block ({steps} steps per pass, {precision}), \
         more than the {limit} bytes a block may use on this GPU; use fewer --steps-per-pass, f32, or --kernel \
         columns or naive"
    )]
    SharedMemory { steps: u32, precision: Precision, needed: u64, limit: u64 },
    #[error(
        "the blocked kernel's block {block} leaves no cells to write with {steps} steps per pass: a block writes \
         its threads less {steps} on each side, so it needs more than {halo} threads along x and y; use --block \
         32x32 (the default in f32) or 32x16, or fewer --steps-per-pass"
    )]
    NoTile { block: BlockSize, steps: u32, halo: u32 },
    #[error(
        "the {kernel} kernel of this model takes {registers} registers per thread on this GPU, so a block may hold \
         at most {max_threads} threads, but block {block} has {threads}; use a --block of at most {max_threads} \
         threads{fix}"
    )]
    TooManyThreads {
        kernel: KernelKind,
        block: BlockSize,
        threads: u32,
        registers: u32,
        max_threads: u32,
        fix: &'static str,
    },
}

/// The multiples of `block` nearest to `cells`: "96 or 128", or just "32".
fn nearest_multiples(cells: u32, block: u32) -> String {
    let (below, above) = (cells / block * block, cells.div_ceil(block) * block);
    if below == 0 || below == above { above.to_string() } else { format!("{below} or {above}") }
}

/// A kernel and its block size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelConfig {
    pub kind: KernelKind,
    pub block: BlockSize,
    /// Slices each block of `tower-march` climbs; 0 = the whole tower.
    pub z_chunk: u32,
    /// Steps per pass of `blocked` (1 for every other kernel).
    pub steps_per_pass: u32,
}

impl KernelConfig {
    pub fn new(kind: KernelKind, block: BlockSize) -> Self {
        Self { kind, block, z_chunk: 0, steps_per_pass: 1 }
    }

    /// `blocked` with `steps` steps per pass.
    pub fn with_steps_per_pass(self, steps: u32) -> Self {
        Self { steps_per_pass: steps, ..self }
    }

    /// `tower-march` with each block climbing `z_chunk` slices (0 = all).
    pub fn with_z_chunk(self, z_chunk: u32) -> Self {
        Self { z_chunk, ..self }
    }

    /// Slices per block (tower-march) or thread (columns) of the marching
    /// kernels for a window of `slices` slices.
    pub fn effective_z_chunk(&self, slices: u32) -> u32 {
        match self.kind {
            KernelKind::Columns => self.columns_z_chunk().min(slices).max(1),
            KernelKind::Blocked => self.blocked_z_chunk().min(slices).max(1),
            _ if self.z_chunk == 0 => slices,
            _ => self.z_chunk.min(slices),
        }
    }

    /// The slices each thread of `columns` climbs (0 asks for the default).
    fn columns_z_chunk(&self) -> u32 {
        if self.z_chunk == 0 { COLUMNS_Z_CHUNK } else { self.z_chunk }
    }

    /// The slices each block of `blocked` owns (0 asks for the default).
    fn blocked_z_chunk(&self) -> u32 {
        if self.z_chunk == 0 { blocked::DEFAULT_Z_CHUNK } else { self.z_chunk }
    }

    /// Dynamic shared memory, in bytes, of a block of `blocked` taking
    /// `steps` steps (the local variables stay in registers).
    pub fn blocked_shared_bytes(&self, steps: u32, precision: Precision) -> u64 {
        blocked::shared_elems(steps) * precision.bytes() as u64
    }

    /// Checks that a block of this kernel fits in `limit` bytes of shared
    /// memory in `precision` (only `blocked` depends on it).
    pub fn check_shared_memory(&self, precision: Precision, limit: u64) -> Result<(), KernelConfigError> {
        if self.kind != KernelKind::Blocked {
            return Ok(());
        }
        let needed = self.blocked_shared_bytes(self.steps_per_pass, precision);
        if needed > limit {
            return Err(KernelConfigError::SharedMemory {
                steps: self.steps_per_pass,
                precision,
                needed,
                limit,
            });
        }
        Ok(())
    }

    /// Checks that a block of this kernel on the compacted grid `dims` has
    /// at most `max_threads` threads, the most the GPU runs in one block of
    /// an entry point taking `registers` registers per thread (the
    /// driver's `CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK`); a larger block
    /// would fail at its first launch.
    pub fn check_threads(
        &self,
        dims: GridDims,
        max_threads: u32,
        registers: u32,
    ) -> Result<(), KernelConfigError> {
        let (x, y, z) = self.block_dim(dims);
        let threads = x * y * z;
        if threads <= max_threads {
            return Ok(());
        }
        let fix = match self.kind {
            KernelKind::Blocked => ", fewer --steps-per-pass, or --kernel naive",
            _ => ", or --kernel naive",
        };
        Err(KernelConfigError::TooManyThreads {
            kernel: self.kind,
            block: self.block,
            threads,
            registers,
            max_threads,
            fix,
        })
    }

    /// The tower layout of `dims`, if this kernel uses one.
    pub fn tower_layout(&self, dims: GridDims) -> Result<Option<TowerLayout>, KernelConfigError> {
        if !self.kind.uses_towers() {
            return Ok(None);
        }
        TowerLayout::new(dims, self.block.x, self.block.y).map(Some).map_err(|e| match e {
            TowerLayoutError::BadBlock { .. } => KernelConfigError::BadBlock { block: self.block },
            TowerLayoutError::NotMultiple { axis, cells, block } => KernelConfigError::NotMultiple {
                axis: match axis {
                    Axis::X => "nx",
                    Axis::Y => "ny",
                },
                cells,
                block,
                sizes: nearest_multiples(cells, block),
            },
            TowerLayoutError::TooLarge => {
                let walls = dims.nx.div_ceil(self.block.x) as u64 * dims.ny.div_ceil(self.block.y) as u64;
                let elements = walls * dims.nz as u64 * (self.block.y * (self.block.x + 2)) as u64;
                KernelConfigError::TooLarge { elements }
            }
        })
    }

    /// Checks that this kernel can run `model` on `dims` (the grid as
    /// given; before anything is allocated).
    pub fn check(&self, model: &str, dims: GridDims) -> Result<(), KernelConfigError> {
        if !block_is_valid(self.block.x, self.block.y) {
            return Err(KernelConfigError::BadBlock { block: self.block });
        }
        let steps_ok = match self.kind {
            KernelKind::Blocked => (1..=MAX_STEPS_PER_PASS).contains(&self.steps_per_pass),
            _ => self.steps_per_pass == 1,
        };
        if !steps_ok {
            return Err(KernelConfigError::StepsPerPass { steps: self.steps_per_pass });
        }
        if self.kind == KernelKind::Blocked
            && blocked::tile_of((self.block.x, self.block.y), self.steps_per_pass).is_none()
        {
            let steps = self.steps_per_pass;
            return Err(KernelConfigError::NoTile { block: self.block, steps, halo: 2 * steps });
        }
        if self.kind.entry_point(model, 3, Precision::F32).is_none() {
            let models = self.kind.models();
            let available: Vec<&str> = KernelKind::available_for(model).iter().map(|k| k.name()).collect();
            return Err(KernelConfigError::NotForModel {
                kernel: self.kind,
                model: model.into(),
                models: models.join(", "),
                available: available.join(" or "),
            });
        }
        if !self.kind.any_shape() && dims.axes() < 3 {
            return Err(KernelConfigError::NeedsThreeAxes {
                kernel: self.kind,
                nx: dims.nx,
                ny: dims.ny,
                nz: dims.nz,
            });
        }
        if dims.cells() > u32::MAX as usize {
            return Err(KernelConfigError::TooLarge { elements: dims.cells() as u64 });
        }
        if self.kind == KernelKind::Columns && !dims.nx.is_multiple_of(QUAD) {
            return Err(KernelConfigError::NotQuads { nx: dims.nx, sizes: nearest_multiples(dims.nx, QUAD) });
        }
        let grid = self.grid(dims.compact(), ZWindow::all(dims.compact().nz));
        let fix = match self.kind {
            KernelKind::Naive | KernelKind::Tower => "use --kernel csw or tower-march",
            KernelKind::Csw => "use a larger --block",
            KernelKind::TowerMarch => "use a larger --z-chunk (0 = the whole tower)",
            KernelKind::Columns | KernelKind::Blocked => "use a larger --z-chunk",
        };
        for (axis, blocks) in [("y", grid.1), ("z", grid.2)] {
            if blocks > MAX_GRID_YZ {
                return Err(KernelConfigError::TooManyBlocks { kernel: self.kind, axis, blocks, fix });
            }
        }
        self.tower_layout(dims).map(|_| ())
    }

    /// Elements of one U buffer: the grid, or the tower layout's ds_size.
    pub fn u_elements(&self, dims: GridDims) -> Result<u64, KernelConfigError> {
        Ok(match self.tower_layout(dims)? {
            Some(lay) => lay.ds_size(),
            None => dims.cells() as u64,
        })
    }

    /// Device bytes for a model with `locals` local variables: two U
    /// buffers in the kernel's layout plus the locals row-major (paper eq. 6
    /// for Karma, one local: 4 (2 ds_size + mesh_size) in f32 for towerDS).
    pub fn device_bytes(
        &self,
        dims: GridDims,
        locals: usize,
        precision: Precision,
    ) -> Result<u64, KernelConfigError> {
        let local_elements = (locals as u64 * dims.cells() as u64).max(1);
        // `blocked` reads the locals of its halos while other blocks write
        // theirs: the locals are double-buffered too.
        let local_buffers = if self.kind == KernelKind::Blocked { 2 } else { 1 };
        Ok((2 * self.u_elements(dims)? + local_buffers * local_elements) * precision.bytes() as u64)
    }

    /// Dynamic shared memory per block, in elements, of the one-step
    /// kernels (`blocked`: [`KernelConfig::blocked_shared_bytes`]).
    pub fn shared_elems(&self) -> u32 {
        match self.kind {
            KernelKind::Naive | KernelKind::Columns | KernelKind::Blocked => 0,
            KernelKind::Csw => csw_shared_elems(self.block.x, self.block.y),
            KernelKind::Tower | KernelKind::TowerMarch => tower_shared_elems(self.block.x, self.block.y),
        }
    }

    /// Threads per block for the compacted grid `dims`: the configured
    /// block, flattened along x for a cable; for columns on a grid whose
    /// rows hold fewer quads than the block is wide, narrowed to the row
    /// (the next power of two, so a warp holds whole rows) and made taller
    /// with the same threads. Without that a 32-wide block on a 64-cell row
    /// (16 quads) leaves half of every warp idle: on an H100 columns at
    /// 64^3 ran slower than naive (docs/history/BENCHMARKS-2026.md, "Small grids").
    pub fn block_dim(&self, dims: GridDims) -> (u32, u32, u32) {
        let (bx, by) = (self.block.x, self.block.y);
        if dims.axes() <= 1 {
            return (bx * by, 1, 1);
        }
        let quads = dims.nx.div_ceil(QUAD);
        if self.kind == KernelKind::Columns && quads < bx {
            let width = quads.next_power_of_two();
            return (width, bx * by / width, 1);
        }
        (bx, by, 1)
    }

    /// Grid of blocks that advances the slices of `window` of the compacted grid `dims`.
    pub fn grid(&self, dims: GridDims, window: ZWindow) -> (u32, u32, u32) {
        let (bx, by, _) = self.block_dim(dims);
        let tiles = (dims.nx.div_ceil(bx), dims.ny.div_ceil(by));
        let slices = window.len();
        match self.kind {
            KernelKind::Columns => (
                dims.nx.div_ceil(QUAD).div_ceil(bx),
                tiles.1,
                slices.div_ceil(self.effective_z_chunk(slices)),
            ),
            KernelKind::Naive | KernelKind::Tower => (tiles.0, tiles.1, slices),
            KernelKind::Csw => (tiles.0, tiles.1, 1),
            KernelKind::TowerMarch => (tiles.0, tiles.1, slices.div_ceil(self.effective_z_chunk(slices))),
            KernelKind::Blocked => {
                let chunk = self.effective_z_chunk(slices);
                blocked::launch_shape(dims, (bx, by), window, chunk, self.steps_per_pass).grid
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::format_bytes;

    fn mib(kind: KernelKind, n: u32) -> String {
        let cfg = KernelConfig::new(kind, BlockSize { x: 32, y: 8 });
        format_bytes(cfg.device_bytes(GridDims::new(n, n, n), 1, Precision::F32).unwrap())
    }

    #[test]
    fn memory_matches_paper_table_2() {
        assert_eq!(mib(KernelKind::Csw, 256), "192.00 MiB");
        assert_eq!(mib(KernelKind::Tower, 256), "200.00 MiB");
        assert_eq!(mib(KernelKind::Csw, 512), "1.50 GiB"); // 1536 MiB
        assert_eq!(mib(KernelKind::Tower, 512), "1.56 GiB"); // 1600 MiB
        let tower512 = KernelConfig::new(KernelKind::Tower, BlockSize::default());
        assert_eq!(
            tower512.device_bytes(GridDims::new(512, 512, 512), 1, Precision::F32).unwrap(),
            1600 << 20
        );
    }

    #[test]
    fn parses_block_sizes() {
        assert_eq!("64x4".parse::<BlockSize>().unwrap(), BlockSize { x: 64, y: 4 });
        assert!(matches!("48x4".parse::<BlockSize>(), Err(KernelConfigError::BadBlock { .. })));
        assert!(matches!("32*8".parse::<BlockSize>(), Err(KernelConfigError::BlockSyntax { .. })));
        assert!(matches!("64x32".parse::<BlockSize>(), Err(KernelConfigError::BadBlock { .. })));
    }

    #[test]
    fn tower_refuses_partial_towers_naming_nearest_sizes() {
        let cfg = KernelConfig::new(KernelKind::Tower, BlockSize { x: 32, y: 8 });
        let err = cfg.check("karma", GridDims::new(100, 64, 64)).unwrap_err();
        assert_eq!(
            err,
            KernelConfigError::NotMultiple { axis: "nx", cells: 100, block: 32, sizes: "96 or 128".into() }
        );
        assert!(err.to_string().contains("use 96 or 128"));
        assert_eq!(nearest_multiples(16, 32), "32");
        // CSW and naive take any size.
        for kind in [KernelKind::Csw, KernelKind::Naive] {
            assert!(
                KernelConfig::new(kind, BlockSize { x: 32, y: 8 })
                    .check("karma", GridDims::new(100, 37, 9))
                    .is_ok()
            );
        }
    }

    #[test]
    fn the_papers_kernels_are_karmas_and_three_dimensional() {
        let csw = KernelConfig::new(KernelKind::Csw, BlockSize { x: 32, y: 8 });
        let e = csw.check("diffusion", GridDims::new(64, 64, 64)).unwrap_err().to_string();
        assert!(e.contains("exists for karma only") && e.contains("--kernel naive"), "{e}");
        let e = csw.check("karma", GridDims::new(64, 64, 1)).unwrap_err().to_string();
        assert!(e.contains("--kernel naive for sheets"), "{e}");
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        for dims in [GridDims::new(64, 64, 1), GridDims::new(1, 1, 90), GridDims::new(1, 1, 1)] {
            naive.check("diffusion", dims).unwrap();
        }
        assert_eq!(KernelKind::available_for("karma").len(), 6);
        assert_eq!(
            KernelKind::available_for("diffusion"),
            vec![KernelKind::Naive, KernelKind::Columns, KernelKind::Blocked]
        );
        // The ionic models' state does not fit the blocked kernel's registers.
        assert_eq!(
            KernelKind::available_for("ten_tusscher_2006"),
            vec![KernelKind::Naive, KernelKind::Columns]
        );
        let e = KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y: 16 })
            .check("beeler_reuter", GridDims::new(8, 8, 8))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "exists for karma, bocf, aliev_panfilov, fenton_karma, mitchell_schaeffer, diffusion only"
            ),
            "{e}"
        );
    }

    #[test]
    fn columns_needs_quads_along_x_and_climbs_chunks_of_z() {
        let cfg = KernelConfig::new(KernelKind::Columns, BlockSize { x: 32, y: 8 });
        let e = cfg.check("karma", GridDims::new(70, 64, 64)).unwrap_err().to_string();
        assert!(e.contains("nx = 68 or 72") && e.contains("--kernel naive"), "{e}");
        assert!(cfg.check("bocf", GridDims::new(68, 37, 9)).is_ok());
        let e = cfg.check("karma", GridDims::new(64, 64, 1)).unwrap_err().to_string();
        assert!(e.contains("--kernel naive for sheets"), "{e}");
        // 256^3: 64 quads along x in 2 blocks of 32 threads, 64 chunks of 4 slices.
        assert_eq!(cfg.grid(GridDims::new(256, 256, 256), ZWindow::all(256)), (2, 32, 64));
        // A window of 10 slices in chunks of 3 (the last one partial), 17 quads.
        let chunked = cfg.with_z_chunk(3);
        assert_eq!(chunked.grid(GridDims::new(68, 17, 12), ZWindow::new(1, 11)), (1, 3, 4));
        assert_eq!(chunked.effective_z_chunk(2), 2);
        assert_eq!(
            (cfg.to_string(), chunked.to_string()),
            ("columns 32x8 z4".into(), "columns 32x8 z3".into())
        );
    }

    #[test]
    fn launches_stay_within_cudas_grid_limits() {
        // tower-march with small chunks on a very tall grid (the check used to skip it).
        let tall = GridDims::new(32, 8, 300_000);
        let march = KernelConfig::new(KernelKind::TowerMarch, BlockSize { x: 32, y: 8 }).with_z_chunk(2);
        let e = march.check("karma", tall).unwrap_err().to_string();
        assert!(e.contains("150000 blocks along z") && e.contains("--z-chunk"), "{e}");
        assert!(march.with_z_chunk(0).check("karma", tall).is_ok());
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        assert!(naive.check("karma", tall).is_err());
        // A long cable runs as one row of flat blocks.
        assert_eq!(naive.grid(GridDims::new(1000, 1, 1), ZWindow::all(1)), (4, 1, 1));
        assert_eq!(naive.block_dim(GridDims::new(1000, 1, 1)), (256, 1, 1));
    }

    #[test]
    fn columns_narrow_their_block_to_short_rows() {
        let columns = KernelConfig::new(KernelKind::Columns, BlockSize { x: 32, y: 8 }).with_z_chunk(1);
        // 64 cells a row are 16 quads: 16 x 16 threads, every lane busy.
        let small = GridDims::new(64, 64, 64);
        assert_eq!(columns.block_dim(small), (16, 16, 1));
        assert_eq!(columns.grid(small, ZWindow::all(64)), (1, 4, 64));
        // 40 cells (10 quads): 16 wide, 6 lanes of 16 idle instead of 22 of 32.
        assert_eq!(columns.block_dim(GridDims::new(40, 64, 64)), (16, 16, 1));
        // Rows of 32 quads or more keep the block; other kernels always do.
        assert_eq!(columns.block_dim(GridDims::new(128, 64, 64)), (32, 8, 1));
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        assert_eq!(naive.block_dim(small), (32, 8, 1));
        // Every cell is still covered.
        for nx in (4..=256).step_by(4) {
            let dims = GridDims::new(nx, 24, 8);
            let (bx, by, _) = columns.block_dim(dims);
            let (gx, gy, _) = columns.grid(dims, ZWindow::all(8));
            assert!(bx * by <= 256 && gx * bx * QUAD >= nx && gy * by >= 24, "{nx}: {bx}x{by}, {gx}x{gy}");
        }
    }

    #[test]
    fn blocked_takes_one_to_four_steps_and_refuses_blocks_without_a_tile_or_beyond_the_shared_memory() {
        let cfg = KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y: 16 }).with_steps_per_pass(4);
        let cube = GridDims::new(256, 256, 256);
        cfg.check("karma", cube).unwrap();
        assert_eq!(cfg.to_string(), "blocked 32x16 k4 z32");
        // Tiles of 24x8: 11 x 32 of them, 8 chunks of 32 slices.
        assert_eq!(cfg.grid(cube, ZWindow::all(256)), (11, 32, 8));
        for steps in [0, 5] {
            let e = cfg.with_steps_per_pass(steps).check("karma", cube).unwrap_err().to_string();
            assert!(e.contains("1 to 4") && e.contains("--steps-per-pass"), "{e}");
        }
        // 32x8 leaves no rows with 4 steps (8 - 2 x 4), two with 3.
        let flat = KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y: 8 });
        flat.with_steps_per_pass(3).check("karma", cube).unwrap();
        let e = flat.with_steps_per_pass(4).check("karma", cube).unwrap_err().to_string();
        assert!(e.contains("more than 8 threads along x and y") && e.contains("--block 32x32"), "{e}");
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        assert!(
            naive
                .with_steps_per_pass(2)
                .check("karma", cube)
                .unwrap_err()
                .to_string()
                .contains("--kernel blocked")
        );
        let e = cfg.check("karma", GridDims::new(64, 64, 1)).unwrap_err().to_string();
        assert!(e.contains("--kernel naive for sheets"), "{e}");
        // k = 4: two planes of the largest frame (1024 columns) for each of
        // 4 levels, whatever the block.
        assert_eq!(cfg.blocked_shared_bytes(4, Precision::F32), 1024 * 8 * 4);
        cfg.check_shared_memory(Precision::F32, SHARED_WITHOUT_OPT_IN).unwrap();
        // In f64 with k = 4 that is 64 KiB: beyond 48 KiB without opting in.
        cfg.check_shared_memory(Precision::F64, HOPPER_SHARED_PER_BLOCK).unwrap();
        let e = cfg.check_shared_memory(Precision::F64, SHARED_WITHOUT_OPT_IN).unwrap_err().to_string();
        assert!(
            e.contains("65536 bytes")
                && e.contains("fewer --steps-per-pass")
                && e.contains("--kernel columns"),
            "{e}"
        );
        // The locals are double-buffered.
        let columns = KernelConfig::new(KernelKind::Columns, BlockSize { x: 32, y: 8 });
        let n = cube.cells() as u64 * 4;
        assert_eq!(
            cfg.device_bytes(cube, 1, Precision::F32).unwrap(),
            columns.device_bytes(cube, 1, Precision::F32).unwrap() + n
        );
    }

    #[test]
    fn blocks_beyond_the_threads_the_registers_allow_are_refused_with_the_limit() {
        let cfg = KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y: 16 });
        let cube = GridDims::new(64, 64, 64);
        cfg.check_threads(cube, 512, 128).unwrap();
        let e = cfg.check_threads(cube, 256, 255).unwrap_err().to_string();
        assert!(
            e.contains("255 registers") && e.contains("at most 256 threads") && e.contains("has 512"),
            "{e}"
        );
        assert!(e.contains("fewer --steps-per-pass"), "{e}");
    }

    #[test]
    fn passes_stop_before_a_stimulus_and_at_the_end() {
        let none = |_| false;
        assert_eq!(pass_steps(4, 100, 0, none), 4);
        assert_eq!(pass_steps(4, 3, 0, none), 3);
        assert_eq!(pass_steps(3, 0, 7, none), 0);
        // A stimulus at step 10: a pass from 8 takes 8 and 9; one from 10 (the
        // stimulus applied before it) goes on.
        let at_10 = |s| s == 10;
        assert_eq!(pass_steps(4, 100, 8, at_10), 2);
        assert_eq!(pass_steps(4, 100, 10, at_10), 4);
        assert_eq!(pass_steps(4, 100, 9, at_10), 1);
        // A stimulus held over many steps: one step per pass while it lasts.
        let window = |s| (20..25).contains(&s);
        assert_eq!(pass_steps(4, 100, 18, window), 2);
        assert_eq!(pass_steps(4, 100, 22, window), 1);
        assert_eq!(pass_steps(4, 100, 24, window), 4);
    }
}
