//! The floating-point types fibril computes in (f32, f64), as one trait.
//!
//! Only the basic IEEE operations (`+ - * /` and fused multiply-add, each
//! correctly rounded), comparisons and bit-level scaling are used, so the
//! code behaves identically on x86-64 and on NVPTX (which lowers them to
//! `add.rn`, `sub.rn`, `mul.rn`, `div.rn`, `fma.rn`, and never contracts a
//! separate multiply and add on its own).

use core::ops::{Add, Div, Mul, Neg, Sub};

/// x + d with the rounding error of earlier sums (`carry`) taken back and
/// this one's kept for the next: Kahan's compensated summation (Kahan,
/// "Further remarks on reducing truncation errors", CACM 8(1), 1965). A
/// quantity that gets many increments below half its ulp (an f32
/// concentration of 140 mM, ulp 1.5e-5, gaining 1e-9 mM a step) keeps
/// them instead of rounding them away. Returns the sum and the new carry;
/// the carry is the negated part of the increments the sum lost.
#[inline(always)]
pub fn compensated_add<T: Real>(x: T, carry: T, d: T) -> (T, T) {
    let y = d - carry;
    let t = x + y;
    (t, (t - x) - y)
}

/// A floating-point scalar the model and stencil are generic over.
pub trait Real:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Default
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    const TWO: Self;
    const THREE: Self;
    const FOUR: Self;
    const SIX: Self;
    const HALF: Self;
    /// ln 2 split for Cody-Waite range reduction: `LN2_HI` has trailing
    /// zero bits so `k * LN2_HI` is exact for the |k| < 2^8 used here.
    const LN2_HI: Self;
    const LN2_LO: Self;
    const INV_LN2: Self;
    /// Taylor coefficients 1/2!, 1/3!, ... of `(expm1(r) - r) / r^2`, enough
    /// terms for |r| <= ln2/2 to be below half an ulp of this type.
    const EXPM1_POLY: &'static [Self];
    /// Above this |x|, tanh(x) rounds to +-1 in this type.
    const TANH_SATURATION: Self;
    /// Largest x for which [`crate::math::exp`] computes e^x (2^k of the
    /// reduction stays a normal number); above it exp returns +infinity.
    const EXP_MAX: Self;
    /// Smallest x for which exp computes e^x; below it exp returns 0.
    const EXP_MIN: Self;
    /// Coefficients 2/1, 2/3, 2/5, ... of ln(m) = s * P(s^2) with
    /// s = (m - 1)/(m + 1) (the series of 2 atanh s), enough terms for
    /// m in [sqrt(1/2), sqrt(2)] to be below half an ulp of this type.
    const LN_POLY: &'static [Self];
    const SQRT_2: Self;
    const INFINITY: Self;
    const NAN: Self;
    /// Size in bytes (used for memory estimates and bandwidth figures).
    const BYTES: usize;
    /// Name as numpy spells the little-endian dtype (`<f4`, `<f8`).
    const NUMPY_DTYPE: &'static str;
    /// The type's name, "f32" or "f64": the precision suffix of kernel
    /// entry points ([`crate::registry`]).
    const NAME: &'static str;

    /// Converts a host-side parameter; rounding to nearest.
    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
    /// self * a + b with a single rounding (IEEE fusedMultiplyAdd): `fma.rn`
    /// on the GPU, the FMA instruction or the C library's `fma` on the CPU,
    /// which all give the same correctly rounded result.
    fn mul_add(self, a: Self, b: Self) -> Self;
    fn abs(self) -> Self;
    fn copysign(self, sign: Self) -> Self;
    fn is_finite(self) -> bool;
    /// 1.5 * 2^(mantissa bits): adding it to |x| < 2^(mantissa bits - 1)
    /// rounds x to an integer held in the low mantissa bits.
    const ROUND_SHIFTER: Self;
    /// Splits x into (n, k) with n = round-to-nearest-even(x) as a float and
    /// k the same integer, for |x| < 2^22 (f32) or 2^51 (f64). Pure IEEE
    /// additions and bit reads, so every platform agrees, no float-to-int
    /// conversion (whose NaN and overflow rules differ between x86 and PTX).
    fn round_split(self) -> (Self, i32);
    /// 2^k for k within the normal exponent range of the type.
    fn exp2_int(k: i32) -> Self;
    /// For a positive finite x (subnormals included): (m, e) with
    /// x = m 2^e and m in [1, 2), read from the bits.
    fn split_exponent(self) -> (Self, i32);
}

