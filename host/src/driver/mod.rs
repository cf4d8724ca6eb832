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
mod tests;
