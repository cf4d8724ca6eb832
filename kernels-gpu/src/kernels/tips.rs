//! Phase singularities on the device: one thread per base cell tests the
//! plaquettes that start there ([`crate::tips::plaquette_at`], the routine
//! the CPU's scan calls) and appends the charged ones to a list. The order
//! of the list is the order of the atomic appends, which varies; the host
//! sorts it into the CPU's order (normal, then base cell row-major).

use core::sync::atomic::{AtomicU32, Ordering};

use crate::gpu::{flat_thread_count, flat_thread_index};
use crate::layout::grid::GridDims;
use crate::real::Real;
use crate::tips::plaquette_at;

super::entry::precision_kernel! {
    phase, plaquettes;
    /// Appends every charged plaquette of `grid`: for record `i`, `position[2i
    /// .. 2i + 2]` = (s, t) and `ids[5i .. 5i + 5]` = (normal, x, y, z,
    /// charge as i32 bits). `*count` ends as the number found, which may
    /// exceed `capacity`: then only `capacity` records were written and the
    /// host launches again with more room.
    ///
    /// # Safety
    /// `now` and `prev` hold `grid.cells()` values (row-major); `position`
    /// holds 2 `capacity` f64 and `ids` 5 `capacity` u32; `count` points to
    /// one u32 the host zeroed. Any 1D launch (grid-stride loop).
    #[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
    unsafe fn find<T: Real>(
        now: *const T,
        prev: *const T,
        grid: GridDims,
        v_star: f64,
        position: *mut f64,
        ids: *mut u32,
        count: *mut u32,
        capacity: u32,
    ) {
        let cells = grid.cells();
        let mut k = flat_thread_index();
        let stride = flat_thread_count();
        // SAFETY: `count` is a valid, aligned u32 for the whole launch.
        let counter = unsafe { AtomicU32::from_ptr(count) };
        while k < cells {
            let x = (k % grid.nx as usize) as u32;
            let y = ((k / grid.nx as usize) % grid.ny as usize) as u32;
            let z = (k / grid.slice_cells()) as u32;
            let mut normal = 0;
            while normal < 3 {
                // SAFETY: (x, y, z) is a cell of `grid`; the fields hold its cells.
                if let Some(sing) = unsafe { plaquette_at(now, prev, grid, normal, [x, y, z], v_star) }
                    && sing.charge != 0
                {
                    let i = counter.fetch_add(1, Ordering::Relaxed);
                    if i < capacity {
                        let i = i as usize;
                        // SAFETY: i < capacity, within both lists.
                        unsafe {
                            *position.add(2 * i) = sing.s;
                            *position.add(2 * i + 1) = sing.t;
                            *ids.add(5 * i) = normal;
                            *ids.add(5 * i + 1) = x;
                            *ids.add(5 * i + 2) = y;
                            *ids.add(5 * i + 3) = z;
                            *ids.add(5 * i + 4) = sing.charge as u32;
                        }
                    }
                }
                normal += 1;
            }
            k += stride;
        }
    }
}
