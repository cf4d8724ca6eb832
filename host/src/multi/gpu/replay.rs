//! Quiet stretches of a split run replayed as CUDA graphs that span every
//! GPU, so that the host's enqueueing does not bound the passes.
//!
//! A pass of the split solver costs the host, per part, up to three
//! launches, a dozen event records and waits, the halo copies and (at the
//! global ends) the mirror halos, each a driver call that binds the part's
//! context (row-major halos and mirrors are one `halo_copy` launch each:
//! `Part::copy_runs`). On two GPUs at 256^3 with the
//! blocked kernel's four-step passes that enqueueing, not the GPUs, set
//! the pace: the whole grid took 13,050 steps/s without overlap against
//! 15,361 on one GPU; replayed as graphs, 25,142 against 15,587 (two
//! H200s, docs/history/BENCHMARKS-2026.md, "Two GPUs: the host's
//! enqueueing, and graphs over the GPUs").
//!
//! A graph holds an even number of passes, so that U, U_next and the
//! locals end in the roles they began in, with no stimulus due at any of
//! their steps and no maps recorded: the recorder's time, which names the
//! pass's first step, is then the only argument that differs between
//! passes, and an off recorder never reads it. It is captured from the
//! streams of every part forked off one origin stream on the first GPU and
//! joined back into it, so the copies between GPUs and the events between
//! streams become the graph's edges: the same kernels and copies in the same
//! order as passes enqueued one by one, so the same bits.
//!
//! Outside the graph, the origin waits for every stream's last work before
//! a launch and every stream waits for the graph after it; the parts'
//! events are then recorded again, so the next pass enqueued from the host
//! waits for the graph's work and not for records made while capturing.

use std::sync::Arc;

use cudarc::driver::CudaStream;
use cudarc::driver::sys::CUdeviceptr;
use kernels_gpu::CellModel;

use super::part::Part;
use super::setup::Exchange;
use super::solver::{GpuMultiSolver, Scope};
use super::split_graphs::{Joins, Kept, SplitGraphs};
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::graph::{MAX_GRAPH_STEPS, MAX_KEPT, capture_graph};
use crate::scalar::Scalar;
use crate::solver::SolverError;

impl<M: CellModel, T: Scalar> GpuMultiSolver<M, T> {
    /// Whether quiet stretches are replayed as graphs (the default; `false`
    /// enqueues every pass from the host, `--no-graphs`).
    pub fn set_graphs(&mut self, on: bool) {
        self.graphs.on = on;
    }

    /// Steps taken so far by replaying graphs.
    pub fn graph_steps(&self) -> u64 {
        self.graphs.replayed_steps
    }

    /// Why graphs were given up, if a capture failed.
    pub fn graph_failure(&self) -> Option<&str> {
        self.graphs.failed.as_deref()
    }

    /// Whether this run may replay graphs: asked for, none failed, one
    /// process driving every part (a rank's graph would hold half an
    /// exchange), peer copies of row-major runs (by the `halo_copy`
    /// kernel; the graphs capture no NCCL calls, no host staging and no
    /// driver peer copies, which a tower layout's strided slices need)
    /// and no maps.
    pub(super) fn replays_graphs(&self) -> bool {
        self.graphs.on
            && self.graphs.failed.is_none()
            && matches!(self.scope, Scope::Whole)
            && self.exchange == Exchange::Peer
            && self.parts[0].solver.slice_geometry(0).rows == 1
            && !self.parts.iter().any(|p| p.solver.records_maps())
    }

    /// How many passes from the current step one graph takes: the largest
    /// power of two, at least 2, of whole passes (at most
    /// [`MAX_GRAPH_STEPS`] steps, within `left`) with no stimulus due at
    /// any of their steps; 0 where there is none.
    pub(super) fn graph_passes(&self, left: u64) -> u32 {
        if !self.replays_graphs() {
            return 0;
        }
        let depth = self.split.depth() as u64;
        let first = &self.parts[0].solver;
        let start = first.step_count();
        let most = (MAX_GRAPH_STEPS as u64).min(left) / depth * depth;
        let quiet = (0..most).take_while(|&s| !first.stimulus_due_anywhere(start + s)).count() as u64;
        let passes = quiet / depth;
        if passes < 2 { 0 } else { 1 << passes.ilog2() }
    }

