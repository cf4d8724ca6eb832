//! Why a split solver could not be built, and how NCCL's failures reach
//! the run loop once it runs; apart from the solvers so that the memory
//! estimate and the planning of a split name them without the solvers.

use thiserror::Error;

use super::nccl;
use crate::layout::zsplit::SplitError;
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
    #[error(
        "a {mesh} split over GPUs exchanges halos by direct or host-staged copies in one process; \
         use --exchange peer or --exchange host"
    )]
    CopiesOnly { mesh: &'static str },
}

impl From<nccl::NcclError> for SolverError {
    /// NCCL failing while a split solver runs.
    fn from(e: nccl::NcclError) -> Self {
        SolverError::Communication { during: "exchanging halos through NCCL", source: Box::new(e) }
    }
}
