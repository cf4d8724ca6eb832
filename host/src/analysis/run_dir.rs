//! A finished run's output directory as the analyses read it: the grid,
//! spacing, units and thresholds from `summary.json`, the snapshots from
//! `snapshots.json`, the fields and the activation map from their files.
//! Everything is checked when the directory is opened or a file is read,
//! so an analysis fails before it writes anything.

use std::path::{Path, PathBuf};

use ndarray::Array3;
use serde::Deserialize;

use super::error::{AnalysisError, reading};
use crate::io::bounded;
use crate::io::npy;
use crate::io::snapshots::{INDEX_FILE, SnapshotRecord};
use crate::io::vti;

/// The summary a run writes.
pub const SUMMARY_FILE: &str = "summary.json";
/// The activation map a run writes with `--activation-map`.
pub const ACTIVATION_FILE: &str = "activation.npy";
/// The largest summary or index read (a million snapshots' records).
const MAX_JSON_BYTES: u64 = 256 << 20;

#[derive(Deserialize)]
struct SummaryFile {
    domain: DomainPart,
    #[serde(default)]
    activation: Option<ActivationPart>,
    #[serde(default)]
    saved_variables: Vec<String>,
    #[serde(default)]
    snapshots: Vec<SnapshotRecord>,
    #[serde(default)]
    mesh: Option<serde_json::Value>,
    #[serde(default)]
    status: Option<String>,
}

#[derive(Deserialize)]
struct DomainPart {
    nx: usize,
    ny: usize,
    nz: usize,
    dx: f64,
    dt_ms: f64,
    model: ModelPart,
}

#[derive(Deserialize)]
struct ModelPart {
    name: String,
    time_unit: String,
    space_unit: String,
}

#[derive(Deserialize)]
struct ActivationPart {
    threshold: f64,
    beats: Option<u32>,
}

/// What the analyses need of a run.
#[derive(Clone, Debug)]
pub struct RunOutputs {
    pub dir: PathBuf,
    /// The grid as arrays hold it: (nz, ny, nx).
    pub shape: [usize; 3],
    /// Cell spacing, in the model's space unit.
    pub dx: f64,
    /// Time step, in the model's time unit.
    pub dt: f64,
    pub model: String,
    /// The model's units ("ms", "mm"; "t.u.", "s.u." for its own).
    pub time_unit: String,
    pub space_unit: String,
    /// The activation map's threshold, when the run recorded one.
    pub activation_threshold: Option<f64>,
    /// Beats per cell in per-beat mode (`--beats N`).
    pub beats: Option<u32>,
    /// The variables each snapshot holds.
    pub saved_variables: Vec<String>,
    pub snapshots: Vec<SnapshotRecord>,
    /// "completed", "interrupted", ...
    pub status: String,
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, AnalysisError> {
    let bytes = bounded::read(path, MAX_JSON_BYTES, "a JSON file fibril wrote").map_err(reading(path))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| AnalysisError::Malformed { path: path.to_path_buf(), reason: e.to_string() })
}

impl RunOutputs {
    /// Reads and checks `dir`'s summary and snapshot index.
    pub fn open(dir: &Path) -> Result<Self, AnalysisError> {
        let path = dir.join(SUMMARY_FILE);
        if !path.is_file() {
            return Err(AnalysisError::NotARun { dir: dir.to_path_buf(), file: SUMMARY_FILE });
        }
        let summary: SummaryFile = read_json(&path)?;
        if summary.mesh.as_ref().is_some_and(|m| !m.is_null()) {
            return Err(AnalysisError::Mesh { dir: dir.to_path_buf() });
        }
        let d = &summary.domain;
        let positive = |v: f64| v > 0.0 && v.is_finite();
        if d.nx == 0 || d.ny == 0 || d.nz == 0 || !positive(d.dx) || !positive(d.dt_ms) {
            return Err(AnalysisError::Malformed {
                path,
                reason: format!("grid {}x{}x{} with dx {} and dt {}", d.nx, d.ny, d.nz, d.dx, d.dt_ms),
            });
        }
        // The index is the newest list of snapshots (the summary's is
        // written at the end); a run stopped early may have only the index.
        let index = dir.join(INDEX_FILE);
        let mut snapshots: Vec<SnapshotRecord> =
            if index.is_file() { read_json(&index)? } else { summary.snapshots.clone() };
        snapshots.sort_by(|a, b| a.t_ms.total_cmp(&b.t_ms));
        Ok(Self {
            dir: dir.to_path_buf(),
            shape: [d.nz, d.ny, d.nx],
            dx: d.dx,
            dt: d.dt_ms,
            model: d.model.name.clone(),
            time_unit: d.model.time_unit.clone(),
            space_unit: d.model.space_unit.clone(),
            activation_threshold: summary.activation.as_ref().map(|a| a.threshold),
            beats: summary.activation.as_ref().and_then(|a| a.beats),
            saved_variables: summary.saved_variables,
            snapshots,
            status: summary.status.unwrap_or_else(|| "unknown".into()),
        })
    }

    pub fn cells(&self) -> usize {
        self.shape.iter().product()
    }

