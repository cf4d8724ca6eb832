//! Moving slices between the GPUs and the host: peer access, 2D copies of
//! a slice (a tower layout's walls are strided) from GPU to GPU, to pinned
//! host memory and back, each enqueued on a stream.

use std::sync::Arc;

use cudarc::driver::sys::{self, CUdeviceptr, CUmemorytype};
use cudarc::driver::{CudaContext, CudaStream, DriverError, PinnedHostSlice};

use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::solver::SliceGeometry;
use crate::multi::error::MultiError;
use crate::solver::SolverError;

pub(super) fn check(result: sys::CUresult, during: &'static str) -> Result<(), SolverError> {
    match result {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(SolverError::Cuda { during, source: DriverError(e) }),
    }
}

/// Lets each GPU read and write its neighbours' memory directly.
pub(crate) fn enable_peer_access(devices: &[GpuDevice]) -> Result<(), MultiError> {
    for pair in devices.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.info().ordinal == b.info().ordinal {
            continue;
        }
        for (from, to) in [(a, b), (b, a)] {
            let mut can = 0;
            // SAFETY: plain queries and a context switch on valid contexts.
            unsafe {
                check(
                    sys::cuDeviceCanAccessPeer(
                        &mut can,
                        from.context().cu_device(),
                        to.context().cu_device(),
                    ),
                    "querying peer access",
                )?;
                if can == 0 {
                    return Err(MultiError::NoPeerAccess {
                        from: from.info().ordinal,
                        to: to.info().ordinal,
                    });
                }
                from.context().bind_to_thread().map_err(cuda("binding a context"))?;
                let r = sys::cuCtxEnablePeerAccess(to.context().cu_ctx(), 0);
                if r != sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
                    check(r, "enabling peer access")?;
                }
                // The buffers come from `to`'s stream-ordered pool, whose
                // memory kernels of other GPUs (the halo copies) may touch
                // only once the pool grants them access; the driver's
                // copies do not need it.
                let mut pool = std::ptr::null_mut();
                check(
                    sys::cuDeviceGetDefaultMemPool(&mut pool, to.context().cu_device()),
                    "reading a memory pool",
                )?;
                let access = sys::CUmemAccessDesc {
                    location: sys::CUmemLocation {
                        type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                        id: from.context().cu_device(),
                    },
                    flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
                };
                check(sys::cuMemPoolSetAccess(pool, &access, 1), "opening a memory pool to a peer")?;
            }
        }
    }
    Ok(())
}

/// One 2D copy of a slice between device buffers, possibly on two GPUs.
pub(crate) fn copy_slice_peer(
    (src_ctx, src, src_geo): (&Arc<CudaContext>, CUdeviceptr, SliceGeometry),
    (dst_ctx, dst, dst_geo): (&Arc<CudaContext>, CUdeviceptr, SliceGeometry),
    stream: &CudaStream,
) -> Result<(), SolverError> {
    debug_assert_eq!((src_geo.width_bytes, src_geo.rows), (dst_geo.width_bytes, dst_geo.rows));
    if src_geo.rows == 1 {
        // One contiguous run (row-major slices): a one-dimensional copy,
        // inside the GPU or between two.
        let (from, to) = (src + src_geo.offset_bytes as u64, dst + dst_geo.offset_bytes as u64);
        let bytes = src_geo.width_bytes;
        // SAFETY: both ranges lie inside U_next buffers of the sub-domains,
        // as below; the stream belongs to the source's context, made current.
        return unsafe {
            stream.context().bind_to_thread().map_err(cuda("binding a context"))?;
            let r = if Arc::ptr_eq(src_ctx, dst_ctx) {
                sys::cuMemcpyDtoDAsync_v2(to, from, bytes, stream.cu_stream())
            } else {
                sys::cuMemcpyPeerAsync(
                    to,
                    dst_ctx.cu_ctx(),
                    from,
                    src_ctx.cu_ctx(),
                    bytes,
                    stream.cu_stream(),
                )
            };
            check(r, "copying a halo slice")
        };
    }
    let p = sys::CUDA_MEMCPY3D_PEER {
        srcXInBytes: 0,
        srcY: 0,
        srcZ: 0,
        srcLOD: 0,
        srcMemoryType: CUmemorytype::CU_MEMORYTYPE_DEVICE,
        srcHost: std::ptr::null(),
        srcDevice: src + src_geo.offset_bytes as u64,
        srcArray: std::ptr::null_mut(),
        srcContext: src_ctx.cu_ctx(),
        srcPitch: src_geo.pitch_bytes,
        srcHeight: src_geo.rows,
        dstXInBytes: 0,
        dstY: 0,
        dstZ: 0,
        dstLOD: 0,
        dstMemoryType: CUmemorytype::CU_MEMORYTYPE_DEVICE,
        dstHost: std::ptr::null_mut(),
        dstDevice: dst + dst_geo.offset_bytes as u64,
        dstArray: std::ptr::null_mut(),
        dstContext: dst_ctx.cu_ctx(),
        dstPitch: dst_geo.pitch_bytes,
        dstHeight: dst_geo.rows,
        WidthInBytes: src_geo.width_bytes,
        Height: src_geo.rows,
        Depth: 1,
    };
    // SAFETY: both ranges lie inside U_next buffers of the sub-domains
    // (slice_geometry of a slice of that buffer); the stream belongs to the
    // source's context, which is current.
    unsafe {
        stream.context().bind_to_thread().map_err(cuda("binding a context"))?;
        check(sys::cuMemcpy3DPeerAsync(&p, stream.cu_stream()), "copying a halo slice")
    }
}

