//! Running a restitution experiment through the simulation library: the
//! stimuli of the protocol on a cell or a cable ([`SimulationBuilder`]),
//! the potential at the probes recorded every sample, and the beats read
//! from the recording ([`super::measure`]).
//!
//! S1-S2: the first S1 beats are simulated once; the state before the
//! last S1 is then the start of every S2 run, which holds the last S1 (the
//! reference beat, and the repolarisation the DI counts from) and the S2,
//! and stops once the S2 has repolarised. Dynamic: one simulation over
//! every BCL, recorded only around the last beats of each.

use std::time::Instant;

use serde::Serialize;

use super::error::RestitutionError;
use super::measure::{Beat, Levels, Trace, beats, diastolic_interval_ms, first_delay_ms, lowest};
use super::protocol::{Dynamic, Geometry, Probes, Protocol, S1S2, Schedule};
use crate::events::stimulus::{RegionKind, StimulusSpec};
use crate::init::InitialCondition;
use crate::models::{ModelSetup, ParameterValue};
use crate::scalar::Scalar;
use crate::simulation::{Backend, Simulation, SimulationBuilder};
use crate::state::State;
use crate::units::UnitTags;

/// Samples between two looks at whether a run may stop early.
const CHECK_EVERY_SAMPLES: usize = 500;

/// Every recording starts this long (rounded up to whole steps) before
/// its first stimulus, so that the upstroke is crossed within the trace
/// and the diastolic potential before it is seen.
const LEAD_IN_MS: f64 = 5.0;

/// A response in a single cell shorter than this fraction of the
/// reference APD is not counted as an action potential: a stimulus that
/// finds the cell refractory still lifts the potential over the
/// activation threshold, and the lifted potential takes a while to decay
/// (Fenton-Karma's set-value stimulus: about tau_r ms), but it drives no
/// upstroke of its own. In a cable capture is propagation to the far
/// probe instead.
pub const CELL_CAPTURE_FRACTION: f64 = 0.2;

/// A restitution experiment: the model, the numerics, where it runs and
/// the schedule.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub model: String,
    pub preset: Option<String>,
    pub parameters: Vec<(String, f64)>,
    /// Grid spacing, mm (the model's usual one when `None`).
    pub dx_mm: Option<f64>,
    /// Time step, ms (the model's usual one when `None`).
    pub dt_ms: Option<f64>,
    /// The potential is read every this many ms (rounded to whole steps,
    /// at least one): fine enough that the linear interpolation of an
    /// upstroke is exact to a few hundredths of a ms.
    pub sample_ms: f64,
    pub backend: Backend,
    /// The GPU kernels (PTX) a GPU backend needs.
    pub kernels: Option<&'static str>,
    pub schedule: Schedule,
}

/// The numbers an experiment is run with, resolved and checked.
#[derive(Clone, Debug, Serialize)]
pub struct Numerics {
    pub dx_mm: f64,
    pub dt_ms: f64,
    pub diffusion_mm2_per_ms: f64,
    pub sample_every_steps: u64,
    /// How long one stimulus lasts (the model's own current, or one step).
    pub stimulus_ms: f64,
    pub probes: Probes,
}

/// The beat every other is compared with: the last S1, or the first
/// measured beat of the dynamic protocol, at the APD probe.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ReferenceBeat {
    /// The potential just before its stimulus.
    pub rest: f64,
    pub peak: f64,
    /// The APD level's potential.
    pub level: f64,
    pub apd_ms: f64,
    /// CV of the reference beat in a cable, m/s.
    pub cv_m_per_s: Option<f64>,
}

/// One measured beat: an S2 (S1-S2) or one of the last two beats of a BCL
/// (dynamic).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Row {
    /// The S2 coupling interval (S1-S2) or the BCL (dynamic), ms.
    pub interval_ms: f64,
    /// Dynamic: 1 for the last beat of the BCL, 2 for the one before it.
    pub beat_from_end: Option<u32>,
    pub di_ms: Option<f64>,
    pub apd_ms: Option<f64>,
    pub cv_m_per_s: Option<f64>,
    pub peak: Option<f64>,
    /// Whether the stimulus gave an action potential (that propagated to
    /// the far probe, in a cable).
    pub captured: bool,
}

