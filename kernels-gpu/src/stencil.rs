//! The second-order Laplacian (7-point in 3D, 5-point in 2D, 3-point in
//! 1D) and the no-flux (mirror) boundary.
//!
//! A grid with axes of one cell is computed as the grid without them (see
//! [`GridDims::compact`](crate::GridDims::compact)): a 128 x 128 x 1 sheet
//! with the 5-point stencil, a cable with the 3-point one. An axis of one
//! cell has no neighbours along it, so it adds nothing to the Laplacian;
//! a single cell is a cable of one cell, whose two mirrored neighbours are
//! the cell itself and whose Laplacian is exactly zero (`-2u + (u + u)`),
//! so it runs the cell model's ODE alone.

use crate::real::Real;

/// Indices of the two neighbours of `i` along an axis of `n` cells, with the
/// mirror rule at the ends: the missing neighbour outside the domain takes
/// the value of the interior neighbour on the other side (U\[-1\] = U\[1\],
/// U\[n\] = U\[n-2\]), which makes dU/dn = 0 to second order at the boundary
/// node (paper section 4.4, Figure 22). An axis of one cell mirrors the
/// cell onto itself.
#[inline(always)]
pub const fn mirror_neighbours(i: u32, n: u32) -> (u32, u32) {
    if n == 1 {
        return (0, 0);
    }
    let lo = if i == 0 { 1 } else { i - 1 };
    let hi = if i + 1 == n { n - 2 } else { i + 1 };
    (lo, hi)
}

/// The same rule as [`mirror_neighbours`], as offsets (-1 or +1) from `i`
/// to its lower and upper neighbour: kernels scale them by the axis
/// stride instead of recomputing full indices. Needs `n >= 2` (the kernels
/// run on compacted grids, where only the last axes may have one cell, and
/// never ask for those).
#[inline(always)]
pub const fn mirror_offsets(i: u32, n: u32) -> (i32, i32) {
    let lo = if i == 0 { 1 } else { -1 };
    let hi = if i + 1 == n { -1 } else { 1 };
    (lo, hi)
}

/// Index of `i + offset` (offset = -1 or +1) with the mirror rule; an axis
/// of one cell maps everything to 0.
#[inline(always)]
pub const fn mirror(i: i64, n: i64) -> i64 {
    if n == 1 {
        0
    } else if i < 0 {
        -i
    } else if i >= n {
        2 * (n - 1) - i
    } else {
        i
    }
}

/// Undivided 7-point Laplacian, h^2 * lap(U), summed in one fixed order
/// (x-, x+, y-, y+, then the sum of z- and z+, then -6 U fused in) so every
/// backend and kernel rounds identically. The z pair is added first so that
/// swapping z- and z+ changes no bit: the blocked kernel marches past the
/// grid's ends on the mirror image of the planes inside
/// ([`crate::blocked::reflect`]), where a plane's z neighbours are its
/// image's, swapped.
#[inline(always)]
pub fn laplacian7<T: Real>(centre: T, xm: T, xp: T, ym: T, yp: T, zm: T, zp: T) -> T {
    (-T::SIX).mul_add(centre, (((xm + xp) + ym) + yp) + (zm + zp))
}

/// Undivided 5-point Laplacian of a 2D grid, in the same order as
/// [`laplacian7`] without the z terms.
#[inline(always)]
pub fn laplacian5<T: Real>(centre: T, xm: T, xp: T, ym: T, yp: T) -> T {
    (-T::FOUR).mul_add(centre, ((xm + xp) + ym) + yp)
}

/// Undivided 3-point Laplacian of a 1D grid (a cable); exactly 0 for a
/// single cell, whose neighbours are itself.
#[inline(always)]
pub fn laplacian3<T: Real>(centre: T, xm: T, xp: T) -> T {
    (-T::TWO).mul_add(centre, xm + xp)
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
        assert_eq!(mirror_neighbours(0, 1), (0, 0));
        assert_eq!(mirror(1, 1), 0);
        assert_eq!(mirror(-1, 1), 0);
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
        // 2D and 1D: the same second differences along fewer axes.
        assert_eq!(laplacian5(1.0f64, 0.0, 4.0, 1.0, 1.0), 2.0);
        assert_eq!(laplacian3(1.0f64, 0.0, 4.0), 2.0);
    }

    #[test]
    fn a_single_cell_has_exactly_zero_laplacian() {
        for u in [0.1f32, 3.7, -85.23, 1e-30, f32::MAX / 4.0] {
            assert_eq!(laplacian3(u, u, u).to_bits(), 0f32.to_bits());
        }
        for u in [0.1f64, 3.7, -85.23, 1e-300] {
            assert_eq!(laplacian3(u, u, u).to_bits(), 0f64.to_bits());
        }
    }

    #[test]
    fn fewer_axes_are_the_3d_stencil_with_constant_neighbours_dropped() {
        // In exact arithmetic a 2D field extended constantly along z has the
        // same Laplacian; the values here are exact in binary.
        let (c, xm, xp, ym, yp) = (0.5f64, 0.25, 1.0, 0.75, 0.125);
        assert_eq!(laplacian5(c, xm, xp, ym, yp), laplacian7(c, xm, xp, ym, yp, c, c));
        assert_eq!(laplacian3(c, xm, xp), laplacian5(c, xm, xp, c, c));
    }
}
