//! The async [`Client`]: may this crawler fetch this URL? End to end — the robots.txt of the
//! URL's origin is fetched (HTTP, HTTPS or FTP) and cached by `robotrules-fetch` with the
//! status, redirect, size and cache rules of RFC 9309 §2.3–§2.5, parsed once per fetched copy,
//! and asked.
//!
//! | access result (RFC 9309 §2.3.1) | verdict class | what [`Client::is_allowed`] answers |
//! |---|---|---|
//! | success (§2.3.1.1) | conditional | the file's rules decide ([`Answer::decided_by`]) |
//! | unavailable (§2.3.1.3: 4xx, too many redirects, FTP 550) | full allow | allowed |
//! | unreachable (§2.3.1.4: 5xx, network errors) | full disallow | disallowed, `/robots.txt` included |
//!
//! While the file is unreachable the cache may serve the last good copy, and after 30 days it
//! reads the file as unavailable ([`CachePolicy`]); the decision then follows what is served.
//! [`Client::lookup`] reports what the client holds for an origin: the fetches behind the
//! answer (requests, statuses, bytes kept, truncation), the access result and the cache
//! lifetime.
//! Only behind the default-on `fetch` feature.
//!
//! The modules: [`ClientBuilder`] (`builder`), the answer ([`Answer`], `decision`), what is
//! held for an origin ([`Lookup`], `lookup`), the client's per-origin entry (`entry`), the one
//! refresh per origin at a time (`flight`), the turns of [`Client::wait_turn`] (`turn`), and
//! what a cache shared between processes implements ([`store`]).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

pub use robotrules_fetch::cache::{Basis, CachePolicy, POLITENESS_FLOOR};
/// A crawler fleet's shared robots.txt cache in Redis (feature `redis`): pass a
/// [`RedisStore`] to [`ClientBuilder::store`] and every process asks each origin once.
#[cfg(feature = "redis")]
pub use robotrules_fetch::fleet::{FleetError, RedisOptions, RedisStore};
pub use robotrules_fetch::{
    AccessKind, AddressPolicy, Clock, FetchError, FetchOptions, Hop, ManualClock, RootCertificate,
    TooManyRequests, Truncation, VerdictClass, DEFAULT_USER_AGENT,
};
pub use store::Store;

use robotrules_fetch::{Fetcher, Origin};
use robotrules_url::OriginRef;

use crate::{InvalidAgent, InvalidUrl, ParseOptions, Profile, Robots};

mod builder;
mod decision;
mod entry;
mod flight;
mod lookup;
pub mod store;
mod turn;

pub use builder::ClientBuilder;
pub use decision::{Answer, Explained};
pub use lookup::{FetchRecord, Lookup};
pub use turn::{Turn, DEFAULT_MAX_CRAWL_DELAY};

use decision::Asked;
use entry::{Entries, EntryKey};
use flight::Flight;

/// Why a [`Client`] could not be built or could not answer.
///
/// A server that fails is never an error: it is an access result in the [`Answer`]. Errors
/// are for a crawler name the profile rejects, a URL that cannot have a robots.txt, and an
/// HTTP client that cannot be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The crawler name is not one the profile accepts (RFC 9309 §2.2.1: in `rfc9309` it must
    /// be a product token).
    #[error(transparent)]
    InvalidAgent(#[from] InvalidAgent),
    /// The URL has a robots.txt but the profile cannot read it for matching.
    #[error(transparent)]
    InvalidUrl(#[from] InvalidUrl),
    /// The URL cannot have a robots.txt: not an absolute URL, no host, a bad IDN or port, or a
    /// scheme other than http, https and ftp.
    #[error("no robots.txt for {url:?}: {source}")]
    Url {
        /// The URL as given.
        url: String,
        /// Why.
        source: FetchError,
    },
    /// The HTTP client could not be built from the [`FetchOptions`] (for example a User-Agent
    /// that is not a valid header value).
    #[error(transparent)]
    Build(FetchError),
}

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
    inner: Arc<Inner>,
}

struct Inner {
    agent: String,
    parse: ParseOptions,
    fetcher: Fetcher,
    policy: CachePolicy,
    /// A store shared with other processes (a fleet's Redis), when one is given: the source of
    /// truth that `entries` is this process's tier of. Without one, `entries` is the cache.
    shared: Option<Arc<dyn Store>>,
    /// One entry per origin.
    entries: Entries,
    /// One single flight per origin: the refresh (fetch and parse) in progress.
    in_flight: Mutex<HashMap<Origin, Flight>>,
    /// The last turn granted per origin ([`Client::wait_turn`]).
    turns: turn::Turns,
    /// The cap on the spacing between two turns at one origin.
    max_crawl_delay: Duration,
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
        Client::builder(agent).build()
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
        self.decide(&entry, Asked::Url(url), from_cache, self.now())
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
            return Some(self.decide(&entry, Asked::Origin(origin), true, now));
        }
        let entry = match origin_of(url) {
            Ok(origin) => self.current(&origin, now)?,
            Err(error) => return Some(Err(error)),
        };
        Some(self.decide(&entry, Asked::Url(url), true, now))
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
        let decision = self.decide(&entry, Asked::Url(url), from_cache, self.now())?;
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
    /// client's profile reads them, capped by [`ClientBuilder::max_crawl_delay`] (default
    /// [`DEFAULT_MAX_CRAWL_DELAY`], one minute). Fetches the robots.txt first when the client
    /// holds no current copy (that request is not a turn).
    ///
    /// Every turn granted is recorded per origin: each caller reserves the next free slot
    /// (`interval` after the previous turn, and not before now) at once, so concurrent tasks
    /// of one origin are spaced by the interval and no two get the same slot; tasks of other
    /// origins never wait on each other. The first turn, and every turn at an origin whose
    /// robots.txt sets no delay (or is unavailable or unreachable), is granted at once. The
    /// wait sleeps on the client's [`Clock`] ([`Clock::sleep_until`]): tokio's timer with the
    /// system clock, a [`ManualClock`]'s moves in tests. A wait that is cancelled leaves its
    /// slot unused (the origin is asked less often, never more). Whether the URL is allowed
    /// is a separate question: [`Client::is_allowed`].
    ///
    /// ```no_run
    /// # async fn crawl(urls: Vec<String>) -> Result<(), robotrules::client::ClientError> {
    /// use std::time::Duration;
    /// use robotrules::client::Client;
    ///
    /// let client = Client::builder("ExampleBot").max_crawl_delay(Duration::from_secs(30)).build()?;
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
