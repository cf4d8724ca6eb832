//! Checks of the CPU reference that do not rely on the shared math being
//! right: hand-computed stencil values, conservation, exact decay rates of
//! the discrete Laplacian's eigenmodes, wave speed, precision agreement.

mod common;

use std::f64::consts::PI;

use common::{Lcg, cpu_run, diffusion_state, domain, domain_in, karma_state, max_abs_diff};
use fibril_host::{GridDims, State};
use kernels_gpu::fast_math::MathMode;

/// Both choices of transcendental functions: the Karma checks hold in each.
const MODES: [MathMode; 2] = [MathMode::Fast, MathMode::Exact];

/// r = D dt / h^2 of the test domain.
const R: f64 = 1.0 * 0.05 / (0.6 * 0.6);

fn spike(dims: GridDims, at: (u32, u32, u32)) -> State<f64> {
    diffusion_state(dims, |x, y, z| if (x, y, z) == at { 1.0 } else { 0.0 })
}

#[test]
fn one_diffusion_step_from_a_spike_matches_hand_values() {
    let dims = GridDims::new(3, 3, 3);
    let d = domain(dims, "diffusion");

    // Spike in the centre: centre 1 - 6r, each face neighbour r, the rest 0.
    let f = cpu_run(&d, &spike(dims, (1, 1, 1)), 1);
    assert!((f.u()[[1, 1, 1]] - (1.0 - 6.0 * R)).abs() < 1e-15);
    // (0,1,1): both x-neighbours are (1,1,1) by the mirror rule -> lap = 2.
    assert!((f.u()[[1, 1, 0]] - 2.0 * R).abs() < 1e-15);
    assert!((f.u()[[0, 1, 1]] - 2.0 * R).abs() < 1e-15);
    assert_eq!(f.u()[[0, 0, 0]], 0.0);

    // Spike in a corner: lap at the corner is -6; its neighbour (1,0,0) sees it once.
    let f = cpu_run(&d, &spike(dims, (0, 0, 0)), 1);
    assert!((f.u()[[0, 0, 0]] - (1.0 - 6.0 * R)).abs() < 1e-15);
    assert!((f.u()[[0, 0, 1]] - R).abs() < 1e-15);
    assert!((f.u()[[1, 0, 0]] - R).abs() < 1e-15);
    // (2,0,0) mirrors onto (1,0,0), which is 0: untouched.
    assert_eq!(f.u()[[0, 0, 2]], 0.0);
}

/// With the mirror rule U[-1] = U[1] the boundary node is the centre of a
/// half cell, so the conserved total is the trapezoidal sum: each cell
/// weighted by 1/2 per axis on which it sits at an end.
fn trapezoid_total(f: &State<f64>) -> f64 {
    let (nz, ny, nx) = f.u().dim();
    let w = |i: usize, n: usize| if i == 0 || i == n - 1 { 0.5 } else { 1.0 };
    f.u().indexed_iter().map(|((z, y, x), u)| w(x, nx) * w(y, ny) * w(z, nz) * u).sum()
}

#[test]
fn pure_diffusion_conserves_the_total() {
    let dims = GridDims::new(11, 7, 9);
    let d = domain(dims, "diffusion");
    let mut rng = Lcg(7);
    let start = diffusion_state(dims, |_, _, _| rng.next_unit());
    let before = trapezoid_total(&start);
    let after_fields = cpu_run(&d, &start, 500);
    let after = trapezoid_total(&after_fields);
    assert!(((after - before) / before).abs() < 1e-13, "total {before} -> {after}");
    // And it did diffuse: the field is much flatter than at the start.
    let spread = |f: &State<f64>| {
        f.u().iter().cloned().fold(f64::MIN, f64::max) - f.u().iter().cloned().fold(f64::MAX, f64::min)
    };
    assert!(spread(&after_fields) < 0.1 * spread(&start));
}

