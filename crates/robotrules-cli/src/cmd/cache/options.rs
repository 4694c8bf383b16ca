//! The options of the `cache` commands that reach the shared cache: `--cache` (required),
//! `--cache-timeout` and `--ca-cert`. They fetch nothing, so the fetch options of
//! [`RemoteArgs`] (`--timeout`, `--platform-roots`, `--user-agent`) are not theirs: given, they
//! are a usage error.

use std::path::PathBuf;
use std::time::Duration;

use crate::args::{parse_timeout, RemoteArgs, DEFAULT_CACHE_TIMEOUT_SECS, DEFAULT_TIMEOUT_SECS};
use crate::error::CliError;
use crate::remote::Remote;

/// How a `cache` command reaches the shared cache.
#[derive(Clone, Debug, clap::Args)]
pub(super) struct CacheStoreArgs {
    /// The shared cache to look into: Redis or Valkey at URL
    /// (`redis://[:PASSWORD@]HOST:PORT[/DB]`, `rediss://` for TLS, trusting the platform's
    /// certificate store and --ca-cert).
    #[arg(long = "cache", value_name = "URL", required = true)]
    cache: String,

    /// How long each Redis command may take, in seconds (decimals allowed); past it the
    /// command fails.
    #[arg(long = "cache-timeout", value_name = "SECS", default_value = DEFAULT_CACHE_TIMEOUT_SECS, value_parser = parse_timeout)]
    cache_timeout: Duration,

    /// Also trust the root certificates in FILE (PEM; a bundle may hold several) for a
    /// rediss:// --cache, besides the platform's store. Repeatable.
    #[arg(long = "ca-cert", value_name = "FILE")]
    ca_certs: Vec<PathBuf>,
}

impl CacheStoreArgs {
    /// Reads every `--ca-cert` file into the remote options the commands' code takes, with
    /// the fetch options at their defaults (nothing is fetched).
    ///
    /// # Errors
    /// As [`RemoteArgs::load`].
    pub(super) fn load(&self) -> Result<Remote, CliError> {
        RemoteArgs {
            timeout: parse_timeout(DEFAULT_TIMEOUT_SECS).map_err(CliError::Usage)?,
            ca_certs: self.ca_certs.clone(),
            platform_roots: false,
            user_agent: None,
            cache: Some(self.cache.clone()),
            cache_timeout: self.cache_timeout,
        }
        .load()
    }
}
