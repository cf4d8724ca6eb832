//! GPU checks of the tetrahedral mesh: the node kernel against the CPU's
//! reference, bit for bit, for every model in f32 and f64, with stimuli
//! and maps. Without a CUDA device each check prints "skipped: no CUDA
//! device" (no libtest harness, so a skip never reads as a pass).

use std::process::ExitCode;
use std::sync::Arc;

use fibril_host::backend::GpuDevice;
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::events::{EventStart, Events};
use fibril_host::models::MODELS;
use fibril_host::solver::Solver;
use fibril_host::tet::regions::{NodeSelection, stimulus_on};
use fibril_host::tet::{Diffusivity, NodeOrder, TetCpuSolver, TetGpuSolver, TetMesh, TetProblem};
use fibril_host::{CellModel, Domain, ModelSetup, ModelVisitor, Precision, Scalar, State, dispatch};

#[path = "common/gpu_checks.rs"]
mod gpu_checks;

use gpu_checks::{Check, verdict};

const CHECKS: &[(&str, Check)] =
    &[("tet_every_model_f32_f64_with_stimuli_and_maps_bit_identical_to_cpu", tet_every_model)];

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

struct TetCheck<'a> {
    gpu: &'a GpuDevice,
}

impl ModelVisitor for TetCheck<'_> {
    type Output = Result<(), String>;
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let num = M::INFO.numerics;
        let mesh = irregular_mesh([18, 11, 7], num.dx);
        let d = num.diffusion;
        let diffusivity = |_| Some(Diffusivity::transverse(d, d / 4.0));
        let problem = Arc::new(
            TetProblem::new(&mesh, NodeOrder::ReverseCuthillMcKee, &diffusivity)
                .map_err(|e| e.to_string())?,
        );
        let dt = num.dt.min(0.9 * problem.op.dt_max);
        let line = problem.line();
        let setup = ModelSetup::new(M::INFO.name, None, &[]).map_err(|e| e.to_string())?;
        let domain = Domain::with_own_operator(line, problem.mean_edge_mm(), dt, d, setup)
            .map_err(|e| e.to_string())?;
        let start = State::<T>::rest(M::INFO, line);
        // A ball at a corner excited, and a current on a list of nodes.
        let ball = NodeSelection::SphereMm { center_mm: [0.0; 3], radius_mm: 3.0 * num.dx };
        // The model's own stimulus (a value, or for the ionic models their
        // current for their own duration), at the start.
        let paced = StimulusSpec::new(RegionKind::Box, 0.0);
        let listed = NodeSelection::Nodes((0..40).map(|i| i * 7).collect());
        let mut current = StimulusSpec::new(RegionKind::Box, 50.0 * dt);
        current.current = Some(M::INFO.stimulus_value.abs().max(1.0) / (20.0 * dt));
        current.duration_ms = 3.0 * dt;
        let ids = &problem.renumbering.new_of_old;
        let stimuli = vec![
            stimulus_on(&paced, 1, ball.mask(&problem.mesh, ids).map_err(|e| e.to_string())?, dt, M::INFO)
                .map_err(|e| e.to_string())?,
            stimulus_on(
                &current,
                2,
                listed.mask(&problem.mesh, ids).map_err(|e| e.to_string())?,
                dt,
                M::INFO,
            )
            .map_err(|e| e.to_string())?,
        ];
        let recording = Recording { up: M::INFO.activation_threshold, down: None, beats: Some(2) };
        let events = Events { stimuli: StimulusSchedule { stimuli }, recording: Some(recording) };
        let maps = Maps::at_start(recording, line, start.slice(0), 0.0);
        let what =
            format!("{} {} on {} nodes (width {})", M::INFO.name, T::NAME, problem.nodes(), problem.op.width);
        let mut cpu = TetCpuSolver::<M, T>::new(&domain, &problem, &start);
        let mut gpu = TetGpuSolver::<M, T>::new(self.gpu, fibril::PTX, &domain, &problem, &start)
            .map_err(|e| format!("{what}: {e}"))?;
        for s in [&mut cpu as &mut dyn Solver<T>, &mut gpu] {
            s.set_events(&events, EventStart::NEW, Some(&maps)).map_err(|e| format!("{what}: {e}"))?;
            s.advance(400).map_err(|e| format!("{what}: {e}"))?;
        }
        let (want, got) = (cpu.state().map_err(|e| e.to_string())?, gpu.state().map_err(|e| e.to_string())?);
        if want.slice(0) == start.slice(0) {
            return Err(format!("{what}: the state did not change"));
        }
        for k in 0..want.len() {
            let (a, b) = (want.slice(k), got.slice(k));
            if let Some(i) = (0..a.len()).find(|&i| a[i].to_f64().to_bits() != b[i].to_f64().to_bits()) {
                return Err(format!(
                    "{what}: variable {k} differs at node {i}: cpu {:?}, gpu {:?}",
                    a[i], b[i]
                ));
            }
        }
        let (mc, mg) = (cpu.maps().map_err(|e| e.to_string())?, gpu.maps().map_err(|e| e.to_string())?);
        let (mc, mg) = (mc.ok_or("no CPU maps")?, mg.ok_or("no GPU maps")?);
        // Bit for bit (NaN, not yet activated, equals itself here).
        let bits = |m: &Maps| m.activation.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
        if bits(&mc) != bits(&mg) || mc.count != mg.count {
            return Err(format!("{what}: the maps differ"));
        }
        let activated = mc.activated();
        if activated == 0 {
            return Err(format!("{what}: no node activated"));
        }
        Ok(())
    }
}

fn tet_every_model(gpu: &GpuDevice) -> Result<(), String> {
    let mut failures = Vec::new();
    for m in MODELS {
        for precision in [Precision::F32, Precision::F64] {
            if let Err(e) = dispatch(m, precision, TetCheck { gpu }) {
                failures.push(e);
            }
        }
    }
    verdict(failures, || {
        format!("{} models x 2 precisions, 400 steps with an excited ball, a current and maps", MODELS.len())
    })
}

fn main() -> ExitCode {
    gpu_checks::run_checks("GPU checks of the tetrahedral mesh", CHECKS)
}
