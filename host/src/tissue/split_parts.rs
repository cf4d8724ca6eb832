//! The parts of a split on GPUs and the exchange of their halos, for
//! every split whose exchanges are runs of stored cells ([`HaloRun`]):
//! the voxel tissue's z-split ([`super::split_gpu`]) and the tetrahedral
//! mesh's ([`crate::tet::gpu_split`]).
//!
//! Each part has one stream; events order the streams, nothing waits on
//! the host between steps. Per step n:
//! 1. part i's stream waits for the `done` of step n - 1 of every part it
//!    exchanges with (its halos have arrived, and those parts no longer
//!    read the halos this step's copies overwrite), applies the stimuli
//!    (halos included) and steps its owned cells from U into U_next;
//! 2. peer: each part's stream copies its runs of U_next into the halos of
//!    U_next of the parts that read them, then records `done`. Host: each
//!    part's stream copies its runs into their pinned buffers and records
//!    `staged`; then each part's stream waits for its sources' `staged`,
//!    copies the pinned buffers into its halos and records `done`.
//!
//! The halo cells of U_next are written by nobody else in step n (the
//! kernels write owned cells only), and were last read in step n - 1,
//! which the copying stream waited for in 1 (through `done`). A pinned
//! buffer is refilled in step n + 1 only after its reader's `done` of step
//! n, which follows the copy out of it.

use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaEvent, CudaSlice, CudaStream, PinnedHostSlice};
use kernels_gpu::CellModel;
use kernels_gpu::registry::Kernel;

use super::gpu_fields::DeviceTissue;
use super::halo::{HaloRun, linked_parts};
use crate::backend::gpu::cuda::cuda;
use crate::backend::gpu::device::GpuDevice;
use crate::backend::gpu::solver::SliceGeometry;
use crate::multi::gpu::{Exchange, copy_slice_from_host, copy_slice_peer, copy_slice_to_host, idle_all};
use crate::scalar::Scalar;
use crate::solver::{NonfiniteCheck, SolverError};

/// Checks that the parts of `bytes` fit their `devices` (the parts placed
/// on one GPU together), before anything is allocated.
pub(crate) fn check_parts_fit(devices: &[GpuDevice], bytes: &[u64]) -> Result<(), SolverError> {
    for device in devices {
        let ordinal = device.info().ordinal;
        let on_it =
            devices.iter().zip(bytes).filter(|(d, _)| d.info().ordinal == ordinal).map(|(_, b)| b).sum();
        device.check_fits(on_it)?;
    }
    Ok(())
}

/// One part on its GPU: its fields, kernels and events as a single
/// domain's ([`DeviceTissue`]), the whole-domain index of every stored
/// cell, and the event that ends its step.
pub(crate) struct DevicePart<T> {
    pub ctx: Arc<CudaContext>,
    pub tissue: DeviceTissue<T>,
    /// Index in the whole domain of every stored cell (the stimulus
    /// kernel's table).
    pub index: CudaSlice<u32>,
    /// This part's work of the latest step, its copies included.
    done: CudaEvent,
    /// Host exchange: this part's runs are in their pinned buffers.
    staged: CudaEvent,
}

impl<T: Scalar> DevicePart<T> {
    /// The step kernel `kernel` of `M` on a new stream of `device`, with
    /// `sizes` = (stored cells, locals) and the part's `weights` and
    /// `index`.
    pub fn new<M: CellModel>(
        device: &GpuDevice,
        ptx: &str,
        kernel: Kernel,
        sizes: (usize, usize),
        weights: &[T],
        index: &[u32],
    ) -> Result<Self, SolverError> {
        let ctx = device.context().clone();
        ctx.bind_to_thread().map_err(cuda("binding a context"))?;
        let stream = ctx.new_stream().map_err(cuda("creating a stream"))?;
        let tissue = DeviceTissue::new::<M>(device, ptx, stream.clone(), kernel, sizes, weights)?;
        let event = || ctx.new_event(None).map_err(cuda("creating an event"));
        Ok(Self {
            index: stream.clone_htod(index).map_err(cuda("uploading the cell index"))?,
            done: event()?,
            staged: event()?,
            tissue,
            ctx,
        })
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.tissue.stream
    }

    /// The device address of the index table.
    pub fn index_address(&self) -> u64 {
        self.tissue.address(&self.index)
    }

    /// Stored cells `r` of a U buffer, as a one-row copy.
    fn geometry(r: &Range<u32>) -> SliceGeometry {
        let width = r.len() * T::BYTES;
        SliceGeometry {
            offset_bytes: r.start as usize * T::BYTES,
            width_bytes: width,
            rows: 1,
            pitch_bytes: width,
        }
    }
}

/// A part's U and locals, downloaded.
pub(crate) type Downloaded<T> = (Vec<T>, Vec<T>);

/// The parts of a split with the copies that refill their halos.
pub(crate) struct SplitParts<T> {
    pub parts: Vec<DevicePart<T>>,
    exchange: Exchange,
    runs: Vec<HaloRun>,
    linked: Vec<Vec<usize>>,
    /// Host exchange: one pinned buffer per run.
    pinned: Vec<PinnedHostSlice<u8>>,
}

