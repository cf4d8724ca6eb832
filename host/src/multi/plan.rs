//! Whether a grid can be split along z, and how deep the halos of a kernel
//! are: what a split solver and the memory estimate decide before any
//! sub-domain is built.

use super::error::MultiError;
use crate::kernel_config::{KernelConfig, KernelKind};
use crate::layout::zsplit::ZSplit;

/// Refuses grids that cannot be split along z: sheets and cables (their
/// kernels are not windowed along z) and grids with too few slices for
/// halos `depth` slices deep ([`halo_depth`]).
pub fn check_splittable(dims: kernels_gpu::GridDims, parts: usize, depth: u32) -> Result<ZSplit, MultiError> {
    if dims.axes() < 3 {
        return Err(MultiError::NotThreeDimensional { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    Ok(ZSplit::balanced_with_depth(dims.nz, parts, depth)?)
}

/// How deep the halos of a split run with `kernel` are: the blocked
/// kernel's passes of k steps read k slices beyond the owned ones and
/// exchange once a pass (deep halos), the
/// other kernels one slice, every step.
pub fn halo_depth(kernel: &KernelConfig) -> u32 {
    if kernel.kind == KernelKind::Blocked { kernel.steps_per_pass.max(1) } else { 1 }
}
