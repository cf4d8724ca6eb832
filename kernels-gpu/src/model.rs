//! What a cell model is to fibril: the [`CellModel`] trait and the tables
//! that describe a model to its users ([`ModelInfo`]).
//!
//! A model is a set of state variables per cell. Variable 0 diffuses (the
//! membrane potential or its dimensionless stand-in, `u`); the others are
//! local to the cell (gates, recovery variables, concentrations). One time
//! step of a cell is
//!
//! ```text
//! u_next      = u + dt * du/dt(u, locals) + (D dt / h^2) * lap(u)   (forward Euler)
//! locals_next = the model's own update of the locals over dt          (Euler, Rush-Larsen, ...)
//! ```
//!
//! where the model supplies `du/dt` and the update of its locals
//! ([`CellModel::reaction`]) and [`crate::cell`] supplies the rest. The
//! model never sees dt except through the coefficients it builds from it,
//! nor the grid, nor the stencil: those are numerics, shared by every model.
//!
//! Everything here is `const`-constructible and `no_std`, so the same
//! descriptions serve the kernels, the CPU solver, the command line and the
//! documentation.

use crate::fast_math::MathMode;
use crate::layout::quad;
use crate::rate_table::lookup::{RateTable, TableSpec};
use crate::real::Real;

/// One state variable of a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variable {
    /// Name in files and on the command line (`U`, `v`, `w`, ...).
    pub name: &'static str,
    /// Unit, or `"1"` for a dimensionless variable.
    pub unit: &'static str,
    /// One line: what the variable is.
    pub meaning: &'static str,
    /// Value at rest (the model's stable fixed point).
    pub rest: f64,
    /// Colour range of pictures: (low, high).
    pub display: (f64, f64),
}

/// Which values a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// Any finite number.
    Finite,
    /// A finite number > 0.
    Positive,
    /// A finite number >= 0.
    NonNegative,
    /// A finite number in `[low, high]`.
    Between(f64, f64),
    /// A whole number in `[low, high]`.
    Integer(u32, u32),
}

// Host-side checks: kept out of the PTX, which would carry them as
// unused functions.
#[cfg(not(target_arch = "nvptx64"))]
impl Range {
    /// Whether `x` lies in the range.
    pub fn contains(self, x: f64) -> bool {
        if !x.is_finite() {
            return false;
        }
        match self {
            Range::Finite => true,
            Range::Positive => x > 0.0,
            Range::NonNegative => x >= 0.0,
            Range::Between(lo, hi) => lo <= x && x <= hi,
            Range::Integer(lo, hi) => x == (x as i64) as f64 && lo as f64 <= x && x <= hi as f64,
        }
    }
}

/// One parameter of a model. Parameters are given and stored as `f64` in
/// the order of [`ModelInfo::parameters`]; [`CellModel::coeffs`] turns them
/// into the model's coefficients.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parameter {
    pub name: &'static str,
    /// The value of the model's default preset.
    pub default: f64,
    /// Unit, or `"1"` for a dimensionless parameter.
    pub unit: &'static str,
    pub range: Range,
    /// One line: what the parameter does, with its symbol in the source.
    pub meaning: &'static str,
}

impl Parameter {
    /// A parameter, in the order of the struct's fields (for the models'
    /// tables, one line each).
    pub const fn new(
        name: &'static str,
        default: f64,
        unit: &'static str,
        range: Range,
        meaning: &'static str,
    ) -> Self {
        Self { name, default, unit, range, meaning }
    }
}

/// A named parameter set: the values that differ from the defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    /// One line: what the set is and where it comes from.
    pub meaning: &'static str,
    pub values: &'static [(&'static str, f64)],
}

/// The units a model's equations are written in. Dimensionless models
/// state how their time unit is read when fibril reports ms and real-time
/// factors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Units {
    /// Unit of time: `"ms"`, or the model's own unit (`"t.u."`).
    pub time: &'static str,
    /// Unit of length of dx and D: `"mm"`, or the model's own (`"s.u."`).
    pub space: &'static str,
    /// Milliseconds per time unit, for the real-time factor.
    pub ms_per_time_unit: f64,
    /// One line: how to read the units.
    pub note: &'static str,
}

/// The discretisation a model is usually run with: the defaults of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Numerics {
    /// Grid spacing, in [`Units::space`].
    pub dx: f64,
    /// Time step, in [`Units::time`].
    pub dt: f64,
    /// Diffusion coefficient of variable 0, space unit^2 / time unit.
    pub diffusion: f64,
}

