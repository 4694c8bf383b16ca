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
//! Only behind the default-on `fetch` feature.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

pub use robotrules_fetch::cache::{
    Basis, CachePolicy, IsFresh, Lease, MemoryStore, Store, POLITENESS_FLOOR,
};
/// A crawler fleet's shared robots.txt cache in Redis (feature `redis`): pass a
/// [`RedisStore`] to [`ClientBuilder::store`] and every process asks each origin once.
#[cfg(feature = "redis")]
pub use robotrules_fetch::fleet::{FleetError, FleetHealth, RedisOptions, RedisStore};
pub use robotrules_fetch::{
    Access, AccessKind, CachedOutcome, CachingFetcher, Clock, FetchError, FetchOptions,
    FetchOutcome, ManualClock, Origin, RootCertificate, SystemClock, TooManyRequests, VerdictClass,
    DEFAULT_USER_AGENT,
};

use robotrules_fetch::Fetcher;
use robotrules_url::OriginRef;
use tokio::sync::OnceCell;

use crate::model::{AgentToken, CachePreset, Crawler, RobotsTxt, Rule};
use crate::{
    Explanation, InvalidAgent, InvalidUrl, ParseOptions, Profile, Reason, Robots, RuleKind,
};

/// The cache policy a profile's reading asks for ([`crate::Reading::cache`]): the client's
/// default, and what `robotrules fetch` reports lifetimes with.
pub fn cache_policy(profile: Profile) -> CachePolicy {
    match profile.reading().cache {
        CachePreset::Google => CachePolicy::google(),
        _ => CachePolicy::rfc9309(),
    }
}

/// The User-Agent header for crawler `agent`: its name, when it is a product token, before
/// [`DEFAULT_USER_AGENT`] (`ExampleBot robotrules/0.1.0`). RFC 9309 §2.2.1: the product token
/// SHOULD be part of the User-Agent the crawler sends. The library and the command-line tool
/// both use this rule.
pub fn user_agent_for(agent: &str) -> String {
    let token = AgentToken::LeadingRun { digits: true };
    if !agent.is_empty() && agent.bytes().all(|b| token.is_token_byte(b)) {
        format!("{agent} {DEFAULT_USER_AGENT}")
    } else {
        DEFAULT_USER_AGENT.to_owned()
    }
}

/// How many origins the client keeps decisions for by default (each with its parsed file),
/// the same bound as the default [`MemoryStore`].
pub const DEFAULT_MAX_PARSED: usize = MemoryStore::DEFAULT_MAX_ENTRIES;

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

/// The rule that decided, with the parsed file it belongs to (shared, not copied).
#[derive(Clone)]
pub struct DecidingRule {
    robots: Arc<RobotsTxt>,
    rule: Rule,
}

impl DecidingRule {
    /// Allow or disallow.
    pub fn kind(&self) -> RuleKind {
        self.rule.kind
    }

    /// Its 1-based line number in the robots.txt.
    pub fn line(&self) -> u32 {
        self.rule.line
    }

    /// The pattern as written.
    pub fn pattern(&self) -> Cow<'_, str> {
        self.rule.value(&self.robots)
    }

    /// The rule itself, for what else the model tells about it.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }
}

impl fmt::Debug for DecidingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecidingRule")
            .field("kind", &self.kind())
            .field("line", &self.line())
            .field("pattern", &self.pattern())
            .finish()
    }
}

impl PartialEq for DecidingRule {
    fn eq(&self, other: &Self) -> bool {
        (self.kind(), self.line(), self.pattern()) == (other.kind(), other.line(), other.pattern())
    }
}

impl serde::Serialize for DecidingRule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut rule = serializer.serialize_struct("DecidingRule", 3)?;
        rule.serialize_field("kind", &self.kind())?;
        rule.serialize_field("line", &self.line())?;
        rule.serialize_field("pattern", &self.pattern())?;
        rule.end()
    }
}

