//! `fibril bench`: steps per second after warm-up, as a table and JSON.
//!
//! Each repeat synchronizes before starting and before stopping the clock,
//! and divides by exactly the steps inside the timed region. The memory
//! figure is the compulsory traffic of one step (read and write every
//! variable of every cell once: 2 N values per cell for a model of N
//! variables, 16 bytes for Karma in f32), so "achieved bandwidth" is a
//! lower bound on what the kernel really moves. For `--kernel blocked` it
//! stays the figure of one step (a pass of k steps reads and writes the
//! fields once, 1/k of it per cell-update), a single-step equivalent.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use clap::Args;
use fibril_host::backend::{BlockSize, KernelConfig, KernelKind};
use fibril_host::init::InitialCondition;
use fibril_host::io::write_json_atomic;
use fibril_host::simulation::Mesh;
use fibril_host::{CellModel, Domain, ModelVisitor, Scalar, dispatch};
use serde::Serialize;

use super::args::{self, ComputeArgs, GridArgs, ModelArgs, RankArgs};
use super::select::{Selected, build_solver, check_gpu_counts, check_memory, select};
use super::summary::Throughput;
use super::tune::{Tuning, kernel_for};

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub grid: GridArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub compute: ComputeArgs,
    #[command(flatten)]
    pub ranks: RankArgs,
    /// Timed steps per repeat.
    #[arg(long, default_value_t = 200, value_parser = super::run_args::steps_in_range)]
    pub steps: u64,
    /// Untimed steps before the first repeat.
    #[arg(long, default_value_t = 20, value_parser = warmup_steps)]
    pub warmup: u64,
    /// Timed repeats; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub repeats: u32,
    /// Write the result as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Time every kernel and block size of the paper's experiment on the GPU
    /// (sizes from --sweep-sizes; --steps is then the timed steps at 256^3,
    /// scaled inversely with the cell count for other sizes).
    #[arg(long)]
    pub sweep: bool,
    /// Cube sizes of the sweep.
    #[arg(long, value_delimiter = ',', default_value = "256,512")]
    pub sweep_sizes: Vec<u32>,
    /// z-chunks at which tower-march is timed in the sweep (0 = whole tower).
    #[arg(long, value_delimiter = ',', default_value = "0,8")]
    pub sweep_z_chunks: Vec<u32>,
    /// Block sizes of the sweep.
    #[arg(long, value_delimiter = ',', default_value = "32x4,32x8,64x4,64x8,128x4,128x2,256x1", value_parser = super::args::parse_block)]
    pub sweep_blocks: Vec<BlockSize>,
}

/// One benchmark result; `fibril bench --json` writes exactly this.
#[derive(Debug, Serialize)]
pub struct BenchRecord {
    pub fibril_version: &'static str,
    pub unix_time_s: u64,
    pub backend: String,
    pub device: String,
    pub method: String,
    pub model: &'static str,
    pub precision: String,
    /// "fast" (the table tanh) or "exact" (`--exact-math`), followed by
    /// "+tables" where the model read its rate table (`--rate-tables`).
    pub math: String,
    pub nx: u32,
    pub ny: u32,
    pub nz: u32,
    pub cells: usize,
    pub dt_ms: f64,
    pub warmup_steps: u64,
    pub steps_per_repeat: u64,
    pub repeat_seconds: Vec<f64>,
    pub median_s: f64,
    #[serde(flatten)]
    pub throughput: Throughput,
    /// Compulsory bytes per cell-update: read and write every variable once.
    pub bytes_per_cell_update: usize,
    /// cell_updates_per_s * bytes_per_cell_update, in GB/s (1e9 bytes).
    pub achieved_gb_per_s: f64,
    /// The GPU's device-to-device copy bandwidth (read + write), GB/s,
    /// measured in the same run (GPU runs, first GPU).
    pub copy_gb_per_s: Option<f64>,
    /// achieved_gb_per_s / copy_gb_per_s: the fraction of the memory
    /// roofline of this model's bytes per cell-update.
    pub roofline_fraction: Option<f64>,
    /// GPUs the grid was split over (1 for the CPU and single-GPU runs).
    pub gpus: usize,
    /// steps/s over (gpus x the one-GPU steps/s of the same run), when both were timed.
    pub parallel_efficiency: Option<f64>,
    /// With `--kernel tune`: every candidate's figure and the choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel_tuning: Option<Tuning>,
}

/// The most timed repeats: the median of a thousand is as good as it gets,
/// and a count beyond (a typo) would time for hours.
pub const MAX_REPEATS: u32 = 1000;

