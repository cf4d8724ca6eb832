//! Cheaper transcendental functions for the kernels' common path, still
//! the same operations on the CPU and the GPU (so still bit-identical),
//! and the switch between them and the reference functions of
//! [`crate::math`].
//!
//! [`tanh_fast`] is a table of cubic pieces (in the spirit of the lookup
//! tables of Bartocci et al. 2011, section 5, with a cubic instead of a
//! linear interpolant, so that a small table reaches f32 accuracy). |x| is
//! cut into pieces of width h = 1/16 centred on the nodes i h, i = 0..=152
//! (|x| up to 9.5; beyond it tanh is 1 within 1.1e-8 and |x| is clamped to 9.5).
//! Piece i holds the cubic in d = |x|/h - i, |d| <= 1/2, that interpolates
//! tanh at the four Chebyshev nodes of the piece; its coefficients are
//! computed in f64 by `const` evaluation (no hand-typed numbers) and
//! stored as f32, 16 bytes per piece, 2,448 bytes in all: one 128-bit load
//! from the L1 cache per call on the GPU. Evaluating it costs about 15
//! instructions where [`crate::math::tanh`] costs about 35 (a Cody-Waite
//! exponential and a correctly rounded division).
//!
//! Error bound (test below, every 16th f32 in [-12, 12] and 2 million f64
//! points in [-25, 25], with the C library's tanh as the truth): at most
//! 8e-8 in absolute value for f32 (measured 6.5e-8) and 4e-8 for f64
//! (measured 3.6e-8; the f32 coefficients dominate there); the
//! interpolation error itself is below 2e-8
//! (h^4 max|tanh''''| / (4! 2^3 2^4) = 1.6e-8). Piece 0 is odd (its even
//! coefficients are exactly 0), so the relative error stays near 1e-7 down
//! to the smallest arguments, and tanh_fast(-x) = -tanh_fast(x) exactly.
//! NaN in gives NaN out, +-infinity gives exactly +-1.

use crate::real::Real;

/// Which transcendental functions a model's reaction uses where it has a
/// cheaper variant (Karma's tanh, for now; the other models always use the
/// reference functions). `#[repr(u32)]`: carried in models' coefficients,
/// which are passed by value to the kernels.
#[repr(u32)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MathMode {
    /// The table-based functions of this module (the default of a run).
    #[default]
    Fast = 0,
    /// The reference functions of [`crate::math`] (within a few ulp).
    Exact = 1,
}

impl MathMode {
    /// Name in summaries and on the command line: "fast" or "exact".
    pub const fn name(self) -> &'static str {
        match self {
            MathMode::Fast => "fast",
            MathMode::Exact => "exact",
        }
    }
}

/// Pieces per unit of |x|.
const PIECES_PER_UNIT: f64 = 16.0;
/// Nodes 0, h, ..., 9.5: pieces up to |x| = 9.5 + h/2.
const PIECES: usize = 153;
/// |x| is clamped here: 1 - tanh(9.5) = 1.1e-8, so the last piece's value
/// at its node rounds to 1 in f32.
const CLAMP: f64 = 9.5;

/// The four coefficients (d^0, d^1, d^2, d^3) of one piece, aligned for
/// one 128-bit load.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, PartialEq)]
struct Piece([f32; 4]);

/// The table, built at compile time (identical on every target: const
/// evaluation is IEEE arithmetic in software).
static TANH_PIECES: [Piece; PIECES] = pieces();

/// e^y for y <= 0 in f64 by const evaluation: y = k ln2 + r, |r| <= ln2/2,
/// Taylor series of e^r to degree 18 (remainder below 1e-19), times 2^k.
const fn exp_nonpositive(y: f64) -> f64 {
    let ln2 = core::f64::consts::LN_2;
    let k = -((0.5 - y / ln2) as i64); // round(y / ln2) for y <= 0 (ties irrelevant)
    let r = y - k as f64 * ln2;
    let (mut sum, mut term, mut n) = (1.0, 1.0, 1);
    while n <= 18 {
        term = term * r / n as f64;
        sum += term;
        n += 1;
    }
    // 2^k for k in about -27..=0.
    let mut scale = 1.0;
    let mut j = 0;
    while j < -k {
        scale *= 0.5;
        j += 1;
    }
    sum * scale
}

