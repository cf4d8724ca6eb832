//! Transcendental functions written with `+ - * /` and explicit fused
//! multiply-adds only, so that the CPU and the GPU compute them identically.
//!
//! Neither side uses its platform library: on the CPU `f32::tanh` calls the
//! C library, and on the GPU `core` has no `tanhf` while `tanh.approx.f32`
//! has a relative error near 2^-11. Either would make the CPU reference and
//! the kernels disagree in the last bits. Instead both evaluate
//!
//! * `expm1(x)`: Cody-Waite reduction x = k ln2 + r with |r| <= ln2/2
//!   (ln2 split in a high part with trailing zeros and a low part), a
//!   Taylor polynomial r + r^2 (1/2! + r/3! + ...) truncated where the
//!   remainder is below a quarter ulp (degree 7 for f32, 13 for f64),
//!   evaluated by Horner's rule with FMAs, and reconstruction
//!   2^k (expm1(r) + 1) - 1 = 2^k expm1(r) + (2^k - 1).
//! * `tanh(x) = sign(x) e / (e + 2)` with e = expm1(2|x|): no cancellation
//!   near zero, and exactly +-1 beyond the saturation point where the true
//!   value rounds to +-1.
//!
//! * `exp(x)`: the same reduction, 2^k (expm1(r) + 1); 0 below
//!   `Real::EXP_MIN` and +infinity above `Real::EXP_MAX` (so the scale 2^k
//!   stays a normal number; both limits are within a few units of the
//!   type's true underflow and overflow).
//! * `ln(x)`: x = m 2^e read from the bits, m moved into [sqrt(1/2),
//!   sqrt(2)], ln m = 2 atanh(s) with s = (m - 1)/(m + 1) as an odd series
//!   in s (|s| <= 0.172), and e ln2 added in two parts (Cody-Waite again).
//!   The ionic models need both: gates' rate functions and Nernst potentials.
//! * `sin`, `cos`, `asin`, `acos`: in [`crate::trig`], for the imported
//!   models that write them.
//!
//! Error bound, measured against the C library's tanh (itself within 1 ulp)
//! over every 16th f32 in [-12, 12] and 2 million f64 points in [-25, 25]
//! (tests below): at most 4 ulp for f32 and 3 ulp for f64. The worst case
//! is 2|x| just above ln2/2, where the reconstruction 2 expm1(r) + 1 loses
//! a bit to cancellation. exp and ln: at most 1 ulp for f32 and f64 (every
//! 64th f32 over their ranges, subnormals included for ln; 2 million f64
//! points each). The model only needs
//! tanh(U - 3) for U in about [-0.5, 4.5], far inside that.

use crate::real::Real;

/// The Cody-Waite reduction x = k ln2 + r and expm1(r): returns (2^k,
/// expm1(r)), from which e^x = 2^k expm1(r) + 2^k and e^x - 1 = 2^k
/// expm1(r) + (2^k - 1).
#[inline(always)]
fn reduced_expm1<T: Real>(x: T) -> (T, T) {
    let (kf, k) = (x * T::INV_LN2).round_split();
    let r = (-kf).mul_add(T::LN2_LO, (-kf).mul_add(T::LN2_HI, x));
    let p = horner(r, T::EXPM1_POLY, 0);
    (T::exp2_int(k), (r * r).mul_add(p, r))
}

/// poly[lowest] + x (poly[lowest + 1] + x (...)) by Horner's rule, highest
/// coefficient first, one fused multiply-add a coefficient.
#[inline(always)]
fn horner<T: Real>(x: T, poly: &[T], lowest: usize) -> T {
    let mut p = poly[poly.len() - 1];
    let mut i = poly.len() - 1;
    while i > lowest {
        i -= 1;
        p = x.mul_add(p, poly[i]);
    }
    p
}

/// e^x - 1, accurate to a few ulp for |x| <= 40 (the range tanh needs).
/// NaN in, NaN out; outside that range the result is meaningless.
#[inline(always)]
pub fn expm1<T: Real>(x: T) -> T {
    let (scale, em1_r) = reduced_expm1(x);
    // For k = 0 this is exactly em1_r (1 * em1_r + 0), so no branch.
    scale.mul_add(em1_r, scale - T::ONE)
}

/// Correctly rounded square root of an f64 on both sides (`sqrt.rn.f64`
/// on NVPTX, the SSE2 instruction on the CPU), so they agree bit for bit;
/// also what host-side coefficients use, since this crate is `no_std` on
/// the GPU.
#[inline(always)]
pub fn sqrt(x: f64) -> f64 {
    #[cfg(target_arch = "nvptx64")]
    return core::f64::math::sqrt(x);
    #[cfg(not(target_arch = "nvptx64"))]
    return x.sqrt();
}

