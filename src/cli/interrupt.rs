//! Ctrl-C (SIGINT) and SIGTERM: ask the run loop to stop after the
//! current chunk of steps, so that it writes a final checkpoint and the
//! summary. A second signal exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the signal handler; read by the run loop between chunks.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Exit status of a run stopped by a signal (128 + SIGINT, the shell's
/// convention).
pub const INTERRUPTED_EXIT: u8 = 130;

/// Installs the handler (once per process).
pub fn install() -> anyhow::Result<&'static AtomicBool> {
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            eprintln!("fibril: interrupted again; exiting now without a final checkpoint");
            std::process::exit(INTERRUPTED_EXIT as i32);
        }
        eprintln!(
            "fibril: interrupted; stopping after the current chunk of steps to write a checkpoint \
             and the summary (interrupt again to quit at once)"
        );
    })
    .map_err(|e| anyhow::anyhow!("cannot install the Ctrl-C handler: {e}"))?;
    Ok(&STOP)
}
