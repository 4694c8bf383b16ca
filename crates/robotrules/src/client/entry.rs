//! The client's entry for one origin: the cache entry, what it serves until when, and the
//! served copy parsed once with the crawler's groups resolved; the entries tier it lives in.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules_fetch::cache::{Basis, Budget, CacheEntry};
use robotrules_fetch::{Access, FetchOutcome, Origin};
use robotrules_url::OriginRef;

use super::{turn, Client, VerdictClass};
use crate::model::{self, RobotsTxt};

/// The entries tier: one entry per origin, weighed by its bodies.
pub(super) type Entries = quick_cache::sync::Cache<
    Origin,
    Arc<Entry>,
    EntryWeight,
    quick_cache::DefaultHashBuilder,
    quick_cache::sync::DefaultLifecycle<Origin, Arc<Entry>>,
>;

/// What the client holds for one origin: the cache entry, what it serves until when, and the
/// parsed file of the copy served.
#[derive(Debug)]
pub(super) struct Entry {
    /// The latest fetch, the last good copy, freshness and the outage's count.
    pub(super) cache: CacheEntry,
    /// Whether `cache` may be the previous entry of the next refresh (not for a `no-store`
    /// response without a politeness floor).
    pub(super) storable: bool,
    /// The fetch served (the latest one, or the last good copy).
    pub(super) served: Arc<FetchOutcome>,
    /// Until when this answer holds (the entry's freshness, or the next threshold of the
    /// unreachable schedule).
    pub(super) until: SystemTime,
    pub(super) access: Access,
    pub(super) access_reason: Option<Arc<str>>,
    pub(super) verdict_class: VerdictClass,
    pub(super) basis: Basis,
    pub(super) robots_txt_url: Arc<str>,
    /// The served copy parsed, with the crawler's groups resolved, for a success.
    pub(super) crawler: Option<model::Crawler>,
    /// The crawler's crawl delay in that copy.
    pub(super) crawl_delay: Option<Duration>,
    /// The spacing between two fetches the copy asks of the crawler: the larger of its crawl
    /// delay and its request-rate interval.
    pub(super) spacing: Option<Duration>,
}

/// The weight of an entry in the client's budget: its bodies.
#[derive(Clone, Debug)]
pub(super) struct EntryWeight(pub(super) Budget);

impl quick_cache::Weighter<Origin, Arc<Entry>> for EntryWeight {
    fn weight(&self, _origin: &Origin, entry: &Arc<Entry>) -> u64 {
        self.0.weight(entry.cache.body_bytes())
    }
}

impl Client {
    /// The entry for `origin`, while its answer holds at `now`.
    pub(super) fn current<Q>(&self, origin: &Q, now: SystemTime) -> Option<Arc<Entry>>
    where
        Q: std::hash::Hash + quick_cache::Equivalent<Origin> + ?Sized,
    {
        let entry = self.inner.entries.get(origin)?;
        (now < entry.until).then_some(entry)
    }

    /// The entry for `cache` at `now`, its served copy parsed (or taken from `previous` when
    /// that holds the same copy parsed).
    pub(super) fn entry_of(
        &self,
        cache: CacheEntry,
        storable: bool,
        previous: Option<&Entry>,
        now: SystemTime,
    ) -> Arc<Entry> {
        let served = self.inner.policy.serve(&cache, now);
        let crawler = served.access.body().and_then(|body| match previous {
            Some(previous) if same_copy(&previous.served, &served.from) => previous.crawler.clone(),
            _ => {
                let parse = &self.inner.parse;
                let robots = Arc::new(RobotsTxt::parse(body, parse.profile, parse.parse_limit));
                // The builder checked the name against the profile.
                model::Crawler::new(robots, &self.inner.agent).ok()
            }
        });
        Arc::new(Entry {
            storable,
            until: served.until,
            access_reason: served.access.reason().map(Arc::from),
            verdict_class: served.access.verdict_class(),
            basis: served.basis,
            robots_txt_url: served.from.robots_txt_url.as_str().into(),
            crawl_delay: crawler.as_ref().and_then(model::Crawler::crawl_delay),
            spacing: crawler.as_ref().and_then(|crawler| {
                let rate = crawler.request_rate().map(|rate| rate.interval());
                turn::requested(crawler.crawl_delay(), rate)
            }),
            crawler,
            access: served.access,
            served: served.from,
            cache,
        })
    }

    /// Puts `entry` in the entries tier unless it holds a newer copy already.
    pub(super) fn remember(&self, origin: &Origin, entry: &Arc<Entry>) {
        if let Some(current) = self.inner.entries.get(origin) {
            if current.served.fetched_at > entry.served.fetched_at {
                return;
            }
        }
        self.inner.entries.insert(origin.clone(), Arc::clone(entry));
    }
}

/// Whether two fetches are the same copy: the same `Arc`, or equal (a shared store such as
/// Redis hands out a new `Arc` for every read of the same entry; comparing the fetch time
/// first keeps the body comparison for copies that are the same).
pub(super) fn same_copy(a: &Arc<FetchOutcome>, b: &Arc<FetchOutcome>) -> bool {
    Arc::ptr_eq(a, b) || (a.fetched_at == b.fetched_at && a == b)
}

/// A URL's borrowed origin as a key of the entries: it hashes as the equal [`Origin`] does,
/// so a look-up allocates nothing.
#[derive(Hash)]
pub(super) struct EntryKey<'a>(pub(super) OriginRef<'a>);

impl quick_cache::Equivalent<Origin> for EntryKey<'_> {
    fn equivalent(&self, origin: &Origin) -> bool {
        self.0.is(origin)
    }
}
