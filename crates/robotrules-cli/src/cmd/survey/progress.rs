//! The progress bar of `survey` on standard error (indicatif): captures surveyed, captures per
//! second and the file being read; drawn only when standard error is a terminal. Warnings are
//! printed above it.

use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar, or nothing when standard error is not a terminal.
pub(crate) struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar drawn on standard error when `terminal`, else hidden.
    pub(crate) fn new(terminal: bool) -> Progress {
        let target = if terminal {
            ProgressDrawTarget::stderr_with_hz(4)
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} {human_pos} captures ({per_sec}) {elapsed} {wide_msg}",
        ) {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(250));
        Progress { bar }
    }

    /// Reading of `path` begins.
    pub(crate) fn file(&self, path: &Path) {
        // `excerpt` shows control characters escaped, so the message is terminal-safe.
        self.bar
            .set_message(robotrules_text::excerpt(&path.display().to_string(), 80));
    }

    /// `n` more captures were surveyed.
    pub(crate) fn add(&self, n: u64) {
        self.bar.inc(n);
    }

    /// A warning line on standard error, above the bar.
    pub(crate) fn warn(&self, message: &str) {
        let line = crate::error::one_line(message);
        self.bar
            .suspend(|| eprintln!("robotrules: warning: {line}"));
    }

    /// Removes the bar.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
