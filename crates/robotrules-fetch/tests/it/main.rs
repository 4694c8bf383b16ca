//! Fetching robots.txt over HTTP(S) and FTP against loopback servers, the cache policy and stores:
//! the crate's one integration-test binary, one module per area (one binary links the crate and its
//! dev-dependencies once, not once per file).
//!
//! Shared helpers are in `support`; a test that needs its own process state (an environment
//! variable, the working directory) sets it on the child it starts, never on this process.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

mod address_policy;
mod fleet;
mod ftp;
mod http;
mod policy;
mod store;
mod support;
mod tls;
