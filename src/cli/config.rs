//! Run configuration files: TOML with one section per option group, and
//! the merge that gives the effective configuration of a run.
//!
//! Precedence: clap's defaults < the file < options given on the command
//! line. Whether an option was given is asked of clap
//! (`ArgMatches::value_source`), not guessed by comparing with defaults,
//! so `--dx 0.6` overrides a file's `dx = 0.5` even though 0.6 is the
//! default. Two more rules: `--size` on the command line also overrides a
//! file's `nx`/`ny`/`nz`, and `--duration-ms` a file's `steps`.
//!
//! Unknown keys and values of the wrong type are errors that name the key
//! and its line (the `toml` crate's messages carry both).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, anyhow, bail};
use clap::ArgMatches;
use clap::parser::ValueSource;
use fibril_host::events::ecg::Electrode;
use fibril_host::events::stimulus::StimulusSpec;
use serde::{Deserialize, Serialize};

use super::args::{ComputeArgs, GridArgs, ModelArgs};
use super::run_args::{OutputArgs, RunOptions, SimArgs};

/// The effective configuration of a run; `fibril run --print-config`
/// prints it, and a file holding that output reproduces the run.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunConfig {
    pub grid: GridArgs,
    pub model: ModelArgs,
    pub compute: ComputeArgs,
    pub run: SimArgs,
    pub output: OutputArgs,
    /// Stimuli, each a `[[stimulus]]` table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stimulus: Vec<StimulusSpec>,
    /// Pseudo-ECG electrodes, each an `[[electrode]]` table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub electrode: Vec<Electrode>,
    /// A geometry with fibres (`[tissue]`, `cli::tissue`); the box without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tissue: Option<super::tissue::TissueArgs>,
    /// A tetrahedral mesh instead of the box (`[mesh]`, `cli::mesh`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<super::mesh_args::MeshArgs>,
}

/// An `--electrode` value: a TOML inline table.
pub fn parse_electrode(text: &str) -> anyhow::Result<Electrode> {
    #[derive(Deserialize)]
    struct One {
        electrode: Electrode,
    }
    let one: One = toml::from_str(&format!("electrode = {text}")).map_err(|e| {
        anyhow!(
            "--electrode {text:?} is not a valid electrode table (name = \"V1\", position = [x, y, z]): {}",
            e.message()
        )
    })?;
    Ok(one.electrode)
}

/// A `--stimulus` value: a TOML inline table.
pub fn parse_stimulus(text: &str) -> anyhow::Result<StimulusSpec> {
    #[derive(Deserialize)]
    struct One {
        stimulus: StimulusSpec,
    }
    let one: One = toml::from_str(&format!("stimulus = {text}"))
        .map_err(|e| anyhow!("--stimulus {text:?} is not a valid stimulus table: {}", e.message()))?;
    Ok(one.stimulus)
}

fn given_on_command_line(matches: &ArgMatches, id: &str) -> bool {
    matches.value_source(id) == Some(ValueSource::CommandLine)
}

/// The largest configuration file read: hand-written files are a few
/// kilobytes, and one with thousands of stimuli or electrodes stays far
/// below; anything larger is not a configuration (`/dev/zero`, a snapshot
/// given by mistake) and would otherwise be read whole into memory.
pub const MAX_CONFIG_BYTES: u64 = 16 << 20;

/// Reads and checks a configuration file, refusing unknown keys and wrong
/// types with the line, and a file larger than [`MAX_CONFIG_BYTES`]
/// before reading it.
pub fn read_file(path: &Path) -> anyhow::Result<toml::Table> {
    let cannot = || format!("cannot read the configuration file {}", path.display());
    let bytes = fibril_host::io::bounded::read(path, MAX_CONFIG_BYTES, "a run configuration file")
        .with_context(cannot)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow!(
            "the configuration file {} is not UTF-8 text (byte {} is not); give a TOML file",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    parse_file(path, &text)
}

/// Checks the text of a configuration file; `path` names it in errors.
pub fn parse_file(path: &Path, text: &str) -> anyhow::Result<toml::Table> {
    if let Ok(table) = text.parse::<toml::Table>() {
        check_model_keys(path, &table)?;
    }
    let typed: Result<RunConfig, _> = toml::from_str(text);
    if let Err(e) = typed {
        bail!("in the configuration file {}: {e}", path.display());
    }
    let table: toml::Table = text.parse().expect("parsed above");
    if let Some(run) = table.get("run").and_then(|r| r.as_table())
        && run.contains_key("duration_ms")
        && run.contains_key("steps")
    {
        bail!(
            "in the configuration file {}: [run] sets both duration_ms and steps; keep one",
            path.display()
        );
    }
    Ok(table)
}

/// Files written before models had names put Karma's parameters straight
/// into `[model]`; say where they go now rather than only "unknown field".
fn check_model_keys(path: &Path, table: &toml::Table) -> anyhow::Result<()> {
    let Some(model) = table.get("model").and_then(|m| m.as_table()) else { return Ok(()) };
    for (key, value) in model {
        if key == "no_reaction" {
            bail!(
                "in the configuration file {}: [model] no_reaction is gone; pure diffusion is a model: \
                 write name = \"diffusion\" in [model] (or pass --model diffusion)",
                path.display()
            );
        }
        let is_parameter = fibril_host::models::MODELS.iter().any(|m| m.parameter_index(key).is_some());
        if !["name", "preset", "parameters"].contains(&key.as_str()) && is_parameter {
            bail!(
                "in the configuration file {}: [model] sets {key} directly; model parameters go in a \
                 [model.parameters] table ({key} = {value}) or on the command line (--param {key}={value})",
                path.display()
            );
        }
    }
    Ok(())
}

/// The directory of the configuration file `path`, absolute, which the
/// relative paths in the file are read from.
fn config_dir(path: &Path) -> anyhow::Result<PathBuf> {
    let absolute = std::path::absolute(path)
        .with_context(|| format!("cannot tell the directory of the configuration file {}", path.display()))?;
    Ok(absolute.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf))
}

