//! The split tissue run ([`super::split`]) on several GPUs driven by one
//! process (or several parts on one GPU): each part steps its own cells
//! with the single-domain tissue kernels, then its boundary slices of
//! variable 0 go into the neighbours' halos, by a direct copy (`peer`) or
//! through pinned host memory (`host`, the paper's scheme).
//!
//! Each part has one stream; events order the streams, nothing waits on
//! the host between steps. Per step n:
//! 1. part i's stream waits for each neighbour's `done` of step n - 1
//!    (its halos have arrived, and the neighbour no longer reads what this
//!    step's copies overwrite), applies the stimuli (halos included) and
//!    steps its owned cells from U into U_next;
//! 2. peer: part i's stream copies its boundary cells of U_next into the
//!    neighbours' halo cells of U_next, then records `done`. Host: part i's
//!    stream copies its boundary cells into its pinned buffers and records
//!    `staged`; then each part's stream waits for its neighbours' `staged`,
//!    copies the pinned buffers into its halo cells and records `done`.
//!
//! The halo cells of U_next are written by nobody else in step n (the
//! kernels write owned cells only), and were last read in step n - 1,
//! which the copying stream waited for in 1 (through `done`). A pinned
//! buffer is refilled in step n + 1 only after the neighbour's `done` of
//! step n, which follows the copy out of it. Unlike the box's split, the
//! step is not cut into boundary and interior kernels to hide the copies:
//! a tissue's boundary slices are irregular, and the halo of one slice is
//! small next to a part's cells.

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaEvent, CudaSlice, CudaStream, DevicePtr, PinnedHostSlice};
use kernels_gpu::registry::Kernel;
use kernels_gpu::tissue::{DIRECTIONS, DenseTissue};
use kernels_gpu::{CellModel, Locals, StepCoeffs, ZWindow};
use thiserror::Error;

use super::gpu::{DeviceNeighbours, compact_kernel};
use super::gpu_fields::DeviceTissue;
use super::neighbours::CompactFields;
use super::solving::{check_inputs, check_state, rest_u};
use super::split::{Slab, TissueSplit};
use super::storage::storage_name;
use super::weights::Operator;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::solver::SliceGeometry;
use crate::backend::gpu::tables::{DeviceCoeffs, device_coeffs};
use crate::domain::Domain;
use crate::events::EventClock;
use crate::events::ecg::pseudo_ecg_at;
use crate::events::recording::Maps;
use crate::layout::zsplit::SplitError;
use crate::multi::error::MultiError;
use crate::multi::gpu::{Exchange, gpus_name, idle_all};
use crate::multi::gpu::{copy_slice_from_host, copy_slice_peer, copy_slice_to_host, enable_peer_access};
use crate::scalar::Scalar;
use crate::solver::{EventsAt, NonfiniteCheck, RunsOn, Solver, SolverError};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// Why a split tissue solver could not be built.
#[derive(Debug, Error)]
pub enum TissueSplitError {
    #[error(transparent)]
    Multi(#[from] MultiError),
    #[error(
        "a tissue split over GPUs exchanges halos by direct or host-staged copies in one process; \
         use --exchange peer or --exchange host"
    )]
    Nccl,
}

impl From<SplitError> for TissueSplitError {
    fn from(e: SplitError) -> Self {
        Self::Multi(MultiError::Split(e))
    }
}

impl From<SolverError> for TissueSplitError {
    fn from(e: SolverError) -> Self {
        Self::Multi(MultiError::Solver(e))
    }
}

/// Device bytes of part `slab`: U twice, the locals and the weights at the
/// stride, the box-index table, and the layout's table (a mask byte per
/// stored cell, or the neighbour table in its form: 18 entries of 4 or 2
/// bytes per owned cell).
pub fn part_device_bytes(slab: &Slab, variables: usize, bytes_per_value: usize) -> u64 {
    let (stored, stride) = (slab.stored() as u64, slab.stride() as u64);
    let values = 2 * stored + (variables as u64 - 1 + DIRECTIONS as u64) * stride;
    let tables = 4 * stored
        + match &slab.neighbours {
            None => stride,
            Some(table) => table.bytes(),
        };
    values * bytes_per_value as u64 + tables
}

