//! `--kernel tune`: the fastest kernel for this run, timed on its GPU.
//!
//! Which kernel is fastest depends on the device as much as on the model
//! and the grid: on an H100 the blocked kernel steps Mitchell-Schaeffer
//! 1.37x faster than one step per pass at 256^3 and Karma 1.15x at 512^3,
//! while on an H200, whose memory is faster, one step per pass wins for
//! both but Mitchell-Schaeffer (docs/history/BENCHMARKS-2026.md, "The third form").
//! A rule cannot know that; a moment of timing can. Every kernel gives the
//! same bits, so the choice changes the speed and nothing else.
//!
//! The first round times the kernels (`ComputeArgs::tune_candidates`),
//! a second the settings around the fastest of them: its z-chunk or block
//! (`ComputeArgs::tune_refinements`); where a z-chunk step helped, the
//! walk goes on in its direction (`ComputeArgs::tune_next_chunk`); a
//! blocked winner in f32 is last tried in the two shapes (block height,
//! z-chunk) whose waves a count ranks best (`ComputeArgs::tune_blocked_shapes`).
//! The fastest blocked kernel of the first round is refined the same way
//! when it came within `SEED_SHARE` of the fastest.
//!
//! Each candidate is built from the run's own starting state on the
//! selected GPUs, stepped until a stretch of steps takes
//! `STRETCH_S`, then timed over `REPEATS` such stretches (the best
//! counts: noise only slows a stretch down), and dropped before the next
//! is built, so the GPU holds one candidate's fields at a time. The
//! fields the candidates reach are thrown away; the run starts from the
//! state it had.

use std::time::Instant;

use anyhow::Context;
use fibril_host::backend::{GpuDevice, KernelConfig, KernelKind};
use fibril_host::simulation::Mesh;

use fibril_host::events::recording::Recording;
use fibril_host::{CellModel, Domain, GridDims, ModelInfo, Precision, Scalar, State};

use super::args::ComputeArgs;
use super::select::{Selected, build_solver, check_memory};
use super::tune_cache::{self, DeviceKey, TuneKey};
pub use super::tuning::{FromCache, Timed, Tuning};

/// The shortest timed stretch of steps, seconds: long enough that the
/// clock and the host's enqueueing are small next to it.
const STRETCH_S: f64 = 0.04;

/// How much faster than auto's choice another kernel must be in the
/// tuning to be taken. Figures closer than this are noise on a shared
/// machine: on an H200 a columns chunk 0.1% faster in the tuning was 2.8%
/// slower in the benchmark that followed (docs/history/BENCHMARKS-2026.md,
/// "`--kernel tune`"), and auto's choice is the one whose speed is known.
pub const MARGIN: f64 = 1.02;

/// Timed stretches per candidate (after the ones that find the length).
const REPEATS: usize = 3;

/// The most steps one stretch takes, so that a tiny grid does not keep the
/// search for a long stretch going for ever.
const MAX_STRETCH_STEPS: u64 = 1 << 20;

/// The kernel a run or benchmark takes on `selected`: `kernel` (auto's
/// or the one named), or with `--kernel tune` on this process's GPUs the
/// one `tune` finds, with its figures (its report printed), or the one
/// the tune cache keeps for this run ([`tune_cache`]; timed again with
/// `--retune`, and kept after timing). A run that records maps
/// (`recording`) launches every step itself, without graphs, so its
/// candidates are timed without graphs too (though without the
/// recorder's work and without stimuli), and each must fit with the maps.
pub fn kernel_for<M: CellModel, T: Scalar>(
    selected: &Selected,
    compute: &ComputeArgs,
    kernel: KernelConfig,
    domain: &Domain,
    initial: &State<T>,
    recording: Option<&Recording>,
) -> anyhow::Result<(KernelConfig, Option<Tuning>)> {
    let Selected::Gpus(devices) = selected else { return Ok((kernel, None)) };
    if !compute.tunes() {
        return Ok((kernel, None));
    }
    let timed_as = ComputeArgs { no_graphs: compute.no_graphs || recording.is_some(), ..compute.clone() };
    let cache = tune_cache::location()
        .map(|path| (path, cache_key(devices, &timed_as, domain, T::PRECISION, recording.is_some())));
    if let Some((path, key)) = &cache
        && !compute.retune
    {
        match tune_cache::lookup(path, key) {
            Ok(Some(hit)) if check_memory(selected, domain, T::PRECISION, hit.kernel, recording).is_ok() => {
                let from = FromCache {
                    file: path.display().to_string(),
                    timed_at: tune_cache::utc_text(hit.timed_at_unix_s),
                };
                let found = Tuning { from_cache: Some(from), ..hit.tuning };
                eprintln!("{}", found.report());
                return Ok((hit.kernel, Some(found)));
            }
            // Kept, but it does not fit beside this run's maps now: time.
            Ok(_) => {}
            Err(why) => eprintln!("fibril: {why}"),
        }
    }
    let (chosen, found) = tune::<M, T>(selected, &timed_as, domain, initial, recording)?;
    eprintln!("{}", found.report());
    if let Some((path, key)) = cache {
        match tune_cache::store(&path, key, chosen, &found) {
            Ok(()) => eprintln!(
                "fibril: kept in {}: later runs of this model, grid and GPU take it without timing \
                 (--retune times again; {}=off keeps nothing)",
                path.display(),
                tune_cache::ENV
            ),
            Err(e) => eprintln!(
                "fibril: the tuning could not be kept in {}: {e} (set {} to a writable file, or to off)",
                path.display(),
                tune_cache::ENV
            ),
        }
    }
    Ok((chosen, Some(found)))
}

