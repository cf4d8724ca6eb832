//! Passes of steps replayed as CUDA graphs, so that a small grid is not
//! bound by the host enqueueing one kernel launch per step.
//!
//! On a 64^3 grid a step launched from the host takes about 4.6 us on an
//! H100 and a step replayed from a graph 2.5 us (docs/history/BENCHMARKS-2026.md,
//! "Small grids: CUDA graphs"): the difference is the host's enqueueing.
//! A pass of `n` steps (the step kernel `n` times, U and
//! U_next swapping roles after each) is captured once into a CUDA graph
//! and then launched with one call; the kernels and their arguments are
//! exactly those of `n` single launches, so the fields stay bit-identical.
//!
//! A graph fixes its kernels' arguments, so only passes in which nothing
//! varies from step to step are replayed: no stimulus is due after the
//! pass's first step (that step's stimuli are launched before the pass)
//! and no map records crossings (the recorder carries the step's time).
//! The solver ends a replayed pass before a stimulated step, and launches
//! every step itself while maps are recorded. Pass lengths are even powers
//! of two, so a replayed pass leaves U and U_next where they were; a graph
//! is kept per length and per assignment of the two U buffers (an odd
//! number of single steps swaps them), at most `2 x 7` graphs per solver.
//!
//! On GPUs of compute capability 9.0 and later the edges between a pass's
//! step kernels are made programmatic (CUDA's programmatic dependent
//! launch): the next step's grid is scheduled while the previous one's
//! last blocks drain, and its threads wait in `griddepcontrol.wait`, the
//! first instruction of every step kernel
//! (`kernels_gpu::gpu::wait_for_prerequisite_grids`), until that grid has
//! completed and its writes are visible. Each step still reads only what
//! the previous one finished writing: the same bits, less idle time per
//! step (`--no-pdl` keeps plain edges, for comparison).
//!
//! Capture runs on a stream of the solver's own (the legacy default
//! stream, where the solver works, cannot be captured); capturing enqueues
//! nothing. The graph is then launched on the solver's stream, so it is
//! ordered with the stimuli, downloads and NaN checks there as a kernel
//! launch would be.

use std::sync::Arc;

use cudarc::driver::result::graph as raw_graph;
use cudarc::driver::sys::{
    self, CUdeviceptr, CUgraph, CUgraphExec, CUgraphInstantiate_flags, CUstreamCaptureMode,
};
use cudarc::driver::{CudaContext, CudaStream, DriverError};

use crate::solver::SolverError;

use super::cuda::cuda;

/// The shortest pass worth a graph: below it the steps are launched one
/// by one (a graph launch costs about as much as a kernel launch).
pub const MIN_GRAPH_STEPS: u32 = 4;

/// The longest pass one graph holds. Longer quiet stretches are several
/// launches of it; the host then enqueues one call per 256 steps, far
/// below what the GPU takes to run them.
pub const MAX_GRAPH_STEPS: u32 = 256;

/// One piece of a quiet stretch of steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// A replayed pass of this many steps (a power of two from
    /// [`MIN_GRAPH_STEPS`] to [`MAX_GRAPH_STEPS`]).
    Graph(u32),
    /// One step launched on its own.
    Single,
}

/// How a stretch of `steps` steps with nothing to do between them is
/// taken: passes of [`MAX_GRAPH_STEPS`], then the binary digits of the rest
/// from the largest (each a graph from [`MIN_GRAPH_STEPS`] up), then the
/// last few steps one by one. Few lengths, so few graphs to capture.
pub fn pieces(steps: u64) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut left = steps;
    while left >= MAX_GRAPH_STEPS as u64 {
        out.push(Piece::Graph(MAX_GRAPH_STEPS));
        left -= MAX_GRAPH_STEPS as u64;
    }
    let mut len = MAX_GRAPH_STEPS / 2;
    while len >= MIN_GRAPH_STEPS {
        if left >= len as u64 {
            out.push(Piece::Graph(len));
            left -= len as u64;
        }
        len /= 2;
    }
    out.extend((0..left).map(|_| Piece::Single));
    out
}

