//! Phase singularities of one plaquette (four neighbouring cells): the
//! spiral tips of a sheet and the points of scroll-wave filaments in 3D.
//!
//! Method: the phase of a cell is the angle of the point
//! `(a, b) = (V(t - tau) - V*, V(t) - V*)`, the time-delay embedding of
//! Gray et al. (Nature 392:75, 1998; phase = atan2(V(t) - V*, V(t - tau) -
//! V*)), which needs nothing but variable 0 at two times, so it works for
//! every model. A phase singularity sits in a plaquette when the phase
//! turns by a whole turn around it: the topological charge
//! `n = (1 / 2 pi) * (closed sum of the phase differences)`, taken around
//! the plaquette's four corners (Bray & Wikswo, IEEE Trans Biomed Eng
//! 49:1086, 2002; each difference wrapped into (-pi, pi]).
//!
//! Exact and without atan2: a wrapped phase difference between corners p
//! and q is the angle the straight segment p -> q subtends at the origin of
//! the (a, b) plane, so the charge is the winding number of the
//! quadrilateral p0 p1 p2 p3 around the origin. That is counted by the
//! signed crossings of the positive a half-axis: an edge crossing it
//! upwards (b from <= 0 to > 0) with the origin on its left counts +1, one
//! crossing downwards with the origin on its right -1. Only the signs of b
//! and of one 2 x 2 determinant enter, and the determinant's sign is exact
//! (Kahan's algorithm with a fused multiply-add; relative error below 2
//! ulp, Jeannerod, Louvet & Muller, Math Comp 82:2245, 2013). So the
//! charge is an exact function of the rounded differences `V - V*` (taken
//! in f64), the same on the CPU and the GPU, with no transcendental
//! function to agree on. A quadrilateral winds at most once: the charge is
//! -1, 0 or +1. If the origin lies exactly on an edge (a corner's phase is
//! undefined, or two corners are exactly opposite) the half-open rule
//! decides the side, consistently.
//!
//! Orientation: corners are taken in the order (0, 0), (1, 0), (1, 1),
//! (0, 1) of the plaquette's (first, second) axes, and a positive charge
//! means the phase increases counterclockwise in that frame. In time, a
//! cell's point (a, b) turns clockwise (rest, upstroke, plateau, recovery
//! are the quadrants III, II, I, IV) when tau is below half a period.
//! Around the tip of a wave rotating counterclockwise, a counterclockwise
//! path in space meets cells ever earlier in their cycle, so there the
//! phase turns counterclockwise: such a spiral has charge +1. A kernel takes
//! the axes (x, y) for a sheet of nz = 1 and, in 3D, the cyclic pairs
//! (x, y), (y, z), (z, x) of the plaquettes normal to z, x and y, so the
//! charges of a filament's plaquettes form its (right-handed) tangent.
//!
//! Position: the singularity is where both bilinear interpolants of `a`
//! and `b` over the plaquette vanish. The image of the plaquette's border
//! under the bilinear map is exactly the quadrilateral above (each edge is
//! mapped linearly), so a nonzero charge guarantees such a zero inside.
//! It is found by [`NEWTON_STEPS`] Newton steps from the centre, each kept
//! inside the plaquette, using only `+ - * /`: the reported position is
//! always inside the plaquette, and is the interpolated zero to rounding
//! whenever Newton converges (it does for the smooth fields of a resolved
//! spiral; a plaquette where the Jacobian vanishes stops early).

use crate::layout::grid::GridDims;
use crate::real::Real;

/// Newton steps of the position estimate (quadratic convergence: from a
/// start within a cell, 8 are far more than a well-posed zero needs).
pub const NEWTON_STEPS: u32 = 8;

/// What a plaquette holds.
///
/// `#[repr(C)]`: a kernel may write it to a buffer the host reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Singularity {
    /// Position along the plaquette's first axis, in [0, 1] from corner 0
    /// (0.5 when there is no singularity).
    pub s: f64,
    /// Position along the plaquette's second axis, in [0, 1].
    pub t: f64,
    /// Topological charge: +1, -1, or 0 (no singularity).
    pub charge: i32,
}

