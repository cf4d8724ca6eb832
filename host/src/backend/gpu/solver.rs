//! A simulation resident on one GPU.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DeviceRepr, DriverError, LaunchConfig,
    PinnedHostSlice, PushKernelArg,
};
use kernels_gpu::blocked::{self, Pass};
use kernels_gpu::ecg::{EcgProbe, ecg_scale};
use kernels_gpu::events::{Recorder, SlicePlacement, StimulusArgs};
use kernels_gpu::registry::{self, Kernel};
use kernels_gpu::tips::Singularity;
use kernels_gpu::{CellModel, FLAT_BLOCK, GridDims, Locals, StepCoeffs, TowerLayout, ZWindow};

use super::device::GpuDevice;
use super::graph::{PassBuffers, Piece, StepGraphs};
use super::kernel::{KernelConfig, KernelKind, SHARED_WITHOUT_OPT_IN, pass_steps};
use super::nonfinite::NonfiniteFlags;
use crate::backend::gpu::maps::DeviceMaps;
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::events::stimulus::Region;
use crate::events::tips::{ChargedPlaquette, PhaseMemory};
use crate::events::{EventStart, Events};
use crate::layout::tower;
use crate::scalar::Scalar;
use crate::solver::{BackendKind, NonfiniteCheck, Solver, SolverError};
use crate::state::State;

/// Passes a `#[repr(C)]` struct of `kernels-gpu` by value as a kernel
/// parameter (cudarc's `DeviceRepr` cannot be implemented on the foreign
/// type directly).
#[repr(transparent)]
#[derive(Clone, Copy)]
struct ByValue<P>(P);

// SAFETY: only instantiated with `GridDims`, `TowerLayout`, `ZWindow`,
// `StepCoeffs<T>`, `Recorder<T>`, `SlicePlacement`, `StimulusArgs<T>` and a
// model's `Coeffs<T>`, plain `#[repr(C)]` structs of
// numbers whose kernel-side declaration is the same Rust type, so host and
// device agree on size, alignment and field order.
unsafe impl<P: Copy> DeviceRepr for ByValue<P> {}

pub(crate) fn cuda(during: &'static str) -> impl FnOnce(DriverError) -> SolverError {
    move |source| SolverError::Cuda { during, source }
}

fn load_kernel(module: &Arc<CudaModule>, name: &str) -> Result<CudaFunction, SolverError> {
    module.load_function(name).map_err(|_| SolverError::MissingKernel { name: name.into() })
}

/// Position of one z-slice inside a U buffer (see `GpuSolver::slice_geometry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SliceGeometry {
    pub offset_bytes: usize,
    pub width_bytes: usize,
    pub rows: usize,
    pub pitch_bytes: usize,
}

/// How U is laid out on the device.
#[derive(Clone, Copy)]
enum Layout {
    RowMajor,
    Towers(TowerLayout),
}

/// U double-buffered in the kernel's layout, the model's local variables
/// row-major (variable after variable), on one GPU.
pub struct GpuSolver<M: CellModel, T: Scalar> {
    /// The graphs captured so far. Declared first so that they are
    /// destroyed before the module and the buffers their kernels name.
    graphs: StepGraphs,
    /// Whether quiet stretches of steps are replayed as CUDA graphs
    /// (`--no-graphs` turns it off).
    use_graphs: bool,
    /// Whether the module's step kernels wait for their prerequisite grids
    /// (sm_90 and later: `super::ptx`), so that the graphs may join them by
    /// programmatic edges.
    programmatic: bool,
    stream: Arc<CudaStream>,
    device_name: String,
    config: KernelConfig,
    layout: Layout,
    step_fn: CudaFunction,
    /// The grid as given (the state's shape).
    dims: GridDims,
    /// The grid the kernels step: `dims` compacted.
    grid: GridDims,
    step: StepCoeffs<T>,
    coeffs: M::Coeffs<T>,
    /// The device copy of the rate table `coeffs` point at (`--rate-tables`).
    _rate_table: Option<CudaSlice<T>>,
    u: CudaSlice<T>,
    u_next: CudaSlice<T>,
    /// Local variable k of cell i at `k * cells + i` (one unused element
    /// for models without locals: the driver allocates nothing smaller).
    local: CudaSlice<T>,
    /// The locals a pass of `blocked` writes (it reads `local`; other
    /// kernels update the locals in place and have none).
    local_next: Option<CudaSlice<T>>,
    /// The NaN check's flags (`super::nonfinite`).
    nonfinite: NonfiniteFlags,
    stimulate_fn: CudaFunction,
    ecg_fn: CudaFunction,
    /// Page-locked staging of downloads (allocated on first use): a copy
    /// into pageable memory runs at a fraction of the link's speed.
    staging: Option<PinnedHostSlice<T>>,
    /// One f64 per block of the pseudo-ECG's reduction (allocated on first use).
    ecg_partials: Option<CudaSlice<f64>>,
    phase_fn: CudaFunction,
    /// V at the previous phase-singularity sample and the kernel's list
    /// (allocated at the first sample).
    phase: Option<PhaseBuffers<T>>,
    /// Steps taken, counted from the run's start (sets stimuli and times).
    step_count: u64,
    /// The step whose stimuli are in U.
    stimulated: Option<u64>,
    dt_ms: f64,
    /// Where this buffer's slices lie in the whole grid.
    place: SlicePlacement,
    events: Events,
    /// Each stimulus's arguments and its box in this buffer, if it touches it.
    stimuli: Vec<Option<StimulusLaunch<T>>>,
    maps: Option<DeviceMaps>,
    /// Off, or over `maps`; its time is set per step.
    recorder: Recorder<T>,
    model: PhantomData<M>,
}

/// The buffers a state download reads.
#[derive(Clone, Copy)]
enum Download {
    U,
    Locals,
}

/// A stimulus ready to launch on one buffer.
struct StimulusLaunch<T> {
    args: StimulusArgs<T>,
    origin: GridDims,
    extent: GridDims,
    /// A mask region's bits for this buffer (`args.mask` points at them).
    _mask: Option<CudaSlice<u32>>,
}

