//! The Aliev-Panfilov model (Aliev & Panfilov, Chaos Solitons Fractals
//! 7:293, 1996), forward Euler:
//!
//! ```text
//! du/dt = -k u (u - a)(u - 1) - u v
//! dv/dt = eps(u, v) (-v - k u (u - a - 1)),   eps(u, v) = eps_0 + mu_1 v / (u + mu_2)
//! ```
//!
//! Dimensionless: u, v and time in the model's units; the usual physical
//! reading is V = 100 u - 80 mV and 1 t.u. = 12.9 ms (the scaling the
//! svFSI solver uses), which fibril uses for the real-time factor only. eps is
//! singular at u = -mu_2; stimuli should stay positive.

use crate::model::{CellModel, ModelInfo, Numerics, Parameter, Range, Units, Variable};
use crate::real::Real;

/// The Aliev-Panfilov 1996 model (u, v).
#[derive(Clone, Copy, Debug)]
pub struct AlievPanfilov;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlievPanfilovCoeffs<T> {
    pub k: T,
    pub a: T,
    /// a + 1.
    pub a_plus_one: T,
    pub eps0: T,
    pub mu1: T,
    pub mu2: T,
    pub dt: T,
}

impl CellModel for AlievPanfilov {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "aliev_panfilov",
        title: "Aliev-Panfilov 1996",
        reference: "R. R. Aliev, A. V. Panfilov, Chaos Solitons Fractals 7:293 (1996)",
        variables: &[
            Variable {
                name: "u",
                unit: "1",
                meaning: "potential (V = 100 u - 80 mV)",
                rest: 0.0,
                display: (0.0, 1.0),
            },
            Variable { name: "v", unit: "1", meaning: "recovery variable", rest: 0.0, display: (0.0, 2.5) },
        ],
        parameters: &[
            Parameter {
                name: "k",
                default: 8.0,
                unit: "1",
                range: Range::Positive,
                meaning: "k, scale of the cubic",
            },
            Parameter {
                name: "a",
                default: 0.15,
                unit: "1",
                range: Range::Between(0.0, 1.0),
                meaning: "a, excitation threshold",
            },
            Parameter {
                name: "eps0",
                default: 0.002,
                unit: "1",
                range: Range::Positive,
                meaning: "eps_0, recovery rate away from the plateau",
            },
            Parameter {
                name: "mu1",
                default: 0.2,
                unit: "1",
                range: Range::NonNegative,
                meaning: "mu_1, restitution term of eps",
            },
            Parameter {
                name: "mu2",
                default: 0.3,
                unit: "1",
                range: Range::Positive,
                meaning: "mu_2, restitution term of eps",
            },
        ],
        presets: &[],
        default_preset: "",
        units: Units {
            time: "t.u.",
            space: "s.u.",
            ms_per_time_unit: 12.9,
            note: "dimensionless; 1 t.u. = 12.9 ms for the real-time factor (svFSI scaling)",
        },
        // Implementations run it with D = 1, dx 0.3-0.5 and dt 0.01-0.023
        // (pigreads: 0.43 / 0.023); D dt/dx^2 = 0.08.
        numerics: Numerics { dx: 0.5, dt: 0.02, diffusion: 1.0 },
        activation_threshold: 0.3,
        stimulus_value: 1.0,
        planar_background: &[0.0, 0.0],
        stimulus_current: None,
        default_f64: false,
    };

    type Locals<T: Real> = [T; 1];
    type Coeffs<T: Real> = AlievPanfilovCoeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> AlievPanfilovCoeffs<T> {
        let &[k, a, eps0, mu1, mu2] = params else { panic!("Aliev-Panfilov takes 5 parameters") };
        let t = T::from_f64;
        AlievPanfilovCoeffs {
            k: t(k),
            a: t(a),
            a_plus_one: t(a + 1.0),
            eps0: t(eps0),
            mu1: t(mu1),
            mu2: t(mu2),
            dt: t(dt),
        }
    }

    #[inline(always)]
    fn reaction<T: Real>(u: T, locals: &mut [T; 1], c: &AlievPanfilovCoeffs<T>) -> T {
        let [v] = *locals;
        let ku = c.k * u;
        let eps = (c.mu1 * v / (u + c.mu2)) + c.eps0;
        let dv = eps * (-v - ku * (u - c.a_plus_one));
        locals[0] = c.dt.mul_add(dv, v);
        -(ku * (u - c.a) * (u - T::ONE)) - u * v
    }
}
