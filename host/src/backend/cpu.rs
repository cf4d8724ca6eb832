//! The CPU backend: the reference every GPU kernel is compared with.
//!
//! One rayon task per z-slice; each cell calls the same
//! `kernels_gpu::stencil::laplacian7` and `kernels_gpu::model::karma_step`
//! as the kernels, with the same `KarmaCoeffs` bits.

use kernels_gpu::model::karma_step;
use kernels_gpu::stencil::{laplacian7, mirror_neighbours};
use kernels_gpu::{GridDims, KarmaCoeffs};
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
        let g = self.dims;
        let c = self.coeffs;
        let u = &self.u;
        let slice = g.slice_cells();
        self.u_next.par_chunks_mut(slice).zip(self.v.par_chunks_mut(slice)).enumerate().for_each(
            |(z, (u_next, v))| {
                let z = z as u32;
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
                        let (un, vn) = karma_step(uc, v[local], lap, &c);
                        u_next[local] = un;
                        v[local] = vn;
                    }
                }
            },
        );
        std::mem::swap(&mut self.u, &mut self.u_next);
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