/// A part's U and locals, downloaded.
type Downloaded<T> = (Vec<T>, Vec<T>);

/// The layout's buffers beside the weights.
enum LayoutBuffers {
    Dense { mask: CudaSlice<u8> },
    Compact { neighbours: DeviceNeighbours },
}

/// One part on its GPU: its fields, kernels and events as the single
/// domain's ([`DeviceTissue`], at the stride), and what the exchange needs.
struct Part<T> {
    ctx: Arc<CudaContext>,
    tissue: DeviceTissue<T>,
    buffers: LayoutBuffers,
    /// Box index of every stored cell (the stimulus kernel's table).
    index: CudaSlice<u32>,
    /// This part's work of the latest step, its copies included.
    done: CudaEvent,
    /// Host exchange: the boundary cells are in the pinned buffers.
    staged: CudaEvent,
    /// Host exchange: the cells sent down (0) and up (1).
    pinned: [Option<PinnedHostSlice<u8>>; 2],
}

impl<T: Scalar> Part<T> {
    fn stream(&self) -> &Arc<CudaStream> {
        &self.tissue.stream
    }

    /// Stored cells `r` of a U buffer, as a one-row copy.
    fn geometry(r: &Range<u32>) -> SliceGeometry {
        let width = r.len() * T::BYTES;
        SliceGeometry {
            offset_bytes: r.start as usize * T::BYTES,
            width_bytes: width,
            rows: 1,
            pitch_bytes: width,
        }
    }

    fn upload(&mut self, slab: &Slab, state: &State<T>) -> Result<(), SolverError> {
        let (u, local) = slab.scatter(state);
        self.tissue.upload(&u, &local)
    }
}

/// A tissue split over GPUs (part i on `devices[i]`; a GPU may appear
/// several times). Only variable 0 crosses between parts.
pub struct TissueGpuMultiSolver<M: CellModel, T: Scalar> {
    split: TissueSplit,
    parts: Vec<Part<T>>,
    exchange: Exchange,
    step: StepCoeffs<T>,
    /// The model's coefficients of each part, each pointing at its own
    /// GPU's copy of the rate table (`--rate-tables`), kept beside them.
    coeffs: Vec<DeviceCoeffs<M, T>>,
    clock: EventClock,
    device_names: Vec<String>,
    model: PhantomData<M>,
}

impl<M: CellModel, T: Scalar> TissueGpuMultiSolver<M, T> {
    /// The parts of `split` (a split of `op`'s tissue by tissue cells,
    /// `TissueSplit::new`) on `devices`; checks that the parts fit (those
    /// on one GPU together), uploads them.
    pub fn new(
        devices: &[GpuDevice],
        ptx: &str,
        domain: &Domain,
        op: &Arc<Operator>,
        split: TissueSplit,
        exchange: Exchange,
        initial: &State<T>,
    ) -> Result<Self, TissueSplitError> {
        check_inputs::<M, T>(domain, op, initial);
        assert_eq!(devices.len(), split.parts(), "one device per part");
        if exchange == Exchange::Nccl {
            return Err(TissueSplitError::Nccl);
        }
        // Every part placed on a GPU counted before anything is allocated.
        for device in devices {
            let ordinal = device.info().ordinal;
            let bytes: u64 = devices
                .iter()
                .zip(&split.slabs)
                .filter(|(d, _)| d.info().ordinal == ordinal)
                .map(|(_, slab)| part_device_bytes(slab, M::INFO.variables.len(), T::BYTES))
                .sum();
            device.check_fits(bytes)?;
        }
        if exchange == Exchange::Peer {
            enable_peer_access(devices)?;
        }
        let parts = devices
            .iter()
            .zip(&split.slabs)
            .map(|(device, slab)| Self::part(device, ptx, op, slab, exchange, initial))
            .collect::<Result<Vec<_>, _>>()?;
        let coeffs = parts
            .iter()
            .map(|part| device_coeffs::<M, T>(domain, part.stream()))
            .collect::<Result<Vec<_>, _>>()?;
        let solver = Self {
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs,
            clock: EventClock::new(domain.dt_ms()),
            device_names: devices.iter().map(|d| d.info().name.clone()).collect(),
            split,
            parts,
            exchange,
            model: PhantomData,
        };
        for part in &solver.parts {
            // The uploads ran on the parts' streams: finish them, and give
            // every `done` a first record for the first step to wait for.
            part.ctx.synchronize().map_err(cuda("uploading the sub-domains"))?;
            part.done.record(part.stream()).map_err(cuda("recording an event"))?;
        }
        Ok(solver)
    }

