//! What the compute options mean for the GPU kernel: the kernel a run
//! takes (the library's rule, `KernelChoice`), the candidates and
//! refinements `--kernel tune` times, and the checks of `--kernel`,
//! `--block`, `--z-chunk` and `--steps-per-pass` made before any work.

use anyhow::{Context, bail};
use clap::ValueEnum;
use fibril_host::backend::{BlockSize, KernelConfig, KernelKind};
use fibril_host::simulation::KernelChoice;
use fibril_host::{GridDims, ModelInfo, Precision};

use super::args::{BackendArg, ComputeArgs, ExchangeArg, GpuCount, KernelArg};

impl ComputeArgs {
    /// The block `--block` names, or the kernel's default
    /// ([`KernelChoice::block_for`]).
    pub fn block_for(&self, kind: KernelKind, precision: Precision) -> BlockSize {
        self.kernel_choice().block_for(kind, precision)
    }

    /// What a run says when `kernel`, chosen for `model`, is not the kernel
    /// `--kernel` named ([`KernelChoice::fallback_notice`]).
    pub fn fallback_notice(&self, model: &ModelInfo, kernel: &KernelConfig) -> Option<String> {
        self.kernel_choice().fallback_notice(model, kernel)
    }

    /// The one GPU count of a run.
    pub fn single_gpu_count(&self) -> anyhow::Result<GpuCount> {
        match self.gpus.as_slice() {
            [one] => Ok(*one),
            _ => bail!("--gpus takes one value here (a count or `all`); lists are for fibril bench"),
        }
    }

    /// These options' kernel, as the library takes it ([`KernelChoice::config`]
    /// picks the kernel for a model, precision, grid and GPU count; `auto`
    /// for `tune`, whose starting point it is; tune's `--steps-per-pass` is
    /// for its blocked candidates).
    pub fn kernel_choice(&self) -> KernelChoice {
        let steps_per_pass = match self.kernel.named() {
            Some(_) => self.steps_per_pass,
            None if self.tunes() => 0,
            None => self.steps_per_pass,
        };
        KernelChoice { kind: self.kernel.named(), block: self.block, z_chunk: self.z_chunk, steps_per_pass }
    }

    /// `kind` with this command line's block, z-chunk and steps per pass
    /// (or the kernel's defaults; under `tune`, one step for the kernels
    /// other than blocked, whose candidates take their own).
    fn config_of(&self, kind: KernelKind, precision: Precision) -> KernelConfig {
        self.kernel_choice().config_of(kind, precision)
    }

    /// Whether `--kernel tune` asks for the kernel to be timed on the GPU.
    pub fn tunes(&self) -> bool {
        self.kernel == KernelArg::Tune
    }

    /// Refuses `--retune` without `--kernel tune`: it would time nothing.
    pub fn check_retune(&self) -> anyhow::Result<()> {
        if self.retune && !self.tunes() {
            bail!("--retune times the kernels of --kernel tune again; add --kernel tune or drop --retune");
        }
        Ok(())
    }

    /// Refuses the values of `--kernel`, `--block` and `--steps-per-pass`
    /// that a GPU would refuse for `model` in `precision` on `dims`,
    /// whatever the backend: an invalid option is a mistake on the CPU too
    /// (where the run would go on and the same command fail on a GPU).
    /// What depends on the device alone (registers, shared memory) is left
    /// to the GPU, and so is the grid of a split run (each sub-domain is
    /// checked there) and, with `auto` or `tune`, what only a very large or
    /// flat grid cannot do on a GPU (the CPU steps any grid). With
    /// `--backend gpu` the kernel is checked where the GPU is opened (the
    /// same check, once a GPU is known to be there).
    pub fn check_kernel_options(
        &self,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
    ) -> anyhow::Result<()> {
        use fibril_host::backend::gpu::KernelConfigError as E;
        self.check_option_values()?;
        let split = self.gpus.as_slice() != [GpuCount::N(1)] || self.gpu_ids.len() > 1;
        if split || self.backend == BackendArg::Gpu {
            return Ok(());
        }
        let kernel = self.kernel_choice().config(model, precision, dims, 1);
        match kernel.check(model.name, dims) {
            Ok(()) => Ok(()),
            Err(e) if self.kernel.named().is_some() => Err(e).with_context(|| {
                format!("--kernel {} cannot step this run of model {}", kernel.kind, model.name)
            }),
            // auto and tune: the mistakes of the options themselves.
            Err(e @ (E::BadBlock { .. } | E::StepsPerPass { .. } | E::NoTile { .. })) => Err(e.into()),
            Err(_) => Ok(()),
        }
    }

