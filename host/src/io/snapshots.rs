//! Snapshot files of a run and their index, `snapshots.json`.

use std::io;
use std::path::PathBuf;

use serde::Serialize;

use crate::fields::Fields;
use crate::io::{npy, output_dir::OutputDir, write_json_atomic};
use crate::scalar::Scalar;

/// One written snapshot, as listed in `snapshots.json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SnapshotRecord {
    pub index: usize,
    pub step: u64,
    pub t_ms: f64,
    /// File names relative to the output directory.
    pub files: Vec<String>,
}

/// Writes `U_000000.npy` (and `v_000000.npy` on request), numbered in
/// order, and rewrites the index after each one so it always lists exactly
/// the complete files, even if the run stops early.
pub struct SnapshotWriter {
    dir: OutputDir,
    save_v: bool,
    records: Vec<SnapshotRecord>,
}

/// An I/O error with the file it concerns.
#[derive(Debug, thiserror::Error)]
#[error("could not write {path}: {source}")]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

impl SnapshotWriter {
    pub fn new(dir: OutputDir, save_v: bool) -> Self {
        Self { dir, save_v, records: Vec::new() }
    }

    pub fn write<T: Scalar>(&mut self, step: u64, t_ms: f64, fields: &Fields<T>) -> Result<(), WriteError> {
        let index = self.records.len();
        let mut files = vec![format!("U_{index:06}.npy")];
        if self.save_v {
            files.push(format!("v_{index:06}.npy"));
        }
        for (name, array) in files.iter().zip([&fields.u, &fields.v]) {
            let path = self.dir.join(name);
            npy::write(&path, array).map_err(|source| WriteError { path, source })?;
        }
        self.records.push(SnapshotRecord { index, step, t_ms, files });
        let path = self.dir.join("snapshots.json");
        write_json_atomic(&path, &self.records).map_err(|source| WriteError { path, source })
    }

    pub fn records(&self) -> &[SnapshotRecord] {
        &self.records
    }

    pub fn dir(&self) -> &OutputDir {
        &self.dir
    }
}