/// What an experiment measured, with its settings.
#[derive(Clone, Debug, Serialize)]
pub struct Restitution {
    pub model: &'static str,
    pub preset: Option<&'static str>,
    pub parameters: Vec<ParameterValue>,
    pub potential_unit: &'static str,
    pub activation_threshold: f64,
    pub schedule: Schedule,
    pub numerics: Numerics,
    pub precision: String,
    pub device: String,
    pub method: String,
    pub reference: ReferenceBeat,
    pub rows: Vec<Row>,
    pub wall_s: f64,
}

impl Experiment {
    /// The model with its preset and parameters.
    pub fn setup(&self) -> Result<ModelSetup, RestitutionError> {
        Ok(ModelSetup::new(&self.model, self.preset.as_deref(), &self.parameters)?)
    }

    /// Checks everything that can be checked without simulating: the
    /// model, its units, the numerics, the schedule.
    pub fn check(&self) -> Result<(ModelSetup, Numerics), RestitutionError> {
        let setup = self.setup()?;
        let info = setup.info();
        if info.name == "diffusion" {
            return Err(RestitutionError::NoExcitation { model: info.name });
        }
        if UnitTags::of(&info.units) != UnitTags::MS_MM {
            let t = UnitTags::of(&info.units);
            return Err(RestitutionError::Units { model: info.name, time: t.time, space: t.space });
        }
        let n = info.numerics;
        let dx_mm = self.dx_mm.unwrap_or(n.dx);
        let dt_ms = self.dt_ms.unwrap_or(n.dt);
        let stimulus_ms = info.stimulus_current.map_or(dt_ms, |c| c.duration);
        self.schedule.check(dx_mm, dt_ms, stimulus_ms)?;
        let sample_every_steps = ((self.sample_ms / dt_ms).round() as u64).max(1);
        // A single cell has no neighbours: its mirror boundaries make the
        // Laplacian zero whatever D is.
        let diffusion_mm2_per_ms = n.diffusion;
        let probes = self.schedule.geometry.probes(dx_mm);
        Ok((setup, Numerics { dx_mm, dt_ms, diffusion_mm2_per_ms, sample_every_steps, stimulus_ms, probes }))
    }

    /// Runs the experiment in precision `T`.
    pub fn run<T: Scalar>(&self) -> Result<Restitution, RestitutionError> {
        let t0 = Instant::now();
        let (setup, numerics) = self.check()?;
        let runner = Runner { experiment: self, numerics: numerics.clone(), setup: &setup };
        let (reference, rows, placement) = match &self.schedule.protocol {
            Protocol::S1S2(p) => runner.s1s2::<T>(p)?,
            Protocol::Dynamic(p) => runner.dynamic::<T>(p)?,
        };
        let info = setup.info();
        Ok(Restitution {
            model: info.name,
            preset: setup.preset(),
            parameters: setup.parameters(),
            potential_unit: info.variables[0].unit,
            activation_threshold: info.activation_threshold,
            schedule: self.schedule.clone(),
            numerics,
            precision: T::PRECISION.to_string(),
            device: placement.0,
            method: placement.1,
            reference,
            rows,
            wall_s: t0.elapsed().as_secs_f64(),
        })
    }
}

/// The device and the code path a run used.
type Placement = (String, String);

struct Runner<'a> {
    experiment: &'a Experiment,
    numerics: Numerics,
    setup: &'a ModelSetup,
}

/// The probe cells in the order of a trace: the APD cell, then the CV cells.
fn probe_cells(p: &Probes) -> Vec<u32> {
    let mut cells = vec![p.apd_cell];
    cells.extend(p.cv_cells.iter().flatten());
    cells
}

