//! `fibril bench`: steps per second after warm-up, as a table and JSON.
//!
//! Each repeat synchronizes before starting and before stopping the clock,
//! and divides by exactly the steps inside the timed region. The memory
//! figure is the compulsory traffic of one step (read U and v, write U and
//! v: 4 values per cell), so "achieved bandwidth" is a lower bound on what
//! the kernel really moves.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use clap::Args;
use fibril_host::init::InitialCondition;
use fibril_host::io::write_json_atomic;
use fibril_host::{Precision, Scalar};
use serde::Serialize;

use super::args::{self, ComputeArgs, GridArgs, ModelArgs};
use super::select::{build_solver, check_memory, select};
use super::summary::Throughput;

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub grid: GridArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub compute: ComputeArgs,
    /// Timed steps per repeat.
    #[arg(long, default_value_t = 200)]
    pub steps: u64,
    /// Untimed steps before the first repeat.
    #[arg(long, default_value_t = 20)]
    pub warmup: u64,
    /// Timed repeats; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub repeats: u32,
    /// Write the result as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// One benchmark result; `fibril bench --json` writes exactly this.
#[derive(Debug, Serialize)]
pub struct BenchRecord {
    pub fibril_version: &'static str,
    pub unix_time_s: u64,
    pub backend: String,
    pub device: String,
    pub method: String,
    pub precision: String,
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
    /// Compulsory bytes per cell-update: read U and v, write U and v.
    pub bytes_per_cell_update: usize,
    /// cell_updates_per_s * bytes_per_cell_update, in GB/s (1e9 bytes).
    pub achieved_gb_per_s: f64,
}

pub fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.steps == 0 || args.repeats == 0 {
        bail!("--steps and --repeats must be at least 1");
    }
    let record = match Precision::from(args.compute.precision) {
        Precision::F32 => measure::<f32>(&args)?,
        Precision::F64 => measure::<f64>(&args)?,
    };
    println!(
        "{} {} {} {}x{}x{}: median {:.4} s per {} steps -> {:.1} steps/s, {:.3e} cell-updates/s, \
         real-time factor {:.4}, {:.0} GB/s ({} B/cell-update)",
        record.device,
        record.method,
        record.precision,
        record.nx,
        record.ny,
        record.nz,
        record.median_s,
        record.steps_per_repeat,
        record.throughput.steps_per_s,
        record.throughput.cell_updates_per_s,
        record.throughput.real_time_factor,
        record.achieved_gb_per_s,
        record.bytes_per_cell_update
    );
    println!(
        "bench backend={} method={} precision={} size={}x{}x{} steps_per_s={:.3} cell_updates_per_s={:.6e} gb_per_s={:.1}",
        record.backend,
        record.method,
        record.precision,
        record.nx,
        record.ny,
        record.nz,
        record.throughput.steps_per_s,
        record.throughput.cell_updates_per_s,
        record.achieved_gb_per_s
    );
    if let Some(path) = &args.json {
        write_json_atomic(path, &record).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn measure<T: Scalar>(args: &BenchArgs) -> anyhow::Result<BenchRecord> {
    let domain = args::domain(&args.grid, &args.model)?;
    let kernel = args.compute.kernel.into();
    let selected = select(args.compute.backend, args.compute.device)?;
    check_memory(&selected, &domain, T::PRECISION, kernel, false)?;
    let initial = InitialCondition::Planar.fields::<T>(domain.dims());
    let mut solver = build_solver(&selected, kernel, &domain, &initial)?;
    drop(initial);

    solver.advance(args.warmup)?;
    solver.synchronize()?;
    let mut seconds = Vec::with_capacity(args.repeats as usize);
    for _ in 0..args.repeats {
        let t0 = Instant::now();
        solver.advance(args.steps)?;
        solver.synchronize()?;
        seconds.push(t0.elapsed().as_secs_f64());
    }
    if solver.any_nonfinite()? {
        bail!(
            "the benchmark state became NaN or infinite; the figures would be meaningless (check --dt)"
        );
    }
    let mut sorted = seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let median_s = sorted[sorted.len() / 2];
    let throughput = Throughput::new(args.steps, median_s, domain.cells(), domain.dt_ms());
    let bytes_per_cell_update = 4 * T::BYTES;
    let d = domain.dims();
    Ok(BenchRecord {
        fibril_version: env!("CARGO_PKG_VERSION"),
        unix_time_s: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        backend: solver.kind().to_string(),
        device: solver.device_name(),
        method: solver.method(),
        precision: T::PRECISION.to_string(),
        nx: d.nx,
        ny: d.ny,
        nz: d.nz,
        cells: d.cells(),
        dt_ms: domain.dt_ms(),
        warmup_steps: args.warmup,
        steps_per_repeat: args.steps,
        repeat_seconds: seconds,
        median_s,
        throughput,
        bytes_per_cell_update,
        achieved_gb_per_s: throughput.cell_updates_per_s * bytes_per_cell_update as f64 / 1e9,
    })
}
