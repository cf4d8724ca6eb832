//! What a run's snapshots leave behind: the index's records and the error
//! of a file that could not be written.

use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The index of a run's snapshots.
pub const INDEX_FILE: &str = "snapshots.json";

/// One written snapshot, as listed in `snapshots.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SnapshotRecord {
    pub index: usize,
    pub step: u64,
    pub t_ms: f64,
    /// File names relative to the output directory.
    pub files: Vec<String>,
}

/// An I/O error with the file it concerns.
#[derive(Debug, thiserror::Error)]
#[error("could not write {path}: {source}")]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

/// The [`WriteError`] of `path`, for `map_err`.
pub fn at(path: PathBuf) -> impl FnOnce(io::Error) -> WriteError {
    move |source| WriteError { path, source }
}