/// The answer for one URL. Building one allocates nothing: the robots.txt URL and the
/// deciding rule are shared with the client's cache.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Decision {
    /// May the crawler fetch the URL?
    pub allowed: bool,
    /// The access result applied: success, unavailable or unreachable (RFC 9309 §2.3.1).
    /// While the file is unreachable this is the last good copy's result when the cache
    /// serves one ([`Decision::basis`]).
    pub access: AccessKind,
    /// Why the robots.txt is unavailable or unreachable (`HTTP status 503`); none for a
    /// success.
    #[serde(skip_serializing_if = "Option::is_none")]
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
    /// Why the file's rules allowed or disallowed the URL, when the access result is a
    /// success.
    pub reason: Option<Reason>,
    /// The rule that decided, when the file's rules decided and one matched.
    pub decided_by: Option<DecidingRule>,
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

/// What the client knows about one origin: the cache's answer and, for a success, the parsed
/// file.
#[derive(Clone, Debug)]
pub struct Lookup {
    /// The cache's answer: access result, basis, the fetch it comes from, age.
    pub outcome: CachedOutcome,
    /// The parsed file, when the access result is a success.
    pub robots: Option<Robots>,
}

impl Lookup {
    /// The robots.txt URL of the origin.
    pub fn robots_txt_url(&self) -> &str {
        &self.outcome.served.robots_txt_url
    }
}

/// Fetches, caches, parses and asks robots.txt files for one crawler.
///
/// Cheap to clone (clones share the cache and the parsed files) and `Send + Sync`, so one
/// client serves any number of tasks; concurrent questions about one origin share one fetch
/// and one parse. In front of the fetch cache sits a tier of decisions per origin (the parsed
/// file with the crawler's groups resolved, and the access result, valid until the cache's
/// answer may change), so a question about an origin already known costs the origin key, one
/// look-up and the match: no fetch cache, no parse, no allocation.
///
/// ```no_run
/// # async fn demo() -> Result<(), robotrules::client::ClientError> {
/// use robotrules::client::Client;
///
/// let client = Client::new("ExampleBot")?;
/// let decision = client.is_allowed("https://example.com/private/page").await?;
/// println!("{} ({}, {} s old)", decision.allowed, decision.access, decision.cache_age.as_secs());
/// let delay = client.crawl_delay("https://example.com/").await?;
/// # let _ = delay; Ok(()) }
/// ```
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    agent: String,
    parse: ParseOptions,
    cache: CachingFetcher,
    /// The decisions tier: what the client knows per origin, valid until `Known::until`.
    known: quick_cache::sync::Cache<Origin, Arc<Known>>,
    /// Parses in progress, one per origin and copy, so concurrent callers parse once.
    parsing: Mutex<HashMap<Origin, Parsing>>,
}

/// A parse in progress: the copy and the cell its parsed form lands in.
struct Parsing {
    served: Arc<FetchOutcome>,
    cell: Arc<OnceCell<Option<Crawler>>>,
}

/// What the client knows about one origin: the cache's answer, shaped for deciding.
struct Known {
    /// The fetch the answer comes from (a different one means a different copy).
    served: Arc<FetchOutcome>,
    /// Until when this answer holds (the cache's freshness, or the next threshold of the
    /// unreachable schedule).
    until: SystemTime,
    access: AccessKind,
    access_reason: Option<Arc<str>>,
    verdict_class: VerdictClass,
    basis: Basis,
    robots_txt_url: Arc<str>,
    /// The parsed file with the crawler's groups resolved, for a success.
    crawler: Option<Crawler>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("agent", &self.inner.agent)
            .field("parse", &self.inner.parse)
            .field("cache", &self.inner.cache)
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
            cache_policy: None,
            clock: None,
            store: None,
            max_parsed: DEFAULT_MAX_PARSED,
            extra_roots: Vec::new(),
            platform_roots: false,
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

