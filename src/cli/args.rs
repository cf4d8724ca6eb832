//! Argument groups shared by `run`, `bench` and `info`.

//!
//! Each group is also a section of a run configuration file (`[grid]`,
//! `[model]`, `[compute]`, ...): the same struct derives clap's `Args` and
//! serde's traits, its field names are both the TOML keys and clap's
//! argument ids, and its `Default` is what clap gives when no flag is
//! passed, so the defaults live in one place (the `#[arg]` attributes).

use anyhow::{Context, bail};
use clap::{Args, FromArgMatches, ValueEnum};
use fibril_host::backend::KernelKind;
use fibril_host::{Domain, GridDims, KarmaParams, KarmaPreset, Precision, Reaction};
use serde::{Deserialize, Serialize};

/// The value of an argument group when no flag is given (clap's defaults).
pub fn clap_defaults<A: Args + FromArgMatches>() -> A {
    let cmd = A::augment_args(clap::Command::new("defaults").no_binary_name(true));
    let matches = cmd
        .try_get_matches_from(std::iter::empty::<String>())
        .expect("every argument has a default or is optional");
    A::from_arg_matches(&matches).expect("defaults convert")
}

/// Implements `Default` as [`clap_defaults`].
macro_rules! default_from_clap {
    ($($t:ty),*) => {$(
        impl Default for $t {
            fn default() -> Self {
                clap_defaults()
            }
        }
    )*};
}
pub(crate) use default_from_clap;

default_from_clap!(GridArgs, ModelArgs, ComputeArgs);

/// Grid and discretisation.
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GridArgs {
    /// Cells along each axis (a cube); --nx/--ny/--nz override single axes.
    #[arg(long, default_value_t = 128)]
    pub size: u32,
    #[arg(long)]
    pub nx: Option<u32>,
    #[arg(long)]
    pub ny: Option<u32>,
    #[arg(long)]
    pub nz: Option<u32>,
    /// Grid spacing h = dx = dy = dz (model space units).
    #[arg(long, default_value_t = 0.6)]
    pub dx: f64,
    /// Time step (model time units, read as ms).
    #[arg(long, default_value_t = 0.05)]
    pub dt: f64,
    /// Diffusion coefficient D.
    #[arg(long, default_value_t = 1.0)]
    pub diffusion: f64,
}

impl GridArgs {
    pub fn dims(&self) -> GridDims {
        GridDims::new(
            self.nx.unwrap_or(self.size),
            self.ny.unwrap_or(self.size),
            self.nz.unwrap_or(self.size),
        )
    }
}

/// Karma model parameters (defaults: MODELS.md section 1).
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModelArgs {
    /// Named parameter set: stable (v* = 0.6) or breakup (v* = 0.72).
    #[arg(long, value_enum, default_value_t = PresetArg::Stable)]
    pub preset: PresetArg,
    /// gamma (= A = E*); overrides the preset.
    #[arg(long)]
    pub gamma: Option<f64>,
    /// eps = tau_E / tau_n; overrides the preset.
    #[arg(long)]
    pub eps: Option<f64>,
    /// v* (n_B); overrides the preset.
    #[arg(long)]
    pub vstar: Option<f64>,
    /// Exponent M (xm); overrides the preset.
    #[arg(long)]
    pub m: Option<u32>,
    /// Switch the reaction term off (pure diffusion), for numerical checks.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub no_reaction: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PresetArg {
    Stable,
    Breakup,
}

impl ModelArgs {
    pub fn params(&self) -> KarmaParams {
        let base = KarmaParams::preset(match self.preset {
            PresetArg::Stable => KarmaPreset::Stable,
            PresetArg::Breakup => KarmaPreset::Breakup,
        });
        KarmaParams {
            gamma: self.gamma.unwrap_or(base.gamma),
            eps: self.eps.unwrap_or(base.eps),
            vstar: self.vstar.unwrap_or(base.vstar),
            m: self.m.unwrap_or(base.m),
        }
    }

    pub fn reaction(&self) -> Reaction {
        if self.no_reaction {
            Reaction::Off
        } else {
            Reaction::Karma
        }
    }
}

/// Where and how to compute.
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ComputeArgs {
    /// auto: the GPU when one is usable, else the CPU (with a notice).
    #[arg(long, value_enum, default_value_t = BackendArg::Auto)]
    pub backend: BackendArg,
    /// Floating-point precision of the state and arithmetic.
    #[arg(long, value_enum, default_value_t = PrecisionArg::F32)]
    pub precision: PrecisionArg,
    /// GPU kernel (GPU backend only).
    #[arg(long, value_enum, default_value_t = KernelArg::Naive)]
    pub kernel: KernelArg,
    /// CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    pub device: usize,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendArg {
    Auto,
    Cpu,
    Gpu,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrecisionArg {
    F32,
    F64,
}

impl From<PrecisionArg> for Precision {
    fn from(p: PrecisionArg) -> Self {
        match p {
            PrecisionArg::F32 => Precision::F32,
            PrecisionArg::F64 => Precision::F64,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelArg {
    /// One thread per cell on the row-major grid.
    Naive,
}

impl From<KernelArg> for KernelKind {
    fn from(k: KernelArg) -> Self {
        match k {
            KernelArg::Naive => KernelKind::Naive,
        }
    }
}

/// Builds and validates the domain; errors name the offending option.
pub fn domain(grid: &GridArgs, model: &ModelArgs) -> anyhow::Result<Domain> {
    Domain::new(
        grid.dims(),
        grid.dx,
        grid.dt,
        grid.diffusion,
        model.params(),
        model.reaction(),
    )
    .context("invalid simulation parameters")
}

/// Converts a duration in ms to a whole number of steps, refusing
/// durations that are not (close to) a multiple of dt.
pub fn ms_to_steps(what: &str, ms: f64, dt_ms: f64) -> anyhow::Result<u64> {
    if !(ms > 0.0 && ms.is_finite()) {
        bail!("{what} must be a positive number of ms, got {ms}");
    }
    let steps = (ms / dt_ms).round();
    if steps < 1.0 {
        bail!(
            "{what} = {ms} ms is shorter than one time step (dt = {dt_ms} ms); use at least {dt_ms}"
        );
    }
    let off = (steps * dt_ms - ms).abs();
    if off > 1e-6 * ms.max(dt_ms) {
        bail!(
            "{what} = {ms} ms is not a whole number of time steps (dt = {dt_ms} ms); \
             use {} or {} ms",
            short(steps * dt_ms),
            short((steps + 1.0) * dt_ms)
        );
    }
    Ok(steps as u64)
}

/// A float with at most 6 decimals and no trailing zeros: 0.15000000000000002 -> "0.15".
pub fn short(x: f64) -> String {
    let s = format!("{x:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_convert_exactly_or_are_refused() {
        assert_eq!(ms_to_steps("d", 1000.0, 0.05).unwrap(), 20_000);
        assert_eq!(ms_to_steps("d", 0.05, 0.05).unwrap(), 1);
        assert!(
            ms_to_steps("d", 0.01, 0.05)
                .unwrap_err()
                .to_string()
                .contains("shorter than one time step")
        );
        assert!(
            ms_to_steps("d", 0.12, 0.05)
                .unwrap_err()
                .to_string()
                .contains("use 0.1 or 0.15 ms")
        );
        assert!(ms_to_steps("d", -1.0, 0.05).is_err());
    }
}
