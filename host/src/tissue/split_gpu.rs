//! The split tissue run ([`super::split`]) on several GPUs driven by one
//! process (or several parts on one GPU): each part steps its own cells
//! with the single-domain tissue kernels, then its boundary slices of
//! variable 0 go into the neighbours' halos, by a direct copy (`peer`) or
//! through pinned host memory (`host`, the paper's scheme).
//!
//! The solver is the split solver the tetrahedral mesh's split uses too
//! ([`super::split_solver`]), with [`TissueParts`]: the dense or compact
//! kernel of each slab and its buffers, the slabs' scatter and gather.
//! The parts store their weights as a single domain's solver does for the
//! same choice ([`TissueSplit::weights`]): by class where the whole
//! tissue's rows repeat enough, every part with the whole tissue's table,
//! so that a split reads the bytes per cell a single GPU reads.
//! The parts, their streams and the halo copies (runs of stored cells,
//! [`MeshCut::halo_runs`](super::cut::MeshCut::halo_runs)) are `super::split_parts`'s, which has
//! how events order them. Unlike the box's split, the step is not cut
//! into boundary and interior kernels to hide the copies:
//! a tissue's boundary slices are irregular, and the halo of one slice is
//! small next to a part's cells.

use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, DevicePtr};
use kernels_gpu::ecg::EcgProbe;
use kernels_gpu::tissue::DenseTissue;
use kernels_gpu::{CellModel, Locals, ZWindow};
use thiserror::Error;

use super::gpu::{DeviceClasses, DeviceNeighbours, tissue_kernel, weight_bytes};
use super::gpu_fields::StepLaunch;
use super::neighbours::{CompactFields, NeighbourTable};
use super::rows::Classes;
use super::solving::{check_inputs, rest_u};
use super::split::{Slab, TissueSplit};
use super::split_parts::DevicePart;
use super::split_solver::{GpuSplitSolver, PartUpload, SplitMesh};
use super::storage::storage_name;
use super::weights::Operator;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::cell_params::device::step_kernel;
use crate::domain::Domain;
use crate::events::ecg::pseudo_ecg_in;
use crate::events::stimulus::Stimulus;
use crate::layout::zsplit::SplitError;
use crate::multi::error::MultiError;
use crate::multi::gpu::Exchange;
use crate::scalar::Scalar;
use crate::solver::SolverError;
use crate::state::State;

/// Why a split tissue solver could not be built.
#[derive(Debug, Error)]
pub enum TissueSplitError {
    #[error(transparent)]
    Multi(#[from] MultiError),
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
/// stride (a row per cell, or with `classes` rows the table and a class
/// per cell: [`weight_bytes`]), the box-index table, and the layout's
/// table (a mask byte per stored cell, or the neighbour table in its form:
/// 18 entries of 4 or 2 bytes per owned cell).
pub fn part_device_bytes(slab: &Slab, classes: Option<u32>, variables: usize, bytes_per_value: usize) -> u64 {
    let (stored, stride) = (slab.stored() as u64, slab.stride() as u64);
    let values = 2 * stored + (variables as u64 - 1) * stride;
    let tables = 4 * stored
        + match &slab.neighbours {
            None => stride,
            Some(table) => table.bytes(),
        };
    values * bytes_per_value as u64 + weight_bytes(classes, stride, bytes_per_value) + tables
}

/// The layout's buffers beside the weights.
enum LayoutBuffers {
    Dense { mask: CudaSlice<u8> },
    Compact { neighbours: DeviceNeighbours },
}

/// A tissue split over GPUs (part i on `devices[i]`; a GPU may appear
/// several times). Only variable 0 crosses between parts.
pub type TissueGpuMultiSolver<M, T> = GpuSplitSolver<M, T, TissueParts<T>>;

/// The tissue's side of a split over GPUs: the slabs, the operator they
/// are cut from, the classes of their weights, and each slab's layout
/// buffers on its GPU.
pub struct TissueParts<T> {
    split: TissueSplit,
    op: Arc<Operator>,
    /// The whole tissue's classes in the run's precision, from which every
    /// part takes its weights; `None` for per-cell rows.
    classes: Option<Classes<T>>,
    /// Each part's layout buffers and classes (weights by class), filled
    /// as the parts are uploaded.
    buffers: Vec<(LayoutBuffers, Option<DeviceClasses>)>,
    /// The tissue's cells over the box, which the pseudo-ECG follows
    /// (made once: it is read at every sample).
    tissue_mask: Vec<u8>,
}

impl<M: CellModel, T: Scalar> GpuSplitSolver<M, T, TissueParts<T>> {
    /// The parts of `split` (a split of `op`'s tissue by tissue cells,
    /// `TissueSplit::new`, its weights stored as [`TissueSplit::weights`]
    /// says; refused: classes asked for with more than 65,536 distinct
    /// rows) on `devices`; checks that the parts fit (those on one GPU
    /// together), uploads them.
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
        if exchange == Exchange::Nccl {
            return Err(MultiError::CopiesOnly { mesh: "tissue" }.into());
        }
        let classes = split.classes::<T>(op).map_err(SolverError::from)?;
        let tissue_mask = split.tissue_mask();
        let mesh = TissueParts { split, op: op.clone(), classes, buffers: Vec::new(), tissue_mask };
        Ok(Self::build(devices, ptx, domain, mesh, exchange, initial)?)
    }

    pub fn split(&self) -> &TissueSplit {
        &self.mesh().split
    }
}

impl<M: CellModel, T: Scalar> SplitMesh<M, T> for TissueParts<T> {
    type Cut = TissueSplit;

