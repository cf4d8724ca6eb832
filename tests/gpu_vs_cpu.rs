//! The GPU kernels against the CPU reference.
//!
//! All kernels (naive, csw, tower, tower-march, columns, blocked, every block size)
//! run the same shared functions with the same coefficients and only
//! correctly rounded operations, in the same order, so their fields must
//! agree with the CPU bit for bit in f32 and in f64 (tolerance zero);
//! against the f64 reference the f32 GPU run must agree within the
//! tolerance stated below (`approx`). The checks run the default, fast
//! math (Karma's tanh from a table); `exact_math_...` repeats every
//! kernel with the reference tanh.
//!
//! Without a CUDA device (no driver library, or a driver that reports no
//! GPU) each check prints "skipped: no CUDA device" (this file runs without
//! libtest's harness so that a skip never reads as a pass). Any other
//! failure to open the GPU (a driver that fails to initialise, a context
//! that cannot be created) fails every check: a broken GPU machine must
//! not read as one without a GPU.

#[path = "common/mod.rs"]
mod common;
#[path = "common/gpu_checks.rs"]
mod gpu_checks;
#[path = "common/split_tissue.rs"]
mod split_tissue;

use std::process::ExitCode;

use approx::abs_diff_eq;
use common::{cpu_run, domain, planar_start, rich_start};
use fibril_host::backend::{
    BlockSize, CpuSolver, GpuDevice, GpuSolver, KernelConfig, KernelKind, Solver, SolverError,
};
use fibril_host::cell_params::{Cells, ParameterSets};
use fibril_host::events::ecg::Electrode;
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::events::{EventStart, Events};
use fibril_host::init::InitialCondition;
use fibril_host::memory::format_bytes;
use fibril_host::models::MODELS;
use fibril_host::multi::gpu::SplitRun;
use fibril_host::multi::{Exchange, GpuMultiSolver};
use fibril_host::solver::NonfiniteCheck;
use fibril_host::tissue::gpu::TissueGpuSolver;
use fibril_host::tissue::split::TissueSplit;
use fibril_host::tissue::split_gpu::TissueGpuMultiSolver;
use fibril_host::tissue::{NeighbourChoice, Operator, TableChoice, Tissue, TissueLayout, WeightChoice};
use fibril_host::{CellModel, Domain, GridDims, ModelVisitor, Precision, Scalar, State, dispatch};
use gpu_checks::{Check, SKIPPED, note, verdict};
use kernels_gpu::ZWindow;
use kernels_gpu::fast_math::MathMode;
use kernels_gpu::models::{Diffusion, Karma};
use std::sync::Arc;

const CHECKS: &[(&str, Check)] = &[
    ("naive_f32_planar_2000_steps_bit_identical_to_cpu", naive_f32_planar_bit_identical),
    ("naive_f32_rich_start_2000_steps_bit_identical_to_cpu", naive_f32_rich_bit_identical),
    ("naive_f64_rich_start_500_steps_bit_identical_to_cpu", naive_f64_rich_bit_identical),
    ("naive_pure_diffusion_bit_identical_to_cpu", naive_diffusion_bit_identical),
    ("naive_f32_agrees_with_cpu_f64_within_tolerance", naive_f32_vs_cpu_f64),
    ("every_model_naive_f32_f64_1000_steps_bit_identical_to_cpu", every_model_naive),
    ("every_model_sheets_cables_and_single_cells_bit_identical", every_model_every_shape),
    ("every_model_columns_f32_f64_1000_steps_bit_identical_to_cpu", every_model_columns),
    ("every_model_blocked_k1_to_4_f32_f64_1000_steps_bit_identical_to_cpu", every_model_blocked),
    ("events_inside_blocked_passes_bit_identical_to_cpu", blocked_events),
    ("exact_math_every_kernel_f32_f64_bit_identical_to_cpu", exact_math_every_kernel),
    ("nonfinite_check_finds_a_planted_nan_at_once_and_left_pending", nonfinite_detection),
    ("too_large_grid_is_refused_before_allocation", memory_refusal),
    ("every_kernel_and_block_bit_identical_to_cpu_f32", every_kernel_and_block),
    ("every_kernel_bit_identical_to_cpu_f64", every_kernel_f64),
    ("paper_kernels_planar_64_cubed_2000_steps_bit_identical", paper_kernels_planar),
    ("paper_kernels_bit_identical_after_scroll_wave_forms", paper_kernels_scroll_wave),
    ("steps_split_into_z_windows_bit_identical", z_windows),
    ("z_split_over_gpus_bit_identical_to_cpu", multi_gpu),
    ("z_split_every_model_bit_identical_to_cpu", multi_gpu_every_model),
    ("z_split_nccl_exchange_bit_identical_to_cpu", multi_gpu_nccl),
    ("z_split_blocked_deep_halos_k1_to_4_every_model_and_events_bit_identical_to_cpu", multi_gpu_blocked),
    ("z_split_graphs_between_stimuli_naive_and_blocked_k1_to_4_bit_identical_to_cpu", multi_gpu_graphs),
    ("events_on_the_device_every_kernel_bit_identical_to_cpu", device_events),
    ("graph_replay_with_stimuli_every_kernel_bit_identical_to_cpu", graph_replay),
    ("events_on_split_sub_domains_bit_identical_to_cpu", device_events_split),
    ("pseudo_ecg_on_the_device_agrees_with_cpu_to_1e_12", device_ecg),
    ("tips_and_filaments_on_the_device_bit_identical_to_cpu", device_tips),
    ("tissue_every_model_dense_and_compact_f32_f64_bit_identical_to_cpu", tissue_every_model),
    (
        "tissue_parameter_sets_every_model_every_storage_f32_f64_bit_identical_to_cpu",
        tissue_parameter_sets_every_model,
    ),
    ("tissue_events_dense_and_compact_bit_identical_to_cpu", tissue_events),
    (
        "stimulus_carriers_ohara_rudy_and_tp06_naive_columns_tissue_and_split_bit_identical_to_cpu",
        stimulus_carriers,
    ),
    (
        "tissue_weight_classes_every_model_both_layouts_f32_f64_bit_identical_to_cpu",
        tissue_classes_every_model,
    ),
    (
        "tissue_compact_u32_and_16_bit_neighbours_every_model_f32_f64_bit_identical_to_cpu",
        tissue_neighbour_forms_every_model,
    ),
    ("rate_tables_naive_columns_tissue_split_f32_f64_bit_identical_to_cpu", rate_tables_every_path),
    (
        "tissue_split_2_and_3_parts_both_layouts_per_cell_and_by_class_f32_f64_bit_identical_to_cpu",
        tissue_split,
    ),
    ("tissue_split_with_parameter_sets_f32_f64_bit_identical_to_cpu", tissue_split_parameter_sets),
    ("tune_cache_keeps_the_choice_and_a_second_run_takes_it", tune_cache_reuse),
    ("tune_cache_that_cannot_be_used_is_said_and_the_run_goes_on", tune_cache_unusable),
];

/// The GPUs the split checks place their sub-domains on: one each on up
/// to four GPUs; with one GPU, three sub-domains share it, and the check
/// notes that only device-local halo copies were exercised.
fn split_ordinals() -> Result<Vec<usize>, String> {
    let count = fibril_host::backend::gpu::device_count().map_err(|e| e.to_string())?;
    if count >= 2 {
        return Ok((0..count.min(4)).collect());
    }
    note(
        "on one GPU only: 3 sub-domains shared GPU 0, so the halos crossed by device-local copies; \
         copies between GPUs were not tested"
            .into(),
    );
    Ok(vec![0, 0, 0])
}

/// The GPUs of `ordinals`, opened.
fn open_all(ordinals: &[usize]) -> Result<Vec<GpuDevice>, String> {
    ordinals.iter().map(|&o| GpuDevice::open(o)).collect::<Result<_, _>>().map_err(|e| e.to_string())
}

/// The split checks' GPUs ([`split_ordinals`]), opened.
fn split_devices() -> Result<(Vec<usize>, Vec<GpuDevice>), String> {
    let ordinals = split_ordinals()?;
    let devices = open_all(&ordinals)?;
    Ok((ordinals, devices))
}

/// The block sizes the paper's kernels must support: 32x4 ... 256x1.
const BLOCKS: [(u32, u32); 7] = [(32, 4), (32, 8), (64, 4), (64, 8), (128, 4), (128, 2), (256, 1)];

fn config(kind: KernelKind, (x, y): (u32, u32)) -> KernelConfig {
    KernelConfig::new(kind, BlockSize { x, y })
}

fn naive() -> KernelConfig {
    config(KernelKind::Naive, (32, 8))
}

/// The kernels compared in the paper, at their default blocks, the
/// baseline and columns (with partial z-chunks).
fn paper_configs() -> [KernelConfig; 5] {
    [
        naive(),
        config(KernelKind::Csw, (64, 4)),
        config(KernelKind::Tower, (32, 8)),
        config(KernelKind::TowerMarch, (32, 8)),
        config(KernelKind::Columns, (32, 8)).with_z_chunk(5),
    ]
}

/// The z-chunk the z-window and split checks give the marching kernels
/// (partial chunks), 0 for the others.
fn test_z_chunk(kind: KernelKind) -> u32 {
    match kind {
        KernelKind::TowerMarch | KernelKind::Columns => 3,
        _ => 0,
    }
}

/// A grid that suits `cfg`: whole towers for the tower kernels (two towers
/// in x, three in y), partial blocks on every side for the others (for
/// columns, whose threads hold 4 cells along x, nx a multiple of 4).
fn grid_for(cfg: KernelConfig, nz: u32) -> GridDims {
    let (bx, by) = (cfg.block.x, cfg.block.y);
    if cfg.kind.uses_towers() {
        GridDims::new(2 * bx, (3 * by).max(3), nz)
    } else if cfg.kind == KernelKind::Columns {
        GridDims::new(4 * bx + 12, 3 * by + 1, nz)
    } else {
        GridDims::new(2 * bx + 5, 3 * by + 1, nz)
    }
}

fn gpu_run<M: CellModel, T: Scalar>(
    gpu: &GpuDevice,
    cfg: KernelConfig,
    d: &Domain,
    start: &State<T>,
    steps: u64,
) -> Result<State<T>, String> {
    let mut s =
        GpuSolver::<M, T>::new(gpu, fibril::PTX, cfg, d, start).map_err(|e| format!("{}: {e}", cfg.kind))?;
    s.advance(steps).map_err(|e| e.to_string())?;
    s.state().map_err(|e| e.to_string())
}

fn differs<T: Scalar>(x: &T, y: &T) -> bool {
    x.to_f64().to_bits() != y.to_f64().to_bits()
}

/// Bit-for-bit equality of every variable, reporting the first mismatch.
fn bit_identical<T: Scalar>(gpu: &State<T>, cpu: &State<T>) -> Result<(), String> {
    for (k, var) in cpu.model().variables.iter().enumerate() {
        let (name, a, b) = (var.name, gpu.var(k), cpu.var(k));
        let mismatches = a.iter().zip(b.iter()).filter(|(x, y)| differs(*x, *y)).count();
        if let Some(((idx, x), y)) = a.indexed_iter().zip(b.iter()).find(|((_, x), y)| differs(*x, *y)) {
            return Err(format!(
                "{name}: {mismatches} of {} cells differ; first at [z,y,x] = {idx:?}: gpu {x:?} vs cpu {y:?}",
                a.len()
            ));
        }
    }
    Ok(())
}

fn compare<M: CellModel, T: Scalar>(
    gpu: &GpuDevice,
    cfg: KernelConfig,
    d: &Domain,
    start: State<T>,
    steps: u64,
) -> Result<(), String> {
    let g = gpu_run::<M, T>(gpu, cfg, d, &start, steps)?;
    let c = cpu_run(d, &start, steps);
    // Not vacuous: the state moved away from the start.
    if g.u() == start.u() {
        return Err("the GPU state did not change".into());
    }
    bit_identical(&g, &c)
}