/// The tune cache's key of a run: this build, `devices` (one per
/// sub-domain, and which of them are one GPU), the model with its
/// parameters and math, the precision, the grid and the options (as
/// `compute` times them) that bound or time the search.
fn cache_key(
    devices: &[GpuDevice],
    compute: &ComputeArgs,
    domain: &Domain,
    precision: Precision,
    maps: bool,
) -> TuneKey {
    let model = domain.model();
    let dims = domain.dims();
    let block = compute.block.map_or("default".to_string(), |b| b.to_string());
    let options = format!(
        "block {block}, z-chunk {}, steps per pass {}, graphs {}, programmatic edges {}, exchange {:?}, \
         overlap {}, maps {}",
        compute.z_chunk,
        compute.steps_per_pass,
        !compute.no_graphs,
        !compute.no_pdl,
        compute.exchange,
        !compute.no_overlap,
        maps
    );
    TuneKey {
        fibril: env!("CARGO_PKG_VERSION").to_string(),
        kernels: crate::PTX_FINGERPRINT.to_string(),
        devices: devices.iter().map(|d| DeviceKey::from(d.info())).collect(),
        placement: tune_cache::placement(&devices.iter().map(|d| d.info().ordinal).collect::<Vec<_>>()),
        model: model.name().to_string(),
        parameters: model.values().iter().map(|&x| tune_cache::bits(x)).collect(),
        math: model.math_name(),
        precision: precision.to_string(),
        dims: [dims.nx, dims.ny, dims.nz],
        options,
    }
}

/// Times the candidates on `selected` from `initial` and returns the one
/// to take with the figures; each candidate must fit in GPU memory with
/// the run's maps (`recording`). Needs one process and a GPU (the caller
/// checks). A candidate that fails is skipped with its reason; a failure
/// that leaves the GPU's context unusable (an illegal address: a bug)
/// fails the candidates after it and then the run, with CUDA's error.
fn tune<M: CellModel, T: Scalar>(
    selected: &Selected,
    compute: &ComputeArgs,
    domain: &Domain,
    initial: &State<T>,
    recording: Option<&Recording>,
) -> anyhow::Result<(KernelConfig, Tuning)> {
    let started = Instant::now();
    let info = domain.model().info();
    let (dims, gpus) = (domain.dims(), selected.gpus());
    eprintln!(
        "fibril: --kernel tune: timing the kernels on {}x{}x{} (each built from the run's start; a few seconds, \
         about a minute at 1024^3 on an H100)",
        dims.nx, dims.ny, dims.nz
    );
    let multiprocessors = match selected {
        Selected::Gpus(devices) => Some(devices[0].info().multiprocessors),
        _ => None,
    };
    let space = Space { compute, model: info, precision: T::PRECISION, dims, gpus, multiprocessors };
    let (timings, timed) = search(&space, |kernel| {
        check_memory(selected, domain, T::PRECISION, kernel, recording)?;
        time_one::<M, T>(selected, compute, kernel, domain, initial)
    });
    // Before anything is timed, tune's kernel is auto's.
    let rule = compute.kernel_choice().config(info, T::PRECISION, dims, gpus);
    let Some(chosen) = choose(&timed, rule) else {
        let why: Vec<String> = timings
            .iter()
            .map(|t| format!("{}: {}", t.kernel, t.skipped.as_deref().unwrap_or("?")))
            .collect();
        anyhow::bail!(
            "--kernel tune could build none of its kernels ({}); name one with --kernel",
            why.join("; ")
        );
    };
    let tuning = Tuning {
        chosen: chosen.to_string(),
        rule: rule.to_string(),
        timings,
        seconds: started.elapsed().as_secs_f64(),
        from_cache: None,
    };
    Ok((chosen, tuning))
}

