//! The analyses of a run directory as `fibril cv` and `fibril
//! cycle-length` run them: every input checked first, then the maps
//! computed and written with a picture and a JSON summary of the numbers.

use std::path::Path;

use serde::Serialize;

use super::cv::{CvOptions, conduction_velocity};
use super::cycle::{CrossingCounter, from_beats};
use super::error::AnalysisError;
use super::output::{AnalysisOut, MapField, Spread, percentile};
use super::run_dir::RunOutputs;

/// A unit as a name suffix: "mm", "ms"; "su", "tu" for a model's own.
fn tag(unit: &str) -> String {
    match unit {
        "t.u." => "tu".into(),
        "s.u." => "su".into(),
        other => other.chars().filter(char::is_ascii_alphanumeric).collect(),
    }
}

/// What `fibril cv` was asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CvRequest {
    pub options: CvOptions,
    /// The beat of a per-beat map (0 the oldest kept); `None`: the latest.
    pub beat: Option<usize>,
}

/// `cv.json`: how the map was made and what it holds.
#[derive(Clone, Debug, Serialize)]
pub struct CvReport {
    pub method: &'static str,
    pub radius_cells: usize,
    /// Bayly's time window, in the map's time unit (none: every neighbour).
    pub max_dt: Option<f64>,
    /// The beat of a per-beat activation map the map is of.
    pub beat: usize,
    pub beats: usize,
    pub dx: f64,
    /// "mm/ms" (= m/s), or the model's own units.
    pub speed_unit: String,
    /// Median, mean and percentiles of the speed over the cells that have one.
    pub speed: Spread,
    /// Cells of the grid, and of them activated (with a time in the map).
    pub cells: usize,
    pub activated_cells: usize,
    pub files: Vec<String>,
}

/// Checks the activation map of `run` and the beat asked for.
fn activation_of(run: &RunOutputs, beat: Option<usize>) -> Result<(Vec<f64>, usize, usize), AnalysisError> {
    let mut maps = run.activation_maps()?;
    let beats = maps.len();
    let beat = beat.unwrap_or(beats - 1);
    if beat >= beats {
        return Err(AnalysisError::Beat { beat, beats });
    }
    let map = maps.swap_remove(beat);
    Ok((map.into_raw_vec_and_offset().0, beat, beats))
}

/// Computes the conduction-velocity map of `run`'s activation map and
/// writes `cv.npy`, `cv_direction_{x,y,z}.npy`, `cv.vti`, `cv.png` and
/// `cv.json` into `out`.
pub fn cv(run: &RunOutputs, request: &CvRequest, out: &Path) -> Result<CvReport, AnalysisError> {
    let options = request.options;
    if options.radius == 0 || options.radius > 8 {
        return Err(AnalysisError::Option {
            option: "--radius",
            value: options.radius.to_string(),
            expected: "1 to 8 cells (1: the 3-cell window of a central difference)".into(),
        });
    }
    if let Some(w) = options.max_dt
        && !(w > 0.0 && w.is_finite())
    {
        return Err(AnalysisError::Option {
            option: "--max-dt",
            value: w.to_string(),
            expected: format!("a positive time in {}", run.time_unit),
        });
    }
    let (times, beat, beats) = activation_of(run, request.beat)?;
    let [nz, ny, nx] = run.shape;
    let field = ndarray::Array3::from_shape_vec((nz, ny, nx), times).expect("the grid");
    let map = conduction_velocity(&field, run.dx, options);
    let speed_unit = format!("{}/{}", run.space_unit, run.time_unit);
    let name = format!("cv_{}_per_{}", tag(&run.space_unit), tag(&run.time_unit));
    let speed = Spread::of(&map.speed);
    let mut files = AnalysisOut::create(out)?;
    let fields = [
        MapField::new("cv", &name, &map.speed),
        MapField::new("cv_direction_x", "cv_direction_x", &map.direction[0]),
        MapField::new("cv_direction_y", "cv_direction_y", &map.direction[1]),
        MapField::new("cv_direction_z", "cv_direction_z", &map.direction[2]),
    ];
    files.maps(run.shape, run.dx, &fields, "cv")?;
    // Outliers (next to a stimulated block, where fronts collide) would
    // take the colour scale: the 5th to 95th percentile spans it.
    let range = (percentile(&map.speed, 5.0), percentile(&map.speed, 95.0));
    let title =
        format!("conduction velocity, median {} {speed_unit}", crate::io::canvas::label(speed.median));
    files.picture("cv", run.shape, &map.speed, range, &title, &format!("CV ({speed_unit})"))?;
    let mut report = CvReport {
        method: "least-squares quadratic fit of the activation times (Bayly et al. 1998)",
        radius_cells: options.radius,
        max_dt: options.max_dt,
        beat,
        beats,
        dx: run.dx,
        speed_unit,
        speed,
        cells: run.cells(),
        activated_cells: field.iter().filter(|t| t.is_finite()).count(),
        files: Vec::new(),
    };
    report.files = files.files.clone();
    report.files.push("cv.json".into());
    files.json("cv", &report)?;
    Ok(report)
}