impl<T: Scalar> SplitParts<T> {
    /// `parts` (uploaded on their streams) exchanging `runs` by `exchange`
    /// (peer or host; the caller refuses NCCL): waits for the uploads and
    /// gives every `done` a first record for the first step to wait for.
    pub fn new(
        parts: Vec<DevicePart<T>>,
        runs: Vec<HaloRun>,
        exchange: Exchange,
    ) -> Result<Self, SolverError> {
        let mut pinned = Vec::new();
        if exchange == Exchange::Host {
            for r in &runs {
                let ctx = &parts[r.src].ctx;
                let bytes = r.from.len().max(1) * T::BYTES;
                // SAFETY: the buffer is written by a copy before it is read.
                let host = unsafe {
                    ctx.alloc_pinned_with_flags::<u8>(bytes, cudarc::driver::sys::CU_MEMHOSTALLOC_PORTABLE)
                }
                .map_err(cuda("allocating pinned host memory"))?;
                pinned.push(host);
            }
        }
        for part in &parts {
            part.ctx.synchronize().map_err(cuda("uploading the sub-domains"))?;
            part.done.record(part.stream()).map_err(cuda("recording an event"))?;
        }
        let linked = linked_parts(parts.len(), &runs);
        Ok(Self { parts, exchange, runs, linked, pinned })
    }

    /// Part `i`'s stream waits for the latest step of the parts it
    /// exchanges with.
    pub fn order(&self, i: usize) -> Result<(), SolverError> {
        for &j in &self.linked[i] {
            self.parts[i].stream().wait(&self.parts[j].done).map_err(cuda("ordering steps"))?;
        }
        Ok(())
    }

    /// The halo copies of the step just enqueued, into U_next, and every
    /// part's `done` (the module doc has the ordering).
    pub fn exchange_halos(&self) -> Result<(), SolverError> {
        let parts = &self.parts;
        let u_next = |p: &DevicePart<T>| p.tissue.address(&p.tissue.u_next);
        match self.exchange {
            Exchange::Peer | Exchange::Nccl => {
                for r in &self.runs {
                    let (src, dst) = (&parts[r.src], &parts[r.dst]);
                    copy_slice_peer(
                        (&src.ctx, u_next(src), DevicePart::<T>::geometry(&r.from)),
                        (&dst.ctx, u_next(dst), DevicePart::<T>::geometry(&r.to_range())),
                        src.stream(),
                    )?;
                }
            }
            Exchange::Host => {
                for (r, host) in self.runs.iter().zip(&self.pinned) {
                    let src = &parts[r.src];
                    copy_slice_to_host(
                        u_next(src),
                        DevicePart::<T>::geometry(&r.from),
                        (host, 0),
                        src.stream(),
                    )?;
                }
                for part in parts {
                    part.staged.record(part.stream()).map_err(cuda("recording an event"))?;
                }
                for (r, host) in self.runs.iter().zip(&self.pinned) {
                    let (src, dst) = (&parts[r.src], &parts[r.dst]);
                    dst.stream().wait(&src.staged).map_err(cuda("ordering halo copies"))?;
                    let at = DevicePart::<T>::geometry(&r.to_range());
                    copy_slice_from_host((host, 0), u_next(dst), at, dst.stream())?;
                }
            }
        }
        for part in parts {
            part.done.record(part.stream()).map_err(cuda("recording an event"))?;
        }
        Ok(())
    }

    /// Swaps every part's U and U_next after a step.
    pub fn swap(&mut self) {
        self.parts.iter_mut().for_each(|p| p.tissue.swap());
    }

    pub fn synchronize(&self) -> Result<(), SolverError> {
        for part in &self.parts {
            part.stream().synchronize().map_err(cuda("running the split step"))?;
        }
        Ok(())
    }

    /// Every part's U and locals, downloaded (after the streams finish).
    pub fn download(&self) -> Result<Vec<Downloaded<T>>, SolverError> {
        self.synchronize()?;
        self.parts.iter().map(|p| Ok((p.tissue.download_u()?, p.tissue.download_locals()?))).collect()
    }

    /// Every part's U, downloaded (after the streams finish).
    pub fn download_u(&self) -> Result<Vec<Vec<T>>, SolverError> {
        self.synchronize()?;
        self.parts.iter().map(|p| p.tissue.download_u()).collect()
    }

    /// Whether any part's U holds a NaN or an infinity (every part's check
    /// enqueued before any is waited for).
    pub fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        self.synchronize()?;
        let checks: Vec<NonfiniteCheck> =
            self.parts.iter_mut().map(|p| p.tissue.begin_nonfinite_check(false)).collect::<Result<_, _>>()?;
        let mut any = false;
        for (part, check) in self.parts.iter_mut().zip(checks) {
            any |= part.tissue.end_nonfinite_check(check)?;
        }
        Ok(any)
    }

    /// Every part's maps (over its stored cells), downloaded; none without.
    pub fn maps(&self) -> Result<Option<Vec<crate::events::recording::Maps>>, SolverError> {
        self.synchronize()?;
        let mut out = Vec::with_capacity(self.parts.len());
        for part in &self.parts {
            let Some(maps) = part.tissue.maps()? else { return Ok(None) };
            out.push(maps);
        }
        Ok(Some(out))
    }

    /// The device names, for reports.
    pub fn device_names(&self) -> Vec<String> {
        self.parts.iter().map(|p| p.tissue.device_name.clone()).collect()
    }
}

impl<T> Drop for SplitParts<T> {
    /// Parts copy into each other's buffers: every GPU must be idle before
    /// any part is freed.
    fn drop(&mut self) {
        idle_all(self.parts.iter().map(|p| &p.ctx));
    }
}
