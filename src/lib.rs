//! The fibril command line as a library: the embedded PTX and the command
//! line itself (`src/main.rs` only calls it), so that tests and the fuzz
//! targets reach every parser the command line has.

/// PTX of the `kernels-gpu` crate, built by `build.rs` with rustc's NVPTX backend.
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

include!(concat!(env!("OUT_DIR"), "/kernel_names.rs"));

pub mod cli;

/// Bodies of the fuzz targets (see `fuzz/`).
pub mod fuzz;
