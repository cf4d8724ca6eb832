//! The library API and the command line are one engine: the same run
//! described to `fibril::simulation` and to `fibril run` gives the same
//! bits, and a run stepped frame by frame equals one run straight through.

mod common;

use common::{fibril_words, last_u, ok, s, scratch};

fn bits(v: impl IntoIterator<Item = f64>) -> Vec<u64> {
    v.into_iter().map(f64::to_bits).collect()
}

#[test]
fn the_library_and_the_command_line_give_the_same_bits() {
    // A Karma box from the planar start, and a Beeler-Reuter sheet with the
    // scroll protocol (its planar S1 is a current) and a stimulus.
    let out = scratch("library", "karma");
    ok(&fibril_words("run --backend cpu --nx 20 --ny 12 --nz 16 --steps 300 --out", &[s(&out)]));
    let mut sim = fibril::simulation("karma").grid(20, 12, 16).build::<f32>().unwrap();
    sim.advance(300).unwrap();
    let lib = sim.state().unwrap();
    assert_eq!(bits(last_u(&out)), bits(lib.slice(0).iter().map(|&x| x as f64)));
    std::fs::remove_dir_all(&out).unwrap();

    let out = scratch("library", "br");
    let stimulus = "{ region = \"box\", x = [0, 3], at_ms = 40, duration_ms = 1 }";
    ok(&fibril_words(
        "run --backend cpu --model beeler_reuter --nx 40 --ny 40 --nz 1 --protocol scroll --s2-ms 30 \
         --duration-ms 60 --precision f64",
        &["--stimulus", stimulus, "--out", s(&out)],
    ));
    let spec = fibril::cli::config::parse_stimulus(stimulus).unwrap();
    let mut sim = fibril::simulation("beeler_reuter")
        .grid(40, 40, 1)
        .scroll_protocol(Some(30.0))
        .stimulus(spec)
        .build::<f64>()
        .unwrap();
    sim.run_for_ms(60.0).unwrap();
    assert_eq!(bits(last_u(&out)), bits(sim.state().unwrap().slice(0).iter().copied()));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn frames_do_not_change_the_run() {
    let build = || fibril::simulation("fenton_karma").grid(32, 32, 1).scroll_protocol(None).tips(1.0);
    let mut straight = build().build::<f32>().unwrap();
    straight.run_for_ms(60.0).unwrap();
    let mut framed = build().build::<f32>().unwrap();
    let mut seen = Vec::new();
    framed
        .run_frames(60.0, 7.5, |f| {
            seen.push(f.step);
            Ok::<(), fibril::SimulationError>(())
        })
        .unwrap();
    assert_eq!(seen, [150, 300, 450, 600, 750, 900, 1050, 1200]);
    assert_eq!(straight.state().unwrap(), framed.state().unwrap());
    let (a, b) = (straight.singularities().unwrap(), framed.singularities().unwrap());
    assert_eq!(a.tips().to_csv(), b.tips().to_csv(), "the same tips at the same samples");
    // Bad input is refused before any work, naming it.
    let e = fibril::simulation("no_such_model").build::<f32>().err().unwrap().to_string();
    assert!(e.contains("unknown model") && e.contains("karma"), "{e}");
    let e = fibril::simulation("karma").grid(8, 8, 8).dt_ms(1.0).build::<f32>().err().unwrap().to_string();
    assert!(e.contains("unstable") && e.contains("--dt"), "{e}");
    let e = framed.run_for_ms(0.01).unwrap_err().to_string();
    assert!(e.contains("whole number of time steps"), "{e}");
}

/// A mesh run described to the library (`tet_mesh`, node stimuli,
/// electrodes) and to `fibril run --mesh` gives the same state and the
/// same pseudo-ECG.
#[test]
fn a_mesh_run_with_electrodes_is_the_same_through_the_library() {
    use fibril_host::events::ecg::Electrode;
    use fibril_host::events::stimulus::{RegionKind, StimulusSpec};
    use fibril_host::tet::regions::NodeSelection;
    use fibril_host::tet::{Diffusivity, NodeOrder, ReadOptions, TetProblem, read_mesh};
    use std::sync::Arc;
    let out = scratch("library", "mesh-ecg");
    let vtx = "tests/data/meshes/two_boxes.vtx";
    let stimulus = format!("{{region = \"mask\", file = \"{vtx}\", duration_ms = 1.0, current = 60.0}}");
    ok(&fibril_words(
        "run --backend cpu --mesh tests/data/meshes/two_boxes.pts --model luo_rudy_1991 --dt 0.01 \
         --duration-ms 2 --format npy --ecg-every-ms 0.5 --precision f64",
        &[
            "--stimulus",
            &stimulus,
            "--electrode",
            "{name = \"far\", position = [40, 30, 20]}",
            "--out",
            s(&out),
        ],
    ));
    let mesh =
        read_mesh(std::path::Path::new("tests/data/meshes/two_boxes.pts"), &ReadOptions::default()).unwrap();
    let d =
        <kernels_gpu::models::luo_rudy_1991::LuoRudy1991 as fibril_host::CellModel>::INFO.numerics.diffusion;
    let problem = Arc::new(
        TetProblem::new(&mesh, NodeOrder::ReverseCuthillMcKee, &|_| Some(Diffusivity::isotropic(d))).unwrap(),
    );
    let mut spec = StimulusSpec::new(RegionKind::Mask, 0.0);
    (spec.duration_ms, spec.current) = (1.0, Some(60.0));
    let nodes = fibril_host::tet::read::carp::read_vtx(std::path::Path::new(vtx)).unwrap();
    let mut sim = fibril::simulation("luo_rudy_1991")
        .tet_mesh(problem.clone())
        .dt_ms(0.01)
        .node_stimulus(spec, NodeSelection::Nodes(nodes))
        .electrodes(vec![Electrode::new("far", [40.0, 30.0, 20.0])], 0.5)
        .build::<f64>()
        .unwrap();
    sim.run_for_ms(2.0).unwrap();
    let state = problem.renumbering.to_file_order(sim.state().unwrap().slice(0));
    assert_eq!(bits(last_u(&out)), bits(state));
    let rows = sim.ecg().unwrap().rows().to_vec();
    assert_eq!(rows.len(), 5, "samples at 0, 0.5, ..., 2 ms");
    let csv = std::fs::read_to_string(out.join("ecg.csv")).unwrap();
    let last: f64 = csv.lines().last().unwrap().split(',').nth(1).unwrap().parse().unwrap();
    let want = rows.last().unwrap().1[0];
    assert!(want != 0.0 && (last - want).abs() <= 1e-12 * want.abs(), "ecg.csv {last}, library {want}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// A tissue described to the library from arrays (`tissue`) and to
/// `fibril run` with a `[tissue]` mask file gives the same bits.
#[test]
fn a_tissue_from_arrays_is_the_tissue_of_the_command_line() {
    use fibril_host::tissue::{Conductivity, Fibres, Tissue, TissueLayout};
    use kernels_gpu::GridDims;
    let dims = GridDims::new(24, 16, 4);
    // A block with a hole through it, fibres along x, D 1 along and 0.25 across.
    let mask: Vec<bool> = (0..dims.cells())
        .map(|i| {
            let (x, y) = (i % 24, (i / 24) % 16);
            !((9..14).contains(&x) && (5..10).contains(&y))
        })
        .collect();
    let out = scratch("library", "tissue");
    std::fs::create_dir_all(&out).unwrap();
    let labels: Vec<u8> = mask.iter().map(|&m| u8::from(m)).collect();
    let mask_file = out.join("mask.npy");
    std::fs::write(&mask_file, common::u8_npy(&[4, 16, 24], &labels)).unwrap();
    let config = out.join("tissue.toml");
    let toml = "[tissue]\nmask = \"mask.npy\"\nd_fibre = 1.0\nd_cross = 0.25\n[grid]\ndx = 0.5\n";
    std::fs::write(&config, toml).unwrap();
    let run = out.join("run");
    ok(&fibril_words(
        "run --backend cpu --model aliev_panfilov --steps 200 --precision f64",
        &[s(&config), "--out", s(&run)],
    ));
    let conductivity = Conductivity { fibre: 1.0, cross: 0.25, sheet: None };
    let tissue = Tissue::from_mask(dims, 0.5, &mask, Fibres::ALONG_X, conductivity);
    let mut sim =
        fibril::simulation("aliev_panfilov").tissue(tissue, TissueLayout::Compact).build::<f64>().unwrap();
    sim.advance(200).unwrap();
    assert_eq!(bits(last_u(&run)), bits(sim.state().unwrap().slice(0).iter().copied()));
    std::fs::remove_dir_all(&out).unwrap();
}

/// A checkpoint saved through the library and loaded into a new
/// simulation continues the run bit for bit, maps included.
#[test]
fn a_checkpoint_continues_the_run_bit_for_bit() {
    use fibril_host::events::recording::Recording;
    let recording = Recording { up: 0.5, down: Some(0.2), beats: None };
    let build = || fibril::simulation("aliev_panfilov").grid(32, 32, 1).scroll_protocol(None).maps(recording);
    let mut straight = build().build::<f32>().unwrap();
    straight.run_for_ms(40.0).unwrap();
    let out = scratch("library", "checkpoint");
    std::fs::create_dir_all(&out).unwrap();
    let file = out.join("half.fibril");
    let mut first = build().build::<f32>().unwrap();
    first.run_for_ms(15.0).unwrap();
    first.save_checkpoint(&file).unwrap();
    let mut second = build().build::<f32>().unwrap();
    second.load_checkpoint(&file).unwrap();
    assert_eq!(second.step(), first.step());
    second.run_for_ms(25.0).unwrap();
    assert_eq!(straight.state().unwrap(), second.state().unwrap());
    let (a, b) = (straight.maps().unwrap().unwrap(), second.maps().unwrap().unwrap());
    assert_eq!(bits(a.activation.iter().map(|&t| t as f64)), bits(b.activation.iter().map(|&t| t as f64)));
    // Another precision or grid is refused, naming what differs.
    let e = fibril::simulation("aliev_panfilov").grid(32, 32, 1).maps(recording).build::<f64>().unwrap();
    let mut other = e;
    let e = other.load_checkpoint(&file).unwrap_err().to_string();
    assert!(e.contains("f32") || e.contains("precision"), "{e}");
    let mut bigger =
        fibril::simulation("aliev_panfilov").grid(33, 32, 1).maps(recording).build::<f32>().unwrap();
    let e = bigger.load_checkpoint(&file).unwrap_err().to_string();
    assert!(e.contains("33"), "{e}");
    std::fs::remove_dir_all(&out).unwrap();
}
