//! A tissue resident on one GPU: the tissue kernels of `kernels_gpu`
//! (`kernels::tissue`), dense with a mask or compact, each with the
//! weights per cell or by class (`super::rows`), the compact one with its
//! neighbours as u32 indices or 16-bit offsets (`super::neighbours`), with
//! stimuli and maps on the device as for the box.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{
    CudaFunction, CudaSlice, CudaStream, DevicePtr, DeviceRepr, LaunchConfig, PushKernelArg,
};
use kernels_gpu::events::{Recorder, SlicePlacement, StimulusArgs};
use kernels_gpu::registry::{self, Kernel};
use kernels_gpu::tissue::DenseTissue;
use kernels_gpu::{CellModel, DEFAULT_BLOCK, FLAT_BLOCK, GridDims, Locals, StepCoeffs, ZWindow};

use super::layout::TissueLayout;
use super::maps::Storage;
use super::neighbours::{CompactFields, CompactLay};
use super::neighbours::{NeighbourForm, NeighbourTable};
use super::rows::{WeightChoice, WeightRows};
use super::storage::{TableChoice, storage_name};
use super::weights::Operator;
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::maps::DeviceMaps;
use crate::backend::gpu::nonfinite::NonfiniteFlags;
use crate::domain::Domain;
use crate::events::ecg::pseudo_ecg_at;
use crate::events::recording::Maps;
use crate::events::stimulus::Region;
use crate::events::{EventStart, Events};
use crate::scalar::Scalar;
use crate::solver::{BackendKind, NonfiniteCheck, Solver, SolverError};
use crate::state::State;
use kernels_gpu::ecg::EcgProbe;

/// A `#[repr(C)]` struct of `kernels-gpu` passed by value to a kernel.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub(super) struct ByValue<P>(pub(super) P);

// SAFETY: instantiated only with `DenseTissue`, `CompactTissue<N>`,
// `GridDims`, `ZWindow`, `StepCoeffs<T>`, `Recorder<T>`, `StimulusArgs<T>`
// and a model's `Coeffs<T>`: plain `#[repr(C)]` structs of numbers whose
// kernel-side declaration is the same Rust type.
unsafe impl<P: Copy> DeviceRepr for ByValue<P> {}

pub(super) fn load(
    module: &Arc<cudarc::driver::CudaModule>,
    name: &str,
) -> Result<CudaFunction, SolverError> {
    module.load_function(name).map_err(|_| SolverError::MissingKernel { name: name.into() })
}

