//! The crawler's turn at an origin ([`Client::wait_turn`](super::Client::wait_turn)): the
//! spacing that an origin's robots.txt asks for (`crawl-delay`, `request-rate`), capped by
//! [`ClientBuilder::max_crawl_delay`](super::ClientBuilder::max_crawl_delay), and the time of
//! the last turn granted per origin, so that concurrent tasks crawling one origin are spaced
//! by it.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use robotrules_fetch::Origin;

/// The default cap on the spacing between two turns at one origin: one minute. A robots.txt
/// asking for more (`Crawl-delay: 86400`) is crawled once a minute, not once a day.
pub const DEFAULT_MAX_CRAWL_DELAY: Duration = Duration::from_secs(60);

/// A turn granted by [`Client::wait_turn`](super::Client::wait_turn): the crawler may fetch
/// one URL of the origin now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Turn {
    /// The time of the turn, by the client's clock: the slot reserved for this caller.
    pub at: SystemTime,
    /// How long the caller waited for it (zero when the origin was free).
    pub waited: Duration,
    /// The spacing applied between two turns at the origin: the larger of its `crawl-delay`
    /// and its `request-rate` interval, capped by the client's maximum; zero when the
    /// robots.txt sets neither (or is unavailable or unreachable).
    pub interval: Duration,
    /// The spacing the robots.txt asks for, before the cap; `None` when it sets none.
    pub requested: Option<Duration>,
}

impl Turn {
    /// Whether the cap shortened the spacing the robots.txt asks for.
    pub fn capped(&self) -> bool {
        self.requested
            .is_some_and(|requested| requested > self.interval)
    }
}

/// The spacing the crawler's groups ask for: the larger of `crawl_delay` and `rate_interval`.
pub(super) fn requested(
    crawl_delay: Option<Duration>,
    rate_interval: Option<Duration>,
) -> Option<Duration> {
    match (crawl_delay, rate_interval) {
        (Some(delay), Some(rate)) => Some(delay.max(rate)),
        (delay, rate) => delay.or(rate),
    }
}

/// The last turn granted per origin (the slot of the latest reservation, which may be in the
/// future). An origin whose last turn is more than the cap in the past constrains nothing and
/// is dropped when the table grows, so the table holds only origins crawled within the cap.
#[derive(Debug, Default)]
pub(super) struct Turns {
    last: Mutex<HashMap<Origin, SystemTime>>,
}

/// How many origins the table holds before it drops the ones that constrain nothing.
const PRUNE_AT: usize = 1024;

impl Turns {
    /// Reserves the next turn at `origin` for a caller asking at `now`, `interval` after the
    /// last one granted (and not before `now`), and records it. Atomic: two callers never get
    /// the same slot.
    pub(super) fn reserve(
        &self,
        origin: &Origin,
        now: SystemTime,
        interval: Duration,
        max: Duration,
    ) -> SystemTime {
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = match last.get(origin) {
            Some(previous) => (*previous + interval).max(now),
            None => now,
        };
        if last.len() >= PRUNE_AT && !last.contains_key(origin) {
            last.retain(|_, previous| *previous + max > now);
        }
        last.insert(origin.clone(), slot);
        slot
    }

    /// How many origins are remembered.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(host: &str) -> Origin {
        robotrules_fetch::Fetcher::origin_of(&format!("https://{host}/")).unwrap()
    }

    #[test]
    fn slots_are_spaced_by_the_interval_and_never_shared() {
        let turns = Turns::default();
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let a = origin("a.example");
        let d = Duration::from_secs(5);
        let slots: Vec<_> = (0..4)
            .map(|_| turns.reserve(&a, t0, d, DEFAULT_MAX_CRAWL_DELAY))
            .collect();
        assert_eq!(slots, [t0, t0 + d, t0 + 2 * d, t0 + 3 * d]);
        // Another origin is free.
        assert_eq!(
            turns.reserve(&origin("b.example"), t0, d, DEFAULT_MAX_CRAWL_DELAY),
            t0
        );
        // Long after the last turn, the next one is now.
        let later = t0 + Duration::from_secs(100);
        assert_eq!(turns.reserve(&a, later, d, DEFAULT_MAX_CRAWL_DELAY), later);
    }

    #[test]
    fn the_larger_of_delay_and_rate_is_requested() {
        let s = Duration::from_secs;
        assert_eq!(requested(Some(s(2)), Some(s(5))), Some(s(5)));
        assert_eq!(requested(Some(s(7)), Some(s(5))), Some(s(7)));
        assert_eq!(requested(None, Some(s(5))), Some(s(5)));
        assert_eq!(requested(Some(s(2)), None), Some(s(2)));
        assert_eq!(requested(None, None), None);
    }

    #[test]
    fn origins_that_constrain_nothing_are_forgotten() {
        let turns = Turns::default();
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000);
        let d = Duration::from_secs(1);
        for i in 0..PRUNE_AT {
            turns.reserve(&origin(&format!("h{i}.example")), t0, d, d);
        }
        assert_eq!(turns.len(), PRUNE_AT);
        let later = t0 + Duration::from_secs(10);
        turns.reserve(&origin("new.example"), later, d, d);
        assert_eq!(turns.len(), 1);
    }
}
