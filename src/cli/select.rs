//! Choosing the backend and the GPUs, and checking memory, before any work starts.

use anyhow::{Context, bail};
use fibril_host::backend::gpu::device_count;
use fibril_host::backend::{CpuSolver, GpuDevice, GpuSolver, KernelConfig, Solver};
use fibril_host::memory::{
    activation_bytes, available_host_bytes, cpu_bytes, format_bytes, host_side_of_gpu_bytes,
};
use fibril_host::multi::{Exchange, GpuMultiSolver, ZSplit};
use fibril_host::{Domain, Fields, Precision, Scalar};

use super::args::{BackendArg, ComputeArgs, GpuCount};

/// The backend a run will use, already probed.
pub enum Selected {
    Cpu,
    /// One GPU, or several sharing the grid along z (sub-domain i on GPU i).
    Gpus(Vec<GpuDevice>),
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

/// Resolves `--backend` with `count` GPUs. `auto` falls back to the CPU with
/// a one-line notice when no GPU is usable; `gpu` without one is an error
/// that says why.
pub fn select(compute: &ComputeArgs, count: GpuCount) -> anyhow::Result<Selected> {
    let open = || -> anyhow::Result<Vec<GpuDevice>> {
        let ids = ordinals(count, compute.device, &compute.gpu_ids)?;
        ids.iter().map(|&o| GpuDevice::open(o).with_context(|| format!("opening GPU {o}"))).collect()
    };
    let multi = count != GpuCount::N(1) || compute.gpu_ids.len() > 1;
    match compute.backend {
        BackendArg::Cpu if multi => {
            bail!("--gpus and --gpu-ids need the GPU backend; drop them or use --backend gpu")
        }
        BackendArg::Cpu => Ok(Selected::Cpu),
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
                Ok(Selected::Cpu)
            }
        },
    }
}

/// Refuses runs whose buffers cannot fit, naming the numbers and the fix.
pub fn check_memory(
    selected: &Selected,
    domain: &Domain,
    precision: Precision,
    kernel: KernelConfig,
    activation_map: bool,
) -> anyhow::Result<()> {
    let cells = domain.cells();
    let host_needed = match selected {
        Selected::Cpu => cpu_bytes(cells, precision),
        Selected::Gpus(gpus) if gpus.len() == 1 => {
            kernel.check(domain.dims())?;
            gpus[0].check_fits(kernel.device_bytes(domain.dims(), precision)?)?;
            host_side_of_gpu_bytes(cells, precision)
        }
        Selected::Gpus(gpus) => {
            let split = ZSplit::balanced(domain.dims().nz, gpus.len())?;
            for (i, gpu) in gpus.iter().enumerate() {
                let local = split.local_dims(domain.dims(), i);
                kernel.check(local)?;
                gpu.check_fits(kernel.device_bytes(local, precision)?)
                    .with_context(|| format!("sub-domain {i} of {}", gpus.len()))?;
            }
            // Initial fields, their scattered copies, and one gathered snapshot.
            3 * host_side_of_gpu_bytes(cells, precision) / 2
        }
    } + if activation_map { activation_bytes(cells, precision) } else { 0 };
    if let Some(available) = available_host_bytes()
        && host_needed > available
    {
        let d = domain.dims();
        bail!(
            "not enough host memory: a {}x{}x{} {precision} run needs {} of RAM here and {} is available; \
             use a smaller grid (--size){}",
            d.nx,
            d.ny,
            d.nz,
            format_bytes(host_needed),
            format_bytes(available),
            if precision == Precision::F64 { " or --precision f32" } else { "" }
        );
    }
    Ok(())
}

/// Builds the solver on the selected backend with `initial` as its state
/// (`kernel` may differ from `compute`'s in a sweep).
pub fn build_solver<T: Scalar>(
    selected: &Selected,
    compute: &ComputeArgs,
    kernel: KernelConfig,
    domain: &Domain,
    initial: &Fields<T>,
) -> anyhow::Result<Box<dyn Solver<T>>> {
    Ok(match selected {
        Selected::Cpu => Box::new(CpuSolver::new(domain, initial)),
        Selected::Gpus(gpus) if gpus.len() == 1 => {
            Box::new(GpuSolver::new(&gpus[0], fibril::PTX, kernel, domain, initial)?)
        }
        Selected::Gpus(gpus) => Box::new(GpuMultiSolver::new(
            gpus,
            fibril::PTX,
            kernel,
            domain,
            initial,
            compute.exchange.into(),
            !compute.no_overlap,
        )?),
    })
}

impl From<super::args::ExchangeArg> for Exchange {
    fn from(e: super::args::ExchangeArg) -> Self {
        match e {
            super::args::ExchangeArg::Host => Exchange::Host,
            super::args::ExchangeArg::Peer => Exchange::Peer,
        }
    }
}
