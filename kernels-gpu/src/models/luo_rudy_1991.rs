//! The Luo-Rudy phase I model of the mammalian ventricular action potential
//! (C. H. Luo, Y. Rudy, Circ Res 68:1501, 1991, appendix), eight
//! variables: V, the gates m, h, j (I_Na), d, f (I_si), X (I_K) and the
//! intracellular calcium `[Ca]_i`. Units: V in mV, t in ms, currents in
//! uA/cm^2, conductances in mS/cm^2, concentrations in mM, C_m = 1 uF/cm^2.
//!
//! ```text
//! C_m dV/dt = -(I_Na + I_si + I_K + I_K1 + I_Kp + I_b)      (+ I_stim, added by fibril)
//! I_Na = G_Na m^3 h j (V - E_Na),         E_Na = (RT/F) ln([Na]_o/[Na]_i)
//! I_si = G_si d f (V - E_si),             E_si = 7.7 - 13.0287 ln([Ca]_i)
//! I_K  = G_K X X_i (V - E_K),             G_K  = 0.282 sqrt([K]_o/5.4)
//!        E_K = (RT/F) ln(([K]_o + PR_NaK [Na]_o)/([K]_i + PR_NaK [Na]_i))
//! I_K1 = G_K1 K1_inf (V - E_K1),          G_K1 = 0.6047 sqrt([K]_o/5.4)
//!        E_K1 = (RT/F) ln([K]_o/[K]_i),  K1_inf = a_K1/(a_K1 + b_K1)
//! I_Kp = G_Kp Kp (V - E_Kp),              E_Kp = E_K1, Kp = 1/(1 + exp((7.488 - V)/5.98))
//! I_b  = G_b (V - E_b),                   G_b = 0.03921, E_b = -59.87
//! d[Ca]_i/dt = -1e-4 I_si + 0.07 (1e-4 - [Ca]_i)
//! dy/dt = a_y (1 - y) - b_y y   for y in m, h, j, d, f, X
//!
//! a_m = 0.32 (V + 47.13)/(1 - exp(-0.1 (V + 47.13)))      b_m = 0.08 exp(-V/11)
//! V >= -40:  a_h = 0,  b_h = 1/(0.13 (1 + exp((V + 10.66)/-11.1)))
//!            a_j = 0,  b_j = 0.3 exp(-2.535e-7 V)/(1 + exp(-0.1 (V + 32)))
//! V <  -40:  a_h = 0.135 exp((80 + V)/-6.8)
//!            b_h = 3.56 exp(0.079 V) + 3.1e5 exp(0.35 V)
//!            a_j = (-1.2714e5 exp(0.2444 V) - 3.474e-5 exp(-0.04391 V)) (V + 37.78)
//!                  / (1 + exp(0.311 (V + 79.23)))
//!            b_j = 0.1212 exp(-0.01052 V)/(1 + exp(-0.1378 (V + 40.14)))
//! a_d = 0.095 exp(-0.01 (V - 5))/(1 + exp(-0.072 (V - 5)))
//! b_d = 0.07 exp(-0.017 (V + 44))/(1 + exp(0.05 (V + 44)))
//! a_f = 0.012 exp(-0.008 (V + 28))/(1 + exp(0.15 (V + 28)))
//! b_f = 0.0065 exp(-0.02 (V + 30))/(1 + exp(-0.2 (V + 30)))
//! a_X = 0.0005 exp(0.083 (V + 50))/(1 + exp(0.057 (V + 50)))
//! b_X = 0.0013 exp(-0.06 (V + 20))/(1 + exp(-0.04 (V + 20)))
//! X_i = 2.837 (exp(0.04 (V + 77)) - 1)/((V + 77) exp(0.04 (V + 35)))  (V > -100), 1 (V <= -100)
//! a_K1 = 1.02/(1 + exp(0.2385 (V - E_K1 - 59.215)))
//! b_K1 = (0.49124 exp(0.08032 (V - E_K1 + 5.476)) + exp(0.06175 (V - E_K1 - 594.31)))
//!        / (1 + exp(-0.5143 (V - E_K1 + 4.753)))
//! ```
//!
//! Constants: G_Na = 23, G_si = 0.09, G_Kp = 0.0183 mS/cm^2; `[Na]_o` = 140,
//! `[Na]_i` = 18, `[K]_o` = 5.4, `[K]_i` = 145 mM; PR_NaK = 0.01833;
//! R = 8314 mJ/(mol K), F = 96484.6 C/mol, T = 310 K (RT/F = 26.71 mV), so
//! E_Na = 54.79, E_K = -77.57 and E_K1 = E_Kp = -87.89 mV.
//!
//! # Sources and what was checked against what
//!
//! We could not read the paper itself. The equations above were taken from
//! the CellML model repository's curated export of the paper (C. Lloyd,
//! `luo_rudy_1991`; Chaste ships it as `heart/src/odes/cellml/
//! LuoRudy1991.cellml`), read as pigreads 1.0 renders it (model
//! `luo1991model`, generated code and parameter list), and checked term
//! by term against three independent codes: Finitewave's `LuoRudy91`
//! (numba), Myokit's `lr-1991.mmt` (M. Clerx, from the Rudy lab's later
//! code) and S.-N. Wu's XPP file (ModelDB 64171). Every rate-function
//! constant, every conductance, the X_i and K1 expressions, E_si and the
//! calcium equation agree between the CellML export, Finitewave and the
//! XPP file; the reversal potentials we compute equal pigreads' to 13
//! digits (E_Na = 54.794, E_K = -77.568, E_K1 = -87.893 mV; test
//! `reversal_potentials_and_potassium_scaling`), and the test
//! `rates_match_the_paper_formulas` compares every rate with the direct
//! formulas above. Disagreements, and what we did:
//!
//! * Myokit (the Rudy lab's updated LR1 code) uses G_Na = 16, `[Na]_i` = 10,
//!   E_si = 7.7 - 13.0287 ln(`[Ca]_i`/`[Ca]_o`) and a fixed E_Kp = -87.8789,
//!   and writes the h, j branches with a steep logistic instead of an
//!   `if`. We keep the 1991 paper's G_Na = 23, `[Na]_i` = 18, E_si without
//!   `[Ca]_o`, E_Kp = E_K1 and the sharp switch (CellML, Finitewave, pigreads).
//! * Myokit sets a_m = -3.2 at exactly V = -47.13; the limit of the formula
//!   is +3.2 (0.32 / 0.1), which is what we use.
//! * Finitewave uses R = 8.314, F = 96.5 (RT/F = 26.708 mV instead of
//!   26.713); we keep the CellML constants.
//! * The XPP file (ModelDB 64171) and E. Demidov's LR1 page (ibiblio
//!   e-notes) use a fixed E_Na = 54.4 mV, where CellML, Finitewave and
//!   pigreads compute it from `[Na]_o`/`[Na]_i` (54.79 mV). We compute it, so
//!   that the sodium concentrations act as parameters; the peak moves by
//!   less than 0.4 mV.
//! * Stimuli differ (CellML 25.5 uA/cm^2 for 2 ms, the Rudy lab's code 80
//!   uA/cm^2 for 0.5 ms, Finitewave's tissue tests 100 for 1.5 ms); see
//!   [`ModelInfo::stimulus_current`] below for the one we chose.
//!
//! The h and j rates switch between two formulas at V = -40 mV and are
//! discontinuous there (from just below to -40: a_h 3.76e-4 to 0, b_h
//! 0.409 to 0.511, a_j 8.1e-5 to 0, b_j 0.0932 to 0.0930 /ms, so h_inf
//! jumps from 9.2e-4 to 0): the well-known defect of the
//! Ebihara-Johnson fits that LR1 inherits (M. Hanslien, N. Holden, J.
//! Sundnes, "A note on discontinuous rate functions for the gate variables
//! in mathematical models of cardiac cells", Procedia Computer Science,
//! ICCS: it lowers the order of accuracy of the solvers). We transcribe
//! it exactly, with `V >= -40` on the upper branch as the CellML export,
//! Finitewave and the XPP file have it. Two rates have removable
//! singularities, written with `expm1` and a series at the point itself:
//! a_m at V = -47.13 (limit 3.2 /ms) and X_i at V = -77 (limit
//! 2.837 * 0.04 exp(1.68) = 0.60888).
//!
//! # Numerics
//!
//! | variable | update over dt |
//! |---|---|
//! | V | forward Euler, by [`crate::cell`]: V + dt (-I_ion/C_m + I_stim) + diffusion |
//! | m, h, j, d, f, X | Rush-Larsen, y + (y_inf - y) (-expm1(-dt (a_y + b_y))) |
//! | `[Ca]_i` | forward Euler |
//!
//! The Rush-Larsen step is written with `expm1`, which keeps the increment
//! accurate when dt (a + b) is small (the X gate's dt/tau is about 5e-5 at
//! dt = 0.01 ms); where dt (a + b) > 40, exp(-dt (a + b)) is below half an
//! ulp of 1 in f64 and the gate is set to y_inf. Every rate is evaluated
//! once per step at the old V.

