//! The run loop: advance, write snapshots and checkpoints, check for
//! NaN/Inf and for a stop request.
//!
//! Stimuli and the activation and APD maps are the solver's business (it
//! acts on them at every step, on the GPU without leaving the device; see
//! [`crate::events`]), so the loop stops only where output is due (a
//! snapshot, a checkpoint) and at least every `check_every` steps to look
//! for NaN/Inf and for an interruption, and advances the solver in between.
//! Where nothing else happens at a check's step, the check is begun after
//! the steps before it and answered only once the next steps are
//! enqueued ([`Solver::begin_nonfinite_check`]; the one-GPU solvers that
//! record no maps leave it pending, the others answer at once), so that
//! the GPU does not wait for the host between stretches; a NaN found so
//! is reported at the step it was checked at, as a synchronous check would
//! report it, and nothing is written after it.
//! The state at a stop at step s is the state after the stimuli due at s
//! (the solver applies them before the state or the maps are read, or the
//! step is taken), so a checkpoint at s holds everything a resumed run
//! needs to take step s exactly as the uninterrupted run did, which is why
//! it ends with the same bits.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::checkpoint;
use crate::domain::Domain;
use crate::io::queue::SnapshotQueue;
use crate::io::snapshots::WriteError;
use crate::outputs::{OutputError, Sampler, Saved};
use crate::scalar::Scalar;
use crate::solver::{NonfiniteCheck, Solver, SolverError};
use crate::state::State;

/// When things happen during a run, in steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// 0 for a new run; the checkpoint's step for a resumed one.
    pub start_step: u64,
    /// Whether the state at `start_step` comes from a checkpoint, so that
    /// the output due at that step has been written already.
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
    /// An error ended the run at `step` (a file that could not be written,
    /// a device that failed); what was written before it stays.
    Failed {
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
    /// Steps at which checkpoints were written.
    pub checkpoints: Vec<u64>,
}

#[derive(Debug, Error)]
pub enum DriverError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// A run that an error ended: the error, and the report of what was done
/// before it (its outcome [`Outcome::Failed`]), so that the summary of the
/// run can still be written.
#[derive(Debug, Error)]
#[error("{error}")]
pub struct RunFailure {
    pub report: RunReport,
    #[source]
    pub error: DriverError,
}

/// What the loop acts on besides the solver.
///
/// In a multi-process run every rank runs this loop with the same
/// schedule, so that the collective calls (`state`, `maps`,
/// `any_nonfinite`, `any_rank`) happen at the same steps everywhere; only
/// rank 0 has a `writer` and a `checkpoint_path`, the others gather and
/// drop.
pub struct RunContext<'a, T: Scalar> {
    /// Snapshot output; `None` on the ranks that write nothing.
    pub writer: Option<&'a mut SnapshotQueue>,
    /// What is sampled as the run goes (the pseudo-ECG, tips), each at its
    /// own interval, in this order.
    pub outputs: Vec<&'a mut dyn Sampler<T>>,
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

/// Waits for the queued snapshots: a checkpoint counts only snapshots on disk.
fn flush<T: Scalar>(ctx: &mut RunContext<'_, T>) -> Result<(), DriverError> {
    if let Some(writer) = ctx.writer.as_deref_mut() {
        writer.flush()?;
    }
    Ok(())
}

/// Saves what the outputs sampled so far beside the checkpoint, before
/// it: a resumed run finds every sample its checkpoint had taken.
fn save_outputs<T: Scalar>(ctx: &RunContext<'_, T>, domain: &Domain) -> Result<(), DriverError> {
    let Some(writer) = ctx.writer.as_deref() else { return Ok(()) };
    for output in &ctx.outputs {
        output.save(writer.dir(), domain, Saved::BesideCheckpoint)?;
    }
    Ok(())
}

/// The phase memory a checkpoint keeps for a run finding tips.
fn phase_sample<T: Scalar>(
    ctx: &RunContext<'_, T>,
    solver: &mut dyn Solver<T>,
) -> Result<Option<checkpoint::PhaseSample>, SolverError> {
    for output in &ctx.outputs {
        if let Some(sample) = output.checkpoint_phase(solver)? {
            return Ok(Some(sample));
        }
    }
    Ok(None)
}

