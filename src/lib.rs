//! fibril as a library: the simulation API of `fibril_host` with the GPU
//! kernels this build embeds ([`simulation`]), and the command line itself
//! (`src/main.rs` only calls it), so that tests and the fuzz targets reach
//! every parser the command line has.
//!
//! ```
//! // A Karma spiral on a 64 x 64 sheet, on the CPU (Backend::Gpus(vec![0])
//! // runs it on the first GPU with the kernels this crate embeds).
//! let mut sim = fibril::simulation("karma").grid(64, 64, 1).scroll_protocol(None).build::<f32>()?;
//! sim.run_for_ms(50.0)?;
//! assert_eq!(sim.step(), 1000);
//! # Ok::<(), fibril::SimulationError>(())
//! ```

/// PTX of the `kernels-gpu` crate, built by `build.rs` with rustc's NVPTX backend.
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

include!(concat!(env!("OUT_DIR"), "/kernel_names.rs"));

pub mod cli;

pub use fibril_host::simulation::{
    Backend, Frame, KernelChoice, Simulation, SimulationBuilder, SimulationError,
};

/// A simulation of model `name` (`fibril models` lists them) to describe,
/// carrying this build's GPU kernels: see [`SimulationBuilder`].
pub fn simulation(model: &str) -> SimulationBuilder {
    SimulationBuilder::new(model).kernels(PTX)
}

/// Bodies of the fuzz targets (see `fuzz/`).
pub mod fuzz;
