//! A table's shape and its reads: where the rows lie in potential
//! ([`TableSpec`]), the table as the reaction step carries it
//! ([`RateTable`]) and the interpolation of one row ([`Row`]), the same
//! operations on the CPU and the GPU.

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
    /// [`TableRows`](super::TableRows) or a copy of one at a 16-byte aligned address.
    #[inline(always)]
    pub unsafe fn get_pair(&self, p: usize) -> (T, T) {
        // SAFETY: rows are whole quads and start 16-byte aligned (caller's contract).
        let [a0, d0, a1, d1] = unsafe { quad::load(self.values, 4 * p) };
        (d0.mul_add(self.frac, a0), d1.mul_add(self.frac, a1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate_table::rows::fill;

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
}
