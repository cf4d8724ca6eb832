//! `fibril info`: the CUDA devices, and what a run needs (memory on the
//! chosen backend, disk for its outputs), from run options or a
//! configuration file.

use std::process::ExitCode;

use clap::{ArgMatches, Args};
use fibril_host::backend::gpu::device_count;
use fibril_host::backend::{GpuDevice, KernelConfig, KernelKind};
use fibril_host::memory::{Placement, available_host_bytes, estimate, format_bytes};

use super::args::{self, BackendArg, duration_steps};
use super::config::RunConfig;
use super::run_args::RunOptions;

#[derive(Debug, Args)]
pub struct InfoArgs {
    #[command(flatten)]
    pub options: RunOptions,
}

/// Lists the devices; returns the first usable one.
fn list_devices() -> Option<GpuDevice> {
    let mut first = None;
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
                        first.get_or_insert(gpu);
                    }
                    Err(why) => println!("  [{ordinal}] unusable: {why}"),
                }
            }
        }
    }
    first
}

pub fn info(args: InfoArgs, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    let mut config = RunConfig::resolve(&args.options, matches)?.config;
    println!("fibril {}", env!("CARGO_PKG_VERSION"));
    println!("kernels in the PTX: {}", crate::KERNEL_NAMES.len());
    for model in fibril_host::models::MODELS {
        let kinds: Vec<&str> = KernelKind::available_for(model.name).iter().map(|k| k.name()).collect();
        println!("  {:<20} {}", model.name, kinds.join(", "));
    }
    let gpu = list_devices();
    match fibril_host::multi::nccl::version() {
        Ok(v) => println!("NCCL: {v} (for --exchange nccl and multi-process runs)"),
        Err(why) => println!("NCCL: not available: {why}"),
    }

    let setup = config.model.setup()?;
    let model = setup.info();
    config.grid.resolve(model);
    let dims = config.grid.dims();
    let variables = model.variables.len();
    let precision = config.compute.precision.resolve(model);
    let kernel = config.compute.kernel_choice().config(model, precision, dims, 1);
    let block = config.compute.block_for(KernelKind::Naive, precision);
    // What `fibril run` would refuse, said first: the rest assumes a valid grid.
    let domain = match args::domain(&config.grid, &config.model) {
        Ok(domain) => domain,
        Err(why) => {
            println!(
                "grid {}x{}x{}, model {}: `fibril run` would refuse this run: {}",
                dims.nx,
                dims.ny,
                dims.nz,
                model.name,
                super::error::error_text(&why)
            );
            return Ok(ExitCode::SUCCESS);
        }
    };
    let cells = domain.cells();
    println!(
        "grid {}x{}x{} ({cells} cells), model {} ({variables} variables), {precision}, block {block}:",
        dims.nx, dims.ny, dims.nz, model.name
    );
    println!("  mesh_size {cells}");
    for kind in KernelKind::ALL {
        let each = KernelConfig::new(kind, config.compute.block_for(kind, precision));
        // Paper eq. 6 for Karma: bytes = size * (2 * ds_size + mesh_size); ds_size = mesh_size without towers.
        let sizes = each
            .check(model.name, dims)
            .and_then(|_| Ok((each.u_elements(dims)?, each.device_bytes(dims, variables - 1, precision)?)));
        match sizes {
            Ok((ds, bytes)) => println!(
                "  {:<12} ds_size {ds:>12}  GPU memory {:>10} ({:.2} MiB)",
                kind.name(),
                format_bytes(bytes),
                bytes as f64 / (1u64 << 20) as f64
            ),
            Err(why) => println!("  {:<12} not possible: {why}", kind.name()),
        }
    }

    // The run these options describe.
    let on_gpu = match config.compute.backend {
        BackendArg::Cpu => false,
        BackendArg::Gpu => true,
        BackendArg::Auto => gpu.is_some(),
    };
    let placement = if on_gpu { Placement::Gpus(vec![config.compute.device]) } else { Placement::Cpu };
    println!(
        "this run (--backend {} -> {}):",
        format!("{:?}", config.compute.backend).to_lowercase(),
        if on_gpu { "gpu" } else { "cpu" }
    );
    if let Err(why) = config.compute.check_kernel_options(model, precision, dims) {
        println!("  `fibril run` would refuse it: {}", super::error::error_text(&why));
    }
    let available = available_host_bytes();
    let recording = config.output.recording(model)?;
    match estimate(model.name, dims, variables, precision, kernel, &placement, recording.as_ref()) {
        Ok(needs) => {
            for (ordinal, bytes) in &needs.gpu_bytes {
                let free = match &gpu {
                    Some(g) if g.info().ordinal == *ordinal => {
                        let refused =
                            if *bytes > g.info().free_bytes { "; `fibril run` would refuse it" } else { "" };
                        format!(" ({} free on {}{refused})", format_bytes(g.info().free_bytes), g.info().name)
                    }
                    Some(_) => String::new(),
                    None => " (no usable GPU here)".into(),
                };
                println!("  GPU {ordinal} memory, {kernel} kernel: {}{free}", format_bytes(*bytes));
            }
            let refused = match available {
                Some(a) if needs.host_bytes > a => "; more than is available, `fibril run` would refuse it",
                _ => "",
            };
            println!("  host memory: {}{refused}", format_bytes(needs.host_bytes));
        }
        Err(why) => println!("  `fibril run` would refuse it: {why}"),
    }
    if let Some(available) = available {
        println!("  host memory available: {}", format_bytes(available));
    }
    let dt = domain.dt_ms();
    let total = match config.run.steps {
        Some(n) => Ok(n),
        None => duration_steps("--duration-ms", config.run.duration_ms, dt),
    };
    let every =
        config.output.snapshot_every_ms.map(|ms| duration_steps("--snapshot-every-ms", ms, dt)).transpose();
    match (total, every) {
        (Ok(total), Ok(every)) => {
            let saved = config.output.saved_variables(model).map(|s| s.len()).unwrap_or(1) as u64;
            let snapshots = every.map_or(1, |e| total / e + 1 + u64::from(total % e != 0));
            let formats = config.output.formats()?;
            let per_field = cells as u64 * precision.bytes() as u64;
            let per_snapshot = formats.field_copies() * saved * per_field;
            println!(
                "  output: {snapshots} snapshot(s), about {} on disk (PNG not counted)",
                format_bytes(snapshots.saturating_mul(per_snapshot))
            );
        }
        (Err(why), _) | (_, Err(why)) => {
            println!("  `fibril run` would refuse it: {}", super::error::error_text(&why))
        }
    }
    Ok(ExitCode::SUCCESS)
}
