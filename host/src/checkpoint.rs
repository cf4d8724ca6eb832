//! Checkpoints: the full state of a run in one binary file, to continue it
//! later with the same result as if it had never stopped.
//!
//! Format version 1, every number little-endian:
//!
//! ```text
//! offset  size  field
//!      0     8  magic "FIBRILCK"
//!      8     4  format version (1)
//!     12     4  bytes per value: 4 (f32) or 8 (f64)
//!     16    12  nx, ny, nz (u32)
//!     28     4  reaction: 0 off, 1 Karma
//!     32    48  dx, dt_ms, diffusion, gamma, eps, vstar (f64)
//!     80     4  M (u32)
//!     84     4  flags: bit 0 activation map present, bit 1 it has a previous sample
//!     88     8  step (u64)
//!     96     8  t_ms (f64)
//!    104     8  activation threshold (f64)
//!    112     8  activation sampling interval, steps (u64)
//!    120     8  time of the previous activation sample, ms (f64)
//!    128     8  payload length, bytes (u64)
//!    136     8  checksum: FNV-1a 64 of bytes 0..136 and of the payload
//!    144     -  payload: U, v (cells values each, row-major); with an
//!               activation map, its times (f32) and, with bit 1, the
//!               previous sample of U
//! ```
//!
//! The checksum covers the header too, so a damaged dimension or parameter
//! is caught like damaged data. Files are written with
//! [`write_atomic`](crate::io::write_atomic): a checkpoint under its final
//! name is always complete.

use std::io;
use std::path::{Path, PathBuf};

use kernels_gpu::{GridDims, Reaction};
use thiserror::Error;

use crate::activation::ActivationMap;
use crate::domain::Domain;
use crate::fields::Fields;
use crate::io::write_atomic;
use crate::params::KarmaParams;
use crate::scalar::{Precision, Scalar};

pub const MAGIC: &[u8; 8] = b"FIBRILCK";
pub const FORMAT_VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 144;
const CHECKSUM_AT: usize = 136;

const FLAG_ACTIVATION: u32 = 1;
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
    pub reaction: Reaction,
    pub dx: f64,
    pub dt_ms: f64,
    pub diffusion: f64,
    pub karma: KarmaParams,
    pub step: u64,
    pub t_ms: f64,
    /// Threshold and sampling interval of the activation map, if saved.
    pub activation: Option<(f64, u64)>,
}

/// A loaded checkpoint.
#[derive(Clone, Debug)]
pub struct Checkpoint<T> {
    pub header: CheckpointHeader,
    pub fields: Fields<T>,
    pub activation: Option<ActivationMap<T>>,
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
        "{path} has checkpoint format version {found}; this fibril reads version {FORMAT_VERSION}; \
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
        "{path} does not belong to this run: {field} is {in_file} in the checkpoint but {in_run} here; {fix}"
    )]
    Mismatch { path: PathBuf, field: &'static str, in_file: String, in_run: String, fix: String },
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

/// The bytes of a checkpoint of `fields` at `step` of a run on `domain`.
pub fn encode<T: Scalar>(
    domain: &Domain,
    step: u64,
    fields: &Fields<T>,
    activation: Option<&ActivationMap<T>>,
) -> Vec<u8> {
    let cells = domain.cells();
    let mut flags = 0;
    let (mut threshold, mut every, mut prev_t) = (0.0, 0, f64::NAN);
    let mut payload_len = 2 * cells * T::BYTES;
    if let Some(map) = activation {
        flags |= FLAG_ACTIVATION;
        threshold = map.threshold;
        every = map.every_steps;
        payload_len += 4 * cells;
        if let Some((t, _)) = &map.previous {
            flags |= FLAG_PREVIOUS;
            prev_t = *t;
            payload_len += cells * T::BYTES;
        }
    }
    let dims = domain.dims();
    let k = domain.karma();
    let mut out = Vec::with_capacity(HEADER_BYTES + payload_len);
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, FORMAT_VERSION);
    put_u32(&mut out, T::BYTES as u32);
    for n in [dims.nx, dims.ny, dims.nz] {
        put_u32(&mut out, n);
    }
    put_u32(&mut out, domain.reaction() as u32);
    for x in [domain.dx(), domain.dt_ms(), domain.diffusion(), k.gamma, k.eps, k.vstar] {
        put_f64(&mut out, x);
    }
    put_u32(&mut out, k.m);
    put_u32(&mut out, flags);
    put_u64(&mut out, step);
    put_f64(&mut out, step as f64 * domain.dt_ms());
    put_f64(&mut out, threshold);
    put_u64(&mut out, every);
    put_f64(&mut out, prev_t);
    put_u64(&mut out, payload_len as u64);
    debug_assert_eq!(out.len(), CHECKSUM_AT);
    put_u64(&mut out, 0); // the checksum, filled in below
    T::extend_le_bytes(fields.u_slice(), &mut out);
    T::extend_le_bytes(fields.v_slice(), &mut out);
    if let Some(map) = activation {
        out.extend(map.times_ms.iter().flat_map(|t| t.to_le_bytes()));
        if let Some((_, prev)) = &map.previous {
            T::extend_le_bytes(prev, &mut out);
        }
    }
    debug_assert_eq!(out.len(), HEADER_BYTES + payload_len);
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
    step: u64,
    fields: &Fields<T>,
    activation: Option<&ActivationMap<T>>,
) -> io::Result<()> {
    write_atomic(path, &encode(domain, step, fields, activation))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        s
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take(4).try_into().unwrap())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take(8).try_into().unwrap())
    }
    fn f64(&mut self) -> f64 {
        f64::from_le_bytes(self.take(8).try_into().unwrap())
    }
}

