//! The options of `fibril run`, grouped as the sections of a run
//! configuration file: `[grid]`, `[model]`, `[compute]` (shared with
//! `bench` and `info`, in `args.rs`), `[run]`, `[output]` and the
//! `[[stimulus]]` list.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use fibril_host::ModelInfo;
use fibril_host::events::recording::Recording;
use fibril_host::init::InitialCondition;
use fibril_host::io::snapshots::Formats;
use serde::{Deserialize, Serialize};

use super::args::{ComputeArgs, GridArgs, ModelArgs, RankArgs, clap_defaults, default_from_clap};

default_from_clap!(SimArgs, OutputArgs);

/// A count of steps: at least 1 and at most 2^53 (beyond it step counts
/// and times stop being exact, and no run gets there).
pub fn steps_in_range(text: &str) -> Result<u64, String> {
    let max = fibril_host::time::MAX_STEPS;
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number of steps from 1 to {max}, got {text:?}")),
    }
}

/// `fibril run [CONFIG] [OPTIONS]`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub options: RunOptions,
    /// Print the effective configuration (defaults < file < options) as
    /// TOML and exit.
    #[arg(long)]
    pub print_config: bool,
    /// Continue the run saved in this checkpoint (same options as the
    /// original run; --duration-ms/--steps count from its start).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    #[command(flatten)]
    pub ranks: RankArgs,
}

/// Everything a run configuration holds, as options (also taken by
/// `fibril info`, to say what such a run needs).
#[derive(Debug, Clone, Args)]
pub struct RunOptions {
    /// A run configuration file (TOML); options given here override it.
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub grid: GridArgs,
    #[command(flatten)]
    pub model: ModelArgs,
    #[command(flatten)]
    pub compute: ComputeArgs,
    #[command(flatten)]
    pub run: SimArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// A stimulus as a TOML inline table, e.g.
    /// '{region = "sphere", center = [20, 20, 20], radius = 4, at_ms = 150}'
    /// (repeatable; replaces the file's `[[stimulus]]` list).
    #[arg(long = "stimulus", value_name = "TOML")]
    pub stimuli: Vec<String>,
    /// A pseudo-ECG electrode as a TOML inline table, e.g.
    /// '{name = "V1", position = [20, 20, 60]}' (model space units, cell
    /// (i, j, k) at (i dx, j dx, k dx); repeatable; replaces the file's
    /// `[[electrode]]` list). The trace goes to ecg.csv and ecg.png.
    #[arg(long = "electrode", value_name = "TOML")]
    pub electrodes: Vec<String>,
    /// A tetrahedral mesh to run on instead of the box: openCARP .pts,
    /// VTK .vtu, Gmsh .msh or TetGen .node (the `[mesh]` section's file;
    /// its other keys set units, node order and conductivities).
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
}

/// What is simulated and for how long: the `[run]` section.
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimArgs {
    /// Simulated time in ms (the model's time unit).
    #[arg(long, default_value_t = 100.0, conflicts_with = "steps", allow_negative_numbers = true)]
    pub duration_ms: f64,
    /// Number of time steps (instead of --duration-ms).
    #[arg(long, value_parser = steps_in_range)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// Initial condition.
    #[arg(long, value_enum, default_value_t = InitArg::Planar)]
    pub init: InitArg,
    /// Stimulus protocol added to the `[[stimulus]]` list: scroll = the
    /// paper's planar S1 followed by a cross-field S2 (a scroll wave).
    #[arg(long, value_enum, default_value_t = ProtocolArg::None)]
    pub protocol: ProtocolArg,
    /// Time of the scroll protocol's S2, ms; by default, when the S1
    /// wave's back has passed z = 0.4 nz (found by a 1D run).
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s2_ms: Option<f64>,
    /// Check for NaN/Inf (and for Ctrl-C) at least every this many steps
    /// [default: 100 on the CPU; on a GPU 100, or more on small grids, in
    /// hundreds, so that a stretch between checks is at least 2^27
    /// cell-updates (600 steps at 64^3), at most 10,000]
    #[arg(long, value_parser = steps_in_range)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check_every_steps: Option<u64>,
    /// Write a checkpoint (checkpoint.fibril in the output directory)
    /// every this many ms and at the end.
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint_every_ms: Option<f64>,
}

