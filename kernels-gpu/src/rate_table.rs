//! Lookup tables of the functions of the membrane potential alone, the
//! option Bartocci et al. 2011 (`seeds/003_...`, section 5) use to speed
//! up the detailed ionic models: the gates' steady states and Rush-Larsen
//! factors and the potential-only factors of the currents are sampled
//! once, before the run, every `step` mV, and each cell-step reads them
//! back by linear interpolation instead of evaluating a dozen or more
//! exponentials.
//!
//! A table is an option of a run (`--rate-tables`), never the only path:
//! every model that has one keeps its exact functions, which the tests,
//! the validation and the default runs use, and which also serve any cell
//! whose potential lies outside the table.
//!
//! Layout: row `i` holds, for each column `c`, the pair
//! `(f_c(V_i), f_c(V_{i+1}) - f_c(V_i))` with `V_i = v_min + i step`, both
//! rounded to the compute precision on the host (the values from the f64
//! functions, the difference in the compute precision), so that
//! interpolation is one fused multiply-add per column, `d frac + a`, and a
//! cell reads one row. Rows are padded to a whole number of 16-byte
//! aligned [`Quad`]s, so two columns (a gate's steady state and its
//! Rush-Larsen factor, say) come in one 128-bit load in f32 (two 128-bit
//! loads in f64) rather than four scalar ones. The index is found with the same pure IEEE
//! operations on both sides (`Real::round_split`, no float-to-integer
//! conversion), so CPU and GPU interpolate the same bits.

#[cfg(not(target_arch = "nvptx64"))]
use crate::layout::quad::Quad;
use crate::layout::quad::{self, QUAD};
use crate::real::Real;

/// Where a model's table lies in potential and how wide it is; a constant
/// of the model ([`crate::model::CellModel::RATE_TABLE`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableSpec {
    /// Potential of row 0, mV.
    pub v_min_mv: f64,
    /// Spacing of the rows, mV.
    pub step_mv: f64,
    /// Number of intervals: the table covers `[v_min, v_min + intervals step)`
    /// and has `intervals + 1` rows.
    pub intervals: u32,
    /// Functions per row.
    pub columns: usize,
}

impl TableSpec {
    /// The table of the ionic models: `columns` functions from -120 to +80
    /// mV every 0.1 mV, wider than an action potential and its stimulus
    /// reach.
    pub const fn ionic(columns: usize) -> Self {
        Self { v_min_mv: -120.0, step_mv: 0.1, intervals: 2000, columns }
    }

    /// Values per row: a (value, difference) pair per column, padded to
    /// whole quads.
    pub const fn row_len(&self) -> usize {
        (2 * self.columns).div_ceil(QUAD as usize) * QUAD as usize
    }

    /// Rows in the table.
    pub const fn rows(&self) -> usize {
        self.intervals as usize + 1
    }

    /// Potential of row `i`, mV (computed as the host computes it when it
    /// fills the table).
    pub fn v_at(&self, i: usize) -> f64 {
        self.v_min_mv + i as f64 * self.step_mv
    }

    /// Upper end of the covered potentials, mV (excluded).
    pub fn v_max_mv(&self) -> f64 {
        self.v_at(self.intervals as usize)
    }
}

/// A table as the reaction step sees it, passed inside the model's
/// coefficients: the address of row 0 (host or device memory; 0 for no
/// table) and the index arithmetic in the compute precision.
///
/// The address is a plain integer so that coefficients stay `Copy` and
/// can be passed by value to a kernel. Whoever attaches a table keeps its
/// memory alive as long as the coefficients are used (the host keeps
/// tables for the whole process, the GPU solvers own their device copy).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateTable<T> {
    address: u64,
    v_min: T,
    /// 1 / step.
    per_step: T,
    /// The number of intervals, as a number of the compute precision.
    intervals: T,
    /// Values per row.
    row_len: u32,
}

/// One row of a table and the position of the potential within its
/// interval, `frac` in `[0, 1)`.
#[derive(Clone, Copy, Debug)]
pub struct Row<T> {
    values: *const T,
    frac: T,
}

impl<T: Real> RateTable<T> {
    /// No table: the model's exact functions everywhere.
    pub const NONE: Self =
        Self { address: 0, v_min: T::ZERO, per_step: T::ZERO, intervals: T::ZERO, row_len: 0 };

    /// A table of shape `spec` whose row 0 starts at `address`.
    pub fn new(address: u64, spec: &TableSpec) -> Self {
        Self {
            address,
            v_min: T::from_f64(spec.v_min_mv),
            per_step: T::from_f64(1.0 / spec.step_mv),
            intervals: T::from_f64(spec.intervals as f64),
            row_len: spec.row_len() as u32,
        }
    }

    /// Whether a table is attached.
    #[inline(always)]
    pub fn is_present(&self) -> bool {
        self.address != 0
    }

    /// The address of row 0 (0 without a table).
    pub fn address(&self) -> u64 {
        self.address
    }

    /// The same table at another address (its copy on a device).
    pub fn moved_to(self, address: u64) -> Self {
        Self { address, ..self }
    }

