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

use std::fmt;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

/// Used when nothing names a rendezvous: all ranks on one machine is the
/// only layout in which every rank can guess the same address.
pub const DEFAULT_RENDEZVOUS: &str = "127.0.0.1:29517";
const DEFAULT_PORT: &str = "29517";

/// Starts every hello, so that rank 0 can tell a fibril rank from another
/// program that happens to connect to its port; the last byte is the
/// protocol version, so ranks of incompatible fibril builds refuse each other.
pub const MAGIC: [u8; 8] = *b"FIBRIL\x00\x01";
const HELLO_LEN: usize = 24;
const ID_LEN: usize = 128;
const STATUS_OK: u8 = 0;
const STATUS_ERR: u8 = 1;

/// How often a rank retries a refused connection: rank 0 may not be
/// listening yet, and 100 ms is short beside a job's start-up yet keeps a
/// waiting rank from spinning.
const CONNECT_RETRY: Duration = Duration::from_millis(100);
/// One connection attempt may not eat the whole budget when a host drops
/// packets instead of refusing them.
const CONNECT_ATTEMPT: Duration = Duration::from_secs(2);
/// The listener is polled, not blocked on, so that rank 0 can give up at
/// its deadline; this is how long it sleeps between polls.
const ACCEPT_POLL: Duration = Duration::from_millis(10);
/// A fibril rank sends its hello right after connecting; anything slower is
/// not a rank, and must not hold up the ranks queued behind it.
const HELLO_WAIT: Duration = Duration::from_secs(5);
/// Bounds every other read and write, so that a vanished peer ends in an
/// error instead of a hang.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// A client hears from rank 0 at the latest when rank 0's own deadline
/// passes, which is at most `timeout` after the client connected; the grace
/// covers the time rank 0 takes to write the answer.
const REPLY_GRACE: Duration = Duration::from_secs(2);
/// Error messages are a few lines; a longer length means the peer is not
/// fibril, and must not make this rank allocate gigabytes.
const MAX_MESSAGE: u32 = 64 * 1024;

/// Where the rank numbers came from, so that a message about a wrong rank
/// can point at the variable or flag to fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankSource {
    Flags,
    OpenMpi,
    Pmi,
    Slurm,
}

impl RankSource {
    /// The pair of names the rank and world size were read from.
    pub fn describe(self) -> &'static str {
        match self {
            RankSource::Flags => "--rank/--world-size",
            RankSource::OpenMpi => "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE",
            RankSource::Pmi => "PMI_RANK/PMI_SIZE",
            RankSource::Slurm => "SLURM_PROCID/SLURM_NTASKS",
        }
    }

    fn rank_name(self) -> &'static str {
        match self {
            RankSource::Flags => "--rank",
            RankSource::OpenMpi => "OMPI_COMM_WORLD_RANK",
            RankSource::Pmi => "PMI_RANK",
            RankSource::Slurm => "SLURM_PROCID",
        }
    }

    fn size_name(self) -> &'static str {
        match self {
            RankSource::Flags => "--world-size",
            RankSource::OpenMpi => "OMPI_COMM_WORLD_SIZE",
            RankSource::Pmi => "PMI_SIZE",
            RankSource::Slurm => "SLURM_NTASKS",
        }
    }

    fn local_name(self) -> Option<&'static str> {
        match self {
            RankSource::Flags => None,
            RankSource::OpenMpi => Some("OMPI_COMM_WORLD_LOCAL_RANK"),
            RankSource::Pmi => Some("MPI_LOCALRANKID"),
            RankSource::Slurm => Some("SLURM_LOCALID"),
        }
    }
}

/// Launchers in the order they are asked. OpenMPI and MPICH run inside
/// Slurm allocations and then see Slurm's variables too, but their own
/// numbering is the one that matches the processes they started.
const LAUNCHERS: [RankSource; 3] = [RankSource::OpenMpi, RankSource::Pmi, RankSource::Slurm];

/// This process's place in a multi-process run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankInfo {
    pub rank: usize,
    pub world_size: usize,
    /// Rank among the processes on this machine: it picks the GPU, since
    /// every machine numbers its GPUs from 0.
    pub local_rank: usize,
    pub source: RankSource,
}

impl fmt::Display for RankInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rank {} of {} (from {})", self.rank, self.world_size, self.source.describe())
    }
}