use crate::math::{exp, expm1, ln, sqrt};
use crate::model::Parameter as P;
use crate::model::{CellModel, ModelInfo, Numerics, Range, StimulusCurrent, Variable};
use crate::models::describe::{gate, membrane_potential, ms_mm, rate_table_in_field, unpack};
use crate::rate_table::{RateTable, TableSpec};
use crate::real::Real;

/// The Luo-Rudy I model (V, m, h, j, d, f, X, `[Ca]_i`).
#[derive(Clone, Copy, Debug)]
pub struct LuoRudy1991;

/// Coefficients in the compute precision: conductances (G_K and G_K1
/// already scaled by sqrt(`[K]_o`/5.4)), reversal potentials, 1/C_m, dt
/// and -dt.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LuoRudy1991Coeffs<T> {
    /// G_Na, mS/cm^2.
    pub g_na: T,
    pub g_si: T,
    /// 0.282 sqrt(`[K]_o`/5.4).
    pub g_k: T,
    /// 0.6047 sqrt(`[K]_o`/5.4).
    pub g_k1: T,
    pub g_kp: T,
    pub g_b: T,
    /// mV.
    pub e_na: T,
    pub e_k: T,
    /// E_K1 = E_Kp.
    pub e_k1: T,
    pub e_b: T,
    /// 1/C_m, cm^2/uF.
    pub inv_c_m: T,
    /// dt, ms (forward Euler of `[Ca]_i`).
    pub dt: T,
    /// -dt, ms (Rush-Larsen exponent).
    pub neg_dt: T,
    /// The rate table of a run that asked for one (`--rate-tables`).
    pub table: RateTable<T>,
}

/// Gas constant, mJ/(mol K) (CellML export of the paper).
const R_GAS: f64 = 8314.0;
/// Faraday constant, C/mol (CellML export of the paper).
const FARADAY: f64 = 96484.6;

/// Number of parameters in [`ModelInfo::parameters`].
const PARAMETER_COUNT: usize = 14;

/// The rates of one gate at one potential, 1/ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GateRates<T> {
    pub alpha: T,
    pub beta: T,
}

impl<T: Real> GateRates<T> {
    /// Steady state a/(a + b).
    #[inline(always)]
    pub fn steady(self) -> T {
        self.alpha / (self.alpha + self.beta)
    }

    /// The Rush-Larsen step of a gate at `y` over dt (`neg_dt` = -dt):
    /// y + (y_inf - y)(1 - exp(-dt (a + b))).
    #[inline(always)]
    pub fn rush_larsen(self, y: T, neg_dt: T) -> T {
        let (y_inf, reached) = self.rush_larsen_factors(neg_dt);
        reached.mul_add(y_inf - y, y)
    }

    /// y_inf and the fraction 1 - exp(-dt (a + b)) of the way to it that
    /// a Rush-Larsen step covers.
    #[inline(always)]
    pub fn rush_larsen_factors(self, neg_dt: T) -> (T, T) {
        let rate = self.alpha + self.beta;
        let y_inf = self.alpha / rate;
        let x = neg_dt * rate;
        // Below -40, exp(x) < 4.3e-18 is less than half an ulp of 1 in f64
        // (and f32): 1 - exp(x) rounds to 1, and expm1's range reduction
        // stays within the normal exponents.
        (y_inf, if x < T::from_f64(-40.0) { T::ONE } else { -expm1(x) })
    }
}

/// Everything that depends on the potential alone (and on E_K1): the gates'
/// rates and the instantaneous factors X_i, K1_inf and Kp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates<T> {
    pub m: GateRates<T>,
    pub h: GateRates<T>,
    pub j: GateRates<T>,
    pub d: GateRates<T>,
    pub f: GateRates<T>,
    pub x: GateRates<T>,
    /// X_i of I_K.
    pub xi: T,
    /// K1_inf of I_K1.
    pub k1_inf: T,
    /// Kp of I_Kp.
    pub kp: T,
}

#[inline(always)]
fn k<T: Real>(x: f64) -> T {
    T::from_f64(x)
}

/// y / (exp(y) - 1), finite for every finite y: the series 1 - y/2 + y^2/12
/// at |y| < 1e-6 (the next term, y^4/720, is below 1e-26), y exp(-y) above
/// 40 and -y below -40 (where exp(y) - 1 is e^y, or -1, to within 1e-17),
/// and `expm1` in between, accurate to a few ulp.
#[inline(always)]
pub fn y_over_expm1<T: Real>(y: T) -> T {
    if y.abs() < k(1e-6) {
        (y * y).mul_add(k(1.0 / 12.0), y.mul_add(-T::HALF, T::ONE))
    } else if y > k(40.0) {
        y * exp(-y)
    } else if y < k(-40.0) {
        -y
    } else {
        y / expm1(y)
    }
}

/// (exp(z) - 1) / z, finite for z <= 80 (the X_i factor needs |z| <= 10 in
/// [-100, +100] mV): the series 1 + z/2 + z^2/6 at |z| < 1e-6, `expm1`
/// elsewhere.
#[inline(always)]
pub fn expm1_over<T: Real>(z: T) -> T {
    if z.abs() < k(1e-6) {
        (z * z).mul_add(k(1.0 / 6.0), z.mul_add(T::HALF, T::ONE))
    } else if z < k(-40.0) {
        -T::ONE / z
    } else {
        expm1(z) / z
    }
}

