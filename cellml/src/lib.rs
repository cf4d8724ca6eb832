//! fibril's CellML compiler: a CellML 1.0/1.1 file (2.0's attribute names
//! are read too) in, a Rust file implementing `CellModel` out, which the
//! kernel crate compiles for the CPU and, to PTX, for the GPU.
//!
//! The steps, one module each: [`document`] reads the XML, [`model`]
//! flattens the components into one set of variables, [`convert`] checks
//! and converts the units, [`analysis`] finds V and the stimulus, orders
//! the equations and picks each state's update (Rush-Larsen gates,
//! backward-Euler Markov blocks, forward Euler), [`emit`] writes Rust.
//! [`eval`] evaluates expressions in f64 (defaults, the stimulus's size,
//! singular points).

pub mod analysis;
pub mod convert;
pub mod document;
pub mod emit;
pub mod error;
pub mod eval;
pub mod expr;
pub mod linear;
pub mod model;
pub mod register;
pub mod units;

pub use analysis::{Options, Plan, Scheme, SchemeCounts};
pub use error::ImportError;

/// One imported model.
pub struct Imported {
    /// The Rust model file.
    pub rust: String,
    pub plan: Plan,
    /// (equation, V0) of each removable singularity handled.
    pub singularities: Vec<(String, f64)>,
}

impl Imported {
    /// What was compiled, in a line: the states by update scheme, the
    /// parameters and the singularities (what `fibril import-cellml` says
    /// and the corpus report lists).
    pub fn summary(&self) -> String {
        let plan = &self.plan;
        let n = plan.scheme_counts();
        let blocks: Vec<String> = plan.blocks.iter().map(|b| b.states.len().to_string()).collect();
        format!(
            "{} variables (V and {} gates by Rush-Larsen, {} by generalised Rush-Larsen, {} in {} Markov blocks [{}] by two-stage SDIRK, {} by forward Euler), {} parameters, {} removable singularities",
            plan.states.len(),
            n.rush_larsen,
            n.generalised_rush_larsen,
            n.markov,
            plan.blocks.len(),
            blocks.join(", "),
            n.forward_euler,
            plan.params.len(),
            self.singularities.len()
        )
    }
}

/// A parameter set of the generated model: (name, meaning, values).
pub type PresetSpec = (String, String, Vec<(String, f64)>);

/// Compiles `text` (a CellML file) into the Rust model `name`.
/// `file_label` is how the generated file cites its source.
pub fn import(
    text: &str,
    name: &str,
    file_label: &str,
    dt_ms: f64,
    presets: &[PresetSpec],
    options: &Options,
) -> Result<Imported, ImportError> {
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return Err(ImportError::Unsupported(format!(
            "the model name `{name}` must be lower-case letters, digits and underscores, starting with a letter (it names a Rust module and kernel entry points)"
        )));
    }
    let doc = document::parse(text)?;
    let model = model::flatten(&doc, options.lenient_units)?;
    let plan = analysis::plan(model, options)?;
    for (preset, _, values) in presets {
        for (param, _) in values {
            if !plan.params.iter().any(|&p| plan.model.vars[p].ident == *param) {
                return Err(ImportError::Unsupported(format!(
                    "preset `{preset}` sets `{param}`, which is not a parameter of the model (see the PARAMETERS table of the generated file)"
                )));
            }
        }
    }
    let source = emit::Source { file_label, bytes: text.len(), hash: fnv1a(text.as_bytes()), dt_ms, presets };
    let (rust, singularities) = emit::emit(&plan, name, &source)?;
    Ok(Imported { rust, plan, singularities })
}

/// FNV-1a, 64 bits: the generated file names the exact bytes it came from.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}
