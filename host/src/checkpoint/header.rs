//! Reading a checkpoint's header, of every version still read (1 to 5):
//! the fields, the lengths they imply against the bytes present, and the
//! checksum, all checked before any payload is touched.

use std::path::Path;

use kernels_gpu::GridDims;
use kernels_gpu::fast_math::MathMode;

use super::format::{
    CHECKSUM_AT, CheckpointError, CheckpointHeader, FLAG_ACTIVATION, FLAG_COUNT, FLAG_PHASE, FLAG_PREVIOUS,
    FLAG_REPOLARISATION, FORMAT_VERSION, HEADER_BYTES, MAGIC, V1_CHECKSUM_AT, V1_HEADER_BYTES,
};
use crate::events::recording::Recording;
use crate::hash::Fnv1a64;
use crate::io::RunId;
use crate::scalar::Precision;

/// Reads little-endian numbers off a byte string; running past its end is
/// an error, never a panic.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// The reader ran past the end of what it was given.
struct Short;

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Short> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(Short)?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, Short> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }
    fn u32(&mut self) -> Result<u32, Short> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, Short> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn f64(&mut self) -> Result<f64, Short> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn name(&mut self) -> Result<Result<String, std::string::FromUtf8Error>, Short> {
        let n = self.u16()? as usize;
        Ok(String::from_utf8(self.take(n)?.to_vec()))
    }
}

/// Parses and verifies the header of checkpoint bytes (magic, version,
/// lengths, checksum); `path` only names the file in errors.
pub fn decode_header(path: &Path, bytes: &[u8]) -> Result<CheckpointHeader, CheckpointError> {
    let path_buf = || path.to_path_buf();
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(CheckpointError::NotACheckpoint { path: path_buf() });
    }
    let truncated =
        |expected: u64| CheckpointError::Truncated { path: path_buf(), expected, found: bytes.len() as u64 };
    let mut r = Reader { bytes, at: 8 };
    let version = r.u32().map_err(|_| truncated(HEADER_BYTES as u64))?;
    match version {
        1 => decode_header_v1(path, bytes),
        2..=5 => decode_header_v2(path, bytes, version),
        found => Err(CheckpointError::Version { path: path_buf(), found }),
    }
}

/// The common tail of both versions: precision, payload size, checksum.
struct Frame {
    precision: Precision,
    cells: u64,
}

fn check_frame(
    path: &Path,
    bytes: &[u8],
    (value_bytes, dims): (u32, [u32; 3]),
    payload: (usize, u64),
    checksum: (usize, u64),
) -> Result<Frame, CheckpointError> {
    let (payload_at, payload_len) = payload;
    let expected = payload_at as u64 + payload_len;
    if (bytes.len() as u64) < expected {
        return Err(CheckpointError::Truncated { path: path.into(), expected, found: bytes.len() as u64 });
    }
    let corrupt = |why: String| CheckpointError::Corrupt { path: path.into(), why };
    if (bytes.len() as u64) > expected {
        return Err(corrupt(format!(
            "{} bytes follow the {expected} its header announces",
            bytes.len() as u64 - expected
        )));
    }
    let (checksum_at, checksum) = checksum;
    let mut h = Fnv1a64::default();
    h.update(&bytes[..checksum_at]);
    h.update(&bytes[checksum_at + 8..]);
    if h.finish() != checksum {
        return Err(corrupt(format!(
            "its checksum is {:#018x} but its contents hash to {:#018x}",
            checksum,
            h.finish()
        )));
    }
    let precision = match value_bytes {
        4 => Precision::F32,
        8 => Precision::F64,
        n => return Err(corrupt(format!("{n} bytes per value"))),
    };
    let [nx, ny, nz] = dims;
    let cells = (nx as u64)
        .checked_mul(ny as u64)
        .and_then(|c| c.checked_mul(nz as u64))
        .filter(|&c| c > 0)
        .ok_or_else(|| corrupt(format!("a {nx}x{ny}x{nz} grid")))?;
    Ok(Frame { precision, cells })
}

