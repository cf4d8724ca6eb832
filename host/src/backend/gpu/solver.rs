//! A simulation resident on one GPU.

use std::marker::PhantomData;
use std::sync::Arc;

use cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DeviceRepr, DriverError, LaunchConfig,
    PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use kernels_gpu::registry::{self, Kernel};
use kernels_gpu::{CellModel, FLAT_BLOCK, GridDims, Locals, StepCoeffs, TowerLayout, ZWindow};

use super::device::GpuDevice;
use super::kernel::{KernelConfig, KernelKind};
use crate::domain::Domain;
use crate::layout::tower;
use crate::scalar::Scalar;
use crate::solver::{BackendKind, Solver, SolverError};
use crate::state::State;

/// Passes a `#[repr(C)]` struct of `kernels-gpu` by value as a kernel
/// parameter (cudarc's `DeviceRepr` cannot be implemented on the foreign
/// type directly).
#[repr(transparent)]
#[derive(Clone, Copy)]
struct ByValue<P>(P);

// SAFETY: only instantiated with `GridDims`, `TowerLayout`, `ZWindow`,
// `StepCoeffs<T>` and a model's `Coeffs<T>`, plain `#[repr(C)]` structs of
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
    stream: Arc<CudaStream>,
    device_name: String,
    config: KernelConfig,
    layout: Layout,
    step_fn: CudaFunction,
    flag_fn: CudaFunction,
    /// The grid as given (the state's shape).
    dims: GridDims,
    /// The grid the kernels step: `dims` compacted.
    grid: GridDims,
    step: StepCoeffs<T>,
    coeffs: M::Coeffs<T>,
    u: CudaSlice<T>,
    u_next: CudaSlice<T>,
    /// Local variable k of cell i at `k * cells + i` (one unused element
    /// for models without locals: the driver allocates nothing smaller).
    local: CudaSlice<T>,
    flag: CudaSlice<u32>,
    model: PhantomData<M>,
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
        let flag_name = registry::entry_point("", Kernel::FlagNonfinite, T::NAME)
            .expect("the registry lists the NaN check")
            .name;
        let module = device.ctx.load_module(Ptx::from_src(ptx)).map_err(cuda("loading the kernels"))?;
        let stream = device.stream.clone();
        let u_elements = config.u_elements(dims)? as usize;
        let mut solver = Self {
            u: stream.alloc_zeros::<T>(u_elements).map_err(cuda("allocating U"))?,
            u_next: stream.alloc_zeros::<T>(u_elements).map_err(cuda("allocating U_next"))?,
            local: stream
                .alloc_zeros::<T>((locals * dims.cells()).max(1))
                .map_err(cuda("allocating the locals"))?,
            flag: stream.alloc_zeros::<u32>(1).map_err(cuda("allocating the NaN flag"))?,
            step_fn: load_kernel(&module, step_name)?,
            flag_fn: load_kernel(&module, flag_name)?,
            stream,
            device_name: device.info().name.clone(),
            config,
            layout,
            dims,
            grid,
            step: domain.step_coeffs(),
            coeffs: domain.model_coeffs::<M, T>(),
            model: PhantomData,
        };
        solver.set_state(initial)?;
        Ok(solver)
    }

    pub fn config(&self) -> KernelConfig {
        self.config
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        let stream = self.stream.clone();
        self.launch_window_on(&stream, ZWindow::all(self.grid.nz))?;
        std::mem::swap(&mut self.u, &mut self.u_next);
        Ok(())
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
        for w in windows {
            self.launch_window_on(&stream, *w)?;
        }
        std::mem::swap(&mut self.u, &mut self.u_next);
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
            _ => unreachable!("the layout follows the kernel (KernelKind::uses_towers)"),
        }
    }

    fn launch_config(&self, window: ZWindow) -> LaunchConfig {
        LaunchConfig {
            grid_dim: self.config.grid(self.grid, window),
            block_dim: self.config.block_dim(self.grid.axes()),
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

    /// `naive` and `csw`: `(u, u_next, local, dims, step, coeffs, window)`.
    fn launch_row_major(&mut self, stream: &Arc<CudaStream>, window: ZWindow) -> Result<(), SolverError> {
        self.check_buffers(self.grid.cells());
        let cfg = self.launch_config(window);
        let (dims, step, coeffs, window_arg) =
            (ByValue(self.grid), ByValue(self.step), ByValue(self.coeffs), ByValue(window));
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&dims).arg(&step).arg(&coeffs).arg(&window_arg);
        // SAFETY: the entry point is this model's naive or csw kernel for
        // this precision and grid shape (from the registry), whose
        // parameters are exactly these, in this order; the buffers are
        // distinct allocations of the lengths `check_buffers` verified (U
        // and U_next of the compacted grid, the locals of every cell); the
        // grid has the number of axes the entry point was chosen for and
        // fewer than 2^32 cells; the window lies inside it; grid, block and
        // shared memory come from `KernelConfig`, which implements each
        // kernel's documented launch shape, and `check` accepted this grid.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// `tower`: `(u, u_next, local, layout, step, coeffs, window)`.
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
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&layout).arg(&step).arg(&coeffs).arg(&window_arg);
        // SAFETY: as in `launch_row_major`, with U and U_next in the tower
        // layout `lay` (ds_size elements each, checked) with valid extra
        // lines (packed on upload, kept by the kernel), the grid a whole
        // number of towers with at least 2 cells along every axis (`check`).
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// `tower_march`: `(u, u_next, local, layout, step, coeffs, window, z_chunk)`.
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
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.u_next).arg(&mut self.local);
        launch.arg(&layout).arg(&step).arg(&coeffs).arg(&window_arg).arg(&z_chunk);
        // SAFETY: as in `launch_tower`; z_chunk >= 1 and the grid's z extent
        // is ceil(window / z_chunk) from the same value (`KernelConfig::grid`).
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        Ok(())
    }

    /// Makes the U_next just written the current U.
    pub(crate) fn swap_buffers(&mut self) {
        std::mem::swap(&mut self.u, &mut self.u_next);
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

    /// U in row-major order, downloaded and unpacked from the device layout.
    fn download_u(&mut self) -> Result<Vec<T>, SolverError> {
        let raw = self.stream.clone_dtoh(&self.u).map_err(cuda("downloading U"))?;
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
        self.config.to_string()
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.launch_step()?;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.stream.synchronize().map_err(cuda("running the step kernel"))
    }

    fn state(&mut self) -> Result<State<T>, SolverError> {
        let mut vars = vec![self.download_u()?];
        let cells = self.dims.cells();
        let count = M::Locals::<T>::COUNT;
        if count > 0 {
            let local = self.stream.clone_dtoh(&self.local).map_err(cuda("downloading the locals"))?;
            vars.extend(local.chunks_exact(cells).take(count).map(<[T]>::to_vec));
        }
        Ok(State::from_vecs(M::INFO, self.dims, vars))
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

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.stream.memset_zeros(&mut self.flag).map_err(cuda("clearing the NaN flag"))?;
        // Tower buffers are checked whole: the extra lines copy core cells.
        let n = self.u.len() as u64;
        let blocks = (n.div_ceil(FLAT_BLOCK as u64)).min(4096) as u32;
        let cfg =
            LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
        let mut launch = self.stream.launch_builder(&self.flag_fn);
        launch.arg(&self.u).arg(&n).arg(&mut self.flag);
        // SAFETY: flag_nonfinite_* takes (values: *const T, n: u64, flag: *mut u32);
        // `u` holds n values and `flag` one u32; any 1D grid is valid.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the NaN check"))?;
        let flag = self.stream.clone_dtoh(&self.flag).map_err(cuda("reading the NaN flag"))?;
        Ok(flag[0] != 0)
    }
}
