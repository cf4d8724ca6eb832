//! The GPU solver of a tetrahedral mesh: one thread per node
//! (`<model>_tet_<t>`, the body of `kernels_gpu::tet::step_node`, as on
//! the CPU), the weights and the neighbour table resident, with the
//! tissue's device fields, stimuli, maps and NaN checks (the nodes are a
//! line of stored cells).

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use kernels_gpu::registry::Kernel;
use kernels_gpu::tet::EllTable;
use kernels_gpu::{CellModel, Locals, StepCoeffs};

use super::cpu::check_inputs;
use super::ecg::LeadFields;
use super::problem::TetProblem;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::graph::{MAX_GRAPH_STEPS, PassBuffers, Piece, StepGraphs, pieces};
use crate::cell_params::CellCoeffs;
use crate::cell_params::device::{DeviceCellCoeffs, step_kernel};
use crate::domain::Domain;
use crate::events::EventClock;
use crate::events::recording::Maps;
use crate::kernel_config::pass_steps;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, NonfiniteCheck, RunsOn, Solver, SolverError};
use crate::state::State;
use crate::tissue::gpu_fields::DeviceTissue;
use crate::tissue::state_copy::StateCopy;
use kernels_gpu::ecg::EcgProbe;

pub struct TetGpuSolver<M: CellModel, T: Scalar> {
    /// Quiet stretches of steps captured as CUDA graphs (first, so that
    /// they go before the buffers their kernels name).
    graphs: StepGraphs,
    use_graphs: bool,
    problem: Arc<TetProblem>,
    tissue: DeviceTissue<T>,
    neighbours: CudaSlice<u32>,
    step: StepCoeffs<T>,
    /// The coefficients (and each node's parameter set where they vary),
    /// with the rate tables they point at, if the model has one.
    coeffs: DeviceCellCoeffs<M, T>,
    clock: EventClock,
    ecg: LeadFields,
    /// Snapshots copied out behind the next steps (section 2.7), made on
    /// the first; `None` with the copies on the compute stream instead.
    copy: Option<StateCopy<T>>,
    overlap_copies: bool,
}

/// Bytes a mesh of `nodes` nodes with a table `width` wide takes on a
/// GPU for a model of `variables` variables in `bytes`-byte values: U
/// twice, the locals, and per entry a weight and a u32 neighbour.
pub fn device_bytes(nodes: usize, width: usize, variables: usize, bytes: usize) -> u64 {
    let fields = (variables + 1) * nodes * bytes;
    let table = width * nodes * (bytes + 4);
    (fields + table) as u64
}

impl<M: CellModel, T: Scalar> TetGpuSolver<M, T> {
    /// Loads the node kernel of `M`, uploads the problem's table and
    /// `initial`.
    pub fn new(
        device: &GpuDevice,
        ptx: &str,
        domain: &Domain,
        problem: &Arc<TetProblem>,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        check_inputs::<M, T>(domain, problem, initial);
        let (n, width) = (problem.nodes(), problem.op.width);
        device.check_fits(device_bytes(n, width, M::INFO.variables.len(), T::BYTES))?;
        let stream = device.context().default_stream();
        let sizes = (n, M::Locals::<T>::COUNT * n);
        let kernel = step_kernel(domain, Kernel::TetNodes);
        let tissue = DeviceTissue::new::<M>(device, ptx, stream.clone(), kernel, sizes, &problem.weights())?;
        let neighbours =
            stream.clone_htod(&problem.op.neighbours).map_err(cuda("uploading the neighbour table"))?;
        // The nodes are the domain's cells, in the solver's order.
        let coeffs = DeviceCellCoeffs::upload(&CellCoeffs::new(domain, n, Some), &stream)?;
        let mut solver = Self {
            graphs: StepGraphs::new(tissue.programmatic),
            use_graphs: true,
            problem: problem.clone(),
            tissue,
            neighbours,
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs,
            clock: EventClock::new(domain.dt_ms()),
            ecg: LeadFields::default(),
            copy: None,
            overlap_copies: true,
        };
        solver.set_state(initial)?;
        Ok(solver)
    }

