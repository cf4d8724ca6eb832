//! What `--kernel tune` found, as `summary.json`, `fibril bench --json`
//! and the tune cache keep it.

use serde::{Deserialize, Serialize};

/// One candidate's figure.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Timed {
    /// The kernel as the run reports it (`blocked 32x32 k3 z32`).
    pub kernel: String,
    /// The best of the timed stretches; `None` when it could not be built.
    pub steps_per_s: Option<f64>,
    /// Why the candidate was not timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// What `--kernel tune` found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tuning {
    /// The kernel the run takes.
    pub chosen: String,
    /// `--kernel auto`'s choice, kept unless another was
    /// [`MARGIN`](super::tune::MARGIN) faster.
    pub rule: String,
    pub timings: Vec<Timed>,
    /// Wall time of the tuning, building the candidates included.
    pub seconds: f64,
    /// Where the choice came from when it was not timed in this run: the
    /// tune cache's file and when the choice was timed
    /// ([`super::tune_cache`]); the figures above are that timing's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_cache: Option<FromCache>,
}

/// A choice taken from the tune cache.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FromCache {
    pub file: String,
    pub timed_at: String,
}
