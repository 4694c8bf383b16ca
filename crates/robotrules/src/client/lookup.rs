//! What the client holds for one origin ([`Lookup`]) and the fetches behind it
//! ([`FetchRecord`]).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules_fetch::{Access, FetchOutcome, UnreachableReason};

use super::entry::Entry;
use super::{origin_of, AccessKind, Basis, Client, ClientError, Hop, Truncation, VerdictClass};
use crate::{Crawler, Robots};

/// What the client holds for one origin ([`Client::lookup`], [`Client::cached`]): the access
/// result it applies and why, the fetches behind it (requests, statuses, bytes kept,
/// truncation, cache lifetime) and, for a success, the parsed file. Cheap to clone: it shares
/// the client's entry.
#[derive(Clone, Debug)]
pub struct Lookup {
    entry: Arc<Entry>,
    from_cache: bool,
    now: SystemTime,
    cache_lifetime: Duration,
}

impl Lookup {
    /// The robots.txt URL of the origin (`scheme://host[:port]/robots.txt`).
    pub fn robots_txt_url(&self) -> &str {
        &self.entry.robots_txt_url
    }

    /// The access result applied: success, unavailable or unreachable (RFC 9309 §2.3.1);
    /// the last good copy's while the file is unreachable and the cache serves one.
    pub fn access(&self) -> AccessKind {
        self.entry.access.kind()
    }

    /// Why the robots.txt is unavailable or unreachable (`HTTP status 503`).
    pub fn access_reason(&self) -> Option<&str> {
        self.entry.access_reason.as_deref()
    }

    /// What the access result means for every URL of the origin.
    pub fn verdict_class(&self) -> VerdictClass {
        self.entry.verdict_class
    }

    /// Why the cache serves that access result.
    pub fn basis(&self) -> Basis {
        self.entry.basis
    }

    /// True when no fetch was waited for.
    pub fn from_cache(&self) -> bool {
        self.from_cache
    }

    /// How old the copy served is.
    pub fn age(&self) -> Duration {
        age(self.now, &self.entry.served)
    }

    /// Until when the origin's entry is used without fetching again.
    pub fn fresh_until(&self) -> SystemTime {
        self.entry.cache.fresh_until
    }

    /// Whether the entry is used without fetching again, now.
    pub fn is_fresh(&self) -> bool {
        self.now < self.entry.cache.fresh_until
    }

    /// How long the client's cache policy keeps the result served: its freshness lifetime
    /// (RFC 9309 §2.4, the politeness floor included), or the first retry delay of an
    /// unreachable file.
    pub fn cache_lifetime(&self) -> Duration {
        self.cache_lifetime
    }

    /// The parsed file, when the access result is a success.
    pub fn robots(&self) -> Option<Robots> {
        let crawler = self.entry.crawler.as_ref()?;
        Some(Robots::from_model(Arc::clone(crawler.robots())))
    }

    /// The client's crawler in the parsed file, when the access result is a success.
    pub fn crawler(&self) -> Option<Crawler> {
        self.entry.crawler.clone().map(Crawler::from_model)
    }

    /// The fetch the access result comes from: the latest one, or the last good copy.
    pub fn served(&self) -> FetchRecord<'_> {
        FetchRecord {
            outcome: &self.entry.served,
            now: self.now,
        }
    }

    /// The most recent fetch.
    pub fn latest(&self) -> FetchRecord<'_> {
        FetchRecord {
            outcome: &self.entry.cache.latest,
            now: self.now,
        }
    }

    /// The last successful fetch, kept while the file is unreachable (RFC 9309 §2.4); none
    /// when there is none or it is the latest fetch.
    pub fn last_good(&self) -> Option<FetchRecord<'_>> {
        let cache = &self.entry.cache;
        let good = cache
            .last_good
            .as_ref()
            .filter(|good| **good != cache.latest)?;
        Some(FetchRecord {
            outcome: good,
            now: self.now,
        })
    }

    /// When the current run of unreachable fetches began.
    pub fn unreachable_since(&self) -> Option<SystemTime> {
        self.entry.cache.unreachable_since
    }

    /// How many fetches in a row were unreachable.
    pub fn consecutive_failures(&self) -> u32 {
        self.entry.cache.consecutive_failures
    }
}

/// One fetch of a robots.txt, as a [`Lookup`] reports it.
#[derive(Clone, Copy, Debug)]
pub struct FetchRecord<'a> {
    outcome: &'a FetchOutcome,
    now: SystemTime,
}

