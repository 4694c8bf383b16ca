//! Time source for fetching and caching.
//!
//! Every time stamp the crate takes (when a fetch started, whether a cache entry is fresh)
//! comes from a [`Clock`], so cache behaviour can be tested by moving a [`ManualClock`]
//! forward instead of sleeping.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

/// A source of wall-clock time.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The operating system's clock ([`SystemTime::now`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that only moves when told to; clones share the same time.
///
/// ```
/// use std::time::Duration;
/// use robotrules_fetch::{Clock, ManualClock};
///
/// let clock = ManualClock::default();
/// let start = clock.now();
/// clock.advance(Duration::from_secs(3600));
/// assert_eq!(clock.now(), start + Duration::from_secs(3600));
/// ```
#[derive(Clone, Debug)]
pub struct ManualClock {
    now: Arc<Mutex<SystemTime>>,
}

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: SystemTime) -> Self {
        Self {
            now: Arc::new(Mutex::new(start)),
        }
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(PoisonError::into_inner);
        *now += by;
    }

    /// Sets the clock to `to` (which may be earlier than the current time).
    pub fn set(&self, to: SystemTime) {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner) = to;
    }
}

impl Default for ManualClock {
    /// A clock standing at 2024-01-01T00:00:00Z.
    fn default() -> Self {
        Self::new(SystemTime::UNIX_EPOCH + Duration::from_secs(1_704_067_200))
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
