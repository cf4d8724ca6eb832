//! Checkpoints: the full state of a run in one binary file, to continue it
//! later with the same result as if it had never stopped.
//!
//! Format version 5, every number little-endian:
//!
//! ```text
//! offset  size  field
//!      0     8  magic "FIBRILCK"
//!      8     4  format version (5)
//!     12     4  bytes per value: 4 (f32) or 8 (f64)
//!     16    12  nx, ny, nz (u32)
//!     28     4  number of variables N (u32)
//!     32    24  dx, dt_ms, diffusion (f64)
//!     56     4  flags: bit 0 activation map present, bit 1 repolarisation
//!               map present, bit 2 beat counts present (per-beat mode),
//!               bit 3 phase memory present (a run finding spiral tips)
//!     60     4  length M of the model section, bytes (u32)
//!     64     8  step (u64)
//!     72     8  t_ms (f64)
//!     80     8  activation threshold (f64)
//!     88     8  repolarisation threshold (f64; NaN without the map)
//!     96     8  beats B kept per cell (u64; 1 without beat counts)
//!    104     8  snapshots written so far (u64): the next one's number
//!    112     8  payload length, bytes (u64)
//!    120     8  checksum: FNV-1a 64 of bytes 0..120, the model section and the payload
//!    128     M  model section: the model's name, its preset (empty if none),
//!               the parameter count P (u16) and P (name, f64 value) pairs,
//!               the N variable names, the math mode ("fast" or "exact",
//!               followed by "+tables" for a run that read its model's
//!               rate table; version 4), the tissue's operator fingerprint (16 hex
//!               digits, empty for the isotropic box; version 4), the
//!               identity of the run (32 hex digits, the one its output
//!               directory records; version 5); each name a u16 length and
//!               UTF-8 bytes
//!  128+M     -  payload: the N variables (cells values each, row-major, in
//!               the model's order); with bit 0, B x cells activation times
//!               (f32, ms); with bit 1, B x cells repolarisation times; with
//!               bit 2, the activations so far of each cell (u32); with
//!               bit 3, the step of the last tip sample (u64) and variable 0
//!               at that sample (cells values), which the next sample's
//!               phase is measured against
//! ```
//!
//! Version 4 is version 5 without the run's identity (it resumes into
//! its own directory, told by the checkpoint's path, or a new one).
//! Version 3 is version 4 without bit 3 (it still resumes, except a run
//! finding tips, whose next sample needs the phase memory). Version 2 (the
//! same header, with the activation map's sampling interval at 88 and its previous sample's time at 96, and after the
//! times that sample of variable 0) and version 1 (Karma or pure
//! diffusion, U and v, the parameters at fixed offsets) are still read:
//! their activation times carry on; the sample is not needed any more,
//! since crossings are now detected at every step. The checksum covers the header and the model section too, so a
//! damaged dimension or parameter is caught like damaged data. Every
//! length is checked against the bytes present before it is used. Files
//! are written with [`write_atomic`](crate::io::write_atomic): a
//! checkpoint under its final name is always complete.

use std::io;
use std::path::{Path, PathBuf};

use kernels_gpu::GridDims;
use kernels_gpu::fast_math::MathMode;
use thiserror::Error;

use crate::domain::Domain;
use crate::events::recording::{Maps, Recording};
use crate::io::{RunId, write_atomic};
use crate::models;
use crate::scalar::{Precision, Scalar};
use crate::state::State;

pub const MAGIC: &[u8; 8] = b"FIBRILCK";
pub const FORMAT_VERSION: u32 = 5;
/// Bytes before the model section (versions 2 and 3).
pub const HEADER_BYTES: usize = 128;
const CHECKSUM_AT: usize = 120;
/// Version 1: header length and where its checksum sits.
const V1_HEADER_BYTES: usize = 144;
const V1_CHECKSUM_AT: usize = 136;

const FLAG_ACTIVATION: u32 = 1;
/// Version 3: repolarisation times follow the activation times.
const FLAG_REPOLARISATION: u32 = 2;
/// Version 3: beat counts follow the times.
const FLAG_COUNT: u32 = 4;
/// Version 4: the phase memory of a run finding tips follows the maps.
const FLAG_PHASE: u32 = 8;
/// Versions 1 and 2: the map's previous sample of variable 0 follows.
const FLAG_PREVIOUS: u32 = 2;