/// A blocked kernel of the first round at least this share of the
/// fastest's speed is refined too: its chunk walk can overtake (diffusion on
/// an H100: blocked k4 z32 at 0.998 of columns in the first round, 1.17x
/// columns at z256).
const SEED_SHARE: f64 = 0.85;

/// What a tuning may try: the command line's kernel options, and the run's
/// model, precision, grid, sub-domains and SMs.
struct Space<'a> {
    compute: &'a ComputeArgs,
    model: &'a ModelInfo,
    precision: Precision,
    dims: GridDims,
    gpus: usize,
    multiprocessors: Option<u32>,
}

/// The kernels `space` holds, timed by `measure` (steps per second, or
/// why the kernel could not run): the first round, then the settings
/// around the fastest, and around the fastest blocked kernel where it came
/// within [`SEED_SHARE`]. Returns every figure (failures with their reason)
/// and the kernels timed with theirs.
fn search(
    space: &Space,
    measure: impl FnMut(KernelConfig) -> anyhow::Result<f64>,
) -> (Vec<Timed>, Vec<(KernelConfig, f64)>) {
    let mut timer = Timer { space, measure, timings: Vec::new(), timed: Vec::new() };
    let (compute, model, dims, gpus) = (space.compute, space.model, space.dims, space.gpus);
    if let Some((fastest, top)) = timer.time(compute.tune_candidates(model, space.precision, dims, gpus)) {
        let mut seeds = vec![fastest];
        let blocked = timer.timed.iter().filter(|(k, _)| k.kind == KernelKind::Blocked);
        if let Some(&(kernel, figure)) = blocked.max_by(|a, b| a.1.total_cmp(&b.1))
            && kernel != fastest
            && figure >= SEED_SHARE * top
        {
            seeds.push(kernel);
        }
        for seed in seeds {
            timer.refine(seed);
        }
    }
    (timer.timings, timer.timed)
}

/// The candidates timed so far, and how to time more.
struct Timer<'a, F> {
    space: &'a Space<'a>,
    measure: F,
    timings: Vec<Timed>,
    timed: Vec<(KernelConfig, f64)>,
}

impl<F: FnMut(KernelConfig) -> anyhow::Result<f64>> Timer<'_, F> {
    /// Times every kernel of `kernels` not timed yet (a failure to build
    /// one is kept as its reason) and returns the fastest of them all,
    /// those timed before included.
    fn time(&mut self, kernels: Vec<KernelConfig>) -> Option<(KernelConfig, f64)> {
        for kernel in &kernels {
            let label = kernel.to_string();
            if self.timings.iter().any(|t| t.kernel == label) {
                continue;
            }
            let (steps_per_s, skipped) = match (self.measure)(*kernel) {
                Ok(v) => (Some(v), None),
                Err(e) => (None, Some(format!("{e:#}"))),
            };
            if let Some(v) = steps_per_s {
                self.timed.push((*kernel, v));
            }
            self.timings.push(Timed { kernel: label, steps_per_s, skipped });
        }
        kernels.iter().filter_map(|k| self.figure(*k).map(|v| (*k, v))).max_by(|a, b| a.1.total_cmp(&b.1))
    }

    fn figure(&self, kernel: KernelConfig) -> Option<f64> {
        self.timed.iter().find(|(k, _)| *k == kernel).map(|&(_, v)| v)
    }

    /// The settings around `seed` (timed): its neighbours, then the z-chunk
    /// walked on while a step helped, then, for a blocked kernel, the
    /// shapes whose waves rank best.
    fn refine(&mut self, seed: KernelConfig) {
        let Space { compute, model, precision, dims, gpus, multiprocessors } = *self.space;
        let mut best = seed;
        if let Some((k, _)) =
            self.time([vec![seed], compute.tune_refinements(seed, model, dims, gpus)].concat())
        {
            best = k;
        }
        let mut before = seed;
        while let Some(next) = compute.tune_next_chunk(best, before, model, dims, gpus) {
            match self.time(vec![best, next]) {
                Some((k, _)) if k == next => (before, best) = (best, next),
                _ => break, // not better (or not timed): the walk ends
            }
        }
        if let Some(sms) = multiprocessors {
            self.time(compute.tune_blocked_shapes(best, model, precision, dims, gpus, sms));
        }
    }
}

