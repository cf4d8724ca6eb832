//! The rendezvous itself: rank 0 serves the NCCL unique id, the others
//! fetch it, over the protocol of the module docs.

use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use super::address::split_address;
use super::client::join;
use super::error::RankError;
use super::info::RankInfo;
use super::server::serve;

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::thread;
    use std::time::Instant;

    use crate::multi::rank::source::RankSource;
    use crate::multi::rank::testing::expect_err;
    use crate::multi::rank::wire::{HELLO_LEN, STATUS_ERR};

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
