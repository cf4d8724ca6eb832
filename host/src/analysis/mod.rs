//! Analyses of a finished run's outputs, as modellers run them after a
//! simulation: conduction-velocity maps from the activation map
//! ([`cv`]), local cycle length of re-entry ([`cycle`]), and movies of a
//! plane over the snapshots ([`movie`]).
//!
//! They read only the files `fibril run` wrote into its output directory
//! ([`run_dir`]), so they run after the fact, on any machine, and on runs
//! made on a GPU as on the CPU. Each checks its inputs before it computes
//! anything and writes its files atomically into a directory of its own
//! (`RUN_DIR/analysis` by default): the run's own directory and its record
//! of files are left as they are.

pub mod cv;
pub mod cycle;
pub mod error;
pub mod movie;
pub mod output;
pub mod report;
pub mod run_dir;

pub use error::AnalysisError;
pub use run_dir::RunOutputs;
