//! Argument groups shared by `run`, `bench` and `info`.

//!
//! Each group is also a section of a run configuration file (`[grid]`,
//! `[model]`, `[compute]`, ...): the same struct derives clap's `Args` and
//! serde's traits, its field names are both the TOML keys and clap's
//! argument ids, and its `Default` is what clap gives when no flag is
//! passed, so the defaults live in one place (the `#[arg]` attributes).

use anyhow::{Context, bail};
use clap::{Args, FromArgMatches, ValueEnum};
use fibril_host::backend::{BlockSize, KernelKind};
use fibril_host::events::stimulus::Membrane;
use fibril_host::simulation::monodomain_diffusion;

use crate::cli::params::{ParamAssign, parse_param};
use fibril_host::time::{ms_to_steps, short};
use fibril_host::{Domain, GridDims, ModelInfo, ModelSetup, Precision};
use kernels_gpu::fast_math::MathMode;
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

/// Grid and discretisation. Spacing, step and diffusion default to the
/// usual values of the model (`fibril models NAME` shows them).
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GridArgs {
    /// Cells along each axis (a cube); --nx/--ny/--nz override single axes
    /// (--nz 1 for a sheet, --ny 1 --nz 1 for a cable, --size 1 for one cell).
    #[arg(long, default_value_t = 128, allow_negative_numbers = true)]
    pub size: u32,
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<u32>,
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<u32>,
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nz: Option<u32>,
    /// Grid spacing h = dx = dy = dz, in the model's space unit [default: the model's usual].
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dx: Option<f64>,
    /// Time step, in the model's time unit (ms) [default: the model's usual].
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dt: Option<f64>,
    /// Diffusion coefficient D of the potential, space unit^2 per time
    /// unit (mm^2/ms for the ionic models) [default: the model's usual].
    #[arg(long, allow_negative_numbers = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diffusion: Option<f64>,
    /// Monodomain conductivity sigma, S/m (= mS/mm): with --chi and --cm,
    /// D = sigma / (chi Cm) instead of --diffusion (models in mV only).
    #[arg(long, allow_negative_numbers = true, value_name = "S_PER_M")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// Membrane surface-to-volume ratio chi, 1/mm (models in mV only):
    /// with --cm, for D from --sigma and for stimuli given as
    /// `current_density` in uA/cm^3.
    #[arg(long, allow_negative_numbers = true, value_name = "PER_MM")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chi: Option<f64>,
    /// Membrane capacitance Cm, uF/cm^2 (models in mV only; with --chi).
    #[arg(long, allow_negative_numbers = true, value_name = "UF_PER_CM2")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cm: Option<f64>,
}

impl GridArgs {
    pub fn dims(&self) -> GridDims {
        GridDims::new(
            self.nx.unwrap_or(self.size),
            self.ny.unwrap_or(self.size),
            self.nz.unwrap_or(self.size),
        )
    }

    /// D from the monodomain parameters, when they are given: the tissue
    /// equation of the ionic models is Cm dV/dt = -I_ion + div(sigma grad
    /// V)/chi + I_stim with currents per unit capacitance, so D = sigma /
    /// (chi Cm): with sigma in mS/mm, chi in 1/mm and Cm in uF/mm^2 (1
    /// uF/cm^2 = 0.01 uF/mm^2), mS mm^2/uF = mm^2/ms. Refused for a
    /// dimensionless model (its potential has no unit for sigma to act
    /// on), when only some of the three are given, or with --diffusion.
    pub fn monodomain_diffusion(&self, model: &ModelInfo) -> anyhow::Result<Option<f64>> {
        let given = [("--sigma", self.sigma), ("--chi", self.chi), ("--cm", self.cm)];
        if given.iter().all(|(_, v)| v.is_none()) {
            return Ok(None);
        }
        for (name, v) in given {
            if let Some(v) = v
                && !(v > 0.0 && v.is_finite())
            {
                bail!("{name} = {v} must be a positive number");
            }
        }
        if model.variables[0].unit != "mV" {
            bail!(
                "--sigma, --chi and --cm are the monodomain parameters of the models in physical units \
                 (V in mV), and {} is dimensionless (its potential has unit \"{}\"); give --diffusion in {}^2/{} \
                 instead",
                model.name,
                model.variables[0].unit,
                model.units.space,
                model.units.time
            );
        }
        if self.sigma.is_none() {
            // chi and Cm alone: the membrane that current densities of
            // stimuli act on; D comes from --diffusion or the model.
            if self.chi.is_none() || self.cm.is_none() {
                bail!(
                    "--chi and --cm go together (they turn stimulus current densities in uA/cm^3 into uA/uF, \
                     and with --sigma give D = sigma/(chi Cm)); give both"
                );
            }
            return Ok(None);
        }
        if self.diffusion.is_some() {
            bail!(
                "give either --diffusion or --sigma, --chi and --cm (which set D = sigma/(chi Cm)), not both"
            );
        }
        let missing: Vec<&str> = given.iter().filter(|(_, v)| v.is_none()).map(|(n, _)| *n).collect();
        if !missing.is_empty() {
            bail!(
                "D = sigma/(chi Cm) needs all three of --sigma, --chi and --cm; missing {}",
                missing.join(", ")
            );
        }
        let [sigma, chi, cm] = given.map(|(_, v)| v.expect("all given"));
        Ok(Some(monodomain_diffusion(sigma, Membrane { chi_per_mm: chi, cm_uf_per_cm2: cm })))
    }