    /// Refuses option values no kernel takes whatever the model and grid:
    /// steps per pass beyond the blocked kernel's range (`tune` would
    /// otherwise drop its blocked candidates without a word).
    pub fn check_option_values(&self) -> anyhow::Result<()> {
        let max = kernels_gpu::blocked::MAX_STEPS_PER_PASS;
        if self.steps_per_pass > max {
            bail!(
                "--steps-per-pass {} is not possible: the blocked kernel takes 1 to {max} steps per pass (0, the \
                 default, takes {}); use --steps-per-pass 2, 3 or 4, or leave it out",
                self.steps_per_pass,
                kernels_gpu::blocked::DEFAULT_STEPS_PER_PASS
            );
        }
        Ok(())
    }

    /// The options given that choose how a GPU steps the grid and do
    /// nothing on the CPU, as the command line names them (empty when all
    /// are at their defaults).
    pub fn gpu_only_options(&self) -> Vec<String> {
        let d = Self::default();
        let mut given = Vec::new();
        if self.kernel != d.kernel {
            given.push(format!("--kernel {}", self.kernel.to_possible_value().expect("named").get_name()));
        }
        if let Some(block) = self.block {
            given.push(format!("--block {block}"));
        }
        let numbers = [
            ("--z-chunk", self.z_chunk, d.z_chunk),
            ("--steps-per-pass", self.steps_per_pass, d.steps_per_pass),
            ("--device", self.device as u32, d.device as u32),
        ];
        given.extend(numbers.iter().filter(|(_, v, d)| v != d).map(|(name, v, _)| format!("{name} {v}")));
        if !self.gpu_ids.is_empty() {
            let ids: Vec<String> = self.gpu_ids.iter().map(|i| i.to_string()).collect();
            given.push(format!("--gpu-ids {}", ids.join(",")));
        }
        if self.exchange != d.exchange {
            given
                .push(format!("--exchange {}", self.exchange.to_possible_value().expect("named").get_name()));
        }
        let flags = [
            ("--no-overlap", self.no_overlap),
            ("--no-graphs", self.no_graphs),
            ("--no-pdl", self.no_pdl),
            ("--retune", self.retune),
        ];
        given.extend(flags.iter().filter(|(_, on)| *on).map(|(name, _)| name.to_string()));
        given
    }

    /// The kernels `--kernel tune` times for `model` in `precision` on
    /// `dims` over `gpus` sub-domains, `auto`'s choice first: naive, columns
    /// (at `auto`'s z-chunk) and blocked at 2, 3 and 4 steps per pass (or
    /// at `--steps-per-pass` alone), each with `--block`/`--z-chunk` where
    /// given, each only where it can step this grid (the kernel's own
    /// checks; over several sub-domains, halos as deep as its passes). The
    /// paper's kernels (csw, tower, tower-march) are left out: on every
    /// device measured they are slower than naive (docs/history/BENCHMARKS-2026.md).
    pub fn tune_candidates(
        &self,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
        gpus: usize,
    ) -> Vec<KernelConfig> {
        let auto = Self { kernel: KernelArg::Auto, ..self.clone() };
        let mut all = vec![
            auto.kernel_choice().config(model, precision, dims, gpus),
            self.config_of(KernelKind::Naive, precision),
            // auto's columns, whether or not auto takes them.
            self.kernel_choice().autos_columns(precision, dims),
        ];
        if KernelKind::Blocked.entry_point(model.name, 3, precision).is_some() {
            let steps: Vec<u32> = match self.steps_per_pass {
                0 => (2..=kernels_gpu::blocked::MAX_STEPS_PER_PASS).collect(),
                k => vec![k],
            };
            let blocked = self.config_of(KernelKind::Blocked, precision);
            all.extend(steps.into_iter().map(|k| blocked.with_steps_per_pass(k)));
        }
        self.runnable(all, &[], model, dims, gpus)
    }

    /// What `--kernel tune` tries after the first round, around its
    /// fastest kernel `best`: blocked with 16 and 64 slices per block
    /// (at 512^3 on an H100 64 was 1.06x faster than the default 32),
    /// columns climbing 2, 4 and 8 slices, naive in 32x4, 32x16 and 64x4
    /// blocks; only what `--z-chunk` or `--block` leave open, only what can
    /// step the grid, never `best` itself.
    pub fn tune_refinements(
        &self,
        best: KernelConfig,
        model: &ModelInfo,
        dims: GridDims,
        gpus: usize,
    ) -> Vec<KernelConfig> {
        let around: Vec<KernelConfig> = match best.kind {
            KernelKind::Blocked if self.z_chunk == 0 => vec![best.with_z_chunk(16), best.with_z_chunk(64)],
            KernelKind::Columns if self.z_chunk == 0 => [2, 4, 8].map(|z| best.with_z_chunk(z)).to_vec(),
            KernelKind::Naive if self.block.is_none() => [(32, 4), (32, 16), (64, 4)]
                .map(|(x, y)| KernelConfig { block: BlockSize { x, y }, ..best })
                .to_vec(),
            _ => Vec::new(),
        };
        self.runnable(around, &[best], model, dims, gpus)
    }