/// A `CUDA_MEMCPY2D` for `geo.rows` rows of `geo.width_bytes`; each side is
/// (memory type, device address, host address, pitch).
pub(super) fn copy_2d_params(
    (src_type, src_device, src_host, src_pitch): (CUmemorytype, CUdeviceptr, *const u8, usize),
    (dst_type, dst_device, dst_host, dst_pitch): (CUmemorytype, CUdeviceptr, *const u8, usize),
    geo: SliceGeometry,
) -> sys::CUDA_MEMCPY2D {
    sys::CUDA_MEMCPY2D {
        srcXInBytes: 0,
        srcY: 0,
        srcMemoryType: src_type,
        srcHost: src_host.cast(),
        srcDevice: src_device,
        srcArray: std::ptr::null_mut(),
        srcPitch: src_pitch,
        dstXInBytes: 0,
        dstY: 0,
        dstMemoryType: dst_type,
        dstHost: dst_host.cast_mut().cast(),
        dstDevice: dst_device,
        dstArray: std::ptr::null_mut(),
        dstPitch: dst_pitch,
        WidthInBytes: geo.width_bytes,
        Height: geo.rows,
    }
}

pub(super) fn copy_2d(
    p: &sys::CUDA_MEMCPY2D,
    stream: &CudaStream,
    during: &'static str,
) -> Result<(), SolverError> {
    // SAFETY: the caller fills `p` with ranges inside live allocations.
    unsafe {
        stream.context().bind_to_thread().map_err(cuda("binding a context"))?;
        check(sys::cuMemcpy2DAsync_v2(p, stream.cu_stream()), during)
    }
}

/// A slice of a device buffer into a contiguous pinned buffer, `at`
/// bytes into it.
pub(crate) fn copy_slice_to_host(
    src: CUdeviceptr,
    geo: SliceGeometry,
    (host, at): (&PinnedHostSlice<u8>, usize),
    stream: &CudaStream,
) -> Result<(), SolverError> {
    assert!(at + geo.width_bytes * geo.rows <= host.len(), "inside the pinned buffer");
    let p = copy_2d_params(
        (
            CUmemorytype::CU_MEMORYTYPE_DEVICE,
            src + geo.offset_bytes as u64,
            std::ptr::null(),
            geo.pitch_bytes,
        ),
        (CUmemorytype::CU_MEMORYTYPE_HOST, 0, host_ptr(host).wrapping_add(at), geo.width_bytes),
        geo,
    );
    copy_2d(&p, stream, "staging a halo slice in host memory")
}

/// A contiguous pinned buffer, from `at` bytes into it, into a slice of a
/// device buffer.
pub(crate) fn copy_slice_from_host(
    (host, at): (&PinnedHostSlice<u8>, usize),
    dst: CUdeviceptr,
    geo: SliceGeometry,
    stream: &CudaStream,
) -> Result<(), SolverError> {
    assert!(at + geo.width_bytes * geo.rows <= host.len(), "inside the pinned buffer");
    let p = copy_2d_params(
        (CUmemorytype::CU_MEMORYTYPE_HOST, 0, host_ptr(host).wrapping_add(at), geo.width_bytes),
        (
            CUmemorytype::CU_MEMORYTYPE_DEVICE,
            dst + geo.offset_bytes as u64,
            std::ptr::null(),
            geo.pitch_bytes,
        ),
        geo,
    );
    copy_2d(&p, stream, "delivering a halo slice from host memory")
}

pub(super) fn host_ptr(host: &PinnedHostSlice<u8>) -> *const u8 {
    // The buffer's own event is never recorded (its copies are ordered by
    // our events), so this does not wait.
    host.as_ptr().expect("pinned buffer address")
}
