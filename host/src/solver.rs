//! The interface between the run loop and every solver (CPU, one GPU,
//! several GPUs, one rank of several processes), and the ways a solver
//! can fail.

use serde::Serialize;
use thiserror::Error;

use crate::events::recording::Maps;
use crate::events::tips::{ChargedPlaquette, PhaseMemory};
use crate::events::{EventStart, Events};
use crate::kernel_config::KernelConfigError;
use crate::scalar::Scalar;
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// Where a solver runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    Cpu,
    Gpu,
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BackendKind::Cpu => "cpu",
            BackendKind::Gpu => "gpu",
        })
    }
}

/// Errors while a solver is built or runs. Solvers made of several parts
/// (the multi-GPU split) add their own construction errors on top
/// (`multi::MultiError`); at run time their failures to communicate
/// arrive here as [`SolverError::Communication`], so this layer knows
/// nothing of how parts talk.
#[derive(Debug, Error)]
pub enum SolverError {
    #[error("CUDA call failed while {during}: {source}")]
    Cuda {
        during: &'static str,
        #[source]
        source: cudarc::driver::DriverError,
    },
    #[error(
        "the embedded PTX has no kernel `{name}`; rebuild fibril (cargo build --release) so build.rs recompiles the kernels"
    )]
    MissingKernel { name: String },
    #[error(transparent)]
    KernelConfig(#[from] KernelConfigError),
    #[error("{during}: {source}")]
    Communication {
        during: &'static str,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error(
        "not enough GPU memory: this run needs {needed} on {device}, which has {free} free; \
         use a smaller grid (--size), f32 instead of f64, or the CPU backend"
    )]
    DeviceMemory { device: String, needed: String, free: String },
    #[error(transparent)]
    Tissue(#[from] crate::tissue::error::TissueError),
    #[error("{what} is not available on {mesh}; {fix}")]
    Unsupported { what: &'static str, mesh: &'static str, fix: &'static str },
}

/// Where a solver runs, with the name reports give the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunsOn {
    Cpu(String),
    Gpu(String),
}

/// The events a run installs ([`Solver::set_events`]): the events, the
/// step the run stands at, and the maps so far (given exactly when
/// `events.recording` is).
#[derive(Clone, Copy)]
pub struct EventsAt<'a> {
    pub events: &'a Events,
    pub start: EventStart,
    pub maps: Option<&'a Maps>,
}

/// A NaN/Inf check begun by [`Solver::begin_nonfinite_check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonfiniteCheck {
    /// Answered when it was begun: whether variable 0 was not finite.
    Answered(bool),
    /// Still on the device, in the solver's slot `0`; only the solver
    /// that began it can answer it.
    Pending(usize),
}

