//! A point in time as the `cache` commands report it.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

/// A point in time, as an HTTP date and in seconds since the Unix epoch.
#[derive(Clone, Debug, Serialize)]
pub(super) struct When {
    /// `Tue, 24 Nov 2026 12:00:00 GMT`.
    pub(super) date: String,
    /// Seconds since the Unix epoch.
    pub(super) unix: u64,
}

impl When {
    pub(super) fn new(at: SystemTime) -> When {
        When {
            date: httpdate::fmt_http_date(at),
            unix: at
                .duration_since(UNIX_EPOCH)
                .map_or(0, |since| since.as_secs()),
        }
    }
}