    /// The membrane of --chi and --cm, for stimuli given as current
    /// densities (checked by [`GridArgs::monodomain_diffusion`]).
    pub fn membrane(&self) -> Option<Membrane> {
        Some(Membrane { chi_per_mm: self.chi?, cm_uf_per_cm2: self.cm? })
    }

    /// Fills spacing, step and diffusion left unset with `model`'s usual
    /// values; D is left unset where `--sigma` gives it (D = sigma/(chi
    /// Cm), [`GridArgs::monodomain_diffusion`]), so that a configuration
    /// resolved (and printed) with `--sigma` is not taken for one that
    /// gives both.
    pub fn resolve(&mut self, model: &ModelInfo) {
        self.dx.get_or_insert(model.numerics.dx);
        self.dt.get_or_insert(model.numerics.dt);
        if self.sigma.is_none() {
            self.diffusion.get_or_insert(model.numerics.diffusion);
        }
    }

    /// Refuses a spacing, step, diffusion coefficient or monodomain
    /// parameter beyond any plausible value ([`PLAUSIBLE`]), naming the
    /// option and the bound; what is not a positive number is left to the
    /// checks that say so ([`Domain::new`], [`GridArgs::monodomain_diffusion`]).
    /// An absurd value would otherwise run (`--dx 1e30`: cells that never
    /// exchange current) or be refused as unstable with suggestions that
    /// overflow or round to zero.
    pub fn check_plausible(&self) -> anyhow::Result<()> {
        let given = [
            ("dx", self.dx),
            ("dt", self.dt),
            ("diffusion", self.diffusion),
            ("sigma", self.sigma),
            ("chi", self.chi),
            ("cm", self.cm),
        ];
        for (name, value) in given {
            let Some(v) = value.filter(|v| *v > 0.0) else { continue };
            let (_, low, high, what) =
                PLAUSIBLE.iter().find(|b| b.0 == name).expect("a bound for every option");
            if !(*low..=*high).contains(&v) {
                bail!(
                    "--{name} = {} is beyond any plausible {what}: give a number from {} to {} \
                     (`fibril models NAME` shows the model's usual values)",
                    number(v),
                    number(*low),
                    number(*high)
                );
            }
        }
        Ok(())
    }
}

/// `x` as a user would write it: plainly (0.25, 1000) or, far from 1, in
/// scientific notation (1e30, 1e-12) rather than as 31 digits or as 0.
pub fn number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || (1e-4..1e7).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// The plausible range of each numeric option of the grid: name, lowest,
/// highest, what it is. Every model's usual value lies well inside
/// (spacings 0.2 to 0.6, steps 0.01 to 0.05, D 0.1 to 1); the bounds are
/// orders of magnitude away, where a value can only be a typo (a missing
/// decimal point, a unit off by 10^6); within them, the stable step an
/// unstable grid is told to take stays far from the limits of f64.
pub const PLAUSIBLE: [(&str, f64, f64, &str); 6] = [
    ("dx", 1e-6, 1e3, "grid spacing (in the model's space unit)"),
    ("dt", 1e-12, 1e3, "time step (in the model's time unit)"),
    ("diffusion", 1e-12, 1e6, "diffusion coefficient (space unit^2 per time unit)"),
    ("sigma", 1e-9, 1e3, "conductivity (S/m; tissue has 0.01 to 1)"),
    ("chi", 1e-6, 1e6, "surface-to-volume ratio (1/mm; tissue has 100 to 200)"),
    ("cm", 1e-6, 1e3, "membrane capacitance (uF/cm^2; membranes have about 1)"),
];

