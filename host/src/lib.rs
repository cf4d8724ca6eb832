//! fibril's host library: the simulation domain, the CPU and GPU backends
//! behind one [`Solver`](backend::Solver) interface, the run driver and the
//! output formats.
//!
//! The numbers themselves (model, stencil, index arithmetic) come from the
//! `kernels-gpu` crate, shared with the GPU kernels.

pub mod activation;
pub mod backend;
pub mod checkpoint;
pub mod domain;
pub mod driver;
pub mod fields;
pub mod init;
pub mod io;
pub mod layout;
pub mod memory;
pub mod multi;
pub mod params;
pub mod protocol;
pub mod scalar;
pub mod stimulus;

pub use domain::{Domain, DomainError};
pub use fields::Fields;
pub use kernels_gpu::{GridDims, Reaction};
pub use params::{KarmaParams, KarmaPreset};
pub use scalar::{Precision, Scalar};
