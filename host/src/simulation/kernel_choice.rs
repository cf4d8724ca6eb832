//! Which GPU kernel steps a run: the one a user names, or the rule `auto`
//! follows (from H100 figures). Every kernel gives the same bits, so the
//! choice changes the speed only.

use kernels_gpu::GridDims;
use kernels_gpu::model::ModelInfo;

use crate::backend::gpu::columns_is_faster;
use crate::backend::{BlockSize, KernelConfig, KernelKind};
use crate::scalar::Precision;

/// `auto` takes columns only on grids of at least this many cells: below
/// it the naive kernel is faster. On an H100 (Karma f32, with graphs;
/// docs/history/BENCHMARKS-2026.md, "Small grids") naive is 1.54x faster
/// at 64^3 (395,792 against 256,743 steps/s) and columns 1.19x faster at
/// 128^3 (106,538 against 89,352); the cut lies between them.
pub const COLUMNS_MIN_CELLS: usize = 1 << 20;

/// Where `auto` takes columns, they climb [`COLUMNS_DEEP_CHUNK`] slices per
/// thread, not the kernel's default 4, on grids of at most this many cells
/// (unless a z-chunk is given). On an H100 (Karma f32, graphs, "Small
/// grids") 128^3 ran 128,401 steps/s at z8 against 107,816 at z4 (1.19x),
/// while 160^3 and 256^3 ran faster at z4 (35,726 against 34,018; 10,574
/// against 10,033).
pub const COLUMNS_DEEP_CHUNK_MAX_CELLS: usize = 1 << 21;
pub const COLUMNS_DEEP_CHUNK: u32 = 8;

/// A user's choice of kernel: one named, or `auto` (`kind: None`), with
/// the block, z-chunk and steps per pass given (0: the kernel's default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelChoice {
    pub kind: Option<KernelKind>,
    pub block: Option<BlockSize>,
    /// Slices a thread or block climbs (0: the kernel's default).
    pub z_chunk: u32,
    /// Steps per pass of the blocked kernel (0: its default).
    pub steps_per_pass: u32,
}

impl KernelChoice {
    /// `auto`: the rule of [`KernelChoice::config`].
    pub const AUTO: Self = Self { kind: None, block: None, z_chunk: 0, steps_per_pass: 0 };

    /// The kernel `kind` with its defaults.
    pub fn named(kind: KernelKind) -> Self {
        Self { kind: Some(kind), ..Self::AUTO }
    }

    /// The block given, or the kernel's default: 32x8, and for blocked
    /// [`kernels_gpu::blocked::DEFAULT_BLOCK`] (a block writes its threads
    /// less k cells on each side, so 32x8 would leave no rows at k = 4; in
    /// f64, whose kernels take more registers, a smaller one).
    pub fn block_for(&self, kind: KernelKind, precision: Precision) -> BlockSize {
        let (x, y) = match (kind, precision) {
            (KernelKind::Blocked, Precision::F32) => kernels_gpu::blocked::DEFAULT_BLOCK,
            (KernelKind::Blocked, Precision::F64) => kernels_gpu::blocked::DEFAULT_BLOCK_F64,
            _ => kernels_gpu::DEFAULT_BLOCK,
        };
        self.block.unwrap_or(BlockSize { x, y })
    }

    /// The steps per pass given, or the kernel's default:
    /// [`kernels_gpu::blocked::DEFAULT_STEPS_PER_PASS`] for blocked, one
    /// step for the others.
    pub fn steps_per_pass_of(&self, kind: KernelKind) -> u32 {
        match (self.steps_per_pass, kind) {
            (0, KernelKind::Blocked) => kernels_gpu::blocked::DEFAULT_STEPS_PER_PASS,
            (0, _) => 1,
            (k, _) => k,
        }
    }

    /// `kind` with this choice's block, z-chunk and steps per pass (or the
    /// kernel's defaults).
    pub fn config_of(&self, kind: KernelKind, precision: Precision) -> KernelConfig {
        KernelConfig::new(kind, self.block_for(kind, precision))
            .with_z_chunk(self.z_chunk)
            .with_steps_per_pass(self.steps_per_pass_of(kind))
    }

