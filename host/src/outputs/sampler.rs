//! The one trait of a recorded output.

use std::path::Path;

use super::error::OutputError;
use crate::checkpoint::PhaseSample;
use crate::domain::Domain;
use crate::io::OutputDir;
use crate::io::snapshots::WriteError;
use crate::scalar::Scalar;
use crate::solver::{Solver, SolverError};

/// When [`Sampler::save`] is called: beside a checkpoint (the data a
/// resumed run continues from, nothing else) or at the end of the run
/// (the data and its pictures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    BesideCheckpoint,
    AtEnd,
}

/// An output the run loop samples every [`Sampler::every`] steps from the
/// solver, and saves into the run's directory.
pub trait Sampler<T: Scalar> {
    /// Steps between two samples (at least 1); samples fall on the
    /// multiples of it.
    fn every(&self) -> u64;

    /// Takes the sample of step `step` (time `t_ms`).
    fn sample(&mut self, step: u64, t_ms: f64, solver: &mut dyn Solver<T>) -> Result<(), SolverError>;

    /// Writes what was sampled so far into `dir`; returns the names of the
    /// files written.
    fn save(&self, dir: &OutputDir, domain: &Domain, when: Saved) -> Result<Vec<String>, OutputError>;

    /// What a checkpoint keeps of this output besides its files (the phase
    /// memory of the tips); `None` for most outputs.
    fn checkpoint_phase(&self, _solver: &mut dyn Solver<T>) -> Result<Option<PhaseSample>, SolverError> {
        Ok(None)
    }
}

/// Writes the run's file `name` in `dir` with `write`, given its path
/// (recorded as the run's first, so that `--overwrite` finds it).
pub(super) fn write_file(
    dir: &OutputDir,
    name: &str,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<(), WriteError> {
    let path = dir.existing(name);
    dir.file(name).and_then(|p| write(&p)).map_err(|source| WriteError { path, source })
}
