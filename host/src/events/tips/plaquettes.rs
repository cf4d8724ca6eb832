//! The charged plaquettes of a grid: every plaquette where the phase of
//! `(V(t - tau) - V*, V(t) - V*)` winds, found on the host with the
//! kernels' per-plaquette routine, and why a search is refused.

use kernels_gpu::GridDims;
use kernels_gpu::tips::{Singularity, plaquette_at, plaquette_axes};
use rayon::prelude::*;
use thiserror::Error;

use crate::scalar::Scalar;

/// Why a search for phase singularities was refused; each message names the fix.
#[derive(Debug, Error, PartialEq)]
pub enum TipsError {
    #[error(
        "spiral tips need a sheet (exactly two axes of more than one cell), and the grid is {nx}x{ny}x{nz}; \
         use filaments for a 3D grid"
    )]
    NotASheet { nx: u32, ny: u32, nz: u32 },
    #[error(
        "filaments need a 3D grid (three axes of more than one cell), and the grid is {nx}x{ny}x{nz}; \
         use tips for a sheet"
    )]
    NotAVolume { nx: u32, ny: u32, nz: u32 },
    #[error(
        "phase singularities need a sheet or a volume, and the {nx}x{ny}x{nz} grid is a cable or a single \
         cell, where no wave can rotate"
    )]
    NoPlane { nx: u32, ny: u32, nz: u32 },
    #[error(
        "the phase level V* = {v_star} is not a finite number; give a value inside the action potential's \
         range, e.g. the model's activation threshold"
    )]
    BadLevel { v_star: f64 },
}

/// A plaquette with a nonzero charge, found by [`charged_plaquettes`] or
/// by a GPU kernel calling the same
/// [`plaquette_singularity`](kernels_gpu::tips::plaquette_singularity).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChargedPlaquette {
    /// The axis it is normal to (0 = x, 1 = y, 2 = z). Its first and
    /// second axes are the next two, cyclically ([`plaquette_axes`]).
    pub normal: u8,
    /// Its corner (0, 0), the cell of lowest coordinates.
    pub base: [u32; 3],
    /// Charge and position as the kernel computes them.
    pub singularity: Singularity,
}

impl ChargedPlaquette {
    /// The singularity's position in cells.
    pub fn position_cells(&self) -> [f64; 3] {
        let (p, q) = plaquette_axes(u32::from(self.normal));
        let mut x = self.base.map(f64::from);
        x[p] += self.singularity.s;
        x[q] += self.singularity.t;
        x
    }
}

/// Every charged plaquette of the grid, from V(t) (`now`) and V(t - tau)
/// (`prev`), both row-major: those normal to each axis whose two in-plane
/// axes have more than one cell (a sheet has one such family, a volume
/// three, a cable none). Ordered by normal (x, y, z), then by base cell in
/// row-major order.
///
/// # Panics
/// If a field does not hold `dims.cells()` values (a programming error).
pub fn charged_plaquettes<T: Scalar>(
    now: &[T],
    prev: &[T],
    dims: GridDims,
    v_star: f64,
) -> Vec<ChargedPlaquette> {
    assert_eq!(now.len(), dims.cells(), "V(t) has one value per cell");
    assert_eq!(prev.len(), dims.cells(), "V(t - tau) has one value per cell");
    let mut found = Vec::new();
    for normal in 0..3u8 {
        let per_slice: Vec<Vec<ChargedPlaquette>> = (0..dims.nz)
            .into_par_iter()
            .map(|z| {
                let mut out = Vec::new();
                for y in 0..dims.ny {
                    for x in 0..dims.nx {
                        let base = [x, y, z];
                        // SAFETY: both fields hold dims.cells() values (asserted)
                        // and (x, y, z) is a cell of dims.
                        let sing = unsafe {
                            plaquette_at(now.as_ptr(), prev.as_ptr(), dims, u32::from(normal), base, v_star)
                        };
                        if let Some(singularity) = sing.filter(|s| s.charge != 0) {
                            out.push(ChargedPlaquette { normal, base, singularity });
                        }
                    }
                }
                out
            })
            .collect();
        found.extend(per_slice.into_iter().flatten());
    }
    found
}

/// Refuses a level that is not a number.
pub(super) fn check_level(v_star: f64) -> Result<(), TipsError> {
    if v_star.is_finite() { Ok(()) } else { Err(TipsError::BadLevel { v_star }) }
}
