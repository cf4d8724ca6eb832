//! A tissue split along z over sub-domains of about equal numbers of
//! tissue cells (`fibril_host::tissue::split`), on CPU sub-domains, against
//! the single-domain tissue run: the same bits in every variable and every
//! map, in both layouts (the compact one with its neighbours as u32
//! indices and as 16-bit offsets), f32 and f64, whatever the number of
//! parts and wherever the cuts fall.

#[path = "common/mod.rs"]
mod common;
#[path = "common/split_tissue.rs"]
mod split_tissue;

use std::sync::Arc;

use fibril_host::backend::Solver;
use fibril_host::events::EventStart;
use fibril_host::multi::{SplitError, ZSplit};
use fibril_host::tissue::split::TissueSplit;
use fibril_host::tissue::split_cpu::TissueCpuMultiSolver;
use fibril_host::tissue::{NeighbourChoice, NeighbourForm, Operator, Tissue, TissueLayout, cpu};
use fibril_host::{CellModel, Domain, GridDims, ModelVisitor, Precision, Scalar, dispatch};
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

/// Karma with stimuli and every map: the split runs (each `split`, both
/// layouts, the compact one with u32 indices and with the neighbours the
/// split chooses, 16-bit offsets on these small tissues) against the
/// single domain, over `steps` steps taken in uneven chunks with the
/// state read in between.
fn karma_with_events<T: Scalar>(tissue: &Tissue, splits: &[ZSplit], steps: u64) {
    let (d, op) = karma_domain(tissue);
    let dims = tissue.dims;
    let (start, events, maps) = karma_events::<T>(dims, d.dt_ms());
    let mut single = cpu::for_model(&d, &op, TissueLayout::Compact, &start);
    single.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
    single.advance(steps).unwrap();
    let (want, want_maps) = (single.state().unwrap(), single.maps().unwrap().unwrap());
    // Not vacuous: the wave and the stimuli reached most of the tissue, in
    // every slice with tissue (so across every cut), and it fired twice
    // somewhere.
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
    let runs = [
        (TissueLayout::Dense, NeighbourChoice::Auto),
        (TissueLayout::Compact, NeighbourChoice::Indices32),
        (TissueLayout::Compact, NeighbourChoice::Auto),
    ];
    for split in splits {
        for (layout, choice) in runs {
            let what = format!("{} {layout:?} {choice:?} {split:?}", T::NAME);
            let parts = TissueSplit::with_neighbours(&op, split.clone(), layout, choice);
            let form = parts.neighbour_form();
            match (layout, choice) {
                (TissueLayout::Dense, _) => assert_eq!(form, None),
                (_, NeighbourChoice::Indices32) => assert_eq!(form, Some(NeighbourForm::Indices32)),
                (_, NeighbourChoice::Auto) => assert_eq!(form, Some(NeighbourForm::Offsets16), "{what}"),
            }
            let mut s = TissueCpuMultiSolver::<Karma, T>::with_split(&d, &op, parts, &start);
            assert_eq!(s.method().contains("-n16"), form == Some(NeighbourForm::Offsets16), "{what}");
            s.set_events(&events, EventStart::NEW, Some(&maps)).unwrap();
            let mut done = 0;
            for chunk in [1, steps / 3, steps / 5, steps] {
                let chunk = chunk.min(steps - done);
                s.advance(chunk).unwrap();
                done += chunk;
                // Reading the state applies the next step's stimuli, once.
                let _ = s.state().unwrap();
            }
            let got = s.state().unwrap();
            same_bits(&got, &want).unwrap_or_else(|e| panic!("{what}: {e}"));
            let got_maps = s.maps().unwrap().unwrap();
            same_maps(&got_maps, &want_maps).unwrap_or_else(|e| panic!("{what}: {e}"));
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
/// from the planar start, 2 and 3 parts, both layouts.
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
                let mut s = TissueCpuMultiSolver::<M, T>::new(&d, &op, layout, parts, &start).unwrap();
                s.advance(self.steps).unwrap();
                let got = s.state().unwrap();
                same_bits(&got, &want)
                    .unwrap_or_else(|e| panic!("{} {} {layout:?} {parts} parts: {e}", M::INFO.name, T::NAME));
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
