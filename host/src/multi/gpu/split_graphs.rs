//! What a split solver keeps for its graphs ([`super::replay`]): the
//! graphs captured so far, and the origin stream and events that fork
//! every part's streams off one point and join them back.

use std::sync::Arc;

use cudarc::driver::sys::CUdeviceptr;
use cudarc::driver::{CudaEvent, CudaStream};
use kernels_gpu::CellModel;

use super::part::Part;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::graph::PassGraph;
use crate::scalar::Scalar;
use crate::solver::SolverError;

/// The graphs of one split solver, captured on first use.
#[derive(Default)]
pub(super) struct SplitGraphs {
    /// Asked for (`--no-graphs` turns it off).
    pub(super) on: bool,
    /// Why a capture failed; every pass is then enqueued from the host.
    pub(super) failed: Option<String>,
    pub(super) joins: Option<Joins>,
    pub(super) kept: Vec<Kept>,
    pub(super) replayed_steps: u64,
}

impl SplitGraphs {
    /// Graphs asked for, none captured yet.
    pub(super) fn new() -> Self {
        Self { on: true, ..Self::default() }
    }
}

/// The origin stream and the events that fork the parts' streams off it
/// and join them back.
pub(super) struct Joins {
    pub(super) origin: Arc<CudaStream>,
    pub(super) fork: CudaEvent,
    pub(super) after: CudaEvent,
    /// Per part and stream ([`Part::streams`]): the origin waits for
    /// these before a launch (recorded outside any capture) ...
    pub(super) before: Vec<[CudaEvent; 4]>,
    /// ... and for these at the end of a capture (recorded inside it).
    pub(super) end: Vec<[CudaEvent; 4]>,
}

pub(super) struct Kept {
    pub(super) passes: u32,
    /// Each part's U_next at capture: the roles of its buffers.
    pub(super) roles: Vec<CUdeviceptr>,
    pub(super) graph: PassGraph,
}

impl<M: CellModel, T: Scalar> Part<M, T> {
    /// The part's four streams, in the order of [`Joins`]' events.
    pub(super) fn streams(&self) -> [&Arc<CudaStream>; 4] {
        [&self.a, &self.b, &self.c, &self.copy]
    }

    /// Records the events a pass waits for on their streams again, outside
    /// any capture: after a graph (whose streams wait for it) they stand
    /// for its work; a record made while capturing is no record to wait
    /// for outside the capture.
    pub(super) fn record_events_again(&self) -> Result<(), SolverError> {
        let record = |event: &CudaEvent, stream: &CudaStream| {
            event.record(stream).map_err(cuda("recording an event after a graph"))
        };
        record(&self.a_done, &self.a)?;
        record(&self.b_done, &self.b)?;
        record(&self.c_done, &self.c)?;
        record(&self.halo_done, &self.copy)?;
        record(&self.step_done, &self.copy)
    }

    fn four_events(&self) -> Result<[CudaEvent; 4], SolverError> {
        let event = || self.ctx.new_event(None).map_err(cuda("creating an event"));
        Ok([event()?, event()?, event()?, event()?])
    }
}

impl Joins {
    pub(super) fn new<M: CellModel, T: Scalar>(parts: &[Part<M, T>]) -> Result<Self, SolverError> {
        let ctx = &parts[0].ctx;
        let event = || ctx.new_event(None).map_err(cuda("creating an event"));
        Ok(Self {
            origin: ctx.new_stream().map_err(cuda("creating the capture stream"))?,
            fork: event()?,
            after: event()?,
            before: parts.iter().map(Part::four_events).collect::<Result<_, _>>()?,
            end: parts.iter().map(Part::four_events).collect::<Result<_, _>>()?,
        })
    }

    /// The origin waits for every part's streams, recording `events` on them.
    pub(super) fn origin_waits<M: CellModel, T: Scalar>(
        origin: &CudaStream,
        parts: &[Part<M, T>],
        events: &[[CudaEvent; 4]],
    ) -> Result<(), SolverError> {
        for (part, events) in parts.iter().zip(events) {
            for (stream, event) in part.streams().into_iter().zip(events) {
                event.record(stream).map_err(cuda("joining a stream to the graph's origin"))?;
                origin.wait(event).map_err(cuda("joining a stream to the graph's origin"))?;
            }
        }
        Ok(())
    }

    /// Every part's streams wait for `event`, recorded on the origin now.
    pub(super) fn streams_wait<M: CellModel, T: Scalar>(
        origin: &CudaStream,
        parts: &[Part<M, T>],
        event: &CudaEvent,
    ) -> Result<(), SolverError> {
        event.record(origin).map_err(cuda("recording an event"))?;
        for part in parts {
            for stream in part.streams() {
                stream.wait(event).map_err(cuda("ordering a stream after the graph"))?;
            }
        }
        Ok(())
    }
}
