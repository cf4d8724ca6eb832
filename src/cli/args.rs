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
use fibril_host::events::stimulus::Membrane;
use fibril_host::simulation::{KernelChoice, monodomain_diffusion};

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
    /// One GPU, box grids, kernels other than blocked: launch every step
    /// from the host instead of replaying passes of up to 256 steps as
    /// CUDA graphs (the fields are the same bits either way; graphs make
    /// small grids several times faster).
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
    fn named(self) -> Option<KernelKind> {
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

impl ComputeArgs {
    /// The block `--block` names, or the kernel's default
    /// ([`KernelChoice::block_for`]).
    pub fn block_for(&self, kind: KernelKind, precision: Precision) -> BlockSize {
        self.kernel_choice().block_for(kind, precision)
    }

    /// What a run says when `kernel`, chosen for `model`, is not the kernel
    /// `--kernel` named ([`KernelChoice::fallback_notice`]).
    pub fn fallback_notice(&self, model: &ModelInfo, kernel: &KernelConfig) -> Option<String> {
        self.kernel_choice().fallback_notice(model, kernel)
    }

    /// The one GPU count of a run.
    pub fn single_gpu_count(&self) -> anyhow::Result<GpuCount> {
        match self.gpus.as_slice() {
            [one] => Ok(*one),
            _ => bail!("--gpus takes one value here (a count or `all`); lists are for fibril bench"),
        }
    }

    /// The kernel that steps `model` in `precision` on `dims` split over
    /// `gpus` GPUs: the library's rule ([`KernelChoice::config`]) for the
    /// kernel these options name (`auto` for `tune`, whose starting point it
    /// is; tune's `--steps-per-pass` is for its blocked candidates).
    pub fn kernel_config(
        &self,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
        gpus: usize,
    ) -> KernelConfig {
        self.kernel_choice().config(model, precision, dims, gpus)
    }

    /// These options' kernel, as the library takes it.
    pub fn kernel_choice(&self) -> KernelChoice {
        let steps_per_pass = match self.kernel.named() {
            Some(_) => self.steps_per_pass,
            None if self.tunes() => 0,
            None => self.steps_per_pass,
        };
        KernelChoice { kind: self.kernel.named(), block: self.block, z_chunk: self.z_chunk, steps_per_pass }
    }

    /// `kind` with this command line's block, z-chunk and steps per pass
    /// (or the kernel's defaults; under `tune`, one step for the kernels
    /// other than blocked, whose candidates take their own).
    fn config_of(&self, kind: KernelKind, precision: Precision) -> KernelConfig {
        self.kernel_choice().config_of(kind, precision)
    }

    /// Whether `--kernel tune` asks for the kernel to be timed on the GPU.
    pub fn tunes(&self) -> bool {
        self.kernel == KernelArg::Tune
    }

    /// Refuses `--retune` without `--kernel tune`: it would time nothing.
    pub fn check_retune(&self) -> anyhow::Result<()> {
        if self.retune && !self.tunes() {
            bail!("--retune times the kernels of --kernel tune again; add --kernel tune or drop --retune");
        }
        Ok(())
    }

    /// Refuses the values of `--kernel`, `--block` and `--steps-per-pass`
    /// that a GPU would refuse for `model` in `precision` on `dims`,
    /// whatever the backend: an invalid option is a mistake on the CPU too
    /// (where the run would go on and the same command fail on a GPU).
    /// What depends on the device alone (registers, shared memory) is left
    /// to the GPU, and so is the grid of a split run (each sub-domain is
    /// checked there) and, with `auto` or `tune`, what only a very large or
    /// flat grid cannot do on a GPU (the CPU steps any grid). With
    /// `--backend gpu` the kernel is checked where the GPU is opened (the
    /// same check, once a GPU is known to be there).
    pub fn check_kernel_options(
        &self,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
    ) -> anyhow::Result<()> {
        use fibril_host::backend::gpu::KernelConfigError as E;
        self.check_option_values()?;
        let split = self.gpus.as_slice() != [GpuCount::N(1)] || self.gpu_ids.len() > 1;
        if split || self.backend == BackendArg::Gpu {
            return Ok(());
        }
        let kernel = self.kernel_config(model, precision, dims, 1);
        match kernel.check(model.name, dims) {
            Ok(()) => Ok(()),
            Err(e) if self.kernel.named().is_some() => Err(e).with_context(|| {
                format!("--kernel {} cannot step this run of model {}", kernel.kind, model.name)
            }),
            // auto and tune: the mistakes of the options themselves.
            Err(e @ (E::BadBlock { .. } | E::StepsPerPass { .. } | E::NoTile { .. })) => Err(e.into()),
            Err(_) => Ok(()),
        }
    }

    /// Refuses option values no kernel takes whatever the model and grid:
    /// steps per pass beyond the blocked kernel's range (`tune` would
    /// otherwise drop its blocked candidates without a word).
    pub fn check_option_values(&self) -> anyhow::Result<()> {
        let max = kernels_gpu::blocked::MAX_STEPS_PER_PASS;
        if self.steps_per_pass > max {
            bail!(
                "--steps-per-pass {} is not possible: the blocked kernel takes 1 to {max} steps per pass (0, the \
                 default, takes {}); use --steps-per-pass 2, 3 or 4, or leave it out",
                self.steps_per_pass,
                kernels_gpu::blocked::DEFAULT_STEPS_PER_PASS
            );
        }
        Ok(())
    }

    /// The options given that choose how a GPU steps the grid and do
    /// nothing on the CPU, as the command line names them (empty when all
    /// are at their defaults).
    pub fn gpu_only_options(&self) -> Vec<String> {
        let d = Self::default();
        let mut given = Vec::new();
        if self.kernel != d.kernel {
            given.push(format!("--kernel {}", self.kernel.to_possible_value().expect("named").get_name()));
        }
        if let Some(block) = self.block {
            given.push(format!("--block {block}"));
        }
        let numbers = [
            ("--z-chunk", self.z_chunk, d.z_chunk),
            ("--steps-per-pass", self.steps_per_pass, d.steps_per_pass),
            ("--device", self.device as u32, d.device as u32),
        ];
        given.extend(numbers.iter().filter(|(_, v, d)| v != d).map(|(name, v, _)| format!("{name} {v}")));
        if !self.gpu_ids.is_empty() {
            let ids: Vec<String> = self.gpu_ids.iter().map(|i| i.to_string()).collect();
            given.push(format!("--gpu-ids {}", ids.join(",")));
        }
        if self.exchange != d.exchange {
            given
                .push(format!("--exchange {}", self.exchange.to_possible_value().expect("named").get_name()));
        }
        let flags = [
            ("--no-overlap", self.no_overlap),
            ("--no-graphs", self.no_graphs),
            ("--no-pdl", self.no_pdl),
            ("--retune", self.retune),
        ];
        given.extend(flags.iter().filter(|(_, on)| *on).map(|(name, _)| name.to_string()));
        given
    }

    /// The kernels `--kernel tune` times for `model` in `precision` on
    /// `dims` over `gpus` sub-domains, `auto`'s choice first: naive, columns
    /// (at `auto`'s z-chunk) and blocked at 2, 3 and 4 steps per pass (or
    /// at `--steps-per-pass` alone), each with `--block`/`--z-chunk` where
    /// given, each only where it can step this grid (the kernel's own
    /// checks; over several sub-domains, halos as deep as its passes). The
    /// paper's kernels (csw, tower, tower-march) are left out: on every
    /// device measured they are slower than naive (docs/history/BENCHMARKS-2026.md).
    pub fn tune_candidates(
        &self,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
        gpus: usize,
    ) -> Vec<KernelConfig> {
        let auto = Self { kernel: KernelArg::Auto, ..self.clone() };
        let mut all = vec![
            auto.kernel_config(model, precision, dims, gpus),
            self.config_of(KernelKind::Naive, precision),
            // auto's columns, whether or not auto takes them.
            self.kernel_choice().autos_columns(precision, dims),
        ];
        if KernelKind::Blocked.entry_point(model.name, 3, precision).is_some() {
            let steps: Vec<u32> = match self.steps_per_pass {
                0 => (2..=kernels_gpu::blocked::MAX_STEPS_PER_PASS).collect(),
                k => vec![k],
            };
            let blocked = self.config_of(KernelKind::Blocked, precision);
            all.extend(steps.into_iter().map(|k| blocked.with_steps_per_pass(k)));
        }
        self.runnable(all, &[], model, dims, gpus)
    }

    /// What `--kernel tune` tries after the first round, around its
    /// fastest kernel `best`: blocked with 16 and 64 slices per block
    /// (at 512^3 on an H100 64 was 1.06x faster than the default 32),
    /// columns climbing 2, 4 and 8 slices, naive in 32x4, 32x16 and 64x4
    /// blocks; only what `--z-chunk` or `--block` leave open, only what can
    /// step the grid, never `best` itself.
    pub fn tune_refinements(
        &self,
        best: KernelConfig,
        model: &ModelInfo,
        dims: GridDims,
        gpus: usize,
    ) -> Vec<KernelConfig> {
        let around: Vec<KernelConfig> = match best.kind {
            KernelKind::Blocked if self.z_chunk == 0 => vec![best.with_z_chunk(16), best.with_z_chunk(64)],
            KernelKind::Columns if self.z_chunk == 0 => [2, 4, 8].map(|z| best.with_z_chunk(z)).to_vec(),
            KernelKind::Naive if self.block.is_none() => [(32, 4), (32, 16), (64, 4)]
                .map(|(x, y)| KernelConfig { block: BlockSize { x, y }, ..best })
                .to_vec(),
            _ => Vec::new(),
        };
        self.runnable(around, &[best], model, dims, gpus)
    }

    /// Blocked shapes `--kernel tune` tries last, around a blocked `best`
    /// in f32 on one GPU of `multiprocessors` SMs: blocks `best`'s width
    /// wide and 24 to 32 rows high, with chunks from 16 slices to the whole
    /// grid, ranked by [`kernels_gpu::blocked::predicted_cost`] (a pass's
    /// halo work over the share of SMs its waves keep busy); the two ranked
    /// best, where they rank at least 1% above `best`, then the best-ranked
    /// shape at each neighbouring k (2 to 4) unless `--steps-per-pass` was
    /// given. In f32 the blocked
    /// kernels are capped at 64 registers (`build.rs`), so an SM holds as
    /// many blocks as 64K registers and 2,048 threads allow (every GPU
    /// fibril runs on, sm_70 to sm_90, has 64K registers per SM and holds
    /// at least 1,024 threads, so the registers bind first and the count
    /// is the same on each); in f64 the
    /// count is the compiler's, and nothing is ranked. Only where neither
    /// `--block` nor `--z-chunk` was given. (On an H100, Karma at 256^3:
    /// 32x26 z64 11,230 steps/s against 32x32 z32 10,592.)
    pub fn tune_blocked_shapes(
        &self,
        best: KernelConfig,
        model: &ModelInfo,
        precision: Precision,
        dims: GridDims,
        gpus: usize,
        multiprocessors: u32,
    ) -> Vec<KernelConfig> {
        use kernels_gpu::blocked::{MAX_STEPS_PER_PASS, predicted_cost};
        if best.kind != KernelKind::Blocked
            || self.block.is_some()
            || self.z_chunk != 0
            || gpus != 1
            || precision != Precision::F32
        {
            return Vec::new();
        }
        let (k, width) = (best.steps_per_pass, best.block.x);
        let cost = |block: BlockSize, k: u32, z: u32| {
            let threads = block.x * block.y;
            let per_sm = (65_536 / (64 * threads)).min(2048 / threads).max(1);
            predicted_cost(dims, (block.x, block.y), k, z, multiprocessors * per_sm)
        };
        // Each height at its best chunk, so that the shapes timed differ in height.
        let ranked = |k: u32| {
            let mut ranked: Vec<(f64, KernelConfig)> = (24..=32)
                .step_by(2)
                .filter(|h| width * h <= 1024)
                .filter_map(|height| {
                    let block = BlockSize { x: width, y: height };
                    let chunks = std::iter::successors(Some(16u32), |z| (*z < dims.nz).then_some(z * 2));
                    let (c, z) = chunks
                        .map(|z| (cost(block, k, z.min(dims.nz)), z.min(dims.nz)))
                        .min_by(|a, b| a.0.total_cmp(&b.0))?;
                    Some((c, KernelConfig { block, ..best }.with_steps_per_pass(k).with_z_chunk(z)))
                })
                .collect();
            ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
            ranked
        };
        let own = cost(best.block, k, best.effective_z_chunk(dims.nz));
        let same_k: Vec<KernelConfig> =
            ranked(k).into_iter().filter(|(c, _)| c * 1.01 < own).map(|(_, shape)| shape).collect();
        let mut shapes = self.runnable(same_k, &[best], model, dims, gpus);
        shapes.truncate(2);
        // The count compares shapes at one k, not across k (it leaves out
        // what an iteration costs whatever its levels, which more levels
        // share): the best-ranked shape of each neighbouring k is timed too
        // unless `--steps-per-pass` fixed k. (On an H100, Karma at 256^3:
        // 32x30 k4 z256 15,315 steps/s against 32x26 k3 z256's 14,837,
        // where the first round's k4 in 32x32 z32 ran 12,821.)
        if self.steps_per_pass == 0 {
            let neighbours =
                [k.saturating_sub(1), k + 1].into_iter().filter(|n| (2..=MAX_STEPS_PER_PASS).contains(n));
            let other_k: Vec<KernelConfig> =
                neighbours.filter_map(|n| ranked(n).into_iter().next().map(|(_, shape)| shape)).collect();
            let mut except = shapes.clone();
            except.push(best);
            shapes.extend(self.runnable(other_k, &except, model, dims, gpus));
        }
        shapes
    }

    /// The kernels of `all` that can step `dims` over `gpus` sub-domains
    /// (the kernel's own checks; over several, halos as deep as its passes,
    /// and through NCCL one slice deep only), each once, none that launches
    /// as one of `except` does: the same kernel, block and steps, and the
    /// same chunk once clamped to a sub-domain's slices (z64 and z32 on 32
    /// slices are one launch).
    fn runnable(
        &self,
        all: Vec<KernelConfig>,
        except: &[KernelConfig],
        model: &ModelInfo,
        dims: GridDims,
        gpus: usize,
    ) -> Vec<KernelConfig> {
        let slices = sub_domain_slices(dims, gpus);
        let launch = |k: &KernelConfig| (k.kind, k.block, k.steps_per_pass, k.effective_z_chunk(slices));
        let nccl = gpus > 1 && self.exchange == ExchangeArg::Nccl;
        let mut seen: Vec<_> = except.iter().map(launch).collect();
        let mut out = Vec::new();
        for kernel in all {
            let depth = fibril_host::multi::halo_depth(&kernel);
            let splittable = gpus == 1
                || (fibril_host::multi::check_splittable(dims, gpus, depth).is_ok() && !(nccl && depth > 1));
            if !seen.contains(&launch(&kernel)) && splittable && kernel.check(model.name, dims).is_ok() {
                seen.push(launch(&kernel));
                out.push(kernel);
            }
        }
        out
    }

    /// The next z-chunk `--kernel tune` tries after a round in which `best`
    /// beat `before` (the same kernel) by its z-chunk: one more doubling or
    /// halving in the direction that helped, while the chunk stays within
    /// a sub-domain's slices. `None` when the chunk did not move, the kernel has
    /// none, `--z-chunk` fixed it, or the grid ends the walk. (At 512^3 the
    /// blocked kernel's recomputed z-halo, 2K planes a chunk, weighs less
    /// the longer the chunk, so the best may lie past 64.)
    pub fn tune_next_chunk(
        &self,
        best: KernelConfig,
        before: KernelConfig,
        model: &ModelInfo,
        dims: GridDims,
        gpus: usize,
    ) -> Option<KernelConfig> {
        let chunked = matches!(best.kind, KernelKind::Blocked | KernelKind::Columns);
        if !chunked || self.z_chunk != 0 || best.kind != before.kind || best.block != before.block {
            return None;
        }
        let slices = sub_domain_slices(dims, gpus);
        let (now, was) = (best.effective_z_chunk(slices), before.effective_z_chunk(slices));
        let next = match now.cmp(&was) {
            std::cmp::Ordering::Greater if now * 2 <= slices => now * 2,
            std::cmp::Ordering::Less if now >= 2 => now / 2,
            _ => return None,
        };
        self.runnable(vec![best.with_z_chunk(next)], &[best, before], model, dims, gpus).pop()
    }
}

/// The most slices a sub-domain of `dims` split over `gpus` owns (the
/// split is balanced): what a z-chunk is clamped to.
fn sub_domain_slices(dims: GridDims, gpus: usize) -> u32 {
    dims.nz.div_ceil(gpus.max(1) as u32)
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
    fn auto_takes_columns_on_one_gpu_where_the_grid_allows_it() {
        let compute = ComputeArgs::default();
        assert_eq!(compute.kernel, KernelArg::Auto);
        let find = |name| fibril_host::models::find(name).unwrap();
        let kind =
            |model, precision, dims, gpus| compute.kernel_config(find(model), precision, dims, gpus).kind;
        let cube = GridDims::new(256, 256, 256);
        assert_eq!(kind("karma", Precision::F32, cube, 1), KernelKind::Columns);
        assert_eq!(kind("fenton_karma", Precision::F32, cube, 1), KernelKind::Columns);
        assert_eq!(kind("karma", Precision::F64, cube, 1), KernelKind::Naive);
        assert_eq!(kind("bocf", Precision::F32, cube, 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, cube, 2), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(250, 256, 256), 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(512, 512, 1), 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(64, 64, 64), 1), KernelKind::Naive);
        assert_eq!(kind("karma", Precision::F32, GridDims::new(128, 128, 128), 1), KernelKind::Columns);
        let named = ComputeArgs { kernel: KernelArg::Csw, ..ComputeArgs::default() };
        let csw = named.kernel_config(find("bocf"), Precision::F64, GridDims::new(8, 8, 8), 1);
        assert_eq!(csw.kind, KernelKind::Csw);
    }

    #[test]
    fn blocked_takes_small_models_and_falls_back_with_a_notice_for_the_ionic_ones() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let cube = GridDims::new(256, 256, 256);
        let blocked = ComputeArgs { kernel: KernelArg::Blocked, steps_per_pass: 3, ..ComputeArgs::default() };
        for name in ["karma", "aliev_panfilov", "mitchell_schaeffer", "fenton_karma", "bocf"] {
            let cfg = blocked.kernel_config(find(name), Precision::F32, cube, 1);
            assert_eq!(cfg.to_string(), "blocked 32x32 k3 z32", "{name}");
            assert_eq!(blocked.fallback_notice(find(name), &cfg), None);
        }
        for name in ["beeler_reuter", "luo_rudy_1991", "ten_tusscher_2006"] {
            let cfg = blocked.kernel_config(find(name), Precision::F32, cube, 1);
            assert_eq!((cfg.kind, cfg.steps_per_pass), (KernelKind::Naive, 1), "{name}");
            cfg.check(name, cube).unwrap();
            let notice = blocked.fallback_notice(find(name), &cfg).unwrap();
            assert!(notice.contains(name) && notice.contains("one step per pass"), "{notice}");
        }
        // Without --steps-per-pass blocked takes 3, the others one.
        let default = ComputeArgs { kernel: KernelArg::Blocked, ..ComputeArgs::default() };
        assert_eq!(
            default.kernel_config(find("karma"), Precision::F32, cube, 1).to_string(),
            "blocked 32x32 k3 z32"
        );
        let naive = ComputeArgs { kernel: KernelArg::Naive, ..ComputeArgs::default() };
        assert_eq!(naive.kernel_config(find("karma"), Precision::F32, cube, 1).steps_per_pass, 1);
        let f64 = blocked.kernel_config(find("bocf"), Precision::F64, cube, 1);
        assert_eq!(f64.to_string(), "blocked 32x12 k3 z32", "f64 kernels take up to 144 registers");
        // A block given is kept, whatever the kernel.
        let given = ComputeArgs { block: Some(BlockSize { x: 64, y: 8 }), ..blocked };
        assert_eq!(
            given.kernel_config(find("karma"), Precision::F32, cube, 1).to_string(),
            "blocked 64x8 k3 z32"
        );
    }

    #[test]
    fn tune_times_every_kernel_that_can_step_the_run_autos_choice_first() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        assert!(tune.tunes() && !ComputeArgs::default().tunes());
        let labels = |compute: &ComputeArgs, model, precision, dims, gpus| -> Vec<String> {
            compute
                .tune_candidates(find(model), precision, dims, gpus)
                .iter()
                .map(|k| k.to_string())
                .collect()
        };
        let cube = GridDims::new(256, 256, 256);
        // Before anything is timed, tune is auto.
        assert_eq!(
            tune.kernel_config(find("karma"), Precision::F32, cube, 1),
            ComputeArgs::default().kernel_config(find("karma"), Precision::F32, cube, 1)
        );
        assert_eq!(
            labels(&tune, "karma", Precision::F32, cube, 1),
            [
                "columns 32x8 z4",
                "naive 32x8",
                "blocked 32x32 k2 z32",
                "blocked 32x32 k3 z32",
                "blocked 32x32 k4 z32"
            ]
        );
        // auto's z-chunk for columns on a small grid, naive first where auto takes it.
        assert_eq!(
            labels(&tune, "karma", Precision::F32, GridDims::new(64, 64, 64), 1)[..2],
            ["naive 32x8", "columns 32x8 z8"]
        );
        // Four local variables: no blocked kernel.
        assert_eq!(
            labels(&tune, "ten_tusscher_2006", Precision::F64, cube, 1),
            ["naive 32x8", "columns 32x8 z4"]
        );
        assert_eq!(labels(&tune, "bocf", Precision::F64, cube, 1)[2], "blocked 32x12 k2 z32");
        // Only the kernels that can step the grid: 2D is naive's alone,
        // columns need nx a multiple of 4.
        assert_eq!(labels(&tune, "karma", Precision::F32, GridDims::new(512, 512, 1), 1), ["naive 32x8"]);
        assert!(
            !labels(&tune, "karma", Precision::F32, GridDims::new(250, 64, 64), 1)
                .iter()
                .any(|k| k.starts_with("columns"))
        );
        // Over sub-domains, passes of k steps need parts of k + 1 slices.
        let thin = GridDims::new(64, 64, 8);
        let split = labels(&tune, "karma", Precision::F32, thin, 2);
        assert!(split.contains(&"blocked 32x32 k3 z32".to_string()), "{split:?}");
        assert!(!split.iter().any(|k| k.contains(" k4 ")), "{split:?}");
        // tune's --steps-per-pass is its blocked candidates': the kernel it
        // starts from takes one step and can run (auto named it would not).
        let k3 = ComputeArgs { steps_per_pass: 3, ..tune.clone() };
        let start = k3.kernel_config(find("karma"), Precision::F32, cube, 1);
        assert_eq!((start.to_string().as_str(), start.check("karma", cube)), ("columns 32x8 z4", Ok(())));
        // Through NCCL, sub-domains take one-slice halos only: no blocked pass of several steps.
        let nccl = ComputeArgs { exchange: ExchangeArg::Nccl, ..tune.clone() };
        let over_nccl = labels(&nccl, "karma", Precision::F32, cube, 2);
        assert!(!over_nccl.iter().any(|k| k.starts_with("blocked")), "{over_nccl:?}");
        assert!(labels(&tune, "karma", Precision::F32, cube, 2).iter().any(|k| k.starts_with("blocked")));
        // What is given is kept: --steps-per-pass limits blocked to it, --block applies to all.
        let given =
            ComputeArgs { steps_per_pass: 3, block: Some(BlockSize { x: 32, y: 16 }), ..tune.clone() };
        assert_eq!(
            labels(&given, "karma", Precision::F32, cube, 1),
            ["naive 32x16", "columns 32x16 z4", "blocked 32x16 k3 z32"]
        );
    }

    #[test]
    fn tune_refines_the_fastest_kernels_chunk_or_block_unless_given() {
        let karma = fibril_host::models::find("karma").unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        let cube = GridDims::new(512, 512, 512);
        let first = |label: &str| {
            tune.tune_candidates(karma, Precision::F32, cube, 1)
                .into_iter()
                .find(|k| k.to_string() == label)
                .unwrap()
        };
        let labels = |compute: &ComputeArgs, best, dims, gpus| -> Vec<String> {
            compute.tune_refinements(best, karma, dims, gpus).iter().map(|k| k.to_string()).collect()
        };
        let blocked = first("blocked 32x32 k3 z32");
        assert_eq!(labels(&tune, blocked, cube, 1), ["blocked 32x32 k3 z16", "blocked 32x32 k3 z64"]);
        // The default chunk (4) is the kernel already timed.
        let columns = first("columns 32x8 z4");
        assert_eq!(labels(&tune, columns, cube, 1), ["columns 32x8 z2", "columns 32x8 z8"]);
        let naive = first("naive 32x8");
        assert_eq!(labels(&tune, naive, cube, 1), ["naive 32x4", "naive 32x16", "naive 64x4"]);
        // What the command line fixed stays fixed.
        let chunk = ComputeArgs { z_chunk: 32, ..tune.clone() };
        assert!(labels(&chunk, blocked, cube, 1).is_empty());
        let block = ComputeArgs { block: Some(BlockSize { x: 32, y: 8 }), ..tune.clone() };
        assert!(labels(&block, naive, cube, 1).is_empty());
        // Only what the grid allows: a sheet has no columns.
        let sheet = GridDims::new(512, 512, 1);
        assert!(labels(&tune, columns, sheet, 1).is_empty());
    }

    #[test]
    fn tune_walks_the_z_chunk_on_in_the_direction_that_helped() {
        let karma = fibril_host::models::find("karma").unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        let cube = GridDims::new(512, 512, 512);
        let blocked = |z| {
            KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y: 32 })
                .with_steps_per_pass(3)
                .with_z_chunk(z)
        };
        let next = |compute: &ComputeArgs, best, before, dims| {
            compute.tune_next_chunk(best, before, karma, dims, 1).map(|k| k.to_string())
        };
        assert_eq!(next(&tune, blocked(64), blocked(0), cube).as_deref(), Some("blocked 32x32 k3 z128"));
        assert_eq!(next(&tune, blocked(16), blocked(32), cube).as_deref(), Some("blocked 32x32 k3 z8"));
        // Not moved, not chunked, fixed by --z-chunk, or past the grid: no walk.
        assert_eq!(next(&tune, blocked(32), blocked(0), cube), None);
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        assert_eq!(next(&tune, naive, naive, cube), None);
        assert_eq!(next(&ComputeArgs { z_chunk: 64, ..tune.clone() }, blocked(64), blocked(32), cube), None);
        assert_eq!(next(&tune, blocked(64), blocked(32), GridDims::new(256, 256, 64)), None);
        // Over two sub-domains of 128 slices each, the walk ends at 128.
        let split = |best, before| tune.tune_next_chunk(best, before, karma, GridDims::new(256, 256, 256), 2);
        assert_eq!(
            split(blocked(64), blocked(32)).map(|k| k.to_string()).as_deref(),
            Some("blocked 32x32 k3 z128")
        );
        assert_eq!(split(blocked(128), blocked(64)), None);
        // Chunks past the slices launch as the whole window: one kernel, timed once.
        let shallow = GridDims::new(256, 256, 32);
        assert!(tune.tune_refinements(blocked(32), karma, shallow, 1).iter().all(|k| k.z_chunk != 64));
        // Another kernel or block: not a walk along z.
        let columns = KernelConfig::new(KernelKind::Columns, BlockSize { x: 32, y: 8 }).with_z_chunk(8);
        assert_eq!(next(&tune, columns, blocked(32), cube), None);
        assert_eq!(next(&tune, columns, columns.with_z_chunk(4), cube).as_deref(), Some("columns 32x8 z16"));
    }

    #[test]
    fn tune_ranks_blocked_shapes_by_their_waves() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let tune = ComputeArgs { kernel: KernelArg::Tune, ..ComputeArgs::default() };
        let cube = GridDims::new(256, 256, 256);
        let blocked = |y, k, z| {
            KernelConfig::new(KernelKind::Blocked, BlockSize { x: 32, y })
                .with_steps_per_pass(k)
                .with_z_chunk(z)
        };
        let shapes = |compute: &ComputeArgs, best, precision, gpus| -> Vec<String> {
            compute
                .tune_blocked_shapes(best, find("karma"), precision, cube, gpus, 132)
                .iter()
                .map(|k| k.to_string())
                .collect()
        };
        // Karma k = 3 at 256^3 on 132 SMs: 32x26 (10 x 13 tiles a chunk, full
        // waves at any chunk, so the longest), then 32x30 z32 (880 blocks in
        // 7 waves, 95%); on an H100 32x26 z64 ran 11,230 steps/s and 32x30
        // z32 10,890 against 32x32 z32's 10,592.
        // Then the best-ranked shape of k = 2 and of k = 4: on an H100 32x30
        // k4 z256 (132 tiles, one full wave) ran 15,315 steps/s against
        // 32x26 k3 z256's 14,837 in the fourth form of the kernel.
        let found = shapes(&tune, blocked(32, 3, 32), Precision::F32, 1);
        assert_eq!(
            found,
            [
                "blocked 32x26 k3 z256",
                "blocked 32x30 k3 z32",
                "blocked 32x24 k2 z256",
                "blocked 32x30 k4 z256"
            ]
        );
        // With `--steps-per-pass` k is the run's: no neighbours.
        let k3 = ComputeArgs { steps_per_pass: 3, ..tune.clone() };
        assert_eq!(
            shapes(&k3, blocked(32, 3, 32), Precision::F32, 1),
            ["blocked 32x26 k3 z256", "blocked 32x30 k3 z32"]
        );
        // Nothing for other kernels, f64, several GPUs, or a block or chunk given.
        let naive = KernelConfig::new(KernelKind::Naive, BlockSize { x: 32, y: 8 });
        assert!(shapes(&tune, naive, Precision::F32, 1).is_empty());
        assert!(shapes(&tune, blocked(32, 3, 32), Precision::F64, 1).is_empty());
        assert!(shapes(&tune, blocked(32, 3, 32), Precision::F32, 2).is_empty());
        assert!(
            shapes(&ComputeArgs { z_chunk: 32, ..tune.clone() }, blocked(32, 3, 32), Precision::F32, 1)
                .is_empty()
        );
        // A shape already at its best ranks nothing above it at its k:
        // Mitchell-Schaeffer k = 4 32x30 z256 fills one wave; k = 3's best
        // shape is still timed (k = 5 does not exist).
        let ms = tune.tune_blocked_shapes(
            blocked(30, 4, 256),
            find("mitchell_schaeffer"),
            Precision::F32,
            cube,
            1,
            132,
        );
        let ms: Vec<String> = ms.iter().map(|k| k.to_string()).collect();
        assert_eq!(ms, ["blocked 32x26 k3 z256"]);
    }

    #[test]
    fn columns_climb_deeper_chunks_on_small_grids_unless_told() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let label = |compute: &ComputeArgs, n| {
            compute.kernel_config(find("karma"), Precision::F32, GridDims::new(n, n, n), 1).to_string()
        };
        let auto = ComputeArgs::default();
        assert_eq!(label(&auto, 128), "columns 32x8 z8");
        assert_eq!(label(&auto, 160), "columns 32x8 z4");
        assert_eq!(label(&auto, 256), "columns 32x8 z4");
        // Named, columns keep the kernel's default; a chunk given is kept.
        let named = ComputeArgs { kernel: KernelArg::Columns, ..ComputeArgs::default() };
        assert_eq!(label(&named, 128), "columns 32x8 z4");
        let told = ComputeArgs { z_chunk: 2, ..ComputeArgs::default() };
        assert_eq!(label(&told, 128), "columns 32x8 z2");
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
    fn kernel_options_are_checked_as_a_gpu_would_whatever_the_backend() {
        let find = |name| fibril_host::models::find(name).unwrap();
        let cube = GridDims::new(8, 8, 8);
        let check = |compute: &ComputeArgs, model, dims| {
            compute.check_kernel_options(find(model), Precision::F32, dims).map_err(|e| format!("{e:#}"))
        };
        let cpu = ComputeArgs { backend: BackendArg::Cpu, ..ComputeArgs::default() };
        assert_eq!(check(&cpu, "bocf", cube), Ok(()));
        // The case: refused on the CPU as on a GPU.
        let tower = ComputeArgs { kernel: KernelArg::Tower, steps_per_pass: 9, ..cpu.clone() };
        assert!(check(&tower, "bocf", cube).unwrap_err().contains("--steps-per-pass 9"));
        let tower = ComputeArgs { steps_per_pass: 0, ..tower };
        let why = check(&tower, "bocf", cube).unwrap_err();
        assert!(why.contains("--kernel tower") && why.contains("not for model bocf"), "{why}");
        // Steps per pass for a kernel of one step, a block without tiles.
        let auto_k3 = ComputeArgs { steps_per_pass: 3, ..cpu.clone() };
        assert!(check(&auto_k3, "karma", cube).unwrap_err().contains("--steps-per-pass 3 is not possible"));
        let no_tile = ComputeArgs {
            kernel: KernelArg::Blocked,
            steps_per_pass: 4,
            block: Some(BlockSize { x: 32, y: 4 }),
            ..cpu.clone()
        };
        assert!(check(&no_tile, "karma", cube).unwrap_err().contains("leaves no cells"));
        // A kernel named for a grid it cannot step.
        let csw = ComputeArgs { kernel: KernelArg::Csw, ..cpu.clone() };
        assert!(check(&csw, "karma", GridDims::new(8, 8, 1)).unwrap_err().contains("--kernel naive"));
        // auto leaves a grid to the backend: the CPU steps any shape.
        assert_eq!(check(&cpu, "karma", GridDims::new(1, 1, 70_000)), Ok(()));
        // tune's steps per pass are checked too (it would drop its blocked candidates).
        let tune = ComputeArgs { kernel: KernelArg::Tune, steps_per_pass: 7, ..cpu.clone() };
        assert!(check(&tune, "karma", cube).unwrap_err().contains("--steps-per-pass 7"));
        // What a GPU takes is noted as doing nothing on the CPU.
        assert!(cpu.gpu_only_options().is_empty());
        let given = ComputeArgs {
            kernel: KernelArg::Csw,
            block: Some(BlockSize { x: 64, y: 4 }),
            device: 2,
            exchange: ExchangeArg::Host,
            no_graphs: true,
            ..cpu.clone()
        };
        assert_eq!(
            given.gpu_only_options(),
            ["--kernel csw", "--block 64x4", "--device 2", "--exchange host", "--no-graphs"]
        );
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