/// What the phase-singularity kernel reads and writes between samples.
struct PhaseBuffers<T> {
    /// V at the previous sample, row-major.
    previous: CudaSlice<T>,
    /// (s, t) per charged plaquette.
    position: CudaSlice<f64>,
    /// (normal, x, y, z, charge) per charged plaquette.
    ids: CudaSlice<u32>,
    count: CudaSlice<u32>,
    /// Records the lists hold.
    capacity: u32,
}

/// Records the phase lists start with (a few hundred filaments' worth);
/// they grow to what a sample finds.
const PHASE_CAPACITY: u32 = 1 << 14;

impl<M: CellModel, T: Scalar> GpuSolver<M, T> {
    /// Checks the configuration and memory, loads `ptx`, uploads `initial`.
    pub fn new(
        device: &GpuDevice,
        ptx: &str,
        config: KernelConfig,
        domain: &Domain,
        initial: &State<T>,
    ) -> Result<Self, SolverError> {
        assert_eq!(initial.dims(), domain.dims(), "initial state matches the domain");
        assert_eq!(initial.model().name, M::INFO.name, "initial state of this model");
        let dims = domain.dims();
        let grid = dims.compact();
        config.check(M::INFO.name, dims)?;
        let locals = M::Locals::<T>::COUNT;
        device.check_fits(config.device_bytes(dims, locals, T::PRECISION)?)?;
        let layout = match config.tower_layout(dims)? {
            Some(lay) => Layout::Towers(lay),
            None => Layout::RowMajor,
        };
        let step_name =
            config.kind.entry_point(M::INFO.name, grid.axes(), T::PRECISION).ok_or_else(|| {
                SolverError::MissingKernel { name: format!("{} {}", M::INFO.name, config.kind) }
            })?;
        let flag_name = registry::entry_point("", Kernel::FlagNonfinite, T::NAME)
            .expect("the registry lists the NaN check")
            .name;
        let stimulate_name = registry::entry_point("", Kernel::Stimulate, T::NAME)
            .expect("the registry lists the stimulus")
            .name;
        let ecg_name = registry::entry_point("", Kernel::EcgPartial, T::NAME)
            .expect("the registry lists the ECG sum")
            .name;
        let phase_name = registry::entry_point("", Kernel::PhasePlaquettes, T::NAME)
            .expect("the registry lists the phase kernel")
            .name;
        let (module, programmatic) =
            device.load_kernels(ptx, &[step_name, flag_name, stimulate_name, ecg_name, phase_name])?;
        let stream = device.stream.clone();
        let u_elements = config.u_elements(dims)? as usize;
        let shared_limit = if config.kind == KernelKind::Blocked {
            let optin = cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN;
            device.ctx.attribute(optin).map_err(cuda("reading the shared memory per block"))? as u64
        } else {
            SHARED_WITHOUT_OPT_IN
        };
        config.check_shared_memory(T::PRECISION, shared_limit)?;
        let device_coeffs = super::tables::device_coeffs::<M, T>(domain, &stream)?;
        let mut solver = Self {
            u: stream.alloc_zeros::<T>(u_elements).map_err(cuda("allocating U"))?,
            u_next: stream.alloc_zeros::<T>(u_elements).map_err(cuda("allocating U_next"))?,
            local: stream
                .alloc_zeros::<T>((locals * dims.cells()).max(1))
                .map_err(cuda("allocating the locals"))?,
            local_next: match config.kind {
                KernelKind::Blocked => Some(
                    stream
                        .alloc_zeros::<T>((locals * dims.cells()).max(1))
                        .map_err(cuda("allocating the second locals buffer"))?,
                ),
                _ => None,
            },
            step_fn: load_kernel(&module, step_name)?,
            nonfinite: NonfiniteFlags::new(&stream, load_kernel(&module, flag_name)?)?,
            stimulate_fn: load_kernel(&module, stimulate_name)?,
            ecg_fn: load_kernel(&module, ecg_name)?,
            ecg_partials: None,
            phase_fn: load_kernel(&module, phase_name)?,
            phase: None,
            staging: None,
            step_count: 0,
            stimulated: None,
            dt_ms: domain.dt_ms(),
            place: SlicePlacement::whole(dims.nz),
            events: Events::default(),
            stimuli: Vec::new(),
            maps: None,
            recorder: Recorder::off(),
            use_graphs: true,
            graphs: StepGraphs::new(programmatic),
            programmatic,
            stream,
            device_name: device.info().name.clone(),
            config,
            layout,
            dims,
            grid,
            step: domain.step_coeffs(),
            coeffs: device_coeffs.coeffs,
            _rate_table: device_coeffs.table,
            model: PhantomData,
        };
        if config.kind == KernelKind::Blocked {
            // Beyond 48 KiB a kernel must opt in to its dynamic shared memory.
            let bytes = config.blocked_shared_bytes(config.steps_per_pass, T::PRECISION);
            if bytes > SHARED_WITHOUT_OPT_IN {
                let attribute =
                    cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
                solver
                    .step_fn
                    .set_attribute(attribute, bytes as i32)
                    .map_err(cuda("opting in to shared memory"))?;
            }
        }
        let max_threads = solver
            .step_fn
            .get_attribute(cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
            .map_err(cuda("reading the step kernel's threads per block"))?;
        let registers = solver.step_fn.num_regs().map_err(cuda("reading the step kernel's registers"))?;
        config.check_threads(grid, max_threads as u32, registers as u32)?;
        solver.set_state(initial)?;
        Ok(solver)
    }

    /// `steps` steps of `blocked`, in passes of up to `--steps-per-pass`
    /// steps ([`pass_steps`]: a pass ends before a step with a stimulus,
    /// which is applied between passes; crossings are recorded inside).
    fn advance_blocked(&mut self, steps: u64) -> Result<(), SolverError> {
        let stream = self.stream.clone();
        let mut left = steps;
        while left > 0 {
            let k =
                pass_steps(self.config.steps_per_pass, left, self.step_count, |step| self.stimulus_due(step));
            self.stimulate_on(&stream)?;
            self.launch_blocked(&stream, ZWindow::all(self.grid.nz), k)?;
            self.swap_buffers();
            self.step_count += k as u64 - 1;
            left -= k as u64;
        }
        Ok(())
    }

    /// `blocked`: `(u, u_next, local, dims, step, coeffs, window, rec,
    /// local_next, pass)`, a pass of `steps` steps.
    fn launch_blocked(
        &mut self,
        stream: &Arc<CudaStream>,
        window: ZWindow,
        steps: u32,
    ) -> Result<(), SolverError> {
        self.check_buffers(self.grid.cells());
        assert!(self.grid.axes() == 3, "checked by KernelConfig::check");
        let block = (self.config.block.x, self.config.block.y);
        let pass =
            Pass { steps, z_chunk: self.config.effective_z_chunk(window.len()), first_step: self.step_count };
        let shape = blocked::launch_shape(self.grid, block, window, pass.z_chunk, steps);
        let cfg = LaunchConfig {
            grid_dim: shape.grid,
            block_dim: shape.block,
            shared_mem_bytes: self.config.blocked_shared_bytes(steps, T::PRECISION) as u32,
        };
        let (dims, step, coeffs, window_arg) =
            (ByValue(self.grid), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let (rec, pass) = (ByValue(self.step_recorder()), ByValue(pass));
        let local_next = self.local_next.as_mut().expect("allocated for the blocked kernel");
        assert_eq!(local_next.len(), self.local.len(), "both locals buffers hold every cell");
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&self.local);
        launch.arg(&dims).arg(&step).arg(&coeffs).arg(&window_arg).arg(&rec).arg(local_next).arg(&pass);
        // SAFETY: the entry point is this model's blocked kernel for this
        // precision (from the registry), whose parameters are exactly these,
        // in this order; U, U_next, the locals and their second buffer are
        // four distinct allocations of the lengths checked above; the grid
        // has three axes and fewer than 2^32 cells; the window lies inside
        // it; 1 <= steps <= 4 and z_chunk >= 1 (`KernelConfig::check`,
        // `pass_steps`); grid, block and shared memory come from
        // `kernels_gpu::blocked`, the functions the kernel's contract
        // names, the block leaves a tile for `steps_per_pass` and so for
        // fewer steps (`KernelConfig::check`), and the shared memory fits
        // (`check_shared_memory` at construction, which opted in beyond 48
        // KiB; a shorter pass needs less); the recorder is off or over maps
        // of this grid's cells.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the blocked kernel"))?;
        Ok(())
    }

    pub fn config(&self) -> KernelConfig {
        self.config
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        self.launch_window_on(&stream, ZWindow::all(self.grid.nz))?;
        self.swap_buffers();
        Ok(())
    }

    /// Whether quiet stretches of steps are replayed as CUDA graphs (the
    /// default; `false` launches every step from the host, `--no-graphs`).
    pub fn set_graphs(&mut self, on: bool) {
        self.use_graphs = on;
    }

    /// Whether a graph's steps are joined by programmatic edges where the
    /// GPU allows them (the default; `false` keeps plain edges, `--no-pdl`).
    pub fn set_programmatic_launch(&mut self, on: bool) {
        // SAFETY: `programmatic` says the loaded module's step kernels wait
        // for their prerequisite grids, and the graphs capture only them.
        unsafe { self.graphs.set_programmatic(on && self.programmatic) };
    }

    /// Steps taken so far by replaying graphs (see [`super::graph`]).
    pub fn graph_steps(&self) -> u64 {
        self.graphs.replayed_steps()
    }

    /// Whether `advance` replays graphs now: asked for, a kernel of one
    /// step per launch (a blocked pass's arguments name its first step),
    /// and no maps (the recorder carries each step's time).
    fn replays_graphs(&self) -> bool {
        self.use_graphs && self.config.kind != KernelKind::Blocked && self.maps.is_none()
    }

    /// `steps` steps, the quiet stretches between stimuli replayed as
    /// graphs ([`super::graph::pieces`]), the others launched one by one.
    fn advance_with_graphs(&mut self, steps: u64) -> Result<(), SolverError> {
        // Bounds the look-ahead for stimuli; longer stretches take several turns.
        const LOOK_AHEAD: u32 = 16 * super::graph::MAX_GRAPH_STEPS;
        let stream = self.stream.clone();
        let mut left = steps;
        while left > 0 {
            self.stimulate_on(&stream)?;
            let quiet = self.quiet_steps(left.min(LOOK_AHEAD as u64) as u32);
            for piece in super::graph::pieces(quiet) {
                match piece {
                    Piece::Single => self.launch_step()?,
                    Piece::Graph(n) => self.replay_pass(&stream, n)?,
                }
            }
            left -= quiet;
        }
        Ok(())
    }

    /// The steps from the current one (at most `limit`, at least one)
    /// before the next step at which a stimulus of this buffer is active:
    /// the current step's stimuli are applied before them, and none is
    /// due inside.
    fn quiet_steps(&self, limit: u32) -> u64 {
        pass_steps(u32::MAX, limit as u64, self.step_count, |step| self.stimulus_due(step)) as u64
    }

    /// Whether a stimulus of this buffer is active at step `step`.
    fn stimulus_due(&self, step: u64) -> bool {
        self.stimuli
            .iter()
            .zip(&self.events.stimuli.stimuli)
            .any(|(launch, s)| launch.is_some() && s.active_at(step))
    }

    /// `steps` (even) steps with nothing between them, as one graph launch
    /// on `stream`, captured at its first use for the current U buffers.
    fn replay_pass(&mut self, stream: &Arc<CudaStream>, steps: u32) -> Result<(), SolverError> {
        assert!(steps.is_multiple_of(2), "a pass leaves U and U_next in place");
        assert!(self.local_next.is_none(), "the graphs replay kernels that update the locals in place");
        let buffers = PassBuffers {
            u: self.u.device_ptr(&self.stream).0,
            u_next: self.u_next.device_ptr(&self.stream).0,
            local: self.local.device_ptr(&self.stream).0,
        };
        let mut graphs = std::mem::take(&mut self.graphs);
        // SAFETY: `record_pass` enqueues only this solver's step kernels,
        // over its own buffers (never reallocated; the solver drops the
        // graphs before them) and constants fixed at construction; the
        // recorder is off (`replays_graphs`), so the step's time in the
        // arguments is not read. `buffers` are the
        // current roles of U, U_next and the locals, and a pass of an even
        // number of steps leaves them so.
        let launched =
            unsafe { graphs.launch(stream, steps, buffers, |capture| self.record_pass(capture, steps)) };
        self.graphs = graphs;
        launched?;
        self.step_count += steps as u64;
        Ok(())
    }

    /// Enqueues `steps` steps on `capture` (a stream being captured, so
    /// nothing runs) and leaves the buffers and the step count as they were.
    fn record_pass(&mut self, capture: &Arc<CudaStream>, steps: u32) -> Result<(), SolverError> {
        let start = self.step_count;
        let mut taken = 0;
        let mut recorded = Ok(());
        while taken < steps {
            if let Err(e) = self.launch_window_on(capture, ZWindow::all(self.grid.nz)) {
                recorded = Err(e);
                break;
            }
            self.swap_buffers();
            taken += 1;
        }
        if taken % 2 == 1 {
            std::mem::swap(&mut self.u, &mut self.u_next);
        }
        self.step_count = start;
        recorded
    }

    /// Installs the events of this buffer, placed in the whole grid by
    /// `place` (a sub-domain's share; `maps` are this buffer's, halo
    /// slices included).
    pub(crate) fn set_local_events(
        &mut self,
        events: &Events,
        start: EventStart,
        place: SlicePlacement,
        maps: Option<&Maps>,
    ) -> Result<(), SolverError> {
        assert_eq!(events.recording.is_some(), maps.is_some(), "maps exactly when recording");
        let whole = GridDims::new(self.dims.nx, self.dims.ny, place.global_nz);
        let mut launches = Vec::with_capacity(events.stimuli.stimuli.len());
        for s in &events.stimuli.stimuli {
            let Some((origin, extent)) = s.local_box(whole, self.dims, place) else {
                launches.push(None);
                continue;
            };
            let mut args = s.args::<T>(whole, self.dt_ms);
            let mask = match &s.region {
                Region::Mask(mask) => {
                    let bits = mask.local_bits(self.dims, place);
                    let device = self.stream.clone_htod(&bits).map_err(cuda("uploading a stimulus mask"))?;
                    args.mask = device.device_ptr(&self.stream).0;
                    Some(device)
                }
                _ => None,
            };
            launches.push(Some(StimulusLaunch { args, origin, extent, _mask: mask }));
        }
        self.stimuli = launches;
        self.events = events.clone();
        self.step_count = start.step;
        self.stimulated = start.stimuli_applied.then_some(start.step);
        self.place = place;
        self.maps = None;
        self.recorder = Recorder::off();
        self.graphs.clear();
        if let Some(maps) = maps {
            assert_eq!(maps.dims, self.dims, "maps of this buffer");
            let device = DeviceMaps::upload(&self.stream, maps)?;
            let addresses = device.addresses(&self.stream);
            self.recorder = maps.recording.recorder::<T>(addresses, self.dims.cells(), self.dt_ms);
            self.maps = Some(device);
        }
        Ok(())
    }

    /// This buffer's maps (halo slices included), downloaded, after the
    /// stimuli of the current step.
    pub(crate) fn local_maps(&mut self) -> Result<Option<Maps>, SolverError> {
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        let Some(device) = &self.maps else { return Ok(None) };
        Ok(Some(device.download(&self.stream, self.dims)?))
    }

    /// The unscaled pseudo-ECG sums of the slices of `window` at each
    /// probe (after the step's stimuli), each added in block order on the
    /// host. `halos`: the slices beside the window are a sub-domain's halos.
    pub(crate) fn ecg_sums(
        &mut self,
        probes: &[EcgProbe],
        window: ZWindow,
        z_offset: i32,
        halos: bool,
    ) -> Result<Vec<f64>, SolverError> {
        assert!(matches!(self.layout, Layout::RowMajor), "the pseudo-ECG reads the row-major layout");
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        const THREADS: u32 = 256;
        const BLOCKS: u32 = 1024;
        if self.ecg_partials.is_none() {
            self.ecg_partials =
                Some(stream.alloc_zeros::<f64>(BLOCKS as usize).map_err(cuda("allocating the ECG sums"))?);
        }
        let n = window.len() as u64 * self.dims.slice_cells() as u64;
        let blocks = n.div_ceil(THREADS as u64).clamp(1, BLOCKS as u64) as u32;
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (THREADS, 1, 1),
            shared_mem_bytes: THREADS * 8,
        };
        let mut sums = Vec::with_capacity(probes.len());
        for probe in probes {
            let partials = self.ecg_partials.as_mut().expect("allocated above");
            let (grid, window_arg, probe_arg) = (ByValue(self.dims), ByValue(window), ByValue(*probe));
            let halos = u32::from(halos);
            let mut b = stream.launch_builder(&self.ecg_fn);
            b.arg(&self.u)
                .arg(&grid)
                .arg(&window_arg)
                .arg(&z_offset)
                .arg(&halos)
                .arg(&probe_arg)
                .arg(&mut *partials);
            // SAFETY: ecg_partial_<t> takes (u, grid, window, z_offset, halos,
            // probe, partials); U is row-major over `dims`, the window lies
            // in it with halo slices beside it when `halos`, `partials`
            // holds BLOCKS >= blocks f64, the block is a power of two with
            // as many f64 of shared memory.
            unsafe { b.launch(cfg) }.map_err(cuda("launching the ECG sum"))?;
            let host = stream.clone_dtoh(partials).map_err(cuda("downloading the ECG sums"))?;
            sums.push(host[..blocks as usize].iter().sum::<f64>());
        }
        Ok(sums)
    }