/// The payload bytes a header implies, or `None` on overflow.
/// Payload bytes of a checkpoint of `version` with these fields (`beats`
/// slots per cell in version 3).
fn payload_needed(
    version: u32,
    cells: u64,
    variables: u64,
    value_bytes: u64,
    flags: u32,
    beats: u64,
) -> Option<u64> {
    let mut needed = cells.checked_mul(variables)?.checked_mul(value_bytes)?;
    if version >= 4 && flags & FLAG_PHASE != 0 {
        needed = needed.checked_add(cells.checked_mul(value_bytes)?.checked_add(8)?)?;
    }
    if flags & FLAG_ACTIVATION == 0 {
        return Some(needed);
    }
    if version < 3 {
        needed = needed.checked_add(cells.checked_mul(4)?)?;
        if flags & FLAG_PREVIOUS != 0 {
            needed = needed.checked_add(cells.checked_mul(value_bytes)?)?;
        }
        return Some(needed);
    }
    let field = cells.checked_mul(beats)?.checked_mul(4)?;
    needed = needed.checked_add(field)?;
    if flags & FLAG_REPOLARISATION != 0 {
        needed = needed.checked_add(field)?;
    }
    if flags & FLAG_COUNT != 0 {
        needed = needed.checked_add(cells.checked_mul(4)?)?;
    }
    Some(needed)
}

/// The fixed-size part of a version 2 or 3 header (bytes 12..128); the
/// words at 88 and 96 mean different things in each (see the module docs).
struct FixedV2 {
    value_bytes: u32,
    dims: [u32; 3],
    variables: u32,
    dx: f64,
    dt_ms: f64,
    diffusion: f64,
    flags: u32,
    section_len: u32,
    step: u64,
    t_ms: f64,
    threshold: f64,
    word88: u64,
    word96: u64,
    snapshots: u64,
    payload_len: u64,
    checksum: u64,
}

impl FixedV2 {
    /// Reads the fields in file order (see the module docs).
    fn read(r: &mut Reader<'_>) -> Result<Self, Short> {
        Ok(Self {
            value_bytes: r.u32()?,
            dims: [r.u32()?, r.u32()?, r.u32()?],
            variables: r.u32()?,
            dx: r.f64()?,
            dt_ms: r.f64()?,
            diffusion: r.f64()?,
            flags: r.u32()?,
            section_len: r.u32()?,
            step: r.u64()?,
            t_ms: r.f64()?,
            threshold: r.f64()?,
            word88: r.u64()?,
            word96: r.u64()?,
            snapshots: r.u64()?,
            payload_len: r.u64()?,
            checksum: r.u64()?,
        })
    }
}

