//! Time source for fetching and caching.
//!
//! Every time stamp the crate takes (when a fetch started, whether a cache entry is fresh)
//! comes from a [`Clock`], so cache behaviour can be tested by moving a [`ManualClock`]
//! forward instead of sleeping.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;
use tokio::sync::watch;

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

    /// Resolves once the clock reads `deadline` or later: at once when it does already. The
    /// default sleeps on tokio's timer for the time left by [`Clock::now`] (so it needs a
    /// runtime with the time driver, as fetching does); a [`ManualClock`] wakes its sleepers
    /// when it is moved past their deadline.
    fn sleep_until(&self, deadline: SystemTime) -> BoxFuture<'static, ()> {
        match deadline.duration_since(self.now()) {
            Ok(left) if !left.is_zero() => Box::pin(tokio::time::sleep(left)),
            _ => Box::pin(std::future::ready(())),
        }
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

/// A clock that only moves when told to; clones share the same time. A
/// [`sleep_until`](Clock::sleep_until) on it ends when the clock is moved to or past its
/// deadline ([`ManualClock::advance`], [`ManualClock::set`]), never by itself.
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
    /// The time, and the sleepers watching it (each sleep holds one receiver).
    now: Arc<watch::Sender<SystemTime>>,
}

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: SystemTime) -> Self {
        Self {
            now: Arc::new(watch::Sender::new(start)),
        }
    }

    /// Moves the clock forward by `by`, waking the sleeps whose deadline it reaches.
    pub fn advance(&self, by: Duration) {
        self.now.send_modify(|now| *now += by);
    }

    /// Sets the clock to `to` (which may be earlier than the current time), waking the sleeps
    /// whose deadline it reaches.
    pub fn set(&self, to: SystemTime) {
        self.now.send_replace(to);
    }

    /// How many [`sleep_until`](Clock::sleep_until)s on this clock (and its clones) have not
    /// ended: a test moves the clock once every task it expects to wait is waiting.
    pub fn sleepers(&self) -> usize {
        self.now.receiver_count()
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
        *self.now.borrow()
    }

    fn sleep_until(&self, deadline: SystemTime) -> BoxFuture<'static, ()> {
        if self.now() >= deadline {
            return Box::pin(std::future::ready(()));
        }
        // Subscribed now, not when first polled, so `sleepers` counts this sleep at once.
        let mut time = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as the clock; if every clone is gone, nothing waits.
            let _ = time.wait_for(|now| *now >= deadline).await;
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_sleep_ends_when_the_clock_reaches_its_deadline() {
        let clock = ManualClock::default();
        let deadline = clock.now() + Duration::from_secs(10);
        let sleep = tokio::spawn(clock.sleep_until(deadline));
        assert_eq!(clock.sleepers(), 1);
        clock.advance(Duration::from_secs(9));
        tokio::task::yield_now().await;
        assert!(!sleep.is_finished());
        clock.advance(Duration::from_secs(1));
        sleep.await.unwrap();
        assert_eq!(clock.sleepers(), 0);
        // A deadline passed already: no wait, no sleeper.
        clock.sleep_until(deadline).await;
        assert_eq!(clock.sleepers(), 0);
    }

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