/// The items of [`Real`] that are the same for f32 and f64 but for the
/// type and its bit masks: the small constants, the fused multiply-add
/// (`fma.rn` on the GPU) and the sign and exponent bit operations.
macro_rules! common_items {
    ($t:ident, sign: $sign:literal, exponent: $exponent:literal) => {
        common_items!(@exact ZERO = 0.0, ONE = 1.0, TWO = 2.0, THREE = 3.0, FOUR = 4.0, SIX = 6.0, HALF = 0.5);
        const INV_LN2: Self = core::$t::consts::LOG2_E;
        const SQRT_2: Self = core::$t::consts::SQRT_2;
        const INFINITY: Self = $t::INFINITY;
        const NAN: Self = $t::NAN;
        const NAME: &'static str = stringify!($t);

        #[inline(always)]
        fn mul_add(self, a: Self, b: Self) -> Self {
            #[cfg(target_arch = "nvptx64")]
            return core::$t::math::mul_add(self, a, b);
            #[cfg(not(target_arch = "nvptx64"))]
            return $t::mul_add(self, a, b);
        }
        #[inline(always)]
        fn abs(self) -> Self {
            $t::from_bits(self.to_bits() & !$sign)
        }
        #[inline(always)]
        fn copysign(self, sign: Self) -> Self {
            $t::from_bits((self.to_bits() & !$sign) | (sign.to_bits() & $sign))
        }
        #[inline(always)]
        fn is_finite(self) -> bool {
            self.to_bits() & $exponent != $exponent
        }
    };
    // Numbers both types hold exactly.
    (@exact $($name:ident = $value:literal),*) => {
        $(const $name: Self = $value;)*
    };
}

impl Real for f32 {
    common_items!(f32, sign: 0x8000_0000, exponent: 0x7f80_0000);

    // 0x3f317200 and the remainder ln2 - LN2_HI.
    const LN2_HI: Self = f32::from_bits(0x3f31_7200);
    const LN2_LO: Self = 1.428_606_8e-6;
    const EXPM1_POLY: &'static [Self] =
        &[1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0, 1.0 / 720.0, 1.0 / 5040.0];
    // 1 - tanh(x) = 2 e^{-2x}/(1 + e^{-2x}) < 2^-25 for x > 9.01.
    const TANH_SATURATION: Self = 9.1;
    // round(88 / ln2) = 127 and round(-87 / ln2) = -126: 2^k stays normal.
    const EXP_MAX: Self = 88.0;
    const EXP_MIN: Self = -87.0;
    // s^2 <= 0.0295: the term 2 s^13/13 is below 2^-25 s.
    const LN_POLY: &'static [Self] = &[2.0, 2.0 / 3.0, 2.0 / 5.0, 2.0 / 7.0, 2.0 / 9.0, 2.0 / 11.0];
    const BYTES: usize = 4;
    const NUMPY_DTYPE: &'static str = "<f4";

    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    const ROUND_SHIFTER: Self = 12_582_912.0; // 1.5 * 2^23
    #[inline(always)]
    fn round_split(self) -> (Self, i32) {
        let shifted = self + Self::ROUND_SHIFTER;
        (shifted - Self::ROUND_SHIFTER, shifted.to_bits() as i32 - Self::ROUND_SHIFTER.to_bits() as i32)
    }
    #[inline(always)]
    fn exp2_int(k: i32) -> Self {
        f32::from_bits(((k + 127) as u32) << 23)
    }
    #[inline(always)]
    fn split_exponent(self) -> (Self, i32) {
        // A subnormal is first scaled by 2^25 (exact) into the normal range.
        let (x, bias) =
            if self.to_bits() & 0x7f80_0000 == 0 { (self * 33_554_432.0, 127 + 25) } else { (self, 127) };
        let bits = x.to_bits();
        let e = ((bits >> 23) & 0xff) as i32 - bias;
        (f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000), e)
    }
}

impl Real for f64 {
    common_items!(f64, sign: 0x8000_0000_0000_0000, exponent: 0x7ff0_0000_0000_0000);

