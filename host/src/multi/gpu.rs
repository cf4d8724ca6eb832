//! The z-split run on several GPUs driven by one process (paper section 4.3).
//!
//! Each GPU holds one sub-domain (its owned slices between two halo
//! slices, see [`super`]) and four streams. Per step, with overlap (the
//! paper's scheme): kernel A advances the bottom owned slice and kernel C
//! the top one, each on its own stream; the copy stream waits for them and
//! sends the two new boundary slices into the neighbours' halo slices while
//! kernel B advances the interior on the third stream. Without overlap one
//! kernel advances all owned slices and the copies follow it. The halos at
//! the global ends are filled by the mirror rule with a copy inside the GPU.
//!
//! Nothing waits on the host between steps: every stream of step n + 1
//! waits (with events) for the GPU's own step n and for its two
//! neighbours' step n, which covers both "my halos have arrived" and "my
//! neighbour no longer reads the buffer I am about to write into".
//!
//! Exchange modes: `peer` copies GPU to GPU (cuMemcpy3DPeerAsync, one 2D
//! copy per slice, which also moves the strided walls of the tower layout);
//! `host` stages each slice through pinned host memory (device to host on
//! the sender, host to device on the receiver), as the paper did.

use std::sync::Arc;

use cudarc::driver::sys::{self, CUdeviceptr, CUmemorytype};
use cudarc::driver::{CudaContext, CudaEvent, CudaStream, DriverError, PinnedHostSlice};
use kernels_gpu::ZWindow;
use serde::Serialize;

use super::split::ZSplit;
use crate::backend::gpu::solver::SliceGeometry;
use crate::backend::{BackendKind, GpuDevice, GpuSolver, KernelConfig, Solver, SolverError};
use crate::domain::Domain;
use crate::fields::Fields;
use crate::scalar::Scalar;

/// How halo slices travel between GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Exchange {
    /// Device -> pinned host buffer -> neighbour device (the paper's scheme).
    Host,
    /// Direct GPU-to-GPU copies (needs peer access between the GPUs).
    Peer,
}

impl Exchange {
    pub const fn name(self) -> &'static str {
        match self {
            Exchange::Host => "host",
            Exchange::Peer => "peer",
        }
    }
}

fn cuda(during: &'static str) -> impl FnOnce(DriverError) -> SolverError {
    move |source| SolverError::Cuda { during, source }
}

fn check(result: sys::CUresult, during: &'static str) -> Result<(), SolverError> {
    match result {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(SolverError::Cuda { during, source: DriverError(e) }),
    }
}

/// One GPU's share: its solver, streams and events.
struct Part<T> {
    ctx: Arc<CudaContext>,
    solver: GpuSolver<T>,
    /// Kernel A (bottom boundary slice), B (interior), C (top boundary slice), copies.
    a: Arc<CudaStream>,
    b: Arc<CudaStream>,
    c: Arc<CudaStream>,
    copy: Arc<CudaStream>,
    a_done: CudaEvent,
    b_done: CudaEvent,
    c_done: CudaEvent,
    /// Everything of this GPU's latest step, copies included.
    step_done: CudaEvent,
    /// Sender side of host staging: the slice is in the pinned buffer.
    staged: [CudaEvent; 2],
    /// Pinned buffers for the slices sent down (0) and up (1), host mode.
    pinned: [Option<PinnedHostSlice<u8>>; 2],
    owned: u32,
}

/// G sub-domains on G GPUs (or several on one GPU, for testing).
pub struct GpuMultiSolver<T> {
    split: ZSplit,
    parts: Vec<Part<T>>,
    exchange: Exchange,
    overlap: bool,
    config: KernelConfig,
    device_names: Vec<String>,
}

