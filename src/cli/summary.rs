//! The run summary, `summary.json`, and the one-line report.

use std::path::PathBuf;

use fibril_host::domain::DomainRecord;
use fibril_host::driver::{Outcome, RunReport};
use fibril_host::events::stimulus::StimulusSpec;
use fibril_host::io::snapshots::{Formats, SnapshotRecord};
use serde::Serialize;

use super::run_args::ProtocolArg;

/// Throughput figures derived from a step count and a wall time.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Throughput {
    pub steps_per_s: f64,
    pub cell_updates_per_s: f64,
    /// Simulated ms per wall-clock ms (1.0 = real time).
    pub real_time_factor: f64,
}

impl Throughput {
    /// `dt_ms` is the step in ms (`Domain::dt_real_ms`).
    pub fn new(steps: u64, seconds: f64, cells: usize, dt_ms: f64) -> Self {
        let steps_per_s = if seconds > 0.0 { steps as f64 / seconds } else { 0.0 };
        Self {
            steps_per_s,
            cell_updates_per_s: steps_per_s * cells as f64,
            real_time_factor: steps_per_s * dt_ms / 1000.0,
        }
    }
}

/// The activation (and repolarisation, APD) maps of a run.
#[derive(Debug, Serialize)]
pub struct ActivationRecord {
    pub threshold: f64,
    /// Threshold of the repolarisation map, when the run records one.
    pub repolarisation_threshold: Option<f64>,
    /// Beats kept per cell in per-beat mode; `None`: the first activation.
    pub beats: Option<u32>,
    /// Crossings are checked at every step and interpolated within it.
    pub checked_every_step: bool,
    pub activated_cells: usize,
    pub files: Vec<String>,
}

/// The pseudo-ECG of a run.
#[derive(Debug, Serialize)]
pub struct EcgRecord {
    pub electrodes: Vec<fibril_host::events::ecg::Electrode>,
    pub every_steps: u64,
    pub samples: usize,
    pub files: Vec<String>,
}

/// Where a resumed run continued from.
#[derive(Debug, Serialize)]
pub struct ResumeRecord {
    pub checkpoint: PathBuf,
    pub step: u64,
}

#[derive(Debug, Serialize)]
pub struct RunSummary {
    pub fibril_version: &'static str,
    pub command: Vec<String>,
    pub config_file: Option<PathBuf>,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub domain: DomainRecord,
    pub initial_condition: &'static str,
    pub protocol: ProtocolArg,
    /// Every stimulus, the protocol's included, as applied (times in ms;
    /// the model's own value, or current and duration, written out; a
    /// current density as the current it drives).
    pub stimuli: Vec<StimulusSpec>,
    pub backend: String,
    pub device: String,
    pub method: String,
    pub precision: String,
    /// The step the run stopped at, counted from the start of the original run.
    pub steps: u64,
    pub simulated_ms: f64,
    /// Steps advanced by this invocation (fewer than `steps` when resumed;
    /// up to one check interval more when a check left pending found a
    /// NaN: the run stops at the checked step, `steps`).
    pub steps_advanced: u64,
    /// Steps between NaN checks (`check_every_steps`, or the backend's
    /// choice where it was not given).
    pub check_every_steps: u64,
    pub resumed_from: Option<ResumeRecord>,
    /// Wall time of the run loop (stepping with its events, output), seconds.
    pub wall_s: f64,
    pub stepping_s: f64,
    /// Downloads and writes of snapshots, checkpoints and maps, seconds
    /// (on the GPU snapshots are written behind the stepping, so this
    /// counts the downloads and the waits for the disk).
    pub output_s: f64,
    /// Of `output_s`, time spent waiting for the disk (the snapshot queue
    /// full, or emptied before a checkpoint and at the end).
    pub output_waited_s: f64,
    /// Computed from the stepping time and `steps_advanced` alone.
    #[serde(flatten)]
    pub throughput: Throughput,
    pub formats: Formats,
    /// The variables each snapshot holds.
    pub saved_variables: Vec<&'static str>,
    pub snapshots: Vec<SnapshotRecord>,
    pub checkpoint_file: Option<String>,
    /// Steps at which this invocation wrote the checkpoint.
    pub checkpoint_steps: Vec<u64>,
    pub activation: Option<ActivationRecord>,
    pub ecg: Option<EcgRecord>,
    /// `tips.csv` and `tips.png`, or `filaments.csv`, with --tips-every-ms.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tips_files: Vec<String>,
    /// With `--kernel tune`: every candidate's figure and the choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel_tuning: Option<super::tune::Tuning>,
}

impl RunSummary {
    pub fn one_line(&self, report: &RunReport, out_dir: &str) -> String {
        let d = &self.domain;
        format!(
            "fibril: {} steps ({} {}) of {} on {}x{}x{} on {} [{}, {}, {}] in {:.2} s: {:.0} steps/s, \
             {:.3e} cell-updates/s, real-time factor {:.3}; {} snapshot(s) in {}",
            report.steps_advanced,
            fibril_host::time::short(self.simulated_ms),
            d.model.time_unit,
            d.model.name,
            d.nx,
            d.ny,
            d.nz,
            self.device,
            self.backend,
            self.precision,
            self.method,
            self.wall_s,
            self.throughput.steps_per_s,
            self.throughput.cell_updates_per_s,
            self.throughput.real_time_factor,
            self.snapshots.len(),
            out_dir
        )
    }
}
