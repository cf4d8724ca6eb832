//! A tissue's fields on one device with their kernels, NaN check and
//! events (a whole tissue's stored cells, or one part of a split with its
//! halo cells): what the GPU tissue solvers are made of, built and
//! stepped by one piece of code for both. The stimuli launch over runs of
//! stored cells, and the maps are the stored cells'.

use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use kernels_gpu::events::{Recorder, StimulusArgs};
use kernels_gpu::params::ParamSets;
use kernels_gpu::registry::Kernel;
use kernels_gpu::tet::EllTable;
use kernels_gpu::tissue::DenseTissue;
use kernels_gpu::{CellModel, DEFAULT_BLOCK, FLAT_BLOCK, GridDims, Locals, ModelInfo, StepCoeffs, ZWindow};

use super::neighbours::CompactLay;
use super::solving::box_mask_bits;
use crate::backend::gpu::cuda::{ByValue, cuda, entry_name, load_kernel};
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::maps::MapsOnDevice;
use crate::backend::gpu::nonfinite::NonfiniteFlags;
use crate::events::recording::Maps;
use crate::events::stimulus::{LocalArray, Stimulus};
use crate::events::{EventClock, Events};
use crate::scalar::Scalar;
use crate::solver::{NonfiniteCheck, SolverError};

/// A stimulus ready to launch on one device: its arguments and the runs
/// of stored cells it may touch.
struct DeviceStimulus<T> {
    args: StimulusArgs<T>,
    ranges: Vec<Range<u32>>,
    /// A mask region's bits, which `args` point at.
    _mask: Option<CudaSlice<u32>>,
}

