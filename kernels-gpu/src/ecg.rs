//! One cell's term of the pseudo-ECG, the extracellular potential that a
//! point electrode would record far from the tissue.
//!
//! The unipolar pseudo-ECG of a monodomain field V (Plonsey & Barr,
//! *Bioelectricity: A Quantitative Approach*; in the form of Gima & Rudy,
//! Circ Res 90:889, 2002) is
//!
//! ```text
//! phi(x0) = K * sum over cells of (-grad V) . grad(1/r) dV,   r = |x - x0|,
//! grad(1/r) = -(x - x0) / r^3   (gradient with respect to the cell x),
//! ```
//!
//! so each cell adds `grad V . (x - x0) / r^3 dV`. With this sign a wave
//! front travelling *towards* the electrode gives a *positive* deflection:
//! behind the front V is high, so grad V points back, away from the
//! electrode, as does `x - x0`. fibril takes the constant `K` (σi / 4πσe
//! for a volume, a²σi / 4σe for Gima & Rudy's cable) as 1: multiply by it
//! for physical units. The result is then in the units of variable 0 times
//! `space unit^(d - 3)`, for a grid with `d` axes of more than one cell
//! (the volume element is `dx^d`: a sheet counts as a slab one space unit
//! thick, a cable as a fibre of unit cross-section).
//!
//! Discretisation: cell (x, y, z) sits at `(x dx, y dx, z dx)` (the grid is
//! node-centred, as the Laplacian's mirror boundary assumes), and grad V is
//! the central difference `(V[i+1] - V[i-1]) / (2 dx)` with the neighbours
//! chosen by [`mirror_neighbours`](crate::stencil::mirror_neighbours): at a
//! boundary node both neighbours are the same interior cell, so the normal
//! component is exactly 0 (the no-flux condition), and along an axis of one
//! cell the component is exactly 0 too. Every cell weighs `dx^d` (the
//! rectangle rule).
//!
//! Split of the work: [`ecg_cell_term`] is one cell's term without the
//! factor `dx^d / (2 dx)` common to all cells, in f64 whatever the field's
//! precision (so an f32 field loses nothing to cancellation: the
//! difference of two f32 values of similar magnitude is exact in f64); a
//! kernel sums the terms of all cells (a block reduction in f64, then one
//! atomic add or a second pass) and multiplies the total by
//! [`ecg_scale`]. The host's CPU reference (`fibril_host::events::ecg`)
//! does the same. The terms are bit-identical on the CPU and the GPU (only
//! correctly rounded `+ - * /` and `sqrt`); a sum in another order differs
//! from the CPU's only by the rounding of f64 additions.

use crate::math::sqrt;
use crate::real::Real;

/// The electrode and the grid spacing one pseudo-ECG channel needs.
///
/// `#[repr(C)]`: passed by value to a kernel.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EcgProbe {
    /// Electrode position (x, y, z) in the model's space unit, in the frame
    /// where cell (i, j, k) sits at (i dx, j dx, k dx).
    pub electrode: [f64; 3],
    /// Grid spacing in the model's space unit.
    pub dx: f64,
}

/// The term of cell (x, y, z) given its six neighbours' values (taken with
/// the mirror rule; along an axis of one cell both are the cell itself):
/// `(V[+] - V[-]) . (X - x0) / r^3` with X the cell's position. Multiply
/// the sum over all cells by [`ecg_scale`] to get phi.
///
/// Order of operations (fixed, so every caller rounds alike): the three
/// differences in f64, then `r^2 = (rx rx + ry ry) + rz rz`,
/// `dot = (gx rx + gy ry) + gz rz`, `dot / (r^2 sqrt(r^2))`.
///
/// An electrode on the cell (r = 0) gives a non-finite term; the host
/// refuses electrodes closer than half a cell to any cell, so a kernel
/// need not check.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn ecg_cell_term<T: Real>(
    xm: T,
    xp: T,
    ym: T,
    yp: T,
    zm: T,
    zp: T,
    x: u32,
    y: u32,
    z: u32,
    probe: &EcgProbe,
) -> f64 {
    let gx = xp.to_f64() - xm.to_f64();
    let gy = yp.to_f64() - ym.to_f64();
    let gz = zp.to_f64() - zm.to_f64();
    let rx = x as f64 * probe.dx - probe.electrode[0];
    let ry = y as f64 * probe.dx - probe.electrode[1];
    let rz = z as f64 * probe.dx - probe.electrode[2];
    let r2 = (rx * rx + ry * ry) + rz * rz;
    let dot = (gx * rx + gy * ry) + gz * rz;
    dot / (r2 * sqrt(r2))
}

/// The factor common to every cell's term: the volume element `dx^d` over
/// the `2 dx` of the central difference, for a grid with `axes` (= d) axes
/// of more than one cell ([`GridDims::axes`](crate::GridDims::axes)). A
/// single cell has no gradient, and its factor is 0.
#[inline(always)]
pub fn ecg_scale(dx: f64, axes: u32) -> f64 {
    match axes {
        0 => 0.0,
        1 => 0.5,
        2 => 0.5 * dx,
        _ => 0.5 * dx * dx,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uniform_neighbourhood_adds_exactly_zero() {
        let probe = EcgProbe { electrode: [1.3, -2.0, 7.5], dx: 0.25 };
        for u in [0.0f32, 1.0, -85.0, 3.0] {
            let t = ecg_cell_term(u, u, u, u, u, u, 3, 4, 5, &probe);
            assert_eq!(t.to_bits(), 0f64.to_bits());
        }
    }

    #[test]
    fn hand_value_and_sign() {
        // Cell at (0, 0, 0), electrode 2 units above along +z. V higher
        // below (behind a front moving up, towards the electrode): gz < 0,
        // rz = -2, so the term is positive: (-1)(-2) / 8 = 0.25.
        let probe = EcgProbe { electrode: [0.0, 0.0, 2.0], dx: 1.0 };
        let t = ecg_cell_term(0.0f64, 0.0, 0.0, 0.0, 1.0, 0.0, 0, 0, 0, &probe);
        assert_eq!(t, 0.25);
        // The mirror image (front moving away) is the negative.
        let t = ecg_cell_term(0.0f64, 0.0, 0.0, 0.0, 0.0, 1.0, 0, 0, 0, &probe);
        assert_eq!(t, -0.25);
        // f32 inputs give the same f64 term as the same values in f64.
        let t32 = ecg_cell_term(0.5f32, 0.25, 0.0, 1.0, 0.0, 0.0, 2, 1, 0, &probe);
        let t64 = ecg_cell_term(0.5f64, 0.25, 0.0, 1.0, 0.0, 0.0, 2, 1, 0, &probe);
        assert_eq!(t32.to_bits(), t64.to_bits());
    }

    #[test]
    fn scale_is_the_volume_over_the_difference_width() {
        assert_eq!(ecg_scale(0.5, 3), 0.125);
        assert_eq!(ecg_scale(0.5, 2), 0.25);
        assert_eq!(ecg_scale(0.5, 1), 0.5);
        assert_eq!(ecg_scale(0.5, 0), 0.0);
    }
}
