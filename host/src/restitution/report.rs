//! The files of a restitution experiment: `restitution.csv` (one row per
//! S2 interval, or per BCL and beat), `restitution.png` (APD, and CV in a
//! cable, against DI, beside a published curve when one applies) and
//! `restitution.json` (the settings, the reference beat, what the curve
//! shows and its agreement with the published one). Everything is
//! computed before the first file is written, and each file is written
//! whole or not at all ([`write_atomic`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::plot::{Marked, Panel, Style, restitution_png};
use super::protocol::{Geometry, Protocol};
use super::published::{Agreement, Published, compare, published_for};
use super::run::{Restitution, Row};
use crate::io::canvas::PlotError;
use crate::io::write_atomic;

pub const CSV_FILE: &str = "restitution.csv";
pub const PNG_FILE: &str = "restitution.png";
pub const JSON_FILE: &str = "restitution.json";

/// Why the files could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("cannot draw {PNG_FILE}: {0}")]
    Plot(#[from] PlotError),
    #[error("cannot write {path}: {source}; choose a writable directory with free space")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot encode {JSON_FILE}: {0}")]
    Json(#[from] serde_json::Error),
}

/// A beat whose APD differs from the other beat of its BCL by more than
/// this is alternans, ms: twice the reading error of a crossing, far
/// below the tens of ms of real alternans.
pub const ALTERNANS_MS: f64 = 1.0;

/// What the curve shows, in numbers.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Findings {
    /// Rows whose stimulus gave an action potential.
    pub captured: usize,
    /// The shortest S2 interval (or BCL) captured.
    pub shortest_captured_interval_ms: Option<f64>,
    /// The first S2 interval (or BCL) that failed to capture, if any.
    pub first_failure_interval_ms: Option<f64>,
    pub di_range_ms: Option<[f64; 2]>,
    pub apd_range_ms: Option<[f64; 2]>,
    /// The steepest slope of APD against DI between neighbouring captured
    /// beats (above 1, restitution can drive alternans).
    pub max_apd_slope: Option<f64>,
    pub cv_range_m_per_s: Option<[f64; 2]>,
    /// Dynamic pacing: the BCLs whose last two APDs differ by more than
    /// [`ALTERNANS_MS`], with the difference.
    pub alternans: Vec<Alternans>,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Alternans {
    pub bcl_ms: f64,
    pub apd_difference_ms: f64,
}

/// A measured curve beside a published one.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub published: Published,
    pub apd_ms: Option<Agreement>,
    pub cv_m_per_s: Option<Agreement>,
}

/// The JSON summary.
#[derive(Clone, Debug, Serialize)]
pub struct Summary<'a> {
    pub experiment: &'a Restitution,
    pub findings: Findings,
    pub comparison: Option<Comparison>,
    pub files: [&'static str; 3],
}

fn range(values: impl Iterator<Item = f64>) -> Option<[f64; 2]> {
    values.fold(None, |r, v| Some(r.map_or([v, v], |[lo, hi]: [f64; 2]| [lo.min(v), hi.max(v)])))
}

/// A curve: (DI, APD or CV) points.
pub type Curve = Vec<(f64, f64)>;

/// (DI, APD) and (DI, CV) of the captured rows.
pub fn curves(rows: &[Row]) -> (Curve, Curve) {
    let captured = || rows.iter().filter(|r| r.captured);
    let apd = captured().filter_map(|r| Some((r.di_ms?, r.apd_ms?))).collect();
    let cv = captured().filter_map(|r| Some((r.di_ms?, r.cv_m_per_s?))).collect();
    (apd, cv)
}

/// What the rows show.
pub fn findings(r: &Restitution) -> Findings {
    let captured: Vec<&Row> = r.rows.iter().filter(|row| row.captured).collect();
    let (apd, _) = curves(&r.rows);
    let mut sorted = apd.clone();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let max_apd_slope = sorted
        .windows(2)
        .filter(|w| w[1].0 > w[0].0)
        .map(|w| (w[1].1 - w[0].1) / (w[1].0 - w[0].0))
        .fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))));
    let mut alternans = Vec::new();
    if matches!(r.schedule.protocol, Protocol::Dynamic(_)) {
        for pair in r.rows.chunks(2) {
            if let [a, b] = pair
                && let (true, true, Some(x), Some(y)) = (a.captured, b.captured, a.apd_ms, b.apd_ms)
                && (x - y).abs() > ALTERNANS_MS
            {
                alternans.push(Alternans { bcl_ms: a.interval_ms, apd_difference_ms: (x - y).abs() });
            }
        }
    }
    Findings {
        captured: captured.len(),
        shortest_captured_interval_ms: captured.iter().map(|row| row.interval_ms).reduce(f64::min),
        first_failure_interval_ms: r.rows.iter().find(|row| !row.captured).map(|row| row.interval_ms),
        di_range_ms: range(captured.iter().filter_map(|row| row.di_ms)),
        apd_range_ms: range(captured.iter().filter_map(|row| row.apd_ms)),
        max_apd_slope,
        cv_range_m_per_s: range(captured.iter().filter_map(|row| row.cv_m_per_s)),
        alternans,
    }
}

