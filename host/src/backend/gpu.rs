//! The GPU backend: fibril's Rust kernels (PTX from `build.rs`) driven
//! through cudarc, with libcuda loaded at run time so fibril still builds
//! and runs on machines without CUDA.

use std::sync::Arc;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DeviceRepr, DriverError,
    LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use kernels_gpu::{FLAT_BLOCK, GridDims, KarmaCoeffs, NAIVE_BLOCK};
use serde::Serialize;
use thiserror::Error;

use super::{BackendKind, Solver, SolverError};
use crate::domain::Domain;
use crate::fields::Fields;
use crate::memory::{format_bytes, gpu_naive_bytes};
use crate::scalar::Scalar;

/// Which kernel advances the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KernelKind {
    /// One thread per cell on the row-major grid (the baseline).
    Naive,
}

impl KernelKind {
    pub const fn name(self) -> &'static str {
        match self {
            KernelKind::Naive => "naive",
        }
    }

    /// Device bytes this kernel's layout needs for `cells` cells.
    pub fn device_bytes(self, cells: usize, precision: crate::Precision) -> u64 {
        match self {
            KernelKind::Naive => gpu_naive_bytes(cells, precision),
        }
    }
}

/// Why no GPU can be used. Each message says what was found.
#[derive(Debug, Error)]
pub enum GpuUnavailable {
    #[error("the CUDA driver library (libcuda.so) was not found; install the NVIDIA driver")]
    NoDriver,
    #[error("the CUDA driver failed to initialise: {0}")]
    Init(DriverError),
    #[error("the CUDA driver reports no GPU")]
    NoDevice,
    #[error("GPU {ordinal} does not exist: the driver reports {count} device(s)")]
    NoSuchDevice { ordinal: usize, count: usize },
    #[error("could not open GPU {ordinal}: {source}")]
    Context { ordinal: usize, source: DriverError },
}

/// Description of one CUDA device.
#[derive(Clone, Debug, Serialize)]
pub struct DeviceInfo {
    pub ordinal: usize,
    pub name: String,
    pub total_bytes: u64,
    pub free_bytes: u64,
    pub compute_capability: (i32, i32),
    /// CUDA driver API version, e.g. 13000 for 13.0.
    pub driver_version: i32,
}

/// An opened GPU: its context, one stream and what it reports about itself.
pub struct GpuDevice {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    info: DeviceInfo,
}

/// Number of CUDA devices, or why there are none usable.
pub fn device_count() -> Result<usize, GpuUnavailable> {
    // SAFETY: only tries to dlopen the driver library by name.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(GpuUnavailable::NoDriver);
    }
    let count = CudaContext::device_count().map_err(GpuUnavailable::Init)?;
    if count <= 0 {
        return Err(GpuUnavailable::NoDevice);
    }
    Ok(count as usize)
}

fn driver_version() -> i32 {
    let mut version = 0;
    // SAFETY: the driver library is loaded (device_count checked it); the
    // call writes one int.
    unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
    version
}

