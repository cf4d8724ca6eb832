//! Which process is which in a multi-process run, and how rank 0's NCCL
//! unique id reaches the other ranks.
//!
//! Each process ("rank") owns one z-slab on one GPU. NCCL needs every rank
//! to call `ncclCommInitRank` with the same 128-byte id, which exactly one
//! process creates; handing it to the others is left to the application.
//! Clusters start such jobs with an MPI launcher or Slurm, but linking MPI
//! only to pass 128 bytes is a heavy dependency, so the ranks read the
//! numbers the launcher already exports and meet over a small TCP
//! rendezvous instead.
//!
//! Protocol: every rank but 0 connects to rank 0 and sends a hello of 24
//! bytes: [`MAGIC`], rank (u32 LE), world size (u32 LE), fingerprint
//! (u64 LE). Rank 0 answers each with one status byte: 0 followed by the
//! 128 id bytes, or 1 followed by a u32 LE length and a UTF-8 message that
//! says what went wrong.
//!
//! [`info`] finds this process's rank ([`source`]: from which flags or
//! variables), [`address`] where the ranks meet, [`rendezvous`] shares the
//! id ([`server`] on rank 0, [`client`] on the others, [`wire`] the bytes
//! between them), and [`error`] says what went wrong.

pub mod address;
pub mod client;
pub mod error;
pub mod info;
pub mod rendezvous;
pub mod server;
pub mod source;
#[cfg(test)]
mod testing;
pub mod wire;

pub use address::{DEFAULT_RENDEZVOUS, rendezvous_address};
pub use error::RankError;
pub use info::RankInfo;
pub use rendezvous::share_id;
pub use source::RankSource;
pub use wire::MAGIC;
