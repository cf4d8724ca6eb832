//! The GPU kernels against the CPU reference.
//!
//! Both run the same shared functions with the same coefficients and only
//! correctly rounded operations, so the fields must agree bit for bit in
//! f32 and in f64; against the f64 reference the f32 GPU run must agree
//! within the tolerance stated below (`approx`).
//!
//! Without a CUDA device each check prints "skipped: no CUDA device" (this
//! file runs without libtest's harness so that a skip never reads as a pass).

#[path = "common/mod.rs"]
mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;

use approx::abs_diff_eq;
use common::{cpu_run, domain, planar_start, rich_start};
use fibril_host::backend::{GpuDevice, GpuSolver, KernelKind, Solver, SolverError};
use fibril_host::memory::format_bytes;
use fibril_host::{Domain, Fields, GridDims, Precision, Reaction, Scalar};

type Check = fn(&GpuDevice) -> Result<(), String>;

const CHECKS: &[(&str, Check)] = &[
    (
        "naive_f32_planar_2000_steps_bit_identical_to_cpu",
        naive_f32_planar_bit_identical,
    ),
    (
        "naive_f32_rich_start_2000_steps_bit_identical_to_cpu",
        naive_f32_rich_bit_identical,
    ),
    (
        "naive_f64_rich_start_500_steps_bit_identical_to_cpu",
        naive_f64_rich_bit_identical,
    ),
    (
        "naive_pure_diffusion_bit_identical_to_cpu",
        naive_diffusion_bit_identical,
    ),
    (
        "naive_f32_agrees_with_cpu_f64_within_tolerance",
        naive_f32_vs_cpu_f64,
    ),
    ("nonfinite_check_finds_a_planted_nan", nonfinite_detection),
    (
        "too_large_grid_is_refused_before_allocation",
        memory_refusal,
    ),
];

fn gpu_run<T: Scalar>(
    gpu: &GpuDevice,
    d: &Domain,
    start: &Fields<T>,
    steps: u64,
) -> Result<Fields<T>, String> {
    let mut s =
        GpuSolver::new(gpu, fibril::PTX, KernelKind::Naive, d, start).map_err(|e| e.to_string())?;
    s.advance(steps).map_err(|e| e.to_string())?;
    s.fields().map_err(|e| e.to_string())
}

/// Bit-for-bit equality of U and v, reporting the first mismatch.
fn bit_identical<T: Scalar>(gpu: &Fields<T>, cpu: &Fields<T>) -> Result<(), String> {
    for (name, a, b) in [("U", &gpu.u, &cpu.u), ("v", &gpu.v, &cpu.v)] {
        let mismatches = a
            .iter()
            .zip(b.iter())
            .filter(|(x, y)| x.to_f64().to_bits() != y.to_f64().to_bits())
            .count();
        if let Some(((idx, x), y)) = a
            .indexed_iter()
            .zip(b.iter())
            .find(|((_, x), y)| x.to_f64().to_bits() != y.to_f64().to_bits())
        {
            return Err(format!(
                "{name}: {mismatches} of {} cells differ; first at [z,y,x] = {idx:?}: gpu {x:?} vs cpu {y:?}",
                a.len()
            ));
        }
    }
    Ok(())
}

fn compare<T: Scalar>(
    gpu: &GpuDevice,
    dims: GridDims,
    reaction: Reaction,
    start: Fields<T>,
    steps: u64,
) -> Result<(), String> {
    let d = domain(dims, reaction);
    let g = gpu_run(gpu, &d, &start, steps)?;
    let c = cpu_run(&d, &start, steps);
    // Not vacuous: the state moved away from the start.
    if g.u == start.u {
        return Err("the GPU state did not change".into());
    }
    bit_identical(&g, &c)
}

fn naive_f32_planar_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    // Odd, non-cubic, not a multiple of the block size.
    let dims = GridDims::new(37, 29, 41);
    compare(gpu, dims, Reaction::Karma, planar_start::<f32>(dims), 2000)
}