/// Karma on the paper's discretisation.
fn compare_karma<T: Scalar>(
    gpu: &GpuDevice,
    cfg: KernelConfig,
    dims: GridDims,
    start: State<T>,
    steps: u64,
) -> Result<(), String> {
    compare::<Karma, T>(gpu, cfg, &domain(dims, "karma"), start, steps)
}

fn naive_f32_planar_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    // Odd, non-cubic, not a multiple of the block size.
    let dims = GridDims::new(37, 29, 41);
    compare_karma(gpu, naive(), dims, planar_start::<f32>(dims), 2000)
}

fn naive_f32_rich_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(45, 23, 31);
    compare_karma(gpu, naive(), dims, rich_start::<f32>(dims), 2000)
}

fn naive_f64_rich_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(33, 17, 26);
    compare_karma(gpu, naive(), dims, rich_start::<f64>(dims), 500)
}

fn naive_diffusion_bit_identical(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(19, 34, 7);
    let rich = rich_start::<f32>(dims);
    let start = State::from_vecs(Diffusion::INFO, dims, vec![rich.slice(0).to_vec()]);
    compare::<Diffusion, f32>(gpu, naive(), &domain(dims, "diffusion"), start, 300)
}

fn naive_f32_vs_cpu_f64(gpu: &GpuDevice) -> Result<(), String> {
    // Same tolerances as the CPU f32-vs-f64 test (tests/numerics.rs), same setup.
    const TOLERANCE_U: f64 = 5e-4;
    const TOLERANCE_V: f64 = 2e-3;
    let dims = GridDims::new(32, 32, 32);
    let d = domain(dims, "karma");
    let start64 = rich_start::<f64>(dims);
    let g = gpu_run::<Karma, f32>(gpu, naive(), &d, &start64.convert::<f32>(), 2000)?.convert::<f64>();
    let c = cpu_run(&d, &start64, 2000);
    for (name, a, b, tol) in [("U", g.u(), c.u(), TOLERANCE_U), ("v", g.var(1), c.var(1), TOLERANCE_V)] {
        if let Some(((idx, x), y)) =
            a.indexed_iter().zip(b.iter()).find(|((_, x), y)| !abs_diff_eq!(**x, **y, epsilon = tol))
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
    for cfg in [naive(), config(KernelKind::Tower, (32, 4))] {
        let dims = GridDims::new(32, 20, 22);
        let d = domain(dims, "karma");
        let clean = planar_start::<f32>(dims);
        let mut s =
            GpuSolver::<Karma, f32>::new(gpu, fibril::PTX, cfg, &d, &clean).map_err(|e| e.to_string())?;
        if s.any_nonfinite().map_err(|e| e.to_string())? {
            return Err(format!("{}: clean field reported as non-finite", cfg.kind));
        }
        let mut dirty = clean.clone();
        dirty.u_mut()[[21, 19, 31]] = f32::NAN; // the very last cell
        s.set_state(&dirty).map_err(|e| e.to_string())?;
        if !s.any_nonfinite().map_err(|e| e.to_string())? {
            return Err(format!("{}: NaN in the last cell not found", cfg.kind));
        }
        // Checks left pending see the state the work before them left, in
        // stream order, whatever is enqueued after them.
        let e = |e: SolverError| format!("{}: {e}", cfg.kind);
        s.set_state(&clean).map_err(e)?;
        s.advance(300).map_err(e)?;
        let before = s.begin_nonfinite_check().map_err(e)?;
        s.advance(300).map_err(e)?;
        s.set_state(&dirty).map_err(e)?;
        let after = s.begin_nonfinite_check().map_err(e)?;
        if !matches!((before, after), (NonfiniteCheck::Pending(a), NonfiniteCheck::Pending(b)) if a != b) {
            return Err(format!("{}: checks not left pending in two slots: {before:?}, {after:?}", cfg.kind));
        }
        s.advance(300).map_err(e)?;
        let (bad_after, bad_before) =
            (s.end_nonfinite_check(after).map_err(e)?, s.end_nonfinite_check(before).map_err(e)?);
        if (bad_before, bad_after) != (false, true) {
            return Err(format!(
                "{}: pending checks answered {bad_before} (clean state) and {bad_after} (NaN)",
                cfg.kind
            ));
        }
    }
    Ok(())
}

fn memory_refusal(gpu: &GpuDevice) -> Result<(), String> {
    let cells = 4096usize.pow(3);
    let bytes = 3 * cells as u64 * Precision::F32.bytes() as u64;
    match gpu.check_fits(bytes) {
        Err(SolverError::DeviceMemory { .. }) => Ok(()),
        other => Err(format!("4096^3 ({}) was not refused: {other:?}", format_bytes(bytes))),
    }
}

fn every_kernel_and_block(gpu: &GpuDevice) -> Result<(), String> {
    let mut failures = Vec::new();
    let mut tried = 0;
    for kind in KernelKind::ALL {
        for block in BLOCKS {
            let cfg = config(kind, block);
            let dims = grid_for(cfg, 7);
            if kind == KernelKind::Blocked && kernels_gpu::blocked::tile_of(block, 1).is_none() {
                // One or two rows of threads leave no tile: refused before anything runs.
                let check = cfg.check("karma", dims);
                if !matches!(&check, Err(e) if e.to_string().contains("leaves no cells")) {
                    failures.push(format!("blocked {}x{} not refused: {check:?}", block.0, block.1));
                }
                continue;
            }
            tried += 1;
            if let Err(e) = compare_karma(gpu, cfg, dims, rich_start::<f32>(dims), 300) {
                failures.push(format!("{kind} {}x{} on {dims:?}: {e}", block.0, block.1));
            }
        }
    }
    // tower-march climbing chunks of 1 and 3 slices (the last chunk partial).
    for chunk in [1, 3] {
        let cfg = config(KernelKind::TowerMarch, (32, 4)).with_z_chunk(chunk);
        let dims = grid_for(cfg, 7);
        tried += 1;
        if let Err(e) = compare_karma(gpu, cfg, dims, rich_start::<f32>(dims), 300) {
            failures.push(format!("{cfg} on {dims:?}: {e}"));
        }
    }
    // One tower across the whole width, and three.
    for kind in [KernelKind::Tower, KernelKind::TowerMarch] {
        for dims in [GridDims::new(64, 8, 5), GridDims::new(192, 12, 4)] {
            tried += 1;
            if let Err(e) = compare_karma(gpu, config(kind, (64, 4)), dims, rich_start::<f32>(dims), 300) {
                failures.push(format!("{kind} 64x4 on {dims:?}: {e}"));
            }
        }
    }
    if failures.is_empty() {
        println!("    ({tried} kernel/block/grid combinations bit-identical)");
        Ok(())
    } else {
        Err(format!("{} of {tried} differ:\n    {}", failures.len(), failures.join("\n    ")))
    }
}

fn every_kernel_f64(gpu: &GpuDevice) -> Result<(), String> {
    for kind in KernelKind::ALL {
        let cfg = config(kind, (64, 4));
        let dims = grid_for(cfg, 6);
        compare_karma(gpu, cfg, dims, rich_start::<f64>(dims), 300).map_err(|e| format!("{kind}: {e}"))?;
    }
    Ok(())
}

fn paper_kernels_planar(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(64, 64, 64);
    let d = domain(dims, "karma");
    let start = planar_start::<f32>(dims);
    let cpu = cpu_run(&d, &start, 2000);
    for cfg in paper_configs() {
        let g = gpu_run::<Karma, f32>(gpu, cfg, &d, &start, 2000)?;
        bit_identical(&g, &cpu).map_err(|e| format!("{} {}: {e}", cfg.kind, cfg.block))?;
    }
    Ok(())
}

/// S1-S2 cross-field protocol on a 128x128x8 slab: a planar S1 along x on
/// resting tissue, then an S2 in the quadrant x, y < 64 at t = 120 ms (step
/// 2,400) through `set_fields`. By step 6,000 (t = 300 ms) a scroll wave
/// with a straight filament rotates, while S1 alone has left the domain.
fn paper_kernels_scroll_wave(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(128, 128, 8);
    let d = domain(dims, "karma");
    let s1 = common::karma_state::<f32>(dims, |x, _, _| (if x < 5 { 3.0 } else { 0.0 }, 0.0));
    let run = |solver: &mut dyn Solver<f32>| -> Result<State<f32>, String> {
        solver.advance(2400).map_err(|e| e.to_string())?;
        let mut f = solver.state().map_err(|e| e.to_string())?;
        for ((_, y, x), u) in f.u_mut().indexed_iter_mut() {
            if x < 64 && y < 64 {
                *u = 3.0;
            }
        }
        solver.set_state(&f).map_err(|e| e.to_string())?;
        solver.advance(3600).map_err(|e| e.to_string())?;
        solver.state().map_err(|e| e.to_string())
    };
    let cpu = run(&mut CpuSolver::<Karma, f32>::new(&d, &s1))?;
    // A scroll wave: partly excited, and not planar (the excited set is not
    // symmetric in y, as any wave started by S1 alone would be).
    let excited = cpu.u().iter().filter(|&&u| u > 1.0).count() as f64 / cpu.u().len() as f64;
    let asymmetric =
        (0..128).any(|y| (0..128).any(|x| (cpu.u()[[4, y, x]] > 1.0) != (cpu.u()[[4, 127 - y, x]] > 1.0)));
    if !(0.1..0.9).contains(&excited) || !asymmetric {
        return Err(format!("no scroll wave on the CPU reference (excited fraction {excited:.2})"));
    }
    println!("    (scroll wave at t = 300 ms: {:.0}% of cells excited)", 100.0 * excited);
    for cfg in paper_configs() {
        let mut solver =
            GpuSolver::<Karma, f32>::new(gpu, fibril::PTX, cfg, &d, &s1).map_err(|e| e.to_string())?;
        let g = run(&mut solver)?;
        bit_identical(&g, &cpu).map_err(|e| format!("{} {}: {e}", cfg.kind, cfg.block))?;
    }
    Ok(())
}

/// A step launched as bottom slice, top slice and interior (as the
/// multi-GPU overlap does) equals the single launch, for every kernel.
fn z_windows(gpu: &GpuDevice) -> Result<(), String> {
    for kind in KernelKind::ALL {
        let cfg = config(kind, (32, 4)).with_z_chunk(test_z_chunk(kind));
        let dims = grid_for(cfg, 9);
        let d = domain(dims, "karma");
        let start = rich_start::<f32>(dims);
        let mut s =
            GpuSolver::<Karma, f32>::new(gpu, fibril::PTX, cfg, &d, &start).map_err(|e| e.to_string())?;
        let windows = [ZWindow::new(0, 1), ZWindow::new(8, 9), ZWindow::new(1, 8)];
        for _ in 0..200 {
            s.step_in_windows(&windows).map_err(|e| e.to_string())?;
        }
        let g = s.state().map_err(|e| e.to_string())?;
        bit_identical(&g, &cpu_run(&d, &start, 200)).map_err(|e| format!("{cfg}: {e}"))?;
    }
    Ok(())
}

/// The z-split multi-GPU solver, every kernel, both exchange modes, with
/// and without overlap, against the single-domain CPU reference. On a
/// machine with one GPU the sub-domains share it (their copies are then
/// device-local); with two or more, each gets its own GPU.
fn multi_gpu(gpu: &GpuDevice) -> Result<(), String> {
    let ordinals = split_ordinals()?;
    println!("    (sub-domains on GPUs {ordinals:?}; this device: {})", gpu.info().name);
    split_bit_identical(&ordinals, &[Exchange::Peer, Exchange::Host])
}

/// Every kernel split over the GPUs `ordinals` with each of `exchanges`,
/// overlap on and off, 150 steps, against the single-domain CPU run.
fn split_bit_identical(ordinals: &[usize], exchanges: &[Exchange]) -> Result<(), String> {
    let devices = open_all(ordinals)?;
    for kind in KernelKind::ALL {
        let cfg = config(kind, (32, 4)).with_z_chunk(test_z_chunk(kind));
        // 5 owned slices per part on 3 parts (16 / 3 -> 6, 5, 5), 2 per part at least on 4.
        let dims = grid_for(cfg, 16);
        let d = domain(dims, "karma");
        let start = rich_start::<f32>(dims);
        let want = cpu_run(&d, &start, 150);
        let run = SplitRun { ptx: fibril::PTX, config: cfg, domain: &d, initial: &start };
        for &exchange in exchanges {
            for overlap in [true, false] {
                let mut s = GpuMultiSolver::<Karma, f32>::new(&devices, &run, exchange, overlap)
                    .map_err(|e| format!("{cfg} {exchange:?}: {e}"))?;
                s.advance(150).map_err(|e| e.to_string())?;
                let got = s.state().map_err(|e| e.to_string())?;
                bit_identical(&got, &want)
                    .map_err(|e| format!("{cfg}, {exchange:?} exchange, overlap {overlap}: {e}"))?;
            }
        }
    }
    Ok(())
}

/// Every model split over the GPUs (or three sub-domains on one), naive
/// kernel, peer exchange with overlap: only the potential crosses between
/// sub-domains, the local variables stay in place.
fn multi_gpu_every_model(gpu: &GpuDevice) -> Result<(), String> {
    let (ordinals, devices) = split_devices()?;
    println!("    (sub-domains on GPUs {ordinals:?}; this device: {})", gpu.info().name);
    for m in MODELS {
        for precision in [Precision::F32, Precision::F64] {
            dispatch(m, precision, SplitCheck { devices: &devices, tables: false })?;
        }
    }
    Ok(())
}

struct SplitCheck<'a> {
    devices: &'a [GpuDevice],
    tables: bool,
}