/// Everything fibril and its users need to know about a model besides its
/// equations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelInfo {
    /// Name on the command line, in files and in kernel entry points.
    pub name: &'static str,
    /// Human-readable title: "Karma 1993".
    pub title: &'static str,
    /// The publications the equations and numbers come from.
    pub reference: &'static str,
    /// The state variables; variable 0 diffuses.
    pub variables: &'static [Variable],
    pub parameters: &'static [Parameter],
    /// Named parameter sets; the defaults of [`Parameter::default`] are
    /// [`ModelInfo::default_preset`] (empty when the model has no presets).
    pub presets: &'static [Preset],
    pub default_preset: &'static str,
    pub units: Units,
    pub numerics: Numerics,
    /// Value of variable 0 that counts as excited (activation maps, protocols).
    pub activation_threshold: f64,
    /// Value a set-value stimulus gives variable 0 (the excited plateau).
    pub stimulus_value: f64,
    /// State outside the stimulated slab of the planar start, one value per
    /// variable: the rest state for most models; Karma's paper start sets v = 0.5.
    pub planar_background: &'static [f64],
    /// The current stimulus of pacing and of the S1-S2 protocol, for the
    /// models that must be stimulated by a current (the ionic models: a
    /// clamp of the potential breaks their ion balances); `None` where a
    /// set-value stimulus ([`ModelInfo::stimulus_value`]) is the default.
    pub stimulus_current: Option<StimulusCurrent>,
    /// Whether runs default to f64: true where f32 does not reproduce the
    /// action potential within the tolerance the model's tests state.
    pub default_f64: bool,
}

/// A current stimulus: du/dt raised by `amplitude` for `duration`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StimulusCurrent {
    /// In the unit of du/dt: mV/ms, which is uA/uF, for the ionic models.
    pub amplitude: f64,
    /// In [`Units::time`].
    pub duration: f64,
    /// The state variables the stimulus current also enters (at most
    /// [`MAX_CARRIERS`]).
    pub carriers: &'static [StimulusCarrier],
}

/// The most state variables a stimulus carries charge into: K_i, and Cl_i
/// in the models of the Hund-Rudy family.
pub const MAX_CARRIERS: usize = 2;

/// A state variable that a current stimulus changes besides u: an ion
/// that carries the injected charge. O'Hara-Rudy 2011 and
/// Iyer-Mazhari-Winslow 2004 put the stimulus current in dK_i/dt as well
/// as in dV/dt (so that long pacing conserves charge, after Hund & Rudy
/// 2004, who book it to K_i and Cl_i); without it K_i drifts over
/// hundreds of beats and the resting potential with it. Every stimulus
/// routine adds `per_u` times the increment of u to this variable
/// wherever it adds a current to u.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StimulusCarrier {
    /// Index into [`ModelInfo::variables`] (at least 1: variable 0 is u).
    pub variable: usize,
    /// Change of the variable, in its unit, per unit of u the stimulus adds.
    pub per_u: f64,
    /// The variable (index into [`ModelInfo::variables`]) that holds this
    /// one's f32 rounding error, where the model keeps one (the imported
    /// models' `..__carry`): in f32 the stimulus adds its charge with
    /// [`crate::real::compensated_add`] through it, so that a charge below
    /// half an ulp of the carrier a step is not rounded away.
    pub carry: Option<usize>,
}

#[cfg(not(target_arch = "nvptx64"))]
impl core::fmt::Display for Range {
    /// The accepted values, as an error message says them.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Range::Finite => f.write_str("any finite number"),
            Range::Positive => f.write_str("a number > 0"),
            Range::NonNegative => f.write_str("a number >= 0"),
            Range::Between(lo, hi) => write!(f, "a number from {lo} to {hi}"),
            Range::Integer(lo, hi) => write!(f, "a whole number from {lo} to {hi}"),
        }
    }
}

#[cfg(not(target_arch = "nvptx64"))]
impl ModelInfo {
    /// Number of state variables.
    pub const fn variable_count(&self) -> usize {
        self.variables.len()
    }

    /// Index of the parameter called `name`.
    pub fn parameter_index(&self, name: &str) -> Option<usize> {
        self.parameters.iter().position(|p| p.name == name)
    }

    /// Index of the variable called `name`.
    pub fn variable_index(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.name == name)
    }

    pub fn preset(&self, name: &str) -> Option<&'static Preset> {
        self.presets.iter().find(|p| p.name == name)
    }
}

/// The local variables of a cell (all but variable 0), as a fixed-size
/// array. Kernels load them from a structure-of-arrays buffer (variable k at
/// `base + k * stride`), the CPU keeps them per cell.
pub trait Locals<T: Copy>: Copy + core::fmt::Debug + Send + Sync {
    /// Number of local variables.
    const COUNT: usize;

    /// The locals with variable `k + 1` set to `f(k)`.
    fn from_fn(f: impl FnMut(usize) -> T) -> Self;

    /// Local variable `k` (variable `k + 1` of the model).
    fn get(&self, k: usize) -> T;

