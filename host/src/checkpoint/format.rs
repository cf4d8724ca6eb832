//! The file's layout (the offsets and flags of the module docs), what a
//! header says about the run that wrote it, a loaded checkpoint, and why
//! a file is refused: what the encoder, the decoder and the checks share.

use std::io;
use std::path::PathBuf;

use kernels_gpu::GridDims;
use kernels_gpu::fast_math::MathMode;
use thiserror::Error;

use crate::events::recording::{Maps, Recording};
use crate::io::RunId;
use crate::scalar::Precision;
use crate::state::State;

pub const MAGIC: &[u8; 8] = b"FIBRILCK";
pub const FORMAT_VERSION: u32 = 5;
/// Bytes before the model section (versions 2 and 3).
pub const HEADER_BYTES: usize = 128;
pub(super) const CHECKSUM_AT: usize = 120;
/// Version 1: header length and where its checksum sits.
pub(super) const V1_HEADER_BYTES: usize = 144;
pub(super) const V1_CHECKSUM_AT: usize = 136;

pub(super) const FLAG_ACTIVATION: u32 = 1;
/// Version 3: repolarisation times follow the activation times.
pub(super) const FLAG_REPOLARISATION: u32 = 2;
/// Version 3: beat counts follow the times.
pub(super) const FLAG_COUNT: u32 = 4;
/// Version 4: the phase memory of a run finding tips follows the maps.
pub(super) const FLAG_PHASE: u32 = 8;
/// Versions 1 and 2: the map's previous sample of variable 0 follows.
pub(super) const FLAG_PREVIOUS: u32 = 2;

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
    pub(super) has_previous: bool,
    /// Where the payload starts.
    pub(super) payload_at: usize,
    /// Variables in the payload (version 1 always holds U and v, also
    /// for pure diffusion, which uses U only).
    pub(super) stored_variables: usize,
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

/// Where a run stands when it is checkpointed, besides its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub step: u64,
    /// Snapshots written so far: the number the next one gets.
    pub snapshots: u64,
    /// The run's identity (its output directory's).
    pub run: Option<RunId>,
}