/// What is written where: the `[output]` section.
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutputArgs {
    /// Output directory (created if missing; must be empty unless --overwrite).
    #[arg(long, default_value = "fibril-out")]
    pub out: PathBuf,
    /// Replace fibril's files in a non-empty output directory.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub overwrite: bool,
    /// Write a snapshot every this many ms (and at t = 0); without it only
    /// the final state is written.
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_every_ms: Option<f64>,
    /// Variables written with each snapshot, by name (comma-separated, or
    /// `all`) [default: the potential, variable 0].
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub save: Vec<String>,
    /// Also write the variable v (an alias of adding v to --save).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub save_v: bool,
    /// Snapshot formats, comma-separated: npy, vti (ParaView, with
    /// fields.pvd), png (the three mid-planes); on a tetrahedral mesh npy
    /// and vtu (ParaView, with nodes.pvd; the default there).
    #[arg(long, value_delimiter = ',', default_value = "npy", value_parser = parse_format)]
    pub format: Vec<String>,
    /// Record the activation time of every cell (first upward crossing of
    /// --activation-threshold, checked at every step on the device and
    /// interpolated within the step) and write activation.npy/.vti.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub activation_map: bool,
    /// Threshold of the potential for the activation map [default: the
    /// model's activation threshold].
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_threshold: Option<f64>,
    /// Also record the repolarisation time (first downward crossing of
    /// --repolarisation-threshold after the activation) and write
    /// repolarisation.npy and apd.npy (implies --activation-map).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub apd_map: bool,
    /// Threshold of the downward crossing for --apd-map [default: the
    /// activation threshold]; the 90%-repolarisation level gives APD90.
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repolarisation_threshold: Option<f64>,
    /// Keep the last N activations (and repolarisations) of every cell
    /// instead of the first: maps of shape (N, nz, ny, nx), oldest beat
    /// first, for paced runs (implies --activation-map).
    #[arg(long, value_name = "N")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beats: Option<u32>,
    /// Find spiral tips (a sheet: tips.csv, tips.png) or scroll filaments
    /// (a volume: filaments.csv) every this many ms, from the phase of
    /// variable 0 against its value one interval before.
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tips_every_ms: Option<f64>,
    /// Sample the pseudo-ECG every this many ms (the model's time unit)
    /// [default: 1].
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ecg_every_ms: Option<f64>,
    /// Removed: crossings are checked at every step now. Kept only to say so.
    #[arg(long, hide = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_every_steps: Option<u64>,
    /// No progress bar and no final line.
    #[arg(long, short, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InitArg {
    /// The paper's planar start (eqs. 7-8): the potential excited on the
    /// slab z <= 0.05 nz (y in a sheet, x in a cable), the rest of the cells
    /// at rest (Karma: v = 0.5).
    Planar,
    /// Resting tissue: every variable at the model's rest value.
    Rest,
}

