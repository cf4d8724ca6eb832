//! Choosing the backend and checking memory, before any work starts.

use anyhow::{Context, bail};
use fibril_host::backend::{CpuSolver, GpuDevice, GpuSolver, KernelKind, Solver};
use fibril_host::memory::{
    activation_bytes, available_host_bytes, cpu_bytes, format_bytes, host_side_of_gpu_bytes,
};
use fibril_host::{Domain, Fields, Precision, Scalar};

use super::args::BackendArg;

/// The backend a run will use, already probed.
pub enum Selected {
    Cpu,
    Gpu(GpuDevice),
}

/// Resolves `--backend`. `auto` falls back to the CPU with a one-line
/// notice on stderr; `gpu` without a usable GPU is an error that says why.
pub fn select(backend: BackendArg, device: usize) -> anyhow::Result<Selected> {
    match backend {
        BackendArg::Cpu => Ok(Selected::Cpu),
        BackendArg::Gpu => GpuDevice::open(device)
            .map(Selected::Gpu)
            .context("--backend gpu needs a usable CUDA GPU; use --backend cpu or --backend auto to run on the CPU"),
        BackendArg::Auto => match GpuDevice::open(device) {
            Ok(gpu) => Ok(Selected::Gpu(gpu)),
            Err(why) => {
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
    kernel: KernelKind,
    activation_map: bool,
) -> anyhow::Result<()> {
    let cells = domain.cells();
    let host_needed = match selected {
        Selected::Cpu => cpu_bytes(cells, precision),
        Selected::Gpu(gpu) => {
            gpu.check_fits(kernel.device_bytes(cells, precision))?;
            host_side_of_gpu_bytes(cells, precision)
        }
    } + if activation_map {
        activation_bytes(cells, precision)
    } else {
        0
    };
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
            if precision == Precision::F64 {
                " or --precision f32"
            } else {
                ""
            }
        );
    }
    Ok(())
}

/// Builds the solver on the selected backend with `initial` as its state.
pub fn build_solver<T: Scalar>(
    selected: &Selected,
    kernel: KernelKind,
    domain: &Domain,
    initial: &Fields<T>,
) -> anyhow::Result<Box<dyn Solver<T>>> {
    Ok(match selected {
        Selected::Cpu => Box::new(CpuSolver::new(domain, initial)),
        Selected::Gpu(gpu) => Box::new(GpuSolver::new(gpu, fibril::PTX, kernel, domain, initial)?),
    })
}