/// FNV-1a, 64 bits (Fowler, Noll, Vo): offset basis 0xcbf29ce484222325,
/// prime 0x100000001b3.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a64(u64);

impl Default for Fnv1a64 {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a64 {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

/// What a checkpoint says about the run that wrote it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckpointHeader {
    pub version: u32,
    pub precision: Precision,
    pub dims: GridDims,
    pub dx: f64,
    pub dt_ms: f64,
    pub diffusion: f64,
    /// The model's name.
    pub model: String,
    pub preset: Option<String>,
    /// The transcendental functions the run used (checkpoints before
    /// version 4: exact, the only ones there were).
    pub math: MathMode,
    /// Whether the run read its model's rate table (`--rate-tables`).
    pub rate_tables: bool,
    /// The fingerprint of the run's tissue operator (`None`: the box).
    pub operator: Option<u64>,
    /// The identity of the run (version 5; `None` before, or for a
    /// checkpoint written outside a run's directory).
    pub run: Option<RunId>,
    /// Every parameter by name, with its value.
    pub parameters: Vec<(String, f64)>,
    /// The variables stored, in order.
    pub variables: Vec<String>,
    pub step: u64,
    pub t_ms: f64,
    /// What the saved maps record, if there are maps.
    pub recording: Option<Recording>,
    /// Snapshots the run had written when the checkpoint was taken (the
    /// number of the next one); version 1 did not record it.
    pub snapshots: Option<u64>,
    /// Version 4 of a run finding spiral tips: the step of its last tip
    /// sample, whose field of variable 0 the payload holds.
    pub phase_step: Option<u64>,
    /// Versions 1 and 2: a previous sample of variable 0 follows the times.
    has_previous: bool,
    /// Where the payload starts.
    payload_at: usize,
    /// Variables in the payload (version 1 always holds U and v, also
    /// for pure diffusion, which uses U only).
    stored_variables: usize,
}

/// A loaded checkpoint.
#[derive(Clone, Debug)]
pub struct Checkpoint<T> {
    pub header: CheckpointHeader,
    pub state: State<T>,
    pub maps: Option<Maps>,
    /// The phase memory of a run finding spiral tips.
    pub phase: Option<PhaseSample>,
}

/// Variable 0 at the last tip sample of a run (the field the next sample's
/// phase is measured against), in f64: exact for an f32 or f64 state,
/// stored in the state's precision.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseSample {
    pub step: u64,
    pub field: Vec<f64>,
}

/// Why a checkpoint cannot be used. Each message says what to do.
#[derive(Debug, Error)]
pub enum CheckpointError {
    #[error("cannot read checkpoint {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(
        "{path} is not a fibril checkpoint (it does not start with \"FIBRILCK\"); pass the checkpoint.fibril file a run wrote"
    )]
    NotACheckpoint { path: PathBuf },
    #[error(
        "{path} has checkpoint format version {found}; this fibril reads versions 1 to {FORMAT_VERSION}; \
         resume it with the fibril that wrote it"
    )]
    Version { path: PathBuf, found: u32 },
    #[error(
        "{path} is truncated: it has {found} bytes, its header announces {expected} \
         (the write was cut short?); resume from another checkpoint or start the run again"
    )]
    Truncated { path: PathBuf, expected: u64, found: u64 },
    #[error("{path} is corrupt: {why}; resume from another checkpoint or start the run again")]
    Corrupt { path: PathBuf, why: String },
    #[error(
        "{path} stores the variables {stored:?} of model {model}, which now has {now:?} (the checkpoint was \
         written by a fibril whose {model} kept other variables); resume it with the fibril that wrote it, or \
         start the run again"
    )]
    OtherVariables { path: PathBuf, model: &'static str, stored: Vec<String>, now: Vec<&'static str> },
    #[error(
        "{path} holds a run of model {model:?}, which this fibril does not have (its models: {known}); \
         resume it with the fibril that wrote it"
    )]
    UnknownModel { path: PathBuf, model: String, known: String },
    #[error(
        "{path} does not belong to this run: {field} is {in_file} in the checkpoint but {in_run} here; {fix}"
    )]
    Mismatch { path: PathBuf, field: String, in_file: String, in_run: String, fix: String },
}

