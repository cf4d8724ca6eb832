//! A simulation that runs: stepped by the run loop of the command line
//! ([`crate::driver`]), so stimuli, maps, the pseudo-ECG, tips and NaN
//! checks act exactly as in `fibril run`, with the state handed to the
//! caller at the frames it asks for instead of written to files.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::error::SimulationError;
use crate::backend::{BackendKind, Solver};
use crate::checkpoint::{self, Progress};
use crate::domain::Domain;
use crate::driver::{self, Outcome, RunContext, RunReport, Schedule};
use crate::events::ecg::EcgTrace;
use crate::events::recording::Maps;
use crate::events::tips::SingularityRecorder;
use crate::events::{EventStart, Events};
use crate::io::OutputDir;
use crate::io::queue::SnapshotQueue;
use crate::outputs::{EcgSampler, OutputError, Sampler, Saved, TipsSampler, samplers};
use crate::scalar::Scalar;
use crate::state::State;
use crate::tet::TetProblem;

/// The state at one frame of [`Simulation::run_frames`].
pub struct Frame<'a, T> {
    /// Steps from the start.
    pub step: u64,
    /// Simulated time, in the model's time unit.
    pub t_ms: f64,
    pub state: &'a State<T>,
}

/// A built simulation ([`super::SimulationBuilder::build`]): its solver
/// holds the state on its device; the run goes on from where the last call
/// left it.
pub struct Simulation<T: Scalar> {
    domain: Domain,
    solver: Box<dyn Solver<T>>,
    /// The stimuli and recording, kept to install again at a checkpoint's step.
    events: Events,
    step: u64,
    ecg: Option<EcgSampler>,
    tips: Option<TipsSampler>,
    check_every: u64,
    /// The tetrahedral mesh whose nodes the state's cells are, if any.
    mesh: Option<Arc<TetProblem>>,
}

impl<T: Scalar> Simulation<T> {
    pub(super) fn new(
        domain: Domain,
        solver: Box<dyn Solver<T>>,
        events: Events,
        ecg: Option<EcgSampler>,
        tips: Option<TipsSampler>,
        check_every: u64,
    ) -> Self {
        Self { domain, solver, events, step: 0, ecg, tips, check_every, mesh: None }
    }

    /// A simulation of the nodes of `mesh` (cell c of the state is the
    /// solvers' node c).
    pub(super) fn on_mesh(mut self, mesh: Arc<TetProblem>) -> Self {
        self.mesh = Some(mesh);
        self
    }

    /// The tetrahedral mesh simulated, if it is one: its renumbering puts
    /// the state's nodes in the file's order.
    pub fn mesh(&self) -> Option<&Arc<TetProblem>> {
        self.mesh.as_ref()
    }

    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// Steps taken since the start.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// Simulated time since the start, in the model's time unit.
    pub fn time_ms(&self) -> f64 {
        self.step as f64 * self.domain.dt_ms()
    }

    /// Where it runs: "cpu" or "gpu", the device, and the code path.
    pub fn placement(&self) -> (BackendKind, String, String) {
        (self.solver.kind(), self.solver.device_name(), self.solver.method())
    }

    /// Runs `steps` steps.
    pub fn advance(&mut self, steps: u64) -> Result<(), SimulationError> {
        self.run_to(self.step + steps)
    }

    /// Runs for `duration_ms` (a whole number of steps).
    pub fn run_for_ms(&mut self, duration_ms: f64) -> Result<(), SimulationError> {
        let steps =
            crate::time::ms_to_steps(duration_ms, self.domain.dt_ms()).map_err(|e| ("the duration", e))?;
        self.advance(steps)
    }

