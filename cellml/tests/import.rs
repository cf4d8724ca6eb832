//! The compiler on small CellML files written for these tests: what it
//! makes of a model (units converted, stimulus removed, each state's
//! update) and the errors that name what is wrong.

use std::collections::HashMap;

use fibril_cellml::{ImportError, Options, Scheme, import};

const TOY: &str = include_str!("data/toy.cellml");

fn toy() -> fibril_cellml::Imported {
    import(TOY, "toy_cell", "toy.cellml", 0.01, &[], &Options::default()).unwrap()
}

fn var(imp: &fibril_cellml::Imported, cellml: &str) -> usize {
    imp.plan.model.find(cellml).unwrap_or_else(|| panic!("{cellml}"))
}

#[test]
fn units_are_converted_across_connections() {
    let imp = toy();
    let (_, diffs) = imp.plan.evaluate(&HashMap::new());
    // dV/dt = -(i_Na + i_K): i_Na = 20 m^3 O (V - 50), i_K = 0.3 (V + 85) Ca/(Ca + 5e-4).
    let expected_dv = -(20.0 * 1e-6 * 0.05 * (-130.0) + 0.3 * 5.0 / 6.0);
    assert!((diffs[imp.plan.v].unwrap() - expected_dv).abs() < 1e-12);
    // The chain is written in seconds and volts: dC/dt per ms, with V read as -0.08 V.
    let k_co = 200.0 * (-0.08f64 / 0.02).exp();
    let dc_per_s = 100.0 * 0.05 + 10.0 * 0.05 - k_co * 0.9;
    let dc = diffs[var(&imp, "chain.C")].unwrap();
    assert!((dc - dc_per_s * 1e-3).abs() < 1e-15, "{dc} against {}", dc_per_s * 1e-3);
}

#[test]
fn each_state_gets_its_update() {
    let imp = toy();
    let p = &imp.plan;
    assert_eq!(p.states.len(), 6);
    assert_eq!(p.states[0], p.v, "V comes first");
    assert!(matches!(p.schemes[&var(&imp, "sodium.m")], Scheme::RushLarsen { .. }));
    for s in ["chain.C", "chain.O", "chain.I"] {
        assert_eq!(p.schemes[&var(&imp, s)], Scheme::Markov { block: 0 }, "{s}");
    }
    assert_eq!(p.blocks.len(), 1);
    // |i_K| has no derivative here, so Ca falls back to forward Euler.
    assert_eq!(p.schemes[&var(&imp, "potassium.Ca")], Scheme::ForwardEuler);
}

#[test]
fn the_stimulus_is_removed_and_measured() {
    let imp = toy();
    let s = &imp.plan.stimulus;
    assert!((s.amplitude_mv_per_ms - 40.0).abs() < 1e-12, "{s:?}");
    assert_eq!(s.duration_ms, 1.5);
    // The stimulus's own constants are no parameters of the model.
    let names: Vec<&str> = imp.plan.params.iter().map(|&p| imp.plan.model.vars[p].ident.as_str()).collect();
    assert!(!names.contains(&"stim_amplitude") && names.contains(&"g_Na"), "{names:?}");
    assert!(imp.rust.contains("StimulusCurrent { amplitude: 40.0, duration: 1.5, carriers: &[] }"));
}

#[test]
fn the_removable_singularity_is_found() {
    let imp = toy();
    assert_eq!(imp.singularities.len(), 1, "{:?}", imp.singularities);
    let (where_, v0) = &imp.singularities[0];
    assert_eq!(where_, "sodium.alpha_m");
    assert!((v0 + 40.0).abs() < 1e-9);
    assert!(imp.rust.contains("removable(V, -40.0,"));
}

#[test]
fn the_generated_file_cites_its_source_and_lists_updates() {
    let imp = toy();
    let rust = &imp.rust;
    assert!(
        rust.contains("toy.cellml")
            && rust.contains(&format!("{:016x}", fibril_cellml::fnv1a(TOY.as_bytes())))
    );
    assert!(rust.contains("impl CellModel for ToyCell"));
    assert!(rust.contains("| `m` | `sodium.m` | dimensionless | Rush-Larsen"));
    assert!(rust.contains("Markov block 0 (3 states): two-stage SDIRK"));
    // m, the three Markov states, Ca, and Ca's f32 carry.
    assert!(rust.contains("type Locals<T: Real> = [T; 6];"));
}

