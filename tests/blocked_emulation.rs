//! The blocked kernel (k steps per pass) run on the CPU by its emulator,
//! against k single steps of the CPU reference, bit for bit.
//!
//! `kernels_gpu::blocked::emulate` runs the very iteration functions the
//! GPU kernel runs, block after block and thread after thread, with a
//! block's barrier at the end of each loop over its threads and its shared
//! memory filled with NaN (a read of anything no iteration wrote would
//! spread NaN into the field). Where this file says "bit-identical" it compares every
//! variable of every cell by its bits. The GPU itself is compared in
//! `tests/gpu_vs_cpu.rs` (`every_model_blocked_...`).

#[path = "common/mod.rs"]
mod common;

use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::{EventStart, Events};
use fibril_host::init::InitialCondition;
use fibril_host::models::MODELS;
use fibril_host::{CellModel, Domain, GridDims, ModelVisitor, Precision, Scalar, State, dispatch};
use kernels_gpu::ZWindow;
use kernels_gpu::blocked::{Forwards, MAX_STEPS_PER_PASS, Pass, ThreadOrder, block_for_tile, emulate};
use kernels_gpu::events::Recorder;
use kernels_gpu::models::Karma;
use rayon::prelude::*;

/// Where the emulated run stands: U and the locals (variable after
/// variable), as the GPU holds them.
struct Fields<T> {
    u: Vec<T>,
    local: Vec<T>,
}

impl<T: Scalar> Fields<T> {
    fn of(state: &State<T>) -> Self {
        Self {
            u: state.slice(0).to_vec(),
            local: (1..state.len()).flat_map(|k| state.slice(k).to_vec()).collect(),
        }
    }

    fn state(&self, model: &'static kernels_gpu::ModelInfo, dims: GridDims) -> State<T> {
        let cells = dims.cells();
        let mut vars = vec![self.u.clone()];
        vars.extend(self.local.chunks_exact(cells.max(1)).map(<[T]>::to_vec));
        vars.truncate(model.variables.len());
        State::from_vecs(model, dims, vars)
    }
}

/// How a test runs the emulated kernel.
#[derive(Clone, Copy)]
struct Plan {
    steps_per_pass: u32,
    passes: u32,
    /// The cells a block writes (its threads: the tile grown by k on each side).
    tile: (u32, u32),
    z_chunk: u32,
    order: ThreadOrder,
}

/// `plan.passes` emulated passes from `start` (the recorder `rec`, off or
/// over host maps, stamps step s at s dt).
fn emulate_passes<M: CellModel, T: Scalar>(
    d: &Domain,
    start: &State<T>,
    plan: Plan,
    rec: Recorder<T>,
) -> State<T> {
    let g = d.dims();
    let mut now = Fields::of(start);
    let mut next = Fields { u: vec![T::ZERO; now.u.len()], local: vec![T::ZERO; now.local.len()] };
    let (step, coeffs) = (d.step_coeffs::<T>(), d.model_coeffs::<M, T>());
    for n in 0..plan.passes {
        let pass = Pass {
            steps: plan.steps_per_pass,
            z_chunk: plan.z_chunk,
            first_step: (n * plan.steps_per_pass) as u64,
            forwards: Forwards::NONE,
        };
        emulate::<M, T>(
            &now.u,
            &mut next.u,
            &now.local,
            &mut next.local,
            g,
            block_for_tile(plan.tile, plan.steps_per_pass),
            ZWindow::all(g.nz),
            pass,
            &step,
            &coeffs,
            &rec,
            plan.order,
        );
        std::mem::swap(&mut now, &mut next);
    }
    now.state(M::INFO, g)
}

/// The first cell whose bits differ in some variable, named.
fn bit_identical<T: Scalar>(got: &State<T>, want: &State<T>) -> Result<(), String> {
    for k in 0..want.len() {
        let (a, b) = (got.slice(k), want.slice(k));
        if let Some(i) = (0..a.len()).find(|&i| a[i].to_f64().to_bits() != b[i].to_f64().to_bits()) {
            let n = (0..a.len()).filter(|&i| a[i].to_f64().to_bits() != b[i].to_f64().to_bits()).count();
            return Err(format!("variable {k}: {n} cells differ; first cell {i}: {:?} vs {:?}", a[i], b[i]));
        }
    }
    Ok(())
}

