//! `fibril cv`, `fibril cycle-length` and `fibril movie`: analyses of a
//! finished run's output directory (the library's `analysis` module),
//! written into a directory of their own, `RUN_DIR/analysis` by default.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, ValueEnum};
use fibril_host::analysis::RunOutputs;
use fibril_host::analysis::cv::CvOptions;
use fibril_host::analysis::movie::{self, MovieOptions};
use fibril_host::analysis::report::{self, CvRequest, CycleRequest, CycleSource};
use fibril_host::io::canvas::label;

/// The run directory and where the analysis goes.
#[derive(Debug, Args)]
pub struct RunDirArgs {
    /// The output directory of a `fibril run` (its --out).
    pub run_dir: PathBuf,
    /// Directory for the analysis's files [default: RUN_DIR/analysis].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

impl RunDirArgs {
    fn open(&self) -> anyhow::Result<(RunOutputs, PathBuf)> {
        let run = RunOutputs::open(&self.run_dir)?;
        let out = self.out.clone().unwrap_or_else(|| self.run_dir.join("analysis"));
        Ok((run, out))
    }
}

#[derive(Debug, Args)]
pub struct CvArgs {
    #[command(flatten)]
    pub dirs: RunDirArgs,
    /// Half-width of the fitting window in cells (1: 3 cells a side).
    #[arg(long, default_value_t = 1)]
    pub radius: usize,
    /// Leave out neighbours activated more than this long before or after
    /// a cell (the model's time unit): another wave's front.
    #[arg(long, value_name = "T")]
    pub max_dt: Option<f64>,
    /// With a per-beat map (--beats N), the beat to map: 0 the oldest kept
    /// [default: the latest].
    #[arg(long)]
    pub beat: Option<usize>,
}

/// `fibril cv RUN_DIR`.
pub fn cv(args: CvArgs) -> anyhow::Result<ExitCode> {
    let (run, out) = args.dirs.open()?;
    let request =
        CvRequest { options: CvOptions { radius: args.radius, max_dt: args.max_dt }, beat: args.beat };
    let r = report::cv(&run, &request, &out)?;
    println!(
        "fibril: conduction velocity of {} of {} cells: median {} {}, mean {}, 5th-95th percentile {} to {}; \
         files in {}: {}",
        r.speed.cells,
        r.cells,
        label(r.speed.median),
        r.speed_unit,
        label(r.speed.mean),
        label(r.speed.p5),
        label(r.speed.p95),
        out.display(),
        r.files.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

/// Where `fibril cycle-length` reads activation times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SourceArg {
    /// The per-beat map when the run kept one (--beats N), else the snapshots.
    Auto,
    /// The per-beat activation map: the step's resolution.
    Beats,
    /// Threshold crossings between snapshots: the snapshot interval's resolution.
    Snapshots,
}

#[derive(Debug, Args)]
pub struct CycleArgs {
    #[command(flatten)]
    pub dirs: RunDirArgs,
    #[arg(long, value_enum, default_value_t = SourceArg::Auto)]
    pub source: SourceArg,
    /// Activation threshold [default: the run's activation threshold, else the model's].
    #[arg(long)]
    pub threshold: Option<f64>,
    /// Snapshot variable whose upward crossings count [default: the first saved, the potential].
    #[arg(long)]
    pub variable: Option<String>,
    /// Count only activations from this time on (the model's time unit):
    /// past the protocol's start, for a settled re-entry.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub from: Option<f64>,
}

/// `fibril cycle-length RUN_DIR`.
pub fn cycle_length(args: CycleArgs) -> anyhow::Result<ExitCode> {
    let (run, out) = args.dirs.open()?;
    let source = match args.source {
        SourceArg::Auto => CycleSource::Auto,
        SourceArg::Beats => CycleSource::Beats,
        SourceArg::Snapshots => CycleSource::Snapshots,
    };
    let request =
        CycleRequest { source, threshold: args.threshold, variable: args.variable, from: args.from };
    let r = report::cycle_length(&run, &request, &out)?;
    println!(
        "fibril: mean cycle length of {} cells activated twice or more: median {} {t}, 5th-95th percentile \
         {} to {}; time resolution {} {t} ({} {}); files in {}: {}",
        r.cycle_length.cells,
        label(r.cycle_length.median),
        label(r.cycle_length.p5),
        label(r.cycle_length.p95),
        label(r.time_resolution),
        r.samples,
        if r.source == CycleSource::Beats { "beats" } else { "snapshots" },
        out.display(),
        r.files.join(", "),
        t = r.time_unit,
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, Args)]
pub struct MovieArgs {
    #[command(flatten)]
    pub dirs: RunDirArgs,
    /// The saved variable to show [default: the first saved, the potential].
    #[arg(long)]
    pub variable: Option<String>,
    /// The plane z = Z of a volume [default: the middle plane].
    #[arg(long)]
    pub z: Option<usize>,
    /// Frames per second (0.5 to 50).
    #[arg(long, default_value_t = 10.0)]
    pub fps: f64,
    /// Make a frame of every N-th snapshot.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub every: usize,
    /// Colour range LO HI [default: the variable's, as the PNG snapshots].
    #[arg(long, num_args = 2, value_names = ["LO", "HI"], allow_negative_numbers = true)]
    pub range: Option<Vec<f64>>,
    /// Only the snapshots from this time on (the model's time unit).
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub from: Option<f64>,
    /// Only the snapshots up to this time.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub to: Option<f64>,
    /// File name of the movie in the output directory [default: VARIABLE_zZ.gif].
    #[arg(long, value_name = "FILE")]
    pub name: Option<String>,
}

/// `fibril movie RUN_DIR`.
pub fn movie(args: MovieArgs) -> anyhow::Result<ExitCode> {
    let (run, out) = args.dirs.open()?;
    let options = MovieOptions {
        variable: args.variable,
        z: args.z,
        frames_per_s: args.fps,
        every: args.every,
        range: args.range.map(|r| (r[0], r[1])),
        from: args.from,
        to: args.to,
    };
    let plan = movie::plan(&run, &options)?;
    let name = args.name.unwrap_or_else(|| format!("{}_z{}.gif", plan.variable, plan.z));
    anyhow::ensure!(
        name.ends_with(".gif") && Path::new(&name).file_name().is_some_and(|f| f == name.as_str()),
        "--name {name:?} is not a file name ending in .gif; give one such as U_movie.gif (--out chooses the directory)"
    );
    std::fs::create_dir_all(&out)
        .with_context(|| format!("cannot create {}; choose another --out", out.display()))?;
    let path = out.join(&name);
    let frames = movie::write(&run, &plan, &path)?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "fibril: {frames} frame(s) of {} in the plane z = {}, {} {} to {} {}, at {} frames/s: {} ({:.1} MB)",
        plan.variable,
        plan.z,
        label(plan.frames[0].0),
        run.time_unit,
        label(plan.frames[plan.frames.len() - 1].0),
        run.time_unit,
        label(args.fps),
        path.display(),
        bytes as f64 / 1e6
    );
    Ok(ExitCode::SUCCESS)
}
