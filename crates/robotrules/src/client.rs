//! The async [`Client`]: may this crawler fetch this URL? End to end — the robots.txt of the
//! URL's origin is fetched (HTTP, HTTPS or FTP) and cached by `robotrules-fetch` with the
//! status, redirect, size and cache rules of RFC 9309 §2.3–§2.5, parsed once per fetched copy,
//! and asked.
//!
//! | access result (RFC 9309 §2.3.1) | verdict class | what [`Client::is_allowed`] answers |
//! |---|---|---|
//! | success (§2.3.1.1) | conditional | the file's rules decide ([`Decision::decided_by`]) |
//! | unavailable (§2.3.1.3: 4xx, too many redirects, FTP 550) | full allow | allowed |
//! | unreachable (§2.3.1.4: 5xx, network errors) | full disallow | disallowed, `/robots.txt` included |
//!
//! While the file is unreachable the cache may serve the last good copy, and after 30 days it
//! reads the file as unavailable ([`CachePolicy`]); the decision then follows what is served.
//! [`Client::lookup`] reports what the client holds for an origin: the fetches behind the
//! answer (requests, statuses, bytes kept, truncation), the access result and the cache
//! lifetime.
//! Only behind the default-on `fetch` feature.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

pub use robotrules_fetch::cache::{Basis, CachePolicy, Store, POLITENESS_FLOOR};
/// A crawler fleet's shared robots.txt cache in Redis (feature `redis`): pass a
/// [`RedisStore`] to [`ClientBuilder::store`] and every process asks each origin once.
#[cfg(feature = "redis")]
pub use robotrules_fetch::fleet::{FleetError, RedisOptions, RedisStore};
pub use robotrules_fetch::{
    AccessKind, Clock, FetchError, FetchOptions, Hop, ManualClock, RootCertificate,
    TooManyRequests, Truncation, VerdictClass, DEFAULT_USER_AGENT,
};

use robotrules_fetch::cache::{Budget, CacheEntry};
use robotrules_fetch::{refresh_entry, Fetcher};
use robotrules_fetch::{Access, FetchOutcome, Origin, SystemClock, UnreachableReason};
use robotrules_url::OriginRef;
use tokio::sync::OnceCell;

use crate::model::{self, AgentToken, CachePreset, RobotsTxt};

mod turn;
use crate::{
    Crawler, DecidingRule, Explanation, InvalidAgent, InvalidUrl, ParseOptions, Profile, Reason,
    Robots,
};
pub use turn::{Turn, DEFAULT_MAX_CRAWL_DELAY};

/// The cache policy a profile's reading asks for ([`crate::Reading::cache`]): the client's
/// default.
fn preset_policy(profile: Profile) -> CachePolicy {
    match profile.reading().cache {
        CachePreset::Google => CachePolicy::google(),
        _ => CachePolicy::rfc9309(),
    }
}

/// The User-Agent header for crawler `agent`: its name, when it is a product token, before
/// [`DEFAULT_USER_AGENT`] (`ExampleBot robotrules/0.1.0`). RFC 9309 §2.2.1: the product token
/// SHOULD be part of the User-Agent the crawler sends.
fn user_agent_for(agent: &str) -> String {
    let token = AgentToken::LeadingRun { digits: true };
    if !agent.is_empty() && agent.bytes().all(|b| token.is_token_byte(b)) {
        format!("{agent} {DEFAULT_USER_AGENT}")
    } else {
        DEFAULT_USER_AGENT.to_owned()
    }
}

/// How many origins a client keeps by default, each with its fetched copy and parsed file.
const DEFAULT_MAX_ORIGINS: usize = 10_000;

/// How many bytes of robots.txt bodies a client keeps by default (256 MiB).
const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

/// Why a [`Client`] could not be built or could not answer.
///
/// A server that fails is never an error: it is an access result in the [`Decision`]. Errors
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