fn decode_header_v2(path: &Path, bytes: &[u8], version: u32) -> Result<CheckpointHeader, CheckpointError> {
    let truncated = |expected: usize| CheckpointError::Truncated {
        path: path.into(),
        expected: expected as u64,
        found: bytes.len() as u64,
    };
    let corrupt = |why: String| CheckpointError::Corrupt { path: path.into(), why };
    let h = FixedV2::read(&mut Reader { bytes, at: 12 }).map_err(|_| truncated(HEADER_BYTES))?;
    let FixedV2 {
        value_bytes,
        dims,
        variables,
        dx,
        dt_ms,
        diffusion,
        flags,
        section_len,
        step,
        t_ms,
        threshold,
        word88,
        word96,
        snapshots,
        payload_len,
        checksum,
    } = h;
    let has_maps = flags & FLAG_ACTIVATION != 0;
    let (recording, beats) = if version >= 3 {
        let beats = word96;
        if has_maps && !(1..=u32::MAX as u64).contains(&beats) {
            return Err(corrupt(format!("it keeps {beats} beats per cell")));
        }
        let recording = Recording {
            up: threshold,
            down: (flags & FLAG_REPOLARISATION != 0).then_some(f64::from_bits(word88)),
            beats: (flags & FLAG_COUNT != 0).then_some(beats as u32),
        };
        (has_maps.then_some(recording), beats)
    } else {
        (has_maps.then_some(Recording { up: threshold, down: None, beats: None }), 1)
    };
    if recording.is_some_and(|r| r.beats.is_none() && beats != 1) {
        return Err(corrupt(format!("first-crossing maps with {beats} slots per cell")));
    }
    let payload_at = HEADER_BYTES + section_len as usize;
    if bytes.len() < payload_at {
        return Err(truncated(payload_at));
    }
    let frame =
        check_frame(path, bytes, (value_bytes, dims), (payload_at, payload_len), (CHECKSUM_AT, checksum))?;
    // The checksum holds: what follows was written by fibril as it is.
    let mut s = Reader { bytes: &bytes[..payload_at], at: HEADER_BYTES };
    let bad_section = || corrupt("its model section does not parse".into());
    let text = |r: Result<Result<String, _>, Short>| r.map_err(|_| bad_section())?.map_err(|_| bad_section());
    let model = text(s.name())?;
    let preset = text(s.name())?;
    let count = s.u16().map_err(|_| bad_section())?;
    let mut parameters = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let name = text(s.name())?;
        parameters.push((name, s.f64().map_err(|_| bad_section())?));
    }
    let mut names = Vec::new();
    for _ in 0..variables.min(1024) {
        names.push(text(s.name())?);
    }
    // Version 4 names the math mode; the earlier ones had the reference
    // functions only, which are the exact mode's.
    let (math, rate_tables) = if version >= 4 {
        let named = text(s.name())?;
        let (mode, tables) = match named.strip_suffix("+tables") {
            Some(mode) => (mode, true),
            None => (named.as_str(), false),
        };
        let math = match mode {
            "fast" => MathMode::Fast,
            "exact" => MathMode::Exact,
            _ => return Err(bad_section()),
        };
        (math, tables)
    } else {
        (MathMode::Exact, false)
    };
    let operator = if version >= 4 {
        match text(s.name())?.as_str() {
            "" => None,
            hex => Some(u64::from_str_radix(hex, 16).map_err(|_| bad_section())?),
        }
    } else {
        None
    };
    let run = if version >= 5 {
        match text(s.name())?.as_str() {
            "" => None,
            hex => Some(RunId::parse(hex).ok_or_else(bad_section)?),
        }
    } else {
        None
    };
    if names.len() != variables as usize || s.at != payload_at {
        return Err(bad_section());
    }
    let needed = payload_needed(version, frame.cells, variables as u64, value_bytes as u64, flags, beats);
    if needed != Some(payload_len) {
        return Err(corrupt(format!(
            "a {}x{}x{} grid of {variables} variables needs {} payload bytes, the header says {payload_len}",
            dims[0],
            dims[1],
            dims[2],
            needed.map_or("more".into(), |n| n.to_string())
        )));
    }
    // The phase memory closes the payload (the lengths were checked).
    let phase_step = (version >= 4 && flags & FLAG_PHASE != 0).then(|| {
        let at = payload_at + payload_len as usize - 8 - frame.cells as usize * value_bytes as usize;
        u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
    });
    Ok(CheckpointHeader {
        version,
        precision: frame.precision,
        dims: GridDims::new(dims[0], dims[1], dims[2]),
        dx,
        dt_ms,
        diffusion,
        model,
        preset: (!preset.is_empty()).then_some(preset),
        math,
        rate_tables,
        operator,
        run,
        parameters,
        variables: names,
        step,
        t_ms,
        recording,
        snapshots: Some(snapshots),
        phase_step,
        has_previous: version < 3 && has_maps && flags & FLAG_PREVIOUS != 0,
        payload_at,
        stored_variables: variables as usize,
    })
}

