//! Kernel entry points (compiled for `nvptx64` only).
//!
//! Entry points are thin: they read their thread coordinates and call the
//! shared functions of [`crate::model`] and [`crate::stencil`]. Each generic
//! body is instantiated once per precision with a `_f32` / `_f64` suffix;
//! `build.rs` lists the names it finds in the PTX so the host never types
//! them by hand.

mod csw;
mod diagnostics;
mod naive;
mod tower;