    /// Blocked shapes `--kernel tune` tries last, around a blocked `best`
    /// in f32 on one GPU of `multiprocessors` SMs: blocks `best`'s width
    /// wide and 24 to 32 rows high, with chunks from 16 slices to the whole
    /// grid, ranked by [`kernels_gpu::blocked::predicted_cost`] (a pass's
    /// halo work over the share of SMs its waves keep busy); the two ranked
    /// best, where they rank at least 1% above `best`, then the best-ranked
    /// shape at each neighbouring k (2 to 4) unless `--steps-per-pass` was
    /// given. In f32 the blocked
    /// kernels are capped at 64 registers (`build.rs`), so an SM holds as
    /// many blocks as 64K registers and 2,048 threads allow (every GPU
    /// fibril runs on, sm_70 to sm_90, has 64K registers per SM and holds
    /// at least 1,024 threads, so the registers bind first and the count
    /// is the same on each); in f64 the
    /// count is the compiler's, and nothing is ranked. Only where neither
    /// `--block` nor `--z-chunk` was given. (On an H100, Karma at 256^3:
    /// 32x26 z64 11,230 steps/s against 32x32 z32 10,592.)
    pub fn tune_blocked_shapes(
        &self,
        best: KernelConfig,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
        gpus: usize,
        multiprocessors: u32,
    ) -> Vec<KernelConfig> {
        use kernels_gpu::blocked::{MAX_STEPS_PER_PASS, predicted_cost};
        if best.kind != KernelKind::Blocked
            || self.block.is_some()
            || self.z_chunk != 0
            || precision != Precision::F32
        {
            return Vec::new();
        }
        // Over several GPUs each part's slab is what one GPU steps (the
        // z-split's parts are equal to a slice), so the shapes rank for it.
        let slab = GridDims::new(dims.nx, dims.ny, dims.nz.div_ceil(gpus.max(1) as u32));
        let (k, width) = (best.steps_per_pass, best.block.x);
        let cost = |block: BlockSize, k: u32, z: u32| {
            let threads = block.x * block.y;
            let per_sm = (65_536 / (64 * threads)).min(2048 / threads).max(1);
            predicted_cost(slab, (block.x, block.y), k, z, multiprocessors * per_sm)
        };
        // Each height at its best chunk, so that the shapes timed differ in height.
        let ranked = |k: u32| {
            let mut ranked: Vec<(f64, KernelConfig)> = (24..=32)
                .step_by(2)
                .filter(|h| width * h <= 1024)
                .filter_map(|height| {
                    let block = BlockSize { x: width, y: height };
                    let (c, z) = blocked_chunks(slab.nz)
                        .into_iter()
                        .map(|z| (cost(block, k, z), z))
                        .min_by(|a, b| a.0.total_cmp(&b.0))?;
                    Some((c, KernelConfig { block, ..best }.with_steps_per_pass(k).with_z_chunk(z)))
                })
                .collect();
            ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
            ranked
        };
        let own = cost(best.block, k, best.effective_z_chunk(slab.nz));
        let same_k: Vec<KernelConfig> =
            ranked(k).into_iter().filter(|(c, _)| c * 1.01 < own).map(|(_, shape)| shape).collect();
        let mut shapes = self.runnable(same_k, &[best], model, dims, gpus);
        shapes.truncate(2);
        // The count compares shapes at one k, not across k (it leaves out
        // what an iteration costs whatever its levels, which more levels
        // share): the best-ranked shape of each neighbouring k is timed too
        // unless `--steps-per-pass` fixed k. (On an H100, Karma at 256^3:
        // 32x30 k4 z256 15,315 steps/s against 32x26 k3 z256's 14,837,
        // where the first round's k4 in 32x32 z32 ran 12,821.)
        if self.steps_per_pass == 0 {
            let neighbours =
                [k.saturating_sub(1), k + 1].into_iter().filter(|n| (2..=MAX_STEPS_PER_PASS).contains(n));
            let other_k: Vec<KernelConfig> =
                neighbours.filter_map(|n| ranked(n).into_iter().next().map(|(_, shape)| shape)).collect();
            let mut except = shapes.clone();
            except.push(best);
            shapes.extend(self.runnable(other_k, &except, model, dims, gpus));
        }
        shapes
    }

