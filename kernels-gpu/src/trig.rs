//! sin, cos, asin and acos from `+ - * /`, fused multiply-adds and the
//! correctly rounded square root, so that the CPU and the GPU agree bit for
//! bit (see [`crate::math`] for why no platform library is used). A few
//! published cell models need them: Livshitz-Rudy 2007 solves its calcium
//! buffering cubic with cos(arccos(q)/3) (the trigonometric root of a
//! depressed cubic).
//!
//! * `sin`, `cos`: x = k pi/2 + r with |r| <= pi/4, pi/2 in two parts (its
//!   value in the type and the rest) subtracted with FMAs (exact for the
//!   moderate k of a model's arguments); the Taylor series of sin r and
//!   cos r, truncated where the remainder is below a tenth of an f64 ulp
//!   (r^21/21! and r^20/20!), by Horner's rule in r^2; the quadrant k mod 4
//!   picks +-sin r or +-cos r. Accurate for |x| up to about 10^5 (f64) and
//!   10^3 (f32), where the two-part pi/2 stops cancelling k pi/2 exactly.
//! * `asin` on |x| <= 1/2: x + x^3 P(x^2), the Taylor series
//!   sum (2n)!/(4^n n!^2 (2n + 1)) x^(2n+1) to n = 26 (its remainder below
//!   10^-18 of x at x = 1/2). Beyond: asin x = pi/2 - 2 asin(sqrt((1 - x)/2)),
//!   1 - x exact there.
//! * `acos x` = pi/2 - asin x for |x| <= 1/2, 2 asin(sqrt((1 - x)/2)) above,
//!   pi - 2 asin(sqrt((1 + x)/2)) below; pi and pi/2 in two parts again.
//!
//! Errors measured against the C library (tests below): at most 2 ulp for
//! f32 and f64.

use crate::math::sqrt;
use crate::real::Real;

/// pi/2: its f64 value and the f64 of what that misses.
const FRAC_PI_2: f64 = core::f64::consts::FRAC_PI_2;
const FRAC_PI_2_TAIL: f64 = 6.123_233_995_736_766e-17;

/// pi/2 in `T` and the rest of it to f64's precision and beyond: the two
/// parts of the reduction and of pi/2 - y.
#[inline(always)]
fn half_pi<T: Real>() -> (T, T) {
    let hi = T::from_f64(FRAC_PI_2);
    (hi, T::from_f64((FRAC_PI_2 - hi.to_f64()) + FRAC_PI_2_TAIL))
}

/// 1/n! for the even and odd n of the two series, highest order last.
const COS_POLY: [f64; 11] = [
    1.0,
    -1.0 / 2.0,
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40_320.0,
    -1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
    -1.0 / 87_178_291_200.0,
    1.0 / 20_922_789_888_000.0,
    -1.0 / 6_402_373_705_728_000.0,
    1.0 / 2_432_902_008_176_640_000.0,
];
const SIN_POLY: [f64; 11] = [
    1.0,
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5_040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
    1.0 / 6_227_020_800.0,
    -1.0 / 1_307_674_368_000.0,
    1.0 / 355_687_428_096_000.0,
    -1.0 / 121_645_100_408_832_000.0,
    1.0 / 51_090_942_171_709_440_000.0,
];

/// poly[0] + x (poly[1] + x (...)) by Horner's rule with FMAs, each f64
/// coefficient rounded to `T` as it is used (constants: the compiler folds
/// them; a table in `T` built here would sit in a GPU thread's local memory).
#[inline(always)]
fn horner_f64<T: Real>(x: T, poly: &[f64]) -> T {
    let mut p = T::from_f64(poly[poly.len() - 1]);
    let mut i = poly.len() - 1;
    while i > 0 {
        i -= 1;
        p = x.mul_add(p, T::from_f64(poly[i]));
    }
    p
}

/// (sin r, cos r) for |r| <= pi/4.
#[inline(always)]
fn sin_cos_reduced<T: Real>(r: T) -> (T, T) {
    let r2 = r * r;
    let s = r * horner_f64(r2, &SIN_POLY);
    let c = horner_f64(r2, &COS_POLY);
    (s, c)
}

/// x = k pi/2 + r: (r, k mod 4).
#[inline(always)]
fn reduce<T: Real>(x: T) -> (T, i32) {
    let (hi, lo) = half_pi::<T>();
    let (kf, k) = (x / hi).round_split();
    let r = (-kf).mul_add(lo, (-kf).mul_add(hi, x));
    (r, k & 3)
}

/// cos(x + shift pi/2): in quadrant k of the reduction, +-cos r or +-sin r.
#[inline(always)]
fn cos_shifted<T: Real>(x: T, shift: i32) -> T {
    let (r, quadrant) = reduce(x);
    let (s, c) = sin_cos_reduced(r);
    match (quadrant + shift) & 3 {
        0 => c,
        1 => -s,
        2 => -c,
        _ => s,
    }
}

/// Cosine; see the module docs for the range.
#[inline(always)]
pub fn cos<T: Real>(x: T) -> T {
    cos_shifted(x, 0)
}

/// Sine, cos(x - pi/2); see the module docs for the range.
#[inline(always)]
pub fn sin<T: Real>(x: T) -> T {
    cos_shifted(x, 3)
}

/// (2n)!/(4^n n!^2 (2n + 1)) for n = 1..=26, the series of (asin z - z)/z^3
/// in z^2: a_1 = 1/6, a_{n+1} = a_n (2n + 1)^2 / ((2n + 2)(2n + 3)).
const ASIN_POLY: [f64; 26] = {
    let mut poly = [0.0; 26];
    let mut a = 1.0 / 6.0;
    let mut n = 1;
    while n <= 26 {
        poly[n - 1] = a;
        let m = (2 * n + 1) as f64;
        a = a * m * m / ((m + 1.0) * (m + 2.0));
        n += 1;
    }
    poly
};

