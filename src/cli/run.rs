//! `fibril run`: a simulation with snapshots and a summary.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use fibril_host::driver::{self, Outcome, Schedule};
use fibril_host::init::InitialCondition;
use fibril_host::io::snapshots::SnapshotWriter;
use fibril_host::io::{OutputDir, write_json_atomic};
use fibril_host::{Domain, Precision, Scalar};
use indicatif::{ProgressBar, ProgressStyle};

use super::args::{self, ComputeArgs, GridArgs, ModelArgs, ms_to_steps};
use super::select::{Selected, build_solver, check_memory, select};
use super::summary::{RunSummary, Throughput};

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub grid: GridArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub compute: ComputeArgs,
    /// Simulated time in ms (the model's time unit).
    #[arg(long, default_value_t = 100.0, conflicts_with = "steps")]
    pub duration_ms: f64,
    /// Number of time steps (instead of --duration-ms).
    #[arg(long)]
    pub steps: Option<u64>,
    /// Write U every this many ms (and at t = 0); without it only the final state is written.
    #[arg(long)]
    pub snapshot_every_ms: Option<f64>,
    /// Also write the recovery variable v with each snapshot.
    #[arg(long)]
    pub save_v: bool,
    /// Check for NaN/Inf at least every this many steps.
    #[arg(long, default_value_t = 100)]
    pub check_every_steps: u64,
    /// Initial condition.
    #[arg(long, value_enum, default_value_t = InitArg::Planar)]
    pub init: InitArg,
    /// Output directory (created if missing; must be empty unless --overwrite).
    #[arg(long, default_value = "fibril-out")]
    pub out: PathBuf,
    /// Replace fibril's files in a non-empty output directory.
    #[arg(long)]
    pub overwrite: bool,
    /// No progress bar and no final line.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum InitArg {
    /// The paper's planar start (eqs. 7-8): U = 3 for z <= 0.05 nz, v = 0.5.
    Planar,
    /// Resting tissue, U = 0 and v = 0.
    Rest,
}

impl InitArg {
    fn condition(self) -> InitialCondition {
        match self {
            InitArg::Planar => InitialCondition::Planar,
            InitArg::Rest => InitialCondition::Rest,
        }
    }
    fn name(self) -> &'static str {
        match self {
            InitArg::Planar => "planar",
            InitArg::Rest => "rest",
        }
    }
}

/// Everything checked and prepared; nothing simulated yet.
struct Plan {
    domain: Domain,
    schedule: Schedule,
    selected: Selected,
    out: OutputDir,
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let plan = plan(&args)?;
    match Precision::from(args.compute.precision) {
        Precision::F32 => execute::<f32>(&args, plan),
        Precision::F64 => execute::<f64>(&args, plan),
    }
}

/// Validates every input and probes the hardware before any work starts.
fn plan(args: &RunArgs) -> anyhow::Result<Plan> {
    let domain = args::domain(&args.grid, &args.model)?;
    let total_steps = match args.steps {
        Some(0) => anyhow::bail!("--steps must be at least 1"),
        Some(n) => n,
        None => ms_to_steps("--duration-ms", args.duration_ms, domain.dt_ms())?,
    };
    let snapshot_every = args
        .snapshot_every_ms
        .map(|ms| ms_to_steps("--snapshot-every-ms", ms, domain.dt_ms()))
        .transpose()?;
    if args.check_every_steps == 0 {
        anyhow::bail!("--check-every-steps must be at least 1");
    }
    let schedule = Schedule { total_steps, snapshot_every, check_every: args.check_every_steps };
    let kernel = args.compute.kernel_config();
    let precision = Precision::from(args.compute.precision);
    let selected = select(&args.compute, args.compute.single_gpu_count()?)?;
    check_memory(&selected, &domain, precision, kernel)?;
    let out = OutputDir::prepare(&args.out, args.overwrite)?;
    Ok(Plan { domain, schedule, selected, out })
}

fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    // Draws only when stderr is a terminal.
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} steps, {per_sec}, {eta} left",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}

fn execute<T: Scalar>(args: &RunArgs, plan: Plan) -> anyhow::Result<ExitCode> {
    let Plan { domain, schedule, selected, out } = plan;
    let initial = args.init.condition().fields::<T>(domain.dims());
    let mut solver = build_solver(&selected, &args.compute, args.compute.kernel_config(), &domain, &initial)?;
    drop(initial);
    let mut writer = SnapshotWriter::new(out.clone(), args.save_v);
    let bar = progress_bar(schedule.total_steps, args.quiet);
    let report = driver::run(solver.as_mut(), &domain, &schedule, &mut writer, &mut |s| bar.set_position(s))?;
    bar.finish_and_clear();

    let summary = RunSummary {
        fibril_version: env!("CARGO_PKG_VERSION"),
        command: std::env::args().collect(),
        outcome: report.outcome,
        domain: domain.record(),
        initial_condition: args.init.name(),
        backend: solver.kind().to_string(),
        device: solver.device_name(),
        method: solver.method(),
        precision: T::PRECISION.to_string(),
        steps: report.steps_done,
        simulated_ms: report.steps_done as f64 * domain.dt_ms(),
        wall_s: report.stepping_s + report.output_s,
        stepping_s: report.stepping_s,
        output_s: report.output_s,
        throughput: Throughput::new(report.steps_done, report.stepping_s, domain.cells(), domain.dt_ms()),
        snapshots: writer.records().to_vec(),
    };
    let summary_path = out.join("summary.json");
    write_json_atomic(&summary_path, &summary)
        .with_context(|| format!("writing {}", summary_path.display()))?;

    match report.outcome {
        Outcome::Completed => {
            if !args.quiet {
                println!("{}", summary.one_line(&report, &out.path().display().to_string()));
            }
            Ok(ExitCode::SUCCESS)
        }
        Outcome::NonFinite { step, t_ms, last_clean_step } => {
            eprintln!(
                "fibril: error: U became NaN or infinite between step {last_clean_step} and step {step} \
                 (t = {} ms); the run stopped there. {} snapshot(s) written before it are in {} \
                 (summary.json says status \"non_finite\"). Reduce --dt or check the parameters.",
                args::short(t_ms),
                writer.records().len(),
                out.path().display()
            );
            Ok(ExitCode::from(3))
        }
    }
}
