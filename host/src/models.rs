//! The models fibril knows (from the registry of `kernels-gpu`), choosing
//! one with a preset and parameter values, and the one dispatch from a
//! run-time choice of (model, precision) to the typed code.

use kernels_gpu::fast_math::MathMode;
use kernels_gpu::model::{CellModel, ModelInfo};
use kernels_gpu::rate_table::TableSpec;
use serde::Serialize;
use thiserror::Error;

use crate::scalar::{Precision, Scalar};

/// Code that runs for one model and precision, chosen at run time
/// ([`dispatch`]): run, bench and the protocols' probes implement it.
pub trait ModelVisitor {
    type Output;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output;
}

macro_rules! host_registry {
    ($($name:ident : $ty:path $([$paper:ident])? $({$blocked:ident})?),* $(,)?) => {
        /// Every registered model, in registry order.
        pub static MODELS: &[&ModelInfo] = &[$(<$ty as CellModel>::INFO),*];

        /// Runs `visitor` with the model type of `model` and the scalar
        /// type of `precision`: the one place where a run-time choice
        /// becomes a type.
        pub fn dispatch<V: ModelVisitor>(model: &ModelInfo, precision: Precision, visitor: V) -> V::Output {
            $(
                if model.name == stringify!($name) {
                    return match precision {
                        Precision::F32 => visitor.visit::<$ty, f32>(),
                        Precision::F64 => visitor.visit::<$ty, f64>(),
                    };
                }
            )*
            unreachable!("{} is not a registered model", model.name)
        }
    };
}

kernels_gpu::for_each_model!(host_registry);

/// The registered model called `name`.
pub fn find(name: &str) -> Option<&'static ModelInfo> {
    MODELS.iter().copied().find(|m| m.name == name)
}

/// "karma, bocf, ..." for error messages.
pub fn names() -> String {
    MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

/// The shape of the rate table of `model` (`--rate-tables`), if it has one.
pub fn rate_table_of(model: &ModelInfo) -> Option<TableSpec> {
    struct Table;
    impl ModelVisitor for Table {
        type Output = Option<TableSpec>;
        fn visit<M: CellModel, T: Scalar>(self) -> Option<TableSpec> {
            M::RATE_TABLE
        }
    }
    dispatch(model, Precision::F64, Table)
}

/// "beeler_reuter, ..." : the models with a rate table, for messages.
pub fn names_with_rate_tables() -> String {
    MODELS.iter().filter(|m| rate_table_of(m).is_some()).map(|m| m.name).collect::<Vec<_>>().join(", ")
}

/// Why a model choice was refused; each message lists what would work.
#[derive(Debug, Error, PartialEq)]
pub enum ModelError {
    #[error("unknown model {name:?}; the models are: {known} (`fibril models` describes them)")]
    UnknownModel { name: String, known: String },
    #[error("model {model} has no preset {name:?}; its presets are: {known}")]
    UnknownPreset { model: &'static str, name: String, known: String },
    #[error(
        "model {model} has no parameter {name:?}; its parameters are: {known} (`fibril models {model}` lists them)"
    )]
    UnknownParameter { model: &'static str, name: String, known: String },
    #[error("parameter {name} = {value} of model {model} is out of range: it must be {range}")]
    OutOfRange { model: &'static str, name: &'static str, value: f64, range: String },
    #[error("--param takes NAME=VALUE (for example --param gamma=1.5), got {text:?}")]
    Syntax { text: String },
    #[error("parameter {name} is given twice; keep one value")]
    Twice { name: String },
    #[error(
        "model {model} has no rate table (--rate-tables serves the ionic models: {with}); drop --rate-tables"
    )]
    NoRateTable { model: &'static str, with: String },
}

/// A model with a preset and its parameter values: what a run simulates.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSetup {
    info: &'static ModelInfo,
    /// The preset the values started from (`None` for models without presets).
    preset: Option<&'static str>,
    /// One value per parameter, in the order of `info.parameters`.
    values: Vec<f64>,
    /// The values given over the preset, in order (what a region of a
    /// heterogeneous tissue starts from besides its own preset).
    overrides: Vec<(String, f64)>,
    /// The transcendental functions of the reaction (fast unless asked).
    math: MathMode,
    /// Whether the reaction reads the model's rate table (off unless asked).
    rate_tables: bool,
}

/// A parameter as recorded in summaries and printed by `fibril models`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParameterValue {
    pub name: &'static str,
    pub value: f64,
    pub unit: &'static str,
}

impl ModelSetup {
    /// The model `name` with `preset` (or its default preset) and then
    /// `overrides` (name, value) applied in order; every value is checked
    /// against its range.
    pub fn new(name: &str, preset: Option<&str>, overrides: &[(String, f64)]) -> Result<Self, ModelError> {
        let info =
            find(name).ok_or_else(|| ModelError::UnknownModel { name: name.into(), known: names() })?;
        Self::of(info, preset, overrides)
    }