/// The device buffers a captured pass reads and writes, in the roles they
/// had at capture (U is read by the pass's first step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassBuffers {
    pub u: CUdeviceptr,
    pub u_next: CUdeviceptr,
    pub local: CUdeviceptr,
}

/// A captured pass and what it was captured over.
struct Captured {
    steps: u32,
    buffers: PassBuffers,
    graph: PassGraph,
}

/// A captured graph and its instantiation, destroyed together.
pub(crate) struct PassGraph {
    ctx: Arc<CudaContext>,
    graph: CUgraph,
    exec: CUgraphExec,
}

impl Drop for PassGraph {
    fn drop(&mut self) {
        // Errors here (a context already torn down) leave nothing to free.
        let _ = self.ctx.bind_to_thread();
        // SAFETY: both handles were created by `capture` and are destroyed
        // once, here; the graph is not running (launches are ordered on
        // the solver's stream, which the solver synchronises before it
        // drops its graphs, and the driver defers the destruction of a
        // graph still executing).
        unsafe {
            let _ = raw_graph::exec_destroy(self.exec);
            let _ = raw_graph::destroy(self.graph);
        }
    }
}

/// Turns every edge between two kernel nodes of `graph` into a
/// programmatic one: the downstream grid may be scheduled before the
/// upstream one completes, and its `griddepcontrol.wait` holds its threads
/// until it has.
///
/// # Safety
/// `graph` is a valid graph not yet instantiated, and every kernel of it
/// waits for its prerequisite grids before it reads what they write.
unsafe fn make_edges_programmatic(graph: CUgraph) -> Result<(), DriverError> {
    let check = |r: sys::CUresult| r.result();
    let mut count = 0usize;
    // SAFETY: a null array asks only for the count.
    unsafe {
        check(sys::cuGraphGetEdges_v2(
            graph,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut count,
        ))?
    };
    if count == 0 {
        return Ok(());
    }
    let mut from = vec![std::ptr::null_mut(); count];
    let mut to = vec![std::ptr::null_mut(); count];
    let none = sys::CUgraphEdgeData { from_port: 0, to_port: 0, type_: 0, reserved: [0; 5] };
    let mut data = vec![none; count];
    // SAFETY: three arrays of `count` elements; the call writes at most that many.
    unsafe {
        check(sys::cuGraphGetEdges_v2(
            graph,
            from.as_mut_ptr(),
            to.as_mut_ptr(),
            data.as_mut_ptr(),
            &mut count,
        ))?
    };
    let is_kernel = |node: sys::CUgraphNode| -> Result<bool, DriverError> {
        let mut kind = sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_EMPTY;
        // SAFETY: `node` is a node of `graph`; the call writes one value.
        unsafe { check(sys::cuGraphNodeGetType(node, &mut kind))? };
        Ok(kind == sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_KERNEL)
    };
    let programmatic = sys::CUgraphEdgeData {
        from_port: sys::CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC as u8,
        to_port: 0,
        type_: sys::CUgraphDependencyType::CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC as u8,
        reserved: [0; 5],
    };
    for i in 0..count {
        if !(is_kernel(from[i])? && is_kernel(to[i])?) {
            continue;
        }
        // SAFETY: the edge exists (just listed, with its data); it is
        // replaced by one between the same nodes.
        unsafe {
            check(sys::cuGraphRemoveDependencies_v2(graph, &from[i], &to[i], &data[i], 1))?;
            check(sys::cuGraphAddDependencies_v2(graph, &from[i], &to[i], &programmatic, 1))?;
        }
    }
    Ok(())
}

/// The graphs of one solver, captured on first use.
#[derive(Default)]
pub struct StepGraphs {
    /// The stream passes are captured on (created at the first capture).
    capture: Option<Arc<CudaStream>>,
    graphs: Vec<Captured>,
    /// Steps taken by graph launches so far.
    replayed_steps: u64,
    /// Whether the edges between a pass's kernels are programmatic.
    programmatic: bool,
}

/// Graphs kept before the cache is emptied: the lengths and buffer
/// assignments of one solver make at most 14; more means the buffers
/// moved, and the old graphs are of no further use.
pub(crate) const MAX_KEPT: usize = 32;

