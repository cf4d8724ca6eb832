//! Named stimulus protocols: the S1-S2 cross-field start of a scroll wave.
//!
//! The S1 is the paper's planar start (eqs. 7-8): a plane wave travelling
//! along +z. The S2 excites the quarter x < nx/2, z < nz/2 (all y) once,
//! when the S1 wave's back has passed z = 0.4 nz: the tissue behind the
//! back has recovered and fires, the tissue ahead of it is still
//! refractory, so the S2 wave can only turn around the free end at
//! (x = nx/2, z ~ 0.4 nz) and winds into a scroll wave with a straight
//! filament along y (MODELS.md section 7).
//!
//! Why this and not eq. 9 copied: the paper's S2 strip (0.08 nx wide,
//! 0.15 nz tall) launched no re-entry at 128^3 with dx = 0.6 for any S2
//! time between 40 and 90 ms (it does at 256^3, e.g. at 100 ms), while the
//! quarter-domain S2 gives one rotating scroll wave (period ~44 ms) at
//! every size tried, 64^3 to 256^3, for a wide window of S2 times (about
//! 50-90 ms at 128^3 and 50-130 ms at 256^3).
//!
//! The S2 time is found, not guessed: before S2 the state is uniform in x
//! and y, so the 3D run is exactly a column along z. [`s1_back_passes`]
//! runs that column (a 3 x 3 x nz grid on the CPU reference, same dx, dt,
//! D and model) and returns the step at which U at z = 0.4 nz falls back
//! below 1. That puts the S2 inside the window for any grid size, spacing,
//! step and parameter set that admits one (71.3 ms at 128^3, 104.2 ms at
//! 256^3 with the defaults).

use kernels_gpu::GridDims;
use thiserror::Error;

use crate::backend::{CpuSolver, Solver};
use crate::domain::Domain;
use crate::init::InitialCondition;
use crate::stimulus::{CROSS_FIELD_X_FRAC, CROSS_FIELD_Z_FRAC, RegionKind, StimulusSpec};

/// Where, as a fraction of nz, the S1 back must have passed when S2 fires.
pub const SCROLL_S2_BACK_FRACTION: f64 = 0.4;

/// The longest the S1 probe runs before giving up, ms.
const PROBE_LIMIT_MS: f64 = 2_000.0;

#[derive(Debug, Error, PartialEq)]
pub enum ProtocolError {
    #[error(
        "the scroll protocol could not time its S2: the planar S1 wave's back never passed \
         z = {z} (0.4 nz) within {PROBE_LIMIT_MS} ms with these parameters; \
         give the S2 time yourself with --s2-ms (or s2_ms in [run])"
    )]
    NoBack { z: u32 },
}

/// The step at which the back of the planar S1 wave (eq. 7-8 start)
/// passes z = `z_frac` nz: U there rises above 1 and falls below it again.
pub fn s1_back_passes(domain: &Domain, z_frac: f64) -> Result<u64, ProtocolError> {
    let nz = domain.dims().nz;
    let z = ((z_frac * nz as f64) as u32).min(nz - 1);
    let column = Domain::new(
        GridDims::new(3, 3, nz),
        domain.dx(),
        domain.dt_ms(),
        domain.diffusion(),
        *domain.karma(),
        domain.reaction(),
    )
    .expect("a 3x3 column of a valid domain is valid");
    let start = InitialCondition::Planar.fields::<f64>(column.dims());
    let mut solver = CpuSolver::new(&column, &start);
    let probe = column.dims().index(1, 1, z);
    let mut excited = start.u_slice()[probe] > 1.0;
    let limit = column.steps_for(PROBE_LIMIT_MS);
    for step in 1..=limit {
        solver.advance(1).expect("the CPU solver does not fail");
        let u = solver.fields().expect("the CPU solver does not fail").u_slice()[probe];
        if u > 1.0 {
            excited = true;
        } else if excited {
            return Ok(step);
        }
    }
    Err(ProtocolError::NoBack { z })
}

/// The S2 of the scroll protocol at `at_ms`: the cross-field quarter,
/// U = 3, once.
pub fn scroll_s2(at_ms: f64) -> StimulusSpec {
    let mut s2 = StimulusSpec::new(RegionKind::CrossField, at_ms);
    s2.x_frac = Some(CROSS_FIELD_X_FRAC);
    s2.z_frac = Some(CROSS_FIELD_Z_FRAC);
    s2
}

/// The default S2 time of the scroll protocol for `domain`, in steps.
pub fn scroll_s2_step(domain: &Domain) -> Result<u64, ProtocolError> {
    s1_back_passes(domain, SCROLL_S2_BACK_FRACTION)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KarmaParams;
    use kernels_gpu::Reaction;

    fn domain(nz: u32) -> Domain {
        Domain::new(GridDims::new(8, 8, nz), 0.6, 0.05, 1.0, KarmaParams::default(), Reaction::Karma).unwrap()
    }

    #[test]
    fn s2_time_grows_with_the_grid_and_sits_in_the_measured_window() {
        let t128 = scroll_s2_step(&domain(128)).unwrap() as f64 * 0.05;
        let t256 = scroll_s2_step(&domain(256)).unwrap() as f64 * 0.05;
        // Windows measured with y-uniform slab runs (see the module docs).
        assert!((50.0..90.0).contains(&t128), "{t128}");
        assert!((50.0..130.0).contains(&t256), "{t256}");
        assert!(t256 > t128);
    }

    #[test]
    fn no_reaction_means_no_wave_and_a_clear_error() {
        let d = Domain::new(GridDims::new(3, 3, 16), 0.6, 0.05, 1.0, KarmaParams::default(), Reaction::Off)
            .unwrap();
        let e = scroll_s2_step(&d).unwrap_err();
        assert!(e.to_string().contains("--s2-ms"), "{e}");
    }
}
