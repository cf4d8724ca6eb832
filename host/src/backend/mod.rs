//! Backends behind the [`Solver`] interface: the
//! multi-threaded CPU reference and the GPU through cudarc. Both step with
//! the same shared functions of `kernels-gpu`, so their states agree bit
//! for bit.

pub mod cpu;
pub mod gpu;

pub use crate::solver::{BackendKind, Solver, SolverError};
pub use cpu::CpuSolver;
pub use gpu::{BlockSize, GpuDevice, GpuSolver, GpuUnavailable, KernelConfig, KernelKind};
