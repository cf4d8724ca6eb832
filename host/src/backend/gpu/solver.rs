//! A simulation resident on one GPU.

use std::sync::Arc;

use cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DeviceRepr, DriverError, LaunchConfig,
    PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use kernels_gpu::{FLAT_BLOCK, GridDims, KarmaCoeffs, TowerLayout, ZWindow};

use super::device::GpuDevice;
use super::kernel::{KernelConfig, KernelKind};
use crate::backend::{BackendKind, Solver, SolverError};
use crate::domain::Domain;
use crate::fields::Fields;
use crate::layout::tower;
use crate::scalar::Scalar;

/// Passes a `#[repr(C)]` struct of `kernels-gpu` by value as a kernel
/// parameter (cudarc's `DeviceRepr` cannot be implemented on the foreign
/// type directly).
#[repr(transparent)]
#[derive(Clone, Copy)]
struct ByValue<P>(P);

// SAFETY: only instantiated with `GridDims`, `TowerLayout`, `ZWindow` and
// `KarmaCoeffs<T>`, plain `#[repr(C)]` structs of numbers whose kernel-side
// declaration is the same Rust type, so host and device agree on size,
// alignment and field order.
unsafe impl<P: Copy> DeviceRepr for ByValue<P> {}

fn cuda(during: &'static str) -> impl FnOnce(DriverError) -> SolverError {
    move |source| SolverError::Cuda { during, source }
}