/// The rates and instantaneous factors at potential `v` (mV), with the
/// K1 reversal potential `e_k1` (mV).
#[inline(always)]
pub fn rates<T: Real>(v: T, e_k1: T) -> Rates<T> {
    let one = T::ONE;
    // m: a_m = 0.32 (V + 47.13)/(1 - exp(-0.1 (V + 47.13))) = 3.2 y/expm1(y)
    // with y = -0.1 (V + 47.13).
    let y = k::<T>(-0.1) * (v + k(47.13));
    let m = GateRates { alpha: k::<T>(3.2) * y_over_expm1(y), beta: k::<T>(0.08) * exp(v * k(-1.0 / 11.0)) };
    // h and j: two branches, the paper's switch at V = -40 mV.
    let (h, j) = if v >= k(-40.0) {
        let b_h = one / (k::<T>(0.13) * (one + exp((v + k(10.66)) * k(-1.0 / 11.1))));
        let b_j = k::<T>(0.3) * exp(k::<T>(-2.535e-7) * v) / (one + exp(k::<T>(-0.1) * (v + k(32.0))));
        (GateRates { alpha: T::ZERO, beta: b_h }, GateRates { alpha: T::ZERO, beta: b_j })
    } else {
        let a_h = k::<T>(0.135) * exp((v + k(80.0)) * k(-1.0 / 6.8));
        let b_h = k::<T>(3.56) * exp(k::<T>(0.079) * v) + k::<T>(3.1e5) * exp(k::<T>(0.35) * v);
        let a_j = (k::<T>(-1.2714e5) * exp(k::<T>(0.2444) * v)
            - k::<T>(3.474e-5) * exp(k::<T>(-0.04391) * v))
            * (v + k(37.78))
            / (one + exp(k::<T>(0.311) * (v + k(79.23))));
        let b_j = k::<T>(0.1212) * exp(k::<T>(-0.01052) * v) / (one + exp(k::<T>(-0.1378) * (v + k(40.14))));
        (GateRates { alpha: a_h, beta: b_h }, GateRates { alpha: a_j, beta: b_j })
    };
    // d, f (I_si).
    let v5 = v - k(5.0);
    let v44 = v + k(44.0);
    let d = GateRates {
        alpha: k::<T>(0.095) * exp(k::<T>(-0.01) * v5) / (one + exp(k::<T>(-0.072) * v5)),
        beta: k::<T>(0.07) * exp(k::<T>(-0.017) * v44) / (one + exp(k::<T>(0.05) * v44)),
    };
    let v28 = v + k(28.0);
    let v30 = v + k(30.0);
    let f = GateRates {
        alpha: k::<T>(0.012) * exp(k::<T>(-0.008) * v28) / (one + exp(k::<T>(0.15) * v28)),
        beta: k::<T>(0.0065) * exp(k::<T>(-0.02) * v30) / (one + exp(k::<T>(-0.2) * v30)),
    };
    // X (I_K).
    let v50 = v + k(50.0);
    let v20 = v + k(20.0);
    let x = GateRates {
        alpha: k::<T>(0.0005) * exp(k::<T>(0.083) * v50) / (one + exp(k::<T>(0.057) * v50)),
        beta: k::<T>(0.0013) * exp(k::<T>(-0.06) * v20) / (one + exp(k::<T>(-0.04) * v20)),
    };
    // X_i = 2.837 (exp(z) - 1)/((V + 77) exp(0.04 (V + 35))), z = 0.04 (V + 77):
    // = 2.837 * 0.04 * (expm1(z)/z) * exp(-0.04 (V + 35)).
    let xi = if v > k(-100.0) {
        let z = k::<T>(0.04) * (v + k(77.0));
        k::<T>(2.837 * 0.04) * expm1_over(z) * exp(k::<T>(-0.04) * (v + k(35.0)))
    } else {
        one
    };
    // K1_inf and Kp.
    let w = v - e_k1;
    let a_k1 = k::<T>(1.02) / (one + exp(k::<T>(0.2385) * (w - k(59.215))));
    let b_k1 = (k::<T>(0.49124) * exp(k::<T>(0.08032) * (w + k(5.476)))
        + exp(k::<T>(0.06175) * (w - k(594.31))))
        / (one + exp(k::<T>(-0.5143) * (w + k(4.753))));
    let k1_inf = a_k1 / (a_k1 + b_k1);
    let kp = one / (one + exp((k::<T>(7.488) - v) * k(1.0 / 5.98)));
    Rates { m, h, j, d, f, x, xi, k1_inf, kp }
}

/// E_si = 7.7 - 13.0287 ln(`[Ca]_i`), mV, `[Ca]_i` in mM.
#[inline(always)]
pub fn e_si<T: Real>(cai: T) -> T {
    k::<T>(-13.0287).mul_add(ln(cai), k(7.7))
}

const NONNEG: Range = Range::NonNegative;
const POS: Range = Range::Positive;

/// The parameters, one line each ([`P::new`]: name, default, unit, range, meaning).
const PARAMETERS: &[P] = &[
    P::new("g_na", 23.0, "mS/cm^2", NONNEG, "G_Na, maximal conductance of I_Na"),
    P::new("g_si", 0.09, "mS/cm^2", NONNEG, "G_si, maximal conductance of the slow inward current I_si"),
    P::new("g_k", 0.282, "mS/cm^2", NONNEG, "G_K at [K]_o = 5.4 mM (scaled by sqrt([K]_o/5.4)), I_K"),
    P::new("g_k1", 0.6047, "mS/cm^2", NONNEG, "G_K1 at [K]_o = 5.4 mM (scaled by sqrt([K]_o/5.4)), I_K1"),
    P::new("g_kp", 0.0183, "mS/cm^2", NONNEG, "G_Kp, plateau potassium current I_Kp"),
    P::new("g_b", 0.03921, "mS/cm^2", NONNEG, "G_b, background current I_b"),
    P::new("e_b", -59.87, "mV", Range::Finite, "E_b, reversal potential of I_b"),
    P::new("k_o", 5.4, "mM", POS, "[K]_o, extracellular potassium (E_K, E_K1, G_K, G_K1)"),
    P::new("k_i", 145.0, "mM", POS, "[K]_i, intracellular potassium (E_K, E_K1)"),
    P::new("na_o", 140.0, "mM", POS, "[Na]_o, extracellular sodium (E_Na, E_K)"),
    P::new("na_i", 18.0, "mM", POS, "[Na]_i, intracellular sodium (E_Na, E_K)"),
    P::new("pr_nak", 0.01833, "1", NONNEG, "PR_NaK, Na/K permeability ratio of I_K (E_K)"),
    P::new("temperature", 310.0, "K", POS, "T, absolute temperature of RT/F (R = 8314, F = 96484.6)"),
    P::new("c_m", 1.0, "uF/cm^2", POS, "C_m, membrane capacitance (dV/dt = -I_ion/C_m)"),
];

