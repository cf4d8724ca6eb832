//! Movies of a run: one plane of a variable over the run's snapshots, as
//! an animated GIF. Each frame is the picture the snapshots' PNGs draw
//! (viridis over a fixed range, a colour bar with the variable's name and
//! unit), of the chosen plane alone, with the time in its title.

use std::path::Path;

use ndarray::{Array3, s};

use super::error::{AnalysisError, writing};
use super::run_dir::RunOutputs;
use crate::io::canvas::label;
use crate::io::gif::{self, IndexedFrame, Indexer};
use crate::io::image::{finite_range, midplanes};

/// The most frames a movie holds: past it, `every` must skip snapshots
/// (each frame is kept, indexed, until the movie is written).
pub const MAX_FRAMES: usize = 5000;

/// What a movie shows and how fast.
#[derive(Clone, Debug, PartialEq)]
pub struct MovieOptions {
    /// A saved variable; `None`: the first saved (the potential).
    pub variable: Option<String>,
    /// The plane z = this index; `None`: the middle one.
    pub z: Option<usize>,
    pub frames_per_s: f64,
    /// Every this many snapshots make a frame.
    pub every: usize,
    /// The colour range; `None`: the variable's display range (as the
    /// PNG snapshots use), or the data's when the model is unknown.
    pub range: Option<(f64, f64)>,
    /// Only the snapshots from this time on (the model's time unit).
    pub from: Option<f64>,
    /// Only the snapshots up to this time.
    pub to: Option<f64>,
}

impl Default for MovieOptions {
    fn default() -> Self {
        Self { variable: None, z: None, frames_per_s: 10.0, every: 1, range: None, from: None, to: None }
    }
}

/// The frames chosen and how they will be drawn, all checked.
#[derive(Clone, Debug)]
pub struct MoviePlan {
    pub variable: String,
    pub z: usize,
    /// (time, snapshot file) of every frame.
    pub frames: Vec<(f64, std::path::PathBuf)>,
    pub range: (f64, f64),
    /// Hundredths of a second per frame (GIF's unit).
    pub delay_cs: u16,
    pub unit: String,
}

/// Checks `options` against the run before anything is read or drawn.
pub fn plan(run: &RunOutputs, options: &MovieOptions) -> Result<MoviePlan, AnalysisError> {
    let variable = run.variable(options.variable.as_deref())?;
    let nz = run.shape[0];
    let z = options.z.unwrap_or(nz / 2);
    if z >= nz {
        return Err(AnalysisError::PlaneOutside { z, nz });
    }
    let fps = options.frames_per_s;
    if !(0.5..=50.0).contains(&fps) {
        return Err(AnalysisError::Option {
            option: "--fps",
            value: fps.to_string(),
            expected: "0.5 to 50 frames per second (GIF counts hundredths of a second)".into(),
        });
    }
    if options.every == 0 {
        return Err(AnalysisError::Option {
            option: "--every",
            value: "0".into(),
            expected: "at least 1 (1: every snapshot)".into(),
        });
    }
    if let Some((lo, hi)) = options.range
        && !(lo.is_finite() && hi.is_finite() && lo < hi)
    {
        return Err(AnalysisError::Option {
            option: "--range",
            value: format!("{lo} {hi}"),
            expected: "two finite numbers, the lower first".into(),
        });
    }
    let files = run.snapshot_files(&variable)?;
    let (from, to) = (options.from.unwrap_or(f64::NEG_INFINITY), options.to.unwrap_or(f64::INFINITY));
    let span = files.first().zip(files.last()).map(|(a, b)| (a.0, b.0));
    let frames: Vec<_> =
        files.into_iter().filter(|(t, _)| (from..=to).contains(t)).step_by(options.every).collect();
    if let Some((first, last)) = span
        && frames.is_empty()
    {
        return Err(AnalysisError::Option {
            option: "--from/--to",
            value: format!("{from} to {to}"),
            expected: format!(
                "a time window holding snapshots, which span {first} to {last} {}",
                run.time_unit
            ),
        });
    }
    if frames.is_empty() {
        return Err(AnalysisError::TooFewSnapshots {
            dir: run.dir.clone(),
            variable,
            found: 0,
            need: 1,
            what: "a movie",
        });
    }
    if frames.len() > MAX_FRAMES {
        return Err(AnalysisError::Option {
            option: "--every",
            value: options.every.to_string(),
            expected: format!(
                "a step that keeps at most {MAX_FRAMES} of the {} snapshots (--every {} or more)",
                frames.len() * options.every,
                (frames.len() * options.every).div_ceil(MAX_FRAMES)
            ),
        });
    }
    let info = run.model_info().and_then(|m| m.variables.iter().find(|v| v.name == variable));
    let range = match (options.range, info) {
        (Some(r), _) => r,
        (None, Some(v)) => v.display,
        // Unknown model: the first frame's range.
        (None, None) => {
            let first = run.read_field(&frames[0].1, &variable)?;
            let (lo, hi) = finite_range(first.iter().copied());
            if lo < hi { (lo, hi) } else { (lo - 0.5, lo + 0.5) }
        }
    };
    let unit = info.map_or("1", |v| v.unit).to_string();
    let delay_cs = (100.0 / fps).round().clamp(2.0, u16::MAX as f64) as u16;
    Ok(MoviePlan { variable, z, frames, range, delay_cs, unit })
}

/// Draws every frame of `plan`, indexed for the GIF, padded to one size.
pub fn frames(run: &RunOutputs, plan: &MoviePlan) -> Result<Vec<IndexedFrame>, AnalysisError> {
    let mut indexer = Indexer::default();
    let bar =
        if plan.unit == "1" { plan.variable.clone() } else { format!("{} ({})", plan.variable, plan.unit) };
    let (lo, hi) = plan.range;
    let where_ = if run.shape[0] > 1 { format!("  z = {}", plan.z) } else { String::new() };
    let mut frames = Vec::with_capacity(plan.frames.len());
    for (t, path) in &plan.frames {
        let field = run.read_field(path, &plan.variable)?;
        let plane: Array3<f64> = field.slice(s![plan.z..plan.z + 1, .., ..]).to_owned();
        let title = format!("{}  t = {} {}{where_}", plan.variable, label(*t), run.time_unit);
        let img = midplanes(&plane, lo, hi, &title, &bar)
            .map_err(|source| AnalysisError::Draw { path: path.clone(), source })?;
        frames.push(indexer.frame(&img));
    }
    let width = frames.iter().map(|f| f.width).max().unwrap_or(1);
    let height = frames.iter().map(|f| f.height).max().unwrap_or(1);
    let white = indexer.index([255, 255, 255]);
    Ok(frames
        .into_iter()
        .map(|f| if (f.width, f.height) == (width, height) { f } else { f.padded(width, height, white) })
        .collect())
}

/// Draws the movie of `plan` and writes it to `path` (atomically).
pub fn write(run: &RunOutputs, plan: &MoviePlan, path: &Path) -> Result<usize, AnalysisError> {
    let frames = frames(run, plan)?;
    gif::write(path, &frames, plan.delay_cs).map_err(writing(path))?;
    Ok(frames.len())
}
