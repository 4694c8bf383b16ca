//! The [`Client`] and the questions it answers: each asks the origin's entry (the current one,
//! or one refreshed under the origin's single flight) and decides with it.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules_fetch::cache::{CacheEntry, CachePolicy, Store};
use robotrules_fetch::{refresh_entry, Access, FetchOptions, Fetcher, Origin};
use robotrules_url::OriginRef;

use super::decision::{decide, decide_usage, Answer, Asked, Explained};
use super::entry::{same_copy, Entries, Entry, EntryKey};
use super::error::ClientError;
use super::flight::Flights;
use super::lookup::Lookup;
use super::turn::{self, Turn};
use crate::model::{self, RobotsTxt};
use crate::{ParseOptions, Profile, Robots};

/// Fetches, caches, parses and asks robots.txt files for one crawler.
///
/// Cheap to clone (clones share the cache and the parsed files) and `Send + Sync`, so one
/// client serves any number of tasks. The client keeps one entry per origin: the fetched copy
/// with its cache state (RFC 9309 §2.4) and, for a success, the file parsed with the
/// crawler's groups resolved. Concurrent questions about one origin share one fetch and one
/// parse (one single flight per origin). A question about an origin whose entry holds costs
/// the origin key, one look-up and the match: no fetch, no parse, no allocation.
///
/// ```no_run
/// # async fn demo() -> Result<(), robotrules::client::ClientError> {
/// use std::time::Duration;
/// use robotrules::client::Client;
///
/// let client = Client::new("ExampleBot")?;
/// let decision = client.is_allowed("https://example.com/private/page").await?;
/// println!("{} ({}, {} s old)", decision.allowed, decision.access, decision.cache_age.as_secs());
/// let delay: Option<Duration> = decision.crawl_delay;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    pub(super) inner: Arc<Inner>,
}

pub(super) struct Inner {
    pub(super) agent: String,
    pub(super) parse: ParseOptions,
    pub(super) fetcher: Fetcher,
    pub(super) policy: CachePolicy,
    /// A store shared with other processes (a fleet's Redis), when one is given: the source of
    /// truth that `entries` is this process's tier of. Without one, `entries` is the cache.
    pub(super) shared: Option<Arc<dyn Store>>,
    /// One entry per origin.
    pub(super) entries: Entries,
    /// One single flight per origin: the refresh (fetch and parse) in progress.
    pub(super) in_flight: Flights,
    /// The last turn granted per origin ([`Client::wait_turn`]).
    pub(super) turns: turn::Turns,
    /// The cap on the spacing between two turns at one origin.
    pub(super) max_crawl_delay: Duration,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("agent", &self.inner.agent)
            .field("parse", &self.inner.parse)
            .field("fetcher", &self.inner.fetcher)
            .field("policy", &self.inner.policy)
            .field("shared", &self.inner.shared)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client for crawler `agent` with the default options: the `rfc9309` profile, fetch
    /// defaults, `CachePolicy::rfc9309()`, an in-memory cache.
    ///
    /// # Errors
    /// [`ClientError::InvalidAgent`] when `agent` is not a product token (RFC 9309 §2.2.1).
    pub fn new(agent: &str) -> Result<Client, ClientError> {
        Client::builder().crawler(agent).build()
    }

    /// The crawler's name.
    pub fn agent(&self) -> &str {
        &self.inner.agent
    }

    /// The reading applied to fetched files.
    pub fn profile(&self) -> Profile {
        self.inner.parse.profile
    }

    /// The fetch options in force (the User-Agent header, deadlines, the body limit, which is
    /// the parse limit).
    pub fn fetch_options(&self) -> &FetchOptions {
        self.inner.fetcher.options()
    }

    /// The cache policy in force.
    pub fn cache_policy(&self) -> &CachePolicy {
        &self.inner.policy
    }

    /// May the crawler fetch `url`? Fetches the robots.txt of the URL's origin unless the
    /// client holds a current answer for it. Builds no explanation: see [`Client::explain`].
    ///
    /// # Errors
    /// [`ClientError::Url`] when `url` cannot have a robots.txt.
    pub async fn is_allowed(&self, url: &str) -> Result<Answer, ClientError> {
        if let Some(decision) = self.try_is_allowed(url) {
            return decision;
        }
        let origin = origin_of(url)?;
        let (entry, from_cache) = self.entry(&origin, url).await?;
        decide(&entry, Asked::Url(url), from_cache, self.now())
    }

