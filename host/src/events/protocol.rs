//! Named stimulus protocols: the S1-S2 cross-field start of a scroll wave
//! (a spiral in 2D).
//!
//! The S1 is the paper's planar start (eqs. 7-8): a plane wave travelling
//! along +z. The S2 excites the quarter x < nx/2, z < nz/2 (all y) once,
//! when the S1 wave's back has passed z = 0.4 nz: the tissue behind the
//! back has recovered and fires, the tissue ahead of it is still
//! refractory, so the S2 wave can only turn around the free end at
//! (x = nx/2, z ~ 0.4 nz) and winds into a scroll wave with a straight
//! filament along y (the cross-field protocol; e.g. Fenton et al., Chaos
//! 12:852, 2002, section III). In a sheet (nz = 1) y plays
//! z's part throughout (see [`crate::init::wave_axis`]) and the same S2
//! makes a spiral; a cable has no room for one and is refused.
//!
//! Why this and not eq. 9 copied: the paper's S2 strip (0.08 nx wide,
//! 0.15 nz tall) launched no re-entry at 128^3 with dx = 0.6 for any S2
//! time between 40 and 90 ms (it does at 256^3, e.g. at 100 ms), while the
//! quarter-domain S2 gives one rotating scroll wave (period ~44 ms) at
//! every size tried, 64^3 to 256^3, for a wide window of S2 times (about
//! 50-90 ms at 128^3 and 50-130 ms at 256^3).
//!
//! The S2 time is found, not guessed: before S2 the state is uniform
//! across the wave axis, so the run is exactly a column along it.
//! [`s1_back_passes`] runs that column (3 cells wide on every other axis
//! that has more than one cell, so it uses the run's own stencil, on the
//! CPU reference in f64, same dx, dt, D and model) and returns the step at
//! which variable 0 at 0.4 of the wave axis falls back below the model's
//! activation threshold. That puts the S2 inside the window for any grid
//! size, spacing, step and parameter set that admits one (71.3 ms at
//! 128^3, 104.2 ms at 256^3 with Karma's defaults).

use kernels_gpu::{CellModel, GridDims, ModelInfo};
use thiserror::Error;

use crate::backend::CpuSolver;
use crate::domain::Domain;
use crate::events::stimulus::{
    CROSS_FIELD_X_FRAC, CROSS_FIELD_Z_FRAC, RegionKind, StimulusSchedule, StimulusSpec,
};
use crate::events::{EventStart, Events};
use crate::init::{InitialCondition, cross_axis, wave_axis};
use crate::models::{ModelVisitor, dispatch};
use crate::scalar::{Precision, Scalar};
use crate::solver::Solver;

/// Where, as a fraction of nz, the S1 back must have passed when S2 fires.
pub const SCROLL_S2_BACK_FRACTION: f64 = 0.4;

/// The longest the S1 probe runs before giving up, ms.
const PROBE_LIMIT_MS: f64 = 2_000.0;

/// The most cell-steps the probe may take (its column's cells times the
/// steps of [`PROBE_LIMIT_MS`]): about two seconds at most, on two cores. Beyond it (a
/// very long wave axis, a very small dt) the S2 time must be given, rather
/// than the run sitting in a search before it starts.
const PROBE_BUDGET_CELL_STEPS: u64 = 1_000_000_000;

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

/// The step at which the back of the planar S1 wave (eq. 7-8 start)
/// passes `frac` of the wave axis: variable 0 there rises above the
/// model's activation threshold and falls below it again.
pub fn s1_back_passes(domain: &Domain, frac: f64) -> Result<u64, ProtocolError> {
    let dims = domain.dims();
    let axis = wave_axis(dims);
    let mut n = [dims.nx, dims.ny, dims.nz];
    let len = n[axis];
    let cell = ((frac * len as f64) as u32).min(len - 1);
    for (a, k) in n.iter_mut().enumerate() {
        if a != axis {
            *k = (*k).min(3);
        }
    }
    let column = Domain::new(
        GridDims::new(n[0], n[1], n[2]),
        domain.dx(),
        domain.dt_ms(),
        domain.diffusion(),
        domain.model().clone(),
    )
    .expect("a column of a valid domain is valid");
    let mut at = [n[0] / 2, n[1] / 2, n[2] / 2];
    at[axis] = cell;
    let probe = column.dims().index(at[0], at[1], at[2]);
    let limit = column.steps_for(PROBE_LIMIT_MS);
    if limit.saturating_mul(column.cells() as u64) > PROBE_BUDGET_CELL_STEPS {
        return Err(ProtocolError::ProbeTooLong {
            cells: column.cells(),
            dt_ms: domain.dt_ms(),
            steps: limit,
        });
    }
    let model = domain.model().info();
    dispatch(model, Precision::F64, Probe { column: &column, probe, limit })
        .ok_or(ProtocolError::NoBack { cell })
}

/// Runs the column and watches one cell.
struct Probe<'a> {
    column: &'a Domain,
    probe: usize,
    limit: u64,
}

