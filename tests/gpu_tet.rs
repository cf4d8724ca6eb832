//! GPU checks of the tetrahedral mesh: the node kernel against the CPU's
//! reference, bit for bit, for every model in f32 and f64, with stimuli
//! and maps. Without a CUDA device each check prints "skipped: no CUDA
//! device" (no libtest harness, so a skip never reads as a pass).

use std::process::ExitCode;
use std::sync::Arc;

use fibril_host::backend::GpuDevice;
use fibril_host::cell_params::{Cells, ParameterSets};
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::events::{EventStart, Events};
use fibril_host::models::MODELS;
use fibril_host::multi::Exchange;
use fibril_host::solver::Solver;
use fibril_host::tet::regions::{NodeSelection, stimulus_on};
use fibril_host::tet::{
    Diffusivity, NodeOrder, TetCpuSolver, TetGpuMultiSolver, TetGpuSolver, TetMesh, TetProblem,
};
use fibril_host::{CellModel, Domain, ModelSetup, ModelVisitor, Precision, Scalar, State, dispatch};

#[path = "common/mod.rs"]
mod common;
#[path = "common/gpu_checks.rs"]
mod gpu_checks;

use gpu_checks::{Check, note, verdict};

const CHECKS: &[(&str, Check)] = &[
    (
        "tet_every_model_f32_f64_with_stimuli_maps_copies_behind_and_graphs_bit_identical_to_cpu",
        tet_every_model,
    ),
    ("tet_split_over_gpus_peer_and_host_bit_identical_to_cpu", tet_split),
    ("tet_parameter_sets_every_model_f32_f64_bit_identical_to_cpu", tet_sets_every_model),
    ("tet_split_with_parameter_sets_bit_identical_to_cpu", tet_split_sets),
];

/// A box of `n` nodes `h` apart cut into tetrahedra, its inner nodes
/// moved by up to 15% of h (a fixed pattern), so that elements and node
/// degrees differ as in a real mesh; fibres along (1, 1, 0).
fn irregular_mesh(n: [usize; 3], h: f64) -> TetMesh {
    let mut mesh = TetMesh::kuhn_box(n, h);
    for (i, p) in mesh.points_mm.iter_mut().enumerate() {
        let inner = (0..3).all(|a| p[a] > 0.5 * h && p[a] < (n[a] as f64 - 1.5) * h);
        if inner {
            for (a, x) in p.iter_mut().enumerate() {
                let k = (i * 2_654_435_761 + a * 40_503) % 1000;
                *x += 0.15 * h * (k as f64 / 500.0 - 1.0);
            }
        }
    }
    let s = std::f64::consts::FRAC_1_SQRT_2;
    mesh.fibres = Some(vec![[s, s, 0.0]; mesh.elements()]);
    mesh
}

/// A mesh run's inputs for model `M`: the irregular box (fibres along
/// (1, 1, 0), D/4 across), a ball at a corner excited and a current on a
/// list of nodes, maps of two beats.
struct Setup<T> {
    problem: Arc<TetProblem>,
    domain: Domain,
    start: State<T>,
    events: Events,
    maps: Maps,
}