/// Where the activation times of a cycle-length map come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CycleSource {
    /// Per-beat maps when the run kept them, else the snapshots.
    #[default]
    Auto,
    /// The per-beat activation map (`--beats N`).
    Beats,
    /// Threshold crossings between the snapshots of the potential.
    Snapshots,
}

/// What `fibril cycle-length` was asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CycleRequest {
    pub source: CycleSource,
    /// The activation threshold; `None`: the run's (or the model's).
    pub threshold: Option<f64>,
    /// The snapshots' variable; `None`: the first saved (the potential).
    pub variable: Option<String>,
    /// Count only activations from this time on (past a protocol's
    /// transient, to measure a settled re-entry); `None`: all.
    pub from: Option<f64>,
}

/// `cycle_length.json`.
#[derive(Clone, Debug, Serialize)]
pub struct CycleReport {
    /// "beats" or "snapshots".
    pub source: CycleSource,
    pub variable: String,
    pub threshold: f64,
    /// Activations before this time were not counted.
    pub from: Option<f64>,
    pub time_unit: String,
    /// How finely activation times are resolved: the step (per-beat maps)
    /// or the largest snapshot interval.
    pub time_resolution: f64,
    pub note: String,
    /// Snapshots (or beats) read.
    pub samples: usize,
    /// Mean cycle length per cell, over the cells activated twice or more.
    pub cycle_length: Spread,
    /// Activations counted per cell.
    pub activations: Spread,
    pub files: Vec<String>,
}

/// The threshold of `request` or the run's, for variable `variable`.
fn threshold_of(run: &RunOutputs, request: &CycleRequest, variable: &str) -> Result<f64, AnalysisError> {
    if let Some(t) = request.threshold {
        return if t.is_finite() {
            Ok(t)
        } else {
            Err(AnalysisError::Option {
                option: "--threshold",
                value: t.to_string(),
                expected: "a number".into(),
            })
        };
    }
    let info = run.model_info();
    // The run's and the model's thresholds are of the potential (variable 0).
    let potential = info.map(|m| m.variables[0].name).or(run.saved_variables.first().map(|s| s.as_str()));
    if potential != Some(variable) {
        return Err(AnalysisError::Option {
            option: "--threshold",
            value: "(none)".into(),
            expected: format!("a threshold for {variable}, which is not the potential"),
        });
    }
    run.activation_threshold
        .or(info.map(|m| m.activation_threshold))
        .ok_or_else(|| AnalysisError::NoThreshold { model: run.model.clone() })
}

