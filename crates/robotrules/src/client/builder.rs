//! [`ClientBuilder`]: the crawler's name, the parse options, the fetch's settings, the cache
//! policy, the clock, a shared store and the client's bounds.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use robotrules_fetch::cache::{Budget, CachePolicy, Store};
use robotrules_fetch::status::TooManyRequests;
use robotrules_fetch::{
    AddressPolicy, Clock, FetchOptions, Fetcher, RootCertificate, SystemClock, DEFAULT_USER_AGENT,
};

use super::ask::{Client, Inner};
use super::entry::{Entries, EntryWeight};
use super::error::ClientError;
use super::flight::Flights;
use super::turn::{self, DEFAULT_MAX_CRAWL_DELAY};
use crate::model::{AgentToken, CachePreset};
use crate::{ParseOptions, Profile};

/// The cache policy a profile's reading asks for ([`crate::Reading::cache`]): the client's
/// default.
pub(super) fn preset_policy(profile: Profile) -> CachePolicy {
    match profile.reading().cache {
        CachePreset::Google => CachePolicy::google(),
        _ => CachePolicy::rfc9309(),
    }
}

/// The User-Agent header for crawler `agent`: its name, when it is a product token, before
/// [`DEFAULT_USER_AGENT`] (`ExampleBot robotrules/0.1.0`). RFC 9309 §2.2.1: the product token
/// SHOULD be part of the User-Agent the crawler sends.
pub(super) fn user_agent_for(agent: &str) -> String {
    let token = AgentToken::LeadingRun { digits: true };
    if !agent.is_empty() && agent.bytes().all(|b| token.is_token_byte(b)) {
        format!("{agent} {DEFAULT_USER_AGENT}")
    } else {
        DEFAULT_USER_AGENT.to_owned()
    }
}

/// How many origins a client keeps by default, each with its fetched copy and parsed file.
pub(super) const DEFAULT_MAX_ORIGINS: usize = 10_000;

/// How many bytes of robots.txt bodies a client keeps by default (256 MiB).
pub(super) const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

/// Builds a [`Client`]; start from [`Client::builder`]. Every setting is a method; what the
/// client ends up with is [`Client::fetch_options`] and [`Client::cache_policy`].
///
/// ```
/// use std::time::Duration;
/// use robotrules::client::{CachePolicy, Client};
/// use robotrules::{ParseOptions, Profile};
///
/// let client = Client::builder().crawler("ExampleBot")
///     .parse_options(ParseOptions::new().with_profile(Profile::Google))
///     .total_timeout(Duration::from_secs(10))
///     .build()?;
/// assert_eq!(client.cache_policy(), &CachePolicy::google()); // the profile's preset
/// assert_eq!(client.fetch_options().total_timeout, Duration::from_secs(10));
/// assert!(Client::builder().crawler("Example Bot/1.0").build().is_err()); // not a product token
/// # Ok::<(), robotrules::client::ClientError>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct ClientBuilder {
    agent: String,
    parse: ParseOptions,
    /// The fetch's settings; its body limit and, unless [`ClientBuilder::user_agent`] is
    /// called, its User-Agent are set by [`ClientBuilder::build`].
    fetch: FetchOptions,
    user_agent: Option<String>,
    cache_policy: Option<CachePolicy>,
    clock: Option<Arc<dyn Clock>>,
    store: Option<Arc<dyn Store>>,
    max_origins: usize,
    max_body_bytes: usize,
    max_crawl_delay: Duration,
}

