//! The pseudo-ECG: sampled by the solver at its electrodes, saved as
//! `ecg.csv` and, at the end, plotted as `ecg.png`.

use super::error::OutputError;
use super::sampler::{Sampler, Saved, write_file};
use crate::domain::Domain;
use crate::events::ecg::{ECG_FILE, EcgTrace};
use crate::io::OutputDir;
use crate::io::atomic::write_atomic;
use crate::io::plot::{Series, line_plot_png};
use crate::scalar::Scalar;
use crate::solver::{Solver, SolverError};
use kernels_gpu::ecg::EcgProbe;

/// The picture of the trace, written at the end of a run.
const ECG_PLOT_FILE: &str = "ecg.png";

/// The pseudo-ECG of a run: where and how often, and the trace so far.
pub struct EcgSampler {
    pub every: u64,
    pub probes: Vec<EcgProbe>,
    pub trace: EcgTrace,
}

impl<T: Scalar> Sampler<T> for EcgSampler {
    fn every(&self) -> u64 {
        self.every
    }

    fn sample(&mut self, _step: u64, t_ms: f64, solver: &mut dyn Solver<T>) -> Result<(), SolverError> {
        let values = solver.ecg(&self.probes)?;
        self.trace.push(t_ms, values);
        Ok(())
    }

    fn save(&self, dir: &OutputDir, domain: &Domain, when: Saved) -> Result<Vec<String>, OutputError> {
        let trace = &self.trace;
        write_file(dir, ECG_FILE, |p| trace.write(p))?;
        let mut files = vec![ECG_FILE.to_string()];
        // A line needs two points.
        if when == Saved::AtEnd && trace.rows().len() >= 2 {
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
            let png = line_plot_png(
                &format!("pseudo-ECG, {}", domain.model().info().title),
                &format!("time ({})", units.time),
                "phi (arb. units)",
                &series,
                1200,
                500,
            )
            .map_err(|source| OutputError::Plot { file: ECG_PLOT_FILE, source })?;
            write_file(dir, ECG_PLOT_FILE, |p| write_atomic(p, &png))?;
            files.push(ECG_PLOT_FILE.into());
        }
        Ok(files)
    }
}