impl GpuDevice {
    /// Opens device `ordinal` (its primary context and default stream).
    pub fn open(ordinal: usize) -> Result<Self, GpuUnavailable> {
        let count = device_count()?;
        if ordinal >= count {
            return Err(GpuUnavailable::NoSuchDevice { ordinal, count });
        }
        let context = |source| GpuUnavailable::Context { ordinal, source };
        let ctx = CudaContext::new(ordinal).map_err(context)?;
        // One stream per device, ordered by hand: cudarc's per-buffer event
        // tracking would record an event for every argument of every launch.
        // SAFETY: every buffer of this device is used on `stream` only.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let (free, total) = ctx.mem_get_info().map_err(context)?;
        let info = DeviceInfo {
            ordinal,
            name: ctx.name().map_err(context)?,
            total_bytes: total as u64,
            free_bytes: free as u64,
            compute_capability: ctx.compute_capability().map_err(context)?,
            driver_version: driver_version(),
        };
        Ok(Self { ctx, stream, info })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Refuses a run whose buffers would not fit in the free device memory.
    pub fn check_fits(&self, needed_bytes: u64) -> Result<(), SolverError> {
        // Leave room for the context, the module and the driver's own needs.
        const RESERVE: u64 = 256 << 20;
        if needed_bytes + RESERVE > self.info.free_bytes {
            return Err(SolverError::DeviceMemory {
                device: self.info.name.clone(),
                needed: format_bytes(needed_bytes),
                free: format_bytes(self.info.free_bytes),
            });
        }
        Ok(())
    }
}

/// Passes a `#[repr(C)]` struct of `kernels-gpu` by value as a kernel
/// parameter (cudarc's `DeviceRepr` cannot be implemented on the foreign
/// type directly).
#[repr(transparent)]
#[derive(Clone, Copy)]
struct ByValue<P>(P);

// SAFETY: only instantiated with `GridDims` and `KarmaCoeffs<T>`, plain
// `#[repr(C)]` structs of numbers whose kernel-side declaration is the same
// Rust type, so host and device agree on size, alignment and field order.
unsafe impl<P: Copy> DeviceRepr for ByValue<P> {}

fn cuda(during: &'static str) -> impl FnOnce(DriverError) -> SolverError {
    move |source| SolverError::Cuda { during, source }
}

fn load_kernel(module: &Arc<CudaModule>, name: String) -> Result<CudaFunction, SolverError> {
    module
        .load_function(&name)
        .map_err(|_| SolverError::MissingKernel { name })
}

/// A simulation resident on one GPU.
pub struct GpuSolver<T> {
    stream: Arc<CudaStream>,
    device_name: String,
    kernel: KernelKind,
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
    /// Loads `ptx`, checks the memory, uploads `initial`.
    pub fn new(
        device: &GpuDevice,
        ptx: &str,
        kernel: KernelKind,
        domain: &Domain,
        initial: &Fields<T>,
    ) -> Result<Self, SolverError> {
        assert_eq!(
            initial.dims(),
            domain.dims(),
            "initial fields match the domain"
        );
        let dims = domain.dims();
        if dims.nz > 65_535 {
            return Err(SolverError::LaunchShape {
                nx: dims.nx,
                ny: dims.ny,
                nz: dims.nz,
                why: "nz is at most 65535 (one block row per z-slice)",
            });
        }
        device.check_fits(kernel.device_bytes(domain.cells(), T::PRECISION))?;
        let module = device
            .ctx
            .load_module(Ptx::from_src(ptx))
            .map_err(cuda("loading the kernels"))?;
        let suffix = T::PRECISION.suffix();
        let step_fn = load_kernel(&module, format!("karma_{}_{suffix}", kernel.name()))?;
        let flag_fn = load_kernel(&module, format!("flag_nonfinite_{suffix}"))?;
        let stream = device.stream.clone();
        let u = stream
            .clone_htod(initial.u_slice())
            .map_err(cuda("uploading U"))?;
        let v = stream
            .clone_htod(initial.v_slice())
            .map_err(cuda("uploading v"))?;
        let u_next = stream
            .alloc_zeros::<T>(domain.cells())
            .map_err(cuda("allocating U_next"))?;
        let flag = stream
            .alloc_zeros::<u32>(1)
            .map_err(cuda("allocating the NaN flag"))?;
        Ok(Self {
            stream,
            device_name: device.info.name.clone(),
            kernel,
            step_fn,
            flag_fn,
            dims,
            coeffs: domain.coeffs(),
            u,
            u_next,
            v,
            flag,
        })
    }

    fn launch_step(&mut self) -> Result<(), SolverError> {
        let g = self.dims;
        let (bx, by) = NAIVE_BLOCK;
        let cfg = LaunchConfig {
            grid_dim: (g.nx.div_ceil(bx), g.ny.div_ceil(by), g.nz),
            block_dim: (bx, by, 1),
            shared_mem_bytes: 0,
        };
        let dims = ByValue(g);
        let coeffs = ByValue(self.coeffs);
        let mut launch = self.stream.launch_builder(&self.step_fn);
        launch
            .arg(&self.u)
            .arg(&mut self.v)
            .arg(&mut self.u_next)
            .arg(&dims)
            .arg(&coeffs);
        // SAFETY: karma_naive_* takes (u: *const T, v: *mut T, u_next: *mut T,
        // GridDims, KarmaCoeffs<T>) in this order; the three buffers hold
        // dims.cells() values (allocated in `new`), u and u_next are distinct
        // allocations, and the grid covers nx x ny x nz as the kernel expects.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the step kernel"))?;
        std::mem::swap(&mut self.u, &mut self.u_next);
        Ok(())
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
        self.kernel.name().into()
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.launch_step()?;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.stream
            .synchronize()
            .map_err(cuda("running the step kernel"))
    }

    fn fields(&mut self) -> Result<Fields<T>, SolverError> {
        let u = self
            .stream
            .clone_dtoh(&self.u)
            .map_err(cuda("downloading U"))?;
        let v = self
            .stream
            .clone_dtoh(&self.v)
            .map_err(cuda("downloading v"))?;
        Ok(Fields::from_vecs(self.dims, u, v))
    }

    fn set_fields(&mut self, fields: &Fields<T>) -> Result<(), SolverError> {
        assert_eq!(fields.dims(), self.dims, "fields match the solver's grid");
        self.stream
            .memcpy_htod(fields.u_slice(), &mut self.u)
            .map_err(cuda("uploading U"))?;
        self.stream
            .memcpy_htod(fields.v_slice(), &mut self.v)
            .map_err(cuda("uploading v"))?;
        Ok(())
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.stream
            .memset_zeros(&mut self.flag)
            .map_err(cuda("clearing the NaN flag"))?;
        let n = self.dims.cells() as u64;
        let blocks = (n.div_ceil(FLAT_BLOCK as u64)).min(4096) as u32;
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (FLAT_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut launch = self.stream.launch_builder(&self.flag_fn);
        launch.arg(&self.u).arg(&n).arg(&mut self.flag);
        // SAFETY: flag_nonfinite_* takes (values: *const T, n: u64, flag: *mut u32);
        // `u` holds n values and `flag` one u32; any 1D grid is valid.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the NaN check"))?;
        let flag = self
            .stream
            .clone_dtoh(&self.flag)
            .map_err(cuda("reading the NaN flag"))?;
        Ok(flag[0] != 0)
    }
}
