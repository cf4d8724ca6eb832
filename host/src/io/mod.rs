//! Files fibril writes: `.npy` and `.vti` fields, PNG pictures, JSON
//! documents, the output directory.
//!
//! Every file is written to a temporary name, synced and renamed, so a file
//! with its final name is always complete.

pub mod atomic;
pub mod bounded;
pub mod canvas;
pub mod colormap;
pub mod gif;
pub mod image;
pub mod manifest;
pub mod npy;
pub mod output_dir;
pub mod plot;
pub mod queue;
pub mod snapshots;
pub mod vti;
pub mod vti_read;
pub mod vtk_xml;
pub mod vtu;

pub use atomic::{write_atomic, write_json_atomic};
pub use manifest::RunId;
pub use output_dir::{CHECKPOINT_FILE, OutputDir, OutputDirError, ResumeFrom};
