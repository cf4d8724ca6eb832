//! How a split run is set up: the way halo slices travel between GPUs
//! ([`Exchange`]) and what every sub-domain's solver is built from
//! ([`SplitRun`]).

use serde::Serialize;

use crate::domain::Domain;
use crate::kernel_config::KernelConfig;
use crate::state::State;

/// How halo slices travel between GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Exchange {
    /// Device -> pinned host buffer -> neighbour device (the paper's scheme).
    Host,
    /// Direct GPU-to-GPU copies (needs peer access between the GPUs).
    Peer,
    /// NCCL send/recv (also between processes).
    Nccl,
}

impl Exchange {
    pub const fn name(self) -> &'static str {
        match self {
            Exchange::Host => "host",
            Exchange::Peer => "peer",
            Exchange::Nccl => "nccl",
        }
    }
}

/// What every sub-domain's solver is built from.
pub struct SplitRun<'a, T> {
    /// The kernels (`fibril::PTX`).
    pub ptx: &'a str,
    pub config: KernelConfig,
    /// The whole problem and its initial state; each part takes its slab.
    pub domain: &'a Domain,
    pub initial: &'a State<T>,
}
