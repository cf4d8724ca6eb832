//! The second-order 7-point Laplacian and the no-flux (mirror) boundary.

use crate::real::Real;

/// Indices of the two neighbours of `i` along an axis of `n` cells, with the
/// mirror rule at the ends: the missing neighbour outside the domain takes
/// the value of the interior neighbour on the other side (U[-1] = U[1],
/// U[n] = U[n-2]), which makes dU/dn = 0 to second order at the boundary
/// node (paper section 4.4, Figure 22). Needs `n >= 2`.
#[inline(always)]
pub const fn mirror_neighbours(i: u32, n: u32) -> (u32, u32) {
    let lo = if i == 0 { 1 } else { i - 1 };
    let hi = if i + 1 == n { n - 2 } else { i + 1 };
    (lo, hi)
}

/// The same rule as [`mirror_neighbours`], as offsets (-1 or +1) from `i`
/// to its lower and upper neighbour: kernels scale them by the axis
/// stride instead of recomputing full indices.
#[inline(always)]
pub const fn mirror_offsets(i: u32, n: u32) -> (i32, i32) {
    let lo = if i == 0 { 1 } else { -1 };
    let hi = if i + 1 == n { -1 } else { 1 };
    (lo, hi)
}

/// Index of `i + offset` (offset = -1 or +1) with the mirror rule.
#[inline(always)]
pub const fn mirror(i: i64, n: i64) -> i64 {
    if i < 0 {
        -i
    } else if i >= n {
        2 * (n - 1) - i
    } else {
        i
    }
}

/// Undivided 7-point Laplacian, h^2 * lap(U), summed in one fixed order
/// (x-, x+, y-, y+, z-, z+, then -6 U fused in) so every backend and kernel
/// rounds identically.
#[inline(always)]
pub fn laplacian7<T: Real>(centre: T, xm: T, xp: T, ym: T, yp: T, zm: T, zp: T) -> T {
    (-T::SIX).mul_add(centre, ((((xm + xp) + ym) + yp) + zm) + zp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_neighbours_at_edges_and_inside() {
        assert_eq!(mirror_neighbours(0, 5), (1, 1));
        assert_eq!(mirror_neighbours(2, 5), (1, 3));
        assert_eq!(mirror_neighbours(4, 5), (3, 3));
        assert_eq!(mirror_neighbours(0, 2), (1, 1));
        assert_eq!(mirror_neighbours(1, 2), (0, 0));
    }

    #[test]
    fn offsets_agree_with_neighbours() {
        for n in 2..6u32 {
            for i in 0..n {
                let (lo, hi) = mirror_neighbours(i, n);
                let (dlo, dhi) = mirror_offsets(i, n);
                assert_eq!((i as i32 + dlo, i as i32 + dhi), (lo as i32, hi as i32));
            }
        }
    }

    #[test]
    fn mirror_index_reflects_about_end_nodes() {
        assert_eq!(mirror(-1, 5), 1);
        assert_eq!(mirror(5, 5), 3);
        assert_eq!(mirror(3, 5), 3);
    }

    #[test]
    fn laplacian_hand_values() {
        // Quadratic x^2 sampled at x = 1 with h = 1: neighbours 0 and 4, centre 1;
        // the other axes constant 1. h^2 lap = 0 + 4 + 1 + 1 + 1 + 1 - 6 = 2 = d2/dx2 x^2.
        assert_eq!(laplacian7(1.0f64, 0.0, 4.0, 1.0, 1.0, 1.0, 1.0), 2.0);
        // Constant field: zero.
        assert_eq!(laplacian7(2.5f32, 2.5, 2.5, 2.5, 2.5, 2.5, 2.5), 0.0);
        // A single spike of 1 among zeros: -6 at the spike.
        assert_eq!(laplacian7(1.0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0), -6.0);
    }
}