    fn part(
        device: &GpuDevice,
        ptx: &str,
        op: &Operator,
        slab: &Slab,
        exchange: Exchange,
        initial: &State<T>,
    ) -> Result<Part<T>, SolverError> {
        let kernel = match &slab.neighbours {
            None => Kernel::TissueDense,
            Some(table) => compact_kernel(false, table.form()),
        };
        let ctx = device.context().clone();
        ctx.bind_to_thread().map_err(cuda("binding a context"))?;
        let stream = ctx.new_stream().map_err(cuda("creating a stream"))?;
        let sizes = (slab.stored(), M::Locals::<T>::COUNT * slab.stride());
        let tissue =
            DeviceTissue::new::<M>(device, ptx, stream.clone(), kernel, sizes, &slab.weights::<T>(op))?;
        let buffers = match &slab.neighbours {
            None => LayoutBuffers::Dense {
                mask: stream.clone_htod(&slab.mask).map_err(cuda("uploading the mask"))?,
            },
            Some(table) => LayoutBuffers::Compact { neighbours: DeviceNeighbours::upload(&stream, table)? },
        };
        let event = || ctx.new_event(None).map_err(cuda("creating an event"));
        let most = slab.send.iter().map(|r| r.len()).max().unwrap_or(0).max(1) * T::BYTES;
        let pinned = || -> Result<Option<PinnedHostSlice<u8>>, SolverError> {
            if exchange != Exchange::Host {
                return Ok(None);
            }
            // SAFETY: the buffer is written by a copy before it is read.
            unsafe { ctx.alloc_pinned_with_flags::<u8>(most, cudarc::driver::sys::CU_MEMHOSTALLOC_PORTABLE) }
                .map(Some)
                .map_err(cuda("allocating pinned host memory"))
        };
        let mut part = Part {
            tissue,
            buffers,
            index: stream.clone_htod(&slab.index).map_err(cuda("uploading the cell index"))?,
            done: event()?,
            staged: event()?,
            pinned: [pinned()?, pinned()?],
            ctx,
        };
        part.upload(slab, initial)?;
        Ok(part)
    }

    pub fn split(&self) -> &TissueSplit {
        &self.split
    }

    /// Part `i`'s stream waits for its neighbours' latest step.
    fn order(&self, i: usize) -> Result<(), SolverError> {
        for side in 0..2 {
            if let Some((j, _)) = self.split.halo_source(i, side) {
                self.parts[i].stream().wait(&self.parts[j].done).map_err(cuda("ordering steps"))?;
            }
        }
        Ok(())
    }

    /// Launches the stimuli due at the current step on every part (halos
    /// included) unless they are in U.
    fn stimulate(&mut self) -> Result<(), SolverError> {
        if !self.clock.take_stimuli() {
            return Ok(());
        }
        let global = self.split.slabs[0].global;
        if !self.clock.events.stimuli.any_active_at(self.clock.step) {
            return Ok(());
        }
        for i in 0..self.parts.len() {
            self.order(i)?;
            let part = &mut self.parts[i];
            let index = part.tissue.address(&part.index);
            // SAFETY: the stimuli's runs leave out the halo slices beyond
            // the grid; `index` holds the box index of every stored cell
            // of the whole grid.
            unsafe { part.tissue.stimulate(&self.clock, (global, index))? };
        }
        Ok(())
    }