fn put_u16(out: &mut Vec<u8>, x: u16) {
    out.extend_from_slice(&x.to_le_bytes());
}
fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}
fn put_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(&x.to_le_bytes());
}
fn put_f64(out: &mut Vec<u8>, x: f64) {
    out.extend_from_slice(&x.to_le_bytes());
}
fn put_name(out: &mut Vec<u8>, name: &str) {
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

/// Where a run stands when it is checkpointed, besides its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub step: u64,
    /// Snapshots written so far: the number the next one gets.
    pub snapshots: u64,
    /// The run's identity (its output directory's).
    pub run: Option<RunId>,
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

fn values<T: Scalar>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(T::BYTES)
        .map(|c| {
            if T::BYTES == 4 {
                T::from_f64(f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64)
            } else {
                T::from_f64(f64::from_le_bytes(c.try_into().expect("8 bytes")))
            }
        })
        .collect()
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

/// Reads a checkpoint file's bytes: the fixed header first, whose magic is
/// checked before anything else is read, then exactly the length the
/// header announces (header, model section and payload), refused before
/// reading when the file's length differs. A path to anything else (a
/// device, a sparse file of gigabytes) is refused after a few bytes, not
/// read into memory whole.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    let io_error = |source| CheckpointError::Io { path: path.to_path_buf(), source };
    let mut input = crate::io::bounded::open(path).map_err(io_error)?;
    // Version 1's header is the longer one.
    let mut bytes = Vec::with_capacity(V1_HEADER_BYTES);
    input.read_prefix(&mut bytes, V1_HEADER_BYTES).map_err(io_error)?;
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(CheckpointError::NotACheckpoint { path: path.to_path_buf() });
    }
    // A header cut short, or of a version this fibril does not read:
    // `decode_header` says which.
    let Some(expected) = announced_length(&bytes) else { return Ok(bytes) };
    let follow = |found: u64| CheckpointError::Corrupt {
        path: path.to_path_buf(),
        why: format!("{} bytes follow the {expected} its header announces", found - expected),
    };
    match input.known_len() {
        Some(found) if found < expected => {
            return Err(CheckpointError::Truncated { path: path.to_path_buf(), expected, found });
        }
        Some(found) if found > expected => return Err(follow(found)),
        _ if bytes.len() as u64 > expected => return Err(follow(bytes.len() as u64)),
        _ => {}
    }
    match input.read_rest(&mut bytes, expected, "this checkpoint") {
        Ok(()) => Ok(bytes),
        // A device or pipe that reads on past the announced length.
        Err(e) if e.kind() == io::ErrorKind::FileTooLarge => Err(CheckpointError::Corrupt {
            path: path.to_path_buf(),
            why: format!("more bytes follow the {expected} its header announces"),
        }),
        Err(e) => Err(io_error(e)),
    }
}

/// The length of the file a checkpoint header announces (header, model
/// section and payload), read from its first bytes `head`; `None` when
/// they are too few or of an unknown version.
fn announced_length(head: &[u8]) -> Option<u64> {
    let word = |at: usize, n: usize| -> Option<u64> {
        let b = head.get(at..at + n)?;
        Some(b.iter().rev().fold(0u64, |x, &byte| (x << 8) | u64::from(byte)))
    };
    match word(8, 4)? {
        // The payload's length at 128 (see decode_header_v1).
        1 => (V1_HEADER_BYTES as u64).checked_add(word(128, 8)?),
        // The model section's length at 60, the payload's at 112.
        v if (2..=u64::from(FORMAT_VERSION)).contains(&v) => {
            (HEADER_BYTES as u64).checked_add(word(60, 4)?)?.checked_add(word(112, 8)?)
        }
        _ => None,
    }
}

