//! The functions generated models call besides `crate::math`'s: powers,
//! rounding, the Rush-Larsen step and the treatment of removable
//! singularities. Only IEEE operations and `crate::math`, so the CPU and
//! the GPU agree bit for bit, as in the hand-written models.

use crate::math::{exp, expm1, ln, sqrt};
use crate::real::{Real, compensated_add};

/// x^n for a whole n, by repeated multiplication (the same sequence of
/// roundings on both sides; the exponents of the models are small).
#[inline(always)]
pub fn powi<T: Real>(x: T, n: i32) -> T {
    let mut r = T::ONE;
    let mut k = 0;
    while k < n.unsigned_abs() {
        r = r * x;
        k += 1;
    }
    if n < 0 { T::ONE / r } else { r }
}

/// x^y for any y: e^{y ln x} for x > 0; 0^y is 0 for y > 0, 1 for y = 0
/// and infinity for y < 0; a negative x gives NaN (a real power of a
/// negative number; the whole powers are written with [`powi`]).
#[inline(always)]
pub fn pow<T: Real>(x: T, y: T) -> T {
    if x > T::ZERO {
        exp(y * ln(x))
    } else if x == T::ZERO {
        if y > T::ZERO {
            T::ZERO
        } else if y == T::ZERO {
            T::ONE
        } else {
            T::INFINITY
        }
    } else {
        T::NAN
    }
}

/// Correctly rounded square root in the compute precision (as the
/// hand-written models: the f64 root of the exact f64 image, rounded once).
#[inline(always)]
pub fn sqrt_t<T: Real>(x: T) -> T {
    T::from_f64(sqrt(x.to_f64()))
}

/// log10 x = ln x / ln 10.
#[inline(always)]
pub fn log10<T: Real>(x: T) -> T {
    ln(x) * T::from_f64(core::f64::consts::LOG10_E)
}

/// The largest whole number <= x. Numbers of magnitude 2^(mantissa bits
/// - 1) and beyond are whole already.
#[inline(always)]
pub fn floor<T: Real>(x: T) -> T {
    let limit = T::ROUND_SHIFTER / T::THREE;
    // Whole already, or NaN or infinite: x itself.
    if x.abs() >= limit || !x.is_finite() {
        return x;
    }
    let (n, _) = x.round_split();
    if n > x { n - T::ONE } else { n }
}

/// The smallest whole number >= x.
#[inline(always)]
pub fn ceil<T: Real>(x: T) -> T {
    -floor(-x)
}

/// x - y trunc(x/y): MathML's `rem`, with the sign of x.
#[inline(always)]
pub fn rem<T: Real>(x: T, y: T) -> T {
    let q = x / y;
    let t = if q < T::ZERO { -floor(-q) } else { floor(q) };
    x - y * t
}

#[inline(always)]
pub fn min<T: Real>(a: T, b: T) -> T {
    if b < a { b } else { a }
}

#[inline(always)]
pub fn max<T: Real>(a: T, b: T) -> T {
    if b > a { b } else { a }
}

/// One Rush-Larsen step of a state x whose derivative f = a - b x is
/// affine in x (`coef` = -b, frozen over the step): x + dt f phi(b dt),
/// phi(z) = (1 - e^{-z})/z, the exact solution for frozen a and b
/// (x_inf + (x - x_inf) e^{-b dt}, x_inf = a/b), written so that b = 0
/// gives forward Euler and x = x_inf stays put. e^{-z} - 1 comes from
/// `expm1` for |z| <= 40, its range; beyond, e^{-z} is below 5e-18
/// (z > 40: phi = 1/z) or `exp` serves (z < -40, a growing state).
#[inline(always)]
pub fn exp_euler<T: Real>(x: T, f: T, coef: T, dt: T) -> T {
    (f * dt).mul_add(exp_euler_phi(coef, dt), x)
}

/// The factor phi of [`exp_euler`]'s step x + f dt phi.
#[inline(always)]
pub fn exp_euler_phi<T: Real>(coef: T, dt: T) -> T {
    let z = -(coef * dt);
    let forty = T::from_f64(40.0);
    if z > forty {
        T::ONE / z
    } else if z < -forty && z.is_finite() {
        (T::ONE - exp(-z)) / z
    } else if z == T::ZERO || !z.is_finite() {
        // A rate that is not a number (an overflow inside df/dx, say, in
        // f32: inf * 0) or infinitely negative: forward Euler.
        T::ONE
    } else {
        -expm1(-z) / z
    }
}

/// x + d over one step, where `fused` is the same sum as the state's
/// update writes it in f64: in f64 `fused` and no carry; in f32 the sum
/// with the rounding error of the steps before (`carry`) taken back and
/// this step's kept ([`compensated_add`]), so that increments
/// below half an ulp of x (a concentration of 140 mM changes by 1e-9 mM a
/// step at dt = 2.5 us; its f32 ulp is 1.5e-5) add up instead of being
/// lost. Returns the sum and the new carry.
#[inline(always)]
pub fn carry_add<T: Real>(x: T, carry: T, d: T, fused: T) -> (T, T) {
    if T::BYTES == 4 { compensated_add(x, carry, d) } else { (fused, T::ZERO) }
}