    /// Enqueues one step on every part and the exchange that follows it.
    fn step_once(&mut self) -> Result<(), SolverError> {
        self.stimulate()?;
        let t_ms = self.clock.t_ms();
        for i in 0..self.parts.len() {
            self.order(i)?;
            let slab = &self.split.slabs[i];
            let part = &mut self.parts[i];
            let weights = part.tissue.address(&part.tissue.weights);
            let index = part.tissue.address(&part.index);
            let stream = part.tissue.stream.clone();
            let launch = part.tissue.step_launch(self.step, self.coeffs[i].coeffs, t_ms);
            match &part.buffers {
                LayoutBuffers::Dense { mask } => {
                    let dims = slab.local;
                    let (mask, rows) = (mask.device_ptr(&stream).0, dims.cells() as u32);
                    let lay = DenseTissue { dims, weights, mask, class: 0, rows, offsets: 0 };
                    // SAFETY: <model>_tissue_dense_<t> takes (u, u_next,
                    // local, lay, step, coeffs, window, rec); the buffers
                    // hold the part's box (owned slices between two halo
                    // slices), the locals COUNT times as many, the weights
                    // 18 per cell (zero outside the owned tissue cells and
                    // towards unconnected neighbours, so every neighbour
                    // read lies in the owned or halo slices); the window is
                    // the owned slices; the recorder is off or over the
                    // part's cells.
                    unsafe { launch.dense(lay, ZWindow::new(1, dims.nz - 1))? };
                }
                LayoutBuffers::Compact { neighbours } => {
                    let (dims, cells) = (slab.global, slab.stepped.end);
                    let fields = CompactFields { dims, cells, weights, index, class: 0, rows: cells };
                    let lay = neighbours.lay(fields, &stream);
                    // SAFETY: the step kernel is <model>_tissue_compact[_n16]
                    // _<t>, loaded for this table's form (`compact_kernel`),
                    // and `lay` is typed by the same table; U, U_next hold
                    // the part's owned tissue cells and its halo cells after
                    // them, the locals, the weights and the neighbour table
                    // `cells` (the owned ones) per entry, the table's entries
                    // name stored cells (indices, or offsets built so that
                    // c + offset is one); one thread per owned cell (every
                    // part owns one at least: `ZSplit::from_cell_counts`);
                    // the recorder is off or over the stored cells' maps.
                    unsafe { launch.compact(lay)? };
                }
            }
        }
        self.exchange_halos()?;
        for part in &mut self.parts {
            part.tissue.swap();
        }
        self.clock.step += 1;
        Ok(())
    }

    /// The boundary cells of every part's U_next into its neighbours' halo
    /// cells of U_next (the module doc has the ordering).
    fn exchange_halos(&mut self) -> Result<(), SolverError> {
        let n = self.parts.len();
        // (destination, side, source, the source's cells)
        let routes: Vec<(usize, usize, usize, Range<u32>)> = (0..n)
            .flat_map(|j| (0..2).map(move |side| (j, side)))
            .filter_map(|(j, side)| self.split.halo_source(j, side).map(|(i, send)| (j, side, i, send)))
            .filter(|r| !r.3.is_empty())
            .collect();
        match self.exchange {
            // (NCCL is refused when the solver is built.)
            Exchange::Peer | Exchange::Nccl => {
                for (j, side, i, send) in &routes {
                    let (src, dst) = (&self.parts[*i], &self.parts[*j]);
                    let recv = &self.split.slabs[*j].recv[*side];
                    copy_slice_peer(
                        (&src.ctx, src.tissue.address(&src.tissue.u_next), Part::<T>::geometry(send)),
                        (&dst.ctx, dst.tissue.address(&dst.tissue.u_next), Part::<T>::geometry(recv)),
                        src.stream(),
                    )?;
                }
            }
            Exchange::Host => {
                for (_, side, i, send) in &routes {
                    // Part i sends down (0) what part i - 1 receives from above (1).
                    let src = &self.parts[*i];
                    let host = src.pinned[1 - side].as_ref().expect("pinned buffers");
                    copy_slice_to_host(
                        src.tissue.address(&src.tissue.u_next),
                        Part::<T>::geometry(send),
                        (host, 0),
                        src.stream(),
                    )?;
                }
                for part in &self.parts {
                    part.staged.record(part.stream()).map_err(cuda("recording an event"))?;
                }
                for (j, side, i, _) in &routes {
                    let (src, dst) = (&self.parts[*i], &self.parts[*j]);
                    dst.stream().wait(&src.staged).map_err(cuda("ordering halo copies"))?;
                    let host = src.pinned[1 - side].as_ref().expect("pinned buffers");
                    let recv = &self.split.slabs[*j].recv[*side];
                    let at = Part::<T>::geometry(recv);
                    copy_slice_from_host(
                        (host, 0),
                        dst.tissue.address(&dst.tissue.u_next),
                        at,
                        dst.stream(),
                    )?;
                }
            }
        }
        for part in &self.parts {
            part.done.record(part.stream()).map_err(cuda("recording an event"))?;
        }
        Ok(())
    }

