//! A tissue resident on one GPU: the tissue kernels of `kernels_gpu`
//! (`kernels::tissue`), dense with a mask or compact, each with the
//! weights per cell or by class (`super::rows`), the compact one with its
//! neighbours as u32 indices or 16-bit offsets (`super::neighbours`), with
//! stimuli and maps on the device as for the box. The solver is the one
//! every mesh on one GPU shares (`super::gpu_solver`), with graphs and
//! copies behind the steps; this file adds the layout's tables and the
//! launches of the step kernels ([`TissueOnGpu`]).

use std::sync::Arc;

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use kernels_gpu::registry::Kernel;
use kernels_gpu::tissue::DenseTissue;
use kernels_gpu::{CellModel, Locals, ZWindow};

use super::gpu_fields::{DeviceTissue, StepLaunch};
use super::gpu_solver::{GpuMesh, GpuMeshSolver, state_copy_bytes};
use super::layout::TissueLayout;
use super::maps::Storage;
use super::neighbours::{CompactFields, CompactLay};
use super::neighbours::{NeighbourForm, NeighbourTable};
use super::rows::{WeightChoice, WeightRows};
use super::solving::check_inputs;
use super::storage::{TableChoice, storage_name};
use super::weights::Operator;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::cell_params::CellCoeffs;
use crate::cell_params::device::{DeviceCellCoeffs, step_kernel};
use crate::domain::Domain;
use crate::scalar::Scalar;
use crate::solver::SolverError;
use crate::state::State;

/// The compact layout's neighbour table on the device, in its form.
pub(super) enum DeviceNeighbours {
    Indices32(CudaSlice<u32>),
    Offsets16(CudaSlice<i16>),
}

impl DeviceNeighbours {
    pub(super) fn upload(stream: &Arc<CudaStream>, table: &NeighbourTable) -> Result<Self, SolverError> {
        let during = cuda("uploading the neighbour table");
        Ok(match table {
            NeighbourTable::Indices32(t) => Self::Indices32(stream.clone_htod(t).map_err(during)?),
            NeighbourTable::Offsets16(t) => Self::Offsets16(stream.clone_htod(t).map_err(during)?),
        })
    }

    pub(super) fn form(&self) -> NeighbourForm {
        match self {
            Self::Indices32(_) => NeighbourForm::Indices32,
            Self::Offsets16(_) => NeighbourForm::Offsets16,
        }
    }

    /// The compact layout over this table, typed by its form (the kernel
    /// argument of the entry point [`compact_kernel`] names for it).
    pub(super) fn lay(&self, fields: CompactFields, stream: &CudaStream) -> CompactLay {
        match self {
            Self::Indices32(t) => CompactLay::Indices32(fields.over(t.device_ptr(stream).0 as *const u32)),
            Self::Offsets16(t) => CompactLay::Offsets16(fields.over(t.device_ptr(stream).0 as *const i16)),
        }
    }
}

/// The compact step kernel for weights by class or not and the neighbour
/// table's form.
pub(super) fn compact_kernel(classes: bool, neighbours: NeighbourForm) -> Kernel {
    match (classes, neighbours) {
        (false, NeighbourForm::Indices32) => Kernel::TissueCompact,
        (true, NeighbourForm::Indices32) => Kernel::TissueCompactClasses,
        (false, NeighbourForm::Offsets16) => Kernel::TissueCompactN16,
        (true, NeighbourForm::Offsets16) => Kernel::TissueCompactClassesN16,
    }
}

/// The step kernel of a layout (dense where it has no neighbour table,
/// else compact with the table's form) for weights by class or not.
pub(super) fn tissue_kernel(classes: bool, neighbours: Option<NeighbourForm>) -> Kernel {
    match neighbours {
        None if classes => Kernel::TissueDenseClasses,
        None => Kernel::TissueDense,
        Some(form) => compact_kernel(classes, form),
    }
}

/// Weights by class on the device, beside the table of rows (the
/// weights' buffer): the class of every cell with a row and each row's
/// neighbour offsets, and the number of rows.
pub(super) struct DeviceClasses {
    class: CudaSlice<u16>,
    offsets: CudaSlice<i32>,
    rows: u32,
}

