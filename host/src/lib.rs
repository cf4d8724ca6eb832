//! fibril's host library: the simulation domain and its models, the CPU
//! and GPU solvers behind one [`Solver`](solver::Solver) interface, the
//! multi-GPU split, the run driver with its events, checkpoints and the
//! output formats.
//!
//! The numbers themselves (models, stencil, index arithmetic) come from the
//! `kernels-gpu` crate, shared with the GPU kernels.

pub mod analysis;
pub mod backend;
pub mod cell_params;
pub mod checkpoint;
pub mod domain;
pub mod driver;
pub mod events;
pub mod hash;
pub mod init;
pub mod io;
pub mod kernel_config;
pub mod layout;
pub mod memory;
pub mod models;
pub mod multi;
pub mod numbers;
pub mod outputs;
pub mod rate_tables;
pub mod restitution;
pub mod s2_search;
pub mod scalar;
pub mod simulation;
pub mod solver;
pub mod state;
pub mod tet;
pub mod time;
pub mod tissue;
pub mod units;

pub use domain::{Domain, DomainError};
pub use kernels_gpu::{CellModel, GridDims, ModelInfo};
pub use models::{ModelSetup, ModelVisitor, dispatch};
pub use scalar::{Precision, Scalar};
pub use state::State;