#[test]
fn cosine_mode_decays_at_the_discrete_eigenvalue_rate() {
    // cos(pi k i / (n - 1)) is an eigenvector of the mirrored 1D second
    // difference with eigenvalue -4 sin^2(pi k / (2 (n - 1))); in 3D the
    // eigenvalues add, and forward Euler multiplies the mode by
    // (1 - 4 r sum sin^2) per step.
    let dims = GridDims::new(17, 13, 21);
    let (kx, ky, kz) = (2.0, 1.0, 3.0);
    let d = domain(dims, "diffusion");
    let mode = |x: u32, y: u32, z: u32| {
        (PI * kx * x as f64 / 16.0).cos()
            * (PI * ky * y as f64 / 12.0).cos()
            * (PI * kz * z as f64 / 20.0).cos()
    };
    let start = diffusion_state(dims, |x, y, z| 1.0 + 0.5 * mode(x, y, z));
    let steps = 400;
    let f = cpu_run(&d, &start, steps);

    let s2 = |k: f64, n: f64| (PI * k / (2.0 * (n - 1.0))).sin().powi(2);
    let factor = 1.0 - 4.0 * R * (s2(kx, 17.0) + s2(ky, 13.0) + s2(kz, 21.0));
    let expected_amplitude = 0.5 * factor.powi(steps as i32);
    // Every cell is 1 + amplitude * mode, exactly up to rounding.
    for ((z, y, x), u) in f.u().indexed_iter() {
        let want = 1.0 + expected_amplitude * mode(x as u32, y as u32, z as u32);
        assert!((u - want).abs() < 1e-12, "cell ({x},{y},{z}): {u} vs {want}");
    }
    // The decay rate is the continuous one, D |k|^2, to within the
    // discretisation error at this resolution (a few per cent).
    let h = 0.6;
    let k2 = (PI * kx / (16.0 * h)).powi(2) + (PI * ky / (12.0 * h)).powi(2) + (PI * kz / (20.0 * h)).powi(2);
    let discrete_rate = -factor.ln() / 0.05;
    assert!(((discrete_rate - k2) / k2).abs() < 0.05, "rate {discrete_rate} vs D|k|^2 = {k2}");
}

/// Position along z where U first drops below 1 when walking from the
/// excited end (the wave front), linearly interpolated.
fn front_z(f: &State<f64>) -> f64 {
    let column: Vec<f64> = (0..f.u().dim().0).map(|z| f.u()[[z, 1, 1]]).collect();
    let last_above = column.iter().rposition(|&u| u > 1.0).expect("a front exists");
    let (a, b) = (column[last_above], column[last_above + 1]);
    last_above as f64 + (a - 1.0) / (a - b)
}

/// U at `behind` cells behind the front, linearly interpolated: samples
/// of the pulse's shape in its own frame.
fn profile_behind_front(f: &State<f64>, behind: &[f64]) -> Vec<f64> {
    let front = front_z(f);
    behind
        .iter()
        .map(|s| {
            let z = front - s;
            let (i, frac) = (z.floor() as usize, z - z.floor());
            f.u()[[i, 1, 1]] * (1.0 - frac) + f.u()[[i + 1, 1, 1]] * frac
        })
        .collect()
}

#[test]
fn planar_pulse_travels_at_constant_speed_with_stable_shape() {
    let [fast, exact] = MODES.map(planar_pulse);
    // The table's tanh is within 4e-8 of tanh: the speeds agree to 1e-6.
    assert!(((fast - exact) / exact).abs() < 1e-6, "speed {fast} (fast tanh) vs {exact} (exact)");
}