/// Computes the mean local cycle length of every cell and writes
/// `cycle_length.npy`, `activations.npy`, `cycle_length.vti`,
/// `cycle_length.png` and `cycle_length.json` into `out`.
pub fn cycle_length(
    run: &RunOutputs,
    request: &CycleRequest,
    out: &Path,
) -> Result<CycleReport, AnalysisError> {
    let per_beat = run.beats.is_some_and(|b| b >= 2);
    let source = match request.source {
        CycleSource::Auto if per_beat => CycleSource::Beats,
        CycleSource::Auto => CycleSource::Snapshots,
        CycleSource::Beats if !per_beat => {
            return Err(AnalysisError::Option {
                option: "--source",
                value: "beats".into(),
                expected:
                    "snapshots: the run kept no per-beat map (rerun with --activation-map --beats N, N >= 2)"
                        .into(),
            });
        }
        s => s,
    };
    let from = request.from.unwrap_or(f64::NEG_INFINITY);
    if from.is_nan() {
        return Err(AnalysisError::Option {
            option: "--from",
            value: "NaN".into(),
            expected: "a time".into(),
        });
    }
    let (mean, count, variable, threshold, resolution, samples, note) = match source {
        CycleSource::Beats => {
            let maps = run.activation_maps()?;
            let beats: Vec<Vec<f64>> = maps.into_iter().map(|m| m.into_raw_vec_and_offset().0).collect();
            let (mean, count) = from_beats(&beats, from);
            let threshold = run.activation_threshold.unwrap_or(f64::NAN);
            let variable = run.saved_variables.first().cloned().unwrap_or_default();
            let note = format!(
                "from the last {} activations the run kept per cell, each interpolated within its step of {} {}",
                beats.len(),
                run.dt,
                run.time_unit
            );
            (mean, count, variable, threshold, run.dt, beats.len(), note)
        }
        _ => {
            let variable = run.variable(request.variable.as_deref())?;
            let threshold = threshold_of(run, request, &variable)?;
            let files = run.snapshot_files(&variable)?;
            if files.len() < 3 {
                return Err(AnalysisError::TooFewSnapshots {
                    dir: run.dir.clone(),
                    variable,
                    found: files.len(),
                    need: 3,
                    what: "a cycle length",
                });
            }
            let interval = files.windows(2).map(|w| w[1].0 - w[0].0).fold(0.0, f64::max);
            let mut counter = CrossingCounter::new(run.cells(), threshold).from(from);
            for (t, path) in &files {
                let field = run.read_field(path, &variable)?;
                counter.push(*t, field.as_slice().expect("standard layout"));
            }
            let (mean, count) = counter.finish();
            let note = format!(
                "from upward crossings of {threshold} between snapshots at most {interval} {} apart, \
                 interpolated linearly: times are good to about that interval, and an activation \
                 shorter than it can be missed; for the step's resolution rerun with --activation-map --beats N",
                run.time_unit
            );
            (mean, count, variable, threshold, interval, files.len(), note)
        }
    };
    let counts: Vec<f64> = count.iter().map(|&n| n as f64).collect();
    let mut files = AnalysisOut::create(out)?;
    let name = format!("cycle_length_{}", tag(&run.time_unit));
    let fields =
        [MapField::new("cycle_length", &name, &mean), MapField::new("activations", "activations", &counts)];
    files.maps(run.shape, run.dx, &fields, "cycle_length")?;
    let spread = Spread::of(&mean);
    let range = (percentile(&mean, 2.0), percentile(&mean, 98.0));
    let title =
        format!("mean cycle length, median {} {}", crate::io::canvas::label(spread.median), run.time_unit);
    files.picture(
        "cycle_length",
        run.shape,
        &mean,
        range,
        &title,
        &format!("cycle length ({})", run.time_unit),
    )?;
    let mut report = CycleReport {
        source,
        variable,
        threshold,
        from: request.from,
        time_unit: run.time_unit.clone(),
        time_resolution: resolution,
        note,
        samples,
        cycle_length: spread,
        activations: Spread::of(&counts),
        files: Vec::new(),
    };
    report.files = files.files.clone();
    report.files.push("cycle_length.json".into());
    files.json("cycle_length", &report)?;
    Ok(report)
}