    /// The caching fetcher underneath (its options, policy and store).
    pub fn cache(&self) -> &CachingFetcher {
        &self.inner.cache
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
        let (known, from_cache) = self.known(&origin).await?;
        self.decide(&known, Asked::Url(url), from_cache, self.now())
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
        let now = self.inner.cache.fetcher().clock().now_coarse();
        // The common URL is looked up by its borrowed origin: no allocation.
        if let Some(origin) = OriginRef::parse(url) {
            let known = self.current_known(&KnownKey(origin), now)?;
            return Some(self.decide(&known, Asked::Origin(origin), true, now));
        }
        let known = match origin_of(url) {
            Ok(origin) => self.current_known(&origin, now)?,
            Err(error) => return Some(Err(error)),
        };
        Some(self.decide(&known, Asked::Url(url), true, now))
    }

    /// The client's clock, read once per question.
    fn now(&self) -> SystemTime {
        self.inner.cache.fetcher().clock().now()
    }

    /// What the decisions tier holds for `origin`, while its answer holds at `now`.
    fn current_known<Q>(&self, origin: &Q, now: SystemTime) -> Option<Arc<Known>>
    where
        Q: std::hash::Hash + quick_cache::Equivalent<Origin> + ?Sized,
    {
        let known = self.inner.known.get(origin)?;
        (now < known.until).then_some(known)
    }

