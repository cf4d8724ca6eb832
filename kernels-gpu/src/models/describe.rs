//! What the models' descriptions ([`ModelInfo`](crate::model::ModelInfo))
//! and their coefficient builders share: the usual kinds of variable, the
//! units of the physiological models and the check of a parameter list.

use crate::model::{Units, Variable};
use crate::real::Real;

/// A gate (or another fraction): dimensionless, shown from 0 to 1.
pub const fn gate(name: &'static str, rest: f64, meaning: &'static str) -> Variable {
    Variable { name, unit: "1", meaning, rest, display: (0.0, 1.0) }
}

/// The membrane potential `V` of an ionic model, in mV, shown over `display`.
pub const fn membrane_potential(rest: f64, display: (f64, f64)) -> Variable {
    Variable { name: "V", unit: "mV", meaning: "membrane potential", rest, display }
}

/// Times in ms and lengths in mm; `note` says how to read the rest.
pub const fn ms_mm(note: &'static str) -> Units {
    Units { time: "ms", space: "mm", ms_per_time_unit: 1.0, note }
}

/// The parameters (one value per [`ModelInfo::parameters`](crate::model::ModelInfo),
/// in order) as an array; panics, naming `model`, if there are not `N`.
pub fn unpack<const N: usize>(params: &[f64], model: &str) -> [f64; N] {
    match params.try_into() {
        Ok(values) => values,
        Err(_) => panic!("{model} takes {N} parameters"),
    }
}

/// The rate 1/`tau` of a time constant, formed in f64 and rounded once.
pub fn rate<T: Real>(tau: f64) -> T {
    T::from_f64(1.0 / tau)
}

/// The two [`CellModel`](crate::model::CellModel) methods of a model whose
/// coefficients `$coeffs<T>` carry the rate table in their field `table`:
/// [`rate_table`](crate::model::CellModel::rate_table) reads it and
/// [`with_rate_table`](crate::model::CellModel::with_rate_table) sets it.
macro_rules! rate_table_in_field {
    ($coeffs:ident) => {
        fn rate_table<T: $crate::real::Real>(c: &$coeffs<T>) -> $crate::rate_table::RateTable<T> {
            c.table
        }

        fn with_rate_table<T: $crate::real::Real>(
            c: $coeffs<T>,
            table: $crate::rate_table::RateTable<T>,
        ) -> $coeffs<T> {
            $coeffs { table, ..c }
        }
    };
}
pub(crate) use rate_table_in_field;
