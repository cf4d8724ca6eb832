//! Times given in ms and the whole numbers of steps they stand for.
//!
//! Every duration, interval and stimulus time of a run goes through
//! [`ms_to_steps`]: one rounding rule and one error, which names the two
//! nearest times on the step grid (one below the given time, one above).

use thiserror::Error;

/// The most steps a time may stand for: beyond 2^53 a step count is no
/// longer exact in an f64 and `steps * dt` no longer gives the time back.
pub const MAX_STEPS: u64 = 1 << 53;

#[derive(Debug, Error, PartialEq)]
pub enum TimeError {
    #[error("{} is not a time >= 0", num(*ms))]
    NotATime { ms: f64 },
    #[error(
        "{} ms is not a whole number of time steps (dt = {} ms); use {} or {}",
        num(*ms),
        num(*dt_ms),
        short(*below),
        short(*above)
    )]
    OffGrid { ms: f64, dt_ms: f64, below: f64, above: f64 },
    #[error(
        "{} ms is more than {MAX_STEPS} steps of dt = {} ms, more than any run can take; use a larger --dt",
        num(*ms),
        num(*dt_ms)
    )]
    TooLong { ms: f64, dt_ms: f64 },
}

/// A [`TimeError`] of a named setting (`duration_ms`, `s2_from_ms`), as
/// the errors of a simulation and of a restitution protocol say it.
#[derive(Debug, Error, PartialEq)]
#[error("{what}: {source}")]
pub struct NamedTimeError {
    pub what: &'static str,
    #[source]
    pub source: TimeError,
}

/// A number as a person would write it: plain in the usual range, with an
/// exponent when tiny or huge (1e-300, not three hundred zeros).
pub fn num(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-4..1e15).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// The number of steps of `dt_ms` that make `ms` (>= 0), which must be a
/// whole number of steps up to a relative 1e-6 (so that 0.15 with
/// dt = 0.05 is 3 steps despite its binary rounding).
pub fn ms_to_steps(ms: f64, dt_ms: f64) -> Result<u64, TimeError> {
    if !(ms >= 0.0 && ms.is_finite()) {
        return Err(TimeError::NotATime { ms });
    }
    let exact = ms / dt_ms;
    if exact > MAX_STEPS as f64 {
        return Err(TimeError::TooLong { ms, dt_ms });
    }
    let steps = exact.round();
    if (steps * dt_ms - ms).abs() > 1e-6 * ms.max(dt_ms) {
        return Err(TimeError::OffGrid {
            ms,
            dt_ms,
            below: exact.floor() * dt_ms,
            above: exact.ceil() * dt_ms,
        });
    }
    Ok(steps as u64)
}

/// A number with at most 6 decimals and no trailing zeros:
/// 0.15000000000000002 -> "0.15", 71.3 -> "71.3", 2.0 -> "2".
pub fn short(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_of_steps_convert() {
        assert_eq!(ms_to_steps(1000.0, 0.05), Ok(20_000));
        assert_eq!(ms_to_steps(0.15, 0.05), Ok(3));
        assert_eq!(ms_to_steps(0.0, 0.05), Ok(0));
        assert_eq!(ms_to_steps(71.3, 0.05), Ok(1426));
    }

    #[test]
    fn off_grid_times_name_the_neighbours_on_each_side() {
        let e = ms_to_steps(0.12, 0.05).unwrap_err();
        assert!(e.to_string().contains("use 0.1 or 0.15"), "{e}");
        // Just above a step (rounds down to it) and just below (rounds up):
        // the suggestions still bracket the time.
        for ms in [1.01, 1.04] {
            let TimeError::OffGrid { below, above, .. } = ms_to_steps(ms, 0.05).unwrap_err() else {
                panic!()
            };
            assert!(below < ms && ms < above, "{below} {ms} {above}");
        }
    }

    #[test]
    fn impossible_times_are_refused() {
        assert_eq!(ms_to_steps(-1.0, 0.05), Err(TimeError::NotATime { ms: -1.0 }));
        assert!(matches!(ms_to_steps(f64::NAN, 0.05), Err(TimeError::NotATime { .. })));
        assert!(matches!(ms_to_steps(f64::INFINITY, 0.05), Err(TimeError::NotATime { .. })));
        assert!(matches!(ms_to_steps(1e300, 0.05), Err(TimeError::TooLong { .. })));
    }

    #[test]
    fn extreme_numbers_get_an_exponent() {
        assert_eq!(num(1e-300), "1e-300");
        assert_eq!(num(0.05), "0.05");
        assert_eq!(num(2e20), "2e20");
        let e = ms_to_steps(1.0, 1e-300).unwrap_err().to_string();
        assert!(e.contains("dt = 1e-300 ms") && e.len() < 200, "{e}");
    }

    #[test]
    fn short_trims() {
        assert_eq!(short(0.15000000000000002), "0.15");
        assert_eq!(short(2.0), "2");
        assert_eq!(short(-0.0000001), "0");
    }
}