/// tanh(x) for 0 <= x <= 10 in f64 by const evaluation, within about
/// 1e-16 absolute.
const fn tanh_const(x: f64) -> f64 {
    let e = exp_nonpositive(-2.0 * x);
    (1.0 - e) / (1.0 + e)
}

/// Chebyshev interpolation of tanh on each piece, converted to powers of d.
const fn pieces() -> [Piece; PIECES] {
    // The Chebyshev nodes t_k = cos((2k + 1) pi / 8) on [-1, 1]; d = t / 2.
    const C1: f64 = 0.923_879_532_511_286_7; // cos(pi/8)
    const C3: f64 = 0.382_683_432_365_089_8; // cos(3pi/8)
    let t = [C1, C3, -C3, -C1];
    let mut out = [Piece([0.0; 4]); PIECES];
    let mut i = 0;
    while i < PIECES {
        let mut f = [0.0; 4];
        let mut k = 0;
        while k < 4 {
            f[k] = tanh_const((i as f64 + 0.5 * t[k]) / PIECES_PER_UNIT);
            if i == 0 && t[k] < 0.0 {
                f[k] = -tanh_const(-0.5 * t[k] / PIECES_PER_UNIT); // tanh is odd
            }
            k += 1;
        }
        // Chebyshev coefficients a_j = (2/4) sum_k f_k T_j(t_k), a_0 halved.
        let mut a = [0.0; 4];
        let mut k = 0;
        while k < 4 {
            let tk = t[k];
            a[0] += f[k] / 4.0;
            a[1] += f[k] * tk / 2.0;
            a[2] += f[k] * (2.0 * tk * tk - 1.0) / 2.0;
            a[3] += f[k] * (4.0 * tk * tk * tk - 3.0 * tk) / 2.0;
            k += 1;
        }
        // sum a_j T_j(2d) in powers of d.
        let mut c = [a[0] - a[2], 2.0 * (a[1] - 3.0 * a[3]), 8.0 * a[2], 32.0 * a[3]];
        if i == 0 {
            // Odd by construction; the even coefficients are rounding noise.
            c[0] = 0.0;
            c[2] = 0.0;
        }
        out[i] = Piece([c[0] as f32, c[1] as f32, c[2] as f32, c[3] as f32]);
        i += 1;
    }
    out
}

/// Hyperbolic tangent from the table of cubic pieces; see the module docs
/// for the error bound (8e-8 absolute in f32, 4e-8 in f64).
#[inline(always)]
pub fn tanh_fast<T: Real>(x: T) -> T {
    let a = x.abs();
    let clamp = T::from_f64(CLAMP);
    // NaN fails the comparison and flows on into d, so NaN comes out.
    let a = if a > clamp { clamp } else { a };
    let s = a * T::from_f64(PIECES_PER_UNIT); // exact: a power of two
    let (node, i) = s.round_split();
    let d = s - node; // exact, |d| <= 1/2
    // A NaN's index is garbage: the clamp keeps the load inside the table.
    let i = (i as u32).min(PIECES as u32 - 1) as usize;
    // SAFETY: i < PIECES.
    let Piece(c) = unsafe { *TANH_PIECES.as_ptr().add(i) };
    let c = |k: usize| T::from_f64(c[k] as f64);
    let p = d.mul_add(d.mul_add(d.mul_add(c(3), c(2)), c(1)), c(0));
    p.copysign(x)
}