/// A closed Markov chain's largest state: in f32 `from_total` (the
/// chain's total less its other states, so that the total cannot drift
/// by the rounding of this state's small exchanges), in f64 `plain`, its
/// own update, bit for bit.
#[inline(always)]
pub fn conserved<T: Real>(plain: T, from_total: T) -> T {
    if T::BYTES == 4 { from_total } else { plain }
}

/// A removable singularity g(V) = N(V)/(e^{U(V)} - 1) with N(V0) = 0 at
/// the root V0 of U (GHK currents, rates such as (V + 47.13)/(1 -
/// e^{-0.1 (V + 47.13)})): within |U| < u_w of V0, g is interpolated
/// linearly between V0 -+ u_w/|dU/dV|, as chaste_codegen does (Johnstone
/// 2018, appendix B). `slope` is dU/dV. u_w is 1e-7 in f64 (chaste_codegen's);
/// in f32 the rounding of V0 itself (an ulp of 4e-6 at 50 mV) and of
/// e^U - 1 (6e-8/|U| relative) would dominate such a window, so u_w is
/// 1e-3, where both stay below 1e-4 relative and the interpolation's own
/// error (g''/8 (u_w/slope)^2) below 1e-7 of g.
///
/// `g_v` is g(V) as the model writes it, computed by the caller with the
/// expressions it shares with other equations; `g` is evaluated only
/// inside the window, so a kernel pays for the two extra evaluations only
/// where V is that close to V0.
#[inline(always)]
pub fn removable<T: Real>(v: T, v0: f64, slope: f64, g_v: T, g: impl Fn(T) -> T) -> T {
    let u_w = if T::BYTES == 4 { 1e-3 } else { 1e-7 };
    let h = u_w / if slope < 0.0 { -slope } else { slope };
    if (v - T::from_f64(v0)).abs() < T::from_f64(h) {
        let (lo, hi) = (T::from_f64(v0 - h), T::from_f64(v0 + h));
        let (g_lo, g_hi) = (g(lo), g(hi));
        ((v - lo) / (hi - lo)).mul_add(g_hi - g_lo, g_lo)
    } else {
        g_v
    }
}

/// [`removable`] of a quotient given only as a function of V, evaluated
/// at `v` here: how a singularity inside another one's closure is written,
/// where the quotient at V and the function would be the same code twice
/// (nested twice, four times). The same operations in the same order as
/// `removable(v, v0, slope, g(v), g)`, so the same bits.
#[inline(always)]
pub fn removable_of<T: Real>(v: T, v0: f64, slope: f64, g: impl Fn(T) -> T) -> T {
    removable(v, v0, slope, g(v), g)
}

/// Calls `f32_fn` or `f64_fn`, whichever takes T: the CPU side of an
/// imported model's reaction, whose two instances are compiled once, in
/// this crate, rather than again in every crate that steps the model (the
/// generated files say why). The call folds to a direct one.
///
/// # Safety
/// `L` and `C` are `L32` and `C32` when T is f32, `L64` and `C64` when T
/// is f64, so that every cast below is from a type to itself.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub unsafe fn per_precision<T: Real, L, C, L32, C32, L64, C64>(
    v: T,
    locals: &mut L,
    c: &C,
    f32_fn: fn(f32, &mut L32, &C32) -> f32,
    f64_fn: fn(f64, &mut L64, &C64) -> f64,
) -> T {
    use core::any::TypeId;
    use core::mem::transmute_copy;
    let (locals, c) = (locals as *mut L, c as *const C);
    // SAFETY: the types are the same (the caller's contract and the tests
    // of T below).
    unsafe {
        if TypeId::of::<T>() == TypeId::of::<f32>() {
            transmute_copy(&f32_fn(transmute_copy(&v), &mut *locals.cast::<L32>(), &*c.cast::<C32>()))
        } else if TypeId::of::<T>() == TypeId::of::<f64>() {
            transmute_copy(&f64_fn(transmute_copy(&v), &mut *locals.cast::<L64>(), &*c.cast::<C64>()))
        } else {
            unreachable!("Real is implemented for f32 and f64 only")
        }
    }
}

/// A generated model's `reaction` method: on the GPU its body inline, on
/// the CPU the f32 or f64 instance that [`reaction_instances`] compiles
/// once, out of line (see [`per_precision`]).
macro_rules! reaction_method {
    ($coeffs:ident, $n:literal) => {
        #[inline(always)]
        fn reaction<T: Real>(v_mv: T, locals: &mut [T; $n], c: &$coeffs<T>) -> T {
            #[cfg(target_arch = "nvptx64")]
            return reaction_body(v_mv, locals, c);
            #[cfg(not(target_arch = "nvptx64"))]
            // SAFETY: `per_precision` calls the instance whose type is T.
            unsafe {
                per_precision(v_mv, locals, c, reaction_f32, reaction_f64)
            }
        }
    };
}

