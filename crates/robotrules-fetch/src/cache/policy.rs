//! The cache policy: how long a fetched robots.txt stays fresh, how errors back off, and what
//! to serve while the file is unreachable (RFC 9309 §2.4, §2.3.1.4). No I/O and no clock:
//! every function takes the time it needs as an argument.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::directives::{parse_delta_seconds, parse_http_date, CacheControl};
use crate::outcome::{Access, FetchOutcome, UnavailableReason};

const HOUR: Duration = Duration::from_secs(3600);

/// The default politeness floor ([`CachePolicy::min_lifetime`]): one hour.
pub const POLITENESS_FLOOR: Duration = HOUR;
const DAY: Duration = Duration::from_secs(24 * 3600);

/// Caching rules. [`CachePolicy::rfc9309`] (the default) and [`CachePolicy::google`] are the
/// two profiles; every field can be changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CachePolicy {
    /// Lifetime of a response whose headers say nothing about freshness: 24 hours
    /// (RFC 9309 §2.4; Google caches "for up to 24 hours").
    pub default_lifetime: Duration,
    /// Upper bound on any lifetime taken from `Cache-Control`/`Expires`. `Some(24 h)` in
    /// `rfc9309` ("SHOULD NOT use the cached version for more than 24 hours", RFC 9309 §2.4);
    /// `None` in `google` ("Google may increase or decrease the cache lifetime based on
    /// max-age").
    pub max_lifetime: Option<Duration>,
    /// The politeness floor: a response is used for at least this long, whatever its cache
    /// headers say (`no-store`, `no-cache`, `max-age=0`, an `Expires` in the past or
    /// unreadable), so one origin is asked for its robots.txt at most once per floor. One
    /// hour by default ([`POLITENESS_FLOOR`]); RFC 9309 §2.4 makes standard cache control a
    /// MAY, and a crawler that refetches on every URL hammers exactly the sites that ask for
    /// care. Zero restores plain RFC 9111 reuse (`no-store`: not stored at all).
    pub min_lifetime: Duration,
    /// First retry delay after an "unreachable" fetch; doubles with each consecutive failure.
    pub error_backoff_initial: Duration,
    /// Largest retry delay from the doubling back-off.
    pub error_backoff_max: Duration,
    /// Largest delay a `Retry-After` header can impose.
    pub max_retry_after: Duration,
    /// How long the file must have been unreachable before the last good copy is served
    /// instead of complete disallow: zero in `rfc9309` (RFC 9309 §2.4 allows the cached copy
    /// past 24 hours "if the robots.txt file is unreachable"); 12 hours in `google` ("For the
    /// first 12 hours, Google stops crawling the site").
    pub stale_copy_after: Duration,
    /// How long the file may stay unreachable before it is read as unavailable (allow all),
    /// whether or not a last good copy exists: 30 days (RFC 9309 §2.3.1.4 "for example, 30
    /// days"; Google "for the next 30 days Google will use the last good version").
    pub unavailable_after: Duration,
    /// Same, when there is no last good copy: 30 days in `rfc9309`; 12 hours in `google`
    /// ("If there's no cached version available, Google assumes there's no crawl
    /// restrictions").
    pub unavailable_without_copy_after: Duration,
}

impl CachePolicy {
    /// RFC 9309 §2.4 and §2.3.1.4: at most 24 hours, last good copy while unreachable for up
    /// to 30 days, then unavailable.
    pub fn rfc9309() -> Self {
        Self {
            default_lifetime: DAY,
            max_lifetime: Some(DAY),
            min_lifetime: POLITENESS_FLOOR,
            error_backoff_initial: Duration::from_secs(60),
            error_backoff_max: HOUR,
            max_retry_after: DAY,
            stale_copy_after: Duration::ZERO,
            unavailable_after: 30 * DAY,
            unavailable_without_copy_after: 30 * DAY,
        }
    }

    /// Google's documented behaviour: 24 hours unless `max-age` says otherwise (longer too);
    /// when unreachable, disallow for 12 hours, then the last good copy (or allow all when
    /// there is none) until 30 days, then allow all.
    pub fn google() -> Self {
        Self {
            max_lifetime: None,
            stale_copy_after: 12 * HOUR,
            unavailable_without_copy_after: 12 * HOUR,
            ..Self::rfc9309()
        }
    }

    /// Whether the response may be stored at all: always, unless it says `no-store` and the
    /// politeness floor ([`min_lifetime`](Self::min_lifetime)) is zero. Results of failed
    /// fetches carry no body and are always storable.
    pub fn is_storable(&self, outcome: &FetchOutcome) -> bool {
        if !self.min_lifetime.is_zero() {
            return true;
        }
        match outcome.access {
            Access::Unreachable { .. } => true,
            _ => !outcome
                .headers
                .cache_control
                .as_deref()
                .map(CacheControl::parse)
                .is_some_and(|cc| cc.no_store),
        }
    }

