//! Tables as the host builds them: the rows of a model's table
//! ([`rows_for`]), filled from its f64 functions ([`fill`]) in 16-byte
//! aligned quads ([`TableRows`]), and the interpolation error a test
//! states ([`worst_errors`]). Apart from the reads ([`super::lookup`])
//! because it asks the model for its columns ([`CellModel`]), whose trait
//! in turn names the table's shape and reads.

use super::lookup::{RateTable, TableSpec};
use crate::layout::quad::{QUAD, Quad};
use crate::model::CellModel;
use crate::real::Real;

/// A table's values, rows of [`TableSpec::row_len`] values in 16-byte
/// aligned quads, as the host builds them.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRows<T> {
    quads: Vec<Quad<T>>,
}

impl<T: Real> TableRows<T> {
    /// The values, row after row.
    pub fn values(&self) -> &[T] {
        // SAFETY: `Quad<T>` is `repr(C)` over `[T; 4]` with no padding
        // (16 or 32 bytes for 4 f32 or f64), so the quads are 4 * len
        // consecutive values.
        unsafe { std::slice::from_raw_parts(self.quads.as_ptr() as *const T, 4 * self.quads.len()) }
    }

    /// The address of row 0, for [`RateTable::new`].
    pub fn address(&self) -> u64 {
        self.quads.as_ptr() as usize as u64
    }

    /// The table, given up to live as long as the process (the host's
    /// tables: coefficients that point at them are copied freely).
    pub fn leak(self) -> &'static [T] {
        let quads: &'static [Quad<T>] = Box::leak(self.quads.into_boxed_slice());
        // SAFETY: as in `values`.
        unsafe { std::slice::from_raw_parts(quads.as_ptr() as *const T, 4 * quads.len()) }
    }
}

/// Fills a table: `row(v, out)` writes the columns at potential `v` (mV)
/// in f64; each value is rounded once to `T` and each difference is taken
/// between the rounded values.
pub fn fill<T: Real>(spec: &TableSpec, mut row: impl FnMut(f64, &mut [f64])) -> TableRows<T> {
    let mut at = vec![0.0; spec.columns];
    let samples: Vec<Vec<T>> = (0..spec.rows())
        .map(|i| {
            at.iter_mut().for_each(|x| *x = f64::NAN);
            row(spec.v_at(i), &mut at);
            at.iter().map(|&x| T::from_f64(x)).collect()
        })
        .collect();
    let mut values = Vec::with_capacity(spec.rows() * spec.row_len());
    for (i, row) in samples.iter().enumerate() {
        // The last row is never an interval's start: its differences are 0.
        let next = samples.get(i + 1).unwrap_or(row);
        for (&a, &b) in row.iter().zip(next) {
            values.extend([a, b - a]);
        }
        values.resize((i + 1) * spec.row_len(), T::ZERO);
    }
    let quads = values.chunks_exact(QUAD as usize).map(|q| Quad([q[0], q[1], q[2], q[3]])).collect();
    TableRows { quads }
}

/// The table of model `M` for `params` and `dt` in precision `T`, or
/// `None` if the model has none.
pub fn rows_for<M: CellModel, T: Real>(params: &[f64], dt: f64) -> Option<TableRows<T>> {
    let spec = M::RATE_TABLE?;
    Some(fill(&spec, |v, out| M::table_columns(params, dt, v, out)))
}

/// The largest interpolation error of every column of a table against
/// the function it samples, over `points` potentials spread evenly over
/// the table, relative to the column's largest magnitude there (so a
/// column that crosses zero is measured on its own scale), leaving out
/// the potentials in `skip` (the intervals where a model's function
/// jumps, which interpolation blends): how tests state a table's accuracy.
pub fn worst_errors<T: Real>(
    spec: &TableSpec,
    rows: &TableRows<T>,
    points: usize,
    skip: &[(f64, f64)],
    mut exact: impl FnMut(f64, &mut [f64]),
) -> Vec<f64> {
    assert_eq!(rows.values().len(), spec.rows() * spec.row_len(), "a table of this shape");
    let table = RateTable::<T>::new(rows.address(), spec);
    let mut want = vec![0.0; spec.columns];
    let mut worst = vec![0.0f64; spec.columns];
    let mut scale = vec![0.0f64; spec.columns];
    for k in 0..points {
        let v =
            T::from_f64(spec.v_min_mv + (spec.v_max_mv() - spec.v_min_mv) * (k as f64 + 0.5) / points as f64);
        if skip.iter().any(|&(lo, hi)| lo <= v.to_f64() && v.to_f64() <= hi) {
            continue;
        }
        let row = table.locate(v).expect("inside the table");
        exact(v.to_f64(), &mut want);
        for c in 0..spec.columns {
            // SAFETY: c < columns; `rows` outlives the loop. Read as the
            // models read: in pairs.
            let pair = unsafe { row.get_pair(c / 2) };
            let got = if c % 2 == 0 { pair.0 } else { pair.1 }.to_f64();
            // SAFETY: as above.
            let single = unsafe { row.get(c) }.to_f64();
            assert_eq!(got.to_bits(), single.to_bits(), "pair and single reads agree");
            worst[c] = worst[c].max((got - want[c]).abs());
            scale[c] = scale[c].max(want[c].abs());
        }
    }
    worst.iter().zip(&scale).map(|(w, s)| if *s > 0.0 { w / s } else { *w }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: TableSpec = TableSpec { v_min_mv: -100.0, step_mv: 0.5, intervals: 400, columns: 2 };

    #[test]
    fn errors_of_a_curved_function_shrink_with_the_square_of_the_step() {
        let exp = |v: f64, out: &mut [f64]| {
            out[0] = (0.1 * v).exp();
            out[1] = 1.0 / (1.0 + (-v / 5.0).exp());
        };
        let coarse = TableSpec { step_mv: 1.0, intervals: 200, ..SPEC };
        let fine = TableSpec { step_mv: 0.1, intervals: 2000, ..SPEC };
        let e_coarse = worst_errors::<f64>(&coarse, &fill(&coarse, exp), 10_000, &[], exp);
        let e_fine = worst_errors::<f64>(&fine, &fill(&fine, exp), 10_000, &[], exp);
        // Linear interpolation: |error| <= h^2/8 max|f''|, which for e^{0.1 v}
        // at h = 1 is 0.01/8 of the largest value.
        assert!(e_coarse[0] <= 0.01 / 8.0 * 1.0001 && e_coarse[0] > 0.01 / 8.0 * 0.9, "{e_coarse:?}");
        for c in 0..2 {
            let ratio = e_coarse[c] / e_fine[c];
            assert!(ratio > 80.0 && ratio < 120.0, "column {c}: {ratio}");
        }
    }
}
