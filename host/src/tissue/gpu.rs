//! A tissue resident on one GPU: the tissue kernels of `kernels_gpu`
//! (`kernels::tissue`), dense with a mask or compact, each with the
//! weights per cell or by class (`super::rows`), the compact one with its
//! neighbours as u32 indices or 16-bit offsets (`super::neighbours`), with
//! stimuli and maps on the device as for the box.

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use kernels_gpu::events::{Recorder, StimulusArgs};
use kernels_gpu::registry::{self, Kernel};
use kernels_gpu::tissue::DenseTissue;
use kernels_gpu::{CellModel, DEFAULT_BLOCK, FLAT_BLOCK, GridDims, Locals, StepCoeffs, ZWindow};

use super::layout::TissueLayout;
use super::maps::Storage;
use super::neighbours::{CompactFields, CompactLay};
use super::neighbours::{NeighbourForm, NeighbourTable};
use super::rows::{WeightChoice, WeightRows};
use super::solving::{EventClock, box_mask_bits, check_inputs, check_state, rest_u};
use super::storage::{TableChoice, storage_name};
use super::weights::Operator;
use crate::backend::gpu::cuda::{ByValue, cuda, load_kernel};
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::maps::DeviceMaps;
use crate::backend::gpu::nonfinite::NonfiniteFlags;
use crate::domain::Domain;
use crate::events::ecg::pseudo_ecg_at;
use crate::events::recording::Maps;
use crate::events::stimulus::Stimulus;
use crate::events::{EventStart, Events};
use crate::scalar::Scalar;
use crate::solver::{BackendKind, NonfiniteCheck, Solver, SolverError};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// A stimulus ready to launch on one device: its arguments and the runs
/// of stored cells it may touch.
pub(super) struct DeviceStimulus<T> {
    args: StimulusArgs<T>,
    ranges: Vec<Range<u32>>,
    /// A mask region's bits, which `args` point at.
    _mask: Option<CudaSlice<u32>>,
}

impl<T: Scalar> DeviceStimulus<T> {
    /// `s` on `stream`'s device over the box `dims` (a mask region's bits
    /// uploaded), touching the stored cells `ranges`; `None` where those
    /// are none.
    pub(super) fn upload(
        stream: &Arc<CudaStream>,
        s: &Stimulus,
        dims: GridDims,
        dt_ms: f64,
        ranges: Vec<Range<u32>>,
    ) -> Result<Option<Self>, SolverError> {
        if ranges.is_empty() {
            return Ok(None);
        }
        let mut args = s.args::<T>(dims, dt_ms);
        let mask = match box_mask_bits(s, dims) {
            Some(bits) => {
                let device = stream.clone_htod(&bits).map_err(cuda("uploading a stimulus mask"))?;
                args.mask = device.device_ptr(stream).0;
                Some(device)
            }
            None => None,
        };
        Ok(Some(Self { args, ranges, _mask: mask }))
    }

    /// Launches the stimulus kernel `f` (stimulate_tissue_<t>) on each run
    /// of stored cells of `u`, a 1D grid-stride launch per run.
    ///
    /// # Safety
    /// `f` is the stimulus kernel of `T`; `u` holds the stored cells the
    /// runs lie in; `index` is 0 (the stored cells are the box's) or a
    /// device table of the box index of every stored cell of the grid
    /// `dims` (the box the stimulus was uploaded over); `rec` is off or
    /// over the stored cells' maps.
    pub(super) unsafe fn launch(
        &self,
        stream: &CudaStream,
        f: &CudaFunction,
        u: &mut CudaSlice<T>,
        (dims, index): (GridDims, u64),
        rec: Recorder<T>,
    ) -> Result<(), SolverError> {
        let (dims, args, rec) = (ByValue(dims), ByValue(self.args), ByValue(rec));
        for r in &self.ranges {
            let blocks = (r.len() as u64).div_ceil(FLAT_BLOCK as u64).min(4096) as u32;
            let cfg =
                LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
            let mut b = stream.launch_builder(f);
            b.arg(&mut *u).arg(&dims).arg(&index).arg(&r.start).arg(&r.end).arg(&args).arg(&rec);
            // SAFETY: stimulate_tissue_<t> takes (u, dims, index, first,
            // end, args, rec), met as the caller promises; a mask region's
            // bits cover the box and live in `self`, which outlives the
            // launch's use of them (the stream is synchronised before a
            // solver's stimuli are replaced or dropped).
            unsafe { b.launch(cfg) }.map_err(cuda("launching a stimulus"))?;
        }
        Ok(())
    }
}