    /// May the crawler fetch `url`, answered now from what the client already knows, without
    /// waiting: `None` when the origin's robots.txt is not known or no longer current (ask
    /// [`Client::is_allowed`] then). A crawler's hot loop can try this first and keep the
    /// asynchronous path for the origins it meets for the first time.
    ///
    /// # Errors
    /// `Some(Err(..))` as [`Client::is_allowed`] when `url` cannot have a robots.txt.
    #[inline]
    pub fn try_is_allowed(&self, url: &str) -> Option<Result<Answer, ClientError>> {
        // A clock tick behind at most: a cached answer may be used a few milliseconds past
        // its end, never minutes.
        let now = self.inner.fetcher.clock().now_coarse();
        // The common URL is looked up by its borrowed origin: no allocation.
        if let Some(origin) = OriginRef::parse(url) {
            let entry = self.current(&EntryKey(origin), now)?;
            return Some(decide(&entry, Asked::Origin(origin), true, now));
        }
        let entry = match origin_of(url) {
            Ok(origin) => self.current(&origin, now)?,
            Err(error) => return Some(Err(error)),
        };
        Some(decide(&entry, Asked::Url(url), true, now))
    }

    /// May the crawler fetch `url`, and may it use it for AI training, for search, for AI
    /// input: the [`Answer`] with [`Answer::usage`] filled ([`crate::Crawler::usage`] on the
    /// origin's robots.txt). `content_usage` is the value of the HTTP `Content-Usage` header
    /// of the URL's response, when the crawler has fetched it (draft-ietf-aipref-attach-05 §2):
    /// one more statement, combined with the file's most-restrictively (vocab-07 §5.1).
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), robotrules::client::ClientError> {
    /// use robotrules::client::Client;
    /// use robotrules::usage::{Outcome, SharedCategory};
    ///
    /// let client = Client::new("ExampleBot")?;
    /// let answer = client.usage("https://example.com/a", Some(b"train-ai=n")).await?;
    /// let usage = answer.usage.expect("asked for");
    /// assert!(!usage.crawlable || usage.combined(SharedCategory::TrainAi) == Outcome::Disallowed);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn usage(
        &self,
        url: &str,
        content_usage: Option<&[u8]>,
    ) -> Result<Answer, ClientError> {
        let origin = origin_of(url)?;
        let (entry, from_cache) = self.entry(&origin, url).await?;
        decide_usage(&entry, url, content_usage, from_cache, self.now())
    }

    /// The client's clock, read once per question.
    fn now(&self) -> SystemTime {
        self.inner.fetcher.clock().now()
    }

    /// May the crawler fetch `url`, and why: the [`Answer`] with the model's full account
    /// of it (groups, every matching rule, the deciding line) when the file's rules decided.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn explain(&self, url: &str) -> Result<Explained, ClientError> {
        let origin = origin_of(url)?;
        let (entry, from_cache) = self.entry(&origin, url).await?;
        let decision = decide(&entry, Asked::Url(url), from_cache, self.now())?;
        let explanation = match &entry.crawler {
            Some(crawler) => Some(crawler.explain(url)?),
            None => None,
        };
        Ok(Explained {
            decision,
            explanation,
        })
    }

    /// The crawl delay the robots.txt of `url`'s origin sets for the crawler, if any (none
    /// when the file is unavailable or unreachable). Every [`Answer`] carries it too.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn crawl_delay(&self, url: &str) -> Result<Option<Duration>, ClientError> {
        let (entry, _) = self.entry(&origin_of(url)?, url).await?;
        Ok(entry.crawl_delay)
    }

    /// Waits for the crawler's next turn at `url`'s origin, and takes it: returns when the
    /// crawler may fetch the next URL of that origin under its robots.txt's `crawl-delay` and
    /// `request-rate` (the interval `seconds / requests`), whichever asks for more, as the
    /// client's profile reads them, capped by [`ClientBuilder::max_crawl_delay`](super::ClientBuilder::max_crawl_delay) (default
    /// [`DEFAULT_MAX_CRAWL_DELAY`](super::DEFAULT_MAX_CRAWL_DELAY), one minute). Fetches the robots.txt first when the client
    /// holds no current copy (that request is not a turn).
    ///
    /// Every turn granted is recorded per origin: each caller reserves the next free slot
    /// (`interval` after the previous turn, and not before now) at once, so concurrent tasks
    /// of one origin are spaced by the interval and no two get the same slot; tasks of other
    /// origins never wait on each other. The first turn, and every turn at an origin whose
    /// robots.txt sets no delay (or is unavailable or unreachable), is granted at once. The
    /// wait sleeps on the client's [`Clock`](super::Clock) ([`Clock::sleep_until`](super::Clock::sleep_until)): tokio's timer with the
    /// system clock, a [`ManualClock`](super::ManualClock)'s moves in tests. A wait that is cancelled leaves its
    /// slot unused (the origin is asked less often, never more). Whether the URL is allowed
    /// is a separate question: [`Client::is_allowed`].
    ///
    /// ```no_run
    /// # async fn crawl(urls: Vec<String>) -> Result<(), robotrules::client::ClientError> {
    /// use std::time::Duration;
    /// use robotrules::client::Client;
    ///
    /// let client = Client::builder().crawler("ExampleBot").max_crawl_delay(Duration::from_secs(30)).build()?;
    /// for url in urls {
    ///     if client.is_allowed(&url).await?.allowed {
    ///         let turn = client.wait_turn(&url).await?; // Crawl-delay: 10 → 10 s apart
    ///         println!("{url} after {:?} (every {:?})", turn.waited, turn.interval);
    ///         // … fetch the page …
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn wait_turn(&self, url: &str) -> Result<Turn, ClientError> {
        let origin = origin_of(url)?;
        let (entry, _) = self.entry(&origin, url).await?;
        let inner = &*self.inner;
        let now = self.now();
        let requested = entry.spacing;
        let interval = requested
            .unwrap_or(Duration::ZERO)
            .min(inner.max_crawl_delay);
        if interval.is_zero() {
            return Ok(Turn {
                at: now,
                waited: Duration::ZERO,
                interval,
                requested,
            });
        }
        let at = inner
            .turns
            .reserve(&origin, now, interval, inner.max_crawl_delay);
        inner.fetcher.clock().sleep_until(at).await;
        Ok(Turn {
            at,
            waited: at.duration_since(now).unwrap_or(Duration::ZERO),
            interval,
            requested,
        })
    }

    /// Every `Sitemap:` URL of the robots.txt of `url`'s origin (RFC 9309 §2.2.4), resolved
    /// against the robots.txt URL (`/sitemap.xml` becomes `https://example.com/sitemap.xml`);
    /// none when the file is unavailable or unreachable.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn sitemaps(&self, url: &str) -> Result<Vec<String>, ClientError> {
        let (entry, _) = self.entry(&origin_of(url)?, url).await?;
        Ok(entry
            .crawler
            .as_ref()
            .map(|crawler| {
                Robots::from_model(Arc::clone(crawler.robots()))
                    .sitemaps_from(&entry.robots_txt_url)
            })
            .unwrap_or_default())
    }

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

    /// The entry for `origin` (asked about as `url`), and whether no fetch was waited for:
    /// the current one, or a refreshed one that every caller asking meanwhile shares.
    pub(super) async fn entry(
        &self,
        origin: &Origin,
        url: &str,
    ) -> Result<(Arc<Entry>, bool), ClientError> {
        if let Some(entry) = self.current(origin, self.now()) {
            return Ok((entry, true));
        }
        let (entry, fetched) = self
            .inner
            .in_flight
            .share(origin, || self.refresh(origin, url))
            .await?;
        Ok((entry, !fetched))
    }

    /// A new entry for `origin`, and whether it took a fetch: the one a flight just finished
    /// put there, the same cache entry served anew (the unreachable schedule passed a
    /// threshold), or the shared store's or a new fetch's; its served copy parsed unless the
    /// entry it replaces holds that copy parsed already.
    pub(super) async fn refresh(
        &self,
        origin: &Origin,
        url: &str,
    ) -> Result<(Arc<Entry>, bool), ClientError> {
        let inner = &*self.inner;
        let now = self.now();
        let current = inner.entries.get(origin);
        if let Some(entry) = &current {
            if now < entry.until {
                return Ok((Arc::clone(entry), false));
            }
        }
        let local = current
            .as_deref()
            .filter(|entry| entry.storable)
            .map(|entry| &entry.cache);
        let refreshed = refresh_entry(
            &inner.fetcher,
            &inner.policy,
            inner.shared.as_deref(),
            origin,
            local,
        )
        .await
        .map_err(|source| ClientError::Url {
            url: url.to_owned(),
            source,
        })?;
        let entry = self.entry_of(
            refreshed.entry,
            refreshed.storable,
            current.as_deref(),
            self.now(),
        );
        self.remember(origin, &entry);
        Ok((entry, refreshed.fetched))
    }

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
    /// else the shared store's (a fleet's Redis, [`ClientBuilder::store`](super::ClientBuilder::store)), whether fresh or
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
        Lookup::new(entry, from_cache, self.now(), cache_lifetime)
    }
}

/// The origin whose robots.txt governs `url`.
fn origin_of(url: &str) -> Result<Origin, ClientError> {
    Fetcher::origin_of(url).map_err(|source| ClientError::Url {
        url: url.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync + Clone>() {}

    #[test]
    fn the_client_is_shareable() {
        assert_send_sync::<Client>();
    }
}