/// tanh by `mode`: [`tanh_fast`] or the reference [`crate::math::tanh`].
#[inline(always)]
pub fn tanh_in<T: Real>(x: T, mode: MathMode) -> T {
    match mode {
        MathMode::Fast => tanh_fast(x),
        MathMode::Exact => crate::math::tanh(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_built_from_tanh_itself() {
        // Each piece reproduces tanh at its node to the f32 rounding of c0.
        for (i, Piece(c)) in TANH_PIECES.iter().enumerate() {
            let x = i as f64 / PIECES_PER_UNIT;
            assert!((c[0] as f64 - x.tanh()).abs() < 4e-8, "piece {i}: {} vs {}", c[0], x.tanh());
            // and its slope: tanh'(x) h.
            let slope = (1.0 - x.tanh().powi(2)) / PIECES_PER_UNIT;
            assert!((c[1] as f64 - slope).abs() < 1e-6, "piece {i}: slope {} vs {slope}", c[1]);
        }
        assert_eq!((TANH_PIECES[0].0[0], TANH_PIECES[0].0[2]), (0.0, 0.0));
        assert!((tanh_const(0.3) - 0.3f64.tanh()).abs() < 1e-16);
        assert!((tanh_const(9.5) - 9.5f64.tanh()).abs() < 1e-16);
    }

    #[test]
    fn tanh_fast_f32_within_8e_8() {
        let mut worst = (0f64, 0f32);
        // Every 16th f32 in [0, 12] (68 million points), both signs.
        let (lo, hi) = (0f32.to_bits(), 12f32.to_bits());
        for bits in (lo..=hi).step_by(16) {
            let x = f32::from_bits(bits);
            for x in [x, -x] {
                let err = (tanh_fast(x) as f64 - (x as f64).tanh()).abs();
                if err > worst.0 {
                    worst = (err, x);
                }
                // Relative accuracy near 0 (odd first piece).
                if x.abs() < 1e-3 && x != 0.0 {
                    let rel = err / (x as f64).tanh().abs();
                    assert!(rel < 4e-7, "relative error {rel} at {x}");
                }
            }
        }
        eprintln!("tanh_fast f32: worst {:.3e} at x = {}", worst.0, worst.1);
        assert!(worst.0 <= 8e-8, "tanh_fast f32 error {} at x = {}", worst.0, worst.1);
    }

    #[test]
    fn tanh_fast_f64_within_4e_8() {
        let mut worst = (0f64, 0f64);
        let n = 2_000_000;
        for i in 0..=n {
            let x = -25.0 + 50.0 * (i as f64) / (n as f64);
            let err = (tanh_fast(x) - x.tanh()).abs();
            if err > worst.0 {
                worst = (err, x);
            }
        }
        eprintln!("tanh_fast f64: worst {:.3e} at x = {}", worst.0, worst.1);
        assert!(worst.0 <= 4e-8, "tanh_fast f64 error {} at x = {}", worst.0, worst.1);
    }

    #[test]
    fn tanh_fast_special_values() {
        assert_eq!(tanh_fast(0.0f32).to_bits(), 0f32.to_bits());
        assert_eq!(tanh_fast(-0.0f32).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanh_fast(f32::INFINITY), 1.0);
        assert_eq!(tanh_fast(f64::NEG_INFINITY), -1.0);
        assert!((1.0 - tanh_fast(50.0f32)) < 1e-7);
        assert!(tanh_fast(f32::NAN).is_nan() && tanh_fast(f64::NAN).is_nan());
        for x in [0.01f32, 0.7, 3.1, 8.99] {
            assert_eq!(tanh_fast(-x), -tanh_fast(x));
        }
    }

    #[test]
    fn the_mode_picks_the_function() {
        let x = 0.37f32;
        assert_eq!(tanh_in(x, MathMode::Exact), crate::math::tanh(x));
        assert_eq!(tanh_in(x, MathMode::Fast), tanh_fast(x));
        assert_eq!(MathMode::default(), MathMode::Fast);
    }
}