    /// May the crawler fetch `url`, and why: the [`Decision`] with the model's full account
    /// of it (groups, every matching rule, the deciding line) when the file's rules decided.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn explain(&self, url: &str) -> Result<Explained, ClientError> {
        let origin = origin_of(url)?;
        let (known, from_cache) = self.known(&origin).await?;
        let decision = self.decide(&known, Asked::Url(url), from_cache, self.now())?;
        let explanation = match &known.crawler {
            Some(crawler) => Some(crawler.explain(url)?),
            None => None,
        };
        Ok(Explained {
            decision,
            explanation,
        })
    }

    /// The crawl delay in seconds the robots.txt of `url`'s origin sets for the crawler, if
    /// any (none when the file is unavailable or unreachable).
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn crawl_delay(&self, url: &str) -> Result<Option<Duration>, ClientError> {
        let (known, _) = self.known(&origin_of(url)?).await?;
        Ok(known
            .crawler
            .as_ref()
            .and_then(|crawler| crawler.crawl_delay()))
    }

    /// Every `Sitemap:` URL of the robots.txt of `url`'s origin (RFC 9309 §2.2.4), resolved
    /// against the robots.txt URL (`/sitemap.xml` becomes `https://example.com/sitemap.xml`);
    /// none when the file is unavailable or unreachable.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn sitemaps(&self, url: &str) -> Result<Vec<String>, ClientError> {
        let (known, _) = self.known(&origin_of(url)?).await?;
        Ok(known
            .crawler
            .as_ref()
            .map(|crawler| {
                Robots::from_model(Arc::clone(crawler.robots()))
                    .sitemaps_from(&known.robots_txt_url)
            })
            .unwrap_or_default())
    }

    /// The cache's answer for the origin of `url` and, for a success, the parsed file (parsed
    /// once per fetched copy and shared). Always asks the fetch cache (which fetches only when
    /// its entry is stale).
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn lookup(&self, url: &str) -> Result<Lookup, ClientError> {
        let origin = origin_of(url)?;
        let outcome = self.fetch(&origin, url).await?;
        let crawler = self.parsed(&origin, &outcome).await;
        let robots = crawler.map(|crawler| Robots::from_model(Arc::clone(crawler.robots())));
        Ok(Lookup { outcome, robots })
    }

    /// Forgets the cached robots.txt of `url`'s origin; the next question fetches it again.
    ///
    /// # Errors
    /// As [`Client::is_allowed`].
    pub async fn invalidate(&self, url: &str) -> Result<(), ClientError> {
        let origin = origin_of(url)?;
        self.inner.cache.invalidate(&origin).await;
        self.inner.known.remove(&origin);
        Ok(())
    }

    /// The decision for `url` with what is known about its origin.
    #[inline]
    fn decide(
        &self,
        known: &Known,
        asked: Asked<'_>,
        from_cache: bool,
        now: SystemTime,
    ) -> Result<Decision, ClientError> {
        let (allowed, reason, decided_by) = match (&known.access, &known.crawler) {
            (AccessKind::Success, Some(crawler)) => {
                let target = match asked {
                    Asked::Url(url) => crawler.target(url)?,
                    Asked::Origin(origin) => crawler.target_of(&origin),
                };
                let verdict = crawler.verdict(&target);
                let decided_by = verdict.rule.map(|rule| DecidingRule {
                    robots: Arc::clone(crawler.robots()),
                    rule: *rule,
                });
                (verdict.allowed, Some(verdict.reason), decided_by)
            }
            (AccessKind::Unreachable, _) => (false, None, None),
            _ => (true, None, None),
        };
        Ok(Decision {
            allowed,
            access: known.access,
            access_reason: known.access_reason.clone(),
            verdict_class: known.verdict_class,
            basis: known.basis,
            cache_age: now
                .duration_since(known.served.fetched_at)
                .unwrap_or(Duration::ZERO),
            from_cache,
            robots_txt_url: Arc::clone(&known.robots_txt_url),
            reason,
            decided_by,
        })
    }

    /// What is known about `origin`, and whether it was known already (no fetch waited for):
    /// from the decisions tier while its answer holds, else from the fetch cache (fetching
    /// when that is stale) and a parse of a new copy.
    async fn known(&self, origin: &Origin) -> Result<(Arc<Known>, bool), ClientError> {
        if let Some(known) = self.current_known(origin, self.now()) {
            return Ok((known, true));
        }
        let outcome = self.fetch(origin, &origin.to_string()).await?;
        let crawler = self.parsed(origin, &outcome).await;
        let known = Arc::new(Known {
            until: outcome.answer_until,
            access: outcome.access.kind(),
            access_reason: outcome.access.reason().map(Arc::from),
            verdict_class: outcome.verdict_class(),
            basis: outcome.basis,
            robots_txt_url: outcome.served.robots_txt_url.as_str().into(),
            crawler,
            served: outcome.served,
        });
        self.remember(origin, &known);
        Ok((known, outcome.from_cache))
    }

    /// Puts `known` in the decisions tier unless it holds a newer copy already.
    fn remember(&self, origin: &Origin, known: &Arc<Known>) {
        if let Some(current) = self.inner.known.get(origin) {
            if current.served.fetched_at > known.served.fetched_at {
                return;
            }
        }
        self.inner.known.insert(origin.clone(), Arc::clone(known));
    }

    /// The fetch cache's answer for `origin`.
    async fn fetch(&self, origin: &Origin, url: &str) -> Result<CachedOutcome, ClientError> {
        self.inner
            .cache
            .get_origin(origin)
            .await
            .map_err(|source| ClientError::Url {
                url: url.to_owned(),
                source,
            })
    }

    /// The parsed form of the copy `outcome` serves, with the crawler's groups resolved: the
    /// one the decisions tier already holds for that copy, or parsed now, once however many
    /// callers ask at the same time. `None` when the access result is not a success.
    async fn parsed(&self, origin: &Origin, outcome: &CachedOutcome) -> Option<Crawler> {
        let body = outcome.body()?;
        if let Some(known) = self.inner.known.get(origin) {
            if same_copy(&known.served, &outcome.served) {
                return known.crawler.clone();
            }
        }
        let cell = {
            let mut parsing = self.lock_parsing();
            match parsing.get(origin) {
                Some(p) if same_copy(&p.served, &outcome.served) => Arc::clone(&p.cell),
                _ => {
                    let cell = Arc::new(OnceCell::new());
                    parsing.insert(
                        origin.clone(),
                        Parsing {
                            served: Arc::clone(&outcome.served),
                            cell: Arc::clone(&cell),
                        },
                    );
                    cell
                }
            }
        };
        let parse = &self.inner.parse;
        let agent = &self.inner.agent;
        let crawler = cell
            .get_or_init(|| async {
                let robots = Arc::new(RobotsTxt::parse(body, parse.profile, parse.parse_limit));
                // The builder checked the name against the profile.
                Crawler::new(robots, agent).ok()
            })
            .await
            .clone();
        let mut parsing = self.lock_parsing();
        if parsing
            .get(origin)
            .is_some_and(|p| Arc::ptr_eq(&p.cell, &cell))
        {
            parsing.remove(origin);
        }
        crawler
    }

    fn lock_parsing(&self) -> MutexGuard<'_, HashMap<Origin, Parsing>> {
        self.inner
            .parsing
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