impl RankInfo {
    /// Reads the numbers from the flags, else from the first launcher
    /// whose rank variable is set.
    ///
    /// `env` looks up an environment variable (tests pass a closure over a
    /// map; the CLI passes `|k| std::env::var(k).ok()`); a variable set to
    /// an empty string counts as unset, as shells and job scripts often
    /// "unset" that way. Returns `Ok(None)` when this is a single process
    /// (no flags, no launcher variables, or a world size of 1), so that a
    /// plain `fibril` run and a one-task job need no rendezvous.
    ///
    /// With flags there is no launcher to ask for the local rank, so it is
    /// the rank: right when all ranks share one machine, the usual reason
    /// to start them by hand.
    pub fn detect(
        rank_flag: Option<usize>,
        world_flag: Option<usize>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<RankInfo>, RankError> {
        let info = match (rank_flag, world_flag) {
            (Some(rank), Some(world_size)) => {
                RankInfo { rank, world_size, local_rank: rank, source: RankSource::Flags }
            }
            (Some(_), None) => {
                return Err(RankError::HalfFlags { given: "--rank", missing: "--world-size" });
            }
            (None, Some(_)) => {
                return Err(RankError::HalfFlags { given: "--world-size", missing: "--rank" });
            }
            (None, None) => match from_launcher(env)? {
                Some(info) => info,
                None => return Ok(None),
            },
        };
        if info.world_size == 0 {
            return Err(RankError::ZeroWorldSize { from: info.source });
        }
        if info.rank >= info.world_size {
            return Err(RankError::RankOutOfRange {
                rank: info.rank,
                world_size: info.world_size,
                from: info.source,
            });
        }
        Ok((info.world_size > 1).then_some(info))
    }
}

fn nonempty(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// A launcher counts as present when its rank variable is set: Slurm, for
/// one, exports the task count in an allocation's shell, where no task has
/// a rank yet and fibril should run as a single process.
fn from_launcher(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<RankInfo>, RankError> {
    for source in LAUNCHERS {
        let Some(rank_text) = nonempty(env(source.rank_name())) else { continue };
        let rank = parse_count(source.rank_name(), &rank_text)?;
        let size_text = nonempty(env(source.size_name()))
            .ok_or(RankError::MissingVariable { present: source.rank_name(), missing: source.size_name() })?;
        let world_size = parse_count(source.size_name(), &size_text)?;
        let local_rank = match source.local_name().and_then(|name| Some((name, nonempty(env(name))?))) {
            Some((name, text)) => parse_count(name, &text)?,
            None => rank,
        };
        return Ok(Some(RankInfo { rank, world_size, local_rank, source }));
    }
    Ok(None)
}

fn parse_count(name: &'static str, text: &str) -> Result<usize, RankError> {
    text.parse().map_err(|_| RankError::NotAnInteger { name, value: text.to_string() })
}

/// The rendezvous address: the explicit flag, else `FIBRIL_RENDEZVOUS`
/// (host:port), else `MASTER_ADDR` + `MASTER_PORT` (what torchrun-style
/// launchers export; either may be missing, and then 127.0.0.1 or port
/// 29517 stands in), else [`DEFAULT_RENDEZVOUS`].
///
/// Validated here, before any rank waits on it, because a typo would
/// otherwise surface only as a timeout minutes later.
pub fn rendezvous_address(
    flag: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String, RankError> {
    if let Some(value) = flag {
        return check_address(value.trim(), "--rendezvous");
    }
    if let Some(value) = nonempty(env("FIBRIL_RENDEZVOUS")) {
        return check_address(&value, "FIBRIL_RENDEZVOUS");
    }
    let master_addr = nonempty(env("MASTER_ADDR"));
    let master_port = nonempty(env("MASTER_PORT"));
    if master_addr.is_none() && master_port.is_none() {
        return Ok(DEFAULT_RENDEZVOUS.to_string());
    }
    let mut host = master_addr.unwrap_or_else(|| "127.0.0.1".to_string());
    // MASTER_ADDR holds a bare host, so an IPv6 literal comes without the
    // brackets that host:port needs.
    if host.contains(':') && !host.starts_with('[') {
        host = format!("[{host}]");
    }
    let port = master_port.unwrap_or_else(|| DEFAULT_PORT.to_string());
    check_address(&format!("{host}:{port}"), "MASTER_ADDR/MASTER_PORT")
}

fn check_address(value: &str, origin: &'static str) -> Result<String, RankError> {
    split_address(value).map(|_| value.to_string()).map_err(|reason| RankError::InvalidAddress {
        value: value.to_string(),
        origin,
        reason,
    })
}

/// Splits host:port, or says in words what is wrong with it.
fn split_address(value: &str) -> Result<(&str, u16), String> {
    let Some((host, port)) = value.rsplit_once(':') else {
        return Err("it has no port".to_string());
    };
    if host.is_empty() {
        return Err("the host is empty".to_string());
    }
    if host.contains('/') || host.chars().any(char::is_whitespace) {
        return Err("the host contains a slash or a space (leave out any scheme such as tcp://)".to_string());
    }
    if host.contains(':') {
        let bracketed = host.strip_prefix('[').and_then(|h| h.strip_suffix(']'));
        if bracketed.and_then(|h| h.parse::<Ipv6Addr>().ok()).is_none() {
            return Err("an IPv6 host must be written in brackets, like [::1]:29517".to_string());
        }
    }
    match port.parse::<u16>() {
        Ok(0) => Err("port 0 means \"any free port\", which the other ranks cannot guess".to_string()),
        Ok(port) => Ok((host, port)),
        Err(_) => Err(format!("the port {port:?} is not a number from 1 to 65535")),
    }
}

/// Gives every rank the NCCL unique id that rank 0 creates.
///
/// Rank 0 listens on the port of `addr` on every interface (the host part
/// names rank 0's machine for the others, and may not be an address rank 0
/// can bind), waits up to `timeout` for the other `world_size - 1` ranks
/// and checks each hello. Only when all have arrived and agree does it call
/// `make_id`, once, and send the id to all; if anything is wrong, every
/// connected rank gets the error text instead, so that no rank enters
/// NCCL's initialisation and waits there for a rank that will never come.
///
/// The other ranks connect to `addr`, retrying every 100 ms until `timeout`
/// because rank 0 may start later, send their hello and wait for the id.
///
/// `fingerprint` is a hash of the run's configuration computed by the
/// caller, so that ranks started with different options are refused before
/// they simulate different things.
pub fn share_id(
    addr: &str,
    info: &RankInfo,
    fingerprint: u64,
    make_id: impl FnOnce() -> Result<[u8; 128], String>,
    timeout: Duration,
) -> Result<[u8; 128], RankError> {
    let (host, port) = split_address(addr).map_err(|reason| RankError::InvalidAddress {
        value: addr.to_string(),
        origin: "the rendezvous address",
        reason,
    })?;
    if info.rank == 0 {
        let any: SocketAddr = if host.starts_with('[') {
            (Ipv6Addr::UNSPECIFIED, port).into()
        } else {
            (Ipv4Addr::UNSPECIFIED, port).into()
        };
        serve(addr, any, info, fingerprint, make_id, timeout)
    } else {
        join(addr, info, fingerprint, timeout)
    }
}

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

fn serve(
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

fn encode_hello(rank: usize, world_size: usize, fingerprint: u64) -> [u8; HELLO_LEN] {
    let mut hello = [0u8; HELLO_LEN];
    hello[0..8].copy_from_slice(&MAGIC);
    // A value past u32 cannot be a real rank; saturating keeps it wrong, so
    // rank 0 refuses it instead of seeing a wrapped, plausible number.
    hello[8..12].copy_from_slice(&u32::try_from(rank).unwrap_or(u32::MAX).to_le_bytes());
    hello[12..16].copy_from_slice(&u32::try_from(world_size).unwrap_or(u32::MAX).to_le_bytes());
    hello[16..24].copy_from_slice(&fingerprint.to_le_bytes());
    hello
}

fn join(addr: &str, info: &RankInfo, fingerprint: u64, timeout: Duration) -> Result<[u8; 128], RankError> {
    let stream = connect(addr, info, timeout)?;
    let _ = stream.set_nodelay(true);
    let io_error = |what: &str, source| RankError::Io {
        what: format!("rank {} {what} rank 0 at {addr}", info.rank),
        source,
    };
    stream.set_write_timeout(Some(IO_TIMEOUT)).map_err(|e| io_error("could not set up its socket to", e))?;
    (&stream)
        .write_all(&encode_hello(info.rank, info.world_size, fingerprint))
        .map_err(|e| io_error("could not send its hello to", e))?;
    read_reply(&stream, addr, timeout + REPLY_GRACE)
}

fn connect(addr: &str, info: &RankInfo, timeout: Duration) -> Result<TcpStream, RankError> {
    let deadline = Instant::now() + timeout;
    let mut last_error = "no connection attempt finished".to_string();
    loop {
        // Resolved on every try: a host name may not resolve until its
        // machine is up. A resolver that hangs is bounded by its own timeout.
        match addr.to_socket_addrs() {
            Ok(targets) => {
                for target in targets {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    match TcpStream::connect_timeout(&target, left.min(CONNECT_ATTEMPT)) {
                        Ok(stream) => return Ok(stream),
                        Err(e) => last_error = format!("{target}: {e}"),
                    }
                }
            }
            Err(e) => last_error = format!("cannot resolve {addr}: {e}"),
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(RankError::ConnectTimeout {
                addr: addr.to_string(),
                rank: info.rank,
                world_size: info.world_size,
                waited: timeout,
                last_error,
            });
        }
        thread::sleep(CONNECT_RETRY.min(left));
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

fn read_reply(stream: &TcpStream, addr: &str, wait: Duration) -> Result<[u8; 128], RankError> {
    let cut_short =
        |source| RankError::Io { what: format!("the answer from rank 0 at {addr} was cut short"), source };
    let mut stream = stream;
    stream.set_read_timeout(Some(wait)).map_err(cut_short)?;
    let mut status = [0u8; 1];
    match stream.read_exact(&mut status) {
        Ok(()) => {}
        Err(e) if is_timeout(&e) => return Err(RankError::NoReply { addr: addr.to_string(), waited: wait }),
        Err(e) if matches!(e.kind(), ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset) => {
            return Err(RankError::ClosedWithoutReply { addr: addr.to_string() });
        }
        Err(e) => return Err(cut_short(e)),
    }
    stream.set_read_timeout(Some(IO_TIMEOUT)).map_err(cut_short)?;
    match status[0] {
        STATUS_OK => {
            let mut id = [0u8; ID_LEN];
            stream.read_exact(&mut id).map_err(cut_short)?;
            Ok(id)
        }
        STATUS_ERR => {
            let mut len = [0u8; 4];
            stream.read_exact(&mut len).map_err(cut_short)?;
            let len = u32::from_le_bytes(len);
            if len > MAX_MESSAGE {
                return Err(RankError::NotFibril {
                    addr: addr.to_string(),
                    detail: format!("it announced an error message of {len} bytes"),
                });
            }
            let mut text = vec![0u8; len as usize];
            stream.read_exact(&mut text).map_err(cut_short)?;
            Err(RankError::Refused {
                addr: addr.to_string(),
                message: String::from_utf8_lossy(&text).into_owned(),
            })
        }
        other => Err(RankError::NotFibril {
            addr: addr.to_string(),
            detail: format!("its answer began with the byte {other:#04x}"),
        }),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let map: HashMap<String, String> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |key| map.get(key).cloned()
    }

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn info(rank: usize, world_size: usize) -> RankInfo {
        RankInfo { rank, world_size, local_rank: rank, source: RankSource::Flags }
    }

    fn test_id() -> [u8; 128] {
        std::array::from_fn(|i| (i * 7 + 3) as u8)
    }

    /// A port that was free a moment ago, for one test's rendezvous.
    fn free_addr() -> String {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind an ephemeral port");
        let port = listener.local_addr().expect("local address").port();
        drop(listener);
        format!("127.0.0.1:{port}")
    }

    const LONG: Duration = Duration::from_secs(10);
    const SHORT: Duration = Duration::from_millis(500);

    /// Runs ranks 1.. in threads (rank r with `fingerprints[r]`) and rank 0
    /// on this thread; results indexed by rank.
    fn run_world(addr: &str, fingerprints: &[u64], timeout: Duration) -> Vec<Result<[u8; 128], RankError>> {
        let world = fingerprints.len();
        thread::scope(|s| {
            let clients: Vec<_> = (1..world)
                .map(|r| {
                    s.spawn(move || {
                        share_id(addr, &info(r, world), fingerprints[r], || unreachable!(), timeout)
                    })
                })
                .collect();
            let first = share_id(addr, &info(0, world), fingerprints[0], || Ok(test_id()), timeout);
            let mut results = vec![first];
            results.extend(clients.into_iter().map(|c| c.join().expect("client thread")));
            results
        })
    }

    fn expect_err<T: fmt::Debug>(result: Result<T, RankError>) -> RankError {
        match result {
            Ok(value) => panic!("expected an error, got {value:?}"),
            Err(err) => err,
        }
    }

    #[test]
    fn detect_reads_openmpi_variables() {
        let env = env_of(&[
            ("OMPI_COMM_WORLD_RANK", "3"),
            ("OMPI_COMM_WORLD_SIZE", "4"),
            ("OMPI_COMM_WORLD_LOCAL_RANK", "1"),
        ]);
        let got = RankInfo::detect(None, None, &env).unwrap();
        assert_eq!(
            got,
            Some(RankInfo { rank: 3, world_size: 4, local_rank: 1, source: RankSource::OpenMpi })
        );
    }

    #[test]
    fn detect_reads_pmi_variables() {
        let env = env_of(&[("PMI_RANK", "2"), ("PMI_SIZE", "3"), ("MPI_LOCALRANKID", "0")]);
        let got = RankInfo::detect(None, None, &env).unwrap();
        assert_eq!(got, Some(RankInfo { rank: 2, world_size: 3, local_rank: 0, source: RankSource::Pmi }));
    }

    #[test]
    fn detect_reads_slurm_variables() {
        let env = env_of(&[("SLURM_PROCID", "5"), ("SLURM_NTASKS", "8"), ("SLURM_LOCALID", "1")]);
        let got = RankInfo::detect(None, None, &env).unwrap();
        assert_eq!(got, Some(RankInfo { rank: 5, world_size: 8, local_rank: 1, source: RankSource::Slurm }));
    }

    #[test]
    fn detect_local_rank_defaults_to_rank() {
        let env = env_of(&[("SLURM_PROCID", "1"), ("SLURM_NTASKS", "2")]);
        assert_eq!(RankInfo::detect(None, None, &env).unwrap().unwrap().local_rank, 1);
        let flags = RankInfo::detect(Some(1), Some(3), &no_env).unwrap().unwrap();
        assert_eq!(flags, RankInfo { rank: 1, world_size: 3, local_rank: 1, source: RankSource::Flags });
    }

    #[test]
    fn detect_prefers_mpi_launchers_over_slurm() {
        let env = env_of(&[
            ("SLURM_PROCID", "0"),
            ("SLURM_NTASKS", "1"),
            ("PMI_RANK", "1"),
            ("PMI_SIZE", "2"),
            ("OMPI_COMM_WORLD_RANK", "0"),
            ("OMPI_COMM_WORLD_SIZE", "4"),
        ]);
        let got = RankInfo::detect(None, None, &env).unwrap().unwrap();
        assert_eq!((got.rank, got.world_size, got.source), (0, 4, RankSource::OpenMpi));
        let env =
            env_of(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1"), ("PMI_RANK", "1"), ("PMI_SIZE", "2")]);
        assert_eq!(RankInfo::detect(None, None, &env).unwrap().unwrap().source, RankSource::Pmi);
    }

    #[test]
    fn detect_flags_beat_environment() {
        let env = env_of(&[("OMPI_COMM_WORLD_RANK", "3"), ("OMPI_COMM_WORLD_SIZE", "4")]);
        let got = RankInfo::detect(Some(1), Some(2), &env).unwrap();
        assert_eq!(got, Some(RankInfo { rank: 1, world_size: 2, local_rank: 1, source: RankSource::Flags }));
        // Flags saying "one process" win over a launcher saying four.
        assert_eq!(RankInfo::detect(Some(0), Some(1), &env).unwrap(), None);
        // Even a malformed launcher variable is not read when flags are given.
        let broken = env_of(&[("SLURM_PROCID", "x"), ("SLURM_NTASKS", "2")]);
        assert!(RankInfo::detect(Some(0), Some(2), &broken).unwrap().is_some());
    }

    #[test]
    fn detect_single_process_is_none() {
        assert_eq!(RankInfo::detect(None, None, &no_env).unwrap(), None);
        assert_eq!(RankInfo::detect(Some(0), Some(1), &no_env).unwrap(), None);
        let one_task = env_of(&[("SLURM_PROCID", "0"), ("SLURM_NTASKS", "1")]);
        assert_eq!(RankInfo::detect(None, None, &one_task).unwrap(), None);
        // An allocation's shell has a task count but no rank.
        let allocation = env_of(&[("SLURM_NTASKS", "4")]);
        assert_eq!(RankInfo::detect(None, None, &allocation).unwrap(), None);
        let empty = env_of(&[("PMI_RANK", ""), ("PMI_SIZE", "")]);
        assert_eq!(RankInfo::detect(None, None, &empty).unwrap(), None);
    }

    #[test]
    fn detect_rejects_half_flags() {
        let err = expect_err(RankInfo::detect(Some(0), None, &no_env));
        assert!(matches!(err, RankError::HalfFlags { given: "--rank", missing: "--world-size" }), "{err:?}");
        assert!(err.to_string().contains("give both"), "{err}");
        let err = expect_err(RankInfo::detect(None, Some(2), &no_env));
        assert!(matches!(err, RankError::HalfFlags { given: "--world-size", missing: "--rank" }), "{err:?}");
    }

    #[test]
    fn detect_rejects_values_that_are_not_counts() {
        for (pairs, name, value) in [
            (
                vec![("OMPI_COMM_WORLD_RANK", "-1"), ("OMPI_COMM_WORLD_SIZE", "2")],
                "OMPI_COMM_WORLD_RANK",
                "-1",
            ),
            (vec![("PMI_RANK", "0"), ("PMI_SIZE", "two")], "PMI_SIZE", "two"),
            (
                vec![("SLURM_PROCID", "0"), ("SLURM_NTASKS", "2"), ("SLURM_LOCALID", "1.5")],
                "SLURM_LOCALID",
                "1.5",
            ),
        ] {
            let err = expect_err(RankInfo::detect(None, None, &env_of(&pairs)));
            assert!(matches!(err, RankError::NotAnInteger { .. }), "{err:?}");
            let text = err.to_string();
            assert!(text.contains(name) && text.contains(value), "{text}");
            assert!(text.contains("non-negative integer"), "{text}");
        }
    }

    #[test]
    fn detect_rejects_rank_not_below_world_size() {
        let err = expect_err(RankInfo::detect(Some(2), Some(2), &no_env));
        assert!(matches!(err, RankError::RankOutOfRange { rank: 2, world_size: 2, .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("--rank") && text.contains("from 0 to 1"), "{text}");
        let env = env_of(&[("SLURM_PROCID", "4"), ("SLURM_NTASKS", "4")]);
        let text = expect_err(RankInfo::detect(None, None, &env)).to_string();
        assert!(text.contains("SLURM_PROCID") && text.contains("SLURM_NTASKS"), "{text}");
        // A rank past a world size of 1 is an error, not a single process.
        assert!(RankInfo::detect(Some(1), Some(1), &no_env).is_err());
    }

    #[test]
    fn detect_rejects_zero_world_size() {
        let err = expect_err(RankInfo::detect(Some(0), Some(0), &no_env));
        assert!(matches!(err, RankError::ZeroWorldSize { from: RankSource::Flags }), "{err:?}");
        assert!(err.to_string().contains("--world-size"), "{err}");
        let env = env_of(&[("PMI_RANK", "0"), ("PMI_SIZE", "0")]);
        let text = expect_err(RankInfo::detect(None, None, &env)).to_string();
        assert!(text.contains("PMI_SIZE") && text.contains("at least 1"), "{text}");
    }

    #[test]
    fn detect_rejects_rank_without_size() {
        let env = env_of(&[("OMPI_COMM_WORLD_RANK", "1")]);
        let err = expect_err(RankInfo::detect(None, None, &env));
        let text = err.to_string();
        assert!(matches!(err, RankError::MissingVariable { .. }), "{err:?}");
        assert!(text.contains("OMPI_COMM_WORLD_RANK") && text.contains("OMPI_COMM_WORLD_SIZE"), "{text}");
    }

    #[test]
    fn rank_source_describes_and_rank_info_displays() {
        assert_eq!(RankSource::Flags.describe(), "--rank/--world-size");
        assert_eq!(RankSource::OpenMpi.describe(), "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE");
        assert_eq!(RankSource::Pmi.describe(), "PMI_RANK/PMI_SIZE");
        assert_eq!(RankSource::Slurm.describe(), "SLURM_PROCID/SLURM_NTASKS");
        let info = RankInfo { rank: 1, world_size: 2, local_rank: 1, source: RankSource::Slurm };
        assert_eq!(info.to_string(), "rank 1 of 2 (from SLURM_PROCID/SLURM_NTASKS)");
    }

    #[test]
    fn rendezvous_address_precedence() {
        let all = env_of(&[
            ("FIBRIL_RENDEZVOUS", "envhost:1000"),
            ("MASTER_ADDR", "master"),
            ("MASTER_PORT", "2000"),
        ]);
        assert_eq!(rendezvous_address(Some("flaghost:3000"), &all).unwrap(), "flaghost:3000");
        assert_eq!(rendezvous_address(None, &all).unwrap(), "envhost:1000");
        let master = env_of(&[("MASTER_ADDR", "master"), ("MASTER_PORT", "2000")]);
        assert_eq!(rendezvous_address(None, &master).unwrap(), "master:2000");
        assert_eq!(rendezvous_address(None, &no_env).unwrap(), DEFAULT_RENDEZVOUS);
        // An empty FIBRIL_RENDEZVOUS counts as unset.
        let empty = env_of(&[("FIBRIL_RENDEZVOUS", ""), ("MASTER_ADDR", "master"), ("MASTER_PORT", "2000")]);
        assert_eq!(rendezvous_address(None, &empty).unwrap(), "master:2000");
    }

    #[test]
    fn rendezvous_address_completes_master_variables() {
        assert_eq!(rendezvous_address(None, &env_of(&[("MASTER_ADDR", "node7")])).unwrap(), "node7:29517");
        assert_eq!(rendezvous_address(None, &env_of(&[("MASTER_PORT", "4000")])).unwrap(), "127.0.0.1:4000");
        let v6 = env_of(&[("MASTER_ADDR", "fe80::1"), ("MASTER_PORT", "4000")]);
        assert_eq!(rendezvous_address(None, &v6).unwrap(), "[fe80::1]:4000");
        assert_eq!(rendezvous_address(Some("[::1]:5"), &no_env).unwrap(), "[::1]:5");
    }

    #[test]
    fn rendezvous_address_rejects_malformed_values() {
        for (value, reason) in [
            ("node7", "no port"),
            (":29517", "host is empty"),
            ("node7:0", "port 0"),
            ("node7:70000", "\"70000\""),
            ("node7:http", "\"http\""),
            ("fe80::1:4000", "brackets"),
            ("tcp://node7:4000", "scheme"),
        ] {
            let err = expect_err(rendezvous_address(Some(value), &no_env));
            let text = err.to_string();
            assert!(matches!(err, RankError::InvalidAddress { origin: "--rendezvous", .. }), "{err:?}");
            assert!(text.contains(value) && text.contains(reason) && text.contains("host:port"), "{text}");
        }
        let text =
            expect_err(rendezvous_address(None, &env_of(&[("FIBRIL_RENDEZVOUS", "node7")]))).to_string();
        assert!(text.contains("FIBRIL_RENDEZVOUS"), "{text}");
        let bad_port = env_of(&[("MASTER_ADDR", "node7"), ("MASTER_PORT", "x")]);
        let text = expect_err(rendezvous_address(None, &bad_port)).to_string();
        assert!(text.contains("MASTER_PORT") && text.contains("node7:x"), "{text}");
    }

    #[test]
    fn share_id_two_ranks() {
        let addr = free_addr();
        for (rank, result) in run_world(&addr, &[7, 7], LONG).into_iter().enumerate() {
            assert_eq!(result.unwrap_or_else(|e| panic!("rank {rank}: {e}")), test_id());
        }
    }

    #[test]
    fn share_id_four_ranks() {
        let addr = free_addr();
        for (rank, result) in run_world(&addr, &[42; 4], LONG).into_iter().enumerate() {
            assert_eq!(result.unwrap_or_else(|e| panic!("rank {rank}: {e}")), test_id());
        }
    }

    #[test]
    fn share_id_calls_make_id_once() {
        let addr = free_addr();
        let calls = AtomicUsize::new(0);
        let make_id = || {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok(test_id())
        };
        thread::scope(|s| {
            let clients: Vec<_> = (1..3)
                .map(|r| {
                    let addr = &addr;
                    s.spawn(move || share_id(addr, &info(r, 3), 1, || unreachable!(), LONG))
                })
                .collect();
            assert_eq!(share_id(&addr, &info(0, 3), 1, make_id, LONG).unwrap(), test_id());
            for client in clients {
                assert_eq!(client.join().unwrap().unwrap(), test_id());
            }
        });
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn share_id_client_started_before_rank_zero() {
        let addr = free_addr();
        thread::scope(|s| {
            let client = s.spawn(|| share_id(&addr, &info(1, 2), 9, || unreachable!(), LONG));
            thread::sleep(Duration::from_millis(400));
            assert_eq!(share_id(&addr, &info(0, 2), 9, || Ok(test_id()), LONG).unwrap(), test_id());
            assert_eq!(client.join().unwrap().unwrap(), test_id());
        });
    }

    #[test]
    fn share_id_fingerprint_mismatch_fails_on_both_sides() {
        let addr = free_addr();
        let called = AtomicUsize::new(0);
        thread::scope(|s| {
            let client = s.spawn(|| share_id(&addr, &info(1, 2), 2, || unreachable!(), LONG));
            let make_id = || {
                called.fetch_add(1, Ordering::SeqCst);
                Ok(test_id())
            };
            let err = expect_err(share_id(&addr, &info(0, 2), 1, make_id, LONG));
            assert!(matches!(err, RankError::FingerprintMismatch { rank: 1 }), "{err:?}");
            let expected = "rank 1 was started with different options than rank 0; start every rank with the same command line";
            assert!(err.to_string().contains(expected), "{err}");
            let err = expect_err(client.join().unwrap());
            assert!(matches!(err, RankError::Refused { .. }), "{err:?}");
            assert!(err.to_string().contains(expected), "{err}");
        });
        assert_eq!(called.load(Ordering::SeqCst), 0, "no id is made for a refused run");
    }

    #[test]
    fn share_id_world_size_mismatch_fails_on_both_sides() {
        let addr = free_addr();
        thread::scope(|s| {
            let client = s.spawn(|| share_id(&addr, &info(1, 3), 5, || unreachable!(), LONG));
            let err = expect_err(share_id(&addr, &info(0, 2), 5, || Ok(test_id()), LONG));
            assert!(matches!(err, RankError::WorldSizeMismatch { rank: 1, theirs: 3, ours: 2 }), "{err:?}");
            let text = expect_err(client.join().unwrap()).to_string();
            assert!(text.contains("world size of 3") && text.contains("rank 0 with 2"), "{text}");
        });
    }

    #[test]
    fn share_id_refuses_duplicate_and_out_of_range_ranks() {
        let addr = free_addr();
        thread::scope(|s| {
            let first = s.spawn(|| share_id(&addr, &info(1, 3), 5, || unreachable!(), LONG));
            let second = s.spawn(|| {
                thread::sleep(Duration::from_millis(200));
                share_id(&addr, &info(1, 3), 5, || unreachable!(), LONG)
            });
            let err = expect_err(share_id(&addr, &info(0, 3), 5, || Ok(test_id()), LONG));
            assert!(matches!(err, RankError::DuplicateRank { rank: 1 }), "{err:?}");
            // Both rank-1 processes hear why: one is the duplicate, the
            // other learns that rank 0 stopped.
            for client in [first, second] {
                let text = expect_err(client.join().unwrap()).to_string();
                assert!(text.contains("both announced themselves as rank 1"), "{text}");
            }
        });

        let addr = free_addr();
        thread::scope(|s| {
            let client = s.spawn(|| share_id(&addr, &info(5, 2), 5, || unreachable!(), LONG));
            let err = expect_err(share_id(&addr, &info(0, 2), 5, || Ok(test_id()), LONG));
            assert!(matches!(err, RankError::HelloRankOutOfRange { rank: 5, world_size: 2 }), "{err:?}");
            let text = expect_err(client.join().unwrap()).to_string();
            assert!(text.contains("rank 5") && text.contains("--rank"), "{text}");
        });
    }

    #[test]
    fn share_id_refuses_a_stranger_on_the_port() {
        let addr = free_addr();
        thread::scope(|s| {
            let stranger = s.spawn(|| {
                let deadline = Instant::now() + LONG;
                let mut stream = loop {
                    match TcpStream::connect(&addr) {
                        Ok(stream) => break stream,
                        Err(_) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
                        Err(e) => panic!("stranger could not connect: {e}"),
                    }
                };
                // Exactly a hello's length: rank 0 reads no more, and unread
                // bytes would make its close a reset that can eat the reply.
                stream.write_all(b"GET / HTTP/1.1\r\nHost: ab").unwrap();
                stream.set_read_timeout(Some(LONG)).unwrap();
                let mut reply = Vec::new();
                stream.read_to_end(&mut reply).unwrap();
                reply
            });
            let err = expect_err(share_id(&addr, &info(0, 2), 5, || Ok(test_id()), LONG));
            assert!(matches!(err, RankError::WrongMagic { .. }), "{err:?}");
            assert!(
                err.to_string().contains("GET / HT") && err.to_string().contains("--rendezvous"),
                "{err}"
            );
            let reply = stranger.join().unwrap();
            assert_eq!(reply[0], STATUS_ERR);
            let len = u32::from_le_bytes(reply[1..5].try_into().unwrap()) as usize;
            assert_eq!(reply.len(), 5 + len);
            assert!(String::from_utf8(reply[5..].to_vec()).unwrap().contains("another program"));
        });
    }

    #[test]
    fn share_id_ignores_a_connection_that_says_nothing() {
        let addr = free_addr();
        thread::scope(|s| {
            let client = s.spawn(|| {
                // A probe that connects and hangs up, as a port scan would.
                let deadline = Instant::now() + LONG;
                while TcpStream::connect(&addr).is_err() {
                    assert!(Instant::now() < deadline, "rank 0 never listened");
                    thread::sleep(Duration::from_millis(20));
                }
                share_id(&addr, &info(1, 2), 3, || unreachable!(), LONG)
            });
            assert_eq!(share_id(&addr, &info(0, 2), 3, || Ok(test_id()), LONG).unwrap(), test_id());
            assert_eq!(client.join().unwrap().unwrap(), test_id());
        });
    }

    #[test]
    fn share_id_rank_zero_times_out_on_a_missing_rank() {
        let addr = free_addr();
        let start = Instant::now();
        thread::scope(|s| {
            let client = s.spawn(|| share_id(&addr, &info(1, 3), 4, || unreachable!(), SHORT));
            let err = expect_err(share_id(&addr, &info(0, 3), 4, || Ok(test_id()), SHORT));
            assert!(matches!(err, RankError::AcceptTimeout { arrived: 2, world_size: 3, .. }), "{err:?}");
            let text = err.to_string();
            for part in
                [addr.as_str(), "only 2 of 3", "missing: 2", "start all 3 ranks", "--rendezvous", "firewall"]
            {
                assert!(text.contains(part), "{part:?} missing in {text}");
            }
            // The rank that did arrive hears rank 0's reason at once.
            let text = expect_err(client.join().unwrap()).to_string();
            assert!(text.contains("only 2 of 3"), "{text}");
        });
        assert!(start.elapsed() < Duration::from_secs(3), "took {:?}", start.elapsed());
    }

    #[test]
    fn share_id_client_times_out_without_rank_zero() {
        let addr = free_addr();
        let start = Instant::now();
        let err = expect_err(share_id(&addr, &info(1, 2), 4, || unreachable!(), SHORT));
        let elapsed = start.elapsed();
        assert!(matches!(err, RankError::ConnectTimeout { rank: 1, world_size: 2, .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains(&addr) && text.contains("start all 2 ranks") && text.contains("firewall"),
            "{text}"
        );
        assert!(elapsed >= SHORT && elapsed < Duration::from_secs(3), "took {elapsed:?}");
    }

    #[test]
    fn share_id_reports_a_port_in_use() {
        let held = TcpListener::bind("0.0.0.0:0").unwrap();
        let addr = format!("127.0.0.1:{}", held.local_addr().unwrap().port());
        let err = expect_err(share_id(&addr, &info(0, 2), 0, || Ok(test_id()), SHORT));
        assert!(matches!(err, RankError::PortInUse { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.contains("already in use") && text.contains("--rendezvous"), "{text}");
    }

    #[test]
    fn share_id_make_id_failure_reaches_every_rank() {
        let addr = free_addr();
        thread::scope(|s| {
            let client = s.spawn(|| share_id(&addr, &info(1, 2), 0, || unreachable!(), LONG));
            let err = expect_err(share_id(&addr, &info(0, 2), 0, || Err("no GPU".to_string()), LONG));
            assert!(matches!(err, RankError::MakeId(_)), "{err:?}");
            let text = expect_err(client.join().unwrap()).to_string();
            assert!(text.contains("could not create the NCCL unique id: no GPU"), "{text}");
        });
    }

    #[test]
    fn share_id_client_rejects_a_server_that_is_not_fibril() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        thread::scope(|s| {
            s.spawn(|| {
                let (mut stream, _) = listener.accept().unwrap();
                let mut hello = [0u8; HELLO_LEN];
                stream.read_exact(&mut hello).unwrap();
                let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n");
            });
            let err = expect_err(share_id(&addr, &info(1, 2), 0, || unreachable!(), LONG));
            assert!(matches!(err, RankError::NotFibril { .. }), "{err:?}");
            assert!(err.to_string().contains("0x48"), "{err}");
        });
    }

    #[test]
    fn share_id_single_rank_needs_no_network() {
        let id = share_id("127.0.0.1:1", &info(0, 1), 0, || Ok(test_id()), SHORT).unwrap();
        assert_eq!(id, test_id());
    }
}
