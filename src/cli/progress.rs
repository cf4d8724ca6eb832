//! The progress bar of a run.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `total` steps from `start`, hidden when `quiet`.
pub fn progress_bar(total: u64, start: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    // Draws only when stderr is a terminal.
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} steps, {per_sec}, {eta} left",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_position(start);
    bar.reset_eta();
    bar
}
