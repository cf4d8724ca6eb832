//! Rank 0's side of the rendezvous: it listens, checks each hello, and
//! sends every rank the id or the reason there is none.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use super::error::RankError;
use super::info::RankInfo;
use super::wire::{HELLO_LEN, ID_LEN, IO_TIMEOUT, MAGIC, MAX_MESSAGE, STATUS_ERR, STATUS_OK};

/// The listener is polled, not blocked on, so that rank 0 can give up at
/// its deadline; this is how long it sleeps between polls.
const ACCEPT_POLL: Duration = Duration::from_millis(10);
/// A fibril rank sends its hello right after connecting; anything slower is
/// not a rank, and must not hold up the ranks queued behind it.
const HELLO_WAIT: Duration = Duration::from_secs(5);

/// What arrived on a connection to rank 0.
enum Hello {
    Rank {
        rank: usize,
        world_size: usize,
        fingerprint: u64,
    },
    /// Eight bytes that are not [`MAGIC`].
    Stranger([u8; 8]),
}

pub(super) fn serve(
    addr: &str,
    bind: SocketAddr,
    info: &RankInfo,
    fingerprint: u64,
    make_id: impl FnOnce() -> Result<[u8; 128], String>,
    timeout: Duration,
) -> Result<[u8; 128], RankError> {
    let world_size = info.world_size;
    if world_size <= 1 {
        return make_id().map_err(RankError::MakeId);
    }
    let deadline = Instant::now() + timeout;
    let listener = TcpListener::bind(bind).map_err(|source| {
        if source.kind() == ErrorKind::AddrInUse {
            RankError::PortInUse { port: bind.port(), addr: addr.to_string() }
        } else {
            RankError::Bind { bind: bind.to_string(), source }
        }
    })?;
    listener.set_nonblocking(true).map_err(|source| RankError::Io {
        what: format!("rank 0 could not set up its rendezvous socket on {bind}"),
        source,
    })?;

    let mut clients: Vec<(usize, TcpStream)> = Vec::with_capacity(world_size - 1);
    let mut seen = vec![false; world_size];
    seen[0] = true;
    while clients.len() + 1 < world_size {
        let now = Instant::now();
        if now >= deadline {
            let err = RankError::AcceptTimeout {
                addr: addr.to_string(),
                waited: timeout,
                arrived: clients.len() + 1,
                world_size,
                missing: list_missing(&seen),
            };
            return Err(abort(&clients, err));
        }
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => accepted,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                thread::sleep(ACCEPT_POLL.min(deadline - now));
                continue;
            }
            // The peer gave up between connecting and being accepted.
            Err(e) if matches!(e.kind(), ErrorKind::Interrupted | ErrorKind::ConnectionAborted) => continue,
            Err(source) => {
                let err = RankError::Io { what: format!("rank 0 could not accept a rank on {bind}"), source };
                return Err(abort(&clients, err));
            }
        };
        // A connection that closes or stays silent before a whole magic has
        // arrived is a port scan or a health check, not a rank: dropping it
        // keeps such traffic from failing a run.
        let Some(hello) = read_hello(&stream, deadline) else { continue };
        match check_hello(hello, peer, bind.port(), world_size, fingerprint, &seen) {
            Ok(rank) => {
                seen[rank] = true;
                clients.push((rank, stream));
            }
            Err(err) => {
                let _ = send_error(&stream, &err.to_string());
                return Err(abort(&clients, err));
            }
        }
    }

    let id = match make_id() {
        Ok(id) => id,
        Err(message) => return Err(abort(&clients, RankError::MakeId(message))),
    };
    let mut reply = Vec::with_capacity(1 + ID_LEN);
    reply.push(STATUS_OK);
    reply.extend_from_slice(&id);
    let mut failure = None;
    for (rank, stream) in &clients {
        if let Err(source) = (&*stream).write_all(&reply) {
            failure.get_or_insert(RankError::Io {
                what: format!("rank 0 could not send the NCCL id to rank {rank}"),
                source,
            });
        }
    }
    match failure {
        Some(err) => Err(err),
        None => Ok(id),
    }
}