impl CellModel for LuoRudy1991 {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "luo_rudy_1991",
        title: "Luo-Rudy I 1991",
        reference: "C. H. Luo, Y. Rudy, Circ Res 68:1501 (1991), appendix; CellML export (C. Lloyd)",
        // Rest: the model's own fixed point with the default parameters
        // (20 s of an unstimulated cell started near the Rudy lab's
        // initial state, rounded to 8 digits; test
        // `rest_is_the_fixed_point`). The
        // published initial states are near it: the Rudy lab's code
        // (Myokit) V = -84.53 mV, m = 0.0017, h = 0.9832, j = 0.9955,
        // d = 3e-6, f = 1, X = 0.0057, [Ca]_i = 2e-4 mM; the CellML
        // export V = -83.853 mV.
        variables: &[
            membrane_potential(REST[0], (-90.0, 50.0)),
            gate("m", REST[1], "I_Na activation gate"),
            gate("h", REST[2], "I_Na fast inactivation gate"),
            gate("j", REST[3], "I_Na slow inactivation gate"),
            gate("d", REST[4], "I_si activation gate"),
            gate("f", REST[5], "I_si inactivation gate"),
            gate("X", REST[6], "I_K activation gate"),
            Variable {
                name: "Cai",
                unit: "mM",
                meaning: "intracellular calcium [Ca]_i",
                rest: REST[7],
                display: (0.0, 0.008),
            },
        ],
        parameters: PARAMETERS,
        presets: &[],
        default_preset: "",
        units: ms_mm("V in mV, times in ms, lengths in mm, currents in uA/cm^2 (= uA/uF with C_m = 1)"),
        // Finitewave's LR91 discretisation (its propagation tests): D = 0.1
        // mm^2/ms (1 cm^2/s), dx = 0.25 mm, dt = 0.01 ms; D dt/dx^2 =
        // 0.016. The 2024 3D GPU study of LR1 (seed 004) ran dt = 0.005 ms
        // (Runge-Kutta) and Chaste at 0.01 ms. dx = 0.25 mm under-resolves
        // the front by about 10% (test `conduction_velocity`: 0.562 m/s,
        // against 0.627 at 0.1 mm); use 0.1-0.15 mm where the speed
        // matters.
        numerics: Numerics { dx: 0.25, dt: 0.01, diffusion: 0.1 },
        activation_threshold: -40.0,
        stimulus_value: 20.0,
        planar_background: &REST,
        // 80 uA/cm^2 for 0.5 ms: the Rudy lab's LR1 stimulus, as Myokit's
        // lr-1991.mmt records it (the CellML export has 25.5 for 2 ms).
        // It excites a single cell (peak 43 mV, not overdriven) and a
        // 5-cell slab of the default cable (test `conduction_velocity`).
        stimulus_current: Some(StimulusCurrent { amplitude: 80.0, duration: 0.5, carriers: &[] }),
        // f32 follows f64 to 1e-5 of the amplitude over a beat (test
        // `f32_follows_f64`).
        default_f64: false,
    };

    type Locals<T: Real> = [T; 7];
    type Coeffs<T: Real> = LuoRudy1991Coeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> LuoRudy1991Coeffs<T> {
        let [g_na, g_si, g_k, g_k1, g_kp, g_b, e_b, k_o, k_i, na_o, na_i, pr_nak, temperature, c_m] =
            unpack::<PARAMETER_COUNT>(params, "Luo-Rudy 1991");
        let rt_f = R_GAS * temperature / FARADAY;
        let k_scale = sqrt(k_o / 5.4);
        let t = T::from_f64;
        LuoRudy1991Coeffs {
            g_na: t(g_na),
            g_si: t(g_si),
            g_k: t(g_k * k_scale),
            g_k1: t(g_k1 * k_scale),
            g_kp: t(g_kp),
            g_b: t(g_b),
            e_na: t(rt_f * ln(na_o / na_i)),
            e_k: t(rt_f * ln((k_o + pr_nak * na_o) / (k_i + pr_nak * na_i))),
            e_k1: t(rt_f * ln(k_o / k_i)),
            e_b: t(e_b),
            inv_c_m: t(1.0 / c_m),
            dt: t(dt),
            neg_dt: t(-dt),
            table: RateTable::NONE,
        }
    }

    #[inline(always)]
    fn reaction<T: Real>(v: T, locals: &mut [T; 7], c: &LuoRudy1991Coeffs<T>) -> T {
        if let Some(row) = c.table.locate(v) {
            // SAFETY: the table has TABLE's columns, kept alive by whoever
            // attached it.
            // Pair p is columns 2p and 2p + 1: gate g's (y_inf, approach) is pair g.
            let pair = |p: usize| unsafe { row.get_pair(p) };
            let gates = [pair(0), pair(1), pair(2), pair(3), pair(4), pair(5)];
            let (xi, k1_inf) = pair(COL_XI / 2);
            let (kp, _) = pair(COL_KP / 2);
            return reaction_with(v, locals, c, gates, [xi, k1_inf, kp]);
        }
        let r = rates(v, c.e_k1);
        let nd = c.neg_dt;
        let gates = [r.m, r.h, r.j, r.d, r.f, r.x].map(|g| g.rush_larsen_factors(nd));
        reaction_with(v, locals, c, gates, [r.xi, r.k1_inf, r.kp])
    }

    const RATE_TABLE: Option<TableSpec> = Some(TABLE);

    #[cfg(not(target_arch = "nvptx64"))]
    fn table_columns(params: &[f64], dt: f64, v: f64, out: &mut [f64]) {
        let c = Self::coeffs::<f64>(params, dt);
        let r = rates(v, c.e_k1);
        for (g, rates) in [r.m, r.h, r.j, r.d, r.f, r.x].into_iter().enumerate() {
            (out[2 * g], out[2 * g + 1]) = rates.rush_larsen_factors(c.neg_dt);
        }
        (out[COL_XI], out[COL_K1_INF], out[COL_KP]) = (r.xi, r.k1_inf, r.kp);
    }

    rate_table_in_field!(LuoRudy1991Coeffs);
}

/// The rate table: from -120 to +80 mV every 0.1 mV (outside it the exact
/// functions serve). Columns: (y_inf, 1 - e^{-dt/tau}) of m, h, j, d, f, X,
/// then X_i, K1_inf and Kp. The h and j rates switch branch at -40 mV, a
/// node of the table: only the interval just below it, [-40.1, -40) mV,
/// blends the two branches. Accuracy: test `rate_table_follows_the_exact_functions`.
const TABLE: TableSpec = TableSpec::ionic(15);
/// X_i and K1_inf, one pair; Kp and the padding, the next.
const COL_XI: usize = 12;
/// (Written by the host's table fill; the GPU reads it with its pair.)
#[cfg_attr(target_arch = "nvptx64", allow(dead_code))]
const COL_K1_INF: usize = COL_XI + 1;
const COL_KP: usize = COL_XI + 2;