/// A concentration updated by forward Euler or the generalised
/// Rush-Larsen step carries its f32 rounding error from step to step in a
/// variable of its own; a gate and a Markov state do not.
#[test]
fn a_concentration_carries_its_f32_rounding_and_a_gate_does_not() {
    let imp = toy();
    let rust = &imp.rust;
    assert!(rust.contains("name: \"Ca__carry\""), "{rust}");
    assert!(rust.contains("let Ca__carry = locals[5];"));
    assert!(rust.contains("locals[5] = Ca__carry_next;"));
    assert!(rust.contains("= carry_add(Ca, Ca__carry,"));
    assert!(!rust.contains("m__carry") && !rust.contains("O__carry"));
    assert!(rust.contains("in f32 with its rounding error carried (`Ca__carry`)"));
}

/// A closed Markov chain's largest state at the initial state (C, 0.9) is,
/// in f32, the chain's total less the others; a chain with an outflow is
/// not closed and every state keeps its own update.
#[test]
fn a_closed_chain_keeps_its_total_in_f32() {
    let rust = toy().rust;
    assert!(rust.contains("let C__next = conserved(C__next, n(1.0) - (O__next + I__next));"), "{rust}");
    assert!(rust.contains("| `C` | `chain.C` | dimensionless | Markov block 0 (3 states): two-stage SDIRK with the rates frozen; in f32 the chain's total less its other states |"));
    // I leaves at 20/s but C gains it at 10/s: half of it leaves the chain.
    let leaky = replace(
        "<apply><times/><ci>k_oi</ci><ci>O</ci></apply><apply><times/><ci>k_ic</ci><ci>I</ci></apply>",
        r#"<apply><times/><ci>k_oi</ci><ci>O</ci></apply><apply><times/><cn cellml:units="per_second">20</cn><ci>I</ci></apply>"#,
    );
    let rust = import(&leaky, "toy_cell", "toy.cellml", 0.01, &[], &Options::default()).unwrap().rust;
    assert!(rust.contains("Markov block 0 (3 states)"), "still a block");
    assert!(!rust.contains("conserved("), "{rust}");
}

/// The toy's stimulus after the `edits` (each made once, in order): its
/// measured amplitude in mV/ms and its duration in ms.
fn stimulus_after(edits: &[(&str, &str)]) -> (f64, f64) {
    let mut text = TOY.to_string();
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replacen(from, to, 1);
    }
    let imp = import(&text, "toy_cell", "toy.cellml", 0.01, &[], &Options::default()).unwrap();
    (imp.plan.stimulus.amplitude_mv_per_ms, imp.plan.stimulus.duration_ms)
}

/// A stimulus amplitude in amperes for a stimulus current per capacitance
/// (as some published files write it) is divided by the file's Cm.
#[test]
fn an_amplitude_in_amperes_is_divided_by_the_capacitance() {
    let (amplitude, duration) = stimulus_after(&[
        (
            r#"<units name="ms">"#,
            r#"<units name="nA"><unit units="ampere" prefix="nano"/></units><units name="pF"><unit units="farad" prefix="pico"/></units><units name="ms">"#,
        ),
        (
            r#"name="stim_amplitude" units="uA_per_uF" initial_value="-40""#,
            r#"name="stim_amplitude" units="nA" initial_value="-4""#,
        ),
        (
            r#"<piece><ci>stim_amplitude</ci>"#,
            r#"<piece><apply><divide/><ci>stim_amplitude</ci><ci>Cm</ci></apply>"#,
        ),
        (
            r#"<variable name="i_stim""#,
            r#"<variable name="Cm" units="pF" initial_value="100" cmeta:id="membrane_capacitance"/><variable name="i_stim""#,
        ),
        (
            "</rdf:RDF>",
            r##"<rdf:Description rdf:about="#membrane_capacitance"><bqbiol:is rdf:resource="https://chaste.comlab.ox.ac.uk/cellml/ns/oxford-metadata#membrane_capacitance"/></rdf:Description></rdf:RDF>"##,
        ),
    ]);
    // -4 nA / 100 pF = -40 A/F = -40 uA/uF.
    assert!((amplitude - 40.0).abs() < 1e-9 && duration == 1.5, "{amplitude} {duration}");
}

/// An amplitude computed from constants (a current density times an area
/// in some files) is evaluated, not replaced by the default.
#[test]
fn an_amplitude_computed_from_constants_is_evaluated() {
    let (amplitude, duration) = stimulus_after(&[
        (
            r#"name="stim_amplitude" units="uA_per_uF" initial_value="-40""#,
            r#"name="half_amplitude" units="uA_per_uF" initial_value="-20"/><variable name="stim_amplitude" units="uA_per_uF""#,
        ),
        (
            "<apply><eq/><ci>i_stim</ci>",
            r#"<apply><eq/><ci>stim_amplitude</ci><apply><times/><cn cellml:units="dimensionless">2</cn><ci>half_amplitude</ci></apply></apply><apply><eq/><ci>i_stim</ci>"#,
        ),
    ]);
    assert!((amplitude - 40.0).abs() < 1e-9 && duration == 1.5, "{amplitude} {duration}");
}

