//! A state copied out behind the computation (Vasconcellos et al. 2024,
//! section 2.7: results copied to the host on a second stream while the
//! next steps run). The state is first copied on the device, on the
//! compute stream, into a staging buffer (microseconds: device memory
//! bandwidth), so that the steps after it may overwrite U at once; the
//! staging buffer then goes to pinned host memory on a stream of its own
//! while the compute stream runs on. The staging buffer is refilled only
//! after its last copy out has finished (the compute stream waits for it).

use std::sync::Arc;

use cudarc::driver::{CudaEvent, CudaSlice, CudaStream, PinnedHostSlice};

use crate::backend::gpu::cuda::cuda;
use crate::scalar::Scalar;
use crate::solver::SolverError;

pub(crate) struct StateCopy<T> {
    /// The copy stream.
    stream: Arc<CudaStream>,
    staging: CudaSlice<T>,
    host: PinnedHostSlice<T>,
    /// Recorded on the compute stream: the staging buffer holds the state.
    staged: CudaEvent,
    /// Recorded on the copy stream: the host buffer holds the state, and
    /// the staging buffer is free.
    copied: CudaEvent,
    /// Values copied by the latest `begin`, not yet collected.
    in_flight: Option<usize>,
}

impl<T: Scalar> StateCopy<T> {
    /// Buffers for up to `len` values, on the device of `compute`.
    pub fn new(compute: &Arc<CudaStream>, len: usize) -> Result<Self, SolverError> {
        let ctx = compute.context().clone();
        let len = len.max(1);
        let event = || ctx.new_event(None).map_err(cuda("creating an event"));
        Ok(Self {
            stream: ctx.new_stream().map_err(cuda("creating the copy stream"))?,
            staging: compute.alloc_zeros::<T>(len).map_err(cuda("allocating the staging buffer"))?,
            // SAFETY: read only after a copy has filled it (`collect`).
            // Not write-combined: the host reads it.
            host: unsafe { ctx.alloc_pinned_with_flags::<T>(len, 0) }
                .map_err(cuda("allocating pinned host memory"))?,
            staged: event()?,
            copied: event()?,
            in_flight: None,
        })
    }

    /// Enqueues the copy of the first `len` values of each source, one
    /// after another: on `compute` into the staging buffer, then on the
    /// copy stream to the host.
    pub fn begin(
        &mut self,
        compute: &Arc<CudaStream>,
        sources: &[(&CudaSlice<T>, usize)],
    ) -> Result<(), SolverError> {
        assert!(self.in_flight.is_none(), "the previous copy is collected first");
        let total: usize = sources.iter().map(|(_, n)| n).sum();
        assert!(total <= self.staging.len(), "the staging buffer holds the sources");
        // The staging buffer's last copy out has finished (an event never
        // recorded counts as done).
        compute.wait(&self.copied).map_err(cuda("ordering a state copy"))?;
        let mut at = 0;
        for &(src, n) in sources {
            let mut dst = self.staging.slice_mut(at..at + n);
            compute.memcpy_dtod(&src.slice(0..n), &mut dst).map_err(cuda("staging the state"))?;
            at += n;
        }
        self.staged.record(compute).map_err(cuda("recording an event"))?;
        self.stream.wait(&self.staged).map_err(cuda("ordering a state copy"))?;
        let staged = self.staging.slice(0..total);
        self.stream.memcpy_dtoh(&staged, &mut self.host).map_err(cuda("copying the state to the host"))?;
        self.copied.record(&self.stream).map_err(cuda("recording an event"))?;
        self.in_flight = Some(total);
        Ok(())
    }

    /// Waits for the copy begun last; its values, in the sources' order.
    pub fn collect(&mut self) -> Result<&[T], SolverError> {
        let total = self.in_flight.take().expect("a copy was begun");
        self.copied.synchronize().map_err(cuda("copying the state to the host"))?;
        let values = self.host.as_slice().map_err(cuda("reading the copied state"))?;
        Ok(&values[..total])
    }
}
