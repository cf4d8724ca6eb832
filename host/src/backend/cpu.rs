//! The CPU backend: the reference every GPU kernel is compared with.
//!
//! One rayon task per z-slice; each cell calls the same
//! `kernels_gpu::stencil::laplacian7` and `kernels_gpu::model::karma_step`
//! as the kernels, with the same `KarmaCoeffs` bits.

use kernels_gpu::model::karma_step;
use kernels_gpu::stencil::{laplacian7, mirror_neighbours};
use kernels_gpu::{GridDims, KarmaCoeffs, ZWindow};
use rayon::prelude::*;

use super::{BackendKind, Solver, SolverError};
use crate::domain::Domain;
use crate::fields::Fields;
use crate::scalar::Scalar;

pub struct CpuSolver<T> {
    dims: GridDims,
    coeffs: KarmaCoeffs<T>,
    u: Vec<T>,
    u_next: Vec<T>,
    v: Vec<T>,
}

impl<T: Scalar> CpuSolver<T> {
    /// # Panics
    /// If `initial` does not have the domain's dimensions.
    /// Slice `z` of U (row-major, `nx * ny` values).
    pub fn u_slice(&self, z: u32) -> &[T] {
        let n = self.dims.slice_cells();
        &self.u[z as usize * n..(z as usize + 1) * n]
    }

    /// Slice `z` of U, writable (halo exchange).
    pub fn u_slice_mut(&mut self, z: u32) -> &mut [T] {
        let n = self.dims.slice_cells();
        &mut self.u[z as usize * n..(z as usize + 1) * n]
    }

    pub fn new(domain: &Domain, initial: &Fields<T>) -> Self {
        assert_eq!(initial.dims(), domain.dims(), "initial fields match the domain");
        Self {
            dims: domain.dims(),
            coeffs: domain.coeffs(),
            u: initial.u_slice().to_vec(),
            u_next: vec![T::ZERO; domain.cells()],
            v: initial.v_slice().to_vec(),
        }
    }

    fn step_once(&mut self) {
        self.step_window(ZWindow::all(self.dims.nz));
    }

    /// One step of the slices in `window` only, then the buffers swap; the
    /// other slices of the new U hold stale values (a sub-domain's halo
    /// slices, refilled by the halo exchange).
    pub fn step_window(&mut self, window: ZWindow) {
        // The shared math uses explicit fused multiply-adds. Without the FMA
        // instruction they become calls to a software `fma`: correct (the
        // same single rounding) but several times slower, so the per-slice
        // loop is also built with FMA enabled and chosen when the processor
        // has it.
        #[cfg(target_arch = "x86_64")]
        let fma = std::arch::is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        let fma = false;
        let g = self.dims;
        let c = self.coeffs;
        let u = &self.u;
        let slice = g.slice_cells();
        let (lo, hi) = (window.begin as usize * slice, window.end as usize * slice);
        self.u_next[lo..hi]
            .par_chunks_mut(slice)
            .zip(self.v[lo..hi].par_chunks_mut(slice))
            .enumerate()
            .for_each(|(i, (u_next, v))| {
                let z = window.begin as usize + i;
                #[cfg(target_arch = "x86_64")]
                if fma {
                    // SAFETY: the processor supports FMA (detected above).
                    unsafe { step_slice_fma(u, u_next, v, g, &c, z as u32) };
                    return;
                }
                let _ = fma;
                step_slice(u, u_next, v, g, &c, z as u32);
            });
        std::mem::swap(&mut self.u, &mut self.u_next);
    }
}

/// [`step_slice`] compiled with the FMA instruction available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn step_slice_fma<T: Scalar>(
    u: &[T],
    u_next: &mut [T],
    v: &mut [T],
    g: GridDims,
    c: &KarmaCoeffs<T>,
    z: u32,
) {
    step_slice(u, u_next, v, g, c, z);
}

/// Advances z-slice `z`: reads `u` (the whole grid), writes this slice of
/// U_next and updates this slice of v.
#[inline(always)]
fn step_slice<T: Scalar>(u: &[T], u_next: &mut [T], v: &mut [T], g: GridDims, c: &KarmaCoeffs<T>, z: u32) {
    let (zm, zp) = mirror_neighbours(z, g.nz);
    for y in 0..g.ny {
        let (ym, yp) = mirror_neighbours(y, g.ny);
        for x in 0..g.nx {
            let (xm, xp) = mirror_neighbours(x, g.nx);
            let uc = u[g.index(x, y, z)];
            let lap = laplacian7(
                uc,
                u[g.index(xm, y, z)],
                u[g.index(xp, y, z)],
                u[g.index(x, ym, z)],
                u[g.index(x, yp, z)],
                u[g.index(x, y, zm)],
                u[g.index(x, y, zp)],
            );
            let local = (y * g.nx + x) as usize;
            let (un, vn) = karma_step(uc, v[local], lap, c);
            u_next[local] = un;
            v[local] = vn;
        }
    }
}

impl<T: Scalar> Solver<T> for CpuSolver<T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Cpu
    }

    fn device_name(&self) -> String {
        format!("CPU ({} threads)", rayon::current_num_threads())
    }

    fn method(&self) -> String {
        "cpu-reference".into()
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            self.step_once();
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        Ok(())
    }

    fn fields(&mut self) -> Result<Fields<T>, SolverError> {
        Ok(Fields::from_vecs(self.dims, self.u.clone(), self.v.clone()))
    }

    fn set_fields(&mut self, fields: &Fields<T>) -> Result<(), SolverError> {
        assert_eq!(fields.dims(), self.dims, "fields match the solver's grid");
        self.u.copy_from_slice(fields.u_slice());
        self.v.copy_from_slice(fields.v_slice());
        Ok(())
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        Ok(self.u.par_iter().any(|x| !x.is_finite()))
    }
}