/// A time stepper that owns the state and acts on the run's events.
///
/// `advance` may return before the work is done (the GPU queues it);
/// `synchronize`, `state`, `maps` and `any_nonfinite` wait for it. A
/// solver counts the steps it takes from the step `set_events` gives (0
/// otherwise): stimuli apply, and crossings are timed, by that count.
pub trait Solver<T: Scalar> {
    /// Where the solver runs, with the device's name for reports; `kind`
    /// and `device_name` read it, so the two cannot disagree.
    fn runs_on(&self) -> RunsOn;
    fn kind(&self) -> BackendKind {
        match self.runs_on() {
            RunsOn::Cpu(_) => BackendKind::Cpu,
            RunsOn::Gpu(_) => BackendKind::Gpu,
        }
    }
    /// Human-readable device: "NVIDIA H100 80GB HBM3" or "CPU (16 threads)".
    fn device_name(&self) -> String {
        match self.runs_on() {
            RunsOn::Cpu(name) | RunsOn::Gpu(name) => name,
        }
    }
    /// Kernel or code path name for reports ("naive", "cpu-reference").
    fn method(&self) -> String;
    fn advance(&mut self, steps: u64) -> Result<(), SolverError>;
    /// Waits for the work `advance` enqueued. The default is for a solver
    /// whose `advance` returns with its work done (the CPU's): there is
    /// nothing to wait for.
    fn synchronize(&mut self) -> Result<(), SolverError> {
        Ok(())
    }
    /// A copy of the current state, every variable.
    fn state(&mut self) -> Result<State<T>, SolverError>;
    /// The current state written into `dst` (a state of this solver's grid
    /// and model, from an earlier call): a solver that can fills its
    /// buffers in place, so that a run writing many snapshots does not
    /// fault in fresh memory for each.
    fn state_into(&mut self, dst: &mut State<T>) -> Result<(), SolverError> {
        *dst = self.state()?;
        Ok(())
    }
    /// Begins a copy of the current state that the next `advance` may
    /// overlap (Vasconcellos et al. 2024, section 2.7: results copied out
    /// on a second stream while the next steps run), where the solver can:
    /// `true` when a copy was begun, for [`Solver::collect_state`] to give;
    /// `false` (the default) when the caller reads the state as usual.
    fn begin_state_copy(&mut self) -> Result<bool, SolverError> {
        Ok(false)
    }
    /// The state whose copy [`Solver::begin_state_copy`] began (the state
    /// of that step, whatever was advanced since), once the copy is done.
    ///
    /// # Panics
    /// Without a copy begun (a programming error).
    fn collect_state(&mut self) -> Result<State<T>, SolverError> {
        panic!("collect_state without a copy in flight")
    }
    /// Replaces the state (stimuli, restarts). `state` has the solver's
    /// grid and model.
    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError>;
    /// Installs the events of a run that stands at `start`: the solver
    /// applies the stimuli due at a step before it takes it (and before
    /// the state or the maps at that step are read) and records crossings
    /// at every step, on its own memory. `maps` (the whole grid's, so far)
    /// is given exactly when `events.recording` is.
    fn set_events(
        &mut self,
        events: &Events,
        start: EventStart,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        self.install_events(EventsAt { events, start, maps })
    }
    /// What [`Solver::set_events`] hands on, as one value: what each
    /// solver implements.
    fn install_events(&mut self, at: EventsAt<'_>) -> Result<(), SolverError>;
    /// The maps recorded so far, for the whole grid (in a multi-process
    /// run every rank gets them: a collective call).
    fn maps(&mut self) -> Result<Option<Maps>, SolverError>;
    /// The pseudo-ECG of the current state (after the step's stimuli) at
    /// each probe (`crate::events::ecg`), summed on the solver's own
    /// memory; every rank of a multi-process run gets it.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError>;
    /// The plaquettes where the phase of variable 0 winds between the
    /// current state (after the step's stimuli) and the state at the
    /// previous call, for spiral tips and filaments; `None` at the first
    /// call. In any order (the recorder sorts them). `memory` keeps the
    /// previous field for the solvers that find them on the host from a
    /// downloaded state (the default); a solver that finds them on its own
    /// memory keeps the field there and leaves `memory` alone. In a
    /// multi-process run every rank gets them (a collective call).
    fn phase_singularities(
        &mut self,
        v_star: f64,
        memory: &mut PhaseMemory,
    ) -> Result<Option<Vec<ChargedPlaquette>>, SolverError> {
        let state = self.state()?;
        Ok(memory.sample(state.slice(0), state.dims(), v_star))
    }
    /// Variable 0 at the previous `phase_singularities` call (`None`
    /// before the first), for a checkpoint; the default reads `memory`.
    fn phase_memory(&mut self, memory: &PhaseMemory) -> Result<Option<Vec<f64>>, SolverError> {
        Ok(memory.previous().map(<[f64]>::to_vec))
    }
    /// Continues the phase memory of a checkpoint: the next
    /// `phase_singularities` call compares with `field` (variable 0, one
    /// value per cell, exact in the solver's precision).
    fn restore_phase_memory(&mut self, field: &[f64], memory: &mut PhaseMemory) -> Result<(), SolverError> {
        memory.restore(field.to_vec());
        Ok(())
    }
    /// Whether variable 0 holds a NaN or an infinity (on any rank).
    fn any_nonfinite(&mut self) -> Result<bool, SolverError>;
    /// Begins [`Solver::any_nonfinite`] on the state as the steps enqueued
    /// so far leave it, without waiting for the answer where the solver
    /// can: the run loop then enqueues the next steps and only then asks
    /// [`Solver::end_nonfinite_check`], so the device does not idle while
    /// the host waits for a flag (at 64^3 on an H100 a synchronous check
    /// every 100 steps cost about 8% of the stepping, most of it the
    /// check's own work, which the run loop's default interval spaces out).
    /// The default answers at once. A solver of a multi-process run must
    /// answer at once (collectively, as `any_nonfinite`): the run loop
    /// acts on a pending answer where the ranks could differ.
    fn begin_nonfinite_check(&mut self) -> Result<NonfiniteCheck, SolverError> {
        Ok(NonfiniteCheck::Answered(self.any_nonfinite()?))
    }
    /// The answer of a check from [`Solver::begin_nonfinite_check`]
    /// (waiting for it if it is still on the device). A solver that
    /// returns [`NonfiniteCheck::Pending`] answers it here.
    fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        match check {
            NonfiniteCheck::Answered(bad) => Ok(bad),
            NonfiniteCheck::Pending(slot) => {
                unreachable!("check {slot} left pending by a solver that cannot answer it")
            }
        }
    }
    /// Whether `flag` is set on any process of a multi-process run. The
    /// run loop asks this before acting on a local condition (a Ctrl-C) so
    /// that every rank takes the same branch; one process returns `flag`.
    fn any_rank(&mut self, flag: bool) -> Result<bool, SolverError> {
        Ok(flag)
    }
}
