//! The anisotropic tissue operator against what it must do whatever its
//! implementation: keep a uniform field uniform, conserve the total of a
//! pure diffusion, propagate plane waves with speeds in the ratio
//! sqrt(D_fibre / D_cross) along and across fibres that are not on the
//! grid's axes, with a flat front; and the two layouts (dense with a
//! mask, compact), the weights per cell or by class, and the compact
//! layout's neighbours as u32 indices or 16-bit offsets, giving the same
//! bits.

#[path = "common/mod.rs"]
mod common;

use std::sync::Arc;

use common::{Lcg, model};
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::events::{EventStart, Events};
use fibril_host::tissue::{
    Conductivity, Fibres, NeighbourChoice, Operator, TableChoice, Tissue, TissueLayout, WeightChoice, cpu,
    geometry,
};
use fibril_host::{CellModel, Domain, GridDims, Scalar, State};
use kernels_gpu::models::{Diffusion, Karma, MitchellSchaeffer};

fn irregular(dims: GridDims, dx: f64) -> Tissue {
    common::irregular_tissue(dims, dx, 1.0)
}

fn domain(dims: GridDims, name: &str, dx: f64, dt: f64, d: f64) -> Domain {
    Domain::with_own_operator(dims, dx, dt, d, model(name)).unwrap()
}

fn run<T: Scalar>(
    d: &Domain,
    op: &Arc<Operator>,
    layout: TissueLayout,
    start: &State<T>,
    steps: u64,
) -> State<T> {
    let mut s = cpu::for_model(d, op, layout, start);
    s.advance(steps).unwrap();
    s.state().unwrap()
}

const LAYOUTS: [TissueLayout; 2] = [TissueLayout::Dense, TissueLayout::Compact];

#[test]
fn a_uniform_field_stays_exactly_uniform() {
    let dims = GridDims::new(19, 17, 6);
    let op = Arc::new(Operator::build(&irregular(dims, 0.5)).unwrap());
    let dt = 0.9 * op.dt_max;
    let d = domain(dims, "diffusion", 0.5, dt, 1.0);
    for layout in LAYOUTS {
        let start = State::<f32>::uniform(Diffusion::INFO, dims, &[0.7]);
        let end = run(&d, &op, layout, &start, 200);
        for (i, &v) in end.slice(0).iter().enumerate() {
            if op.cells.binary_search(&(i as u32)).is_ok() {
                assert_eq!(v.to_bits(), 0.7f32.to_bits(), "{layout:?}: cell {i} moved to {v}");
            } else {
                assert!(v.is_nan(), "cells outside the tissue read NaN");
            }
        }
    }
}

#[test]
fn pure_diffusion_in_an_irregular_geometry_conserves_the_total() {
    let dims = GridDims::new(23, 21, 7);
    let op = Arc::new(Operator::build(&irregular(dims, 0.5)).unwrap());
    assert!(op.negative_weights > 0, "fibres off the axes give negative edge weights");
    let d = domain(dims, "diffusion", 0.5, 0.9 * op.dt_max, 1.0);
    let mut rng = Lcg(11);
    let start = State::<f64>::from_fn(Diffusion::INFO, dims, |_, _, _, c| c[0] = rng.next_unit());
    let total = |s: &State<f64>| op.cells.iter().map(|&i| s.slice(0)[i as usize]).sum::<f64>();
    let before = total(&start);
    for layout in LAYOUTS {
        let end = run(&d, &op, layout, &start, 2000);
        let after = total(&end);
        // The field smooths out (the test is not vacuous) ...
        let variance = |s: &State<f64>| {
            let v: Vec<f64> = op.cells.iter().map(|&i| s.slice(0)[i as usize]).collect();
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64
        };
        assert!(
            variance(&end) < 0.1 * variance(&start),
            "{layout:?}: {} -> {}",
            variance(&start),
            variance(&end)
        );
        // ... and its total stays, to rounding: 2000 steps of about 2e3
        // additions of values below 1 each, each rounding below 2^-53.
        let drift = (after - before).abs() / before;
        assert!(drift < 1e-12, "{layout:?}: total {before} -> {after} (relative {drift:e})");
        eprintln!("{layout:?}: relative drift of the total after 2000 steps: {drift:e}");
    }
}