/// The answer for one URL: the file's [`crate::Decision`] when the robots.txt was fetched
/// (a success), with what the fetch and the cache say. Building one allocates nothing: the
/// robots.txt URL and the deciding rule are shared with the client's cache.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Decision {
    /// May the crawler fetch the URL? The file's rules decide for a success; an unavailable
    /// file allows every URL (RFC 9309 §2.3.1.3), an unreachable one disallows every URL
    /// (§2.3.1.4).
    pub allowed: bool,
    /// The access result applied: success, unavailable or unreachable (RFC 9309 §2.3.1).
    /// While the file is unreachable this is the last good copy's result when the cache
    /// serves one ([`Decision::basis`]).
    pub access: AccessKind,
    /// Why the robots.txt is unavailable or unreachable (`HTTP status 503`); none for a
    /// success.
    pub access_reason: Option<Arc<str>>,
    /// What the access result means for every URL of the origin.
    pub verdict_class: VerdictClass,
    /// Why the cache served that access result (the latest fetch, the last good copy, or
    /// "unreachable too long").
    pub basis: Basis,
    /// How old the robots.txt copy used is.
    pub cache_age: Duration,
    /// True when no fetch was waited for.
    pub from_cache: bool,
    /// The robots.txt that governs the URL (`scheme://host[:port]/robots.txt`, IDN as
    /// punycode, default port elided).
    pub robots_txt_url: Arc<str>,
    /// The file's rules' answer (why, and the deciding rule), when the access result is a
    /// success.
    pub rules: Option<crate::Decision>,
    /// The crawl delay the origin's robots.txt sets for the crawler (its groups' first valid
    /// `crawl-delay` record; serialised in seconds), none when the file is unavailable or
    /// unreachable.
    pub crawl_delay: Option<Duration>,
}

impl Decision {
    /// Why the file's rules allowed or disallowed the URL, when the access result is a
    /// success.
    pub fn reason(&self) -> Option<Reason> {
        self.rules.as_ref().map(|rules| rules.reason)
    }

    /// The rule that decided, when the file's rules decided and one matched.
    pub fn decided_by(&self) -> Option<&DecidingRule> {
        self.rules.as_ref()?.decided_by.as_ref()
    }
}

/// Flat, as the command line's JSON has it: the access fields, then `reason` and
/// `decided_by` (`null` unless the file's rules decided), `crawl_delay` in seconds.
impl serde::Serialize for Decision {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut out = serializer.serialize_struct("Decision", 11)?;
        out.serialize_field("allowed", &self.allowed)?;
        out.serialize_field("access", &self.access)?;
        match &self.access_reason {
            Some(reason) => out.serialize_field("access_reason", reason)?,
            None => out.skip_field("access_reason")?,
        }
        out.serialize_field("verdict_class", &self.verdict_class)?;
        out.serialize_field("basis", &self.basis)?;
        out.serialize_field("cache_age", &self.cache_age)?;
        out.serialize_field("from_cache", &self.from_cache)?;
        out.serialize_field("robots_txt_url", &self.robots_txt_url)?;
        out.serialize_field("reason", &self.reason())?;
        out.serialize_field("decided_by", &self.decided_by())?;
        match self.crawl_delay {
            Some(delay) => out.serialize_field("crawl_delay", &delay.as_secs_f64())?,
            None => out.skip_field("crawl_delay")?,
        }
        out.end()
    }
}

