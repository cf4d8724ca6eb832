//! Choosing the backend and the GPUs, and checking memory, before any work starts.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use anyhow::{Context, bail};
use fibril_host::backend::gpu::device_count;
use fibril_host::backend::{GpuDevice, KernelConfig, Solver};
use fibril_host::events::recording::Recording;
use fibril_host::memory::{Estimate, Placement, available_host_bytes, estimate, format_bytes};
use fibril_host::multi::Exchange;
use fibril_host::multi::nccl::{self, UniqueId};
use fibril_host::multi::rank::{RankInfo, rendezvous_address, share_id};
use fibril_host::simulation::{Devices, GpuOptions, Mesh, SolverPlan};
use fibril_host::{CellModel, Domain, Precision, Scalar, State};

use super::args::{BackendArg, ComputeArgs, ExchangeArg, GpuCount, RankArgs};

/// How long ranks wait for each other at the rendezvous.
const RENDEZVOUS_TIMEOUT: Duration = Duration::from_secs(120);

/// The backend a run will use, already probed.
pub enum Selected {
    Cpu,
    /// One GPU, or several sharing the grid along z (sub-domain i on GPU i).
    Gpus(Vec<GpuDevice>),
    /// One rank of a multi-process run: sub-domain `info.rank` on `device`.
    /// `options` hashes what every rank must agree on beyond the solver
    /// (the run's schedule, stimuli and outputs; see [`Selected::bind_options`]).
    Rank {
        device: GpuDevice,
        info: RankInfo,
        rendezvous: String,
        options: u64,
    },
}

impl Selected {
    /// Whether this process writes the run's files and prints its results
    /// (every process but ranks 1.. of a multi-process run).
    pub fn is_root(&self) -> bool {
        !matches!(self, Selected::Rank { info, .. } if info.rank != 0)
    }

    /// Makes the rendezvous refuse ranks started with other `options` (the
    /// effective run configuration): ranks that disagree on when to stop
    /// or to gather would otherwise wait for each other forever.
    pub fn bind_options(&mut self, text: &str) {
        if let Selected::Rank { options, .. } = self {
            let mut h = DefaultHasher::new();
            text.hash(&mut h);
            *options = h.finish();
        }
    }

    /// GPUs the grid is split over, over all processes.
    /// Prints the notice of a `--kernel` that `model` does not have
    /// ([`ComputeArgs::fallback_notice`]), where a GPU runs (the CPU
    /// chooses no kernel).
    pub fn say_kernel_fallback(
        &self,
        compute: &ComputeArgs,
        model: &fibril_host::ModelInfo,
        kernel: &KernelConfig,
    ) {
        if let (false, Some(notice)) = (matches!(self, Selected::Cpu), compute.fallback_notice(model, kernel))
        {
            eprintln!("{notice}");
        }
    }

