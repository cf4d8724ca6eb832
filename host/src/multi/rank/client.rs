//! The other ranks' side of the rendezvous: connect to rank 0 (retrying
//! while it starts), send the hello, and read the id or rank 0's reason.

use std::io::{self, ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::thread;
use std::time::{Duration, Instant};

use super::error::RankError;
use super::info::RankInfo;
use super::wire::{ID_LEN, IO_TIMEOUT, MAX_MESSAGE, STATUS_ERR, STATUS_OK, encode_hello};

/// How often a rank retries a refused connection: rank 0 may not be
/// listening yet, and 100 ms is short beside a job's start-up yet keeps a
/// waiting rank from spinning.
const CONNECT_RETRY: Duration = Duration::from_millis(100);
/// One connection attempt may not eat the whole budget when a host drops
/// packets instead of refusing them.
const CONNECT_ATTEMPT: Duration = Duration::from_secs(2);
/// A client hears from rank 0 at the latest when rank 0's own deadline
/// passes, which is at most `timeout` after the client connected; the grace
/// covers the time rank 0 takes to write the answer.
const REPLY_GRACE: Duration = Duration::from_secs(2);

pub(super) fn join(
    addr: &str,
    info: &RankInfo,
    fingerprint: u64,
    timeout: Duration,
) -> Result<[u8; 128], RankError> {
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
