//! `fibril models [NAME]`: the cell models, their variables, parameters,
//! presets, units and usual discretisation.

use std::process::ExitCode;

use anyhow::anyhow;
use clap::Args;
use fibril_host::ModelInfo;
use fibril_host::backend::KernelKind;
use fibril_host::models::{self, MODELS};
use fibril_host::time::short;

#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// Describe this model in full (without it, one line per model).
    pub name: Option<String>,
}

pub fn models(args: ModelsArgs) -> anyhow::Result<ExitCode> {
    match &args.name {
        None => {
            for m in MODELS {
                println!("{}", summary_line(m));
            }
            println!("\n`fibril models NAME` describes one; `fibril run --model NAME` runs it.");
        }
        Some(name) => {
            let m = models::find(name)
                .ok_or_else(|| anyhow!("unknown model {name:?}; the models are: {}", models::names()))?;
            print!("{}", describe(m));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn names<'a>(items: impl Iterator<Item = &'a str>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

/// "karma  Karma 1993: 2 variables (U, v); parameters gamma, ...; presets stable, breakup".
pub fn summary_line(m: &ModelInfo) -> String {
    let presets = if m.presets.is_empty() {
        String::new()
    } else {
        format!("; presets {}", names(m.presets.iter().map(|p| p.name)))
    };
    let parameters =
        if m.parameters.is_empty() { String::new() } else { format!("; {} parameters", m.parameters.len()) };
    format!(
        "{:<20} {}: {} variables ({}){parameters}{presets}",
        m.name,
        m.title,
        m.variables.len(),
        names(m.variables.iter().map(|v| v.name))
    )
}

/// The full description `fibril models NAME` prints.
pub fn describe(m: &ModelInfo) -> String {
    let mut out = format!("{} ({})\n  {}\n", m.name, m.title, m.reference);
    let u = &m.units;
    out += &format!("units: time in {}, space in {}; {}\n", u.time, u.space, u.note);
    let n = &m.numerics;
    out += &format!(
        "usual discretisation (the defaults of a run): dx = {} {}, dt = {} {}, D = {} {}^2/{} \
         (D dt/dx^2 = {:.4})\n",
        short(n.dx),
        u.space,
        short(n.dt),
        u.time,
        short(n.diffusion),
        u.space,
        u.time,
        n.diffusion * n.dt / (n.dx * n.dx)
    );
    let stimulus = match m.stimulus_current {
        Some(c) => format!(
            "stimuli inject a current of {} {}/{} for {} {}{} (a stimulus with `value` sets {} instead)",
            short(c.amplitude),
            m.variables[0].unit,
            u.time,
            short(c.duration),
            u.time,
            c.carriers
                .iter()
                .map(|k| format!(", carried by {}", m.variables[k.variable].name))
                .collect::<String>(),
            m.variables[0].name
        ),
        None => format!("stimuli set {} to {}", m.variables[0].name, short(m.stimulus_value)),
    };
    out += &format!(
        "activation threshold {} (activation maps, the scroll protocol); {stimulus}\n",
        short(m.activation_threshold),
    );
    if m.variables[0].unit == "mV" {
        out += "physical units: the tissue equation is Cm dV/dt = -I_ion + div(sigma grad V)/chi + I_stim \
                (currents in uA/uF = mV/ms); give D (--diffusion, mm^2/ms) or --sigma (S/m), --chi (1/mm) \
                and --cm (uF/cm^2)\n";
    }
    out += &format!(
        "precision: {} by default (--precision overrides)\n",
        if m.default_f64 { "f64 (its tests found f32 too coarse over many beats)" } else { "f32" }
    );
    out += "variables (the first diffuses):\n";
    for v in m.variables {
        out += &format!(
            "  {:<6} {:<6} rest {:<10} pictures {} to {}   {}\n",
            v.name,
            v.unit,
            short(v.rest),
            short(v.display.0),
            short(v.display.1),
            v.meaning
        );
    }
    if m.parameters.is_empty() {
        out += "parameters: none\n";
    } else {
        let preset = if m.default_preset.is_empty() {
            String::new()
        } else {
            format!(", preset {}", m.default_preset)
        };
        out += &format!("parameters (--param NAME=VALUE; defaults{preset}):\n");
        for p in m.parameters {
            out += &format!(
                "  {:<10} {:<10} {:<8} {:<34} {}\n",
                p.name,
                short(p.default),
                p.unit,
                p.range.to_string(),
                p.meaning
            );
        }
    }
    if !m.presets.is_empty() {
        out += "presets (--preset NAME):\n";
        for p in m.presets {
            let values = if p.values.is_empty() {
                "the defaults".to_string()
            } else {
                p.values.iter().map(|(k, v)| format!("{k} = {}", short(*v))).collect::<Vec<_>>().join(", ")
            };
            out += &format!("  {:<10} {}\n  {:<10} {values}\n", p.name, p.meaning, "");
        }
    }
    if let Some(t) = models::rate_table_of(m) {
        out += &format!(
            "rate table (--rate-tables): {} functions of {} sampled every {} {} from {} to {} {}, interpolated linearly (Bartocci et al. 2011, section 5); the exact functions outside it\n",
            t.columns,
            m.variables[0].name,
            short(t.step_mv),
            m.variables[0].unit,
            short(t.v_min_mv),
            short(t.v_max_mv()),
            m.variables[0].unit,
        );
    }
    let kernels: Vec<&str> = KernelKind::available_for(m.name).iter().map(|k| k.name()).collect();
    out += &format!("GPU kernels: {} (naive on any grid shape)\n", kernels.join(", "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_is_described_with_its_tables() {
        for m in MODELS {
            let text = describe(m);
            for v in m.variables {
                assert!(text.contains(v.name), "{}: {}", m.name, v.name);
            }
            for p in m.parameters {
                assert!(text.contains(p.name) && text.contains(p.meaning), "{}: {}", m.name, p.name);
            }
            for p in m.presets {
                assert!(text.contains(p.name), "{}: {}", m.name, p.name);
            }
            assert!(summary_line(m).starts_with(m.name));
        }
        let karma = describe(models::find("karma").unwrap());
        assert!(karma.contains("breakup") && karma.contains("vstar = 0.72"), "{karma}");
        assert!(karma.contains("dx = 0.6") && karma.contains("naive, csw, tower, tower-march"), "{karma}");
        assert!(!karma.contains("rate table"), "{karma}");
        let br = describe(models::find("beeler_reuter").unwrap());
        assert!(
            br.contains(
                "rate table (--rate-tables): 14 functions of V sampled every 0.1 mV from -120 to 80 mV"
            ),
            "{br}"
        );
    }
}
