//! The `fibril` command line.

pub mod analyse;
pub mod args;
pub mod bench;
pub mod config;
pub mod error;
pub mod import_cellml;
pub mod info;
pub mod interrupt;
pub mod kernel_options;
pub mod mesh;
pub mod mesh_args;
pub mod models;
pub mod params;
pub mod progress;
pub mod restitution;
pub mod resume;
pub mod run;
pub mod run_args;
pub mod select;
pub mod summary;
pub mod tissue;
pub mod tune;
pub mod tune_cache;
pub mod tuning;

use clap::{Parser, Subcommand};

/// fibril: cardiac electrophysiology with twelve cell models (Karma,
/// Bueno-Orovio-Cherry-Fenton, Aliev-Panfilov, Fenton-Karma,
/// Mitchell-Schaeffer, Beeler-Reuter, Luo-Rudy I, ten Tusscher-Panfilov
/// 2006, pure diffusion and three compiled from CellML: Iyer 2004,
/// Courtemanche 1998, O'Hara-Rudy 2011; `fibril models` lists them,
/// `fibril import-cellml` adds any other) on 3D, 2D and 1D grids, tissue
/// and tetrahedral meshes on NVIDIA GPUs, with Rust kernels and a bit-exact
/// CPU reference.
#[derive(Debug, Parser)]
#[command(name = "fibril", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a simulation (options or a TOML file) and write snapshots,
    /// checkpoints and a summary.
    Run(run_args::RunArgs),
    /// Time steps on one backend and size; print a table and write JSON.
    Bench(bench::BenchArgs),
    /// List CUDA devices and the memory a run (options or a TOML file) needs.
    Info(info::InfoArgs),
    /// List the cell models, or describe one (variables, parameters, presets, units).
    Models(models::ModelsArgs),
    /// Compile a CellML model into a Rust model file of fibril's source and register it.
    ImportCellml(import_cellml::ImportArgs),
    /// APD and CV restitution by S1-S2 or dynamic pacing of a cell or a cable: CSV, plot, JSON.
    Restitution(restitution::RestitutionArgs),
    /// Map conduction velocity (speed and direction) from a run's activation map.
    Cv(analyse::CvArgs),
    /// Map the mean local cycle length of re-entry from a run's snapshots or per-beat maps.
    CycleLength(analyse::CycleArgs),
    /// Make an animated GIF of one plane of a variable over a run's snapshots.
    Movie(analyse::MovieArgs),
}

pub use error::error_text;

/// Runs the parsed command; `matches` are clap's, to tell options given on
/// the command line from defaults.
pub fn main_with(cli: Cli, matches: &clap::ArgMatches) -> anyhow::Result<std::process::ExitCode> {
    let sub = matches.subcommand().map(|(_, m)| m).expect("a subcommand is required");
    match cli.command {
        Command::Run(args) => run::run(args, sub),
        Command::Bench(args) => bench::bench(args),
        Command::Info(args) => info::info(args, sub),
        Command::Models(args) => models::models(args),
        Command::ImportCellml(args) => import_cellml::import_cellml(args),
        Command::Restitution(args) => restitution::restitution(args),
        Command::Cv(args) => analyse::cv(args),
        Command::CycleLength(args) => analyse::cycle_length(args),
        Command::Movie(args) => analyse::movie(args),
    }
}