impl ModelVisitor for Probe<'_> {
    type Output = Option<u64>;

    fn visit<M: CellModel, T: Scalar>(self) -> Option<u64> {
        let threshold = T::from_f64(M::INFO.activation_threshold);
        let start = InitialCondition::Planar.state::<T>(M::INFO, self.column.dims());
        let mut solver = CpuSolver::<M, T>::new(self.column, &start);
        if let Some(s1) = planar_s1(M::INFO) {
            let dims = self.column.dims();
            let stimuli = StimulusSchedule::compile(&[s1], dims, self.column.dt_ms(), M::INFO)
                .expect("the planar S1 fits every grid");
            let events = Events { stimuli, recording: None };
            solver.set_events(&events, EventStart::NEW, None).expect("the CPU solver takes any events");
        }
        let mut excited = start.slice(0)[self.probe] > threshold;
        for step in 1..=self.limit {
            solver.advance(1).expect("the CPU solver does not fail");
            let u = solver.potential()[self.probe];
            if u > threshold {
                excited = true;
            } else if excited {
                return Some(step);
            }
        }
        None
    }
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

/// The default S2 time of the scroll protocol for `domain`, in steps.
pub fn scroll_s2_step(domain: &Domain) -> Result<u64, ProtocolError> {
    check_plane(domain.dims())?;
    s1_back_passes(domain, SCROLL_S2_BACK_FRACTION)
}

/// Refuses grids where no spiral can form.
pub fn check_plane(dims: GridDims) -> Result<(), ProtocolError> {
    if cross_axis(dims).is_none() {
        return Err(ProtocolError::NoPlane { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ModelSetup;
    use kernels_gpu::models::Karma;

    fn model(name: &str) -> ModelSetup {
        ModelSetup::new(name, None, &[]).unwrap()
    }

    fn domain(nz: u32) -> Domain {
        Domain::new(GridDims::new(8, 8, nz), 0.6, 0.05, 1.0, model("karma")).unwrap()
    }

    #[test]
    fn ionic_models_start_at_rest_with_a_current_s1_and_a_current_s2() {
        use crate::events::stimulus::Action;
        use kernels_gpu::models::LuoRudy1991;
        let info = LuoRudy1991::INFO;
        let dims = GridDims::new(4, 120, 1);
        let start = InitialCondition::Planar.state::<f64>(info, dims);
        assert!(start.slice(0).iter().all(|&v| v == info.variables[0].rest), "the planar start is at rest");
        let current = info.stimulus_current.unwrap();
        let s1 = planar_s1(info).unwrap().compile(1, dims, 0.01, info).unwrap();
        assert_eq!(s1.action, Action::Current(current.amplitude));
        assert_eq!((s1.start_step, s1.steps), (0, (current.duration / 0.01).round() as u64));
        let s2 = scroll_s2(300.0).compile(2, dims, 0.01, info).unwrap();
        assert_eq!(s2.action, Action::Current(current.amplitude));
        // A value given explicitly still clamps.
        let mut clamp = scroll_s2(300.0);
        clamp.value = Some(10.0);
        assert_eq!(clamp.compile(2, dims, 0.01, info).unwrap().action, Action::Set(10.0));
        assert!(planar_s1(Karma::INFO).is_none(), "Karma's planar start sets the slab's value");
        // The S2 timing runs the S1 as a current: the wave leaves the slab
        // and its back passes 0.4 of the sheet.
        let setup = ModelSetup::new("luo_rudy_1991", None, &[]).unwrap();
        let d = Domain::new(dims, 0.25, 0.01, 0.1, setup).unwrap();
        let t_ms = scroll_s2_step(&d).unwrap() as f64 * 0.01;
        // LR1's action potential lasts about 360 ms (APD90 at 1 Hz, the
        // model's tests) plus the travel to cell 48 at about 0.56 m/s.
        assert!((330.0..450.0).contains(&t_ms), "{t_ms}");
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
    fn a_probe_beyond_its_budget_is_refused_before_it_runs() {
        let d = Domain::new(GridDims::new(8, 8, 64), 0.6, 1e-4, 1.0, model("karma")).unwrap();
        let e = scroll_s2_step(&d).unwrap_err();
        assert!(matches!(e, ProtocolError::ProbeTooLong { steps: 20_000_000, .. }), "{e}");
        assert!(e.to_string().contains("--s2-ms"), "{e}");
    }

    #[test]
    fn no_reaction_means_no_wave_and_a_clear_error() {
        let d = Domain::new(GridDims::new(3, 3, 16), 0.6, 0.05, 1.0, model("diffusion")).unwrap();
        let e = scroll_s2_step(&d).unwrap_err();
        assert!(e.to_string().contains("--s2-ms"), "{e}");
    }

    #[test]
    fn a_sheet_times_its_s2_along_y_and_a_cable_has_no_spiral() {
        // The sheet's column along y sees the same 1D dynamics as the box's
        // along z (uniform across), up to the stencil's rounding.
        let sheet = Domain::new(GridDims::new(8, 128, 1), 0.6, 0.05, 1.0, model("karma")).unwrap();
        let t_sheet = scroll_s2_step(&sheet).unwrap() as f64 * 0.05;
        let t_box = scroll_s2_step(&domain(128)).unwrap() as f64 * 0.05;
        assert!((t_sheet - t_box).abs() <= 0.1, "{t_sheet} vs {t_box}");
        let cable = Domain::new(GridDims::new(1, 1, 128), 0.6, 0.05, 1.0, model("karma")).unwrap();
        assert!(matches!(scroll_s2_step(&cable), Err(ProtocolError::NoPlane { .. })));
    }
}
