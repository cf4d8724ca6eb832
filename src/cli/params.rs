//! Model parameters given by name: `--param NAME=VALUE` on the command
//! line, `[model.parameters]` in a file (a table of name = value, in the
//! order written: this module is that table's serde form).

use fibril_host::models::parse_assignment;
use serde::{Deserialize, Deserializer, Serializer};

/// One `--param NAME=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamAssign {
    pub name: String,
    pub value: f64,
}

/// Parses `NAME=VALUE` (clap's value parser of `--param`).
pub fn parse_param(text: &str) -> Result<ParamAssign, String> {
    let (name, value) = parse_assignment(text).map_err(|e| e.to_string())?;
    Ok(ParamAssign { name, value })
}

pub fn serialize<S: Serializer>(params: &[ParamAssign], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(params.iter().map(|p| (&p.name, p.value)))
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ParamAssign>, D::Error> {
    let table = toml::Table::deserialize(d)?;
    table
        .into_iter()
        .map(|(name, value)| {
            let value = match value {
                toml::Value::Float(x) => x,
                toml::Value::Integer(n) => n as f64,
                other => {
                    return Err(serde::de::Error::custom(format!(
                        "parameter {name} must be a number, got {other}"
                    )));
                }
            };
            Ok(ParamAssign { name, value })
        })
        .collect()
}