/// e^x; see the module docs for the range.
#[inline(always)]
pub fn exp<T: Real>(x: T) -> T {
    if x > T::EXP_MAX {
        return T::INFINITY;
    }
    if x < T::EXP_MIN {
        return T::ZERO;
    }
    // NaN passes both tests and comes out NaN.
    let (scale, em1_r) = reduced_expm1(x);
    scale.mul_add(em1_r, scale)
}

/// Natural logarithm; ln 0 = -infinity, ln of a negative number or NaN is
/// NaN, ln +infinity = +infinity.
#[inline(always)]
pub fn ln<T: Real>(x: T) -> T {
    if x <= T::ZERO {
        return if x == T::ZERO { -T::INFINITY } else { T::NAN };
    }
    // +infinity and NaN (which compares false above) return themselves.
    if !x.is_finite() {
        return x;
    }
    let (m, e) = x.split_exponent();
    let (m, e) = if m > T::SQRT_2 { (m * T::HALF, e + 1) } else { (m, e) };
    // f = m - 1 is exact (Sterbenz) for m in [sqrt(1/2), sqrt(2)]. With
    // 2s = f - s f, ln m = 2s + s R = f - s (f - R), R = s^2 (2/3 + 2/5 s^2
    // + ...): the exact f carries the result and the rounding of s only
    // reaches the small correction (f^2/2 at most), so the error stays
    // near 1 ulp even next to m = 1.
    let f = m - T::ONE;
    let s = f / (m + T::ONE);
    let s2 = s * s;
    let p = horner(s2, T::LN_POLY, 1);
    let ln_m = (-s).mul_add(f - s2 * p, f);
    let ef = T::from_f64(e as f64);
    ef.mul_add(T::LN2_HI, ef.mul_add(T::LN2_LO, ln_m))
}