    /// The phase kernel's buffers around V(t - tau) = `previous`.
    fn phase_buffers(&self, previous: CudaSlice<T>) -> Result<PhaseBuffers<T>, SolverError> {
        let position = self.stream.alloc_zeros::<f64>(2 * PHASE_CAPACITY as usize);
        let ids = self.stream.alloc_zeros::<u32>(5 * PHASE_CAPACITY as usize);
        let count = self.stream.alloc_zeros::<u32>(1);
        Ok(PhaseBuffers {
            previous,
            position: position.map_err(cuda("allocating the tips list"))?,
            ids: ids.map_err(cuda("allocating the tips list"))?,
            count: count.map_err(cuda("allocating the tips count"))?,
            capacity: PHASE_CAPACITY,
        })
    }

    /// The charged plaquettes between U (after the step's stimuli) and U
    /// at the previous call, found by the `phase_plaquettes` kernel on the
    /// row-major layout; `None` at the first call, which keeps U.
    fn phase_plaquettes(&mut self, v_star: f64) -> Result<Option<Vec<ChargedPlaquette>>, SolverError> {
        assert!(matches!(self.layout, Layout::RowMajor), "the phase kernel reads the row-major layout");
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        let cells = self.dims.cells();
        let alloc_lists = |capacity: u32| -> Result<(CudaSlice<f64>, CudaSlice<u32>), SolverError> {
            Ok((
                stream.alloc_zeros::<f64>(2 * capacity as usize).map_err(cuda("allocating the tips list"))?,
                stream.alloc_zeros::<u32>(5 * capacity as usize).map_err(cuda("allocating the tips list"))?,
            ))
        };
        let Some(phase) = self.phase.as_mut() else {
            let mut previous = stream.alloc_zeros::<T>(cells).map_err(cuda("allocating V(t - tau)"))?;
            stream.memcpy_dtod(&self.u, &mut previous).map_err(cuda("keeping V(t - tau)"))?;
            self.phase = Some(self.phase_buffers(previous)?);
            return Ok(None);
        };
        let blocks = (cells as u64).div_ceil(FLAT_BLOCK as u64).min(8192) as u32;
        let cfg =
            LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
        let found = loop {
            stream.memset_zeros(&mut phase.count).map_err(cuda("clearing the tips count"))?;
            let grid = ByValue(self.dims);
            let mut b = stream.launch_builder(&self.phase_fn);
            b.arg(&self.u)
                .arg(&phase.previous)
                .arg(&grid)
                .arg(&v_star)
                .arg(&mut phase.position)
                .arg(&mut phase.ids)
                .arg(&mut phase.count)
                .arg(&phase.capacity);
            // SAFETY: phase_plaquettes_<t> takes (now, prev, grid, v_star,
            // position, ids, count, capacity); U and `previous` hold the
            // grid's cells row-major, the lists 2 and 5 x capacity values,
            // `count` one u32 zeroed above; any 1D launch is valid.
            unsafe { b.launch(cfg) }.map_err(cuda("launching the tips search"))?;
            let found = stream.clone_dtoh(&phase.count).map_err(cuda("reading the tips count"))?[0];
            if found <= phase.capacity {
                break found as usize;
            }
            // More than the lists hold: grow them and search again (V(t -
            // tau) is still the previous sample's).
            let capacity = found.next_power_of_two();
            (phase.position, phase.ids) = alloc_lists(capacity)?;
            phase.capacity = capacity;
        };
        let (position, ids) = if found == 0 {
            (Vec::new(), Vec::new())
        } else {
            (
                stream
                    .clone_dtoh(&phase.position.slice(0..2 * found))
                    .map_err(cuda("downloading the tips"))?,
                stream.clone_dtoh(&phase.ids.slice(0..5 * found)).map_err(cuda("downloading the tips"))?,
            )
        };
        stream.memcpy_dtod(&self.u, &mut phase.previous).map_err(cuda("keeping V(t - tau)"))?;
        let plaquettes = position
            .chunks_exact(2)
            .zip(ids.chunks_exact(5))
            .map(|(st, id)| ChargedPlaquette {
                normal: id[0] as u8,
                base: [id[1], id[2], id[3]],
                singularity: Singularity { s: st[0], t: st[1], charge: id[4] as i32 },
            })
            .collect();
        Ok(Some(plaquettes))
    }

