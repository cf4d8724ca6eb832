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
use fibril_host::tet::ecg::LeadFields;
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
/// numbers them) with diffusion `d`, the slices x <= 2 excited.
fn grid_activation(n: [usize; 3], steps: u64, d: f64) -> Vec<f32> {
    let dims = GridDims::new(n[0] as u32, n[1] as u32, n[2] as u32);
    let domain = Domain::new(dims, H, DT, d, setup()).unwrap();
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
    let grid = grid_activation(n, steps, D);
    let (tm, tg) = (crossing(&mesh, 5, 35), crossing(&grid, 5, 35));
    println!("crossing isotropic: mesh {tm} grid {tg}");
    assert!(tg.is_finite() && tg > 0.0, "the wave crossed the grid: {tg}");
    assert!((tm - tg).abs() < 0.005 * tg, "crossing {tm} ms on the mesh against {tg} ms on the grid");
    // Every node of this thin slab is a boundary node, where the Kuhn
    // triangulation's lumped rows differ a little from the mirrored
    // stencil (measured: 0.17 ms at most, against a crossing of 11 ms).
    let worst = mesh.iter().zip(&grid).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(f64::from(worst) < 0.03 * tg, "activation times differ by up to {worst} ms (crossing {tg} ms)");
}

#[test]
fn a_wave_along_and_across_the_fibres_goes_as_on_the_grid_with_their_diffusivities() {
    let steps = 3000;
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
    let t_grid = crossing(&grid_activation([40, 3, 3], steps, D), 5, 35);
    assert!((t_fast - t_grid).abs() < 0.03 * t_grid, "along the fibres {t_fast} ms, grid with D {t_grid} ms");
    let t_grid_across = crossing(&grid_activation([40, 3, 3], steps, D / 4.0), 5, 35);
    assert!(t_grid_across.is_finite(), "the wave crossed the grid with D/4");
    println!("crossing along: mesh {t_fast} grid {t_grid}; across: mesh {t_slow} grid(D/4) {t_grid_across}");
    assert!(
        (t_slow - t_grid_across).abs() < 0.03 * t_grid_across,
        "across the fibres {t_slow} ms, grid with D/4 {t_grid_across} ms"
    );
}

