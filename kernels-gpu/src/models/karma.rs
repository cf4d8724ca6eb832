//! The Karma model (Karma, PRL 71:1103, 1993), in the form of the paper
//! fibril reproduces (Vasconcellos et al. 2019, eqs. 3-4, corrected):
//!
//! ```text
//! dU/dt = D lap(U) - U + (1 - tanh(U - 3)) U^2/2 (gamma - (v/v*)^M)   (paper eq. 3, with U^2/2)
//! dv/dt = eps (Theta(U - 1) - v)                                      (paper eq. 4)
//! ```
//!
//! The paper prints `U/2` and `D dt / h` in eqs. 3 and 5; the model has
//! `U^2/2` (with `U/2` the rest state is unstable) and the discretisation
//! needs `D dt / h^2`: with E^2/2 (as in Karma 1993 and 1994)
//! the kinetics have a stable rest state at 0, a threshold near 0.655 and
//! an excited state near 3.79, with E/2 the rest state is unstable. The
//! paper's gamma is Karma's A = E*, v* his n_B, M his exponent; the defaults
//! (gamma = 1.5415, eps = 0.01, M = 4) are Karma's, v* = 0.6 lets a planar
//! wave from the paper's start (v = 0.5) propagate, and v* = 0.72
//! (Marcotte & Grigoriev, Chaos 27:093936, 2017: beta = 1.389) breaks
//! spirals up.

use crate::fast_math::{MathMode, tanh_in};
use crate::model::{CellModel, ModelInfo, Numerics, Parameter, Preset, Range, Units, Variable};
use crate::real::Real;

/// The Karma model (two variables, U and v).
#[derive(Clone, Copy, Debug)]
pub struct Karma;

/// Karma's coefficients in the compute precision (the step's dt is folded
/// into `dt_eps`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KarmaCoeffs<T> {
    /// gamma / 2 (gamma = A = E* = u*, 1.5415 by default): the reaction's
    /// 1/2 rides on (gamma - q^M) ([`karma_reaction`]).
    pub half_gamma: T,
    /// 1 / v* (v* = n_B).
    pub inv_vstar: T,
    /// dt * eps.
    pub dt_eps: T,
    /// Exponent M (xm).
    pub m: u32,
    /// Which tanh the reaction uses ([`crate::fast_math`]).
    pub tanh: MathMode,
}

impl CellModel for Karma {
    const INFO: &'static ModelInfo = &ModelInfo {
        name: "karma",
        title: "Karma 1993",
        reference: "A. Karma, Phys Rev Lett 71:1103 (1993); Chaos 4:461 (1994); as used by \
                    Vasconcellos et al., CCPE 2019 (eqs. 3-4, with U^2/2)",
        variables: &[
            Variable {
                name: "U",
                unit: "1",
                meaning: "membrane potential (dimensionless)",
                rest: 0.0,
                display: (0.0, 4.0),
            },
            Variable {
                name: "v",
                unit: "1",
                meaning: "recovery variable (n)",
                rest: 0.0,
                display: (0.0, 1.0),
            },
        ],
        parameters: &[
            Parameter {
                name: "gamma",
                default: 1.5415,
                unit: "1",
                range: Range::Finite,
                meaning: "excitability A = E* (gamma of the paper)",
            },
            Parameter {
                name: "eps",
                default: 0.01,
                unit: "1",
                range: Range::Positive,
                meaning: "recovery rate tau_E / tau_n",
            },
            Parameter {
                name: "vstar",
                default: 0.6,
                unit: "1",
                range: Range::Positive,
                meaning: "recovery scale v* = n_B (restitution steepness)",
            },
            Parameter {
                name: "m",
                default: 4.0,
                unit: "1",
                range: Range::Integer(0, 64),
                meaning: "exponent M (xm) of (v/v*)^M",
            },
        ],
        presets: &[
            Preset {
                name: "stable",
                meaning: "v* = 0.6: one stably rotating spiral (period ~42-44)",
                values: &[],
            },
            Preset {
                name: "breakup",
                meaning: "v* = 0.72 (Marcotte & Grigoriev's beta = 1.389): spiral breakup",
                values: &[("vstar", 0.72)],
            },
        ],
        default_preset: "stable",
        units: Units {
            time: "ms",
            space: "s.u.",
            ms_per_time_unit: 1.0,
            note: "dimensionless; like the paper, fibril reads the time unit as 1 ms (space in space units)",
        },
        numerics: Numerics { dx: 0.6, dt: 0.05, diffusion: 1.0 },
        activation_threshold: 1.0,
        stimulus_value: 3.0,
        // The paper's start (eq. 8): v = 0.5 everywhere; with v* = 0.6 a
        // planar wave started from it propagates (with v* = 0.5 it does not:
        // (v/v*)^M = 1 at once).
        planar_background: &[0.0, 0.5],
        stimulus_current: None,
        default_f64: false,
    };

    type Locals<T: Real> = [T; 1];
    type Coeffs<T: Real> = KarmaCoeffs<T>;

    fn coeffs<T: Real>(params: &[f64], dt: f64) -> KarmaCoeffs<T> {
        Self::coeffs_in(params, dt, MathMode::Exact)
    }

    fn coeffs_in<T: Real>(params: &[f64], dt: f64, math: MathMode) -> KarmaCoeffs<T> {
        let &[gamma, eps, vstar, m] = params else { panic!("Karma takes 4 parameters") };
        KarmaCoeffs {
            half_gamma: T::from_f64(gamma / 2.0),
            inv_vstar: T::from_f64(1.0 / vstar),
            dt_eps: T::from_f64(dt * eps),
            m: m as u32,
            tanh: math,
        }
    }

    /// M = 4 (Karma's, and every preset's) with the table tanh (a run's
    /// default): `powi`'s loop and the tanh's choice fold away.
    #[inline(always)]
    fn common_case<T: Real>(c: &KarmaCoeffs<T>) -> Option<KarmaCoeffs<T>> {
        (c.m == 4 && c.tanh == MathMode::Fast).then_some(KarmaCoeffs { m: 4, tanh: MathMode::Fast, ..*c })
    }

    #[inline(always)]
    fn reaction<T: Real>(u: T, locals: &mut [T; 1], c: &KarmaCoeffs<T>) -> T {
        let [v] = *locals;
        let excited = if u > T::ONE { T::ONE } else { T::ZERO };
        locals[0] = c.dt_eps.mul_add(excited - v, v);
        karma_reaction(u, v, c)
    }
}

