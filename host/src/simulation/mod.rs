//! The simulation library: describe a simulation ([`SimulationBuilder`]),
//! build it on the CPU or GPUs, and run it to a time or frame by frame
//! ([`Simulation`]), from a Rust program of your own. The command line is
//! one user of it: the solver factory ([`placement`]) and the kernel rule
//! ([`kernel_choice`]) are the ones `fibril run` and `fibril bench` use.
//!
//! ```
//! use fibril_host::simulation::SimulationBuilder;
//!
//! // A spiral of the Aliev-Panfilov model on a 96 x 96 sheet (the scroll
//! // protocol: a planar S1, then a cross-field S2), on the CPU.
//! let mut sim = SimulationBuilder::new("aliev_panfilov")
//!     .grid(96, 96, 1)
//!     .scroll_protocol(None)
//!     .tips(1.0)
//!     .build::<f32>()?;
//! let mut peaks = Vec::new();
//! sim.run_frames(40.0, 10.0, |frame| {
//!     let u = frame.state.slice(0);
//!     peaks.push(u.iter().cloned().fold(f32::MIN, f32::max));
//!     Ok::<(), fibril_host::simulation::SimulationError>(())
//! })?;
//! assert_eq!(peaks.len(), 4);
//! assert_eq!(sim.time_ms(), 40.0);
//! # Ok::<(), fibril_host::simulation::SimulationError>(())
//! ```
//!
//! The GPU kernels are embedded by the `fibril` crate, whose
//! `fibril::simulation` starts a builder that carries them.

pub mod builder;
pub mod error;
pub mod kernel_choice;
pub mod placement;
pub mod run;

pub use builder::{Backend, SimulationBuilder, monodomain_diffusion};
pub use error::SimulationError;
pub use kernel_choice::KernelChoice;
pub use placement::{Devices, GpuOptions, Mesh, PlacementError, SolverPlan, TissueMesh};
pub use run::{Frame, Simulation};