    /// `passes` passes (a [`Self::graph_passes`] count) as one graph
    /// launch, captured at its first use for the current buffer roles. A
    /// capture that fails leaves the solver as it was and turns the graphs
    /// off (`graph_failure` says why); the caller then enqueues the passes.
    pub(super) fn replay(&mut self, passes: u32) -> Result<(), SolverError> {
        assert!(passes >= 2 && passes.is_multiple_of(2), "an even number of passes keeps the buffers' roles");
        let mut graphs = std::mem::take(&mut self.graphs);
        let replayed = self.replay_with(&mut graphs, passes);
        self.graphs = graphs;
        replayed
    }

    fn replay_with(&mut self, graphs: &mut SplitGraphs, passes: u32) -> Result<(), SolverError> {
        let depth = self.split.depth();
        if graphs.joins.is_none() {
            graphs.joins = Some(Joins::new(&self.parts)?);
        }
        let joins = graphs.joins.as_ref().expect("created above");
        let origin = joins.origin.clone();
        let roles: Vec<CUdeviceptr> = self.parts.iter().map(|p| p.solver.u_next_address()).collect();
        let index = match graphs.kept.iter().position(|k| k.passes == passes && k.roles == roles) {
            Some(i) => {
                // The host's view of the passes the graph takes.
                for _ in 0..passes {
                    for part in &mut self.parts {
                        let b = part.b.clone();
                        let stimulated = part.solver.stimulate_on(&b)?;
                        assert!(!stimulated, "no stimulus is due inside a graph (graph_passes)");
                        part.solver.finish_pass(depth);
                    }
                }
                i
            }
            None => {
                let marks: Vec<_> = self.parts.iter().map(|p| p.solver.pass_mark()).collect();
                let record = |origin: &Arc<CudaStream>| -> Result<(), SolverError> {
                    joins.fork.record(origin).map_err(cuda("forking the parts off the graph's origin"))?;
                    for part in &self.parts {
                        for stream in part.streams() {
                            stream
                                .wait(&joins.fork)
                                .map_err(cuda("forking the parts off the graph's origin"))?;
                        }
                    }
                    for k in 0..passes {
                        self.enqueue_pass(depth, k == 0)?;
                    }
                    Joins::origin_waits(origin, &self.parts, &joins.end)
                };
                // SAFETY: plain edges; nothing is asked of the kernels.
                match unsafe { capture_graph(&origin, false, record) } {
                    Ok(graph) => {
                        if graphs.kept.len() >= MAX_KEPT {
                            graphs.kept.clear();
                        }
                        graphs.kept.push(Kept { passes, roles, graph });
                        graphs.kept.len() - 1
                    }
                    Err(e) => {
                        // Nothing ran: the host's view goes back to before,
                        // and the events to records the next pass can wait for.
                        for (part, mark) in self.parts.iter_mut().zip(marks) {
                            part.solver.rewind_to(mark);
                        }
                        graphs.failed = Some(e.to_string());
                        return self.parts.iter().try_for_each(Part::record_events_again);
                    }
                }
            }
        };
        Joins::origin_waits(&origin, &self.parts, &joins.before)?;
        // SAFETY: the graph's kernels and copies name the parts' buffers
        // (never reallocated; the solver drops its graphs before its parts)
        // in the roles `roles` recorded, which an even number of passes
        // restores; the recorder is off (`replays_graphs`), so the pass's
        // time among the arguments is not read.
        unsafe { graphs.kept[index].graph.launch(&origin) }?;
        Joins::streams_wait(&origin, &self.parts, &joins.after)?;
        self.parts.iter().try_for_each(Part::record_events_again)?;
        graphs.replayed_steps += passes as u64 * depth as u64;
        Ok(())
    }
}
