//! Measurements the models' tests share: a paced single cell (resting
//! potential, peak, APD90, maximum upstroke velocity, the state after each
//! beat) and the conduction velocity of a planar wave in a cable, both
//! computed with the numerics of a run ([`crate::cell::step_cell`], the
//! 3-point Laplacian with mirror ends, a current stimulus added to du/dt
//! while it is on), in physical units for the ionic models.

use crate::cell::{StepCoeffs, step_cell};
use crate::model::{CellModel, Locals, rest_locals};
use crate::real::{Real, compensated_add};

/// A current stimulus: `amplitude` (in the unit of du/dt, mV/ms = uA/uF for
/// the ionic models) for `duration_ms`, starting at `start_ms` and repeated
/// every `period_ms`.
#[derive(Clone, Copy, Debug)]
pub struct Pacing {
    pub amplitude: f64,
    pub duration_ms: f64,
    pub start_ms: f64,
    pub period_ms: f64,
}

impl Pacing {
    /// Whether the stimulus is on during the step that starts at step `n`.
    fn on(&self, n: u64, dt_ms: f64) -> bool {
        let t = n as f64 * dt_ms;
        if t < self.start_ms {
            return false;
        }
        (t - self.start_ms) % self.period_ms < self.duration_ms - 1e-9
    }
}

/// One beat's action potential, from samples every step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionPotential {
    /// Potential just before the beat's stimulus.
    pub rest: f64,
    pub peak: f64,
    /// Time from the largest upstroke velocity to the return below
    /// rest + 10% of the amplitude (APD90), ms.
    pub apd90_ms: f64,
    /// Largest (u_next - u) / dt of the beat.
    pub max_dudt: f64,
}

/// A paced cell's record: one [`ActionPotential`] per beat and the state
/// at the end of each beat.
#[derive(Clone, Debug)]
pub struct PacedCell<M: CellModel, T: Real> {
    pub beats: Vec<ActionPotential>,
    pub end_states: Vec<(T, M::Locals<T>)>,
}

/// Paces one cell from rest for `beats` beats of `pacing` and measures each
/// beat. `params` are the model's parameters in order.
pub fn pace_cell<M: CellModel, T: Real>(
    params: &[f64],
    dt_ms: f64,
    pacing: Pacing,
    beats: usize,
) -> PacedCell<M, T> {
    pace_cell_in::<M, T>(&M::coeffs::<T>(params, dt_ms), dt_ms, pacing, beats)
}

/// As [`pace_cell`], with given coefficients (a rate table attached, say).
pub fn pace_cell_in<M: CellModel, T: Real>(
    coeffs: &M::Coeffs<T>,
    dt_ms: f64,
    pacing: Pacing,
    beats: usize,
) -> PacedCell<M, T> {
    let coeffs = *coeffs;
    let step = StepCoeffs::<T>::new(dt_ms, 0.0);
    let mut u = T::from_f64(M::INFO.variables[0].rest);
    let mut locals = rest_locals::<M, T>();
    let steps_per_beat = (pacing.period_ms / dt_ms).round() as u64;
    let start = (pacing.start_ms / dt_ms).round() as u64;
    let mut out = PacedCell { beats: Vec::new(), end_states: Vec::new() };
    let mut n = 0u64;
    // Run up to the first stimulus.
    while n < start {
        u = step_cell::<M, T>(u, T::ZERO, &mut locals, &step, &coeffs);
        n += 1;
    }
    for _ in 0..beats {
        let rest = u.to_f64();
        let mut trace = Vec::with_capacity(steps_per_beat as usize);
        let mut max_dudt = (f64::NEG_INFINITY, 0usize);
        for k in 0..steps_per_beat {
            let on = pacing.on(n, dt_ms);
            let stim = if on { T::from_f64(pacing.amplitude) } else { T::ZERO };
            let next = step.dt.mul_add(stim, step_cell::<M, T>(u, T::ZERO, &mut locals, &step, &coeffs));
            if on {
                carry::<M, T>(&mut locals, pacing.amplitude, dt_ms);
            }
            let dudt = (next.to_f64() - u.to_f64()) / dt_ms;
            if dudt > max_dudt.0 {
                max_dudt = (dudt, k as usize);
            }
            u = next;
            trace.push(u.to_f64());
            n += 1;
        }
        let (peak_at, peak) = trace
            .iter()
            .copied()
            .enumerate()
            .fold((0, f64::NEG_INFINITY), |a, (i, v)| if v > a.1 { (i, v) } else { a });
        let level = rest + 0.1 * (peak - rest);
        let end = trace[peak_at..].iter().position(|&v| v < level).map(|i| i + peak_at);
        let apd90_ms = end.map_or(f64::NAN, |e| (e as f64 - max_dudt.1 as f64) * dt_ms);
        out.beats.push(ActionPotential { rest, peak, apd90_ms, max_dudt: max_dudt.0 });
        out.end_states.push((u, locals));
    }
    out
}

