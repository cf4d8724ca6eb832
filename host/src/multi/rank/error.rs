//! Why a multi-process run could not find its ranks or share its id;
//! each message says what to fix.

use std::io;
use std::time::Duration;

use thiserror::Error;

use super::source::RankSource;

#[derive(Debug, Error)]
pub enum RankError {
    #[error(
        "{given} was given without {missing}; give both (for example --rank 0 --world-size 2), or neither to run as a single process"
    )]
    HalfFlags { given: &'static str, missing: &'static str },
    #[error(
        "{name}={value:?} is not a non-negative integer; set it to a whole number such as 0 or 2, or unset it"
    )]
    NotAnInteger { name: &'static str, value: String },
    #[error(
        "{present} is set but {missing} is not, so the world size is unknown; set {missing} to the number of processes, or unset {present} to run as a single process"
    )]
    MissingVariable { present: &'static str, missing: &'static str },
    #[error(
        "world size 0 (from {}) is not valid; set it to the number of processes, at least 1", .from.size_name()
    )]
    ZeroWorldSize { from: RankSource },
    #[error(
        "rank {rank} (from {}) is not below the world size {world_size} (from {}); ranks run from 0 to {}, so fix the flag or the launcher's variables",
        .from.rank_name(), .from.size_name(), .world_size - 1
    )]
    RankOutOfRange { rank: usize, world_size: usize, from: RankSource },
    #[error(
        "rendezvous address {value:?} (from {origin}) is not valid: {reason}; write it as host:port with a port from 1 to 65535, for example --rendezvous 10.0.0.1:29517"
    )]
    InvalidAddress { value: String, origin: &'static str, reason: String },
    #[error(
        "rank 0 cannot listen on port {port} for the rendezvous at {addr}: the port is already in use (another fibril run, or another program); choose another port with --rendezvous host:PORT or FIBRIL_RENDEZVOUS, the same for every rank"
    )]
    PortInUse { port: u16, addr: String },
    #[error(
        "rank 0 cannot listen on {bind} for the rendezvous: {source}; choose another port with --rendezvous host:PORT or FIBRIL_RENDEZVOUS"
    )]
    Bind { bind: String, source: io::Error },
    #[error("{what}: {source}")]
    Io { what: String, source: io::Error },
    #[error(
        "rank 0 waited {:.1} s at {addr}, but only {arrived} of {world_size} ranks arrived (missing: {missing}); start all {world_size} ranks, check --rendezvous / FIBRIL_RENDEZVOUS, or a firewall",
        .waited.as_secs_f64()
    )]
    AcceptTimeout { addr: String, waited: Duration, arrived: usize, world_size: usize, missing: String },
    #[error(
        "rank {rank} could not reach rank 0 at {addr} within {:.1} s (last error: {last_error}); start all {world_size} ranks, check --rendezvous / FIBRIL_RENDEZVOUS, or a firewall",
        .waited.as_secs_f64()
    )]
    ConnectTimeout { addr: String, rank: usize, world_size: usize, waited: Duration, last_error: String },
    #[error(
        "rank 0 at {addr} accepted the connection but did not answer within {:.1} s; it may be stuck, or something else is listening on that port; check --rendezvous / FIBRIL_RENDEZVOUS",
        .waited.as_secs_f64()
    )]
    NoReply { addr: String, waited: Duration },
    #[error("rank 0 at {addr} closed the connection without answering; see rank 0's error")]
    ClosedWithoutReply { addr: String },
    #[error(
        "the program at {addr} did not answer like fibril's rank 0 ({detail}); something else may be listening on that port, or rank 0 runs another fibril version; check --rendezvous / FIBRIL_RENDEZVOUS"
    )]
    NotFibril { addr: String, detail: String },
    #[error("the rendezvous at {addr} failed: {message}")]
    Refused { addr: String, message: String },
    #[error(
        "a connection from {peer} to the rendezvous port {port} did not send fibril's hello (it began with \"{got}\"): another program or another fibril version is using that port; choose another port with --rendezvous host:PORT or FIBRIL_RENDEZVOUS"
    )]
    WrongMagic { peer: String, port: u16, got: String },
    #[error(
        "rank {rank} was started with a world size of {theirs} but rank 0 with {ours}; start every rank with the same world size"
    )]
    WorldSizeMismatch { rank: usize, theirs: usize, ours: usize },
    #[error(
        "a process announced itself as rank {rank}, but the world size is {world_size}; ranks run from 0 to {}, so check --rank", .world_size - 1
    )]
    HelloRankOutOfRange { rank: usize, world_size: usize },
    #[error(
        "two processes both announced themselves as rank {rank}; give every process its own rank (check --rank or the launcher)"
    )]
    DuplicateRank { rank: usize },
    #[error(
        "rank {rank} was started with different options than rank 0; start every rank with the same command line"
    )]
    FingerprintMismatch { rank: usize },
    #[error("rank 0 could not create the NCCL unique id: {0}")]
    MakeId(String),
}
