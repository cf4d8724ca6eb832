//! The solver's state on the device: its buffers, kernels and events, how
//! it is built (configuration and memory checked, kernels loaded, the
//! initial state uploaded), the buffers' roles after a step, and the
//! downloads of the state.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, DevicePtr, PinnedHostSlice};
use kernels_gpu::events::{SlicePlacement, StimulusArgs};
use kernels_gpu::registry::Kernel;
use kernels_gpu::{CellModel, GridDims, Locals, StepCoeffs, TowerLayout};

use crate::backend::gpu::cuda::{cuda, entry_name, load_kernel};
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::graph::StepGraphs;
use crate::backend::gpu::maps::MapsOnDevice;
use crate::backend::gpu::nonfinite::NonfiniteFlags;
use crate::backend::gpu::tables::device_coeffs;
use crate::domain::Domain;
use crate::events::EventClock;
use crate::kernel_config::{KernelConfig, KernelKind, SHARED_WITHOUT_OPT_IN};
use crate::layout::tower;
use crate::scalar::Scalar;
use crate::solver::{Solver, SolverError};
use crate::state::State;

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
pub(super) enum Layout {
    RowMajor,
    Towers(TowerLayout),
}

/// U double-buffered in the kernel's layout, the model's local variables
/// row-major (variable after variable), on one GPU.
pub struct GpuSolver<M: CellModel, T: Scalar> {
    /// The graphs captured so far. Declared first so that they are
    /// destroyed before the module and the buffers their kernels name.
    pub(super) graphs: StepGraphs,
    /// Whether quiet stretches of steps are replayed as CUDA graphs
    /// (`--no-graphs` turns it off).
    pub(super) use_graphs: bool,
    /// Whether the module's step kernels wait for their prerequisite grids
    /// (sm_90 and later: `crate::backend::gpu::ptx`), so that the graphs may join them by
    /// programmatic edges.
    pub(super) programmatic: bool,
    pub(super) stream: Arc<CudaStream>,
    pub(super) device_name: String,
    pub(super) config: KernelConfig,
    pub(super) layout: Layout,
    pub(super) step_fn: CudaFunction,
    /// The grid as given (the state's shape).
    pub(super) dims: GridDims,
    /// The grid the kernels step: `dims` compacted.
    pub(super) grid: GridDims,
    pub(super) step: StepCoeffs<T>,
    pub(super) coeffs: M::Coeffs<T>,
    /// The device copy of the rate table `coeffs` point at (`--rate-tables`).
    pub(super) _rate_table: Option<CudaSlice<T>>,
    pub(super) u: CudaSlice<T>,
    pub(super) u_next: CudaSlice<T>,
    /// Local variable k of cell i at `k * cells + i` (one unused element
    /// for models without locals: the driver allocates nothing smaller).
    pub(super) local: CudaSlice<T>,
    /// The locals a pass of `blocked` writes (it reads `local`; other
    /// kernels update the locals in place and have none).
    pub(super) local_next: Option<CudaSlice<T>>,
    /// The NaN check's flags (`crate::backend::gpu::nonfinite`).
    pub(super) nonfinite: NonfiniteFlags,
    pub(super) stimulate_fn: CudaFunction,
    /// `halo_copy_<t>`: a split run's halo runs to a neighbouring GPU.
    pub(super) halo_copy_fn: CudaFunction,
    pub(super) ecg_fn: CudaFunction,
    /// Page-locked staging of downloads (allocated on first use): a copy
    /// into pageable memory runs at a fraction of the link's speed.
    pub(super) staging: Option<PinnedHostSlice<T>>,
    /// One f64 per block of the pseudo-ECG's reduction (allocated on first use).
    pub(super) ecg_partials: Option<CudaSlice<f64>>,
    pub(super) phase_fn: CudaFunction,
    /// V at the previous phase-singularity sample and the kernel's list
    /// (allocated at the first sample).
    pub(super) phase: Option<PhaseBuffers<T>>,
    /// The run's events, the steps taken, counted from the run's start
    /// (they set stimuli and times), and whether that step's stimuli are
    /// in U.
    pub(super) clock: EventClock,
    /// Where this buffer's slices lie in the whole grid.
    pub(super) place: SlicePlacement,
    /// Each stimulus's arguments and its box in this buffer, if it touches it.
    pub(super) stimuli: Vec<Option<StimulusLaunch<T>>>,
    /// The maps of this buffer's cells and the recorder the kernels stamp
    /// them through (its time set per step).
    pub(super) maps: MapsOnDevice<T>,
    pub(super) model: PhantomData<M>,
}