impl DeviceClasses {
    /// The classes of `weights` on `stream`'s device; none for per-cell rows.
    pub(super) fn upload<T: Scalar>(
        stream: &Arc<CudaStream>,
        weights: &WeightRows<T>,
    ) -> Result<Option<Self>, SolverError> {
        let WeightRows::Classes { rows, class, offsets, .. } = weights else { return Ok(None) };
        Ok(Some(Self {
            class: stream.clone_htod(class).map_err(cuda("uploading the class of each cell"))?,
            offsets: stream.clone_htod(offsets).map_err(cuda("uploading the classes' offsets"))?,
            rows: *rows,
        }))
    }

    /// What a layout takes beside the weights: the addresses of the
    /// classes and of their offsets, and the table's rows; `(0, 0,
    /// per_cell)` without classes (each of `per_cell` cells its own row).
    pub(super) fn fields(classes: Option<&Self>, stream: &CudaStream, per_cell: u32) -> (u64, u64, u32) {
        classes.map_or((0, 0, per_cell), |c| {
            (c.class.device_ptr(stream).0, c.offsets.device_ptr(stream).0, c.rows)
        })
    }
}

/// Device bytes of the weights of `cells` cells: 18 per cell, or, with
/// `classes` rows, each row padded to 20 values with 20 i32 neighbour
/// offsets, and a u16 class per cell.
pub fn weight_bytes(classes: Option<u32>, cells: u64, bytes_per_value: usize) -> u64 {
    match classes {
        None => kernels_gpu::tissue::DIRECTIONS as u64 * cells * bytes_per_value as u64,
        Some(rows) => {
            kernels_gpu::tissue::CLASS_ROW as u64 * rows as u64 * (bytes_per_value as u64 + 4) + 2 * cells
        }
    }
}

/// The layout's buffers beside the weights.
enum LayoutBuffers {
    Dense { mask: CudaSlice<u8> },
    Compact { neighbours: DeviceNeighbours, index: CudaSlice<u32> },
}

/// A tissue resident on one GPU.
pub type TissueGpuSolver<M, T> = GpuMeshSolver<M, T, TissueOnGpu>;

/// The tissue's tables on one GPU beside its stored cells (a [`Storage`];
/// local variable k of stored cell c at `k * stored + c`; the weight
/// table a row per stored cell, or a row per class).
pub struct TissueOnGpu {
    /// The class of every stored cell and each class's neighbour offsets
    /// (weights by class).
    class: Option<DeviceClasses>,
    buffers: LayoutBuffers,
}

/// Device bytes of a tissue run: U twice, the locals, the weights (18 per
/// stored cell, or 20 per class (padded) with 20 i32 offsets, and a u16 class per stored cell: `classes`
/// is the number of classes, `None` for per-cell rows) and the layout's
/// tables (a mask byte per cell, or the neighbour table, 18 entries of
/// 4 or 2 bytes per tissue cell as `neighbours` says, and the cell list,
/// a u32 per tissue cell; `neighbours` is not read for the dense layout).
pub fn device_bytes(
    op: &Operator,
    layout: TissueLayout,
    classes: Option<u32>,
    neighbours: NeighbourForm,
    variables: usize,
    bytes_per_value: usize,
) -> u64 {
    let directions = kernels_gpu::tissue::DIRECTIONS as u64;
    let (stored, tissue) = match layout {
        TissueLayout::Dense => (op.dims.cells() as u64, 0u64),
        TissueLayout::Compact => (op.tissue_cells() as u64, op.tissue_cells() as u64),
    };
    let weights = weight_bytes(classes, stored, bytes_per_value);
    let tables = match layout {
        TissueLayout::Dense => stored,
        TissueLayout::Compact => (directions * neighbours.entry_bytes() + 4) * tissue,
    };
    (variables as u64 + 1) * stored * bytes_per_value as u64 + weights + tables
}

