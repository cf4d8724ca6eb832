//! The bytes of the rendezvous (the hello, the status, the id and the
//! error text) and the bounds on every read and write, shared by rank 0's
//! side and the others'.

use std::time::Duration;

/// Starts every hello, so that rank 0 can tell a fibril rank from another
/// program that happens to connect to its port; the last byte is the
/// protocol version, so ranks of incompatible fibril builds refuse each other.
pub const MAGIC: [u8; 8] = *b"FIBRIL\x00\x01";
pub(super) const HELLO_LEN: usize = 24;
pub(super) const ID_LEN: usize = 128;
pub(super) const STATUS_OK: u8 = 0;
pub(super) const STATUS_ERR: u8 = 1;
/// Bounds every other read and write, so that a vanished peer ends in an
/// error instead of a hang.
pub(super) const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// Error messages are a few lines; a longer length means the peer is not
/// fibril, and must not make this rank allocate gigabytes.
pub(super) const MAX_MESSAGE: u32 = 64 * 1024;

pub(super) fn encode_hello(rank: usize, world_size: usize, fingerprint: u64) -> [u8; HELLO_LEN] {
    let mut hello = [0u8; HELLO_LEN];
    hello[0..8].copy_from_slice(&MAGIC);
    // A value past u32 cannot be a real rank; saturating keeps it wrong, so
    // rank 0 refuses it instead of seeing a wrapped, plausible number.
    hello[8..12].copy_from_slice(&u32::try_from(rank).unwrap_or(u32::MAX).to_le_bytes());
    hello[12..16].copy_from_slice(&u32::try_from(world_size).unwrap_or(u32::MAX).to_le_bytes());
    hello[16..24].copy_from_slice(&fingerprint.to_le_bytes());
    hello
}
