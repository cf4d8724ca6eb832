//! The Bueno-Orovio-Cherry-Fenton minimal ventricular model (Bueno-Orovio,
//! Cherry, Fenton, J Theor Biol 253:544, 2008), four variables, forward
//! Euler. The paper's equations,
//! with the Heaviside strict at equality, H(x) = 1 for x > 0:
//!
//! ```text
//! du/dt = -(J_fi + J_so + J_si)
//! dv/dt = (1 - H(u - th_v)) (v_inf - v)/tau_v^- - H(u - th_v) v/tau_v^+
//! dw/dt = (1 - H(u - th_w)) (w_inf - w)/tau_w^- - H(u - th_w) w/tau_w^+
//! ds/dt = ((1 + tanh(k_s (u - u_s)))/2 - s) / tau_s
//! J_fi = -v H(u - th_v) (u - th_v)(u_u - u)/tau_fi
//! J_so = (u - u_o)(1 - H(u - th_w))/tau_o + H(u - th_w)/tau_so
//! J_si = -H(u - th_w) w s/tau_si
//! tau_v^- = tau_v1^- or tau_v2^- (u below or above th_v^-)
//! tau_w^- = tau_w1^- + (tau_w2^- - tau_w1^-)(1 + tanh(k_w^- (u - u_w^-)))/2
//! tau_so  = tau_so1 + (tau_so2 - tau_so1)(1 + tanh(k_so (u - u_so)))/2
//! tau_s   = tau_s1 or tau_s2 (u below or above th_w)
//! tau_o   = tau_o1 or tau_o2 (u below or above th_o)
//! v_inf   = 1 if u < th_v^- else 0
//! w_inf   = 1 - u/tau_winf (u below th_o), w*_inf (above)
//! ```
//!
//! The five parameter sets of the paper's Table 1 (EPI, ENDO, M, PB, TNNP)
//! are the presets. We could not read the paper's table; the values are
//! those that three independent implementations share exactly (pigreads
//! 1.0 `bueno2008minimal`, the Fenton lab's WebGL code, G. Couto's C code),
//! including the M set's tau_v2^- = 1.4506, which one third-party XPP file
//! gives as 145 (it changes the first action potential by 0.2 ms).
//! Units: u dimensionless (V = 85.7 u - 84 mV), times in ms; D = 1.171
//! cm^2/s = 0.1171 mm^2/ms (pigreads, Couto, Finitewave's issue #28).

use crate::math::tanh;
use crate::model::{CellModel, ModelInfo, Numerics, Parameter, Preset, Range, Variable};
use crate::models::describe::{ms_mm, rate, unpack};
use crate::real::Real;

/// The BOCF minimal model (u, v, w, s).
#[derive(Clone, Copy, Debug)]
pub struct Bocf;

/// Coefficients in the compute precision: thresholds as given, time
/// constants as rates (1/tau) where they are fixed, and dt.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BocfCoeffs<T> {
    pub u_o: T,
    pub u_u: T,
    pub theta_v: T,
    pub theta_w: T,
    pub theta_vm: T,
    pub theta_o: T,
    pub rate_v1m: T,
    pub rate_v2m: T,
    pub rate_vp: T,
    pub tau_w1m: T,
    /// (tau_w2^- - tau_w1^-) / 2.
    pub half_span_wm: T,
    pub k_wm: T,
    pub u_wm: T,
    pub rate_wp: T,
    pub rate_fi: T,
    pub rate_o1: T,
    pub rate_o2: T,
    pub tau_so1: T,
    /// (tau_so2 - tau_so1) / 2.
    pub half_span_so: T,
    pub k_so: T,
    pub u_so: T,
    pub rate_s1: T,
    pub rate_s2: T,
    pub k_s: T,
    pub u_s: T,
    pub rate_si: T,
    pub rate_winf: T,
    pub wstar_inf: T,
    pub dt: T,
}

const POS: Range = Range::Positive;
const ANY: Range = Range::Finite;

