//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses a different subset

use fibril_host::backend::cpu;
use fibril_host::init::InitialCondition;
use fibril_host::{CellModel, Domain, GridDims, ModelSetup, Scalar, State};
use kernels_gpu::fast_math::MathMode;
use kernels_gpu::models::Karma;

/// Model `name` with its default preset.
pub fn model(name: &str) -> ModelSetup {
    ModelSetup::new(name, None, &[]).expect("a registered model")
}

/// A domain of the paper's discretisation (dx = 0.6, dt = 0.05, D = 1).
pub fn domain(dims: GridDims, model_name: &str) -> Domain {
    Domain::new(dims, 0.6, 0.05, 1.0, model(model_name)).expect("valid test domain")
}

/// As [`domain`], with the transcendental functions of `math`.
pub fn domain_in(dims: GridDims, model_name: &str, math: MathMode) -> Domain {
    Domain::new(dims, 0.6, 0.05, 1.0, model(model_name).with_math(math)).expect("valid test domain")
}

/// A domain of `model`'s usual discretisation.
pub fn usual_domain(dims: GridDims, setup: ModelSetup) -> Domain {
    let n = setup.info().numerics;
    Domain::new(dims, n.dx, n.dt, n.diffusion, setup).expect("valid test domain")
}

/// Runs `steps` steps on the CPU reference and returns the state.
pub fn cpu_run<T: Scalar>(domain: &Domain, initial: &State<T>, steps: u64) -> State<T> {
    let mut s = cpu::for_model(domain, initial);
    s.advance(steps).unwrap();
    s.state().unwrap()
}

/// A Karma state from `f(x, y, z) -> (U, v)`.
pub fn karma_state<T: Scalar>(dims: GridDims, mut f: impl FnMut(u32, u32, u32) -> (f64, f64)) -> State<T> {
    State::from_fn(Karma::INFO, dims, |x, y, z, cell| {
        let (u, v) = f(x, y, z);
        cell[0] = T::from_f64(u);
        cell[1] = T::from_f64(v);
    })
}

/// A pure-diffusion state from `f(x, y, z) -> u`.
pub fn diffusion_state(dims: GridDims, mut f: impl FnMut(u32, u32, u32) -> f64) -> State<f64> {
    State::from_fn(kernels_gpu::models::Diffusion::INFO, dims, |x, y, z, cell| cell[0] = f(x, y, z))
}

/// Deterministic values in [0, 1) (a 64-bit LCG), so tests need no RNG crate.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Largest |a - b| over two fields, with where it happens.
pub fn max_abs_diff(a: &ndarray::Array3<f64>, b: &ndarray::Array3<f64>) -> (f64, [usize; 3]) {
    let mut worst = (0.0, [0, 0, 0]);
    for ((idx, x), y) in a.indexed_iter().zip(b.iter()) {
        let d = (x - y).abs();
        if d > worst.0 || d.is_nan() {
            worst = (d, [idx.0, idx.1, idx.2]);
        }
    }
    worst
}

/// The paper's planar start for Karma.
pub fn planar_start<T: Scalar>(dims: GridDims) -> State<T> {
    InitialCondition::Planar.state(Karma::INFO, dims)
}

/// A scroll-wave-like Karma start with structure along every axis: excited
/// slab at low z, a refractory (v = 0.9) half in x, a hot corner.
/// Exercises every boundary and neighbour direction, unlike a plain
/// planar wave.
pub fn rich_start<T: Scalar>(dims: GridDims) -> State<T> {
    let mut rng = Lcg(42);
    karma_state(dims, |x, y, z| {
        let noise = 0.05 * rng.next_unit();
        let u = if z < 3 || (x < 4 && y < 5) { 3.0 } else { noise };
        let v = if x > dims.nx / 2 { 0.9 } else { 0.1 * rng.next_unit() };
        (u, v)
    })
}

/// A tissue whose weight rows repeat (fibres turning from -60 to +60
/// degrees through z, the same in every cell of a plane), with an
/// irregular outline (10% of the cells removed at random, so that the
/// boundary rows are many); D_fibre = `d`, D_cross = `d` / 5.
pub fn turning_tissue(dims: GridDims, dx: f64, d: f64) -> fibril_host::tissue::Tissue {
    use fibril_host::tissue::{Conductivity, geometry};
    let c = Conductivity { fibre: d, cross: 0.2 * d, sheet: None };
    let mut t = geometry::slab(dims, dx, [-60.0, 60.0], c);
    let mut rng = Lcg(13);
    for l in &mut t.labels {
        if rng.next_unit() < 0.1 {
            *l = 0;
        }
    }
    t
}

