//! One solver for every mesh split over GPUs in one process: the voxel
//! tissue's z-split ([`super::split_gpu`]) and the tetrahedral mesh's
//! ([`crate::tet::gpu_split`]) are this solver with their own
//! `SplitMesh`. What a split shares lives here once: the parts and their
//! halo exchange (`super::split_parts`), the clock and the stimuli, the
//! state and the maps scattered over the parts and gathered back, the NaN
//! check. What a kind of mesh brings is its layout: how a part is
//! uploaded, how its step is launched, how its state is cut and put back.

use std::marker::PhantomData;
use std::ops::Range;

use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::{CellModel, StepCoeffs};

use super::cut::{CutPart, MeshCut};
use super::gpu_fields::StepLaunch;
use super::split_parts::{DevicePart, SplitParts, check_parts_fit};
use crate::backend::gpu::device::GpuDevice;
use crate::cell_params::device::DeviceCellCoeffs;
use crate::domain::Domain;
use crate::events::EventClock;
use crate::events::recording::Maps;
use crate::events::stimulus::Stimulus;
use crate::multi::error::MultiError;
use crate::multi::gpu::{Exchange, enable_peer_access, gpus_name};
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
use crate::state::State;

/// What a kind of mesh brings to a split over GPUs: its parts' layout on
/// the device and on the host. Part `i` stores its owned cells first and
/// its halo cells after them; only variable 0 crosses between parts.
pub(crate) trait SplitMesh<M: CellModel, T: Scalar> {
    /// How the mesh is cut: what moves between the whole and the parts.
    type Cut: MeshCut;
    fn cut(&self) -> &Self::Cut;
    /// The device bytes of part `i`, for the check that the parts fit.
    fn part_bytes(&self, i: usize) -> u64;
    /// Part `i` on `device`: its fields and kernels, returned, and the
    /// device buffers its step reads beside them (a mask, a neighbour
    /// table), kept by the mesh. Called once per part, in order.
    fn upload_part(&mut self, i: usize, to: PartUpload<'_>) -> Result<DevicePart<T>, SolverError>;
    /// The runs of part `i`'s stored cells that stimulus `s` may touch.
    fn stimulus_ranges(&self, i: usize, s: &Stimulus) -> Vec<Range<u32>>;
    /// Enqueues one step of part `i`'s owned cells (`index`: the address
    /// of the whole domain's index of every stored cell on its GPU).
    fn launch_step<C: Copy>(
        &self,
        i: usize,
        index: u64,
        launch: StepLaunch<'_, T, C>,
    ) -> Result<(), SolverError>;
    /// The pseudo-ECG at `probes` from every part's U.
    fn ecg(&mut self, probes: &[EcgProbe], parts_u: &[Vec<T>]) -> Vec<f64>;
    /// The solver's method without the parts and the exchange
    /// (`tet-ell16 split`).
    fn method(&self) -> String;
}

/// Where a part goes and what it is built for.
#[derive(Clone, Copy)]
pub(crate) struct PartUpload<'a> {
    pub device: &'a GpuDevice,
    /// The kernels.
    pub ptx: &'a str,
    /// The whole domain (its model, parameter sets and time step).
    pub domain: &'a Domain,
}

/// A mesh split over GPUs (part i on `devices[i]`; a GPU may appear
/// several times), stepped part by part on their streams with the halos
/// refilled after every step, so that the run equals one GPU's bit for
/// bit.
pub struct GpuSplitSolver<M: CellModel, T: Scalar, S> {
    /// First, so that its drop idles every GPU before the mesh's buffers
    /// go.
    parts: SplitParts<T>,
    mesh: S,
    exchange: Exchange,
    step: StepCoeffs<T>,
    /// The model's coefficients of each part (and the parameter set of
    /// each stored cell where they vary), each pointing at its own GPU's
    /// copy of the rate tables, kept beside them.
    coeffs: Vec<DeviceCellCoeffs<M, T>>,
    clock: EventClock,
    model: PhantomData<M>,
}