    /// Runs for `duration_ms`, handing the state to `frame` every
    /// `every_ms` (a whole number of steps) and at the end; `frame` stops
    /// the run by returning an error, which is returned as it is.
    pub fn run_frames<E: From<SimulationError>>(
        &mut self,
        duration_ms: f64,
        every_ms: f64,
        mut frame: impl FnMut(Frame<'_, T>) -> Result<(), E>,
    ) -> Result<(), E> {
        let dt = self.domain.dt_ms();
        let to_steps =
            |what, ms| crate::time::ms_to_steps(ms, dt).map_err(|e| SimulationError::from((what, e)));
        let end = self.step + to_steps("the duration", duration_ms)?;
        let every = to_steps("the frame interval", every_ms)?.max(1);
        while self.step < end {
            let next = ((self.step / every + 1) * every).min(end);
            self.run_to(next)?;
            let state = self.solver.state().map_err(SimulationError::from)?;
            frame(Frame { step: self.step, t_ms: self.time_ms(), state: &state })?;
        }
        Ok(())
    }

    /// Runs to step `end` through the run loop (stimuli, maps, samples and
    /// NaN checks as in a run of the command line).
    fn run_to(&mut self, end: u64) -> Result<(), SimulationError> {
        if end <= self.step {
            return Ok(());
        }
        let report = self.run_loop(end, None, None, &AtomicBool::new(false), &mut |_| {})?;
        match report.outcome {
            Outcome::Completed => Ok(()),
            Outcome::NonFinite { step, t_ms, last_clean_step } => {
                Err(SimulationError::NonFinite { step, t_ms, last_clean_step })
            }
            Outcome::Interrupted { .. } | Outcome::Failed { .. } => {
                unreachable!("nothing stops this loop but its end, a NaN or an error")
            }
        }
    }

    /// Runs for `duration_ms`, writing a snapshot of the state to
    /// `writer` at the start, every `every_ms` and at the end, as `fibril
    /// run` does (the files written behind the stepping when the queue
    /// writes in the background); `stop` ends the run after the current
    /// stretch, `progress` hears the step after each. The report says how
    /// it ended: a NaN or a stop is an outcome here, not an error.
    pub fn run_writing(
        &mut self,
        duration_ms: f64,
        every_ms: Option<f64>,
        writer: &mut SnapshotQueue,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<RunReport, SimulationError> {
        let dt = self.domain.dt_ms();
        let to_steps =
            |what, ms| crate::time::ms_to_steps(ms, dt).map_err(|e| SimulationError::from((what, e)));
        let end = self.step + to_steps("the duration", duration_ms)?;
        let every = every_ms.map(|ms| to_steps("the snapshot interval", ms)).transpose()?.map(|e| e.max(1));
        self.run_loop(end, every, Some(writer), stop, progress)
    }

    /// The run loop from the current step to `end`.
    fn run_loop(
        &mut self,
        end: u64,
        snapshot_every: Option<u64>,
        writer: Option<&mut SnapshotQueue>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<RunReport, SimulationError> {
        let schedule = Schedule {
            start_step: self.step,
            // Samples at the first step are taken once, by the first stretch.
            resumed: self.step > 0,
            total_steps: end,
            snapshot_every,
            check_every: self.check_every,
            checkpoint_every: None,
        };
        let mut ctx = RunContext {
            writer,
            outputs: samplers(&mut self.ecg, &mut self.tips),
            checkpoint_path: None,
            stop,
            progress,
        };
        let report = driver::run(self.solver.as_mut(), &self.domain, &schedule, &mut ctx)
            .map_err(|f| SimulationError::Driver(f.error))?;
        self.step = report.steps_done;
        Ok(report)
    }

    /// A copy of the state (every variable, on the host).
    pub fn state(&mut self) -> Result<State<T>, SimulationError> {
        Ok(self.solver.state()?)
    }

    /// The state written into `dst` (from an earlier [`Simulation::state`]
    /// of this simulation): the solvers that can fill it in place through
    /// their staging buffers, so that frame after frame neither allocates
    /// nor faults in fresh memory.
    pub fn state_into(&mut self, dst: &mut State<T>) -> Result<(), SimulationError> {
        Ok(self.solver.state_into(dst)?)
    }

    /// Replaces the state (an initial condition of the caller's): a state
    /// of this simulation's grid and model.
    pub fn set_state(&mut self, state: &State<T>) -> Result<(), SimulationError> {
        if state.dims() != self.domain.dims() || state.model().name != self.domain.model().name() {
            return Err(SimulationError::OtherState {
                found: format!("{} on {:?}", state.model().name, state.dims()),
                wanted: format!("{} on {:?}", self.domain.model().name(), self.domain.dims()),
            });
        }
        Ok(self.solver.set_state(state)?)
    }

    /// The activation (repolarisation, APD) maps recorded so far.
    pub fn maps(&mut self) -> Result<Option<Maps>, SimulationError> {
        Ok(self.solver.maps()?)
    }

    /// The pseudo-ECG so far, if electrodes were given.
    pub fn ecg(&self) -> Option<&EcgTrace> {
        self.ecg.as_ref().map(|e| &e.trace)
    }

    /// Writes what the samplers recorded (`ecg.csv` and `ecg.png`, the
    /// tip files) into `dir`, as `fibril run` does at a run's end; the
    /// names of the files written.
    pub fn save_samples(&self, dir: &OutputDir) -> Result<Vec<String>, OutputError> {
        let mut files = Vec::new();
        if let Some(ecg) = &self.ecg {
            files.extend(Sampler::<T>::save(ecg, dir, &self.domain, Saved::AtEnd)?);
        }
        if let Some(tips) = &self.tips {
            files.extend(Sampler::<T>::save(tips, dir, &self.domain, Saved::AtEnd)?);
        }
        Ok(files)
    }

    /// Writes a checkpoint of the state, the step and the maps recorded so
    /// far to `path` (whole or not at all: a temporary file renamed), in
    /// the format of `fibril run --checkpoint-every-ms`.
    pub fn save_checkpoint(&mut self, path: &Path) -> Result<(), SimulationError> {
        let state = self.solver.state()?;
        let maps = self.solver.maps()?;
        let phase = match &self.tips {
            Some(tips) => Sampler::<T>::checkpoint_phase(tips, self.solver.as_mut())?,
            None => None,
        };
        let progress = Progress { step: self.step, snapshots: 0, run: None };
        checkpoint::write(path, &self.domain, progress, &state, maps.as_ref(), phase.as_ref())
            .map_err(|source| SimulationError::CheckpointWrite { path: path.to_path_buf(), source })
    }

    /// Continues from the checkpoint at `path` (of this simulation's model,
    /// parameters, grid and precision; written by
    /// [`Simulation::save_checkpoint`] or by `fibril run`): its state, its
    /// step and its maps; the stimuli go on from that step. A simulation
    /// tracking tips cannot continue their trace from here (`fibril run
    /// --resume` does).
    pub fn load_checkpoint(&mut self, path: &Path) -> Result<(), SimulationError> {
        if self.tips.is_some() {
            return Err(SimulationError::TipsResume);
        }
        let loaded = checkpoint::read::<T>(path)?;
        loaded.header.check_matches(path, &self.domain)?;
        if loaded.maps.is_some() != self.events.recording.is_some()
            || loaded.maps.as_ref().is_some_and(|m| Some(m.recording) != self.events.recording)
        {
            return Err(SimulationError::CheckpointMaps { path: path.to_path_buf() });
        }
        self.solver.set_state(&loaded.state)?;
        let step = loaded.header.step;
        self.solver.set_events(&self.events, EventStart::resumed(step), loaded.maps.as_ref())?;
        self.step = step;
        Ok(())
    }

    /// The spiral tips or filaments found so far, if asked for.
    pub fn singularities(&self) -> Option<&SingularityRecorder> {
        self.tips.as_ref().map(|t| &t.recorder)
    }
}
