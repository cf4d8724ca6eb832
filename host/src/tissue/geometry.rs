//! Built-in geometries with their fibres, for tests and examples:
//!
//! - [`slab`]: the whole box, fibres in the xy plane turning through the
//!   wall (along z) from one angle to another (-60 deg to +60 deg, the
//!   transmural rotation of ventricular myocardium; Streeter et al., Circ
//!   Res 24:339, 1969);
//! - [`shell`]: a thick ellipsoidal shell inscribed in the box, long axis
//!   z, with helical fibres turning through the wall the same way, from
//!   the epicardium (outer surface) to the endocardium (inner);
//! - [`cylinder`]: a cylinder along z inscribed in the box with a
//!   concentric hole, an obstacle a spiral wave can anchor to.
//!
//! Sizes are in the model's space unit; cell (i, j, k) is centred at
//! (i, j, k) dx, like the cells of the run.

use kernels_gpu::GridDims;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::conductivity::{Conductivity, Fibres};
use super::description::Tissue;

/// A generated geometry, as a configuration names it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "geometry")]
pub enum Generator {
    /// The whole box; fibres rotate through z from `angles_deg[0]` (z = 0)
    /// to `angles_deg[1]` (top), measured from x towards y.
    Slab { angles_deg: [f64; 2] },
    /// An ellipsoidal shell inscribed in the box, wall `wall` thick;
    /// helical fibres from `angles_deg[0]` (epicardium) to `angles_deg[1]`
    /// (endocardium), measured from the circumferential direction towards
    /// the long axis.
    Shell { wall: f64, angles_deg: [f64; 2] },
    /// A cylinder along z inscribed in the box with a concentric hole of
    /// radius `hole`; fibres `fibre` everywhere.
    Cylinder { hole: f64, fibre: [f64; 3] },
}

/// Why a generator's sizes or angles were refused; each message names the
/// key and its value.
#[derive(Debug, Error, PartialEq)]
pub enum GeometryError {
    #[error(
        "[tissue] angles_deg = [{}, {}]: give two finite angles in degrees, from -{MAX_ANGLE_DEG} to \
         {MAX_ANGLE_DEG} (the usual [-60, 60])",
        num(.0[0]),
        num(.0[1])
    )]
    Angles([f64; 2]),
    #[error(
        "[tissue] wall = {}: the shell's wall thickness must be a positive number of space units, at \
         most the shell's largest semi-axis {} on this grid",
        num(*wall),
        num(*largest)
    )]
    Wall { wall: f64, largest: f64 },
    #[error(
        "[tissue] hole = {}: the hole's radius must be a number from 0 (no hole) to below the \
         cylinder's radius {} on this grid (space units), or no tissue is left",
        num(*hole),
        num(*radius)
    )]
    Hole { hole: f64, radius: f64 },
}

/// `x` for a message: up to six decimals, or scientific notation far
/// from 1 (1e30 rather than 31 digits).
fn num(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-4..1e7).contains(&x.abs()) {
        return format!("{x:e}");
    }
    let s = format!("{x:.6}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { &s };
    s.to_string()
}

/// The largest fibre angle taken, degrees: a full turn either way.
pub const MAX_ANGLE_DEG: f64 = 360.0;

impl Generator {
    /// Refuses sizes and angles that leave no tissue or mean nothing on
    /// `dims` with spacing `dx`, naming the key, before the tissue is made
    /// (which would otherwise be refused as empty, or built from NaN).
    pub fn check(&self, dims: GridDims, dx: f64) -> Result<(), GeometryError> {
        let angles_ok = |a: [f64; 2]| a.iter().all(|x| x.is_finite() && x.abs() <= MAX_ANGLE_DEG);
        match *self {
            Generator::Slab { angles_deg } if !angles_ok(angles_deg) => {
                Err(GeometryError::Angles(angles_deg))
            }
            Generator::Shell { angles_deg, .. } if !angles_ok(angles_deg) => {
                Err(GeometryError::Angles(angles_deg))
            }
            Generator::Shell { wall, .. } => {
                let largest = [dims.nx, dims.ny, dims.nz].map(|n| ((n as f64 - 1.0) / 2.0) * dx);
                let largest = largest.into_iter().fold(0.0, f64::max);
                if wall > 0.0 && wall <= largest {
                    Ok(())
                } else {
                    Err(GeometryError::Wall { wall, largest })
                }
            }
            Generator::Cylinder { hole, .. } => {
                let radius = ((dims.nx.min(dims.ny) as f64 - 1.0) / 2.0) * dx;
                if (0.0..radius).contains(&hole) { Ok(()) } else { Err(GeometryError::Hole { hole, radius }) }
            }
            Generator::Slab { .. } => Ok(()),
        }
    }