    fn cut(&self) -> &TissueSplit {
        &self.split
    }

    fn part_bytes(&self, i: usize) -> u64 {
        let classes = self.classes.as_ref().map(|c| c.rows);
        part_device_bytes(&self.split.slabs[i], classes, M::INFO.variables.len(), T::BYTES)
    }

    fn upload_part(&mut self, i: usize, to: PartUpload<'_>) -> Result<DevicePart<T>, SolverError> {
        let slab = &self.split.slabs[i];
        let weights = slab.weight_rows(&self.op, self.classes.as_ref());
        let form = slab.neighbours.as_ref().map(NeighbourTable::form);
        let kernel = step_kernel(to.domain, tissue_kernel(weights.classes().is_some(), form));
        let sizes = (slab.stored(), M::Locals::<T>::COUNT * slab.stride());
        let table = weights.parts(slab.stride()).0;
        let part = DevicePart::new::<M>(to.device, to.ptx, kernel, sizes, table, &slab.index)?;
        let stream = part.stream();
        let layout = match &slab.neighbours {
            None => LayoutBuffers::Dense {
                mask: stream.clone_htod(&slab.mask).map_err(cuda("uploading the mask"))?,
            },
            Some(table) => LayoutBuffers::Compact { neighbours: DeviceNeighbours::upload(stream, table)? },
        };
        self.buffers.push((layout, DeviceClasses::upload(stream, &weights)?));
        Ok(part)
    }

    /// The slab's runs of stored cells in the stimulus's box (the halo
    /// slices beyond the grid left out).
    fn stimulus_ranges(&self, i: usize, s: &Stimulus) -> Vec<Range<u32>> {
        self.split.slabs[i].stimulus_ranges(s)
    }

    fn launch_step<C: Copy>(
        &self,
        i: usize,
        index: u64,
        launch: StepLaunch<'_, T, C>,
    ) -> Result<(), SolverError> {
        let weights = launch.weights;
        let slab = &self.split.slabs[i];
        let (layout, classes) = &self.buffers[i];
        let stride = slab.stride() as u32;
        let (class, offsets, rows) = DeviceClasses::fields(classes.as_ref(), launch.stream, stride);
        match layout {
            LayoutBuffers::Dense { mask } => {
                let dims = slab.local;
                let mask = mask.device_ptr(launch.stream).0;
                let lay = DenseTissue { dims, weights, mask, class, rows, offsets };
                // SAFETY: <model>_tissue_dense[_classes][_sets]_<t> takes (u,
                // u_next, local, lay, step, coeffs, window, rec[, sets]),
                // `sets` (a set per stored cell) exactly with `_sets`
                // (`step_kernel`), the classes kernel exactly when `class`
                // is set (`tissue_kernel`); the buffers hold the part's box
                // (owned slices between two halo slices), the locals COUNT
                // times as many, the weights 18 per cell (or a class below
                // `rows` per cell of the 20-value rows of a device
                // allocation, 16-byte aligned, with each row's 20 offsets,
                // also aligned, on the whole box, whose x and y sizes are
                // the part's), zero outside the owned tissue cells and
                // towards unconnected neighbours (offsets naming the cell
                // itself there), so every neighbour read lies in the owned
                // or halo slices; the window is the owned slices; the
                // recorder is off or over the part's cells.
                unsafe { launch.dense(lay, ZWindow::new(1, dims.nz - 1)) }
            }
            LayoutBuffers::Compact { neighbours } => {
                let (dims, cells) = (slab.global, slab.stepped.end);
                let fields = CompactFields { dims, cells, weights, index, class, rows };
                let lay = neighbours.lay(fields, launch.stream);
                // SAFETY: the step kernel is <model>_tissue_compact[_classes]
                // [_n16][_sets]_<t>, loaded for this table's form and the
                // weights' storage (`tissue_kernel`) and the parameter sets
                // (as for the dense kernel), and `lay` is typed by the same
                // table; U, U_next hold the part's owned tissue cells and its
                // halo cells after them, the locals, the weights (or the
                // classes, each below `rows`, of an aligned table as for the
                // dense kernel) and the neighbour table `cells` (the owned
                // ones) per entry, the table's entries name stored cells
                // (indices, or offsets built so that c + offset is one); one
                // thread per owned cell (every part owns one at least:
                // `ZSplit::from_cell_counts`); the recorder is off or over
                // the stored cells' maps.
                unsafe { launch.compact(lay) }
            }
        }
    }

    /// As the single-domain tissue solvers': the cells outside the tissue
    /// at the model's rest.
    fn ecg(&mut self, probes: &[EcgProbe], parts_u: &[Vec<T>]) -> Vec<f64> {
        let field = self.split.u_to_box(parts_u.iter().map(|u| &u[..]), rest_u::<M, T>());
        pseudo_ecg_in(&field, self.split.slabs[0].global, Some(&self.tissue_mask), probes)
    }

    fn method(&self) -> String {
        let classes = self.classes.as_ref().map(|c| c.rows);
        let storage = storage_name(self.split.slabs[0].layout, classes, self.split.neighbour_form());
        format!("tissue-{storage} z-split")
    }
}