/// A URL's borrowed origin as a key of the decisions tier: it hashes as the equal [`Origin`]
/// does, so a lookup allocates nothing.
#[derive(Hash)]
struct KnownKey<'a>(OriginRef<'a>);

impl quick_cache::Equivalent<Origin> for KnownKey<'_> {
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
/// assert_eq!(client.cache().policy(), &CachePolicy::google()); // the profile's preset
/// assert!(Client::builder("Example Bot/1.0").build().is_err()); // not a product token
/// # Ok::<(), robotrules::client::ClientError>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct ClientBuilder {
    agent: String,
    parse: ParseOptions,
    fetch: FetchOptions,
    cache_policy: Option<CachePolicy>,
    clock: Option<Arc<dyn Clock>>,
    store: Option<Arc<dyn Store>>,
    max_parsed: usize,
    extra_roots: Vec<RootCertificate>,
    platform_roots: bool,
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

    /// Where cache entries live (default a bounded [`MemoryStore`]).
    pub fn store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = Some(store);
        self
    }

    /// How many origins the client keeps decisions for, each with its parsed file (default
    /// [`DEFAULT_MAX_PARSED`], at least 1).
    pub fn max_parsed(mut self, max_parsed: usize) -> Self {
        self.max_parsed = max_parsed.max(1);
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
        Robots::parse_with(b"", &self.parse).crawler(&self.agent)?;
        let mut fetch = self.fetch;
        fetch.body_limit = self.parse.parse_limit;
        fetch.extra_root_certificates.extend(self.extra_roots);
        fetch.platform_roots |= self.platform_roots;
        let token = AgentToken::LeadingRun { digits: true };
        let is_token = !self.agent.is_empty() && self.agent.bytes().all(|b| token.is_token_byte(b));
        if fetch.user_agent == DEFAULT_USER_AGENT && is_token {
            fetch.user_agent = format!("{} {DEFAULT_USER_AGENT}", self.agent);
        }
        let clock = self.clock.unwrap_or_else(|| Arc::new(SystemClock));
        let fetcher = Fetcher::with_clock(fetch, clock).map_err(ClientError::Build)?;
        let policy = self
            .cache_policy
            .unwrap_or_else(|| cache_policy(self.parse.profile));
        let cache = match self.store {
            Some(store) => CachingFetcher::with_store(fetcher, policy, store),
            None => CachingFetcher::new(fetcher, policy),
        };
        Ok(Client {
            inner: Arc::new(Inner {
                agent: self.agent,
                parse: self.parse,
                cache,
                known: quick_cache::sync::Cache::new(self.max_parsed),
                parsing: Mutex::new(HashMap::new()),
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
            assert_eq!(client.cache().policy(), &policy, "{profile}");
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
        let options = client.cache().fetcher().options();
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
            custom.cache().fetcher().options().user_agent,
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
                    built.unwrap().cache().fetcher().options().user_agent,
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