impl CellModel for Bocf {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "bocf",
        title: "Bueno-Orovio-Cherry-Fenton 2008 minimal model",
        reference: "A. Bueno-Orovio, E. M. Cherry, F. H. Fenton, J Theor Biol 253:544 (2008), Table 1",
        variables: &[
            Variable {
                name: "u",
                unit: "1",
                meaning: "potential (V = 85.7 u - 84 mV)",
                rest: 0.0,
                display: (0.0, 1.6),
            },
            Variable {
                name: "v",
                unit: "1",
                meaning: "fast gate (J_fi inactivation)",
                rest: 1.0,
                display: (0.0, 1.0),
            },
            Variable {
                name: "w",
                unit: "1",
                meaning: "slow gate (J_si inactivation)",
                rest: 1.0,
                display: (0.0, 1.0),
            },
            Variable {
                name: "s",
                unit: "1",
                meaning: "slow activation (J_si)",
                rest: 0.0,
                display: (0.0, 1.0),
            },
        ],
        // The EPI column of the paper's Table 1.
        parameters: &[
            Parameter::new("u_o", 0.0, "1", ANY, "u_o, potential offset of J_so"),
            Parameter::new("u_u", 1.55, "1", ANY, "u_u, upper potential of J_fi"),
            Parameter::new("theta_v", 0.3, "1", ANY, "theta_v, threshold of J_fi and of the v gate"),
            Parameter::new("theta_w", 0.13, "1", ANY, "theta_w, threshold of J_si, J_so and the w gate"),
            Parameter::new("theta_vm", 0.006, "1", ANY, "theta_v^-, switch of tau_v^- and v_inf"),
            Parameter::new("theta_o", 0.006, "1", ANY, "theta_o, switch of tau_o and w_inf"),
            Parameter::new("tau_v1m", 60.0, "ms", POS, "tau_v1^-, v recovery below theta_v^-"),
            Parameter::new("tau_v2m", 1150.0, "ms", POS, "tau_v2^-, v recovery above theta_v^-"),
            Parameter::new("tau_vp", 1.4506, "ms", POS, "tau_v^+, v inactivation"),
            Parameter::new("tau_w1m", 60.0, "ms", POS, "tau_w1^-, w recovery, low u"),
            Parameter::new("tau_w2m", 15.0, "ms", POS, "tau_w2^-, w recovery, high u"),
            Parameter::new("k_wm", 65.0, "1", ANY, "k_w^-, steepness of tau_w^-"),
            Parameter::new("u_wm", 0.03, "1", ANY, "u_w^-, midpoint of tau_w^-"),
            Parameter::new("tau_wp", 200.0, "ms", POS, "tau_w^+, w inactivation"),
            Parameter::new("tau_fi", 0.11, "ms", POS, "tau_fi, fast inward current"),
            Parameter::new("tau_o1", 400.0, "ms", POS, "tau_o1, J_so below theta_o"),
            Parameter::new("tau_o2", 6.0, "ms", POS, "tau_o2, J_so above theta_o"),
            Parameter::new("tau_so1", 30.0181, "ms", POS, "tau_so1, J_so above theta_w, low u"),
            Parameter::new("tau_so2", 0.9957, "ms", POS, "tau_so2, J_so above theta_w, high u"),
            Parameter::new("k_so", 2.0458, "1", ANY, "k_so, steepness of tau_so"),
            Parameter::new("u_so", 0.65, "1", ANY, "u_so, midpoint of tau_so"),
            Parameter::new("tau_s1", 2.7342, "ms", POS, "tau_s1, s below theta_w"),
            Parameter::new("tau_s2", 16.0, "ms", POS, "tau_s2, s above theta_w"),
            Parameter::new("k_s", 2.0994, "1", ANY, "k_s, steepness of s_inf"),
            Parameter::new("u_s", 0.9087, "1", ANY, "u_s, midpoint of s_inf"),
            Parameter::new("tau_si", 1.8875, "ms", POS, "tau_si, slow inward current"),
            Parameter::new("tau_winf", 0.07, "1", POS, "tau_winf, slope of w_inf below theta_o"),
            Parameter::new("wstar_inf", 0.94, "1", ANY, "w*_inf, w_inf above theta_o"),
        ],
        presets: &[
            Preset { name: "epi", meaning: "epicardial cells (Table 1, EPI)", values: &[] },
            Preset {
                name: "endo",
                meaning: "endocardial cells (Table 1, ENDO)",
                values: &[
                    ("u_u", 1.56),
                    ("theta_vm", 0.2),
                    ("tau_v1m", 75.0),
                    ("tau_v2m", 10.0),
                    ("tau_w1m", 6.0),
                    ("tau_w2m", 140.0),
                    ("k_wm", 200.0),
                    ("u_wm", 0.016),
                    ("tau_wp", 280.0),
                    ("tau_fi", 0.1),
                    ("tau_o1", 470.0),
                    ("tau_so1", 40.0),
                    ("tau_so2", 1.2),
                    ("k_so", 2.0),
                    ("tau_s2", 2.0),
                    ("tau_si", 2.9013),
                    ("tau_winf", 0.0273),
                    ("wstar_inf", 0.78),
                ],
            },
            Preset {
                name: "m",
                meaning: "midmyocardial cells (Table 1, M)",
                values: &[
                    ("u_u", 1.61),
                    ("theta_vm", 0.1),
                    ("theta_o", 0.005),
                    ("tau_v1m", 80.0),
                    ("tau_v2m", 1.4506),
                    ("tau_w1m", 70.0),
                    ("tau_w2m", 8.0),
                    ("k_wm", 200.0),
                    ("u_wm", 0.016),
                    ("tau_wp", 280.0),
                    ("tau_fi", 0.078),
                    ("tau_o1", 410.0),
                    ("tau_o2", 7.0),
                    ("tau_so1", 91.0),
                    ("tau_so2", 0.8),
                    ("k_so", 2.1),
                    ("u_so", 0.6),
                    ("tau_s2", 4.0),
                    ("tau_si", 3.3849),
                    ("tau_winf", 0.01),
                    ("wstar_inf", 0.5),
                ],
            },
            Preset {
                name: "pb",
                meaning: "fit to the Priebe-Beuckelmann model (Table 1, PB)",
                values: &[
                    ("u_u", 1.45),
                    ("theta_v", 0.35),
                    ("theta_vm", 0.175),
                    ("tau_v1m", 10.0),
                    ("tau_w1m", 140.0),
                    ("tau_w2m", 6.25),
                    ("u_wm", 0.015),
                    ("tau_wp", 326.0),
                    ("tau_fi", 0.105),
                    ("tau_winf", 0.175),
                    ("wstar_inf", 0.9),
                ],
            },
            Preset {
                name: "tnnp",
                meaning: "fit to the ten Tusscher-Noble-Noble-Panfilov model (Table 1, TNNP)",
                values: &[
                    ("u_u", 1.58),
                    ("theta_w", 0.015),
                    ("theta_vm", 0.015),
                    ("tau_w1m", 70.0),
                    ("tau_w2m", 20.0),
                    ("tau_wp", 280.0),
                    ("tau_o1", 6.0),
                    ("tau_so1", 43.0),
                    ("tau_so2", 0.2),
                    ("k_so", 2.0),
                    ("tau_s2", 3.0),
                    ("tau_si", 2.8723),
                ],
            },
        ],
        default_preset: "epi",
        units: ms_mm("u dimensionless, times in ms, lengths in mm"),
        // pigreads' example discretisation (0.26 mm, 0.025 ms) rounded;
        // D dt/dx^2 = 0.047, and dt well inside tau_fi's Euler limit.
        numerics: Numerics { dx: 0.25, dt: 0.025, diffusion: 0.1171 },
        activation_threshold: 0.3,
        stimulus_value: 1.0,
        planar_background: &[0.0, 1.0, 1.0, 0.0],
        stimulus_current: None,
        default_f64: false,
    };

    type Locals<T: Real> = [T; 3];
    type Coeffs<T: Real> = BocfCoeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> BocfCoeffs<T> {
        let [
            u_o,
            u_u,
            theta_v,
            theta_w,
            theta_vm,
            theta_o,
            tau_v1m,
            tau_v2m,
            tau_vp,
            tau_w1m,
            tau_w2m,
            k_wm,
            u_wm,
            tau_wp,
            tau_fi,
            tau_o1,
            tau_o2,
            tau_so1,
            tau_so2,
            k_so,
            u_so,
            tau_s1,
            tau_s2,
            k_s,
            u_s,
            tau_si,
            tau_winf,
            wstar_inf,
        ] = unpack(params, "BOCF");
        let t = T::from_f64;
        BocfCoeffs {
            u_o: t(u_o),
            u_u: t(u_u),
            theta_v: t(theta_v),
            theta_w: t(theta_w),
            theta_vm: t(theta_vm),
            theta_o: t(theta_o),
            rate_v1m: rate(tau_v1m),
            rate_v2m: rate(tau_v2m),
            rate_vp: rate(tau_vp),
            tau_w1m: t(tau_w1m),
            half_span_wm: t((tau_w2m - tau_w1m) / 2.0),
            k_wm: t(k_wm),
            u_wm: t(u_wm),
            rate_wp: rate(tau_wp),
            rate_fi: rate(tau_fi),
            rate_o1: rate(tau_o1),
            rate_o2: rate(tau_o2),
            tau_so1: t(tau_so1),
            half_span_so: t((tau_so2 - tau_so1) / 2.0),
            k_so: t(k_so),
            u_so: t(u_so),
            rate_s1: rate(tau_s1),
            rate_s2: rate(tau_s2),
            k_s: t(k_s),
            u_s: t(u_s),
            rate_si: rate(tau_si),
            rate_winf: rate(tau_winf),
            wstar_inf: t(wstar_inf),
            dt: t(dt),
        }
    }

    #[inline(always)]
    fn reaction<T: Real>(u: T, locals: &mut [T; 3], c: &BocfCoeffs<T>) -> T {
        let [v, w, s] = *locals;
        let above_v = u > c.theta_v;
        let above_w = u > c.theta_w;
        let above_o = u > c.theta_o;
        // Currents.
        let j_fi = if above_v { -v * (u - c.theta_v) * (c.u_u - u) * c.rate_fi } else { T::ZERO };
        let j_so = if above_w {
            let tau_so = c.half_span_so.mul_add(T::ONE + tanh(c.k_so * (u - c.u_so)), c.tau_so1);
            T::ONE / tau_so
        } else {
            (u - c.u_o) * if above_o { c.rate_o2 } else { c.rate_o1 }
        };
        let j_si = if above_w { -(w * s) * c.rate_si } else { T::ZERO };
        // Gates.
        let dv = if above_v {
            -v * c.rate_vp
        } else {
            let v_inf = if u < c.theta_vm { T::ONE } else { T::ZERO };
            (v_inf - v) * if u > c.theta_vm { c.rate_v2m } else { c.rate_v1m }
        };
        let dw = if above_w {
            -w * c.rate_wp
        } else {
            let w_inf = if above_o { c.wstar_inf } else { (-u).mul_add(c.rate_winf, T::ONE) };
            let tau_wm = c.half_span_wm.mul_add(T::ONE + tanh(c.k_wm * (u - c.u_wm)), c.tau_w1m);
            (w_inf - w) / tau_wm
        };
        let s_inf = (T::ONE + tanh(c.k_s * (u - c.u_s))) * T::HALF;
        let ds = (s_inf - s) * if above_w { c.rate_s2 } else { c.rate_s1 };
        *locals = [c.dt.mul_add(dv, v), c.dt.mul_add(dw, w), c.dt.mul_add(ds, s)];
        -((j_fi + j_so) + j_si)
    }
}
