//! Writing a checkpoint: the header, the model section and the payload
//! of version 5, sealed with the checksum, and written atomically.

use std::io;
use std::path::Path;

use super::format::{
    CHECKSUM_AT, FLAG_ACTIVATION, FLAG_COUNT, FLAG_PHASE, FLAG_REPOLARISATION, FORMAT_VERSION, HEADER_BYTES,
    MAGIC, PhaseSample, Progress,
};
use crate::domain::Domain;
use crate::events::recording::Maps;
use crate::hash::Fnv1a64;
use crate::io::{RunId, write_atomic};
use crate::scalar::Scalar;
use crate::state::State;

pub(super) fn put_u16(out: &mut Vec<u8>, x: u16) {
    out.extend_from_slice(&x.to_le_bytes());
}
pub(super) fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}
pub(super) fn put_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(&x.to_le_bytes());
}
pub(super) fn put_f64(out: &mut Vec<u8>, x: f64) {
    out.extend_from_slice(&x.to_le_bytes());
}
pub(super) fn put_name(out: &mut Vec<u8>, name: &str) {
    put_u16(out, u16::try_from(name.len()).expect("names are short"));
    out.extend_from_slice(name.as_bytes());
}

/// The model section of a version 5 header.
fn model_section(domain: &Domain, run: Option<RunId>) -> Vec<u8> {
    let model = domain.model();
    let mut out = Vec::new();
    put_name(&mut out, model.name());
    put_name(&mut out, model.preset().unwrap_or(""));
    let parameters = model.parameters();
    put_u16(&mut out, parameters.len() as u16);
    for p in parameters {
        put_name(&mut out, p.name);
        put_f64(&mut out, p.value);
    }
    for v in model.info().variables {
        put_name(&mut out, v.name);
    }
    put_name(&mut out, &model.math_name());
    put_name(&mut out, &domain.operator_fingerprint().map_or(String::new(), |f| format!("{f:016x}")));
    put_name(&mut out, &run.map_or(String::new(), |r| r.to_string()));
    out
}

/// The bytes of a checkpoint of `state` at `progress` of a run on
/// `domain`, with the maps recorded so far and the phase memory of a run
/// finding tips.
pub fn encode<T: Scalar>(
    domain: &Domain,
    progress: Progress,
    state: &State<T>,
    maps: Option<&Maps>,
    phase: Option<&PhaseSample>,
) -> Vec<u8> {
    let step = progress.step;
    let cells = domain.cells();
    let variables = state.len();
    assert_eq!(state.model().name, domain.model().name(), "the state belongs to the domain's model");
    let mut flags = 0;
    let (mut up, mut down, mut beats) = (0.0, f64::NAN, 1u64);
    let mut payload_len = variables * cells * T::BYTES;
    if let Some(maps) = maps {
        assert_eq!(maps.dims, domain.dims(), "maps of the whole grid");
        flags |= FLAG_ACTIVATION;
        up = maps.recording.up;
        payload_len += 4 * maps.activation.len();
        if let Some(r) = &maps.repolarisation {
            flags |= FLAG_REPOLARISATION;
            down = maps.recording.down.expect("a repolarisation map has a threshold");
            payload_len += 4 * r.len();
        }
        if maps.count.is_some() {
            flags |= FLAG_COUNT;
            beats = maps.recording.slots() as u64;
            payload_len += 4 * cells;
        }
    }
    if let Some(phase) = phase {
        assert_eq!(phase.field.len(), cells, "the phase memory of the whole grid");
        flags |= FLAG_PHASE;
        payload_len += 8 + cells * T::BYTES;
    }
    let section = model_section(domain, progress.run);
    let dims = domain.dims();
    let mut out = Vec::with_capacity(HEADER_BYTES + section.len() + payload_len);
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, FORMAT_VERSION);
    put_u32(&mut out, T::BYTES as u32);
    for n in [dims.nx, dims.ny, dims.nz] {
        put_u32(&mut out, n);
    }
    put_u32(&mut out, variables as u32);
    for x in [domain.dx(), domain.dt_ms(), domain.diffusion()] {
        put_f64(&mut out, x);
    }
    put_u32(&mut out, flags);
    put_u32(&mut out, section.len() as u32);
    put_u64(&mut out, step);
    put_f64(&mut out, step as f64 * domain.dt_ms());
    put_f64(&mut out, up);
    put_f64(&mut out, down);
    put_u64(&mut out, beats);
    put_u64(&mut out, progress.snapshots);
    put_u64(&mut out, payload_len as u64);
    debug_assert_eq!(out.len(), CHECKSUM_AT);
    put_u64(&mut out, 0); // the checksum, filled in below
    out.extend_from_slice(&section);
    for k in 0..variables {
        T::extend_le_bytes(state.slice(k), &mut out);
    }
    if let Some(maps) = maps {
        out.extend(maps.activation.iter().flat_map(|t| t.to_le_bytes()));
        if let Some(r) = &maps.repolarisation {
            out.extend(r.iter().flat_map(|t| t.to_le_bytes()));
        }
        if let Some(c) = &maps.count {
            out.extend(c.iter().flat_map(|n| n.to_le_bytes()));
        }
    }
    if let Some(phase) = phase {
        put_u64(&mut out, phase.step);
        let field: Vec<T> = phase.field.iter().map(|&v| T::from_f64(v)).collect();
        T::extend_le_bytes(&field, &mut out);
    }
    debug_assert_eq!(out.len(), HEADER_BYTES + section.len() + payload_len);
    let mut h = Fnv1a64::default();
    h.update(&out[..CHECKSUM_AT]);
    h.update(&out[HEADER_BYTES..]);
    out[CHECKSUM_AT..HEADER_BYTES].copy_from_slice(&h.finish().to_le_bytes());
    out
}

