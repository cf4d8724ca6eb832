//! Argument groups shared by `run`, `bench` and `info`.

//!
//! Each group is also a section of a run configuration file (`[grid]`,
//! `[model]`, `[compute]`, ...): the same struct derives clap's `Args` and
//! serde's traits, its field names are both the TOML keys and clap's
//! argument ids, and its `Default` is what clap gives when no flag is
//! passed, so the defaults live in one place (the `#[arg]` attributes).

use anyhow::{Context, bail};
use clap::{Args, FromArgMatches, ValueEnum};
use fibril_host::backend::{BlockSize, KernelConfig, KernelKind};
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
        if self.no_reaction { Reaction::Off } else { Reaction::Karma }
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
    /// Threads per block, BXxBY: BX a multiple of 32, BX*BY <= 1024 (GPU
    /// backend; for tower kernels also the tower size).
    #[arg(long, default_value = "32x8", value_parser = parse_block)]
    pub block: BlockSize,
    /// tower-march only: slices each block climbs (0 = the whole tower, the
    /// paper's sliding window; small values trade register reuse for parallelism).
    #[arg(long, default_value_t = 0)]
    pub z_chunk: u32,
    /// CUDA device ordinal (the first of several with --gpus).
    #[arg(long, default_value_t = 0)]
    pub device: usize,
    /// GPUs to split the grid over along z: a count or `all`. `fibril bench`
    /// takes a list (1,2) and reports the scaling.
    #[arg(long, value_delimiter = ',', default_value = "1", value_parser = parse_gpu_count)]
    pub gpus: Vec<GpuCount>,
    /// Explicit device ordinals of the sub-domains (overrides --gpus; an
    /// ordinal may repeat to put several sub-domains on one GPU).
    #[arg(long, value_delimiter = ',')]
    pub gpu_ids: Vec<usize>,
    /// How halo slices move between GPUs: peer (GPU to GPU), host (through
    /// pinned host memory, the paper's scheme) or nccl (NCCL send/recv; the
    /// only mode between processes).
    #[arg(long, value_enum, default_value_t = ExchangeArg::Peer)]
    pub exchange: ExchangeArg,
    /// With several GPUs: run boundary kernels, interior and copies one
    /// after another instead of overlapping the copies with the interior.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub no_overlap: bool,
}

/// How this process finds the others of a multi-process run (one GPU per
/// process). Not part of a run configuration: the launcher decides them.
#[derive(Debug, Clone, Default, Args)]
pub struct RankArgs {
    /// This process's rank, 0..world-size, with --world-size. Without them
    /// fibril reads the rank from mpirun's (OMPI_COMM_WORLD_*, PMI_*) or
    /// srun's (SLURM_PROCID, SLURM_NTASKS) environment.
    #[arg(long, requires = "world_size")]
    pub rank: Option<usize>,
    /// Number of processes of a multi-process run (with --rank).
    #[arg(long, requires = "rank")]
    pub world_size: Option<usize>,
    /// host:port where rank 0 hands out the NCCL id; default
    /// $FIBRIL_RENDEZVOUS, else $MASTER_ADDR:$MASTER_PORT, else 127.0.0.1:29517.
    #[arg(long, value_name = "HOST:PORT")]
    pub rendezvous: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendArg {
    Auto,
    Cpu,
    Gpu,
}

/// A number of GPUs, or all of them (`2`, `all` on the command line and in files).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuCount {
    N(usize),
    All,
}

impl std::fmt::Display for GpuCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GpuCount::N(n) => write!(f, "{n}"),
            GpuCount::All => f.write_str("all"),
        }
    }
}

fn parse_gpu_count(text: &str) -> Result<GpuCount, String> {
    match text.trim() {
        "all" => Ok(GpuCount::All),
        t => match t.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(GpuCount::N(n)),
            _ => Err(format!("expected a number of GPUs (1 or more) or `all`, got {text:?}")),
        },
    }
}

impl Serialize for GpuCount {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GpuCount::N(n) => s.serialize_u64(*n as u64),
            GpuCount::All => s.serialize_str("all"),
        }
    }
}

impl<'de> Deserialize<'de> for GpuCount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Count(u64),
            Text(String),
        }
        let text = match Raw::deserialize(d)? {
            Raw::Count(n) => n.to_string(),
            Raw::Text(t) => t,
        };
        parse_gpu_count(&text).map_err(serde::de::Error::custom)
    }
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExchangeArg {
    Host,
    Peer,
    Nccl,
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
    /// Classic sliding window: 2D blocks march along z (paper section 3.1).
    Csw,
    /// towerDS, one block per tower slice (paper Algorithm 2).
    Tower,
    /// towerDS, each block marching along its tower.
    TowerMarch,
}

impl From<KernelArg> for KernelKind {
    fn from(k: KernelArg) -> Self {
        match k {
            KernelArg::Naive => KernelKind::Naive,
            KernelArg::Csw => KernelKind::Csw,
            KernelArg::Tower => KernelKind::Tower,
            KernelArg::TowerMarch => KernelKind::TowerMarch,
        }
    }
}

pub fn parse_block(text: &str) -> Result<BlockSize, String> {
    text.parse().map_err(|e: fibril_host::backend::gpu::KernelConfigError| e.to_string())
}

impl ComputeArgs {
    /// The one GPU count of a run.
    pub fn single_gpu_count(&self) -> anyhow::Result<GpuCount> {
        match self.gpus.as_slice() {
            [one] => Ok(*one),
            _ => bail!("--gpus takes one value here (a count or `all`); lists are for fibril bench"),
        }
    }

    pub fn kernel_config(&self) -> KernelConfig {
        KernelConfig::new(self.kernel.into(), self.block).with_z_chunk(self.z_chunk)
    }
}

/// Builds and validates the domain; errors name the offending option.
pub fn domain(grid: &GridArgs, model: &ModelArgs) -> anyhow::Result<Domain> {
    Domain::new(grid.dims(), grid.dx, grid.dt, grid.diffusion, model.params(), model.reaction())
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
        bail!("{what} = {ms} ms is shorter than one time step (dt = {dt_ms} ms); use at least {dt_ms}");
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
        assert!(ms_to_steps("d", 0.01, 0.05).unwrap_err().to_string().contains("shorter than one time step"));
        assert!(ms_to_steps("d", 0.12, 0.05).unwrap_err().to_string().contains("use 0.1 or 0.15 ms"));
        assert!(ms_to_steps("d", -1.0, 0.05).is_err());
    }
}
