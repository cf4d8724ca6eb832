//! The split tissue run ([`super::split`]) on several GPUs driven by one
//! process (or several parts on one GPU): each part steps its own cells
//! with the single-domain tissue kernels, then its boundary slices of
//! variable 0 go into the neighbours' halos, by a direct copy (`peer`) or
//! through pinned host memory (`host`, the paper's scheme).
//!
//! The parts, their streams and the halo copies (runs of stored cells,
//! [`TissueSplit::halo_runs`]) are [`super::split_parts`]'s, which has
//! how events order them. Unlike the box's split, the step is not cut
//! into boundary and interior kernels to hide the copies:
//! a tissue's boundary slices are irregular, and the halo of one slice is
//! small next to a part's cells.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, DevicePtr};
use kernels_gpu::registry::Kernel;
use kernels_gpu::tissue::{DIRECTIONS, DenseTissue};
use kernels_gpu::{CellModel, Locals, StepCoeffs, ZWindow};
use thiserror::Error;

use super::gpu::{DeviceNeighbours, compact_kernel};
use super::neighbours::CompactFields;
use super::solving::{check_inputs, check_state, rest_u};
use super::split::{Slab, TissueSplit};
use super::split_parts::{DevicePart, Downloaded, SplitParts, check_parts_fit};
use super::storage::storage_name;
use super::weights::Operator;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::cell_params::device::{DeviceCellCoeffs, step_kernel};
use crate::domain::Domain;
use crate::events::EventClock;
use crate::events::ecg::pseudo_ecg_in;
use crate::events::recording::Maps;
use crate::layout::zsplit::SplitError;
use crate::multi::error::MultiError;
use crate::multi::gpu::{Exchange, enable_peer_access, gpus_name};
use crate::scalar::Scalar;
use crate::solver::{EventsAt, RunsOn, Solver, SolverError};
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

/// The layout's buffers beside the weights.
enum LayoutBuffers {
    Dense { mask: CudaSlice<u8> },
    Compact { neighbours: DeviceNeighbours },
}

