//! Fibrosis: tissue cells uncoupled from their neighbours, made by a
//! seeded generator and removed from the operator (their label set to 0,
//! so that no weight connects them: collagen does not conduct), never
//! set to a value.
//!
//! Two patterns of the literature: diffuse (interstitial) fibrosis, each
//! tissue cell uncoupled independently with probability `density` (the
//! random model of ten Tusscher & Panfilov 2007, Europace 9:vi38, and of
//! Alonso & Bär 2013), and patchy (structural) fibrosis, elongated
//! obstacles whose long axis follows the local fibre (the compact and
//! patchy patterns of Nguyen et al. 2014 and Kazbanov et al. 2016, Sci
//! Rep 6:20835, where strands of collagen lie along the fibres): ellipsoids
//! `length_mm` along the fibre at their centre and `width_mm` across it,
//! centred on random tissue cells until `density` of the tissue is gone.
//!
//! The generator is SplitMix64 (Steele, Lea & Flood 2014) seeded by
//! `seed`: the same seed, tissue and pattern give the same cells on any
//! machine, so a run can be repeated and its mask written for inspection.

use serde::Serialize;
use thiserror::Error;

use super::description::Tissue;

/// A fibrosis pattern: which tissue cells are uncoupled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fibrosis {
    /// Each tissue cell uncoupled with probability `density`.
    Diffuse { density: f64, seed: u64 },
    /// Elongated patches along the fibres, `length_mm` by `width_mm`,
    /// until a fraction `density` of the tissue cells is uncoupled.
    Patchy { density: f64, length_mm: f64, width_mm: f64, seed: u64 },
}

/// Why a fibrosis pattern was refused; each message names the fix.
#[derive(Debug, Error, PartialEq)]
pub enum FibrosisError {
    #[error("fibrosis density = {0}: give a fraction of the tissue from 0 to 0.95")]
    Density(f64),
    #[error(
        "fibrosis patches of {length_mm} x {width_mm} mm: give a length and a width > 0, the width at most \
         the length (patches are elongated along the fibres)"
    )]
    Patch { length_mm: f64, width_mm: f64 },
}

/// What a pattern did to a tissue.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FibrosisReport {
    /// Tissue cells before.
    pub tissue_cells: usize,
    /// Cells uncoupled.
    pub removed: usize,
    /// Patches placed (0 for diffuse fibrosis).
    pub patches: usize,
}

impl FibrosisReport {
    /// The fraction of the tissue uncoupled.
    pub fn fraction(&self) -> f64 {
        self.removed as f64 / self.tissue_cells.max(1) as f64
    }
}

impl Fibrosis {
    pub fn check(&self) -> Result<(), FibrosisError> {
        let density = match *self {
            Fibrosis::Diffuse { density, .. } => density,
            Fibrosis::Patchy { density, length_mm, width_mm, .. } => {
                let fine = |x: f64| x > 0.0 && x.is_finite();
                if !fine(length_mm) || !fine(width_mm) || width_mm > length_mm {
                    return Err(FibrosisError::Patch { length_mm, width_mm });
                }
                density
            }
        };
        if !(0.0..=0.95).contains(&density) {
            return Err(FibrosisError::Density(density));
        }
        Ok(())
    }

    /// Uncouples the cells of the pattern in `tissue` (labels set to 0).
    ///
    /// # Panics
    /// If the pattern was not [checked](Fibrosis::check).
    pub fn apply(&self, tissue: &mut Tissue) -> FibrosisReport {
        self.check().expect("a checked pattern");
        let cells: Vec<usize> = (0..tissue.labels.len()).filter(|&i| tissue.labels[i] != 0).collect();
        let mut report = FibrosisReport { tissue_cells: cells.len(), removed: 0, patches: 0 };
        match *self {
            Fibrosis::Diffuse { density, seed } => {
                let mut rng = SplitMix64(seed);
                for &i in &cells {
                    if rng.unit() < density {
                        tissue.labels[i] = 0;
                        report.removed += 1;
                    }
                }
            }
            Fibrosis::Patchy { density, length_mm, width_mm, seed } => {
                let mut rng = SplitMix64(seed);
                let target = (density * cells.len() as f64).round() as usize;
                // Each patch removes at least its centre, so this many
                // tries cannot stop a pattern short unless the patches
                // keep landing on cells already removed.
                let mut tries = 0;
                while report.removed < target && tries < 100 * target.max(1) {
                    tries += 1;
                    let centre = cells[(rng.next() % cells.len() as u64) as usize];
                    if tissue.labels[centre] == 0 {
                        continue;
                    }
                    report.removed += patch(tissue, centre, length_mm, width_mm);
                    report.patches += 1;
                }
            }
        }
        report
    }
}

