//! Model parameters that vary over a tissue (`fibril_host::cell_params`):
//! regions with their own preset or values and parameters given per
//! cell, validated against uniform runs and against physiology.

mod common;

use common::{fibril_words, ok, refused, s, scratch, u8_npy};
use fibril_host::cell_params::{ParameterField, ParameterMap, RegionParameters};
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{RegionKind, StimulusSpec};
use fibril_host::simulation::{Simulation, SimulationError};
use fibril_host::tissue::{Conductivity, Fibres, Tissue, TissueLayout};
use fibril_host::{GridDims, State};

const TP06: &str = "ten_tusscher_2006";
/// TP06's conductance of I_Kr (nS/pF), the default of every preset.
const G_KR: f64 = 0.153;

fn region(label: u8, preset: Option<&str>, values: &[(&str, f64)]) -> RegionParameters {
    RegionParameters {
        label,
        preset: preset.map(str::to_string),
        values: values.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
    }
}

/// A tissue of `labels` on `dims` with TP06's usual spacing and D.
fn tp06_tissue(dims: GridDims, labels: Vec<u8>) -> Tissue {
    let mut t = Tissue::box_of(dims, 0.2, Fibres::ALONG_X, Conductivity::isotropic(0.154));
    t.labels = labels;
    t
}

/// The activation and repolarisation (at -70 mV) of every cell.
fn recording() -> Recording {
    Recording { up: -40.0, down: Some(-70.0), beats: None }
}

/// A TP06 run (f64) on `tissue` with `map`, the cells `x_stim` excited
/// by the model's own current at t = 0, for `ms`.
fn tp06_run(
    tissue: Tissue,
    map: ParameterMap,
    global: &[(&str, f64)],
    x_stim: [u32; 2],
    ms: f64,
) -> (State<f64>, Maps) {
    let mut stimulus = StimulusSpec::new(RegionKind::Box, 0.0);
    stimulus.x = Some(x_stim);
    let mut builder = fibril::simulation(TP06)
        .tissue(tissue, TissueLayout::Compact)
        .cell_parameters(map)
        .initial(fibril_host::init::InitialCondition::Rest)
        .stimulus(stimulus)
        .maps(recording());
    for (name, value) in global {
        builder = builder.parameter(name, *value);
    }
    let mut sim: Simulation<f64> = builder.build().unwrap();
    sim.run_for_ms(ms).unwrap();
    (sim.state().unwrap(), sim.maps().unwrap().unwrap())
}

/// APD (repolarisation minus activation) of cell `i`, ms.
fn apd(maps: &Maps, i: usize) -> f64 {
    let repolarised = maps.repolarisation.as_ref().unwrap()[i] as f64;
    let t = repolarised - maps.activation[i] as f64;
    assert!(t.is_finite(), "cell {i} did not activate and repolarise");
    t
}

/// Every variable of the cells `cells`, as bits.
fn cell_bits(state: &State<f64>, cells: impl Iterator<Item = usize> + Clone) -> Vec<u64> {
    (0..state.len()).flat_map(|k| cells.clone().map(move |i| state.slice(k)[i].to_bits())).collect()
}

/// Two blocks of a sheet, not connected, both excited at t = 0: I_Kr
/// halved in the right block (label 2) lengthens its action potential
/// and leaves the left block's bits as a uniform run's, while the right
/// block has the bits of a uniform run with I_Kr halved everywhere.
#[test]
fn a_scaled_conductance_in_a_region_changes_the_apd_there_and_only_there() {
    let dims = GridDims::new(9, 2, 1);
    // x 0..4: label 1; x = 4: no tissue; x 5..9: label 2.
    let labels: Vec<u8> = (0..dims.cells()).map(|i| [1, 1, 1, 1, 0, 2, 2, 2, 2][i % 9]).collect();
    let left = (0..dims.cells()).filter(|i| i % 9 < 4);
    let right = (0..dims.cells()).filter(|i| i % 9 > 4);
    let half = ParameterMap { regions: vec![region(2, None, &[("g_kr", G_KR / 2.0)])], fields: vec![] };
    let whole = [0, 8];
    let (uniform, uniform_maps) =
        tp06_run(tp06_tissue(dims, labels.clone()), ParameterMap::default(), &[], whole, 450.0);
    let (mixed, maps) = tp06_run(tp06_tissue(dims, labels.clone()), half, &[], whole, 450.0);
    let (scaled, _) =
        tp06_run(tp06_tissue(dims, labels), ParameterMap::default(), &[("g_kr", G_KR / 2.0)], whole, 450.0);
    assert_eq!(cell_bits(&mixed, left.clone()), cell_bits(&uniform, left), "the left block changed");
    assert_eq!(
        cell_bits(&mixed, right.clone()),
        cell_bits(&scaled, right),
        "the right block is not I_Kr / 2"
    );
    let (apd_left, apd_right) = (apd(&maps, 2), apd(&maps, 6));
    assert_eq!(apd_left, apd(&uniform_maps, 2));
    println!("APD at -70 mV: {apd_left:.1} ms with I_Kr, {apd_right:.1} ms with I_Kr / 2");
    assert!(apd_right > apd_left + 15.0, "I_Kr halved: {apd_right} ms against {apd_left} ms");
}

