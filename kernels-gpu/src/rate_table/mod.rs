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
//! aligned [`Quad`](crate::layout::quad::Quad)s, so two columns (a gate's steady state and its
//! Rush-Larsen factor, say) come in one 128-bit load in f32 (two 128-bit
//! loads in f64) rather than four scalar ones. The index is found with the same pure IEEE
//! operations on both sides (`Real::round_split`, no float-to-integer
//! conversion), so CPU and GPU interpolate the same bits.

pub mod lookup;
#[cfg(not(target_arch = "nvptx64"))]
pub mod rows;

pub use lookup::{RateTable, Row, TableSpec};
#[cfg(not(target_arch = "nvptx64"))]
pub use rows::{TableRows, fill, rows_for, worst_errors};
