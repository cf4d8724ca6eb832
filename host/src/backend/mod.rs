//! Backends behind one interface: the multi-threaded CPU reference and the
//! GPU through cudarc. Both step with the same shared functions of
//! `kernels-gpu`, so their fields agree bit for bit.

pub mod cpu;
pub mod gpu;

use serde::Serialize;
use thiserror::Error;

use crate::fields::Fields;
use crate::scalar::Scalar;

pub use cpu::CpuSolver;
pub use gpu::{BlockSize, GpuDevice, GpuSolver, GpuUnavailable, KernelConfig, KernelKind};

/// Where a solver runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    Cpu,
    Gpu,
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BackendKind::Cpu => "cpu",
            BackendKind::Gpu => "gpu",
        })
    }
}

/// Errors while a solver runs.
#[derive(Debug, Error)]
pub enum SolverError {
    #[error("CUDA call failed while {during}: {source}")]
    Cuda {
        during: &'static str,
        #[source]
        source: cudarc::driver::DriverError,
    },
    #[error(
        "the embedded PTX has no kernel `{name}`; rebuild fibril (cargo build --release) so build.rs recompiles the kernels"
    )]
    MissingKernel { name: String },
    #[error(transparent)]
    KernelConfig(#[from] gpu::KernelConfigError),
    #[error(transparent)]
    Split(#[from] crate::multi::SplitError),
    #[error(transparent)]
    Nccl(#[from] crate::multi::nccl::NcclError),
    #[error("GPU {from} cannot access GPU {to} directly (no peer access between them); use --exchange host")]
    NoPeerAccess { from: usize, to: usize },
    #[error(
        "not enough GPU memory: this run needs {needed} on {device}, which has {free} free; \
         use a smaller grid (--size), f32 instead of f64, or the CPU backend"
    )]
    DeviceMemory { device: String, needed: String, free: String },
}

/// A time stepper that owns the state.
///
/// `advance` may return before the work is done (the GPU queues it);
/// `synchronize`, `fields` and `any_nonfinite` wait for it.
pub trait Solver<T: Scalar> {
    fn kind(&self) -> BackendKind;
    /// Human-readable device: "NVIDIA H100 80GB HBM3" or "CPU (16 threads)".
    fn device_name(&self) -> String;
    /// Kernel or code path name for reports ("naive", "cpu-reference").
    fn method(&self) -> String;
    fn advance(&mut self, steps: u64) -> Result<(), SolverError>;
    fn synchronize(&mut self) -> Result<(), SolverError>;
    /// A copy of the current U and v.
    fn fields(&mut self) -> Result<Fields<T>, SolverError>;
    /// Replaces the state (stimuli, restarts). `fields` has the solver's dims.
    fn set_fields(&mut self, fields: &Fields<T>) -> Result<(), SolverError>;
    /// Whether U holds a NaN or an infinity (on any rank).
    fn any_nonfinite(&mut self) -> Result<bool, SolverError>;
    /// Whether `flag` is set on any process of a multi-process run. The
    /// run loop asks this before acting on a local condition (a Ctrl-C) so
    /// that every rank takes the same branch; one process returns `flag`.
    fn any_rank(&mut self, flag: bool) -> Result<bool, SolverError> {
        Ok(flag)
    }
}