impl<T: Scalar> GpuMultiSolver<T> {
    /// Sub-domain i runs on `devices[i]`. Peer exchange needs peer access
    /// between neighbouring GPUs; a GPU may appear twice (its copies are
    /// then device-local).
    pub fn new(
        devices: &[GpuDevice],
        ptx: &str,
        config: KernelConfig,
        domain: &Domain,
        initial: &Fields<T>,
        exchange: Exchange,
        overlap: bool,
    ) -> Result<Self, SolverError> {
        let split = ZSplit::balanced(domain.dims().nz, devices.len())?;
        if exchange == Exchange::Peer {
            enable_peer_access(devices)?;
        }
        let mut parts = Vec::with_capacity(devices.len());
        for (i, device) in devices.iter().enumerate() {
            let local = domain.with_nz(split.local_dims(domain.dims(), i).nz);
            let solver = GpuSolver::new(device, ptx, config, &local, &split.scatter(initial, i))?;
            let ctx = device.context().clone();
            let stream = || ctx.new_stream().map_err(cuda("creating a stream"));
            let event = || ctx.new_event(None).map_err(cuda("creating an event"));
            let geometry = solver.slice_geometry(0);
            let slice_bytes = geometry.width_bytes * geometry.rows;
            let pinned = || -> Result<Option<PinnedHostSlice<u8>>, SolverError> {
                if exchange != Exchange::Host {
                    return Ok(None);
                }
                // SAFETY: the buffer is written by a copy before it is read.
                unsafe { ctx.alloc_pinned_with_flags::<u8>(slice_bytes, sys::CU_MEMHOSTALLOC_PORTABLE) }
                    .map(Some)
                    .map_err(cuda("allocating pinned host memory"))
            };
            parts.push(Part {
                a: stream()?,
                b: stream()?,
                c: stream()?,
                copy: stream()?,
                a_done: event()?,
                b_done: event()?,
                c_done: event()?,
                step_done: event()?,
                staged: [event()?, event()?],
                pinned: [pinned()?, pinned()?],
                owned: split.owned_len(i),
                solver,
                ctx,
            });
            // The initial upload ran on the solver's stream: finish it.
            parts[i].ctx.synchronize().map_err(cuda("uploading the sub-domain"))?;
            parts[i].step_done.record(&parts[i].copy).map_err(cuda("recording an event"))?;
        }
        let device_names = devices.iter().map(|d| d.info().name.clone()).collect();
        Ok(Self { split, parts, exchange, overlap, config, device_names })
    }

    pub fn split(&self) -> &ZSplit {
        &self.split
    }

    /// Enqueues one step on every GPU (returns before it runs).
    fn step(&mut self) -> Result<(), SolverError> {
        let g = self.parts.len();
        // Step n + 1 waits for step n here and on both neighbours.
        for i in 0..g {
            for j in [i.wrapping_sub(1), i, i + 1] {
                if j < g {
                    let done = &self.parts[j].step_done;
                    for s in [&self.parts[i].a, &self.parts[i].b, &self.parts[i].c] {
                        s.wait(done).map_err(cuda("ordering steps"))?;
                    }
                }
            }
        }
        for part in &mut self.parts {
            let n = part.owned;
            if self.overlap {
                let (a, b, c) = (part.a.clone(), part.b.clone(), part.c.clone());
                part.solver.launch_window_on(&a, ZWindow::new(1, 2))?;
                part.solver.launch_window_on(&c, ZWindow::new(n, n + 1))?;
                part.solver.launch_window_on(&b, ZWindow::new(2, n))?;
            } else {
                let b = part.b.clone();
                part.solver.launch_window_on(&b, ZWindow::new(1, n + 1))?;
            }
            part.a_done.record(&part.a).map_err(cuda("recording an event"))?;
            part.b_done.record(&part.b).map_err(cuda("recording an event"))?;
            part.c_done.record(&part.c).map_err(cuda("recording an event"))?;
            part.copy.wait(&part.a_done).map_err(cuda("ordering copies"))?;
            part.copy.wait(&part.c_done).map_err(cuda("ordering copies"))?;
            if !self.overlap {
                part.copy.wait(&part.b_done).map_err(cuda("ordering copies"))?;
            }
        }
        self.send_boundaries()?;
        for i in 0..g {
            self.receive_and_mirror(i)?;
        }
        for part in &mut self.parts {
            part.solver.swap_buffers();
        }
        Ok(())
    }