    /// As [`ModelSetup::new`] for a model already found.
    pub fn of(
        info: &'static ModelInfo,
        preset: Option<&str>,
        overrides: &[(String, f64)],
    ) -> Result<Self, ModelError> {
        let mut values: Vec<f64> = info.parameters.iter().map(|p| p.default).collect();
        let preset = match preset {
            Some(name) => {
                let p = info.preset(name).ok_or_else(|| ModelError::UnknownPreset {
                    model: info.name,
                    name: name.into(),
                    known: if info.presets.is_empty() {
                        "none".into()
                    } else {
                        info.presets.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
                    },
                })?;
                Some(p)
            }
            None => info.preset(info.default_preset),
        };
        if let Some(p) = preset {
            for &(name, value) in p.values {
                let k = info.parameter_index(name).expect("presets name the model's parameters");
                values[k] = value;
            }
        }
        for (i, (name, value)) in overrides.iter().enumerate() {
            if overrides[..i].iter().any(|(n, _)| n == name) {
                return Err(ModelError::Twice { name: name.clone() });
            }
            let k = info.parameter_index(name).ok_or_else(|| ModelError::UnknownParameter {
                model: info.name,
                name: name.clone(),
                known: if info.parameters.is_empty() {
                    "none".into()
                } else {
                    info.parameters.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
                },
            })?;
            values[k] = *value;
        }
        for (p, &value) in info.parameters.iter().zip(&values) {
            if !p.range.contains(value) {
                return Err(ModelError::OutOfRange {
                    model: info.name,
                    name: p.name,
                    value,
                    range: p.range.to_string(),
                });
            }
        }
        Ok(Self {
            info,
            preset: preset.map(|p| p.name),
            values,
            overrides: overrides.to_vec(),
            math: MathMode::default(),
            rate_tables: false,
        })
    }

    /// The setup of the cells of a region of a heterogeneous tissue: its
    /// own `preset` where it names one (else this setup's), this setup's
    /// values given over the preset, then the region's `overrides`, which
    /// win where both name a parameter; the same math and rate tables.
    pub fn for_region(&self, preset: Option<&str>, overrides: &[(String, f64)]) -> Result<Self, ModelError> {
        let mut merged: Vec<(String, f64)> =
            self.overrides.iter().filter(|(n, _)| !overrides.iter().any(|(m, _)| m == n)).cloned().collect();
        merged.extend(overrides.iter().cloned());
        let setup = Self::of(self.info, preset.or(self.preset), &merged)?;
        Ok(Self { math: self.math, rate_tables: self.rate_tables, ..setup })
    }

    /// The same setup with parameter `k` (an index of the model's
    /// parameters) set to `value`, checked against its range.
    pub fn with_value(&self, k: usize, value: f64) -> Result<Self, ModelError> {
        let p = &self.info.parameters[k];
        if !p.range.contains(value) {
            return Err(ModelError::OutOfRange {
                model: self.info.name,
                name: p.name,
                value,
                range: p.range.to_string(),
            });
        }
        let mut values = self.values.clone();
        values[k] = value;
        Ok(Self { values, ..self.clone() })
    }

    /// A model with its default preset.
    pub fn default_of(info: &'static ModelInfo) -> Self {
        Self::of(info, None, &[]).expect("a model's defaults are in range")
    }

    pub fn info(&self) -> &'static ModelInfo {
        self.info
    }

    pub fn name(&self) -> &'static str {
        self.info.name
    }

    pub fn preset(&self) -> Option<&'static str> {
        self.preset
    }

    /// The same model with the transcendental functions of `math`.
    pub fn with_math(self, math: MathMode) -> Self {
        Self { math, ..self }
    }

    /// The transcendental functions of the reaction: fast (the default) or exact.
    pub fn math(&self) -> MathMode {
        self.math
    }

    /// The same model reading its rate table (`on`), or its exact
    /// functions only; refused for a model without a table.
    pub fn with_rate_tables(self, on: bool) -> Result<Self, ModelError> {
        if on && rate_table_of(self.info).is_none() {
            return Err(ModelError::NoRateTable { model: self.info.name, with: names_with_rate_tables() });
        }
        Ok(Self { rate_tables: on, ..self })
    }

    /// Whether the reaction reads the model's rate table where the
    /// potential lies inside it (Bartocci et al. 2011, section 5).
    pub fn rate_tables(&self) -> bool {
        self.rate_tables
    }

    /// The numerics of the reaction as records and checkpoints name them:
    /// the math mode, then "+tables" with the rate tables.
    pub fn math_name(&self) -> String {
        let tables = if self.rate_tables { "+tables" } else { "" };
        format!("{}{tables}", self.math.name())
    }

    /// One value per parameter, in table order (what [`CellModel::coeffs`] takes).
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The value of parameter `name`.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.info.parameter_index(name).map(|k| self.values[k])
    }

    /// Every parameter with its value and unit.
    pub fn parameters(&self) -> Vec<ParameterValue> {
        self.info
            .parameters
            .iter()
            .zip(&self.values)
            .map(|(p, &value)| ParameterValue { name: p.name, value, unit: p.unit })
            .collect()
    }

    /// The coefficients of model `M` (which must be this model) for `dt`,
    /// with this setup's [`MathMode`] and, if asked, its rate table (on
    /// the host, kept for the process: [`crate::rate_tables`]).
    ///
    /// # Panics
    /// If `M` is another model: a programming error of the dispatch.
    pub fn coeffs<M: CellModel, T: Scalar>(&self, dt: f64) -> M::Coeffs<T> {
        assert_eq!(M::INFO.name, self.info.name, "coefficients asked of the wrong model");
        let c = M::coeffs_in::<T>(&self.values, dt, self.math);
        match self.rate_tables {
            true => {
                let table = crate::rate_tables::host_table::<M, T>(&self.values, dt)
                    .expect("with_rate_tables admits only models with a table");
                M::with_rate_table(c, table)
            }
            false => c,
        }
    }
}

