//! The rate tables of runs that ask for them (`--rate-tables`; Bartocci
//! et al. 2011, section 5; `kernels_gpu::rate_table`), on the host.
//!
//! A table is built once per (model, parameters, dt, precision) and kept
//! for the life of the process: the model's coefficients carry the
//! table's address and are copied freely (into every CPU solver, part and
//! probe), so the memory they point at must never move or go away. A run
//! builds one or two tables of well under a megabyte each. The GPU
//! solvers upload a copy ([`host_rows`] gives them the values) and point
//! their own coefficients at it.

use std::sync::Mutex;

use kernels_gpu::model::CellModel;
use kernels_gpu::rate_table::{RateTable, rows_for};

use crate::scalar::Scalar;

/// One kept table: what it was built for, and where its values lie.
struct Kept {
    model: &'static str,
    parameter_bits: Vec<u64>,
    dt_bits: u64,
    precision: &'static str,
    address: u64,
    len: usize,
}

static KEPT: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

/// The table of model `M` for `params` and `dt` in precision `T`, built
/// on first use and kept; `None` if the model has no table.
pub fn host_table<M: CellModel, T: Scalar>(params: &[f64], dt: f64) -> Option<RateTable<T>> {
    let spec = M::RATE_TABLE?;
    let parameter_bits: Vec<u64> = params.iter().map(|p| p.to_bits()).collect();
    let mut kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let found = kept.iter().find(|k| {
        k.model == M::INFO.name
            && k.parameter_bits == parameter_bits
            && k.dt_bits == dt.to_bits()
            && k.precision == T::NAME
    });
    let address = match found {
        Some(k) => k.address,
        None => {
            let rows: &'static [T] = rows_for::<M, T>(params, dt)?.leak();
            let address = rows.as_ptr() as usize as u64;
            kept.push(Kept {
                model: M::INFO.name,
                parameter_bits,
                dt_bits: dt.to_bits(),
                precision: T::NAME,
                address,
                len: rows.len(),
            });
            address
        }
    };
    Some(RateTable::new(address, &spec))
}

/// The values of the host table that coefficients `c` carry, for a copy
/// on a device; `None` if they carry none (or one this module did not
/// build, which no code path makes).
pub fn host_rows<M: CellModel, T: Scalar>(c: &M::Coeffs<T>) -> Option<&'static [T]> {
    let table = M::rate_table(c);
    if !table.is_present() {
        return None;
    }
    let kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let k = kept.iter().find(|k| k.address == table.address() && k.precision == T::NAME)?;
    // SAFETY: `address` is the start of a leaked, never freed `[T]` of
    // `len` values (built above for this precision).
    Some(unsafe { std::slice::from_raw_parts(k.address as usize as *const T, k.len) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernels_gpu::models::{BeelerReuter, Karma};

    fn defaults<M: CellModel>() -> Vec<f64> {
        M::INFO.parameters.iter().map(|p| p.default).collect()
    }

    #[test]
    fn a_table_is_built_once_per_model_parameters_dt_and_precision() {
        let p = defaults::<BeelerReuter>();
        let a = host_table::<BeelerReuter, f32>(&p, 0.02).unwrap();
        let b = host_table::<BeelerReuter, f32>(&p, 0.02).unwrap();
        assert_eq!(a, b, "the same table");
        let other_dt = host_table::<BeelerReuter, f32>(&p, 0.01).unwrap();
        let other_precision = host_table::<BeelerReuter, f64>(&p, 0.02).unwrap();
        let mut q = p.clone();
        q[0] = 5.0;
        let other_params = host_table::<BeelerReuter, f32>(&q, 0.02).unwrap();
        assert_ne!(a.address(), other_dt.address());
        assert_ne!(a.address(), other_precision.address());
        assert_ne!(a.address(), other_params.address());
        assert!(host_table::<Karma, f32>(&defaults::<Karma>(), 0.05).is_none());
    }

    #[test]
    fn coefficients_give_back_their_rows() {
        let p = defaults::<BeelerReuter>();
        let table = host_table::<BeelerReuter, f64>(&p, 0.02).unwrap();
        let c = BeelerReuter::with_rate_table(BeelerReuter::coeffs::<f64>(&p, 0.02), table);
        let rows = host_rows::<BeelerReuter, f64>(&c).unwrap();
        assert_eq!(rows, rows_for::<BeelerReuter, f64>(&p, 0.02).unwrap().values());
        assert_eq!(rows.as_ptr() as usize % 16, 0, "rows start 16-byte aligned");
        assert!(host_rows::<BeelerReuter, f64>(&BeelerReuter::coeffs::<f64>(&p, 0.02)).is_none());
    }
}
