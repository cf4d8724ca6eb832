//! Splitting the grid along z over several sub-domains (paper section 4.3).
//!
//! Each sub-domain owns a run of z-slices and stores them between two halo
//! slices: local slice 0 is the halo below, `1..=n` are owned, `n + 1` is
//! the halo above. After every step the halos are refilled from the
//! neighbouring sub-domains' boundary slices, or, at the ends of the global
//! grid, by the mirror rule (halo below = local slice 2 = global z 1, so
//! U[-1] = U[1]; symmetrically at the top). The kernels then never mirror
//! in z inside a sub-domain: they advance the owned window `1..=n` with the
//! halos as ordinary neighbours.
//!
//! The blocked kernel's passes of k steps read k slices beyond the window,
//! so with it the halos are k slices deep ([`halo_depth`]; local slices
//! `0..k` below, `k..k + n` owned, `k + n..2k + n` above) and are refilled
//! once a pass, with every variable (the halo's cells are stepped within
//! the pass, so they need their locals); the global ends are mirrored k
//! slices deep (halo slice j reflects owned slice 2k - j).
//!
//! `gpu` runs the sub-domains on GPUs, all in this process or one per
//! process (`rank` finds the processes and introduces them to each other,
//! `nccl` carries the halos between them); `cpu` runs the same split on
//! CPU sub-domains so that CI checks the decomposition without a GPU.

pub mod cpu;
pub mod gpu;
pub mod nccl;
pub mod rank;
pub mod split;

pub use cpu::CpuMultiSolver;
pub use gpu::{Exchange, GpuMultiSolver};
pub use split::{SplitError, ZSplit};

use thiserror::Error;

use crate::solver::SolverError;

/// Why a split solver could not be built. (Once running, its failures are
/// [`SolverError`]s, NCCL's as [`SolverError::Communication`].)
#[derive(Debug, Error)]
pub enum MultiError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error(transparent)]
    Split(#[from] SplitError),
    #[error(transparent)]
    Nccl(#[from] nccl::NcclError),
    #[error("GPU {from} cannot access GPU {to} directly (no peer access between them); use --exchange host")]
    NoPeerAccess { from: usize, to: usize },
    #[error(
        "splitting a grid over GPUs needs at least 2 cells along every axis, but it is {nx}x{ny}x{nz}; \
         run sheets and cables on one GPU"
    )]
    NotThreeDimensional { nx: u32, ny: u32, nz: u32 },
    #[error(
        "--kernel blocked with --steps-per-pass {steps} over several GPUs exchanges halos {steps} slices deep \
         by peer or host copies within one process, not through NCCL; use --exchange peer or host on one \
         machine, or --steps-per-pass 1 (or another --kernel) for NCCL and several processes"
    )]
    DeepHalosNeedCopies { steps: u32 },
}

impl From<nccl::NcclError> for SolverError {
    /// NCCL failing while a split solver runs.
    fn from(e: nccl::NcclError) -> Self {
        SolverError::Communication { during: "exchanging halos through NCCL", source: Box::new(e) }
    }
}

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
pub fn halo_depth(kernel: &crate::backend::KernelConfig) -> u32 {
    if kernel.kind == crate::backend::KernelKind::Blocked { kernel.steps_per_pass.max(1) } else { 1 }
}