impl Runner<'_> {
    /// A stimulus of the protocol at `at_ms` on the stimulated cells (the
    /// model's own: its current for the ionic models, else its value).
    fn stimulus(&self, at_ms: f64) -> StimulusSpec {
        let mut s = StimulusSpec::new(RegionKind::Box, at_ms);
        s.x = Some([0, self.numerics.probes.stimulated_cells - 1]);
        s
    }

    /// A simulation of the geometry from rest (or `from`) with `stimuli`.
    fn simulation<T: Scalar>(
        &self,
        stimuli: Vec<StimulusSpec>,
        from: Option<&State<T>>,
    ) -> Result<Simulation<T>, RestitutionError> {
        let e = self.experiment;
        let n = &self.numerics;
        let mut b = SimulationBuilder::new(&e.model)
            .grid(e.schedule.geometry.nx(), 1, 1)
            .dx(n.dx_mm)
            .dt_ms(n.dt_ms)
            .diffusion(n.diffusion_mm2_per_ms)
            .initial(InitialCondition::Rest)
            .backend(e.backend.clone());
        if let Some(p) = &e.preset {
            b = b.preset(p);
        }
        for (name, value) in &e.parameters {
            b = b.parameter(name, *value);
        }
        if let Some(ptx) = e.kernels {
            b = b.kernels(ptx);
        }
        for s in stimuli {
            b = b.stimulus(s);
        }
        let mut sim = b.build::<T>()?;
        if let Some(state) = from {
            sim.set_state(state)?;
        }
        Ok(sim)
    }

    /// Records the probes from the simulation's current time to `until_ms`
    /// (times from the simulation's start), or until `done` says the
    /// trace holds what is needed.
    fn record<T: Scalar>(
        &self,
        sim: &mut Simulation<T>,
        until_ms: f64,
        mut done: impl FnMut(&Trace) -> bool,
    ) -> Result<Trace, RestitutionError> {
        let cells = probe_cells(&self.numerics.probes);
        let every = self.numerics.sample_every_steps;
        let mut state = sim.state()?;
        let mut trace = Trace::new(cells.len());
        let push = |trace: &mut Trace, state: &State<T>, t_ms: f64| {
            trace.t_ms.push(t_ms);
            let v = state.slice(0);
            for (p, &c) in cells.iter().enumerate() {
                trace.v[p].push(v[c as usize].to_f64());
            }
        };
        push(&mut trace, &state, sim.time_ms());
        let end = (until_ms / self.numerics.dt_ms).ceil() as u64;
        while sim.step() < end {
            sim.advance(every.min(end - sim.step()))?;
            sim.state_into(&mut state)?;
            push(&mut trace, &state, sim.time_ms());
            if trace.t_ms.len().is_multiple_of(CHECK_EVERY_SAMPLES) && done(&trace) {
                break;
            }
        }
        Ok(trace)
    }

    /// The S1-S2 protocol.
    fn s1s2<T: Scalar>(&self, p: &S1S2) -> Result<(ReferenceBeat, Vec<Row>, Placement), RestitutionError> {
        // The S1 beats before the last, simulated once.
        // The last S1 comes `pre` after the start of each S2 run.
        let pre = self.lead_in_ms();
        let start = if p.s1_beats > 1 {
            let mut train = self.stimulus(pre);
            train.period_ms = Some(p.bcl_ms);
            train.count = Some(u64::from(p.s1_beats - 1));
            let mut sim = self.simulation::<T>(vec![train], None)?;
            sim.run_for_ms(f64::from(p.s1_beats - 1) * p.bcl_ms)?;
            Some(sim.state()?)
        } else {
            None
        };
        let mut rows = Vec::new();
        let mut reference: Option<(ReferenceBeat, Delays)> = None;
        let mut placement = (String::new(), String::new());
        for s2_ms in p.s2.intervals_ms() {
            let stimuli_ms = [pre, pre + s2_ms];
            let mut sim =
                self.simulation::<T>(vec![self.stimulus(pre), self.stimulus(pre + s2_ms)], start.as_ref())?;
            let (_, device, method) = sim.placement();
            placement = (device, method);
            // Long enough for the S2 to repolarise everywhere: the last S1
            // lasts longer than any S2 after it; before it is measured,
            // the BCL bounds it.
            let longest_ms = reference.as_ref().map_or(p.bcl_ms, |(r, d)| 1.5 * r.apd_ms + d.far_ms());
            let until_ms = stimuli_ms[1] + longest_ms + 50.0;
            let trace = self.record(&mut sim, until_ms, |trace| {
                reference.as_ref().is_some_and(|(r, d)| {
                    let beats = self.beats(trace, &stimuli_ms, d, r.level);
                    beats[0][1].end_ms.is_some()
                        || trace.end_ms() > stimuli_ms[1] + d.far_ms() + 1.5 * r.apd_ms
                })
            })?;
            if reference.is_none() {
                reference = Some(self.reference(&trace, &stimuli_ms)?);
            }
            let (r, d) = reference.as_ref().expect("set above");
            let beats = self.beats(&trace, &stimuli_ms, d, r.level);
            let row = self.row(s2_ms, None, &beats, 1, r);
            rows.push(row);
            if !row.captured {
                break;
            }
        }
        let (reference, _) = reference.expect("the sweep has at least one interval");
        Ok((reference, rows, placement))
    }

    /// The dynamic protocol.
    fn dynamic<T: Scalar>(
        &self,
        p: &Dynamic,
    ) -> Result<(ReferenceBeat, Vec<Row>, Placement), RestitutionError> {
        let n = p.beats;
        let mut starts_ms = Vec::with_capacity(p.bcls_ms.len());
        let mut t = 0.0;
        let mut specs = Vec::new();
        for &bcl in &p.bcls_ms {
            starts_ms.push(t);
            let mut s = self.stimulus(t);
            s.period_ms = Some(bcl);
            s.count = Some(u64::from(n));
            specs.push(s);
            t += bcl * f64::from(n);
        }
        let mut sim = self.simulation::<T>(specs, None)?;
        let (_, device, method) = sim.placement();
        let mut reference: Option<(ReferenceBeat, Delays)> = None;
        let mut rows = Vec::new();
        for (b, &bcl) in p.bcls_ms.iter().enumerate() {
            let next_bcl = p.bcls_ms.get(b + 1).copied();
            let block_end_ms = starts_ms[b] + bcl * f64::from(n);
            // The last three beats of the block and the first of the next.
            let mut stimuli_ms: Vec<f64> = (n - 3..n).map(|k| starts_ms[b] + bcl * f64::from(k)).collect();
            if next_bcl.is_some() {
                stimuli_ms.push(block_end_ms);
            }
            let pre = self.lead_in_ms();
            sim.run_for_ms(stimuli_ms[0] - pre - sim.time_ms())?;
            let until_ms = block_end_ms + next_bcl.unwrap_or(bcl);
            let trace = self.record(&mut sim, until_ms, |_| false)?;
            if reference.is_none() {
                reference = Some(self.reference(&trace, &stimuli_ms)?);
            }
            let (r, d) = reference.as_ref().expect("set above");
            let beats = self.beats(&trace, &stimuli_ms, d, r.level);
            let mut followed = true;
            for (from_end, k) in [(2, 1), (1, 2)] {
                let row = self.row(bcl, Some(from_end), &beats, k, r);
                followed &= row.captured;
                rows.push(row);
            }
            if !followed {
                break;
            }
        }
        let (reference, _) = reference.expect("at least one BCL");
        Ok((reference, rows, (device, method)))
    }

    /// The reference beat (the first stimulus of `trace`) at the APD probe,
    /// the level it sets and the delays of its front at the probes.
    fn reference(
        &self,
        trace: &Trace,
        stimuli_ms: &[f64],
    ) -> Result<(ReferenceBeat, Delays), RestitutionError> {
        let info = self.setup.info();
        let threshold = info.activation_threshold;
        let probes = &self.numerics.probes;
        let cells = probe_cells(probes);
        let s0 = stimuli_ms[0];
        let next = stimuli_ms.get(1).copied().unwrap_or(f64::INFINITY);
        let lead = self.lead_ms();
        let mut delays = Vec::with_capacity(cells.len());
        for (p, &cell) in cells.iter().enumerate() {
            match first_delay_ms(trace, p, s0, lead, threshold) {
                Some(d) if s0 + d < next => delays.push(d),
                _ => return Err(RestitutionError::NoReference { threshold, cell }),
            }
        }
        let delays = Delays(delays);
        // The diastolic potential: the lowest before the next stimulus
        // (before the reference beat, and after it at a long interval).
        let rest = lowest(trace, 0, f64::NEG_INFINITY, next).expect("the trace starts before the stimulus");
        let peak = trace
            .t_ms
            .iter()
            .zip(&trace.v[0])
            .filter(|&(&t, _)| t >= s0 && t < next + delays.0[0])
            .fold(f64::NEG_INFINITY, |m, (_, &v)| m.max(v));
        let level = self.experiment.schedule.level.potential(rest, peak);
        let beats = self.beats(trace, stimuli_ms, &delays, level);
        let first = beats[0][0];
        let Some(apd_ms) = first.apd_ms() else {
            return Err(RestitutionError::ReferenceNotRepolarised { cell: probes.apd_cell, level });
        };
        let cv_m_per_s = self.cv(&beats, 0);
        Ok((ReferenceBeat { rest, peak, level, apd_ms, cv_m_per_s }, delays))
    }

    /// The beats of `stimuli_ms` at every probe: `[probe][beat]`.
    fn beats(&self, trace: &Trace, stimuli_ms: &[f64], delays: &Delays, level: f64) -> Vec<Vec<Beat>> {
        let levels = Levels { activation: self.setup.info().activation_threshold, apd: level };
        let lead = self.lead_ms();
        (0..trace.v.len()).map(|p| beats(trace, p, stimuli_ms, delays.0[p], lead, levels)).collect()
    }

    /// The time between two samples: how early a crossing may be dated
    /// before its stimulus (see [`beats`]).
    fn lead_ms(&self) -> f64 {
        self.numerics.sample_every_steps as f64 * self.numerics.dt_ms
    }

    /// [`LEAD_IN_MS`] in whole steps.
    fn lead_in_ms(&self) -> f64 {
        let dt = self.numerics.dt_ms;
        (LEAD_IN_MS / dt).ceil() * dt
    }

    /// CV of beat `k` between the CV probes, m/s (mm/ms).
    fn cv(&self, beats: &[Vec<Beat>], k: usize) -> Option<f64> {
        let [a, b] = self.numerics.probes.cv_cells?;
        let (ta, tb) = (beats[1][k].activation_ms?, beats[2][k].activation_ms?);
        (tb > ta).then(|| f64::from(b - a) * self.numerics.dx_mm / (tb - ta))
    }

    /// The row of beat `k` (DI from beat `k - 1`).
    fn row(
        &self,
        interval_ms: f64,
        beat_from_end: Option<u32>,
        beats: &[Vec<Beat>],
        k: usize,
        r: &ReferenceBeat,
    ) -> Row {
        let beat = beats[0][k];
        let apd_ms = beat.apd_ms();
        let di_ms = diastolic_interval_ms(&beats[0][k - 1], &beat);
        let cv_m_per_s = self.cv(beats, k);
        let captured = match self.experiment.schedule.geometry {
            Geometry::Cell => apd_ms.is_some_and(|a| a >= CELL_CAPTURE_FRACTION * r.apd_ms),
            Geometry::Cable { .. } => apd_ms.is_some() && cv_m_per_s.is_some(),
        };
        Row { interval_ms, beat_from_end, di_ms, apd_ms, cv_m_per_s, peak: beat.peak, captured }
    }
}