/// `sets`: the parameters vary over the nodes (`common::varied_parameters`:
/// another preset, and the first scalable parameter in three values).
fn setup<M: CellModel, T: Scalar>(order: NodeOrder, sets: bool) -> Result<Setup<T>, String> {
    let num = M::INFO.numerics;
    let mesh = irregular_mesh([18, 11, 7], num.dx);
    let d = num.diffusion;
    let diffusivity = |_| Some(Diffusivity::transverse(d, d / 4.0));
    let problem = Arc::new(TetProblem::new(&mesh, order, &diffusivity).map_err(|e| e.to_string())?);
    // At least 10 us: the imported models' own steps (1 and 2.5 us) would
    // not reach an activation in the 400 steps of the checks.
    let dt = num.dt.max(0.01).min(0.9 * problem.op.dt_max);
    let line = problem.line();
    let setup = ModelSetup::new(M::INFO.name, None, &[]).map_err(|e| e.to_string())?;
    let mut domain = Domain::with_own_operator(line, problem.mean_edge_mm(), dt, d, setup.clone())
        .map_err(|e| e.to_string())?;
    if sets {
        let mut labels = vec![1u8; problem.nodes()];
        let map = common::varied_parameters(M::INFO, &mut labels, line).ok_or("no parameter to vary")?;
        let sets = ParameterSets::resolve(&setup, &map, (&labels, Cells::MeshNodes), |i| i.to_string())
            .map_err(|e| e.to_string())?
            .ok_or("no parameter set")?;
        if sets.len() < 3 {
            return Err(format!("{}: only {} parameter sets", M::INFO.name, sets.len()));
        }
        domain = domain.with_parameter_sets(Arc::new(sets));
    }
    let start = State::<T>::rest(M::INFO, line);
    let ball = NodeSelection::SphereMm { center_mm: [0.0; 3], radius_mm: 3.0 * num.dx };
    // The model's own stimulus (a value, or for the ionic models their
    // current), at the start; a current with twice the charge of the
    // model's own pulse within at most 1 ms: the imported models' pulses
    // (40-45 mV of charge over up to 3 ms) neither excite a ball this
    // small against the load of the mesh around it nor leave enough
    // unstimulated steps at 10 us for the CUDA-graph part.
    let mut paced = StimulusSpec::new(RegionKind::Box, 0.0);
    if let Some(own) = M::INFO.stimulus_current {
        paced.duration_ms = own.duration.min(1.0);
        paced.current = Some(2.0 * own.amplitude * own.duration / paced.duration_ms);
    }
    let listed = NodeSelection::Nodes((0..40).map(|i| i * 7).collect());
    let mut current = StimulusSpec::new(RegionKind::Box, 50.0 * dt);
    current.current = Some(M::INFO.stimulus_value.abs().max(1.0) / (20.0 * dt));
    current.duration_ms = 3.0 * dt;
    let ids = &problem.renumbering.new_of_old;
    let on = |spec: &StimulusSpec, i: usize, nodes: &NodeSelection| {
        let mask = nodes.mask(&problem.mesh, ids).map_err(|e| e.to_string())?;
        stimulus_on(spec, i, mask, dt, M::INFO).map_err(|e| e.to_string())
    };
    let stimuli = vec![on(&paced, 1, &ball)?, on(&current, 2, &listed)?];
    let recording = Recording { up: M::INFO.activation_threshold, down: None, beats: Some(2) };
    let events = Events { stimuli: StimulusSchedule { stimuli }, recording: Some(recording) };
    let maps = Maps::at_start(recording, line, start.slice(0), 0.0);
    Ok(Setup { problem, domain, start, events, maps })
}

/// `got` equals `want` bit for bit (every variable), and the maps too.
fn same_run<T: Scalar>(what: &str, want: (&State<T>, &Maps), got: (&State<T>, &Maps)) -> Result<(), String> {
    for k in 0..want.0.len() {
        let (a, b) = (want.0.slice(k), got.0.slice(k));
        if let Some(i) = (0..a.len()).find(|&i| a[i].to_f64().to_bits() != b[i].to_f64().to_bits()) {
            return Err(format!("{what}: variable {k} differs at node {i}: cpu {:?}, gpu {:?}", a[i], b[i]));
        }
    }
    // Bit for bit (NaN, not yet activated, equals itself here).
    let bits = |m: &Maps| m.activation.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
    if bits(want.1) != bits(got.1) || want.1.count != got.1.count {
        return Err(format!("{what}: the maps differ"));
    }
    Ok(())
}

/// The CPU reference run of `s` for `steps` steps: state and maps.
fn cpu_run<M: CellModel, T: Scalar>(s: &Setup<T>, steps: u64) -> Result<(State<T>, Maps), String> {
    let mut cpu = TetCpuSolver::<M, T>::new(&s.domain, &s.problem, &s.start);
    cpu.set_events(&s.events, EventStart::NEW, Some(&s.maps)).map_err(|e| e.to_string())?;
    cpu.advance(steps).map_err(|e| e.to_string())?;
    let state = cpu.state().map_err(|e| e.to_string())?;
    if state.slice(0) == s.start.slice(0) {
        return Err(format!("{} {}: the state did not change", M::INFO.name, T::NAME));
    }
    let maps = cpu.maps().map_err(|e| e.to_string())?.ok_or("no CPU maps")?;
    if maps.activated() == 0 {
        return Err(format!("{} {}: no node activated", M::INFO.name, T::NAME));
    }
    Ok((state, maps))
}