/// Joins the relative paths in a configuration file's `section` to the
/// file's directory `base`: `mask`, `fibres` and the files of
/// `parameter_fields` in `[tissue]`, `file` and `parameter_fields` in `[mesh]`, and `file`
/// in each `[[stimulus]]`, so that a file names the files beside it
/// wherever fibril is started from (and `--print-config`, which prints
/// them in full, prints paths that still work). Paths given on the
/// command line stay relative to the working directory, and so does the
/// output directory `out`, which is no input.
fn anchor_paths(section: &str, value: &mut toml::Value, base: &Path) -> anyhow::Result<()> {
    let keys: &[&str] = match section {
        "tissue" => &["mask", "fibres"],
        "mesh" => &["file"],
        "stimulus" => &["file"],
        _ => return Ok(()),
    };
    let tables: Vec<&mut toml::Table> = match value {
        toml::Value::Table(t) => vec![t],
        toml::Value::Array(items) => items.iter_mut().filter_map(toml::Value::as_table_mut).collect(),
        _ => Vec::new(),
    };
    let anchor = |key: &str, text: &mut String| -> anyhow::Result<()> {
        if Path::new(text.as_str()).is_absolute() {
            return Ok(());
        }
        let joined = base.join(text.as_str());
        *text = joined
            .to_str()
            .ok_or_else(|| {
                anyhow!(
                    "the directory {} of the configuration file is not UTF-8 text, so {key} = {text:?} \
                     cannot be joined to it; give {key} as a full path",
                    base.display()
                )
            })?
            .to_string();
        Ok(())
    };
    for table in tables {
        for key in keys {
            if let Some(toml::Value::String(text)) = table.get_mut(*key) {
                anchor(key, text)?;
            }
        }
        // [tissue.parameter_fields], [mesh.parameter_fields]: a file per
        // parameter.
        if (section == "tissue" || section == "mesh")
            && let Some(toml::Value::Table(fields)) = table.get_mut("parameter_fields")
        {
            for (key, value) in fields.iter_mut() {
                if let toml::Value::String(text) = value {
                    anchor(key, text)?;
                }
            }
        }
    }
    Ok(())
}

/// The effective configuration and the keys that were set explicitly
/// (on the command line or in the file) rather than left at their defaults.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub config: RunConfig,
    pub explicit: BTreeSet<String>,
}

impl Resolved {
    pub fn is_explicit(&self, key: &str) -> bool {
        self.explicit.contains(key)
    }
}

impl RunConfig {
    /// What a tissue run does not offer yet, refused before any work starts.
    pub fn check_tissue_options(&self) -> anyhow::Result<()> {
        let config = self;
        if config.compute.exchange == super::args::ExchangeArg::Nccl {
            // A tissue's split is made from the whole operator, which every
            // process would have to build, and its outputs are not gathered by
            // NCCL yet.
            bail!(fibril_host::simulation::PlacementError::TissueOverProcesses);
        }
        if config.compute.kernel != super::args::KernelArg::Auto {
            bail!("a tissue has its own kernels (the layout in [tissue]); drop --kernel");
        }
        config.compute.check_option_values()?;
        Ok(())
    }

    /// The effective configuration: `options` as parsed (their defaults
    /// included), overridden by the file `options.config` where the
    /// command line did not give an option itself.
    pub fn resolve(options: &RunOptions, matches: &ArgMatches) -> anyhow::Result<Resolved> {
        let file =
            options.config.as_ref().map(|path| Ok::<_, anyhow::Error>((path.as_path(), read_file(path)?)));
        Self::resolve_with(options, matches, file.transpose()?)
    }

