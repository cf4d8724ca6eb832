//! `fibril import-cellml FILE`: compiles a CellML model into a Rust model
//! file of the kernel crate and registers it; after a rebuild the model
//! runs on the CPU and the GPU like the hand-written ones.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use fibril_cellml::register::{SourceTree, write_atomic};
use fibril_cellml::{Options, PresetSpec};

/// A line on stdout that does not panic when the reader has gone (`fibril
/// import-cellml ... | head`): the import's work does not depend on it.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The CellML 1.0/1.1 file (one file: flatten imports first).
    pub file: PathBuf,
    /// The model's name in fibril: lower-case letters, digits and
    /// underscores (it names a Rust module and the kernel entry points).
    /// Default: the file's name.
    #[arg(long)]
    pub name: Option<String>,
    /// The time step runs of the model default to, ms.
    #[arg(long, default_value_t = 0.01)]
    pub dt_ms: f64,
    /// A named parameter set, NAME=param:value,param:value (repeat for
    /// several; the first is the default).
    #[arg(long = "preset", value_name = "NAME=PARAM:VALUE,...")]
    pub presets: Vec<String>,
    /// The membrane potential as component.variable, where the file does
    /// not annotate it (oxmeta membrane_voltage).
    #[arg(long)]
    pub voltage: Option<String>,
    /// The stimulus current as component.variable, where the file does
    /// not annotate it (oxmeta membrane_stimulus_current).
    #[arg(long)]
    pub stimulus: Option<String>,
    /// Import a file whose equations join different dimensions, taking its
    /// numbers as written; every mismatch is listed in the generated file.
    #[arg(long)]
    pub allow_inconsistent_units: bool,
    /// The root of fibril's source (the folder with kernels-gpu/).
    #[arg(long, default_value = ".")]
    pub source: PathBuf,
    /// Write only the Rust file, here, and register nothing.
    #[arg(long, conflicts_with = "source")]
    pub out: Option<PathBuf>,
    /// Check the file and say what an import would do; write nothing.
    #[arg(long)]
    pub check: bool,
}

fn parse_preset(text: &str) -> anyhow::Result<PresetSpec> {
    let bad = || format!("--preset {text:?}: write NAME=PARAM:VALUE,PARAM:VALUE (e.g. m=celltype:2)");
    let (name, values) = text.split_once('=').with_context(bad)?;
    let values = values
        .split(',')
        .map(|kv| {
            let (k, v) = kv.split_once(':').with_context(bad)?;
            Ok((k.trim().to_string(), v.trim().parse::<f64>().with_context(bad)?))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((name.trim().to_string(), format!("set by the import: {values:?}"), values))
}

/// Formats the generated file as the rest of the source (so `cargo fmt
/// --check` passes on it), where rustfmt is installed; says so where not.
fn rustfmt(file: &std::path::Path, source: &std::path::Path) {
    let mut cmd = std::process::Command::new("rustfmt");
    cmd.args(["--edition", "2024"]);
    let config = source.join("rustfmt.toml");
    if config.is_file() {
        cmd.arg("--config-path").arg(config);
    }
    if !cmd.arg(file).status().is_ok_and(|s| s.success()) {
        say!("  (rustfmt did not run: run `cargo fmt` before committing the file)");
    }
}

pub fn import_cellml(args: ImportArgs) -> anyhow::Result<ExitCode> {
    if !(args.dt_ms.is_finite() && args.dt_ms > 0.0) {
        bail!("--dt-ms {}: give a positive time step in ms (0.01 suits most ionic models)", args.dt_ms);
    }
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading {} (give the path of a .cellml file)", args.file.display()))?;
    let stem =
        args.file.file_stem().map(|s| s.to_string_lossy().to_lowercase().replace(['-', ' ', '.'], "_"));
    let name = args.name.clone().or(stem).unwrap_or_default();
    let presets = args.presets.iter().map(|p| parse_preset(p)).collect::<anyhow::Result<Vec<_>>>()?;
    let options = Options {
        voltage: args.voltage.clone(),
        stimulus: args.stimulus.clone(),
        max_block: None,
        lenient_units: args.allow_inconsistent_units,
    };
    let label = args.file.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default();
    // Where it goes is checked before the work, so nothing is half-done.
    let tree = match (&args.out, args.check) {
        (None, false) => Some(SourceTree::at(&args.source)?),
        _ => None,
    };
    let imported = fibril_cellml::import(&text, &name, &label, args.dt_ms, &presets, &options)
        .with_context(|| format!("importing {}", args.file.display()))?;
    let plan = &imported.plan;
    say!("{name}: {}", imported.summary());
    say!(
        "  stimulus: {:.4} mV/ms for {} ms ({})",
        plan.stimulus.amplitude_mv_per_ms,
        plan.stimulus.duration_ms,
        plan.stimulus.note
    );
    let warnings = &plan.model.warnings;
    for w in warnings.iter().take(3) {
        say!("  units let through: {w}");
    }
    if warnings.len() > 3 {
        say!("  ... {} unit mismatches in all, each listed in the generated file", warnings.len());
    }
    if args.check {
        return Ok(ExitCode::SUCCESS);
    }
    match (&args.out, tree) {
        (Some(out), _) => {
            write_atomic(out, &imported.rust)?;
            rustfmt(out, &args.source);
            say!("wrote {} (not registered)", out.display());
        }
        (None, Some(tree)) => {
            let new = tree.register(&name, &imported.rust)?;
            rustfmt(&tree.model_file(&name), &args.source);
            say!(
                "{} {} and {} it; `cargo build --release` compiles it for the CPU and the GPU, then `fibril models {name}`",
                if new { "wrote" } else { "replaced" },
                tree.model_file(&name).display(),
                if new { "registered" } else { "kept the registration of" }
            );
        }
        (None, None) => unreachable!("a tree unless --out or --check"),
    }
    Ok(ExitCode::SUCCESS)
}
