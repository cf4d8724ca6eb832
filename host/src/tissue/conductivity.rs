//! The diffusion tensor of a cell from its fibre direction.
//!
//! With a fibre direction f alone (transversely isotropic tissue):
//!
//! ```text
//! D = D_cross I + (D_fibre - D_cross) f f^T
//! ```
//!
//! and with a sheet direction s as well (orthotropic tissue: D_fibre
//! along f, D_sheet along s, D_cross along the sheet normal f x s):
//!
//! ```text
//! D = D_cross I + (D_fibre - D_cross) f f^T + (D_sheet - D_cross) s s^T
//! ```
//!
//! f is normalised and s made orthogonal to f and normalised (one
//! Gram-Schmidt step), so files need not hold exact unit vectors.

use serde::{Deserialize, Serialize};

use super::error::TissueError;

/// Diffusion coefficients along the fibre, across it and (orthotropic
/// tissue) along the sheet, in the model's space unit^2 per time unit
/// (mm^2/ms for the ionic models: sigma / (chi Cm)).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Conductivity {
    pub fibre: f64,
    pub cross: f64,
    /// Along the sheet direction; `None`: transversely isotropic (= cross).
    pub sheet: Option<f64>,
}

impl Conductivity {
    /// The same coefficient in every direction.
    pub const fn isotropic(d: f64) -> Self {
        Self { fibre: d, cross: d, sheet: None }
    }

    pub fn check(&self) -> Result<(), TissueError> {
        for (name, value) in
            [("d_fibre", Some(self.fibre)), ("d_cross", Some(self.cross)), ("d_sheet", self.sheet)]
        {
            if let Some(value) = value
                && !(value > 0.0 && value.is_finite())
            {
                return Err(TissueError::NotPositive { name, value });
            }
        }
        Ok(())
    }

    /// The largest coefficient (the run's D in summaries).
    pub fn largest(&self) -> f64 {
        self.fibre.max(self.cross).max(self.sheet.unwrap_or(0.0))
    }

    /// The tensor for fibre `f` and sheet `s` (both already unit and
    /// orthogonal, see [`unit_frame`]); symmetric, row-major.
    pub fn tensor(&self, f: [f64; 3], s: Option<[f64; 3]>) -> [[f64; 3]; 3] {
        core::array::from_fn(|a| {
            core::array::from_fn(|b| {
                let mut d = if a == b { self.cross } else { 0.0 };
                d += (self.fibre - self.cross) * f[a] * f[b];
                if let (Some(s), Some(ds)) = (s, self.sheet) {
                    d += (ds - self.cross) * s[a] * s[b];
                }
                d
            })
        })
    }
}

/// The fibre (and sheet) directions of the tissue.
#[derive(Clone, Debug, PartialEq)]
pub enum Fibres {
    /// One direction everywhere.
    Constant { fibre: [f64; 3], sheet: Option<[f64; 3]> },
    /// One per cell, row-major (cells outside the tissue are not read).
    PerCell { fibre: Vec<[f32; 3]>, sheet: Option<Vec<[f32; 3]>> },
}

impl Fibres {
    /// Fibres along x, no sheet.
    pub const ALONG_X: Fibres = Fibres::Constant { fibre: [1.0, 0.0, 0.0], sheet: None };

    pub fn has_sheet(&self) -> bool {
        match self {
            Fibres::Constant { sheet, .. } => sheet.is_some(),
            Fibres::PerCell { sheet, .. } => sheet.is_some(),
        }
    }

    /// The raw directions of cell `i`.
    pub fn at(&self, i: usize) -> ([f64; 3], Option<[f64; 3]>) {
        let wide = |v: [f32; 3]| v.map(f64::from);
        match self {
            Fibres::Constant { fibre, sheet } => (*fibre, *sheet),
            Fibres::PerCell { fibre, sheet } => (wide(fibre[i]), sheet.as_ref().map(|s| wide(s[i]))),
        }
    }
}

fn norm(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// A cell's directions made usable: unit f, and s orthogonal to f and unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Frame {
    Unit {
        fibre: [f64; 3],
        sheet: Option<[f64; 3]>,
    },
    /// f is zero or not finite.
    NoFibre,
    /// s is zero, not finite or parallel to f.
    BadSheet,
}

/// The unit fibre and (if given) the unit sheet direction made orthogonal
/// to it by one Gram-Schmidt step.
pub fn unit_frame(f: [f64; 3], s: Option<[f64; 3]>) -> Frame {
    let nf = norm(f);
    if !(nf > 0.0 && nf.is_finite()) {
        return Frame::NoFibre;
    }
    let fibre = f.map(|x| x / nf);
    let Some(s) = s else { return Frame::Unit { fibre, sheet: None } };
    let dot = s[0] * fibre[0] + s[1] * fibre[1] + s[2] * fibre[2];
    let s = [s[0] - dot * fibre[0], s[1] - dot * fibre[1], s[2] - dot * fibre[2]];
    let ns = norm(s);
    if !(ns > 1e-6 && ns.is_finite()) {
        return Frame::BadSheet;
    }
    Frame::Unit { fibre, sheet: Some(s.map(|x| x / ns)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_has_the_coefficients_along_its_axes() {
        let c = Conductivity { fibre: 3.0, cross: 0.5, sheet: Some(1.0) };
        let r = std::f64::consts::FRAC_1_SQRT_2;
        let Frame::Unit { fibre: f, sheet: s } = unit_frame([2.0, 2.0, 0.0], Some([-0.5, 1.5, 0.0])) else {
            panic!("a valid frame")
        };
        let d = c.tensor(f, s);
        let apply = |v: [f64; 3]| -> [f64; 3] {
            core::array::from_fn(|a| d[a][0] * v[0] + d[a][1] * v[1] + d[a][2] * v[2])
        };
        let along = apply([r, r, 0.0]);
        for a in 0..3 {
            assert!((along[a] - 3.0 * [r, r, 0.0][a]).abs() < 1e-12);
        }
        let sheet = apply([-r, r, 0.0]);
        assert!((sheet[0] + r).abs() < 1e-12 && (sheet[1] - r).abs() < 1e-12);
        let normal = apply([0.0, 0.0, 1.0]);
        assert!((normal[2] - 0.5).abs() < 1e-12);
        for (a, row) in d.iter().enumerate() {
            for (b, x) in row.iter().enumerate() {
                assert_eq!(*x, d[b][a], "symmetric");
            }
        }
        let iso = Conductivity::isotropic(2.0).tensor([1.0, 0.0, 0.0], None);
        assert_eq!(iso, [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]);
    }

    #[test]
    fn frames_refuse_zero_fibres_and_parallel_sheets() {
        assert_eq!(unit_frame([0.0; 3], None), Frame::NoFibre);
        assert_eq!(unit_frame([f64::NAN, 1.0, 0.0], None), Frame::NoFibre);
        assert_eq!(unit_frame([1.0, 0.0, 0.0], Some([2.0, 0.0, 0.0])), Frame::BadSheet);
        let c = Conductivity { fibre: 1.0, cross: -1.0, sheet: None };
        assert_eq!(c.check(), Err(TissueError::NotPositive { name: "d_cross", value: -1.0 }));
    }
}