/// A tissue with a hole (a cylinder along z), an irregular outline (10%
/// of the cells removed at random) and fibres that change direction from
/// cell to cell, off every axis; D_fibre = `d`, D_cross = `d` / 5.
pub fn irregular_tissue(dims: GridDims, dx: f64, d: f64) -> fibril_host::tissue::Tissue {
    use fibril_host::tissue::{Conductivity, Fibres, geometry};
    let mut t = geometry::cylinder(dims, dx, 2.0 * dx, [1.0, 0.0, 0.0], Conductivity::isotropic(d));
    let mut rng = Lcg(7);
    for l in &mut t.labels {
        if rng.next_unit() < 0.1 {
            *l = 0;
        }
    }
    let fibre = (0..dims.cells())
        .map(|_| [1.0, rng.next_unit() as f32 * 2.0 - 1.0, rng.next_unit() as f32 - 0.5])
        .collect();
    t.fibres = Fibres::PerCell { fibre, sheet: None };
    t.conductivity = Conductivity { fibre: d, cross: 0.2 * d, sheet: None };
    t
}

/// Runs the `fibril` binary of this build with `args`.
pub fn fibril(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_fibril")).args(args).output().expect("run fibril")
}

/// A path under the temporary directory for test `name` of binary
/// `binary`, removed if it exists (the process id keeps parallel test
/// runs apart).
pub fn scratch(binary: &str, name: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("fibril-{binary}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    p
}

/// Runs `fibril` with the words of `line` (split at white space), then
/// `more` (the arguments that hold spaces, and paths).
pub fn fibril_words(line: &str, more: &[&str]) -> std::process::Output {
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend_from_slice(more);
    fibril(&args)
}

/// The standard error of a run, as text.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts that a run succeeded (showing its standard error if not) and
/// returns its standard output.
pub fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "fibril failed: {}", stderr(o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts that a run failed with every one of `needles` in its standard
/// error; `what` says which run it was.
pub fn refused_as(what: &dyn std::fmt::Debug, o: &std::process::Output, needles: &[&str]) {
    let stderr = stderr(o);
    assert!(!o.status.success(), "{what:?} should fail; stderr: {stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{what:?}: stderr lacks {n:?}:\n{stderr}");
    }
}

/// Asserts that a run failed with every one of `needles` in its standard
/// error.
pub fn refused(o: &std::process::Output, needles: &[&str]) {
    refused_as(&"the run", o, needles);
}

/// `fibril ARGS` must fail with every one of `needles` in its standard error.
pub fn assert_refused(args: &[&str], needles: &[&str]) {
    refused_as(&args, &fibril(args), needles);
}

/// A path as the `&str` an argument list takes.
pub fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// The JSON file at `path`.
pub fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The steps of the snapshots a run's `snapshots.json` in `dir` lists.
pub fn snapshot_steps(dir: &std::path::Path) -> Vec<u64> {
    read_json(&dir.join("snapshots.json"))
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["step"].as_u64().unwrap())
        .collect()
}

/// A `.npy` file of `|u1` values (a mask or label field) of `shape`.
pub fn u8_npy(shape: &[usize], values: &[u8]) -> Vec<u8> {
    fibril_host::io::npy::encode_u8(shape, values)
}

/// Parameters that vary over `labels` (a tissue's box of `dims`, or a
/// mesh's node labels with `dims` a line), for any model: the cells of
/// the upper half in y take label 2 with the model's second preset (where
/// it has one), and the first parameter that can be scaled takes one of
/// three values by x (a field), so that every kernel reads several sets.
/// `None` for a model without such a parameter (pure diffusion).
pub fn varied_parameters(
    info: &'static kernels_gpu::ModelInfo,
    labels: &mut [u8],
    dims: GridDims,
) -> Option<fibril_host::cell_params::ParameterMap> {
    use fibril_host::cell_params::{ParameterField, ParameterMap, RegionParameters};
    let base = ModelSetup::default_of(info);
    let (k, p) = info.parameters.iter().enumerate().find(|(_, p)| {
        p.default != 0.0
            && p.range.contains(p.default * 1.05)
            && !matches!(p.range, kernels_gpu::model::Range::Integer(..))
    })?;
    let (nx, ny) = (dims.nx as usize, dims.ny as usize);
    for (i, l) in labels.iter_mut().enumerate() {
        if *l != 0 && (i / nx) % ny >= ny / 2 {
            *l = 2;
        }
    }
    let preset = info.presets.iter().map(|p| p.name).find(|&n| n != info.default_preset);
    let values = (0..labels.len()).map(|i| base.values()[k] * [1.0, 1.02, 1.05][i % nx % 3]).collect();
    Some(ParameterMap {
        regions: vec![RegionParameters { label: 2, preset: preset.map(str::to_string), values: vec![] }],
        fields: vec![ParameterField { name: p.name.to_string(), values }],
    })
}

/// The last snapshot of variable 0 a CLI run wrote in `out`.
pub fn last_u(out: &std::path::Path) -> Vec<f64> {
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("snapshots.json")).unwrap()).unwrap();
    let file = index.as_array().unwrap().last().unwrap()["files"][0].as_str().unwrap().to_string();
    fibril_host::io::npy::read(&out.join(file)).unwrap().values
}