/// The reaction from the gates' (y_inf, approach) factors and the
/// instantaneous factors (X_i, K1_inf, Kp), however they were found.
#[inline(always)]
fn reaction_with<T: Real>(
    v: T,
    locals: &mut [T; 7],
    c: &LuoRudy1991Coeffs<T>,
    gates: [(T, T); 6],
    factors: [T; 3],
) -> T {
    let [m, h, j, d, f, x, cai] = *locals;
    let [xi, k1_inf, kp] = factors;
    // Currents per membrane area, uA/cm^2.
    let i_na = c.g_na * (m * m * m) * h * j * (v - c.e_na);
    let i_si = c.g_si * d * f * (v - e_si(cai));
    let i_k = c.g_k * x * xi * (v - c.e_k);
    let i_k1 = c.g_k1 * k1_inf * (v - c.e_k1);
    let i_kp = c.g_kp * kp * (v - c.e_k1);
    let i_b = c.g_b * (v - c.e_b);
    // d[Ca]_i/dt = -1e-4 I_si + 0.07 (1e-4 - [Ca]_i), I_si in uA/cm^2.
    let dcai = k::<T>(-1e-4).mul_add(i_si, k::<T>(0.07) * (k::<T>(1e-4) - cai));
    let step = |y: T, (y_inf, reached): (T, T)| reached.mul_add(y_inf - y, y);
    *locals = [
        step(m, gates[0]),
        step(h, gates[1]),
        step(j, gates[2]),
        step(d, gates[3]),
        step(f, gates[4]),
        step(x, gates[5]),
        c.dt.mul_add(dcai, cai),
    ];
    -(((i_na + i_si) + (i_k + i_k1)) + (i_kp + i_b)) * c.inv_c_m
}

/// The rest state (V, m, h, j, d, f, X, `[Ca]_i`): see [`ModelInfo::variables`].
const REST: [f64; 8] =
    [-84.547761, 0.0016662720, 0.98330501, 0.98952358, 0.0029772532, 0.99998124, 0.0056430485, 0.00017835856];

#[cfg(test)]
mod tests {
    //! Measured with the defaults (dt = 0.01 ms, stimulus 80 uA/uF for
    //! 0.5 ms at 1 Hz), f64:
    //!
    //! | quantity | measured | published / second source |
    //! |---|---|---|
    //! | rest (quiescent fixed point) | -84.548 mV | about -84 (LR1 *); -84.53 Rudy lab code; -84.5 +- 2 Finitewave test |
    //! | rest before a 1 Hz beat | -84.439 mV | |
    //! | peak, first beat | +43.41 mV | about +40 (LR1 *); 40 +- 2 Finitewave test |
    //! | APD90, first beat / 1 Hz steady | 366.54 / 361.42 ms | about 350-380 ms at `[K]_o` = 5.4 (LR1 *) |
    //! | max dV/dt | 406.7 V/s | about 400 V/s (LR1 *) |
    //! | CV, dx 0.25 mm, D 0.1 mm^2/ms | 0.562 m/s | 0.56 +- 0.01 Finitewave test, same D, dx, dt |
    //! | CV, dx 0.1 mm | 0.627 m/s | |
    //! | f32 against f64, one beat | 9.5e-6 of the amplitude | |
    //! | APD90 at dt and dt/2 | 366.54 / 366.635 ms | |
    //! | beat 19 to 20 change | 0 ms, `[Ca]_i` 0 mM | LR1 holds Na and K constant; its uptake term pulls `[Ca]_i` back toward 1e-4 mM |
    //!
    //! (*) The figures usually quoted for LR1, which we could not check in
    //! the paper itself. Finitewave's LR91 test also bounds an "APD" by
    //! 350-400 ms, but it measures the time above 0.1 mV, which is 160-165 ms
    //! in our trace (the plateau falls below 0 mV at 175 ms), so we do not
    //! use that figure.
    use super::*;
    use crate::cell::{StepCoeffs, step_cell};
    use crate::model::rest_locals;
    use crate::models::testing::*;

    fn defaults() -> Vec<f64> {
        LuoRudy1991::INFO.parameters.iter().map(|p| p.default).collect()
    }

    fn default_pacing() -> Pacing {
        let stim = LuoRudy1991::INFO.stimulus_current.unwrap();
        Pacing { amplitude: stim.amplitude, duration_ms: stim.duration, start_ms: 10.0, period_ms: 1000.0 }
    }

    const DT: f64 = 0.01;

    #[test]
    fn tables_are_consistent() {
        let info = LuoRudy1991::INFO;
        assert_eq!(info.variables.len(), 8);
        assert_eq!(info.parameters.len(), PARAMETER_COUNT);
        assert_eq!(info.planar_background.len(), 8);
        assert_eq!(<[f64; 7] as crate::model::Locals<f64>>::COUNT + 1, info.variables.len());
        for p in info.parameters {
            assert!(p.range.contains(p.default), "{}", p.name);
        }
        let n = info.numerics;
        assert!(n.diffusion * n.dt / (n.dx * n.dx) < 1.0 / 6.0 / 4.0);
        assert!(info.stimulus_current.unwrap().amplitude > 0.0);
    }

    #[test]
    fn reversal_potentials_and_potassium_scaling() {
        let c = LuoRudy1991::coeffs::<f64>(&defaults(), DT);
        // pigreads 1.0 `luo1991model` (from the CellML export) lists
        // E_Na = 54.79446393509185, E_K = -77.56758438531939 and
        // E_K1 = E_Kp = -87.8929017138025 mV.
        assert!((c.e_na - 54.79446393509185).abs() < 1e-12, "{}", c.e_na);
        assert!((c.e_k + 77.56758438531939).abs() < 1e-12, "{}", c.e_k);
        assert!((c.e_k1 + 87.8929017138025).abs() < 1e-12, "{}", c.e_k1);
        assert_eq!((c.g_k, c.g_k1, c.dt, c.neg_dt), (0.282, 0.6047, DT, -DT));
        // [K]_o = 10.8 mM: G_K, G_K1 scale by sqrt(2); E_K1 moves by RT/F ln 2.
        let mut params = defaults();
        params[7] = 10.8;
        let c2 = LuoRudy1991::coeffs::<f64>(&params, DT);
        assert!((c2.g_k - 0.282 * 2f64.sqrt()).abs() < 1e-15);
        assert!((c2.g_k1 - 0.6047 * 2f64.sqrt()).abs() < 1e-15);
        let rt_f = 8314.0 * 310.0 / 96484.6;
        assert!((c2.e_k1 - c.e_k1 - rt_f * 2f64.ln()).abs() < 1e-12);
    }