/// Version 1: the Karma model (reaction code 1) or pure diffusion (0),
/// with U and v and the Karma parameters at fixed offsets.
fn decode_header_v1(path: &Path, bytes: &[u8]) -> Result<CheckpointHeader, CheckpointError> {
    if bytes.len() < V1_HEADER_BYTES {
        return Err(CheckpointError::Truncated {
            path: path.into(),
            expected: V1_HEADER_BYTES as u64,
            found: bytes.len() as u64,
        });
    }
    let mut r = Reader { bytes, at: 12 };
    let short = |_| CheckpointError::Corrupt { path: path.into(), why: "header".into() };
    let value_bytes = r.u32().map_err(short)?;
    let dims = [r.u32().map_err(short)?, r.u32().map_err(short)?, r.u32().map_err(short)?];
    let reaction = r.u32().map_err(short)?;
    let mut f = [0.0; 6];
    for x in &mut f {
        *x = r.f64().map_err(short)?;
    }
    let [dx, dt_ms, diffusion, gamma, eps, vstar] = f;
    let m = r.u32().map_err(short)?;
    let flags = r.u32().map_err(short)?;
    let (step, t_ms) = (r.u64().map_err(short)?, r.f64().map_err(short)?);
    // The sampling interval and the previous sample's time are not needed.
    let (threshold, _every, _prev_t) =
        (r.f64().map_err(short)?, r.u64().map_err(short)?, r.f64().map_err(short)?);
    let payload_len = r.u64().map_err(short)?;
    let checksum = r.u64().map_err(short)?;
    let frame = check_frame(
        path,
        bytes,
        (value_bytes, dims),
        (V1_HEADER_BYTES, payload_len),
        (V1_CHECKSUM_AT, checksum),
    )?;
    let corrupt = |why: String| CheckpointError::Corrupt { path: path.into(), why };
    let (model, parameters, variables) = match reaction {
        0 => ("diffusion", vec![], vec!["u".to_string()]),
        1 => (
            "karma",
            vec![
                ("gamma".into(), gamma),
                ("eps".into(), eps),
                ("vstar".into(), vstar),
                ("m".into(), m as f64),
            ],
            vec!["U".to_string(), "v".to_string()],
        ),
        n => return Err(corrupt(format!("reaction code {n}"))),
    };
    if payload_needed(1, frame.cells, 2, value_bytes as u64, flags, 1) != Some(payload_len) {
        return Err(corrupt(format!(
            "a {}x{}x{} grid needs other than the {payload_len} payload bytes the header says",
            dims[0], dims[1], dims[2]
        )));
    }
    Ok(CheckpointHeader {
        version: 1,
        precision: frame.precision,
        dims: GridDims::new(dims[0], dims[1], dims[2]),
        dx,
        dt_ms,
        diffusion,
        model: model.into(),
        preset: None,
        math: MathMode::Exact,
        rate_tables: false,
        operator: None,
        run: None,
        parameters,
        variables,
        step,
        t_ms,
        recording: (flags & FLAG_ACTIVATION != 0).then_some(Recording {
            up: threshold,
            down: None,
            beats: None,
        }),
        snapshots: None,
        phase_step: None,
        has_previous: flags & FLAG_ACTIVATION != 0 && flags & FLAG_PREVIOUS != 0,
        payload_at: V1_HEADER_BYTES,
        stored_variables: 2,
    })
}