    /// The kernels of `all` that can step `dims` over `gpus` sub-domains
    /// (the kernel's own checks; over several, halos as deep as its passes,
    /// and through NCCL one slice deep only), each once, none that launches
    /// as one of `except` does: the same kernel, block and steps, and the
    /// same chunk once clamped to a sub-domain's slices (z64 and z32 on 32
    /// slices are one launch).
    fn runnable(
        &self,
        all: Vec<KernelConfig>,
        except: &[KernelConfig],
        model: &ModelInfo,
        dims: GridDims,
        gpus: usize,
    ) -> Vec<KernelConfig> {
        let slices = sub_domain_slices(dims, gpus);
        let launch = |k: &KernelConfig| (k.kind, k.block, k.steps_per_pass, k.effective_z_chunk(slices));
        let nccl = gpus > 1 && self.exchange == ExchangeArg::Nccl;
        let mut seen: Vec<_> = except.iter().map(launch).collect();
        let mut out = Vec::new();
        for kernel in all {
            let depth = fibril_host::multi::halo_depth(&kernel);
            let splittable = gpus == 1
                || (fibril_host::multi::check_splittable(dims, gpus, depth).is_ok() && !(nccl && depth > 1));
            if !seen.contains(&launch(&kernel)) && splittable && kernel.check(model.name, dims).is_ok() {
                seen.push(launch(&kernel));
                out.push(kernel);
            }
        }
        out
    }

    /// The next z-chunk `--kernel tune` tries after a round in which `best`
    /// beat `before` (the same kernel) by its z-chunk: one more doubling or
    /// halving in the direction that helped, while the chunk stays within
    /// a sub-domain's slices. `None` when the chunk did not move, the kernel has
    /// none, `--z-chunk` fixed it, or the grid ends the walk. (At 512^3 the
    /// blocked kernel's recomputed z-halo, 2K planes a chunk, weighs less
    /// the longer the chunk, so the best may lie past 64.)
    pub fn tune_next_chunk(
        &self,
        best: KernelConfig,
        before: KernelConfig,
        model: &ModelInfo,
        dims: GridDims,
        gpus: usize,
    ) -> Option<KernelConfig> {
        let chunked = matches!(best.kind, KernelKind::Blocked | KernelKind::Columns);
        if !chunked || self.z_chunk != 0 || best.kind != before.kind || best.block != before.block {
            return None;
        }
        let slices = sub_domain_slices(dims, gpus);
        let (now, was) = (best.effective_z_chunk(slices), before.effective_z_chunk(slices));
        let next = match now.cmp(&was) {
            std::cmp::Ordering::Greater if now * 2 <= slices => now * 2,
            std::cmp::Ordering::Less if now >= 2 => now / 2,
            _ => return None,
        };
        self.runnable(vec![best.with_z_chunk(next)], &[best, before], model, dims, gpus).pop()
    }
}

/// The most slices a sub-domain of `dims` split over `gpus` owns (the
/// split is balanced): what a z-chunk is clamped to.
fn sub_domain_slices(dims: GridDims, gpus: usize) -> u32 {
    dims.nz.div_ceil(gpus.max(1) as u32)
}