/// Adds the charge of a current stimulus of `current` (in u per ms) over
/// one step to the model's stimulus carriers, as the solvers' stimulus
/// routines do (`StimulusArgs::carry`: `per_u` x current x dt, rounded once
/// to the precision, added to the carrier; in f32 through the carrier's
/// rounding error where it has one).
pub fn carry<M: CellModel, T: Real>(locals: &mut M::Locals<T>, current: f64, dt_ms: f64) {
    let Some(stimulus) = M::INFO.stimulus_current else { return };
    let mut next: Vec<T> = (0..M::Locals::<T>::COUNT).map(|j| locals.get(j)).collect();
    for c in stimulus.carriers {
        let (at, d) = (c.variable - 1, T::from_f64(c.per_u * current * dt_ms));
        match c.carry {
            Some(k) if T::BYTES == 4 => (next[at], next[k - 1]) = compensated_add(next[at], next[k - 1], d),
            _ => next[at] = next[at] + d,
        }
    }
    *locals = Locals::from_fn(|j| next[j]);
}

/// A cable: `cells` cells of length `dx`, diffusion coefficient `diffusion`
/// (space unit^2 per time unit).
#[derive(Clone, Copy, Debug)]
pub struct Cable {
    pub dx: f64,
    pub diffusion: f64,
    pub cells: usize,
}

/// Conduction velocity (space unit per time unit: mm/ms = m/s for the
/// ionic models) of a planar wave in a cable, started by `pacing` (one beat) on the first 5
/// cells, measured between the cells at 1/3 and 2/3 of the cable by the
/// time `u` first rises above `threshold` (linear interpolation within the
/// step). NaN if the wave does not get there within `max_ms`.
pub fn cable_velocity<M: CellModel, T: Real>(
    params: &[f64],
    dt_ms: f64,
    cable: Cable,
    pacing: Pacing,
    threshold: f64,
    max_ms: f64,
) -> f64 {
    cable_velocity_in::<M, T>(&M::coeffs::<T>(params, dt_ms), dt_ms, cable, (pacing, threshold, max_ms))
}

