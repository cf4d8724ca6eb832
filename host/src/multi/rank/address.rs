//! Where the ranks meet: the rendezvous address from the flag or the
//! environment, checked when it is read, since a typo would otherwise
//! show only as a timeout minutes later.

use std::net::Ipv6Addr;

use super::error::RankError;
use super::source::nonempty;

/// Used when nothing names a rendezvous: all ranks on one machine is the
/// only layout in which every rank can guess the same address.
pub const DEFAULT_RENDEZVOUS: &str = "127.0.0.1:29517";
const DEFAULT_PORT: &str = "29517";

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
pub(super) fn split_address(value: &str) -> Result<(&str, u16), String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi::rank::testing::{env_of, expect_err, no_env};

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
}