/// Untimed steps: 0 up to the most steps a run takes.
fn warmup_steps(text: &str) -> Result<u64, String> {
    let max = fibril_host::time::MAX_STEPS;
    match text.trim().parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("expected a whole number of steps from 0 to {max}, got {text:?}")),
    }
}

/// Refuses a `--json` path that cannot be written (a directory, a missing
/// or read-only directory), before anything is timed: the figures would
/// otherwise be lost at the end.
fn check_writable(path: &std::path::Path) -> anyhow::Result<()> {
    if path.is_dir() {
        bail!("--json {} is a directory; give the path of a file to write", path.display());
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if !dir.is_dir() {
        bail!(
            "--json {}: the directory {} does not exist; create it or give another path",
            path.display(),
            dir.display()
        );
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let probe = dir.join(format!(".{name}.probe-{}", std::process::id()));
    std::fs::File::create_new(&probe).with_context(|| {
        format!("--json {}: cannot write in {}; give a writable path", path.display(), dir.display())
    })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

pub fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.steps == 0 || args.repeats == 0 {
        bail!("--steps and --repeats must be at least 1");
    }
    if args.repeats > MAX_REPEATS {
        bail!("--repeats {}: time at most {MAX_REPEATS} repeats (the median is reported)", args.repeats);
    }
    let domain = args::domain(&args.grid, &args.model)?;
    let precision = args.compute.precision.resolve(domain.model().info());
    if args.sweep && args.compute.tunes() {
        bail!("bench --sweep times every kernel and block itself; drop --kernel tune (or --sweep)");
    }
    // Everything that could refuse the benchmark, before any of it is timed.
    if let Some(path) = &args.json {
        check_writable(path)?;
    }
    if args.sweep {
        for &n in &args.sweep_sizes {
            let mut grid = args.grid.clone();
            (grid.size, grid.nx, grid.ny, grid.nz) = (n, None, None, None);
            args::domain(&grid, &args.model).with_context(|| format!("--sweep-sizes {n}"))?;
        }
        return dispatch(domain.model().info(), precision, Sweep { args: &args, domain: &domain });
    }
    args.compute.check_kernel_options(domain.model().info(), precision, domain.dims())?;
    check_gpu_counts(&args.compute, &args.compute.gpus, &args.ranks)?;
    let mut records = Vec::new();
    let mut root = true;
    for &count in &args.compute.gpus {
        let mut selected = select(&args.compute, count, &args.ranks)?;
        selected.bind_options(&format!(
            "{} {} {} {:?}",
            args.steps, args.warmup, args.repeats, args.compute.gpus
        ));
        let kernel = args.compute.kernel_choice().config(
            domain.model().info(),
            precision,
            domain.dims(),
            selected.gpus(),
        );
        selected.say_kernel_fallback(&args.compute, domain.model().info(), &kernel);
        selected.check_split_kernel(&args.compute, &kernel)?;
        selected.check_tune(&args.compute)?;
        let measure =
            Measure { args: &args, selected: &selected, domain: &domain, kernel, steps: args.steps };
        let mut record = dispatch(domain.model().info(), precision, measure)?;
        // Strong scaling against the one-GPU figure of the same run, if any.
        if let Some(one) = records.iter().find(|r: &&BenchRecord| r.gpus == 1) {
            record.parallel_efficiency =
                Some(record.throughput.steps_per_s / (record.gpus as f64 * one.throughput.steps_per_s));
        }
        if selected.is_root() {
            println!("{}", record.human_line());
            println!("{}", record.parse_line());
        }
        root &= selected.is_root();
        records.push(record);
    }
    if !root {
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.json {
        let written = if records.len() == 1 {
            write_json_atomic(path, &records[0])
        } else {
            write_json_atomic(path, &records)
        };
        written.with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

impl BenchRecord {
    fn human_line(&self) -> String {
        let efficiency = self
            .parallel_efficiency
            .map(|e| format!(", parallel efficiency {:.1}%", 100.0 * e))
            .unwrap_or_default();
        let roofline = match (self.copy_gb_per_s, self.roofline_fraction) {
            (Some(c), Some(f)) => format!(", {:.0}% of the {c:.0} GB/s copy roofline", 100.0 * f),
            _ => String::new(),
        };
        format!(
            "{} {} {} {} {} math {}x{}x{}: median {:.4} s per {} steps -> {:.1} steps/s, {:.3e} cell-updates/s, \
             real-time factor {:.4}, {:.0} GB/s ({} B/cell-update){roofline}{efficiency}",
            self.device,
            self.model,
            self.method,
            self.precision,
            self.math,
            self.nx,
            self.ny,
            self.nz,
            self.median_s,
            self.steps_per_repeat,
            self.throughput.steps_per_s,
            self.throughput.cell_updates_per_s,
            self.throughput.real_time_factor,
            self.achieved_gb_per_s,
            self.bytes_per_cell_update
        )
    }

    /// One `key=value` line for scripts.
    fn parse_line(&self) -> String {
        format!(
            "bench backend={} gpus={} model={} method={} precision={} math={} size={}x{}x{} steps_per_s={:.3} \
             cell_updates_per_s={:.6e} gb_per_s={:.1} roofline={}",
            self.backend,
            self.gpus,
            self.model,
            self.method.replace(' ', ":"),
            self.precision,
            self.math,
            self.nx,
            self.ny,
            self.nz,
            self.throughput.steps_per_s,
            self.throughput.cell_updates_per_s,
            self.achieved_gb_per_s,
            self.roofline_fraction.map_or("-".into(), |f| format!("{f:.3}"))
        )
    }

    /// Seconds for the paper's unit of work, 20,000 steps (1 s at dt = 0.05 ms).
    fn s_per_20k_steps(&self) -> f64 {
        20_000.0 / self.throughput.steps_per_s
    }
}

/// [`measure`] for the model and precision of a run.
struct Measure<'a> {
    args: &'a BenchArgs,
    selected: &'a Selected,
    domain: &'a Domain,
    kernel: KernelConfig,
    steps: u64,
}

impl ModelVisitor for Measure<'_> {
    type Output = anyhow::Result<BenchRecord>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        measure::<M, T>(self.args, self.selected, self.domain, self.kernel, self.steps)
    }
}

/// Times `steps` steps, `args.repeats` times, after `args.warmup` steps,
/// from the planar start (a wave is travelling, so the reaction's
/// branches are exercised as in a real run).
fn measure<M: CellModel, T: Scalar>(
    args: &BenchArgs,
    selected: &Selected,
    domain: &Domain,
    kernel: KernelConfig,
    steps: u64,
) -> anyhow::Result<BenchRecord> {
    check_memory(selected, domain, T::PRECISION, kernel, None)?;
    let initial = InitialCondition::Planar.state::<T>(M::INFO, domain.dims());
    let (kernel, kernel_tuning) =
        kernel_for::<M, T>(selected, &args.compute, kernel, domain, &initial, None)?;
    let mut solver = build_solver::<M, T>(&Mesh::Grid, selected, &args.compute, kernel, domain, &initial)?;
    drop(initial);

    // With several processes, `any_rank` is a barrier: every rank starts
    // and stops the clock when the slowest has finished.
    solver.advance(args.warmup)?;
    solver.synchronize()?;
    solver.any_rank(false)?;
    let mut seconds = Vec::with_capacity(args.repeats as usize);
    for _ in 0..args.repeats {
        let t0 = Instant::now();
        solver.advance(steps)?;
        solver.synchronize()?;
        solver.any_rank(false)?;
        seconds.push(t0.elapsed().as_secs_f64());
    }
    if solver.any_nonfinite()? {
        bail!("the benchmark state became NaN or infinite; the figures would be meaningless (check --dt)");
    }
    let mut sorted = seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let median_s = sorted[sorted.len() / 2];
    let throughput = Throughput::new(steps, median_s, domain.cells(), domain.dt_real_ms());
    let bytes_per_cell_update = 2 * M::INFO.variables.len() * T::BYTES;
    let achieved_gb_per_s = throughput.cell_updates_per_s * bytes_per_cell_update as f64 / 1e9;
    // The DRAM roofline: a copy far larger than the L2 cache (1 GiB, or a
    // quarter of the free memory). Grids whose state fits in L2 (a few
    // MB) can beat it.
    let copy_gb_per_s = match selected {
        Selected::Gpus(gpus) => {
            let bytes = (1usize << 30).min(gpus[0].info().free_bytes as usize / 4);
            Some(gpus[0].copy_bandwidth(bytes, 10)?)
        }
        _ => None,
    };
    let d = domain.dims();
    Ok(BenchRecord {
        fibril_version: env!("CARGO_PKG_VERSION"),
        unix_time_s: SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
        backend: solver.kind().to_string(),
        device: solver.device_name(),
        method: solver.method(),
        model: M::INFO.name,
        precision: T::PRECISION.to_string(),
        math: domain.model().math_name(),
        nx: d.nx,
        ny: d.ny,
        nz: d.nz,
        cells: d.cells(),
        dt_ms: domain.dt_ms(),
        warmup_steps: args.warmup,
        steps_per_repeat: steps,
        repeat_seconds: seconds,
        median_s,
        throughput,
        bytes_per_cell_update,
        achieved_gb_per_s,
        copy_gb_per_s,
        roofline_fraction: copy_gb_per_s.map(|c| achieved_gb_per_s / c),
        gpus: selected.gpus(),
        parallel_efficiency: None,
        kernel_tuning,
    })
}

/// [`sweep`] for the model and precision of the run.
struct Sweep<'a> {
    args: &'a BenchArgs,
    domain: &'a Domain,
}

impl ModelVisitor for Sweep<'_> {
    type Output = anyhow::Result<ExitCode>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        sweep::<M, T>(self.args, self.domain)
    }
}