/// The cell model: `[model]` in a configuration file.
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModelArgs {
    /// The cell model (`fibril models` lists them).
    #[arg(long = "model", default_value = "karma", value_name = "NAME")]
    pub name: String,
    /// A named parameter set of the model [default: the model's own]
    /// (`fibril models NAME` lists them).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// A model parameter, NAME=VALUE, over the preset (repeatable;
    /// `[model.parameters]` in a file).
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    #[serde(with = "crate::cli::params", skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<ParamAssign>,
    /// The reference transcendental functions (within a few ulp) instead of
    /// the fast tanh (a table within 8e-8; Karma), at about 20 more
    /// instructions per cell. CPU and GPU agree bit for bit either way.
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub exact_math: bool,
    /// The ionic models' functions of the potential from a table sampled
    /// every 0.1 mV and interpolated (Bartocci et al. 2011, section 5),
    /// within 5e-5 of each function, instead of a dozen or more
    /// exponentials per cell-step; exact functions outside the table.
    /// CPU and GPU agree bit for bit either way (`fibril models NAME` says
    /// whether a model has a table).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub rate_tables: bool,
}

impl ModelArgs {
    /// The model with its preset and parameters, each checked.
    pub fn setup(&self) -> anyhow::Result<ModelSetup> {
        let overrides: Vec<(String, f64)> =
            self.parameters.iter().map(|p| (p.name.clone(), p.value)).collect();
        let math = if self.exact_math { MathMode::Exact } else { MathMode::Fast };
        Ok(ModelSetup::new(&self.name, self.preset.as_deref(), &overrides)?
            .with_math(math)
            .with_rate_tables(self.rate_tables)?)
    }
}

/// Where and how to compute.
#[derive(Debug, Clone, Args, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ComputeArgs {
    /// auto: the GPU when one is usable, else the CPU (with a notice).
    #[arg(long, value_enum, default_value_t = BackendArg::Auto)]
    pub backend: BackendArg,
    /// Floating-point precision of the state and arithmetic: auto = the
    /// model's own (f64 for the models whose tests found f32 too coarse,
    /// `fibril models NAME` says; f32 for the others).
    #[arg(long, value_enum, default_value_t = PrecisionArg::Auto)]
    pub precision: PrecisionArg,
    /// GPU kernel (GPU backend only).
    #[arg(long, value_enum, default_value_t = KernelArg::Auto)]
    pub kernel: KernelArg,
    /// Threads per block, BXxBY: BX a multiple of 32, BX*BY <= 1024 (GPU
    /// backend; for tower kernels also the tower size; blocked writes the
    /// block less --steps-per-pass cells on each side) [default: 32x8,
    /// blocked 32x32, in f64 32x12]
    #[arg(long, value_parser = parse_block)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block: Option<BlockSize>,
    /// tower-march: slices each block climbs (0 = the whole tower, the
    /// paper's sliding window; small values trade register reuse for
    /// parallelism); columns: slices each thread climbs (0 = 4); blocked:
    /// slices each block owns (0 = 32).
    #[arg(long, default_value_t = 0)]
    pub z_chunk: u32,
    /// blocked: time steps per pass over the fields, 1 to 4 (a pass ends
    /// early before a step with a stimulus); 0 = 3, the fastest on an H100
    /// for every model. Other kernels take one.
    #[arg(long, default_value_t = 0)]
    pub steps_per_pass: u32,
    /// CUDA device ordinal (the first of several with --gpus).
    #[arg(long, default_value_t = 0, value_parser = device_ordinal)]
    pub device: usize,
    /// GPUs to split the grid over along z: a count or `all`. `fibril bench`
    /// takes a list (1,2) and reports the scaling.
    #[arg(long, value_delimiter = ',', default_value = "1", value_parser = parse_gpu_count)]
    pub gpus: Vec<GpuCount>,
    /// Explicit device ordinals of the sub-domains (overrides --gpus; an
    /// ordinal may repeat to put several sub-domains on one GPU).
    #[arg(long, value_delimiter = ',', value_parser = device_ordinal)]
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
    /// One GPU (box grids with any kernel but blocked, tissue, tetrahedral
    /// meshes) and box grids split over the GPUs of one process (peer
    /// exchange, every kernel), without maps: launch every step or pass from the host instead of replaying
    /// passes of up to 256 steps as CUDA graphs (the fields are the same
    /// bits either way; graphs make small grids several times faster).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub no_graphs: bool,
    /// With graphs on a GPU of compute capability 9.0 or later: join a
    /// pass's steps by plain edges instead of programmatic ones (with them
    /// each step's grid is scheduled while the previous one drains and
    /// waits in-kernel for it; the same bits either way).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    pub no_pdl: bool,
    /// With --kernel tune: time the kernels again even where the tune
    /// cache holds a choice for this run, and keep the new one there (the
    /// cache is the file FIBRIL_TUNE_CACHE names, by default
    /// $XDG_CACHE_HOME/fibril/tune-cache-v1.json or
    /// ~/.cache/fibril/tune-cache-v1.json; FIBRIL_TUNE_CACHE=off keeps none).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", default_value_t = false)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub retune: bool,
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