/// A tissue split over GPUs (part i on `devices[i]`; a GPU may appear
/// several times). Only variable 0 crosses between parts.
pub struct TissueGpuMultiSolver<M: CellModel, T: Scalar> {
    /// First, so that its drop idles every GPU before the buffers go.
    parts: SplitParts<T>,
    /// The layout's buffers of each part.
    buffers: Vec<LayoutBuffers>,
    split: TissueSplit,
    exchange: Exchange,
    step: StepCoeffs<T>,
    /// The model's coefficients of each part (and the parameter set of
    /// each stored cell where they vary), each pointing at its own GPU's
    /// copy of the rate tables (`--rate-tables`), kept beside them.
    coeffs: Vec<DeviceCellCoeffs<M, T>>,
    /// The tissue's cells over the box, which the pseudo-ECG follows
    /// (made once: it is read at every sample).
    tissue_mask: Vec<u8>,
    clock: EventClock,
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
        let bytes: Vec<u64> = split
            .slabs
            .iter()
            .map(|slab| part_device_bytes(slab, M::INFO.variables.len(), T::BYTES))
            .collect();
        check_parts_fit(devices, &bytes)?;
        if exchange == Exchange::Peer {
            enable_peer_access(devices)?;
        }
        let mut parts = Vec::with_capacity(devices.len());
        let mut buffers = Vec::with_capacity(devices.len());
        for (device, slab) in devices.iter().zip(&split.slabs) {
            let kernel = match &slab.neighbours {
                None => Kernel::TissueDense,
                Some(table) => compact_kernel(false, table.form()),
            };
            let kernel = step_kernel(domain, kernel);
            let sizes = (slab.stored(), M::Locals::<T>::COUNT * slab.stride());
            let mut part =
                DevicePart::new::<M>(device, ptx, kernel, sizes, &slab.weights::<T>(op), &slab.index)?;
            let stream = part.stream().clone();
            buffers.push(match &slab.neighbours {
                None => LayoutBuffers::Dense {
                    mask: stream.clone_htod(&slab.mask).map_err(cuda("uploading the mask"))?,
                },
                Some(table) => {
                    LayoutBuffers::Compact { neighbours: DeviceNeighbours::upload(&stream, table)? }
                }
            });
            let (u, local) = slab.scatter(initial);
            part.tissue.upload(&u, &local)?;
            parts.push(part);
        }
        let coeffs = parts
            .iter()
            .zip(&split.slabs)
            .map(|(part, slab)| DeviceCellCoeffs::upload(&slab.coeffs::<M, T>(domain), part.stream()))
            .collect::<Result<Vec<_>, _>>()?;
        let parts = SplitParts::new(parts, split.halo_runs(), exchange)?;
        Ok(Self {
            parts,
            buffers,
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs,
            tissue_mask: split.tissue_mask(),
            clock: EventClock::new(domain.dt_ms()),
            split,
            exchange,
            model: PhantomData,
        })
    }

    pub fn split(&self) -> &TissueSplit {
        &self.split
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
        for i in 0..self.parts.parts.len() {
            self.parts.order(i)?;
            let part = &mut self.parts.parts[i];
            let index = part.index_address();
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
        for i in 0..self.parts.parts.len() {
            self.parts.order(i)?;
            let slab = &self.split.slabs[i];
            let part = &mut self.parts.parts[i];
            let weights = part.tissue.address(&part.tissue.weights);
            let index = part.index_address();
            let stream = part.tissue.stream.clone();
            let coeffs = (self.coeffs[i].coeffs(), self.coeffs[i].sets());
            let launch = part.tissue.step_launch(self.step, coeffs, t_ms);
            match &self.buffers[i] {
                LayoutBuffers::Dense { mask } => {
                    let dims = slab.local;
                    let (mask, rows) = (mask.device_ptr(&stream).0, dims.cells() as u32);
                    let lay = DenseTissue { dims, weights, mask, class: 0, rows, offsets: 0 };
                    // SAFETY: <model>_tissue_dense[_sets]_<t> takes (u, u_next,
                    // local, lay, step, coeffs, window, rec[, sets]), `sets`
                    // (a set per stored cell) exactly with `_sets`
                    // (`step_kernel`); the buffers
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
                    // [_sets]_<t>, loaded for this table's form (`compact_kernel`)
                    // and the parameter sets (as for the dense kernel),
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
        self.parts.exchange_halos()?;
        self.parts.swap();
        self.clock.step += 1;
        Ok(())
    }

    /// Every part's U and locals, downloaded.
    fn download(&mut self) -> Result<Vec<Downloaded<T>>, SolverError> {
        self.stimulate()?;
        self.parts.download()
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TissueGpuMultiSolver<M, T> {
    fn runs_on(&self) -> RunsOn {
        RunsOn::Gpu(gpus_name(&self.parts.device_names()))
    }

    fn method(&self) -> String {
        let storage = storage_name(self.split.slabs[0].layout, None, self.split.neighbour_form());
        format!("tissue-{storage} z-split {} exchange {}", self.parts.parts.len(), self.exchange.name())
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
        check_state::<M, T>(state, self.split.slabs[0].global);
        self.parts.synchronize()?;
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts.parts) {
            let (u, local) = slab.scatter(state);
            part.tissue.upload(&u, &local)?;
        }
        self.parts.synchronize()
    }

    fn install_events(&mut self, EventsAt { events, start, maps }: EventsAt<'_>) -> Result<(), SolverError> {
        self.parts.synchronize()?;
        let (global, dt_ms) = (self.split.slabs[0].global, self.clock.dt_ms);
        for (slab, part) in self.split.slabs.iter().zip(&mut self.parts.parts) {
            let maps = maps.map(|m| slab.scatter_maps(m));
            part.tissue.set_events((events, dt_ms), global, |s| slab.stimulus_ranges(s), maps)?;
        }
        self.clock.restart(events, start);
        self.parts.synchronize()
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        Ok(self.parts.maps()?.map(|parts| self.split.gather_maps(&parts)))
    }

    /// As the single-domain tissue solvers': from the downloaded state,
    /// the cells outside the tissue at the model's rest.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let parts = self.download()?;
        let field = self.split.u_to_box(parts.iter().map(|(u, _)| &u[..]), rest_u::<M, T>());
        Ok(pseudo_ecg_in(&field, self.split.slabs[0].global, Some(&self.tissue_mask), probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.parts.any_nonfinite()
    }
}
