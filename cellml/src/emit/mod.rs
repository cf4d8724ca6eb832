//! Writing the plan as a Rust model file: a unit type implementing
//! `CellModel` whose reaction is generic over the precision and uses only
//! IEEE operations and `crate::math`'s functions, so the CPU and the GPU
//! agree bit for bit, as in every hand-written model.

use std::fmt::Write as _;

use crate::analysis::{Plan, Scheme};
use crate::error::ImportError;
use crate::expr::VarId;
use crate::model::Def;

mod cse;
mod emitter;
mod markov;
mod reaction;

use emitter::{Emitter, Mode, lit};
use reaction::reaction_body;

/// The window around a removable singularity, in the exponent U of
/// `x/(e^U - 1)`: |U| below it is interpolated linearly. 1e-7 in f64 is
/// chaste_codegen's (cellmlmanip's `_singularity_fixes`, after Johnstone
/// 2018, appendix B); f32 needs a wider one (support.rs says why).
const U_WINDOW_DOC: &str = "|U| < 1e-7 (f64) or 1e-3 (f32)";

/// `iyer_2004` -> `Iyer2004`.
pub fn type_name(name: &str) -> String {
    name.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// What the generated file says about where it comes from.
pub struct Source<'a> {
    pub file_label: &'a str,
    pub bytes: usize,
    pub hash: u64,
    pub dt_ms: f64,
    pub presets: &'a [crate::PresetSpec],
}

fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

