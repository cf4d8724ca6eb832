//! The files a run writes at its end besides the snapshots and maps: the
//! pseudo-ECG and its plot, the tips and their trajectory; and the
//! progress bar.

use std::path::Path;

use anyhow::Context;
use fibril_host::Domain;
use fibril_host::driver::EcgSampler;
use fibril_host::events::ecg::ECG_FILE;
use fibril_host::events::tips::SingularityRecorder;
use fibril_host::io::plot::{Series, line_plot_png, trajectory_png};
use fibril_host::io::{OutputDir, write_atomic};
use indicatif::{ProgressBar, ProgressStyle};

use super::summary::EcgRecord;

/// Writes the run's file `name` in `out` with `write`, which is given its path.
pub fn write_file(
    out: &OutputDir,
    name: &str,
    write: impl FnOnce(&Path) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let path = out.existing(name);
    out.file(name).and_then(|p| write(&p)).with_context(|| format!("writing {}", path.display()))
}

/// Writes `tips.csv` (and, for a sheet, the trajectory `tips.png`) or
/// `filaments.csv`.
pub fn write_tips(
    out: &OutputDir,
    recorder: &SingularityRecorder,
    domain: &Domain,
) -> anyhow::Result<Vec<String>> {
    let name = recorder.file_name();
    write_file(out, name, |p| recorder.write(p))?;
    let mut files = vec![name.to_string()];
    if !recorder.is_volume() && !recorder.tips().rows().is_empty() {
        let d = domain.dims();
        // The sheet's two axes of more than one cell.
        let axes: Vec<usize> =
            [d.nx, d.ny, d.nz].iter().enumerate().filter(|(_, n)| **n > 1).map(|(a, _)| a).collect();
        let (a, b) = (axes[0], axes[1]);
        let points: Vec<(f64, f64)> =
            recorder.tips().rows().iter().map(|(_, tip)| (tip.position_mm[a], tip.position_mm[b])).collect();
        let n = [d.nx, d.ny, d.nz];
        // The tips' own box with a margin, inside the tissue: a tip
        // circles a few cells, which the whole sheet would shrink to a dot.
        let extent = |k: usize, of: &dyn Fn(&(f64, f64)) -> f64| {
            let (lo, hi) = points
                .iter()
                .map(of)
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
            let margin = (0.25 * (hi - lo)).max(5.0 * domain.dx());
            let end = (n[k] - 1) as f64 * domain.dx();
            ((lo - margin).max(0.0), (hi + margin).min(end))
        };
        let space = domain.model().info().units.space;
        let names = ["x", "y", "z"];
        let png = trajectory_png(
            &format!("spiral tips, {}", domain.model().info().title),
            &format!("{} ({space})", names[a]),
            &format!("{} ({space})", names[b]),
            &[Series::from_points("tip", &points)],
            extent(a, &|p| p.0),
            extent(b, &|p| p.1),
            900,
            900,
        )?;
        let file = "tips.png";
        write_file(out, file, |p| write_atomic(p, &png))?;
        files.push(file.into());
    }
    Ok(files)
}

/// Writes `ecg.csv` and its plot `ecg.png`.
pub fn write_ecg(out: &OutputDir, sampler: &EcgSampler, domain: &Domain) -> anyhow::Result<EcgRecord> {
    let trace = &sampler.trace;
    write_file(out, ECG_FILE, |p| trace.write(p))?;
    let units = domain.model().info().units;
    let series: Vec<Series> = trace
        .electrodes()
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let (x, y) = trace.rows().iter().map(|(t, v)| (*t, v[k])).unzip();
            Series::new(e.name.clone(), x, y)
        })
        .collect();
    let mut files = vec![ECG_FILE.to_string()];
    if trace.rows().len() >= 2 {
        let png = line_plot_png(
            &format!("pseudo-ECG, {}", domain.model().info().title),
            &format!("time ({})", units.time),
            "phi (arb. units)",
            &series,
            1200,
            500,
        )?;
        write_file(out, "ecg.png", |p| write_atomic(p, &png))?;
        files.push("ecg.png".into());
    }
    Ok(EcgRecord {
        electrodes: trace.electrodes().to_vec(),
        every_steps: sampler.every,
        samples: trace.rows().len(),
        files,
    })
}

pub fn progress_bar(total: u64, start: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    // Draws only when stderr is a terminal.
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} steps, {per_sec}, {eta} left",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_position(start);
    bar.reset_eta();
    bar
}