impl ModelVisitor for SplitCheck<'_> {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let dims = GridDims::new(37, 21, 17);
        let d = common::usual_domain(dims, setup_of(M::INFO.name, self.tables));
        let start = InitialCondition::Planar.state::<T>(M::INFO, dims);
        let want = cpu_run(&d, &start, 400);
        let run = SplitRun { ptx: fibril::PTX, config: naive(), domain: &d, initial: &start };
        let mut s = GpuMultiSolver::<M, T>::new(self.devices, &run, Exchange::Peer, true)
            .map_err(|e| format!("{} {}: {e}", M::INFO.name, T::NAME))?;
        s.advance(400).map_err(|e| e.to_string())?;
        let got = s.state().map_err(|e| e.to_string())?;
        bit_identical(&got, &want).map_err(|e| format!("{} {}: {e}", M::INFO.name, T::NAME))
    }
}

/// The blocked kernel split over the GPUs (or three sub-domains on one)
/// with halos k slices deep, exchanged once a pass of k steps (every
/// variable: the halo's cells are stepped within the pass): Karma f32 with
/// stimuli (which end passes early) and every map, k = 1..4, peer and host
/// exchange, overlap on and off, on a grid whose parts own 8-9 slices (the
/// overlap runs at every k) and on one of 5-6 (the overlap needs 2k owned
/// slices, so it runs without from k = 3); then every model with the
/// kernel, f32 and f64, k = 3.
fn multi_gpu_blocked(gpu: &GpuDevice) -> Result<(), String> {
    let (ordinals, devices) = split_devices()?;
    println!("    (sub-domains on GPUs {ordinals:?}; this device: {})", gpu.info().name);
    let mut runs = 0;
    for nz in [26, 16] {
        let dims = GridDims::new(37, 21, nz);
        let (d, start, events, maps) = events_run(dims);
        let (want_state, want_maps) = cpu_events(&d, &start, &events, &maps, 3000);
        for k in 1..=kernels_gpu::blocked::MAX_STEPS_PER_PASS {
            let cfg = config(KernelKind::Blocked, (32, 12)).with_steps_per_pass(k);
            let run = SplitRun { ptx: fibril::PTX, config: cfg, domain: &d, initial: &start };
            for exchange in [Exchange::Peer, Exchange::Host] {
                for overlap in [true, false] {
                    let what = format!("nz {nz}, {cfg}, {exchange:?} exchange, overlap {overlap}");
                    // Uneven calls, as a run's outputs make them.
                    let calls = [7, 1, 1400, 1592];
                    split_events(&devices, &run, (exchange, overlap), (&events, &maps), &calls)
                        .and_then(|got| {
                            forwards_as_expected(&got.2, exchange == Exchange::Peer && overlap)?;
                            same_split(got, (&want_state, &want_maps))
                        })
                        .map_err(|e| format!("{what}: {e}"))?;
                    runs += 1;
                }
            }
        }
    }
    let with_kernel = KernelKind::Blocked.models();
    let mut models = 0;
    for m in MODELS.iter().filter(|m| with_kernel.contains(&m.name)) {
        for precision in [Precision::F32, Precision::F64] {
            dispatch(m, precision, SplitBlockedCheck { devices: &devices })?;
            models += 1;
        }
    }
    println!("    ({runs} Karma runs with events and {models} model x precision runs bit-identical)");
    Ok(())
}

/// The split solver's graphs (quiet stretches of whole passes replayed
/// over every GPU at once, `multi::gpu::replay`) between the stimuli that
/// end passes early, without maps (with maps every pass is enqueued from
/// the host): naive and blocked k = 1..4, overlap on and off, peer
/// exchange, against the CPU. Each run must have replayed steps from
/// graphs, so that the check cannot pass on host-enqueued passes alone.
fn multi_gpu_graphs(gpu: &GpuDevice) -> Result<(), String> {
    let (ordinals, devices) = split_devices()?;
    println!("    (sub-domains on GPUs {ordinals:?}; this device: {})", gpu.info().name);
    let dims = GridDims::new(37, 21, 26);
    let (d, start, events, maps) = events_run(dims);
    let calls = [7, 1, 1400, 1592];
    let (want, _) = cpu_events(&d, &start, &events, &maps, calls.iter().sum());
    // The same stimuli without maps (the recorder leaves the state alone).
    let events = Events { recording: None, ..events };
    let blocked = (1..=kernels_gpu::blocked::MAX_STEPS_PER_PASS)
        .map(|k| config(KernelKind::Blocked, (32, 12)).with_steps_per_pass(k));
    let (mut runs, mut replayed) = (0, 0);
    for cfg in std::iter::once(naive()).chain(blocked) {
        let run = SplitRun { ptx: fibril::PTX, config: cfg, domain: &d, initial: &start };
        for overlap in [true, false] {
            let what = format!("{cfg}, overlap {overlap}");
            let mut s = GpuMultiSolver::<Karma, f32>::new(&devices, &run, Exchange::Peer, overlap)
                .map_err(|e| format!("{what}: {e}"))?;
            s.set_events(&events, EventStart::NEW, None).map_err(|e| e.to_string())?;
            for &steps in &calls {
                s.advance(steps).map_err(|e| format!("{what}: {e}"))?;
            }
            let got = s.state().map_err(|e| e.to_string())?;
            if let Some(why) = s.graph_failure() {
                return Err(format!("{what}: the graphs failed: {why}"));
            }
            if s.graph_steps() == 0 {
                return Err(format!("{what}: no step was replayed from a graph"));
            }
            forwards_as_expected(&s.method(), overlap && cfg.kind == KernelKind::Blocked)?;
            bit_identical(&got, &want).map_err(|e| format!("{} ({what}): {e}", s.method()))?;
            (runs, replayed) = (runs + 1, replayed + s.graph_steps());
        }
    }
    let total: u64 = calls.iter().sum::<u64>() * runs;
    println!("    ({runs} runs bit-identical, {replayed} of their {total} steps replayed from graphs)");
    Ok(())
}

struct SplitBlockedCheck<'a> {
    devices: &'a [GpuDevice],
}

impl ModelVisitor for SplitBlockedCheck<'_> {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let dims = GridDims::new(37, 21, 26);
        let d = common::usual_domain(dims, setup_of(M::INFO.name, false));
        let start = InitialCondition::Planar.state::<T>(M::INFO, dims);
        let want = cpu_run(&d, &start, 400);
        let cfg = config(KernelKind::Blocked, (32, 12)).with_steps_per_pass(3);
        let run = SplitRun { ptx: fibril::PTX, config: cfg, domain: &d, initial: &start };
        let mut s = GpuMultiSolver::<M, T>::new(self.devices, &run, Exchange::Peer, true)
            .map_err(|e| format!("{} {}: {e}", M::INFO.name, T::NAME))?;
        s.advance(400).map_err(|e| e.to_string())?;
        let got = s.state().map_err(|e| e.to_string())?;
        bit_identical(&got, &want).map_err(|e| format!("{} {} ({}): {e}", M::INFO.name, T::NAME, s.method()))
    }
}

/// The z-split with NCCL send/recv, every kernel, overlap on and off.
/// NCCL needs one GPU per sub-domain, so this check needs two GPUs.
fn multi_gpu_nccl(gpu: &GpuDevice) -> Result<(), String> {
    let count = fibril_host::backend::gpu::device_count().map_err(|e| e.to_string())?;
    if count < 2 {
        return Err(format!("{SKIPPED}NCCL needs a GPU per sub-domain and this machine has {count}"));
    }
    let version = fibril_host::multi::nccl::version().map_err(|e| format!("{SKIPPED}{e}"))?;
    let ordinals: Vec<usize> = (0..count.min(4)).collect();
    println!("    (NCCL {version}; sub-domains on GPUs {ordinals:?}; this device: {})", gpu.info().name);
    split_bit_identical(&ordinals, &[Exchange::Nccl])
}

/// One model against the CPU on the naive kernel: a planar wave from the
/// model's planar start at its usual discretisation, on an odd grid.
struct NaiveCheck<'a> {
    gpu: &'a GpuDevice,
    dims: GridDims,
    steps: u64,
    /// The kernel compared (the naive one but for `every_model_columns`).
    cfg: KernelConfig,
    /// With the model's rate table (`--rate-tables`).
    tables: bool,
}

/// Model `name` with its default preset, reading its rate table if `tables`.
fn setup_of(name: &str, tables: bool) -> fibril_host::ModelSetup {
    common::model(name).with_rate_tables(tables).expect("a model with a rate table")
}

impl ModelVisitor for NaiveCheck<'_> {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let d = common::usual_domain(self.dims, setup_of(M::INFO.name, self.tables));
        let start = wave_start::<M, T>(self.dims);
        compare::<M, T>(self.gpu, self.cfg, &d, start, self.steps)
            .map_err(|e| format!("{} {} on {:?}: {e}", M::INFO.name, T::NAME, self.dims))
    }
}

/// The model's planar start. The ionic models start at rest (their S1 is
/// a current the run adds); here the slab is raised to the model's
/// excited value instead, so that a wave propagates through the compared
/// steps.
fn wave_start<M: CellModel, T: Scalar>(dims: GridDims) -> State<T> {
    let mut start = InitialCondition::Planar.state::<T>(M::INFO, dims);
    if M::INFO.stimulus_current.is_some() {
        let axis = fibril_host::init::wave_axis(dims);
        let n = [dims.nx, dims.ny, dims.nz][axis];
        let slab = fibril_host::init::planar_stimulus_slices(n);
        let excited = T::from_f64(M::INFO.stimulus_value);
        for z in 0..dims.nz {
            for y in 0..dims.ny {
                for x in 0..dims.nx {
                    if [x, y, z][axis] < slab {
                        start.slice_mut(0)[dims.index(x, y, z)] = excited;
                    }
                }
            }
        }
    }
    start
}

