//! The Mitchell-Schaeffer two-current model (Mitchell & Schaeffer, Bull
//! Math Biol 65:767, 2003), forward Euler:
//!
//! ```text
//! dv/dt = h v^2 (1 - v)/tau_in - v/tau_out
//! dh/dt = (1 - h)/tau_open   if v < v_gate
//!         -h/tau_close       otherwise
//! ```
//!
//! The paper's defaults tau_in = 0.3, tau_out = 6, tau_open = 120,
//! tau_close = 150 ms, v_gate = 0.13, checked against five independent
//! implementations (pigreads `mitchell2003two`, MonoAlg3D, a CellML
//! export, the Finitewave package, a course code citing the paper); v is
//! dimensionless, rest v = 0, h = 1. Derived for the tests (our algebra):
//! excited states exist while h > 4 tau_in / tau_out, so the action
//! potential from rest lasts about tau_close ln(tau_out / (4 tau_in)),
//! and a planar front runs at sqrt(h D / (2 tau_in)) (v+ - 2 v-) with v+-
//! the roots of v^2 - v + tau_in/(h tau_out).

use crate::model::{CellModel, ModelInfo, Numerics, Parameter, Range, Variable};
use crate::models::describe::{ms_mm, rate, unpack};
use crate::real::Real;

/// The Mitchell-Schaeffer 2003 model (v, h).
#[derive(Clone, Copy, Debug)]
pub struct MitchellSchaeffer;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MitchellSchaefferCoeffs<T> {
    pub rate_in: T,
    pub rate_out: T,
    pub rate_open: T,
    pub rate_close: T,
    pub v_gate: T,
    pub dt: T,
}

impl CellModel for MitchellSchaeffer {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "mitchell_schaeffer",
        title: "Mitchell-Schaeffer 2003",
        reference: "C. C. Mitchell, D. G. Schaeffer, Bull Math Biol 65:767 (2003)",
        variables: &[
            Variable {
                name: "v",
                unit: "1",
                meaning: "potential (dimensionless, 0 to 1)",
                rest: 0.0,
                display: (0.0, 1.0),
            },
            Variable {
                name: "h",
                unit: "1",
                meaning: "gate of the inward current",
                rest: 1.0,
                display: (0.0, 1.0),
            },
        ],
        parameters: &[
            Parameter {
                name: "tau_in",
                default: 0.3,
                unit: "ms",
                range: Range::Positive,
                meaning: "tau_in, inward current",
            },
            Parameter {
                name: "tau_out",
                default: 6.0,
                unit: "ms",
                range: Range::Positive,
                meaning: "tau_out, outward current",
            },
            Parameter {
                name: "tau_open",
                default: 120.0,
                unit: "ms",
                range: Range::Positive,
                meaning: "tau_open, h recovery below v_gate",
            },
            Parameter {
                name: "tau_close",
                default: 150.0,
                unit: "ms",
                range: Range::Positive,
                meaning: "tau_close, h closing above v_gate",
            },
            Parameter {
                name: "v_gate",
                default: 0.13,
                unit: "1",
                range: Range::Finite,
                meaning: "v_gate, switch of h",
            },
        ],
        presets: &[],
        default_preset: "",
        units: ms_mm("v dimensionless, times in ms, lengths in mm"),
        // D = 0.1 mm^2/ms (1 cm^2/s) gives a front of 0.34 m/s; dx as for
        // the other ionic-like models, D dt/dx^2 = 0.08.
        numerics: Numerics { dx: 0.25, dt: 0.05, diffusion: 0.1 },
        activation_threshold: 0.13,
        stimulus_value: 1.0,
        planar_background: &[0.0, 1.0],
        stimulus_current: None,
        default_f64: false,
    };

    type Locals<T: Real> = [T; 1];
    type Coeffs<T: Real> = MitchellSchaefferCoeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> MitchellSchaefferCoeffs<T> {
        let [tau_in, tau_out, tau_open, tau_close, v_gate] = unpack(params, "Mitchell-Schaeffer");
        let t = T::from_f64;
        MitchellSchaefferCoeffs {
            rate_in: rate(tau_in),
            rate_out: rate(tau_out),
            rate_open: rate(tau_open),
            rate_close: rate(tau_close),
            v_gate: t(v_gate),
            dt: t(dt),
        }
    }

    #[inline(always)]
    fn reaction<T: Real>(v: T, locals: &mut [T; 1], c: &MitchellSchaefferCoeffs<T>) -> T {
        let [h] = *locals;
        let dh = if v < c.v_gate { (T::ONE - h) * c.rate_open } else { -h * c.rate_close };
        locals[0] = c.dt.mul_add(dh, h);
        let j_in = h * (v * v) * (T::ONE - v) * c.rate_in;
        j_in - v * c.rate_out
    }
}