/// A solver's maps on its device and the recorder the kernels stamp them
/// through (off without maps).
pub(super) struct MapsOnDevice<T> {
    maps: Option<DeviceMaps>,
    recorder: Recorder<T>,
}

impl<T: Scalar> MapsOnDevice<T> {
    pub(super) fn off() -> Self {
        Self { maps: None, recorder: Recorder::off() }
    }

    /// `maps` (over the solver's `stored` cells) on `stream`'s device, or
    /// none.
    pub(super) fn set(
        &mut self,
        stream: &Arc<CudaStream>,
        maps: Option<Maps>,
        stored: usize,
        dt_ms: f64,
    ) -> Result<(), SolverError> {
        *self = Self::off();
        if let Some(maps) = maps {
            let device = DeviceMaps::upload(stream, &maps)?;
            let addresses = device.addresses(stream);
            self.recorder = maps.recording.recorder::<T>(addresses, stored, dt_ms);
            self.maps = Some(device);
        }
        Ok(())
    }

    /// The recorder at `t_ms`.
    pub(super) fn recorder_at(&self, t_ms: f64) -> Recorder<T> {
        self.recorder.at(t_ms)
    }

    pub(super) fn is_some(&self) -> bool {
        self.maps.is_some()
    }

    /// The maps over the `stored` cells, downloaded; none without maps.
    pub(super) fn download(
        &self,
        stream: &Arc<CudaStream>,
        stored: usize,
    ) -> Result<Option<Maps>, SolverError> {
        self.maps.as_ref().map(|m| m.download(stream, GridDims::new(stored as u32, 1, 1))).transpose()
    }
}

/// Uploads a solver's stored U into both U buffers (the cells the step
/// skips keep their value in both) and its locals, if the model has any.
pub(super) fn upload_fields<T: Scalar>(
    stream: &Arc<CudaStream>,
    (u, local): (&[T], &[T]),
    (dev_u, dev_u_next, dev_local): (&mut CudaSlice<T>, &mut CudaSlice<T>, &mut CudaSlice<T>),
) -> Result<(), SolverError> {
    stream.memcpy_htod(u, dev_u).map_err(cuda("uploading U"))?;
    stream.memcpy_htod(u, dev_u_next).map_err(cuda("uploading U"))?;
    if !local.is_empty() {
        stream.memcpy_htod(local, dev_local).map_err(cuda("uploading the locals"))?;
    }
    Ok(())
}

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

/// The entry points a tissue solver launches for model `M` in precision
/// `T` with step kernel `kernel`: (step, stimulus, NaN check), the names
/// it loads its module with.
pub(super) fn tissue_entries<M: CellModel, T: Scalar>(
    kernel: Kernel,
) -> Result<[&'static str; 3], SolverError> {
    let name = |model: &str, kernel| {
        registry::entry_point(model, kernel, T::NAME)
            .map(|e| e.name)
            .ok_or_else(|| SolverError::MissingKernel { name: format!("{model} {kernel:?} {}", T::NAME) })
    };
    Ok([name(M::INFO.name, kernel)?, name("", Kernel::StimulateTissue)?, name("", Kernel::FlagNonfinite)?])
}

/// One step kernel's launch: what every tissue step kernel takes beside
/// its layout (and the dense one's window), in the kernels' order (u,
/// u_next, local, lay, step, coeffs[, window], rec).
pub(super) struct StepLaunch<'a, T: Scalar, C> {
    pub stream: &'a CudaStream,
    pub f: &'a CudaFunction,
    pub u: &'a CudaSlice<T>,
    pub u_next: &'a mut CudaSlice<T>,
    pub local: &'a mut CudaSlice<T>,
    pub step: StepCoeffs<T>,
    /// The model's coefficients.
    pub coeffs: C,
    pub rec: Recorder<T>,
}