struct TetCheck<'a> {
    gpu: &'a GpuDevice,
    sets: bool,
}

impl ModelVisitor for TetCheck<'_> {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        if self.sets && M::INFO.parameters.is_empty() {
            return Ok(());
        }
        let s = setup::<M, T>(NodeOrder::ReverseCuthillMcKee, self.sets)?;
        let (problem, steps) = (&s.problem, 400);
        let what =
            format!("{} {} on {} nodes (width {})", M::INFO.name, T::NAME, problem.nodes(), problem.op.width);
        let (want, want_maps) = cpu_run::<M, T>(&s, steps)?;
        let mut gpu = TetGpuSolver::<M, T>::new(self.gpu, fibril::PTX, &s.domain, problem, &s.start)
            .map_err(|e| format!("{what}: {e}"))?;
        gpu.set_events(&s.events, EventStart::NEW, Some(&s.maps)).map_err(|e| format!("{what}: {e}"))?;
        gpu.advance(steps).map_err(|e| format!("{what}: {e}"))?;
        let got = gpu.state().map_err(|e| e.to_string())?;
        let got_maps = gpu.maps().map_err(|e| e.to_string())?.ok_or("no GPU maps")?;
        same_run(&what, (&want, &want_maps), (&got, &got_maps))?;
        // The same state copied out behind 50 more steps (section 2.7).
        if !gpu.begin_state_copy().map_err(|e| e.to_string())? {
            return Err(format!("{what}: no copy behind the steps"));
        }
        gpu.advance(50).map_err(|e| e.to_string())?;
        let copied = gpu.collect_state().map_err(|e| e.to_string())?;
        same_run(&format!("{what}, copied behind the steps"), (&want, &want_maps), (&copied, &got_maps))?;
        // Without maps the quiet stretches between the stimuli are replayed
        // as CUDA graphs: the same state.
        let mut graphed = TetGpuSolver::<M, T>::new(self.gpu, fibril::PTX, &s.domain, problem, &s.start)
            .map_err(|e| format!("{what}: {e}"))?;
        let quiet = Events { recording: None, ..s.events.clone() };
        graphed.set_events(&quiet, EventStart::NEW, None).map_err(|e| format!("{what}: {e}"))?;
        graphed.advance(steps).map_err(|e| format!("{what}: {e}"))?;
        let replayed = graphed.graph_steps();
        if replayed < steps / 2 {
            return Err(format!("{what}: only {replayed} of {steps} steps replayed as graphs"));
        }
        let state = graphed.state().map_err(|e| e.to_string())?;
        same_run(&format!("{what}, graphs ({replayed} steps)"), (&want, &want_maps), (&state, &got_maps))
    }
}

/// The split over GPUs: parts on `ordinals`, each exchange.
struct SplitCheck<'a> {
    ordinals: &'a [usize],
    sets: bool,
}

impl ModelVisitor for SplitCheck<'_> {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let devices = self
            .ordinals
            .iter()
            .map(|&o| GpuDevice::open(o))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let steps = 400;
        for order in [NodeOrder::ReverseCuthillMcKee, NodeOrder::File] {
            let s = setup::<M, T>(order, self.sets)?;
            let (want, want_maps) = cpu_run::<M, T>(&s, steps)?;
            for exchange in [Exchange::Peer, Exchange::Host] {
                let what = format!(
                    "{} {} {order:?} order, {} parts on GPUs {:?}, {exchange:?}",
                    M::INFO.name,
                    T::NAME,
                    devices.len(),
                    self.ordinals
                );
                let mut gpu = TetGpuMultiSolver::<M, T>::new(
                    &devices,
                    fibril::PTX,
                    &s.domain,
                    &s.problem,
                    exchange,
                    &s.start,
                )
                .map_err(|e| format!("{what}: {e}"))?;
                gpu.set_events(&s.events, EventStart::NEW, Some(&s.maps))
                    .map_err(|e| format!("{what}: {e}"))?;
                // Downloads between chunks must not disturb the run.
                for chunk in [1, steps / 2 - 1, steps / 2] {
                    gpu.advance(chunk).map_err(|e| format!("{what}: {e}"))?;
                    gpu.state().map_err(|e| format!("{what}: {e}"))?;
                }
                let got = gpu.state().map_err(|e| e.to_string())?;
                let got_maps = gpu.maps().map_err(|e| e.to_string())?.ok_or("no GPU maps")?;
                same_run(&what, (&want, &want_maps), (&got, &got_maps))?;
            }
        }
        Ok(())
    }
}