/// The travel time of the reference beat's front from its stimulus to
/// each probe, ms, in the order of a trace.
struct Delays(Vec<f64>);

impl Delays {
    /// The longest of them.
    fn far_ms(&self) -> f64 {
        self.0.iter().copied().fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restitution::Dynamic;
    use crate::restitution::protocol::{ApdLevel, S2Sweep};

    fn experiment(model: &str, protocol: Protocol, geometry: Geometry, level: ApdLevel) -> Experiment {
        Experiment {
            model: model.into(),
            preset: None,
            parameters: vec![],
            dx_mm: None,
            dt_ms: None,
            sample_ms: 0.1,
            backend: Backend::Cpu,
            kernels: None,
            schedule: Schedule { protocol, geometry, level },
        }
    }

    fn s1s2(bcl_ms: f64, s1_beats: u32, from_ms: f64, to_ms: f64, step_ms: f64) -> Protocol {
        Protocol::S1S2(S1S2 { bcl_ms, s1_beats, s2: S2Sweep { from_ms, to_ms, step_ms } })
    }

    fn captured(r: &Restitution) -> Vec<(f64, f64)> {
        crate::restitution::report::curves(&r.rows).0
    }

    #[test]
    fn mitchell_schaeffer_follows_its_closed_form_up_to_a_constant() {
        // The closed form is the leading order in tau_in/tau_out and
        // tau_out/tau_close: the simulated action potential ends later, by
        // the slow passage through the fold at h = h_min (about 40 ms with
        // the paper's values), nearly the same at every DI well above
        // tau_out. Its shape (h recovering with tau_open during the DI,
        // closing with tau_close during the APD) must match.
        let e = experiment(
            "mitchell_schaeffer",
            s1s2(500.0, 2, 480.0, 200.0, 20.0),
            Geometry::Cell,
            ApdLevel::Potential(0.13),
        );
        let r = e.run::<f64>().unwrap();
        let curve = captured(&r);
        assert!(curve.len() >= 8, "{:?}", r.rows);
        assert!(curve.windows(2).all(|w| w[1].0 < w[0].0 && w[1].1 < w[0].1), "APD falls with DI: {curve:?}");
        let closed =
            |di| crate::restitution::published::mitchell_schaeffer_apd_ms(di, 0.3, 6.0, 120.0, 150.0);
        let offsets: Vec<f64> =
            curve.iter().filter(|p| p.0 >= 90.0).map(|&(di, apd)| apd - closed(di)).collect();
        let (lo, hi) = offsets.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &o| (lo.min(o), hi.max(o)));
        eprintln!("APD - closed form at DI >= 90 ms: {lo:.2} to {hi:.2} ms over {} points", offsets.len());
        assert!(offsets.len() >= 6 && hi - lo < 5.0, "not a constant offset: {offsets:?}");
        assert!(lo > 25.0 && hi < 55.0, "{offsets:?}");
        // An S2 into the action potential does not capture.
        let last = r.rows.last().unwrap();
        assert!(!last.captured && last.interval_ms > 200.0, "{last:?}");
    }