    /// The tissue of this geometry on `dims` with spacing `dx`.
    pub fn tissue(&self, dims: GridDims, dx: f64, conductivity: Conductivity) -> Tissue {
        match *self {
            Generator::Slab { angles_deg } => slab(dims, dx, angles_deg, conductivity),
            Generator::Shell { wall, angles_deg } => shell(dims, dx, wall, angles_deg, conductivity),
            Generator::Cylinder { hole, fibre } => cylinder(dims, dx, hole, fibre, conductivity),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Generator::Slab { .. } => "slab",
            Generator::Shell { .. } => "shell",
            Generator::Cylinder { .. } => "cylinder",
        }
    }
}

/// Fraction of the way from the first to the last slice (0 for one slice).
fn depth(z: u32, nz: u32) -> f64 {
    if nz > 1 { z as f64 / (nz - 1) as f64 } else { 0.0 }
}

fn lerp(angles_deg: [f64; 2], t: f64) -> f64 {
    (angles_deg[0] + (angles_deg[1] - angles_deg[0]) * t).to_radians()
}

/// Per-cell fibres from `f(x, y, z)`.
fn fibres(dims: GridDims, f: impl Fn(u32, u32, u32) -> [f64; 3]) -> Fibres {
    let mut fibre = Vec::with_capacity(dims.cells());
    for z in 0..dims.nz {
        for y in 0..dims.ny {
            for x in 0..dims.nx {
                fibre.push(f(x, y, z).map(|c| c as f32));
            }
        }
    }
    Fibres::PerCell { fibre, sheet: None }
}

/// The box with fibres turning through z.
pub fn slab(dims: GridDims, dx: f64, angles_deg: [f64; 2], conductivity: Conductivity) -> Tissue {
    let fibres = fibres(dims, |_, _, z| {
        let a = lerp(angles_deg, depth(z, dims.nz));
        [a.cos(), a.sin(), 0.0]
    });
    Tissue::box_of(dims, dx, fibres, conductivity)
}

/// Centre of the box and the position of cell (x, y, z) from it.
fn from_centre(dims: GridDims, dx: f64, (x, y, z): (u32, u32, u32)) -> [f64; 3] {
    let c = |i: u32, n: u32| (i as f64 - (n as f64 - 1.0) / 2.0) * dx;
    [c(x, dims.nx), c(y, dims.ny), c(z, dims.nz)]
}

