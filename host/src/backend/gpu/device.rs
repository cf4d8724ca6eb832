//! Finding and opening a CUDA device.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaModule, CudaStream, DriverError};
use cudarc::nvrtc::Ptx;
use serde::Serialize;
use thiserror::Error;

use crate::memory::format_bytes;
use crate::solver::SolverError;

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
    /// The device's SM count (132 on an H100 SXM and an H200): a launch
    /// runs this many times the blocks one SM holds at once.
    pub multiprocessors: u32,
    /// CUDA driver API version, e.g. 13000 for 13.0.
    pub driver_version: i32,
}

/// An opened GPU: its context, one stream and what it reports about itself
/// (clones share the context and the stream).
#[derive(Clone)]
pub struct GpuDevice {
    pub(super) ctx: Arc<CudaContext>,
    pub(super) stream: Arc<CudaStream>,
    info: DeviceInfo,
}

/// Number of CUDA devices, or why there are none usable.
pub fn device_count() -> Result<usize, GpuUnavailable> {
    // SAFETY: only tries to dlopen the driver library by name.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err(GpuUnavailable::NoDriver);
    }
    // A driver with no GPU to drive fails its initialisation with
    // CUDA_ERROR_NO_DEVICE: that is "no GPU", not a broken driver.
    let count = CudaContext::device_count().map_err(|e| match e.0 {
        cudarc::driver::sys::CUresult::CUDA_ERROR_NO_DEVICE => GpuUnavailable::NoDevice,
        _ => GpuUnavailable::Init(e),
    })?;
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
        // SAFETY: a buffer used on several streams (the multi-GPU solver) is
        // ordered there by explicit events; otherwise it is used on `stream` only.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let (free, total) = ctx.mem_get_info().map_err(context)?;
        let info = DeviceInfo {
            ordinal,
            name: ctx.name().map_err(context)?,
            total_bytes: total as u64,
            free_bytes: free as u64,
            compute_capability: ctx.compute_capability().map_err(context)?,
            multiprocessors: ctx
                .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
                .map_err(context)?
                .max(1) as u32,
            driver_version: driver_version(),
        };
        Ok(Self { ctx, stream, info })
    }

    pub(crate) fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Loads the entry points `entries` of `ptx` (the embedded module) as
    /// this GPU needs them ([`super::ptx::only_entries`],
    /// [`super::ptx::for_device`]), and says whether consecutive step
    /// kernels may be joined by programmatic edges.
    pub(crate) fn load_kernels(
        &self,
        ptx: &str,
        entries: &[&str],
    ) -> Result<(Arc<CudaModule>, bool), SolverError> {
        let kept = super::ptx::only_entries(ptx, entries);
        let adapted = super::ptx::for_device(&kept, self.info.compute_capability);
        let module = self
            .ctx
            .load_module(Ptx::from_src(adapted.text))
            .map_err(|source| SolverError::Cuda { during: "loading the kernels", source })?;
        Ok((module, adapted.programmatic))
    }

    /// The device-to-device copy bandwidth, GB/s (1e9 bytes, read plus
    /// write): the median of `repeats` copies of `bytes` bytes on the
    /// device's stream after one warm-up copy. The memory roofline the
    /// benchmarks compare their kernels with.
    pub fn copy_bandwidth(&self, bytes: usize, repeats: usize) -> Result<f64, SolverError> {
        let cuda = |during| move |source| SolverError::Cuda { during, source };
        let src = self.stream.alloc_zeros::<u8>(bytes).map_err(cuda("allocating the copy test"))?;
        let mut dst = self.stream.alloc_zeros::<u8>(bytes).map_err(cuda("allocating the copy test"))?;
        let mut seconds = Vec::with_capacity(repeats);
        for i in 0..=repeats {
            self.stream.synchronize().map_err(cuda("timing a copy"))?;
            let t0 = std::time::Instant::now();
            self.stream.memcpy_dtod(&src, &mut dst).map_err(cuda("timing a copy"))?;
            self.stream.synchronize().map_err(cuda("timing a copy"))?;
            if i > 0 {
                seconds.push(t0.elapsed().as_secs_f64());
            }
        }
        seconds.sort_by(f64::total_cmp);
        Ok(2.0 * bytes as f64 / seconds[seconds.len() / 2] / 1e9)
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