    /// Whether snapshots are copied out behind the next steps (the
    /// default) or downloaded on the compute stream (for measurements).
    pub fn set_overlap_copies(&mut self, on: bool) {
        self.overlap_copies = on;
    }

    /// Launches the stimuli due at the current step unless they are in U.
    fn stimulate(&mut self) -> Result<(), SolverError> {
        if !self.clock.take_stimuli() {
            return Ok(());
        }
        // SAFETY: the nodes are the line's cells (index 0); a stimulus's
        // run is every node.
        unsafe { self.tissue.stimulate(&self.clock, (self.problem.line(), 0)) }
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        self.stimulate()?;
        let stream = self.tissue.stream.clone();
        self.launch_on(&stream)?;
        self.tissue.end_step(&mut self.clock);
        Ok(())
    }

    /// Enqueues the node kernel of the current step on `stream` (the
    /// solver's, or one being captured), from U into U_next.
    fn launch_on(&mut self, stream: &Arc<CudaStream>) -> Result<(), SolverError> {
        let op = &self.problem.op;
        let table = EllTable {
            nodes: op.nodes as u32,
            width: op.width as u32,
            weights: self.tissue.address(&self.tissue.weights),
            neighbours: self.neighbours.device_ptr(&self.tissue.stream).0,
        };
        let coeffs = (self.coeffs.coeffs(), self.coeffs.sets());
        let mut launch = self.tissue.step_launch(self.step, coeffs, self.clock.t_ms());
        launch.stream = stream;
        // SAFETY: the step kernel is <model>_tet[_sets]_<t> of this model
        // and precision, `_sets` exactly with the sets (`step_kernel`), a
        // set per node; U, U_next hold the nodes, the locals COUNT times as
        // many, the weights and the neighbours `width` per node (every
        // neighbour a node); the recorder is off or over the nodes' maps.
        unsafe { launch.nodes(table) }
    }

    /// Whether quiet stretches of steps are replayed as CUDA graphs (the
    /// default; `false` launches every step from the host, `--no-graphs`).
    pub fn set_graphs(&mut self, on: bool) {
        self.use_graphs = on;
    }

    /// Whether a graph's steps are joined by programmatic edges where the
    /// GPU allows them (the default; `false` keeps plain edges, `--no-pdl`).
    pub fn set_programmatic_launch(&mut self, on: bool) {
        // SAFETY: `programmatic` says the loaded node kernel waits for its
        // prerequisite grids, and the graphs capture only it.
        unsafe { self.graphs.set_programmatic(on && self.tissue.programmatic) };
    }

    /// Steps taken so far by replaying graphs.
    pub fn graph_steps(&self) -> u64 {
        self.graphs.replayed_steps()
    }

    /// `steps` steps, the quiet stretches between stimuli replayed as
    /// graphs as on the uniform grid ([`crate::backend::gpu::graph`]):
    /// without maps (the recorder carries each step's time), every step
    /// launched from the host otherwise.
    fn advance_with_graphs(&mut self, steps: u64) -> Result<(), SolverError> {
        // Bounds the look-ahead for stimuli; longer stretches take several turns.
        const LOOK_AHEAD: u64 = 16 * MAX_GRAPH_STEPS as u64;
        let mut left = steps;
        while left > 0 {
            self.stimulate()?;
            let (first, stimuli) = (self.clock.step, &self.clock.events.stimuli);
            let quiet =
                pass_steps(u32::MAX, left.min(LOOK_AHEAD), first, |s| stimuli.any_active_at(s)) as u64;
            for piece in pieces(quiet) {
                match piece {
                    Piece::Single => self.launch_step()?,
                    Piece::Graph(n) => self.replay_pass(n)?,
                }
            }
            left -= quiet;
        }
        Ok(())
    }