    /// The recorder for the step about to be taken.
    fn step_recorder(&self) -> Recorder<T> {
        self.recorder.at(self.step_count as f64 * self.dt_ms)
    }

    /// Launches, on `stream`, the stimuli due at the current step unless
    /// they are in U already: before the step's kernels (which the caller
    /// orders after it) and before U or the maps are read. Returns whether
    /// it launched any.
    pub(crate) fn stimulate_on(&mut self, stream: &Arc<CudaStream>) -> Result<bool, SolverError> {
        let step = self.step_count;
        if self.stimulated == Some(step) {
            return Ok(false);
        }
        self.stimulated = Some(step);
        let mut any = false;
        for (k, launch) in self.stimuli.iter().enumerate() {
            let Some(launch) = launch else { continue };
            if !self.events.stimuli.stimuli[k].active_at(step) {
                continue;
            }
            any = true;
            let n = launch.extent.cells() as u64;
            let blocks = n.div_ceil(FLAT_BLOCK as u64).min(4096) as u32;
            let cfg =
                LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
            let (lay, towers) = match self.layout {
                Layout::Towers(lay) => (lay, 1u32),
                // Not read (towers = 0); any valid layout value.
                Layout::RowMajor => {
                    (TowerLayout::new(GridDims::new(32, 1, 1), 32, 1).expect("a valid layout"), 0)
                }
            };
            let args = (
                ByValue(self.dims),
                ByValue(lay),
                ByValue(self.place),
                ByValue(launch.args),
                ByValue(self.step_recorder()),
                ByValue(launch.origin),
                ByValue(launch.extent),
            );
            let mut b = stream.launch_builder(&self.stimulate_fn);
            b.arg(&mut self.u).arg(&args.0).arg(&args.1).arg(&towers).arg(&args.2).arg(&args.3);
            b.arg(&args.4).arg(&args.5).arg(&args.6);
            // SAFETY: stimulate_cells_<t> takes (u, grid, layout, towers,
            // placement, args, recorder, origin, extent); `u` is this
            // solver's current U of `dims` in the layout `towers` names,
            // the box was clipped to the buffer (`local_box`), the
            // recorder is off or over this buffer's maps, a mask region's bits
            // are this buffer's (uploaded by `set_local_events`, kept in the
            // launch); a 1D grid-stride launch.
            unsafe { b.launch(cfg) }.map_err(cuda("launching a stimulus"))?;
        }
        Ok(any)
    }