/// As [`cable_velocity`], with given coefficients; `wave` is its
/// `(pacing, threshold, max_ms)`.
pub fn cable_velocity_in<M: CellModel, T: Real>(
    coeffs: &M::Coeffs<T>,
    dt_ms: f64,
    cable: Cable,
    wave: (Pacing, f64, f64),
) -> f64 {
    let (pacing, threshold, max_ms) = wave;
    let Cable { dx, diffusion, cells } = cable;
    let coeffs = *coeffs;
    let step = StepCoeffs::<T>::new(dt_ms, diffusion * dt_ms / (dx * dx));
    let mut u = vec![T::from_f64(M::INFO.variables[0].rest); cells];
    let mut locals = vec![rest_locals::<M, T>(); cells];
    let (a, b) = (cells / 3, 2 * cells / 3);
    let (mut t_a, mut t_b) = (f64::NAN, f64::NAN);
    let thr = T::from_f64(threshold);
    let mut next = u.clone();
    let steps = (max_ms / dt_ms).ceil() as u64;
    for n in 0..steps {
        let stim = pacing.on(n, dt_ms) && n as f64 * dt_ms < pacing.start_ms + pacing.duration_ms;
        for i in 0..cells {
            let left = u[if i == 0 { 1 } else { i - 1 }];
            let right = u[if i + 1 == cells { cells - 2 } else { i + 1 }];
            let lap = (left - u[i]) + (right - u[i]);
            let mut v = step_cell::<M, T>(u[i], lap, &mut locals[i], &step, &coeffs);
            if stim && i < 5 {
                v = step.dt.mul_add(T::from_f64(pacing.amplitude), v);
            }
            next[i] = v;
        }
        for (i, t) in [(a, &mut t_a), (b, &mut t_b)] {
            if t.is_nan() && u[i] <= thr && next[i] > thr {
                let (u0, u1) = (u[i].to_f64(), next[i].to_f64());
                *t = (n as f64 + (threshold - u0) / (u1 - u0)) * dt_ms;
            }
        }
        core::mem::swap(&mut u, &mut next);
        if !t_b.is_nan() {
            break;
        }
    }
    (b - a) as f64 * dx / (t_b - t_a)
}

/// The coefficients of `M` with its rate table attached, and the table
/// (which must outlive every use of the coefficients).
pub fn with_table<M: CellModel, T: Real>(
    params: &[f64],
    dt_ms: f64,
) -> (M::Coeffs<T>, crate::rate_table::TableRows<T>) {
    let spec = M::RATE_TABLE.expect("the model has a rate table");
    let rows = crate::rate_table::rows_for::<M, T>(params, dt_ms).expect("a table");
    let table = crate::rate_table::RateTable::new(rows.address(), &spec);
    (M::with_rate_table(M::coeffs::<T>(params, dt_ms), table), rows)
}

/// How far runs with the rate table are from the exact runs, in precision
/// `T`: the largest differences over `beats` paced beats of rest, peak
/// (mV), APD90 (ms) and max dV/dt (relative), and the relative difference
/// of the conduction velocity in `cable`.
#[derive(Clone, Copy, Debug)]
pub struct TableDeviation {
    pub rest_mv: f64,
    pub peak_mv: f64,
    pub apd90_ms: f64,
    pub max_dudt: f64,
    pub velocity: f64,
}

/// Paces a cell and runs a cable with and without the rate table of `M`.
pub fn table_against_exact<M: CellModel, T: Real>(
    params: &[f64],
    dt_ms: f64,
    pacing: Pacing,
    beats: usize,
    cable: Cable,
) -> TableDeviation {
    let exact = M::coeffs::<T>(params, dt_ms);
    let (tabled, _rows) = with_table::<M, T>(params, dt_ms);
    let a = pace_cell_in::<M, T>(&exact, dt_ms, pacing, beats).beats;
    let b = pace_cell_in::<M, T>(&tabled, dt_ms, pacing, beats).beats;
    let worst = |f: &dyn Fn(&ActionPotential, &ActionPotential) -> f64| {
        a.iter().zip(&b).map(|(x, y)| f(x, y)).fold(0.0, f64::max)
    };
    let once = Pacing { start_ms: 0.0, period_ms: 1e9, ..pacing };
    let threshold = M::INFO.activation_threshold;
    let cv_a = cable_velocity_in::<M, T>(&exact, dt_ms, cable, (once, threshold, 400.0));
    let cv_b = cable_velocity_in::<M, T>(&tabled, dt_ms, cable, (once, threshold, 400.0));
    TableDeviation {
        rest_mv: worst(&|x, y| (x.rest - y.rest).abs()),
        peak_mv: worst(&|x, y| (x.peak - y.peak).abs()),
        apd90_ms: worst(&|x, y| (x.apd90_ms - y.apd90_ms).abs()),
        max_dudt: worst(&|x, y| (x.max_dudt / y.max_dudt - 1.0).abs()),
        velocity: (cv_b / cv_a - 1.0).abs(),
    }
}