    /// The rates written directly from the paper's formulas with the
    /// platform's exp (no expm1, no shared math): an independent check of
    /// the transcription away from the removable singularities.
    fn paper_rates(v: f64, e_k1: f64) -> [f64; 15] {
        let e = f64::exp;
        let a_m = 0.32 * (v + 47.13) / (1.0 - e(-0.1 * (v + 47.13)));
        let b_m = 0.08 * e(-v / 11.0);
        let (a_h, b_h, a_j, b_j) = if v < -40.0 {
            (
                0.135 * e((80.0 + v) / -6.8),
                3.56 * e(0.079 * v) + 3.1e5 * e(0.35 * v),
                (-1.2714e5 * e(0.2444 * v) - 3.474e-5 * e(-0.04391 * v)) * (v + 37.78)
                    / (1.0 + e(0.311 * (v + 79.23))),
                0.1212 * e(-0.01052 * v) / (1.0 + e(-0.1378 * (v + 40.14))),
            )
        } else {
            (
                0.0,
                1.0 / (0.13 * (1.0 + e((v + 10.66) / -11.1))),
                0.0,
                0.3 * e(-2.535e-7 * v) / (1.0 + e(-0.1 * (v + 32.0))),
            )
        };
        let a_d = 0.095 * e(-0.01 * (v - 5.0)) / (1.0 + e(-0.072 * (v - 5.0)));
        let b_d = 0.07 * e(-0.017 * (v + 44.0)) / (1.0 + e(0.05 * (v + 44.0)));
        let a_f = 0.012 * e(-0.008 * (v + 28.0)) / (1.0 + e(0.15 * (v + 28.0)));
        let b_f = 0.0065 * e(-0.02 * (v + 30.0)) / (1.0 + e(-0.2 * (v + 30.0)));
        let a_x = 0.0005 * e(0.083 * (v + 50.0)) / (1.0 + e(0.057 * (v + 50.0)));
        let b_x = 0.0013 * e(-0.06 * (v + 20.0)) / (1.0 + e(-0.04 * (v + 20.0)));
        let xi = if v > -100.0 {
            2.837 * (e(0.04 * (v + 77.0)) - 1.0) / ((v + 77.0) * e(0.04 * (v + 35.0)))
        } else {
            1.0
        };
        let a_k1 = 1.02 / (1.0 + e(0.2385 * (v - e_k1 - 59.215)));
        let b_k1 = (0.49124 * e(0.08032 * (v - e_k1 + 5.476)) + e(0.06175 * (v - e_k1 - 594.31)))
            / (1.0 + e(-0.5143 * (v - e_k1 + 4.753)));
        let kp = 1.0 / (1.0 + e((7.488 - v) / 5.98));
        [a_m, b_m, a_h, b_h, a_j, b_j, a_d, b_d, a_f, b_f, a_x, b_x, xi, a_k1 / (a_k1 + b_k1), kp]
    }

    fn flat<T: Real>(r: &Rates<T>) -> [f64; 15] {
        let g = |g: GateRates<T>| (g.alpha.to_f64(), g.beta.to_f64());
        let (m, h, j, d, f, x) = (g(r.m), g(r.h), g(r.j), g(r.d), g(r.f), g(r.x));
        [
            m.0,
            m.1,
            h.0,
            h.1,
            j.0,
            j.1,
            d.0,
            d.1,
            f.0,
            f.1,
            x.0,
            x.1,
            r.xi.to_f64(),
            r.k1_inf.to_f64(),
            r.kp.to_f64(),
        ]
    }

    #[test]
    fn rates_match_the_paper_formulas() {
        let e_k1 = LuoRudy1991::coeffs::<f64>(&defaults(), DT).e_k1;
        let mut worst = 0f64;
        for i in 0..=25_000 {
            let v = -150.0 + i as f64 * 0.01 + 0.003;
            // Keep away from the removable singularities, where the
            // direct formulas lose digits (checked separately below).
            if (v + 47.13).abs() < 1e-3 || (v + 77.0).abs() < 1e-3 {
                continue;
            }
            let ours = flat(&rates(v, e_k1));
            let paper = paper_rates(v, e_k1);
            for (k, (a, b)) in ours.iter().zip(paper).enumerate() {
                let rel = (a - b).abs() / b.abs().max(1e-300);
                if b == 0.0 {
                    assert_eq!(*a, 0.0, "rate {k} at V = {v}");
                } else {
                    assert!(rel < 1e-12, "rate {k} at V = {v}: {a} against {b}");
                    worst = worst.max(rel);
                }
            }
        }
        eprintln!("largest relative difference from the direct formulas: {worst:.2e}");
    }

    #[test]
    fn rates_are_finite_and_gates_stay_in_unit_interval() {
        fn sweep<T: Real>() {
            let c = LuoRudy1991::coeffs::<T>(&defaults(), DT);
            let c_big = LuoRudy1991::coeffs::<T>(&defaults(), 1.0);
            for i in 0..=250_000 {
                let v = T::from_f64(-150.0 + i as f64 * 0.001);
                let r = rates(v, c.e_k1);
                for (k, x) in flat(&r).into_iter().enumerate() {
                    assert!(x.is_finite() && x >= 0.0, "{} rate {k} at V = {v:?}: {x}", T::NAME);
                }
                for x in [r.xi, r.k1_inf, r.kp] {
                    assert!(x.is_finite() && x.to_f64() >= 0.0, "{} at V = {v:?}", T::NAME);
                }
                for g in [r.m, r.h, r.j, r.d, r.f, r.x] {
                    let inf = g.steady();
                    let tau = T::ONE / (g.alpha + g.beta);
                    assert!(inf.is_finite() && tau.is_finite(), "{} at V = {v:?}: {g:?}", T::NAME);
                    assert!(inf >= T::ZERO && inf <= T::ONE, "{} at V = {v:?}: {g:?}", T::NAME);
                    for y in [T::ZERO, T::HALF, T::ONE] {
                        for neg_dt in [c.neg_dt, c_big.neg_dt] {
                            let next = g.rush_larsen(y, neg_dt);
                            assert!(
                                next >= T::ZERO && next <= T::ONE,
                                "{} at V = {v:?}: {y:?} -> {next:?}",
                                T::NAME
                            );
                        }
                    }
                }
                // A whole reaction step from the rest gates at this V.
                let mut locals = rest_locals::<LuoRudy1991, T>();
                let dvdt = LuoRudy1991::reaction(v, &mut locals, &c);
                assert!(dvdt.is_finite(), "{} dV/dt at V = {v:?}", T::NAME);
                let [gates @ .., cai] = locals;
                for (k, g) in gates.into_iter().enumerate() {
                    assert!(g >= T::ZERO && g <= T::ONE, "{} gate {k} at V = {v:?}", T::NAME);
                }
                assert!(cai > T::ZERO && cai.is_finite());
            }
            for cai in [1e-7, 1e-5, 1e-4, 1e-3, 1e-2] {
                assert!(e_si(T::from_f64(cai)).is_finite());
            }
        }
        sweep::<f32>();
        sweep::<f64>();
    }

    #[test]
    fn alpha_m_is_smooth_through_its_removable_singularity() {
        // a_m(V) = 3.2 y/(e^y - 1), y = -0.1 (V + 47.13): 3.2 at the point
        // and 3.2 (1 - y/2 + y^2/12) next to it.
        let e_k1 = -87.9;
        let at = |v: f64| rates(v, e_k1).m.alpha;
        assert_eq!(at(-47.13), 3.2);
        assert_eq!(rates(-47.13f32, e_k1 as f32).m.alpha, 3.2f32);
        for x in [1e-12f64, 1e-9, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2] {
            for sx in [x, -x] {
                let y = -0.1 * sx;
                let series = 3.2 * (1.0 - y / 2.0 + y * y / 12.0 - y.powi(4) / 720.0);
                let ours = at(-47.13 + sx);
                // -47.13 + sx is rounded: compare at the rounded V.
                let y_exact = -0.1 * ((-47.13 + sx) + 47.13);
                let series_exact =
                    3.2 * (1.0 - y_exact / 2.0 + y_exact * y_exact / 12.0 - y_exact.powi(4) / 720.0);
                assert!(
                    (ours - series_exact).abs() < 1e-14,
                    "x = {sx}: {ours} against {series_exact} ({series})"
                );
                let ours32 = rates((-47.13 + sx) as f32, e_k1 as f32).m.alpha as f64;
                assert!((ours32 - 3.2).abs() < 3.2 * (1e-6 + 0.06 * x), "f32 x = {sx}: {ours32}");
            }
        }
        // Monotone through the point on a fine grid (a_m increases with V).
        let mut last = 0.0;
        for i in -1000..=1000 {
            let a = at(-47.13 + i as f64 * 1e-6);
            assert!(a >= last, "{i}");
            last = a;
        }
    }