/// Tells every rank already waiting why the run stops, so that each ends
/// with rank 0's reason instead of a timeout of its own; returns `err` for
/// rank 0 to report.
fn abort(clients: &[(usize, TcpStream)], err: RankError) -> RankError {
    let message = format!("rank 0 stopped the rendezvous: {err}");
    for (_, stream) in clients {
        let _ = send_error(stream, &message);
    }
    err
}

fn send_error(stream: &TcpStream, message: &str) -> io::Result<()> {
    let mut text = message.as_bytes();
    if text.len() > MAX_MESSAGE as usize {
        let mut end = MAX_MESSAGE as usize;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        text = &text[..end];
    }
    let mut reply = Vec::with_capacity(5 + text.len());
    reply.push(STATUS_ERR);
    reply.extend_from_slice(&(text.len() as u32).to_le_bytes());
    reply.extend_from_slice(text);
    let mut stream = stream;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    stream.write_all(&reply)
}

/// Reads a hello, or `None` when the connection is not worth an answer.
fn read_hello(stream: &TcpStream, deadline: Instant) -> Option<Hello> {
    // Some platforms hand out accepted sockets in the listener's
    // non-blocking mode; the timeouts below need blocking reads.
    stream.set_nonblocking(false).ok()?;
    let _ = stream.set_nodelay(true);
    let left = deadline.saturating_duration_since(Instant::now());
    stream.set_read_timeout(Some(left.clamp(Duration::from_millis(1), HELLO_WAIT))).ok()?;
    stream.set_write_timeout(Some(IO_TIMEOUT)).ok()?;
    let mut stream = stream;
    let mut magic = [0u8; 8];
    stream.read_exact(&mut magic).ok()?;
    if magic != MAGIC {
        // Take in what would have been the rest of a hello: closing on
        // unread bytes resets the connection, which can discard the error
        // reply before the peer reads it.
        let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
        let _ = stream.read_exact(&mut [0u8; HELLO_LEN - 8]);
        return Some(Hello::Stranger(magic));
    }
    let mut rest = [0u8; HELLO_LEN - 8];
    stream.read_exact(&mut rest).ok()?;
    let rank = u32::from_le_bytes(rest[0..4].try_into().expect("4 bytes")) as usize;
    let world_size = u32::from_le_bytes(rest[4..8].try_into().expect("4 bytes")) as usize;
    let fingerprint = u64::from_le_bytes(rest[8..16].try_into().expect("8 bytes"));
    Some(Hello::Rank { rank, world_size, fingerprint })
}

/// Checks a hello against rank 0's own view; a world size that differs is
/// reported before the rank it makes look out of range, as it is the cause.
fn check_hello(
    hello: Hello,
    peer: SocketAddr,
    port: u16,
    world_size: usize,
    fingerprint: u64,
    seen: &[bool],
) -> Result<usize, RankError> {
    let (rank, theirs, their_fingerprint) = match hello {
        Hello::Rank { rank, world_size, fingerprint } => (rank, world_size, fingerprint),
        Hello::Stranger(bytes) => {
            return Err(RankError::WrongMagic {
                peer: peer.to_string(),
                port,
                got: bytes.escape_ascii().to_string(),
            });
        }
    };
    if theirs != world_size {
        return Err(RankError::WorldSizeMismatch { rank, theirs, ours: world_size });
    }
    if rank >= world_size {
        return Err(RankError::HelloRankOutOfRange { rank, world_size });
    }
    if seen[rank] {
        return Err(RankError::DuplicateRank { rank });
    }
    if their_fingerprint != fingerprint {
        return Err(RankError::FingerprintMismatch { rank });
    }
    Ok(rank)
}

/// Ranks that have not arrived, for the timeout message: "1, 3", or the
/// first few and a count when many are missing.
fn list_missing(seen: &[bool]) -> String {
    const SHOWN: usize = 8;
    let missing: Vec<usize> = (0..seen.len()).filter(|&r| !seen[r]).collect();
    let mut text = missing.iter().take(SHOWN).map(usize::to_string).collect::<Vec<_>>().join(", ");
    if missing.len() > SHOWN {
        text += &format!(" and {} more", missing.len() - SHOWN);
    }
    text
}