    /// How long a successful or "unavailable" response stays fresh, counted from
    /// `outcome.fetched_at`: `max-age`, else `Expires` minus `Date`, else
    /// [`default_lifetime`](Self::default_lifetime); minus `Age`; then bounded by
    /// [`min_lifetime`](Self::min_lifetime) and [`max_lifetime`](Self::max_lifetime)
    /// (RFC 9111 §4.2.1, RFC 9309 §2.4). `no-store` and `no-cache` give zero before the
    /// floor.
    pub fn freshness_lifetime(&self, outcome: &FetchOutcome) -> Duration {
        let headers = &outcome.headers;
        let cache_control = headers
            .cache_control
            .as_deref()
            .map(CacheControl::parse)
            .unwrap_or_default();
        let lifetime = if cache_control.no_store || cache_control.no_cache {
            Duration::ZERO
        } else if let Some(max_age) = cache_control.max_age {
            max_age
        } else if let Some(expires) = headers.expires.as_deref() {
            // RFC 9111 §5.3: an invalid Expires ("0" included) means already expired.
            let date = headers
                .date
                .as_deref()
                .and_then(parse_http_date)
                .unwrap_or(outcome.fetched_at);
            parse_http_date(expires)
                .and_then(|expires| expires.duration_since(date).ok())
                .unwrap_or(Duration::ZERO)
        } else {
            self.default_lifetime
        };
        let age = headers
            .age
            .as_deref()
            .and_then(|age| parse_delta_seconds(age.trim()))
            .map_or(Duration::ZERO, Duration::from_secs);
        self.bound(lifetime.saturating_sub(age))
    }

    fn bound(&self, lifetime: Duration) -> Duration {
        let lifetime = match self.max_lifetime {
            Some(max) => lifetime.min(max),
            None => lifetime,
        };
        lifetime.max(self.min_lifetime)
    }

    /// The retry delay after `consecutive_failures` unreachable fetches in a row (1 for the
    /// first): the doubling back-off, or the server's `Retry-After` when that is longer
    /// (bounded by [`max_retry_after`](Self::max_retry_after)).
    pub fn retry_delay(
        &self,
        consecutive_failures: u32,
        retry_after: Option<Duration>,
    ) -> Duration {
        let doublings = consecutive_failures.saturating_sub(1).min(31);
        let backoff = self
            .error_backoff_initial
            .saturating_mul(1u32 << doublings)
            .min(self.error_backoff_max);
        let asked = retry_after.map_or(Duration::ZERO, |delay| delay.min(self.max_retry_after));
        backoff.max(asked)
    }

    /// How long the outcome is cached: its freshness lifetime, or the retry delay of a first
    /// failure. This is what `robotrules fetch` reports.
    pub fn cache_lifetime(&self, outcome: &FetchOutcome) -> Duration {
        match outcome.access {
            Access::Unreachable { .. } => self.retry_delay(1, outcome.retry_after),
            _ => self.freshness_lifetime(outcome),
        }
    }

    /// The cache entry after a fetch, given the entry it replaces. Successful and
    /// "unavailable" results start afresh; an "unreachable" result keeps the previous last
    /// good copy, counts the failure and backs off.
    pub fn next_entry(&self, previous: Option<&CacheEntry>, outcome: FetchOutcome) -> CacheEntry {
        let outcome = Arc::new(outcome);
        let fetched_at = outcome.fetched_at;
        match outcome.access {
            Access::Success { .. } => CacheEntry {
                last_good: self.is_storable(&outcome).then(|| Arc::clone(&outcome)),
                fresh_until: fetched_at + self.freshness_lifetime(&outcome),
                unreachable_since: None,
                consecutive_failures: 0,
                latest: outcome,
            },
            Access::Unavailable { .. } => CacheEntry {
                last_good: None,
                fresh_until: fetched_at + self.freshness_lifetime(&outcome),
                unreachable_since: None,
                consecutive_failures: 0,
                latest: outcome,
            },
            Access::Unreachable { .. } => {
                let consecutive_failures = previous
                    .map_or(0, |entry| entry.consecutive_failures)
                    .saturating_add(1);
                let unreachable_since = previous
                    .and_then(|entry| entry.unreachable_since)
                    .unwrap_or(fetched_at);
                CacheEntry {
                    last_good: previous.and_then(|entry| entry.last_good.clone()),
                    fresh_until: fetched_at
                        + self.retry_delay(consecutive_failures, outcome.retry_after),
                    unreachable_since: Some(unreachable_since),
                    consecutive_failures,
                    latest: outcome,
                }
            }
        }
    }

    /// Whether the entry may be served at `now` without fetching again.
    pub fn is_fresh(&self, entry: &CacheEntry, now: SystemTime) -> bool {
        now < entry.fresh_until
    }

