//! The run summary, `summary.json`, and the one-line report.

use std::path::PathBuf;

use fibril_host::domain::{Domain, DomainRecord};
use fibril_host::driver::{Outcome, RunReport};
use fibril_host::events::stimulus::StimulusSpec;
use fibril_host::io::snapshots::{Formats, SnapshotRecord};
use fibril_host::io::{OutputDir, RunId};
use fibril_host::{CellModel, Precision};
use serde::Serialize;

use super::config::RunConfig;
use super::mesh::MeshRecord;
use super::run_args::{ProtocolArg, RunArgs};

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
#[derive(Clone, Debug, Serialize)]
pub struct ResumeRecord {
    pub checkpoint: PathBuf,
    pub step: u64,
}

#[derive(Debug, Serialize)]
pub struct RunSummary {
    pub fibril_version: &'static str,
    pub command: Vec<String>,
    pub config_file: Option<PathBuf>,
    /// The identity of the run, shared by its checkpoints and its output
    /// directory's record (`.fibril-run`): a resumed run keeps it.
    pub run_id: RunId,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// What ended a run whose status is "failed".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
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
    pub kernel_tuning: Option<super::tuning::Tuning>,
    /// On a tetrahedral mesh: the mesh (the domain is its node line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<MeshRecord>,
    /// A tissue's fibrosis: the pattern, what it did and its mask file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fibrosis: Option<FibrosisRecord>,
}

/// The fibrosis of a tissue run as its summary records it.
#[derive(Clone, Debug, Serialize)]
pub struct FibrosisRecord {
    /// The pattern as given (`Diffuse { density, seed }`, ...).
    pub pattern: String,
    #[serde(flatten)]
    pub report: fibril_host::tissue::fibrosis::FibrosisReport,
    /// The fraction of the tissue uncoupled.
    pub fraction: f64,
    /// The labels after fibrosis (0: no tissue or uncoupled), uint8 (nz, ny, nx).
    pub file: String,
}

/// What a run's summary holds before the run starts.
pub struct RunStart<'a> {
    pub domain: &'a Domain,
    pub start_step: u64,
    pub check_every: u64,
    /// Every stimulus, the protocol's included, as specified.
    pub stimulus_specs: &'a [StimulusSpec],
    pub formats: Formats,
    /// Indices of the variables each snapshot writes.
    pub save: &'a [usize],
    pub resumed_from: Option<ResumeRecord>,
    pub mesh: Option<MeshRecord>,
}

impl RunSummary {
    /// The summary of a run about to start in `out`, as it would read if
    /// the run failed before its first step; [`RunSummary::record`] and
    /// the run fill in the rest.
    pub fn begin<M: CellModel>(
        config: &RunConfig,
        args: &RunArgs,
        plan: &RunStart<'_>,
        out: &OutputDir,
        precision: Precision,
    ) -> Self {
        let domain = plan.domain;
        let step = plan.start_step;
        let t_ms = step as f64 * domain.dt_ms();
        Self {
            fibril_version: env!("CARGO_PKG_VERSION"),
            command: std::env::args().collect(),
            config_file: args.options.config.clone(),
            run_id: out.run_id(),
            outcome: Outcome::Failed { step, t_ms },
            error: None,
            domain: domain.record(),
            initial_condition: config.run.init.name(),
            protocol: config.run.protocol,
            stimuli: plan.stimulus_specs.iter().map(|s| s.effective(M::INFO)).collect(),
            backend: "none (the run ended before its solver was built)".into(),
            device: String::new(),
            method: String::new(),
            precision: precision.to_string(),
            steps: step,
            simulated_ms: t_ms,
            steps_advanced: 0,
            check_every_steps: plan.check_every,
            resumed_from: plan.resumed_from.clone(),
            wall_s: 0.0,
            stepping_s: 0.0,
            output_s: 0.0,
            output_waited_s: 0.0,
            throughput: Throughput::new(0, 0.0, domain.cells(), domain.dt_real_ms()),
            formats: plan.formats,
            saved_variables: plan.save.iter().map(|&k| M::INFO.variables[k].name).collect(),
            snapshots: Vec::new(),
            checkpoint_steps: Vec::new(),
            checkpoint_file: None,
            activation: None,
            ecg: None,
            tips_files: Vec::new(),
            kernel_tuning: None,
            mesh: plan.mesh.clone(),
            fibrosis: None,
        }
    }

    /// What the run loop did (`report`), the snapshots on disk and the
    /// time spent emptying the snapshot queue at the end (`finish_s`) and
    /// waiting for the disk during the run (`waited_s`).
    pub fn record(
        &mut self,
        report: &RunReport,
        domain: &Domain,
        snapshots: &[SnapshotRecord],
        (finish_s, waited_s): (f64, f64),
    ) {
        self.outcome = report.outcome;
        self.steps = report.steps_done;
        self.simulated_ms = report.steps_done as f64 * domain.dt_ms();
        self.steps_advanced = report.steps_advanced;
        self.wall_s = report.stepping_s + report.output_s + finish_s;
        self.stepping_s = report.stepping_s;
        self.output_s = report.output_s + finish_s;
        self.output_waited_s = waited_s + finish_s;
        self.throughput =
            Throughput::new(report.steps_advanced, report.stepping_s, domain.cells(), domain.dt_real_ms());
        self.snapshots = snapshots.to_vec();
        self.checkpoint_steps = report.checkpoints.clone();
        self.checkpoint_file =
            (!report.checkpoints.is_empty()).then(|| fibril_host::io::CHECKPOINT_FILE.to_string());
    }

    /// Time spent writing the maps and traces at the end, seconds.
    pub fn add_output_s(&mut self, seconds: f64) {
        self.wall_s += seconds;
        self.output_s += seconds;
    }

    /// Marks the run failed by `error` at the step it had reached.
    pub fn fail(&mut self, error: &anyhow::Error) {
        let step = self.steps;
        self.outcome = Outcome::Failed { step, t_ms: self.simulated_ms };
        self.error = Some(super::error::error_text(error));
    }

    /// The line a completed run prints. Its rates are those of the
    /// stepping alone (snapshots, checkpoints and maps left out), so the
    /// line gives both times: the wall time of the whole run and the part
    /// of it spent stepping, which the rates divide by.
    pub fn one_line(&self, out_dir: &str) -> String {
        let d = &self.domain;
        let (on, updates) = match &self.mesh {
            Some(m) => (format!("a mesh of {} nodes", m.nodes), "node-steps/s"),
            None => (format!("{}x{}x{}", d.nx, d.ny, d.nz), "cell-updates/s"),
        };
        format!(
            "fibril: {} steps ({} {}) of {} on {on} on {} [{}, {}, {}] in {:.2} s, of which stepping {:.2} s: \
             {:.0} steps/s, {:.3e} {updates}, real-time factor {:.3} while stepping; {} snapshot(s) in {}",
            self.steps_advanced,
            fibril_host::time::short(self.steps_advanced as f64 * d.dt_ms),
            d.model.time_unit,
            d.model.name,
            self.device,
            self.backend,
            self.precision,
            self.method,
            self.wall_s,
            self.stepping_s,
            self.throughput.steps_per_s,
            self.throughput.cell_updates_per_s,
            self.throughput.real_time_factor,
            self.snapshots.len(),
            out_dir
        )
    }
}
