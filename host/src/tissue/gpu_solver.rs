//! One solver for every mesh resident on one GPU: the voxel tissue
//! ([`super::gpu`]) and the tetrahedral mesh ([`crate::tet::gpu`]) are
//! this solver with their own `GpuMesh`, as their splits over GPUs are
//! [`super::split_solver`]'s. What a one-GPU run shares lives here once:
//! the fields and events on the device (`DeviceTissue`), the clock and
//! the stimuli, quiet stretches replayed as CUDA graphs, snapshots copied
//! out behind the steps (section 2.7), the NaN check. What a kind of
//! mesh brings is its layout: its tables on the device, the launch of its
//! step kernel, and how its stored cells map to the domain's.

use std::sync::Arc;

use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::{CellModel, Locals, StepCoeffs};

use super::gpu_fields::{DeviceTissue, StepLaunch};
use super::mesh_cells::MeshCells;
use super::state_copy::StateCopy;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::graph::{MAX_GRAPH_STEPS, PassBuffers, Piece, StepGraphs, pieces};
use crate::cell_params::device::DeviceCellCoeffs;
use crate::domain::Domain;
use crate::events::EventClock;
use crate::events::recording::Maps;
use crate::kernel_config::pass_steps;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, NonfiniteCheck, RunsOn, Solver, SolverError};
use crate::state::State;
use cudarc::driver::CudaStream;

/// What a kind of mesh brings to a one-GPU run: its cells as the solver
/// stores them (U holds them) and its tables on the device.
pub(crate) trait GpuMesh<T: Scalar> {
    type Cells: MeshCells;
    /// The device address of the box index of every stored cell, on the
    /// solver's stream `home`; 0 where the stored cells are the box's, in
    /// its order (as a tetrahedral mesh's nodes are their line's).
    fn index_address(&self, home: &CudaStream) -> u64 {
        let _ = home;
        0
    }
    /// Enqueues one step of `cells` on `launch.stream` (the solver's, or
    /// one being captured as a graph).
    fn launch_step<C: Copy>(
        &self,
        cells: &Self::Cells,
        launch: StepLaunch<'_, T, C>,
    ) -> Result<(), SolverError>;
    /// The solver's method (`tissue-compact-n16`, `tet-ell16`).
    fn method(&self, cells: &Self::Cells) -> String;
}

/// Device bytes of the staging buffer a snapshot copied out behind the
/// steps goes through (every variable of the `stored` cells, made at the
/// first snapshot), which the solvers' fit checks add to the mesh's own
/// so that a run that fits does not fail at its first snapshot.
pub fn state_copy_bytes(stored: usize, variables: usize, bytes_per_value: usize) -> u64 {
    (stored * variables * bytes_per_value) as u64
}

/// A mesh resident on one GPU, one thread per stored cell.
#[allow(private_bounds, reason = "what a mesh brings to a solver is not public API")]
pub struct GpuMeshSolver<M: CellModel, T: Scalar, G: GpuMesh<T>> {
    /// Quiet stretches of steps captured as CUDA graphs (first, so that
    /// they go before the buffers their kernels name).
    graphs: StepGraphs,
    use_graphs: bool,
    tissue: DeviceTissue<T>,
    cells: G::Cells,
    mesh: G,
    step: StepCoeffs<T>,
    /// The coefficients (and the parameter set of every stored cell where
    /// they vary), with the rate tables they point at.
    coeffs: DeviceCellCoeffs<M, T>,
    clock: EventClock,
    /// Snapshots copied out behind the next steps (section 2.7), made on
    /// the first; `None` with the copies on the compute stream instead.
    copy: Option<StateCopy<T>>,
    overlap_copies: bool,
}

