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

    /// The current time read cheaply: at most one clock tick (a few milliseconds) behind
    /// [`Clock::now`]. For hot paths that only compare with deadlines minutes away, such as
    /// whether a cached answer still holds for the next URL. The default is [`Clock::now`].
    fn now_coarse(&self) -> SystemTime {
        self.now()
    }
}

/// The operating system's clock ([`SystemTime::now`]; on Linux, `CLOCK_REALTIME_COARSE` for
/// [`Clock::now_coarse`], about a quarter of the cost).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }

    fn now_coarse(&self) -> SystemTime {
        coarse_now()
    }
}

/// `CLOCK_REALTIME_COARSE`: the time of the last clock tick, read from the vDSO without the
/// hardware counter.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn coarse_now() -> SystemTime {
    let time = rustix::time::clock_gettime(rustix::time::ClockId::RealtimeCoarse);
    match (u64::try_from(time.tv_sec), u32::try_from(time.tv_nsec)) {
        (Ok(secs), Ok(nanos)) if nanos < 1_000_000_000 => {
            SystemTime::UNIX_EPOCH + Duration::new(secs, nanos)
        }
        _ => SystemTime::now(),
    }
}

/// Elsewhere the precise clock.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn coarse_now() -> SystemTime {
    SystemTime::now()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_coarse_clock_is_at_most_a_tick_behind() {
        for _ in 0..1_000 {
            let before = SystemTime::now();
            let coarse = SystemClock.now_coarse();
            let after = SystemTime::now();
            assert!(coarse <= after, "{coarse:?} after {after:?}");
            let behind = before.duration_since(coarse).unwrap_or(Duration::ZERO);
            assert!(behind < Duration::from_millis(100), "{behind:?} behind");
        }
    }
}
