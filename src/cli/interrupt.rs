//! Ctrl-C (SIGINT) and SIGTERM: ask the run loop to stop after the
//! current chunk of steps, so that it writes a final checkpoint and the
//! summary.
//!
//! Signals often come in bursts: coreutils `timeout` sends SIGINT to the
//! process and then to its group, batch schedulers (Slurm's `scancel`, job
//! time limits) signal every process of a job, a user presses Ctrl-C twice.
//! So a repeated signal quits at once only when it comes
//! [`GRACE`] after the first, or is the third: the burst of one request
//! still gets its final checkpoint, and a user who really means it can
//! still get out.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by the signal handler; read by the run loop between chunks.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Exit status of a run stopped by a signal (128 + SIGINT, the shell's
/// convention).
pub const INTERRUPTED_EXIT: u8 = 130;

/// Signals within this time of the first are the same request.
pub const GRACE: Duration = Duration::from_secs(3);

/// What to do with a signal.
#[derive(Debug, PartialEq, Eq)]
enum Decision {
    /// The first: stop after the current chunk.
    Stop,
    /// Part of the same burst: already stopping.
    Ignore,
    /// A deliberate repeat (after the grace period, or the third): quit now.
    Quit,
}

/// The signals received so far: when the first came and how many.
#[derive(Debug, Default)]
struct Signals {
    first: Option<Instant>,
    count: u32,
}

impl Signals {
    fn receive(&mut self, now: Instant) -> Decision {
        self.count += 1;
        match self.first {
            None => {
                self.first = Some(now);
                Decision::Stop
            }
            Some(first) if self.count < 3 && now.duration_since(first) < GRACE => Decision::Ignore,
            Some(_) => Decision::Quit,
        }
    }
}

static SIGNALS: Mutex<Signals> = Mutex::new(Signals { first: None, count: 0 });

/// Installs the handler, once per process (a later call, as from a
/// second run in the same process, finds it installed).
pub fn install() -> anyhow::Result<&'static AtomicBool> {
    static INSTALLED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    INSTALLED
        .get_or_init(|| set_handler().map_err(|e| e.to_string()))
        .clone()
        .map_err(|e| anyhow::anyhow!("cannot install the Ctrl-C handler: {e}"))?;
    Ok(&STOP)
}

fn set_handler() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        let decision = SIGNALS.lock().unwrap_or_else(|e| e.into_inner()).receive(Instant::now());
        match decision {
            Decision::Stop => {
                STOP.store(true, Ordering::SeqCst);
                eprintln!(
                    "fibril: interrupted; stopping after the current chunk of steps to write a checkpoint \
                     and the summary (interrupt again after {} s, or twice more, to quit at once)",
                    GRACE.as_secs()
                );
            }
            Decision::Ignore => {}
            Decision::Quit => {
                eprintln!("fibril: interrupted again; exiting now without a final checkpoint");
                std::process::exit(INTERRUPTED_EXIT as i32);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_one_request_and_a_deliberate_repeat_quits() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        // timeout's two SIGINTs a millisecond apart: stop, then ignore.
        let mut s = Signals::default();
        assert_eq!(s.receive(t0), Decision::Stop);
        assert_eq!(s.receive(t0 + ms(1)), Decision::Ignore);
        // A third signal quits even inside the grace period.
        assert_eq!(s.receive(t0 + ms(2)), Decision::Quit);
        // A second one after the grace period quits.
        let mut s = Signals::default();
        assert_eq!(s.receive(t0), Decision::Stop);
        assert_eq!(s.receive(t0 + GRACE + ms(1)), Decision::Quit);
    }
}