/// A decision with the full account of it ([`Client::explain`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Explained {
    /// The decision, as [`Client::is_allowed`] gives it.
    pub decision: Decision,
    /// Which groups, which rules, which line: present when the file's rules decided (the
    /// access result is a success).
    pub explanation: Option<Explanation>,
}

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
fn age(now: SystemTime, outcome: &FetchOutcome) -> Duration {
    now.duration_since(outcome.fetched_at)
        .unwrap_or(Duration::ZERO)
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

/// The entries tier: one entry per origin, weighed by its bodies.
type Entries = quick_cache::sync::Cache<
    Origin,
    Arc<Entry>,
    EntryWeight,
    quick_cache::DefaultHashBuilder,
    quick_cache::sync::DefaultLifecycle<Origin, Arc<Entry>>,
>;

/// A refresh of one origin's entry in progress, shared by every caller asking meanwhile: the
/// entry, and whether it took a fetch.
type Flight = Arc<OnceCell<(Arc<Entry>, bool)>>;

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

/// What the client holds for one origin: the cache entry, what it serves until when, and the
/// parsed file of the copy served.
#[derive(Debug)]
struct Entry {
    /// The latest fetch, the last good copy, freshness and the outage's count.
    cache: CacheEntry,
    /// Whether `cache` may be the previous entry of the next refresh (not for a `no-store`
    /// response without a politeness floor).
    storable: bool,
    /// The fetch served (the latest one, or the last good copy).
    served: Arc<FetchOutcome>,
    /// Until when this answer holds (the entry's freshness, or the next threshold of the
    /// unreachable schedule).
    until: SystemTime,
    access: Access,
    access_reason: Option<Arc<str>>,
    verdict_class: VerdictClass,
    basis: Basis,
    robots_txt_url: Arc<str>,
    /// The served copy parsed, with the crawler's groups resolved, for a success.
    crawler: Option<model::Crawler>,
    /// The crawler's crawl delay in that copy.
    crawl_delay: Option<Duration>,
    /// The spacing between two fetches the copy asks of the crawler: the larger of its crawl
    /// delay and its request-rate interval.
    spacing: Option<Duration>,
}

/// The weight of an entry in the client's budget: its bodies.
#[derive(Clone, Debug)]
struct EntryWeight(Budget);

impl quick_cache::Weighter<Origin, Arc<Entry>> for EntryWeight {
    fn weight(&self, _origin: &Origin, entry: &Arc<Entry>) -> u64 {
        self.0.weight(entry.cache.body_bytes())
    }
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

    /// A builder for a client for crawler `agent`.
    pub fn builder(agent: &str) -> ClientBuilder {
        ClientBuilder {
            agent: agent.to_owned(),
            parse: ParseOptions::default(),
            fetch: FetchOptions::default(),
            user_agent: None,
            cache_policy: None,
            clock: None,
            store: None,
            max_origins: DEFAULT_MAX_ORIGINS,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            extra_roots: Vec::new(),
            platform_roots: false,
            max_crawl_delay: DEFAULT_MAX_CRAWL_DELAY,
        }
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
    pub async fn is_allowed(&self, url: &str) -> Result<Decision, ClientError> {
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
    pub fn try_is_allowed(&self, url: &str) -> Option<Result<Decision, ClientError>> {
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

    /// The entry for `origin`, while its answer holds at `now`.
    fn current<Q>(&self, origin: &Q, now: SystemTime) -> Option<Arc<Entry>>
    where
        Q: std::hash::Hash + quick_cache::Equivalent<Origin> + ?Sized,
    {
        let entry = self.inner.entries.get(origin)?;
        (now < entry.until).then_some(entry)
    }

    /// May the crawler fetch `url`, and why: the [`Decision`] with the model's full account
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
    /// when the file is unavailable or unreachable). Every [`Decision`] carries it too.
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
    fn lookup_of(&self, entry: Arc<Entry>, from_cache: bool) -> Lookup {
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

    /// The decision for `url` with what is known about its origin.
    #[inline]
    fn decide(
        &self,
        entry: &Entry,
        asked: Asked<'_>,
        from_cache: bool,
        now: SystemTime,
    ) -> Result<Decision, ClientError> {
        let rules = match (&entry.access, &entry.crawler) {
            (Access::Success { .. }, Some(crawler)) => {
                let target = match asked {
                    Asked::Url(url) => crawler.target(url)?,
                    Asked::Origin(origin) => crawler.target_of(&origin),
                };
                Some(crate::Decision::of(crawler, &target))
            }
            _ => None,
        };
        Ok(Decision {
            allowed: rules
                .as_ref()
                .map_or(entry.verdict_class != VerdictClass::FullDisallow, |rules| {
                    rules.allowed
                }),
            access: entry.access.kind(),
            access_reason: entry.access_reason.clone(),
            verdict_class: entry.verdict_class,
            basis: entry.basis,
            cache_age: age(now, &entry.served),
            from_cache,
            robots_txt_url: Arc::clone(&entry.robots_txt_url),
            rules,
            crawl_delay: entry.crawl_delay,
        })
    }

    /// The entry for `origin` (asked about as `url`), and whether no fetch was waited for:
    /// the current one, or a refreshed one that every caller asking meanwhile shares.
    async fn entry(&self, origin: &Origin, url: &str) -> Result<(Arc<Entry>, bool), ClientError> {
        if let Some(entry) = self.current(origin, self.now()) {
            return Ok((entry, true));
        }
        let flight = {
            let mut in_flight = self.lock_in_flight();
            Arc::clone(in_flight.entry(origin.clone()).or_default())
        };
        let result = flight
            .get_or_try_init(|| self.refresh(origin, url))
            .await
            .cloned();
        {
            let mut in_flight = self.lock_in_flight();
            if in_flight
                .get(origin)
                .is_some_and(|current| Arc::ptr_eq(current, &flight))
            {
                in_flight.remove(origin);
            }
        }
        let (entry, fetched) = result?;
        Ok((entry, !fetched))
    }

    /// A new entry for `origin`, and whether it took a fetch: the one a flight just finished
    /// put there, the same cache entry served anew (the unreachable schedule passed a
    /// threshold), or the shared store's or a new fetch's; its served copy parsed unless the
    /// entry it replaces holds that copy parsed already.
    async fn refresh(&self, origin: &Origin, url: &str) -> Result<(Arc<Entry>, bool), ClientError> {
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

    /// The entry for `cache` at `now`, its served copy parsed (or taken from `previous` when
    /// that holds the same copy parsed).
    fn entry_of(
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
    fn remember(&self, origin: &Origin, entry: &Arc<Entry>) {
        if let Some(current) = self.inner.entries.get(origin) {
            if current.served.fetched_at > entry.served.fetched_at {
                return;
            }
        }
        self.inner.entries.insert(origin.clone(), Arc::clone(entry));
    }

    fn lock_in_flight(&self) -> MutexGuard<'_, HashMap<Origin, Flight>> {
        self.inner
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Whether two fetches are the same copy: the same `Arc`, or equal (a shared store such as
/// Redis hands out a new `Arc` for every read of the same entry; comparing the fetch time
/// first keeps the body comparison for copies that are the same).
fn same_copy(a: &Arc<FetchOutcome>, b: &Arc<FetchOutcome>) -> bool {
    Arc::ptr_eq(a, b) || (a.fetched_at == b.fetched_at && a == b)
}

/// The URL a decision is for: as given, or already read up to its origin.
#[derive(Clone, Copy)]
enum Asked<'a> {
    Url(&'a str),
    Origin(OriginRef<'a>),
}

/// A URL's borrowed origin as a key of the entries: it hashes as the equal [`Origin`] does,
/// so a look-up allocates nothing.
#[derive(Hash)]
struct EntryKey<'a>(OriginRef<'a>);

impl quick_cache::Equivalent<Origin> for EntryKey<'_> {
    fn equivalent(&self, origin: &Origin) -> bool {
        self.0.is(origin)
    }
}

/// The origin whose robots.txt governs `url`.
fn origin_of(url: &str) -> Result<Origin, ClientError> {
    Fetcher::origin_of(url).map_err(|source| ClientError::Url {
        url: url.to_owned(),
        source,
    })
}

/// Builds a [`Client`]; start from [`Client::builder`].
///
/// ```
/// use std::time::Duration;
/// use robotrules::client::{CachePolicy, Client, FetchOptions};
/// use robotrules::{ParseOptions, Profile};
///
/// let client = Client::builder("ExampleBot")
///     .parse_options(ParseOptions { profile: Profile::Google, ..ParseOptions::default() })
///     .fetch_options(FetchOptions { total_timeout: Duration::from_secs(10), ..FetchOptions::default() })
///     .build()?;
/// assert_eq!(client.cache_policy(), &CachePolicy::google()); // the profile's preset
/// assert!(Client::builder("Example Bot/1.0").build().is_err()); // not a product token
/// # Ok::<(), robotrules::client::ClientError>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct ClientBuilder {
    agent: String,
    parse: ParseOptions,
    fetch: FetchOptions,
    user_agent: Option<String>,
    cache_policy: Option<CachePolicy>,
    clock: Option<Arc<dyn Clock>>,
    store: Option<Arc<dyn Store>>,
    max_origins: usize,
    max_body_bytes: usize,
    extra_roots: Vec<RootCertificate>,
    platform_roots: bool,
    max_crawl_delay: Duration,
}

impl ClientBuilder {
    /// The profile and parse limit. The parse limit is also the fetch's body limit
    /// ([`FetchOptions::body_limit`]), so no more is downloaded than is parsed (RFC 9309 §2.5).
    pub fn parse_options(mut self, parse: ParseOptions) -> Self {
        self.parse = parse;
        self
    }

    /// Deadlines, redirects, the User-Agent header, 429 handling, …. Its `body_limit` is
    /// replaced by the parse limit. When `user_agent` is left at
    /// [`DEFAULT_USER_AGENT`], the crawler's name is put in front of it (RFC 9309 §2.2.1: the
    /// product token SHOULD be part of the User-Agent the crawler sends).
    pub fn fetch_options(mut self, fetch: FetchOptions) -> Self {
        self.fetch = fetch;
        self
    }

    /// The User-Agent header, exactly as given, whatever [`FetchOptions::user_agent`] says
    /// (the command line's `--user-agent`).
    pub fn user_agent(mut self, header: impl Into<String>) -> Self {
        self.user_agent = Some(header.into());
        self
    }

    /// The cache policy; by default the profile's preset (`google`: [`CachePolicy::google`],
    /// otherwise [`CachePolicy::rfc9309`]).
    pub fn cache_policy(mut self, policy: CachePolicy) -> Self {
        self.cache_policy = Some(policy);
        self
    }

    /// The clock for fetch times and cache freshness (default the system clock).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = Some(clock);
        self
    }

    /// A cache store shared with other processes (a fleet's `RedisStore`): entries are read
    /// from it and written to it, and each origin is fetched once across every process that
    /// shares it. The client keeps its own entries in front of it. Without one, the client's
    /// own entries are the cache.
    pub fn store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = Some(store);
        self
    }

    /// How many origins the client keeps, each with its fetched copy and parsed file (default
    /// 10,000, at least 1).
    pub fn max_origins(mut self, max_origins: usize) -> Self {
        self.max_origins = max_origins.max(1);
        self
    }

    /// How many bytes of robots.txt bodies the client keeps (default 256 MiB); the least
    /// valuable origins are forgotten first.
    pub fn max_body_bytes(mut self, max_body_bytes: usize) -> Self {
        self.max_body_bytes = max_body_bytes;
        self
    }

    /// The longest spacing [`Client::wait_turn`] keeps between two turns at one origin,
    /// whatever its robots.txt's `crawl-delay` or `request-rate` asks (default
    /// [`DEFAULT_MAX_CRAWL_DELAY`], one minute): a site asking for a day between requests is
    /// crawled at most once per this. Zero turns the spacing off.
    pub fn max_crawl_delay(mut self, max: Duration) -> Self {
        self.max_crawl_delay = max;
        self
    }

    /// Trusts `roots` for HTTPS besides the built-in web roots (a private CA, a TLS-inspecting
    /// proxy's CA): the command line's `--ca-cert`. Read them with
    /// [`RootCertificate::from_pem`]. Added to [`FetchOptions::extra_root_certificates`],
    /// whenever [`ClientBuilder::fetch_options`] is called; may be called more than once.
    ///
    /// ```
    /// use robotrules::client::{Client, RootCertificate};
    ///
    /// # fn demo(pem: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    /// let client = Client::builder("ExampleBot")
    ///     .add_root_certificates(RootCertificate::from_pem(pem)?)
    ///     .build()?;
    /// # Ok(()) }
    /// ```
    pub fn add_root_certificates(
        mut self,
        roots: impl IntoIterator<Item = RootCertificate>,
    ) -> Self {
        self.extra_roots.extend(roots);
        self
    }

    /// Trusts the platform's certificate store for HTTPS too
    /// ([`FetchOptions::platform_roots`]); `false` leaves the fetch options' setting alone.
    pub fn platform_roots(mut self, platform_roots: bool) -> Self {
        self.platform_roots = platform_roots;
        self
    }

    /// The client.
    ///
    /// # Errors
    /// [`ClientError::InvalidAgent`] for a crawler name the profile rejects;
    /// [`ClientError::Build`] when the HTTP client cannot be built.
    pub fn build(self) -> Result<Client, ClientError> {
        // The model decides which names the profile accepts.
        self.parse.profile.check_crawler_name(&self.agent)?;
        let mut fetch = self.fetch;
        fetch.body_limit = self.parse.parse_limit;
        fetch.extra_root_certificates.extend(self.extra_roots);
        fetch.platform_roots |= self.platform_roots;
        if let Some(header) = self.user_agent {
            fetch.user_agent = header;
        } else if fetch.user_agent == DEFAULT_USER_AGENT {
            fetch.user_agent = user_agent_for(&self.agent);
        }
        let clock = self.clock.unwrap_or_else(|| Arc::new(SystemClock));
        let fetcher = Fetcher::with_clock(fetch, clock).map_err(ClientError::Build)?;
        let policy = self
            .cache_policy
            .unwrap_or_else(|| preset_policy(self.parse.profile));
        let budget = Budget::new(self.max_origins, self.max_body_bytes);
        let entries = Entries::with_options(
            budget.cache_options(),
            EntryWeight(budget),
            quick_cache::DefaultHashBuilder::default(),
            quick_cache::sync::DefaultLifecycle::default(),
        );
        Ok(Client {
            inner: Arc::new(Inner {
                agent: self.agent,
                parse: self.parse,
                fetcher,
                policy,
                shared: self.store,
                entries,
                in_flight: Mutex::new(HashMap::new()),
                turns: turn::Turns::default(),
                max_crawl_delay: self.max_crawl_delay,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync + Clone>() {}

    #[test]
    fn the_client_is_shareable() {
        assert_send_sync::<Client>();
    }

    #[test]
    fn the_cache_policy_follows_the_profile() {
        for (profile, policy) in [
            (Profile::Rfc9309, CachePolicy::rfc9309()),
            (Profile::Google, CachePolicy::google()),
            (Profile::Legacy1994, CachePolicy::rfc9309()),
        ] {
            let client = Client::builder("ExampleBot")
                .parse_options(ParseOptions {
                    profile,
                    ..ParseOptions::default()
                })
                .build()
                .unwrap();
            assert_eq!(client.cache_policy(), &policy, "{profile}");
        }
    }

    #[test]
    fn the_parse_limit_is_the_body_limit_and_the_agent_leads_the_user_agent() {
        let client = Client::builder("ExampleBot")
            .parse_options(ParseOptions {
                parse_limit: 600_000,
                ..ParseOptions::default()
            })
            .build()
            .unwrap();
        let options = client.fetch_options();
        assert_eq!(options.body_limit, 600_000);
        assert_eq!(
            options.user_agent,
            format!("ExampleBot {DEFAULT_USER_AGENT}")
        );
        let custom = Client::builder("ExampleBot")
            .fetch_options(FetchOptions {
                user_agent: "ExampleBot/2.0 (+https://example.com/bot)".into(),
                ..FetchOptions::default()
            })
            .build()
            .unwrap();
        assert_eq!(
            custom.fetch_options().user_agent,
            "ExampleBot/2.0 (+https://example.com/bot)"
        );
    }

    #[test]
    fn crawler_names_are_checked_per_profile() {
        let invalid = ["Example Bot", "ExampleBot/1.0", "", "Bot.2"];
        for name in invalid {
            assert!(
                matches!(
                    Client::new(name),
                    Err(ClientError::InvalidAgent(InvalidAgent { .. }))
                ),
                "{name:?}"
            );
            for profile in [Profile::Google, Profile::Legacy1994] {
                let built = Client::builder(name)
                    .parse_options(ParseOptions {
                        profile,
                        ..ParseOptions::default()
                    })
                    .build();
                assert!(built.is_ok(), "{profile} {name:?}");
                // A name that is not a token is not put into the User-Agent header.
                assert_eq!(
                    built.unwrap().fetch_options().user_agent,
                    DEFAULT_USER_AGENT
                );
            }
        }
    }

    #[test]
    fn a_bad_user_agent_header_is_a_build_error() {
        let built = Client::builder("ExampleBot")
            .fetch_options(FetchOptions {
                user_agent: "Bad\nAgent".into(),
                ..FetchOptions::default()
            })
            .build();
        assert!(matches!(built, Err(ClientError::Build(_))), "{built:?}");
    }
}
