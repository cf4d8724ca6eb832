//! The quiet stretches between stimuli replayed as CUDA graphs
//! ([`crate::backend::gpu::graph`]) instead of launched step by step from
//! the host.

use std::sync::Arc;

use cudarc::driver::sys::CUdeviceptr;
use cudarc::driver::{CudaStream, DevicePtr};
use kernels_gpu::{CellModel, ZWindow};

use super::resident::GpuSolver;
use crate::backend::gpu::graph::{PassBuffers, Piece};
use crate::events::clock::EventClock;
use crate::kernel_config::{KernelKind, pass_steps};
use crate::scalar::Scalar;
use crate::solver::SolverError;

/// Where a solver stood before passes were captured ([`GpuSolver::pass_mark`]).
pub(crate) struct PassMark {
    clock: EventClock,
    u_next: CUdeviceptr,
}

impl<M: CellModel, T: Scalar> GpuSolver<M, T> {
    /// Whether quiet stretches of steps are replayed as CUDA graphs (the
    /// default; `false` launches every step from the host, `--no-graphs`).
    pub fn set_graphs(&mut self, on: bool) {
        self.use_graphs = on;
    }

    /// Whether a graph's steps are joined by programmatic edges where the
    /// GPU allows them (the default; `false` keeps plain edges, `--no-pdl`).
    pub fn set_programmatic_launch(&mut self, on: bool) {
        // SAFETY: `programmatic` says the loaded module's step kernels wait
        // for their prerequisite grids, and the graphs capture only them.
        unsafe { self.graphs.set_programmatic(on && self.programmatic) };
    }

    /// Whether the kernels record maps (their recorder then carries each
    /// step's time, which a replayed graph would keep at its capture's).
    pub(crate) fn records_maps(&self) -> bool {
        self.maps.is_some()
    }

    /// The host's view of this solver (its clock and its buffers'
    /// roles), to go back to after passes that were only captured.
    pub(crate) fn pass_mark(&self) -> PassMark {
        PassMark { clock: self.clock.clone(), u_next: self.u_next_address() }
    }

    /// Back to `mark`: its clock, and its buffers' roles (one swap back
    /// where an odd number of passes was captured).
    pub(crate) fn rewind_to(&mut self, mark: PassMark) {
        if self.u_next_address() != mark.u_next {
            self.swap_buffers();
        }
        self.clock = mark.clock;
    }

    /// Steps taken so far by replaying graphs (see [`crate::backend::gpu::graph`]).
    pub fn graph_steps(&self) -> u64 {
        self.graphs.replayed_steps()
    }

    /// Whether `advance` replays graphs now: asked for, a kernel of one
    /// step per launch (a blocked pass's arguments name its first step),
    /// and no maps (the recorder carries each step's time).
    pub(super) fn replays_graphs(&self) -> bool {
        self.use_graphs && self.config.kind != KernelKind::Blocked && !self.maps.is_some()
    }

    /// `steps` steps, the quiet stretches between stimuli replayed as
    /// graphs ([`crate::backend::gpu::graph::pieces`]), the others launched one by one.
    pub(super) fn advance_with_graphs(&mut self, steps: u64) -> Result<(), SolverError> {
        // Bounds the look-ahead for stimuli; longer stretches take several turns.
        const LOOK_AHEAD: u32 = 16 * crate::backend::gpu::graph::MAX_GRAPH_STEPS;
        let stream = self.stream.clone();
        let mut left = steps;
        while left > 0 {
            self.stimulate_on(&stream)?;
            let quiet = self.quiet_steps(left.min(LOOK_AHEAD as u64) as u32);
            for piece in crate::backend::gpu::graph::pieces(quiet) {
                match piece {
                    Piece::Single => self.launch_step()?,
                    Piece::Graph(n) => self.replay_pass(&stream, n)?,
                }
            }
            left -= quiet;
        }
        Ok(())
    }

    /// The steps from the current one (at most `limit`, at least one)
    /// before the next step at which a stimulus of this buffer is active:
    /// the current step's stimuli are applied before them, and none is
    /// due inside.
    fn quiet_steps(&self, limit: u32) -> u64 {
        pass_steps(u32::MAX, limit as u64, self.clock.step, |step| self.stimulus_due(step)) as u64
    }

    /// Whether a stimulus of this buffer is active at step `step`.
    pub(super) fn stimulus_due(&self, step: u64) -> bool {
        self.stimuli
            .iter()
            .zip(&self.clock.events.stimuli.stimuli)
            .any(|(launch, s)| launch.is_some() && s.active_at(step))
    }

    /// `steps` (even) steps with nothing between them, as one graph launch
    /// on `stream`, captured at its first use for the current U buffers.
    fn replay_pass(&mut self, stream: &Arc<CudaStream>, steps: u32) -> Result<(), SolverError> {
        assert!(steps.is_multiple_of(2), "a pass leaves U and U_next in place");
        assert!(self.local_next.is_none(), "the graphs replay kernels that update the locals in place");
        let buffers = PassBuffers {
            u: self.u.device_ptr(&self.stream).0,
            u_next: self.u_next.device_ptr(&self.stream).0,
            local: self.local.device_ptr(&self.stream).0,
        };
        let mut graphs = std::mem::take(&mut self.graphs);
        // SAFETY: `record_pass` enqueues only this solver's step kernels,
        // over its own buffers (never reallocated; the solver drops the
        // graphs before them) and constants fixed at construction; the
        // recorder is off (`replays_graphs`), so the step's time in the
        // arguments is not read. `buffers` are the
        // current roles of U, U_next and the locals, and a pass of an even
        // number of steps leaves them so.
        let launched =
            unsafe { graphs.launch(stream, steps, buffers, |capture| self.record_pass(capture, steps)) };
        self.graphs = graphs;
        launched?;
        self.clock.step += steps as u64;
        Ok(())
    }

    /// Enqueues `steps` steps on `capture` (a stream being captured, so
    /// nothing runs) and leaves the buffers and the step count as they were.
    fn record_pass(&mut self, capture: &Arc<CudaStream>, steps: u32) -> Result<(), SolverError> {
        let start = self.clock.step;
        let mut taken = 0;
        let mut recorded = Ok(());
        while taken < steps {
            if let Err(e) = self.launch_window_on(capture, ZWindow::all(self.grid.nz)) {
                recorded = Err(e);
                break;
            }
            self.swap_buffers();
            taken += 1;
        }
        if taken % 2 == 1 {
            std::mem::swap(&mut self.u, &mut self.u_next);
        }
        self.clock.step = start;
        recorded
    }
}