/// Without an amplitude fibril's default pulse is used whole (52 mV/ms
/// for 1 ms), not its amplitude over the file's duration.
#[test]
fn without_an_amplitude_the_default_pulse_is_whole() {
    let stimulus = stimulus_after(&[(r#" cmeta:id="membrane_stimulus_current_amplitude""#, "")]);
    assert_eq!(stimulus, (52.0, 1.0));
}

fn replace(from: &str, to: &str) -> String {
    assert!(TOY.contains(from), "{from}");
    TOY.replacen(from, to, 1)
}

fn err(text: &str) -> String {
    match import(text, "toy_cell", "toy.cellml", 0.01, &[], &Options::default()) {
        Ok(_) => panic!("imported"),
        Err(e) => e.to_string(),
    }
}

/// The toy with ion concentrations in the membrane component whose
/// derivatives read the stimulus: each `(name, right-hand side)` a state
/// of mM (the right-hand sides in MathML over `i_stim`, `i_K` and `k_K`).
fn with_ions(ions: &[(&str, &str)]) -> String {
    let vars: String = ions
        .iter()
        .map(|(name, _)| format!(r#"<variable name="{name}" units="mM" initial_value="140"/>"#))
        .collect();
    let eqs: String = ions
        .iter()
        .map(|(name, rhs)| {
            format!(
                r#"<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>{name}</ci></apply>{rhs}</apply>"#
            )
        })
        .collect();
    let k = r#"<variable name="k_K" units="mM_per_uA_per_uF_ms" initial_value="6e-5"/>"#;
    let text =
        replace(r#"<variable name="stim_duration""#, &format!(r#"{k}{vars}<variable name="stim_duration""#));
    let end = "</apply>
      </apply>
    </math>
  </component>
  <component name=\"sodium\">";
    assert!(text.contains(end));
    text.replacen(end, &end.replacen("</math>", &format!("{eqs}</math>"), 1), 1)
}

/// -k_K (i_K + i_stim): K+ carries the stimulus's charge, as O'Hara-Rudy's K_i does.
const K_CARRIES: &str = "<apply><minus/><apply><times/><ci>k_K</ci><apply><plus/><ci>i_K</ci><ci>i_stim</ci></apply></apply></apply>";

#[test]
fn an_ion_the_stimulus_enters_is_its_carrier() {
    let imp =
        import(&with_ions(&[("K_i", K_CARRIES)]), "toy_cell", "toy.cellml", 0.01, &[], &Options::default())
            .unwrap();
    let carriers = &imp.plan.stimulus.carriers;
    // dV/dt = -i_stim and dK_i/dt = -k_K i_stim: k_K mM per mV.
    assert_eq!(carriers.len(), 1, "{carriers:?}");
    assert_eq!(carriers[0].0, var(&imp, "membrane.K_i"));
    assert!((carriers[0].1 - 6e-5).abs() < 1e-18, "{carriers:?}");
    let k = imp.plan.states.iter().position(|&x| x == carriers[0].0).unwrap();
    assert!(
        imp.rust.contains(&format!("carriers: &[StimulusCarrier {{ variable: {k}, per_u: ")),
        "{}",
        imp.rust
    );
    assert!(imp.rust.contains("also enters d(`membrane.K_i`)/dt"));
    // The toy itself carries nothing.
    assert!(toy().plan.stimulus.carriers.is_empty());
}

#[test]
fn a_stimulus_carried_too_widely_or_not_in_proportion_is_refused_by_name() {
    let three = with_ions(&[("K_i", K_CARRIES), ("Na_i", K_CARRIES), ("Cl_i", K_CARRIES)]);
    let e = err(&three);
    assert!(e.contains("`membrane.K_i`, `membrane.Na_i`, `membrane.Cl_i`") && e.contains("at most 2"), "{e}");
    let squared = "<apply><times/><ci>k_K</ci><ci>i_stim</ci><ci>i_stim</ci><cn cellml:units=\"per_uA_per_uF\">1</cn></apply>";
    let e = err(&with_ions(&[("K_i", squared)]).replacen(
        "<units name=\"mM\">",
        "<units name=\"per_uA_per_uF\"><unit units=\"uA_per_uF\" exponent=\"-1\"/></units><units name=\"mM\">",
        1,
    ));
    assert!(e.contains("d`membrane.K_i`/dt other than in proportion"), "{e}");
}

#[test]
fn inconsistent_units_name_the_equation_unless_let_through() {
    // E_Na in ms: V - E_Na joins a voltage and a time.
    let bad = replace(r#"name="E_Na" units="mV""#, r#"name="E_Na" units="ms""#);
    let e = err(&bad);
    assert!(e.contains("inconsistent units") && e.contains("sodium.i_Na"), "{e}");
    let options = Options { lenient_units: true, ..Options::default() };
    let imp = import(&bad, "toy_cell", "toy.cellml", 0.01, &[], &options).unwrap();
    assert!(!imp.plan.model.warnings.is_empty());
    assert!(imp.rust.contains("Imported with inconsistent units"));
}

#[test]
fn an_algebraic_loop_names_its_variables() {
    // beta_m = 4 alpha_m ms... and alpha_m reads beta_m: a loop.
    let bad = replace(
        r#"<apply><eq/><ci>beta_m</ci>
        <apply><times/><cn cellml:units="per_ms">4</cn>"#,
        r#"<apply><eq/><ci>beta_m</ci>
        <apply><times/><ci>alpha_m</ci>"#,
    )
    .replace(
        r#"<apply><times/><cn cellml:units="ms">1</cn><apply><minus/>"#,
        r#"<apply><times/><apply><divide/><cn cellml:units="dimensionless">1</cn><ci>beta_m</ci></apply><apply><minus/>"#,
    );
    let e = err(&bad);
    assert!(
        e.contains("algebraic loop") && e.contains("sodium.alpha_m") && e.contains("sodium.beta_m"),
        "{e}"
    );
}

#[test]
fn a_model_without_an_annotated_voltage_asks_for_one() {
    let bad = replace(r#" cmeta:id="membrane_voltage""#, "");
    let e = err(&bad);
    assert!(e.contains("--voltage"), "{e}");
    let options = Options { voltage: Some("membrane.V".into()), ..Options::default() };
    assert!(import(&bad, "toy_cell", "toy.cellml", 0.01, &[], &options).is_ok());
}

#[test]
fn unsupported_input_is_refused_by_name() {
    assert!(err("not xml").contains("not an XML file"));
    assert!(err("<model name='x'/>").contains("not a CellML model"));
    let e = err(&replace("<exp/>", "<arcsech/>"));
    assert!(e.contains("arcsech"), "{e}");
    let e = err(&replace(
        "<component name=\"environment\">",
        "<import xmlns:xlink=\"http://www.w3.org/1999/xlink\" xlink:href=\"x.cellml\"/><component name=\"environment\">",
    ));
    assert!(e.contains("flatten"), "{e}");
    let bad_name = import(TOY, "Toy-Cell", "toy.cellml", 0.01, &[], &Options::default());
    assert!(matches!(bad_name, Err(ImportError::Unsupported(m)) if m.contains("lower-case")));
    // A preset must set parameters of the model.
    let presets = vec![("fast".to_string(), "m".to_string(), vec![("g_Kr".to_string(), 1.0)])];
    let e =
        import(TOY, "toy_cell", "toy.cellml", 0.01, &presets, &Options::default()).err().unwrap().to_string();
    assert!(e.contains("g_Kr"), "{e}");
}

/// Trigonometric functions go to the kernels' own (`kernels-gpu/src/trig.rs`).
#[test]
fn cosine_and_arc_cosine_use_the_kernels_own() {
    let text = replace("<exp/>", "<cos/>");
    let imp = import(&text, "toy_cell", "toy.cellml", 0.01, &[], &Options::default()).unwrap();
    assert!(imp.rust.contains("use crate::trig::{cos};") && imp.rust.contains("cos("), "{}", imp.rust);
}

#[test]
fn repeated_expressions_are_computed_once() {
    // The chain's rates appear in the Markov matrix and in the right-hand
    // sides: each compound expression is bound once and read by name.
    let imp = toy();
    let rust = &imp.rust;
    let temps: Vec<&str> = rust.lines().filter(|l| l.trim_start().starts_with("let s__")).collect();
    assert!(!temps.is_empty(), "no shared expression in:\n{rust}");
    // A singularity's closure is a function of its own V: not shared.
    let outside: String =
        rust.lines().map(|l| l.split("|V: T|").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    for t in &temps {
        let (lhs, rhs) = t.trim().trim_start_matches("let ").split_once(" = ").unwrap();
        let rhs = rhs.trim_end_matches(';');
        assert!(outside.matches(lhs).count() >= 2, "{lhs} is never read");
        assert_eq!(outside.matches(rhs).count(), 1, "`{rhs}` is still written more than once");
    }
}