impl InitArg {
    pub fn condition(self) -> InitialCondition {
        match self {
            InitArg::Planar => InitialCondition::Planar,
            InitArg::Rest => InitialCondition::Rest,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            InitArg::Planar => "planar",
            InitArg::Rest => "rest",
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProtocolArg {
    /// Only the initial condition and the `[[stimulus]]` list.
    None,
    /// Planar S1 (the initial condition) and a cross-field S2: a scroll wave.
    Scroll,
}

/// A `--format` name: one of the library's snapshot formats.
fn parse_format(text: &str) -> Result<String, String> {
    Formats::from_names(&[text]).map(|_| text.to_string()).map_err(|e| e.to_string())
}

impl OutputArgs {
    /// Indices of the variables to write, in the model's order: `--save`
    /// (names, or `all`), plus v with `--save-v`; variable 0 alone by default.
    pub fn saved_variables(&self, model: &ModelInfo) -> anyhow::Result<Vec<usize>> {
        let names = || model.variables.iter().map(|v| v.name).collect::<Vec<_>>().join(", ");
        let mut wanted = vec![false; model.variables.len()];
        // Without --save, the potential; --save-v adds to that.
        wanted[0] = self.save.is_empty();
        for name in &self.save {
            if name == "all" {
                wanted.fill(true);
                continue;
            }
            let k = model.variable_index(name).ok_or_else(|| {
                anyhow::anyhow!(
                    "--save {name}: model {} has no variable {name:?}; its variables are {}",
                    model.name,
                    names()
                )
            })?;
            wanted[k] = true;
        }
        if self.save_v {
            let k = model.variable_index("v").ok_or_else(|| {
                anyhow::anyhow!(
                    "--save-v: model {} has no variable v; choose with --save ({})",
                    model.name,
                    names()
                )
            })?;
            wanted[k] = true;
        }
        Ok((0..wanted.len()).filter(|&k| wanted[k]).collect())
    }

    /// The activation threshold: given, or the model's.
    pub fn activation_threshold(&self, model: &ModelInfo) -> f64 {
        self.activation_threshold.unwrap_or(model.activation_threshold)
    }

    /// The maps the run records, checked; `None` without any.
    pub fn recording(&self, model: &ModelInfo) -> anyhow::Result<Option<Recording>> {
        if let Some(n) = self.activation_every_steps {
            anyhow::bail!(
                "--activation-every-steps {n} (activation_every_steps) is gone: activation times are now \
                 checked at every step on the device and interpolated within the step; remove it"
            );
        }
        // Checked whether or not a map is recorded: the activation
        // threshold is also the tip search's, and a value that is no
        // potential is a mistake wherever it is given.
        let thresholds = [
            ("--activation-threshold", self.activation_threshold),
            ("--repolarisation-threshold", self.repolarisation_threshold),
        ];
        for (name, value) in thresholds {
            if let Some(v) = value
                && !(v.is_finite() && v.abs() <= MAX_THRESHOLD)
            {
                anyhow::bail!(
                    "{name} = {} is not a potential: give a finite number within +-{MAX_THRESHOLD} (model {}'s \
                     activation threshold is {})",
                    super::args::number(v),
                    model.name,
                    fibril_host::time::short(model.activation_threshold)
                );
            }
        }
        if !(self.activation_map || self.apd_map || self.beats.is_some()) {
            if self.repolarisation_threshold.is_some() {
                anyhow::bail!("--repolarisation-threshold needs --apd-map");
            }
            return Ok(None);
        }
        let up = self.activation_threshold(model);
        if self.repolarisation_threshold.is_some() && !self.apd_map {
            anyhow::bail!("--repolarisation-threshold needs --apd-map");
        }
        let down = self.apd_map.then(|| self.repolarisation_threshold.unwrap_or(up));
        if let Some(n) = self.beats
            && !(1..=MAX_BEATS).contains(&n)
        {
            anyhow::bail!("--beats {n}: keep from 1 to {MAX_BEATS} beats per cell");
        }
        Ok(Some(Recording { up, down, beats: self.beats }))
    }

    /// The snapshot formats named (a configuration file's names are
    /// checked here: the command line's were checked as they were parsed).
    pub fn formats(&self) -> anyhow::Result<Formats> {
        Formats::from_names(&self.format).map_err(|e| anyhow::anyhow!("--format (format in [output]): {e}"))
    }
}

/// The largest threshold of the potential taken: every model's potential
/// stays within a few hundred (mV, or units of its own).
pub const MAX_THRESHOLD: f64 = 1e4;

/// The most beats per cell a per-beat map keeps (each costs 4 bytes per
/// cell per map on the device).
pub const MAX_BEATS: u32 = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recordings_are_checked() {
        let karma = fibril_host::models::find("karma").unwrap();
        let out = |f: &dyn Fn(&mut OutputArgs)| {
            let mut o = OutputArgs::default();
            f(&mut o);
            o.recording(karma)
        };
        assert_eq!(out(&|_| {}).unwrap(), None);
        let r = out(&|o| o.apd_map = true).unwrap().unwrap();
        assert_eq!(
            (r.up, r.down, r.beats),
            (karma.activation_threshold, Some(karma.activation_threshold), None)
        );
        let r = out(&|o| o.beats = Some(4)).unwrap().unwrap();
        assert_eq!((r.down, r.beats), (None, Some(4)));
        let e = |f: &dyn Fn(&mut OutputArgs)| out(f).unwrap_err().to_string();
        assert!(e(&|o| o.activation_every_steps = Some(4)).contains("is gone"));
        assert!(e(&|o| o.repolarisation_threshold = Some(0.5)).contains("needs --apd-map"));
        assert!(e(&|o| o.beats = Some(0)).contains("from 1 to 64"));
        assert!(
            e(&|o| {
                o.apd_map = true;
                o.repolarisation_threshold = Some(f64::NAN);
            })
            .contains("finite")
        );
        // The activation threshold is checked with no map too (the tip
        // search takes it), and so is an absurd one.
        for bad in [f64::NAN, f64::INFINITY, 1e30] {
            let why = e(&|o| o.activation_threshold = Some(bad));
            assert!(why.contains("--activation-threshold") && why.contains("finite number within"), "{why}");
        }
        assert!(e(&|o| o.repolarisation_threshold = Some(-1e9)).contains("within +-10000"));
    }

    #[test]
    fn defaults_come_from_clap() {
        let run = SimArgs::default();
        assert_eq!(run.duration_ms, 100.0);
        assert_eq!(run.check_every_steps, None);
        assert_eq!(run.protocol, ProtocolArg::None);
        let out = OutputArgs::default();
        assert_eq!(out.out, PathBuf::from("fibril-out"));
        assert_eq!(out.format, vec!["npy".to_string()]);
        assert!(!out.save_v && out.save.is_empty());
    }

    #[test]
    fn saved_variables_by_name_alias_or_all() {
        let karma = fibril_host::models::find("karma").unwrap();
        let out = |save: &[&str], save_v| OutputArgs {
            save: save.iter().map(|s| s.to_string()).collect(),
            save_v,
            ..OutputArgs::default()
        };
        assert_eq!(out(&[], false).saved_variables(karma).unwrap(), vec![0]);
        assert_eq!(out(&[], true).saved_variables(karma).unwrap(), vec![0, 1]);
        assert_eq!(out(&["v"], false).saved_variables(karma).unwrap(), vec![1]);
        assert_eq!(out(&["all"], false).saved_variables(karma).unwrap(), vec![0, 1]);
        let e = out(&["w"], false).saved_variables(karma).unwrap_err().to_string();
        assert!(e.contains("its variables are U, v"), "{e}");
        let diffusion = fibril_host::models::find("diffusion").unwrap();
        assert!(out(&[], true).saved_variables(diffusion).unwrap_err().to_string().contains("--save"));
    }
}
