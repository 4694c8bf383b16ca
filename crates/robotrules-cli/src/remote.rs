//! Fetching a remote ROBOTS (`http://`, `https://`, `ftp://`): one fetch with
//! `robotrules-fetch`, so the status-code, redirect, size and deadline rules of RFC 9309
//! §2.3–§2.5 apply (see `docs/fetching.md`), on a single-threaded tokio runtime.
//!
//! The User-Agent header follows the library's one rule (the client's):
//! the crawler's name before `robotrules/VERSION` (`ExampleBot robotrules/0.1.0`), or just
//! `robotrules/VERSION` where there is no crawler (`fetch`); `--user-agent` replaces it.

use std::time::Duration;

use robotrules::Profile;
use robotrules_fetch::cache::{Basis, CachePolicy};
use robotrules_fetch::{CachingFetcher, FetchOptions, FetchOutcome, Fetcher};
use serde::Serialize;

use crate::error::CliError;
use crate::shared_cache::CacheArg;
use crate::trust::Trust;

/// The default `--timeout`, in seconds: `FetchOptions`' default total deadline.
pub(crate) const DEFAULT_TIMEOUT_SECS: &str = "30";

/// The longest connect deadline (within the total deadline).
const MAX_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest `--timeout` accepted (one hour).
const MAX_TIMEOUT: Duration = Duration::from_secs(3600);

/// `--timeout SECS`, shared by the commands that fetch.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct TimeoutArg {
    /// Deadline in seconds for fetching a remote robots.txt, redirects and body included
    /// (decimals allowed).
    #[arg(long = "timeout", value_name = "SECS", default_value = DEFAULT_TIMEOUT_SECS, value_parser = parse_timeout)]
    pub(crate) timeout: Duration,
}

impl Default for TimeoutArg {
    fn default() -> Self {
        Self {
            timeout: robotrules_fetch::FetchOptions::default().total_timeout,
        }
    }
}

/// `--user-agent TEXT`, shared by the commands that fetch.
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct UserAgentArg {
    /// The User-Agent header to send instead of the default (the crawler's name before
    /// `robotrules/VERSION`, as the library sends it; `robotrules/VERSION` alone for `fetch`).
    #[arg(long = "user-agent", value_name = "TEXT", value_parser = parse_user_agent)]
    pub(crate) user_agent: Option<String>,
}

impl UserAgentArg {
    /// The header for crawler `agent` (`None`: no crawler, as in `fetch`).
    pub(crate) fn for_agent(&self, agent: Option<&str>) -> String {
        match (&self.user_agent, agent) {
            (Some(header), _) => header.clone(),
            (None, Some(agent)) => robotrules::client::Client::builder(agent)
                .parse_options(robotrules::ParseOptions {
                    profile: Profile::Google,
                    ..robotrules::ParseOptions::default()
                })
                .build()
                .map_or_else(
                    |_| robotrules_fetch::DEFAULT_USER_AGENT.to_owned(),
                    |client| client.fetch_options().user_agent.clone(),
                ),
            (None, None) => robotrules_fetch::DEFAULT_USER_AGENT.to_owned(),
        }
    }
}

/// The cache policy of `profile`'s reading, as the library's client applies it.
pub(crate) fn cache_policy(profile: Profile) -> CachePolicy {
    match profile.reading().cache {
        robotrules_model::CachePreset::Google => CachePolicy::google(),
        _ => CachePolicy::rfc9309(),
    }
}

/// Parses `--user-agent`: printable ASCII, not empty (an HTTP header value).
fn parse_user_agent(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| (0x20..0x7F).contains(&b)) {
        return Err(format!(
            "`{text}`: a User-Agent is printable ASCII and not empty"
        ));
    }
    Ok(text.to_owned())
}

/// Parses `--timeout`: a positive number of seconds, at most an hour.
pub(crate) fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    match Duration::try_from_secs_f64(seconds) {
        Ok(timeout) if !timeout.is_zero() && timeout <= MAX_TIMEOUT => Ok(timeout),
        _ => Err(format!(
            "`{text}`: the timeout must be more than 0 and at most {} seconds",
            MAX_TIMEOUT.as_secs()
        )),
    }
}

/// Fetch options for the tool: `user_agent`, `timeout` for the whole fetch (and at most
/// 10 s to connect), `body_limit` decompressed bytes kept, the certificates of `trust`.
pub(crate) fn options(
    timeout: Duration,
    body_limit: usize,
    trust: &Trust,
    user_agent: String,
) -> FetchOptions {
    let mut options = FetchOptions {
        user_agent,
        connect_timeout: timeout.min(MAX_CONNECT_TIMEOUT),
        total_timeout: timeout,
        body_limit,
        ..FetchOptions::default()
    };
    trust.apply(&mut options);
    options
}

/// Fetches the robots.txt that governs `url` (a robots.txt URL or any page URL).
///
/// Server and network failures are access results in the outcome, never errors.
///
/// # Errors
/// [`CliError::RobotsUrl`] when `url` cannot have a robots.txt (no host, bad IDN, unsupported
/// scheme); [`CliError::FetchSetup`] when the runtime or the HTTP client cannot be set up.
pub(crate) fn fetch(url: &str, options: FetchOptions) -> Result<FetchOutcome, CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| CliError::FetchSetup(error.to_string()))?;
    runtime.block_on(async {
        let fetcher =
            Fetcher::new(options).map_err(|error| CliError::FetchSetup(error.to_string()))?;
        fetcher
            .fetch(url)
            .await
            .map_err(|source| CliError::RobotsUrl {
                url: url.to_owned(),
                source,
            })
    })
}