    /// One step made of one launch per window; the windows must be disjoint
    /// and cover `0..nz` in any order. The multi-GPU overlap launches the
    /// boundary slices and the interior separately in the same way.
    ///
    /// # Panics
    /// If the windows do not tile `0..nz` (a programming error).
    pub fn step_in_windows(&mut self, windows: &[ZWindow]) -> Result<(), SolverError> {
        let mut covered = vec![false; self.grid.nz as usize];
        for w in windows {
            for z in w.begin..w.end {
                assert!(!std::mem::replace(&mut covered[z as usize], true), "slice {z} in two windows");
            }
        }
        assert!(covered.iter().all(|c| *c), "windows leave slices out");
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        for w in windows {
            self.launch_window_on(&stream, *w)?;
        }
        self.swap_buffers();
        Ok(())
    }

    /// Advances the slices of `window` from U into U_next (no swap), on
    /// `stream` (a stream of this solver's device; the caller orders it
    /// against the others with events).
    pub(crate) fn launch_window_on(
        &mut self,
        stream: &Arc<CudaStream>,
        window: ZWindow,
    ) -> Result<(), SolverError> {
        if window.is_empty() {
            return Ok(());
        }
        assert!(window.end <= self.grid.nz, "window {window:?} inside the grid");
        match (self.config.kind, self.layout) {
            (KernelKind::Naive | KernelKind::Csw, Layout::RowMajor) => self.launch_row_major(stream, window),
            (KernelKind::Tower, Layout::Towers(lay)) => self.launch_tower(stream, lay, window),
            (KernelKind::TowerMarch, Layout::Towers(lay)) => self.launch_tower_march(stream, lay, window),
            (KernelKind::Columns, Layout::RowMajor) => self.launch_columns(stream, window),
            // One step per launch where the caller steps windows (one pass of one step).
            (KernelKind::Blocked, Layout::RowMajor) => self.launch_blocked(stream, window, 1),
            _ => unreachable!("the layout follows the kernel (KernelKind::uses_towers)"),
        }
    }

