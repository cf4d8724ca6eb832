//! An environment of given variables, and an expected error, for the
//! tests of the rank modules.

use std::collections::HashMap;
use std::fmt;

use super::error::RankError;

pub(super) fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    move |key| map.get(key).cloned()
}

pub(super) fn no_env(_: &str) -> Option<String> {
    None
}

pub(super) fn expect_err<T: fmt::Debug>(result: Result<T, RankError>) -> RankError {
    match result {
        Ok(value) => panic!("expected an error, got {value:?}"),
        Err(err) => err,
    }
}