/// Sets the checksum field of checkpoint `bytes` (either version) to the
/// sum of the rest; bytes too short to hold one are left alone. For tests
/// and the fuzz targets, which must reach what lies behind the checksum:
/// an edited or generated file would almost never pass it.
pub fn reseal(bytes: &mut [u8]) {
    if bytes.len() < 12 || &bytes[..MAGIC.len()] != MAGIC {
        return;
    }
    let at = match u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) {
        1 => V1_CHECKSUM_AT,
        2..=FORMAT_VERSION => CHECKSUM_AT,
        _ => return,
    };
    if bytes.len() < at + 8 {
        return;
    }
    let mut h = Fnv1a64::default();
    h.update(&bytes[..at]);
    h.update(&bytes[at + 8..]);
    bytes[at..at + 8].copy_from_slice(&h.finish().to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::decode::decode;
    use crate::checkpoint::encode::{encode, put_f64, put_u32, put_u64};
    use crate::checkpoint::format::Progress;
    use crate::checkpoint::testing::{domain, state};
    use crate::domain::Domain;
    use crate::models::ModelSetup;
    use crate::scalar::Scalar;

    #[test]
    fn a_version_4_checkpoint_still_reads_without_a_run_identity() {
        let d = domain(3);
        let f = state(&d);
        let mut bytes = encode(&d, Progress { step: 7, snapshots: 2, run: None }, &f, None, None);
        // Version 4 is version 5 without the identity's name at the end of
        // the model section (here an empty name: its u16 length alone).
        let section_len = u32::from_le_bytes(bytes[60..64].try_into().unwrap()) as usize;
        let end = HEADER_BYTES + section_len;
        assert_eq!(&bytes[end - 2..end], &[0, 0], "an empty identity closes the section");
        bytes.drain(end - 2..end);
        bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
        bytes[60..64].copy_from_slice(&((section_len - 2) as u32).to_le_bytes());
        reseal(&mut bytes);
        let back = decode::<f32>(Path::new("v4.fibril"), &bytes).unwrap();
        assert_eq!((back.header.version, back.header.run, back.header.step), (4, None, 7));
        assert_eq!(back.state, f);
    }

    #[test]
    fn damage_is_refused() {
        let d = domain(3);
        let bytes = encode(&d, Progress { step: 7, snapshots: 3, run: None }, &state(&d), None, None);
        let p = Path::new("x.fibril");
        assert!(decode_header(p, &bytes).is_ok());

        let e = decode_header(p, &bytes[..bytes.len() - 5]).unwrap_err();
        assert!(matches!(e, CheckpointError::Truncated { .. }), "{e}");
        // Cut and given a checksum that matches what is left: the length
        // the header announces still refuses it, before any field is read.
        let mut resealed = bytes[..bytes.len() - 5].to_vec();
        reseal(&mut resealed);
        let e = decode::<f32>(p, &resealed).unwrap_err();
        assert!(matches!(e, CheckpointError::Truncated { .. }), "{e}");
        for cut in [9, 40, 100, 127, 133] {
            let e = decode_header(p, &bytes[..cut]).unwrap_err();
            assert!(matches!(e, CheckpointError::Truncated { .. }), "cut at {cut}: {e}");
        }

        let mut flipped = bytes.clone();
        let payload_at = bytes.len() - 2 * d.cells() * 4;
        flipped[payload_at + 17] ^= 0x04;
        let e = decode_header(p, &flipped).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");

        let mut header_flip = bytes.clone();
        header_flip[16] ^= 1; // nx
        assert!(matches!(decode_header(p, &header_flip), Err(CheckpointError::Corrupt { .. })));
        let mut section_flip = bytes.clone();
        section_flip[HEADER_BYTES + 3] ^= 1; // a letter of the model's name
        assert!(matches!(decode_header(p, &section_flip), Err(CheckpointError::Corrupt { .. })));

        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(decode_header(p, &longer), Err(CheckpointError::Corrupt { .. })));

        let e = decode_header(p, b"\x93NUMPY not a checkpoint").unwrap_err();
        assert!(matches!(e, CheckpointError::NotACheckpoint { .. }));

        let mut v6 = bytes;
        v6[8] = 6;
        assert!(matches!(decode_header(p, &v6), Err(CheckpointError::Version { found: 6, .. })));
    }

    /// A version 1 file, as the fibril before named models wrote it.
    fn encode_v1(d: &Domain, step: u64, u: &[f32], v: &[f32]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, 1);
        put_u32(&mut out, 4);
        for n in [d.dims().nx, d.dims().ny, d.dims().nz] {
            put_u32(&mut out, n);
        }
        put_u32(&mut out, 1); // Karma
        for x in [d.dx(), d.dt_ms(), d.diffusion(), 1.5415, 0.01, 0.6] {
            put_f64(&mut out, x);
        }
        put_u32(&mut out, 4);
        put_u32(&mut out, 0);
        put_u64(&mut out, step);
        put_f64(&mut out, step as f64 * d.dt_ms());
        put_f64(&mut out, 0.0);
        put_u64(&mut out, 0);
        put_f64(&mut out, f64::NAN);
        put_u64(&mut out, (8 * u.len()) as u64);
        put_u64(&mut out, 0);
        f32::extend_le_bytes(u, &mut out);
        f32::extend_le_bytes(v, &mut out);
        let mut h = Fnv1a64::default();
        h.update(&out[..V1_CHECKSUM_AT]);
        h.update(&out[V1_HEADER_BYTES..]);
        out[V1_CHECKSUM_AT..V1_HEADER_BYTES].copy_from_slice(&h.finish().to_le_bytes());
        out
    }

    #[test]
    fn version_1_files_still_resume() {
        let d = domain(3);
        let f = state(&d);
        let bytes = encode_v1(&d, 12, f.slice(0), f.slice(1));
        let p = Path::new("old.fibril");
        let back = decode::<f32>(p, &bytes).unwrap();
        assert_eq!((back.header.version, back.header.model.as_str(), back.header.step), (1, "karma", 12));
        assert_eq!(back.header.snapshots, None);
        // Written with the reference tanh: it resumes in the exact mode only.
        assert_eq!(back.header.math, MathMode::Exact);
        let e = back.header.check_matches(p, &d).unwrap_err().to_string();
        assert!(
            e.contains("the math mode is exact in the checkpoint but fast here; pass --exact-math"),
            "{e}"
        );
        let exact = ModelSetup::new("karma", None, &[]).unwrap().with_math(MathMode::Exact);
        back.header.check_matches(p, &Domain::new(d.dims(), 0.6, 0.05, 1.0, exact).unwrap()).unwrap();
        assert_eq!(back.state, f);
    }
}
