//! Test support: fetch options and fetchers for the loopback servers of
//! `robotrules-testserver`, which the tests start themselves.

#![allow(unreachable_pub, missing_docs)]

use std::net::SocketAddr;
use std::time::Duration;

use robotrules_fetch::{
    Access, FetchOptions, FetchOutcome, Fetcher, UnavailableReason, UnreachableReason,
};

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

/// Fetches the robots.txt that governs `url` with [`test_options`]; a URL that cannot have one
/// fails the test.
pub async fn fetch(url: &str) -> FetchOutcome {
    fetcher(test_options()).fetch(url).await.unwrap()
}

/// A loopback address nothing listens on (bound, then released), so connecting is refused.
pub fn closed_port() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], robotrules_testserver::free_port().unwrap()))
}

/// Why `access` is unreachable; any other access result fails the test.
pub fn unreachable_reason(access: &Access) -> &UnreachableReason {
    match access {
        Access::Unreachable { reason } => reason,
        other => panic!("expected unreachable, got {other:?}"),
    }
}

/// Why `access` is unavailable; any other access result fails the test.
pub fn unavailable_reason(access: &Access) -> &UnavailableReason {
    match access {
        Access::Unavailable { reason } => reason,
        other => panic!("expected unavailable, got {other:?}"),
    }
}

/// The kind of `reason` as it serializes (`connection_reset`, `bad_chunked_encoding`, …):
/// its variant, for tables of cases that check only that.
pub fn kind(reason: &UnreachableReason) -> String {
    match serde_json::to_value(reason).unwrap()["kind"].as_str() {
        Some(kind) => kind.to_owned(),
        None => panic!("{reason:?} serializes without a kind"),
    }
}