/// The largest interpolation error of each column of `M`'s table (f64),
/// relative to the column's largest magnitude, outside the potentials of
/// `skip`.
pub fn table_column_errors<M: CellModel>(params: &[f64], dt_ms: f64, skip: &[(f64, f64)]) -> Vec<f64> {
    let spec = M::RATE_TABLE.expect("the model has a rate table");
    let rows = crate::rate_table::rows_for::<M, f64>(params, dt_ms).expect("a table");
    crate::rate_table::worst_errors(&spec, &rows, 200_003, skip, |v, out| {
        M::table_columns(params, dt_ms, v, out)
    })
}

/// Asserts that every column of `M`'s table (f64) interpolates within
/// 5e-5 of the column's largest magnitude outside `skip`
/// ([`table_column_errors`]); `label` starts the messages.
pub fn assert_table_columns_within_5e5<M: CellModel>(
    params: &[f64],
    dt_ms: f64,
    skip: &[(f64, f64)],
    label: &str,
) {
    let errors = table_column_errors::<M>(params, dt_ms, skip);
    eprintln!("{label}rate table, worst error per column / column's largest value: {errors:?}");
    for (c, e) in errors.iter().enumerate() {
        assert!(*e < 5e-5, "{label}column {c}: {e:e}");
    }
}

/// Asserts that runs with `M`'s rate table follow the exact runs
/// ([`table_against_exact`]) in f64 and in f32: rest within 0.01 mV, peak
/// 0.1 mV, APD90 0.2 ms, max dV/dt 0.5 %, conduction velocity 0.2 %.
pub fn assert_table_follows_exact<M: CellModel>(
    params: &[f64],
    dt_ms: f64,
    pacing: Pacing,
    beats: usize,
    cable: Cable,
) {
    for (name, d) in [
        ("f64", table_against_exact::<M, f64>(params, dt_ms, pacing, beats, cable)),
        ("f32", table_against_exact::<M, f32>(params, dt_ms, pacing, beats, cable)),
    ] {
        eprintln!("rate table against exact functions, {name}: {d:?}");
        assert!(d.rest_mv < 0.01 && d.peak_mv < 0.1 && d.apd90_ms < 0.2, "{name}: {d:?}");
        assert!(d.max_dudt < 0.005 && d.velocity < 0.002, "{name}: {d:?}");
    }
}

/// Asserts the counts of `M`'s description (`variables` variables, one
/// more than its locals, each with a planar background value;
/// `parameters` parameters) and that every default and every preset's
/// value lies in its parameter's range; a stimulus carrier is a variable
/// after u and its rounding error, where it has one, the variable named
/// after it (`Ki__carry` for `Ki`).
pub fn assert_info_consistent<M: CellModel>(variables: usize, parameters: usize) {
    let info = M::INFO;
    for c in info.stimulus_current.map_or(&[][..], |s| s.carriers) {
        assert!((1..variables).contains(&c.variable), "{}: carrier {}", info.name, c.variable);
        if let Some(k) = c.carry {
            let carrier = info.variables[c.variable].name;
            assert_eq!(info.variables[k].name, format!("{carrier}__carry"), "{}", info.name);
        }
    }
    assert_eq!(info.variable_count(), variables);
    assert_eq!(<M::Locals<f64> as crate::model::Locals<f64>>::COUNT + 1, variables);
    assert_eq!(info.planar_background.len(), variables);
    assert_eq!(info.parameters.len(), parameters);
    for p in info.parameters {
        assert!(p.range.contains(p.default), "{}", p.name);
    }
    for preset in info.presets {
        for (name, value) in preset.values {
            let i = info.parameter_index(name).unwrap();
            assert!(info.parameters[i].range.contains(*value), "{}: {name}", preset.name);
        }
    }
}