/// Uncouples the tissue cells of the ellipsoid centred on cell `centre`
/// with its long axis along the fibre there; returns how many.
fn patch(tissue: &mut Tissue, centre: usize, length_mm: f64, width_mm: f64) -> usize {
    let d = tissue.dims;
    let (nx, ny) = (d.nx as usize, d.ny as usize);
    let at = |i: usize| [(i % nx) as f64, ((i / nx) % ny) as f64, (i / (nx * ny)) as f64];
    let (fibre, _) = tissue.fibres.at(centre);
    let norm = (fibre[0] * fibre[0] + fibre[1] * fibre[1] + fibre[2] * fibre[2]).sqrt();
    let f = fibre.map(|v| v / norm);
    let (half_long, half_wide) = (0.5 * length_mm / tissue.dx, 0.5 * width_mm / tissue.dx);
    let c = at(centre);
    let reach = half_long.ceil() as i64;
    let span = |axis: usize, n: u32| {
        let lo = (c[axis] as i64 - reach).max(0) as usize;
        let hi = (c[axis] as i64 + reach).min(n as i64 - 1) as usize;
        lo..=hi
    };
    let mut removed = 0;
    for z in span(2, d.nz) {
        for y in span(1, d.ny) {
            for x in span(0, d.nx) {
                let r = [x as f64 - c[0], y as f64 - c[1], z as f64 - c[2]];
                let along = r[0] * f[0] + r[1] * f[1] + r[2] * f[2];
                let across2 = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] - along * along).max(0.0);
                let inside = (along / half_long).powi(2) + across2 / (half_wide * half_wide) <= 1.0;
                let i = (z * ny + y) * nx + x;
                if inside && tissue.labels[i] != 0 {
                    tissue.labels[i] = 0;
                    removed += 1;
                }
            }
        }
    }
    removed
}

/// SplitMix64 (Steele, Lea & Flood 2014): a 64-bit state advanced by
/// the golden gamma, mixed by two xor-shift-multiplies.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in [0, 1) from the top 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use kernels_gpu::GridDims;

    use super::*;
    use crate::tissue::{Conductivity, Fibres};

    fn sheet(n: u32, fibres: Fibres) -> Tissue {
        Tissue::box_of(GridDims::new(n, n, 1), 0.25, fibres, Conductivity::isotropic(0.1))
    }

    #[test]
    fn splitmix_gives_the_published_first_values() {
        // SplitMix64 seeded with 1234567 (the reference implementation's
        // test vector).
        let mut r = SplitMix64(1234567);
        assert_eq!(r.next(), 6457827717110365317);
        assert_eq!(r.next(), 3203168211198807973);
    }

    #[test]
    fn diffuse_fibrosis_takes_its_density_and_its_seed_decides_which_cells() {
        let pattern = Fibrosis::Diffuse { density: 0.3, seed: 7 };
        let mut a = sheet(100, Fibres::ALONG_X);
        let report = pattern.apply(&mut a);
        assert!((report.fraction() - 0.3).abs() < 0.02, "{report:?}");
        assert_eq!(report.removed, a.labels.iter().filter(|&&l| l == 0).count());
        let mut b = sheet(100, Fibres::ALONG_X);
        pattern.apply(&mut b);
        assert_eq!(a.labels, b.labels, "the same seed, the same cells");
        let mut c = sheet(100, Fibres::ALONG_X);
        Fibrosis::Diffuse { density: 0.3, seed: 8 }.apply(&mut c);
        assert_ne!(a.labels, c.labels);
    }

    #[test]
    fn patches_are_elongated_along_the_fibres() {
        // One patch, 5 mm by 1 mm, on a sheet of 0.25 mm cells: about
        // pi/4 * 20 * 4 = 63 cells, 20 along the fibre and 4 across.
        let extent = |fibres: Fibres| {
            let mut t = sheet(60, fibres);
            let centre = 30 * 60 + 30;
            let removed = patch(&mut t, centre, 5.0, 1.0);
            let gone: Vec<(usize, usize)> =
                (0..t.labels.len()).filter(|&i| t.labels[i] == 0).map(|i| (i % 60, i / 60)).collect();
            let span = |f: fn(&(usize, usize)) -> usize| {
                gone.iter().map(f).max().unwrap() - gone.iter().map(f).min().unwrap() + 1
            };
            (removed, span(|c| c.0), span(|c| c.1))
        };
        let (removed, x, y) = extent(Fibres::ALONG_X);
        assert!(
            (55..=75).contains(&removed) && (19..=21).contains(&x) && (3..=5).contains(&y),
            "{removed} {x} {y}"
        );
        let (_, x, y) = extent(Fibres::Constant { fibre: [0.0, 1.0, 0.0], sheet: None });
        assert!(y > 3 * x, "along y: {x} by {y}");
    }

    #[test]
    fn patchy_fibrosis_reaches_its_density_in_patches() {
        let mut t = sheet(120, Fibres::ALONG_X);
        let report = Fibrosis::Patchy { density: 0.2, length_mm: 3.0, width_mm: 0.75, seed: 3 }.apply(&mut t);
        assert!(report.fraction() >= 0.2 && report.fraction() < 0.23, "{report:?}");
        assert!(report.patches > 20 && report.patches < report.removed / 10, "{report:?}");
    }

    #[test]
    fn bad_patterns_are_refused() {
        assert_eq!(Fibrosis::Diffuse { density: 1.2, seed: 0 }.check(), Err(FibrosisError::Density(1.2)));
        let wide = Fibrosis::Patchy { density: 0.1, length_mm: 1.0, width_mm: 2.0, seed: 0 };
        assert!(wide.check().unwrap_err().to_string().contains("width at most the length"));
    }
}
