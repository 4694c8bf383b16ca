//! The facade: the client end to end, limits, properties and regressions: the crate's one
//! integration-test binary, one module per area (one binary links the crate and its dev-
//! dependencies once, not once per file).

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

mod answers;
mod caching;
mod client;
mod fleet;
mod limits;
mod properties;
mod regressions;
mod tls;
mod turn;
mod usage;