    /// Loads the locals of cell `i`.
    ///
    /// # Safety
    /// `base` holds `COUNT * stride` values and `i < stride`.
    unsafe fn load(base: *const T, stride: usize, i: usize) -> Self;

    /// Stores the locals of cell `i`.
    ///
    /// # Safety
    /// As [`Locals::load`], and `base` is writable.
    unsafe fn store(&self, base: *mut T, stride: usize, i: usize);

    /// Loads the locals of cells `i..i + 4`, one [`quad`] per variable.
    ///
    /// # Safety
    /// As [`Locals::load`] for each of the four cells; `base`, `i` and
    /// `stride` are such that every `base + k * stride + i` is 16-byte aligned.
    unsafe fn load_quad(base: *const T, stride: usize, i: usize) -> [Self; 4];

    /// Stores the locals of cells `i..i + 4`, one [`quad`] per variable.
    ///
    /// # Safety
    /// As [`Locals::load_quad`], and `base` is writable.
    unsafe fn store_quad(cells: &[Self; 4], base: *mut T, stride: usize, i: usize);
}

impl<T: Copy + core::fmt::Debug + Send + Sync, const N: usize> Locals<T> for [T; N] {
    const COUNT: usize = N;

    #[inline(always)]
    fn from_fn(f: impl FnMut(usize) -> T) -> Self {
        core::array::from_fn(f)
    }

    #[inline(always)]
    fn get(&self, k: usize) -> T {
        self[k]
    }

    #[inline(always)]
    unsafe fn load(base: *const T, stride: usize, i: usize) -> Self {
        // SAFETY: k * stride + i < N * stride by the caller's contract.
        core::array::from_fn(|k| unsafe { *base.add(k * stride + i) })
    }

    #[inline(always)]
    unsafe fn store(&self, base: *mut T, stride: usize, i: usize) {
        let mut k = 0;
        while k < N {
            // SAFETY: as in `load`.
            unsafe { *base.add(k * stride + i) = self[k] };
            k += 1;
        }
    }

    #[inline(always)]
    unsafe fn load_quad(base: *const T, stride: usize, i: usize) -> [Self; 4] {
        // SAFETY: each quad lies inside the buffer and is aligned (caller).
        let q: [[T; 4]; N] = core::array::from_fn(|k| unsafe { quad::load(base, k * stride + i) });
        core::array::from_fn(|j| core::array::from_fn(|k| q[k][j]))
    }

    #[inline(always)]
    unsafe fn store_quad(cells: &[Self; 4], base: *mut T, stride: usize, i: usize) {
        let mut k = 0;
        while k < N {
            let q = [cells[0][k], cells[1][k], cells[2][k], cells[3][k]];
            // SAFETY: as in `load_quad`.
            unsafe { quad::store(base, k * stride + i, q) };
            k += 1;
        }
    }
}

/// A cell model. Implementations are unit types; one file per model under
/// [`crate::models`], registered in `for_each_model!`.
pub trait CellModel: Copy + 'static {
    /// Names, variables, parameters, presets, units and defaults.
    const INFO: &'static ModelInfo;

    /// The local variables (`[T; variables - 1]`).
    type Locals<T: Real>: Locals<T>;

    /// Everything the reaction step needs, in the compute precision,
    /// rounded once on the host from the parameters and dt and passed by
    /// value to every kernel (hence `#[repr(C)]` in implementations).
    type Coeffs<T: Real>: Copy + core::fmt::Debug + PartialEq + Send + Sync;

    /// The coefficients for `params` (one value per [`ModelInfo::parameters`],
    /// in order, already checked against their ranges) and the step `dt`.
    fn coeffs<T: Real>(params: &[f64], dt: f64) -> Self::Coeffs<T>;

    /// As [`CellModel::coeffs`], with the transcendental functions of
    /// `math` where the model has a cheaper variant
    /// ([`crate::fast_math`]); `coeffs` itself is the reference (exact)
    /// choice. Models without a variant ignore `math` (this default).
    fn coeffs_in<T: Real>(params: &[f64], dt: f64, math: MathMode) -> Self::Coeffs<T> {
        let _ = math;
        Self::coeffs(params, dt)
    }

    /// The reaction of one cell over one step: returns `du/dt` at the old
    /// state `(u, locals)` and advances `locals` to the end of the step.
    /// Both use the old values only. Written once, generic over the
    /// precision; only correctly rounded operations and the shared
    /// functions of [`crate::math`], so CPU and GPU agree bit for bit.
    fn reaction<T: Real>(u: T, locals: &mut Self::Locals<T>, c: &Self::Coeffs<T>) -> T;

    /// The shape of the model's lookup table of functions of variable 0
    /// ([`crate::rate_table`]; Bartocci et al. 2011, section 5), for runs
    /// that ask for one; `None` (the default) where the model has none.
    const RATE_TABLE: Option<TableSpec> = None;

    /// The table's columns at potential `v` for these parameters and dt,
    /// in f64 with the model's exact functions. Called only for models
    /// with a [`CellModel::RATE_TABLE`].
    #[cfg(not(target_arch = "nvptx64"))]
    fn table_columns(params: &[f64], dt: f64, v: f64, out: &mut [f64]) {
        let _ = (params, dt, v, out);
        unreachable!("{} has no rate table", Self::INFO.name)
    }

    /// The table the coefficients carry ([`RateTable::NONE`] for none).
    fn rate_table<T: Real>(c: &Self::Coeffs<T>) -> RateTable<T> {
        let _ = c;
        RateTable::NONE
    }

    /// `c` again with its most common values written as constants of the
    /// code, where `c` has them; `None` (the default) otherwise. The step
    /// kernels' entry points run their body with what this returns when it
    /// is `Some` and with `c` when it is not, so that in the common case
    /// the compiler folds the reaction's branches on those values away
    /// (Karma's exponent M = 4 and its table tanh: the blocked kernel
    /// tested both in every level of every iteration). The values are
    /// equal to `c`'s, so the arithmetic and the bits are the same either
    /// way; only the code is shorter.
    #[inline(always)]
    fn common_case<T: Real>(c: &Self::Coeffs<T>) -> Option<Self::Coeffs<T>> {
        let _ = c;
        None
    }

    /// The coefficients with `table` attached: its reaction then reads the
    /// table wherever variable 0 lies inside it. Models without a table
    /// return `c` unchanged.
    fn with_rate_table<T: Real>(c: Self::Coeffs<T>, table: RateTable<T>) -> Self::Coeffs<T> {
        let _ = table;
        c
    }
}

