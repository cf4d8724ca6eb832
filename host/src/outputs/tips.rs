//! Spiral tips (a sheet) or filaments (a volume): found by the solver,
//! saved as `tips.csv` or `filaments.csv` and, at the end of a sheet's
//! run, drawn as the trajectory `tips.png`.

use super::error::OutputError;
use super::sampler::{Sampler, Saved, write_file};
use crate::checkpoint::PhaseSample;
use crate::domain::Domain;
use crate::events::tips::{PhaseMemory, SingularityRecorder};
use crate::io::OutputDir;
use crate::io::atomic::write_atomic;
use crate::io::plot::{Series, trajectory_png};
use crate::scalar::Scalar;
use crate::solver::{Solver, SolverError};

/// The picture of a sheet's tips, written at the end of a run.
const TRAJECTORY_FILE: &str = "tips.png";

/// Phase singularities of a run: how often, and what was found so far.
/// The solver finds them (`Solver::phase_singularities`: on the device
/// for one GPU, else from the state on the host, kept in `memory`).
pub struct TipsSampler {
    pub every: u64,
    pub recorder: SingularityRecorder,
    pub memory: PhaseMemory,
    /// The step of the last sample (a checkpoint keeps its field).
    pub last_sample: Option<u64>,
}

impl TipsSampler {
    /// Every `every` steps into `recorder`, from the first sample.
    pub fn new(every: u64, recorder: SingularityRecorder) -> Self {
        Self { every, recorder, memory: PhaseMemory::default(), last_sample: None }
    }

    /// The trajectory of a sheet's tips over its two long axes, framed on
    /// the tips' own box with a margin (a tip circles a few cells, which
    /// the whole sheet would shrink to a dot).
    fn trajectory(&self, domain: &Domain) -> Result<Vec<u8>, OutputError> {
        let d = domain.dims();
        let axes: Vec<usize> =
            [d.nx, d.ny, d.nz].iter().enumerate().filter(|(_, n)| **n > 1).map(|(a, _)| a).collect();
        let (a, b) = (axes[0], axes[1]);
        let rows = self.recorder.tips().rows();
        let points: Vec<(f64, f64)> =
            rows.iter().map(|(_, tip)| (tip.position_mm[a], tip.position_mm[b])).collect();
        let n = [d.nx, d.ny, d.nz];
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
        trajectory_png(
            &format!("spiral tips, {}", domain.model().info().title),
            &format!("{} ({space})", names[a]),
            &format!("{} ({space})", names[b]),
            &[Series::from_points("tip", &points)],
            extent(a, &|p| p.0),
            extent(b, &|p| p.1),
            (900, 900),
        )
        .map_err(|source| OutputError::Plot { file: TRAJECTORY_FILE, source })
    }
}

impl<T: Scalar> Sampler<T> for TipsSampler {
    fn every(&self) -> u64 {
        self.every
    }

    fn sample(&mut self, step: u64, t_ms: f64, solver: &mut dyn Solver<T>) -> Result<(), SolverError> {
        if let Some(found) = solver.phase_singularities(self.recorder.v_star(), &mut self.memory)? {
            self.recorder.record(t_ms, &found);
        }
        self.last_sample = Some(step);
        Ok(())
    }

    fn save(&self, dir: &OutputDir, domain: &Domain, when: Saved) -> Result<Vec<String>, OutputError> {
        let name = self.recorder.file_name();
        write_file(dir, name, |p| self.recorder.write(p))?;
        let mut files = vec![name.to_string()];
        if when == Saved::AtEnd && !self.recorder.is_volume() && !self.recorder.tips().rows().is_empty() {
            let png = self.trajectory(domain)?;
            write_file(dir, TRAJECTORY_FILE, |p| write_atomic(p, &png))?;
            files.push(TRAJECTORY_FILE.into());
        }
        Ok(files)
    }

    fn checkpoint_phase(&self, solver: &mut dyn Solver<T>) -> Result<Option<PhaseSample>, SolverError> {
        let Some(step) = self.last_sample else { return Ok(None) };
        Ok(solver.phase_memory(&self.memory)?.map(|field| PhaseSample { step, field }))
    }
}