    /// The row and interval of potential `v`, or `None` if there is no
    /// table or `v` lies outside it (or is NaN): the caller then uses the
    /// exact functions.
    ///
    /// `x = (v - v_min) / step` as one subtraction and one multiplication,
    /// `n = floor(x)` from a round-to-nearest split corrected downwards,
    /// `frac = x - n` (exact): the same operations on every platform.
    #[inline(always)]
    pub fn locate(&self, v: T) -> Option<Row<T>> {
        if self.address == 0 {
            return None;
        }
        let x = (v - self.v_min) * self.per_step;
        // Also false for NaN.
        if !(x >= T::ZERO && x < self.intervals) {
            return None;
        }
        let (n, i) = x.round_split();
        let (n, i) = if n > x { (n - T::ONE, i - 1) } else { (n, i) };
        let offset = i as usize * self.row_len as usize;
        // The address points at (intervals + 1) rows of `row_len` values;
        // 0 <= i < intervals.
        Some(Row { values: (self.address as usize as *const T).wrapping_add(offset), frac: x - n })
    }
}

impl<T: Real> Row<T> {
    /// Column `c` interpolated at the located potential.
    ///
    /// # Safety
    /// `c` is below the table's column count, and the table's memory is
    /// alive (the contract of whoever attached it).
    #[inline(always)]
    pub unsafe fn get(&self, c: usize) -> T {
        // SAFETY: the row holds 2 * columns values (caller's contract).
        let (a, d) = unsafe { (*self.values.add(2 * c), *self.values.add(2 * c + 1)) };
        d.mul_add(self.frac, a)
    }

    /// Columns `2 p` and `2 p + 1` interpolated, read as one quad.
    ///
    /// # Safety
    /// As [`Row::get`] for column `2 p` (the padding makes the quad whole
    /// even where column `2 p + 1` is not a column); the table is a
    /// [`TableRows`] or a copy of one at a 16-byte aligned address.
    #[inline(always)]
    pub unsafe fn get_pair(&self, p: usize) -> (T, T) {
        // SAFETY: rows are whole quads and start 16-byte aligned (caller's contract).
        let [a0, d0, a1, d1] = unsafe { quad::load(self.values, 4 * p) };
        (d0.mul_add(self.frac, a0), d1.mul_add(self.frac, a1))
    }
}

/// A table's values, rows of [`TableSpec::row_len`] values in 16-byte
/// aligned quads, as the host builds them.
#[cfg(not(target_arch = "nvptx64"))]
#[derive(Clone, Debug, PartialEq)]
pub struct TableRows<T> {
    quads: Vec<Quad<T>>,
}

#[cfg(not(target_arch = "nvptx64"))]
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
#[cfg(not(target_arch = "nvptx64"))]
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
#[cfg(not(target_arch = "nvptx64"))]
pub fn rows_for<M: crate::model::CellModel, T: Real>(params: &[f64], dt: f64) -> Option<TableRows<T>> {
    let spec = M::RATE_TABLE?;
    Some(fill(&spec, |v, out| M::table_columns(params, dt, v, out)))
}

/// The largest interpolation error of every column of a table against
/// the function it samples, over `points` potentials spread evenly over
/// the table, relative to the column's largest magnitude there (so a
/// column that crosses zero is measured on its own scale), leaving out
/// the potentials in `skip` (the intervals where a model's function
/// jumps, which interpolation blends): how tests state a table's accuracy.
#[cfg(not(target_arch = "nvptx64"))]
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

    fn line(v: f64, out: &mut [f64]) {
        out[0] = 2.0 * v + 1.0;
        out[1] = -v;
    }

    #[test]
    fn interpolation_is_exact_for_linear_functions_and_at_the_nodes() {
        let rows = fill::<f64>(&SPEC, line);
        assert_eq!(rows.values().len(), 401 * 4);
        let table = RateTable::<f64>::new(rows.address(), &SPEC);
        for v in [-100.0, -99.75, -12.3, 0.0, 37.5, 99.99] {
            let row = table.locate(v).unwrap();
            // SAFETY: two columns, rows alive.
            let (a, b) = unsafe { (row.get(0), row.get(1)) };
            assert!((a - (2.0 * v + 1.0)).abs() < 1e-12 && (b + v).abs() < 1e-12, "{v}: {a} {b}");
        }
        // A node reads its own sample exactly (frac = 0).
        let row = table.locate(-12.5).unwrap();
        // SAFETY: as above.
        assert_eq!(unsafe { row.get(0) }, -24.0);
    }

    #[test]
    fn outside_the_table_and_nan_are_not_located() {
        let rows = fill::<f32>(&SPEC, line);
        let table = RateTable::<f32>::new(rows.address(), &SPEC);
        for v in [-100.01f32, 100.0, 1e30, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert!(table.locate(v).is_none(), "{v}");
        }
        assert!(table.locate(-100.0).is_some() && table.locate(99.9).is_some());
        assert!(RateTable::<f32>::NONE.locate(0.0).is_none());
        assert!(!RateTable::<f32>::NONE.is_present() && table.is_present());
    }

    #[test]
    fn the_index_is_the_floor_of_the_position() {
        // Just below a node the row is the previous one, frac near 1.
        let rows = fill::<f32>(&SPEC, line);
        let table = RateTable::<f32>::new(rows.address(), &SPEC);
        let row = table.locate(-12.5 - 1e-4).unwrap();
        assert!(row.frac > 0.999 && row.frac < 1.0, "{}", row.frac);
        assert_eq!(row.values, rows.values().as_ptr().wrapping_add(174 * 4));
        // At the node itself, that node's row with frac = 0.
        let row = table.locate(-12.5).unwrap();
        assert_eq!((row.values, row.frac), (rows.values().as_ptr().wrapping_add(175 * 4), 0.0));
    }

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