    #[test]
    fn beeler_reuter_cell_apd_rises_with_di_and_a_refractory_cell_does_not_capture() {
        let e = experiment(
            "beeler_reuter",
            s1s2(1000.0, 2, 700.0, 200.0, 50.0),
            Geometry::Cell,
            ApdLevel::Percent(90.0),
        );
        let r = e.run::<f64>().unwrap();
        // APD90 of the 1 Hz beat (the model's own tests: 283 ms).
        assert!((r.reference.apd_ms - 283.0).abs() < 3.0, "{:?}", r.reference);
        let curve = captured(&r);
        assert!(curve.len() >= 6, "{:?}", r.rows);
        assert!(curve.windows(2).all(|w| w[1].0 < w[0].0 && w[1].1 < w[0].1), "{curve:?}");
        let last = r.rows.last().unwrap();
        assert!(
            !last.captured && last.interval_ms >= 250.0,
            "an S2 at 250 ms finds the cell refractory: {last:?}"
        );
    }

    #[test]
    fn beeler_reuter_cable_matches_fenton_karma_1998_and_slows_at_short_di() {
        // FK98 Fig. 3's conditions: one S1 from rest, APD and DI at -60 mV,
        // D = 0.1 mm^2/ms (a shorter cable, 24 mm, to keep the test short).
        let e = experiment(
            "beeler_reuter",
            s1s2(1000.0, 1, 450.0, 300.0, 25.0),
            Geometry::Cable { cells: 120 },
            ApdLevel::Potential(-60.0),
        );
        let r = e.run::<f64>().unwrap();
        let (apd, cv) = crate::restitution::report::curves(&r.rows);
        eprintln!("{:?}", r.rows);
        assert!(cv.len() >= 4, "{:?}", r.rows);
        let (long, short) = (cv[0], *cv.last().unwrap());
        assert!(short.0 < 80.0 && short.1 < long.1 - 0.02, "CV falls at short DI: {cv:?}");
        // FK98's plateau CV is 0.42 m/s; ours at dx = 0.2 mm 0.436.
        assert!((long.1 - 0.42).abs() < 0.03, "{cv:?}");
        let published = crate::restitution::published::FK98_BR_APD_MS;
        let a = crate::restitution::published::compare(&apd, &published).unwrap();
        eprintln!("against FK98 Fig. 3a: {a:?}");
        assert!(a.points >= 8 && a.max_abs_difference < 15.0, "{a:?}");
    }

    #[test]
    fn dynamic_pacing_shows_mitchell_schaeffer_alternans() {
        // Its restitution slope exceeds 1 at short DI: at 500 ms the beats
        // repeat, at 260 ms they alternate long-short.
        let p = Protocol::Dynamic(Dynamic { bcls_ms: vec![500.0, 300.0, 260.0], beats: 10 });
        let e = experiment("mitchell_schaeffer", p, Geometry::Cell, ApdLevel::Percent(90.0));
        let r = e.run::<f64>().unwrap();
        assert_eq!(r.rows.len(), 6);
        let apd = |i: usize| r.rows[i].apd_ms.unwrap();
        assert!((apd(0) - apd(1)).abs() < 0.1, "{:?}", &r.rows[..2]);
        assert!((apd(4) - apd(5)).abs() > 20.0, "{:?}", &r.rows[4..]);
        // The last beat's DI and the APD before it make up the BCL (to
        // the sample: each upstroke is dated between two samples).
        for pair in r.rows.chunks(2) {
            let cycle = pair[0].apd_ms.unwrap() + pair[1].di_ms.unwrap();
            assert!((cycle - pair[1].interval_ms).abs() < 0.05, "{pair:?}");
        }
    }
}
