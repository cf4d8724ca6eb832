//! One GPU's share of a split run: its sub-domain's solver, its four
//! streams and the events that order them, and its exchange buffers.

use std::sync::Arc;

use cudarc::driver::sys::{self, CUdeviceptr};
use cudarc::driver::{
    CudaContext, CudaEvent, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PinnedHostSlice, PushKernelArg,
    result,
};
use kernels_gpu::CellModel;
use kernels_gpu::halo::{CopyRuns, MAX_RUNS};

use super::setup::{Exchange, SplitRun};
use crate::backend::gpu::cuda::{ByValue, cuda};
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::solver::{GpuSolver, SliceGeometry};
use crate::layout::zsplit::ZSplit;
use crate::multi::nccl::Comm;
use crate::scalar::Scalar;
use crate::solver::SolverError;

/// One GPU's share: its solver, streams and events.
pub(super) struct Part<M: CellModel, T: Scalar> {
    /// Global sub-domain index (= NCCL rank).
    pub(super) index: usize,
    pub(super) ctx: Arc<CudaContext>,
    pub(super) solver: GpuSolver<M, T>,
    /// Kernel A (bottom boundary slice), B (interior), C (top boundary slice), copies.
    pub(super) a: Arc<CudaStream>,
    pub(super) b: Arc<CudaStream>,
    pub(super) c: Arc<CudaStream>,
    pub(super) copy: Arc<CudaStream>,
    pub(super) a_done: CudaEvent,
    pub(super) b_done: CudaEvent,
    pub(super) c_done: CudaEvent,
    /// The stimuli of this step are applied (what the step kernels wait for).
    pub(super) stimulated: CudaEvent,
    /// The halos of this step have arrived and the boundary kernels that
    /// read the previous ones are done: what the neighbours wait for.
    pub(super) halo_done: CudaEvent,
    /// Everything of this GPU's latest step that the next step's kernels
    /// need on this GPU (copies and mirror halos included).
    pub(super) step_done: CudaEvent,
    /// Sender side of host staging: the slice is in the pinned buffer.
    pub(super) staged: [CudaEvent; 2],
    /// Pinned buffers for the slices sent down (0) and up (1), host mode.
    pub(super) pinned: [Option<PinnedHostSlice<u8>>; 2],
    /// NCCL mode: the communicator, and contiguous buffers for slices
    /// that are not contiguous in U (tower layout).
    pub(super) comm: Option<Comm>,
    pub(super) staging: Option<Staging>,
    pub(super) owned: u32,
    /// Halo slices on each side ([`ZSplit::depth`]).
    pub(super) depth: u32,
}

/// Contiguous device buffers for one part's NCCL traffic.
pub(super) struct Staging {
    /// Boundary slices going down (0) and up (1).
    pub(super) send: [CudaSlice<u8>; 2],
    /// Halos arriving from below (0) and above (1).
    pub(super) recv: [CudaSlice<u8>; 2],
}

impl Staging {
    pub(super) fn address(buf: &CudaSlice<u8>, stream: &CudaStream) -> CUdeviceptr {
        let (ptr, _sync) = buf.device_ptr(stream);
        ptr
    }
}

impl<M: CellModel, T: Scalar> Part<M, T> {
    /// Sub-domain `index` of `split` on `device`, with its streams, events
    /// and exchange buffers.
    pub(super) fn new(
        device: &GpuDevice,
        run: &SplitRun<'_, T>,
        split: &ZSplit,
        index: usize,
        exchange: Exchange,
        comm: Option<Comm>,
    ) -> Result<Self, SolverError> {
        let local = run.domain.with_nz(split.local_dims(run.domain.dims(), index).nz);
        let solver = GpuSolver::new(device, run.ptx, run.config, &local, &split.scatter(run.initial, index))?;
        let ctx = device.context().clone();
        ctx.bind_to_thread().map_err(cuda("binding a context"))?;
        // Lower numbers are higher priorities: (least, greatest).
        let (low, high) = result::stream::get_priority_range().map_err(cuda("querying stream priorities"))?;
        let stream = |priority| ctx.new_stream_with_priority(priority).map_err(cuda("creating a stream"));
        let event = || ctx.new_event(None).map_err(cuda("creating an event"));
        let geometry = solver.slice_geometry(0);
        let slice_bytes = geometry.width_bytes * geometry.rows;
        // A run of `depth` slices of each exchanged variable each way.
        let depth = split.depth();
        let exchanged = if depth > 1 { 1 + <M::Locals<T> as kernels_gpu::Locals<T>>::COUNT } else { 1 };
        let pinned = || -> Result<Option<PinnedHostSlice<u8>>, SolverError> {
            if exchange != Exchange::Host {
                return Ok(None);
            }
            let bytes = slice_bytes * depth as usize * exchanged;
            // SAFETY: the buffer is written by a copy before it is read.
            unsafe { ctx.alloc_pinned_with_flags::<u8>(bytes, sys::CU_MEMHOSTALLOC_PORTABLE) }
                .map(Some)
                .map_err(cuda("allocating pinned host memory"))
        };
        let copy = stream(high)?;
        let staging = if exchange == Exchange::Nccl && geometry.rows > 1 {
            let buf = || copy.alloc_zeros::<u8>(slice_bytes).map_err(cuda("allocating NCCL staging"));
            Some(Staging { send: [buf()?, buf()?], recv: [buf()?, buf()?] })
        } else {
            None
        };
        let part = Part {
            index,
            a: stream(high)?,
            b: stream(low)?,
            c: stream(high)?,
            a_done: event()?,
            b_done: event()?,
            c_done: event()?,
            stimulated: event()?,
            halo_done: event()?,
            step_done: event()?,
            staged: [event()?, event()?],
            pinned: [pinned()?, pinned()?],
            comm,
            staging,
            owned: split.owned_len(index),
            depth,
            copy,
            solver,
            ctx,
        };
        // The initial upload ran on the solver's stream: finish it.
        part.ctx.synchronize().map_err(cuda("uploading the sub-domain"))?;
        part.step_done.record(&part.copy).map_err(cuda("recording an event"))?;
        Ok(part)
    }
}

