//! The halo runs of a grid split over GPUs, copied by a kernel: a CUDA
//! graph that spans the GPUs can hold a kernel that writes a peer's memory,
//! while the driver's peer copies cannot be captured
//! (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`, host `multi::gpu::replay`).

use crate::gpu::{flat_thread_count, flat_thread_index};
use crate::real::Real;

super::entry::precision_kernel! {
    halo, copy;
    /// Copies the `n` values at `src` to `dst`, bit for bit (a load and a
    /// store, no arithmetic).
    ///
    /// # Safety
    /// `src` and `dst` hold `n` elements each and do not overlap; either
    /// may lie on another GPU whose memory this one may access (peer
    /// access enabled). Any 1D launch works (grid-stride loop).
    unsafe fn halo_copy<T: Real>(src: *const T, dst: *mut T, n: u64) {
        let n = n as usize;
        let mut i = flat_thread_index();
        let stride = flat_thread_count();
        while i < n {
            // SAFETY: i < n and both buffers hold n elements (the contract).
            unsafe { *dst.add(i) = *src.add(i) };
            i += stride;
        }
    }
}