/// Reads and verifies a checkpoint written in precision `T`.
pub fn read<T: Scalar>(path: &Path) -> Result<Checkpoint<T>, CheckpointError> {
    decode(path, &read_bytes(path)?)
}

/// Verifies and parses checkpoint bytes written in precision `T`; `path`
/// only names the file in errors.
pub fn decode<T: Scalar>(path: &Path, bytes: &[u8]) -> Result<Checkpoint<T>, CheckpointError> {
    let header = decode_header(path, bytes)?;
    if header.precision != T::PRECISION {
        return Err(CheckpointError::Mismatch {
            path: path.to_path_buf(),
            field: "precision".into(),
            in_file: header.precision.to_string(),
            in_run: T::PRECISION.to_string(),
            fix: format!("pass --precision {}", header.precision),
        });
    }
    let model = models::find(&header.model).ok_or_else(|| CheckpointError::UnknownModel {
        path: path.to_path_buf(),
        model: header.model.clone(),
        known: models::names(),
    })?;
    let wanted: Vec<&str> = model.variables.iter().map(|v| v.name).collect();
    if header.variables != wanted {
        return Err(CheckpointError::OtherVariables {
            path: path.to_path_buf(),
            model: model.name,
            stored: header.variables.clone(),
            now: wanted,
        });
    }
    let cells = header.dims.cells();
    let n = cells * T::BYTES;
    let payload = &bytes[header.payload_at..];
    let vars = (0..model.variables.len()).map(|k| values::<T>(&payload[k * n..(k + 1) * n])).collect();
    let state = State::from_vecs(model, header.dims, vars);
    let after = header.stored_variables * n;
    // The lengths were checked against the header (`payload_needed`).
    let _ = header.has_previous;
    let maps = header.recording.map(|recording| {
        let words = |at: usize, n: usize| {
            payload[at..at + 4 * n].chunks_exact(4).map(|c| c.try_into().expect("4 bytes"))
        };
        let field = recording.slots() * cells;
        let mut at = after;
        let activation: Vec<f32> = words(at, field).map(f32::from_le_bytes).collect();
        at += 4 * field;
        let repolarisation = recording.down.map(|_| {
            let r: Vec<f32> = words(at, field).map(f32::from_le_bytes).collect();
            at += 4 * field;
            r
        });
        let count = recording.beats.map(|_| words(at, cells).map(u32::from_le_bytes).collect());
        Maps { recording, dims: header.dims, activation, repolarisation, count }
    });
    let phase = header.phase_step.map(|step| {
        let at = payload.len() - n;
        PhaseSample { step, field: values::<T>(&payload[at..]).into_iter().map(|v| v.to_f64()).collect() }
    });
    Ok(Checkpoint { header, state, maps, phase })
}

