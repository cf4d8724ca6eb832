//! What can go wrong reading a run's outputs and writing an analysis of
//! them: every message names the file or option at fault and the fix.

use std::io;
use std::path::PathBuf;

use crate::io::canvas::PlotError;

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error(
        "{dir} is not the output directory of a finished fibril run: it has no {file}; \
         pass the --out directory of `fibril run`"
    )]
    NotARun { dir: PathBuf, file: &'static str },
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("{path} is not a file fibril wrote: {reason}")]
    Malformed { path: PathBuf, reason: String },
    #[error(
        "{path} holds an array of shape {found:?}, but the run's grid is {expected:?} (nz, ny, nx): \
         it is not this run's file; rerun the run or remove the stray file"
    )]
    Shape { path: PathBuf, found: Vec<usize>, expected: [usize; 3] },
    #[error(
        "the run in {dir} ran on a tetrahedral mesh; these analyses work on grids \
         (the mesh's activation.vtu opens in ParaView)"
    )]
    Mesh { dir: PathBuf },
    #[error(
        "the run in {dir} recorded no activation map ({file} is missing); \
         rerun it with --activation-map (or --apd-map)"
    )]
    NoActivation { dir: PathBuf, file: &'static str },
    #[error("the activation map keeps {beats} beat(s), 0 to {}; choose --beat among them", beats - 1)]
    Beat { beat: usize, beats: usize },
    #[error(
        "variable {name:?} is not in the run's snapshots, which hold {saved}; \
         choose one of those, or rerun with --save {name}"
    )]
    NotSaved { name: String, saved: String },
    #[error(
        "the run in {dir} has {found} snapshot(s) of {variable}; {what} needs at least {need}: \
         rerun it with --snapshot-every-ms (a few ms, shorter than the action potential)"
    )]
    TooFewSnapshots { dir: PathBuf, variable: String, found: usize, need: usize, what: &'static str },
    #[error("snapshot {index} (t = {t}) lists no .npy or .vti file of {variable}; rerun with --format npy")]
    NoSnapshotFile { index: usize, t: f64, variable: String },
    #[error("plane z = {z} is outside the grid of {nz} plane(s) along z; choose --z from 0 to {}", nz - 1)]
    PlaneOutside { z: usize, nz: usize },
    #[error("{option} {value} is out of range: {expected}")]
    Option { option: &'static str, value: String, expected: String },
    #[error(
        "no activation threshold: the run's summary records none and model {model:?} is unknown to \
         this fibril; pass --threshold"
    )]
    NoThreshold { model: String },
    #[error("could not write {path}: {source}")]
    Write { path: PathBuf, source: io::Error },
    #[error("drawing {path} failed: {source}")]
    Draw { path: PathBuf, source: PlotError },
}

/// The [`AnalysisError::Read`] of `path`, for `map_err`.
pub(crate) fn reading(path: &std::path::Path) -> impl FnOnce(io::Error) -> AnalysisError + '_ {
    move |source| AnalysisError::Read { path: path.to_path_buf(), source }
}

/// The [`AnalysisError::Write`] of `path`, for `map_err`.
pub(crate) fn writing(path: &std::path::Path) -> impl FnOnce(io::Error) -> AnalysisError + '_ {
    move |source| AnalysisError::Write { path: path.to_path_buf(), source }
}