fn values<T: Scalar>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(T::BYTES)
        .map(|c| {
            if T::BYTES == 4 {
                T::from_f64(f32::from_le_bytes(c.try_into().unwrap()) as f64)
            } else {
                T::from_f64(f64::from_le_bytes(c.try_into().unwrap()))
            }
        })
        .collect()
}

/// Parses and verifies the header of checkpoint bytes (magic, version,
/// length, checksum); `path` only names the file in errors.
pub fn decode_header(path: &Path, bytes: &[u8]) -> Result<CheckpointHeader, CheckpointError> {
    let path_buf = || path.to_path_buf();
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(CheckpointError::NotACheckpoint { path: path_buf() });
    }
    if bytes.len() < HEADER_BYTES {
        return Err(CheckpointError::Truncated {
            path: path_buf(),
            expected: HEADER_BYTES as u64,
            found: bytes.len() as u64,
        });
    }
    let mut r = Reader { bytes, at: 8 };
    let version = r.u32();
    if version != FORMAT_VERSION {
        return Err(CheckpointError::Version { path: path_buf(), found: version });
    }
    let value_bytes = r.u32();
    let (nx, ny, nz) = (r.u32(), r.u32(), r.u32());
    let reaction = r.u32();
    let (dx, dt_ms, diffusion, gamma, eps, vstar) = (r.f64(), r.f64(), r.f64(), r.f64(), r.f64(), r.f64());
    let m = r.u32();
    let flags = r.u32();
    let step = r.u64();
    let t_ms = r.f64();
    let (threshold, every, _prev_t) = (r.f64(), r.u64(), r.f64());
    let payload_len = r.u64();
    let checksum = r.u64();
    let expected = HEADER_BYTES as u64 + payload_len;
    if (bytes.len() as u64) < expected {
        return Err(CheckpointError::Truncated { path: path_buf(), expected, found: bytes.len() as u64 });
    }
    let corrupt = |why: String| CheckpointError::Corrupt { path: path_buf(), why };
    if (bytes.len() as u64) > expected {
        return Err(corrupt(format!(
            "{} bytes follow the {expected} its header announces",
            bytes.len() as u64 - expected
        )));
    }
    let mut h = Fnv1a64::default();
    h.update(&bytes[..CHECKSUM_AT]);
    h.update(&bytes[HEADER_BYTES..]);
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
    let reaction = match reaction {
        0 => Reaction::Off,
        1 => Reaction::Karma,
        n => return Err(corrupt(format!("reaction code {n}"))),
    };
    let cells = nx as u64 * ny as u64 * nz as u64;
    let has_activation = flags & FLAG_ACTIVATION != 0;
    let has_previous = flags & FLAG_PREVIOUS != 0;
    let mut needed = 2 * cells * value_bytes as u64;
    if has_activation {
        needed += cells * 4;
        if has_previous {
            needed += cells * value_bytes as u64;
        }
    }
    if needed != payload_len {
        return Err(corrupt(format!(
            "a {nx}x{ny}x{nz} grid needs {needed} payload bytes, the header says {payload_len}"
        )));
    }
    Ok(CheckpointHeader {
        version,
        precision,
        dims: GridDims::new(nx, ny, nz),
        reaction,
        dx,
        dt_ms,
        diffusion,
        karma: KarmaParams { gamma, eps, vstar, m },
        step,
        t_ms,
        activation: has_activation.then_some((threshold, every)),
    })
}