/// `a d - b c` with a relative error below 2 ulp, so its sign is exact
/// (Kahan: the rounding error of `b c` is recovered with an FMA).
#[inline(always)]
fn det2(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let w = b * c;
    let err = Real::mul_add(-b, c, w);
    Real::mul_add(a, d, -w) + err
}

/// +1, -1 or 0: how the edge p -> q of the phase-plane quadrilateral
/// crosses the positive a half-axis (half-open in b, so a vertex on the
/// axis counts once).
#[inline(always)]
fn crossing(pa: f64, pb: f64, qa: f64, qb: f64) -> i32 {
    if pb <= 0.0 {
        if qb > 0.0 && det2(pa, pb, qa, qb) > 0.0 {
            return 1;
        }
    } else if qb <= 0.0 && det2(pa, pb, qa, qb) < 0.0 {
        return -1;
    }
    0
}

/// The phase-plane points `(V(t - tau) - V*, V(t) - V*)` of the corners, in f64.
#[inline(always)]
fn phase_points<T: Real>(now: [T; 4], prev: [T; 4], v_star: f64) -> ([f64; 4], [f64; 4]) {
    let mut a = [0.0; 4];
    let mut b = [0.0; 4];
    let mut k = 0;
    while k < 4 {
        a[k] = prev[k].to_f64() - v_star;
        b[k] = now[k].to_f64() - v_star;
        k += 1;
    }
    (a, b)
}

#[inline(always)]
fn winding(a: &[f64; 4], b: &[f64; 4]) -> i32 {
    crossing(a[0], b[0], a[1], b[1])
        + crossing(a[1], b[1], a[2], b[2])
        + crossing(a[2], b[2], a[3], b[3])
        + crossing(a[3], b[3], a[0], b[0])
}

/// The topological charge (-1, 0, +1) of a plaquette whose corners, in
/// the order (0, 0), (1, 0), (1, 1), (0, 1), hold V at the two times:
/// `now` = V(t), `prev` = V(t - tau). `v_star` is the level the phase
/// turns around (a value inside the action potential's range, e.g. the
/// model's activation threshold). Any NaN corner gives 0.
#[inline(always)]
pub fn plaquette_charge<T: Real>(now: [T; 4], prev: [T; 4], v_star: f64) -> i32 {
    let (a, b) = phase_points(now, prev, v_star);
    winding(&a, &b)
}

/// Keeps Newton's iterate inside the plaquette (NaN goes to 0).
#[inline(always)]
fn unit_clamp(x: f64) -> f64 {
    if x >= 0.0 { if x > 1.0 { 1.0 } else { x } } else { 0.0 }
}

/// The charge of a plaquette (as [`plaquette_charge`]) and, when it is
/// nonzero, where in it the singularity lies (see the module docs).
#[inline(always)]
pub fn plaquette_singularity<T: Real>(now: [T; 4], prev: [T; 4], v_star: f64) -> Singularity {
    let (a, b) = phase_points(now, prev, v_star);
    let charge = winding(&a, &b);
    let (mut s, mut t) = (0.5, 0.5);
    if charge == 0 {
        return Singularity { s, t, charge };
    }
    // f(s, t) = f0 + f1 s + f2 t + f3 s t through the corner values.
    let coeffs = |v: &[f64; 4]| (v[0], v[1] - v[0], v[3] - v[0], (v[0] - v[1]) + (v[2] - v[3]));
    let (a0, a1, a2, a3) = coeffs(&a);
    let (b0, b1, b2, b3) = coeffs(&b);
    let mut step = 0;
    while step < NEWTON_STEPS {
        let fa = (a0 + a1 * s) + (a2 + a3 * s) * t;
        let fb = (b0 + b1 * s) + (b2 + b3 * s) * t;
        let (fa_s, fa_t) = (a1 + a3 * t, a2 + a3 * s);
        let (fb_s, fb_t) = (b1 + b3 * t, b2 + b3 * s);
        let jac = fa_s * fb_t - fa_t * fb_s;
        if !(jac != 0.0 && Real::is_finite(jac)) {
            break;
        }
        let ds = (fa_t * fb - fb_t * fa) / jac;
        let dt = (fb_s * fa - fa_s * fb) / jac;
        s = unit_clamp(s + ds);
        t = unit_clamp(t + dt);
        step += 1;
    }
    Singularity { s, t, charge }
}