fn planar_pulse(math: MathMode) -> f64 {
    // Resting tissue (v = 0) ahead of an excited slab: a solitary pulse.
    let dims = GridDims::new(3, 3, 420);
    let d = domain_in(dims, "karma", math);
    let start = karma_state::<f64>(dims, |_, _, z| (if z < 10 { 3.0 } else { 0.0 }, 0.0));
    let t = [600u64, 1200, 1800]; // steps: 30, 60, 90 time units
    let mut solver = fibril_host::backend::cpu::for_model(&d, &start);
    let behind = [3.0, 6.0, 12.0, 25.0, 50.0, 80.0];
    let mut fronts = Vec::new();
    let mut profiles = Vec::new();
    let mut done = 0;
    for &s in &t {
        solver.advance(s - done).unwrap();
        done = s;
        let f = solver.state().unwrap();
        fronts.push(front_z(&f));
        profiles.push(profile_behind_front(&f, &behind));
    }
    let dt_between = 600.0 * 0.05;
    let c1 = (fronts[1] - fronts[0]) * 0.6 / dt_between;
    let c2 = (fronts[2] - fronts[1]) * 0.6 / dt_between;
    eprintln!("{} math: planar speed {c1:.4} then {c2:.4}; profiles {profiles:?}", math.name());
    assert!(((c2 - c1) / c1).abs() < 0.005, "speed changed: {c1} then {c2} space units per time unit");
    // Karma's planar speed is ~1.3-1.5 space units per time unit at these
    // resolutions (measured with other forward-Euler transcriptions: 1.43 at
    // dx = 0.5, 1.32 at dx = 0.92).
    assert!((1.2..1.7).contains(&c1), "implausible wave speed {c1}");
    // The shape in the pulse's frame is the same at both times.
    for (k, s) in behind.iter().enumerate() {
        let (a, b) = (profiles[1][k], profiles[2][k]);
        assert!((a - b).abs() < 0.01 * a.abs().max(1.0), "U {s} cells behind the front: {a} then {b}");
    }
    c2
}

#[test]
fn the_fast_tanh_leaves_speed_and_fields_within_a_few_f32_roundings() {
    // After 2000 steps of the rich start in f64 the fields of the two
    // tanh differ within the tolerances of f32 against f64 (below):
    // measured max |dU| = 1.1e-4 where a front is steep (a crossing a
    // fraction of a step earlier), max |dv| = 8.5e-4 (one step of v's jump).
    let dims = GridDims::new(32, 32, 32);
    let start = common::rich_start::<f64>(dims);
    let a = cpu_run(&domain_in(dims, "karma", MathMode::Fast), &start, 2000);
    let b = cpu_run(&domain_in(dims, "karma", MathMode::Exact), &start, 2000);
    let (du, at) = max_abs_diff(a.u(), b.u());
    let (dv, _) = max_abs_diff(a.var(1), b.var(1));
    eprintln!(
        "fast vs exact tanh, f64, 2000 steps on 32^3: max |dU| = {du:.3e} at {at:?}, max |dv| = {dv:.3e}"
    );
    assert!(du > 0.0, "the modes differ at all");
    assert!(du <= 5e-4 && dv <= 2e-3, "max |dU| = {du}, max |dv| = {dv}");
}

#[test]
fn f32_agrees_with_f64_over_2000_steps() {
    for math in MODES {
        f32_against_f64(math);
    }
}

fn f32_against_f64(math: MathMode) {
    // Tolerances: U spans [0, ~4] and drifts where the front is steep
    // (measured max |dU| = 5.9e-5 with the exact tanh, 2.8e-5 with the fast one). v jumps by dt*eps = 5e-4 for every step
    // that a cell's U crosses 1 earlier or later in f32 than in f64
    // (measured max |dv| = 8.7e-4, under two such steps).
    const TOLERANCE_U: f64 = 5e-4;
    const TOLERANCE_V: f64 = 2e-3;
    let dims = GridDims::new(32, 32, 32);
    let d = domain_in(dims, "karma", math);
    let start64 = common::rich_start::<f64>(dims);
    let start32 = start64.convert::<f32>();
    let r64 = cpu_run(&d, &start64, 2000);
    let r32 = cpu_run(&d, &start32, 2000).convert::<f64>();
    let (du, at) = max_abs_diff(r32.u(), r64.u());
    let (dv, at_v) = max_abs_diff(r32.var(1), r64.var(1));
    eprintln!(
        "{} math: f32 vs f64 after 2000 steps on 32^3: max |dU| = {du:.3e} at {at:?}, max |dv| = {dv:.3e} at {at_v:?}",
        math.name()
    );
    assert!(du <= TOLERANCE_U, "max |dU| = {du} at [z,y,x] = {at:?} exceeds {TOLERANCE_U}");
    assert!(dv <= TOLERANCE_V, "max |dv| = {dv} at [z,y,x] = {at_v:?} exceeds {TOLERANCE_V}");
    // The comparison is not vacuous: the wave is there.
    assert!(r64.u().iter().any(|&u| u > 2.0) && r64.u().iter().any(|&u| u < 0.5));
}