/// Parses one `--param NAME=VALUE`.
pub fn parse_assignment(text: &str) -> Result<(String, f64), ModelError> {
    let syntax = || ModelError::Syntax { text: text.into() };
    let (name, value) = text.split_once('=').ok_or_else(syntax)?;
    let value: f64 = value.trim().parse().map_err(|_| syntax())?;
    let name = name.trim();
    if name.is_empty() {
        return Err(syntax());
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl ModelVisitor for Name {
        type Output = (&'static str, &'static str);
        fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
            (M::INFO.name, T::NAME)
        }
    }

    #[test]
    fn every_model_dispatches_to_its_own_type() {
        for m in MODELS {
            assert_eq!(dispatch(m, Precision::F32, Name), (m.name, "f32"));
            assert_eq!(dispatch(m, Precision::F64, Name), (m.name, "f64"));
        }
    }

    #[test]
    fn model_tables_are_consistent() {
        for m in MODELS {
            assert!(!m.variables.is_empty(), "{}: no variables", m.name);
            assert_eq!(m.planar_background.len(), m.variables.len(), "{}: planar background", m.name);
            for (k, v) in m.variables.iter().enumerate() {
                assert!(m.variables[..k].iter().all(|w| w.name != v.name), "{}: {} twice", m.name, v.name);
                assert!(v.display.0 < v.display.1, "{}: display range of {}", m.name, v.name);
            }
            for p in m.parameters {
                assert!(p.range.contains(p.default), "{}: default of {} out of range", m.name, p.name);
            }
            if m.presets.is_empty() {
                assert_eq!(m.default_preset, "", "{}", m.name);
            } else {
                assert!(m.preset(m.default_preset).is_some(), "{}: default preset missing", m.name);
            }
            for preset in m.presets {
                for (name, value) in preset.values {
                    let k = m.parameter_index(name).unwrap_or_else(|| panic!("{}: {name}", preset.name));
                    assert!(m.parameters[k].range.contains(*value), "{}: {name} = {value}", preset.name);
                }
                ModelSetup::of(m, Some(preset.name), &[]).unwrap();
            }
            assert!(m.numerics.dx > 0.0 && m.numerics.dt > 0.0 && m.numerics.diffusion > 0.0);
        }
    }

    #[test]
    fn presets_and_overrides_apply_in_order_and_are_checked() {
        let k = ModelSetup::new("karma", None, &[]).unwrap();
        assert_eq!(k.preset(), Some("stable"));
        assert_eq!(k.get("vstar"), Some(0.6));
        let b = ModelSetup::new("karma", Some("breakup"), &[("gamma".into(), 1.6)]).unwrap();
        assert_eq!((b.get("vstar"), b.get("gamma")), (Some(0.72), Some(1.6)));

        let e = ModelSetup::new("karma", Some("chaos"), &[]).unwrap_err().to_string();
        assert!(e.contains("stable, breakup"), "{e}");
        let e = ModelSetup::new("karma", None, &[("gama".into(), 1.0)]).unwrap_err().to_string();
        assert!(e.contains("gamma, eps, vstar, m"), "{e}");
        let e = ModelSetup::new("karma", None, &[("m".into(), 2.5)]).unwrap_err().to_string();
        assert!(e.contains("a whole number from 0 to 64"), "{e}");
        let e = ModelSetup::new("karma", None, &[("eps".into(), 0.0)]).unwrap_err().to_string();
        assert!(e.contains("eps = 0") && e.contains("> 0"), "{e}");
        let e = ModelSetup::new("karmah", None, &[]).unwrap_err().to_string();
        assert!(e.contains("karma") && e.contains("fibril models"), "{e}");
        let twice = [("eps".into(), 0.1), ("eps".into(), 0.2)];
        assert!(matches!(ModelSetup::new("karma", None, &twice), Err(ModelError::Twice { .. })));
    }

    #[test]
    fn assignments_parse() {
        assert_eq!(parse_assignment("gamma=1.5").unwrap(), ("gamma".into(), 1.5));
        assert_eq!(parse_assignment(" tau_in = 0.3 ").unwrap(), ("tau_in".into(), 0.3));
        assert!(parse_assignment("gamma").is_err());
        assert!(parse_assignment("gamma=fast").is_err());
        assert!(parse_assignment("=1").is_err());
    }
}