impl<M: CellModel, T: Scalar> GpuMeshSolver<M, T, TissueOnGpu> {
    /// Loads the tissue kernels, uploads the weights (by class where that
    /// takes less memory: [`WeightChoice::Auto`]), the compact layout's
    /// neighbours (16-bit offsets where they fit:
    /// [`NeighbourChoice::Auto`](super::NeighbourChoice::Auto)) and
    /// `initial`.
    pub fn new(
        device: &GpuDevice,
        ptx: &str,
        domain: &Domain,
        op: &Arc<Operator>,
        layout: TissueLayout,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        Self::with_weights(device, ptx, domain, op, layout, WeightChoice::Auto, initial)
    }

    /// As [`TissueGpuSolver::new`], with the weights (a [`WeightChoice`]),
    /// or the weights and the compact layout's neighbour table (a
    /// [`TableChoice`]), stored as `choice` says.
    pub fn with_weights(
        device: &GpuDevice,
        ptx: &str,
        domain: &Domain,
        op: &Arc<Operator>,
        layout: TissueLayout,
        choice: impl Into<TableChoice>,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        check_inputs::<M, T>(domain, op, initial);
        let choice: TableChoice = choice.into();
        let rows = WeightRows::<T>::build(op, layout, choice.weights)?;
        let classes = rows.classes();
        // The compact layout's neighbours, in the form decided once here.
        let neighbours = match layout {
            TissueLayout::Dense => None,
            TissueLayout::Compact => {
                Some(NeighbourTable::build(op.neighbours.clone(), op.tissue_cells(), choice.neighbours))
            }
        };
        let form = neighbours.as_ref().map_or(NeighbourForm::Indices32, NeighbourTable::form);
        let storage = Storage::new(op, layout);
        let (stored, variables) = (storage.stored(), M::INFO.variables.len());
        let copy = state_copy_bytes(stored, variables, T::BYTES);
        device.check_fits(device_bytes(op, layout, classes, form, variables, T::BYTES) + copy)?;
        let kernel = tissue_kernel(classes.is_some(), neighbours.as_ref().map(NeighbourTable::form));
        let stream = device.context().default_stream();
        let coeffs = CellCoeffs::<M, T>::new(domain, stored, |c| Some(storage.box_index(c)));
        let coeffs = DeviceCellCoeffs::upload(&coeffs, &stream)?;
        let kernel = step_kernel(domain, kernel);
        let sizes = (stored, M::Locals::<T>::COUNT * stored);
        let tissue =
            DeviceTissue::new::<M>(device, ptx, stream.clone(), kernel, sizes, rows.parts(stored).0)?;
        let class = DeviceClasses::upload(&stream, &rows)?;
        let buffers = match &neighbours {
            None => LayoutBuffers::Dense {
                mask: stream.clone_htod(&storage.mask).map_err(cuda("uploading the mask"))?,
            },
            Some(table) => LayoutBuffers::Compact {
                neighbours: DeviceNeighbours::upload(&stream, table)?,
                index: stream.clone_htod(&storage.cells).map_err(cuda("uploading the cell list"))?,
            },
        };
        Self::build(tissue, (storage, TissueOnGpu { class, buffers }), coeffs, domain, initial)
    }
}

impl<T: Scalar> GpuMesh<T> for TissueOnGpu {
    type Cells = Storage;

    fn index_address(&self, home: &CudaStream) -> u64 {
        match &self.buffers {
            LayoutBuffers::Dense { .. } => 0,
            LayoutBuffers::Compact { index, .. } => index.device_ptr(home).0,
        }
    }