/// The kernel to take from the timed ones: the fastest, unless `rule`
/// (auto's choice) was timed and the fastest beats it by less than
/// [`MARGIN`].
fn choose(timed: &[(KernelConfig, f64)], rule: KernelConfig) -> Option<KernelConfig> {
    let &(fastest, top) = timed.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let label = rule.to_string();
    match timed.iter().find(|(k, _)| k.to_string() == label) {
        Some(&(rule, figure)) if top < figure * MARGIN => Some(rule),
        _ => Some(fastest),
    }
}

/// One candidate's steps per second: built, warmed (its first stretches
/// find a length of [`STRETCH_S`] and capture what it replays), then the
/// best of [`REPEATS`] stretches of that length.
fn time_one<M: CellModel, T: Scalar>(
    selected: &Selected,
    compute: &ComputeArgs,
    kernel: KernelConfig,
    domain: &Domain,
    initial: &State<T>,
) -> anyhow::Result<f64> {
    let mut solver = build_solver::<M, T>(&Mesh::Grid, selected, compute, kernel, domain, initial)?;
    let mut stretch = |steps: u64| -> anyhow::Result<f64> {
        let t0 = Instant::now();
        solver.advance(steps)?;
        solver.synchronize()?;
        Ok(t0.elapsed().as_secs_f64())
    };
    stretch(4).context("first steps")?;
    let mut steps = 16u64;
    loop {
        let s = stretch(steps)?;
        if s >= STRETCH_S || steps >= MAX_STRETCH_STEPS {
            break;
        }
        // Aim past the target (at least double, at most 16x) so few tries find it.
        let aim = (steps as f64 * 1.25 * STRETCH_S / s.max(1e-6)).ceil() as u64;
        steps = aim.clamp(2 * steps, 16 * steps).min(MAX_STRETCH_STEPS);
    }
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        best = best.min(stretch(steps)?);
    }
    Ok(steps as f64 / best)
}