/// Three models (a two-variable one, Luo-Rudy I,
/// ten Tusscher-Panfilov 2006) in f32 and f64, split into 2 and 3 parts
/// (one GPU each where there are enough, else sharing GPU 0), peer and
/// host exchange, in a locality order and in the file's order (whose
/// halos span most of the mesh), against the CPU's single domain.
fn tet_split(gpu: &GpuDevice) -> Result<(), String> {
    let count = fibril_host::backend::gpu::device_count().map_err(|e| e.to_string())?;
    if count < 3 {
        note(format!(
            "on {count} GPU(s): the parts beyond them shared GPU 0, so those halos crossed by device-local copies"
        ));
    }
    println!("    (this device: {})", gpu.info().name);
    let mut failures = Vec::new();
    for parts in [2usize, 3] {
        let ordinals: Vec<usize> = (0..parts).map(|p| if count >= parts { p } else { 0 }).collect();
        for model in ["aliev_panfilov", "luo_rudy_1991", "ten_tusscher_2006"] {
            let info = MODELS.iter().find(|m| m.name == model).ok_or(format!("no model {model}"))?;
            for precision in [Precision::F32, Precision::F64] {
                if let Err(e) = dispatch(info, precision, SplitCheck { ordinals: &ordinals, sets: false }) {
                    failures.push(e);
                }
            }
        }
    }
    verdict(failures, || "3 models x 2 precisions x 2 orders x 2 exchanges, 2 and 3 parts, 400 steps".into())
}

fn tet_every_model(gpu: &GpuDevice) -> Result<(), String> {
    let mut failures = Vec::new();
    for m in MODELS {
        for precision in [Precision::F32, Precision::F64] {
            if let Err(e) = dispatch(m, precision, TetCheck { gpu, sets: false }) {
                failures.push(e);
            }
        }
    }
    verdict(failures, || {
        format!(
            "{} models x 2 precisions, 400 steps with an excited ball, a current and maps, the state copied out \
             behind 50 more steps, and without maps as CUDA graphs",
            MODELS.len()
        )
    })
}

/// The `_sets` node kernel: every model with a parameter, f32 and f64,
/// the nodes in another preset and a parameter in three values.
fn tet_sets_every_model(gpu: &GpuDevice) -> Result<(), String> {
    let mut failures = Vec::new();
    for m in MODELS {
        for precision in [Precision::F32, Precision::F64] {
            if let Err(e) = dispatch(m, precision, TetCheck { gpu, sets: true }) {
                failures.push(e);
            }
        }
    }
    verdict(failures, || format!("{} models x 2 precisions with parameter sets, 400 steps", MODELS.len()))
}

/// The split with parameter sets: ten Tusscher-Panfilov 2006, f32 and
/// f64, 2 parts (one GPU each where there are two), against the CPU.
fn tet_split_sets(_gpu: &GpuDevice) -> Result<(), String> {
    let count = fibril_host::backend::gpu::device_count().map_err(|e| e.to_string())?;
    let ordinals: Vec<usize> = (0..2).map(|p| if count >= 2 { p } else { 0 }).collect();
    let info = MODELS.iter().find(|m| m.name == "ten_tusscher_2006").ok_or("no TP06")?;
    let mut failures = Vec::new();
    for precision in [Precision::F32, Precision::F64] {
        if let Err(e) = dispatch(info, precision, SplitCheck { ordinals: &ordinals, sets: true }) {
            failures.push(e);
        }
    }
    verdict(failures, || {
        format!("TP06 x 2 precisions x 2 orders x 2 exchanges, 2 parts on GPUs {ordinals:?}")
    })
}

fn main() -> ExitCode {
    gpu_checks::run_checks("GPU checks of the tetrahedral mesh", CHECKS)
}
