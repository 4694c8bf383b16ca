//! The survey: fixtures, agreement with `check` and the AI usage columns: the crate's one
//! integration-test binary, one module per area (one binary links the crate and its
//! dev-dependencies once, not once per file).

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

mod agrees_with_check;
mod fixtures;
mod usage;
