//! Fetching a remote ROBOTS (`http://`, `https://`, `ftp://`) and the sites of `batch`: every
//! command goes through the library's [`Client`], so the status-code, redirect, size, cache
//! and deadline rules of RFC 9309 §2.3–§2.5 and the politeness floor apply as a crawler gets
//! them (see `docs/fetching.md`), on a single-threaded tokio runtime.
//!
//! [`RemoteArgs::load`] reads the `--ca-cert` files first (before anything is fetched, even
//! when nothing is), then [`Remote`] builds the client: the crawler's name before
//! `robotrules/VERSION` as the User-Agent (the library's rule; `robotrules/VERSION` alone where
//! there is no crawler, or the name is not a product token: the client is then built without
//! one, `Client::builder()` alone), `--user-agent` replacing it, and
//! with `--cache` the fleet's shared store in Redis ([`crate::shared_cache`]).

use std::sync::Arc;
use std::time::Duration;

use robotrules::client::{
    AddressPolicy, Client, ClientBuilder, ClientError, Lookup, RootCertificate, Store,
};
use robotrules::{ParseOptions, Profile};
use tokio::runtime::Runtime;

use crate::args::RemoteArgs;
use crate::error::CliError;
use crate::shared_cache::SharedCache;
use crate::trust;

/// The longest connect deadline (within the total deadline).
const MAX_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The remote options of one run, read from [`RemoteArgs`] (the `--ca-cert` files loaded).
#[derive(Clone, Debug)]
pub(crate) struct Remote {
    timeout: Duration,
    roots: Vec<RootCertificate>,
    platform_roots: bool,
    user_agent: Option<String>,
    cache: Option<String>,
    cache_timeout: Duration,
    /// Which addresses may be fetched: any, but only public ones for `serve` (unless
    /// `--allow-private-fetch`).
    address_policy: AddressPolicy,
}

/// What a client is for: the crawler, how files are read, and how many origins `batch`
/// fetches at once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct For<'a> {
    /// The crawler (`None`: no crawler, as in `fetch`).
    pub(crate) agent: Option<&'a str>,
    /// The profile (its cache rules too) and the parse limit, which is the body limit.
    pub(crate) parse: ParseOptions,
    /// At most this many fetches at once (`batch --concurrency`).
    pub(crate) concurrency: Option<usize>,
}

impl<'a> For<'a> {
    /// For crawler `agent` (or none) under `profile`, with the default parse limit (also the
    /// body limit) and the library's default concurrency.
    pub(crate) fn new(agent: Option<&'a str>, profile: Profile) -> For<'a> {
        For {
            agent,
            parse: ParseOptions::new().with_profile(profile),
            concurrency: None,
        }
    }
}

impl RemoteArgs {
    /// Reads every `--ca-cert` file.
    ///
    /// # Errors
    /// [`CliError::CaCert`] naming the first file that cannot be read or holds no usable
    /// certificate.
    pub(crate) fn load(&self) -> Result<Remote, CliError> {
        Ok(Remote {
            timeout: self.timeout,
            roots: trust::load_roots(&self.ca_certs)?,
            platform_roots: self.platform_roots,
            user_agent: self.user_agent.clone(),
            cache: self.cache.clone(),
            cache_timeout: self.cache_timeout,
            address_policy: AddressPolicy::Any,
        })
    }
}

/// A single-threaded tokio runtime for one command.
pub(crate) fn runtime() -> Result<Runtime, CliError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| CliError::FetchSetup(error.to_string()))
}

impl Remote {
    /// The remote options of `serve`'s `/api/fetch`: the whole fetch within `timeout`, the
    /// built-in web roots, no shared cache, and only public addresses unless `allow_private`.
    pub(crate) fn for_serve(timeout: Duration, allow_private: bool) -> Remote {
        Remote {
            timeout,
            roots: Vec::new(),
            platform_roots: false,
            user_agent: None,
            cache: None,
            cache_timeout: Duration::ZERO,
            address_policy: if allow_private {
                AddressPolicy::Any
            } else {
                AddressPolicy::public()
            },
        }
    }