/// How the shared cache (`--cache`) answered a fetch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct SharedAnswer {
    /// True when the answer was in the cache (fresh, or written by another process while this
    /// one waited for the fleet's fetch); false when this process fetched.
    pub(crate) from_cache: bool,
    /// How old the served copy is, in seconds.
    pub(crate) age_secs: u64,
    /// Why the access result is what it is: the latest fetch's own, the last good copy kept
    /// while the file is unreachable, or unavailable after too long unreachable.
    #[serde(flatten)]
    pub(crate) basis: Basis,
}

/// The robots.txt that governs `url`, through the shared cache of `cache` (which must be
/// given) with `profile`'s cache rules: the entry while it is fresh, else one fetch across
/// every process sharing it. The outcome is the copy served, with the access result to apply
/// (a last good copy while the file is unreachable, RFC 9309 §2.4). When Redis failed, one
/// warning line goes to standard error and the answer is this process's own fetch.
///
/// # Errors
/// As [`fetch`]; [`CliError::Cache`] for a `--cache` that is not a Redis URL or is refused.
pub(crate) fn fetch_shared(
    url: &str,
    options: FetchOptions,
    profile: Profile,
    cache: &CacheArg,
) -> Result<(FetchOutcome, SharedAnswer), CliError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| CliError::FetchSetup(error.to_string()))?;
    let url_error = |source| CliError::RobotsUrl {
        url: url.to_owned(),
        source,
    };
    let origin = Fetcher::origin_of(url).map_err(url_error)?;
    runtime.block_on(async {
        let shared = cache
            .connect_required(&options.extra_root_certificates)
            .await?;
        let fetcher =
            Fetcher::new(options).map_err(|error| CliError::FetchSetup(error.to_string()))?;
        let caching = CachingFetcher::with_store(fetcher, cache_policy(profile), shared.store());
        let answer = caching.get_origin(&origin).await.map_err(url_error)?;
        shared.warn_if_degraded();
        let mut outcome = (*answer.served).clone();
        outcome.access = answer.access;
        Ok((
            outcome,
            SharedAnswer {
                from_cache: answer.from_cache,
                age_secs: answer.age.as_secs(),
                basis: answer.basis,
            },
        ))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_timeout_is_the_fetchers() {
        assert_eq!(
            super::parse_timeout(super::DEFAULT_TIMEOUT_SECS),
            Ok(super::TimeoutArg::default().timeout)
        );
    }

    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("30", 30_000)]
    #[case("0.25", 250)]
    #[case(" 2 ", 2_000)]
    #[case("3600", 3_600_000)]
    fn timeouts(#[case] text: &str, #[case] millis: u128) {
        assert_eq!(parse_timeout(text).unwrap().as_millis(), millis);
    }

    #[rstest]
    #[case("0")]
    #[case("-1")]
    #[case("3601")]
    #[case("NaN")]
    #[case("inf")]
    #[case("ten")]
    #[case("")]
    fn bad_timeouts(#[case] text: &str) {
        assert!(parse_timeout(text).is_err(), "{text:?}");
    }

    #[test]
    fn the_connect_deadline_stays_within_the_total_one() {
        assert_eq!(
            options(Duration::from_secs(2), 1, &Trust::default(), String::new()).connect_timeout,
            Duration::from_secs(2)
        );
        let agent = UserAgentArg::default().for_agent(Some("ExampleBot"));
        let long = options(Duration::from_secs(60), 512_000, &Trust::default(), agent);
        assert_eq!(long.connect_timeout, MAX_CONNECT_TIMEOUT);
        assert_eq!(long.total_timeout, Duration::from_secs(60));
        assert_eq!(long.body_limit, 512_000);
        assert_eq!(
            long.user_agent,
            concat!("ExampleBot robotrules/", env!("CARGO_PKG_VERSION"))
        );
    }

    #[test]
    fn one_user_agent_rule() {
        let default = UserAgentArg::default();
        assert_eq!(
            default.for_agent(None),
            concat!("robotrules/", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(
            default.for_agent(Some("Example Bot/1")),
            concat!("robotrules/", env!("CARGO_PKG_VERSION"))
        );
        let set = UserAgentArg {
            user_agent: Some("MyCrawler/2.0 (+https://example.com)".into()),
        };
        assert_eq!(
            set.for_agent(Some("ExampleBot")),
            "MyCrawler/2.0 (+https://example.com)"
        );
    }

    #[test]
    fn user_agents_are_printable_ascii() {
        assert_eq!(
            parse_user_agent(" ExampleBot/1.0 ").as_deref(),
            Ok("ExampleBot/1.0")
        );
        assert!(parse_user_agent("").is_err());
        assert!(parse_user_agent("Bot\r\nX: y").is_err());
        assert!(parse_user_agent("Bötchen").is_err());
        assert_eq!(
            UserAgentArg::default().for_agent(None),
            robotrules_fetch::DEFAULT_USER_AGENT
        );
    }

    #[rstest]
    #[case::no_host("http://")]
    #[case::bad_port("http://example.com:99999/robots.txt")]
    #[case::space_in_host("http://exa mple.com/")]
    fn urls_without_a_robots_txt_are_errors(#[case] url: &str) {
        let result = fetch(
            url,
            options(
                Duration::from_secs(1),
                512_000,
                &Trust::default(),
                String::new(),
            ),
        );
        assert!(
            matches!(result, Err(CliError::RobotsUrl { .. })),
            "{result:?}"
        );
    }
}