    /// Boundary slices to the neighbours' halos (peer), or into pinned
    /// buffers (host), on each sender's copy stream, while B may still run.
    fn send_boundaries(&mut self) -> Result<(), SolverError> {
        let g = self.parts.len();
        for i in 0..g {
            // (direction, my boundary slice, neighbour, its halo slice)
            let n = self.parts[i].owned;
            let sends = [(0usize, 1u32, i.wrapping_sub(1)), (1, n, i + 1)];
            for (dir, src_slice, j) in sends {
                if j >= g {
                    continue;
                }
                let dst_halo = if dir == 0 { self.parts[j].owned + 1 } else { 0 };
                let src = &self.parts[i];
                let src_geo = src.solver.slice_geometry(src_slice);
                match self.exchange {
                    Exchange::Peer => {
                        let dst = &self.parts[j];
                        copy_slice_peer(
                            (&src.ctx, src.solver.u_next_address(), src_geo),
                            (&dst.ctx, dst.solver.u_next_address(), dst.solver.slice_geometry(dst_halo)),
                            &src.copy,
                        )?;
                    }
                    Exchange::Host => {
                        let host = src.pinned[dir].as_ref().expect("host exchange has pinned buffers");
                        copy_slice_to_host(src.solver.u_next_address(), src_geo, host, &src.copy)?;
                        src.staged[dir].record(&src.copy).map_err(cuda("recording an event"))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// On GPU i's copy stream: staged slices from the neighbours (host
    /// mode), the mirror halos at the global ends, then `step_done`.
    fn receive_and_mirror(&mut self, i: usize) -> Result<(), SolverError> {
        let g = self.parts.len();
        let n = self.parts[i].owned;
        if self.exchange == Exchange::Host {
            // From below: the neighbour's upward buffer into my halo 0; from above into n + 1.
            for (j, dir, halo) in [(i.wrapping_sub(1), 1usize, 0u32), (i + 1, 0, n + 1)] {
                if j >= g {
                    continue;
                }
                let (src, dst) = (&self.parts[j], &self.parts[i]);
                dst.copy.wait(&src.staged[dir]).map_err(cuda("ordering copies"))?;
                let host = src.pinned[dir].as_ref().expect("host exchange has pinned buffers");
                copy_slice_from_host(
                    host,
                    dst.solver.u_next_address(),
                    dst.solver.slice_geometry(halo),
                    &dst.copy,
                )?;
            }
        }
        let part = &self.parts[i];
        // Mirror halos read owned slices that kernel B may write.
        part.copy.wait(&part.b_done).map_err(cuda("ordering copies"))?;
        let base = part.solver.u_next_address();
        if i == 0 {
            let (from, to) = (part.solver.slice_geometry(2), part.solver.slice_geometry(0));
            copy_slice_peer((&part.ctx, base, from), (&part.ctx, base, to), &part.copy)?;
        }
        if i + 1 == g {
            let (from, to) = (part.solver.slice_geometry(n - 1), part.solver.slice_geometry(n + 1));
            copy_slice_peer((&part.ctx, base, from), (&part.ctx, base, to), &part.copy)?;
        }
        part.step_done.record(&part.copy).map_err(cuda("recording an event"))
    }

    fn synchronize_all(&self) -> Result<(), SolverError> {
        for part in &self.parts {
            part.ctx.synchronize().map_err(cuda("running the sub-domains"))?;
        }
        Ok(())
    }
}

/// Lets each GPU read and write its neighbours' memory directly.
fn enable_peer_access(devices: &[GpuDevice]) -> Result<(), SolverError> {
    for (i, pair) in devices.windows(2).enumerate() {
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
                    return Err(SolverError::NoPeerAccess { from: i, to: i + 1 });
                }
                from.context().bind_to_thread().map_err(cuda("binding a context"))?;
                let r = sys::cuCtxEnablePeerAccess(to.context().cu_ctx(), 0);
                if r != sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
                    check(r, "enabling peer access")?;
                }
            }
        }
    }
    Ok(())
}

/// One 2D copy of a slice between device buffers, possibly on two GPUs.
fn copy_slice_peer(
    (src_ctx, src, src_geo): (&Arc<CudaContext>, CUdeviceptr, SliceGeometry),
    (dst_ctx, dst, dst_geo): (&Arc<CudaContext>, CUdeviceptr, SliceGeometry),
    stream: &CudaStream,
) -> Result<(), SolverError> {
    debug_assert_eq!((src_geo.width_bytes, src_geo.rows), (dst_geo.width_bytes, dst_geo.rows));
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
fn copy_2d_params(
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

fn copy_2d(p: &sys::CUDA_MEMCPY2D, stream: &CudaStream, during: &'static str) -> Result<(), SolverError> {
    // SAFETY: the caller fills `p` with ranges inside live allocations.
    unsafe {
        stream.context().bind_to_thread().map_err(cuda("binding a context"))?;
        check(sys::cuMemcpy2DAsync_v2(p, stream.cu_stream()), during)
    }
}

/// A slice of a device buffer into a contiguous pinned buffer.
fn copy_slice_to_host(
    src: CUdeviceptr,
    geo: SliceGeometry,
    host: &PinnedHostSlice<u8>,
    stream: &CudaStream,
) -> Result<(), SolverError> {
    let p = copy_2d_params(
        (
            CUmemorytype::CU_MEMORYTYPE_DEVICE,
            src + geo.offset_bytes as u64,
            std::ptr::null(),
            geo.pitch_bytes,
        ),
        (CUmemorytype::CU_MEMORYTYPE_HOST, 0, host_ptr(host), geo.width_bytes),
        geo,
    );
    copy_2d(&p, stream, "staging a halo slice in host memory")
}

/// A contiguous pinned buffer into a slice of a device buffer.
fn copy_slice_from_host(
    host: &PinnedHostSlice<u8>,
    dst: CUdeviceptr,
    geo: SliceGeometry,
    stream: &CudaStream,
) -> Result<(), SolverError> {
    let p = copy_2d_params(
        (CUmemorytype::CU_MEMORYTYPE_HOST, 0, host_ptr(host), geo.width_bytes),
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

fn host_ptr(host: &PinnedHostSlice<u8>) -> *const u8 {
    // The buffer's own event is never recorded (its copies are ordered by
    // our events), so this does not wait.
    host.as_ptr().expect("pinned buffer address")
}

impl<T: Scalar> Solver<T> for GpuMultiSolver<T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }

    fn device_name(&self) -> String {
        let first = &self.device_names[0];
        if self.device_names.iter().all(|n| n == first) {
            format!("{} x {first}", self.device_names.len())
        } else {
            self.device_names.join(" + ")
        }
    }

    fn method(&self) -> String {
        format!(
            "{} z-split {} exchange {}{}",
            self.config,
            self.parts.len(),
            self.exchange.name(),
            if self.overlap { "" } else { " no-overlap" }
        )
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.step()?;
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        self.synchronize_all()
    }

    fn fields(&mut self) -> Result<Fields<T>, SolverError> {
        self.synchronize_all()?;
        let parts = self.parts.iter_mut().map(|p| p.solver.fields()).collect::<Result<Vec<_>, _>>()?;
        Ok(self.split.gather(&parts))
    }

    fn set_fields(&mut self, fields: &Fields<T>) -> Result<(), SolverError> {
        self.synchronize_all()?;
        for (i, part) in self.parts.iter_mut().enumerate() {
            part.solver.set_fields(&self.split.scatter(fields, i))?;
        }
        self.synchronize_all()
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.synchronize_all()?;
        for part in &mut self.parts {
            if part.solver.any_nonfinite()? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
