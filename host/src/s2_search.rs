//! The S2 time of the scroll protocol ([`crate::events::protocol`]) is
//! found, not guessed: before S2 the state is uniform
//! across the wave axis, so the run is exactly a column along it.
//! [`s1_back_passes`] runs that column (3 cells wide on every other axis
//! that has more than one cell, so it uses the run's own stencil, on the
//! CPU reference in f64, same dx, dt, D and model) and returns the step at
//! which variable 0 at 0.4 of the wave axis falls back below the model's
//! activation threshold. That puts the S2 inside the window for any grid
//! size, spacing, step and parameter set that admits one (71.3 ms at
//! 128^3, 104.2 ms at 256^3 with Karma's defaults).
//!
//! It runs the CPU reference solver, so it sits above the backends while
//! the protocol's stimuli stay with the other events.

use kernels_gpu::{CellModel, GridDims};

use crate::backend::cpu::CpuSolver;
use crate::domain::Domain;
use crate::events::protocol::scroll::{
    PROBE_LIMIT_MS, ProtocolError, SCROLL_S2_BACK_FRACTION, check_plane, planar_s1,
};
use crate::events::run::{EventStart, Events};
use crate::events::stimulus::StimulusSchedule;
use crate::init::{InitialCondition, wave_axis};
use crate::models::{ModelVisitor, dispatch};
use crate::scalar::{Precision, Scalar};
use crate::solver::Solver;

/// The most cell-steps the probe may take (its column's cells times the
/// steps of [`PROBE_LIMIT_MS`]): about two seconds at most, on two cores. Beyond it (a
/// very long wave axis, a very small dt) the S2 time must be given, rather
/// than the run sitting in a search before it starts.
const PROBE_BUDGET_CELL_STEPS: u64 = 1_000_000_000;

/// The default S2 time of the scroll protocol for `domain`, in steps.
pub fn scroll_s2_step(domain: &Domain) -> Result<u64, ProtocolError> {
    check_plane(domain.dims())?;
    s1_back_passes(domain, SCROLL_S2_BACK_FRACTION)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::protocol::scroll::scroll_s2;
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
