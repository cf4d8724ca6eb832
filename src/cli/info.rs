//! `fibril info`: the CUDA devices and the memory a grid needs.

use std::process::ExitCode;

use clap::Args;
use fibril_host::Precision;
use fibril_host::backend::gpu::device_count;
use fibril_host::backend::{BlockSize, GpuDevice, KernelConfig, KernelKind};
use fibril_host::memory::{cpu_bytes, format_bytes};

use super::args::{GridArgs, PrecisionArg};

#[derive(Debug, Args)]
pub struct InfoArgs {
    #[command(flatten)]
    pub grid: GridArgs,
    #[arg(long, value_enum, default_value_t = PrecisionArg::F32)]
    pub precision: PrecisionArg,
    /// Block (and tower) size for the layout figures.
    #[arg(long, default_value = "32x8", value_parser = super::args::parse_block)]
    pub block: BlockSize,
}

pub fn info(args: InfoArgs) -> anyhow::Result<ExitCode> {
    println!("fibril {}", env!("CARGO_PKG_VERSION"));
    println!("kernels: {}", fibril::KERNEL_NAMES.join(", "));
    match device_count() {
        Err(why) => println!("CUDA devices: none usable ({why})"),
        Ok(count) => {
            println!("CUDA devices: {count}");
            for ordinal in 0..count {
                match GpuDevice::open(ordinal) {
                    Ok(gpu) => {
                        let i = gpu.info();
                        println!(
                            "  [{ordinal}] {}: {} total, {} free, compute capability {}.{}, driver API {}.{}",
                            i.name,
                            format_bytes(i.total_bytes),
                            format_bytes(i.free_bytes),
                            i.compute_capability.0,
                            i.compute_capability.1,
                            i.driver_version / 1000,
                            (i.driver_version % 1000) / 10
                        );
                    }
                    Err(why) => println!("  [{ordinal}] unusable: {why}"),
                }
            }
        }
    }
    let dims = args.grid.dims();
    let precision = Precision::from(args.precision);
    println!("grid {}x{}x{}, {precision}, block {}:", dims.nx, dims.ny, dims.nz, args.block);
    println!("  mesh_size {}", dims.cells());
    for kind in KernelKind::ALL {
        let config = KernelConfig::new(kind, args.block);
        // Paper eq. 6: bytes = size * (2 * ds_size + mesh_size), ds_size = mesh_size without towers.
        match (config.u_elements(dims), config.device_bytes(dims, precision)) {
            (Ok(ds), Ok(bytes)) => println!(
                "  {:<12} ds_size {ds:>12}  GPU memory {:>10} ({:.2} MiB)",
                kind.name(),
                format_bytes(bytes),
                bytes as f64 / (1u64 << 20) as f64
            ),
            (Err(why), _) | (_, Err(why)) => println!("  {:<12} not possible: {why}", kind.name()),
        }
    }
    println!("  CPU backend  memory {}", format_bytes(cpu_bytes(dims.cells(), precision)));
    Ok(ExitCode::SUCCESS)
}
