//! The stimulus kernel: one thread per cell of a stimulus's bounding box
//! in a buffer (the body is [`crate::events::stimulate_cell`], the CPU's
//! too).

use crate::events::{Recorder, SlicePlacement, StimulusArgs, stimulate_cell};
use crate::gpu::{flat_thread_count, flat_thread_index};
use crate::layout::grid::GridDims;
use crate::layout::tower::TowerLayout;
use crate::real::Real;

super::entry::precision_kernel! {
    stimulate, cells;
    /// Applies `args` to the cells `origin + (0..extent)` of `u`.
    ///
    /// # Safety
    /// `u` is the buffer of `grid` (towers when `towers != 0`, laid out by
    /// `lay`), the box lies inside `grid`, `rec` is off or valid for `grid`,
    /// the mask (if any) holds a bit per cell of `grid`. Any 1D launch
    /// (grid-stride loop); each cell is visited by one thread.
    #[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
    unsafe fn stimulate<T: Real>(
        u: *mut T,
        grid: GridDims,
        lay: TowerLayout,
        towers: u32,
        place: SlicePlacement,
        args: StimulusArgs<T>,
        rec: Recorder<T>,
        origin: GridDims,
        extent: GridDims,
    ) {
        let n = extent.cells();
        let mut k = flat_thread_index();
        let stride = flat_thread_count();
        let lay = if towers != 0 { Some(&lay) } else { None };
        while k < n {
            let (ex, ey) = (extent.nx as usize, extent.ny as usize);
            let x = origin.nx + (k % ex) as u32;
            let y = origin.ny + ((k / ex) % ey) as u32;
            let z = origin.nz + (k / (ex * ey)) as u32;
            // SAFETY: (x, y, z) is inside the grid; the rest per the contract.
            unsafe { stimulate_cell(u, grid, lay, place, &args, &rec, (x, y, z)) };
            k += stride;
        }
    }
}
