//! The GPU solver of a tetrahedral mesh: one thread per node
//! (`<model>_tet_<t>`, the body of `kernels_gpu::tet::step_node`, as on
//! the CPU), the weights and the neighbour table resident, with the
//! tissue's device fields, stimuli, maps and NaN checks (the nodes are a
//! line of stored cells).

use std::sync::Arc;

use cudarc::driver::{CudaSlice, DevicePtr};
use kernels_gpu::registry::Kernel;
use kernels_gpu::tet::EllTable;
use kernels_gpu::{CellModel, Locals, StepCoeffs};

use super::cpu::check_inputs;
use super::ecg::LeadFields;
use super::problem::TetProblem;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::domain::Domain;
use crate::events::EventClock;
use crate::events::recording::Maps;
use crate::scalar::Scalar;
use crate::solver::{EventsAt, NonfiniteCheck, RunsOn, Solver, SolverError};
use crate::state::State;
use crate::tissue::gpu_fields::DeviceTissue;
use kernels_gpu::ecg::EcgProbe;

pub struct TetGpuSolver<M: CellModel, T: Scalar> {
    problem: Arc<TetProblem>,
    tissue: DeviceTissue<T>,
    neighbours: CudaSlice<u32>,
    step: StepCoeffs<T>,
    coeffs: M::Coeffs<T>,
    /// The rate table the coefficients point at, if the model has one.
    _rate_table: Option<CudaSlice<T>>,
    clock: EventClock,
    ecg: LeadFields,
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
        let tissue =
            DeviceTissue::new::<M>(device, ptx, stream.clone(), Kernel::TetNodes, sizes, &problem.weights())?;
        let neighbours =
            stream.clone_htod(&problem.op.neighbours).map_err(cuda("uploading the neighbour table"))?;
        let device_coeffs = crate::backend::gpu::tables::device_coeffs::<M, T>(domain, &stream)?;
        let mut solver = Self {
            problem: problem.clone(),
            tissue,
            neighbours,
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs: device_coeffs.coeffs,
            _rate_table: device_coeffs.table,
            clock: EventClock::new(domain.dt_ms()),
            ecg: LeadFields::default(),
        };
        solver.set_state(initial)?;
        Ok(solver)
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
        let op = &self.problem.op;
        let table = EllTable {
            nodes: op.nodes as u32,
            width: op.width as u32,
            weights: self.tissue.address(&self.tissue.weights),
            neighbours: self.neighbours.device_ptr(&self.tissue.stream).0,
        };
        let launch = self.tissue.step_launch(self.step, self.coeffs, self.clock.t_ms());
        // SAFETY: the step kernel is <model>_tet_<t> of this model and
        // precision; U, U_next hold the nodes, the locals COUNT times as
        // many, the weights and the neighbours `width` per node (every
        // neighbour a node); the recorder is off or over the nodes' maps.
        unsafe { launch.nodes(table)? };
        self.tissue.end_step(&mut self.clock);
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
        (0..steps).try_for_each(|_| self.launch_step())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.tissue.stream.synchronize().map_err(cuda("running the mesh step"))
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let vars = self.download()?;
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