/// Snapshots written so far (0 on the ranks that write none).
fn snapshots_written<T: Scalar>(ctx: &RunContext<'_, T>) -> u64 {
    ctx.writer.as_deref().map_or(0, SnapshotQueue::next_index)
}

/// Runs `schedule` on `solver`, whose events are installed. An error
/// ends the run with the report of what was done before it.
pub fn run<T: Scalar>(
    solver: &mut dyn Solver<T>,
    domain: &Domain,
    schedule: &Schedule,
    ctx: &mut RunContext<'_, T>,
) -> Result<RunReport, Box<RunFailure>> {
    let mut report = RunReport {
        outcome: Outcome::Completed,
        steps_done: schedule.start_step,
        steps_advanced: 0,
        stepping_s: 0.0,
        output_s: 0.0,
        checkpoints: Vec::new(),
    };
    match run_loop(solver, domain, schedule, ctx, &mut report) {
        Ok(()) => Ok(report),
        Err(error) => {
            let step = report.steps_done;
            report.outcome = Outcome::Failed { step, t_ms: step as f64 * domain.dt_ms() };
            Err(Box::new(RunFailure { report, error }))
        }
    }
}

/// The loop of [`run`], keeping `report` up to date as it goes.
fn run_loop<T: Scalar>(
    solver: &mut dyn Solver<T>,
    domain: &Domain,
    schedule: &Schedule,
    ctx: &mut RunContext<'_, T>,
    report: &mut RunReport,
) -> Result<(), DriverError> {
    let dt = domain.dt_ms();
    let mut step = schedule.start_step;
    let mut last_clean = step;
    let run = ctx.writer.as_deref().map(|w| w.dir().run_id());
    let check_every = schedule.check_every.max(1);
    let mut skip_output = schedule.resumed;
    let checkpoint_path = ctx.checkpoint_path;
    let write_checkpoint = |report: &mut RunReport,
                            cache: &mut Option<State<T>>,
                            solver: &mut dyn Solver<T>,
                            progress: checkpoint::Progress,
                            phase: Option<checkpoint::PhaseSample>|
     -> Result<(), DriverError> {
        let t0 = Instant::now();
        let state = state_of(cache, solver)?;
        // Collective in a multi-process run: every rank gathers.
        let maps = solver.maps()?;
        let step = progress.step;
        if let Some(path) = checkpoint_path {
            checkpoint::write(path, domain, progress, state, maps.as_ref(), phase.as_ref())
                .map_err(|source| WriteError { path: path.to_path_buf(), source })?;
        }
        report.checkpoints.push(step);
        report.output_s += t0.elapsed().as_secs_f64();
        Ok(())
    };
    let mut pending: Option<PendingCheck> = None;
    // A snapshot whose copy was begun at (step, t_ms), written once the
    // next steps are enqueued.
    let mut in_flight: Option<(u64, f64)> = None;
    loop {
        let mut cache: Option<State<T>> = None;
        let t_ms = step as f64 * dt;
        if !skip_output {
            for output in ctx.outputs.iter_mut() {
                if step.is_multiple_of(output.every()) {
                    let t0 = Instant::now();
                    output.sample(step, t_ms, solver)?;
                    report.output_s += t0.elapsed().as_secs_f64();
                }
            }
            // A snapshot the loop steps on from (neither the end nor a
            // checkpoint, which need the state now): copied out behind the
            // next steps where the solver can, collected after they are
            // enqueued.
            let steps_on = step < schedule.total_steps && !schedule.checkpoint_due(step);
            let due = schedule.snapshot_due(step);
            if due && steps_on && cache.is_none() && ctx.writer.is_some() && solver.begin_state_copy()? {
                in_flight = Some((step, t_ms));
            } else if due && (ctx.writer.is_some() || schedule.checkpoint_due(step)) {
                // (Without a writer the state is not downloaded: a library
                // call running to a step does not pay for a copy it drops.)
                let t0 = Instant::now();
                if cache.is_none()
                    && let Some(mut reused) = ctx.writer.as_deref().and_then(|w| w.take_recycled::<T>())
                {
                    solver.state_into(&mut reused)?;
                    cache = Some(reused);
                }
                state_of(&mut cache, solver)?;
                if let Some(writer) = ctx.writer.as_deref_mut() {
                    // The state goes to the writer, unless the checkpoint at
                    // this step needs it too.
                    if schedule.checkpoint_due(step) {
                        writer.write_borrowed(step, t_ms, cache.as_ref().expect("downloaded above"))?;
                    } else {
                        writer.write(step, t_ms, cache.take().expect("downloaded above"))?;
                    }
                }
                report.output_s += t0.elapsed().as_secs_f64();
            }
            if schedule.checkpoint_due(step) {
                flush(ctx)?;
                save_outputs(ctx, domain)?;
                let progress = checkpoint::Progress { step, snapshots: snapshots_written(ctx), run };
                let phase = phase_sample(ctx, solver)?;
                write_checkpoint(report, &mut cache, solver, progress, phase)?;
            }
        }
        skip_output = false;
        report.steps_done = step;
        if step == schedule.total_steps {
            return Ok(());
        }
        if solver.any_rank(ctx.stop.load(Ordering::SeqCst))? {
            // The state at `step` is checked before a checkpoint keeps it.
            if let Some(at) = pending.take()
                && solver.end_nonfinite_check(at.check)?
            {
                report.outcome = Outcome::NonFinite { step, t_ms, last_clean_step: last_clean };
                return Ok(());
            }
            if report.checkpoints.last() != Some(&step) {
                flush(ctx)?;
                save_outputs(ctx, domain)?;
                let progress = checkpoint::Progress { step, snapshots: snapshots_written(ctx), run };
                let phase = phase_sample(ctx, solver)?;
                write_checkpoint(report, &mut cache, solver, progress, phase)?;
            }
            report.outcome = Outcome::Interrupted { step, t_ms };
            return Ok(());
        }
        let mut target = (step + check_every).min(schedule.total_steps);
        let mut candidates = vec![
            Schedule::next_multiple(step, schedule.snapshot_every),
            Schedule::next_multiple(step, schedule.checkpoint_every),
        ];
        candidates.extend(ctx.outputs.iter().map(|o| Schedule::next_multiple(step, Some(o.every()))));
        for next in candidates.iter().copied().flatten() {
            target = target.min(next);
        }
        // Whether the loop writes or reads anything at `target` (or ends
        // there): a NaN check there is answered before the loop goes on,
        // so that nothing is written after a NaN. At the other steps the
        // check is left pending while the next steps are enqueued.
        let acts_at_target = target == schedule.total_steps || candidates.contains(&Some(target));
        let t0 = Instant::now();
        solver.advance(target - step)?;
        report.steps_advanced += target - step;
        // Output time, not stepping time, though the steps run meanwhile.
        let mut collect_s = 0.0;
        if let Some((at, at_ms)) = in_flight.take() {
            let t1 = Instant::now();
            let state = solver.collect_state()?;
            ctx.writer.as_deref_mut().expect("a snapshot in flight has a writer").write(at, at_ms, state)?;
            collect_s = t1.elapsed().as_secs_f64();
            report.output_s += collect_s;
        }
        // The check of the state at `step`, begun before these steps were
        // enqueued, is answered now, while the GPU takes them.
        if let Some(at) = pending.take() {
            if solver.end_nonfinite_check(at.check)? {
                // Found late: the steps after `at` ran, but the run ends at
                // `at` as a synchronous check would have ended it.
                report.stepping_s += t0.elapsed().as_secs_f64() - collect_s;
                report.steps_done = at.step;
                let t_ms = at.step as f64 * dt;
                report.outcome = Outcome::NonFinite { step: at.step, t_ms, last_clean_step: last_clean };
                return Ok(());
            }
            last_clean = at.step;
        }
        let check = solver.begin_nonfinite_check()?;
        let now = match check {
            NonfiniteCheck::Pending(_) if !acts_at_target => {
                pending = Some(PendingCheck { check, step: target });
                None
            }
            _ => Some(solver.end_nonfinite_check(check)?),
        };
        report.stepping_s += t0.elapsed().as_secs_f64() - collect_s;
        step = target;
        report.steps_done = step;
        (ctx.progress)(step);
        if now == Some(true) {
            report.outcome = Outcome::NonFinite { step, t_ms: step as f64 * dt, last_clean_step: last_clean };
            return Ok(());
        }
        if now == Some(false) {
            last_clean = step;
        }
    }
}

