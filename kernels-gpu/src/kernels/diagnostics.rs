//! Element-wise checks run between steps.

use crate::gpu::{flat_thread_count, flat_thread_index};
use crate::real::Real;

super::entry::precision_kernel! {
    flag, nonfinite;
    /// Sets `*flag = 1` if any of the `n` values is NaN or infinite.
    ///
    /// # Safety
    /// `values` holds `n` elements; `flag` points to one `u32` that the host
    /// zeroed. Any 1D launch works (grid-stride loop). Several threads may store
    /// 1 concurrently; they all store the same value.
    unsafe fn flag_nonfinite<T: Real>(values: *const T, n: u64, flag: *mut u32) {
        let n = n as usize;
        let mut i = flat_thread_index();
        let stride = flat_thread_count();
        while i < n {
            // SAFETY: i < n and the caller guarantees `values` holds n elements.
            if !unsafe { *values.add(i) }.is_finite() {
                // SAFETY: the caller guarantees `flag` is valid.
                unsafe { core::ptr::write_volatile(flag, 1) };
            }
            i += stride;
        }
    }
}