/// `fibril run --mesh` on an openCARP mesh: the node fields as `.vtu`
/// with `nodes.pvd` and as npy, the activation map, all in the file's
/// node order (the solvers hold the nodes renumbered), read back by
/// fibril's own readers; the final state equals a run of the library's
/// [`SimulationBuilder`] put in the file's order.
#[test]
fn a_mesh_run_writes_node_fields_and_maps_in_the_files_order() {
    use fibril_host::io::npy;
    use fibril_host::simulation::SimulationBuilder;
    use fibril_host::tet::{ReadOptions, read_mesh};
    let dir = std::env::temp_dir().join(format!("fibril-tet-mesh-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let stimulus =
        "{region = \"mask\", file = \"tests/data/meshes/two_boxes.vtx\", duration_ms = 1.0, current = 60.0}";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fibril"))
        .args([
            "run",
            "--mesh",
            "tests/data/meshes/two_boxes.pts",
            "--model",
            "luo_rudy_1991",
            "--dt",
            "0.01",
        ])
        .args(["--duration-ms", "3", "--snapshot-every-ms", "1", "--activation-map", "--format", "vtu,npy"])
        .args(["--backend", "cpu", "--precision", "f64", "-q", "--stimulus", stimulus, "--out"])
        .arg(&dir)
        .args(["--electrode", "{name = \"far\", position = [40, 30, 20]}", "--ecg-every-ms", "0.5"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pvd = std::fs::read_to_string(dir.join("nodes.pvd")).unwrap();
    assert_eq!(pvd.matches("<DataSet").count(), 4, "snapshots at 0, 1, 2 and 3 ms:\n{pvd}");
    // The last snapshot read back as a mesh: the file's points, in order.
    let file_mesh =
        read_mesh(std::path::Path::new("tests/data/meshes/two_boxes.pts"), &ReadOptions::default()).unwrap();
    let written = read_mesh(&dir.join("nodes_000003.vtu"), &ReadOptions::default()).unwrap();
    assert_eq!(written.points_mm, file_mesh.points_mm);
    assert_eq!(written.tets, file_mesh.tets);
    let v = npy::read(&dir.join("V_000003.npy")).unwrap();
    assert_eq!(v.shape, [file_mesh.nodes()]);
    // The same run through the library, reordered to the file's nodes.
    let problem = Arc::new(
        TetProblem::new(&file_mesh, NodeOrder::ReverseCuthillMcKee, &|_| {
            Some(Diffusivity::isotropic(LuoRudyDefaultD::D))
        })
        .unwrap(),
    );
    let mut spec = StimulusSpec::new(RegionKind::Mask, 0.0);
    (spec.duration_ms, spec.current) = (1.0, Some(60.0));
    let nodes =
        fibril_host::tet::read::carp::read_vtx(std::path::Path::new("tests/data/meshes/two_boxes.vtx"));
    let mut sim = SimulationBuilder::new("luo_rudy_1991")
        .tet_mesh(problem.clone())
        .dt_ms(0.01)
        .node_stimulus(spec, NodeSelection::Nodes(nodes.unwrap()))
        .build::<f64>()
        .unwrap();
    sim.run_for_ms(3.0).unwrap();
    let state = sim.state().unwrap();
    let want = problem.renumbering.to_file_order(state.slice(0));
    assert_eq!(v.values, want, "the npy snapshot is the library's state in the file's order");
    assert!(want.iter().any(|&x| x > 0.0), "the stimulated nodes are excited");
    // The pseudo-ECG: a row per 0.5 ms, the last the lead field's sum
    // over the library's final state.
    let ecg = std::fs::read_to_string(dir.join("ecg.csv")).unwrap();
    let rows: Vec<&str> = ecg.lines().collect();
    assert_eq!(rows[0], "t_ms,far");
    assert_eq!(rows.len(), 1 + 7, "samples at 0, 0.5, ..., 3 ms:\n{ecg}");
    let last: f64 = rows[7].split(',').nth(1).unwrap().parse().unwrap();
    let want = LeadFields::new(&problem.mesh, &[[40.0, 30.0, 20.0]]).sample(state.slice(0))[0];
    assert!(
        want.abs() > 0.0 && (last - want).abs() <= 1e-9 * want.abs(),
        "ecg.csv {last}, lead field {want}"
    );
    let activation = npy::read(&dir.join("activation.npy")).unwrap();
    assert_eq!(activation.shape, [file_mesh.nodes()]);
    for node in [0usize, 1, 2] {
        let t = activation.values[node];
        assert!(t > 0.0 && t < 2.0, "stimulated node {node} activated at {t} ms");
    }
    let maps = read_mesh(&dir.join("activation.vtu"), &ReadOptions::default()).unwrap();
    assert_eq!(maps.points_mm, file_mesh.points_mm);
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["mesh"]["nodes"], 78);
    assert_eq!(summary["steps"], 300);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The usual diffusion coefficient of Luo-Rudy I (what a mesh run
/// without conductivities uses).
struct LuoRudyDefaultD;
impl LuoRudyDefaultD {
    const D: f64 = kernels_gpu::models::luo_rudy_1991::LuoRudy1991::INFO.numerics.diffusion;
}

/// What a mesh cannot do is refused before any work, naming the fix.
#[test]
fn a_mesh_run_refuses_what_a_mesh_has_no_meaning_for() {
    let mesh = "tests/data/meshes/two_boxes.pts";
    let never = std::env::temp_dir().join(format!("fibril-tet-refused-{}", std::process::id()));
    let refused = |extra: &[&str], needles: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fibril"))
            .args(["run", "--mesh", mesh, "--backend", "cpu", "--out"])
            .arg(&never)
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{extra:?} should be refused");
        for n in needles {
            assert!(stderr.contains(n), "{extra:?}: {stderr}");
        }
    };
    refused(&["--format", "png"], &["png is for grids", "vtu"]);
    refused(&["--protocol", "scroll"], &["not available on a tetrahedral mesh"]);
    refused(&["--tips-every-ms", "1"], &["tip tracking"]);
    refused(&["--ecg-every-ms", "1", "--dt", "0.01"], &["needs at least one electrode"]);
    refused(&["--size", "32"], &["--size", "drop it"]);
    refused(&["--stimulus", "{region = \"box\", x = [0, 1]}"], &["stimulus 1", "sphere", ".vtx"]);
    refused(&["--dt", "5"], &["stability limit", "node"]);
    assert!(!never.exists(), "a refused run leaves no output directory");
}

/// A mesh's stimuli from the command line: a box in mm and the nodes of a
/// region label each excite what they select (and only a box's nodes are
/// excited at once).
#[test]
fn a_mesh_run_takes_boxes_in_mm_and_region_labels() {
    use fibril_host::io::npy;
    let dir = std::env::temp_dir().join(format!("fibril-tet-mesh-kinds-{}", std::process::id()));
    for (name, stimulus) in [
        (
            "box",
            "{region = \"box\", lo_mm = [-1, -1, -1], hi_mm = [0.1, 2, 2], duration_ms = 1.0, current = 100.0}",
        ),
        ("label", "{region = \"mask\", label = 9, duration_ms = 1.0, current = 100.0}"),
    ] {
        let out_dir = dir.join(name);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fibril"))
            .args(["run", "--mesh", "tests/data/meshes/two_boxes.pts", "--model", "luo_rudy_1991"])
            .args(["--dt", "0.01", "--duration-ms", "1.5", "--activation-map", "--backend", "cpu", "-q"])
            .args(["--stimulus", stimulus, "--out"])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let activation = npy::read(&out_dir.join("activation.npy")).unwrap().values;
        let activated = activation.iter().filter(|t| t.is_finite()).count();
        assert!(
            activated > 0 && activated < activation.len(),
            "{name}: {activated} of {} nodes",
            activation.len()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A mesh run checkpointed halfway and resumed ends as the run in one go,
/// bit for bit: the snapshots, the maps and the pseudo-ECG; a checkpoint
/// of another mesh is refused.
#[test]
fn a_mesh_run_resumes_from_its_checkpoint_as_if_never_stopped() {
    use fibril_host::io::npy;
    let base = std::env::temp_dir().join(format!("fibril-tet-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let stimulus =
        "{region = \"mask\", file = \"tests/data/meshes/two_boxes.vtx\", duration_ms = 1.0, current = 60.0}";
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fibril"))
            .args(["run", "--mesh", "tests/data/meshes/two_boxes.pts", "--model", "luo_rudy_1991"])
            .args(["--dt", "0.01", "--snapshot-every-ms", "1", "--activation-map", "--format", "npy"])
            .args(["--backend", "cpu", "-q", "--stimulus", stimulus])
            .args(["--electrode", "{name = \"far\", position = [40, 30, 20]}", "--ecg-every-ms", "0.5"])
            .args(extra)
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (whole, halves) = (base.join("whole"), base.join("halves"));
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let (ok, err) = run(&["--duration-ms", "4", "--out", &path(&whole)]);
    assert!(ok, "{err}");
    let (ok, err) = run(&["--duration-ms", "2", "--checkpoint-every-ms", "1", "--out", &path(&halves)]);
    assert!(ok, "{err}");
    let checkpoint = path(&halves.join("checkpoint.fibril"));
    let (ok, err) = run(&["--duration-ms", "4", "--resume", &checkpoint]);
    assert!(ok, "{err}");
    for file in ["V_000004.npy", "activation.npy"] {
        let (a, b) = (npy::read(&whole.join(file)).unwrap(), npy::read(&halves.join(file)).unwrap());
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.values), bits(&b.values), "{file}");
    }
    let ecg = |dir: &std::path::Path| std::fs::read_to_string(dir.join("ecg.csv")).unwrap();
    assert_eq!(ecg(&whole), ecg(&halves));
    assert_eq!(ecg(&whole).lines().count(), 1 + 9);
    // The same nodes in another order (the file's, not the default) are
    // another operator: refused, naming the fix.
    let mesh = std::env::current_dir().unwrap().join("tests/data/meshes/two_boxes.pts");
    let toml = base.join("file-order.toml");
    std::fs::write(&toml, format!("[mesh]\nfile = {:?}\nnode_order = \"file\"\n", path(&mesh))).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fibril"))
        .arg("run")
        .arg(&toml)
        .args(["--model", "luo_rudy_1991", "--dt", "0.01", "--duration-ms", "4", "--backend", "cpu", "-q"])
        .args(["--resume", &checkpoint, "--out", &path(&base.join("refused"))])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("[mesh]"), "{stderr}");
    assert!(!base.join("refused").exists());
    std::fs::remove_dir_all(&base).unwrap();
}

/// Parameters by region and per node on a mesh, from a run file: I_K
/// raised by half in the nodes of tag 9 (the right box) changes the run,
/// which is the library's run with the same map bit for bit and records
/// its two sets; a `.dat` field equal to the region's value at each node
/// gives the region's bits; what cannot be read is refused by name.
#[test]
fn a_mesh_run_takes_parameters_by_region_and_per_node() {
    use fibril_host::cell_params::{ParameterMap, RegionParameters, node_labels};
    use fibril_host::io::npy;
    use fibril_host::simulation::SimulationBuilder;
    use fibril_host::tet::{ReadOptions, read_mesh};
    let dir = std::env::temp_dir().join(format!("fibril-tet-params-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mesh_path = std::path::Path::new("tests/data/meshes/two_boxes.pts");
    let mesh_file = std::fs::canonicalize(mesh_path).unwrap();
    let stimulus = "{region = \"mask\", label = 7, duration_ms = 1.0, current = 60.0}";
    let run = |name: &str, extra: &str| {
        let config = dir.join(format!("{name}.toml"));
        let text = format!(
            "[model]\nname = \"luo_rudy_1991\"\n[grid]\ndt = 0.01\n[mesh]\nfile = {:?}\n{extra}",
            mesh_file.to_str().unwrap()
        );
        std::fs::write(&config, text).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fibril"))
            .arg("run")
            .arg(&config)
            .args(["--duration-ms", "10", "--snapshot-every-ms", "10", "--format", "npy"])
            .args(["--backend", "cpu", "--precision", "f64", "-q", "--stimulus", stimulus, "--out"])
            .arg(dir.join(name))
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let v = |name: &str| npy::read(&dir.join(name).join("V_000001.npy")).unwrap().values;
    let region = "[[mesh.region]]\nlabel = 9\nparameters = { g_k = 0.423 }\n";
    for (name, extra) in [("uniform", ""), ("region", region)] {
        let (ok, stderr) = run(name, extra);
        assert!(ok, "{name}: {stderr}");
    }
    assert_ne!(v("uniform"), v("region"), "I_K raised in a region changes the run");
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("region/summary.json")).unwrap()).unwrap();
    let sets = &summary["domain"]["parameter_sets"];
    assert_eq!((sets["sets"].as_u64(), sets["varying"][0].as_str()), (Some(2), Some("g_k")), "{sets}");

    // The library with the same map, in the file's node order.
    let mesh = read_mesh(mesh_path, &ReadOptions::default()).unwrap();
    let problem = Arc::new(
        TetProblem::new(&mesh, NodeOrder::ReverseCuthillMcKee, &|_| {
            Some(Diffusivity::isotropic(LuoRudyDefaultD::D))
        })
        .unwrap(),
    );
    let region_9 = RegionParameters { label: 9, preset: None, values: vec![("g_k".into(), 0.423)] };
    let mut spec = StimulusSpec::new(RegionKind::Mask, 0.0);
    (spec.duration_ms, spec.current) = (1.0, Some(60.0));
    let mut sim = SimulationBuilder::new("luo_rudy_1991")
        .tet_mesh(problem.clone())
        .dt_ms(0.01)
        .cell_parameters(ParameterMap { regions: vec![region_9], fields: vec![] })
        .node_stimulus(spec, NodeSelection::Label(7))
        .build::<f64>()
        .unwrap();
    sim.run_for_ms(10.0).unwrap();
    let library = problem.renumbering.to_file_order(sim.state().unwrap().slice(0));
    assert_eq!(v("region"), library, "the run file's regions are the library's");

    // The same values as a field of one value per node (the largest tag
    // of a node's elements is its region).
    let labels = node_labels(&mesh).unwrap();
    assert!(labels.contains(&7) && labels.contains(&9));
    let values: Vec<String> =
        labels.iter().map(|&l| if l == 9 { "0.423" } else { "0.282" }.to_string()).collect();
    std::fs::write(dir.join("g_k.dat"), values.join("\n")).unwrap();
    let (ok, stderr) = run("field", "[mesh.parameter_fields]\ng_k = \"g_k.dat\"\n");
    assert!(ok, "field: {stderr}");
    assert_eq!(v("field"), v("region"), "a field equal to the region's values gives its bits");

    // Refusals, before any output.
    std::fs::write(dir.join("short.dat"), "0.3\n0.3\n").unwrap();
    for (name, extra, needle) in [
        ("unknown", "[mesh.parameter_fields]\ng_kr = \"g_k.dat\"\n", "has no parameter \"g_kr\""),
        ("short", "[mesh.parameter_fields]\ng_k = \"short.dat\"\n", "2 values, the mesh has 78 nodes"),
        ("tag", "[[mesh.region]]\nlabel = 300\npreset = \"x\"\n", "takes a label 0 to 255"),
        ("preset", "[[mesh.region]]\nlabel = 9\npreset = \"m\"\n", "preset"),
        ("range", "[[mesh.region]]\nlabel = 9\nparameters = { g_k = -1.0 }\n", "g_k"),
        ("sigma", "[[mesh.region]]\nlabel = 9\nsigma_t = 0.1\n", "give sigma_l with sigma_t"),
    ] {
        let (ok, stderr) = run(name, extra);
        assert!(!ok && stderr.contains(needle), "{name}: {stderr}");
        assert!(!dir.join(name).exists(), "{name}: a refused run leaves no output");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