/// q^m by repeated multiplication, with the usual M = 4 as two squarings
/// (the loop would cost the kernels a dozen instructions per cell).
#[inline(always)]
pub fn powi<T: Real>(q: T, m: u32) -> T {
    if m == 4 {
        let q2 = q * q;
        return q2 * q2;
    }
    let mut acc = T::ONE;
    let mut i = 0;
    while i < m {
        acc = acc * q;
        i += 1;
    }
    acc
}

/// dU/dt without diffusion: -U + (1 - tanh(U - 3)) U^2/2 (gamma - (v/v*)^M),
/// with the tanh of `c.tanh` (the table of [`crate::fast_math`], within
/// 8e-8 of tanh in f32, or the reference one).
///
/// Four operations after the tanh and the power, three of them fused: (1 -
/// tanh) U^2 as U^2 - tanh U^2 (one rounding), the 1/2 on the other factor
/// as gamma/2 - q^M/2 (halving is exact, so that factor is (gamma - q^M)/2
/// to the bit), then the product less U. The kernels are bound by
/// instruction issue (docs/history/BENCHMARKS-2026.md), and this is two instructions a
/// cell-update fewer than the formula written out.
#[inline(always)]
pub fn karma_reaction<T: Real>(u: T, v: T, c: &KarmaCoeffs<T>) -> T {
    let q_pow_m = powi(v * c.inv_vstar, c.m);
    let u2 = u * u;
    let h = (-tanh_in(u - T::THREE, c.tanh)).mul_add(u2, u2);
    let half_g = (-T::HALF).mul_add(q_pow_m, c.half_gamma);
    h.mul_add(half_g, -u)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::{StepCoeffs, step_cell};

    fn coeffs() -> KarmaCoeffs<f64> {
        Karma::coeffs(&[1.5415, 0.01, 0.6, 4.0], 0.05)
    }

    fn step(u: f64, v: f64, lap: f64) -> (f64, f64) {
        let mut locals = [v];
        let un = step_cell::<Karma, f64>(u, lap, &mut locals, &StepCoeffs::new(0.05, 0.05 / 0.36), &coeffs());
        (un, locals[0])
    }

    #[test]
    fn coefficients_fold_dt_into_eps() {
        let c = coeffs();
        assert_eq!((c.half_gamma, c.inv_vstar, c.dt_eps, c.m), (1.5415 / 2.0, 1.0 / 0.6, 0.05 * 0.01, 4));
    }

    #[test]
    fn powi_matches_std() {
        for m in 0..10 {
            for q in [0.3f64, 0.8333, 1.2] {
                assert!((powi(q, m) - q.powi(m as i32)).abs() < 1e-15 * q.powi(m as i32).max(1.0));
            }
        }
    }

    #[test]
    fn the_common_case_is_the_coefficients_themselves() {
        let fast: KarmaCoeffs<f32> = Karma::coeffs_in(&[1.5415, 0.01, 0.6, 4.0], 0.05, MathMode::Fast);
        assert_eq!(Karma::common_case(&fast), Some(fast));
        let exact: KarmaCoeffs<f32> = Karma::coeffs(&[1.5415, 0.01, 0.6, 4.0], 0.05);
        assert_eq!(Karma::common_case(&exact), None);
        let m3: KarmaCoeffs<f32> = Karma::coeffs_in(&[1.5415, 0.01, 0.6, 3.0], 0.05, MathMode::Fast);
        assert_eq!(Karma::common_case(&m3), None);
    }

    #[test]
    fn rest_state_is_fixed_point() {
        assert_eq!(step(0.0, 0.0, 0.0), (0.0, 0.0));
    }

    #[test]
    fn reaction_matches_direct_formula() {
        let c = coeffs();
        for &(u, v) in &[(0.3, 0.1), (1.2, 0.5), (3.5, 0.2), (2.0, 0.9)] {
            let direct = -u + (1.0 - (u - 3.0f64).tanh()) * u * u / 2.0 * (1.5415 - (v / 0.6f64).powi(4));
            assert!((karma_reaction(u, v, &c) - direct).abs() < 1e-14);
        }
    }

    #[test]
    fn the_fast_tanh_moves_the_reaction_by_at_most_its_error_bound() {
        // |h_fast - h| = |tanh_fast - tanh| U^2/2 |gamma - q^M|, and tanh_fast
        // is within 4e-8 of tanh in f64 (fast_math's test); f64 leaves the
        // other roundings far below that.
        let exact: KarmaCoeffs<f64> = Karma::coeffs(&[1.5415, 0.01, 0.6, 4.0], 0.05);
        let fast: KarmaCoeffs<f64> = Karma::coeffs_in(&[1.5415, 0.01, 0.6, 4.0], 0.05, MathMode::Fast);
        assert_eq!((exact.tanh, fast.tanh), (MathMode::Exact, MathMode::Fast));
        let mut worst = 0f64;
        for i in 0..=4000 {
            let u = -0.5 + 5.0 * i as f64 / 4000.0;
            for v in [0.0, 0.3, 0.5, 0.9] {
                let scale = u * u / 2.0 * (1.5415 - (v / 0.6f64).powi(4)).abs();
                let d = (karma_reaction(u, v, &fast) - karma_reaction(u, v, &exact)).abs();
                assert!(d <= 4e-8 * scale + 1e-14, "u {u} v {v}: {d} > {}", 4e-8 * scale);
                worst = worst.max(d);
            }
        }
        assert!(worst > 1e-9, "the two tanh differ");
    }

    #[test]
    fn kinetics_have_karma_fixed_points() {
        // With v = 0: rest 0, threshold ~0.655, excited ~3.79 (the kinetics of Karma 1993).
        let c = coeffs();
        let f = |u: f64| karma_reaction(u, 0.0, &c);
        assert!(f(0.5) < 0.0 && f(0.8) > 0.0, "threshold between 0.5 and 0.8");
        assert!(f(3.7) > 0.0 && f(3.9) < 0.0, "excited state between 3.7 and 3.9");
    }

    #[test]
    fn recovery_variable_relaxes_toward_heaviside() {
        let (_, v_up) = step(2.0, 0.5, 0.0);
        let (_, v_down) = step(0.5, 0.5, 0.0);
        assert!((v_up - (0.5 + 0.05 * 0.01 * 0.5)).abs() < 1e-15);
        assert!((v_down - (0.5 - 0.05 * 0.01 * 0.5)).abs() < 1e-15);
    }

    #[test]
    fn one_step_is_the_papers_update_in_its_operation_order() {
        // u_next = dt * f(u, v) + (D dt/h^2 lap + u), two fused multiply-adds.
        let (u, v, lap) = (1.3, 0.4, 0.7);
        let r = 0.05 / 0.36;
        let want = 0.05f64.mul_add(karma_reaction(u, v, &coeffs()), r.mul_add(lap, u));
        assert_eq!(step(u, v, lap).0.to_bits(), want.to_bits());
    }
}