/// The paper's single-GPU experiment: every kernel and block size at each
/// sweep size, one table and one JSON document (kernels the model does
/// not have are listed as skipped).
fn sweep<M: CellModel, T: Scalar>(args: &BenchArgs, base: &Domain) -> anyhow::Result<ExitCode> {
    let selected = select(&args.compute, args.compute.single_gpu_count()?, &RankArgs::default())?;
    if !matches!(selected, Selected::Gpus(_)) {
        bail!(
            "bench --sweep compares GPU kernels and needs a usable GPU; run it with --backend gpu on a GPU machine"
        );
    }
    let mut records = Vec::new();
    println!(
        "{:>5} {:<13} {:>6} {:>11} {:>13} {:>14} {:>8} {:>9}",
        "size", "kernel", "block", "steps/s", "s/20k steps", "cell-upd/s", "GB/s", "vs csw"
    );
    for &n in &args.sweep_sizes {
        let mut grid = args.grid.clone();
        (grid.size, grid.nx, grid.ny, grid.nz) = (n, None, None, None);
        let domain = args::domain(&grid, &args.model)?;
        debug_assert_eq!(domain.model(), base.model());
        // --steps is the count at 256^3; keep the work per repeat about constant.
        let steps = ((args.steps as f64) * (256f64.powi(3) / domain.cells() as f64)).round().max(10.0) as u64;
        for block in &args.sweep_blocks {
            let mut csw_steps_per_s = None;
            // CSW first, so every other kernel gets its ratio to CSW.
            let mut configs = vec![
                KernelConfig::new(KernelKind::Csw, *block),
                KernelConfig::new(KernelKind::Tower, *block),
            ];
            for &chunk in &args.sweep_z_chunks {
                configs.push(KernelConfig::new(KernelKind::TowerMarch, *block).with_z_chunk(chunk));
            }
            configs.push(KernelConfig::new(KernelKind::Naive, *block));
            configs.push(KernelConfig::new(KernelKind::Columns, *block));
            for cfg in configs {
                let kind = cfg.kind;
                let label = match (kind, cfg.z_chunk) {
                    (KernelKind::TowerMarch, 0) => "tower-march".to_string(),
                    (KernelKind::TowerMarch, z) => format!("tower-march{z}"),
                    _ => kind.name().to_string(),
                };
                let rec = match measure::<M, T>(args, &selected, &domain, cfg, steps) {
                    Ok(rec) => rec,
                    Err(e) => {
                        println!("{n:>5} {label:<13} {:>6}  skipped: {e:#}", block.to_string());
                        continue;
                    }
                };
                if kind == KernelKind::Csw {
                    csw_steps_per_s = Some(rec.throughput.steps_per_s);
                }
                let vs_csw = csw_steps_per_s.map(|c| format!("{:.2}", rec.throughput.steps_per_s / c));
                println!(
                    "{n:>5} {:<13} {:>6} {:>11.1} {:>13.2} {:>14.3e} {:>8.0} {:>9}",
                    label,
                    block.to_string(),
                    rec.throughput.steps_per_s,
                    rec.s_per_20k_steps(),
                    rec.throughput.cell_updates_per_s,
                    rec.achieved_gb_per_s,
                    vs_csw.unwrap_or_else(|| "-".into())
                );
                records.push(SweepRow {
                    size: n,
                    kernel: label.clone(),
                    block: block.to_string(),
                    s_per_20k_steps: rec.s_per_20k_steps(),
                    speedup_vs_csw: csw_steps_per_s.map(|c| rec.throughput.steps_per_s / c),
                    record: rec,
                });
            }
        }
    }
    if let Some(path) = &args.json {
        write_json_atomic(path, &records).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One line of the sweep's JSON.
#[derive(Debug, Serialize)]
struct SweepRow {
    size: u32,
    /// Kernel name; tower-march with a z-chunk is "tower-march8" etc.
    kernel: String,
    block: String,
    /// Seconds per 20,000 steps (the paper's Table 3 unit).
    s_per_20k_steps: f64,
    /// steps/s over CSW's with the same size and block; `null` for CSW
    /// itself or when CSW could not run.
    speedup_vs_csw: Option<f64>,
    #[serde(flatten)]
    record: BenchRecord,
}
