//! Snapshot files of a run, their index `snapshots.json`, the formats a
//! snapshot is written in and the activation-time maps.
//!
//! A snapshot format is one file here implementing [`SnapshotFormat`] and
//! one line in [`FORMATS`] (`registry.rs`): the command line's `--format` names, the
//! summary's `formats` and the writer all take them from there.

pub mod format;
pub mod jobs;
pub mod maps;
pub mod npy;
pub mod png;
pub mod record;
pub mod registry;
pub mod vti;
pub mod vtu;
pub mod writer;

pub use format::{FieldRef, Snapshot, SnapshotFormat, Variable};
pub use record::{INDEX_FILE, SnapshotRecord, WriteError};
pub use registry::{FORMATS, Formats, UnknownFormat};
pub use writer::SnapshotWriter;
