//! What a run steps.

use crate::cli::mesh::TetRun;
use crate::cli::tissue::TissueRun;

/// What a run steps: the uniform grid, a voxel tissue (`[tissue]`) or a
/// tetrahedral mesh (`[mesh]`).
pub(super) enum Body {
    Grid,
    Tissue(TissueRun),
    Tet(TetRun),
}
