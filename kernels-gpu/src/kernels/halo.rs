//! Runs of values copied by a kernel ([`crate::halo::CopyRuns`]): a CUDA
//! graph that spans the GPUs can hold a kernel that writes a peer's
//! memory, while the driver's peer copies cannot be captured
//! (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`, host `multi::gpu::replay`),
//! and one launch for every run of an exchange or a mirror costs one
//! graph node where a copy per run costs one each.

use crate::gpu::{block_idx, flat_thread_count, flat_thread_index};
use crate::halo::{CopyRuns, MAX_RUNS};
use crate::real::Real;

super::entry::precision_kernel! {
    halo, copy;
    /// Copies each run of `runs` bit for bit (a load and a store, no
    /// arithmetic): block row `y` copies run `y`, its blocks along x a
    /// grid-stride loop over the run's values.
    ///
    /// # Safety
    /// For every run below `runs.count`: `src` and `dst` hold `runs.len`
    /// elements of `T` each, no run's `dst` overlaps another's `src` or
    /// `dst`; either may lie on another GPU whose memory this one may
    /// access (peer access enabled). Any grid with at least `runs.count`
    /// block rows works.
    unsafe fn halo_copy<T: Real>(runs: CopyRuns) {
        let (_, r, _) = block_idx();
        if r >= runs.count {
            return;
        }
        // Run r's addresses by selects over constant indices: indexing
        // the parameter by r would copy all of it to local memory first.
        let (mut src, mut dst) = (0u64, 0u64);
        let mut k = 0;
        while k < MAX_RUNS {
            if k as u32 == r {
                (src, dst) = (runs.src[k], runs.dst[k]);
            }
            k += 1;
        }
        let (src, dst) = (src as *const T, dst as *mut T);
        let n = runs.len as usize;
        let mut i = flat_thread_index();
        let stride = flat_thread_count();
        while i < n {
            // SAFETY: i < len, and the run's buffers hold len elements (the contract).
            unsafe { *dst.add(i) = *src.add(i) };
            i += stride;
        }
    }
}