/// A CUDA device ordinal (below 4096: no machine has more GPUs, and the
/// value must fit a configuration file's integers).
fn device_ordinal(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n < 4096 => Ok(n),
        _ => Err(format!("expected a GPU number from 0 to 4095, got {text:?}")),
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
    Auto,
    F32,
    F64,
}

impl PrecisionArg {
    /// The precision a run of `model` computes in.
    pub fn resolve(self, model: &kernels_gpu::ModelInfo) -> Precision {
        match self {
            PrecisionArg::Auto if model.default_f64 => Precision::F64,
            PrecisionArg::Auto | PrecisionArg::F32 => Precision::F32,
            PrecisionArg::F64 => Precision::F64,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelArg {
    /// columns on one GPU where the grid allows it (three axes of two
    /// cells or more, nx a multiple of 4) and it is faster (f32, models
    /// with at most 2 local variables), naive otherwise.
    Auto,
    /// One thread per cell on the row-major grid.
    Naive,
    /// Classic sliding window: 2D blocks march along z (paper section 3.1).
    Csw,
    /// towerDS, one block per tower slice (paper Algorithm 2).
    Tower,
    /// towerDS, each block marching along its tower.
    TowerMarch,
    /// Four cells per thread along x (128-bit loads), each thread marching
    /// up --z-chunk slices with the planes below and at it in registers.
    Columns,
    /// --steps-per-pass steps per read of the fields (temporal blocking:
    /// each block of --block threads writes its threads less k cells on
    /// each side and recomputes the rest, marching along z).
    Blocked,
    /// Time the kernels that can step this run (auto's choice, naive,
    /// columns, blocked at 2, 3 and 4 steps per pass), then the z-chunks or
    /// blocks around the fastest (for blocked, also the block heights whose
    /// waves fill the SMs best), for a moment each on the GPU from the
    /// run's start, and keep the fastest (auto's choice unless another is
    /// 2% faster). Every kernel gives the same bits, so only the speed
    /// depends on the choice; the timings are printed and kept in the
    /// summary. One process only.
    Tune,
}

impl KernelArg {
    /// The kernel asked for by name (`None` for `auto`).
    pub(super) fn named(self) -> Option<KernelKind> {
        match self {
            KernelArg::Auto | KernelArg::Tune => None,
            KernelArg::Naive => Some(KernelKind::Naive),
            KernelArg::Csw => Some(KernelKind::Csw),
            KernelArg::Tower => Some(KernelKind::Tower),
            KernelArg::TowerMarch => Some(KernelKind::TowerMarch),
            KernelArg::Columns => Some(KernelKind::Columns),
            KernelArg::Blocked => Some(KernelKind::Blocked),
        }
    }
}

pub fn parse_block(text: &str) -> Result<BlockSize, String> {
    text.parse().map_err(|e: fibril_host::backend::gpu::KernelConfigError| e.to_string())
}

/// Builds and validates the domain (the model's usual dx, dt and D where
/// `grid` leaves them unset); errors name the offending option.
pub fn domain(grid: &GridArgs, model: &ModelArgs) -> anyhow::Result<Domain> {
    let setup = model.setup()?;
    let mut grid = grid.clone();
    grid.check_plausible()?;
    if let Some(d) = grid.monodomain_diffusion(setup.info())? {
        grid.diffusion = Some(d);
    }
    grid.resolve(setup.info());
    let (dx, dt, diffusion) =
        (grid.dx.expect("resolved"), grid.dt.expect("resolved"), grid.diffusion.expect("resolved"));
    Domain::new(grid.dims(), dx, dt, diffusion, setup).context("invalid simulation parameters")
}

/// The whole number of steps (at least one) of a positive duration in ms
/// given as option `what`.
pub fn duration_steps(what: &str, ms: f64, dt_ms: f64) -> anyhow::Result<u64> {
    if !(ms > 0.0 && ms.is_finite()) {
        bail!("{what} must be a positive number of ms, got {ms}");
    }
    if ms < dt_ms * (1.0 - 1e-6) {
        bail!(
            "{what} = {ms} ms is shorter than one time step (dt = {dt_ms} ms); use at least {}",
            short(dt_ms)
        );
    }
    ms_to_steps(ms, dt_ms).map_err(|e| anyhow::anyhow!("{what}: {e}"))
}

/// The diffusion coefficients (mm^2/ms) of the monodomain conductivities
/// of intra- and extracellular ones, [along, across] or [along, across,
/// sheet] in S/m: sigma = sigma_i sigma_e / (sigma_i + sigma_e), the
/// harmonic mean Niederer et al. 2011 state, and D = sigma / (chi Cm)
/// with `grid`'s chi and Cm; `section` names the section in errors.
pub fn harmonic_diffusions(
    section: &str,
    si: &[f64],
    se: &[f64],
    grid: &GridArgs,
    model: &ModelInfo,
) -> anyhow::Result<Vec<f64>> {
    if si.len() != se.len() || !(2..=3).contains(&si.len()) {
        bail!(
            "{section} sigma_i and sigma_e take [along, across] or [along, across, sheet] in S/m, \
             the same number each"
        );
    }
    if model.variables[0].unit != "mV" {
        bail!(
            "{section} sigma_i/sigma_e need a model in mV; {} is dimensionless: give d_fibre and d_cross",
            model.name
        );
    }
    let (Some(chi), Some(cm)) = (grid.chi, grid.cm) else {
        bail!("{section} sigma_i/sigma_e need [grid] chi (1/mm) and cm (uF/cm^2) for D = sigma/(chi Cm)");
    };
    if grid.sigma.is_some() {
        bail!("[grid] sigma is the isotropic conductivity; with {section} sigma_i/sigma_e leave it out");
    }
    si.iter()
        .zip(se)
        .map(|(&i, &e)| {
            if !(i > 0.0 && e > 0.0 && i.is_finite() && e.is_finite()) {
                bail!("{section} conductivities must be positive, got sigma_i {i}, sigma_e {e}");
            }
            // mS/mm over (1/mm) (uF/mm^2): mm^2/ms.
            Ok(i * e / (i + e) / (chi * cm * 0.01))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monodomain_parameters_give_d_for_ionic_models_only() {
        let tp06 = fibril_host::models::find("ten_tusscher_2006").unwrap();
        let karma = fibril_host::models::find("karma").unwrap();
        let mut g = GridArgs { sigma: Some(0.1334), chi: Some(140.0), cm: Some(1.0), ..GridArgs::default() };
        // Niederer et al. 2011's harmonic mean of the intra- and extracellular
        // longitudinal conductivities, chi = 1400/cm, Cm = 1 uF/cm^2: D = 0.0953 mm^2/ms.
        let d = g.monodomain_diffusion(tp06).unwrap().unwrap();
        assert!((d - 0.0953).abs() < 1e-4, "{d}");
        let e = g.monodomain_diffusion(karma).unwrap_err().to_string();
        assert!(e.contains("dimensionless") && e.contains("--diffusion"), "{e}");
        g.diffusion = Some(0.1);
        assert!(g.monodomain_diffusion(tp06).unwrap_err().to_string().contains("not both"));
        g.diffusion = None;
        g.cm = None;
        assert!(g.monodomain_diffusion(tp06).unwrap_err().to_string().contains("missing --cm"));
        g.cm = Some(-1.0);
        assert!(g.monodomain_diffusion(tp06).unwrap_err().to_string().contains("positive"));
        assert_eq!(GridArgs::default().monodomain_diffusion(karma).unwrap(), None);
        // chi and Cm alone: a membrane for current densities, no D.
        let g = GridArgs { chi: Some(140.0), cm: Some(1.0), ..GridArgs::default() };
        assert_eq!(g.monodomain_diffusion(tp06).unwrap(), None);
        let membrane = g.membrane().unwrap();
        assert!((membrane.current_per_capacitance(50_000.0) - 35.714).abs() < 1e-3);
        let g = GridArgs { chi: Some(140.0), ..GridArgs::default() };
        assert!(g.monodomain_diffusion(tp06).unwrap_err().to_string().contains("go together"));
        assert!(g.monodomain_diffusion(karma).unwrap_err().to_string().contains("dimensionless"));
    }

    #[test]
    fn durations_convert_exactly_or_are_refused() {
        assert_eq!(duration_steps("d", 1000.0, 0.05).unwrap(), 20_000);
        assert_eq!(duration_steps("d", 0.05, 0.05).unwrap(), 1);
        let e = format!("{:#}", duration_steps("d", 0.01, 0.05).unwrap_err());
        assert!(e.contains("shorter than one time step"), "{e}");
        let e = format!("{:#}", duration_steps("d", 0.12, 0.05).unwrap_err());
        assert!(e.contains("use 0.1 or 0.15"), "{e}");
        assert!(duration_steps("d", -1.0, 0.05).is_err());
        assert!(duration_steps("d", 0.0, 0.05).is_err());
    }

    #[test]
    fn sigma_chi_and_cm_give_d_once_the_grid_is_resolved() {
        // The run resolves the grid (the model's usual dx, dt, D) before it
        // builds the domain: D must come from sigma, not from the model.
        let tp06 = fibril_host::models::find("ten_tusscher_2006").unwrap();
        let mut grid =
            GridArgs { size: 8, sigma: Some(0.1334), chi: Some(140.0), cm: Some(1.0), ..GridArgs::default() };
        grid.resolve(tp06);
        assert_eq!((grid.dx, grid.dt, grid.diffusion), (Some(0.2), Some(0.02), None));
        let model = ModelArgs { name: "ten_tusscher_2006".into(), ..ModelArgs::default() };
        let d = domain(&grid, &model).unwrap();
        assert!((d.diffusion() - 0.0953).abs() < 1e-4, "{}", d.diffusion());
        // Both given by the user: refused.
        grid.diffusion = Some(0.1);
        assert!(format!("{:#}", domain(&grid, &model).unwrap_err()).contains("not both"));
    }

    #[test]
    fn absurd_numbers_are_refused_naming_the_option_and_the_bound() {
        let e = |grid: GridArgs| format!("{:#}", domain(&grid, &ModelArgs::default()).unwrap_err());
        let why = e(GridArgs { dx: Some(1e30), ..GridArgs::default() });
        assert!(why.contains("--dx = 1e30") && why.contains("from 1e-6 to 1000"), "{why}");
        let why = e(GridArgs { diffusion: Some(f64::INFINITY), ..GridArgs::default() });
        assert!(why.contains("--diffusion = inf") && why.contains("to 1000000"), "{why}");
        let why = e(GridArgs { dt: Some(5e3), ..GridArgs::default() });
        assert!(why.contains("--dt = 5000"), "{why}");
        // Not a positive number: the domain's own message.
        let why = e(GridArgs { dx: Some(f64::NAN), ..GridArgs::default() });
        assert!(why.contains("dx must be a positive number"), "{why}");
        // An unstable step names stable values a user can read and pass
        // back, on the stable side of the bound.
        let why = e(GridArgs { size: 8, diffusion: Some(1e5), ..GridArgs::default() });
        assert!(why.contains("use --dt 5.9999e-7 or smaller") && why.contains("--dx 173.205081"), "{why}");
        let why = e(GridArgs { size: 8, dt: Some(0.1), ..GridArgs::default() });
        assert!(why.contains("--dt 0.060000 or smaller") && why.contains("= 0.2778 exceeds"), "{why}");
        assert_eq!(number(1e30), "1e30");
        assert_eq!(number(0.25), "0.25");
    }

    #[test]
    fn the_grid_takes_the_models_usual_spacing_unless_given() {
        let mut grid = GridArgs::default();
        grid.resolve(fibril_host::models::find("karma").unwrap());
        assert_eq!((grid.dx, grid.dt, grid.diffusion), (Some(0.6), Some(0.05), Some(1.0)));
        let mut grid = GridArgs { dx: Some(0.5), ..GridArgs::default() };
        grid.resolve(fibril_host::models::find("karma").unwrap());
        assert_eq!(grid.dx, Some(0.5));
    }
}