/// A NaN check of the state at `step`, begun and not yet answered.
struct PendingCheck {
    check: NonfiniteCheck,
    step: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuSolver;
    use crate::events::recording::{Maps, Recording};
    use crate::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
    use crate::events::{EventStart, Events};
    use crate::io::OutputDir;
    use crate::io::queue::SnapshotQueue;
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

    /// A solver that records the steps at which it was asked for each
    /// thing. With `pending`, its NaN checks stay pending, as a GPU's do;
    /// it puts a NaN into the field when it passes `nan_at`.
    struct Recorder {
        inner: CpuSolver<Diffusion, f64>,
        step: u64,
        log: Vec<(u64, &'static str)>,
        pending: bool,
        answers: Vec<bool>,
        nan_at: u64,
        /// Copies the state out "behind" the steps: at `begin_state_copy`,
        /// given back at `collect_state`.
        copy_behind: bool,
        copied: Option<State<f64>>,
    }

    impl Recorder {
        fn new(domain: &Domain, state: &State<f64>) -> Self {
            let inner = CpuSolver::new(domain, state);
            Recorder {
                inner,
                step: 0,
                log: Vec::new(),
                pending: false,
                answers: Vec::new(),
                nan_at: u64::MAX,
                copy_behind: false,
                copied: None,
            }
        }
    }