/// A transmural cable, ENDO, M and EPI cells (ten Tusscher & Panfilov
/// 2006 presets) a third each, paced from the endocardium: the M cells
/// have the longest action potentials (TP06, Fig. 4; Drouin et al. 1995),
/// while the same cable of EPI cells only has a flat APD profile.
#[test]
fn a_transmural_wedge_has_its_longest_apd_in_the_m_cells() {
    let n = 90;
    let dims = GridDims::new(n, 1, 1);
    let labels: Vec<u8> = (0..n as usize).map(|x| 1 + (x / 30) as u8).collect();
    let map = ParameterMap {
        regions: vec![region(1, Some("endo"), &[]), region(2, Some("m"), &[]), region(3, Some("epi"), &[])],
        fields: vec![],
    };
    let (_, maps) = tp06_run(tp06_tissue(dims, labels.clone()), map, &[], [0, 2], 500.0);
    let mean = |cells: std::ops::Range<usize>| {
        cells.clone().map(|i| apd(&maps, i)).sum::<f64>() / cells.len() as f64
    };
    let (endo, m, epi) = (mean(10..20), mean(40..50), mean(70..80));
    println!("APD at -70 mV: ENDO {endo:.1} ms, M {m:.1} ms, EPI {epi:.1} ms");
    assert!(m > endo + 10.0 && m > epi + 10.0, "ENDO {endo}, M {m}, EPI {epi}");
    let (_, flat) = tp06_run(tp06_tissue(dims, labels), ParameterMap::default(), &[], [0, 2], 500.0);
    let apds: Vec<f64> = (10..80).map(|i| apd(&flat, i)).collect();
    let spread =
        apds.iter().cloned().fold(f64::MIN, f64::max) - apds.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread < 0.5 * (m - epi), "a uniform cable spreads its APD by {spread} ms");
}

/// A parameter given per cell equal to a region's value gives that
/// region's bits: two ways to say the same thing.
#[test]
fn a_field_equal_to_a_regions_value_gives_the_same_bits() {
    let dims = GridDims::new(9, 2, 1);
    let labels: Vec<u8> = (0..dims.cells()).map(|i| if i % 9 < 5 { 1 } else { 2 }).collect();
    let by_region = ParameterMap { regions: vec![region(2, None, &[("g_ks", 0.098)])], fields: vec![] };
    let epi_g_ks = fibril_host::ModelSetup::new(TP06, None, &[]).unwrap().get("g_ks").unwrap();
    let values = labels.iter().map(|&l| if l == 2 { 0.098 } else { epi_g_ks }).collect();
    let by_field =
        ParameterMap { regions: vec![], fields: vec![ParameterField { name: "g_ks".into(), values }] };
    let (a, _) = tp06_run(tp06_tissue(dims, labels.clone()), by_region, &[], [0, 1], 40.0);
    let (b, _) = tp06_run(tp06_tissue(dims, labels.clone()), by_field, &[], [0, 1], 40.0);
    assert_eq!(cell_bits(&a, 0..dims.cells()), cell_bits(&b, 0..dims.cells()));
    let (c, _) = tp06_run(tp06_tissue(dims, labels), ParameterMap::default(), &[], [0, 1], 40.0);
    assert_ne!(
        cell_bits(&a, 0..dims.cells()),
        cell_bits(&c, 0..dims.cells()),
        "the parameter made no difference"
    );
}

