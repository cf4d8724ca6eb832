//! The run loop: advance, apply stimuli, sample the activation map, write
//! snapshots and checkpoints, check for NaN/Inf and for a stop request.
//!
//! One loop. It stops at every step where something is due (a stimulus,
//! an activation sample, a snapshot, a checkpoint), and at least every
//! `check_every` steps to look for NaN/Inf and for an interruption, and
//! advances the solver in between. At a stop, in this order: stimuli are
//! applied, the activation map is sampled, the snapshot is written, the
//! checkpoint is written. A checkpoint at step s therefore holds the state
//! after everything due at s, and a resumed run starts at s with nothing
//! left to do there, which is why it ends with the same bits.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::checkpoint;
use crate::domain::Domain;
use crate::events::activation::ActivationMap;
use crate::events::stimulus::StimulusSchedule;
use crate::io::snapshots::{SnapshotWriter, WriteError};
use crate::scalar::Scalar;
use crate::solver::{Solver, SolverError};
use crate::state::State;

/// When things happen during a run, in steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// 0 for a new run; the checkpoint's step for a resumed one.
    pub start_step: u64,
    /// Whether the state at `start_step` comes from a checkpoint, so that
    /// everything due at that step has been done already.
    pub resumed: bool,
    pub total_steps: u64,
    /// Write a snapshot at step 0 and every this many steps; `None` writes
    /// only the final state. The final state is always written.
    pub snapshot_every: Option<u64>,
    /// Check U for NaN/Inf, and whether to stop, at least this often.
    pub check_every: u64,
    /// Write a checkpoint every this many steps and at the end.
    pub checkpoint_every: Option<u64>,
}

impl Schedule {
    /// A new run of `total_steps` with the given snapshot and check intervals.
    pub fn new(total_steps: u64, snapshot_every: Option<u64>, check_every: u64) -> Self {
        Self {
            start_step: 0,
            resumed: false,
            total_steps,
            snapshot_every,
            check_every,
            checkpoint_every: None,
        }
    }

    fn snapshot_due(&self, step: u64) -> bool {
        step == self.total_steps || self.snapshot_every.is_some_and(|e| step.is_multiple_of(e))
    }

    fn checkpoint_due(&self, step: u64) -> bool {
        self.checkpoint_every
            .is_some_and(|e| step == self.total_steps || (step > 0 && step.is_multiple_of(e)))
    }

    /// The first multiple of `every` after `step`.
    fn next_multiple(step: u64, every: Option<u64>) -> Option<u64> {
        every.map(|e| (step / e + 1) * e)
    }

    /// Steps at which a snapshot is due, in order (from `start_step`).
    pub fn snapshot_steps(&self) -> Vec<u64> {
        (self.start_step..=self.total_steps)
            .filter(|&s| self.snapshot_due(s) && !(self.resumed && s == self.start_step))
            .collect()
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    Completed,
    /// Variable 0 held NaN or Inf at the check after `step`; the check after
    /// `last_clean_step` was clean, so the blow-up happened in between.
    NonFinite {
        step: u64,
        t_ms: f64,
        last_clean_step: u64,
    },
    /// A stop was requested (Ctrl-C); the run stopped at `step` after
    /// writing a checkpoint there.
    Interrupted {
        step: u64,
        t_ms: f64,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    pub outcome: Outcome,
    /// The step the run stopped at (counted from the start of the
    /// original run, also when resumed).
    pub steps_done: u64,
    /// Steps advanced by this invocation.
    pub steps_advanced: u64,
    /// Wall time spent stepping (including NaN checks), seconds.
    pub stepping_s: f64,
    /// Wall time spent downloading and writing snapshots and checkpoints, seconds.
    pub output_s: f64,
    /// Wall time of stimuli and activation sampling (downloads, uploads), seconds.
    pub host_s: f64,
    /// Steps at which checkpoints were written.
    pub checkpoints: Vec<u64>,
    /// Number of (stimulus, step) applications.
    pub stimulus_applications: u64,
}

#[derive(Debug, Error)]
pub enum DriverError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// What the loop acts on besides the solver.
///
/// In a multi-process run every rank runs this loop with the same
/// schedule, so that the collective calls (`fields`, `any_nonfinite`,
/// `any_rank`) happen at the same steps everywhere; only rank 0 has a
/// `writer` and a `checkpoint_path`, the others gather and drop.
pub struct RunContext<'a, T> {
    /// Snapshot output; `None` on the ranks that write nothing.
    pub writer: Option<&'a mut SnapshotWriter>,
    pub stimuli: &'a StimulusSchedule,
    pub activation: Option<&'a mut ActivationMap<T>>,
    /// Where checkpoints go: at `checkpoint_every` and when interrupted
    /// (`None` on the ranks that write nothing).
    pub checkpoint_path: Option<&'a Path>,
    /// Set (by a signal handler) to stop after the current chunk of steps.
    pub stop: &'a AtomicBool,
    /// Called with the current step after every chunk.
    pub progress: &'a mut dyn FnMut(u64),
}

/// Downloads the state once per stop, on first use.
fn state_of<'f, T: Scalar>(
    cache: &'f mut Option<State<T>>,
    solver: &mut dyn Solver<T>,
) -> Result<&'f mut State<T>, SolverError> {
    if cache.is_none() {
        *cache = Some(solver.state()?);
    }
    Ok(cache.as_mut().expect("just filled"))
}