    #[test]
    fn xi_is_smooth_through_its_removable_singularity() {
        // X_i(-77) = 2.837 * 0.04 / exp(0.04 * (-77 + 35)) = 0.6088833...
        let limit = 2.837 * 0.04 * (0.04f64 * 42.0).exp();
        let xi = |v: f64| rates(v, -87.9).xi;
        assert!((xi(-77.0) - limit).abs() < 1e-15, "{} against {limit}", xi(-77.0));
        assert!((rates(-77.0f32, -87.9).xi as f64 - limit).abs() < 1e-6);
        for x in [1e-12f64, 1e-9, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1] {
            for v in [-77.0 + x, -77.0 - x] {
                // The direct formula with exp_m1 (the platform's) as reference.
                let z = 0.04 * (v + 77.0);
                let reference = 2.837 * z.exp_m1() / ((v + 77.0) * (0.04 * (v + 35.0)).exp());
                assert!((xi(v) - reference).abs() < 4e-16, "V = {v}: {} against {reference}", xi(v));
                // f32 at the f32-rounded V: a few ulp of 0.61 plus the slope
                // (-0.04 X_i / mV) times the rounding of V.
                let v32 = v as f32;
                let r32 = rates(v32, -87.9).xi as f64;
                let slope_err = 0.03 * (v32 as f64 - v).abs();
                assert!((r32 - reference).abs() < 3e-7 + slope_err, "f32 V = {v}: {r32} against {reference}");
            }
        }
        // Nearly continuous at the switch to 1 at V = -100 (0.999 above).
        assert!((xi(-99.999) - 1.0).abs() < 2e-3 && xi(-100.0) == 1.0);
    }

    #[test]
    fn h_and_j_switch_at_minus_40_as_in_the_paper() {
        // The paper's discontinuity: at V = -40 the upper branch, just
        // below it the lower one.
        let below = rates(-40.000001f64, -87.9);
        let at = rates(-40.0f64, -87.9);
        assert_eq!((at.h.alpha, at.j.alpha), (0.0, 0.0));
        // Values of the paper's formulas just below and at -40 mV (our
        // own evaluation with Python's math.exp): a_h 3.764e-4, b_h
        // 0.40881 / 0.51082, a_j 8.060e-5, b_j 0.093195 / 0.093009.
        let close = |a: f64, b: f64| (a - b).abs() < 1e-4 * b;
        assert!(close(below.h.alpha, 3.7640935576e-4) && close(below.j.alpha, 8.060456e-5), "{below:?}");
        assert!(close(below.h.beta, 0.408809439) && close(at.h.beta, 0.510820629), "{below:?} {at:?}");
        assert!(close(below.j.beta, 0.0931950225) && close(at.j.beta, 0.0930085988), "{below:?} {at:?}");
    }

    #[test]
    fn rest_is_the_fixed_point() {
        let c = LuoRudy1991::coeffs::<f64>(&defaults(), DT);
        let step = StepCoeffs::<f64>::new(DT, 0.0);
        let rest = LuoRudy1991::INFO.variables[0].rest;
        let mut v = rest;
        let mut locals = rest_locals::<LuoRudy1991, f64>();
        let start = locals;
        // Rounded to 8 digits, the rest state sits within 1e-6 mV/ms of
        // the fixed point and stays there for 10 s.
        let mut probe = locals;
        assert!(LuoRudy1991::reaction(rest, &mut probe, &c).abs() < 1e-6);
        for _ in 0..(10_000.0 / DT) as u64 {
            v = step_cell::<LuoRudy1991, f64>(v, 0.0, &mut locals, &step, &c);
        }
        assert!((v - rest).abs() < 1e-5, "V drifts to {v}");
        for (k, (now, was)) in locals.iter().zip(start).enumerate() {
            assert!((now - was).abs() < 1e-6 * was.max(1e-3), "variable {k}: {locals:?}");
        }
        // Near the published initial state of the Rudy lab's LR1 code
        // (Myokit lr-1991.mmt): V -84.5286, m 0.0017, h 0.9832, X 0.0057.
        assert!((rest + 84.5286).abs() < 0.1);
        assert!((start[0] - 0.0017).abs() < 1e-4 && (start[1] - 0.9832).abs() < 1e-3);
        assert!((start[5] - 0.0057).abs() < 2e-4 && (start[6] - 2e-4).abs() < 3e-5);
    }

    #[test]
    fn action_potential_at_1_hz() {
        let cell = pace_cell::<LuoRudy1991, f64>(&defaults(), DT, default_pacing(), 2);
        let first = cell.beats[0];
        eprintln!("first beat {first:?}\nsecond beat {:?}", cell.beats[1]);
        // Measured (f64, dt 0.01 ms): rest -84.548, peak +43.41 mV, APD90
        // 366.54 ms, max dV/dt 406.7 V/s.
        // Rest about -84 mV (the LR1 figure usually quoted; -84.53 in the
        // Rudy lab's code, -84.5 +- 2 in Finitewave's LR91 test).
        assert!((first.rest + 84.5).abs() < 0.5, "{first:?}");
        // Peak about +40 mV (Finitewave's LR91 test: 40 +- 2 mV in a strip;
        // a single cell also carries the last of the stimulus).
        assert!((first.peak - 40.0).abs() < 5.0, "{first:?}");
        // APD about 350-380 ms at [K]_o = 5.4 mM (the LR1 figure usually
        // quoted).
        assert!(first.apd90_ms > 350.0 && first.apd90_ms < 380.0, "{first:?}");
        // Max dV/dt about 400 V/s = 400 mV/ms (the LR1 figure usually
        // quoted), within 10%.
        assert!((first.max_dudt - 400.0).abs() < 40.0, "{first:?}");
        // The second beat, from the 1 Hz diastolic state, is a few ms shorter.
        let second = cell.beats[1];
        assert!(second.apd90_ms < first.apd90_ms && second.apd90_ms > first.apd90_ms - 10.0, "{second:?}");
    }