fn naive_f32_rich_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(45, 23, 31);
    compare(gpu, dims, Reaction::Karma, rich_start::<f32>(dims), 2000)
}

fn naive_f64_rich_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(33, 17, 26);
    compare(gpu, dims, Reaction::Karma, rich_start::<f64>(dims), 500)
}

fn naive_diffusion_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(19, 34, 7);
    compare(gpu, dims, Reaction::Off, rich_start::<f32>(dims), 300)
}

fn naive_f32_vs_cpu_f64(gpu: &GpuDevice) -> Result<(), String> {
    // Same tolerances as the CPU f32-vs-f64 test (tests/numerics.rs), same setup.
    const TOLERANCE_U: f64 = 5e-4;
    const TOLERANCE_V: f64 = 2e-3;
    let dims = GridDims::new(32, 32, 32);
    let d = domain(dims, Reaction::Karma);
    let start64 = rich_start::<f64>(dims);
    let g = gpu_run(gpu, &d, &start64.convert::<f32>(), 2000)?.convert::<f64>();
    let c = cpu_run(&d, &start64, 2000);
    for (name, a, b, tol) in [
        ("U", &g.u, &c.u, TOLERANCE_U),
        ("v", &g.v, &c.v, TOLERANCE_V),
    ] {
        if let Some(((idx, x), y)) = a
            .indexed_iter()
            .zip(b.iter())
            .find(|((_, x), y)| !abs_diff_eq!(**x, **y, epsilon = tol))
        {
            return Err(format!(
                "{name} at [z,y,x] = {idx:?}: gpu f32 {x} vs cpu f64 {y}, |diff| {} > {tol}",
                (x - y).abs()
            ));
        }
    }
    Ok(())
}

fn nonfinite_detection(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(20, 21, 22);
    let d = domain(dims, Reaction::Karma);
    let clean = planar_start::<f32>(dims);
    let mut s = GpuSolver::new(gpu, fibril::PTX, KernelKind::Naive, &d, &clean)
        .map_err(|e| e.to_string())?;
    if s.any_nonfinite().map_err(|e| e.to_string())? {
        return Err("clean field reported as non-finite".into());
    }
    let mut dirty = clean.clone();
    dirty.u[[21, 20, 19]] = f32::NAN; // the very last cell
    let mut s = GpuSolver::new(gpu, fibril::PTX, KernelKind::Naive, &d, &dirty)
        .map_err(|e| e.to_string())?;
    if !s.any_nonfinite().map_err(|e| e.to_string())? {
        return Err("NaN in the last cell not found".into());
    }
    Ok(())
}

fn memory_refusal(gpu: &GpuDevice) -> Result<(), String> {
    let cells = 4096usize.pow(3);
    let bytes = KernelKind::Naive.device_bytes(cells, Precision::F32);
    match gpu.check_fits(bytes) {
        Err(SolverError::DeviceMemory { .. }) => Ok(()),
        other => Err(format!(
            "4096^3 ({}) was not refused: {other:?}",
            format_bytes(bytes)
        )),
    }
}

fn main() -> ExitCode {
    let gpu = match GpuDevice::open(0) {
        Ok(gpu) => gpu,
        Err(why) => {
            for (name, _) in CHECKS {
                println!("test {name} ... skipped: no CUDA device ({why})");
            }
            return ExitCode::SUCCESS;
        }
    };
    println!(
        "GPU checks on {} (compute capability {:?})",
        gpu.info().name,
        gpu.info().compute_capability
    );
    let mut failed = 0;
    for (name, check) in CHECKS {
        let result = catch_unwind(AssertUnwindSafe(|| check(&gpu)))
            .unwrap_or_else(|_| Err("panicked".into()));
        match result {
            Ok(()) => println!("test {name} ... ok"),
            Err(why) => {
                println!("test {name} ... FAILED: {why}");
                failed += 1;
            }
        }
    }
    println!(
        "{} GPU checks: {} passed, {failed} failed",
        CHECKS.len(),
        CHECKS.len() - failed
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