    // 0x3fe62e42fee00000 and the remainder ln2 - LN2_HI.
    const LN2_HI: Self = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: Self = 1.908_214_929_270_587_7e-10;
    const EXPM1_POLY: &'static [Self] = &[
        1.0 / 2.0,
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 120.0,
        1.0 / 720.0,
        1.0 / 5040.0,
        1.0 / 40320.0,
        1.0 / 362880.0,
        1.0 / 3628800.0,
        1.0 / 39916800.0,
        1.0 / 479001600.0,
        1.0 / 6227020800.0,
    ];
    // 1 - tanh(x) < 2^-54 for x > 19.06.
    const TANH_SATURATION: Self = 19.1;
    // round(709 / ln2) = 1023 and round(-708 / ln2) = -1021.
    const EXP_MAX: Self = 709.0;
    const EXP_MIN: Self = -708.0;
    // s^2 <= 0.0295: the term 2 s^23/23 is below 2^-54 s.
    const LN_POLY: &'static [Self] = &[
        2.0,
        2.0 / 3.0,
        2.0 / 5.0,
        2.0 / 7.0,
        2.0 / 9.0,
        2.0 / 11.0,
        2.0 / 13.0,
        2.0 / 15.0,
        2.0 / 17.0,
        2.0 / 19.0,
        2.0 / 21.0,
    ];
    const BYTES: usize = 8;
    const NUMPY_DTYPE: &'static str = "<f8";

    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    const ROUND_SHIFTER: Self = 6_755_399_441_055_744.0; // 1.5 * 2^52
    #[inline(always)]
    fn round_split(self) -> (Self, i32) {
        let shifted = self + Self::ROUND_SHIFTER;
        let k = shifted.to_bits() as i64 - Self::ROUND_SHIFTER.to_bits() as i64;
        (shifted - Self::ROUND_SHIFTER, k as i32)
    }
    #[inline(always)]
    fn exp2_int(k: i32) -> Self {
        f64::from_bits(((k + 1023) as u64) << 52)
    }
    #[inline(always)]
    fn split_exponent(self) -> (Self, i32) {
        // A subnormal is first scaled by 2^54 (exact) into the normal range.
        let (x, bias) = if self.to_bits() & 0x7ff0_0000_0000_0000 == 0 {
            (self * 18_014_398_509_481_984.0, 1023 + 54)
        } else {
            (self, 1023)
        };
        let bits = x.to_bits();
        let e = ((bits >> 52) & 0x7ff) as i32 - bias;
        (f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000), e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln2_split_is_exact_sum() {
        assert_eq!(f32::LN2_HI.to_bits() & 0xff, 0, "f32 LN2_HI needs trailing zeros");
        assert_eq!(f64::LN2_HI.to_bits() & 0x1f_ffff, 0, "f64 LN2_HI needs trailing zeros");
        let sum = f32::LN2_HI as f64 + f32::LN2_LO as f64;
        assert!((sum - core::f64::consts::LN_2).abs() < 1e-13);
        assert!((f64::LN2_HI + f64::LN2_LO - core::f64::consts::LN_2).abs() < 1e-18);
    }

    #[test]
    fn bit_helpers_match_std() {
        for x in [-3.5f32, -0.0, 0.0, 1.25, 7.5, -7.5] {
            assert_eq!(Real::abs(x), x.abs());
            assert_eq!(Real::copysign(2.0f32, x), 2.0f32.copysign(x));
        }
        for x in [-3.5f64, -0.0, 0.0, 1.25, 7.5, -7.5] {
            assert_eq!(Real::abs(x), x.abs());
        }
        // round_split rounds half to even and returns the same integer twice.
        for (x, n) in [(-3.5f32, -4), (2.5, 2), (0.49, 0), (-0.6, -1), (26.3, 26), (-26.7, -27)] {
            assert_eq!(x.round_split(), (n as f32, n));
            assert_eq!((x as f64).round_split(), (n as f64, n));
        }
        for k in -20..60 {
            assert_eq!(f32::exp2_int(k), 2f32.powi(k));
            assert_eq!(f64::exp2_int(k), 2f64.powi(k));
        }
        for x in [1.0f64, 3.0, 0.75, 1e-300, 5e-324, 1.7e308] {
            let (m, e) = x.split_exponent();
            assert!(
                (1.0..2.0).contains(&m) && m * 2f64.powi(e / 2) * 2f64.powi(e - e / 2) == x,
                "{x}: {m} 2^{e}"
            );
            let (m, e) = (x as f32).split_exponent();
            if x as f32 > 0.0 && (x as f32).is_finite() {
                assert!(
                    (1.0..2.0).contains(&m)
                        && (m as f64) * 2f64.powi(e / 2) * 2f64.powi(e - e / 2) == (x as f32) as f64,
                    "{x}"
                );
            }
        }
        assert_eq!(1e-45f32.split_exponent(), (1.0, -149));
        assert!(!Real::is_finite(f32::NAN) && !Real::is_finite(f32::INFINITY));
        assert!(Real::is_finite(f32::MAX) && !Real::is_finite(f64::NEG_INFINITY));
    }
}