impl<M: CellModel, T: Scalar> Part<M, T> {
    /// The variables that cross to the neighbours, as the addresses of the
    /// buffers a pass writes: U_next, and with deep halos each local
    /// variable too (the halo's cells are stepped within a pass, so they
    /// need their locals; one-slice halos are only read as neighbours).
    pub(super) fn exchanged(&self) -> Vec<CUdeviceptr> {
        let mut all = self.solver.next_variable_addresses();
        if self.depth == 1 {
            all.truncate(1);
        }
        all
    }

    /// Where the run of `depth` slices from local slice `first` lies in a
    /// variable's buffer: one slice in any layout, several contiguous
    /// (deep halos come with the blocked kernel, which is row-major).
    pub(super) fn run_geometry(&self, first: u32) -> SliceGeometry {
        let g = self.solver.slice_geometry(first);
        if self.depth == 1 {
            return g;
        }
        debug_assert_eq!(g.rows, 1, "deep halos are row-major");
        let width_bytes = g.width_bytes * self.depth as usize;
        SliceGeometry { width_bytes, pitch_bytes: width_bytes, ..g }
    }

    /// Copies runs of `bytes` each, `(src, dst)` of `pairs`, by the
    /// `halo_copy` kernel on the copy stream, [`MAX_RUNS`] a launch: the
    /// boundary runs of every exchanged variable into a neighbour's halos,
    /// or this part's mirror halos. A graph over the GPUs can hold the
    /// kernel (the driver's peer copy cannot be captured), as one node
    /// where a copy per run would be one each.
    pub(super) fn copy_runs(
        &self,
        pairs: &[(CUdeviceptr, CUdeviceptr)],
        bytes: usize,
    ) -> Result<(), SolverError> {
        debug_assert!(bytes.is_multiple_of(T::BYTES));
        let len = (bytes / T::BYTES) as u64;
        // Four values a thread in 256-thread blocks: a run of four 256^2 slices is 256 blocks.
        let blocks = len.div_ceil(4 * 256).clamp(1, 1024) as u32;
        for chunk in pairs.chunks(MAX_RUNS) {
            let runs = ByValue(CopyRuns::new(chunk, len));
            let cfg = LaunchConfig {
                grid_dim: (blocks, chunk.len() as u32, 1),
                block_dim: (256, 1, 1),
                shared_mem_bytes: 0,
            };
            let mut launch = self.copy.launch_builder(self.solver.halo_copy_fn());
            launch.arg(&runs);
            // SAFETY: halo_copy_<t> takes (runs) in this solver's
            // precision, with a block row per run; each `src` is a run of
            // this part's U_next or locals and its `dst` a halo run of the
            // same variable (a neighbour's, or this part's own mirror
            // halo), `bytes` long each (`run_geometry`, `slice_geometry`),
            // no destination overlapping another run, on GPUs with peer
            // access between them (`enable_peer_access`) or on this GPU.
            unsafe { launch.launch(cfg) }.map_err(cuda("launching the halo copy"))?;
        }
        Ok(())
    }

    /// Bytes of one variable's run in a pinned staging buffer.
    pub(super) fn run_bytes(&self) -> usize {
        let g = self.solver.slice_geometry(0);
        g.width_bytes * g.rows * self.depth as usize
    }
}

/// The geometry of a slice packed contiguously at offset 0.
pub(super) fn contiguous(geo: SliceGeometry) -> SliceGeometry {
    SliceGeometry { offset_bytes: 0, pitch_bytes: geo.width_bytes, ..geo }
}