/// Writes a checkpoint atomically (temporary file, fsync, rename).
pub fn write<T: Scalar>(
    path: &Path,
    domain: &Domain,
    progress: Progress,
    state: &State<T>,
    maps: Option<&Maps>,
    phase: Option<&PhaseSample>,
) -> io::Result<()> {
    write_atomic(path, &encode(domain, progress, state, maps, phase))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::decode::read;
    use crate::checkpoint::testing::{domain, state};
    use crate::events::recording::Recording;

    #[test]
    fn round_trip_with_maps() {
        let d = domain(4);
        let f = state(&d);
        let recording = Recording { up: 1.0, down: Some(0.5), beats: Some(3) };
        let mut maps = Maps::at_start(recording, d.dims(), f.slice(0), 0.5);
        maps.repolarisation.as_mut().unwrap()[7] = 12.5;
        let phase = PhaseSample { step: 38, field: f.slice(1).iter().map(|&v| f64::from(v)).collect() };
        let run = Some(RunId(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210));
        let bytes = encode(&d, Progress { step: 40, snapshots: 3, run }, &f, Some(&maps), Some(&phase));
        let path = std::env::temp_dir().join(format!("fibril-ckpt-{}.fibril", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let back = read::<f32>(&path).unwrap();
        assert_eq!(back.header.step, 40);
        assert_eq!(back.header.t_ms, 2.0);
        assert_eq!(back.header.dims, d.dims());
        assert_eq!(back.header.model, "karma");
        assert_eq!(back.header.preset.as_deref(), Some("stable"));
        assert_eq!(back.header.variables, ["U", "v"]);
        assert_eq!(back.header.snapshots, Some(3));
        assert_eq!(back.header.run, run, "the run's identity is kept");
        back.header.check_matches(&path, &d).unwrap();
        assert_eq!(back.state, f);
        let back_maps = back.maps.unwrap();
        let bits = |v: &[f32]| v.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
        assert_eq!(back_maps.recording, recording);
        assert_eq!(bits(&back_maps.activation), bits(&maps.activation));
        assert_eq!(
            bits(back_maps.repolarisation.as_ref().unwrap()),
            bits(maps.repolarisation.as_ref().unwrap())
        );
        assert_eq!(back_maps.count, maps.count);
        assert_eq!(back.header.phase_step, Some(38));
        assert_eq!(back.phase, Some(phase));
        // In the wrong precision it is refused, naming the fix.
        let e = read::<f64>(&path).unwrap_err().to_string();
        assert!(e.contains("--precision f32"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}
