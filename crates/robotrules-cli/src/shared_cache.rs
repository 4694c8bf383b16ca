//! `--cache redis://HOST:PORT[/DB]`: the robots.txt cache a fleet of processes shares in Redis
//! or Valkey (the library's [`RedisStore`]), for the commands that fetch (`check` with a ROBOTS
//! URL, `batch`, `fetch`) and the `cache` commands that look into it.
//!
//! With it, a robots.txt answer comes from the shared entry while that is fresh, and otherwise
//! from one fetch across every process that uses the same Redis (the store's lock), written
//! back for the others. A URL that is not a Redis URL and a Redis that refuses the credentials
//! are usage errors (exit 2, one line). A Redis that is down, slow or speaks another protocol is
//! not: the store falls back to this process's own fetches, and the command says so in one
//! warning line on standard error after its answers ([`SharedCache::warn_if_degraded`]).
//!
//! For `rediss://` (Redis over TLS) the server's certificate must chain to the platform's
//! certificate store or to a root of `--ca-cert`; one that does not is a Redis that cannot be
//! reached (a warning for the commands that fetch, an error for the `cache` commands).

use std::sync::Arc;
use std::time::Duration;

use robotrules_fetch::cache::Store;
use robotrules_fetch::fleet::{FleetHealth, RedisOptions, RedisStore};
use robotrules_fetch::RootCertificate;

use crate::error::CliError;

/// `--cache URL`, shared by `check`, `batch` and `fetch` (optional there) and by the `cache`
/// commands (required there).
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct CacheArg {
    /// Share robots.txt answers with other processes through Redis or Valkey at URL
    /// (`redis://[:PASSWORD@]HOST:PORT[/DB]`, `rediss://` for TLS, trusting the platform's
    /// certificate store and --ca-cert): each origin is fetched once across all of them. When
    /// Redis is down or slow, this process fetches for itself and warns.
    #[arg(long = "cache", value_name = "URL")]
    pub(crate) cache: Option<String>,
    /// How long each Redis command may take, in seconds (decimals allowed); past it this
    /// process fetches for itself and warns.
    #[arg(long = "cache-timeout", value_name = "SECS", default_value = DEFAULT_CACHE_TIMEOUT_SECS, value_parser = crate::remote::parse_timeout)]
    pub(crate) cache_timeout: Duration,
}

/// The default `--cache-timeout`, in seconds: `RedisOptions`' default command timeout.
const DEFAULT_CACHE_TIMEOUT_SECS: &str = "0.5";

/// The shared cache of one run, connected.
#[derive(Clone, Debug)]
pub(crate) struct SharedCache {
    /// The store, shared with the fetcher or client that uses it.
    store: Arc<RedisStore>,
}

impl CacheArg {
    /// Connects to the Redis of `--cache`, if one was given, trusting `roots` (`--ca-cert`)
    /// besides the platform's store for `rediss://`. Must run inside the tokio runtime that
    /// will use the store.
    ///
    /// # Errors
    /// [`CliError::Cache`] when the URL is not a Redis URL or Redis refuses the credentials.
    /// Any other failure (Redis down, slow, not Redis) is not an error: the store falls back,
    /// and [`SharedCache::warn_if_degraded`] reports it.
    pub(crate) async fn connect(
        &self,
        roots: &[RootCertificate],
    ) -> Result<Option<SharedCache>, CliError> {
        let Some(url) = &self.cache else {
            return Ok(None);
        };
        let options = RedisOptions {
            extra_root_certificates: roots.to_vec(),
            command_timeout: self.cache_timeout,
            ..RedisOptions::default()
        };
        match RedisStore::connect(url, options).await {
            Ok(store) => Ok(Some(SharedCache {
                store: Arc::new(store),
            })),
            Err(error) => Err(CliError::Cache(error)),
        }
    }

    /// As [`CacheArg::connect`], for the commands that require `--cache` (clap makes sure it
    /// is there).
    ///
    /// # Errors
    /// As [`CacheArg::connect`]; [`CliError::Usage`] when `--cache` is missing.
    pub(crate) async fn connect_required(
        &self,
        roots: &[RootCertificate],
    ) -> Result<SharedCache, CliError> {
        self.connect(roots).await?.ok_or_else(|| {
            CliError::Usage("missing --cache URL (redis://HOST:PORT[/DB])".to_owned())
        })
    }
}

impl SharedCache {
    /// The store, for `CachingFetcher::with_store` or `ClientBuilder::store`.
    pub(crate) fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.store) as Arc<dyn Store>
    }

    /// The Redis store itself (for `cache show` and `cache purge`).
    pub(crate) fn redis(&self) -> &RedisStore {
        &self.store
    }

    /// Writes one warning line on standard error when Redis failed during the run (errors,
    /// timeouts, unreadable entries): the answers are still right, but came from this
    /// process's own fetches.
    pub(crate) fn warn_if_degraded(&self) {
        if let Some(warning) = degraded(&self.store.health()) {
            eprintln!("robotrules: warning: {warning}");
        }
    }
}

/// The warning for `health`, when Redis failed or held unreadable values during the run.
fn degraded(health: &FleetHealth) -> Option<String> {
    let counts = [
        (health.errors, "error", "errors"),
        (health.timeouts, "timeout", "timeouts"),
        (health.corrupt, "unreadable entry", "unreadable entries"),
    ];
    let faults: Vec<String> = counts
        .iter()
        .filter(|(count, _, _)| *count > 0)
        .map(|(count, one, many)| format!("{count} {}", if *count == 1 { one } else { many }))
        .collect();
    if faults.is_empty() && health.fallbacks == 0 {
        return None;
    }
    let faults = if faults.is_empty() {
        match health.fallbacks {
            1 => "1 fallback".to_owned(),
            many => format!("{many} fallbacks"),
        }
    } else {
        faults.join(", ")
    };
    Some(format!(
        "--cache: the shared cache failed ({faults}); this process fetched robots.txt itself \
         where it could not use it, so the answers stand but were not shared"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cache_timeout_is_the_stores() {
        let timeout = crate::remote::parse_timeout(DEFAULT_CACHE_TIMEOUT_SECS);
        assert_eq!(timeout, Ok(RedisOptions::default().command_timeout));
    }

    #[test]
    fn a_healthy_run_says_nothing() {
        let mut health = FleetHealth::default();
        health.connected = true;
        health.hits = 10;
        health.misses = 2;
        health.writes = 2;
        assert_eq!(degraded(&health), None);
    }

    #[test]
    fn faults_are_counted_in_one_line() {
        let mut health = FleetHealth::default();
        health.errors = 3;
        health.timeouts = 1;
        health.fallbacks = 4;
        let warning = degraded(&health).unwrap();
        assert!(warning.contains("(3 errors, 1 timeout)"), "{warning}");
        assert!(!warning.contains('\n'));
    }
}
