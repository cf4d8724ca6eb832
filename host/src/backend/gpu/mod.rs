//! The GPU backend: fibril's Rust kernels (PTX from `build.rs`) driven
//! through cudarc, with libcuda loaded at run time so fibril still builds
//! and runs on machines without CUDA.

pub(crate) mod cuda;
pub mod device;
pub mod graph;
pub(crate) mod maps;
pub(crate) mod nonfinite;
pub mod ptx;
pub mod solver;
pub mod tables;

pub use crate::kernel_config::{BlockSize, KernelConfig, KernelConfigError, KernelKind, columns_is_faster};
pub use device::{DeviceInfo, GpuDevice, GpuUnavailable, device_count};
pub use solver::GpuSolver;