    /// What the entry means at `now`: the access result to apply, why, and until when that
    /// answer holds.
    pub fn serve(&self, entry: &CacheEntry, now: SystemTime) -> Served {
        let latest = &entry.latest;
        let Access::Unreachable { .. } = latest.access else {
            return Served {
                access: latest.access.clone(),
                basis: Basis::Current,
                from: Arc::clone(latest),
                until: entry.fresh_until,
            };
        };
        let since = entry.unreachable_since.unwrap_or(latest.fetched_at);
        let down_for = now.duration_since(since).unwrap_or(Duration::ZERO);
        let give_up_after = match entry.last_good {
            Some(_) => self.unavailable_after,
            None => self.unavailable_without_copy_after,
        };
        if down_for >= give_up_after {
            return Served {
                access: Access::Unavailable {
                    reason: UnavailableReason::UnreachableTooLong { since },
                },
                basis: Basis::UnreachableTooLong { since },
                from: Arc::clone(latest),
                until: entry.fresh_until,
            };
        }
        // The answer changes when the outage crosses the next threshold of the schedule.
        let give_up_at = since + give_up_after;
        match &entry.last_good {
            Some(good) if down_for >= self.stale_copy_after => Served {
                access: good.access.clone(),
                basis: Basis::LastGoodCopy { since },
                from: Arc::clone(good),
                until: entry.fresh_until.min(give_up_at),
            },
            Some(_) => Served {
                access: latest.access.clone(),
                basis: Basis::Current,
                from: Arc::clone(latest),
                until: entry
                    .fresh_until
                    .min(give_up_at)
                    .min(since + self.stale_copy_after),
            },
            None => Served {
                access: latest.access.clone(),
                basis: Basis::Current,
                from: Arc::clone(latest),
                until: entry.fresh_until.min(give_up_at),
            },
        }
    }
}

impl Default for CachePolicy {
    /// [`CachePolicy::rfc9309`].
    fn default() -> Self {
        Self::rfc9309()
    }
}

/// What the cache knows about one origin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheEntry {
    /// The most recent fetch.
    pub latest: Arc<FetchOutcome>,
    /// The most recent successful fetch, kept while the file is unreachable (RFC 9309
    /// §2.3.1.4, §2.4). Dropped when the file turns out unavailable, and never kept for a
    /// `no-store` response.
    pub last_good: Option<Arc<FetchOutcome>>,
    /// When the current run of unreachable fetches began.
    pub unreachable_since: Option<SystemTime>,
    /// How many fetches in a row were unreachable.
    pub consecutive_failures: u32,
    /// Until when the entry is served without fetching again.
    pub fresh_until: SystemTime,
}

impl CacheEntry {
    /// Bytes of robots.txt bodies the entry holds (for store budgets).
    pub fn body_bytes(&self) -> usize {
        let latest = self.latest.body().map_or(0, |body| body.len());
        let good = match &self.last_good {
            Some(good) if !Arc::ptr_eq(good, &self.latest) => good.body().map_or(0, |b| b.len()),
            _ => 0,
        };
        latest + good
    }
}

/// Why the served access result is what it is.
///
/// Serialised as `{"basis": "current"}`, or with the start of the outage as an HTTP date and
/// in Unix seconds: `{"basis": "last-good-copy", "since": "Tue, 24 Nov 2026 12:00:00 GMT",
/// "since_unix": 1795521600}` (the CLI's JSON writes every time that way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Basis {
    /// The latest fetch's own result.
    Current,
    /// The latest fetch was unreachable; the last good copy is served (RFC 9309 §2.4).
    LastGoodCopy {
        /// When the file was first found unreachable.
        since: SystemTime,
    },
    /// Unreachable for longer than the policy allows; read as unavailable (RFC 9309
    /// §2.3.1.4).
    UnreachableTooLong {
        /// When the file was first found unreachable.
        since: SystemTime,
    },
}

impl Basis {
    /// The kebab-case name: `current`, `last-good-copy`, `unreachable-too-long`.
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Current => "current",
            Basis::LastGoodCopy { .. } => "last-good-copy",
            Basis::UnreachableTooLong { .. } => "unreachable-too-long",
        }
    }

    /// When the file was first found unreachable, for the bases that serve around an outage.
    pub fn since(self) -> Option<SystemTime> {
        match self {
            Basis::Current => None,
            Basis::LastGoodCopy { since } | Basis::UnreachableTooLong { since } => Some(since),
        }
    }
}

impl std::fmt::Display for Basis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Basis {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let since = self.since();
        let mut out = serializer.serialize_struct("Basis", if since.is_some() { 3 } else { 1 })?;
        out.serialize_field("basis", self.as_str())?;
        if let Some(since) = since {
            out.serialize_field("since", &httpdate::fmt_http_date(since))?;
            let unix = since
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_secs());
            out.serialize_field("since_unix", &unix)?;
        }
        out.end()
    }
}

/// The result of [`CachePolicy::serve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Served {
    /// The access result to apply.
    pub access: Access,
    /// Why.
    pub basis: Basis,
    /// The fetch the access result comes from (the latest one, or the last good copy).
    pub from: Arc<FetchOutcome>,
    /// Until when this answer holds without asking the policy again: the entry's freshness,
    /// or the next threshold of the unreachable schedule (the last good copy takes over, or
    /// the file is read as unavailable), whichever comes first.
    pub until: SystemTime,
}