/// Every registered model, f32 and f64: 1,000 steps of a propagating wave.
fn every_model_naive(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(37, 21, 45);
    let mut failures = Vec::new();
    for m in MODELS {
        for precision in [Precision::F32, Precision::F64] {
            if let Err(e) =
                dispatch(m, precision, NaiveCheck { gpu, dims, steps: 1000, cfg: naive(), tables: false })
            {
                failures.push(e);
            }
        }
    }
    verdict(failures, || format!("{} models x 2 precisions bit-identical", MODELS.len()))
}

/// Every registered model on the columns kernel, f32 and f64: 1,000 steps
/// of a propagating wave on a grid with a partial block along x and y and
/// partial z-chunks.
fn every_model_columns(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(36, 21, 45);
    let cfg = config(KernelKind::Columns, (32, 4)).with_z_chunk(7);
    let mut failures = Vec::new();
    for m in MODELS {
        for precision in [Precision::F32, Precision::F64] {
            if let Err(e) = dispatch(m, precision, NaiveCheck { gpu, dims, steps: 1000, cfg, tables: false })
            {
                failures.push(e);
            }
        }
    }
    verdict(failures, || format!("{} models x 2 precisions bit-identical", MODELS.len()))
}

/// Every registered model on the blocked kernel with 1 to 4 steps per
/// pass, f32 and f64: 1,000 steps (the last pass of k = 3 is shorter) of a
/// propagating wave on a grid with partial tiles along x and y for every k
/// (blocks of 32x12 threads write tiles of 30x10 at k = 1 down to 24x4 at
/// k = 4 on a 37x21 grid) and partial z-chunks. The models without the
/// kernel (more than 3 local variables; the command line runs them one step
/// per pass) must be refused as such; every other model must run and match.
fn every_model_blocked(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(37, 21, 45);
    let mut failures = Vec::new();
    let (mut compared, mut refused) = (0, Vec::new());
    let with_kernel = KernelKind::Blocked.models();
    for k in 1..=kernels_gpu::blocked::MAX_STEPS_PER_PASS {
        let cfg = config(KernelKind::Blocked, (32, 12)).with_z_chunk(7).with_steps_per_pass(k);
        for m in MODELS {
            let has = with_kernel.contains(&m.name);
            for precision in [Precision::F32, Precision::F64] {
                match dispatch(m, precision, NaiveCheck { gpu, dims, steps: 1000, cfg, tables: false }) {
                    Ok(()) if has => compared += 1,
                    Err(e) if !has && e.contains("the blocked kernel exists for") => {
                        refused.push(format!("{} {precision} k = {k}", m.name))
                    }
                    Ok(()) => {
                        failures.push(format!("k = {k}: {} {precision} ran without the kernel", m.name))
                    }
                    Err(e) => failures.push(format!("k = {k}: {e}")),
                }
            }
        }
    }
    if compared < 6 * 2 * 4 {
        failures.push(format!("only {compared} model x precision x k compared"));
    }
    verdict(failures, || {
        format!("{compared} model x precision x k bit-identical; refused, no kernel: {refused:?}")
    })
}

/// Stimuli (which end a pass early) and every map (crossings recorded
/// inside passes) on the blocked kernel, 3,000 steps, against the CPU.
fn blocked_events(gpu: &GpuDevice) -> Result<(), String> {
    for k in [2, 3, 4] {
        let cfg = config(KernelKind::Blocked, (32, 16)).with_z_chunk(5).with_steps_per_pass(k);
        events_match_cpu(gpu, cfg, grid_for(cfg, 12))?;
    }
    Ok(())
}

/// The events of `events_run` on `cfg` for 3,000 steps in chunks, as the
/// run loop advances, against the CPU (state and maps); the solver, for
/// more checks.
fn events_match_cpu(
    gpu: &GpuDevice,
    cfg: KernelConfig,
    dims: GridDims,
) -> Result<GpuSolver<Karma, f32>, String> {
    let (d, start, events, maps) = events_run(dims);
    let (want_state, want_maps) = cpu_events(&d, &start, &events, &maps, 3000);
    let mut s = GpuSolver::<Karma, f32>::new(gpu, fibril::PTX, cfg, &d, &start).map_err(|e| e.to_string())?;
    s.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| e.to_string())?;
    for chunk in [1, 699, 1300, 1000] {
        s.advance(chunk).map_err(|e| e.to_string())?;
    }
    bit_identical(&s.state().map_err(|e| e.to_string())?, &want_state).map_err(|e| format!("{cfg}: {e}"))?;
    same_maps(&s.maps().map_err(|e| e.to_string())?.unwrap(), &want_maps)
        .map_err(|e| format!("{cfg}: {e}"))?;
    Ok(s)
}

/// The ionic models reading their rate tables (`--rate-tables`), f32 and
/// f64: the naive and columns kernels, a tissue in both layouts and a
/// split over sub-domains (each with its own copy of the table) against
/// the CPU with the same table; and the tables do change the field.
fn rate_tables_every_path(gpu: &GpuDevice) -> Result<(), String> {
    let (_, devices) = split_devices()?;
    let with_tables: Vec<_> =
        MODELS.iter().filter(|m| fibril_host::models::rate_table_of(m).is_some()).collect();
    if with_tables.is_empty() {
        return Err("no model has a rate table".into());
    }
    let columns = config(KernelKind::Columns, (32, 4)).with_z_chunk(7);
    for m in &with_tables {
        for precision in [Precision::F32, Precision::F64] {
            let naive =
                NaiveCheck { gpu, dims: GridDims::new(37, 21, 45), steps: 1000, cfg: naive(), tables: true };
            dispatch(m, precision, naive)?;
            let cols =
                NaiveCheck { gpu, dims: GridDims::new(36, 21, 45), steps: 1000, cfg: columns, tables: true };
            dispatch(m, precision, cols)?;
            // Uniform, and with parameter sets (each set its own table).
            for sets in [false, true] {
                let check = TissueCheck {
                    gpu,
                    dims: GridDims::new(37, 21, 13),
                    steps: 500,
                    tables: true,
                    tissue: common::irregular_tissue,
                    runs: &BOTH_LAYOUTS_PER_CELL,
                    sets,
                };
                dispatch(m, precision, check)?;
            }
            dispatch(m, precision, SplitCheck { devices: &devices, tables: true })?;
        }
    }
    // A tissue split over two parts (each part's GPU with its own copy of
    // the table), both layouts, against the CPU.
    tables_tissue_split::<f32>(&devices)?;
    tables_tissue_split::<f64>(&devices)?;
    // Not vacuous: with and without the table the GPU fields differ.
    let dims = GridDims::new(37, 21, 9);
    let start = wave_start::<kernels_gpu::models::BeelerReuter, f32>(dims);
    let [exact, tabled] = [false, true].map(|tables| {
        let d = common::usual_domain(dims, setup_of("beeler_reuter", tables));
        gpu_run::<kernels_gpu::models::BeelerReuter, f32>(gpu, naive(), &d, &start, 300)
    });
    if exact?.u() == tabled?.u() {
        return Err("the rate table did not change the field".into());
    }
    let names: Vec<&str> = with_tables.iter().map(|m| m.name).collect();
    println!(
        "    ({} x 2 precisions x naive, columns, 2 tissue layouts, split: bit-identical)",
        names.join(", ")
    );
    Ok(())
}

/// Beeler-Reuter with its rate table on a shell split over two parts (the
/// first two of `devices`), both layouts, 300 steps of a wave, against the
/// CPU.
fn tables_tissue_split<T: Scalar>(devices: &[GpuDevice]) -> Result<(), String> {
    type Br = kernels_gpu::models::BeelerReuter;
    let dims = GridDims::new(22, 20, 34);
    let n = Br::INFO.numerics;
    let op =
        Arc::new(Operator::build(&split_tissue::shell(dims, n.dx, n.diffusion)).map_err(|e| e.to_string())?);
    let dt = n.dt.min(0.9 * op.dt_max);
    let d = Domain::with_own_operator(dims, n.dx, dt, n.diffusion, setup_of(Br::INFO.name, true))
        .map_err(|e| e.to_string())?;
    let start = wave_start::<Br, T>(dims);
    let mut cpu = fibril_host::tissue::cpu::for_model(&d, &op, TissueLayout::Compact, &start);
    cpu.advance(300).map_err(|e| e.to_string())?;
    let want = cpu.state().map_err(|e| e.to_string())?;
    if want.u() == start.u() {
        return Err("tables, tissue split: the state did not change".into());
    }
    for layout in [TissueLayout::Dense, TissueLayout::Compact] {
        let what = format!("tables, tissue split, {} {layout:?}", T::NAME);
        let mut s =
            split_in_two::<Br, T>(devices, &d, &op, layout, &start).map_err(|e| format!("{what}: {e}"))?;
        s.advance(300).map_err(|e| e.to_string())?;
        bit_identical(&s.state().map_err(|e| e.to_string())?, &want).map_err(|e| format!("{what}: {e}"))?;
    }
    Ok(())
}

/// Every kernel with the reference tanh (`--exact-math`), f32 and f64.
fn exact_math_every_kernel(gpu: &GpuDevice) -> Result<(), String> {
    for kind in KernelKind::ALL {
        let cfg = config(kind, (32, 4)).with_z_chunk(test_z_chunk(kind));
        let dims = grid_for(cfg, 7);
        let d = common::domain_in(dims, "karma", MathMode::Exact);
        compare::<Karma, f32>(gpu, cfg, &d, rich_start::<f32>(dims), 300)
            .map_err(|e| format!("{cfg} f32: {e}"))?;
        compare::<Karma, f64>(gpu, cfg, &d, rich_start::<f64>(dims), 300)
            .map_err(|e| format!("{cfg} f64: {e}"))?;
    }
    // Not vacuous: the two tanh give different fields.
    let dims = GridDims::new(36, 21, 45);
    let start = rich_start::<f32>(dims);
    let [fast, exact] = [MathMode::Fast, MathMode::Exact].map(|math| {
        gpu_run::<Karma, f32>(gpu, naive(), &common::domain_in(dims, "karma", math), &start, 300)
    });
    if fast?.u() == exact?.u() {
        return Err("fast and exact math gave the same field".into());
    }
    Ok(())
}