impl<T: Scalar> DeviceStimulus<T> {
    /// `s` on `stream`'s device over the box `dims` (a mask region's bits
    /// uploaded), touching the stored cells `ranges`; `None` where those
    /// are none.
    fn upload(
        stream: &Arc<CudaStream>,
        s: &Stimulus,
        (dims, dt_ms): (GridDims, f64),
        ranges: Vec<Range<u32>>,
        (model, locals): (&ModelInfo, impl Fn(usize) -> LocalArray),
    ) -> Result<Option<Self>, SolverError> {
        if ranges.is_empty() {
            return Ok(None);
        }
        let mut args = s.args::<T>(dims, dt_ms);
        s.carry_into(&mut args, model, locals, dt_ms);
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
    unsafe fn launch(
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

/// A tissue's fields on one device: U twice, the locals and the weights,
/// with the kernels that step and stimulate them, their NaN check, and
/// the stimuli and maps of the run.
pub(crate) struct DeviceTissue<T> {
    pub stream: Arc<CudaStream>,
    step_fn: CudaFunction,
    stimulate_fn: CudaFunction,
    /// Variable 0 of the stored cells.
    pub u: CudaSlice<T>,
    pub u_next: CudaSlice<T>,
    /// Local variable k of cell c at `k * stride + c`.
    pub local: CudaSlice<T>,
    /// The model (whose stimulus carrier the stimuli add to) and the
    /// locals' stride: the cells that have locals.
    model: &'static ModelInfo,
    stride: usize,
    /// The weight table: a row per cell (at the stride), or a row per class.
    pub weights: CudaSlice<T>,
    /// The stored cells (the maps'), halos included.
    stored: usize,
    nonfinite: NonfiniteFlags,
    stimuli: Vec<Option<DeviceStimulus<T>>>,
    maps: MapsOnDevice<T>,
    /// The device's name, for reports.
    pub device_name: String,
    /// Whether the loaded step kernel may be joined to the previous one
    /// by a programmatic edge (`crate::backend::gpu::graph`).
    pub programmatic: bool,
}

impl<T: Scalar> DeviceTissue<T> {
    /// Loads the step kernel `kernel` of model `M` (with the stimulus and
    /// NaN-check kernels) on `device`, allocates `stored` cells of U twice
    /// and `locals` values of the locals (one at least), and uploads
    /// `weights`, on `stream`.
    pub fn new<M: CellModel>(
        device: &GpuDevice,
        ptx: &str,
        stream: Arc<CudaStream>,
        kernel: Kernel,
        (stored, locals): (usize, usize),
        weights: &[T],
    ) -> Result<Self, SolverError> {
        let entries @ [step_name, stimulate_name, flag_name] = [
            entry_name::<T>(M::INFO.name, kernel)?,
            entry_name::<T>("", Kernel::StimulateTissue)?,
            entry_name::<T>("", Kernel::FlagNonfinite)?,
        ];
        let (module, programmatic) = device.load_kernels(ptx, &entries)?;
        let alloc = |n: usize, during| stream.alloc_zeros::<T>(n.max(1)).map_err(cuda(during));
        Ok(Self {
            step_fn: load_kernel(&module, step_name)?,
            stimulate_fn: load_kernel(&module, stimulate_name)?,
            nonfinite: NonfiniteFlags::new(&stream, load_kernel(&module, flag_name)?)?,
            u: alloc(stored, "allocating U")?,
            u_next: alloc(stored, "allocating U_next")?,
            local: alloc(locals, "allocating the locals")?,
            model: M::INFO,
            stride: locals / M::Locals::<T>::COUNT.max(1),
            weights: stream.clone_htod(weights).map_err(cuda("uploading the weights"))?,
            stored,
            stimuli: Vec::new(),
            maps: MapsOnDevice::off(),
            device_name: device.info().name.clone(),
            programmatic,
            stream,
        })
    }

    /// The device address of `s`.
    pub fn address<V>(&self, s: &CudaSlice<V>) -> u64 {
        s.device_ptr(&self.stream).0
    }

    /// Uploads U into both U buffers (the cells the step skips keep their
    /// value in both) and the locals, if the model has any.
    pub fn upload(&mut self, u: &[T], local: &[T]) -> Result<(), SolverError> {
        self.stream.memcpy_htod(u, &mut self.u).map_err(cuda("uploading U"))?;
        self.stream.memcpy_htod(u, &mut self.u_next).map_err(cuda("uploading U"))?;
        if !local.is_empty() {
            self.stream.memcpy_htod(local, &mut self.local).map_err(cuda("uploading the locals"))?;
        }
        Ok(())
    }

    /// U, downloaded.
    pub fn download_u(&self) -> Result<Vec<T>, SolverError> {
        self.stream.clone_dtoh(&self.u).map_err(cuda("downloading U"))
    }

    /// The locals, downloaded.
    pub fn download_locals(&self) -> Result<Vec<T>, SolverError> {
        self.stream.clone_dtoh(&self.local).map_err(cuda("downloading the locals"))
    }

    /// U and the `count` local variables of the first `stride` cells,
    /// downloaded: one vector per variable.
    pub fn download_vars(&self, count: usize, stride: usize) -> Result<Vec<Vec<T>>, SolverError> {
        let mut vars = vec![self.download_u()?];
        if count > 0 {
            let local = self.download_locals()?;
            vars.extend(local.chunks_exact(stride).take(count).map(<[T]>::to_vec));
        }
        Ok(vars)
    }

    /// Uploads the stimuli of `events` over the box `dims`, each touching
    /// the runs of stored cells `ranges` gives it, and `maps` (over the
    /// stored cells, given exactly when the events record).
    pub fn set_events(
        &mut self,
        (events, dt_ms): (&Events, f64),
        dims: GridDims,
        ranges: impl Fn(&Stimulus) -> Vec<Range<u32>>,
        maps: Option<Maps>,
    ) -> Result<(), SolverError> {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        let (base, stride) = (self.address(&self.local), self.stride);
        let locals = |k| LocalArray::by_variable::<T>(base, stride, stride, k);
        self.stimuli = events
            .stimuli
            .stimuli
            .iter()
            .map(|s| DeviceStimulus::upload(&self.stream, s, (dims, dt_ms), ranges(s), (self.model, locals)))
            .collect::<Result<_, _>>()?;
        self.maps.set(&self.stream, maps.as_ref(), self.stored, dt_ms)
    }

    /// The maps over the stored cells, downloaded; none without maps.
    pub fn maps(&self) -> Result<Option<Maps>, SolverError> {
        self.maps.download(&self.stream, GridDims::new(self.stored as u32, 1, 1))
    }

    /// The recorder of the step at `t_ms`.
    pub fn recorder_at(&self, t_ms: f64) -> Recorder<T> {
        self.maps.recorder_at(t_ms)
    }

    /// Launches the stimuli active at the clock's step (their stimuli
    /// taken by the caller), placed in the box `dims`.
    ///
    /// # Safety
    /// `index` is 0 (the stored cells are the box's) or the device address
    /// of the box index of every stored cell; the stimuli's runs lie in
    /// the stored cells and leave out halo slices beyond the grid.
    pub unsafe fn stimulate(&mut self, clock: &EventClock, at: (GridDims, u64)) -> Result<(), SolverError> {
        let rec = self.recorder_at(clock.t_ms());
        for (k, launch) in self.stimuli.iter().enumerate() {
            let Some(launch) = launch.as_ref().filter(|_| clock.active(k)) else { continue };
            // SAFETY: the stimulus kernel of T; U holds the stored cells,
            // the stimulus's runs lie in them; `index` as the caller
            // promises; the recorder is off or over the stored cells' maps.
            unsafe { launch.launch(&self.stream, &self.stimulate_fn, &mut self.u, at, rec)? };
        }
        Ok(())
    }

    /// The launch of one step of the step kernel at `t_ms`, from U into
    /// U_next.
    /// `sets` are the parameter sets of the cells for a `_sets` kernel
    /// (`crate::cell_params`), `None` for the kernels that take `coeffs`
    /// for every cell.
    pub fn step_launch<C>(
        &mut self,
        step: StepCoeffs<T>,
        (coeffs, sets): (C, Option<ParamSets>),
        t_ms: f64,
    ) -> StepLaunch<'_, T, C> {
        StepLaunch {
            weights: self.weights.device_ptr(&self.stream).0,
            home: &self.stream,
            stream: &self.stream,
            f: &self.step_fn,
            u: &self.u,
            u_next: &mut self.u_next,
            local: &mut self.local,
            step,
            coeffs,
            sets,
            rec: self.maps.recorder_at(t_ms),
        }
    }

    /// Swaps U and U_next after a step.
    pub fn swap(&mut self) {
        std::mem::swap(&mut self.u, &mut self.u_next);
    }

    /// Ends a step that wrote U_next: it becomes U, and `clock` counts
    /// the step.
    pub fn end_step(&mut self, clock: &mut EventClock) {
        self.swap();
        clock.step += 1;
    }

    /// Whether U holds a NaN or an infinity, at once.
    pub fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.nonfinite.check_now(&self.u)
    }

    /// Begins the NaN check of U, answered at once where `recording`
    /// (`NonfiniteFlags::begin_check` says why).
    pub fn begin_nonfinite_check(&mut self, recording: bool) -> Result<NonfiniteCheck, SolverError> {
        self.nonfinite.begin_check(&self.u, recording)
    }

    pub fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        self.nonfinite.answer(check)
    }