    fn launch_step<C: Copy>(
        &self,
        storage: &Storage,
        launch: StepLaunch<'_, T, C>,
    ) -> Result<(), SolverError> {
        let (weights, home) = (launch.weights, launch.home);
        let per_cell = storage.stored() as u32;
        let (class, offsets, rows) = DeviceClasses::fields(self.class.as_ref(), home, per_cell);
        let dims = storage.dims;
        match &self.buffers {
            LayoutBuffers::Dense { mask } => {
                let mask = mask.device_ptr(home).0;
                let lay = DenseTissue { dims, weights, mask, class, rows, offsets };
                // SAFETY: <model>_tissue_dense[_classes][_sets]_<t> takes (u,
                // u_next, local, lay, step, coeffs, window, rec[, sets]),
                // with `_sets` and `sets` exactly when the parameters vary
                // (`DeviceCellCoeffs::kernel`), a set per cell of the box,
                // each below the table's length; U, U_next
                // hold the box's cells, the locals COUNT times as many, the
                // weights 18 per cell (or 20 per class of `rows`, in a
                // device allocation, so 16-byte aligned, with a class
                // below `rows` per cell and each class's 20 neighbour
                // offsets, also 16-byte aligned, which name the cell itself
                // where the class's weight is 0: the classes kernel was
                // loaded exactly when `class` is set), zero outside the tissue and
                // towards unconnected neighbours, so every read neighbour
                // is in the box; the mask one byte per cell; the window is
                // every slice; the recorder is off or over the box's maps.
                unsafe { launch.dense(lay, ZWindow::all(dims.nz)) }
            }
            LayoutBuffers::Compact { neighbours, index } => {
                let cells = storage.cells.len() as u32;
                let index = index.device_ptr(home).0;
                let lay = neighbours.lay(CompactFields { dims, cells, weights, index, class, rows }, home);
                // SAFETY: the step kernel is <model>_tissue_compact[_classes]
                // [_n16][_sets]_<t>, loaded for this table's form, the weights'
                // storage (`compact_kernel`) and the parameter sets (passed
                // exactly when they vary, one per tissue cell, as for the
                // dense kernel), and `lay` is typed by the same
                // table; U, U_next hold the tissue cells, the locals COUNT
                // times as many, the weights 18 per cell (or 20 per class,
                // as for the dense kernel), the neighbour table 18 entries per
                // cell that name tissue cells (indices, or offsets built so
                // that c + offset is one), the index table one per cell;
                // the launch has one thread per tissue cell; the recorder is
                // off or over the tissue cells' maps.
                unsafe { launch.compact(lay) }
            }
        }
    }

    fn method(&self, storage: &Storage) -> String {
        let classes = self.class.as_ref().map(|c| c.rows);
        let neighbours = match &self.buffers {
            LayoutBuffers::Dense { .. } => None,
            LayoutBuffers::Compact { neighbours, .. } => Some(neighbours.form()),
        };
        format!("tissue-{}", storage_name(storage.layout, classes, neighbours))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tissue::{Conductivity, Fibres, Tissue};
    use kernels_gpu::GridDims;

    #[test]
    fn device_bytes_count_the_rows_or_the_classes_and_the_neighbour_form() {
        // A 5 x 4 x 3 box, all tissue: 60 cells; Karma (U and v), f32.
        let dims = GridDims::new(5, 4, 3);
        let c = Conductivity { fibre: 1.0, cross: 0.25, sheet: None };
        let op = Operator::build(&Tissue::box_of(dims, 0.5, Fibres::ALONG_X, c)).unwrap();
        let values = 3 * 60 * 4;
        let wide = NeighbourForm::Indices32;
        assert_eq!(device_bytes(&op, TissueLayout::Dense, None, wide, 2, 4), values + 18 * 60 * 4 + 60);
        assert_eq!(
            device_bytes(&op, TissueLayout::Dense, Some(27), wide, 2, 4),
            values + 20 * 27 * (4 + 4) + 2 * 60 + 60
        );
        assert_eq!(
            device_bytes(&op, TissueLayout::Compact, Some(27), wide, 2, 4),
            values + 20 * 27 * (4 + 4) + 2 * 60 + 19 * 4 * 60
        );
        // 16-bit offsets: 18 entries of 2 bytes and the cell list's u32.
        let narrow = NeighbourForm::Offsets16;
        assert_eq!(
            device_bytes(&op, TissueLayout::Compact, Some(27), narrow, 2, 4),
            values + 20 * 27 * (4 + 4) + 2 * 60 + (18 * 2 + 4) * 60
        );
        assert_eq!(
            device_bytes(&op, TissueLayout::Compact, None, narrow, 2, 4),
            values + 18 * 60 * 4 + (18 * 2 + 4) * 60
        );
    }
}
