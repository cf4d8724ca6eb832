//! The stimuli of the scroll protocol (the planar S1 and the
//! cross-field S2), the check that a grid has room for a spiral, and the
//! protocol's errors. Finding the S2's time runs a solver, so it lives
//! above the backends ([`crate::s2_search`]).

use kernels_gpu::{GridDims, ModelInfo};
use thiserror::Error;

use crate::events::stimulus::{CROSS_FIELD_X_FRAC, CROSS_FIELD_Z_FRAC, RegionKind, StimulusSpec};
use crate::init::cross_axis;

/// Where, as a fraction of nz, the S1 back must have passed when S2 fires.
pub const SCROLL_S2_BACK_FRACTION: f64 = 0.4;

/// The longest the S1 probe runs before giving up, ms.
pub(crate) const PROBE_LIMIT_MS: f64 = 2_000.0;

#[derive(Debug, Error, PartialEq)]
pub enum ProtocolError {
    #[error(
        "the scroll protocol could not time its S2: the planar S1 wave's back never passed \
         cell {cell} (0.4 of the wave axis) within {PROBE_LIMIT_MS} ms with these parameters; \
         give the S2 time yourself with --s2-ms (or s2_ms in [run])"
    )]
    NoBack { cell: u32 },
    #[error(
        "the scroll protocol times its S2 by simulating a column of the grid first, and with \
         {cells} cells in that column and dt = {dt_ms} ms it could take {steps} steps, too long to \
         run before the run; give the S2 time yourself with --s2-ms (or s2_ms in [run])"
    )]
    ProbeTooLong { cells: usize, dt_ms: f64, steps: u64 },
    #[error(
        "the scroll protocol needs two axes of more than one cell (a spiral needs a plane), \
         and the {nx}x{ny}x{nz} grid is a cable or a single cell; use stimuli instead"
    )]
    NoPlane { nx: u32, ny: u32, nz: u32 },
}

/// The planar S1 of a model stimulated by a current (the ionic models):
/// the slab of the planar start (k <= 0.05 n along the wave axis) receives
/// the model's current for its duration from t = 0, the state starting at
/// rest; `None` for the models whose planar start sets the slab's value.
pub fn planar_s1(model: &ModelInfo) -> Option<StimulusSpec> {
    model.stimulus_current.map(|_| StimulusSpec::new(RegionKind::Planar, 0.0))
}

/// The S2 of the scroll protocol at `at_ms`: the cross-field quarter,
/// U = 3, once.
pub fn scroll_s2(at_ms: f64) -> StimulusSpec {
    let mut s2 = StimulusSpec::new(RegionKind::CrossField, at_ms);
    s2.x_frac = Some(CROSS_FIELD_X_FRAC);
    s2.z_frac = Some(CROSS_FIELD_Z_FRAC);
    s2
}

/// Refuses grids where no spiral can form.
pub fn check_plane(dims: GridDims) -> Result<(), ProtocolError> {
    if cross_axis(dims).is_none() {
        return Err(ProtocolError::NoPlane { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    Ok(())
}