    /// Whether the run records maps.
    pub fn has_maps(&self) -> bool {
        self.maps.is_some()
    }
}

/// One step kernel's launch: what every tissue step kernel takes beside
/// its layout (and the dense one's window), in the kernels' order (u,
/// u_next, local, lay, step, coeffs[, window], rec[, sets]).
pub(crate) struct StepLaunch<'a, T: Scalar, C> {
    /// The weight table's address.
    pub weights: u64,
    /// The fields' own stream, on which the mesh's tables are addressed:
    /// the launch's, unless the launch is being captured on another.
    pub home: &'a CudaStream,
    pub stream: &'a CudaStream,
    pub f: &'a CudaFunction,
    pub u: &'a CudaSlice<T>,
    pub u_next: &'a mut CudaSlice<T>,
    pub local: &'a mut CudaSlice<T>,
    pub step: StepCoeffs<T>,
    /// The model's coefficients.
    pub coeffs: C,
    /// The cells' parameter sets, passed last to the `_sets` kernels.
    pub sets: Option<ParamSets>,
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
        let sets = self.sets.map(ByValue);
        let mut b = self.stream.launch_builder(self.f);
        b.arg(self.u).arg(self.u_next).arg(self.local);
        b.arg(&lay).arg(&step).arg(&coeffs).arg(&window).arg(&rec);
        if let Some(sets) = &sets {
            b.arg(sets);
        }
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
        let sets = self.sets.map(ByValue);
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
        if let Some(sets) = &sets {
            b.arg(sets);
        }
        // SAFETY: per the contract.
        unsafe { b.launch(cfg) }.map_err(cuda("launching the tissue step"))?;
        Ok(())
    }

    /// Launches the node kernel of a tetrahedral mesh, a thread per node
    /// of `table`.
    ///
    /// # Safety
    /// `f` is the tet kernel (`<model>_tet_<t>`) of model `C`, in precision
    /// `T`, and the arguments meet its contract
    /// (`kernels_gpu::tet::step_node` for every node).
    pub(crate) unsafe fn nodes(self, table: EllTable) -> Result<(), SolverError> {
        let cfg = LaunchConfig {
            grid_dim: (table.nodes.div_ceil(FLAT_BLOCK), 1, 1),
            block_dim: (FLAT_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let (table, step, coeffs, rec) =
            (ByValue(table), ByValue(self.step), ByValue(self.coeffs), ByValue(self.rec));
        let sets = self.sets.map(ByValue);
        let mut b = self.stream.launch_builder(self.f);
        b.arg(self.u).arg(self.u_next).arg(self.local);
        b.arg(&table).arg(&step).arg(&coeffs).arg(&rec);
        if let Some(sets) = &sets {
            b.arg(sets);
        }
        // SAFETY: per the contract.
        unsafe { b.launch(cfg) }.map_err(cuda("launching the mesh step"))?;
        Ok(())
    }
}