    impl Solver<f64> for Recorder {
        fn runs_on(&self) -> crate::solver::RunsOn {
            crate::solver::RunsOn::Cpu("recorder".into())
        }
        fn method(&self) -> String {
            "recorder".into()
        }
        fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
            let before = self.step;
            self.step += steps;
            self.log.push((self.step, "advance"));
            self.inner.advance(steps)?;
            if before < self.nan_at && self.nan_at <= self.step {
                let mut state = self.inner.state()?;
                state.slice_mut(0)[5] = f64::NAN;
                self.inner.set_state(&state)?;
            }
            Ok(())
        }
        fn synchronize(&mut self) -> Result<(), SolverError> {
            Ok(())
        }
        fn state(&mut self) -> Result<State<f64>, SolverError> {
            self.log.push((self.step, "state"));
            self.inner.state()
        }
        fn begin_state_copy(&mut self) -> Result<bool, SolverError> {
            if !self.copy_behind {
                return Ok(false);
            }
            self.log.push((self.step, "begin_copy"));
            self.copied = Some(self.inner.state()?);
            Ok(true)
        }
        fn collect_state(&mut self) -> Result<State<f64>, SolverError> {
            self.log.push((self.step, "collect"));
            Ok(self.copied.take().expect("a copy begun"))
        }
        fn set_state(&mut self, state: &State<f64>) -> Result<(), SolverError> {
            self.log.push((self.step, "set_state"));
            self.inner.set_state(state)
        }
        fn install_events(&mut self, at: crate::solver::EventsAt<'_>) -> Result<(), SolverError> {
            self.inner.install_events(at)
        }
        fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
            self.log.push((self.step, "maps"));
            self.inner.maps()
        }
        fn ecg(&mut self, probes: &[kernels_gpu::ecg::EcgProbe]) -> Result<Vec<f64>, SolverError> {
            self.inner.ecg(probes)
        }
        fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
            self.inner.any_nonfinite()
        }
        fn begin_nonfinite_check(&mut self) -> Result<NonfiniteCheck, SolverError> {
            // The answer is the state's now, as a check on a stream sees it.
            let bad = self.inner.any_nonfinite()?;
            if !self.pending {
                return Ok(NonfiniteCheck::Answered(bad));
            }
            self.answers.push(bad);
            self.log.push((self.step, "begin"));
            Ok(NonfiniteCheck::Pending(self.answers.len() - 1))
        }
        fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
            match check {
                NonfiniteCheck::Answered(bad) => Ok(bad),
                NonfiniteCheck::Pending(slot) => {
                    self.log.push((self.step, "end"));
                    Ok(self.answers[slot])
                }
            }
        }
    }

    #[test]
    fn stimuli_and_maps_stay_in_the_solver_and_the_loop_stops_only_for_output() {
        let dims = GridDims::new(4, 4, 4);
        let domain =
            Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
        let rest = State::rest(Diffusion::INFO, dims);
        let mut solver = Recorder::new(&domain, &rest);
        let mut s1 = StimulusSpec::new(RegionKind::Box, 0.35); // step 7
        s1.duration_ms = 0.1; // steps 7 and 8
        s1.x = Some([0, 0]);
        let stimuli = StimulusSchedule::compile(&[s1], dims, 0.05, Diffusion::INFO).unwrap();
        let recording = Recording { up: 0.5, down: None, beats: None };
        let events = Events { stimuli, recording: Some(recording) };
        let maps = Maps::at_start(recording, dims, rest.slice(0), 0.0);
        solver.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
        let dir = std::env::temp_dir().join(format!("fibril-driver-{}", std::process::id()));
        let out = OutputDir::prepare(&dir, true).unwrap();
        let mut writer =
            SnapshotQueue::background(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
        let path = dir.join("checkpoint.fibril");
        let mut schedule = Schedule::new(20, None, 100);
        schedule.checkpoint_every = Some(10);
        let report = run_writing(&mut solver, &domain, &schedule, &mut writer, &path).unwrap();
        assert_eq!(report.outcome, Outcome::Completed);
        assert!(!solver.log.iter().any(|e| e.1 == "set_state"), "no round trip: {:?}", solver.log);
        let advances: Vec<u64> = solver.log.iter().filter(|e| e.1 == "advance").map(|e| e.0).collect();
        assert_eq!(advances, vec![10, 20]);
        let maps_read: Vec<u64> = solver.log.iter().filter(|e| e.1 == "maps").map(|e| e.0).collect();
        assert_eq!(maps_read, vec![10, 20], "maps read only for the checkpoints");
        // The stimulated column x = 0 was set to 1 at step 7: activated at 0.35 ms.
        let m = solver.maps().unwrap().unwrap();
        assert_eq!(m.activation[0], 0.35);
        assert!(m.activation[1].is_nan() || m.activation[1] > 0.35);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Runs `schedule` writing snapshots to `writer` and checkpoints to
    /// `path`, with nothing sampled and no stop.
    fn run_writing(
        solver: &mut Recorder,
        domain: &Domain,
        schedule: &Schedule,
        writer: &mut SnapshotQueue,
        path: &Path,
    ) -> Result<RunReport, Box<RunFailure>> {
        let stop = AtomicBool::new(false);
        let mut ctx = RunContext {
            writer: Some(writer),
            outputs: Vec::new(),
            checkpoint_path: Some(path),
            stop: &stop,
            progress: &mut |_| {},
        };
        run(solver, domain, schedule, &mut ctx)
    }

    /// Snapshots copied out behind the steps (section 2.7) are the
    /// snapshots a synchronous download writes, at the same steps and with
    /// the same values: begun at the snapshot's step, collected once the
    /// next stretch is enqueued; the last one (and one at a checkpoint) is
    /// read at once.
    #[test]
    fn snapshots_copied_behind_the_steps_are_the_synchronous_ones() {
        let dims = GridDims::new(6, 5, 4);
        let domain =
            Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
        let mut start = State::rest(Diffusion::INFO, dims);
        start.slice_mut(0)[7] = 1.0;
        let mut written = Vec::new();
        for copy_behind in [false, true] {
            let mut solver = Recorder::new(&domain, &start);
            solver.copy_behind = copy_behind;
            solver.set_events(&Events::default(), EventStart::NEW, None).unwrap();
            let dir = std::env::temp_dir()
                .join(format!("fibril-driver-behind-{copy_behind}-{}", std::process::id()));
            let out = OutputDir::prepare(&dir, true).unwrap();
            let mut writer =
                SnapshotQueue::inline(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
            let mut schedule = Schedule::new(30, Some(5), 100);
            schedule.checkpoint_every = Some(20);
            let report =
                run_writing(&mut solver, &domain, &schedule, &mut writer, &dir.join("checkpoint.fibril"))
                    .unwrap();
            assert_eq!(report.outcome, Outcome::Completed);
            let records = writer.finish().unwrap().records().to_vec();
            let files: Vec<(u64, Vec<u8>)> =
                records.iter().map(|r| (r.step, std::fs::read(dir.join(&r.files[0])).unwrap())).collect();
            if copy_behind {
                let begun: Vec<u64> =
                    solver.log.iter().filter(|(_, w)| *w == "begin_copy").map(|(s, _)| *s).collect();
                assert_eq!(begun, [0, 5, 10, 15, 25], "not at the checkpoint (20) nor at the end (30)");
                for s in begun {
                    let at = solver.log.iter().position(|e| *e == (s, "begin_copy")).unwrap();
                    assert_eq!(solver.log[at + 1].1, "advance", "the next steps are enqueued first");
                    assert_eq!(solver.log[at + 2].1, "collect");
                }
            }
            written.push(files);
            std::fs::remove_dir_all(&dir).unwrap();
        }
        assert_eq!(written[0].iter().map(|f| f.0).collect::<Vec<_>>(), [0, 5, 10, 15, 20, 25, 30]);
        assert_eq!(written[0], written[1], "the same snapshots, byte for byte");
    }

    #[test]
    fn a_write_error_ends_the_run_with_the_report_of_what_was_done() {
        let dims = GridDims::new(4, 4, 4);
        let domain =
            Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
        let rest = State::rest(Diffusion::INFO, dims);
        let mut solver = Recorder::new(&domain, &rest);
        solver.set_events(&Events::default(), EventStart::NEW, None).unwrap();
        let dir = std::env::temp_dir().join(format!("fibril-driver-failed-{}", std::process::id()));
        let out = OutputDir::prepare(&dir, true).unwrap();
        let mut writer = SnapshotQueue::inline(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
        // The checkpoint goes where no file can be written.
        let path = dir.join("missing").join("checkpoint.fibril");
        let mut schedule = Schedule::new(30, Some(5), 100);
        schedule.checkpoint_every = Some(10);
        let failure = run_writing(&mut solver, &domain, &schedule, &mut writer, &path).unwrap_err();
        assert_eq!(failure.report.outcome, Outcome::Failed { step: 10, t_ms: 0.5 });
        assert_eq!((failure.report.steps_done, failure.report.steps_advanced), (10, 10));
        assert!(failure.to_string().contains("checkpoint.fibril"), "{failure}");
        let written: Vec<u64> = writer.finish().unwrap().records().iter().map(|r| r.step).collect();
        assert_eq!(written, [0, 5, 10], "the snapshots before the error stay");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Runs 1,000 steps of pure diffusion with a check every 100 steps on a
    /// solver whose checks stay pending, a NaN put in at `nan_at`, and a
    /// snapshot every `snapshot_every` steps; returns the report, the
    /// solver's log and the snapshot steps written.
    fn run_pending(
        nan_at: u64,
        snapshot_every: Option<u64>,
        stop_at: u64,
    ) -> (RunReport, Vec<(u64, &'static str)>, Vec<u64>) {
        run_pending_with(nan_at, snapshot_every, None, stop_at)
    }

    /// [`run_pending`] with a checkpoint every `checkpoint_every` steps.
    fn run_pending_with(
        nan_at: u64,
        snapshot_every: Option<u64>,
        checkpoint_every: Option<u64>,
        stop_at: u64,
    ) -> (RunReport, Vec<(u64, &'static str)>, Vec<u64>) {
        let dims = GridDims::new(4, 4, 4);
        let domain =
            Domain::new(dims, 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
        let rest = State::rest(Diffusion::INFO, dims);
        let mut solver = Recorder { pending: true, nan_at, ..Recorder::new(&domain, &rest) };
        static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let run_id = RUNS.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("fibril-driver-pending-{}-{run_id}", std::process::id()));
        let out = OutputDir::prepare(&dir, true).unwrap();
        let mut writer = SnapshotQueue::inline(SnapshotWriter::new(out, vec![0], Formats::default(), 0.6));
        let stop = AtomicBool::new(false);
        let mut schedule = Schedule::new(1_000, snapshot_every, 100);
        schedule.checkpoint_every = checkpoint_every;
        let path = dir.join("checkpoint.fibril");
        let mut ctx = RunContext {
            writer: Some(&mut writer),
            outputs: Vec::new(),
            checkpoint_path: checkpoint_every.map(|_| path.as_path()),
            stop: &stop,
            progress: &mut |s| stop.store(s >= stop_at, Ordering::SeqCst),
        };
        let report = run(&mut solver, &domain, &schedule, &mut ctx).unwrap();
        let written = writer.finish().unwrap().records().iter().map(|r| r.step).collect();
        std::fs::remove_dir_all(&dir).unwrap();
        (report, solver.log, written)
    }

    #[test]
    fn a_pending_check_is_answered_after_the_next_steps_are_enqueued() {
        let (report, log, _) = run_pending(u64::MAX, None, u64::MAX);
        assert_eq!(report.outcome, Outcome::Completed);
        assert_eq!((report.steps_done, report.steps_advanced), (1_000, 1_000));
        // Each check (begun after the steps to s) is answered only after
        // the steps to s + 100 were enqueued; the last one at once.
        let mut expected = vec![(100, "advance"), (100, "begin")];
        for s in (200..=1_000).step_by(100) {
            expected.extend([(s, "advance"), (s, "end"), (s, "begin")]);
        }
        expected.extend([(1_000, "end"), (1_000, "state")]);
        assert_eq!(log, expected);
    }

    #[test]
    fn a_nan_found_late_stops_the_run_where_it_was_checked() {
        // NaN during the steps to 300: the check at 300 finds it while
        // the steps to 400 run; the run ends at 300 all the same.
        let (report, log, written) = run_pending(250, Some(500), u64::MAX);
        assert_eq!(report.outcome, Outcome::NonFinite { step: 300, t_ms: 15.0, last_clean_step: 200 });
        assert_eq!((report.steps_done, report.steps_advanced), (300, 400));
        assert_eq!(log.last(), Some(&(400, "end")), "no check begun after the NaN was found");
        assert_eq!(written, [0], "nothing written after the NaN");
        // At a step with output the check is answered before the output:
        // NaN during the steps to 500 is found at 500, no snapshot there.
        let (report, log, written) = run_pending(450, Some(500), u64::MAX);
        assert_eq!(report.outcome, Outcome::NonFinite { step: 500, t_ms: 25.0, last_clean_step: 400 });
        assert_eq!((report.steps_done, report.steps_advanced), (500, 500));
        assert_eq!(&log[log.len() - 3..], [(500, "end"), (500, "begin"), (500, "end")]);
        assert_eq!(written, [0]);
    }

    #[test]
    fn a_stop_answers_the_pending_check_before_the_checkpoint() {
        // Stopped at 300 with the check of 300 pending: it is answered,
        // then the state is kept.
        let (report, log, _) = run_pending(u64::MAX, None, 300);
        assert_eq!(report.outcome, Outcome::Interrupted { step: 300, t_ms: 15.0 });
        assert_eq!(report.checkpoints, [300]);
        assert_eq!(&log[log.len() - 4..], [(300, "begin"), (300, "end"), (300, "state"), (300, "maps")]);
        // The same with a NaN before 300: no checkpoint of a bad state.
        let (report, log, _) = run_pending(250, None, 300);
        assert_eq!(report.outcome, Outcome::NonFinite { step: 300, t_ms: 15.0, last_clean_step: 200 });
        assert!(report.checkpoints.is_empty());
        assert_eq!(log.last(), Some(&(300, "end")));
    }

    #[test]
    fn a_check_at_a_checkpoint_is_answered_before_the_state_is_kept() {
        // Checkpoints every 250 steps: the check at 250 is answered at
        // once, the one at 200 stays pending until the steps to 250 are
        // enqueued. NaN during the steps to 250: found at 250, nothing kept.
        let (report, log, _) = run_pending_with(240, None, Some(250), u64::MAX);
        assert_eq!(report.outcome, Outcome::NonFinite { step: 250, t_ms: 12.5, last_clean_step: 200 });
        assert!(report.checkpoints.is_empty(), "no checkpoint of a bad state: {:?}", report.checkpoints);
        assert!(!log.iter().any(|e| e.1 == "state"), "state never read: {log:?}");
        assert_eq!(&log[log.len() - 4..], [(250, "advance"), (250, "end"), (250, "begin"), (250, "end")]);
        // Without the NaN the checkpoint at 250 is written after its check;
        // checks go on 100 steps apart from there, and the stop asked for
        // after 250 is seen at the check of 350, where the state is kept.
        let (report, log, _) = run_pending_with(u64::MAX, None, Some(250), 260);
        assert_eq!(report.outcome, Outcome::Interrupted { step: 350, t_ms: 17.5 });
        assert_eq!(report.checkpoints, [250, 350]);
        let at_250: Vec<&str> = log.iter().filter(|e| e.0 == 250).map(|e| e.1).collect();
        assert_eq!(at_250, ["advance", "end", "begin", "end", "state", "maps"]);
    }
}
