//! The NaN/Inf check of a one-GPU solver, answered at once or begun now
//! and answered later.
//!
//! The check is one reduction kernel writing a flag; reading the flag at
//! once leaves the GPU idle from the end of the kernel until the host has
//! read it and enqueued the next steps. Begun, the flag's copy to
//! page-locked host memory and an event follow the kernel on the stream,
//! and the run loop reads it after it has enqueued the next steps
//! (`crate::driver`): the check sees exactly the state after the steps
//! before it (stream order), and the GPU goes straight on.

use std::sync::Arc;

use cudarc::driver::{
    CudaEvent, CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PinnedHostSlice,
};
use cudarc::driver::{PushKernelArg, result};
use kernels_gpu::FLAT_BLOCK;

use super::cuda::cuda;
use crate::scalar::Scalar;
use crate::solver::{NonfiniteCheck, SolverError};

/// Checks in flight at once: the run loop answers one before it begins
/// the next, so two leave room (and let a test hold two).
const SLOTS: usize = 2;

/// A solver's NaN check: its kernel, stream and flags.
pub(crate) struct NonfiniteFlags {
    stream: Arc<CudaStream>,
    /// `flag_nonfinite_<t>` of the solver's precision.
    check: CudaFunction,
    /// One u32 per slot; nonzero where the check found a NaN or an infinity.
    device: CudaSlice<u32>,
    /// The slots' copies, page-locked so that the copy is asynchronous.
    host: PinnedHostSlice<u32>,
    /// Recorded after each slot's copy.
    copied: [CudaEvent; SLOTS],
    /// The slot the next check takes.
    next: usize,
}

impl NonfiniteFlags {
    /// The flags of a solver working on `stream`; `check` is its
    /// `flag_nonfinite_<t>` kernel.
    pub(crate) fn new(stream: &Arc<CudaStream>, check: CudaFunction) -> Result<Self, SolverError> {
        let ctx = stream.context();
        let event = || ctx.new_event(None).map_err(cuda("creating the NaN check's events"));
        Ok(Self {
            stream: stream.clone(),
            check,
            device: stream.alloc_zeros::<u32>(SLOTS).map_err(cuda("allocating the NaN flags"))?,
            host: zeroed_pinned(stream)?,
            copied: [event()?, event()?],
            next: 0,
        })
    }

    /// Whether `values` holds a NaN or an infinity now (waits).
    pub(crate) fn check_now<T: Scalar>(&mut self, values: &CudaSlice<T>) -> Result<bool, SolverError> {
        let slot = self.begin(values)?;
        self.end(slot)
    }

    /// The check of `values` begun and left pending, or answered at once
    /// where the solver records maps (`recording`): a NaN found one
    /// stretch late would leave the maps with crossings of steps after the
    /// one the run stops at. (A run recording maps launches every step
    /// from the host anyway, so the check's share of its time is small.)
    pub(crate) fn begin_check<T: Scalar>(
        &mut self,
        values: &CudaSlice<T>,
        recording: bool,
    ) -> Result<NonfiniteCheck, SolverError> {
        let slot = self.begin(values)?;
        match recording {
            true => Ok(NonfiniteCheck::Answered(self.end(slot)?)),
            false => Ok(NonfiniteCheck::Pending(slot)),
        }
    }

    /// The answer of `check`, waiting for it if it is pending.
    pub(crate) fn answer(&mut self, check: NonfiniteCheck) -> Result<bool, SolverError> {
        match check {
            NonfiniteCheck::Answered(bad) => Ok(bad),
            NonfiniteCheck::Pending(slot) => self.end(slot),
        }
    }

    /// Enqueues the check of `values` and the copy of its flag to the
    /// host; returns the slot that [`NonfiniteFlags::end`] reads.
    fn begin<T: Scalar>(&mut self, values: &CudaSlice<T>) -> Result<usize, SolverError> {
        let (slot, stream) = (self.next, &self.stream);
        self.next = (slot + 1) % SLOTS;
        let mut flag = self.device.slice_mut(slot..slot + 1);
        stream.memset_zeros(&mut flag).map_err(cuda("clearing the NaN flag"))?;
        let n = values.len() as u64;
        let blocks = (n.div_ceil(FLAT_BLOCK as u64)).min(4096) as u32;
        let cfg =
            LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (FLAT_BLOCK, 1, 1), shared_mem_bytes: 0 };
        let mut launch = stream.launch_builder(&self.check);
        launch.arg(values).arg(&n).arg(&mut flag);
        // SAFETY: flag_nonfinite_<t> takes (values: *const T, n: u64, flag:
        // *mut u32); `values` holds n values and `flag` one u32; any 1D
        // grid is valid.
        unsafe { launch.launch(cfg) }.map_err(cuda("launching the NaN check"))?;
        let src = flag.device_ptr(stream).0;
        let host = self.host.as_mut_ptr().map_err(cuda("reading the NaN flag"))?;
        // SAFETY: the host buffer holds SLOTS u32 and slot < SLOTS; nothing
        // reads this slot until `end`, which waits for the event recorded
        // after the copy. (The context does not track events, so the
        // pinned buffer's own event would not be recorded.)
        unsafe {
            let dst = std::slice::from_raw_parts_mut(host.add(slot), 1);
            result::memcpy_dtoh_async(dst, src, stream.cu_stream()).map_err(cuda("reading the NaN flag"))?;
        }
        if let Err(e) = self.copied[slot].record(stream) {
            // The copy is queued with no event after it, so `Drop` could
            // not wait for it: wait for the stream before the buffer can go.
            let _ = stream.synchronize();
            return Err(cuda("reading the NaN flag")(e));
        }
        Ok(slot)
    }

    /// The answer of the check in `slot`, waiting for its copy (a slot
    /// never begun reads 0: its event was never recorded and the buffer
    /// starts zeroed).
    fn end(&mut self, slot: usize) -> Result<bool, SolverError> {
        self.copied[slot].synchronize().map_err(cuda("reading the NaN flag"))?;
        let host = self.host.as_mut_ptr().map_err(cuda("reading the NaN flag"))?;
        // SAFETY: the copy into this slot has completed (the event above);
        // the read is volatile since the write came from the device.
        Ok(unsafe { host.add(slot).read_volatile() } != 0)
    }
}

impl Drop for NonfiniteFlags {
    /// A check may still be copying into the host buffer (a run that
    /// failed between beginning and answering it): wait for the copies
    /// before the buffer is freed.
    fn drop(&mut self) {
        for event in &self.copied {
            let _ = event.synchronize();
        }
    }
}

/// SLOTS zeroed u32 of page-locked host memory.
fn zeroed_pinned(stream: &Arc<CudaStream>) -> Result<PinnedHostSlice<u32>, SolverError> {
    // SAFETY: the buffer is written (zeroed) below before anything reads it.
    let mut host = unsafe { stream.context().alloc_pinned_with_flags::<u32>(SLOTS, 0) }
        .map_err(cuda("allocating the NaN flags' host copy"))?;
    let ptr = host.as_mut_ptr().map_err(cuda("allocating the NaN flags' host copy"))?;
    // SAFETY: `ptr` holds SLOTS u32 that nothing else uses yet.
    unsafe { std::ptr::write_bytes(ptr, 0, SLOTS) };
    Ok(host)
}