    /// The kernel that steps `model` in `precision` on `dims` split over
    /// `gpus` GPUs: the one named, or for `auto` columns on one GPU where
    /// the grid allows it, is large enough ([`COLUMNS_MIN_CELLS`]) and it
    /// is the faster kernel ([`columns_is_faster`]), naive otherwise.
    /// `blocked` named for a model without it (those with more than 3
    /// local variables) gets `auto`'s kernel ([`KernelChoice::fallback_notice`]
    /// says so).
    pub fn config(
        &self,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
        gpus: usize,
    ) -> KernelConfig {
        let columns = self.autos_columns(precision, dims);
        match self.kind {
            Some(KernelKind::Blocked)
                if KernelKind::Blocked.entry_point(model.name, 3, precision).is_none() =>
            {
                Self { kind: None, steps_per_pass: 1, ..*self }.config(model, precision, dims, gpus)
            }
            Some(kind) => self.config_of(kind, precision),
            None if gpus == 1
                && dims.cells() >= COLUMNS_MIN_CELLS
                && columns_is_faster(model.variables.len() - 1, precision)
                && columns.check(model.name, dims).is_ok() =>
            {
                columns
            }
            None => self.config_of(KernelKind::Naive, precision),
        }
    }

    /// columns as `auto` takes them: [`COLUMNS_DEEP_CHUNK`] slices per
    /// thread on grids of at most [`COLUMNS_DEEP_CHUNK_MAX_CELLS`] cells
    /// unless a z-chunk is given.
    pub fn autos_columns(&self, precision: Precision, dims: GridDims) -> KernelConfig {
        let columns = self.config_of(KernelKind::Columns, precision);
        match self.z_chunk {
            0 if dims.cells() <= COLUMNS_DEEP_CHUNK_MAX_CELLS => columns.with_z_chunk(COLUMNS_DEEP_CHUNK),
            _ => columns,
        }
    }

    /// What a run says when `kernel`, chosen for `model`, is not the kernel
    /// named (today only `blocked` falls back).
    pub fn fallback_notice(&self, model: &ModelInfo, kernel: &KernelConfig) -> Option<String> {
        let named = self.kind?;
        (named != kernel.kind).then(|| {
            format!(
                "fibril: --kernel {named} steps the models whose state fits its registers k steps per pass ({}); \
                 {} has {} local variables, so it runs on {kernel}, one step per pass",
                named.models().join(", "),
                model.name,
                model.variables.len() - 1
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str) -> &'static ModelInfo {
        crate::models::find(name).unwrap()
    }

    #[test]
    fn auto_takes_columns_on_large_boxes_of_small_models_and_naive_elsewhere() {
        let cube = |n| GridDims::new(n, n, n);
        let auto = KernelChoice::AUTO;
        let karma = info("karma");
        let at = |dims, gpus| auto.config(karma, Precision::F32, dims, gpus);
        assert_eq!(at(cube(256), 1).kind, KernelKind::Columns);
        assert_eq!(at(cube(128), 1).z_chunk, COLUMNS_DEEP_CHUNK, "deep chunks on small boxes");
        assert_eq!(at(cube(64), 1).kind, KernelKind::Naive, "below the cut");
        assert_eq!(at(cube(256), 2).kind, KernelKind::Naive, "split runs take naive");
        assert_eq!(at(GridDims::new(2048, 2048, 1), 1).kind, KernelKind::Naive, "a sheet");
        let tp06 = info("ten_tusscher_2006");
        assert_eq!(auto.config(tp06, Precision::F32, cube(256), 1).kind, KernelKind::Naive, "many locals");
        // Blocked named for a model without it falls back, and says so.
        let blocked = KernelChoice::named(KernelKind::Blocked);
        let fell = blocked.config(tp06, Precision::F32, cube(64), 1);
        assert_eq!(fell.kind, KernelKind::Naive);
        assert!(blocked.fallback_notice(tp06, &fell).unwrap().contains("ten_tusscher_2006"));
        let kept = blocked.config(karma, Precision::F32, cube(64), 1);
        assert_eq!((kept.kind, kept.steps_per_pass), (KernelKind::Blocked, 3));
        assert_eq!(blocked.fallback_notice(karma, &kept), None);
    }
}