    #[test]
    fn steady_state_at_1_hz() {
        let beats = 20;
        let cell = pace_cell::<LuoRudy1991, f64>(&defaults(), DT, default_pacing(), beats);
        for (n, (b, s)) in cell.beats.iter().zip(&cell.end_states).enumerate() {
            eprintln!(
                "beat {:2}: rest {:.4} peak {:.3} APD90 {:.2} ms, max dV/dt {:.1}; end V {:.4} X {:.5} [Ca]_i {:.6e}",
                n + 1,
                b.rest,
                b.peak,
                b.apd90_ms,
                b.max_dudt,
                s.0,
                s.1[5],
                s.1[6]
            );
            assert!(b.apd90_ms > 340.0 && b.apd90_ms < 380.0, "beat {}: {b:?}", n + 1);
            // [Ca]_i returns to its diastolic level (LR1's uptake term
            // 0.07 (1e-4 - [Ca]_i) restores it with tau = 14 ms; Na and K
            // are constants of the model, so nothing else can drift).
            assert!(s.1[6] > 1.5e-4 && s.1[6] < 2.0e-4, "beat {}: {s:?}", n + 1);
        }
        // Measured: APD90 366.54 on beat 1, 361.38 on beat 2, 361.42 from
        // beat 3 on (change 0.00 ms per beat); [Ca]_i at the end of every
        // beat from the third on 1.790875e-4 mM (change below 1e-12).
        let (a, b) = (cell.beats[beats - 2], cell.beats[beats - 1]);
        assert!((a.apd90_ms - b.apd90_ms).abs() <= 0.02, "{a:?} {b:?}");
        assert!((a.rest - b.rest).abs() < 1e-6 && (a.peak - b.peak).abs() < 1e-6);
        let (sa, sb) = (cell.end_states[beats - 2], cell.end_states[beats - 1]);
        assert!((sa.1[6] - sb.1[6]).abs() < 1e-12, "{sa:?} {sb:?}");
        assert!((sa.1[5] - sb.1[5]).abs() < 1e-9, "{sa:?} {sb:?}");
    }

    #[test]
    fn calcium_transient_stays_in_display_range() {
        let params = defaults();
        let c = LuoRudy1991::coeffs::<f64>(&params, DT);
        let step = StepCoeffs::<f64>::new(DT, 0.0);
        let p = default_pacing();
        let mut v = LuoRudy1991::INFO.variables[0].rest;
        let mut locals = rest_locals::<LuoRudy1991, f64>();
        let mut peak_ca = 0f64;
        for n in 0..(1000.0 / DT) as u64 {
            let t = n as f64 * DT;
            let stim =
                if t >= p.start_ms && t < p.start_ms + p.duration_ms - 1e-9 { p.amplitude } else { 0.0 };
            v = DT.mul_add(stim, step_cell::<LuoRudy1991, f64>(v, 0.0, &mut locals, &step, &c));
            peak_ca = peak_ca.max(locals[6]);
        }
        eprintln!("peak [Ca]_i {peak_ca:.4e} mM");
        let (lo, hi) = LuoRudy1991::INFO.variables[7].display;
        assert!(peak_ca > 1e-3 && peak_ca > lo && peak_ca < hi, "{peak_ca}");
    }

    #[test]
    fn f32_follows_f64() {
        let worst = f32_against_f64::<LuoRudy1991>(&defaults(), DT, default_pacing(), 1000.0);
        eprintln!("f32 against f64 over one beat: {worst:.3e} of the amplitude");
        // Measured 9.5e-6 of the amplitude (about 1.2e-3 mV of the 128 mV
        // swing): f32 reproduces the action potential well within our
        // tolerance of 0.1% of the amplitude, so runs default to f32.
        assert!(worst < 1e-3, "{worst}");
        assert!(!LuoRudy1991::INFO.default_f64);
        let cell32 = pace_cell::<LuoRudy1991, f32>(&defaults(), DT, default_pacing(), 2);
        let cell64 = pace_cell::<LuoRudy1991, f64>(&defaults(), DT, default_pacing(), 2);
        for (a, b) in cell32.beats.iter().zip(&cell64.beats) {
            assert!((a.apd90_ms - b.apd90_ms).abs() < 0.5, "{a:?} {b:?}");
        }
    }

    #[test]
    fn conduction_velocity() {
        let params = defaults();
        let n = LuoRudy1991::INFO.numerics;
        let pacing = Pacing { start_ms: 0.0, period_ms: 1e9, ..default_pacing() };
        let cv = |dx: f64| {
            let cable = Cable { dx, diffusion: n.diffusion, cells: (20.0 / dx) as usize };
            cable_velocity::<LuoRudy1991, f64>(&params, n.dt, cable, pacing, -40.0, 100.0)
        };
        let (cv25, cv10) = (cv(0.25), cv(0.1));
        eprintln!("CV at D 0.1 mm^2/ms, dt 0.01 ms: {cv25:.4} m/s (dx 0.25 mm), {cv10:.4} m/s (dx 0.1 mm)");
        // Finitewave's LR91 propagation test (tests/test_propagation_2d.py):
        // D = 0.1 mm^2/ms, dx = 0.25 mm, dt = 0.01 ms, 0.56 +- 0.01 m/s. We
        // measured 0.5623 m/s; tolerance 0.02 m/s (their forward-Euler gates,
        // RT/F and 2D strip differ slightly from ours).
        assert!((cv25 - 0.56).abs() < 0.02, "{cv25}");
        // Finer grids converge from below (0.5869 at 0.2 mm, 0.6080 at
        // 0.15 mm, 0.6270 at 0.1 mm): about 0.6 m/s, the 0.5 m/s order
        // usually quoted for LR1 at D = 1 cm^2/s.
        assert!(cv10 > cv25 && (cv10 - 0.627).abs() < 0.01, "{cv10}");
    }

    #[test]
    fn rate_table_follows_the_exact_functions() {
        // The h and j rates jump at -40 mV and X_i at -100 mV (the paper's
        // branches), both nodes of the table: the interval beside each
        // that holds the other branch's node blends the two sides
        // (measured: up to 2.6e-3 of h's and j's factors, 1.1e-3 of X_i
        // there), so it is left out; elsewhere linear interpolation at
        // 0.1 mV errs by 3.4e-7 to 1.4e-5 of each column's largest value.
        let jumps = [(-40.1, -40.0), (-100.0, -99.9)];
        assert_table_columns_within_5e5::<LuoRudy1991>(&defaults(), DT, &jumps, "");
    }

    #[test]
    fn rate_table_reproduces_the_action_potential_and_the_wave() {
        let n = LuoRudy1991::INFO.numerics;
        let cable = Cable { dx: n.dx, diffusion: n.diffusion, cells: 80 };
        // Measured: rest within 1e-5 mV, peak 6e-5 mV, APD90 0.01 ms
        // (f32; equal in f64), max dV/dt 3e-6, CV 1.1e-5.
        assert_table_follows_exact::<LuoRudy1991>(&defaults(), DT, default_pacing(), 2, cable);
    }

    #[test]
    fn apd_converges_in_dt() {
        let a = pace_cell::<LuoRudy1991, f64>(&defaults(), DT, default_pacing(), 1).beats[0];
        let b = pace_cell::<LuoRudy1991, f64>(&defaults(), DT / 2.0, default_pacing(), 1).beats[0];
        eprintln!("dt {DT}: {a:?}\ndt {}: {b:?}", DT / 2.0);
        // Measured 366.54 and 366.635 ms; tolerance 1 ms (0.3%).
        assert!((a.apd90_ms - b.apd90_ms).abs() < 1.0, "{a:?} {b:?}");
        assert!((a.max_dudt - b.max_dudt).abs() < 0.02 * b.max_dudt, "{a:?} {b:?}");
        assert!((a.peak - b.peak).abs() < 1.0, "{a:?} {b:?}");
    }
}