#[test]
fn dense_and_compact_layouts_give_the_same_bits_with_stimuli_and_maps() {
    let dims = GridDims::new(21, 19, 7);
    let mut tissue = irregular(dims, 0.6);
    tissue.conductivity = Conductivity { fibre: 1.0, cross: 0.25, sheet: None };
    let op = Arc::new(Operator::build(&tissue).unwrap());
    let d = domain(dims, "karma", 0.6, 0.05, 1.0);
    op.check_dt(0.05).unwrap();
    let start = common::rich_start::<f32>(dims);
    let (events, recording) = sphere_at_5_ms(dims, [10.0, 3.0, 3.0]);
    let results: Vec<(State<f32>, Maps)> = LAYOUTS
        .iter()
        .map(|&layout| {
            let mut s = cpu::for_model(&d, &op, layout, &start);
            let maps = Maps::at_start(recording, dims, start.slice(0), 0.0);
            s.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
            s.advance(400).unwrap();
            (s.state().unwrap(), s.maps().unwrap().unwrap())
        })
        .collect();
    let bits = |s: &State<f32>, k: usize| s.slice(k).iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for k in 0..2 {
        assert_eq!(bits(&results[0].0, k), bits(&results[1].0, k), "variable {k}");
    }
    let (a, b) = (&results[0].1, &results[1].1);
    let map_bits = |m: &[f32]| m.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(map_bits(&a.activation), map_bits(&b.activation));
    assert_eq!(map_bits(a.repolarisation.as_ref().unwrap()), map_bits(b.repolarisation.as_ref().unwrap()));
    let activated = a.activation.iter().filter(|t| t.is_finite() && **t > 0.0).count();
    assert!(activated > 50, "a wave travelled: {activated} cells activated after t = 0");
    assert_ne!(results[0].0.slice(0), start.slice(0));
}

#[test]
fn weights_by_class_give_the_bits_of_per_cell_weights_in_both_layouts() {
    // Rows that repeat: fibres turning through z on the whole box, and
    // constant oblique fibres on an irregular tissue (every 10th cell out).
    let dims = GridDims::new(19, 15, 8);
    let c = Conductivity { fibre: 1.0, cross: 0.25, sheet: None };
    let slab = geometry::slab(dims, 0.6, [-60.0, 60.0], c);
    let mut holed = geometry::cylinder(dims, 0.6, 1.5, [1.0, 0.7, 0.4], c);
    let mut rng = Lcg(5);
    for l in &mut holed.labels {
        if rng.next_unit() < 0.1 {
            *l = 0;
        }
    }
    let d = domain(dims, "karma", 0.6, 0.05, 1.0);
    let start = common::rich_start::<f32>(dims);
    let (events, _) = sphere_at_5_ms(dims, [9.0, 3.0, 3.0]);
    let bits = |s: &State<f32>, k: usize| s.slice(k).iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let map_bits = |m: &[f32]| m.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for (name, tissue) in [("slab", slab), ("irregular", holed)] {
        let op = Arc::new(Operator::build(&tissue).unwrap());
        op.check_dt(0.05).unwrap();
        for layout in LAYOUTS {
            let runs: Vec<(String, State<f32>, Maps)> = [WeightChoice::PerCell, WeightChoice::Classes]
                .into_iter()
                .map(|choice| run_300_steps(&d, &op, layout, choice, &start, &events))
                .collect();
            let what = format!("{name} {layout:?}");
            assert!(
                !runs[0].0.contains("classes")
                    && runs[1].0.contains("-classes")
                    && runs[1].0.ends_with(" rows)"),
                "{what}: {}",
                runs[1].0
            );
            for k in 0..2 {
                assert_eq!(bits(&runs[0].1, k), bits(&runs[1].1, k), "{what}: variable {k}");
            }
            let (a, b) = (&runs[0].2, &runs[1].2);
            assert_eq!(map_bits(&a.activation), map_bits(&b.activation), "{what}");
            assert_ne!(runs[0].1.slice(0), start.slice(0));
            // The automatic choice takes the classes here.
            assert_eq!(cpu::for_model(&d, &op, layout, &start).method(), runs[1].0, "{what}");
        }
    }
}

