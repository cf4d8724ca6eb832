//! The run loop: advance, check for NaN/Inf, write snapshots, report progress.

use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::backend::{Solver, SolverError};
use crate::domain::Domain;
use crate::io::snapshots::{SnapshotWriter, WriteError};
use crate::scalar::Scalar;

/// When things happen during a run, in steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub total_steps: u64,
    /// Write a snapshot at step 0 and every this many steps; `None` writes
    /// only the final state. The final state is always written.
    pub snapshot_every: Option<u64>,
    /// Check U for NaN/Inf at least this often (also at every snapshot).
    pub check_every: u64,
}

impl Schedule {
    /// Steps at which a snapshot is due, in order.
    pub fn snapshot_steps(&self) -> Vec<u64> {
        let mut steps: Vec<u64> = match self.snapshot_every {
            Some(every) => (0..=self.total_steps).step_by(every.max(1) as usize).collect(),
            None => Vec::new(),
        };
        if steps.last() != Some(&self.total_steps) {
            steps.push(self.total_steps);
        }
        steps
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    Completed,
    /// U held NaN or Inf at the check after `step`; the check after
    /// `last_clean_step` was clean, so the blow-up happened in between.
    NonFinite {
        step: u64,
        t_ms: f64,
        last_clean_step: u64,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    pub outcome: Outcome,
    pub steps_done: u64,
    /// Wall time spent stepping (including NaN checks), seconds.
    pub stepping_s: f64,
    /// Wall time spent downloading and writing snapshots, seconds.
    pub output_s: f64,
}

#[derive(Debug, Error)]
pub enum DriverError {
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Runs `schedule` on `solver`, writing snapshots through `writer` and
/// calling `progress(step)` after every chunk of steps.
pub fn run<T: Scalar>(
    solver: &mut dyn Solver<T>,
    domain: &Domain,
    schedule: &Schedule,
    writer: &mut SnapshotWriter,
    progress: &mut dyn FnMut(u64),
) -> Result<RunReport, DriverError> {
    let dt = domain.dt_ms();
    let mut due = schedule.snapshot_steps().into_iter().peekable();
    let mut step = 0u64;
    let mut last_clean = 0u64;
    let (mut stepping_s, mut output_s) = (0.0, 0.0);
    let check_every = schedule.check_every.max(1);
    loop {
        if due.peek() == Some(&step) {
            due.next();
            let t0 = Instant::now();
            let fields = solver.fields()?;
            writer.write(step, step as f64 * dt, &fields)?;
            output_s += t0.elapsed().as_secs_f64();
        }
        if step == schedule.total_steps {
            break;
        }
        let next_snapshot = due.peek().copied().unwrap_or(schedule.total_steps);
        let target = next_snapshot.min(step + check_every).min(schedule.total_steps);
        let t0 = Instant::now();
        solver.advance(target - step)?;
        let bad = solver.any_nonfinite()?;
        stepping_s += t0.elapsed().as_secs_f64();
        step = target;
        progress(step);
        if bad {
            let outcome = Outcome::NonFinite { step, t_ms: step as f64 * dt, last_clean_step: last_clean };
            return Ok(RunReport { outcome, steps_done: step, stepping_s, output_s });
        }
        last_clean = step;
    }
    Ok(RunReport { outcome: Outcome::Completed, steps_done: step, stepping_s, output_s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_steps_include_start_and_end() {
        let s = Schedule { total_steps: 10, snapshot_every: Some(4), check_every: 100 };
        assert_eq!(s.snapshot_steps(), vec![0, 4, 8, 10]);
        let s = Schedule { total_steps: 8, snapshot_every: Some(4), check_every: 100 };
        assert_eq!(s.snapshot_steps(), vec![0, 4, 8]);
        let s = Schedule { total_steps: 8, snapshot_every: None, check_every: 100 };
        assert_eq!(s.snapshot_steps(), vec![8]);
    }
}