/// asin z for |z| <= 1/2.
#[inline(always)]
fn asin_small<T: Real>(z: T) -> T {
    let z2 = z * z;
    (z * z2).mul_add(horner_f64(z2, &ASIN_POLY), z)
}

/// The correctly rounded f64 square root, rounded to `T`.
#[inline(always)]
fn sqrt_t<T: Real>(x: T) -> T {
    T::from_f64(sqrt(x.to_f64()))
}

/// Arcsine in [-pi/2, pi/2]; NaN outside [-1, 1].
#[inline(always)]
pub fn asin<T: Real>(x: T) -> T {
    let a = x.abs();
    if a <= T::HALF {
        return asin_small(x);
    }
    if a <= T::ONE {
        let (hi, lo) = half_pi::<T>();
        // 1 - a is exact for a in [1/2, 1] (Sterbenz).
        let y = asin_small(sqrt_t((T::ONE - a) * T::HALF));
        return (hi - (y + y - lo)).copysign(x);
    }
    // Beyond 1, and NaN.
    T::NAN
}

/// Arccosine in [0, pi]; NaN outside [-1, 1].
#[inline(always)]
pub fn acos<T: Real>(x: T) -> T {
    let (hi, lo) = half_pi::<T>();
    let a = x.abs();
    if a <= T::HALF {
        return hi - (asin_small(x) - lo);
    }
    if a <= T::ONE {
        // 1 - |x| is exact for |x| in [1/2, 1] (Sterbenz).
        let y = asin_small(sqrt_t((T::ONE - a) * T::HALF));
        return if x > T::ZERO { y + y } else { (hi + hi) - (y + y - (lo + lo)) };
    }
    // Beyond 1, and NaN.
    T::NAN
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place, over the monotonic integer line.
    fn ulps(a: f64, b: f64) -> u64 {
        let key = |x: f64| {
            let i = x.to_bits() as i64;
            if i < 0 { i64::MIN - i } else { i }
        };
        (key(a) as i128 - key(b) as i128).unsigned_abs() as u64
    }

    fn ulps32(a: f32, b: f32) -> u64 {
        let key = |x: f32| {
            let i = x.to_bits() as i32;
            if i < 0 { i32::MIN - i } else { i }
        };
        (key(a) as i64 - key(b) as i64).unsigned_abs()
    }

    /// The worst (ulp, x) of `ours` against `libm` over `xs`, skipping
    /// results so close to zero that an absolute error is the measure.
    fn worst64(xs: impl Iterator<Item = f64>, ours: fn(f64) -> f64, libm: fn(f64) -> f64) -> (u64, f64) {
        xs.filter(|x| libm(*x).abs() > 1e-3)
            .map(|x| (ulps(ours(x), libm(x)), x))
            .fold((0, 0.0), |w, d| if d.0 > w.0 { d } else { w })
    }

    fn worst32(xs: impl Iterator<Item = f32>, ours: fn(f32) -> f32, libm: fn(f64) -> f64) -> (u64, f32) {
        xs.filter(|x| libm(*x as f64).abs() > 1e-3)
            .map(|x| (ulps32(ours(x), libm(x as f64) as f32), x))
            .fold((0, 0.0), |w, d| if d.0 > w.0 { d } else { w })
    }

    /// A function of this module in f64 and in f32.
    type BothPrecisions = (fn(f64) -> f64, fn(f32) -> f32);

    /// Ours in f64 and in f32 against the C library's f64 (rounded for the
    /// f32 side) at n + 1 evenly spaced points of [lo, hi]: within 2 ulp.
    fn within_2_ulp(name: &str, ours: BothPrecisions, libm: fn(f64) -> f64, lo: f64, hi: f64) {
        let n = 400_000;
        let xs = (0..=n).map(|i| lo + (hi - lo) * i as f64 / n as f64);
        let w = worst64(xs.clone(), ours.0, libm);
        assert!(w.0 <= 2, "{name} f64: {} ulp at {}", w.0, w.1);
        let w = worst32(xs.map(|x| x as f32), ours.1, libm);
        assert!(w.0 <= 2, "{name} f32: {} ulp at {}", w.0, w.1);
    }

    #[test]
    fn sin_and_cos_within_2_ulp() {
        within_2_ulp("cos", (cos::<f64>, cos::<f32>), f64::cos, -100.0, 100.0);
        within_2_ulp("sin", (sin::<f64>, sin::<f32>), f64::sin, -100.0, 100.0);
        // Exact at zero, and the quadrants' signs.
        assert_eq!((cos(0.0f64), sin(0.0f64)), (1.0, 0.0));
        assert!(cos(3.0f64) < 0.0 && sin(4.0f64) < 0.0 && cos(5.0f64) > 0.0);
    }

    #[test]
    fn asin_and_acos_within_2_ulp() {
        within_2_ulp("acos", (acos::<f64>, acos::<f32>), f64::acos, -1.0, 1.0);
        within_2_ulp("asin", (asin::<f64>, asin::<f32>), f64::asin, -1.0, 1.0);
        assert_eq!(acos(1.0f64), 0.0);
        assert_eq!(acos(-1.0f64), core::f64::consts::PI);
        assert!(acos(1.5f64).is_nan() && asin(-1.01f32).is_nan() && acos(f64::NAN).is_nan());
    }
}