/// Every model on a sheet, a cable (along y, compacted), and a single cell.
fn every_model_every_shape(gpu: &GpuDevice) -> Result<(), String> {
    let shapes = [GridDims::new(45, 38, 1), GridDims::new(1, 301, 1), GridDims::new(1, 1, 1)];
    let mut failures = Vec::new();
    for m in MODELS {
        for dims in shapes {
            if m.parameters.is_empty() && dims.cells() == 1 {
                continue; // pure diffusion of one cell: nothing happens to compare
            }
            for precision in [Precision::F32, Precision::F64] {
                let steps = if dims.cells() == 1 { 4000 } else { 600 };
                if let Err(e) =
                    dispatch(m, precision, NaiveCheck { gpu, dims, steps, cfg: naive(), tables: false })
                {
                    failures.push(e);
                }
            }
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n    ")) }
}

/// Stimuli (a paced sphere that sets U, a box that injects a current, a
/// mask of the top slices) and
/// every map (activation, repolarisation, the last two beats) on a Karma
/// grid from rest.
fn events_run(dims: GridDims) -> (Domain, State<f32>, Events, Maps) {
    let d = domain(dims, "karma");
    let start = State::<f32>::rest(Karma::INFO, dims);
    let mut paced = StimulusSpec::new(RegionKind::Sphere, 0.5);
    paced.center = Some([dims.nx as f64 / 2.0, dims.ny as f64 / 2.0, 2.0]);
    paced.radius = Some(3.0);
    paced.duration_ms = 1.0;
    paced.period_ms = Some(60.0);
    paced.count = Some(3);
    let mut current = StimulusSpec::new(RegionKind::Box, 40.0);
    current.x = Some([0, 2]);
    current.current = Some(5.0);
    current.duration_ms = 1.0;
    // A mask: the top two slices' checkerboard (the top mirror halo of a
    // split grid holds a copy of one of them).
    let mask: Vec<f32> = (0..dims.cells())
        .map(|i| {
            let (x, z) = (i % dims.nx as usize, i / dims.slice_cells());
            f32::from(z + 2 >= dims.nz as usize && x % 2 == 0)
        })
        .collect();
    let file =
        std::env::temp_dir().join(format!("fibril-gpu-mask-{}-{}.npy", std::process::id(), dims.cells()));
    let shape = [dims.nz as usize, dims.ny as usize, dims.nx as usize];
    std::fs::write(&file, fibril_host::io::npy::encode_shaped(&shape, &mask)).unwrap();
    let mut masked = StimulusSpec::new(RegionKind::Mask, 20.0);
    masked.file = Some(file.clone());
    let stimuli = StimulusSchedule::compile(&[paced, current, masked], dims, d.dt_ms(), Karma::INFO).unwrap();
    std::fs::remove_file(&file).unwrap();
    let recording = Recording { up: Karma::INFO.activation_threshold, down: Some(0.5), beats: Some(2) };
    let maps = Maps::at_start(recording, dims, start.slice(0), 0.0);
    (d, start, Events { stimuli, recording: Some(recording) }, maps)
}

/// The CPU's state and maps after `steps` steps with events.
fn cpu_events(
    d: &Domain,
    start: &State<f32>,
    events: &Events,
    maps: &Maps,
    steps: u64,
) -> (State<f32>, Maps) {
    let mut s = fibril_host::backend::cpu::for_model(d, start);
    s.set_events(events, EventStart::NEW, Some(maps)).unwrap();
    s.advance(steps).unwrap();
    (s.state().unwrap(), s.maps().unwrap().unwrap())
}

/// Maps equal bit for bit, and not vacuous: beats and repolarisations happened.
fn same_maps(got: &Maps, want: &Maps) -> Result<(), String> {
    same_maps_with_beats(got, want, want.cells() as u64)
}

/// [`same_maps`], not vacuous when `want` has at least `min_beats` activations.
fn same_maps_with_beats(got: &Maps, want: &Maps, min_beats: u64) -> Result<(), String> {
    let bits = |v: &[f32]| v.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
    let fields = [
        ("activation", bits(&got.activation), bits(&want.activation)),
        (
            "repolarisation",
            bits(got.repolarisation.as_ref().unwrap()),
            bits(want.repolarisation.as_ref().unwrap()),
        ),
    ];
    for (name, a, b) in fields {
        if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
            let n = (0..a.len()).filter(|&i| a[i] != b[i]).count();
            return Err(format!(
                "{name}: {n} entries differ; first at {i}: gpu {} vs cpu {}",
                f32::from_bits(a[i]),
                f32::from_bits(b[i])
            ));
        }
    }
    if got.count != want.count {
        return Err("beat counts differ".into());
    }
    let beats: u64 = want.count.as_ref().unwrap().iter().map(|&c| c as u64).sum();
    let repolarised = want.repolarisation.as_ref().unwrap().iter().filter(|t| !t.is_nan()).count();
    if beats < min_beats || repolarised == 0 {
        return Err(format!("vacuous: {beats} activations, {repolarised} repolarisations"));
    }
    Ok(())
}

/// Every kernel with stimuli and maps on the device, 3,000 steps (three
/// paced beats), against the CPU.
fn device_events(gpu: &GpuDevice) -> Result<(), String> {
    for cfg in paper_configs() {
        let dims = grid_for(cfg, 12);
        let mut s = events_match_cpu(gpu, cfg, dims)?;
        // A download into an earlier state's memory equals a fresh one.
        let mut reused = State::rest(Karma::INFO, dims);
        s.advance(7).map_err(|e| e.to_string())?;
        s.state_into(&mut reused).map_err(|e| e.to_string())?;
        bit_identical(&reused, &s.state().map_err(|e| e.to_string())?)
            .map_err(|e| format!("{cfg} state_into: {e}"))?;
    }
    Ok(())
}

/// Passes replayed as CUDA graphs (the default) with stimuli inside the
/// run (three paced beats, a current and a mask, each ending a replayed
/// stretch), no maps, every one-step kernel, against the CPU and against
/// the same kernel with graphs off; on sm_90 and later both with the
/// programmatic edges of the default and with plain ones. The run advances in chunks of odd
/// lengths (so U and U_next swap roles between stretches and both
/// assignments' graphs are captured and replayed again), with the state
/// downloaded and a NaN check after every chunk, and compared there.
fn graph_replay(gpu: &GpuDevice) -> Result<(), String> {
    const CHUNKS: [u64; 6] = [1, 699, 3, 1300, 517, 480];
    for cfg in paper_configs() {
        let dims = grid_for(cfg, 12);
        let (d, start, mut events, _) = events_run(dims);
        events.recording = None;
        let mut cpu = fibril_host::backend::cpu::for_model(&d, &start);
        cpu.set_events(&events, EventStart::NEW, None).map_err(|e| e.to_string())?;
        let mut want = Vec::new();
        for chunk in CHUNKS {
            cpu.advance(chunk).map_err(|e| e.to_string())?;
            want.push(cpu.state().map_err(|e| e.to_string())?);
        }
        if bit_identical(&want[want.len() - 1], &start).is_ok() {
            return Err(format!("{cfg}: vacuous, the stimuli left the grid at rest"));
        }
        // Graphs with programmatic edges (the default on sm_90), with plain
        // ones (`--no-pdl`), and no graphs.
        let hopper = gpu.info().compute_capability.0 >= 9;
        for (graphs, pdl) in [(true, true), (true, false), (false, false)] {
            let what = format!("{cfg}, graphs {graphs}, pdl {pdl}");
            let mut s =
                GpuSolver::<Karma, f32>::new(gpu, fibril::PTX, cfg, &d, &start).map_err(|e| e.to_string())?;
            s.set_graphs(graphs);
            s.set_programmatic_launch(pdl);
            s.set_events(&events, EventStart::NEW, None).map_err(|e| e.to_string())?;
            let mut done = 0;
            for (chunk, want) in CHUNKS.iter().zip(&want) {
                s.advance(*chunk).map_err(|e| e.to_string())?;
                done += chunk;
                if s.any_nonfinite().map_err(|e| e.to_string())? {
                    return Err(format!("{what}: NaN after {done} steps"));
                }
                bit_identical(&s.state().map_err(|e| e.to_string())?, want)
                    .map_err(|e| format!("{what}, after {done} steps: {e}"))?;
            }
            let replayed = s.graph_steps();
            let method = s.method();
            // Every stretch but the stimulated steps and the few odd ones at
            // the end of each replays (about 2,850 of the 3,000 steps).
            let suffix = if pdl && hopper { " graphs pdl" } else { " graphs" };
            if graphs && (replayed < 2500 || !method.ends_with(suffix)) {
                return Err(format!("{what}: only {replayed} of {done} steps replayed ({method})"));
            }
            if !graphs && (replayed != 0 || method.contains("graphs")) {
                return Err(format!("{what}: {replayed} steps replayed with graphs off ({method})"));
            }
        }
    }
    Ok(())
}

/// The same on three sub-domains (stimuli reach halo and mirror slices),
/// every exchange without NCCL, overlap on and off.
fn device_events_split(gpu: &GpuDevice) -> Result<(), String> {
    let (ordinals, devices) = split_devices()?;
    println!("    (sub-domains on GPUs {ordinals:?}; this device: {})", gpu.info().name);
    for kind in [KernelKind::Naive, KernelKind::TowerMarch] {
        let cfg = config(kind, (32, 4)).with_z_chunk(if kind == KernelKind::TowerMarch { 2 } else { 0 });
        let dims = grid_for(cfg, 16);
        let (d, start, events, maps) = events_run(dims);
        let (want_state, want_maps) = cpu_events(&d, &start, &events, &maps, 3000);
        let run = SplitRun { ptx: fibril::PTX, config: cfg, domain: &d, initial: &start };
        for exchange in [Exchange::Peer, Exchange::Host] {
            for overlap in [true, false] {
                let what = format!("{cfg}, {exchange:?} exchange, overlap {overlap}");
                split_events(&devices, &run, (exchange, overlap), (&events, &maps), &[3000])
                    .and_then(|got| same_split(got, (&want_state, &want_maps)))
                    .map_err(|e| format!("{what}: {e}"))?;
            }
        }
    }
    Ok(())
}

/// Karma f32 split over `devices` with `events` from their start, advanced
/// by each of `calls` in turn: the state, the maps and the solver's method.
fn split_events(
    devices: &[GpuDevice],
    run: &SplitRun<'_, f32>,
    (exchange, overlap): (Exchange, bool),
    (events, maps): (&Events, &Maps),
    calls: &[u64],
) -> Result<(State<f32>, Maps, String), String> {
    let mut s =
        GpuMultiSolver::<Karma, f32>::new(devices, run, exchange, overlap).map_err(|e| e.to_string())?;
    s.set_events(events, EventStart::NEW, Some(maps)).map_err(|e| e.to_string())?;
    for &steps in calls {
        s.advance(steps).map_err(|e| e.to_string())?;
    }
    let state = s.state().map_err(|e| e.to_string())?;
    Ok((state, s.maps().map_err(|e| e.to_string())?.unwrap(), s.method()))
}

/// With peer exchange and overlap the blocked kernel's passes store the
/// halos themselves (`kernels_gpu::blocked::forward`); otherwise copies
/// move them. The method says which, so that a check of one path cannot
/// pass on the other.
fn forwards_as_expected(method: &str, forwarded: bool) -> Result<(), String> {
    match method.contains("halos forwarded") == forwarded {
        true => Ok(()),
        false => Err(format!("{method}: halos forwarded expected {forwarded}")),
    }
}

/// A split run's state and maps equal the CPU's bit for bit.
fn same_split(
    (state, maps, method): (State<f32>, Maps, String),
    want: (&State<f32>, &Maps),
) -> Result<(), String> {
    bit_identical(&state, want.0).map_err(|e| format!("({method}) {e}"))?;
    same_maps(&maps, want.1)
}

/// The pseudo-ECG summed on the GPU (one GPU, and three sub-domains with
/// one-slice and with deep halos) against the CPU's sum of the same state:
/// the terms are bit-identical, only the order of the f64 additions
/// differs, so the relative difference is bounded by a few ulps of the sum
/// of |terms| (1e-12 here).
fn device_ecg(gpu: &GpuDevice) -> Result<(), String> {
    let cfg = naive();
    let dims = GridDims::new(40, 36, 30);
    let (d, start, events, maps) = events_run(dims);
    let electrodes = [
        Electrode::new("above", [12.0, 10.0, 30.0]),
        Electrode::new("side", [-5.0, 10.0, 9.0]),
        Electrode::new("below", [12.0, 10.0, -8.0]),
    ];
    let probes = fibril_host::events::ecg::probes(&electrodes, d.dx());
    let (state, _) = cpu_events(&d, &start, &events, &maps, 400);
    let want = fibril_host::events::ecg::pseudo_ecg(state.slice(0), dims, d.dx(), &electrodes).unwrap();
    let close = |got: &[f64], what: &str| -> Result<(), String> {
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            if *w == 0.0 || ((g - w) / w).abs() > 1e-12 {
                return Err(format!("{what}: electrode {k}: gpu {g} vs cpu {w}"));
            }
        }
        Ok(())
    };
    let mut s = GpuSolver::<Karma, f32>::new(gpu, fibril::PTX, cfg, &d, &start).map_err(|e| e.to_string())?;
    s.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| e.to_string())?;
    s.advance(400).map_err(|e| e.to_string())?;
    close(&s.ecg(&probes).map_err(|e| e.to_string())?, "one GPU")?;
    let (_, devices) = split_devices()?;
    // The split with one-slice halos (naive) and with halos 3 deep (blocked).
    let blocked = config(KernelKind::Blocked, (32, 12)).with_steps_per_pass(3);
    for cfg in [cfg, blocked] {
        let run = SplitRun { ptx: fibril::PTX, config: cfg, domain: &d, initial: &start };
        let mut m = GpuMultiSolver::<Karma, f32>::new(&devices, &run, Exchange::Peer, true)
            .map_err(|e| e.to_string())?;
        m.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| e.to_string())?;
        m.advance(400).map_err(|e| e.to_string())?;
        close(&m.ecg(&probes).map_err(|e| e.to_string())?, &format!("split, {}", m.method()))?;
    }
    println!("    (ECG at 3 electrodes: {want:?})");
    Ok(())
}