/// A stimulus ready to launch: its arguments and its range of stored cells.
struct StimulusLaunch<T> {
    args: StimulusArgs<T>,
    first: u32,
    end: u32,
    _mask: Option<CudaSlice<u32>>,
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

/// Launches a compact step kernel with the arguments (u, u_next, local,
/// lay, step, coeffs, rec), `lay` of the kernel's neighbour form.
///
/// # Safety
/// `f` is the compact kernel of `lay`'s form ([`compact_kernel`]) and the
/// arguments meet its contract (`kernels_gpu::kernels::tissue::step_compact`).
#[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
pub(super) unsafe fn launch_compact<T: Scalar, S: DeviceRepr>(
    stream: &CudaStream,
    f: &CudaFunction,
    u: &CudaSlice<T>,
    u_next: &mut CudaSlice<T>,
    local: &mut CudaSlice<T>,
    lay: CompactLay,
    step: &ByValue<StepCoeffs<T>>,
    coeffs: &S,
    rec: &ByValue<Recorder<T>>,
) -> Result<(), SolverError> {
    let cfg = LaunchConfig {
        grid_dim: (lay.cells().div_ceil(FLAT_BLOCK), 1, 1),
        block_dim: (FLAT_BLOCK, 1, 1),
        shared_mem_bytes: 0,
    };
    // The argument of either type, alive as long as the builder.
    let (indices, offsets);
    let mut b = stream.launch_builder(f);
    b.arg(u).arg(u_next).arg(local);
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
    b.arg(step).arg(coeffs).arg(rec);
    // SAFETY: per the contract.
    unsafe { b.launch(cfg) }.map_err(cuda("launching the tissue step"))?;
    Ok(())
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
    dt_ms: f64,
    step_count: u64,
    stimulated: Option<u64>,
    events: Events,
    stimuli: Vec<Option<StimulusLaunch<T>>>,
    maps: Option<DeviceMaps>,
    recorder: Recorder<T>,
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

    /// As [`TissueGpuSolver::new`], with the weights stored as `choice` says.
    pub fn with_weights(
        device: &GpuDevice,
        ptx: &str,
        domain: &Domain,
        op: &Arc<Operator>,
        layout: TissueLayout,
        choice: WeightChoice,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        Self::with_tables(device, ptx, domain, op, layout, choice.into(), initial)
    }

    /// As [`TissueGpuSolver::with_weights`], with the compact layout's
    /// neighbour table also stored as `choice` says.
    pub fn with_tables(
        device: &GpuDevice,
        ptx: &str,
        domain: &Domain,
        op: &Arc<Operator>,
        layout: TissueLayout,
        choice: TableChoice,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        assert_eq!(initial.dims(), domain.dims(), "initial state matches the domain");
        assert_eq!(op.dims, domain.dims(), "the tissue's grid is the domain's");
        assert_eq!(initial.model().name, M::INFO.name, "initial state of this model");
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
            step_fn: load(&module, step_name)?,
            stimulate_fn: load(&module, stimulate_name)?,
            nonfinite: NonfiniteFlags::new(&stream, load(&module, flag_name)?)?,
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
            dt_ms: domain.dt_ms(),
            step_count: 0,
            stimulated: None,
            events: Events::default(),
            stimuli: Vec::new(),
            maps: None,
            recorder: Recorder::off(),
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
        self.recorder.at(self.step_count as f64 * self.dt_ms)
    }

    /// Launches the stimuli due at the current step unless they are in U.
    fn stimulate(&mut self) -> Result<(), SolverError> {
        let step = self.step_count;
        if self.stimulated == Some(step) {
            return Ok(());
        }
        self.stimulated = Some(step);
        let index = match &self.buffers {
            LayoutBuffers::Dense { .. } => 0u64,
            LayoutBuffers::Compact { index, .. } => self.address(index),
        };
        let rec = ByValue(self.step_recorder());
        let dims = ByValue(self.storage.dims);
        for (k, launch) in self.stimuli.iter().enumerate() {
            let Some(launch) = launch else { continue };
            if !self.events.stimuli.stimuli[k].active_at(step) {
                continue;
            }
            let n = (launch.end - launch.first) as u64;
            let blocks = n.div_ceil(FLAT_BLOCK as u64).min(4096) as u32;
            let cfg =
                LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
            let args = ByValue(launch.args);
            let mut b = self.stream.launch_builder(&self.stimulate_fn);
            b.arg(&mut self.u)
                .arg(&dims)
                .arg(&index)
                .arg(&launch.first)
                .arg(&launch.end)
                .arg(&args)
                .arg(&rec);
            // SAFETY: stimulate_tissue_<t> takes (u, dims, index, first, end,
            // args, rec); U holds the stored cells, first..end lies in them,
            // `index` is 0 (dense: stored cells are the box's) or the cell
            // list of the compact layout, a mask region's bits cover the box
            // (kept alive in the launch), the recorder is off or over the
            // stored cells' maps; a 1D grid-stride launch.
            unsafe { b.launch(cfg) }.map_err(cuda("launching a stimulus"))?;
        }
        Ok(())
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        self.stimulate()?;
        let (step, coeffs, rec) = (ByValue(self.step), ByValue(self.coeffs), ByValue(self.step_recorder()));
        let weights = self.address(&self.weights);
        let (class, offsets) =
            self.class.as_ref().map_or((0, 0), |(c, o)| (self.address(c), self.address(o)));
        let rows = self.rows;
        match &self.buffers {
            LayoutBuffers::Dense { mask } => {
                let dims = self.storage.dims;
                let lay =
                    ByValue(DenseTissue { dims, weights, mask: self.address(mask), class, rows, offsets });
                let (bx, by) = DEFAULT_BLOCK;
                let cfg = LaunchConfig {
                    grid_dim: (dims.nx.div_ceil(bx), dims.ny.div_ceil(by), dims.nz),
                    block_dim: (bx, by, 1),
                    shared_mem_bytes: 0,
                };
                let window = ByValue(ZWindow::all(dims.nz));
                let mut b = self.stream.launch_builder(&self.step_fn);
                b.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
                b.arg(&lay).arg(&step).arg(&coeffs).arg(&window).arg(&rec);
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
                // is in the box; the mask one byte per cell; the grid
                // covers x, y by whole blocks and z by slices; the recorder
                // is off or over the box's maps.
                unsafe { b.launch(cfg) }.map_err(cuda("launching the tissue step"))?;
            }
            LayoutBuffers::Compact { neighbours, index } => {
                let (dims, cells) = (self.storage.dims, self.storage.cells.len() as u32);
                let index = self.address(index);
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
                unsafe {
                    launch_compact(
                        &self.stream,
                        &self.step_fn,
                        &self.u,
                        &mut self.u_next,
                        &mut self.local,
                        lay,
                        &step,
                        &coeffs,
                        &rec,
                    )?
                };
            }
        }
        std::mem::swap(&mut self.u, &mut self.u_next);
        self.step_count += 1;
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
        assert_eq!(state.dims(), self.storage.dims, "state matches the solver's grid");
        assert_eq!(state.model().name, M::INFO.name, "state of the solver's model");
        let vars = self.storage.vars(state);
        self.stream.memcpy_htod(&vars[0], &mut self.u).map_err(cuda("uploading U"))?;
        // Cells the step skips keep their value in both buffers.
        self.stream.memcpy_htod(&vars[0], &mut self.u_next).map_err(cuda("uploading U"))?;
        if vars.len() > 1 {
            let local: Vec<T> = vars[1..].concat();
            self.stream.memcpy_htod(&local, &mut self.local).map_err(cuda("uploading the locals"))?;
        }
        Ok(())
    }

    fn set_events(
        &mut self,
        events: &Events,
        start: EventStart,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        let dims = self.storage.dims;
        let mut launches = Vec::with_capacity(events.stimuli.stimuli.len());
        for s in &events.stimuli.stimuli {
            let Some((first, end)) = self.storage.stimulus_range(s) else {
                launches.push(None);
                continue;
            };
            let mut args = s.args::<T>(dims, self.dt_ms);
            let mask = match &s.region {
                Region::Mask(mask) => {
                    let bits = mask.local_bits(dims, SlicePlacement::whole(dims.nz));
                    let device = self.stream.clone_htod(&bits).map_err(cuda("uploading a stimulus mask"))?;
                    args.mask = self.address(&device);
                    Some(device)
                }
                _ => None,
            };
            launches.push(Some(StimulusLaunch { args, first, end, _mask: mask }));
        }
        self.stimuli = launches;
        self.events = events.clone();
        self.step_count = start.step;
        self.stimulated = start.stimuli_applied.then_some(start.step);
        self.maps = None;
        self.recorder = Recorder::off();
        if let Some(maps) = maps {
            let maps = self.storage.maps_from_box(maps);
            let device = DeviceMaps::upload(&self.stream, &maps)?;
            let addresses = device.addresses(&self.stream);
            self.recorder = maps.recording.recorder::<T>(addresses, self.storage.stored(), self.dt_ms);
            self.maps = Some(device);
        }
        Ok(())
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.stimulate()?;
        let Some(device) = &self.maps else { return Ok(None) };
        let stored = device.download(&self.stream, GridDims::new(self.storage.stored() as u32, 1, 1))?;
        Ok(Some(self.storage.maps_to_box(&stored)))
    }

    /// As the CPU tissue solver's: from the downloaded state, the cells
    /// outside the tissue at the model's rest.
    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let u = self.download()?.swap_remove(0);
        let rest = T::from_f64(M::INFO.variables[0].rest);
        let mut field = vec![rest; self.storage.dims.cells()];
        for (c, &v) in u.iter().enumerate() {
            let i = self.storage.box_index(c);
            if self.storage.mask[i] != 0 {
                field[i] = v;
            }
        }
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