impl CheckpointHeader {
    /// Refuses a checkpoint whose grid, steps, model or parameters differ
    /// from `domain`'s, naming the field and the option that fixes it.
    pub fn check_matches(&self, path: &Path, domain: &Domain) -> Result<(), CheckpointError> {
        let mismatch = |field: String, in_file: String, in_run: String, fix: String| {
            Err(CheckpointError::Mismatch { path: path.to_path_buf(), field, in_file, in_run, fix })
        };
        let d = domain.dims();
        let f = self.dims;
        if d != f {
            return mismatch(
                "the grid".into(),
                format!("{}x{}x{}", f.nx, f.ny, f.nz),
                format!("{}x{}x{}", d.nx, d.ny, d.nz),
                format!("pass --nx {} --ny {} --nz {}", f.nx, f.ny, f.nz),
            );
        }
        let numbers = [
            ("dx", self.dx, domain.dx(), "--dx"),
            ("dt", self.dt_ms, domain.dt_ms(), "--dt"),
            ("diffusion", self.diffusion, domain.diffusion(), "--diffusion"),
        ];
        for (field, in_file, in_run, flag) in numbers {
            if in_file.to_bits() != in_run.to_bits() {
                return mismatch(
                    field.into(),
                    in_file.to_string(),
                    in_run.to_string(),
                    format!("pass {flag} {in_file} (the value the run was started with)"),
                );
            }
        }
        let model = domain.model();
        if self.model != model.name() {
            return mismatch(
                "the model".into(),
                self.model.clone(),
                model.name().into(),
                format!("pass --model {}", self.model),
            );
        }
        if self.operator != domain.operator_fingerprint() {
            let name =
                |f: Option<u64>| f.map_or("the isotropic box".to_string(), |f| format!("tissue {f:016x}"));
            return mismatch(
                "the tissue".into(),
                name(self.operator),
                name(domain.operator_fingerprint()),
                "resume with the [tissue] (geometry, fibres, conductivities, dx) the run was started with"
                    .into(),
            );
        }
        if self.math != model.math() {
            let fix = match self.math {
                MathMode::Exact => "pass --exact-math (the run was started with the reference functions)",
                MathMode::Fast => "drop --exact-math (the run was started with the fast functions)",
            };
            return mismatch(
                "the math mode".into(),
                self.math.name().into(),
                model.math().name().into(),
                fix.into(),
            );
        }
        if self.rate_tables != model.rate_tables() {
            let (fix, said) = match self.rate_tables {
                true => ("pass --rate-tables (the run was started with the model's rate table)", "on"),
                false => ("drop --rate-tables (the run was started with the exact functions only)", "off"),
            };
            let here = if model.rate_tables() { "on" } else { "off" };
            return mismatch("the rate-table option".into(), said.into(), here.into(), fix.into());
        }
        for (name, in_file) in &self.parameters {
            let in_run = model.get(name);
            if in_run.map(f64::to_bits) != Some(in_file.to_bits()) {
                return mismatch(
                    format!("parameter {name}"),
                    in_file.to_string(),
                    in_run.map_or("absent".into(), |v| v.to_string()),
                    format!("pass --param {name}={in_file} (the value the run was started with)"),
                );
            }
        }
        if self.parameters.len() != model.values().len() {
            return mismatch(
                "the parameter list".into(),
                format!("{} parameters", self.parameters.len()),
                format!("{} parameters", model.values().len()),
                "resume with the fibril that wrote the checkpoint".into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ModelSetup;

    fn domain(n: u32) -> Domain {
        Domain::new(
            GridDims::new(n, n + 1, n + 2),
            0.6,
            0.05,
            1.0,
            ModelSetup::new("karma", None, &[]).unwrap(),
        )
        .unwrap()
    }

    fn state(d: &Domain) -> State<f32> {
        let mut k = 0.0f32;
        State::from_fn(d.model().info(), d.dims(), |_, _, _, cell| {
            k += 0.125;
            cell[0] = k;
            cell[1] = 1.0 / k;
        })
    }

    #[test]
    fn fnv_matches_published_vectors() {
        let hash = |s: &[u8]| {
            let mut h = Fnv1a64::default();
            h.update(s);
            h.finish()
        };
        assert_eq!(hash(b""), 0xcbf29ce484222325);
        assert_eq!(hash(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(hash(b"foobar"), 0x85944171f73967e8);
    }

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

    #[test]
    fn a_checkpoint_of_other_variables_is_refused_by_name() {
        // A Karma checkpoint whose second variable is called "w" (as a
        // fibril whose Karma kept other variables would have written it).
        let d = domain(3);
        let mut bytes = encode(&d, Progress { step: 1, snapshots: 0, run: None }, &state(&d), None, None);
        let at = bytes.windows(3).position(|w| w == [1, 0, b'v']).expect("the name v, length-prefixed");
        bytes[at + 2] = b'w';
        reseal(&mut bytes);
        let e = decode::<f32>(Path::new("old"), &bytes).unwrap_err().to_string();
        assert!(
            e.contains(r#"stores the variables ["U", "w"] of model karma, which now has ["U", "v"]"#)
                && e.contains("start the run again"),
            "{e}"
        );
    }

    #[test]
    fn a_run_with_rate_tables_resumes_with_them_only() {
        let br = |tables: bool| {
            let setup =
                ModelSetup::new("beeler_reuter", None, &[]).unwrap().with_rate_tables(tables).unwrap();
            Domain::new(GridDims::new(4, 3, 2), 0.2, 0.02, 0.1, setup).unwrap()
        };
        let start =
            |d: &Domain| State::<f32>::from_fn(d.model().info(), d.dims(), |_, _, _, cell| cell.fill(0.5));
        let (tabled, exact) = (br(true), br(false));
        let p = Path::new("c");
        let of_tabled = decode_header(
            p,
            &encode(&tabled, Progress { step: 1, snapshots: 0, run: None }, &start(&tabled), None, None),
        )
        .unwrap();
        assert!(of_tabled.rate_tables && of_tabled.math == MathMode::Fast);
        of_tabled.check_matches(p, &tabled).unwrap();
        let e = of_tabled.check_matches(p, &exact).unwrap_err().to_string();
        assert!(
            e.contains("the rate-table option is on in the checkpoint but off here; pass --rate-tables"),
            "{e}"
        );
        let of_exact = decode_header(
            p,
            &encode(&exact, Progress { step: 1, snapshots: 0, run: None }, &start(&exact), None, None),
        )
        .unwrap();
        assert!(!of_exact.rate_tables);
        let e = of_exact.check_matches(p, &tabled).unwrap_err().to_string();
        assert!(e.contains("off in the checkpoint but on here; drop --rate-tables"), "{e}");
    }

    #[test]
    fn mismatches_name_the_field_and_the_fix() {
        let d = domain(3);
        let header = decode_header(
            Path::new("c"),
            &encode(&d, Progress { step: 1, snapshots: 3, run: None }, &state(&d), None, None),
        )
        .unwrap();
        let e = header.check_matches(Path::new("c"), &domain(4)).unwrap_err().to_string();
        assert!(e.contains("the grid is 3x4x5 in the checkpoint but 4x5x6 here"), "{e}");
        assert!(e.contains("--nx 3 --ny 4 --nz 5"), "{e}");
        let karma = || ModelSetup::new("karma", None, &[]).unwrap();
        let other = Domain::new(d.dims(), 0.6, 0.04, 1.0, karma()).unwrap();
        let e = header.check_matches(Path::new("c"), &other).unwrap_err().to_string();
        assert!(e.contains("dt is 0.05 in the checkpoint but 0.04 here; pass --dt 0.05"), "{e}");
        let breakup = ModelSetup::new("karma", Some("breakup"), &[]).unwrap();
        let other = Domain::new(d.dims(), 0.6, 0.05, 1.0, breakup).unwrap();
        let e = header.check_matches(Path::new("c"), &other).unwrap_err().to_string();
        assert!(
            e.contains("parameter vstar is 0.6 in the checkpoint but 0.72 here; pass --param vstar=0.6"),
            "{e}"
        );
        // A tissue's fingerprint is kept and compared.
        let tissue = d.clone().with_operator_fingerprint(0x1234_5678_9abc_def0);
        let e = header.check_matches(Path::new("c"), &tissue).unwrap_err().to_string();
        assert!(
            e.contains("the tissue is the isotropic box in the checkpoint but tissue 123456789abcdef0"),
            "{e}"
        );
        let of_tissue = decode_header(
            Path::new("t"),
            &encode(&tissue, Progress { step: 1, snapshots: 0, run: None }, &state(&d), None, None),
        )
        .unwrap();
        assert_eq!(of_tissue.operator, Some(0x1234_5678_9abc_def0));
        of_tissue.check_matches(Path::new("t"), &tissue).unwrap();
        let exact = Domain::new(d.dims(), 0.6, 0.05, 1.0, karma().with_math(MathMode::Exact)).unwrap();
        let e = header.check_matches(Path::new("c"), &exact).unwrap_err().to_string();
        assert!(
            e.contains("the math mode is fast in the checkpoint but exact here; drop --exact-math"),
            "{e}"
        );
        let diffusion =
            Domain::new(d.dims(), 0.6, 0.05, 1.0, ModelSetup::new("diffusion", None, &[]).unwrap()).unwrap();
        let e = header.check_matches(Path::new("c"), &diffusion).unwrap_err().to_string();
        assert!(
            e.contains("the model is karma in the checkpoint but diffusion here; pass --model karma"),
            "{e}"
        );
    }
}