/// The (first, second) axes of a plaquette normal to `normal` (0 = x,
/// 1 = y, 2 = z): (y, z) for x, (z, x) for y, (x, y) for z, so that
/// first x second = normal.
#[inline(always)]
pub const fn plaquette_axes(normal: u32) -> (usize, usize) {
    (((normal + 1) % 3) as usize, ((normal + 2) % 3) as usize)
}

/// The plaquette normal to `normal` with corner (0, 0) at cell `base` of a
/// row-major grid: `None` when the grid has one cell along one of its
/// in-plane axes, or `base` is the last cell along one (no plaquette
/// starts there) or has a corner that is not finite (outside a tissue,
/// whose states hold NaN there); else its charge and position from V(t)
/// `now` and V(t - tau) `prev`. One routine for the CPU's scan and the GPU kernel,
/// so they visit the same plaquettes with the same corners.
///
/// # Safety
/// `now` and `prev` hold `grid.cells()` values; `base` is a cell of `grid`.
#[inline(always)]
pub unsafe fn plaquette_at<T: Real>(
    now: *const T,
    prev: *const T,
    grid: GridDims,
    normal: u32,
    base: [u32; 3],
    v_star: f64,
) -> Option<Singularity> {
    let n = [grid.nx, grid.ny, grid.nz];
    let (p, q) = plaquette_axes(normal);
    if n[p] < 2 || n[q] < 2 || base[p] + 1 >= n[p] || base[q] + 1 >= n[q] {
        return None;
    }
    let mut c = [base; 4];
    c[1][p] += 1;
    c[2][p] += 1;
    c[2][q] += 1;
    c[3][q] += 1;
    let index = |k: usize| grid.index(c[k][0], c[k][1], c[k][2]);
    // SAFETY: every corner is a cell of `grid` (checked above).
    let (v_now, v_prev) = unsafe {
        (
            [*now.add(index(0)), *now.add(index(1)), *now.add(index(2)), *now.add(index(3))],
            [*prev.add(index(0)), *prev.add(index(1)), *prev.add(index(2)), *prev.add(index(3))],
        )
    };
    // A plaquette with a corner outside a tissue (NaN there) has no
    // phase to wind: the tissue's boundary is not a singularity.
    let finite = |v: [T; 4]| v[0].is_finite() && v[1].is_finite() && v[2].is_finite() && v[3].is_finite();
    if !finite(v_now) || !finite(v_prev) {
        return None;
    }
    Some(plaquette_singularity(v_now, v_prev, v_star))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Corners of the unit plaquette with its lower-left corner at (x, y).
    fn corners(x: f64, y: f64) -> [(f64, f64); 4] {
        [(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)]
    }

    /// V of a wave rotating about (x0, y0) at angle `wt`, counterclockwise
    /// for `sense = 1`: V = cos(theta - sense wt).
    fn rotating(x0: f64, y0: f64, sense: f64, wt: f64) -> impl Fn((f64, f64)) -> f64 {
        move |(x, y)| ((y - y0).atan2(x - x0) - sense * wt).cos()
    }

    fn sample(f: impl Fn((f64, f64)) -> f64, c: [(f64, f64); 4]) -> [f64; 4] {
        c.map(f)
    }

    #[test]
    fn a_plaquette_with_a_corner_outside_the_tissue_has_no_singularity() {
        // A 2x2 sheet around a rotating wave's core: charged, until one
        // corner is outside a tissue (NaN, as tissue states hold there).
        let grid = GridDims::new(2, 2, 1);
        let c = corners(0.0, 0.0);
        let (p, q) = (rotating(0.4, 0.6, 1.0, 0.0), rotating(0.4, 0.6, 1.0, -1.0));
        // Row-major: (0,0), (1,0), (0,1), (1,1); the corners go round.
        let row = |v: [f64; 4]| [v[0], v[1], v[3], v[2]];
        let (now, prev) = (row(sample(p, c)), row(sample(q, c)));
        // SAFETY: both hold the grid's four cells.
        let at =
            |now: [f64; 4]| unsafe { plaquette_at(now.as_ptr(), prev.as_ptr(), grid, 2, [0, 0, 0], 0.0) };
        assert_eq!(at(now).map(|s| s.charge), Some(1));
        let mut cut = now;
        cut[2] = f64::NAN;
        assert_eq!(at(cut), None);
    }

    #[test]
    fn a_rotating_wave_has_the_charge_of_its_sense() {
        let c = corners(10.0, 7.0);
        for (sense, charge) in [(1.0, 1), (-1.0, -1)] {
            // tau = a quarter turn, and a tenth of one.
            for wtau in [std::f64::consts::FRAC_PI_2, 0.2 * std::f64::consts::PI] {
                let now = sample(rotating(10.3, 7.6, sense, 0.0), c);
                let prev = sample(rotating(10.3, 7.6, sense, -wtau), c);
                assert_eq!(plaquette_charge(now, prev, 0.0), charge, "sense {sense}, w tau {wtau}");
                let f32s = |v: [f64; 4]| v.map(|x| x as f32);
                assert_eq!(plaquette_charge(f32s(now), f32s(prev), 0.0), charge);
            }
        }
        // A plaquette beside the centre has none.
        let c = corners(12.0, 7.0);
        let now = sample(rotating(10.3, 7.6, 1.0, 0.0), c);
        let prev = sample(rotating(10.3, 7.6, 1.0, -1.0), c);
        assert_eq!(plaquette_singularity(now, prev, 0.0), Singularity { s: 0.5, t: 0.5, charge: 0 });
    }

    #[test]
    fn the_position_is_the_zero_of_the_bilinear_interpolants() {
        // Linear fields: a = -(y - y0) + 0.5 (x - x0), b = x - x0; their
        // bilinear interpolants are themselves, so the zero is (x0, y0)
        // to rounding. The phase turns counterclockwise: charge +1.
        let (x0, y0) = (0.37, 0.81);
        let c = corners(0.0, 0.0);
        let now = c.map(|(x, _)| x - x0 + 0.2);
        let prev = c.map(|(x, y)| -(y - y0) + 0.5 * (x - x0) + 0.2);
        let sing = plaquette_singularity(now, prev, 0.2);
        assert_eq!(sing.charge, 1);
        assert!((sing.s - x0).abs() < 1e-12 && (sing.t - y0).abs() < 1e-12, "{sing:?}");
        // A truly bilinear field, V = s t - 0.3 and (1 - s)(0.2 + t) - 0.6:
        // zero where both vanish, checked by substitution.
        let now = c.map(|(s, t)| s * t - 0.3);
        let prev = c.map(|(s, t)| (1.0 - s) * (0.2 + t) - 0.6);
        let sing = plaquette_singularity(now, prev, 0.0);
        assert_ne!(sing.charge, 0);
        let (s, t) = (sing.s, sing.t);
        assert!((s * t - 0.3).abs() < 1e-12 && ((1.0 - s) * (0.2 + t) - 0.6).abs() < 1e-12, "{sing:?}");
    }

    #[test]
    fn degenerate_plaquettes_have_no_charge() {
        let u = [0.5f32; 4];
        assert_eq!(plaquette_charge(u, u, 0.5), 0);
        assert_eq!(plaquette_charge([1.0f64, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], 0.0), 0);
        assert_eq!(plaquette_charge([f64::NAN; 4], [1.0, -1.0, 1.0, -1.0], 0.0), 0);
        // Two corners repeated (a field constant along one axis) wind back.
        let now = [1.0f64, -1.0, -1.0, 1.0];
        let prev = [1.0f64, 1.0, 1.0, 1.0];
        assert_eq!(plaquette_charge(now, prev, 0.0), 0);
    }

    #[test]
    fn the_determinant_sign_is_exact() {
        // n^2 - (n^2 - 1) = 1 with n^2 above 2^53: the naive difference of
        // rounded products is 0 or 2, Kahan's form is exact here.
        let n = 94_906_267i128;
        for (a, b, c, d) in [(n, n - 1, n + 1, n), (n - 1, n, n, n + 1), (n, n, n, n)] {
            let exact = a * d - b * c;
            let got = det2(a as f64, b as f64, c as f64, d as f64);
            assert_eq!(got, exact as f64, "{a} {b} {c} {d}");
        }
        assert_eq!(det2(3.0, 2.0, 6.0, 4.0), 0.0);
    }
}
