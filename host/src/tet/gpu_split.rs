//! A tetrahedral mesh split over GPUs ([`super::split`]): each part steps
//! its owned nodes with the single GPU's node kernel over its own rows of
//! the table, and its halos are refilled after every step by the split
//! parts' exchange (`crate::tissue::split_parts`, shared with the voxel
//! tissue's z-split), so that the run equals one GPU's bit for bit.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, DevicePtr};
use kernels_gpu::registry::Kernel;
use kernels_gpu::tet::EllTable;
use kernels_gpu::{CellModel, Locals, StepCoeffs};
use thiserror::Error;

use super::cpu::check_inputs;
use super::ecg::LeadFields;
use super::gpu::device_bytes;
use super::problem::TetProblem;
use super::split::{MeshSplitError, TetSplit};
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::cell_params::device::{DeviceCellCoeffs, step_kernel};
use crate::domain::Domain;
use crate::events::EventClock;
use crate::events::recording::Maps;
use crate::multi::error::MultiError;
use crate::multi::gpu::{Exchange, enable_peer_access, gpus_name};
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
use crate::state::State;
use crate::tissue::split_parts::{DevicePart, Downloaded, SplitParts, check_parts_fit};
use kernels_gpu::ecg::EcgProbe;

/// Why a split mesh solver could not be built.
#[derive(Debug, Error)]
pub enum TetSplitError {
    #[error(transparent)]
    Split(#[from] MeshSplitError),
    #[error(transparent)]
    Multi(#[from] MultiError),
    #[error(transparent)]
    Solver(#[from] SolverError),
    #[error(
        "a mesh split over GPUs exchanges halos by direct or host-staged copies in one process; \
         use --exchange peer or --exchange host"
    )]
    Nccl,
}

/// A mesh split over GPUs (part i on `devices[i]`; a GPU may appear
/// several times). Only variable 0 crosses between parts.
pub struct TetGpuMultiSolver<M: CellModel, T: Scalar> {
    /// First, so that its drop idles every GPU before the tables go.
    parts: SplitParts<T>,
    /// Each part's neighbour table (stored nodes, `width` per owned node).
    neighbours: Vec<CudaSlice<u32>>,
    split: TetSplit,
    problem: Arc<TetProblem>,
    exchange: Exchange,
    step: StepCoeffs<T>,
    /// Each part's model coefficients (and its stored nodes' parameter
    /// sets where they vary), pointing at its GPU's rate tables.
    coeffs: Vec<DeviceCellCoeffs<M, T>>,
    clock: EventClock,
    ecg: LeadFields,
    model: PhantomData<M>,
}

impl<M: CellModel, T: Scalar> TetGpuMultiSolver<M, T> {
    /// `problem` split into one part per device of `devices`, uploaded
    /// from `initial`.
    pub fn new(
        devices: &[GpuDevice],
        ptx: &str,
        domain: &Domain,
        problem: &Arc<TetProblem>,
        exchange: Exchange,
        initial: &State<T>,
    ) -> Result<Self, TetSplitError> {
        check_inputs::<M, T>(domain, problem, initial);
        if exchange == Exchange::Nccl {
            return Err(TetSplitError::Nccl);
        }
        let split = TetSplit::new(problem, devices.len())?;
        let (width, variables) = (problem.op.width, M::INFO.variables.len());
        // A part's halo holds U only: counted as nodes with every variable.
        let bytes: Vec<u64> =
            split.parts.iter().map(|p| device_bytes(p.stored(), width, variables, T::BYTES)).collect();
        check_parts_fit(devices, &bytes)?;
        if exchange == Exchange::Peer {
            enable_peer_access(devices)?;
        }
        let mut parts = Vec::with_capacity(devices.len());
        let mut neighbours = Vec::with_capacity(devices.len());
        for (device, part) in devices.iter().zip(&split.parts) {
            let sizes = (part.stored(), M::Locals::<T>::COUNT * part.owned.len());
            let weights = part.weights::<T>(problem);
            let kernel = step_kernel(domain, Kernel::TetNodes);
            let mut on_gpu = DevicePart::new::<M>(device, ptx, kernel, sizes, &weights, &part.index())?;
            let table = on_gpu
                .stream()
                .clone_htod(&part.neighbours)
                .map_err(cuda("uploading the neighbour table"))?;
            let (u, local) = part.scatter(initial);
            on_gpu.tissue.upload(&u, &local)?;
            neighbours.push(table);
            parts.push(on_gpu);
        }
        let coeffs = parts
            .iter()
            .zip(&split.parts)
            .map(|(p, part)| DeviceCellCoeffs::upload(&part.coeffs::<M, T>(domain), p.stream()))
            .collect::<Result<Vec<_>, _>>()?;
        let parts = SplitParts::new(parts, split.halo_runs(), exchange)?;
        Ok(Self {
            parts,
            neighbours,
            split,
            problem: problem.clone(),
            exchange,
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs,
            clock: EventClock::new(domain.dt_ms()),
            ecg: LeadFields::default(),
            model: PhantomData,
        })
    }