/// Spiral tips (a sheet) and filament points (a volume) found by the
/// `phase_plaquettes` kernel against the CPU's scan of the same states:
/// the same plaquettes with the same charges and bit-identical positions,
/// once sorted (the kernel appends in no fixed order), at ten samples of
/// an Aliev-Panfilov spiral and scroll wave started by the S1-S2 protocol.
fn device_tips(gpu: &GpuDevice) -> Result<(), String> {
    use fibril_host::events::protocol::{scroll_s2, scroll_s2_step};
    use fibril_host::events::stimulus::Action;
    use fibril_host::events::tips::{ChargedPlaquette, PhaseMemory};
    use fibril_host::models::ModelSetup;
    use kernels_gpu::models::AlievPanfilov;

    let mut counts = Vec::new();
    for dims in [GridDims::new(96, 80, 1), GridDims::new(48, 40, 24)] {
        let (dx, dt) = (1.0, 0.05);
        let model = ModelSetup::new("aliev_panfilov", None, &[]).map_err(|e| e.to_string())?;
        let d = Domain::new(dims, dx, dt, 1.0, model).map_err(|e| e.to_string())?;
        let s2_step = scroll_s2_step(&d).map_err(|e| e.to_string())?;
        let s2 = scroll_s2(s2_step as f64 * dt)
            .compile(1, dims, dt, AlievPanfilov::INFO)
            .map_err(|e| e.to_string())?;
        let start = InitialCondition::Planar.state::<f32>(AlievPanfilov::INFO, dims);
        let mut cpu = CpuSolver::<AlievPanfilov, f32>::new(&d, &start);
        cpu.advance(s2_step).map_err(|e| e.to_string())?;
        let mut state = cpu.state().map_err(|e| e.to_string())?;
        let Action::Set(value) = s2.action else { return Err("S2 sets a value".into()) };
        s2.region.apply(&mut state, value as f32);
        cpu.set_state(&state).map_err(|e| e.to_string())?;
        let mut gpu_solver = GpuSolver::<AlievPanfilov, f32>::new(gpu, fibril::PTX, naive(), &d, &state)
            .map_err(|e| e.to_string())?;
        let v_star = AlievPanfilov::INFO.activation_threshold;
        let (mut cpu_memory, mut unused) = (PhaseMemory::default(), PhaseMemory::default());
        let sorted = |mut p: Vec<ChargedPlaquette>| {
            p.sort_by_key(|p| (p.normal, dims.index(p.base[0], p.base[1], p.base[2])));
            p
        };
        let mut found = 0;
        for sample in 0..11 {
            if sample > 0 {
                cpu.advance(20).map_err(|e| e.to_string())?;
                gpu_solver.advance(20).map_err(|e| e.to_string())?;
            }
            let want = cpu.phase_singularities(v_star, &mut cpu_memory).map_err(|e| e.to_string())?;
            let got = gpu_solver.phase_singularities(v_star, &mut unused).map_err(|e| e.to_string())?;
            match (want, got) {
                (None, None) if sample == 0 => {}
                (Some(want), Some(got)) if sample > 0 => {
                    let (want, got) = (sorted(want), sorted(got));
                    if want != got {
                        return Err(format!(
                            "{dims:?}, sample {sample}: {} plaquettes on the GPU, {} on the CPU; first \
                             difference {:?}",
                            got.len(),
                            want.len(),
                            got.iter().zip(&want).find(|(g, w)| g != w)
                        ));
                    }
                    found += want.len();
                }
                (want, got) => {
                    return Err(format!("{dims:?}, sample {sample}: CPU {want:?}, GPU {got:?}"));
                }
            }
            if sample == 5 {
                // A checkpoint's phase memory, and a resumed GPU solver
                // that continues from it (the samples after this one).
                let kept = gpu_solver.phase_memory(&unused).map_err(|e| e.to_string())?;
                let want = cpu.phase_memory(&cpu_memory).map_err(|e| e.to_string())?;
                let bits = |f: &Option<Vec<f64>>| {
                    f.as_ref().map(|f| f.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
                };
                if kept.is_none() || bits(&kept) != bits(&want) {
                    return Err(format!("{dims:?}: the GPU's phase memory differs from the CPU's"));
                }
                let now = gpu_solver.state().map_err(|e| e.to_string())?;
                gpu_solver = GpuSolver::<AlievPanfilov, f32>::new(gpu, fibril::PTX, naive(), &d, &now)
                    .map_err(|e| e.to_string())?;
                let kept = kept.expect("checked above");
                gpu_solver.restore_phase_memory(&kept, &mut unused).map_err(|e| e.to_string())?;
            }
        }
        if found == 0 {
            return Err(format!("{dims:?}: no singularity found, so nothing was compared"));
        }
        counts.push(found);
    }
    println!(
        "    ({} tip and {} filament-point records compared over 10 samples each, the last 5 after a \
         restored phase memory)",
        counts[0], counts[1]
    );
    Ok(())
}

/// One model on a tissue (`tissue`: its grid, dx and D), each of `runs`
/// (a layout on the GPU with its weights and neighbour table stored as the
/// choice says) against the CPU's compact layout with per-cell weights and
/// u32 neighbour indices: a wave from the model's planar start (the ionic
/// models' slab raised to their excited value), at the model's usual dx
/// and D (D_cross = D/5) and its usual dt or the tissue's stable limit,
/// whichever is smaller.
struct TissueCheck<'a> {
    gpu: &'a GpuDevice,
    dims: GridDims,
    steps: u64,
    tables: bool,
    tissue: fn(GridDims, f64, f64) -> Tissue,
    runs: &'a [(TissueLayout, TableChoice)],
    /// Whether the parameters vary (`common::varied_parameters`): the
    /// `_sets` kernels against the CPU's per-cell sets.
    sets: bool,
}

/// Both layouts, the weights per cell, the neighbours chosen automatically
/// (16-bit offsets on the checks' tissues).
const BOTH_LAYOUTS_PER_CELL: [(TissueLayout, TableChoice); 2] = [
    (TissueLayout::Dense, TableChoice { weights: WeightChoice::PerCell, neighbours: NeighbourChoice::Auto }),
    (
        TissueLayout::Compact,
        TableChoice { weights: WeightChoice::PerCell, neighbours: NeighbourChoice::Auto },
    ),
];

impl ModelVisitor for TissueCheck<'_> {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let n = M::INFO.numerics;
        let mut tissue = (self.tissue)(self.dims, n.dx, n.diffusion);
        let map = match self.sets {
            false => None,
            true => match common::varied_parameters(M::INFO, &mut tissue.labels, self.dims) {
                Some(map) => Some(map),
                // Pure diffusion has no parameter: nothing can vary.
                None => return Ok(()),
            },
        };
        let op = Arc::new(Operator::build(&tissue).unwrap());
        let dt = n.dt.min(0.9 * op.dt_max);
        let setup = setup_of(M::INFO.name, self.tables);
        let mut d = Domain::with_own_operator(self.dims, n.dx, dt, n.diffusion, setup.clone())
            .map_err(|e| e.to_string())?;
        if let Some(map) = map {
            let cells = (&tissue.labels[..], Cells::Grid);
            let sets = ParameterSets::resolve(&setup, &map, cells, |i| i.to_string())
                .map_err(|e| e.to_string())?
                .ok_or("no parameter set")?;
            if sets.len() < 3 {
                return Err(format!("{}: only {} parameter sets", M::INFO.name, sets.len()));
            }
            d = d.with_parameter_sets(Arc::new(sets));
        }
        let mut start = InitialCondition::Planar.state::<T>(M::INFO, self.dims);
        if M::INFO.stimulus_current.is_some() {
            let slab = fibril_host::init::planar_stimulus_slices(self.dims.nx);
            for (i, u) in start.slice_mut(0).iter_mut().enumerate() {
                if (i % self.dims.nx as usize) < slab as usize {
                    *u = T::from_f64(M::INFO.stimulus_value);
                }
            }
        }
        let what = |layout: TissueLayout, choice: TableChoice| {
            format!("{} {} {layout:?} {choice:?} on {:?}", M::INFO.name, T::NAME, self.dims)
        };
        let reference =
            TableChoice { weights: WeightChoice::PerCell, neighbours: NeighbourChoice::Indices32 };
        let mut cpu =
            fibril_host::tissue::cpu::for_model_with(&d, &op, TissueLayout::Compact, reference, &start)
                .map_err(|e| e.to_string())?;
        cpu.advance(self.steps).map_err(|e| e.to_string())?;
        let want = cpu.state().map_err(|e| e.to_string())?;
        if want.u() == start.u() {
            return Err(format!("{}: the state did not change", what(TissueLayout::Compact, reference)));
        }
        for (k, &(layout, choice)) in self.runs.iter().enumerate() {
            let mut s =
                TissueGpuSolver::<M, T>::with_weights(self.gpu, fibril::PTX, &d, &op, layout, choice, &start)
                    .map_err(|e| format!("{}: {e}", what(layout, choice)))?;
            // The storage asked for is the one that ran (offsets: these
            // tissues' z-planes hold far fewer than 32,767 cells).
            let classes = choice.weights == WeightChoice::Classes;
            let n16 = layout == TissueLayout::Compact && choice.neighbours == NeighbourChoice::Auto;
            if classes != s.method().contains("-classes") || n16 != s.method().contains("-n16") {
                return Err(format!("{}: ran {}", what(layout, choice), s.method()));
            }
            // Without events every step is quiet: the even-numbered storages
            // replay them as CUDA graphs, the others launch each from the host.
            let graphs = k % 2 == 0;
            s.set_graphs(graphs);
            // Half the steps, a state copied out behind the other half (section
            // 2.7) on the first storage, the rest.
            let half = self.steps / 2;
            s.advance(half).map_err(|e| e.to_string())?;
            let copied = if k == 0 {
                let mid = s.state().map_err(|e| e.to_string())?;
                if !s.begin_state_copy().map_err(|e| e.to_string())? {
                    return Err(format!("{}: no copy behind the steps", what(layout, choice)));
                }
                Some(mid)
            } else {
                None
            };
            s.advance(self.steps - half).map_err(|e| e.to_string())?;
            if let Some(mid) = copied {
                bit_identical(&s.collect_state().map_err(|e| e.to_string())?, &mid)
                    .map_err(|e| format!("{}, copied behind the steps: {e}", what(layout, choice)))?;
            }
            if graphs != (s.graph_steps() >= self.steps / 2) {
                let replayed = s.graph_steps();
                return Err(format!(
                    "{}: {replayed} of {} steps replayed as graphs",
                    what(layout, choice),
                    self.steps
                ));
            }
            bit_identical(&s.state().map_err(|e| e.to_string())?, &want)
                .map_err(|e| format!("{}: {e}", what(layout, choice)))?;
        }
        Ok(())
    }
}