/// The CPU's two instances of a generated model's `reaction_body`.
macro_rules! reaction_instances {
    ($coeffs:ident, $n:literal) => {
        #[cfg(not(target_arch = "nvptx64"))]
        #[inline(never)]
        fn reaction_f32(v_mv: f32, locals: &mut [f32; $n], c: &$coeffs<f32>) -> f32 {
            reaction_body(v_mv, locals, c)
        }

        #[cfg(not(target_arch = "nvptx64"))]
        #[inline(never)]
        fn reaction_f64(v_mv: f64, locals: &mut [f64; $n], c: &$coeffs<f64>) -> f64 {
            reaction_body(v_mv, locals, c)
        }
    };
}

pub(crate) use {reaction_instances, reaction_method};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_and_rounding() {
        assert_eq!(powi(2.0f64, 10), 1024.0);
        assert_eq!(powi(2.0f32, -2), 0.25);
        assert_eq!(powi(3.0f64, 0), 1.0);
        assert!((pow(2.0f64, 0.5) - 2f64.sqrt()).abs() < 1e-15);
        assert_eq!(pow(0.0f64, 2.5), 0.0);
        assert!(pow(-1.0f64, 0.5).is_nan());
        for x in [-2.5f64, -2.0, -0.1, 0.0, 0.4, 1.0, 7.9, 1e17] {
            assert_eq!(floor(x), x.floor(), "{x}");
            assert_eq!(ceil(x), x.ceil(), "{x}");
        }
        assert_eq!(floor(-2.5f32), -3.0);
        assert_eq!(rem(7.0f64, 3.0), 1.0);
        assert_eq!(rem(-7.0f64, 3.0), -1.0);
        assert!((log10(1000.0f64) - 3.0).abs() < 1e-15);
    }

    #[test]
    fn exp_euler_is_exact_for_a_linear_relaxation() {
        // dx/dt = (1 - x)/2 from x = 0 over dt = 0.5: 1 - e^{-0.25}.
        let x = exp_euler(0.0f64, 0.5, -0.5, 0.5);
        assert!((x - (1.0 - (-0.25f64).exp())).abs() < 1e-15);
        // A zero rate is forward Euler; a huge one jumps to x_inf.
        assert_eq!(exp_euler(1.0f64, 2.0, 0.0, 0.1), 1.2);
        let x = exp_euler(0.0f64, 1e6, -1e6, 1.0);
        assert!((x - 1.0).abs() < 1e-12);
        // A rate that is not a number falls back to forward Euler.
        assert_eq!(exp_euler(1.0f32, 2.0, f32::NAN, 0.1), 1.2);
        assert_eq!(exp_euler(1.0f32, 2.0, f32::INFINITY, 0.1), 1.2);
    }

    #[test]
    fn carried_f32_sums_keep_increments_below_an_ulp() {
        // 140 mM plus 1e-6 mM a step, a million steps: 1 mM in all, each
        // step a fifteenth of f32's ulp at 140.
        let (mut plain, mut x, mut carry) = (140.0f32, 140.0f32, 0.0f32);
        for _ in 0..1_000_000 {
            plain += 1e-6;
            (x, carry) = carry_add(x, carry, 1e-6, x + 1e-6);
        }
        assert_eq!(plain, 140.0, "plain f32 loses every increment");
        assert!((f64::from(x) + f64::from(-carry) - 141.0).abs() < 1e-4, "{x} {carry}");
        // In f64 the fused sum, bit for bit, and no carry.
        let fused = 2.0f64.mul_add(0.5, 140.0);
        assert_eq!(carry_add(140.0f64, 0.0, 1.0, fused), (fused, 0.0));
    }

    #[test]
    fn removable_singularity_is_continuous() {
        // g(V) = V/(e^{V/25} - 1): 25 at V = 0.
        let g = |v: f64| v / ((v / 25.0).exp() - 1.0);
        for v in [0.0, 1e-9, -1e-9, 2e-6, 1e-3] {
            let r = removable(v, 0.0, 1.0 / 25.0, g(v), g);
            assert!((r - 25.0 * (1.0 - v / 50.0)).abs() < 1e-6, "{v}: {r}");
        }
        let g32 = |v: f32| v / ((v / 25.0).exp() - 1.0);
        let r = removable(1e-4f32, 0.0, 1.0 / 25.0, g32(1e-4), g32);
        assert!((r - 25.0).abs() < 1e-3, "{r}");
        for v in [0.0, 1e-9, 2e-6, 1e-3, -30.0] {
            let (a, b) = (removable_of(v, 0.0, 1.0 / 25.0, g), removable(v, 0.0, 1.0 / 25.0, g(v), g));
            assert_eq!(a.to_bits(), b.to_bits(), "{v}");
        }
    }
}