    /// `steps` (even) steps with nothing between them, as one graph launch,
    /// captured at its first use for the current U buffers.
    fn replay_pass(&mut self, steps: u32) -> Result<(), SolverError> {
        assert!(steps.is_multiple_of(2), "a pass leaves U and U_next in place");
        let t = &self.tissue;
        let buffers =
            PassBuffers { u: t.address(&t.u), u_next: t.address(&t.u_next), local: t.address(&t.local) };
        let stream = self.tissue.stream.clone();
        let mut graphs = std::mem::take(&mut self.graphs);
        // SAFETY: `record_pass` enqueues only this solver's node kernel,
        // over its own buffers (never reallocated; the graphs are dropped
        // before them) and constants fixed at construction; the recorder
        // is off (no maps), so the step's time in the arguments is not
        // read. `buffers` are the current roles of U, U_next and the
        // locals, and a pass of an even number of steps leaves them so.
        let launched =
            unsafe { graphs.launch(&stream, steps, buffers, |capture| self.record_pass(capture, steps)) };
        self.graphs = graphs;
        launched?;
        self.clock.step += steps as u64;
        Ok(())
    }

    /// Enqueues `steps` (even) steps on `capture` (a stream being
    /// captured: nothing runs) and leaves the buffers as they were.
    fn record_pass(&mut self, capture: &Arc<CudaStream>, steps: u32) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.launch_on(capture)?;
            self.tissue.swap();
        }
        Ok(())
    }

    /// The variables of the nodes, downloaded.
    fn download(&mut self) -> Result<Vec<Vec<T>>, SolverError> {
        self.stimulate()?;
        self.tissue.download_vars(M::Locals::<T>::COUNT, self.problem.nodes())
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TetGpuSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(self.tissue.device_name.clone())
    }

    fn method(&self) -> String {
        format!("tet-ell{}", self.problem.op.width)
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        if self.use_graphs && !self.tissue.has_maps() {
            return self.advance_with_graphs(steps);
        }
        (0..steps).try_for_each(|_| self.launch_step())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.tissue.stream.synchronize().map_err(cuda("running the mesh step"))
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let vars = self.download()?;
        Ok(State::from_vecs(M::INFO, self.problem.line(), vars))
    }

    fn begin_state_copy(&mut self) -> Result<bool, SolverError> {
        if !self.overlap_copies {
            return Ok(false);
        }
        self.stimulate()?;
        let (n, count) = (self.problem.nodes(), M::Locals::<T>::COUNT);
        if self.copy.is_none() {
            self.copy = Some(StateCopy::new(&self.tissue.stream, (1 + count) * n)?);
        }
        let copy = self.copy.as_mut().expect("made above");
        let mut sources = vec![(&self.tissue.u, n)];
        if count > 0 {
            sources.push((&self.tissue.local, count * n));
        }
        copy.begin(&self.tissue.stream, &sources)?;
        Ok(true)
    }

    fn collect_state(&mut self) -> Result<State<T>, SolverError> {
        let n = self.problem.nodes();
        let values = self.copy.as_mut().expect("a copy was begun").collect()?;
        let vars = values.chunks_exact(n).map(<[T]>::to_vec).collect();
        Ok(State::from_vecs(M::INFO, self.problem.line(), vars))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        assert_eq!(state.dims(), self.problem.line(), "a state of the mesh's nodes");
        let local: Vec<T> = (1..state.len()).flat_map(|k| state.slice(k).iter().copied()).collect();
        self.tissue.upload(state.slice(0), &local)
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        let (line, dt_ms) = (self.problem.line(), self.clock.dt_ms);
        let every = 0..self.problem.nodes() as u32;
        self.tissue.set_events((events, dt_ms), line, |_| vec![every.clone()], maps.cloned())?;
        self.clock.restart(events, start);
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        self.tissue.maps()
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate()?;
        let u = self.tissue.download_u()?;
        Ok(self.ecg.sample_at(&self.problem.mesh, probes, &u))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.tissue.any_nonfinite()
    }

    fn begin_nonfinite_check(&mut self) -> Result<NonfiniteCheck, SolverError> {
        let recording = self.tissue.has_maps();
        self.tissue.begin_nonfinite_check(recording)
    }

    fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        self.tissue.end_nonfinite_check(check)
    }
}
