//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses a different subset

use fibril_host::backend::{CpuSolver, Solver};
use fibril_host::{Domain, Fields, GridDims, KarmaParams, Reaction, Scalar};

pub fn domain(dims: GridDims, reaction: Reaction) -> Domain {
    Domain::new(dims, 0.6, 0.05, 1.0, KarmaParams::default(), reaction).expect("valid test domain")
}

/// Runs `steps` steps on the CPU reference and returns the fields.
pub fn cpu_run<T: Scalar>(domain: &Domain, initial: &Fields<T>, steps: u64) -> Fields<T> {
    let mut s = CpuSolver::new(domain, initial);
    s.advance(steps).unwrap();
    s.fields().unwrap()
}

/// Deterministic values in [0, 1) (a 64-bit LCG), so tests need no RNG crate.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Largest |a - b| over two fields, with where it happens.
pub fn max_abs_diff(a: &ndarray::Array3<f64>, b: &ndarray::Array3<f64>) -> (f64, [usize; 3]) {
    let mut worst = (0.0, [0, 0, 0]);
    for ((idx, x), y) in a.indexed_iter().zip(b.iter()) {
        let d = (x - y).abs();
        if d > worst.0 || d.is_nan() {
            worst = (d, [idx.0, idx.1, idx.2]);
        }
    }
    worst
}

/// A planar wave across a 32^3 grid after `steps` steps, for comparisons.
pub fn planar_start<T: Scalar>(dims: GridDims) -> Fields<T> {
    fibril_host::init::InitialCondition::Planar.fields(dims)
}

/// A scroll-wave-like start with structure along every axis: excited slab
/// at low z, a refractory (v = 1) half in x, a hot corner. Exercises every
/// boundary and neighbour direction, unlike a plain planar wave.
pub fn rich_start<T: Scalar>(dims: GridDims) -> Fields<T> {
    let mut rng = Lcg(42);
    Fields::from_fn(dims, |x, y, z| {
        let noise = 0.05 * rng.next_unit();
        let u = if z < 3 || (x < 4 && y < 5) { 3.0 } else { noise };
        let v = if x > dims.nx / 2 { 0.9 } else { 0.1 * rng.next_unit() };
        (T::from_f64(u), T::from_f64(v))
    })
}
