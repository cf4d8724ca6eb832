//! What a run records as it goes besides its snapshots: each output is one
//! file here implementing [`Sampler`], which the run loop
//! ([`crate::driver`]) samples at the output's own interval and saves
//! beside every checkpoint and at the end.
//!
//! A new recorded output is one file here and one line where a run builds
//! its list of samplers; the loop does not change.

pub mod ecg;
pub mod error;
pub mod list;
pub mod sampler;
pub mod tips;

pub use ecg::EcgSampler;
pub use error::OutputError;
pub use list::samplers;
pub use sampler::{Sampler, Saved};
pub use tips::TipsSampler;