/// A thick ellipsoidal shell with helical fibres.
pub fn shell(dims: GridDims, dx: f64, wall: f64, angles_deg: [f64; 2], conductivity: Conductivity) -> Tissue {
    // Outer semi-axes: the box's half-extents less half a cell.
    let outer = [dims.nx, dims.ny, dims.nz].map(|n| ((n as f64 - 1.0) / 2.0) * dx);
    let inner = outer.map(|a| a - wall);
    // The (outer-normalised) radius of the inner surface along the
    // shortest axis: depth 0 at the outer surface, 1 at the inner one.
    let short = (0..3).min_by(|&a, &b| outer[a].total_cmp(&outer[b])).unwrap_or(0);
    let r_inner = inner[short] / outer[short];
    let mut labels = vec![0u8; dims.cells()];
    let radius = |p: [f64; 3], axes: [f64; 3]| {
        (0..3)
            .map(|a| if axes[a] > 0.0 { (p[a] / axes[a]).powi(2) } else { f64::INFINITY })
            .sum::<f64>()
            .sqrt()
    };
    let mut fibre = Vec::with_capacity(dims.cells());
    for z in 0..dims.nz {
        for y in 0..dims.ny {
            for x in 0..dims.nx {
                let p = from_centre(dims, dx, (x, y, z));
                let ro = radius(p, outer);
                let inside_inner = inner.iter().all(|&a| a > 0.0) && radius(p, inner) < 1.0;
                let i = dims.index(x, y, z);
                if ro <= 1.0 && !inside_inner {
                    labels[i] = 1;
                }
                // Transmural depth from the outer radius (0 epi .. 1 endo).
                let t = if r_inner < 1.0 { ((1.0 - ro) / (1.0 - r_inner)).clamp(0.0, 1.0) } else { 0.0 };
                let a = lerp(angles_deg, t);
                // Circumferential direction around z, and the direction
                // along the surface in the meridian plane.
                let rho = (p[0] * p[0] + p[1] * p[1]).sqrt();
                let circ = if rho > 1e-9 { [-p[1] / rho, p[0] / rho, 0.0] } else { [1.0, 0.0, 0.0] };
                let normal = [0, 1, 2].map(|k| p[k] / (outer[k] * outer[k]));
                let long = cross(normal, circ);
                let nl = (long[0] * long[0] + long[1] * long[1] + long[2] * long[2]).sqrt();
                let long = if nl > 1e-12 { long.map(|c| c / nl) } else { [0.0, 0.0, 1.0] };
                let f = [0, 1, 2].map(|k| a.cos() * circ[k] + a.sin() * long[k]);
                fibre.push(f.map(|c| c as f32));
            }
        }
    }
    Tissue {
        dims,
        dx,
        labels,
        fibres: Fibres::PerCell { fibre, sheet: None },
        conductivity,
        regions: Vec::new(),
    }
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// A cylinder along z with a concentric hole.
pub fn cylinder(dims: GridDims, dx: f64, hole: f64, fibre: [f64; 3], conductivity: Conductivity) -> Tissue {
    let outer = ((dims.nx.min(dims.ny) as f64 - 1.0) / 2.0) * dx;
    let mut labels = vec![0u8; dims.cells()];
    for z in 0..dims.nz {
        for y in 0..dims.ny {
            for x in 0..dims.nx {
                let p = from_centre(dims, dx, (x, y, z));
                let rho = (p[0] * p[0] + p[1] * p[1]).sqrt();
                if rho <= outer && rho >= hole {
                    labels[dims.index(x, y, z)] = 1;
                }
            }
        }
    }
    Tissue {
        dims,
        dx,
        labels,
        fibres: Fibres::Constant { fibre, sheet: None },
        conductivity,
        regions: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fibre_at(t: &Tissue, x: u32, y: u32, z: u32) -> [f64; 3] {
        t.fibres.at(t.dims.index(x, y, z)).0
    }

    #[test]
    fn slab_fibres_turn_from_minus_60_to_plus_60_degrees() {
        let t = slab(GridDims::new(4, 3, 5), 0.5, [-60.0, 60.0], Conductivity::isotropic(1.0));
        assert_eq!(t.tissue_cells(), 60);
        let angle = |z| {
            let f = fibre_at(&t, 1, 1, z);
            f[1].atan2(f[0]).to_degrees()
        };
        assert!((angle(0) + 60.0).abs() < 1e-4 && (angle(4) - 60.0).abs() < 1e-4 && angle(2).abs() < 1e-4);
    }

    #[test]
    fn shell_is_hollow_with_helical_fibres() {
        let dims = GridDims::new(41, 41, 61);
        let t = shell(dims, 0.5, 3.0, [-60.0, 60.0], Conductivity::isotropic(1.0));
        let n = t.tissue_cells();
        assert!(n > 0 && n < dims.cells() / 2, "{n}");
        assert_eq!(t.labels[dims.index(20, 20, 30)], 0, "hollow");
        assert_eq!(t.labels[dims.index(0, 0, 0)], 0, "corners outside");
        assert_eq!(t.labels[dims.index(40, 20, 30)], 1, "the equator's outer surface");
        // On the equator at +x the circumferential direction is +y, the
        // meridian direction +-z: the epicardial fibre is 60 degrees off y.
        let f = fibre_at(&t, 40, 20, 30);
        assert!((f[1].abs() - 0.5).abs() < 1e-3 && (f[2].abs() - 0.75f64.sqrt()).abs() < 1e-3, "{f:?}");
        // Deeper in the wall the angle changes sign.
        let g = fibre_at(&t, 35, 20, 30);
        assert!(f[2] * g[2] < 0.0, "{f:?} {g:?}");
    }

    #[test]
    fn sizes_and_angles_that_leave_no_tissue_are_refused_by_name() {
        let dims = GridDims::new(21, 21, 31);
        let shell = |wall| Generator::Shell { wall, angles_deg: [-60.0, 60.0] };
        assert_eq!(shell(3.0).check(dims, 1.0), Ok(()));
        for wall in [-1.0, 0.0, f64::NAN, f64::INFINITY, 16.0] {
            let e = shell(wall).check(dims, 1.0).unwrap_err();
            assert!(matches!(e, GeometryError::Wall { largest, .. } if largest == 15.0), "{e:?}");
            assert!(e.to_string().contains(&format!("wall = {}", num(wall))), "{e}");
        }
        let cylinder = |hole| Generator::Cylinder { hole, fibre: [1.0, 0.0, 0.0] };
        assert_eq!(cylinder(0.0).check(dims, 1.0), Ok(()));
        assert_eq!(cylinder(9.5).check(dims, 1.0), Ok(()));
        for hole in [-1.0, f64::NAN, 10.0, 1e30] {
            let e = cylinder(hole).check(dims, 1.0).unwrap_err().to_string();
            assert!(e.contains(&format!("hole = {}", num(hole))) && e.contains("radius 10"), "{e}");
        }
        for angles_deg in [[f64::NAN, 0.0], [0.0, 1e30], [-361.0, 0.0]] {
            let e = Generator::Slab { angles_deg }.check(dims, 1.0).unwrap_err();
            assert!(matches!(e, GeometryError::Angles(_)), "{e:?}");
        }
        assert_eq!(Generator::Slab { angles_deg: [-360.0, 360.0] }.check(dims, 1.0), Ok(()));
    }

    #[test]
    fn cylinder_has_a_hole() {
        let dims = GridDims::new(21, 21, 3);
        let t = cylinder(dims, 1.0, 3.0, [1.0, 0.0, 0.0], Conductivity::isotropic(1.0));
        assert_eq!(t.labels[dims.index(10, 10, 1)], 0);
        assert_eq!(t.labels[dims.index(10, 4, 1)], 1);
        assert_eq!(t.labels[dims.index(0, 0, 1)], 0);
        assert_eq!(t.labels[dims.index(20, 10, 0)], 1);
    }
}
