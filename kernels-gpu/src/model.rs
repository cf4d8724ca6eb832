//! The Karma model (Karma, PRL 71:1103, 1993), forward Euler in time.
//!
//! ```text
//! dU/dt = D lap(U) - U + (1 - tanh(U - 3)) U^2/2 (gamma - (v/v*)^M)   (paper eq. 3, with U^2/2)
//! dv/dt = eps (Theta(U - 1) - v)                                      (paper eq. 4)
//! ```
//!
//! The paper prints `U/2` and `D dt / h` in eqs. 3 and 5; the model has
//! `U^2/2` (with `U/2` the rest state is unstable) and the discretisation
//! needs `D dt / h^2` (see `MODELS.md`, section 1.1).

use crate::math::tanh;
use crate::real::Real;

/// Whether the reaction term is on. `Off` leaves pure diffusion
/// (dU/dt = D lap U, v frozen), which tests use against exact solutions.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    Off = 0,
    Karma = 1,
}

/// Everything one forward-Euler step needs, in the compute precision.
///
/// Built once on the host from f64 parameters and handed unchanged to the
/// CPU backend and (by value, hence `#[repr(C)]`) to every kernel, so both
/// round the parameters the same way.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KarmaCoeffs<T> {
    /// Time step (model time units, read as ms).
    pub dt: T,
    /// D dt / h^2, the weight of the undivided Laplacian.
    pub diffusion_number: T,
    /// gamma (= A = E* = u*), 1.5415 by default.
    pub gamma: T,
    /// 1 / v* (v* = n_B).
    pub inv_vstar: T,
    /// dt * eps.
    pub dt_eps: T,
    /// Exponent M (xm).
    pub m: u32,
    /// [`Reaction`] as its `u32` discriminant.
    pub reaction: u32,
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

/// dU/dt without diffusion: -U + (1 - tanh(U - 3)) U^2/2 (gamma - (v/v*)^M).
#[inline(always)]
pub fn karma_reaction<T: Real>(u: T, v: T, c: &KarmaCoeffs<T>) -> T {
    let q_pow_m = powi(v * c.inv_vstar, c.m);
    let h = (T::ONE - tanh(u - T::THREE)) * (u * u) * T::HALF;
    h.mul_add(c.gamma - q_pow_m, -u)
}

/// One forward-Euler step of one cell (paper eq. 5, corrected as above).
///
/// `lap` is the undivided Laplacian from [`crate::stencil::laplacian7`].
/// Returns `(U_next, v_next)`; both use the old U and v.
#[inline(always)]
pub fn karma_step<T: Real>(u: T, v: T, lap: T, c: &KarmaCoeffs<T>) -> (T, T) {
    let diffused = c.diffusion_number.mul_add(lap, u);
    if c.reaction == Reaction::Off as u32 {
        return (diffused, v);
    }
    let u_next = c.dt.mul_add(karma_reaction(u, v, c), diffused);
    let excited = if u > T::ONE { T::ONE } else { T::ZERO };
    let v_next = c.dt_eps.mul_add(excited - v, v);
    (u_next, v_next)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coeffs() -> KarmaCoeffs<f64> {
        KarmaCoeffs {
            dt: 0.05,
            diffusion_number: 0.05 / 0.36,
            gamma: 1.5415,
            inv_vstar: 1.0 / 0.6,
            dt_eps: 0.05 * 0.01,
            m: 4,
            reaction: Reaction::Karma as u32,
        }
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
    fn rest_state_is_fixed_point() {
        let (u, v) = karma_step(0.0, 0.0, 0.0, &coeffs());
        assert_eq!((u, v), (0.0, 0.0));
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
    fn kinetics_have_karma_fixed_points() {
        // With v = 0: rest 0, threshold ~0.655, excited ~3.79 (MODELS.md 1.1).
        let c = coeffs();
        let f = |u: f64| karma_reaction(u, 0.0, &c);
        assert!(f(0.5) < 0.0 && f(0.8) > 0.0, "threshold between 0.5 and 0.8");
        assert!(f(3.7) > 0.0 && f(3.9) < 0.0, "excited state between 3.7 and 3.9");
    }

    #[test]
    fn recovery_variable_relaxes_toward_heaviside() {
        let c = coeffs();
        let (_, v_up) = karma_step(2.0, 0.5, 0.0, &c);
        let (_, v_down) = karma_step(0.5, 0.5, 0.0, &c);
        assert!((v_up - (0.5 + 0.05 * 0.01 * 0.5)).abs() < 1e-15);
        assert!((v_down - (0.5 - 0.05 * 0.01 * 0.5)).abs() < 1e-15);
    }

    #[test]
    fn reaction_off_is_pure_diffusion() {
        let c = KarmaCoeffs { reaction: Reaction::Off as u32, ..coeffs() };
        let (u, v) = karma_step(2.0, 0.7, 1.5, &c);
        assert_eq!(u, c.diffusion_number.mul_add(1.5, 2.0));
        assert_eq!(v, 0.7);
    }
}