/// Hyperbolic tangent; see the module docs for the error bound.
#[inline(always)]
pub fn tanh<T: Real>(x: T) -> T {
    let a = x.abs();
    if a > T::TANH_SATURATION {
        return T::ONE.copysign(x);
    }
    let e = expm1(a + a);
    (e / (e + T::TWO)).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulp_diff_f32(a: f32, b: f32) -> u32 {
        let (a, b) = (a.to_bits() as i32, b.to_bits() as i32);
        // Map to a monotonic integer line so that -0/+0 and sign crossings count correctly.
        let key = |i: i32| if i < 0 { i32::MIN - i } else { i };
        (key(a) as i64 - key(b) as i64).unsigned_abs() as u32
    }

    fn ulp_diff_f64(a: f64, b: f64) -> u64 {
        let (a, b) = (a.to_bits() as i64, b.to_bits() as i64);
        let key = |i: i64| if i < 0 { i64::MIN - i } else { i };
        (key(a) as i128 - key(b) as i128).unsigned_abs() as u64
    }

    /// Keeps the largest difference `d` and the argument `x` it was seen at.
    fn keep_worst<D: PartialOrd, X>(worst: &mut (D, X), d: D, x: X) {
        if d > worst.0 {
            *worst = (d, x);
        }
    }

    /// Reports the worst (ulp, x) of exp and ln in precision `name` and
    /// asserts both within 1 ulp.
    fn assert_exp_and_ln_within_1_ulp<D, X>(name: &str, worst_exp: (D, X), worst_ln: (D, X))
    where
        D: Into<u64> + Copy + core::fmt::Display,
        X: core::fmt::Display,
    {
        eprintln!(
            "exp {name} worst {} ulp at {}; ln {name} worst {} ulp at {}",
            worst_exp.0, worst_exp.1, worst_ln.0, worst_ln.1
        );
        assert!(worst_exp.0.into() <= 1, "exp {name} error {} ulp at x = {}", worst_exp.0, worst_exp.1);
        assert!(worst_ln.0.into() <= 1, "ln {name} error {} ulp at x = {}", worst_ln.0, worst_ln.1);
    }

    #[test]
    fn tanh_f32_within_4_ulp() {
        let mut worst = (0u32, 0f32);
        // Every 16th f32 in [0, 12] (68 million points, every binade and
        // every reduction interval); tanh is odd and the sign is copied exactly.
        let (lo, hi) = (0f32.to_bits(), 12f32.to_bits());
        for bits in (lo..=hi).step_by(16) {
            let x = f32::from_bits(bits);
            for x in [x, -x] {
                keep_worst(&mut worst, ulp_diff_f32(tanh(x), x.tanh()), x);
            }
        }
        eprintln!("tanh f32: worst {} ulp at x = {}", worst.0, worst.1);
        assert!(worst.0 <= 4, "tanh f32 error {} ulp at x = {}", worst.0, worst.1);
    }

    #[test]
    fn tanh_f64_within_3_ulp() {
        let mut worst = (0u64, 0f64);
        let n = 2_000_000;
        for i in 0..=n {
            let x = -25.0 + 50.0 * (i as f64) / (n as f64);
            keep_worst(&mut worst, ulp_diff_f64(tanh(x), x.tanh()), x);
        }
        // Tiny arguments, where cancellation would show.
        for e in -60..0 {
            let x = 1.37f64 * 2f64.powi(e);
            keep_worst(&mut worst, ulp_diff_f64(tanh(x), x.tanh()), x);
        }
        assert!(worst.0 <= 3, "tanh f64 error {} ulp at x = {}", worst.0, worst.1);
    }

    #[test]
    fn expm1_matches_std_in_reduction_cases() {
        for x in [-2.0f64, -0.3, 0.0, 1e-9, 0.3, 0.35, 0.7, 1.0, 5.0, 30.0] {
            let rel = ((expm1(x) - x.exp_m1()) / x.exp_m1()).abs();
            assert!(x == 0.0 || rel < 4e-16, "expm1({x}) rel err {rel}");
        }
    }

    #[test]
    fn exp_and_ln_f32_within_a_few_ulp() {
        let (mut worst_exp, mut worst_ln) = ((0u32, 0f32), (0u32, 0f32));
        let (lo, hi) = (0f32.to_bits(), 87f32.to_bits());
        for bits in (lo..=hi).step_by(64) {
            let x = f32::from_bits(bits);
            for x in [x, -x] {
                keep_worst(&mut worst_exp, ulp_diff_f32(exp(x), x.exp()), x);
            }
        }
        // Every 64th positive f32 from the smallest subnormal to the largest.
        for bits in (1..0x7f80_0000u32).step_by(64) {
            let x = f32::from_bits(bits);
            keep_worst(&mut worst_ln, ulp_diff_f32(ln(x), x.ln()), x);
        }
        assert_exp_and_ln_within_1_ulp("f32", worst_exp, worst_ln);
    }

    #[test]
    fn exp_and_ln_f64_within_a_few_ulp() {
        let (mut worst_exp, mut worst_ln) = ((0u64, 0f64), (0u64, 0f64));
        let n = 2_000_000;
        for i in 0..=n {
            let x = -708.0 + 1417.0 * (i as f64) / (n as f64);
            keep_worst(&mut worst_exp, ulp_diff_f64(exp(x), x.exp()), x);
            // Logarithms over the whole range, dense near 1.
            for y in [2f64.powf(x * 1.5), 1.0 + (x / 708.0) * 0.4] {
                keep_worst(&mut worst_ln, ulp_diff_f64(ln(y), y.ln()), y);
            }
        }
        for x in [5e-324f64, 1e-310, f64::MAX] {
            assert!(ulp_diff_f64(ln(x), x.ln()) <= 2, "ln({x})");
        }
        assert_exp_and_ln_within_1_ulp("f64", worst_exp, worst_ln);
    }

    #[test]
    fn exp_and_ln_special_values() {
        assert_eq!(exp(0.0f32), 1.0);
        assert_eq!(exp(0.0f64), 1.0);
        assert_eq!(exp(100.0f32), f32::INFINITY);
        assert_eq!(exp(-100.0f32), 0.0);
        assert_eq!(exp(f64::NEG_INFINITY), 0.0);
        assert!(exp(f32::NAN).is_nan());
        assert_eq!(ln(1.0f32), 0.0);
        assert_eq!(ln(1.0f64), 0.0);
        assert_eq!(ln(0.0f64), f64::NEG_INFINITY);
        assert_eq!(ln(f32::INFINITY), f32::INFINITY);
        assert!(ln(-1.0f64).is_nan() && ln(f32::NAN).is_nan());
    }

    #[test]
    fn tanh_special_values() {
        assert_eq!(tanh(0.0f32), 0.0);
        assert!(tanh(-0.0f32).is_sign_negative());
        assert_eq!(tanh(50.0f32), 1.0);
        assert_eq!(tanh(-50.0f64), -1.0);
        assert_eq!(tanh(f32::INFINITY), 1.0);
        assert!(tanh(f32::NAN).is_nan() && tanh(f64::NAN).is_nan());
    }
}