/// The cell's state at rest (every variable at its `rest` value).
pub fn rest_locals<M: CellModel, T: Real>() -> M::Locals<T> {
    M::Locals::<T>::from_fn(|k| T::from_f64(M::INFO.variables[k + 1].rest))
}

/// 1 if `x > threshold`, else 0: the Heaviside switch of the models,
/// strict at equality (Fenton & Karma 1998, eqs. 24-30, write Theta(u - u_c)
/// with Theta(0) = 0). Written as one comparison so that CPU
/// and GPU, which see the same bits, take the same branch.
#[inline(always)]
pub fn step_above<T: Real>(x: T, threshold: T) -> T {
    if x > threshold { T::ONE } else { T::ZERO }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_accept_what_they_say() {
        assert!(Range::Positive.contains(1e-9) && !Range::Positive.contains(0.0));
        assert!(Range::NonNegative.contains(0.0) && !Range::NonNegative.contains(-1e-300));
        assert!(Range::Between(0.0, 1.0).contains(1.0) && !Range::Between(0.0, 1.0).contains(1.5));
        assert!(Range::Integer(0, 64).contains(4.0) && !Range::Integer(0, 64).contains(4.5));
        assert!(!Range::Integer(0, 64).contains(65.0));
        for r in [Range::Finite, Range::Positive, Range::Between(-1.0, 1.0)] {
            assert!(!r.contains(f64::NAN) && !r.contains(f64::INFINITY));
        }
    }

    #[test]
    fn locals_round_trip_through_a_structure_of_arrays() {
        let stride = 5;
        let mut soa = [0.0f32; 15];
        let cell: [f32; 3] = [1.0, 2.0, 3.0];
        // SAFETY: soa holds 3 * 5 values and 4 < 5.
        unsafe { cell.store(soa.as_mut_ptr(), stride, 4) };
        assert_eq!((soa[4], soa[9], soa[14]), (1.0, 2.0, 3.0));
        // SAFETY: as above.
        let back = unsafe { <[f32; 3] as Locals<f32>>::load(soa.as_ptr(), stride, 4) };
        assert_eq!(back, cell);
        // Four cells at once: variable k of cell j at k * 8 + 4 + j.
        let mut soa = [quad::Quad([0.0f32; 4]); 4];
        let base = soa.as_mut_ptr() as *mut f32;
        let cells: [[f32; 2]; 4] = [[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]];
        // SAFETY: 16 aligned values; quads at 4 and 12.
        let back = unsafe {
            <[f32; 2] as Locals<f32>>::store_quad(&cells, base, 8, 4);
            <[f32; 2] as Locals<f32>>::load_quad(base, 8, 4)
        };
        assert_eq!(back, cells);
        assert_eq!((soa[1].0, soa[3].0), ([1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0]));
        assert_eq!(<[f64; 0] as Locals<f64>>::COUNT, 0);
    }
}