#[allow(
    private_bounds,
    reason = "the methods are the crate's own; what a mesh brings to a split is not public API"
)]
impl<M: CellModel, T: Scalar, S: SplitMesh<M, T>> GpuSplitSolver<M, T, S> {
    /// `mesh`'s parts on `devices`, uploaded from `initial`: checks that
    /// the parts fit (those on one GPU together) before anything is
    /// allocated. The caller refuses NCCL and checks the inputs.
    pub(crate) fn build(
        devices: &[GpuDevice],
        ptx: &str,
        domain: &Domain,
        mut mesh: S,
        exchange: Exchange,
        initial: &State<T>,
    ) -> Result<Self, MultiError> {
        assert_eq!(devices.len(), mesh.cut().cut_parts().len(), "one device per part");
        let bytes: Vec<u64> = (0..devices.len()).map(|i| mesh.part_bytes(i)).collect();
        check_parts_fit(devices, &bytes)?;
        if exchange == Exchange::Peer {
            enable_peer_access(devices)?;
        }
        let mut parts = Vec::with_capacity(devices.len());
        let mut coeffs = Vec::with_capacity(devices.len());
        for (i, device) in devices.iter().enumerate() {
            let mut part = mesh.upload_part(i, PartUpload { device, ptx, domain })?;
            let cut = &mesh.cut().cut_parts()[i];
            let (u, local) = cut.scatter(initial);
            part.tissue.upload(&u, &local)?;
            coeffs.push(DeviceCellCoeffs::upload(&cut.coeffs::<M, T>(domain), part.stream())?);
            parts.push(part);
        }
        let parts = SplitParts::new(parts, mesh.cut().halo_runs(), exchange)?;
        Ok(Self {
            parts,
            mesh,
            exchange,
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs,
            clock: EventClock::new(domain.dt_ms()),
            model: PhantomData,
        })
    }

    /// The mesh and its split.
    pub(crate) fn mesh(&self) -> &S {
        &self.mesh
    }

    /// Launches the stimuli due at the current step on every part (halos
    /// included) unless they are in U.
    fn stimulate(&mut self) -> Result<(), SolverError> {
        if !self.clock.take_stimuli() || !self.clock.events.stimuli.any_active_at(self.clock.step) {
            return Ok(());
        }
        let whole = self.mesh.cut().whole();
        for i in 0..self.parts.parts.len() {
            self.parts.order(i)?;
            let part = &mut self.parts.parts[i];
            let index = part.index_address();
            // SAFETY: the stimuli's runs are `stimulus_ranges` of the
            // part's stored cells; `index` holds the whole domain's index
            // of every stored cell.
            unsafe { part.tissue.stimulate(&self.clock, (whole, index))? };
        }
        Ok(())
    }

    /// Enqueues one step on every part and the exchange that follows it.
    fn step_once(&mut self) -> Result<(), SolverError> {
        self.stimulate()?;
        let t_ms = self.clock.t_ms();
        for i in 0..self.parts.parts.len() {
            self.parts.order(i)?;
            let part = &mut self.parts.parts[i];
            let index = part.index_address();
            let coeffs = (self.coeffs[i].coeffs(), self.coeffs[i].sets());
            let launch = part.tissue.step_launch(self.step, coeffs, t_ms);
            self.mesh.launch_step(i, index, launch)?;
        }
        self.parts.exchange_halos()?;
        self.parts.swap();
        self.clock.step += 1;
        Ok(())
    }
}

impl<M: CellModel, T: Scalar, S: SplitMesh<M, T>> Solver<T> for GpuSplitSolver<M, T, S> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(gpus_name(&self.parts.device_names()))
    }

    fn method(&self) -> String {
        format!("{} {} exchange {}", self.mesh.method(), self.parts.parts.len(), self.exchange.name())
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        (0..steps).try_for_each(|_| self.step_once())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.parts.synchronize()
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        self.stimulate()?;
        let parts = self.parts.download()?;
        let refs: Vec<(&[T], &[T])> = parts.iter().map(|(u, l)| (&u[..], &l[..])).collect();
        Ok(self.mesh.cut().gather(M::INFO, &refs))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        assert_eq!(state.dims(), self.mesh.cut().whole(), "a state of the solver's mesh");
        assert_eq!(state.model().name, M::INFO.name, "a state of the solver's model");
        self.parts.synchronize()?;
        for (part, cut) in self.parts.parts.iter_mut().zip(self.mesh.cut().cut_parts()) {
            let (u, local) = cut.scatter(state);
            part.tissue.upload(&u, &local)?;
        }
        self.parts.synchronize()
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        self.parts.synchronize()?;
        let (whole, dt_ms) = (self.mesh.cut().whole(), self.clock.dt_ms);
        for (i, part) in self.parts.parts.iter_mut().enumerate() {
            let maps = maps.map(|m| self.mesh.cut().cut_parts()[i].scatter_maps(m));
            part.tissue.set_events((events, dt_ms), whole, |s| self.mesh.stimulus_ranges(i, s), maps)?;
        }
        self.clock.restart(events, start);
        self.parts.synchronize()
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        Ok(self.parts.maps()?.map(|parts| self.mesh.cut().gather_maps(&parts)))
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        self.stimulate()?;
        let u = self.parts.download_u()?;
        Ok(self.mesh.ecg(probes, &u))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.parts.any_nonfinite()
    }
}