/// Every model, f32 and f64, on a box and a sheet.
fn tissue_every_model(gpu: &GpuDevice) -> Result<(), String> {
    every_model_on_tissue(gpu, common::irregular_tissue, &BOTH_LAYOUTS_PER_CELL, "2 layouts", "")
}

/// The `_sets` kernels (a parameter set per cell): every model, f32 and
/// f64, each storage of the weights and the neighbours, on a box and a
/// sheet whose upper half has another preset and whose first scalable
/// parameter varies along x, against the CPU with the same sets.
fn tissue_parameter_sets_every_model(gpu: &GpuDevice) -> Result<(), String> {
    let choice = |weights, neighbours| TableChoice { weights, neighbours };
    let runs = [
        (TissueLayout::Dense, choice(WeightChoice::PerCell, NeighbourChoice::Auto)),
        (TissueLayout::Dense, choice(WeightChoice::Classes, NeighbourChoice::Auto)),
        (TissueLayout::Compact, choice(WeightChoice::PerCell, NeighbourChoice::Indices32)),
        (TissueLayout::Compact, choice(WeightChoice::Classes, NeighbourChoice::Indices32)),
        (TissueLayout::Compact, choice(WeightChoice::PerCell, NeighbourChoice::Auto)),
        (TissueLayout::Compact, choice(WeightChoice::Classes, NeighbourChoice::Auto)),
    ];
    every_model_on_tissue_with(gpu, common::turning_tissue, &runs, "6 storages", " with parameter sets", true)
}

/// The class-indexed kernels: every model, f32 and f64, both layouts, on
/// a box and a sheet of fibres turning through z with an irregular
/// outline, against the CPU with per-cell weights.
fn tissue_classes_every_model(gpu: &GpuDevice) -> Result<(), String> {
    let by_class = TableChoice { weights: WeightChoice::Classes, neighbours: NeighbourChoice::Auto };
    let runs = [(TissueLayout::Dense, by_class), (TissueLayout::Compact, by_class)];
    every_model_on_tissue(gpu, common::turning_tissue, &runs, "2 layouts", " by class")
}

/// The compact kernels with either neighbour table: every model, f32 and
/// f64, the neighbours as u32 indices and as 16-bit offsets, on the
/// irregular tissue with per-cell weights and on the turning one by
/// class, against the CPU with per-cell weights and u32 indices.
fn tissue_neighbour_forms_every_model(gpu: &GpuDevice) -> Result<(), String> {
    let neighbours = [NeighbourChoice::Indices32, NeighbourChoice::Auto];
    for (tissue, weights, how) in [
        (common::irregular_tissue as fn(GridDims, f64, f64) -> Tissue, WeightChoice::PerCell, ""),
        (common::turning_tissue, WeightChoice::Classes, " by class"),
    ] {
        let runs = neighbours.map(|neighbours| (TissueLayout::Compact, TableChoice { weights, neighbours }));
        every_model_on_tissue(gpu, tissue, &runs, "u32 and 16-bit neighbours", how)?;
    }
    Ok(())
}

/// Every model, f32 and f64, each of `runs` (`what` they are), 500 steps
/// on a 37x21x13 box and a 45x38 sheet of `tissue`.
fn every_model_on_tissue(
    gpu: &GpuDevice,
    tissue: fn(GridDims, f64, f64) -> Tissue,
    runs: &[(TissueLayout, TableChoice)],
    what: &str,
    how: &str,
) -> Result<(), String> {
    every_model_on_tissue_with(gpu, tissue, runs, what, how, false)
}

/// As [`every_model_on_tissue`], the parameters varying where `sets`.
fn every_model_on_tissue_with(
    gpu: &GpuDevice,
    tissue: fn(GridDims, f64, f64) -> Tissue,
    runs: &[(TissueLayout, TableChoice)],
    what: &str,
    how: &str,
    sets: bool,
) -> Result<(), String> {
    let mut failures = Vec::new();
    for dims in [GridDims::new(37, 21, 13), GridDims::new(45, 38, 1)] {
        for m in MODELS {
            for precision in [Precision::F32, Precision::F64] {
                let check = TissueCheck { gpu, dims, steps: 500, tables: false, tissue, runs, sets };
                if let Err(e) = dispatch(m, precision, check) {
                    failures.push(e);
                }
            }
        }
    }
    verdict(failures, || {
        format!("{} models x 2 precisions x {what} x 2 shapes bit-identical{how}", MODELS.len())
    })
}

/// The events of `events_run` (a paced sphere, a current, a mask; every
/// map) on a Karma tissue, both layouts against the CPU.
fn tissue_events(gpu: &GpuDevice) -> Result<(), String> {
    let dims = GridDims::new(41, 27, 12);
    let (_, start, events, maps) = events_run(dims);
    let op = Arc::new(Operator::build(&common::irregular_tissue(dims, 0.6, 1.0)).unwrap());
    op.check_dt(0.05).map_err(|e| e.to_string())?;
    let d = Domain::with_own_operator(dims, 0.6, 0.05, 1.0, common::model("karma")).unwrap();
    let mut cpu = fibril_host::tissue::cpu::for_model(&d, &op, TissueLayout::Dense, &start);
    cpu.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| e.to_string())?;
    cpu.advance(3000).map_err(|e| e.to_string())?;
    let (want_state, want_maps) = (cpu.state().unwrap(), cpu.maps().unwrap().unwrap());
    for layout in [TissueLayout::Dense, TissueLayout::Compact] {
        let mut s = TissueGpuSolver::<Karma, f32>::new(gpu, fibril::PTX, &d, &op, layout, &start)
            .map_err(|e| format!("{layout:?}: {e}"))?;
        s.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| e.to_string())?;
        for chunk in [1, 699, 1300, 1000] {
            s.advance(chunk).map_err(|e| e.to_string())?;
        }
        bit_identical(&s.state().map_err(|e| e.to_string())?, &want_state)
            .map_err(|e| format!("{layout:?}: {e}"))?;
        // Not vacuous: at least as many activations as tissue cells.
        let min_beats = op.tissue_cells() as u64;
        same_maps_with_beats(&s.maps().map_err(|e| e.to_string())?.unwrap(), &want_maps, min_beats)
            .map_err(|e| format!("{layout:?}: {e}"))?;
    }
    Ok(())
}

/// O'Hara-Rudy (generated) and ten Tusscher-Panfilov 2006 (written by
/// hand), whose stimulus currents carry their charge into K_i
/// (`StimulusCarrier`), with that current on the low-x cells for its
/// duration: the two box kernels that exist for them (naive and columns;
/// the tower and blocked kernels are Karma's and the two-variable
/// models'), a tissue in both layouts and split in two parts (whose halos
/// have no locals), f64 and f32, bit for bit against the CPU, and K_i
/// moved by the stimulus (not vacuous).
fn stimulus_carriers(gpu: &GpuDevice) -> Result<(), String> {
    use kernels_gpu::models::TenTusscher2006;
    use kernels_gpu::models::imported::ohara_rudy_2011::OharaRudy2011;
    stimulus_carriers_in::<OharaRudy2011, f64>(gpu, "ohara_rudy_2011")?;
    stimulus_carriers_in::<OharaRudy2011, f32>(gpu, "ohara_rudy_2011")?;
    stimulus_carriers_in::<TenTusscher2006, f64>(gpu, "ten_tusscher_2006")?;
    stimulus_carriers_in::<TenTusscher2006, f32>(gpu, "ten_tusscher_2006")
}

fn stimulus_carriers_in<M: CellModel, T: Scalar>(gpu: &GpuDevice, name: &str) -> Result<(), String> {
    let carrier = M::INFO.stimulus_current.unwrap().carriers[0].variable;
    let events_for = |dims: GridDims, dt: f64| {
        let mut current = StimulusSpec::new(RegionKind::Box, 0.1);
        current.x = Some([0, 2]);
        let stimuli = StimulusSchedule::compile(&[current], dims, dt, M::INFO).unwrap();
        Events { stimuli, recording: None }
    };
    // K_i of a stimulated cell against an unstimulated one's, after the run.
    let moved = |s: &State<T>, what: &str| {
        let ki = s.slice(carrier);
        let far = s.dims().nx as usize - 1;
        if ki[0] == ki[far] {
            return Err(format!(
                "{what}: K_i at x = 0 equals K_i at x = {far}: the stimulus carried nothing"
            ));
        }
        Ok(())
    };
    let chunks = [1, 99, 200];
    for cfg in [naive(), config(KernelKind::Columns, (32, 8)).with_z_chunk(5)] {
        let dims = grid_for(cfg, 6);
        let d = domain(dims, name);
        let start = State::<T>::rest(M::INFO, dims);
        let events = events_for(dims, d.dt_ms());
        let want = run_with(&mut *fibril_host::backend::cpu::for_model(&d, &start), &events, &chunks)?;
        let mut s =
            GpuSolver::<M, T>::new(gpu, fibril::PTX, cfg, &d, &start).map_err(|e| format!("{cfg}: {e}"))?;
        let what = format!("{name} {} {cfg}", T::NAME);
        bit_identical(&run_with(&mut s, &events, &chunks)?, &want).map_err(|e| format!("{what}: {e}"))?;
        moved(&want, &what)?;
    }
    let dims = GridDims::new(19, 11, 8);
    let dx = 0.2;
    let op = Arc::new(Operator::build(&common::irregular_tissue(dims, dx, 0.1)).unwrap());
    let d = Domain::with_own_operator(dims, dx, M::INFO.numerics.dt, 0.1, common::model(name)).unwrap();
    op.check_dt(d.dt_ms()).map_err(|e| e.to_string())?;
    let start = State::<T>::rest(M::INFO, dims);
    let events = events_for(dims, d.dt_ms());
    let (_, devices) = split_devices()?;
    for layout in [TissueLayout::Dense, TissueLayout::Compact] {
        let mut cpu = fibril_host::tissue::cpu::for_model(&d, &op, layout, &start);
        let want = run_with(&mut *cpu, &events, &chunks)?;
        let what = format!("{name} {} tissue {layout:?}", T::NAME);
        let mut one = TissueGpuSolver::<M, T>::new(gpu, fibril::PTX, &d, &op, layout, &start)
            .map_err(|e| format!("{what}: {e}"))?;
        bit_identical(&run_with(&mut one, &events, &chunks)?, &want).map_err(|e| format!("{what}: {e}"))?;
        let mut two = split_in_two::<M, T>(&devices, &d, &op, layout, &start)
            .map_err(|e| format!("{what} in 2 parts: {e}"))?;
        bit_identical(&run_with(&mut two, &events, &chunks)?, &want)
            .map_err(|e| format!("{what} in 2 parts: {e}"))?;
    }
    Ok(())
}

/// `s` with `events` from their start, advanced by each of `chunks`: its state.
fn run_with<T: Scalar>(s: &mut dyn Solver<T>, events: &Events, chunks: &[u64]) -> Result<State<T>, String> {
    s.set_events(events, EventStart::NEW, None).map_err(|e| e.to_string())?;
    for &chunk in chunks {
        s.advance(chunk).map_err(|e| e.to_string())?;
    }
    s.state().map_err(|e| e.to_string())
}

/// `op`'s tissue split into two parts on the first two of `devices`, peer exchange.
fn split_in_two<M: CellModel, T: Scalar>(
    devices: &[GpuDevice],
    d: &Domain,
    op: &Arc<Operator>,
    layout: TissueLayout,
    start: &State<T>,
) -> Result<TissueGpuMultiSolver<M, T>, String> {
    let split = TissueSplit::new(op, 2, layout).map_err(|e| e.to_string())?;
    TissueGpuMultiSolver::<M, T>::new(&devices[..2], fibril::PTX, d, op, split, Exchange::Peer, start)
        .map_err(|e| e.to_string())
}