/// Reads a checkpoint file's bytes.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    std::fs::read(path).map_err(|source| CheckpointError::Io { path: path.to_path_buf(), source })
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
            field: "precision",
            in_file: header.precision.to_string(),
            in_run: T::PRECISION.to_string(),
            fix: format!("pass --precision {}", header.precision),
        });
    }
    let cells = header.dims.cells();
    let n = cells * T::BYTES;
    let payload = &bytes[HEADER_BYTES..];
    let u = values::<T>(&payload[..n]);
    let v = values::<T>(&payload[n..2 * n]);
    let fields = Fields::from_vecs(header.dims, u, v);
    let activation = header.activation.map(|(threshold, every)| {
        let times: Vec<f32> = payload[2 * n..2 * n + 4 * cells]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let prev_t = f64::from_le_bytes(bytes[120..128].try_into().unwrap());
        let rest = &payload[2 * n + 4 * cells..];
        ActivationMap {
            threshold,
            every_steps: every,
            times_ms: times,
            previous: (!rest.is_empty()).then(|| (prev_t, values::<T>(rest))),
        }
    });
    Ok(Checkpoint { header, fields, activation })
}

impl CheckpointHeader {
    /// Refuses a checkpoint whose grid, step, parameters or model differ
    /// from `domain`'s, naming the field and the option that fixes it.
    pub fn check_matches(&self, path: &Path, domain: &Domain) -> Result<(), CheckpointError> {
        let mismatch = |field, in_file: String, in_run: String, fix: String| {
            Err(CheckpointError::Mismatch { path: path.to_path_buf(), field, in_file, in_run, fix })
        };
        let d = domain.dims();
        let f = self.dims;
        if d != f {
            return mismatch(
                "the grid",
                format!("{}x{}x{}", f.nx, f.ny, f.nz),
                format!("{}x{}x{}", d.nx, d.ny, d.nz),
                format!("pass --nx {} --ny {} --nz {}", f.nx, f.ny, f.nz),
            );
        }
        let k = domain.karma();
        let numbers = [
            ("dx", self.dx, domain.dx(), "--dx"),
            ("dt", self.dt_ms, domain.dt_ms(), "--dt"),
            ("diffusion", self.diffusion, domain.diffusion(), "--diffusion"),
            ("gamma", self.karma.gamma, k.gamma, "--gamma"),
            ("eps", self.karma.eps, k.eps, "--eps"),
            ("vstar", self.karma.vstar, k.vstar, "--vstar"),
        ];
        for (field, in_file, in_run, flag) in numbers {
            if in_file.to_bits() != in_run.to_bits() {
                return mismatch(
                    field,
                    in_file.to_string(),
                    in_run.to_string(),
                    format!("pass {flag} {in_file} (the value the run was started with)"),
                );
            }
        }
        if self.karma.m != k.m {
            return mismatch(
                "M",
                self.karma.m.to_string(),
                k.m.to_string(),
                format!("pass --m {}", self.karma.m),
            );
        }
        if self.reaction != domain.reaction() {
            let name = |r: Reaction| if r == Reaction::Off { "off" } else { "karma" };
            return mismatch(
                "the reaction term",
                name(self.reaction).into(),
                name(domain.reaction()).into(),
                if self.reaction == Reaction::Off {
                    "pass --no-reaction".into()
                } else {
                    "drop --no-reaction".into()
                },
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domain(n: u32) -> Domain {
        Domain::new(GridDims::new(n, n + 1, n + 2), 0.6, 0.05, 1.0, KarmaParams::default(), Reaction::Karma)
            .unwrap()
    }

    fn fields(d: &Domain) -> Fields<f32> {
        let mut k = 0.0f32;
        Fields::from_fn(d.dims(), |_, _, _| {
            k += 0.125;
            (k, 1.0 / k)
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
    fn round_trip_with_activation_map() {
        let d = domain(4);
        let f = fields(&d);
        let mut map = ActivationMap::<f32>::new(d.cells(), 1.0, 10);
        map.sample(0.0, f.u_slice());
        let bytes = encode(&d, 40, &f, Some(&map));
        let path = std::env::temp_dir().join(format!("fibril-ckpt-{}.fibril", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let back = read::<f32>(&path).unwrap();
        assert_eq!(back.header.step, 40);
        assert_eq!(back.header.t_ms, 2.0);
        assert_eq!(back.header.dims, d.dims());
        back.header.check_matches(&path, &d).unwrap();
        assert_eq!(back.fields, f);
        let back_map = back.activation.unwrap();
        assert_eq!(back_map.previous, map.previous);
        assert_eq!(
            back_map.times_ms.iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
            map.times_ms.iter().map(|t| t.to_bits()).collect::<Vec<_>>()
        );
        // In the wrong precision it is refused, naming the fix.
        let e = read::<f64>(&path).unwrap_err().to_string();
        assert!(e.contains("--precision f32"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn damage_is_refused() {
        let d = domain(3);
        let bytes = encode(&d, 7, &fields(&d), None);
        let p = Path::new("x.fibril");
        assert!(decode_header(p, &bytes).is_ok());

        let e = decode_header(p, &bytes[..bytes.len() - 5]).unwrap_err();
        assert!(matches!(e, CheckpointError::Truncated { .. }), "{e}");
        let e = decode_header(p, &bytes[..100]).unwrap_err();
        assert!(matches!(e, CheckpointError::Truncated { .. }), "{e}");

        let mut flipped = bytes.clone();
        flipped[HEADER_BYTES + 17] ^= 0x04;
        let e = decode_header(p, &flipped).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");

        let mut header_flip = bytes.clone();
        header_flip[16] ^= 1; // nx
        assert!(matches!(decode_header(p, &header_flip), Err(CheckpointError::Corrupt { .. })));

        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(decode_header(p, &longer), Err(CheckpointError::Corrupt { .. })));

        let e = decode_header(p, b"\x93NUMPY not a checkpoint").unwrap_err();
        assert!(matches!(e, CheckpointError::NotACheckpoint { .. }));

        let mut v2 = bytes;
        v2[8] = 2;
        assert!(matches!(decode_header(p, &v2), Err(CheckpointError::Version { found: 2, .. })));
    }

    #[test]
    fn mismatches_name_the_field_and_the_fix() {
        let d = domain(3);
        let header = decode_header(Path::new("c"), &encode(&d, 1, &fields(&d), None)).unwrap();
        let e = header.check_matches(Path::new("c"), &domain(4)).unwrap_err().to_string();
        assert!(e.contains("the grid is 3x4x5 in the checkpoint but 4x5x6 here"), "{e}");
        assert!(e.contains("--nx 3 --ny 4 --nz 5"), "{e}");
        let other = Domain::new(d.dims(), 0.6, 0.04, 1.0, KarmaParams::default(), Reaction::Karma).unwrap();
        let e = header.check_matches(Path::new("c"), &other).unwrap_err().to_string();
        assert!(e.contains("dt is 0.05 in the checkpoint but 0.04 here; pass --dt 0.05"), "{e}");
    }
}