/// The model's planar start, the slab raised to the excited value for the
/// models stimulated by a current (so that a wave propagates).
fn wave_start<M: CellModel, T: Scalar>(dims: GridDims) -> State<T> {
    let mut start = InitialCondition::Planar.state::<T>(M::INFO, dims);
    let slab = fibril_host::init::planar_stimulus_slices(dims.nz);
    let excited = T::from_f64(M::INFO.stimulus_value);
    for i in 0..dims.slice_cells() * slab as usize {
        start.slice_mut(0)[i] = excited;
    }
    start
}

struct EveryK {
    dims: GridDims,
    /// The grid of models with more than `LARGE_MODEL_VARIABLES` variables
    /// (the ionic ones, 8-67 variables at 10 to 400 times a two-variable
    /// model's cost per cell): the same tile and z-chunk, so the same
    /// partial tiles, on fewer cells.
    large_model_dims: GridDims,
    tile: (u32, u32),
    z_chunk: u32,
    /// Steps of each comparison (a multiple of 1, 2, 3 and 4).
    steps: u32,
}

impl ModelVisitor for EveryK {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let dims =
            if M::INFO.variables.len() > LARGE_MODEL_VARIABLES { self.large_model_dims } else { self.dims };
        let d = common::usual_domain(dims, common::model(M::INFO.name));
        let start = wave_start::<M, T>(dims);
        let want = common::cpu_run(&d, &start, self.steps as u64);
        // Not vacuous: the steps changed the potential beside the slab.
        let moved = (0..want.slice(0).len()).filter(|&i| want.slice(0)[i] != start.slice(0)[i]).count();
        if moved < dims.cells() / 50 {
            return Err(format!("{} {}: only {moved} cells changed", M::INFO.name, T::NAME));
        }
        for k in 1..=MAX_STEPS_PER_PASS {
            for order in [ThreadOrder::Forward, ThreadOrder::Reverse] {
                let plan = Plan {
                    steps_per_pass: k,
                    passes: self.steps / k,
                    tile: self.tile,
                    z_chunk: self.z_chunk,
                    order,
                };
                let got = emulate_passes::<M, T>(&d, &start, plan, Recorder::off());
                bit_identical(&got, &want).map_err(|e| {
                    format!("{} {} k = {k} {order:?} on {dims:?}: {e}", M::INFO.name, T::NAME)
                })?;
            }
        }
        Ok(())
    }
}

/// See [`EveryK::large_model_dims`].
const LARGE_MODEL_VARIABLES: usize = 4;