impl StepGraphs {
    /// Graphs whose kernels are joined by programmatic edges where
    /// `programmatic` (the module's step kernels wait for their
    /// prerequisite grids: `super::ptx`), by plain ones otherwise.
    pub fn new(programmatic: bool) -> Self {
        Self { programmatic, ..Self::default() }
    }

    /// Whether the edges between a pass's kernels are programmatic.
    pub fn programmatic(&self) -> bool {
        self.programmatic
    }

    /// Plain edges from now on (`false`), or programmatic ones again where
    /// the module allowed them at construction: graphs already captured
    /// are forgotten when this changes what a capture makes.
    ///
    /// # Safety
    /// `on` may be `true` only if every kernel that will be captured waits
    /// for its prerequisite grids before it reads.
    pub unsafe fn set_programmatic(&mut self, on: bool) {
        if on != self.programmatic {
            self.graphs.clear();
        }
        self.programmatic = on;
    }

    /// Steps taken by graph launches so far.
    pub fn replayed_steps(&self) -> u64 {
        self.replayed_steps
    }

    /// Forgets every graph (they are captured again when needed).
    pub fn clear(&mut self) {
        self.graphs.clear();
    }

    /// Launches on `stream` the pass of `steps` steps over `buffers`,
    /// capturing it first if it is new: `record` enqueues the pass's
    /// kernels on the stream it is given, which is being captured, and
    /// must leave the solver as it found it (it runs nothing).
    ///
    /// # Safety
    /// `record` must enqueue only kernel launches whose arguments stay
    /// valid for as long as this object keeps the graph (the solver's own
    /// buffers and constants), and a graph over `buffers` must only be
    /// replayed while those buffers hold the roles they had at capture.
    pub unsafe fn launch(
        &mut self,
        stream: &Arc<CudaStream>,
        steps: u32,
        buffers: PassBuffers,
        record: impl FnOnce(&Arc<CudaStream>) -> Result<(), SolverError>,
    ) -> Result<(), SolverError> {
        let index = match self.graphs.iter().position(|c| c.steps == steps && c.buffers == buffers) {
            Some(i) => i,
            None => {
                let graph = self.capture(stream, record)?;
                if self.graphs.len() >= MAX_KEPT {
                    self.graphs.clear();
                }
                self.graphs.push(Captured { steps, buffers, graph });
                self.graphs.len() - 1
            }
        };
        // SAFETY: the graph's kernels' arguments are valid (this
        // function's contract) and the stream is of its context.
        unsafe { self.graphs[index].graph.launch(stream) }?;
        self.replayed_steps += steps as u64;
        Ok(())
    }

    /// Captures what `record` enqueues into an instantiated graph, on
    /// this object's capture stream.
    fn capture(
        &mut self,
        stream: &Arc<CudaStream>,
        record: impl FnOnce(&Arc<CudaStream>) -> Result<(), SolverError>,
    ) -> Result<PassGraph, SolverError> {
        let capture = match &self.capture {
            Some(s) => s.clone(),
            None => {
                let s = stream.context().new_stream().map_err(cuda("creating the capture stream"))?;
                self.capture = Some(s.clone());
                s
            }
        };
        // SAFETY: `programmatic` is set only where every kernel captured
        // waits for its prerequisite grids (`set_programmatic`, `new`).
        unsafe { capture_graph(&capture, self.programmatic, record) }
    }
}

impl PassGraph {
    /// Launches the graph on `stream`, which must be of the context it
    /// was captured in.
    ///
    /// # Safety
    /// Every buffer the graph's nodes name is alive and holds the role it
    /// had at capture.
    pub(crate) unsafe fn launch(&self, stream: &CudaStream) -> Result<(), SolverError> {
        stream.context().bind_to_thread().map_err(cuda("launching a pass graph"))?;
        // SAFETY: `exec` is an instantiated graph this object owns; the
        // caller vouches for its nodes' buffers.
        unsafe { raw_graph::launch(self.exec, stream.cu_stream()) }.map_err(cuda("launching a pass graph"))
    }
}

