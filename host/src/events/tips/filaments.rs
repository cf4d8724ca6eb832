//! The scroll-wave filaments of a volume: charged plaquettes linked
//! through the cubes they bound, each connected set one filament, its
//! points in order along it.

use std::collections::HashMap;

use kernels_gpu::GridDims;

use super::plaquettes::{ChargedPlaquette, TipsError, charged_plaquettes, check_level};
use crate::scalar::Scalar;

/// A point of a filament: one charged plaquette.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FilamentPoint {
    /// The axis the plaquette is normal to (0 = x, 1 = y, 2 = z).
    pub normal: u8,
    /// Its charge: the sign of the filament's tangent along `normal`.
    pub charge: i32,
    pub position_cells: [f64; 3],
    pub position_mm: [f64; 3],
}

/// A scroll-wave filament of one sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Filament {
    /// 0, 1, ... in the order of each filament's first plaquette.
    pub id: usize,
    /// In order along the filament.
    pub points: Vec<FilamentPoint>,
    /// Whether it is a ring (every point linked to two others); an open
    /// filament ends on the grid's boundary, or where the phase breaks.
    pub closed: bool,
}

/// Links charged plaquettes of a volume into filaments (see the module
/// docs). The input may come in any order (a kernel appends in no fixed
/// order); it is sorted first, so the result does not depend on it.
pub fn link_filaments(plaquettes: &[ChargedPlaquette], dims: GridDims, dx: f64) -> Vec<Filament> {
    let mut sorted = plaquettes.to_vec();
    let key = |p: &ChargedPlaquette| (p.normal, dims.index(p.base[0], p.base[1], p.base[2]));
    sorted.sort_by_key(key);
    sorted.dedup_by_key(|p| key(p));
    let index: HashMap<(u8, usize), usize> = sorted.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    let n = [dims.nx, dims.ny, dims.nz];
    // Neighbours: the other charged faces of the (one or two) cubes a
    // plaquette bounds.
    let links: Vec<Vec<usize>> = sorted
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let a = p.normal as usize;
            let mut cubes = Vec::with_capacity(2);
            if p.base[a] + 1 < n[a] {
                cubes.push(p.base);
            }
            if p.base[a] > 0 {
                let mut c = p.base;
                c[a] -= 1;
                cubes.push(c);
            }
            let mut out = Vec::new();
            for c in cubes {
                for m in 0..3u8 {
                    for lift in 0..2 {
                        let mut face = c;
                        face[m as usize] += lift;
                        let k = (m, dims.index(face[0], face[1], face[2]));
                        if let Some(&j) = index.get(&k)
                            && j != i
                            && !out.contains(&j)
                        {
                            out.push(j);
                        }
                    }
                }
            }
            out.sort_unstable();
            out
        })
        .collect();
    let mut seen = vec![false; sorted.len()];
    let mut walked = vec![false; sorted.len()];
    let mut filaments = Vec::new();
    for first in 0..sorted.len() {
        if seen[first] {
            continue;
        }
        // The component, to find where to start walking: an end if any.
        let mut members = vec![first];
        seen[first] = true;
        let mut k = 0;
        while k < members.len() {
            for &j in &links[members[k]] {
                if !seen[j] {
                    seen[j] = true;
                    members.push(j);
                }
            }
            k += 1;
        }
        members.sort_unstable();
        let start = members.iter().copied().find(|&m| links[m].len() < 2).unwrap_or(first);
        let closed = members.iter().all(|&m| links[m].len() >= 2);
        // Depth-first walk, lower neighbours first: along a chain or ring
        // it visits the points in order.
        let mut order = Vec::with_capacity(members.len());
        let mut stack = vec![start];
        while let Some(m) = stack.pop() {
            if walked[m] {
                continue;
            }
            walked[m] = true;
            order.push(m);
            stack.extend(links[m].iter().rev().filter(|&&j| !walked[j]));
        }
        let points = order
            .into_iter()
            .map(|m| {
                let p = &sorted[m];
                let cells = p.position_cells();
                FilamentPoint {
                    normal: p.normal,
                    charge: p.singularity.charge,
                    position_cells: cells,
                    position_mm: cells.map(|c| c * dx),
                }
            })
            .collect();
        filaments.push(Filament { id: filaments.len(), points, closed });
    }
    filaments
}

/// The filaments of a volume, from V(t) and V(t - tau) at the level `v_star`.
pub fn find_filaments<T: Scalar>(
    now: &[T],
    prev: &[T],
    dims: GridDims,
    dx: f64,
    v_star: f64,
) -> Result<Vec<Filament>, TipsError> {
    if dims.axes() != 3 {
        return Err(TipsError::NotAVolume { nx: dims.nx, ny: dims.ny, nz: dims.nz });
    }
    check_level(v_star)?;
    Ok(link_filaments(&charged_plaquettes(now, prev, dims, v_star), dims, dx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::tips::testing::{fields, spiral};

    #[test]
    fn a_straight_scroll_wave_has_one_filament_along_z() {
        let dims = GridDims::new(16, 14, 9);
        let (now, prev) = fields(dims, 0.8, spiral(6.4, 8.7, 1.0));
        let filaments = find_filaments(&now, &prev, dims, 0.5, 0.0).unwrap();
        assert_eq!(filaments.len(), 1, "{filaments:?}");
        let f = &filaments[0];
        assert!(!f.closed);
        assert_eq!(f.points.len(), 9);
        for (k, p) in f.points.iter().enumerate() {
            // Normal to z, along +z (counterclockwise seen from +z), in order.
            assert_eq!((p.normal, p.charge), (2, 1));
            let [x, y, z] = p.position_cells;
            assert!((x - 6.4).abs() < 0.25 && (y - 8.7).abs() < 0.25 && z == k as f64, "{p:?}");
        }
        // The same from any order of the plaquettes.
        let mut plaquettes = charged_plaquettes(&now, &prev, dims, 0.0);
        plaquettes.reverse();
        assert_eq!(link_filaments(&plaquettes, dims, 0.5), filaments);
    }

    #[test]
    fn a_scroll_ring_is_one_closed_filament() {
        // Phase turning about the circle rho = 6 around (12, 12) in z = 11.5.
        let dims = GridDims::new(25, 25, 24);
        let (c, r0, z0) = (12.1, 6.0, 11.5);
        let (now, prev) = fields(dims, 0.8, |x, y, z, wt| {
            let rho = (x - c).hypot(y - c);
            ((z - z0).atan2(rho - r0) - wt).cos()
        });
        let filaments = find_filaments(&now, &prev, dims, 1.0, 0.0).unwrap();
        assert_eq!(filaments.len(), 1, "{} filaments", filaments.len());
        let f = &filaments[0];
        assert!(f.closed);
        // Around 2 pi 6 = 38 cells of arc, each crossing one or two faces.
        assert!((30..100).contains(&f.points.len()), "{}", f.points.len());
        for p in &f.points {
            let [x, y, z] = p.position_cells;
            let rho = (x - c).hypot(y - c);
            assert!((rho - r0).abs() < 1.0 && (z - z0).abs() < 1.0, "{p:?}");
        }
        // Walked in order: consecutive points are neighbours.
        for w in f.points.windows(2) {
            let d: f64 = (0..3).map(|a| (w[0].position_cells[a] - w[1].position_cells[a]).powi(2)).sum();
            assert!(d.sqrt() < 2.0, "{w:?}");
        }
    }
}