#[allow(
    private_bounds,
    reason = "the methods are the crate's own; what a mesh brings to a solver is not public API"
)]
impl<M: CellModel, T: Scalar, G: GpuMesh<T>> GpuMeshSolver<M, T, G> {
    /// The solver over `tissue` (the fields and kernels of `cells`) and
    /// `mesh`'s tables, with `coeffs` on the same device, set to `initial`.
    pub(crate) fn build(
        tissue: DeviceTissue<T>,
        (cells, mesh): (G::Cells, G),
        coeffs: DeviceCellCoeffs<M, T>,
        domain: &Domain,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        let mut solver = Self {
            graphs: StepGraphs::new(tissue.programmatic),
            use_graphs: true,
            tissue,
            cells,
            mesh,
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs,
            clock: EventClock::new(domain.dt_ms()),
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

    /// Whether quiet stretches of steps are replayed as CUDA graphs (the
    /// default; `false` launches every step from the host, `--no-graphs`).
    pub fn set_graphs(&mut self, on: bool) {
        self.use_graphs = on;
    }

    /// Whether a graph's steps are joined by programmatic edges where the
    /// GPU allows them (the default; `false` keeps plain edges, `--no-pdl`).
    pub fn set_programmatic_launch(&mut self, on: bool) {
        // SAFETY: `programmatic` says the loaded step kernel waits for its
        // prerequisite grids, and the graphs capture only it.
        unsafe { self.graphs.set_programmatic(on && self.tissue.programmatic) };
    }

    /// Steps taken so far by replaying graphs.
    pub fn graph_steps(&self) -> u64 {
        self.graphs.replayed_steps()
    }

    /// Launches the stimuli due at the current step unless they are in U.
    fn stimulate(&mut self) -> Result<(), SolverError> {
        if !self.clock.take_stimuli() {
            return Ok(());
        }
        let site = (self.cells.dims(), self.mesh.index_address(&self.tissue.stream));
        // SAFETY: the index is 0 (the stored cells are the box's) or the
        // box index of every stored cell (`GpuMesh::index_address`); a
        // stimulus's runs are `stimulus_ranges` of the stored cells.
        unsafe { self.tissue.stimulate(&self.clock, site) }
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        self.stimulate()?;
        let stream = self.tissue.stream.clone();
        self.launch_on(&stream)?;
        self.tissue.end_step(&mut self.clock);
        Ok(())
    }

    /// Enqueues the step kernel of the current step on `stream` (the
    /// solver's, or one being captured), from U into U_next.
    fn launch_on(&mut self, stream: &Arc<CudaStream>) -> Result<(), SolverError> {
        let coeffs = (self.coeffs.coeffs(), self.coeffs.sets());
        let mut launch = self.tissue.step_launch(self.step, coeffs, self.clock.t_ms());
        launch.stream = stream;
        self.mesh.launch_step(&self.cells, launch)
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
        // SAFETY: `record_pass` enqueues only this solver's step kernel,
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

    /// The variables of the stored cells, downloaded.
    fn download(&mut self) -> Result<Vec<Vec<T>>, SolverError> {
        self.stimulate()?;
        self.tissue.download_vars(M::Locals::<T>::COUNT, self.cells.stored())
    }
}

impl<M: CellModel, T: Scalar, G: GpuMesh<T>> Solver<T> for GpuMeshSolver<M, T, G> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(self.tissue.device_name.clone())
    }

    fn method(&self) -> String {
        self.mesh.method(&self.cells)
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
        let refs: Vec<&[T]> = vars.iter().map(Vec::as_slice).collect();
        Ok(self.cells.state::<M, T>(&refs))
    }

    fn begin_state_copy(&mut self) -> Result<bool, SolverError> {
        if !self.overlap_copies {
            return Ok(false);
        }
        self.stimulate()?;
        let (n, count) = (self.cells.stored(), M::Locals::<T>::COUNT);
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
        let n = self.cells.stored();
        let values = self.copy.as_mut().expect("a copy was begun").collect()?;
        let vars: Vec<&[T]> = values.chunks_exact(n).collect();
        Ok(self.cells.state::<M, T>(&vars))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        let (u, local) = self.cells.scatter::<M, T>(state);
        self.tissue.upload(&u, &local)
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        let (cells, dt_ms) = (&self.cells, self.clock.dt_ms);
        let maps = maps.map(|m| cells.maps_in(m));
        self.tissue.set_events((events, dt_ms), cells.dims(), |s| cells.stimulus_ranges(s), maps)?;
        self.clock.restart(events, start);
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        Ok(self.tissue.maps()?.map(|m| self.cells.maps_out(&m)))
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate()?;
        let u = self.tissue.download_u()?;
        Ok(self.cells.ecg::<M, T>(probes, &u))
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