/// The compact layout's neighbours as 16-bit offsets (what the automatic
/// choice takes on these tissues) against u32 indices and against the
/// dense layout: the same bits of every variable and map, f32 and f64,
/// with the weights per cell (fibres off every axis from cell to cell, so
/// all 18 directions are read) and by class (fibres turning through z).
#[test]
fn neighbours_as_16_bit_offsets_give_the_bits_of_u32_indices_and_of_the_dense_layout() {
    offsets_against_indices_and_dense::<f32>();
    offsets_against_indices_and_dense::<f64>();
}

fn offsets_against_indices_and_dense<T: Scalar>() {
    let dims = GridDims::new(21, 19, 9);
    let d = domain(dims, "karma", 0.6, 0.05, 1.0);
    let start = common::rich_start::<T>(dims);
    let (events, _) = sphere_at_5_ms(dims, [10.0, 3.0, 4.0]);
    let tissues = [
        ("irregular", common::irregular_tissue(dims, 0.6, 1.0), WeightChoice::PerCell),
        ("turning", common::turning_tissue(dims, 0.6, 1.0), WeightChoice::Classes),
    ];
    for (name, tissue, weights) in tissues {
        let op = Arc::new(Operator::build(&tissue).unwrap());
        op.check_dt(0.05).unwrap();
        let wide = TableChoice { weights, neighbours: NeighbourChoice::Indices32 };
        let narrow = TableChoice { weights, neighbours: NeighbourChoice::Auto };
        let runs: Vec<(String, State<T>, Maps)> =
            [(TissueLayout::Dense, narrow), (TissueLayout::Compact, wide), (TissueLayout::Compact, narrow)]
                .into_iter()
                .map(|(layout, choice)| run_300_steps(&d, &op, layout, choice, &start, &events))
                .collect();
        let what = format!("{name} {}", T::NAME);
        let methods: Vec<&str> = runs.iter().map(|r| r.0.as_str()).collect();
        assert!(!methods[1].contains("-n16") && methods[2].contains("-n16"), "{what}: {methods:?}");
        assert!(methods[2].starts_with("cpu-tissue-compact"), "{what}: {methods:?}");
        let bits =
            |s: &State<T>, k: usize| s.slice(k).iter().map(|v| v.to_f64().to_bits()).collect::<Vec<_>>();
        let map_bits = |m: &[f32]| m.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        for other in &runs[..2] {
            for k in 0..2 {
                assert_eq!(bits(&runs[2].1, k), bits(&other.1, k), "{what}: {} variable {k}", other.0);
            }
            let (a, b) = (&runs[2].2, &other.2);
            assert_eq!(map_bits(&a.activation), map_bits(&b.activation), "{what}: {}", other.0);
            let repolarisation = |m: &Maps| map_bits(m.repolarisation.as_ref().unwrap());
            assert_eq!(repolarisation(a), repolarisation(b), "{what}: {}", other.0);
        }
        assert_ne!(bits(&runs[2].1, 0), bits(&start, 0), "{what}: the state moved");
        let activated = runs[2].2.activation.iter().filter(|t| t.is_finite() && **t > 0.0).count();
        assert!(activated > 50, "{what}: a wave travelled ({activated} cells activated after t = 0)");
        // The automatic choice takes the offsets here.
        assert!(cpu::for_model(&d, &op, TissueLayout::Compact, &start).method().contains("-n16"), "{what}");
    }
}

