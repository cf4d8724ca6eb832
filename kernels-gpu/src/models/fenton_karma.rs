//! The Fenton-Karma three-variable model (Fenton & Karma, Chaos 8:20,
//! 1998, eqs. 24-30), forward Euler, with
//! p = H(u - u_c), q = H(u - u_v) (H strict at equality):
//!
//! ```text
//! du/dt = -(J_fi + J_so + J_si)
//! dv/dt = (1 - p)(1 - v)/tau_v^-(u) - p v/tau_v^+
//! dw/dt = (1 - p)(1 - w)/tau_w^-    - p w/tau_w^+
//! J_fi  = -(v/tau_d) p (1 - u)(u - u_c)
//! J_so  = u (1 - p)/tau_o + p/tau_r
//! J_si  = -(w/(2 tau_si)) (1 + tanh(k (u - u_c^si)))
//! tau_v^-(u) = q tau_v1^- + (1 - q) tau_v2^-        (FK98 eq. 30)
//! ```
//!
//! Parameter names follow FK98 (tau_v1^- acts above u_v); the 2002 paper
//! (Fenton, Cherry, Hastings, Evans, Chaos 12:852, Table I) swaps the two
//! labels, so its sets are entered here converted. Presets: FK98 Table I
//! (BR, MBR, MLR-I, GP; tau_d = C_m/g_fi with C_m = 1) and F02 sets 3 and
//! 4. u = (V - V_o)/(V_fi - V_o) with V_o = -85 mV, V_fi = 15 mV; times in
//! ms; D = 1 cm^2/s = 0.1 mm^2/ms as in both papers.

use crate::math::tanh;
use crate::model::{CellModel, ModelInfo, Numerics, Parameter, Preset, Range, Variable};
use crate::models::describe::{ms_mm, rate, unpack};
use crate::real::Real;

/// The Fenton-Karma 1998 model (u, v, w).
#[derive(Clone, Copy, Debug)]
pub struct FentonKarma;

/// Coefficients in the compute precision (rates 1/tau, and dt).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FentonKarmaCoeffs<T> {
    pub rate_d: T,
    pub rate_r: T,
    /// 1 / (2 tau_si).
    pub half_rate_si: T,
    pub rate_o: T,
    pub rate_vp: T,
    pub rate_v1m: T,
    pub rate_v2m: T,
    pub rate_wp: T,
    pub rate_wm: T,
    pub u_c: T,
    pub u_v: T,
    pub u_csi: T,
    pub k: T,
    pub dt: T,
}

const POS: Range = Range::Positive;