/// A shell of about 20% tissue split by tissue cells into 2 and 3 parts
/// (one GPU each where there are enough, else all on GPU 0), both
/// layouts (the compact one with u32 and with 16-bit neighbours), the
/// weights per cell and by class (every part with the whole tissue's
/// table), peer and host exchange, f32 and f64, Karma with stimuli and
/// every map, against the single-domain CPU run.
fn tissue_split(gpu: &GpuDevice) -> Result<(), String> {
    let count = fibril_host::backend::gpu::device_count().map_err(|e| e.to_string())?;
    if count < 3 {
        note(format!(
            "on {count} GPU(s): the parts beyond them shared GPU 0, so those halos crossed by device-local copies"
        ));
    }
    println!("    (this device: {})", gpu.info().name);
    let dims = GridDims::new(22, 20, 34);
    let tissue = split_tissue::shell(dims, 0.6, 1.0);
    tissue_split_in::<f32>(count, &tissue, 600, false)?;
    tissue_split_in::<f64>(count, &tissue, 600, false)
}

/// As [`tissue_split`], Karma's parameters varying over the shell
/// (`common::varied_parameters`): each part reads its cells' sets (the
/// `_sets` kernels, per cell and by class).
fn tissue_split_parameter_sets(gpu: &GpuDevice) -> Result<(), String> {
    let count = fibril_host::backend::gpu::device_count().map_err(|e| e.to_string())?;
    println!("    (this device: {})", gpu.info().name);
    let dims = GridDims::new(22, 20, 34);
    let tissue = split_tissue::shell(dims, 0.6, 1.0);
    tissue_split_in::<f32>(count, &tissue, 600, true)?;
    tissue_split_in::<f64>(count, &tissue, 600, true)
}

fn tissue_split_in<T: Scalar>(
    count: usize,
    tissue: &fibril_host::tissue::Tissue,
    steps: u64,
    sets: bool,
) -> Result<(), String> {
    let dims = tissue.dims;
    let mut tissue = tissue.clone();
    let map = match sets {
        true => Some(common::varied_parameters(Karma::INFO, &mut tissue.labels, dims).ok_or("no parameter")?),
        false => None,
    };
    let tissue = &tissue;
    let op = Arc::new(Operator::build(tissue).map_err(|e| e.to_string())?);
    let dt = 0.05f64.min(0.9 * op.dt_max);
    let mut d = Domain::with_own_operator(dims, tissue.dx, dt, 1.0, common::model("karma"))
        .map_err(|e| e.to_string())?;
    if let Some(map) = map {
        let sets =
            ParameterSets::resolve(&common::model("karma"), &map, (&tissue.labels, Cells::Grid), |i| {
                i.to_string()
            })
            .map_err(|e| e.to_string())?
            .ok_or("no parameter set")?;
        d = d.with_parameter_sets(Arc::new(sets));
    }
    let (start, events, maps) = split_tissue::karma_events::<T>(dims, dt);
    let mut cpu = fibril_host::tissue::cpu::for_model(&d, &op, TissueLayout::Compact, &start);
    cpu.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| e.to_string())?;
    cpu.advance(steps).map_err(|e| e.to_string())?;
    let (want, want_maps) = (cpu.state().map_err(|e| e.to_string())?, cpu.maps().unwrap().unwrap());
    for parts in [2usize, 3] {
        let ordinals: Vec<usize> = (0..parts).map(|p| if count >= parts { p } else { 0 }).collect();
        let devices: Vec<GpuDevice> = ordinals
            .iter()
            .map(|&o| GpuDevice::open(o))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        let runs = [
            (TissueLayout::Dense, NeighbourChoice::Auto),
            (TissueLayout::Compact, NeighbourChoice::Indices32),
            (TissueLayout::Compact, NeighbourChoice::Auto),
        ];
        let each =
            runs.into_iter().flat_map(|run| [WeightChoice::PerCell, WeightChoice::Classes].map(|w| (run, w)));
        for ((layout, choice), weights) in each {
            for exchange in [Exchange::Peer, Exchange::Host] {
                let what = format!(
                    "{} {layout:?} {choice:?} {weights:?} {parts} parts on GPUs {ordinals:?}, {exchange:?}",
                    T::NAME
                );
                let split = TissueSplit::new(&op, parts, layout).map_err(|e| e.to_string())?.split;
                let split = TissueSplit::with_neighbours(&op, split, layout, choice).with_weights(weights);
                let mut s = TissueGpuMultiSolver::<Karma, T>::new(
                    &devices,
                    fibril::PTX,
                    &d,
                    &op,
                    split,
                    exchange,
                    &start,
                )
                .map_err(|e| format!("{what}: {e}"))?;
                // The small shell's parts take the offsets when asked to
                // choose; the storage asked for is the one that ran.
                let n16 = layout == TissueLayout::Compact && choice == NeighbourChoice::Auto;
                let classes = weights == WeightChoice::Classes;
                if n16 != s.method().contains("-n16") || classes != s.method().contains("-classes") {
                    return Err(format!("{what}: ran {}", s.method()));
                }
                s.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| e.to_string())?;
                for chunk in [1, steps / 2 - 1, steps / 2] {
                    s.advance(chunk).map_err(|e| e.to_string())?;
                    s.state().map_err(|e| e.to_string())?;
                }
                split_tissue::same_bits(&s.state().map_err(|e| e.to_string())?, &want)
                    .map_err(|e| format!("{what}: {e}"))?;
                split_tissue::same_maps(&s.maps().map_err(|e| e.to_string())?.unwrap(), &want_maps)
                    .map_err(|e| format!("{what}: {e}"))?;
            }
        }
    }
    Ok(())
}

/// The `fibril` binary: `FIBRIL_BIN`, else the one beside this test
/// binary (a staged copy), else the one cargo built with it.
fn fibril_binary() -> Result<std::path::PathBuf, String> {
    let beside = std::env::current_exe().ok().and_then(|e| e.parent().map(|d| d.join("fibril")));
    let candidates =
        [std::env::var_os("FIBRIL_BIN").map(Into::into), beside, Some(env!("CARGO_BIN_EXE_fibril").into())];
    candidates
        .into_iter()
        .flatten()
        .find(|p: &std::path::PathBuf| p.is_file())
        .ok_or_else(|| "no fibril binary found; set FIBRIL_BIN to it".to_string())
}

/// `--kernel tune` keeps its choice in the tune cache (the file
/// FIBRIL_TUNE_CACHE names); a second benchmark of the same grid takes it
/// without timing and runs the same kernel; `--retune` times again; a
/// run of another grid misses; a run (not a benchmark) takes the kept
/// choice too and its summary says where it came from.
fn tune_cache_reuse(_gpu: &GpuDevice) -> Result<(), String> {
    let bin = fibril_binary()?;
    let dir = std::env::temp_dir().join(format!("fibril-gpu-tune-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.join("cache").join("tune-cache.json");
    let fibril = |args: &[&str]| -> Result<String, String> {
        let o = std::process::Command::new(&bin)
            .args(args)
            .env("FIBRIL_TUNE_CACHE", &cache)
            .output()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        match o.status.success() {
            true => Ok(stderr),
            false => Err(format!("fibril {args:?} failed:\n{stderr}")),
        }
    };
    let json = |name: &str| -> Result<serde_json::Value, String> {
        let text = std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
        serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))
    };
    let bench = |size: &str, extra: &[&str], out: &str| -> Result<String, String> {
        let path = dir.join(out);
        let mut args =
            vec!["bench", "--backend", "gpu", "--model", "karma", "--precision", "f32", "--size", size];
        args.extend(["--steps", "200", "--warmup", "20", "--repeats", "1", "--kernel", "tune", "--json"]);
        args.push(path.to_str().unwrap());
        args.extend(extra);
        fibril(&args)
    };
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let timed = "--kernel tune timed";
    let first = bench("64", &[], "1.json")?;
    if !first.contains(timed) || !first.contains("kept in") || !cache.is_file() {
        return Err(format!("the first tuning did not time and keep its choice:\n{first}"));
    }
    let second = bench("64", &[], "2.json")?;
    if second.contains(timed) || !second.contains("as timed on this GPU on") {
        return Err(format!("the second benchmark did not take the kept choice:\n{second}"));
    }
    let (one, two) = (json("1.json")?, json("2.json")?);
    if one["method"] != two["method"] || one["kernel_tuning"]["chosen"] != two["kernel_tuning"]["chosen"] {
        return Err(format!("the kept choice differs: {} against {}", one["method"], two["method"]));
    }
    if two["kernel_tuning"]["from_cache"]["file"].as_str() != cache.to_str() {
        return Err(format!("the record does not name the cache: {}", two["kernel_tuning"]));
    }
    let again = bench("64", &["--retune"], "3.json")?;
    if !again.contains(timed) {
        return Err(format!("--retune did not time:\n{again}"));
    }
    let other = bench("48", &[], "4.json")?;
    if !other.contains(timed) {
        return Err(format!("another grid took a kept choice:\n{other}"));
    }
    let out = dir.join("run");
    let run = fibril(&[
        "run",
        "--backend",
        "gpu",
        "--size",
        "64",
        "--steps",
        "40",
        "--kernel",
        "tune",
        "--out",
        out.to_str().unwrap(),
    ])?;
    let summary = json("run/summary.json")?;
    if run.contains(timed) || summary["kernel_tuning"]["from_cache"].is_null() {
        return Err(format!("the run did not take the kept choice:\n{run}\n{}", summary["kernel_tuning"]));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A tune cache that cannot be used (FIBRIL_TUNE_CACHE naming a
/// directory, a device that never ends, a file of garbage) never stops a
/// run or eats memory: `--kernel tune` says what is wrong with it, times
/// the kernels and runs; the garbage file is replaced by a cache the next
/// run takes, the directory and the device are left as they were.
fn tune_cache_unusable(_gpu: &GpuDevice) -> Result<(), String> {
    let bin = fibril_binary()?;
    let dir = std::env::temp_dir().join(format!("fibril-gpu-tune-unusable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("a-directory")).map_err(|e| e.to_string())?;
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, b"\x00\xffnot json at all{{{").map_err(|e| e.to_string())?;
    let bench = |cache: &std::path::Path| -> Result<String, String> {
        let o = std::process::Command::new(&bin)
            .args(["bench", "--backend", "gpu", "--model", "karma", "--precision", "f32", "--size", "48"])
            .args(["--steps", "100", "--warmup", "10", "--repeats", "1", "--kernel", "tune"])
            .env("FIBRIL_TUNE_CACHE", cache)
            .output()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        match o.status.success() {
            true => Ok(stderr),
            false => {
                Err(format!("fibril bench with FIBRIL_TUNE_CACHE={} failed:\n{stderr}", cache.display()))
            }
        }
    };
    let timed = "--kernel tune timed";
    for (cache, said) in [
        (dir.join("a-directory"), "not a regular file"),
        (std::path::PathBuf::from("/dev/zero"), "not a regular file"),
        (garbage.clone(), "not a cache fibril wrote"),
    ] {
        let err = bench(&cache)?;
        if !err.contains(said) || !err.contains(timed) {
            return Err(format!(
                "FIBRIL_TUNE_CACHE={}: expected {said:?} and a timing:\n{err}",
                cache.display()
            ));
        }
    }
    if !dir.join("a-directory").is_dir() {
        return Err("the directory named as the cache was written over".into());
    }
    let again = bench(&garbage)?;
    if again.contains(timed) {
        return Err(format!("the replaced garbage file did not serve the next run:\n{again}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn main() -> ExitCode {
    gpu_checks::run_checks("GPU checks", CHECKS)
}
