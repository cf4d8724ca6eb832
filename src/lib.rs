//! The fibril command line's library half: the embedded PTX and the pieces
//! of the command line that tests exercise directly.

/// PTX of the `kernels-gpu` crate, built by `build.rs` with rustc's NVPTX backend.
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

include!(concat!(env!("OUT_DIR"), "/kernel_names.rs"));