/// The z-chunks the blocked shapes are ranked at on a slab of `nz`
/// slices: powers of two from 16, and the slab cut into 1 to 16 equal
/// chunks (so that a chunk count can fill the last wave: on two H200s a
/// 512^3 part of 256 slices in 32x32 k3 blocks made 800 blocks, 6.06 waves
/// of 132, at z128, and ran 1.88x one GPU's 13 waves where two halves of
/// equal speed would be 2x; docs/history/BENCHMARKS-2026.md, "Two GPUs:
/// halos written by the pass").
fn blocked_chunks(nz: u32) -> Vec<u32> {
    let powers = std::iter::successors(Some(16u32), |z| (*z < nz).then_some(z * 2)).map(|z| z.min(nz));
    let cuts = (1..=16).map(|c| nz.div_ceil(c)).filter(|z| *z >= 16);
    let mut chunks: Vec<u32> = powers.chain(cuts).collect();
    chunks.sort_unstable();
    chunks.dedup();
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_takes_columns_on_one_gpu_where_the_grid_allows_it() {
        let compute = ComputeArgs::default();
        assert_eq!(compute.kernel, KernelArg::Auto);
        let find = |name| fibril_host::models::find(name).unwrap();
        let kind = |model, precision, dims, gpus| {
            compute.kernel_choice().config(find(model), precision, dims, gpus).kind
        };
        let cube = GridDims::new(256, 256, 256);
        assert_eq!(kind("karma", Precision::F32, cube, 1), KernelKind::Columns);
        assert_eq!(kind("fenton_karma", Precision::F32, cube, 1), KernelKind::Columns);
        assert_eq!(kind("karma", Precision::F64, cube, 1), KernelKind::Naive);
        assert_eq!(kind("bocf", Precision::F32, cube, 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, cube, 2), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(250, 256, 256), 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(512, 512, 1), 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(64, 64, 64), 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(128, 128, 128), 1), KernelKind::Columns);
        let named = ComputeArgs { kernel: KernelArg::Csw, ..ComputeArgs::default() };
        let csw = named.kernel_choice().config(find("bocf"), Precision::F64, GridDims::new(8, 8, 8), 1);
        assert_eq!(csw.kind, KernelKind::Csw);
    }

    #[test]
    fn blocked_takes_small_models_and_falls_back_with_a_notice_for_the_ionic_ones() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let cube = GridDims::new(256, 256, 256);
        let blocked = ComputeArgs { kernel: KernelArg::Blocked, steps_per_pass: 3, ..ComputeArgs::default() };
        for name in ["karma", "aliev_panfilov", "mitchell_schaeffer", "fenton_karma", "bocf"] {
            let cfg = blocked.kernel_choice().config(find(name), Precision::F32, cube, 1);
            assert_eq!(cfg.to_string(), "blocked 32x32 k3 z32", "{name}");
            assert_eq!(blocked.fallback_notice(find(name), &cfg), None);
        }
        for name in ["beeler_reuter", "luo_rudy_1991", "ten_tusscher_2006"] {
            let cfg = blocked.kernel_choice().config(find(name), Precision::F32, cube, 1);
            assert_eq!((cfg.kind, cfg.steps_per_pass), (KernelKind::Naive, 1), "{name}");
            cfg.check(name, cube).unwrap();
            let notice = blocked.fallback_notice(find(name), &cfg).unwrap();
            assert!(notice.contains(name) && notice.contains("one step per pass"), "{notice}");
        }
        // Without --steps-per-pass blocked takes 3, the others one.
        let default = ComputeArgs { kernel: KernelArg::Blocked, ..ComputeArgs::default() };
        assert_eq!(
            default.kernel_choice().config(find("karma"), Precision::F32, cube, 1).to_string(),
            "blocked 32x32 k3 z32"
        );
        let naive = ComputeArgs { kernel: KernelArg::Naive, ..ComputeArgs::default() };
        assert_eq!(naive.kernel_choice().config(find("karma"), Precision::F32, cube, 1).steps_per_pass, 1);
        let f64 = blocked.kernel_choice().config(find("bocf"), Precision::F64, cube, 1);
        assert_eq!(f64.to_string(), "blocked 32x12 k3 z32", "f64 kernels take up to 144 registers");
        // A block given is kept, whatever the kernel.
        let given = ComputeArgs { block: Some(BlockSize { x: 64, y: 8 }), ..blocked };
        assert_eq!(
            given.kernel_choice().config(find("karma"), Precision::F32, cube, 1).to_string(),
            "blocked 64x8 k3 z32"
        );
    }

    #[test]
    fn tune_times_every_kernel_that_can_step_the_run_autos_choice_first() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        assert!(tune.tunes() && !ComputeArgs::default().tunes());
        let labels = |compute: &ComputeArgs, model, precision, dims, gpus| -> Vec<String> {
            compute
                .tune_candidates(find(model), precision, dims, gpus)
                .iter()
                .map(|k| k.to_string())
                .collect()
        };
        let cube = GridDims::new(256, 256, 256);
        // Before anything is timed, tune is auto.
        assert_eq!(
            tune.kernel_choice().config(find("karma"), Precision::F32, cube, 1),
            ComputeArgs::default().kernel_choice().config(find("karma"), Precision::F32, cube, 1)
        );
        assert_eq!(
            labels(&tune, "karma", Precision::F32, cube, 1),
            [
                "columns 32x8 z4",
                "naive 32x8",
                "blocked 32x32 k2 z32",
                "blocked 32x32 k3 z32",
                "blocked 32x32 k4 z32"
            ]
        );
        // auto's z-chunk for columns on a small grid, naive first where auto takes it.
        assert_eq!(
            labels(&tune, "karma", Precision::F32, GridDims::new(64, 64, 64), 1)[..2],
            ["naive 32x8", "columns 32x8 z8"]
        );
        // Four local variables: no blocked kernel.
        assert_eq!(
            labels(&tune, "ten_tusscher_2006", Precision::F64, cube, 1),
            ["naive 32x8", "columns 32x8 z4"]
        );
        assert_eq!(labels(&tune, "bocf", Precision::F64, cube, 1)[2], "blocked 32x12 k2 z32");
        // Only the kernels that can step the grid: 2D is naive's alone,
        // columns need nx a multiple of 4.
        assert_eq!(labels(&tune, "karma", Precision::F32, GridDims::new(512, 512, 1), 1), ["naive 32x8"]);
        assert!(
            !labels(&tune, "karma", Precision::F32, GridDims::new(250, 64, 64), 1)
                .iter()
                .any(|k| k.starts_with("columns"))
        );
        // Over sub-domains, passes of k steps need parts of k + 1 slices.
        let thin = GridDims::new(64, 64, 8);
        let split = labels(&tune, "karma", Precision::F32, thin, 2);
        assert!(split.contains(&"blocked 32x32 k3 z32".to_string()), "{split:?}");
        assert!(!split.iter().any(|k| k.contains(" k4 ")), "{split:?}");
        // tune's --steps-per-pass is its blocked candidates': the kernel it
        // starts from takes one step and can run (auto named it would not).
        let k3 = ComputeArgs { steps_per_pass: 3, ..tune.clone() };
        let start = k3.kernel_choice().config(find("karma"), Precision::F32, cube, 1);
        assert_eq!((start.to_string().as_str(), start.check("karma", cube)), ("columns 32x8 z4", Ok(())));
        // Through NCCL, sub-domains take one-slice halos only: no blocked pass of several steps.
        let nccl = ComputeArgs { exchange: ExchangeArg::Nccl, ..tune.clone() };
        let over_nccl = labels(&nccl, "karma", Precision::F32, cube, 2);
        assert!(!over_nccl.iter().any(|k| k.starts_with("blocked")), "{over_nccl:?}");
        assert!(labels(&tune, "karma", Precision::F32, cube, 2).iter().any(|k| k.starts_with("blocked")));
        // What is given is kept: --steps-per-pass limits blocked to it, --block applies to all.
        let given =
            ComputeArgs { steps_per_pass: 3, block: Some(BlockSize { x: 32, y: 16 }), ..tune.clone() };
        assert_eq!(
            labels(&given, "karma", Precision::F32, cube, 1),
            ["naive 32x16", "columns 32x16 z4", "blocked 32x16 k3 z32"]
        );
    }

    #[test]
    fn tune_refines_the_fastest_kernels_chunk_or_block_unless_given() {
        let karma = fibril_host::models::find("karma").unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        let cube = GridDims::new(512, 512, 512);
        let first = |label: &str| {
            tune.tune_candidates(karma, Precision::F32, cube, 1)
                .into_iter()
                .find(|k| k.to_string() == label)
                .unwrap()
        };
        let labels = |compute: &ComputeArgs, best, dims, gpus| -> Vec<String> {
            compute.tune_refinements(best, karma, dims, gpus).iter().map(|k| k.to_string()).collect()
        };
        let blocked = first("blocked 32x32 k3 z32");
        assert_eq!(labels(&tune, blocked, cube, 1), ["blocked 32x32 k3 z16", "blocked 32x32 k3 z64"]);
        // The default chunk (4) is the kernel already timed.
        let columns = first("columns 32x8 z4");
        assert_eq!(labels(&tune, columns, cube, 1), ["columns 32x8 z2", "columns 32x8 z8"]);
        let naive = first("naive 32x8");
        assert_eq!(labels(&tune, naive, cube, 1), ["naive 32x4", "naive 32x16", "naive 64x4"]);
        // What the command line fixed stays fixed.
        let chunk = ComputeArgs { z_chunk: 32, ..tune.clone() };
        assert!(labels(&chunk, blocked, cube, 1).is_empty());
        let block = ComputeArgs { block: Some(BlockSize { x: 32, y: 8 }), ..tune.clone() };
        assert!(labels(&block, naive, cube, 1).is_empty());
        // Only what the grid allows: a sheet has no columns.
        let sheet = GridDims::new(512, 512, 1);
        assert!(labels(&tune, columns, sheet, 1).is_empty());
    }

    #[test]
    fn tune_walks_the_z_chunk_on_in_the_direction_that_helped() {
        let karma = fibril_host::models::find("karma").unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        let cube = GridDims::new(512, 512, 512);
        let blocked = |z| {
            KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y: 32 })
                .with_steps_per_pass(3)
                .with_z_chunk(z)
        };
        let next = |compute: &ComputeArgs, best, before, dims| {
            compute.tune_next_chunk(best, before, karma, dims, 1).map(|k| k.to_string())
        };
        assert_eq!(next(&tune, blocked(64), blocked(0), cube).as_deref(), Some("blocked 32x32 k3 z128"));
        assert_eq!(next(&tune, blocked(16), blocked(32), cube).as_deref(), Some("blocked 32x32 k3 z8"));
        // Not moved, not chunked, fixed by --z-chunk, or past the grid: no walk.
        assert_eq!(next(&tune, blocked(32), blocked(0), cube), None);
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        assert_eq!(next(&tune, naive, naive, cube), None);
        assert_eq!(next(&ComputeArgs { z_chunk: 64, ..tune.clone() }, blocked(64), blocked(32), cube), None);
        assert_eq!(next(&tune, blocked(64), blocked(32), GridDims::new(256, 256, 64)), None);
        // Over two sub-domains of 128 slices each, the walk ends at 128.
        let split = |best, before| tune.tune_next_chunk(best, before, karma, GridDims::new(256, 256, 256), 2);
        assert_eq!(
            split(blocked(64), blocked(32)).map(|k| k.to_string()).as_deref(),
            Some("blocked 32x32 k3 z128")
        );
        assert_eq!(split(blocked(128), blocked(64)), None);
        // Chunks past the slices launch as the whole window: one kernel, timed once.
        let shallow = GridDims::new(256, 256, 32);
        assert!(tune.tune_refinements(blocked(32), karma, shallow, 1).iter().all(|k| k.z_chunk != 64));
        // Another kernel or block: not a walk along z.
        let columns = KernelConfig::new(KernelKind::Columns, BlockSize { x: 32, y: 8 }).with_z_chunk(8);
        assert_eq!(next(&tune, columns, blocked(32), cube), None);
        assert_eq!(next(&tune, columns, columns.with_z_chunk(4), cube).as_deref(), Some("columns 32x8 z16"));
    }

    #[test]
    fn blocked_chunks_cut_the_slab_evenly_as_well_as_in_powers_of_two() {
        let chunks = blocked_chunks(256);
        for z in [16, 32, 64, 128, 256, 86, 52, 43, 37, 29, 26, 24, 22, 20, 19, 18] {
            assert!(chunks.contains(&z), "{z} in {chunks:?}");
        }
        assert!(chunks.windows(2).all(|w| w[0] < w[1]), "sorted, once each: {chunks:?}");
        assert_eq!(blocked_chunks(20), [16, 20]);
        assert_eq!(blocked_chunks(8), [8], "a slab thinner than 16 slices is one chunk");
    }

    #[test]
    fn tune_ranks_blocked_shapes_by_their_waves() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        let cube = GridDims::new(256, 256, 256);
        let blocked = |y, k, z| {
            KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y })
                .with_steps_per_pass(k)
                .with_z_chunk(z)
        };
        let shapes = |compute: &ComputeArgs, best, precision, gpus| -> Vec<String> {
            compute
                .tune_blocked_shapes(best, find("karma"), precision, cube, gpus, 132)
                .iter()
                .map(|k| k.to_string())
                .collect()
        };
        // Karma k = 3 at 256^3 on 132 SMs: 32x30 z43 (10 x 11 tiles in six
        // chunks of 43 slices, the grid cut evenly: 660 blocks, five full
        // waves), then 32x26 (10 x 13 tiles a chunk, full waves at any
        // chunk, so the longest); on an H100 32x26 z64 ran 11,230 steps/s
        // against 32x32 z32's 10,592.
        // Then the best-ranked shape of k = 2 and of k = 4: on an H100 32x30
        // k4 z256 (132 tiles, one full wave) ran 15,315 steps/s against
        // 32x26 k3 z256's 14,837 in the fourth form of the kernel.
        let found = shapes(&tune, blocked(32, 3, 32), Precision::F32, 1);
        assert_eq!(
            found,
            [
                "blocked 32x30 k3 z43",
                "blocked 32x26 k3 z256",
                "blocked 32x28 k2 z43",
                "blocked 32x30 k4 z256"
            ]
        );
        // With `--steps-per-pass` k is the run's: no neighbours.
        let k3 = ComputeArgs { steps_per_pass: 3, ..tune.clone() };
        assert_eq!(
            shapes(&k3, blocked(32, 3, 32), Precision::F32, 1),
            ["blocked 32x30 k3 z43", "blocked 32x26 k3 z256"]
        );
        // Over two GPUs the shapes rank for a part's 128 slices, no chunk
        // beyond them: on two H200s 32x30 k4 z128 ran 25,142 steps/s with
        // the split's graphs, a shape the tune did not try for two GPUs
        // before (it kept 32x32).
        let two = shapes(&tune, blocked(32, 4, 32), Precision::F32, 2);
        assert!(!two.is_empty(), "shapes are ranked for the parts");
        assert!(two.iter().all(|k| !k.contains("z256")), "{two:?}");
        assert!(two.iter().any(|k| k.starts_with("blocked 32x30 k4")), "{two:?}");
        // Nothing for other kernels, f64, or a block or chunk given.
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        assert!(shapes(&tune, naive, Precision::F32, 1).is_empty());
        assert!(shapes(&tune, blocked(32, 3, 32), Precision::F64, 1).is_empty());
        assert!(
            shapes(&ComputeArgs { z_chunk: 32, ..tune.clone() }, blocked(32, 3, 32), Precision::F32, 1)
                .is_empty()
        );
        // A shape already at its best ranks nothing above it at its k:
        // Mitchell-Schaeffer k = 4 32x30 z256 fills one wave; k = 3's best
        // shape (as Karma's) is still timed (k = 5 does not exist).
        let ms = tune.tune_blocked_shapes(
            blocked(30, 4, 256),
            find("mitchell_schaeffer"),
            Precision::F32,
            cube,
            1,
            132,
        );
        let ms: Vec<String> = ms.iter().map(|k| k.to_string()).collect();
        assert_eq!(ms, ["blocked 32x30 k3 z43"]);
    }

    #[test]
    fn columns_climb_deeper_chunks_on_small_grids_unless_told() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let label = |compute: &ComputeArgs, n| {
            compute
                .kernel_choice()
                .config(find("karma"), Precision::F32, GridDims::new(n, n, n), 1)
                .to_string()
        };
        let auto = ComputeArgs::default();
        assert_eq!(label(&auto, 128), "columns 32x8 z8");
        assert_eq!(label(&auto, 160), "columns 32x8 z4");
        assert_eq!(label(&auto, 256), "columns 32x8 z4");
        // Named, columns keep the kernel's default; a chunk given is kept.
        let named = ComputeArgs { kernel: KernelArg::Columns, ..ComputeArgs::default() };
        assert_eq!(label(&named, 128), "columns 32x8 z4");
        let told = ComputeArgs { z_chunk: 2, ..ComputeArgs::default() };
        assert_eq!(label(&told, 128), "columns 32x8 z2");
    }

    #[test]
    fn kernel_options_are_checked_as_a_gpu_would_whatever_the_backend() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let cube = GridDims::new(8, 8, 8);
        let check = |compute: &ComputeArgs, model, dims| {
            compute.check_kernel_options(find(model), Precision::F32, dims).map_err(|e| format!("{e:#}"))
        };
        let cpu = ComputeArgs { backend: BackendArg::Cpu, ..ComputeArgs::default() };
        assert_eq!(check(&cpu, "bocf", cube), Ok(()));
        // The case: refused on the CPU as on a GPU.
        let tower = ComputeArgs { kernel: KernelArg::Tower, steps_per_pass: 9, ..cpu.clone() };
        assert!(check(&tower, "bocf", cube).unwrap_err().contains("--steps-per-pass 9"));
        let tower = ComputeArgs { steps_per_pass: 0, ..tower };
        let why = check(&tower, "bocf", cube).unwrap_err();
        assert!(why.contains("--kernel tower") && why.contains("not for model bocf"), "{why}");
        // Steps per pass for a kernel of one step, a block without tiles.
        let auto_k3 = ComputeArgs { steps_per_pass: 3, ..cpu.clone() };
        assert!(check(&auto_k3, "karma", cube).unwrap_err().contains("--steps-per-pass 3 is not possible"));
        let no_tile = ComputeArgs {
            kernel: KernelArg::Blocked,
            steps_per_pass: 4,
            block: Some(BlockSize { x: 32, y: 4 }),
            ..cpu.clone()
        };
        assert!(check(&no_tile, "karma", cube).unwrap_err().contains("leaves no cells"));
        // A kernel named for a grid it cannot step.
        let csw = ComputeArgs { kernel: KernelArg::Csw, ..cpu.clone() };
        assert!(check(&csw, "karma", GridDims::new(8, 8, 1)).unwrap_err().contains("--kernel naive"));
        // auto leaves a grid to the backend: the CPU steps any shape.
        assert_eq!(check(&cpu, "karma", GridDims::new(1, 1, 70_000)), Ok(()));
        // tune's steps per pass are checked too (it would drop its blocked candidates).
        let tune = ComputeArgs { kernel: KernelArg::Tune, steps_per_pass: 7, ..cpu.clone() };
        assert!(check(&tune, "karma", cube).unwrap_err().contains("--steps-per-pass 7"));
        // What a GPU takes is noted as doing nothing on the CPU.
        assert!(cpu.gpu_only_options().is_empty());
        let given = ComputeArgs {
            kernel: KernelArg::Csw,
            block: Some(BlockSize { x: 64, y: 4 }),
            device: 2,
            exchange: ExchangeArg::Host,
            no_graphs: true,
            ..cpu.clone()
        };
        assert_eq!(
            given.gpu_only_options(),
            ["--kernel csw", "--block 64x4", "--device 2", "--exchange host", "--no-graphs"]
        );
    }
}