/// The models side by side: the emulator runs one thread, and most of
/// this binary's time is these checks.
fn every_model(check: impl Fn() -> EveryK + Sync) {
    let failures: Vec<String> = MODELS
        .par_iter()
        .flat_map_iter(|m| [Precision::F32, Precision::F64].map(|p| dispatch(m, p, check()).err()))
        .flatten()
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every model, f32 and f64, k = 1..4: partial tiles along x (37 = 32 +
/// 5), y (21 = 5 x 4 + 1) and z (45 = 6 x 7 + 3), 12 steps (3 to 12
/// passes); the ionic models on 37 x 9 x 10 (9 = 2 x 4 + 1, 10 = 7 + 3).
#[test]
fn every_model_every_k_bit_identical_to_single_steps_with_partial_tiles() {
    every_model(|| EveryK {
        dims: GridDims::new(37, 21, 45),
        large_model_dims: GridDims::new(37, 9, 10),
        tile: (32, 4),
        z_chunk: 7,
        steps: 12,
    });
}

/// Axes of two cells (every neighbour a mirror image), and a tile and a
/// z-chunk larger than the grid.
#[test]
fn every_model_on_tiny_grids_and_oversized_tiles() {
    for (dims, tile, z_chunk) in [
        (GridDims::new(2, 3, 2), (32, 2), 32),
        (GridDims::new(5, 2, 9), (32, 8), 1),
        (GridDims::new(11, 7, 6), (3, 2), 4),
    ] {
        every_model(|| EveryK { dims, large_model_dims: dims, tile, z_chunk, steps: 12 });
    }
}

/// A Karma wave over many passes, in f32 and f64: 600 steps with every k,
/// tiles of 5x3, 8x4 and 32x8 cells and z-chunks of 1, 13 and 40 slices.
#[test]
fn karma_wave_over_many_passes_every_k() {
    fn run<T: Scalar>() {
        let dims = GridDims::new(19, 13, 40);
        let d = common::domain(dims, "karma");
        let start = common::rich_start::<T>(dims);
        let want = common::cpu_run(&d, &start, 600);
        for k in 1..=MAX_STEPS_PER_PASS {
            // The emulator takes any tile; the GPU's blocks are whole warps
            // wide, but small tiles put many tile edges into a small grid.
            for (tile, z_chunk) in [((5, 3), 1), ((8, 4), 13), ((32, 8), 40)] {
                let plan =
                    Plan { steps_per_pass: k, passes: 600 / k, tile, z_chunk, order: ThreadOrder::Forward };
                let got = emulate_passes::<Karma, T>(&d, &start, plan, Recorder::off());
                bit_identical(&got, &want)
                    .unwrap_or_else(|e| panic!("{} k = {k} {tile:?} z{z_chunk}: {e}", T::NAME));
            }
        }
    }
    run::<f32>();
    run::<f64>();
}

/// Crossings recorded inside a pass (activation, repolarisation, the last
/// two beats of every cell) equal those of single CPU steps bit for bit.
#[test]
fn crossings_recorded_inside_passes_equal_single_steps() {
    let dims = GridDims::new(21, 10, 30);
    let d = common::domain(dims, "karma");
    let start = common::planar_start::<f32>(dims);
    let recording = Recording { up: Karma::INFO.activation_threshold, down: Some(0.5), beats: Some(2) };
    let maps = Maps::at_start(recording, dims, start.slice(0), 0.0);
    let steps = 1200;
    let mut cpu = fibril_host::backend::cpu::for_model(&d, &start);
    cpu.set_events(
        &Events { stimuli: Default::default(), recording: Some(recording) },
        EventStart::NEW,
        Some(&maps),
    )
    .unwrap();
    cpu.advance(steps).unwrap();
    let (want_state, want_maps) = (cpu.state().unwrap(), cpu.maps().unwrap().unwrap());
    let repolarised = want_maps.repolarisation.as_ref().unwrap().iter().filter(|t| !t.is_nan()).count();
    assert!(repolarised > dims.cells() / 2, "not vacuous: {repolarised} cells repolarised");
    for k in 2..=MAX_STEPS_PER_PASS {
        let mut got_maps = maps.clone();
        let addresses = [
            got_maps.activation.as_mut_ptr() as u64,
            got_maps.repolarisation.as_mut().unwrap().as_mut_ptr() as u64,
            got_maps.count.as_mut().unwrap().as_mut_ptr() as u64,
        ];
        let rec = recording.recorder::<f32>(addresses, dims.cells(), d.dt_ms());
        let plan = Plan {
            steps_per_pass: k,
            passes: (steps / k as u64) as u32,
            tile: (32, 4),
            z_chunk: 8,
            order: ThreadOrder::Forward,
        };
        let got = emulate_passes::<Karma, f32>(&d, &start, plan, rec);
        bit_identical(&got, &want_state).unwrap_or_else(|e| panic!("k = {k}: {e}"));
        assert_eq!(
            got_maps.activation.iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
            want_maps.activation.iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
            "k = {k}: activation"
        );
        assert_eq!(
            got_maps.repolarisation.as_ref().unwrap().iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
            want_maps.repolarisation.as_ref().unwrap().iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
            "k = {k}: repolarisation"
        );
        assert_eq!(got_maps.count, want_maps.count, "k = {k}: beat counts");
    }
}