impl Client {
    /// A builder for a client. Without [`ClientBuilder::crawler`] it fetches for no crawler in
    /// particular (what `robotrules fetch`, `lint` and the cache tool need): its decisions are
    /// those for a crawler that no group names (`*`), and it sends `robotrules/VERSION` as
    /// its User-Agent unless [`ClientBuilder::user_agent`] says otherwise.
    ///
    /// ```
    /// use robotrules::client::{Client, DEFAULT_USER_AGENT};
    ///
    /// let fetcher = Client::builder().build()?;
    /// assert_eq!(fetcher.agent(), "*");
    /// assert_eq!(fetcher.fetch_options().user_agent, DEFAULT_USER_AGENT);
    /// let crawler = Client::builder().crawler("ExampleBot").build()?;
    /// assert!(crawler.fetch_options().user_agent.starts_with("ExampleBot robotrules/"));
    /// # Ok::<(), robotrules::client::ClientError>(())
    /// ```
    pub fn builder() -> ClientBuilder {
        ClientBuilder {
            agent: robotrules_model::ANY_CRAWLER.to_owned(),
            parse: ParseOptions::default(),
            fetch: FetchOptions::default(),
            user_agent: None,
            cache_policy: None,
            clock: None,
            store: None,
            max_origins: DEFAULT_MAX_ORIGINS,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_crawl_delay: DEFAULT_MAX_CRAWL_DELAY,
        }
    }
}

impl ClientBuilder {
    /// The crawler the client asks for (its product token, RFC 9309 §2.2.1): its decisions
    /// are this crawler's, and its User-Agent header starts with the name
    /// (`ExampleBot robotrules/0.1.0`) unless [`ClientBuilder::user_agent`] replaces it.
    /// `build()` refuses a name the profile does not answer for.
    pub fn crawler(mut self, agent: &str) -> Self {
        self.agent = agent.to_owned();
        self
    }

    /// The profile and parse limit. The parse limit is also the fetch's body limit
    /// ([`FetchOptions::body_limit`]), so no more is downloaded than is parsed (RFC 9309 §2.5).
    pub fn parse_options(mut self, parse: ParseOptions) -> Self {
        self.parse = parse;
        self
    }

    /// The User-Agent header, exactly as given (the command line's `--user-agent`). By
    /// default the crawler's name, when it is a product token, goes in front of
    /// [`DEFAULT_USER_AGENT`] (RFC 9309 §2.2.1: the product token SHOULD be part of the
    /// User-Agent the crawler sends).
    pub fn user_agent(mut self, header: impl Into<String>) -> Self {
        self.user_agent = Some(header.into());
        self
    }

    /// How many consecutive redirects are followed (default 5, RFC 9309 §2.3.1.2).
    pub fn max_redirects(mut self, max: usize) -> Self {
        self.fetch.max_redirects = max;
        self
    }