    fn launch_config(&self, window: ZWindow) -> LaunchConfig {
        LaunchConfig {
            grid_dim: self.config.grid(self.grid, window),
            block_dim: self.config.block_dim(self.grid),
            shared_mem_bytes: self.config.shared_elems() * T::BYTES as u32,
        }
    }

    /// The buffer lengths every step kernel relies on.
    fn check_buffers(&self, u_elements: usize) {
        assert_eq!(self.u.len(), u_elements, "U holds the layout");
        assert_eq!(self.u_next.len(), u_elements, "U_next holds the layout");
        assert!(self.local.len() >= M::Locals::<T>::COUNT * self.grid.cells(), "the locals hold every cell");
        assert!(self.grid.cells() < u32::MAX as usize, "32-bit indices");
    }

    /// `naive` and `csw`: `(u, u_next, local, dims, step, coeffs, window, rec)`.
    fn launch_row_major(&mut self, stream: &Arc<CudaStream>, window: ZWindow) -> Result<(), SolverError> {
        self.check_buffers(self.grid.cells());
        let cfg = self.launch_config(window);
        let (dims, step, coeffs, window_arg) =
            (ByValue(self.grid), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let rec = ByValue(self.step_recorder());
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&dims).arg(&step).arg(&coeffs).arg(&window_arg).arg(&rec);
        // SAFETY: the entry point is this model's naive or csw kernel for
        // this precision and grid shape (from the registry), whose
        // parameters are exactly these, in this order; the buffers are
        // distinct allocations of the lengths `check_buffers` verified (U
        // and U_next of the compacted grid, the locals of every cell); the
        // grid has the number of axes the entry point was chosen for and
        // fewer than 2^32 cells; the window lies inside it; grid, block and
        // shared memory come from `KernelConfig`, which implements each
        // kernel's documented launch shape, and `check` accepted this grid;
        // the recorder is off or over maps of this grid's cells.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// `columns`: `(u, u_next, local, dims, step, coeffs, window, rec, z_chunk)`.
    fn launch_columns(&mut self, stream: &Arc<CudaStream>, window: ZWindow) -> Result<(), SolverError> {
        self.check_buffers(self.grid.cells());
        assert!(self.grid.nx.is_multiple_of(4) && self.grid.axes() == 3, "checked by KernelConfig::check");
        let cfg = self.launch_config(window);
        let z_chunk = self.config.effective_z_chunk(window.len());
        let (dims, step, coeffs, window_arg) =
            (ByValue(self.grid), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let rec = ByValue(self.step_recorder());
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&dims).arg(&step).arg(&coeffs).arg(&window_arg).arg(&rec).arg(&z_chunk);
        // SAFETY: as in `launch_row_major`, and: nx is a multiple of 4 and
        // the grid has three axes (asserted); the buffers are separate
        // allocations, so 256-byte aligned, and the locals of variable k
        // start at k * cells, a multiple of 4; z_chunk >= 1 and the grid's
        // z extent is ceil(window / z_chunk) from the same value
        // (`KernelConfig::grid`).
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// `tower`: `(u, u_next, local, layout, step, coeffs, window, rec)`.
    fn launch_tower(
        &mut self,
        stream: &Arc<CudaStream>,
        lay: TowerLayout,
        window: ZWindow,
    ) -> Result<(), SolverError> {
        self.check_buffers(lay.ds_size() as usize);
        let cfg = self.launch_config(window);
        let (layout, step, coeffs, window_arg) =
            (ByValue(lay), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let rec = ByValue(self.step_recorder());
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&layout).arg(&step).arg(&coeffs).arg(&window_arg).arg(&rec);
        // SAFETY: as in `launch_row_major`, with U and U_next in the tower
        // layout `lay` (ds_size elements each, checked) with valid extra
        // lines (packed on upload, kept by the kernel), the grid a whole
        // number of towers with at least 2 cells along every axis (`check`).
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// `tower_march`: `(u, u_next, local, layout, step, coeffs, window, rec, z_chunk)`.
    fn launch_tower_march(
        &mut self,
        stream: &Arc<CudaStream>,
        lay: TowerLayout,
        window: ZWindow,
    ) -> Result<(), SolverError> {
        self.check_buffers(lay.ds_size() as usize);
        let cfg = self.launch_config(window);
        let z_chunk = self.config.effective_z_chunk(window.len());
        assert!(z_chunk >= 1, "a block climbs at least one slice");
        let (layout, step, coeffs, window_arg) =
            (ByValue(lay), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let rec = ByValue(self.step_recorder());
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&layout).arg(&step).arg(&coeffs).arg(&window_arg).arg(&rec).arg(&z_chunk);
        // SAFETY: as in `launch_tower`; z_chunk >= 1 and the grid's z extent
        // is ceil(window / z_chunk) from the same value (`KernelConfig::grid`).
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// Advances the slices of `window` by a pass of `steps` steps from U
    /// (and the locals) into U_next, on `stream`, without the swap: the
    /// blocked kernel's pass, or for the other kernels (`steps` = 1) one
    /// step. The window's pass reads `steps` slices beyond it.
    pub(crate) fn launch_pass_on(
        &mut self,
        stream: &Arc<CudaStream>,
        window: ZWindow,
        steps: u32,
    ) -> Result<(), SolverError> {
        if window.is_empty() {
            return Ok(());
        }
        match self.config.kind {
            KernelKind::Blocked => self.launch_blocked(stream, window, steps),
            _ => {
                assert_eq!(steps, 1, "one step per launch but for the blocked kernel");
                self.launch_window_on(stream, window)
            }
        }
    }

    /// Takes the pass of `steps` steps just launched: the buffers swap.
    pub(crate) fn finish_pass(&mut self, steps: u32) {
        self.swap_buffers();
        self.step_count += steps as u64 - 1;
    }

    /// The step the next launch takes.
    pub(crate) fn step_count(&self) -> u64 {
        self.step_count
    }

    /// Whether a stimulus of the run is due at `step` anywhere in the whole
    /// grid, this buffer's share or not (the sub-domains of a split end
    /// their passes together).
    pub(crate) fn stimulus_due_anywhere(&self, step: u64) -> bool {
        self.events.stimuli.any_active_at(step)
    }

    /// Device addresses of the buffers a pass writes, one per variable: U_next,
    /// then each local variable in the second locals buffer (the blocked
    /// kernel's; the other kernels update the locals in place and have
    /// none, so only U_next).
    pub(crate) fn next_variable_addresses(&self) -> Vec<cudarc::driver::sys::CUdeviceptr> {
        let mut out = vec![self.u_next_address()];
        if let Some(next) = &self.local_next {
            let (base, _sync) = next.device_ptr(&self.stream);
            let bytes = (self.grid.cells() * T::BYTES) as u64;
            out.extend((0..M::Locals::<T>::COUNT as u64).map(|k| base + k * bytes));
        }
        out
    }

    /// Makes the U_next just written the current U: the step is taken.
    pub(crate) fn swap_buffers(&mut self) {
        std::mem::swap(&mut self.u, &mut self.u_next);
        if let Some(next) = self.local_next.as_mut() {
            std::mem::swap(&mut self.local, next);
        }
        self.step_count += 1;
    }

    /// Device address of U_next (where a step writes, and where halo slices
    /// for the next step are delivered).
    pub(crate) fn u_next_address(&self) -> cudarc::driver::sys::CUdeviceptr {
        let (ptr, _sync) = self.u_next.device_ptr(&self.stream);
        ptr
    }

    /// Where z-slice `z` of a U buffer lies: `rows` runs of `width_bytes`,
    /// `pitch_bytes` apart, starting `offset_bytes` in. Row-major: one
    /// contiguous run. Tower layout: one wall per tower, a whole tower
    /// (nz walls) apart, so a slice moves as one 2D (pitched) copy.
    pub(crate) fn slice_geometry(&self, z: u32) -> SliceGeometry {
        let b = T::BYTES;
        match self.layout {
            Layout::RowMajor => {
                let n = self.grid.slice_cells() * b;
                SliceGeometry { offset_bytes: z as usize * n, width_bytes: n, rows: 1, pitch_bytes: n }
            }
            Layout::Towers(lay) => {
                let wall = lay.wall_length() as usize * b;
                SliceGeometry {
                    offset_bytes: z as usize * wall,
                    width_bytes: wall,
                    rows: lay.towers_x() as usize * lay.towers_y() as usize,
                    pitch_bytes: lay.dims.nz as usize * wall,
                }
            }
        }
    }

    /// `src` copied to the host through the pinned staging buffer.
    fn download(&mut self, which: Download, during: &'static str) -> Result<Vec<T>, SolverError> {
        Ok(self.download_staged(which, during)?.to_vec())
    }

    /// `src` copied into the pinned staging buffer, which is returned.
    fn download_staged(&mut self, which: Download, during: &'static str) -> Result<&[T], SolverError> {
        let len = match which {
            Download::U => self.u.len(),
            Download::Locals => self.local.len(),
        };
        if self.staging.as_ref().is_none_or(|s| s.len() < len) {
            self.staging = None;
            let ctx = self.stream.context();
            // SAFETY: the buffer is written by a copy before it is read.
            // Not write-combined: the host reads it.
            let pinned = unsafe { ctx.alloc_pinned_with_flags::<T>(len, 0) }
                .map_err(cuda("allocating pinned memory"))?;
            self.staging = Some(pinned);
        }
        let staging = self.staging.as_mut().expect("allocated above");
        let src = match which {
            Download::U => self.u.device_ptr(&self.stream).0,
            Download::Locals => self.local.device_ptr(&self.stream).0,
        };
        let ptr = staging.as_mut_ptr().map_err(cuda(during))?;
        // SAFETY: the staging holds at least `len` elements and nothing
        // else uses it; `src` holds `len` elements on this stream's device.
        // The copy is waited for below (the context does not track events,
        // so the staging's own event would not be recorded).
        let host = unsafe {
            let dst = std::slice::from_raw_parts_mut(ptr, len);
            cudarc::driver::result::memcpy_dtoh_async(dst, src, self.stream.cu_stream())
                .map_err(cuda(during))?;
            dst
        };
        self.stream.synchronize().map_err(cuda(during))?;
        Ok(host)
    }

    /// U in row-major order, downloaded and unpacked from the device layout.
    fn download_u(&mut self) -> Result<Vec<T>, SolverError> {
        let raw = self.download(Download::U, "downloading U")?;
        Ok(match self.layout {
            Layout::RowMajor => raw,
            Layout::Towers(lay) => tower::unpack(&lay, &raw),
        })
    }
}

impl<M: CellModel, T: Scalar> Solver<T> for GpuSolver<M, T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }

    fn device_name(&self) -> String {
        self.device_name.clone()
    }

    fn method(&self) -> String {
        match (self.replays_graphs(), self.graphs.programmatic()) {
            (true, true) => format!("{} graphs pdl", self.config),
            (true, false) => format!("{} graphs", self.config),
            (false, _) => self.config.to_string(),
        }
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        if self.config.kind == KernelKind::Blocked {
            return self.advance_blocked(steps);
        }
        if self.replays_graphs() {
            return self.advance_with_graphs(steps);
        }
        for _ in 0..steps {
            self.launch_step()?;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.stream.synchronize().map_err(cuda("running the step kernel"))
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        let mut vars = vec![self.download_u()?];
        let cells = self.dims.cells();
        let count = M::Locals::<T>::COUNT;
        if count > 0 {
            let local = self.download(Download::Locals, "downloading the locals")?;
            vars.extend(local.chunks_exact(cells).take(count).map(<[T]>::to_vec));
        }
        Ok(State::from_vecs(M::INFO, self.dims, vars))
    }

    fn state_into(&mut self, dst: &mut State<T>) -> Result<(), SolverError> {
        assert_eq!(dst.dims(), self.dims, "a state of the solver's grid");
        assert_eq!(dst.model().name, M::INFO.name, "a state of the solver's model");
        if let Layout::Towers(_) = self.layout {
            *dst = self.state()?;
            return Ok(());
        }
        let stream = self.stream.clone();
        self.stimulate_on(&stream)?;
        let cells = self.dims.cells();
        dst.slice_mut(0).copy_from_slice(&self.download_staged(Download::U, "downloading U")?[..cells]);
        let count = M::Locals::<T>::COUNT;
        if count > 0 {
            let local = self.download_staged(Download::Locals, "downloading the locals")?;
            for k in 0..count {
                dst.slice_mut(k + 1).copy_from_slice(&local[k * cells..(k + 1) * cells]);
            }
        }
        Ok(())
    }

    fn set_state(&mut self, state: &State<T>) -> Result<(), SolverError> {
        assert_eq!(state.dims(), self.dims, "state matches the solver's grid");
        assert_eq!(state.model().name, M::INFO.name, "state of the solver's model");
        match self.layout {
            Layout::RowMajor => self.stream.memcpy_htod(state.slice(0), &mut self.u),
            Layout::Towers(lay) => self.stream.memcpy_htod(&tower::pack(&lay, state.slice(0)), &mut self.u),
        }
        .map_err(cuda("uploading U"))?;
        if state.len() > 1 {
            let local: Vec<T> = (1..state.len()).flat_map(|k| state.slice(k).iter().copied()).collect();
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
        self.set_local_events(events, start, SlicePlacement::whole(self.dims.nz), maps)
    }

    fn maps(&mut self) -> Result<Option<Maps>, SolverError> {
        self.local_maps()
    }

    fn ecg(&mut self, probes: &[EcgProbe]) -> Result<Vec<f64>, SolverError> {
        let sums = self.ecg_sums(probes, ZWindow::all(self.dims.nz), 0, false)?;
        let scale = probes.first().map_or(0.0, |p| ecg_scale(p.dx, self.dims.axes()));
        Ok(sums.into_iter().map(|s| s * scale).collect())
    }

    fn phase_singularities(
        &mut self,
        v_star: f64,
        memory: &mut PhaseMemory,
    ) -> Result<Option<Vec<ChargedPlaquette>>, SolverError> {
        match self.layout {
            Layout::RowMajor => self.phase_plaquettes(v_star),
            // Towers: from the state on the host, as the trait's default.
            Layout::Towers(_) => {
                let state = self.state()?;
                Ok(memory.sample(state.slice(0), self.dims, v_star))
            }
        }
    }

    fn phase_memory(&mut self, memory: &PhaseMemory) -> Result<Option<Vec<f64>>, SolverError> {
        match (&self.layout, &self.phase) {
            (Layout::RowMajor, Some(phase)) => {
                let field =
                    self.stream.clone_dtoh(&phase.previous).map_err(cuda("downloading V(t - tau)"))?;
                Ok(Some(field.into_iter().map(|v| v.to_f64()).collect()))
            }
            (Layout::RowMajor, None) => Ok(None),
            (Layout::Towers(_), _) => Ok(memory.previous().map(<[f64]>::to_vec)),
        }
    }

    fn restore_phase_memory(&mut self, field: &[f64], memory: &mut PhaseMemory) -> Result<(), SolverError> {
        match self.layout {
            Layout::RowMajor => {
                assert_eq!(field.len(), self.dims.cells(), "a field of the whole grid");
                let values: Vec<T> = field.iter().map(|&v| T::from_f64(v)).collect();
                let previous = self.stream.clone_htod(&values).map_err(cuda("uploading V(t - tau)"))?;
                self.phase = Some(self.phase_buffers(previous)?);
            }
            Layout::Towers(_) => memory.restore(field.to_vec()),
        }
        Ok(())
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        // Tower buffers are checked whole: the extra lines copy core cells.
        self.nonfinite.check_now(&self.u)
    }

    fn begin_nonfinite_check(&mut self) -> Result<NonfiniteCheck, SolverError> {
        self.nonfinite.begin_check(&self.u, self.maps.is_some())
    }

    fn end_nonfinite_check(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        self.nonfinite.answer(check)
    }
}
