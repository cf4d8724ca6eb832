//! Karma model parameters (f64, as the user gives them).
//!
//! Defaults and presets follow `MODELS.md` section 1: gamma = 1.5415,
//! eps = 0.01, M = 4, v* = 0.6 ("stable": one rotating scroll wave) or
//! v* = 0.72 ("breakup": Marcotte & Grigoriev's beta = 1.389, spiral chaos).

use serde::{Deserialize, Serialize};

/// Named parameter sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KarmaPreset {
    /// v* = 0.6: planar waves propagate from the paper's v = 0.5 start and a
    /// spiral rotates stably (period ~42-44 time units).
    Stable,
    /// v* = 0.72: a spiral breaks up into spiral chaos via alternans.
    Breakup,
}

/// Parameters of the Karma model (PRL 1993 form, see `kernels_gpu::model`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct KarmaParams {
    /// gamma = A = E* = u*.
    pub gamma: f64,
    /// eps = tau_E / tau_n.
    pub eps: f64,
    /// v* = n_B.
    pub vstar: f64,
    /// M (xm).
    pub m: u32,
}

impl KarmaParams {
    pub const fn preset(preset: KarmaPreset) -> Self {
        let vstar = match preset {
            KarmaPreset::Stable => 0.6,
            KarmaPreset::Breakup => 0.72,
        };
        Self { gamma: 1.5415, eps: 0.01, vstar, m: 4 }
    }
}

impl Default for KarmaParams {
    fn default() -> Self {
        Self::preset(KarmaPreset::Stable)
    }
}