/// `fibril run` with `[[tissue.region]]` presets and values and a
/// `[tissue.parameter_fields]` file gives the library's bits, and says in
/// its summary which parameters vary.
#[test]
fn the_command_line_takes_regions_and_parameter_fields() {
    let out = scratch("heterogeneity", "cli");
    std::fs::create_dir_all(&out).unwrap();
    let dims = GridDims::new(12, 3, 1);
    let labels: Vec<u8> = (0..dims.cells()).map(|i| if i % 12 < 6 { 1 } else { 2 }).collect();
    std::fs::write(out.join("labels.npy"), u8_npy(&[1, 3, 12], &labels)).unwrap();
    let g_kr: Vec<f64> = (0..dims.cells()).map(|i| G_KR * (1.0 + 0.05 * (i % 12) as f64)).collect();
    std::fs::write(out.join("g_kr.npy"), fibril_host::io::npy::encode_shaped(&[1, 3, 12], &g_kr)).unwrap();
    let toml = "[grid]\ndx = 0.2\n[tissue]\nmask = \"labels.npy\"\nd_fibre = 0.154\n\
                [[tissue.region]]\nlabel = 2\npreset = \"m\"\nparameters = { g_to = 0.2 }\n\
                [tissue.parameter_fields]\ng_kr = \"g_kr.npy\"\n";
    std::fs::write(out.join("run.toml"), toml).unwrap();
    let run = out.join("run");
    ok(&fibril_words(
        "run --backend cpu --model ten_tusscher_2006 --steps 500 --precision f64 --init rest \
         --stimulus {region=\"box\",x=[0,1]}",
        &[s(&out.join("run.toml")), "--out", s(&run)],
    ));
    let map = ParameterMap {
        regions: vec![region(2, Some("m"), &[("g_to", 0.2)])],
        fields: vec![ParameterField { name: "g_kr".into(), values: g_kr }],
    };
    let mut stimulus = StimulusSpec::new(RegionKind::Box, 0.0);
    stimulus.x = Some([0, 1]);
    let mut sim = fibril::simulation(TP06)
        .tissue(tp06_tissue(dims, labels), TissueLayout::Compact)
        .cell_parameters(map)
        .initial(fibril_host::init::InitialCondition::Rest)
        .stimulus(stimulus)
        .build::<f64>()
        .unwrap();
    sim.advance(500).unwrap();
    let u = common::last_u(&run);
    let want = sim.state().unwrap();
    let bits: Vec<u64> = u.iter().map(|x| x.to_bits()).collect();
    assert_eq!(bits, want.slice(0).iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    // Set 0 (label 1 at x = 0: the field's factor 1), label 1 at x = 1..5,
    // label 2 (M, g_to) at x = 6..11.
    let summary = common::read_json(&run.join("summary.json"));
    let sets = &summary["domain"]["parameter_sets"];
    assert_eq!(sets["sets"], 12, "{summary}");
    assert_eq!(sets["varying"], serde_json::json!(["g_to", "g_kr", "g_ks"]), "{summary}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// What cannot be done is refused before any step, naming the fix.
#[test]
fn bad_parameter_maps_are_refused_by_name() {
    let map = ParameterMap { regions: vec![region(2, Some("m"), &[])], fields: vec![] };
    let err = fibril::simulation(TP06).grid(8, 1, 1).cell_parameters(map).build::<f64>().err().unwrap();
    assert!(matches!(err, SimulationError::ParametersNeedTissue), "{err}");
    assert!(err.to_string().contains("Tissue::box_of"), "{err}");
    let out = scratch("heterogeneity", "refused");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("labels.npy"), u8_npy(&[1, 1, 8], &[1, 1, 1, 1, 2, 2, 2, 2])).unwrap();
    std::fs::write(out.join("short.npy"), fibril_host::io::npy::encode_shaped(&[1, 1, 4], &[0.1f64; 4]))
        .unwrap();
    for (extra, needles) in [
        ("[[tissue.region]]\nlabel = 2\npreset = \"mid\"\n", &["region label 2", "mid", "endo, m"][..]),
        ("[[tissue.region]]\nlabel = 3\npreset = \"m\"\n", &["label = 3", "labels are 1, 2"][..]),
        ("[[tissue.region]]\nlabel = 2\nd_fibre = 0.1\n", &["d_fibre and d_cross together"][..]),
        (
            "[tissue.parameter_fields]\ng_kr = \"short.npy\"\n",
            &["short.npy", "a field on a 4x1x1 grid", "geometry is 8x1x1"][..],
        ),
        ("[tissue.parameter_fields]\ng_k = \"short.npy\"\n", &["no parameter \"g_k\""][..]),
    ] {
        let toml = format!("[grid]\ndx = 0.2\n[tissue]\nmask = \"labels.npy\"\nd_fibre = 0.154\n{extra}");
        std::fs::write(out.join("run.toml"), toml).unwrap();
        let o = fibril_words(
            "run --backend cpu --model ten_tusscher_2006 --steps 5",
            &[s(&out.join("run.toml")), "--out", s(&out.join("run"))],
        );
        refused(&o, needles);
        assert!(!out.join("run").exists(), "{extra}: a refused run left its output");
    }
    std::fs::remove_dir_all(&out).unwrap();
}