    pub fn split(&self) -> &TetSplit {
        &self.split
    }

    /// Launches the stimuli due at the current step on every part (halos
    /// included) unless they are in U.
    fn stimulate(&mut self) -> Result<(), SolverError> {
        if !self.clock.take_stimuli() || !self.clock.events.stimuli.any_active_at(self.clock.step) {
            return Ok(());
        }
        for i in 0..self.parts.parts.len() {
            self.parts.order(i)?;
            let part = &mut self.parts.parts[i];
            let index = part.index_address();
            // SAFETY: the stimuli's runs are the part's stored nodes, and
            // `index` holds the mesh node of every one.
            unsafe { part.tissue.stimulate(&self.clock, (self.split.line, index))? };
        }
        Ok(())
    }

    fn step_once(&mut self) -> Result<(), SolverError> {
        self.stimulate()?;
        let t_ms = self.clock.t_ms();
        for i in 0..self.parts.parts.len() {
            self.parts.order(i)?;
            let part = &mut self.parts.parts[i];
            let stream = part.stream().clone();
            let table = EllTable {
                nodes: self.split.parts[i].owned.len() as u32,
                width: self.problem.op.width as u32,
                weights: part.tissue.address(&part.tissue.weights),
                neighbours: self.neighbours[i].device_ptr(&stream).0,
            };
            let coeffs = (self.coeffs[i].coeffs(), self.coeffs[i].sets());
            let launch = part.tissue.step_launch(self.step, coeffs, t_ms);
            // SAFETY: the step kernel is <model>_tet[_sets]_<t> of this
            // model and precision, `_sets` exactly with the sets
            // (`step_kernel`), a set per stored node; U, U_next hold the part's stored nodes (owned
            // first), the locals COUNT times the owned ones, the weights
            // and the neighbours `width` per owned node, every neighbour a
            // stored node; the recorder is off or over the stored nodes.
            unsafe { launch.nodes(table)? };
        }
        self.parts.exchange_halos()?;
        self.parts.swap();
        self.clock.step += 1;
        Ok(())
    }

    fn download(&mut self) -> Result<Vec<Downloaded<T>>, SolverError> {
        self.stimulate()?;
        self.parts.download()
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TetGpuMultiSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(gpus_name(&self.parts.device_names()))
    }

    fn method(&self) -> String {
        let (parts, exchange) = (self.parts.parts.len(), self.exchange.name());
        format!("tet-ell{} split {parts} exchange {exchange}", self.problem.op.width)
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        (0..steps).try_for_each(|_| self.step_once())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.parts.synchronize()
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let parts = self.download()?;
        let refs: Vec<(&[T], &[T])> = parts.iter().map(|(u, l)| (&u[..], &l[..])).collect();
        Ok(self.split.gather(M::INFO, &refs))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        assert_eq!(state.dims(), self.split.line, "a state of the mesh's nodes");
        self.parts.synchronize()?;
        for (part, on_gpu) in self.split.parts.iter().zip(&mut self.parts.parts) {
            let (u, local) = part.scatter(state);
            on_gpu.tissue.upload(&u, &local)?;
        }
        self.parts.synchronize()
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        self.parts.synchronize()?;
        let (line, dt_ms) = (self.split.line, self.clock.dt_ms);
        for (part, on_gpu) in self.split.parts.iter().zip(&mut self.parts.parts) {
            let every = 0..part.stored() as u32;
            let maps = maps.map(|m| part.scatter_maps(m));
            on_gpu.tissue.set_events((events, dt_ms), line, |_| vec![every.clone()], maps)?;
        }
        self.clock.restart(events, start);
        self.parts.synchronize()
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        Ok(self.parts.maps()?.map(|parts| self.split.gather_maps(&parts)))
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate()?;
        let u = self.split.gather_u(&self.parts.download_u()?);
        Ok(self.ecg.sample_at(&self.problem.mesh, probes, &u))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.parts.any_nonfinite()
    }
}
