//! Test support: fetch options and fetchers for the loopback servers of
//! `robotrules-testserver`, which the tests start themselves.

#![allow(dead_code, unreachable_pub, missing_docs)]

use std::sync::Arc;
use std::time::Duration;

use robotrules_fetch::{Clock, FetchOptions, Fetcher};

/// Options with short deadlines, no proxy, and the given host overrides.
pub fn test_options() -> FetchOptions {
    FetchOptions {
        connect_timeout: Duration::from_secs(1),
        total_timeout: Duration::from_secs(2),
        use_env_proxy: false,
        user_agent: "RobotrulesTestBot/1.0".into(),
        ..FetchOptions::default()
    }
}

pub fn fetcher(options: FetchOptions) -> Fetcher {
    Fetcher::new(options).unwrap()
}

pub fn fetcher_with_clock(options: FetchOptions, clock: Arc<dyn Clock>) -> Fetcher {
    Fetcher::with_clock(options, clock).unwrap()
}