    /// [`RunConfig::resolve`] with the file's text given rather than read
    /// (`path` names it in errors).
    pub fn resolve_text(
        options: &RunOptions,
        matches: &ArgMatches,
        path: &Path,
        text: &str,
    ) -> anyhow::Result<Resolved> {
        Self::resolve_with(options, matches, Some((path, parse_file(path, text)?)))
    }

    fn resolve_with(
        options: &RunOptions,
        matches: &ArgMatches,
        file: Option<(&Path, toml::Table)>,
    ) -> anyhow::Result<Resolved> {
        let mut explicit: BTreeSet<String> = matches
            .ids()
            .map(|id| id.as_str())
            .filter(|id| given_on_command_line(matches, id))
            .map(String::from)
            .collect();
        let config = Self::merge(options, matches, &mut explicit, file)?;
        Ok(Resolved { config, explicit })
    }

    fn merge(
        options: &RunOptions,
        matches: &ArgMatches,
        explicit: &mut BTreeSet<String>,
        file: Option<(&Path, toml::Table)>,
    ) -> anyhow::Result<Self> {
        let stimulus =
            options.stimuli.iter().map(|s| parse_stimulus(s)).collect::<anyhow::Result<Vec<_>>>()?;
        let electrode =
            options.electrodes.iter().map(|s| parse_electrode(s)).collect::<anyhow::Result<Vec<_>>>()?;
        let from_args = RunConfig {
            grid: options.grid.clone(),
            model: options.model.clone(),
            compute: options.compute.clone(),
            run: options.run.clone(),
            output: options.output.clone(),
            stimulus,
            electrode,
            tissue: None,
            mesh: options.mesh.as_deref().map(super::mesh_args::from_flag),
        };
        let Some((path, file)) = file else {
            return Ok(from_args);
        };
        let mut merged = toml::Table::try_from(&from_args)
            .map_err(|e| anyhow!("an option's value cannot be combined with a configuration file: {e}"))?;
        let base = config_dir(path)?;
        for (section, mut value) in file {
            anchor_paths(&section, &mut value, &base)?;
            if section == "stimulus" {
                if options.stimuli.is_empty() {
                    merged.insert(section, value);
                }
                continue;
            }
            if section == "electrode" {
                if options.electrodes.is_empty() {
                    merged.insert(section, value);
                }
                continue;
            }
            if section == "tissue" {
                // No option overrides it (it has none on the command line).
                merged.insert(section, value);
                continue;
            }
            if section == "mesh" {
                // --mesh replaces the file's mesh, keeping its other keys.
                let mut value = value;
                if let (Some(file), toml::Value::Table(t)) = (&options.mesh, &mut value) {
                    let file = file.to_str().context("--mesh: give a path that is UTF-8 text")?;
                    t.insert("file".into(), toml::Value::String(file.into()));
                }
                merged.insert(section, value);
                continue;
            }
            let toml::Value::Table(keys) = value else {
                unreachable!("checked by parse_file: every other key is a table");
            };
            let is_model = section == "model";
            let target = merged
                .entry(section)
                .or_insert_with(|| toml::Value::Table(Default::default()))
                .as_table_mut()
                .expect("sections are tables");
            for (key, v) in keys {
                explicit.insert(key.clone());
                if is_model && key == "parameters" {
                    // Parameters merge by name: the file's, then --param on top.
                    let mut table = v.as_table().cloned().unwrap_or_default();
                    if let Some(toml::Value::Table(given)) = target.get("parameters") {
                        for (name, x) in given {
                            table.insert(name.clone(), x.clone());
                        }
                    }
                    target.insert(key, toml::Value::Table(table));
                    continue;
                }
                let overridden = given_on_command_line(matches, &key)
                    || (["nx", "ny", "nz"].contains(&key.as_str()) && given_on_command_line(matches, "size"))
                    || (key == "steps" && given_on_command_line(matches, "duration_ms"));
                if !overridden {
                    target.insert(key, v);
                }
            }
        }
        if given_on_command_line(matches, "duration_ms")
            && let Some(run) = merged.get_mut("run").and_then(|r| r.as_table_mut())
        {
            run.remove("steps");
        }
        merged.try_into().with_context(|| format!("merging {} with the options", path.display()))
    }

    /// The configuration as TOML (what `--print-config` prints). With
    /// `steps` set, `duration_ms` is left out: steps decide, and a file
    /// may not hold both. Every value fits TOML's integers: the options
    /// that could exceed them are bounded when parsed.
    pub fn to_toml(&self) -> String {
        let mut table = toml::Table::try_from(self).expect("a config serializes to TOML");
        if self.run.steps.is_some()
            && let Some(run) = table.get_mut("run").and_then(|r| r.as_table_mut())
        {
            run.remove("duration_ms");
        }
        toml::to_string(&table).expect("a table serializes to TOML")
    }
}