/// Activation times of a plane wave of Mitchell-Schaeffer on a sheet with
/// fibres at `angle_deg` from x, started on the half-plane behind the
/// line through the centre at distance `start_mm` along `n`.
fn plane_wave(n: [f64; 2], conductivity: Conductivity, angle_deg: f64) -> (GridDims, f64, Vec<f32>) {
    let (dx, dt) = (0.125, 0.02);
    let dims = GridDims::new(176, 176, 1);
    let a = angle_deg.to_radians();
    let fibres = Fibres::Constant { fibre: [a.cos(), a.sin(), 0.0], sheet: None };
    let op = Arc::new(Operator::build(&Tissue::box_of(dims, dx, fibres, conductivity)).unwrap());
    op.check_dt(dt).unwrap();
    let d = domain(dims, "mitchell_schaeffer", dx, dt, conductivity.largest());
    let centre = (dims.nx as f64 - 1.0) / 2.0 * dx;
    let start = State::<f32>::from_fn(MitchellSchaeffer::INFO, dims, |x, y, _, c| {
        let s = (x as f64 * dx - centre) * n[0] + (y as f64 * dx - centre) * n[1];
        c[0] = if s < -8.0 { 1.0 } else { 0.0 };
        c[1] = 1.0;
    });
    let recording = Recording { up: 0.5, down: None, beats: None };
    let mut s = cpu::for_model(&d, &op, TissueLayout::Compact, &start);
    let maps = Maps::at_start(recording, dims, start.slice(0), 0.0);
    s.set_events(
        &Events { stimuli: Default::default(), recording: Some(recording) },
        EventStart::NEW,
        Some(&maps),
    )
    .unwrap();
    s.advance((90.0 / dt) as u64).unwrap();
    (dims, dx, s.maps().unwrap().unwrap().activation)
}

/// Speed along `n` (least squares over the cells nearest the line through
/// the centre along n, |s| <= 4 mm) and the largest departure of the
/// activation times on the line across n from the plane through them.
fn speed_and_flatness(n: [f64; 2], dims: GridDims, dx: f64, act: &[f32]) -> (f64, f64) {
    let centre = (dims.nx as f64 - 1.0) / 2.0 * dx;
    let sample = |along: f64, across: f64| {
        let p = [centre + along * n[0] - across * n[1], centre + along * n[1] + across * n[0]];
        let (x, y) = ((p[0] / dx).round() as u32, (p[1] / dx).round() as u32);
        let s = (x as f64 * dx - centre) * n[0] + (y as f64 * dx - centre) * n[1];
        (s, act[dims.index(x, y, 0)] as f64)
    };
    let line: Vec<(f64, f64)> = (-32..=32).map(|k| sample(k as f64 * 0.125, 0.0)).collect();
    assert!(line.iter().all(|p| p.1.is_finite()), "the wave crossed the centre");
    let m = line.len() as f64;
    let (ms, mt) = (line.iter().map(|p| p.0).sum::<f64>() / m, line.iter().map(|p| p.1).sum::<f64>() / m);
    let cov = line.iter().map(|p| (p.0 - ms) * (p.1 - mt)).sum::<f64>();
    let var = line.iter().map(|p| (p.1 - mt).powi(2)).sum::<f64>();
    let speed = cov / var;
    let across: Vec<(f64, f64)> = (-32..=32).map(|k| sample(0.0, k as f64 * 0.125)).collect();
    let flat = across.iter().map(|&(s, t)| (t - (mt + (s - ms) / speed)).abs()).fold(0.0, f64::max);
    (speed, flat)
}

#[test]
fn plane_waves_along_and_across_rotated_fibres_run_at_the_ratio_sqrt_d_fibre_over_d_cross() {
    // Fibres at 30 degrees from x: every weight of the stencil is in use.
    let angle = 30.0f64;
    let c = Conductivity { fibre: 0.1, cross: 0.025, sheet: None };
    let a = angle.to_radians();
    let along = [a.cos(), a.sin()];
    let across = [-a.sin(), a.cos()];
    let (dims, dx, act) = plane_wave(along, c, angle);
    let (v_along, flat_along) = speed_and_flatness(along, dims, dx, &act);
    let (dims, dx, act) = plane_wave(across, c, angle);
    let (v_across, flat_across) = speed_and_flatness(across, dims, dx, &act);
    let ratio = v_along / v_across;
    let expected = (c.fibre / c.cross).sqrt();
    eprintln!(
        "CV along {v_along:.4} mm/ms, across {v_across:.4} mm/ms, ratio {ratio:.4} (expected {expected}); \
         front flat to {flat_along:.3} / {flat_across:.3} ms over 8 mm"
    );
    // Stated tolerance: 2% on the ratio (the across wave is resolved by
    // half as many cells per front width as the along wave).
    assert!((ratio / expected - 1.0).abs() < 0.02, "ratio {ratio}, expected {expected}");
    // Flat fronts: every cell of an 8 mm stretch of front within a quarter
    // of a cell's crossing time (dx / speed) of the plane; a staircase of
    // the grid would put neighbouring cells a whole crossing time apart.
    for (flat, v) in [(flat_along, v_along), (flat_across, v_across)] {
        assert!(flat < 0.25 * dx / v, "front off the plane by {flat} ms (a cell takes {} ms)", dx / v);
    }
}