/// Captures what `record` enqueues, starting from `capture` (a stream that
/// is not the legacy default stream), into an instantiated graph; with
/// `programmatic`, the edges between its kernels are made programmatic.
/// `record` may fork other streams off `capture` with events (even
/// streams of other GPUs: the graph then spans them) and must join them
/// back into it before it returns.
///
/// # Safety
/// With `programmatic`, every kernel `record` enqueues waits for its
/// prerequisite grids before it reads what they write.
pub(crate) unsafe fn capture_graph(
    capture: &Arc<CudaStream>,
    programmatic: bool,
    record: impl FnOnce(&Arc<CudaStream>) -> Result<(), SolverError>,
) -> Result<PassGraph, SolverError> {
    // Thread-local: driver calls from other threads (another solver's,
    // in a process that drives several) neither join nor end it.
    capture
        .begin_capture(CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
        .map_err(cuda("starting a graph capture"))?;
    let recorded = record(capture);
    // The capture is ended in every case, so the stream is usable after
    // a failed launch.
    // SAFETY: the stream is capturing since above.
    let graph = unsafe { cudarc::driver::result::stream::end_capture(capture.cu_stream()) };
    let graph = match (recorded, graph) {
        (Ok(()), Ok(graph)) if !graph.is_null() => graph,
        (recorded, graph) => {
            if let Ok(graph) = graph
                && !graph.is_null()
            {
                // SAFETY: the graph just captured, not instantiated, owned by no one else.
                let _ = unsafe { raw_graph::destroy(graph) };
            }
            recorded?;
            graph.map_err(cuda("capturing a pass graph"))?;
            return Err(SolverError::Cuda {
                during: "capturing a pass graph (nothing was captured)",
                source: DriverError(sys::CUresult::CUDA_ERROR_STREAM_CAPTURE_INVALIDATED),
            });
        }
    };
    let ctx = capture.context().clone();
    let finish = || -> Result<CUgraphExec, DriverError> {
        if programmatic {
            // SAFETY: `graph` was captured above and is not instantiated;
            // its kernels wait for their prerequisite grids (this
            // function's contract).
            unsafe { make_edges_programmatic(graph)? };
        }
        // SAFETY: a valid graph.
        unsafe { raw_graph::instantiate(graph, CUgraphInstantiate_flags(0)) }
    };
    match finish() {
        Ok(exec) => Ok(PassGraph { ctx, graph, exec }),
        Err(e) => {
            // SAFETY: as above; nothing was instantiated from it.
            let _ = unsafe { raw_graph::destroy(graph) };
            Err(cuda("instantiating a pass graph")(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(p: &[Piece]) -> u64 {
        p.iter().map(|p| if let Piece::Graph(n) = p { *n as u64 } else { 1 }).sum()
    }

    #[test]
    fn pieces_cover_the_stretch_with_even_powers_of_two_and_few_singles() {
        for steps in 0..2000u64 {
            let p = pieces(steps);
            assert_eq!(total(&p), steps, "{steps}");
            let singles = p.iter().filter(|p| **p == Piece::Single).count() as u32;
            assert!(singles < MIN_GRAPH_STEPS, "{steps}: {singles} singles");
            for piece in &p {
                if let Piece::Graph(n) = piece {
                    assert!(n.is_power_of_two() && *n % 2 == 0, "{steps}: {n}");
                    assert!((MIN_GRAPH_STEPS..=MAX_GRAPH_STEPS).contains(n), "{steps}: {n}");
                }
            }
            // Graphs first, largest first; at most one of each length below the largest.
            let lens: Vec<u32> =
                p.iter().filter_map(|p| if let Piece::Graph(n) = p { Some(*n) } else { None }).collect();
            assert!(
                lens.windows(2).all(|w| w[0] >= w[1] && (w[0] > w[1] || w[0] == MAX_GRAPH_STEPS)),
                "{steps}: {lens:?}"
            );
        }
    }

    #[test]
    fn worked_examples() {
        use Piece::{Graph, Single};
        assert_eq!(pieces(0), vec![]);
        assert_eq!(pieces(3), vec![Single, Single, Single]);
        assert_eq!(pieces(100), vec![Graph(64), Graph(32), Graph(4)]);
        assert_eq!(pieces(519), vec![Graph(256), Graph(256), Graph(4), Single, Single, Single]);
    }
}