pub fn emit(plan: &Plan, name: &str, src: &Source) -> Result<(String, Vec<(String, f64)>), ImportError> {
    let carried = reaction::carried_states(plan);
    let closed = markov::closed_chains(plan);
    let m = &plan.model;
    let ty = type_name(name);
    // The reaction's body first: it decides which constants the coefficients
    // carry. Twice: once to count the repeated expressions, once to write.
    let mut counter = Emitter::new(plan);
    counter.cse.counting = true;
    reaction_body(plan, &mut counter, &carried, &closed)?;
    let mut em = Emitter::new(plan);
    em.cse.counts = std::mem::take(&mut counter.cse.counts);
    let body = reaction_body(plan, &mut em, &carried, &closed)?;
    // Listed by equation: the counting pass saw each before any was shared.
    em.singularities = std::mem::take(&mut counter.singularities);
    em.singularities.dedup();
    let others = &plan.states[1..];

    // The coefficients.
    let mut fields: Vec<(String, String)> =
        vec![("dt".into(), "the time step in the file's time unit".into())];
    let mut used: Vec<VarId> = em.used_constants.iter().copied().collect();
    used.sort_unstable();
    for &u in &used {
        fields.push((m.vars[u].ident.clone(), format!("`{}` ({})", m.vars[u].cellml, m.vars[u].units_name)));
    }
    let hoisted = em.hoisted_order.clone();
    for (name, code) in &hoisted {
        fields.push((name.clone(), format!("`{code}`")));
    }
    let mut coeffs = String::new();
    let pnames: Vec<&str> = plan.params.iter().map(|&p| m.vars[p].ident.as_str()).collect();
    let _ = writeln!(coeffs, "        let [{}] = unpack(params, {});", pnames.join(", "), rust_str(name));
    let _ = writeln!(coeffs, "        let dt = dt * {};", lit(plan.t_per_ms, Mode::Host));
    let mut host = Emitter::new(plan);
    for &d in &plan.derived {
        let Def::Algebraic(e) = &m.vars[d].def else { unreachable!() };
        host.context = m.vars[d].cellml.clone();
        let code = host.num(e, Mode::Host)?;
        let _ = writeln!(coeffs, "        let {} = {code};", m.vars[d].ident);
    }
    let t_fields: Vec<String> = fields
        .iter()
        .map(|(f, _)| {
            let value =
                hoisted.iter().find(|(h, _)| h == f).map(|(_, code)| code.clone()).unwrap_or(f.clone());
            format!("{f}: t({value})")
        })
        .collect();
    let _ = writeln!(coeffs, "        let t = T::from_f64;");
    let _ = writeln!(
        coeffs,
        "        {ty}Coeffs {{\n            {},\n        }}",
        t_fields.join(",\n            ")
    );

    // Variables and parameters.
    let mut out = String::new();
    let title = m.title.clone().unwrap_or_else(|| m.name.clone());
    let _ = writeln!(out, "//! {title}: the CellML model `{}`, imported by `fibril import-cellml`.", m.name);
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! Source: `{}` ({} bytes, FNV-1a 64 {:016x}). Generated code: regenerate\n//! rather than edit (`fibril import-cellml FILE --name {name}`).",
        src.file_label, src.bytes, src.hash
    );
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! # Units");
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! V in mV and time in ms at the boundary: the file's V is {} mV^-1 times\n//! fibril's, its time unit {} per ms; everything else keeps the file's\n//! units (below). The equations were checked for consistent units and\n//! converted where two sides differed only in scale.",
        plan.v_per_mv, plan.t_per_ms
    );
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! # Stimulus");
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! Removed from the equations (fibril adds its own to dV/dt); the default\n//! stimulus is {}: {:.6} mV/ms for {} ms.",
        plan.stimulus.note, plan.stimulus.amplitude_mv_per_ms, plan.stimulus.duration_ms
    );
    for &(x, per_u) in &plan.stimulus.carriers {
        let _ = writeln!(
            out,
            "//!\n//! The file's stimulus also enters d(`{}`)/dt: fibril's stimulus adds\n//! {per_u:e} {} to it per mV it adds to V (`StimulusCarrier`), the\n//! file's ratio at its default constants, so the charge it injects is\n//! carried as the file carries it.",
            m.vars[x].cellml, m.vars[x].units_name
        );
        if carried.contains(&x) {
            let _ = writeln!(
                out,
                "//! In f32 it adds that charge through `{}__carry` as the step adds its\n//! currents, so that a charge below half an ulp a step is kept.",
                m.vars[x].ident
            );
        }
    }
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! # Updates over one step (dt in the file's time unit)");
    let _ = writeln!(out, "//!");
    let _ = writeln!(out, "//! | variable | file variable | unit | update |");
    let _ = writeln!(out, "//! |---|---|---|---|");
    for &s in &plan.states {
        let how = if s == plan.v {
            "forward Euler, by fibril's cell step (this file returns dV/dt)".to_string()
        } else {
            match &plan.schemes[&s] {
                Scheme::ForwardEuler => "forward Euler".into(),
                Scheme::RushLarsen { .. } => {
                    "Rush-Larsen (exponential Euler, rates frozen over the step)".into()
                }
                Scheme::GeneralisedRushLarsen { .. } => {
                    "generalised Rush-Larsen (GRL1: exponential Euler with df/dx frozen)".into()
                }
                Scheme::Markov { block } => format!(
                    "Markov block {block} ({} states): two-stage SDIRK with the rates frozen",
                    plan.blocks[*block].states.len()
                ),
            }
        };
        let largest = |b: usize| closed[b].map(|(_, x)| x);
        let how = match plan.schemes.get(&s) {
            _ if carried.contains(&s) => {
                format!("{how}; in f32 with its rounding error carried (`{}__carry`)", m.vars[s].ident)
            }
            Some(Scheme::Markov { block }) if largest(*block) == Some(s) => {
                format!("{how}; in f32 the chain's total less its other states")
            }
            _ => how,
        };
        let unit = if s == plan.v { "mV".to_string() } else { m.vars[s].units_name.clone() };
        let _ = writeln!(out, "//! | `{}` | `{}` | {unit} | {how} |", m.vars[s].ident, m.vars[s].cellml);
    }
    let _ = writeln!(out, "//!");
    let _ = writeln!(
        out,
        "//! Forward Euler and both Rush-Larsen steps are first order in dt. A Markov block\n//! (states whose right sides are jointly affine in them, dx/dt = A x + b)\n//! takes one two-stage SDIRK step with A and b frozen (g = 1 - 1/sqrt(2),\n//! (I - g dt A) k1 = dt f, (I - g dt A) k2 = dt f + (1 - g) dt A k1,\n//! x' = x + (1 - g) k1 + g k2), I - g dt A factored once by Gaussian\n//! elimination without pivoting (an M-matrix for a chain's rates): second\n//! order for the frozen rates, L-stable, and it keeps a closed chain's\n//! total occupancy; freezing the rates over the step is first order."
    );
    if !carried.is_empty() {
        let _ = writeln!(
            out,
            "//!\n//! A concentration's increment over a small step is far below an f32 ulp\n//! of the concentration (140 mM: 1.5e-5 mM; a step of 2.5 us adds about\n//! 1e-9), and rounded away it would leave the concentration where it\n//! starts. In f32 its update is a compensated sum (Kahan): the rounding\n//! error of each step is kept in a variable of its own (`..__carry`, after\n//! the model's) and added back at the next. In f64 the carries stay 0 and\n//! the updates are the plain ones, bit for bit."
        );
    }
    if closed.iter().any(Option::is_some) {
        let _ = writeln!(
            out,
            "//!\n//! In a closed chain (its matrix's columns sum to 0, no inflow) the state\n//! largest at the file's initial state is, in f32, the chain's total less\n//! its other states (`conserved`): near 1, its ulp is 6e-8 and its slow\n//! exchanges with the others at rest (1e-9 a step) would round away and\n//! let the total drift. In f64 it takes its own update, bit for bit."
        );
    }
    if !em.singularities.is_empty() {
        let _ = writeln!(out, "//!");
        let _ = writeln!(
            out,
            "//! Removable singularities x/(e^U - 1), interpolated linearly where {U_WINDOW_DOC}:"
        );
        for (v, v0) in &em.singularities {
            let _ = writeln!(out, "//! - `{v}` at V = {v0} (file units)");
        }
    }
    if !m.warnings.is_empty() {
        let _ = writeln!(out, "//!");
        let _ = writeln!(
            out,
            "//! Imported with inconsistent units (`--allow-inconsistent-units`), numbers as written:"
        );
        for w in &m.warnings {
            // Units print as `[m^-3 mol]` and operators as `<minus>`:
            // escaped, for rustdoc reads them as links and HTML tags.
            let escaped: String = w
                .chars()
                .flat_map(|c| matches!(c, '[' | ']' | '<' | '>').then_some('\\').into_iter().chain([c]))
                .collect();
            let _ = writeln!(out, "//! - {escaped}");
        }
    }
    if !plan.dropped.is_empty() {
        let d: Vec<String> = plan.dropped.iter().map(|&x| format!("`{}`", m.vars[x].cellml)).collect();
        let _ = writeln!(out, "//!");
        let _ =
            writeln!(out, "//! Constants no equation uses once the stimulus is removed: {}.", d.join(", "));
    }
    let _ = writeln!(out);
    // The file's names are kept (non-snake-case), every operation is
    // parenthesised as in the file, and a variable read only inside a
    // singularity's closure (where V's variables are written out) is left
    // for the compiler to drop.
    let code = format!("{body}{coeffs}");
    let calls = |f: &str| {
        let pat = format!("{f}(");
        code.match_indices(&pat).any(|(i, _)| {
            !code[..i]
                .chars()
                .next_back()
                .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == ':')
        })
    };
    let _ = writeln!(out, "#![allow(non_snake_case, unused_parens, unused_variables, clippy::all)]\n");
    for (module, functions) in
        [("math", &["exp", "ln", "tanh"][..]), ("trig", &["sin", "cos", "asin", "acos"])]
    {
        let used: Vec<&str> = functions.iter().copied().filter(|f| calls(f)).collect();
        if !used.is_empty() {
            let _ = writeln!(out, "use crate::{module}::{{{}}};", used.join(", "));
        }
    }
    let preset = if src.presets.is_empty() { "" } else { "Preset, " };
    let carrier_use = if plan.stimulus.carriers.is_empty() { "" } else { "StimulusCarrier, " };
    let _ = writeln!(
        out,
        "use crate::model::Parameter as P;\nuse crate::model::{{CellModel, ModelInfo, Numerics, {preset}Range, {carrier_use}StimulusCurrent, Variable}};\nuse crate::models::describe::{{ms_mm, unpack}};\nuse crate::models::imported::support::*;\nuse crate::real::Real;\n"
    );
    let _ = writeln!(out, "/// {title} ({} variables).", plan.states.len());
    let _ = writeln!(out, "#[derive(Clone, Copy, Debug)]\npub struct {ty};\n");
    let _ = writeln!(out, "/// The coefficients, formed in f64 from the parameters and dt and rounded once.");
    let _ =
        writeln!(out, "#[repr(C)]\n#[derive(Clone, Copy, Debug, PartialEq)]\npub struct {ty}Coeffs<T> {{");
    for (f, doc) in &fields {
        let _ = writeln!(out, "    /// {doc}\n    pub {f}: T,");
    }
    let _ = writeln!(out, "}}\n");
    let rest: Vec<f64> = plan
        .states
        .iter()
        .map(|&s| {
            let Def::State { initial, .. } = m.vars[s].def else { unreachable!() };
            if s == plan.v { initial / plan.v_per_mv } else { initial }
        })
        .collect();
    let rest_s: Vec<String> =
        rest.iter().chain(carried.iter().map(|_| &0.0)).map(|x| lit(*x, Mode::Host)).collect();
    let _ = writeln!(
        out,
        "/// The file's initial values (V in mV), then the carries' (0).\nconst REST: [f64; {}] = [{}];\n",
        rest_s.len(),
        rest_s.join(", ")
    );
    let _ = writeln!(out, "const VARIABLES: &[Variable] = &[");
    for (i, &s) in plan.states.iter().enumerate() {
        let var = &m.vars[s];
        let (unit, display) = if s == plan.v {
            ("mV".to_string(), "(-100.0, 60.0)".to_string())
        } else if var.unit.is_dimensionless() {
            (var.units_name.clone(), "(0.0, 1.0)".to_string())
        } else {
            let hi = if rest[i] > 0.0 { 2.0 * rest[i] } else { 1.0 };
            (var.units_name.clone(), format!("(0.0, {})", lit(hi, Mode::Host)))
        };
        let unit = if unit == "dimensionless" { "1".to_string() } else { unit };
        let _ = writeln!(
            out,
            "    Variable {{ name: {}, unit: {}, meaning: {}, rest: REST[{i}], display: {display} }},",
            rust_str(&var.ident),
            rust_str(&unit),
            rust_str(&var.cellml)
        );
    }
    for (k, &s) in carried.iter().enumerate() {
        let var = &m.vars[s];
        let _ = writeln!(
            out,
            "    Variable {{ name: {}, unit: {}, meaning: {}, rest: REST[{}], display: (-1e-6, 1e-6) }},",
            rust_str(&format!("{}__carry", var.ident)),
            rust_str(&var.units_name),
            rust_str(&format!(
                "the f32 rounding error carried from step to step in {} (0 in f64)",
                var.ident
            )),
            plan.states.len() + k
        );
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(out, "const PARAMETERS: &[P] = &[");
    for &p in &plan.params {
        let var = &m.vars[p];
        let Def::Constant(x) = var.def else { unreachable!() };
        let range = if x >= 0.0 { "Range::NonNegative" } else { "Range::Finite" };
        let unit = if var.units_name == "dimensionless" { "1" } else { &var.units_name };
        let _ = writeln!(
            out,
            "    P::new({}, {}, {}, {range}, {}),",
            rust_str(&var.ident),
            lit(x, Mode::Host),
            rust_str(unit),
            rust_str(&var.cellml)
        );
    }
    let _ = writeln!(out, "];\n");
    let _ = writeln!(out, "impl CellModel for {ty} {{");
    let _ = writeln!(out, "    const INFO: &'static ModelInfo = &ModelInfo {{");
    let _ = writeln!(out, "        name: {},", rust_str(name));
    let _ = writeln!(out, "        title: {},", rust_str(&title));
    let _ = writeln!(
        out,
        "        reference: {},",
        rust_str(&format!(
            "CellML model `{}` ({}), imported by fibril import-cellml",
            m.name, src.file_label
        ))
    );
    let _ = writeln!(out, "        variables: VARIABLES,\n        parameters: PARAMETERS,");
    let _ = writeln!(out, "        presets: &[");
    for (pname, meaning, values) in src.presets {
        let vals: Vec<String> =
            values.iter().map(|(k, v)| format!("({}, {})", rust_str(k), lit(*v, Mode::Host))).collect();
        let _ = writeln!(
            out,
            "            Preset {{ name: {}, meaning: {}, values: &[{}] }},",
            rust_str(pname),
            rust_str(meaning),
            vals.join(", ")
        );
    }
    let _ = writeln!(out, "        ],");
    let default_preset = src.presets.first().map(|p| p.0.as_str()).unwrap_or("");
    let _ = writeln!(out, "        default_preset: {},", rust_str(default_preset));
    let _ = writeln!(
        out,
        "        units: ms_mm(\"V in mV, times in ms, lengths in mm; the other variables and the parameters in the file's units\"),"
    );
    let _ = writeln!(
        out,
        "        numerics: Numerics {{ dx: 0.2, dt: {}, diffusion: 0.154 }},",
        lit(src.dt_ms, Mode::Host)
    );
    let _ = writeln!(
        out,
        "        activation_threshold: -40.0,\n        stimulus_value: 20.0,\n        planar_background: &REST,"
    );
    let carriers: Vec<String> = plan
        .stimulus
        .carriers
        .iter()
        .map(|&(x, per_u)| {
            let k = plan.states.iter().position(|&s| s == x).expect("a carrier is a state");
            // The carries follow the states among the variables.
            let carry = carried
                .iter()
                .position(|&s| s == x)
                .map_or("None".into(), |c| format!("Some({})", plan.states.len() + c));
            format!("StimulusCarrier {{ variable: {k}, per_u: {}, carry: {carry} }}", lit(per_u, Mode::Host))
        })
        .collect();
    let carriers = format!("&[{}]", carriers.join(", "));
    let _ = writeln!(
        out,
        "        stimulus_current: Some(StimulusCurrent {{ amplitude: {}, duration: {}, carriers: {carriers} }}),",
        lit(plan.stimulus.amplitude_mv_per_ms, Mode::Host),
        lit(plan.stimulus.duration_ms, Mode::Host)
    );
    let _ = writeln!(out, "        default_f64: true,\n    }};\n");
    let _ = writeln!(out, "    type Locals<T: Real> = [T; {}];", others.len() + carried.len());
    let _ = writeln!(out, "    type Coeffs<T: Real> = {ty}Coeffs<T>;\n");
    let _ = writeln!(out, "    fn coeffs<T: Real>(params: &[f64], dt: f64) -> {ty}Coeffs<T> {{");
    out.push_str(&coeffs);
    let _ = writeln!(out, "    }}\n");
    // Inlined into the GPU kernels (a call would put the state on a stack
    // frame). On the CPU the body is compiled here, once per precision, out
    // of line: a generic function is compiled again in every crate that
    // uses it, and every solver and test of the workspace would otherwise
    // compile its own copies of these thousands of lines, for the same bits.
    let n = others.len() + carried.len();
    let _ = writeln!(
        out,
        "    reaction_method!({ty}Coeffs, {n});\n}}\n\nreaction_instances!({ty}Coeffs, {n});\n"
    );
    let _ = writeln!(out, "#[inline(always)]");
    let _ =
        writeln!(out, "fn reaction_body<T: Real>(v_mv: T, locals: &mut [T; {n}], c: &{ty}Coeffs<T>) -> T {{");
    out.push_str(&body);
    let _ = writeln!(out, "}}");
    Ok((out, em.singularities.clone()))
}
