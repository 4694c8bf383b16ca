//! [`SweepOptions`], what the sweep does per file: read by the sweep and kept in its report.

use std::time::Duration;

/// What the sweep does per file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepOptions {
    /// A file that takes longer than this (all profiles together) fails the sweep.
    pub time_budget: Duration,
    /// How many URLs to ask about per file and crawler (built by
    /// [`urls::for_file`](crate::urls::for_file)).
    pub urls_per_file: usize,
    /// How many of the slowest files the report lists.
    pub slowest: usize,
    /// The parse limit (bytes past it are ignored, RFC 9309 §2.5).
    pub parse_limit: usize,
}

impl Default for SweepOptions {
    fn default() -> Self {
        SweepOptions {
            time_budget: Duration::from_secs(1),
            urls_per_file: 50,
            slowest: 10,
            parse_limit: robotrules::DEFAULT_PARSE_LIMIT,
        }
    }
}