/// FK98's fit to the Beeler-Reuter model with the given `tau_r` and
/// `tau_si`: FK98 Table I's BR set (33, 30 ms) and F02's set 3 (33.33,
/// 29 ms, converted to FK98 naming) differ only in those two.
const fn br_fit(tau_r: f64, tau_si: f64) -> [(&'static str, f64); 9] {
    [
        ("tau_d", 0.25),
        ("tau_r", tau_r),
        ("tau_si", tau_si),
        ("tau_vp", 3.33),
        ("tau_v1m", 1250.0),
        ("tau_v2m", 19.6),
        ("tau_wp", 870.0),
        ("tau_wm", 41.0),
        ("u_v", 0.04),
    ]
}

impl CellModel for FentonKarma {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "fenton_karma",
        title: "Fenton-Karma 1998 three-variable model",
        reference: "F. Fenton, A. Karma, Chaos 8:20 (1998), eqs. 24-30 and Table I; F. Fenton et al., \
                    Chaos 12:852 (2002), Table I",
        variables: &[
            Variable {
                name: "u",
                unit: "1",
                meaning: "potential (V = 100 u - 85 mV)",
                rest: 0.0,
                display: (0.0, 1.1),
            },
            Variable {
                name: "v",
                unit: "1",
                meaning: "fast inactivation gate (J_fi)",
                rest: 1.0,
                display: (0.0, 1.0),
            },
            Variable {
                name: "w",
                unit: "1",
                meaning: "slow inactivation gate (J_si)",
                rest: 1.0,
                display: (0.0, 1.0),
            },
        ],
        // FK98 Table I, GP (the default preset).
        parameters: &[
            Parameter {
                name: "tau_d",
                default: 1.0 / 8.7,
                unit: "ms",
                range: POS,
                meaning: "tau_d = C_m/g_fi, fast inward current",
            },
            Parameter {
                name: "tau_r",
                default: 25.0,
                unit: "ms",
                range: POS,
                meaning: "tau_r, slow outward current when excited",
            },
            Parameter {
                name: "tau_si",
                default: 22.0,
                unit: "ms",
                range: POS,
                meaning: "tau_si, slow inward current",
            },
            Parameter {
                name: "tau_o",
                default: 12.5,
                unit: "ms",
                range: POS,
                meaning: "tau_o, slow outward current at rest",
            },
            Parameter {
                name: "tau_vp",
                default: 10.0,
                unit: "ms",
                range: POS,
                meaning: "tau_v^+, v closing",
            },
            Parameter {
                name: "tau_v1m",
                default: 333.0,
                unit: "ms",
                range: POS,
                meaning: "tau_v1^-, v opening for u > u_v (FK98 naming)",
            },
            Parameter {
                name: "tau_v2m",
                default: 40.0,
                unit: "ms",
                range: POS,
                meaning: "tau_v2^-, v opening for u < u_v",
            },
            Parameter {
                name: "tau_wp",
                default: 1000.0,
                unit: "ms",
                range: POS,
                meaning: "tau_w^+, w closing",
            },
            Parameter {
                name: "tau_wm",
                default: 65.0,
                unit: "ms",
                range: POS,
                meaning: "tau_w^-, w opening",
            },
            Parameter {
                name: "u_c",
                default: 0.13,
                unit: "1",
                range: Range::Finite,
                meaning: "u_c, excitation threshold",
            },
            Parameter {
                name: "u_v",
                default: 0.025,
                unit: "1",
                range: Range::Finite,
                meaning: "u_v, switch of tau_v^-",
            },
            Parameter {
                name: "u_csi",
                default: 0.85,
                unit: "1",
                range: Range::Finite,
                meaning: "u_c^si, midpoint of J_si",
            },
            Parameter {
                name: "k",
                default: 10.0,
                unit: "1",
                range: Range::Finite,
                meaning: "k, steepness of J_si",
            },
        ],
        presets: &[
            Preset { name: "gp", meaning: "FK98 Table I, GP: stable spiral, period ~100 ms", values: &[] },
            Preset {
                name: "br",
                meaning: "FK98 Table I, BR (Beeler-Reuter fit): spiral breakup",
                values: &br_fit(33.0, 30.0),
            },
            Preset {
                name: "mbr",
                meaning: "FK98 Table I, MBR (modified Beeler-Reuter): stable spiral, period ~200 ms",
                values: &[
                    ("tau_d", 0.25),
                    ("tau_r", 50.0),
                    ("tau_si", 45.0),
                    ("tau_o", 8.3),
                    ("tau_vp", 3.33),
                    ("tau_v1m", 1000.0),
                    ("tau_v2m", 19.2),
                    ("tau_wp", 667.0),
                    ("tau_wm", 11.0),
                    ("u_v", 0.055),
                ],
            },
            Preset {
                name: "mlr1",
                meaning: "FK98 Table I, MLR-I (modified Luo-Rudy I): stable spiral, period ~200 ms",
                values: &[
                    ("tau_d", 1.0 / 5.8),
                    ("tau_r", 130.0),
                    ("tau_si", 127.0),
                    ("tau_v1m", 18.2),
                    ("tau_v2m", 18.2),
                    ("tau_wp", 1020.0),
                    ("tau_wm", 80.0),
                    // No u_v: tau_v1^- = tau_v2^-, so the switch does nothing.
                ],
            },
            Preset {
                name: "f02_set3",
                meaning: "F02 Table I set 3 (BR fit; steep APD restitution), converted to FK98 naming",
                values: &br_fit(33.33, 29.0),
            },
            Preset {
                name: "f02_set4",
                meaning: "F02 Table I set 4 (steep APD restitution, breakup), converted to FK98 naming",
                values: &[
                    ("tau_d", 0.407),
                    ("tau_r", 34.0),
                    ("tau_si", 26.5),
                    ("tau_o", 9.0),
                    ("tau_vp", 3.33),
                    ("tau_v1m", 5.0),
                    ("tau_v2m", 15.6),
                    ("tau_wp", 350.0),
                    ("tau_wm", 80.0),
                    ("u_c", 0.15),
                    ("u_v", 0.04),
                    ("u_csi", 0.45),
                    ("k", 15.0),
                ],
            },
        ],
        default_preset: "gp",
        units: ms_mm("u dimensionless, times in ms, lengths in mm"),
        // dx = 0.25 mm (F02 and fk2d.m use 0.25 mm); forward Euler at
        // 0.05 ms as F02 reports; D dt/dx^2 = 0.08.
        numerics: Numerics { dx: 0.25, dt: 0.05, diffusion: 0.1 },
        // FK98 measure APD at V = -60 mV, u = 0.25.
        activation_threshold: 0.25,
        stimulus_value: 1.0,
        planar_background: &[0.0, 1.0, 1.0],
        stimulus_current: None,
        default_f64: false,
    };

    type Locals<T: Real> = [T; 2];
    type Coeffs<T: Real> = FentonKarmaCoeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> FentonKarmaCoeffs<T> {
        let [tau_d, tau_r, tau_si, tau_o, tau_vp, tau_v1m, tau_v2m, tau_wp, tau_wm, u_c, u_v, u_csi, k] =
            unpack(params, "Fenton-Karma");
        let t = T::from_f64;
        FentonKarmaCoeffs {
            rate_d: rate(tau_d),
            rate_r: rate(tau_r),
            half_rate_si: t(0.5 / tau_si),
            rate_o: rate(tau_o),
            rate_vp: rate(tau_vp),
            rate_v1m: rate(tau_v1m),
            rate_v2m: rate(tau_v2m),
            rate_wp: rate(tau_wp),
            rate_wm: rate(tau_wm),
            u_c: t(u_c),
            u_v: t(u_v),
            u_csi: t(u_csi),
            k: t(k),
            dt: t(dt),
        }
    }

    #[inline(always)]
    fn reaction<T: Real>(u: T, locals: &mut [T; 2], c: &FentonKarmaCoeffs<T>) -> T {
        let [v, w] = *locals;
        let excited = u > c.u_c;
        let j_fi = if excited { -v * (T::ONE - u) * (u - c.u_c) * c.rate_d } else { T::ZERO };
        let j_so = if excited { c.rate_r } else { u * c.rate_o };
        let j_si = -w * (T::ONE + tanh(c.k * (u - c.u_csi))) * c.half_rate_si;
        let (dv, dw) = if excited {
            (-v * c.rate_vp, -w * c.rate_wp)
        } else {
            let rate_vm = if u > c.u_v { c.rate_v1m } else { c.rate_v2m };
            ((T::ONE - v) * rate_vm, (T::ONE - w) * c.rate_wm)
        };
        *locals = [c.dt.mul_add(dv, v), c.dt.mul_add(dw, w)];
        -((j_fi + j_so) + j_si)
    }
}
