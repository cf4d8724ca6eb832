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

mod checks;
pub mod decode;
pub mod encode;
pub mod format;
pub mod header;
#[cfg(test)]
mod testing;

pub use crate::hash::Fnv1a64;
pub use decode::{decode, read, read_bytes};
pub use encode::{encode, write};
pub use format::{
    Checkpoint, CheckpointError, CheckpointHeader, FORMAT_VERSION, HEADER_BYTES, MAGIC, PhaseSample, Progress,
};
pub use header::{decode_header, reseal};
