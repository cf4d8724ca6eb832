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
}

impl From<nccl::NcclError> for SolverError {
    /// NCCL failing while a split solver runs.
    fn from(e: nccl::NcclError) -> Self {
        SolverError::Communication { during: "exchanging halos through NCCL", source: Box::new(e) }
    }
}

/// Refuses grids that cannot be split along z: sheets and cables (their
/// kernels are not windowed along z) and grids with too few slices.
pub fn check_splittable(dims: kernels_gpu::GridDims, parts: usize) -> Result<ZSplit, MultiError> {
    if dims.axes() < 3 {
        return Err(MultiError::NotThreeDimensional { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    Ok(ZSplit::balanced(dims.nz, parts)?)
}
