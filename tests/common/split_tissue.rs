//! What the split-tissue checks share (tests/tissue_split.rs on the CPU,
//! tests/gpu_vs_cpu.rs on the GPU): irregular tissues, a Karma run with
//! stimuli and every map, and bit-for-bit comparisons that say where.
#![allow(dead_code)] // each test binary uses a different subset

use fibril_host::events::Events;
use fibril_host::events::recording::{Maps, Recording};
use fibril_host::events::stimulus::{RegionKind, StimulusSchedule, StimulusSpec};
use fibril_host::init::InitialCondition;
use fibril_host::tissue::{Conductivity, Tissue, geometry};
use fibril_host::{CellModel, GridDims, Scalar, State};
use kernels_gpu::models::Karma;

/// A thick ellipsoidal shell inscribed in the box (about 20% of it) with
/// helical fibres turning through its wall; D_fibre = `d`, D_cross = `d` / 5.
pub fn shell(dims: GridDims, dx: f64, d: f64) -> Tissue {
    geometry::shell(dims, dx, 2.2 * dx, [-60.0, 60.0], Conductivity { fibre: d, cross: 0.2 * d, sheet: None })
}

/// Karma's planar start (the slab z <= 0.05 nz excited, which the shell's
/// bottom cap and the cylinder's base lie in), a ball paced twice on the
/// shell's -x wall at mid-height, a current into a slab across the middle
/// slices (which the cuts of a split fall in), a mask stimulus on the top
/// slices, and every map (two beats, repolarisation).
pub fn karma_events<T: Scalar>(dims: GridDims, dt_ms: f64) -> (State<T>, Events, Maps) {
    let start = InitialCondition::Planar.state::<T>(Karma::INFO, dims);
    let mut paced = StimulusSpec::new(RegionKind::Sphere, 4.0);
    paced.center = Some([1.0, dims.ny as f64 / 2.0, dims.nz as f64 / 2.0]);
    paced.radius = Some(3.0);
    paced.duration_ms = 1.0;
    paced.period_ms = Some(14.0);
    paced.count = Some(2);
    let mut current = StimulusSpec::new(RegionKind::Box, 9.0);
    current.z = Some([dims.nz / 2 - 2, dims.nz / 2 + 2]);
    current.y = Some([0, 3]);
    current.current = Some(5.0);
    current.duration_ms = 1.0;
    let mask: Vec<f32> = (0..dims.cells())
        .map(|i| {
            let (x, z) = (i % dims.nx as usize, i / dims.slice_cells());
            f32::from(z + 3 >= dims.nz as usize && x % 2 == 0)
        })
        .collect();
    let file = std::env::temp_dir().join(format!(
        "fibril-split-tissue-mask-{}-{}-{}.npy",
        std::process::id(),
        dims.cells(),
        T::NAME
    ));
    let shape = [dims.nz as usize, dims.ny as usize, dims.nx as usize];
    std::fs::write(&file, fibril_host::io::npy::encode_shaped(&shape, &mask)).unwrap();
    let mut masked = StimulusSpec::new(RegionKind::Mask, 11.0);
    masked.file = Some(file.clone());
    let stimuli = StimulusSchedule::compile(&[paced, current, masked], dims, dt_ms, Karma::INFO).unwrap();
    std::fs::remove_file(&file).unwrap();
    let recording = Recording { up: Karma::INFO.activation_threshold, down: Some(0.5), beats: Some(2) };
    let maps = Maps::at_start(recording, dims, start.slice(0), 0.0);
    (start, Events { stimuli, recording: Some(recording) }, maps)
}

/// Every variable of two states, bit for bit (NaN outside the tissue in both).
pub fn same_bits<T: Scalar>(got: &State<T>, want: &State<T>) -> Result<(), String> {
    if got.dims() != want.dims() || got.len() != want.len() {
        return Err(format!("shapes differ: {:?} vs {:?}", got.dims(), want.dims()));
    }
    for k in 0..want.len() {
        let (g, w) = (got.slice(k), want.slice(k));
        if let Some(i) = (0..w.len()).find(|&i| g[i].to_f64().to_bits() != w[i].to_f64().to_bits()) {
            let n = (0..w.len()).filter(|&i| g[i].to_f64().to_bits() != w[i].to_f64().to_bits()).count();
            return Err(format!(
                "variable {k}: {n} cells differ, first at box index {i} (z = {}): {:?} vs {:?}",
                i / want.dims().slice_cells(),
                g[i],
                w[i]
            ));
        }
    }
    Ok(())
}

/// Every map, bit for bit.
pub fn same_maps(got: &Maps, want: &Maps) -> Result<(), String> {
    let bits = |v: &[f32]| v.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
    if bits(&got.activation) != bits(&want.activation) {
        return Err("activation maps differ".into());
    }
    if got.repolarisation.as_deref().map(bits) != want.repolarisation.as_deref().map(bits) {
        return Err("repolarisation maps differ".into());
    }
    if got.count != want.count {
        return Err("activation counts differ".into());
    }
    Ok(())
}

/// A state of `M` with the model's planar start (a current-stimulated
/// model's slab raised to its excited value, so that a run without a
/// stimulus schedule starts a wave too).
pub fn planar_start<M: CellModel, T: Scalar>(dims: GridDims) -> State<T> {
    let mut start = InitialCondition::Planar.state::<T>(M::INFO, dims);
    if M::INFO.stimulus_current.is_some() {
        let slab = fibril_host::init::planar_stimulus_slices(dims.nz);
        for (i, u) in start.slice_mut(0).iter_mut().enumerate() {
            if i / dims.slice_cells() < slab as usize {
                *u = T::from_f64(M::INFO.stimulus_value);
            }
        }
    }
    start
}
