//! The `fibril` command line.

pub mod args;
pub mod bench;
pub mod info;
pub mod run;
pub mod select;
pub mod summary;

use clap::{Parser, Subcommand};

/// fibril: 3D cardiac electrophysiology (Karma model) on NVIDIA GPUs,
/// with Rust kernels and a bit-exact CPU reference.
#[derive(Debug, Parser)]
#[command(name = "fibril", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a simulation and write snapshots and a summary.
    Run(run::RunArgs),
    /// Time steps on one backend and size; print a table and write JSON.
    Bench(bench::BenchArgs),
    /// List CUDA devices and the memory a grid needs.
    Info(info::InfoArgs),
}

pub fn main_with(cli: Cli) -> anyhow::Result<std::process::ExitCode> {
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Bench(args) => bench::bench(args),
        Command::Info(args) => info::info(args),
    }
}