    /// Connects to the Redis of `--cache`, if one was given. Must run inside the runtime that
    /// uses the store.
    ///
    /// # Errors
    /// As [`SharedCache::connect`].
    pub(crate) async fn shared(&self) -> Result<Option<SharedCache>, CliError> {
        match &self.cache {
            Some(url) => SharedCache::connect(url, self.cache_timeout, &self.roots)
                .await
                .map(Some),
            None => Ok(None),
        }
    }

    /// As [`Remote::shared`], for the `cache` commands, which need `--cache`.
    ///
    /// # Errors
    /// As [`Remote::shared`]; [`CliError::Usage`] when `--cache` is missing.
    pub(crate) async fn shared_required(&self) -> Result<SharedCache, CliError> {
        self.shared().await?.ok_or_else(|| {
            CliError::Usage("missing --cache URL (redis://HOST:PORT[/DB])".to_owned())
        })
    }

    /// How the fetch goes: the whole fetch within `--timeout` (and at most 10 s to connect),
    /// at most `concurrency` fetches at once, the address policy, the certificates of
    /// `--ca-cert` and `--platform-roots`.
    fn fetching(&self, builder: ClientBuilder, concurrency: Option<usize>) -> ClientBuilder {
        let builder = builder
            .connect_timeout(self.timeout.min(MAX_CONNECT_TIMEOUT))
            .total_timeout(self.timeout)
            .address_policy(self.address_policy.clone())
            .add_root_certificates(self.roots.iter().cloned())
            .platform_roots(self.platform_roots);
        match concurrency {
            Some(max) => builder.max_concurrent_fetches(max),
            None => builder,
        }
    }

    /// The library's client for `purpose`, over `store` when one is given. A crawler name the
    /// profile rejects is left to the command to report (after the fetch, as a file's rules
    /// would): the client is then built without it and sends `robotrules/VERSION`.
    ///
    /// # Errors
    /// [`CliError::FetchSetup`] when the HTTP client cannot be built.
    pub(crate) fn client(
        &self,
        purpose: For<'_>,
        store: Option<Arc<dyn Store>>,
    ) -> Result<Client, CliError> {
        let build = |agent: Option<&str>, user_agent: Option<&str>| {
            let mut builder = Client::builder().parse_options(purpose.parse);
            if let Some(agent) = agent {
                builder = builder.crawler(agent);
            }
            let mut builder = self.fetching(builder, purpose.concurrency);
            if let Some(header) = user_agent {
                builder = builder.user_agent(header);
            }
            if let Some(store) = &store {
                builder = builder.store(Arc::clone(store));
            }
            builder.build()
        };
        let built = match purpose.agent {
            Some(agent) => match build(Some(agent), self.user_agent.as_deref()) {
                // A name the profile refuses: fetched for no crawler (the command says why).
                Err(ClientError::InvalidAgent(_)) => build(None, self.user_agent.as_deref()),
                built => built,
            },
            None => build(None, self.user_agent.as_deref()),
        };
        built.map_err(|error| CliError::FetchSetup(error.to_string()))
    }

    /// What fetching the robots.txt that governs `url` (a robots.txt URL or any page URL)
    /// gives, through the shared cache of `--cache` when one is given (a fresh entry answers
    /// without fetching; a last good copy serves while the file is unreachable, RFC 9309
    /// §2.4). When Redis failed, one warning line goes to standard error.
    ///
    /// Server and network failures are access results in the lookup, never errors.
    ///
    /// # Errors
    /// [`CliError::RobotsUrl`] when `url` cannot have a robots.txt (no host, bad IDN,
    /// unsupported scheme); [`CliError::FetchSetup`] when the runtime or the HTTP client cannot
    /// be set up; [`CliError::Cache`] for a `--cache` that is not a Redis URL or is refused.
    pub(crate) fn lookup(&self, url: &str, purpose: For<'_>) -> Result<Lookup, CliError> {
        let runtime = runtime()?;
        runtime.block_on(async {
            let shared = self.shared().await?;
            let client = self.client(purpose, shared.as_ref().map(SharedCache::store))?;
            let lookup = client
                .lookup(url)
                .await
                .map_err(|error| robots_url(url, error))?;
            if let Some(shared) = &shared {
                shared.warn_if_degraded();
            }
            Ok(lookup)
        })
    }