    /// The model's description, when this fibril knows the model.
    pub fn model_info(&self) -> Option<&'static kernels_gpu::ModelInfo> {
        crate::models::find(&self.model)
    }

    /// The activation maps, one per beat kept (oldest first; one without
    /// `--beats`), in the model's time unit, NaN where a cell has no such
    /// activation (never activated, or outside the tissue).
    pub fn activation_maps(&self) -> Result<Vec<Array3<f64>>, AnalysisError> {
        let path = self.dir.join(ACTIVATION_FILE);
        if !path.is_file() {
            return Err(AnalysisError::NoActivation { dir: self.dir.clone(), file: ACTIVATION_FILE });
        }
        let header = npy::read_header(&path).map_err(reading(&path))?;
        let grid = &header.shape[header.shape.len().saturating_sub(3)..];
        let beats = match header.shape.len() {
            3 => 1,
            4 => header.shape[0],
            _ => 0,
        };
        if grid != self.shape || beats == 0 {
            return Err(AnalysisError::Shape { path, found: header.shape, expected: self.shape });
        }
        let array = npy::read(&path).map_err(reading(&path))?;
        let cells = self.cells();
        let [nz, ny, nx] = self.shape;
        Ok(array
            .values
            .chunks_exact(cells)
            .map(|beat| Array3::from_shape_vec((nz, ny, nx), beat.to_vec()).expect("one value per cell"))
            .collect())
    }

    /// The saved variable `name`, or the first saved one; an error naming
    /// the saved ones when it is not among them.
    pub fn variable(&self, name: Option<&str>) -> Result<String, AnalysisError> {
        let saved = || self.saved_variables.join(", ");
        match name {
            Some(n) if self.saved_variables.iter().any(|v| v == n) => Ok(n.to_string()),
            Some(n) => Err(AnalysisError::NotSaved { name: n.to_string(), saved: saved() }),
            None => self
                .saved_variables
                .first()
                .cloned()
                .ok_or_else(|| AnalysisError::NotSaved { name: "(any)".into(), saved: "none".into() }),
        }
    }

    /// The snapshots that hold `variable` in a file the analyses read
    /// (`.npy`, else fibril's `.vti`), with that file.
    pub fn snapshot_files(&self, variable: &str) -> Result<Vec<(f64, PathBuf)>, AnalysisError> {
        self.snapshots
            .iter()
            .map(|r| {
                let npy_name = format!("{variable}_{:06}.npy", r.index);
                let file = r
                    .files
                    .iter()
                    .find(|f| **f == npy_name)
                    .or_else(|| r.files.iter().find(|f| f.starts_with("fields_") && f.ends_with(".vti")))
                    .ok_or_else(|| AnalysisError::NoSnapshotFile {
                        index: r.index,
                        t: r.t_ms,
                        variable: variable.to_string(),
                    })?;
                Ok((r.t_ms, self.dir.join(file)))
            })
            .collect()
    }

    /// The field of `variable` in snapshot file `path` (see
    /// [`RunOutputs::snapshot_files`]), checked against the grid.
    pub fn read_field(&self, path: &Path, variable: &str) -> Result<Array3<f64>, AnalysisError> {
        let [nz, ny, nx] = self.shape;
        let values = if path.extension().is_some_and(|e| e == "vti") {
            let image = vti::read(path).map_err(reading(path))?;
            let found = [image.dims[2] as usize, image.dims[1] as usize, image.dims[0] as usize];
            if found != self.shape {
                return Err(AnalysisError::Shape {
                    path: path.into(),
                    found: found.to_vec(),
                    expected: self.shape,
                });
            }
            image.array(variable).map(<[f64]>::to_vec).ok_or_else(|| AnalysisError::Malformed {
                path: path.into(),
                reason: format!("it holds no array {variable:?}"),
            })?
        } else {
            let array = npy::read(path).map_err(reading(path))?;
            if array.shape != self.shape {
                return Err(AnalysisError::Shape {
                    path: path.into(),
                    found: array.shape,
                    expected: self.shape,
                });
            }
            array.values
        };
        Ok(Array3::from_shape_vec((nz, ny, nx), values).expect("checked shape"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::atomic::write_atomic;

    /// A scratch directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fibril-analysis-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A summary of a Karma run on `shape` (nz, ny, nx).
    fn write_summary(dir: &Path, shape: [usize; 3], dx: f64, extra: serde_json::Value) {
        let mut s = serde_json::json!({
            "status": "completed",
            "domain": {"nx": shape[2], "ny": shape[1], "nz": shape[0], "dx": dx, "dt_ms": 0.05,
                       "model": {"name": "karma", "time_unit": "ms", "space_unit": "s.u."}},
            "activation": {"threshold": 1.0, "beats": null},
            "saved_variables": ["U"],
            "snapshots": [],
        });
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        write_atomic(&dir.join(SUMMARY_FILE), &serde_json::to_vec(&s).unwrap()).unwrap();
    }

    #[test]
    fn a_directory_without_a_summary_or_map_is_refused_by_name() {
        let dir = scratch("open");
        let e = RunOutputs::open(&dir).unwrap_err().to_string();
        assert!(e.contains("no summary.json") && e.contains("--out directory of `fibril run`"), "{e}");
        write_summary(&dir, [1, 4, 5], 0.5, serde_json::json!({}));
        let run = RunOutputs::open(&dir).unwrap();
        assert_eq!((run.shape, run.dx, run.activation_threshold), ([1, 4, 5], 0.5, Some(1.0)));
        let e = run.activation_maps().unwrap_err().to_string();
        assert!(e.contains("--activation-map"), "{e}");
        // A map of another grid is not this run's.
        let values = vec![0.0f32; 4 * 6];
        write_atomic(&dir.join(ACTIVATION_FILE), &npy::encode_shaped(&[1, 4, 6], &values)).unwrap();
        let e = run.activation_maps().unwrap_err().to_string();
        assert!(e.contains("[1, 4, 6]") && e.contains("[1, 4, 5]"), "{e}");
        let e = run.variable(Some("v")).unwrap_err().to_string();
        assert!(e.contains("\"v\"") && e.contains("hold U") && e.contains("--save v"), "{e}");
        write_summary(&dir, [1, 4, 5], 0.5, serde_json::json!({"mesh": {"nodes": 3}}));
        assert!(matches!(RunOutputs::open(&dir), Err(AnalysisError::Mesh { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