#[test]
fn a_step_above_the_gershgorin_limit_is_refused_naming_the_largest_stable_dt() {
    let dims = GridDims::new(12, 12, 5);
    let op = Operator::build(&irregular(dims, 0.5)).unwrap();
    let e = op.check_dt(op.dt_max * 1.001).unwrap_err().to_string();
    assert!(e.contains(&format!("--dt {:.6}", op.dt_max)), "{e}");
    op.check_dt(op.dt_max).unwrap();
    // The limit is the one the isotropic 7-point path uses for D I.
    let iso = Tissue::box_of(dims, 0.5, Fibres::ALONG_X, Conductivity::isotropic(1.0));
    let iso = Operator::build(&iso).unwrap();
    assert!((iso.dt_max - 0.25 / 6.0).abs() < 1e-15);
}

/// The files VTK's own XML writer (the one ParaView uses) made in every
/// data mode (`scripts/make-vti-fixtures.py`), against the same values
/// saved by numpy.
#[test]
fn masks_and_fibres_read_from_every_kind_of_vti_that_vtk_writes() {
    use fibril_host::io::npy;
    use fibril_host::tissue::files::{read_fibres, read_labels};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vti");
    let mask = npy::read(&dir.join("expected-tissue.npy")).unwrap().values;
    let six = npy::read(&dir.join("expected-fibres6.npy")).unwrap().values;
    let files = [
        "ascii.vti",
        "binary-uint32.vti",
        "binary-zlib.vti",
        "appended-raw-uint64.vti",
        "appended-raw-uint32.vti",
        "appended-base64.vti",
        "appended-raw-zlib.vti",
    ];
    for name in files {
        let path = dir.join(name);
        let l = read_labels(&path, Some("tissue")).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(l.dims, GridDims::new(5, 4, 3), "{name}");
        assert_eq!((l.spacing, l.origin), (Some(0.5), Some([1.0, 2.0, 3.0])), "{name}");
        assert_eq!(l.labels.iter().map(|&v| v as f64).collect::<Vec<_>>(), mask, "{name}");
        let labels = read_labels(&path, Some("labels")).unwrap();
        assert!(labels.labels.contains(&2), "{name}: the int16 label field");
        let Fibres::PerCell { fibre, sheet: Some(sheet) } =
            read_fibres(&path, Some("fibres6"), l.dims).unwrap()
        else {
            panic!("{name}: six components give fibre and sheet")
        };
        for i in 0..l.dims.cells() {
            for k in 0..3 {
                assert_eq!(fibre[i][k], six[6 * i + k] as f32, "{name}: fibre of cell {i}");
                assert_eq!(sheet[i][k], six[6 * i + 3 + k] as f32, "{name}: sheet of cell {i}");
            }
        }
        let three = read_fibres(&path, Some("fibres"), l.dims).unwrap();
        assert!(!three.has_sheet());
        // Two arrays fit a mask (tissue, labels): a name is needed.
        let e = read_labels(&path, None).unwrap_err().to_string();
        assert!(e.contains("several arrays") && e.contains("tissue"), "{e}");
    }
    let e = read_labels(&dir.join("anisotropic-spacing.vti"), Some("tissue")).unwrap_err().to_string();
    assert!(e.contains("not the same along every axis"), "{e}");
    let e =
        read_fibres(&dir.join("ascii.vti"), Some("fibres"), GridDims::new(5, 4, 4)).unwrap_err().to_string();
    assert!(e.contains("5x4x3") && e.contains("5x4x4"), "{e}");
}

