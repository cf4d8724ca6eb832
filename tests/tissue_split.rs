//! A tissue split along z over sub-domains of about equal numbers of
//! tissue cells (`fibril_host::tissue::split`), on CPU sub-domains, against
//! the single-domain tissue run: the same bits in every variable and every
//! map, in both layouts (the compact one with its neighbours as u32
//! indices and as 16-bit offsets), the weights per cell and by class,
//! f32 and f64, whatever the number of parts and wherever the cuts fall.

#[path = "common/mod.rs"]
mod common;
#[path = "common/split_tissue.rs"]
mod split_tissue;

use std::sync::Arc;

use fibril_host::backend::Solver;
use fibril_host::events::recording::Maps;
use fibril_host::events::{EventStart, Events};
use fibril_host::multi::{SplitError, ZSplit};
use fibril_host::tissue::split::TissueSplit;
use fibril_host::tissue::split_cpu::TissueCpuMultiSolver;
use fibril_host::tissue::{
    NeighbourChoice, NeighbourForm, Operator, TableChoice, Tissue, TissueLayout, WeightChoice, cpu,
};
use fibril_host::{CellModel, Domain, GridDims, ModelVisitor, Precision, Scalar, State, dispatch};
use kernels_gpu::models::Karma;
use split_tissue::{karma_events, planar_start, same_bits, same_maps};

const LAYOUTS: [TissueLayout; 2] = [TissueLayout::Dense, TissueLayout::Compact];

/// The Karma domain of a tissue (dx = 0.6, D = 1 along the fibres) at
/// dt = 0.05 or the tissue's stable limit, whichever is smaller.
fn karma_domain(tissue: &Tissue) -> (Domain, Arc<Operator>) {
    let op = Operator::build(tissue).unwrap();
    let dt = 0.05f64.min(0.9 * op.dt_max);
    let d = Domain::with_own_operator(tissue.dims, tissue.dx, dt, 1.0, common::model("karma")).unwrap();
    (d, Arc::new(op))
}

/// The weights per cell and by class.
const WEIGHTS: [WeightChoice; 2] = [WeightChoice::PerCell, WeightChoice::Classes];

/// Karma with stimuli and every map: the split runs (each `split`, both
/// layouts, the compact one with u32 indices and with the neighbours the
/// split chooses, 16-bit offsets on these small tissues; the weights per
/// cell and by class) against the single domain with the weights stored
/// the same way, over `steps` steps taken in uneven chunks with the state
/// read in between.
fn karma_with_events<T: Scalar>(tissue: &Tissue, splits: &[ZSplit], steps: u64) {
    let (d, op) = karma_domain(tissue);
    let (start, events, maps) = karma_events::<T>(tissue.dims, d.dt_ms());
    let single = |weights: WeightChoice| {
        let choice = TableChoice { weights, neighbours: NeighbourChoice::Auto };
        let mut single = cpu::for_model_with(&d, &op, TissueLayout::Compact, choice, &start).unwrap();
        single.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
        single.advance(steps).unwrap();
        (single.state().unwrap(), single.maps().unwrap().unwrap())
    };
    let [per_cell, by_class] = WEIGHTS.map(single);
    check_reach(tissue.dims, &op, &per_cell.1);
    // The single domain reads the same bits either way.
    same_bits(&by_class.0, &per_cell.0).unwrap();
    same_maps(&by_class.1, &per_cell.1).unwrap();
    for (weights, (want, want_maps)) in WEIGHTS.into_iter().zip([per_cell, by_class]) {
        split_runs(&d, &op, splits, weights, steps, (&start, &events, &maps), (&want, &want_maps));
    }
}

/// Not vacuous: the wave and the stimuli reached most of the tissue, in
/// every slice with tissue (so across every cut), and it fired twice
/// somewhere.
fn check_reach(dims: GridDims, op: &Operator, want_maps: &Maps) {
    let count = want_maps.count.as_ref().unwrap();
    let activated = op.cells.iter().filter(|&&i| count[i as usize] > 0).count();
    assert!(
        activated * 10 >= op.tissue_cells() * 9,
        "{activated} of {} tissue cells activated",
        op.tissue_cells()
    );
    assert!(count.iter().any(|&n| n >= 2), "some cell fired twice");
    let slice = dims.slice_cells();
    for z in 0..dims.nz as usize {
        let in_slice: Vec<u32> = op.cells.iter().copied().filter(|&i| i as usize / slice == z).collect();
        assert!(
            in_slice.is_empty() || in_slice.iter().any(|&i| count[i as usize] > 0),
            "slice {z} never activated"
        );
    }
}