impl Tuning {
    /// The lines a run prints: every candidate's figure and the choice.
    pub fn report(&self) -> String {
        let why = if self.chosen == self.rule {
            format!(" (auto's; none was {:.0}% faster)", (MARGIN - 1.0) * 100.0)
        } else {
            String::new()
        };
        let timed = self.timings.iter().filter(|t| t.steps_per_s.is_some()).count();
        let mut lines = vec![match &self.from_cache {
            None => format!(
                "fibril: --kernel tune timed {timed} kernels in {:.1} s; taking {}{why}",
                self.seconds, self.chosen
            ),
            Some(c) => format!(
                "fibril: --kernel tune: taking {}{why}, as timed on this GPU on {} ({timed} kernels; kept in {}; \
                 --retune times again)",
                self.chosen, c.timed_at, c.file
            ),
        }];
        for t in &self.timings {
            lines.push(match (t.steps_per_s, &t.skipped) {
                (Some(v), _) => format!("  {:<28} {v:>12.0} steps/s", t.kernel),
                (None, why) => format!("  {:<28} skipped: {}", t.kernel, why.as_deref().unwrap_or("")),
            });
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use fibril_host::backend::BlockSize;

    use super::super::args::KernelArg;
    use super::*;

    fn kernel(kind: KernelKind, z_chunk: u32) -> KernelConfig {
        KernelConfig::new(kind, BlockSize { x: 32, y: 8 }).with_z_chunk(z_chunk)
    }

    /// A search against a table of figures (steps/s by label; anything
    /// else 1,000, and `fails` cannot be built), as `tune` would run it on
    /// one GPU of 132 SMs at 256^3 in f32.
    fn search_table(
        model: &str,
        table: &[(&str, f64)],
        fails: &str,
    ) -> (Vec<Timed>, Option<KernelConfig>, Vec<String>) {
        let compute = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        let model = fibril_host::models::find(model).unwrap();
        let dims = GridDims::new(256, 256, 256);
        let space = Space {
            compute: &compute,
            model,
            precision: Precision::F32,
            dims,
            gpus: 1,
            multiprocessors: Some(132),
        };
        let mut asked = Vec::new();
        let (timings, timed) = search(&space, |k| {
            let label = k.to_string();
            asked.push(label.clone());
            if label == fails {
                anyhow::bail!("out of registers");
            }
            Ok(table.iter().find(|(l, _)| *l == label).map_or(1_000.0, |&(_, v)| v))
        });
        let rule = ComputeArgs::default().kernel_choice().config(model, Precision::F32, dims, 1);
        (timings, choose(&timed, rule), asked)
    }

    #[test]
    fn a_close_blocked_kernel_is_walked_too_and_can_win() {
        // Diffusion on an H100 (docs/history/BENCHMARKS-2026.md): blocked k4 z32 just
        // behind columns in the first round, far ahead at z256.
        let table = [
            ("columns 32x8 z4", 21_000.0),
            ("naive 32x8", 14_128.0),
            ("blocked 32x32 k2 z32", 14_752.0),
            ("blocked 32x32 k3 z32", 20_098.0),
            ("blocked 32x32 k4 z32", 20_967.0),
            ("columns 32x8 z2", 20_357.0),
            ("columns 32x8 z8", 19_956.0),
            ("blocked 32x32 k4 z16", 18_826.0),
            ("blocked 32x32 k4 z64", 22_947.0),
            ("blocked 32x32 k4 z128", 24_006.0),
            ("blocked 32x32 k4 z256", 24_489.0),
        ];
        let (timings, chosen, asked) = search_table("diffusion", &table, "");
        assert_eq!(chosen.unwrap().to_string(), "blocked 32x32 k4 z256");
        // The walk went 32 -> 64 -> 128 -> 256 and stopped at the grid's end.
        let walk: Vec<&str> =
            asked.iter().map(String::as_str).filter(|l| l.starts_with("blocked 32x32 k4")).collect();
        assert_eq!(
            walk,
            [
                "blocked 32x32 k4 z32",
                "blocked 32x32 k4 z16",
                "blocked 32x32 k4 z64",
                "blocked 32x32 k4 z128",
                "blocked 32x32 k4 z256"
            ]
        );
        // Nothing timed twice; every figure reported.
        let mut unique = asked.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), asked.len(), "{asked:?}");
        assert_eq!(timings.len(), asked.len());
    }

    #[test]
    fn a_far_blocked_kernel_is_not_walked_and_failures_are_kept() {
        // Karma on an H200: blocked at 0.78 of columns; one kernel cannot be built.
        let table =
            [("columns 32x8 z4", 13_521.0), ("naive 32x8", 10_683.0), ("blocked 32x32 k3 z32", 10_580.0)];
        let (timings, chosen, asked) = search_table("karma", &table, "blocked 32x32 k4 z32");
        assert_eq!(chosen.unwrap().to_string(), "columns 32x8 z4");
        assert!(!asked.iter().any(|l| l.contains("z64") || l.contains("z16")), "{asked:?}");
        let failed = timings.iter().find(|t| t.kernel == "blocked 32x32 k4 z32").unwrap();
        assert_eq!((failed.steps_per_s, failed.skipped.as_deref()), (None, Some("out of registers")));
    }

    #[test]
    fn auto_is_kept_unless_another_is_clearly_faster() {
        let (auto, naive, z2) =
            (kernel(KernelKind::Columns, 0), kernel(KernelKind::Naive, 0), kernel(KernelKind::Columns, 2));
        // Within the margin: auto's, even second or third.
        assert_eq!(choose(&[(auto, 100.0), (naive, 90.0), (z2, 101.9)], auto), Some(auto));
        // Beyond it: the fastest.
        assert_eq!(choose(&[(auto, 100.0), (naive, 90.0), (z2, 102.1)], auto), Some(z2));
        // auto's choice not timed (it could not run): the fastest.
        assert_eq!(choose(&[(naive, 90.0), (z2, 91.0)], auto), Some(z2));
        // auto's choice named with its default chunk is the same kernel.
        assert_eq!(
            choose(&[(kernel(KernelKind::Columns, 4), 100.0), (z2, 101.0)], auto).unwrap().to_string(),
            auto.to_string()
        );
        assert_eq!(choose(&[], auto), None);
    }
}