    fn synchronize_all(&self) -> Result<(), SolverError> {
        for part in &self.parts {
            part.stream().synchronize().map_err(cuda("running the split tissue step"))?;
        }
        Ok(())
    }

    /// Every part's U and locals, downloaded.
    fn download(&mut self) -> Result<Vec<Downloaded<T>>, SolverError> {
        self.stimulate()?;
        self.synchronize_all()?;
        self.parts.iter().map(|p| Ok((p.tissue.download_u()?, p.tissue.download_locals()?))).collect()
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TissueGpuMultiSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(gpus_name(&self.device_names))
    }

    fn method(&self) -> String {
        let storage = storage_name(self.split.slabs[0].layout, None, self.split.neighbour_form());
        format!("tissue-{storage} z-split {} exchange {}", self.parts.len(), self.exchange.name())
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.step_once()?;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.synchronize_all()
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let parts = self.download()?;
        let refs: Vec<(&[T], &[T])> = parts.iter().map(|(u, l)| (&u[..], &l[..])).collect();
        Ok(self.split.gather(M::INFO, &refs))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        check_state::<M, T>(state, self.split.slabs[0].global);
        self.synchronize_all()?;
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            part.upload(slab, state)?;
        }
        self.synchronize_all()
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        self.synchronize_all()?;
        let (global, dt_ms) = (self.split.slabs[0].global, self.clock.dt_ms);
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts) {
            let maps = maps.map(|m| slab.scatter_maps(m));
            part.tissue.set_events((events, dt_ms), global, |s| slab.stimulus_ranges(s), maps)?;
        }
        self.clock.restart(events, start);
        self.synchronize_all()
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        self.synchronize_all()?;
        let mut parts = Vec::with_capacity(self.parts.len());
        for part in &self.parts {
            let Some(maps) = part.tissue.maps()? else { return Ok(None) };
            parts.push(maps);
        }
        Ok(Some(self.split.gather_maps(&parts)))
    }

    /// As the single-domain tissue solvers': from the downloaded state,
    /// the cells outside the tissue at the model's rest.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let parts = self.download()?;
        let field = self.split.u_to_box(parts.iter().map(|(u, _)| &u[..]), rest_u::<M, T>());
        Ok(pseudo_ecg_at(&field, self.split.slabs[0].global, probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.synchronize_all()?;
        // Every part's check is enqueued before any is waited for.
        let checks: Vec<NonfiniteCheck> =
            self.parts.iter_mut().map(|p| p.tissue.begin_nonfinite_check(false)).collect::<Result<_, _>>()?;
        let mut any = false;
        for (part, check) in self.parts.iter_mut().zip(checks) {
            any |= part.tissue.end_nonfinite_check(check)?;
        }
        Ok(any)
    }
}

impl<M: CellModel, T: Scalar> Drop for TissueGpuMultiSolver<M, T> {
    /// Parts copy into each other's buffers: every GPU must be idle before
    /// any part is freed.
    fn drop(&mut self) {
        idle_all(self.parts.iter().map(|p| &p.ctx));
    }
}