/// Each `split` of `op`'s tissue in both layouts (the compact one with
/// u32 indices and with the neighbours the split chooses), its weights
/// stored as `weights` asks, from `start` with `events` and `maps`,
/// against the single domain's state and maps `want`.
fn split_runs<T: Scalar>(
    d: &Domain,
    op: &Arc<Operator>,
    splits: &[ZSplit],
    weights: WeightChoice,
    steps: u64,
    (start, events, maps): (&State<T>, &Events, &Maps),
    (want, want_maps): (&State<T>, &Maps),
) {
    let runs = [
        (TissueLayout::Dense, NeighbourChoice::Auto),
        (TissueLayout::Compact, NeighbourChoice::Indices32),
        (TissueLayout::Compact, NeighbourChoice::Auto),
    ];
    for split in splits {
        for (layout, choice) in runs {
            let what = format!("{} {layout:?} {choice:?} {weights:?} {split:?}", T::NAME);
            let parts = TissueSplit::with_neighbours(op, split.clone(), layout, choice).with_weights(weights);
            let form = parts.neighbour_form();
            match (layout, choice) {
                (TissueLayout::Dense, _) => assert_eq!(form, None),
                (_, NeighbourChoice::Indices32) => assert_eq!(form, Some(NeighbourForm::Indices32)),
                (_, NeighbourChoice::Auto) => assert_eq!(form, Some(NeighbourForm::Offsets16), "{what}"),
            }
            let mut s = TissueCpuMultiSolver::<Karma, T>::with_split(d, op, parts, start).unwrap();
            assert_eq!(s.method().contains("-n16"), form == Some(NeighbourForm::Offsets16), "{what}");
            let classes = weights == WeightChoice::Classes;
            assert_eq!(s.method().contains("-classes"), classes, "{what}: {}", s.method());
            s.set_events(events, EventStart::NEW, Some(maps)).unwrap();
            let mut done = 0;
            for chunk in [1, steps / 3, steps / 5, steps] {
                let chunk = chunk.min(steps - done);
                s.advance(chunk).unwrap();
                done += chunk;
                // Reading the state applies the next step's stimuli, once.
                let _ = s.state().unwrap();
            }
            let got = s.state().unwrap();
            same_bits(&got, want).unwrap_or_else(|e| panic!("{what}: {e}"));
            let got_maps = s.maps().unwrap().unwrap();
            same_maps(&got_maps, want_maps).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
    }
}

/// The splits of a tissue by its cells into 2 and 3 parts.
fn balanced_splits(tissue: &Tissue) -> Vec<ZSplit> {
    let op = Operator::build(tissue).unwrap();
    [2, 3].map(|p| TissueSplit::new(&op, p, TissueLayout::Compact).unwrap().split).to_vec()
}

#[test]
fn split_shell_with_events_is_bit_identical_to_one_domain_f32_and_f64() {
    let dims = GridDims::new(22, 20, 34);
    let tissue = split_tissue::shell(dims, 0.6, 1.0);
    let fraction = tissue.tissue_cells() as f64 / dims.cells() as f64;
    assert!((0.15..0.3).contains(&fraction), "a shell of about 20% tissue: {fraction}");
    let splits = balanced_splits(&tissue);
    // The cuts fall where the tissue is: the shell's boundary crosses them.
    let op = Operator::build(&tissue).unwrap();
    for s in &splits {
        for i in 1..s.parts() {
            let z = s.owned(i).start as usize;
            let slice = dims.slice_cells();
            let across = op.cells.iter().filter(|&&c| (c as usize / slice).abs_diff(z) <= 1).count();
            assert!(across > 0, "cut at z = {z} crosses tissue");
        }
    }
    karma_with_events::<f32>(&tissue, &splits, 600);
    karma_with_events::<f64>(&tissue, &splits, 600);
}

#[test]
fn split_cylinder_with_a_hole_is_bit_identical_to_one_domain_f32_and_f64() {
    // An irregular outline (10% of the cells removed at random) and fibres
    // off every axis, changing from cell to cell.
    let dims = GridDims::new(17, 19, 26);
    let tissue = common::irregular_tissue(dims, 0.6, 1.0);
    let mut splits = balanced_splits(&tissue);
    // Cuts by hand: a one-slice part, and one part ending at the top.
    let mut counts = vec![0u64; 26];
    for (z, c) in [(0, 1), (1, 1), (2, 1000), (25, 1)] {
        counts[z] = c;
    }
    splits.push(ZSplit::from_cell_counts(&counts, 4).unwrap());
    assert!(splits[2].owned_len(0) == 1 && splits[2].owned_len(1) == 1, "{:?}", splits[2]);
    karma_with_events::<f32>(&tissue, &splits, 500);
    karma_with_events::<f64>(&tissue, &splits, 500);
}

/// Other models (their local variables stay in place; only U crosses),
/// from the planar start, 2 and 3 parts, both layouts, the weights per
/// cell and by class.
struct OtherModel {
    dims: GridDims,
    steps: u64,
}

impl ModelVisitor for OtherModel {
    type Output = ();
    fn visit<M: CellModel, T: Scalar>(self) -> Self::Output {
        let n = M::INFO.numerics;
        let tissue = split_tissue::shell(self.dims, n.dx, n.diffusion);
        let op = Arc::new(Operator::build(&tissue).unwrap());
        let dt = n.dt.min(0.9 * op.dt_max);
        let d =
            Domain::with_own_operator(self.dims, n.dx, dt, n.diffusion, common::model(M::INFO.name)).unwrap();
        let start = planar_start::<M, T>(self.dims);
        let mut single = cpu::for_model(&d, &op, TissueLayout::Dense, &start);
        single.advance(self.steps).unwrap();
        let want = single.state().unwrap();
        let moved =
            op.cells.iter().filter(|&&i| want.slice(0)[i as usize] != start.slice(0)[i as usize]).count();
        assert!(moved * 2 > op.tissue_cells(), "{}: the wave moved {moved} cells", M::INFO.name);
        for parts in [2, 3] {
            for layout in LAYOUTS {
                for weights in WEIGHTS {
                    let split = TissueSplit::new(&op, parts, layout).unwrap().with_weights(weights);
                    let mut s = TissueCpuMultiSolver::<M, T>::with_split(&d, &op, split, &start).unwrap();
                    s.advance(self.steps).unwrap();
                    let got = s.state().unwrap();
                    same_bits(&got, &want).unwrap_or_else(|e| {
                        panic!("{} {} {layout:?} {weights:?} {parts} parts: {e}", M::INFO.name, T::NAME)
                    });
                }
            }
        }
    }
}

#[test]
fn split_tissue_of_models_with_many_variables_is_bit_identical() {
    let dims = GridDims::new(14, 13, 24);
    for (name, precision) in [("aliev_panfilov", Precision::F32), ("beeler_reuter", Precision::F64)] {
        let m = fibril_host::models::MODELS.iter().find(|m| m.name == name).expect("a registered model");
        dispatch(m, precision, OtherModel { dims, steps: 400 });
    }
}

/// A split stores its weights as a single domain does for the same
/// choice, and its method names that storage: automatically by class
/// where the whole tissue's rows repeat (fibres turning through z), per
/// cell where they do not (fibres of every cell their own, unlike their
/// neighbours').
#[test]
fn a_split_stores_its_weights_as_one_domain_does_for_the_same_choice() {
    use fibril_host::tissue::{Conductivity, Fibres};
    let dims = GridDims::new(13, 11, 15);
    let turning = common::turning_tissue(dims, 0.6, 1.0);
    let fibre = (0..dims.cells()).map(|i| [1.0, (i % 97) as f32 * 0.013, (i % 89) as f32 * -0.011]).collect();
    let c = Conductivity { fibre: 1.0, cross: 0.2, sheet: None };
    let unique = Tissue::box_of(dims, 0.6, Fibres::PerCell { fibre, sheet: None }, c);
    for (tissue, auto_by_class) in [(turning, true), (unique, false)] {
        let (d, op) = karma_domain(&tissue);
        let start = planar_start::<Karma, f32>(dims);
        for layout in LAYOUTS {
            for weights in [WeightChoice::Auto, WeightChoice::PerCell, WeightChoice::Classes] {
                let one = cpu::for_model_with(&d, &op, layout, weights, &start).unwrap();
                let split = TissueSplit::new(&op, 3, layout).unwrap().with_weights(weights);
                let s = TissueCpuMultiSolver::<Karma, f32>::with_split(&d, &op, split, &start).unwrap();
                assert_eq!(s.method(), format!("{} z-split 3", one.method()), "{layout:?} {weights:?}");
                if weights == WeightChoice::Auto {
                    assert_eq!(s.method().contains("-classes"), auto_by_class, "{}", s.method());
                }
            }
        }
    }
}

/// Classes asked for of a split are refused past 65,536 distinct rows,
/// naming the fix, as they are of a single domain.
#[test]
fn a_split_by_class_of_too_many_distinct_rows_is_refused_naming_the_fix() {
    use fibril_host::tissue::{Conductivity, Fibres, TissueError};
    let dims = GridDims::new(48, 48, 32);
    let fibre = (0..dims.cells()).map(|i| [1.0, i as f32 * 1e-5, 0.5]).collect();
    let c = Conductivity { fibre: 1.0, cross: 0.25, sheet: None };
    let (d, op) = karma_domain(&Tissue::box_of(dims, 0.6, Fibres::PerCell { fibre, sheet: None }, c));
    let start = planar_start::<Karma, f64>(dims);
    let split = TissueSplit::new(&op, 2, TissueLayout::Compact).unwrap();
    let auto = TissueCpuMultiSolver::<Karma, f64>::with_split(&d, &op, split.clone(), &start).unwrap();
    assert!(!auto.method().contains("-classes"), "{}", auto.method());
    let by_class = split.with_weights(WeightChoice::Classes);
    let e = TissueCpuMultiSolver::<Karma, f64>::with_split(&d, &op, by_class, &start).err().unwrap();
    assert_eq!(e, TissueError::TooManyClasses { max: 65536 });
    assert!(e.to_string().contains("per-cell"), "{e}");
}

#[test]
fn a_split_of_more_parts_than_slices_with_tissue_is_refused_naming_the_fix() {
    // Tissue in 3 slices only.
    let dims = GridDims::new(12, 11, 9);
    let mut tissue = common::irregular_tissue(dims, 0.6, 1.0);
    for (i, l) in tissue.labels.iter_mut().enumerate() {
        if !(3..6).contains(&(i / dims.slice_cells())) {
            *l = 0;
        }
    }
    let (d, op) = karma_domain(&tissue);
    let start = planar_start::<Karma, f32>(dims);
    assert!(TissueCpuMultiSolver::<Karma, f32>::new(&d, &op, TissueLayout::Compact, 3, &start).is_ok());
    let e = TissueCpuMultiSolver::<Karma, f32>::new(&d, &op, TissueLayout::Dense, 4, &start).err().unwrap();
    assert_eq!(e, SplitError::TooFewTissueSlices { parts: 4, slices: 3 });
    assert!(e.to_string().contains("use at most 3 GPUs"), "{e}");
}

/// `fibril run` with a tissue refuses one process per GPU (NCCL, a rank
/// and world size), naming what works, before any work starts.
#[test]
fn a_tissue_is_refused_as_one_process_per_gpu_naming_the_fix() {
    let dir = std::env::temp_dir().join(format!("fibril-tissue-split-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("shell.toml");
    std::fs::write(
        &config,
        "[grid]\nnx = 16\nny = 16\nnz = 24\n\n[tissue]\ngeometry = \"shell\"\nwall = 2.0\nd_fibre = 1.0\nd_cross = 0.2\n",
    )
    .unwrap();
    let out = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", config.to_str().unwrap(), "--steps", "5", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_fibril")).args(&args).output().unwrap()
    };
    for extra in [&["--exchange", "nccl"][..], &["--exchange", "nccl", "--rank", "1", "--world-size", "2"]] {
        let o = run(extra);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{extra:?}: {err}");
        assert!(err.contains("a tissue runs in one process") && err.contains("--gpus N"), "{extra:?}: {err}");
        assert!(!out.exists(), "nothing written before the refusal");
    }
    // The same tissue on the CPU runs.
    let o = run(&["--backend", "cpu", "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
