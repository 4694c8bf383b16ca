//! What the client holds for one origin ([`Lookup`]) and the fetches behind it
//! ([`FetchRecord`]).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules_fetch::cache::Basis;
use robotrules_fetch::{
    Access, AccessKind, FetchOutcome, Hop, Truncation, UnreachableReason, VerdictClass,
};

use super::decision::{decide, Answer, Asked};
use super::entry::{age, Entry};
use super::error::ClientError;
use crate::{Crawler, Robots};

/// What the client holds for one origin ([`Client::lookup`](super::Client::lookup), [`Client::cached`](super::Client::cached)): the access
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
    /// What the client holds in `entry`, at `now`.
    pub(super) fn new(
        entry: Arc<Entry>,
        from_cache: bool,
        now: SystemTime,
        cache_lifetime: Duration,
    ) -> Lookup {
        Lookup {
            entry,
            from_cache,
            now,
            cache_lifetime,
        }
    }

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

    /// What the access result alone decides for every URL of the origin (RFC 9309 §2.3.1):
    /// `Some(true)` for an unavailable file (allow all), `Some(false)` for an unreachable one
    /// (disallow all), `None` for a success (the file's rules decide).
    pub fn allows_all(&self) -> Option<bool> {
        super::decision::blanket(self.entry.verdict_class)
    }

    /// The decision for `url` (a URL of this origin, or a path) with what this lookup holds,
    /// as [`Client::is_allowed`](super::Client::is_allowed) gives it, without asking the client again.
    ///
    /// # Errors
    /// [`ClientError::InvalidUrl`] for a URL the profile cannot read, when the file's rules
    /// decide.
    pub fn decide(&self, url: &str) -> Result<Answer, ClientError> {
        decide(&self.entry, Asked::Url(url), self.from_cache, self.now)
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

    /// The network library's error chain behind an unreachable fetch (`error sending request
    /// for url (…): … Connection refused (os error 111)`), where the reason is the short one
    /// (`connection refused`); `None` for any other result and for reasons without one (a
    /// status, a deadline). See [`UnreachableReason::chain`].
    pub fn error_chain(&self) -> Option<&'a str> {
        match &self.outcome.access {
            Access::Unreachable { reason } => reason.chain(),
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
