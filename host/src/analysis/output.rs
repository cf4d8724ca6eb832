//! Writing an analysis's files: float32 `.npy` maps, one `.vti` of them
//! all, a mid-plane picture and a JSON summary, each written atomically
//! (under a `.partial` name, then renamed), so a failed analysis leaves no
//! half-written file.

use std::path::{Path, PathBuf};

use ndarray::Array3;

use super::error::{AnalysisError, writing};
use crate::io::atomic::{write_atomic_with, write_json_atomic};
use crate::io::image::midplanes;
use crate::io::npy;
use crate::io::vti::{self, VtiArray};

/// A map of the grid to write, in f32 (as the run's own maps).
pub struct MapField {
    /// File stem of the `.npy` ("cv").
    pub file: String,
    /// Array name in the `.vti`, with its units ("cv_mm_per_ms").
    pub vti_name: String,
    pub values: Vec<f32>,
}

impl MapField {
    pub fn new(file: &str, vti_name: &str, values: &[f64]) -> Self {
        Self {
            file: file.into(),
            vti_name: vti_name.into(),
            values: values.iter().map(|&v| v as f32).collect(),
        }
    }
}

/// The directory an analysis writes into, and the files written so far.
pub struct AnalysisOut {
    pub dir: PathBuf,
    pub files: Vec<String>,
}

impl AnalysisOut {
    /// Creates `dir` if needed.
    pub fn create(dir: &Path) -> Result<Self, AnalysisError> {
        std::fs::create_dir_all(dir).map_err(writing(dir))?;
        Ok(Self { dir: dir.to_path_buf(), files: Vec::new() })
    }

    fn path(&mut self, name: &str) -> PathBuf {
        self.files.push(name.to_string());
        self.dir.join(name)
    }

    /// Writes each map as `FILE.npy`, shape (nz, ny, nx), and all of them
    /// as the arrays of `{vti}.vti`, spacing `dx`.
    pub fn maps(
        &mut self,
        shape: [usize; 3],
        dx: f64,
        maps: &[MapField],
        vti: &str,
    ) -> Result<(), AnalysisError> {
        for m in maps {
            let path = self.path(&format!("{}.npy", m.file));
            write_atomic_with(&path, |w| npy::write_shaped_to(w, &shape, &m.values))
                .map_err(writing(&path))?;
        }
        let path = self.path(&format!("{vti}.vti"));
        let arrays: Vec<VtiArray> = maps.iter().map(|m| VtiArray::new(&m.vti_name, &m.values)).collect();
        let dims = [shape[2] as u32, shape[1] as u32, shape[0] as u32];
        vti::write(&path, dims, dx, 0.0, &arrays).map_err(writing(&path))
    }

    /// Writes the mid-plane picture of `values` as `{name}.png`, coloured
    /// from `lo` to `hi`.
    pub fn picture(
        &mut self,
        name: &str,
        shape: [usize; 3],
        values: &[f64],
        (lo, hi): (f64, f64),
        title: &str,
        bar: &str,
    ) -> Result<(), AnalysisError> {
        let path = self.path(&format!("{name}.png"));
        let field = Array3::from_shape_vec((shape[0], shape[1], shape[2]), values.to_vec())
            .expect("a field of the grid");
        let img = midplanes(&field, lo, hi, title, bar)
            .map_err(|source| AnalysisError::Draw { path: path.clone(), source })?;
        let png = img.encode_png().map_err(writing(&path))?;
        crate::io::atomic::write_atomic(&path, &png).map_err(writing(&path))
    }

    /// Writes `value` as pretty JSON to `{name}.json`.
    pub fn json<S: serde::Serialize>(&mut self, name: &str, value: &S) -> Result<(), AnalysisError> {
        let path = self.path(&format!("{name}.json"));
        write_json_atomic(&path, value).map_err(writing(&path))
    }
}

/// The `p`-th percentile (0 to 100) of the finite `values`, by linear
/// interpolation between order statistics; NaN when there are none.
pub fn percentile(values: &[f64], p: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    percentile_sorted(&mut v, p)
}

fn percentile_sorted(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let at = p.clamp(0.0, 100.0) / 100.0 * (v.len() - 1) as f64;
    let (i, frac) = (at.floor() as usize, at.fract());
    if i + 1 < v.len() { v[i] + frac * (v[i + 1] - v[i]) } else { v[i] }
}

/// Median, mean and spread of the finite values of a map.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Spread {
    /// Cells with a finite value.
    pub cells: usize,
    pub mean: f64,
    pub median: f64,
    pub p5: f64,
    pub p25: f64,
    pub p75: f64,
    pub p95: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Self {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        let cells = v.len();
        let mean = if cells == 0 { f64::NAN } else { v.iter().sum::<f64>() / cells as f64 };
        let mut p = |q| percentile_sorted(&mut v, q);
        Self { cells, mean, median: p(50.0), p5: p(5.0), p25: p(25.0), p75: p(75.0), p95: p(95.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_skip_missing_values_and_interpolate() {
        let v = [4.0, f64::NAN, 1.0, 3.0, 2.0, f64::INFINITY];
        assert_eq!(percentile(&v, 50.0), 2.5);
        assert_eq!(percentile(&v, 0.0), 1.0);
        assert_eq!(percentile(&v, 100.0), 4.0);
        assert!(percentile(&[f64::NAN], 50.0).is_nan());
        let s = Spread::of(&v);
        assert_eq!((s.cells, s.mean, s.median), (4, 2.5, 2.5));
    }
}