impl<'a> FetchRecord<'a> {
    /// The robots.txt URL asked for.
    pub fn robots_txt_url(&self) -> &'a str {
        &self.outcome.robots_txt_url
    }

    /// Every request made, with its status (redirects included).
    pub fn requests(&self) -> &'a [Hop] {
        &self.outcome.chain
    }

    /// The fetch's own access result.
    pub fn access(&self) -> AccessKind {
        self.outcome.access.kind()
    }

    /// Why it is unavailable or unreachable.
    pub fn access_reason(&self) -> Option<String> {
        self.outcome.access.reason()
    }

    /// Why the address policy refused the fetch (`FetchOptions::address_policy`): the host,
    /// its address and what kind of address it is; `None` for any other result.
    pub fn refusal(&self) -> Option<&'a str> {
        match &self.outcome.access {
            Access::Unreachable {
                reason: UnreachableReason::Refused { detail },
            } => Some(detail),
            _ => None,
        }
    }

    /// The body kept (after decompression and the size limit), for a success.
    pub fn body(&self) -> Option<&'a [u8]> {
        self.outcome.body().map(|body| &body[..])
    }

    /// Where the body was cut at the size limit (RFC 9309 §2.5).
    pub fn truncation(&self) -> Option<Truncation> {
        match &self.outcome.access {
            Access::Success { truncation, .. } => *truncation,
            _ => None,
        }
    }

    /// The `Content-Type` of a successful response.
    pub fn content_type(&self) -> Option<&'a str> {
        match &self.outcome.access {
            Access::Success { content_type, .. } => content_type.as_deref(),
            _ => None,
        }
    }

    /// When the fetch started.
    pub fn fetched_at(&self) -> SystemTime {
        self.outcome.fetched_at
    }

    /// How long ago it started.
    pub fn age(&self) -> Duration {
        age(self.now, self.outcome)
    }

    /// How long it took.
    pub fn elapsed(&self) -> Duration {
        self.outcome.elapsed
    }

    /// The server's `Retry-After`.
    pub fn retry_after(&self) -> Option<Duration> {
        self.outcome.retry_after
    }
}

/// How old `outcome` is at `now`.
pub(super) fn age(now: SystemTime, outcome: &FetchOutcome) -> Duration {
    now.duration_since(outcome.fetched_at)
        .unwrap_or(Duration::ZERO)
}

impl Client {
    /// What the client holds for the origin of `url` (any URL of the site, or its
    /// robots.txt), fetching it as [`Client::is_allowed`] does when there is no current
    /// answer: the access result, the fetches behind it, and for a success the parsed file
    /// (parsed once per fetched copy and shared).
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn lookup(&self, url: &str) -> Result<Lookup, ClientError> {
        let origin = origin_of(url)?;
        let (entry, from_cache) = self.entry(&origin, url).await?;
        Ok(self.lookup_of(entry, from_cache))
    }

    /// What the cache holds for the origin of `url`, without fetching: this client's entry,
    /// else the shared store's (a fleet's Redis, [`ClientBuilder::store`]), whether fresh or
    /// not; `None` when neither holds one.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn cached(&self, url: &str) -> Result<Option<Lookup>, ClientError> {
        let origin = origin_of(url)?;
        if let Some(entry) = self.inner.entries.get(&origin) {
            return Ok(Some(self.lookup_of(entry, true)));
        }
        let Some(shared) = &self.inner.shared else {
            return Ok(None);
        };
        let Some(cache) = shared.get(&origin).await else {
            return Ok(None);
        };
        let entry = self.entry_of(cache, true, None, self.now());
        Ok(Some(self.lookup_of(entry, true)))
    }

    /// Forgets the cached robots.txt of `url`'s origin, in the shared store too; the next
    /// question fetches it again.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn invalidate(&self, url: &str) -> Result<(), ClientError> {
        let origin = origin_of(url)?;
        if let Some(shared) = &self.inner.shared {
            shared.remove(&origin).await;
        }
        self.inner.entries.remove(&origin);
        Ok(())
    }

    /// A [`Lookup`] of `entry` now.
    pub(super) fn lookup_of(&self, entry: Arc<Entry>, from_cache: bool) -> Lookup {
        let policy = &self.inner.policy;
        let cache_lifetime = match entry.access {
            Access::Unreachable { .. } => policy.retry_delay(1, entry.served.retry_after),
            _ => policy.freshness_lifetime(&entry.served),
        };
        Lookup {
            entry,
            from_cache,
            now: self.now(),
            cache_lifetime,
        }
    }
}