    /// Refuses, before any work, passes of several steps of the blocked
    /// kernel over sub-domains whose halos would cross through NCCL: deep
    /// halos are exchanged by peer or host copies within one process.
    pub fn check_split_kernel(&self, compute: &ComputeArgs, kernel: &KernelConfig) -> anyhow::Result<()> {
        let rank = matches!(self, Selected::Rank { .. });
        let nccl = rank || (self.gpus() > 1 && compute.exchange == ExchangeArg::Nccl);
        match deep_halos_refused(fibril_host::multi::halo_depth(kernel), nccl) {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Refuses `--kernel tune` over several processes before any work:
    /// each rank would time its own sub-domain and might choose another
    /// kernel than the others, whose halos must match.
    pub fn check_tune(&self, compute: &ComputeArgs) -> anyhow::Result<()> {
        if compute.tunes() && matches!(self, Selected::Rank { .. }) {
            bail!(
                "--kernel tune times the kernels within one process; a run over several processes needs the \
                 kernel named (run `fibril bench --kernel tune` on one GPU, then pass its choice to --kernel)"
            );
        }
        Ok(())
    }

    pub fn gpus(&self) -> usize {
        match self {
            Selected::Cpu => 1,
            Selected::Gpus(g) => g.len(),
            Selected::Rank { info, .. } => info.world_size,
        }
    }

    /// Where this process's share of the work goes, for the memory estimate.
    pub fn placement(&self) -> Placement {
        match self {
            Selected::Cpu => Placement::Cpu,
            Selected::Gpus(gpus) => Placement::Gpus(gpus.iter().map(|g| g.info().ordinal).collect()),
            Selected::Rank { device, info, .. } => {
                Placement::Rank { rank: info.rank, world: info.world_size, ordinal: device.info().ordinal }
            }
        }
    }

    /// The opened GPU with `ordinal`.
    fn device(&self, ordinal: usize) -> Option<&GpuDevice> {
        match self {
            Selected::Cpu => None,
            Selected::Gpus(gpus) => gpus.iter().find(|g| g.info().ordinal == ordinal),
            Selected::Rank { device, .. } => Some(device),
        }
    }
}

/// The rank of this process when it is one of several, from `ranks` or
/// the launcher's environment; checks the options a rank needs and opens
/// its GPU (local rank r takes device `--device` + r).
fn select_rank(compute: &ComputeArgs, count: GpuCount, ranks: &RankArgs) -> anyhow::Result<Option<Selected>> {
    let env = |key: &str| std::env::var(key).ok();
    let Some(info) = RankInfo::detect(ranks.rank, ranks.world_size, &env)? else {
        return Ok(None);
    };
    let who = format!("rank {} of {} (from {})", info.rank, info.world_size, info.source.describe());
    if compute.backend == BackendArg::Cpu {
        bail!("{who}: a multi-process run needs GPUs; use --backend gpu, or start one process");
    }
    if count != GpuCount::N(1) || !compute.gpu_ids.is_empty() {
        bail!(
            "{who}: each process drives one GPU; drop --gpus/--gpu-ids (the number of processes sets the split)"
        );
    }
    if compute.exchange != ExchangeArg::Nccl {
        bail!("{who}: processes exchange halos through NCCL; add --exchange nccl");
    }
    let rendezvous = rendezvous_address(ranks.rendezvous.as_deref(), &env)?;
    let available = device_count().with_context(|| format!("{who} needs a usable CUDA GPU"))?;
    let ordinal = compute.device + info.local_rank;
    if ordinal >= available {
        bail!(
            "{who} is local rank {} and would use GPU {ordinal}, but this machine has {available}; \
             start at most {} processes per machine (or lower --device)",
            info.local_rank,
            available.saturating_sub(compute.device)
        );
    }
    let device = GpuDevice::open(ordinal).with_context(|| format!("{who}: opening GPU {ordinal}"))?;
    Ok(Some(Selected::Rank { device, info, rendezvous, options: 0 }))
}

/// Device ordinals for `count` GPUs starting at `first` (`--device`).
fn ordinals(count: GpuCount, first: usize, explicit: &[usize]) -> anyhow::Result<Vec<usize>> {
    if !explicit.is_empty() {
        return Ok(explicit.to_vec());
    }
    let available = device_count()?;
    Ok(match count {
        GpuCount::All => (0..available).collect(),
        GpuCount::N(n) => {
            if first + n > available {
                bail!(
                    "--gpus {n} (from device {first}) needs {} CUDA devices, this machine has {available}; \
                     use --gpus {} or fewer",
                    first + n,
                    available.saturating_sub(first).max(1)
                );
            }
            (first..first + n).collect()
        }
    })
}

/// Why a split run with halos `depth` deep cannot run, if its halos
/// cross through NCCL (`nccl`).
fn deep_halos_refused(depth: u32, nccl: bool) -> Option<fibril_host::multi::MultiError> {
    (depth > 1 && nccl).then_some(fibril_host::multi::MultiError::DeepHalosNeedCopies { steps: depth })
}

/// Resolves `--backend` with `count` GPUs. `auto` falls back to the CPU with
/// a one-line notice when no GPU is usable; `gpu` without one is an error
/// that says why.
pub fn select(compute: &ComputeArgs, count: GpuCount, ranks: &RankArgs) -> anyhow::Result<Selected> {
    compute.check_retune()?;
    if let Some(rank) = select_rank(compute, count, ranks)? {
        return Ok(rank);
    }
    let open = || -> anyhow::Result<Vec<GpuDevice>> {
        let ids = ordinals(count, compute.device, &compute.gpu_ids)?;
        ids.iter().map(|&o| GpuDevice::open(o).with_context(|| format!("opening GPU {o}"))).collect()
    };
    let multi = count != GpuCount::N(1) || compute.gpu_ids.len() > 1;
    match compute.backend {
        BackendArg::Cpu if multi => {
            bail!("--gpus and --gpu-ids need the GPU backend; drop them or use --backend gpu")
        }
        BackendArg::Cpu => {
            say_gpu_only_options(compute);
            Ok(Selected::Cpu)
        }
        BackendArg::Gpu => open().map(Selected::Gpus).context(
            "--backend gpu needs a usable CUDA GPU; use --backend cpu or --backend auto to run on the CPU",
        ),
        BackendArg::Auto => match device_count() {
            Ok(_) => open().map(Selected::Gpus),
            Err(why) => {
                if multi {
                    bail!("--gpus asks for several GPUs but none is usable ({why})");
                }
                eprintln!(
                    "fibril: no usable GPU ({why}); running on the CPU with {} threads",
                    rayon::current_num_threads()
                );
                say_gpu_only_options(compute);
                Ok(Selected::Cpu)
            }
        },
    }
}

/// Says, in one line, which options given choose how a GPU steps the grid
/// when the run is on the CPU, where they do nothing (their values were
/// checked as a GPU would, `ComputeArgs::check_kernel_options`).
fn say_gpu_only_options(compute: &ComputeArgs) {
    let given = compute.gpu_only_options();
    let what = match given.len() {
        0 => return,
        1 => "chooses how a GPU steps the grid; it does nothing",
        _ => "choose how a GPU steps the grid; they do nothing",
    };
    eprintln!("fibril: note: {} {what} on the CPU", given.join(", "));
}

/// Checks each GPU count of `fibril bench --gpus` (a list) as [`select`]
/// would, before any of them is timed: the CPU takes one, a machine with
/// GPUs at most as many as it has, a process of a multi-process run one.
pub fn check_gpu_counts(compute: &ComputeArgs, counts: &[GpuCount], ranks: &RankArgs) -> anyhow::Result<()> {
    let multi = |c: &GpuCount| *c != GpuCount::N(1) || compute.gpu_ids.len() > 1;
    if !counts.iter().any(multi) {
        return Ok(());
    }
    let env = |key: &str| std::env::var(key).ok();
    if let Some(info) = RankInfo::detect(ranks.rank, ranks.world_size, &env)? {
        bail!(
            "rank {} of {} (from {}): each process drives one GPU; drop --gpus/--gpu-ids (the number of \
             processes sets the split)",
            info.rank,
            info.world_size,
            info.source.describe()
        );
    }
    if compute.backend == BackendArg::Cpu {
        bail!("--gpus and --gpu-ids need the GPU backend; drop them or use --backend gpu");
    }
    match device_count() {
        Err(why) if compute.backend == BackendArg::Auto => {
            bail!("--gpus asks for several GPUs but none is usable ({why})")
        }
        Err(why) => Err(why).context(
            "--backend gpu needs a usable CUDA GPU; use --backend cpu or --backend auto to run on the CPU",
        ),
        Ok(_) => {
            for &count in counts {
                ordinals(count, compute.device, &compute.gpu_ids)?;
            }
            Ok(())
        }
    }
}

/// Refuses runs whose buffers cannot fit, naming the numbers and the fix;
/// returns the estimate (`fibril info` prints the same figures).
pub fn check_memory(
    selected: &Selected,
    domain: &Domain,
    precision: Precision,
    kernel: KernelConfig,
    recording: Option<&Recording>,
) -> anyhow::Result<Estimate> {
    let info = domain.model().info();
    let needs = estimate(
        info.name,
        domain.dims(),
        info.variables.len(),
        precision,
        kernel,
        &selected.placement(),
        recording,
    )?;
    for &(ordinal, bytes) in &needs.gpu_bytes {
        let gpu = selected.device(ordinal).expect("the estimate names the selected GPUs");
        gpu.check_fits(bytes).with_context(|| {
            let parts = selected.gpus();
            if parts > 1 {
                format!("the sub-domains placed on GPU {ordinal} (of {parts})")
            } else {
                format!("GPU {ordinal}")
            }
        })?;
    }
    if let Some(available) = available_host_bytes()
        && needs.host_bytes > available
    {
        let d = domain.dims();
        bail!(
            "not enough host memory: a {}x{}x{} {precision} run of model {} needs {} of RAM here and {} is \
             available; use a smaller grid (--size){}",
            d.nx,
            d.ny,
            d.nz,
            info.name,
            format_bytes(needs.host_bytes),
            format_bytes(available),
            if precision == Precision::F64 { " or --precision f32" } else { "" }
        );
    }
    Ok(needs)
}

/// The devices of the selected backend, as the library's solver factory
/// takes them (a rank's NCCL id handed out at the rendezvous first).
pub fn devices(
    selected: &Selected,
    compute: &ComputeArgs,
    kernel: KernelConfig,
    domain: &Domain,
    precision: Precision,
) -> anyhow::Result<Devices> {
    Ok(match selected {
        Selected::Cpu => Devices::Cpu,
        Selected::Gpus(gpus) => Devices::Gpus(gpus.clone()),
        Selected::Rank { device, info, rendezvous, options } => {
            let id = rendezvous_id(info, rendezvous, *options, compute, kernel, domain, precision)?;
            Devices::Rank { device: device.clone(), rank: info.rank, world: info.world_size, id }
        }
    })
}

/// How the GPU solvers of these options run.
pub fn gpu_options(compute: &ComputeArgs) -> GpuOptions {
    GpuOptions {
        graphs: !compute.no_graphs,
        pdl: !compute.no_pdl,
        overlap: !compute.no_overlap,
        exchange: compute.exchange.into(),
    }
}

/// Builds the solver of model `M` for `mesh` on the selected backend with
/// `initial` as its state (`kernel` may differ from `compute`'s in a
/// sweep), through the library's one factory ([`SolverPlan`]).
pub fn build_solver<M: CellModel, T: Scalar>(
    mesh: &Mesh,
    selected: &Selected,
    compute: &ComputeArgs,
    kernel: KernelConfig,
    domain: &Domain,
    initial: &State<T>,
) -> anyhow::Result<Box<dyn Solver<T>>> {
    let devices = devices(selected, compute, kernel, domain, T::PRECISION)?;
    let plan = SolverPlan {
        mesh,
        devices: &devices,
        kernels: Some(crate::PTX),
        kernel,
        options: gpu_options(compute),
        domain,
        initial,
    };
    Ok(plan.build_for::<M>()?)
}

/// Rank 0 makes the NCCL id and hands it to the others; all ranks must have
/// been started with the same grid, model, kernel, precision and run
/// options (and the same fibril version), which the fingerprint checks
/// before any GPU work.
fn rendezvous_id(
    info: &RankInfo,
    rendezvous: &str,
    options: u64,
    compute: &ComputeArgs,
    kernel: KernelConfig,
    domain: &Domain,
    precision: Precision,
) -> anyhow::Result<UniqueId> {
    let mut h = DefaultHasher::new();
    let version = env!("CARGO_PKG_VERSION");
    format!("{:?}|{kernel}|{precision}|{}|{options}|{version}", domain.record(), compute.no_overlap)
        .hash(&mut h);
    let make_id = || nccl::unique_id().map(|id| id.to_bytes()).map_err(|e| e.to_string());
    let id = share_id(rendezvous, info, h.finish(), make_id, RENDEZVOUS_TIMEOUT)
        .with_context(|| format!("rank {} of {}: rendezvous at {rendezvous}", info.rank, info.world_size))?;
    Ok(UniqueId::from_bytes(id))
}

impl From<super::args::ExchangeArg> for Exchange {
    fn from(e: super::args::ExchangeArg) -> Self {
        match e {
            super::args::ExchangeArg::Host => Exchange::Host,
            super::args::ExchangeArg::Peer => Exchange::Peer,
            super::args::ExchangeArg::Nccl => Exchange::Nccl,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_halos_are_refused_through_nccl_only() {
        assert!(deep_halos_refused(1, true).is_none(), "one-slice halos cross through NCCL");
        assert!(deep_halos_refused(3, false).is_none(), "deep halos by copies");
        let e = deep_halos_refused(3, true).unwrap().to_string();
        assert!(
            e.contains("--steps-per-pass 3") && e.contains("--exchange peer or host") && e.contains("NCCL"),
            "{e}"
        );
    }
}