    /// Whether `--cache` was given.
    pub(crate) fn is_shared(&self) -> bool {
        self.cache.is_some()
    }
}

/// The error for a URL the client cannot answer for.
pub(crate) fn robots_url(url: &str, error: ClientError) -> CliError {
    // A bare host (`example.com`, `127.0.0.1:8080`): the robots.txt URL to pass instead.
    if let (ClientError::Url { .. }, Some(robots_txt)) =
        (&error, crate::bare_host::bare_host_url(url))
    {
        return CliError::BareHost {
            arg: url.to_owned(),
            what: "not a URL",
            url: robots_txt,
        };
    }
    match error {
        ClientError::Url { source, .. } => CliError::RobotsUrl {
            url: url.to_owned(),
            source,
        },
        ClientError::InvalidAgent(invalid) => CliError::InvalidAgent(invalid),
        ClientError::InvalidUrl(invalid) => CliError::InvalidUrl(invalid),
        other => CliError::FetchSetup(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use rstest::rstest;

    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(flatten)]
        remote: RemoteArgs,
    }

    fn remote(args: &[&str]) -> Remote {
        let args = std::iter::once("robotrules").chain(args.iter().copied());
        Cli::parse_from(args).remote.load().unwrap()
    }

    fn for_agent(agent: Option<&str>) -> For<'_> {
        For {
            agent,
            parse: ParseOptions::default(),
            concurrency: None,
        }
    }

    #[test]
    fn the_connect_deadline_stays_within_the_total_one() {
        let short = remote(&["--timeout", "2"]);
        let client = short.client(for_agent(Some("ExampleBot")), None).unwrap();
        assert_eq!(
            client.fetch_options().connect_timeout,
            Duration::from_secs(2)
        );
        let long = remote(&["--timeout", "60"]);
        let client = long.client(for_agent(Some("ExampleBot")), None).unwrap();
        let options = client.fetch_options();
        assert_eq!(options.connect_timeout, MAX_CONNECT_TIMEOUT);
        assert_eq!(options.total_timeout, Duration::from_secs(60));
        assert_eq!(options.body_limit, 512_000);
        assert_eq!(
            options.user_agent,
            concat!("ExampleBot robotrules/", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn one_user_agent_rule() {
        let default = remote(&[]);
        let header = |remote: &Remote, agent| {
            let client = remote.client(for_agent(agent), None).unwrap();
            client.fetch_options().user_agent.clone()
        };
        assert_eq!(
            header(&default, None),
            concat!("robotrules/", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(
            header(&default, Some("Example Bot/1")),
            concat!("robotrules/", env!("CARGO_PKG_VERSION"))
        );
        let set = remote(&["--user-agent", "MyCrawler/2.0 (+https://example.com)"]);
        assert_eq!(
            header(&set, Some("ExampleBot")),
            "MyCrawler/2.0 (+https://example.com)"
        );
        assert_eq!(header(&set, None), "MyCrawler/2.0 (+https://example.com)");
        assert_eq!(
            header(&default, None),
            robotrules::client::DEFAULT_USER_AGENT
        );
    }

    #[test]
    fn platform_roots_are_passed_on() {
        let client = remote(&["--platform-roots"])
            .client(for_agent(None), None)
            .unwrap();
        assert!(client.fetch_options().platform_roots);
        let client = remote(&[]).client(for_agent(None), None).unwrap();
        assert!(!client.fetch_options().platform_roots);
        assert!(client.fetch_options().extra_root_certificates.is_empty());
    }

    #[rstest]
    #[case::no_host("http://")]
    #[case::bad_port("http://example.com:99999/robots.txt")]
    #[case::space_in_host("http://exa mple.com/")]
    fn urls_without_a_robots_txt_are_errors(#[case] url: &str) {
        let result = remote(&["--timeout", "1"]).lookup(url, for_agent(None));
        assert!(
            matches!(result, Err(CliError::RobotsUrl { .. })),
            "{result:?}"
        );
    }
}