/// The published curve beside the measured one, with the agreement.
pub fn comparison(r: &Restitution) -> Option<Comparison> {
    let published = published_for(r)?;
    let (apd, cv) = curves(&r.rows);
    let apd_ms = compare(&apd, &published.apd_ms);
    let cv_m_per_s = compare(&cv, &published.cv_m_per_s);
    Some(Comparison { published, apd_ms, cv_m_per_s })
}

/// The name of the peak column: the potential's unit in it.
fn peak_column(unit: &str) -> String {
    match unit {
        "1" => "peak".to_string(),
        u => format!("peak_{}", u.to_ascii_lowercase()),
    }
}

/// The CSV text.
pub fn csv(r: &Restitution) -> String {
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
    let peak = peak_column(r.potential_unit);
    let mut out = match r.schedule.protocol {
        Protocol::S1S2(_) => format!("s2_interval_ms,di_ms,apd_ms,cv_m_per_s,{peak},captured\n"),
        Protocol::Dynamic(_) => format!("bcl_ms,beat_from_end,di_ms,apd_ms,cv_m_per_s,{peak},captured\n"),
    };
    for row in &r.rows {
        let beat = row.beat_from_end.map_or(String::new(), |b| format!("{b},"));
        let _ = writeln!(
            out,
            "{},{beat}{},{},{},{},{}",
            crate::time::short(row.interval_ms),
            opt(row.di_ms),
            opt(row.apd_ms),
            opt(row.cv_m_per_s),
            opt(row.peak),
            row.captured
        );
    }
    out
}

/// The plot's PNG.
pub fn png(r: &Restitution, comparison: Option<&Comparison>) -> Result<Vec<u8>, PlotError> {
    let (apd, cv) = curves(&r.rows);
    let level = r.schedule.level.label();
    let (protocol, measured) = match &r.schedule.protocol {
        Protocol::S1S2(p) => {
            (format!("S1-S2, {} S1 at {} ms", p.s1_beats, crate::time::short(p.bcl_ms)), "S2 beats")
        }
        Protocol::Dynamic(p) => (format!("dynamic, {} beats per BCL", p.beats), "last two beats per BCL"),
    };
    let geometry = match r.schedule.geometry {
        Geometry::Cell => "single cell".to_string(),
        Geometry::Cable { cells } => format!("cable of {cells} cells"),
    };
    let title = format!("{} restitution: {protocol}, {geometry}", r.model);
    let style = match r.schedule.protocol {
        Protocol::S1S2(_) => Style::DotsAndLine,
        // Beats of one BCL alternate: dots only would lose nothing, but a
        // line through them in DI order reads as the curve.
        Protocol::Dynamic(_) => Style::DotsAndLine,
    };
    let mut sorted_apd = apd.clone();
    if matches!(r.schedule.protocol, Protocol::Dynamic(_)) {
        sorted_apd.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut apd_sets = vec![Marked { name: format!("fibril, {measured}"), points: sorted_apd, style }];
    let mut cv_sets = vec![Marked { name: format!("fibril, {measured}"), points: cv.clone(), style }];
    if let Some(c) = comparison {
        let p = &c.published;
        let style = if p.analytic { Style::Line } else { Style::Squares };
        apd_sets.push(Marked { name: p.label.clone(), points: p.apd_ms.clone(), style });
        if !p.cv_m_per_s.is_empty() {
            cv_sets.push(Marked { name: p.label.clone(), points: p.cv_m_per_s.clone(), style });
        }
    }
    let mut panels = vec![Panel { y_label: format!("{level} (ms)"), sets: apd_sets }];
    if !cv.is_empty() {
        panels.push(Panel { y_label: "CV (m/s)".into(), sets: cv_sets });
    }
    let height = if panels.len() == 2 { 900 } else { 520 };
    restitution_png(&title, "DI (ms)", &panels, (800, height))
}

/// Writes the three files into `dir` (which must exist); returns the
/// summary written.
pub fn write<'a>(r: &'a Restitution, dir: &Path) -> Result<Summary<'a>, ReportError> {
    let comparison = comparison(r);
    let summary =
        Summary { experiment: r, findings: findings(r), comparison, files: [CSV_FILE, PNG_FILE, JSON_FILE] };
    let csv = csv(r);
    let png = png(r, summary.comparison.as_ref())?;
    let mut json = serde_json::to_vec_pretty(&summary)?;
    json.push(b'\n');
    for (name, bytes) in [(CSV_FILE, csv.as_bytes()), (PNG_FILE, &png[..]), (JSON_FILE, &json[..])] {
        let path = dir.join(name);
        write_atomic(&path, bytes).map_err(|source| ReportError::Write { path, source })?;
    }
    Ok(summary)
}
