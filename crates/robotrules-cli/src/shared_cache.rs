//! `--cache redis://HOST:PORT[/DB]`: the robots.txt cache a fleet of processes shares in Redis
//! or Valkey (the library's [`RedisStore`]), for the commands that fetch (`check`, `explain`,
//! `show` and `lint` with a ROBOTS URL, `batch`, `fetch`) and the `cache` commands that look
//! into it.
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

use robotrules::client::{FleetHealth, RedisOptions, RedisStore, RootCertificate, Store};

use crate::error::CliError;

/// The shared cache of one run, connected.
#[derive(Clone, Debug)]
pub(crate) struct SharedCache {
    /// The store, shared with the client that uses it.
    store: Arc<RedisStore>,
}

impl SharedCache {
    /// Connects to the Redis at `url` (`--cache`), each command within `timeout`
    /// (`--cache-timeout`), trusting `roots` (`--ca-cert`) besides the platform's store for
    /// `rediss://`. Must run inside the tokio runtime that will use the store.
    ///
    /// # Errors
    /// [`CliError::Cache`] when the URL is not a Redis URL or Redis refuses the credentials.
    /// Any other failure (Redis down, slow, not Redis) is not an error: the store falls back,
    /// and [`SharedCache::warn_if_degraded`] reports it.
    pub(crate) async fn connect(
        url: &str,
        timeout: Duration,
        roots: &[RootCertificate],
    ) -> Result<SharedCache, CliError> {
        let options = RedisOptions {
            extra_root_certificates: roots.to_vec(),
            command_timeout: timeout,
            ..RedisOptions::default()
        };
        match RedisStore::connect(url, options).await {
            Ok(store) => Ok(SharedCache {
                store: Arc::new(store),
            }),
            Err(error) => Err(CliError::Cache(error)),
        }
    }

    /// The store, for `ClientBuilder::store`.
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
            eprintln!("robotrules: warning: {}", crate::error::one_line(&warning));
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