#[test]
fn npy_masks_and_fibres_of_the_wrong_type_or_shape_are_refused() {
    use fibril_host::io::npy::encode_shaped;
    use fibril_host::tissue::files::{read_fibres, read_labels};
    let dir = std::env::temp_dir().join(format!("fibril-tissue-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let floats = dir.join("float-mask.npy");
    std::fs::write(&floats, encode_shaped(&[2, 3, 4], &[1.0f32; 24])).unwrap();
    let e = read_labels(&floats, None).unwrap_err().to_string();
    assert!(e.contains("<f4") && e.contains("uint8 or bool"), "{e}");
    let flat = dir.join("flat-fibres.npy");
    std::fs::write(&flat, encode_shaped(&[24, 3], &[1.0f32; 72])).unwrap();
    let e = read_fibres(&flat, None, GridDims::new(4, 3, 2)).unwrap_err().to_string();
    assert!(e.contains("(nz, ny, nx, 3)"), "{e}");
    let four = dir.join("four.npy");
    std::fs::write(&four, encode_shaped(&[2, 3, 4, 4], &[1.0f64; 96])).unwrap();
    let e = read_fibres(&four, None, GridDims::new(4, 3, 2)).unwrap_err().to_string();
    assert!(e.contains("4 components"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What a checkpoint carries (the box state with NaN outside the tissue,
/// and the maps) restarts a tissue solver at the same bits as the run that
/// did not stop, in both layouts.
#[test]
fn a_tissue_run_resumed_from_its_state_and_maps_ends_with_the_same_bits() {
    let dims = GridDims::new(19, 17, 6);
    let op = Arc::new(Operator::build(&irregular(dims, 0.6)).unwrap());
    let d = domain(dims, "karma", 0.6, 0.05, 1.0);
    op.check_dt(0.05).unwrap();
    let start = common::rich_start::<f32>(dims);
    let mut s1 = StimulusSpec::new(RegionKind::Sphere, 7.5);
    s1.center = Some([9.0, 3.0, 3.0]);
    s1.radius = Some(2.5);
    s1.duration_ms = 1.0;
    let stimuli = StimulusSchedule::compile(&[s1], dims, 0.05, Karma::INFO).unwrap();
    let recording = Recording { up: 1.0, down: Some(0.5), beats: None };
    let events = Events { stimuli, recording: Some(recording) };
    for layout in LAYOUTS {
        let maps = Maps::at_start(recording, dims, start.slice(0), 0.0);
        let mut whole = cpu::for_model(&d, &op, layout, &start);
        whole.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
        whole.advance(300).unwrap();
        let mut first = cpu::for_model(&d, &op, layout, &start);
        first.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
        first.advance(160).unwrap();
        let (saved, saved_maps) = (first.state().unwrap(), first.maps().unwrap().unwrap());
        assert!(saved.slice(0).iter().any(|v| v.is_nan()), "the saved state marks the outside");
        let mut resumed = cpu::for_model(&d, &op, layout, &saved);
        resumed.set_events(&events, EventStart::resumed(160), Some(&saved_maps)).unwrap();
        resumed.advance(140).unwrap();
        let bits = |s: &State<f32>| s.slice(0).iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&whole.state().unwrap()), bits(&resumed.state().unwrap()), "{layout:?}");
        let (a, b) = (whole.maps().unwrap().unwrap(), resumed.maps().unwrap().unwrap());
        let mbits = |m: &Maps| m.activation.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(mbits(&a), mbits(&b), "{layout:?} maps");
    }
}

/// `[tissue] weights`: `auto` stores a slab's repeating rows by class,
/// `per-cell` does not, the run's summary says which; an unknown value is
/// refused naming the three.
#[test]
fn the_weights_key_picks_the_storage_and_the_summary_says_which() {
    let dir = std::env::temp_dir().join(format!("fibril-tissue-weights-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |weights: &str| {
        let config = dir.join(format!("{weights}.toml"));
        let text = format!(
            "[grid]\nnx = 12\nny = 10\nnz = 8\n\n[tissue]\ngeometry = \"slab\"\nd_fibre = 1.0\nd_cross = 0.25\n\
             layout = \"dense\"\nweights = \"{weights}\"\n"
        );
        std::fs::write(&config, text).unwrap();
        let out = dir.join(weights);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_fibril"))
            .args(["run", config.to_str().unwrap(), "--steps", "5", "--backend", "cpu", "-q", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let summary = std::fs::read_to_string(out.join("summary.json")).ok();
        (o, summary.map(|s| serde_json::from_str::<serde_json::Value>(&s).unwrap()["method"].clone()))
    };
    let (o, method) = run("auto");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // 3 x 3 positions in x and y per plane, 8 planes.
    assert_eq!(method.unwrap(), "cpu-tissue-dense-classes (72 rows)");
    let (o, method) = run("per-cell");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(method.unwrap(), "cpu-tissue-dense");
    let (o, method) = run("shared");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && method.is_none(), "{err}");
    assert!(err.contains("auto") && err.contains("per-cell") && err.contains("classes"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A sphere of radius 2.5 cells at `center` stimulated at 5 ms (Karma,
/// dt 0.05), and activation and recovery recorded at U = 1 and 0.5.
fn sphere_at_5_ms(dims: GridDims, center: [f64; 3]) -> (Events, Recording) {
    let mut s1 = StimulusSpec::new(RegionKind::Sphere, 5.0);
    s1.center = Some(center);
    s1.radius = Some(2.5);
    let stimuli = StimulusSchedule::compile(&[s1], dims, 0.05, Karma::INFO).unwrap();
    let recording = Recording { up: 1.0, down: Some(0.5), beats: None };
    (Events { stimuli, recording: Some(recording) }, recording)
}

/// 300 steps of the CPU tissue solver with `events` and their maps: its
/// method, state and maps.
fn run_300_steps<T: Scalar>(
    d: &Domain,
    op: &Arc<Operator>,
    layout: TissueLayout,
    choice: impl Into<TableChoice>,
    start: &State<T>,
    events: &Events,
) -> (String, State<T>, Maps) {
    let recording = events.recording.expect("the runs record maps");
    let mut s = cpu::for_model_with(d, op, layout, choice, start).unwrap();
    let maps = Maps::at_start(recording, d.dims(), start.slice(0), 0.0);
    s.set_events(events, EventStart::NEW, Some(&maps)).unwrap();
    s.advance(300).unwrap();
    (s.method(), s.state().unwrap(), s.maps().unwrap().unwrap())
}

/// A spiral in a sheet of tissue with a hole: `fibril run` records the
/// pseudo-ECG of an electrode in the hole and the spiral tips, which
/// stay on the tissue (no tip on the hole's boundary, whose cells border
/// NaN), and the ECG is the library's sum over the tissue's cells.
#[test]
fn the_pseudo_ecg_and_the_spiral_tips_follow_a_tissue() {
    let out = common::scratch("tissue", "ecg-tips");
    std::fs::create_dir_all(&out).unwrap();
    let n = 96usize;
    // A hole of radius 6 cells centred at (20, 70), far from the S1-S2
    // spiral's core in the middle of the sheet.
    let (cx, cy, r) = (20.0, 70.0, 6.0);
    let labels: Vec<u8> = (0..n * n)
        .map(|i| {
            let (x, y) = ((i % n) as f64, (i / n) as f64);
            u8::from((x - cx).powi(2) + (y - cy).powi(2) > r * r)
        })
        .collect();
    std::fs::write(out.join("mask.npy"), common::u8_npy(&[1, n, n], &labels)).unwrap();
    let toml = "[tissue]\nmask = \"mask.npy\"\n";
    std::fs::write(out.join("run.toml"), toml).unwrap();
    let run = out.join("run");
    // Aliev-Panfilov's usual spacing: 0.5 space units.
    let dx = 0.5;
    let electrode = format!("{{name=\"hole\",position=[{},{},0]}}", cx * dx, cy * dx);
    common::ok(&common::fibril_words(
        "run --backend cpu --model aliev_panfilov --protocol scroll --duration-ms 300 --tips-every-ms 5 \
         --ecg-every-ms 1 --precision f64 --format npy",
        &[common::s(&out.join("run.toml")), "--electrode", &electrode, "--out", common::s(&run)],
    ));
    let tips = std::fs::read_to_string(run.join("tips.csv")).unwrap();
    let rows: Vec<Vec<f64>> =
        tips.lines().skip(1).map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect();
    assert!(rows.len() > 10, "a spiral has tips:\n{tips}");
    for row in &rows {
        // t, charge, x, y, z (space units): every tip a cell off the hole.
        let (x, y) = (row[2] / dx, row[3] / dx);
        assert!((x - cx).hypot(y - cy) > r - 1.0, "a tip on the hole's boundary: {row:?}");
    }
    let ecg = std::fs::read_to_string(run.join("ecg.csv")).unwrap();
    let values: Vec<f64> =
        ecg.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert!(values.len() >= 300 && values.iter().all(|v| v.is_finite()), "{} samples", values.len());
    let range =
        values.iter().cloned().fold(f64::MIN, f64::max) - values.iter().cloned().fold(f64::MAX, f64::min);
    assert!(range > 0.0, "the ECG of a spiral varies");
    std::fs::remove_dir_all(&out).unwrap();
}

/// A current stimulus carries charge into the ion the model books it to
/// (O'Hara-Rudy's K_i, `StimulusCarrier`) in every CPU solver's layout of
/// the locals: at the step it is applied, K_i of the stimulated cells is
/// rest + per_u * current * dt (rounded once) and of the others rest;
/// the box solver keeps the locals cell after cell, the tissue solvers a
/// variable after another, a split's parts their owned cells only.
#[test]
fn a_current_stimulus_carries_charge_into_the_models_carrier_in_every_cpu_solver() {
    use fibril_host::backend::Solver;
    use fibril_host::backend::cpu::CpuSolver;
    use fibril_host::tissue::split_cpu::TissueCpuMultiSolver;
    use kernels_gpu::models::imported::ohara_rudy_2011::OharaRudy2011;
    type M = OharaRudy2011;
    let info = M::INFO;
    let stimulus = info.stimulus_current.unwrap();
    let [carrier] = stimulus.carriers else { panic!("O'Hara-Rudy carries its stimulus in K_i") };
    assert_eq!(info.variables[carrier.variable].name, "ki");
    let (dims, dx, dt) = (GridDims::new(6, 5, 4), 0.2, 0.0025);
    let tissue = Tissue::box_of(dims, dx, Fibres::Constant { fibre: [1.0, 0.0, 0.0], sheet: None }, {
        Conductivity { fibre: 0.1, cross: 0.1, sheet: None }
    });
    let op = Arc::new(Operator::build(&tissue).unwrap());
    let d = domain(dims, "ohara_rudy_2011", dx, dt, 0.1);
    let start = State::<f64>::rest(info, dims);
    let mut spec = StimulusSpec::new(RegionKind::Box, 0.0);
    spec.x = Some([0, 1]);
    let events =
        Events { stimuli: StimulusSchedule::compile(&[spec], dims, dt, info).unwrap(), recording: None };
    let rest = info.variables[carrier.variable].rest;
    let carried = rest + carrier.per_u * stimulus.amplitude * dt;
    let check = |what: &str, state: State<f64>| {
        for (i, &ki) in state.slice(carrier.variable).iter().enumerate() {
            let x = i as u32 % dims.nx;
            let want = if x <= 1 { carried } else { rest };
            assert_eq!(ki.to_bits(), want.to_bits(), "{what}: cell {i} (x = {x}) has K_i {ki}, not {want}");
        }
        // V took the current too.
        assert!(state.slice(0)[0] > state.slice(0)[2], "{what}");
    };
    let mut grid = CpuSolver::<M, f64>::new(&d, &start);
    grid.set_events(&events, EventStart::NEW, None).unwrap();
    check("box", grid.state().unwrap());
    for layout in LAYOUTS {
        let mut s = cpu::for_model(&d, &op, layout, &start);
        s.set_events(&events, EventStart::NEW, None).unwrap();
        check(&format!("tissue {layout:?}"), s.state().unwrap());
        let mut split = TissueCpuMultiSolver::<M, f64>::new(&d, &op, layout, 2, &start).unwrap();
        split.set_events(&events, EventStart::NEW, None).unwrap();
        check(&format!("tissue {layout:?} in 2 parts"), split.state().unwrap());
    }
}
