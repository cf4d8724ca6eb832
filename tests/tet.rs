//! The tetrahedral mesh against the grid on the CPU: on a box cut into
//! tetrahedra (Kuhn), P1 with lumped mass is the 7-point stencil at the
//! interior nodes (and close to it, with mirrored faces, at the boundary),
//! so a planar wave must cross it as on the grid; a wave
//! along the fibres goes as on the grid with the fibres' diffusivity, and
//! across them slower.

use std::sync::Arc;

use fibril_host::backend::CpuSolver;
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::events::{EventStart, Events};
use fibril_host::solver::Solver;
use fibril_host::tet::regions::{NodeSelection, stimulus_on};
use fibril_host::tet::{Diffusivity, NodeOrder, TetCpuSolver, TetMesh, TetProblem};
use fibril_host::{CellModel, Domain, GridDims, ModelSetup, State};
use kernels_gpu::models::aliev_panfilov::AlievPanfilov;

const H: f64 = 0.5;
const DT: f64 = 0.02;
const D: f64 = 1.0;

fn setup() -> ModelSetup {
    ModelSetup::new(AlievPanfilov::INFO.name, None, &[]).unwrap()
}

/// The model's excited value held for one time unit from t = 0 (a
/// single plane excited once is too small a source for the wave).
fn excitation() -> StimulusSpec {
    let mut spec = StimulusSpec::new(RegionKind::Box, 0.0);
    spec.duration_ms = 1.0;
    spec
}

fn recording() -> Recording {
    Recording { up: AlievPanfilov::INFO.activation_threshold, down: None, beats: None }
}

/// Activation times of the nodes of `mesh` (in the file's order) after
/// `steps`, the first three planes of nodes (x <= 2 H) held excited for
/// one time unit from t = 0.
fn mesh_activation(mesh: &TetMesh, d: Diffusivity, steps: u64) -> Vec<f32> {
    let problem = Arc::new(TetProblem::new(mesh, NodeOrder::ReverseCuthillMcKee, &|_| Some(d)).unwrap());
    problem.check_dt(DT).unwrap();
    let line = problem.line();
    let domain = Domain::with_own_operator(line, H, DT, D, setup()).unwrap();
    let start = State::<f64>::rest(AlievPanfilov::INFO, line);
    let face = NodeSelection::BoxMm { lo: [-1.0; 3], hi: [2.5 * H, 1e9, 1e9] };
    let mask = face.mask(&problem.mesh, &problem.renumbering.new_of_old).unwrap();
    let stimuli = vec![
        stimulus_on(&StimulusSpec::new(RegionKind::Box, 0.0), 1, mask, DT, AlievPanfilov::INFO).unwrap(),
    ];
    let events = Events { stimuli: StimulusSchedule { stimuli }, recording: Some(recording()) };
    let mut solver = TetCpuSolver::<AlievPanfilov, f64>::new(&domain, &problem, &start);
    solver
        .set_events(&events, EventStart::NEW, Some(&Maps::at_start(recording(), line, start.slice(0), 0.0)))
        .unwrap();
    solver.advance(steps).unwrap();
    let maps = solver.maps().unwrap().unwrap();
    problem.renumbering.to_file_order(&maps.activation)
}

/// The same on the grid of the mesh's nodes (x fastest, as the Kuhn box
/// numbers them), the slices x <= 2 excited.
fn grid_activation(n: [usize; 3], steps: u64) -> Vec<f32> {
    let dims = GridDims::new(n[0] as u32, n[1] as u32, n[2] as u32);
    let domain = Domain::new(dims, H, DT, D, setup()).unwrap();
    let start = State::<f64>::rest(AlievPanfilov::INFO, dims);
    let mut spec = excitation();
    spec.x = Some([0, 2]);
    let stimuli = StimulusSchedule::compile(&[spec], dims, DT, AlievPanfilov::INFO).unwrap();
    let events = Events { stimuli, recording: Some(recording()) };
    let mut solver = CpuSolver::<AlievPanfilov, f64>::new(&domain, &start);
    solver
        .set_events(&events, EventStart::NEW, Some(&Maps::at_start(recording(), dims, start.slice(0), 0.0)))
        .unwrap();
    solver.advance(steps).unwrap();
    solver.maps().unwrap().unwrap().activation
}

/// The time a wave takes from node x = a to x = b on the edge y = z = 0
/// (the first nodes of a Kuhn box, x fastest).
fn crossing(activation: &[f32], a: usize, b: usize) -> f64 {
    (activation[b] - activation[a]) as f64
}

#[test]
fn a_planar_wave_crosses_a_kuhn_box_as_it_crosses_the_grid() {
    let n = [40, 3, 3];
    let steps = 1500;
    let mesh = mesh_activation(&TetMesh::kuhn_box(n, H), Diffusivity::isotropic(D), steps);
    let grid = grid_activation(n, steps);
    let (tm, tg) = (crossing(&mesh, 5, 35), crossing(&grid, 5, 35));
    assert!(tg.is_finite() && tg > 0.0, "the wave crossed the grid: {tg}");
    assert!((tm - tg).abs() < 0.005 * tg, "crossing {tm} ms on the mesh against {tg} ms on the grid");
    // Every node of this thin slab is a boundary node, where the Kuhn
    // triangulation's lumped rows differ a little from the mirrored
    // stencil (measured: 0.17 ms at most, against a crossing of 11 ms).
    let worst = mesh.iter().zip(&grid).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(f64::from(worst) < 0.03 * tg, "activation times differ by up to {worst} ms (crossing {tg} ms)");
}

#[test]
fn a_wave_across_the_fibres_is_slower_and_along_them_as_fast_as_on_the_grid() {
    let steps = 1500;
    let along = Diffusivity::transverse(D, D / 4.0);
    let mut x_mesh = TetMesh::kuhn_box([40, 3, 3], H);
    x_mesh.fibres = Some(vec![[1.0, 0.0, 0.0]; x_mesh.elements()]);
    let x = mesh_activation(&x_mesh, along, steps);
    // The fibres along y: the wave runs across them.
    let mut slow_mesh = TetMesh::kuhn_box([40, 3, 3], H);
    slow_mesh.fibres = Some(vec![[0.0, 1.0, 0.0]; slow_mesh.elements()]);
    let slow = mesh_activation(&slow_mesh, along, steps);
    let (t_fast, t_slow) = (crossing(&x, 5, 35), crossing(&slow, 5, 35));
    assert!(t_slow > 1.5 * t_fast, "across the fibres {t_slow} ms, along them {t_fast} ms");
    let grid = grid_activation([40, 3, 3], steps);
    let t_grid = crossing(&grid, 5, 35);
    assert!((t_fast - t_grid).abs() < 0.03 * t_grid, "along the fibres {t_fast} ms, grid with D {t_grid} ms");
}
