//! What every CUDA caller of the GPU backends shares: a driver failure as
//! a [`SolverError`] that says what was being done, an entry point named
//! by the registry and looked up by name, and `kernels-gpu`'s `#[repr(C)]`
//! structs passed by value.
//! Below the solvers, so that their helpers (graphs, maps, flags, tables)
//! need nothing of them.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaModule, DeviceRepr, DriverError};
use kernels_gpu::registry::{self, Kernel};

use crate::scalar::Scalar;
use crate::solver::SolverError;

/// Passes a `#[repr(C)]` struct of `kernels-gpu` by value as a kernel
/// parameter (cudarc's `DeviceRepr` cannot be implemented on the foreign
/// type directly).
#[repr(transparent)]
#[derive(Clone, Copy)]
pub(crate) struct ByValue<P>(pub(crate) P);

// SAFETY: only instantiated with `GridDims`, `TowerLayout`, `ZWindow`,
// `StepCoeffs<T>`, `Recorder<T>`, `SlicePlacement`, `StimulusArgs<T>`, `CopyRuns` and a
// model's `Coeffs<T>`, plain `#[repr(C)]` structs of
// numbers whose kernel-side declaration is the same Rust type, so host and
// device agree on size, alignment and field order.
unsafe impl<P: Copy> DeviceRepr for ByValue<P> {}

/// The [`SolverError::Cuda`] of a driver call that failed while doing `during`.
pub(crate) fn cuda(during: &'static str) -> impl FnOnce(DriverError) -> SolverError {
    move |source| SolverError::Cuda { during, source }
}

/// Entry point `name` of `module`; missing, it is a build older than the
/// registry ([`SolverError::MissingKernel`]).
pub(crate) fn load_kernel(module: &Arc<CudaModule>, name: &str) -> Result<CudaFunction, SolverError> {
    module.load_function(name).map_err(|_| SolverError::MissingKernel { name: name.into() })
}

/// The registry's name of `kernel` for `model` ("" for the kernels of
/// every model) in precision `T`; missing, it is a build older than the
/// registry ([`SolverError::MissingKernel`]).
pub(crate) fn entry_name<T: Scalar>(model: &str, kernel: Kernel) -> Result<&'static str, SolverError> {
    registry::entry_point(model, kernel, T::NAME)
        .map(|e| e.name)
        .ok_or_else(|| SolverError::MissingKernel { name: format!("{model} {kernel:?} {}", T::NAME) })
}