fn load_kernel(module: &Arc<CudaModule>, name: String) -> Result<CudaFunction, SolverError> {
    module.load_function(&name).map_err(|_| SolverError::MissingKernel { name })
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

/// U double-buffered in the kernel's layout, v row-major, on one GPU.
pub struct GpuSolver<T> {
    stream: Arc<CudaStream>,
    device_name: String,
    config: KernelConfig,
    layout: Layout,
    step_fn: CudaFunction,
    flag_fn: CudaFunction,
    dims: GridDims,
    coeffs: KarmaCoeffs<T>,
    u: CudaSlice<T>,
    u_next: CudaSlice<T>,
    v: CudaSlice<T>,
    flag: CudaSlice<u32>,
}

impl<T: Scalar> GpuSolver<T> {
    /// Checks the configuration and memory, loads `ptx`, uploads `initial`.
    pub fn new(
        device: &GpuDevice,
        ptx: &str,
        config: KernelConfig,
        domain: &Domain,
        initial: &Fields<T>,
    ) -> Result<Self, SolverError> {
        assert_eq!(initial.dims(), domain.dims(), "initial fields match the domain");
        let dims = domain.dims();
        config.check(dims)?;
        device.check_fits(config.device_bytes(dims, T::PRECISION)?)?;
        let layout = match config.tower_layout(dims)? {
            Some(lay) => Layout::Towers(lay),
            None => Layout::RowMajor,
        };
        let module = device.ctx.load_module(Ptx::from_src(ptx)).map_err(cuda("loading the kernels"))?;
        let step_fn = load_kernel(&module, config.kind.entry_point(T::PRECISION))?;
        let flag_fn = load_kernel(&module, format!("flag_nonfinite_{}", T::PRECISION.suffix()))?;
        let stream = device.stream.clone();
        let u_elements = config.u_elements(dims)? as usize;
        let mut solver = Self {
            u: stream.alloc_zeros::<T>(u_elements).map_err(cuda("allocating U"))?,
            u_next: stream.alloc_zeros::<T>(u_elements).map_err(cuda("allocating U_next"))?,
            v: stream.alloc_zeros::<T>(dims.cells()).map_err(cuda("allocating v"))?,
            flag: stream.alloc_zeros::<u32>(1).map_err(cuda("allocating the NaN flag"))?,
            stream,
            device_name: device.info().name.clone(),
            config,
            layout,
            step_fn,
            flag_fn,
            dims,
            coeffs: domain.coeffs(),
        };
        solver.set_fields(initial)?;
        Ok(solver)
    }

    pub fn config(&self) -> KernelConfig {
        self.config
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        self.launch_window(ZWindow::all(self.dims.nz))?;
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
        let mut covered = vec![false; self.dims.nz as usize];
        for w in windows {
            for z in w.begin..w.end {
                assert!(!std::mem::replace(&mut covered[z as usize], true), "slice {z} in two windows");
            }
        }
        assert!(covered.iter().all(|c| *c), "windows leave slices out");
        for w in windows {
            self.launch_window(*w)?;
        }
        std::mem::swap(&mut self.u, &mut self.u_next);
        Ok(())
    }

    /// Advances the slices of `window` from U into U_next (no swap).
    fn launch_window(&mut self, window: ZWindow) -> Result<(), SolverError> {
        let stream = self.stream.clone();
        self.launch_window_on(&stream, window)
    }

    /// As [`Self::launch_window`], on `stream` (a stream of this solver's
    /// device; the caller orders it against the others with events).
    pub(crate) fn launch_window_on(
        &mut self,
        stream: &Arc<CudaStream>,
        window: ZWindow,
    ) -> Result<(), SolverError> {
        if window.is_empty() {
            return Ok(());
        }
        let cfg = LaunchConfig {
            grid_dim: self.config.grid(self.dims, window),
            block_dim: (self.config.block.x, self.config.block.y, 1),
            shared_mem_bytes: self.config.shared_elems() * T::BYTES as u32,
        };
        let coeffs = ByValue(self.coeffs);
        let mut launch = stream.launch_builder(&self.step_fn);
        launch.arg(&self.u).arg(&mut self.v).arg(&mut self.u_next);
        let (dims, layout) = (ByValue(self.dims), self.layout);
        let tower_layout;
        match layout {
            Layout::RowMajor => launch.arg(&dims),
            Layout::Towers(lay) => {
                tower_layout = ByValue(lay);
                launch.arg(&tower_layout)
            }
        };
        launch.arg(&coeffs);
        let window_arg = ByValue(window);
        launch.arg(&window_arg);
        let z_chunk = self.config.effective_z_chunk(window.len());
        if self.config.kind == KernelKind::TowerMarch {
            launch.arg(&z_chunk);
        }
        // SAFETY: every step kernel takes (u: *const T, v: *mut T,
        // u_next: *mut T, GridDims or TowerLayout, KarmaCoeffs<T>, ZWindow) in
        // this order, tower-march also z_chunk: u32 >= 1 (its grid is sized
        // from the same value); the window is non-empty and inside 0..nz; the layout argument matches the kernel (KernelKind::uses_towers
        // decides both); u and u_next hold u_elements values of that layout and
        // are distinct allocations, v holds dims.cells(); the grid, block and
        // shared memory come from KernelConfig, which implements each kernel's
        // documented launch shape, and `check` accepted this grid.
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
                let n = self.dims.slice_cells() * b;
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

impl<T: Scalar> Solver<T> for GpuSolver<T> {
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

    fn fields(&mut self) -> Result<Fields<T>, SolverError> {
        let u = self.download_u()?;
        let v = self.stream.clone_dtoh(&self.v).map_err(cuda("downloading v"))?;
        Ok(Fields::from_vecs(self.dims, u, v))
    }

    fn set_fields(&mut self, fields: &Fields<T>) -> Result<(), SolverError> {
        assert_eq!(fields.dims(), self.dims, "fields match the solver's grid");
        match self.layout {
            Layout::RowMajor => self.stream.memcpy_htod(fields.u_slice(), &mut self.u),
            Layout::Towers(lay) => self.stream.memcpy_htod(&tower::pack(&lay, fields.u_slice()), &mut self.u),
        }
        .map_err(cuda("uploading U"))?;
        self.stream.memcpy_htod(fields.v_slice(), &mut self.v).map_err(cuda("uploading v"))?;
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
