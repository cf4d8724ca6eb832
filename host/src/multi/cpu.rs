//! The z-split run on CPU sub-domains: the reference for the multi-GPU
//! decomposition and halo indexing, testable without a GPU.

use super::split::ZSplit;
use crate::backend::{BackendKind, CpuSolver, Solver, SolverError};
use crate::domain::Domain;
use crate::fields::Fields;
use crate::scalar::Scalar;

/// G CPU sub-domains that exchange halo slices after every step.
pub struct CpuMultiSolver<T> {
    split: ZSplit,
    parts: Vec<CpuSolver<T>>,
}

impl<T: Scalar> CpuMultiSolver<T> {
    pub fn new(domain: &Domain, initial: &Fields<T>, split: ZSplit) -> Self {
        assert_eq!(split.nz(), domain.dims().nz, "split covers the grid");
        let parts = (0..split.parts())
            .map(|i| {
                let local = domain.with_nz(split.local_dims(domain.dims(), i).nz);
                CpuSolver::new(&local, &split.scatter(initial, i))
            })
            .collect();
        Self { split, parts }
    }

    /// Refills every halo slice from its source (neighbour or mirror).
    pub fn exchange_halos(&mut self) {
        for i in 0..self.parts.len() {
            let n = self.split.owned_len(i);
            for (halo, (src, src_local)) in [0, n + 1].into_iter().zip(self.split.halo_sources(i)) {
                let values = self.parts[src].u_slice(src_local).to_vec();
                self.parts[i].u_slice_mut(halo).copy_from_slice(&values);
            }
        }
    }

    pub fn split(&self) -> &ZSplit {
        &self.split
    }
}

impl<T: Scalar> Solver<T> for CpuMultiSolver<T> {
    fn kind(&self) -> BackendKind {
        BackendKind::Cpu
    }

    fn device_name(&self) -> String {
        format!("CPU, {} z-slabs ({} threads)", self.parts.len(), rayon::current_num_threads())
    }

    fn method(&self) -> String {
        "cpu-reference z-split".into()
    }

    fn advance(&mut self, steps: u64) -> Result<(), SolverError> {
        for _ in 0..steps {
            for (i, part) in self.parts.iter_mut().enumerate() {
                part.step_window(self.split.owned_window(i));
            }
            self.exchange_halos();
        }
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), SolverError> {
        Ok(())
    }

    fn fields(&mut self) -> Result<Fields<T>, SolverError> {
        let parts = self.parts.iter_mut().map(|p| p.fields()).collect::<Result<Vec<_>, _>>()?;
        Ok(self.split.gather(&parts))
    }

    fn set_fields(&mut self, fields: &Fields<T>) -> Result<(), SolverError> {
        for (i, part) in self.parts.iter_mut().enumerate() {
            part.set_fields(&self.split.scatter(fields, i))?;
        }
        Ok(())
    }

    fn any_nonfinite(&mut self) -> Result<bool, SolverError> {
        for part in &mut self.parts {
            if part.any_nonfinite()? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::KarmaParams;
    use kernels_gpu::{GridDims, Reaction};

    fn domain(dims: GridDims) -> Domain {
        Domain::new(dims, 0.6, 0.05, 1.0, KarmaParams::default(), Reaction::Karma).unwrap()
    }

    /// ImplicitGlobalGrid's halo test: every cell holds its global
    /// coordinate, the halos are zeroed, one exchange must restore them exactly.
    #[test]
    fn exchange_restores_zeroed_halos_exactly() {
        let dims = GridDims::new(4, 3, 10);
        let coords = Fields::<f64>::from_fn(dims, |x, y, z| ((x + 10 * y + 100 * z) as f64, 0.0));
        let split = ZSplit::balanced(10, 3).unwrap();
        let mut multi = CpuMultiSolver::new(&domain(dims), &coords, split.clone());
        for i in 0..3 {
            let n = split.owned_len(i);
            multi.parts[i].u_slice_mut(0).fill(0.0);
            multi.parts[i].u_slice_mut(n + 1).fill(0.0);
        }
        multi.exchange_halos();
        for i in 0..3 {
            let f = multi.parts[i].fields().unwrap();
            for ((z, y, x), u) in f.u.indexed_iter() {
                let g = split.global_slice(i, z as u32);
                assert_eq!(*u, (x + 10 * y + 100 * g as usize) as f64, "part {i} local z {z}");
            }
        }
    }

    #[test]
    fn split_runs_are_bit_identical_to_the_single_domain() {
        let dims = GridDims::new(13, 11, 17);
        let d = domain(dims);
        let mut rng = 12345u64;
        let start = Fields::<f32>::from_fn(dims, |x, _, z| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let noise = (rng >> 40) as f32 / (1u64 << 24) as f32 * 0.05;
            (if z < 3 || x < 3 { 3.0 } else { noise }, if x > 6 { 0.9 } else { 0.0 })
        });
        let mut single = CpuSolver::new(&d, &start);
        single.advance(300).unwrap();
        let want = single.fields().unwrap();
        for parts in [1, 2, 3, 8] {
            let mut multi = CpuMultiSolver::new(&d, &start, ZSplit::balanced(17, parts).unwrap());
            multi.advance(300).unwrap();
            let got = multi.fields().unwrap();
            assert!(
                got.u.iter().zip(want.u.iter()).all(|(a, b)| a.to_bits() == b.to_bits()),
                "{parts} parts: U differs"
            );
            assert!(
                got.v.iter().zip(want.v.iter()).all(|(a, b)| a.to_bits() == b.to_bits()),
                "{parts} parts: v differs"
            );
        }
    }
}
