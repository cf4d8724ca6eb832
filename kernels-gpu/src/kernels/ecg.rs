//! The pseudo-ECG's sum on the device: each block adds the terms
//! ([`crate::ecg::ecg_cell_term`]) of its cells in f64 and writes one
//! partial sum; the host adds the partial sums in block order. The order
//! is fixed by the launch, so a run gives the same bits every time; it is
//! not the CPU's order, so CPU and GPU agree to f64 rounding.

use crate::ecg::{EcgProbe, ecg_cell_term};
use crate::gpu::{block_dim, block_idx, dynamic_shared, grid_dim_x, sync_threads, thread_idx};
use crate::layout::grid::{GridDims, ZWindow};
use crate::real::Real;
use crate::stencil::mirror_neighbours;

super::entry::precision_kernel! {
    ecg, partial;
    /// Partial sums of the terms of the cells of `window` (local slices) of the
    /// row-major buffer `u` of `grid`, one per block, into `partials`.
    ///
    /// # Safety
    /// `u` holds `grid.cells()` values; `partials` one f64 per block; launch
    /// with a 1D grid and a 1D block of a power of two threads with as many
    /// f64 of dynamic shared memory. With `halos != 0` the slices next to the
    /// window are its z neighbours (a sub-domain's halos), else the mirror rule
    /// applies at the ends of `grid`. Cell z of the buffer lies at global slice
    /// `z + z_offset`.
    #[allow(clippy::too_many_arguments, reason = "the kernel's parameter list, one to one")]
    unsafe fn partial_sums<T: Real>(
        u: *const T,
        grid: GridDims,
        window: ZWindow,
        z_offset: i32,
        halos: u32,
        probe: EcgProbe,
        partials: *mut f64,
    ) {
        let (t, _) = thread_idx();
        let (b, _, _) = block_idx();
        let (threads, _) = block_dim();
        let slice = grid.slice_cells();
        let n = window.len() as usize * slice;
        let mut k = b as usize * threads as usize + t as usize;
        let stride = grid_dim_x() as usize * threads as usize;
        let mut sum = 0.0f64;
        // SAFETY: every index is a cell of `grid` (mirror or halo neighbours);
        // shared memory holds `threads` f64; all threads reach every barrier.
        unsafe {
            while k < n {
                let x = (k % grid.nx as usize) as u32;
                let y = ((k / grid.nx as usize) % grid.ny as usize) as u32;
                let z = window.begin + (k / slice) as u32;
                let (xm, xp) = mirror_neighbours(x, grid.nx);
                let (ym, yp) = mirror_neighbours(y, grid.ny);
                let (zm, zp) = if halos != 0 { (z - 1, z + 1) } else { mirror_neighbours(z, grid.nz) };
                let at = |x, y, z| *u.add(grid.index(x, y, z));
                let gz = (z as i64 + z_offset as i64) as u32;
                sum += ecg_cell_term(
                    at(xm, y, z),
                    at(xp, y, z),
                    at(x, ym, z),
                    at(x, yp, z),
                    at(x, y, zm),
                    at(x, y, zp),
                    x,
                    y,
                    gz,
                    &probe,
                );
                k += stride;
            }
            let shared = dynamic_shared::<f64>();
            *shared.add(t as usize) = sum;
            sync_threads();
            let mut half = threads / 2;
            while half > 0 {
                if t < half {
                    *shared.add(t as usize) += *shared.add((t + half) as usize);
                }
                sync_threads();
                half /= 2;
            }
            if t == 0 {
                *partials.add(b as usize) = *shared;
            }
        }
    }
}