impl<T: Scalar, C: Copy> StepLaunch<'_, T, C> {
    /// Launches a dense step kernel over the slices `window` of the box
    /// `lay.dims`: x and y by whole blocks, z a slice per block row.
    ///
    /// # Safety
    /// `f` is the dense kernel of model `C`, in precision `T`, with classes
    /// exactly when `lay.class` is set, and the arguments meet its
    /// contract (`kernels_gpu::kernels::tissue::step_dense`).
    pub(super) unsafe fn dense(self, lay: DenseTissue, window: ZWindow) -> Result<(), SolverError> {
        let (bx, by) = DEFAULT_BLOCK;
        let cfg = LaunchConfig {
            grid_dim: (lay.dims.nx.div_ceil(bx), lay.dims.ny.div_ceil(by), window.len()),
            block_dim: (bx, by, 1),
            shared_mem_bytes: 0,
        };
        let (lay, window) = (ByValue(lay), ByValue(window));
        let (step, coeffs, rec) = (ByValue(self.step), ByValue(self.coeffs), ByValue(self.rec));
        let mut b = self.stream.launch_builder(self.f);
        b.arg(self.u).arg(self.u_next).arg(self.local);
        b.arg(&lay).arg(&step).arg(&coeffs).arg(&window).arg(&rec);
        // SAFETY: per the contract.
        unsafe { b.launch(cfg) }.map_err(cuda("launching the tissue step"))?;
        Ok(())
    }

    /// Launches a compact step kernel, a thread per cell of `lay`.
    ///
    /// # Safety
    /// `f` is the compact kernel of `lay`'s form ([`compact_kernel`]) of
    /// model `C`, in precision `T`, and the arguments meet its contract
    /// (`kernels_gpu::kernels::tissue::step_compact`).
    pub(super) unsafe fn compact(self, lay: CompactLay) -> Result<(), SolverError> {
        let cfg = LaunchConfig {
            grid_dim: (lay.cells().div_ceil(FLAT_BLOCK), 1, 1),
            block_dim: (FLAT_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let (step, coeffs, rec) = (ByValue(self.step), ByValue(self.coeffs), ByValue(self.rec));
        // The argument of either type, alive as long as the builder.
        let (indices, offsets);
        let mut b = self.stream.launch_builder(self.f);
        b.arg(self.u).arg(self.u_next).arg(self.local);
        match lay {
            CompactLay::Indices32(l) => {
                indices = ByValue(l);
                b.arg(&indices);
            }
            CompactLay::Offsets16(l) => {
                offsets = ByValue(l);
                b.arg(&offsets);
            }
        }
        b.arg(&step).arg(&coeffs).arg(&rec);
        // SAFETY: per the contract.
        unsafe { b.launch(cfg) }.map_err(cuda("launching the tissue step"))?;
        Ok(())
    }
}

/// The layout's buffers beside the weights.
enum LayoutBuffers {
    Dense { mask: CudaSlice<u8> },
    Compact { neighbours: DeviceNeighbours, index: CudaSlice<u32> },
}

pub struct TissueGpuSolver<M: CellModel, T: Scalar> {
    stream: Arc<CudaStream>,
    device_name: String,
    storage: Storage,
    step_fn: CudaFunction,
    stimulate_fn: CudaFunction,
    step: StepCoeffs<T>,
    coeffs: M::Coeffs<T>,
    /// The device copy of the rate table `coeffs` point at (`--rate-tables`).
    _rate_table: Option<CudaSlice<T>>,
    u: CudaSlice<T>,
    u_next: CudaSlice<T>,
    /// Local variable k of stored cell c at `k * stored + c`.
    local: CudaSlice<T>,
    /// The weight table: a row per stored cell, or a row per class.
    weights: CudaSlice<T>,
    /// The class of every stored cell and each class's neighbour offsets
    /// (weights by class), and the table's rows.
    class: Option<(CudaSlice<u16>, CudaSlice<i32>)>,
    rows: u32,
    buffers: LayoutBuffers,
    /// The NaN check's flags.
    nonfinite: NonfiniteFlags,
    clock: EventClock,
    stimuli: Vec<Option<DeviceStimulus<T>>>,
    maps: MapsOnDevice<T>,
    model: PhantomData<M>,
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
    let weights = match classes {
        None => directions * stored * bytes_per_value as u64,
        // The rows, padded, with their neighbour offsets (an i32 each), and
        // a class per stored cell.
        Some(rows) => {
            kernels_gpu::tissue::CLASS_ROW as u64 * rows as u64 * (bytes_per_value as u64 + 4) + 2 * stored
        }
    };
    let tables = match layout {
        TissueLayout::Dense => stored,
        TissueLayout::Compact => (directions * neighbours.entry_bytes() + 4) * tissue,
    };
    (variables as u64 + 1) * stored * bytes_per_value as u64 + weights + tables
}

impl<M: CellModel, T: Scalar> TissueGpuSolver<M, T> {
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
        device.check_fits(device_bytes(op, layout, classes, form, M::INFO.variables.len(), T::BYTES))?;
        let kernel = match &neighbours {
            None if classes.is_some() => Kernel::TissueDenseClasses,
            None => Kernel::TissueDense,
            Some(table) => compact_kernel(classes.is_some(), table.form()),
        };
        let ctx = device.context();
        let entries @ [step_name, stimulate_name, flag_name] = tissue_entries::<M, T>(kernel)?;
        let (module, _) = device.load_kernels(ptx, &entries)?;
        let stream = ctx.default_stream();
        let storage = Storage::new(op, layout);
        let stored = storage.stored();
        let alloc = |n: usize, during| stream.alloc_zeros::<T>(n.max(1)).map_err(cuda(during));
        let (table, class, table_rows) = rows.parts(stored);
        let weights = stream.clone_htod(table).map_err(cuda("uploading the weights"))?;
        let class = class
            .map(|by| -> Result<_, SolverError> {
                Ok((
                    stream.clone_htod(by.class).map_err(cuda("uploading the class of each cell"))?,
                    stream.clone_htod(by.offsets).map_err(cuda("uploading the classes' offsets"))?,
                ))
            })
            .transpose()?;
        let buffers = match &neighbours {
            None => LayoutBuffers::Dense {
                mask: stream.clone_htod(&storage.mask).map_err(cuda("uploading the mask"))?,
            },
            Some(table) => LayoutBuffers::Compact {
                neighbours: DeviceNeighbours::upload(&stream, table)?,
                index: stream.clone_htod(&storage.cells).map_err(cuda("uploading the cell list"))?,
            },
        };
        let device_coeffs = crate::backend::gpu::tables::device_coeffs::<M, T>(domain, &stream)?;
        let mut solver = Self {
            step_fn: load_kernel(&module, step_name)?,
            stimulate_fn: load_kernel(&module, stimulate_name)?,
            nonfinite: NonfiniteFlags::new(&stream, load_kernel(&module, flag_name)?)?,
            u: alloc(stored, "allocating U")?,
            u_next: alloc(stored, "allocating U_next")?,
            local: alloc(M::Locals::<T>::COUNT * stored, "allocating the locals")?,
            weights,
            class,
            rows: table_rows,
            buffers,
            step: StepCoeffs::new(domain.dt_ms(), domain.dt_ms()),
            coeffs: device_coeffs.coeffs,
            _rate_table: device_coeffs.table,
            clock: EventClock::new(domain.dt_ms()),
            stimuli: Vec::new(),
            maps: MapsOnDevice::off(),
            device_name: device.info().name.clone(),
            storage,
            stream,
            model: PhantomData,
        };
        solver.set_state(initial)?;
        Ok(solver)
    }

    fn address<V>(&self, s: &CudaSlice<V>) -> u64 {
        s.device_ptr(&self.stream).0
    }

    fn step_recorder(&self) -> Recorder<T> {
        self.maps.recorder_at(self.clock.t_ms())
    }

    /// Launches the stimuli due at the current step unless they are in U.
    fn stimulate(&mut self) -> Result<(), SolverError> {
        if !self.clock.take_stimuli() {
            return Ok(());
        }
        let index = match &self.buffers {
            LayoutBuffers::Dense { .. } => 0u64,
            LayoutBuffers::Compact { index, .. } => self.address(index),
        };
        let rec = self.step_recorder();
        for (k, launch) in self.stimuli.iter().enumerate() {
            let Some(launch) = launch else { continue };
            if !self.clock.events.stimuli.stimuli[k].active_at(self.clock.step) {
                continue;
            }
            // SAFETY: the stimulus kernel of T; U holds the stored cells,
            // the stimulus's run lies in them; `index` is 0 (dense: stored
            // cells are the box's) or the cell list of the compact layout;
            // the recorder is off or over the stored cells' maps.
            unsafe {
                launch.launch(
                    &self.stream,
                    &self.stimulate_fn,
                    &mut self.u,
                    (self.storage.dims, index),
                    rec,
                )?
            };
        }
        Ok(())
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        self.stimulate()?;
        let rec = self.step_recorder();
        let weights = self.address(&self.weights);
        let (class, offsets) =
            self.class.as_ref().map_or((0, 0), |(c, o)| (self.address(c), self.address(o)));
        let rows = self.rows;
        let dims = self.storage.dims;
        let launch = StepLaunch {
            stream: &self.stream,
            f: &self.step_fn,
            u: &self.u,
            u_next: &mut self.u_next,
            local: &mut self.local,
            step: self.step,
            coeffs: self.coeffs,
            rec,
        };
        match &self.buffers {
            LayoutBuffers::Dense { mask } => {
                let mask = mask.device_ptr(&self.stream).0;
                let lay = DenseTissue { dims, weights, mask, class, rows, offsets };
                // SAFETY: <model>_tissue_dense[_classes]_<t> takes (u,
                // u_next, local, lay, step, coeffs, window, rec); U, U_next
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
                unsafe { launch.dense(lay, ZWindow::all(dims.nz))? };
            }
            LayoutBuffers::Compact { neighbours, index } => {
                let cells = self.storage.cells.len() as u32;
                let index = index.device_ptr(&self.stream).0;
                let lay =
                    neighbours.lay(CompactFields { dims, cells, weights, index, class, rows }, &self.stream);
                // SAFETY: the step kernel is <model>_tissue_compact[_classes]
                // [_n16]_<t>, loaded for this table's form and the weights'
                // storage (`compact_kernel`), and `lay` is typed by the same
                // table; U, U_next hold the tissue cells, the locals COUNT
                // times as many, the weights 18 per cell (or 20 per class,
                // as for the dense kernel), the neighbour table 18 entries per
                // cell that name tissue cells (indices, or offsets built so
                // that c + offset is one), the index table one per cell;
                // the launch has one thread per tissue cell; the recorder is
                // off or over the tissue cells' maps.
                unsafe { launch.compact(lay)? };
            }
        }
        std::mem::swap(&mut self.u, &mut self.u_next);
        self.clock.step += 1;
        Ok(())
    }

    /// The stored variables, downloaded.
    fn download(&mut self) -> Result<Vec<Vec<T>>, SolverError> {
        self.stimulate()?;
        let stored = self.storage.stored();
        let mut vars = vec![self.stream.clone_dtoh(&self.u).map_err(cuda("downloading U"))?];
        let count = M::Locals::<T>::COUNT;
        if count > 0 {
            let local = self.stream.clone_dtoh(&self.local).map_err(cuda("downloading the locals"))?;
            vars.extend(local.chunks_exact(stored).take(count).map(<[T]>::to_vec));
        }
        Ok(vars)
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for TissueGpuSolver<M, T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }

    fn device_name(&self) -> String {
        self.device_name.clone()
    }

    fn method(&self) -> String {
        let classes = self.class.as_ref().map(|_| self.rows);
        let neighbours = match &self.buffers {
            LayoutBuffers::Dense { .. } => None,
            LayoutBuffers::Compact { neighbours, .. } => Some(neighbours.form()),
        };
        format!("tissue-{}", storage_name(self.storage.layout, classes, neighbours))
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.launch_step()?;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.stream.synchronize().map_err(cuda("running the tissue step"))
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let vars = self.download()?;
        let refs: Vec<&[T]> = vars.iter().map(Vec::as_slice).collect();
        Ok(self.storage.state(M::INFO, &refs))
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        check_state::<M, T>(state, self.storage.dims);
        let vars = self.storage.vars(state);
        let local: Vec<T> = vars[1..].concat();
        upload_fields(&self.stream, (&vars[0], &local), (&mut self.u, &mut self.u_next, &mut self.local))
    }

    fn set_events(
        &mut self,
        events: &Events,
        start: EventStart,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        let (dims, dt_ms) = (self.storage.dims, self.clock.dt_ms);
        self.stimuli = events
            .stimuli
            .stimuli
            .iter()
            .map(|s| {
                let ranges =
                    self.storage.stimulus_range(s).map(|(first, end)| std::iter::once(first..end).collect());
                DeviceStimulus::upload(&self.stream, s, dims, dt_ms, ranges.unwrap_or_default())
            })
            .collect::<Result<_, _>>()?;
        self.clock.restart(events, start);
        let stored = self.storage.stored();
        self.maps.set(&self.stream, maps.map(|m| self.storage.maps_from_box(m)), stored, dt_ms)
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        let stored = self.maps.download(&self.stream, self.storage.stored())?;
        Ok(stored.map(|m| self.storage.maps_to_box(&m)))
    }

    /// As the CPU tissue solver's: from the downloaded state, the cells
    /// outside the tissue at the model's rest.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let u = self.download()?.swap_remove(0);
        let field = self.storage.to_box_or(&u, rest_u::<M, T>());
        Ok(pseudo_ecg_at(&field, self.storage.dims, probes))
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.nonfinite.check_now(&self.u)
    }

    fn begin_nonfinite_check(&mut self) -> Result<NonfiniteCheck, SolverError> {
        self.nonfinite.begin_check(&self.u, self.maps.is_some())
    }

    fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        self.nonfinite.answer(check)
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