/// The buffers a state download reads.
#[derive(Clone, Copy)]
pub(super) enum Download {
    U,
    Locals,
}

/// A stimulus ready to launch on one buffer.
pub(super) struct StimulusLaunch<T> {
    pub(super) args: StimulusArgs<T>,
    pub(super) origin: GridDims,
    pub(super) extent: GridDims,
    /// A mask region's bits for this buffer (`args.mask` points at them).
    pub(super) _mask: Option<CudaSlice<u32>>,
}

/// What the phase-singularity kernel reads and writes between samples.
pub(super) struct PhaseBuffers<T> {
    /// V at the previous sample, row-major.
    pub(super) previous: CudaSlice<T>,
    /// (s, t) per charged plaquette.
    pub(super) position: CudaSlice<f64>,
    /// (normal, x, y, z, charge) per charged plaquette.
    pub(super) ids: CudaSlice<u32>,
    pub(super) count: CudaSlice<u32>,
    /// Records the lists hold.
    pub(super) capacity: u32,
}

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
        let entry = |kernel| entry_name::<T>("", kernel);
        let (flag_name, stimulate_name) = (entry(Kernel::FlagNonfinite)?, entry(Kernel::Stimulate)?);
        let (ecg_name, phase_name) = (entry(Kernel::EcgPartial)?, entry(Kernel::PhasePlaquettes)?);
        let halo_name = entry(Kernel::HaloCopy)?;
        let names = [step_name, flag_name, stimulate_name, ecg_name, phase_name, halo_name];
        let (module, programmatic) = device.load_kernels(ptx, &names)?;
        let stream = device.stream.clone();
        let u_elements = config.u_elements(dims)? as usize;
        let shared_limit = if config.kind == KernelKind::Blocked {
            let optin = cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN;
            device.ctx.attribute(optin).map_err(cuda("reading the shared memory per block"))? as u64
        } else {
            SHARED_WITHOUT_OPT_IN
        };
        config.check_shared_memory(T::PRECISION, shared_limit)?;
        let device_coeffs = device_coeffs::<M, T>(domain, &stream)?;
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
            halo_copy_fn: load_kernel(&module, halo_name)?,
            phase: None,
            staging: None,
            clock: EventClock::new(domain.dt_ms()),
            place: SlicePlacement::whole(dims.nz),
            stimuli: Vec::new(),
            maps: MapsOnDevice::off(),
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

    pub fn config(&self) -> KernelConfig {
        self.config
    }

    /// `halo_copy_<t>` of this solver's precision, loaded in its context.
    pub(crate) fn halo_copy_fn(&self) -> &CudaFunction {
        &self.halo_copy_fn
    }

    /// The step the next launch takes.
    pub(crate) fn step_count(&self) -> u64 {
        self.clock.step
    }

    /// Whether a stimulus of the run is due at `step` anywhere in the whole
    /// grid, this buffer's share or not (the sub-domains of a split end
    /// their passes together).
    pub(crate) fn stimulus_due_anywhere(&self, step: u64) -> bool {
        self.clock.events.stimuli.any_active_at(step)
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
        self.clock.step += 1;
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
    pub(super) fn download(&mut self, which: Download, during: &'static str) -> Result<Vec<T>, SolverError> {
        Ok(self.download_staged(which, during)?.to_vec())
    }

    /// `src` copied into the pinned staging buffer, which is returned.
    pub(super) fn download_staged(
        &mut self,
        which: Download,
        during: &'static str,
    ) -> Result<&[T], SolverError> {
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
    pub(super) fn download_u(&mut self) -> Result<Vec<T>, SolverError> {
        let raw = self.download(Download::U, "downloading U")?;
        Ok(match self.layout {
            Layout::RowMajor => raw,
            Layout::Towers(lay) => tower::unpack(&lay, &raw),
        })
    }
}