/// Snapshots written so far (0 on the ranks that write none).
fn snapshots_written<T>(ctx: &RunContext<'_, T>) -> u64 {
    ctx.writer.as_deref().map_or(0, SnapshotWriter::next_index)
}

/// Runs `schedule` on `solver`.
pub fn run<T: Scalar>(
    solver: &mut dyn Solver<T>,
    domain: &Domain,
    schedule: &Schedule,
    ctx: &mut RunContext<'_, T>,
) -> Result<RunReport, DriverError> {
    let dt = domain.dt_ms();
    let mut step = schedule.start_step;
    let mut last_clean = step;
    let mut report = RunReport {
        outcome: Outcome::Completed,
        steps_done: step,
        steps_advanced: 0,
        stepping_s: 0.0,
        output_s: 0.0,
        host_s: 0.0,
        checkpoints: Vec::new(),
        stimulus_applications: 0,
    };
    let check_every = schedule.check_every.max(1);
    let mut skip_events = schedule.resumed;
    let checkpoint_path = ctx.checkpoint_path;
    let write_checkpoint = |report: &mut RunReport,
                            cache: &mut Option<State<T>>,
                            solver: &mut dyn Solver<T>,
                            activation: Option<&ActivationMap<T>>,
                            progress: checkpoint::Progress|
     -> Result<(), DriverError> {
        let t0 = Instant::now();
        let state = state_of(cache, solver)?;
        let step = progress.step;
        if let Some(path) = checkpoint_path {
            checkpoint::write(path, domain, progress, state, activation)
                .map_err(|source| WriteError { path: path.to_path_buf(), source })?;
        }
        report.checkpoints.push(step);
        report.output_s += t0.elapsed().as_secs_f64();
        Ok(())
    };
    loop {
        let mut cache: Option<State<T>> = None;
        let t_ms = step as f64 * dt;
        if !skip_events {
            let t0 = Instant::now();
            if ctx.stimuli.next_due(step) == Some(step) {
                let state = state_of(&mut cache, solver)?;
                report.stimulus_applications += ctx.stimuli.apply_at(step, state) as u64;
                solver.set_state(state)?;
            }
            if let Some(map) = ctx.activation.as_deref_mut()
                && map.due_at(step)
            {
                map.sample(t_ms, state_of(&mut cache, solver)?.slice(0));
            }
            report.host_s += t0.elapsed().as_secs_f64();
            if schedule.snapshot_due(step) {
                let t0 = Instant::now();
                let state = state_of(&mut cache, solver)?;
                if let Some(writer) = ctx.writer.as_deref_mut() {
                    writer.write(step, t_ms, state)?;
                }
                report.output_s += t0.elapsed().as_secs_f64();
            }
            if schedule.checkpoint_due(step) {
                let progress = checkpoint::Progress { step, snapshots: snapshots_written(ctx) };
                write_checkpoint(&mut report, &mut cache, solver, ctx.activation.as_deref(), progress)?;
            }
        }
        skip_events = false;
        report.steps_done = step;
        if step == schedule.total_steps {
            return Ok(report);
        }
        if solver.any_rank(ctx.stop.load(Ordering::SeqCst))? {
            if report.checkpoints.last() != Some(&step) {
                let progress = checkpoint::Progress { step, snapshots: snapshots_written(ctx) };
                write_checkpoint(&mut report, &mut cache, solver, ctx.activation.as_deref(), progress)?;
            }
            report.outcome = Outcome::Interrupted { step, t_ms };
            return Ok(report);
        }
        let mut target = (step + check_every).min(schedule.total_steps);
        let candidates = [
            Schedule::next_multiple(step, schedule.snapshot_every),
            Schedule::next_multiple(step, schedule.checkpoint_every),
            ctx.stimuli.next_due(step + 1),
            ctx.activation.as_deref().map(|m| m.next_due(step + 1)),
        ];
        for next in candidates.into_iter().flatten() {
            target = target.min(next);
        }
        let t0 = Instant::now();
        solver.advance(target - step)?;
        let bad = solver.any_nonfinite()?;
        report.stepping_s += t0.elapsed().as_secs_f64();
        report.steps_advanced += target - step;
        step = target;
        report.steps_done = step;
        (ctx.progress)(step);
        if bad {
            report.outcome = Outcome::NonFinite { step, t_ms: step as f64 * dt, last_clean_step: last_clean };
            return Ok(report);
        }
        last_clean = step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuSolver;
    use crate::events::stimulus::{RegionKind, StimulusSpec};
    use crate::io::OutputDir;
    use crate::io::snapshots::{Formats, SnapshotWriter};
    use crate::models::ModelSetup;
    use crate::{CellModel, GridDims};
    use kernels_gpu::models::Diffusion;

    #[test]
    fn snapshot_steps_include_start_and_end() {
        let s = Schedule::new(10, Some(4), 100);
        assert_eq!(s.snapshot_steps(), vec![0, 4, 8, 10]);
        let s = Schedule::new(8, Some(4), 100);
        assert_eq!(s.snapshot_steps(), vec![0, 4, 8]);
        let s = Schedule::new(8, None, 100);
        assert_eq!(s.snapshot_steps(), vec![8]);
        // Resumed at 4: the snapshot at 4 was written before the checkpoint.
        let s = Schedule { start_step: 4, resumed: true, ..Schedule::new(10, Some(4), 100) };
        assert_eq!(s.snapshot_steps(), vec![8, 10]);
    }

    /// A solver that records the steps at which it was asked for each thing.
    struct Recorder {
        inner: CpuSolver<Diffusion, f64>,
        step: u64,
        log: Vec<(u64, &'static str)>,
    }

    impl Solver<f64> for Recorder {
        fn kind(&self) -> crate::backend::BackendKind {
            self.inner.kind()
        }
        fn device_name(&self) -> String {
            "recorder".into()
        }
        fn method(&self) -> String {
            "recorder".into()
        }
        fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
            self.step += steps;
            self.log.push((self.step, "advance"));
            self.inner.advance(steps)
        }
        fn synchronize(&mut self) -> Result<(), SolverError> {
            Ok(())
        }
        fn state(&mut self) -> Result<State<f64>, SolverError> {
            self.log.push((self.step, "state"));
            self.inner.state()
        }
        fn set_state(&mut self, state: &State<f64>) -> Result<(), SolverError> {
            self.log.push((self.step, "set_state"));
            self.inner.set_state(state)
        }
        fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
            self.inner.any_nonfinite()
        }
    }

    #[test]
    fn the_loop_stops_where_stimuli_are_due_and_applies_them_before_stepping() {
        let dims = GridDims::new(4, 4, 4);
        let domain =
            Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
        let rest = State::rest(Diffusion::INFO, dims);
        let mut solver = Recorder { inner: CpuSolver::new(&domain, &rest), step: 0, log: Vec::new() };
        let mut s1 = StimulusSpec::new(RegionKind::Box, 0.35); // step 7
        s1.duration_ms = 0.1; // steps 7 and 8
        let stimuli = StimulusSchedule::compile(&[s1], dims, 0.05, Diffusion::INFO).unwrap();
        let dir = std::env::temp_dir().join(format!("fibril-driver-{}", std::process::id()));
        let out = OutputDir::prepare(&dir, true).unwrap();
        let mut writer = SnapshotWriter::new(out, vec![0], Formats::default(), 0.6);
        let stop = AtomicBool::new(false);
        let path = dir.join("checkpoint.fibril");
        let mut ctx = RunContext {
            writer: Some(&mut writer),
            stimuli: &stimuli,
            activation: None,
            checkpoint_path: Some(&path),
            stop: &stop,
            progress: &mut |_| {},
        };
        let report = run(&mut solver, &domain, &Schedule::new(20, None, 100), &mut ctx).unwrap();
        assert_eq!(report.outcome, Outcome::Completed);
        assert_eq!(report.stimulus_applications, 2);
        let sets: Vec<u64> = solver.log.iter().filter(|e| e.1 == "set_state").map(|e| e.0).collect();
        assert_eq!(sets, vec![7, 8]);
        let advances: Vec<u64> = solver.log.iter().filter(|e| e.1 == "advance").map(|e| e.0).collect();
        assert_eq!(advances, vec![7, 8, 20]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