    /// The deadline for opening one connection, TLS included (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.fetch.connect_timeout = timeout;
        self
    }

    /// The deadline for a whole fetch, redirects and body included (default 30 s).
    pub fn total_timeout(mut self, timeout: Duration) -> Self {
        self.fetch.total_timeout = timeout;
        self
    }

    /// How HTTP 429 is read (default: unreachable).
    pub fn too_many_requests(mut self, reading: TooManyRequests) -> Self {
        self.fetch.too_many_requests = reading;
        self
    }

    /// Sends requests for `host` to `addr` instead of a DNS answer, like curl's `--resolve`
    /// (the URL's port wins); may be called more than once.
    pub fn resolve(mut self, host: impl Into<String>, addr: SocketAddr) -> Self {
        self.fetch.resolve.push((host.into(), addr));
        self
    }

    /// The password of the anonymous FTP login (default `anonymous@`).
    pub fn ftp_password(mut self, password: impl Into<String>) -> Self {
        self.fetch.ftp_password = password.into();
        self
    }

    /// Whether HTTP proxies from the environment (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`)
    /// are used (default true).
    pub fn use_env_proxy(mut self, use_env_proxy: bool) -> Self {
        self.fetch.use_env_proxy = use_env_proxy;
        self
    }

    /// Trusts `roots` for HTTPS besides the built-in web roots (a private CA, a TLS-inspecting
    /// proxy's CA): the command line's `--ca-cert`. Read them with
    /// [`RootCertificate::from_pem`]; may be called more than once.
    ///
    /// ```
    /// use robotrules::client::{Client, RootCertificate};
    ///
    /// # fn demo(pem: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
    /// let client = Client::builder().crawler("ExampleBot")
    ///     .add_root_certificates(RootCertificate::from_pem(pem)?)
    ///     .build()?;
    /// # Ok(()) }
    /// ```
    pub fn add_root_certificates(
        mut self,
        roots: impl IntoIterator<Item = RootCertificate>,
    ) -> Self {
        self.fetch.extra_root_certificates.extend(roots);
        self
    }

    /// Whether the platform's certificate store is trusted for HTTPS too (default false).
    pub fn platform_roots(mut self, platform_roots: bool) -> Self {
        self.fetch.platform_roots = platform_roots;
        self
    }

    /// How many robots.txt fetches run at once; more wait their turn before their deadline
    /// starts (default 0: no limit).
    pub fn max_concurrent_fetches(mut self, max: usize) -> Self {
        self.fetch.max_concurrent_fetches = max;
        self
    }

    /// Which addresses may be connected to, at the first request and at every redirect
    /// (default [`AddressPolicy::Any`]; [`AddressPolicy::Public`] refuses loopback, private,
    /// link-local, multicast and unspecified addresses: the file is then unreachable).
    pub fn address_policy(mut self, policy: AddressPolicy) -> Self {
        self.fetch.address_policy = policy;
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

    /// A cache store shared with other processes (a fleet's `RedisStore`, or one of your own:
    /// [`super::store`]): entries are read from it and written to it, and each origin is
    /// fetched once across every process that shares it. The client keeps its own entries in
    /// front of it. Without one, the client's own entries are the cache.
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

    /// The client.
    ///
    /// # Errors
    /// [`ClientError::InvalidAgent`] for a crawler name the profile rejects;
    /// [`ClientError::Build`] when the HTTP client cannot be built (a User-Agent that is not
    /// a valid header value).
    pub fn build(self) -> Result<Client, ClientError> {
        self.parse.profile.check_crawler_name(&self.agent)?;
        let mut fetch = self.fetch;
        fetch.body_limit = self.parse.parse_limit;
        fetch.user_agent = self
            .user_agent
            .unwrap_or_else(|| user_agent_for(&self.agent));
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
                in_flight: Flights::default(),
                turns: turn::Turns::default(),
                max_crawl_delay: self.max_crawl_delay,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InvalidAgent;

    #[test]
    fn the_cache_policy_follows_the_profile() {
        for (profile, policy) in [
            (Profile::Rfc9309, CachePolicy::rfc9309()),
            (Profile::Google, CachePolicy::google()),
            (Profile::Legacy1994, CachePolicy::rfc9309()),
        ] {
            let client = Client::builder()
                .crawler("ExampleBot")
                .parse_options(ParseOptions::new().with_profile(profile))
                .build()
                .unwrap();
            assert_eq!(client.cache_policy(), &policy, "{profile}");
        }
    }

    #[test]
    fn the_parse_limit_is_the_body_limit_and_the_agent_leads_the_user_agent() {
        let client = Client::builder()
            .crawler("ExampleBot")
            .parse_options(ParseOptions::new().with_parse_limit(600_000))
            .build()
            .unwrap();
        let options = client.fetch_options();
        assert_eq!(options.body_limit, 600_000);
        assert_eq!(
            options.user_agent,
            format!("ExampleBot {DEFAULT_USER_AGENT}")
        );
        let custom = Client::builder()
            .crawler("ExampleBot")
            .user_agent("ExampleBot/2.0 (+https://example.com/bot)")
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
                let built = Client::builder()
                    .crawler(name)
                    .parse_options(ParseOptions::new().with_profile(profile))
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
        let built = Client::builder()
            .crawler("ExampleBot")
            .user_agent("Bad\nAgent")
            .build();
        assert!(matches!(built, Err(ClientError::Build(_))), "{built:?}");
    }
}