/// Largest relative difference between the f32 and the f64 potential of a
/// paced cell over `ms`, relative to the f64 action potential's amplitude.
pub fn f32_against_f64<M: CellModel>(params: &[f64], dt_ms: f64, pacing: Pacing, ms: f64) -> f64 {
    let c32 = M::coeffs::<f32>(params, dt_ms);
    let c64 = M::coeffs::<f64>(params, dt_ms);
    let (s32, s64) = (StepCoeffs::<f32>::new(dt_ms, 0.0), StepCoeffs::<f64>::new(dt_ms, 0.0));
    let rest = M::INFO.variables[0].rest;
    let (mut u32_, mut u64_) = (rest as f32, rest);
    let (mut l32, mut l64) = (rest_locals::<M, f32>(), rest_locals::<M, f64>());
    let (mut worst, mut lo, mut hi) = (0f64, f64::INFINITY, f64::NEG_INFINITY);
    for n in 0..(ms / dt_ms).round() as u64 {
        let on = pacing.on(n, dt_ms);
        let (i32_, i64_) = if on { (pacing.amplitude as f32, pacing.amplitude) } else { (0.0, 0.0) };
        u32_ = s32.dt.mul_add(i32_, step_cell::<M, f32>(u32_, 0.0, &mut l32, &s32, &c32));
        u64_ = s64.dt.mul_add(i64_, step_cell::<M, f64>(u64_, 0.0, &mut l64, &s64, &c64));
        worst = worst.max((u32_ as f64 - u64_).abs());
        lo = lo.min(u64_);
        hi = hi.max(u64_);
    }
    worst / (hi - lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::MitchellSchaeffer;

    const MS: [f64; 5] = [0.3, 6.0, 120.0, 150.0, 0.13];

    #[test]
    fn measures_the_mitchell_schaeffer_action_potential() {
        let pacing = Pacing { amplitude: 0.5, duration_ms: 1.0, start_ms: 10.0, period_ms: 600.0 };
        let cell = pace_cell::<MitchellSchaeffer, f64>(&MS, 0.01, pacing, 2);
        let ap = cell.beats[0];
        // Our algebra (models/mitchell_schaeffer.rs): excited while
        // h > 4 tau_in/tau_out: tau_close ln(tau_out/(4 tau_in)) = 241 ms.
        assert_eq!(ap.rest, 0.0);
        assert!(ap.peak > 0.9 && ap.peak < 1.0, "{ap:?}");
        assert!(ap.apd90_ms > 241.0 && ap.apd90_ms < 300.0, "{ap:?}");
        assert!(ap.max_dudt > 0.5, "{ap:?}");
        assert_eq!(cell.end_states.len(), 2);
        assert!(cell.beats[1].peak > 0.9, "the second beat fires: {:?}", cell.beats[1]);
    }

    #[test]
    fn cable_velocity_matches_the_mitchell_schaeffer_front_speed() {
        let pacing = Pacing { amplitude: 1.0, duration_ms: 2.0, start_ms: 0.0, period_ms: 1e9 };
        let cv = cable_velocity::<MitchellSchaeffer, f64>(
            &MS,
            0.01,
            Cable { dx: 0.1, diffusion: 0.1, cells: 300 },
            pacing,
            0.5,
            200.0,
        );
        // sqrt(h D / (2 tau_in)) (v+ - 2 v-), h = 1, v+- roots of
        // v^2 - v + tau_in/tau_out: v+ = 0.9472, v- = 0.0528.
        let disc = (1.0f64 - 4.0 * 0.3 / 6.0).sqrt();
        let (vp, vm) = ((1.0 + disc) / 2.0, (1.0 - disc) / 2.0);
        let theory = (0.1f64 / 0.6).sqrt() * (vp - 2.0 * vm);
        assert!((cv - theory).abs() < 0.03 * theory, "cv {cv} against {theory}");
    }

    #[test]
    fn f32_follows_f64_through_an_action_potential() {
        let pacing = Pacing { amplitude: 0.5, duration_ms: 1.0, start_ms: 10.0, period_ms: 600.0 };
        let worst = f32_against_f64::<MitchellSchaeffer>(&MS, 0.01, pacing, 500.0);
        assert!(worst < 1e-3, "{worst}");
    }
}
