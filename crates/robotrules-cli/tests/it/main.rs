//! The `robotrules` binary end to end, run as a user runs it: the crate's one integration-test
//! binary, one module per area (one binary links the crate and its dev-dependencies once, not once
//! per file).
//!
//! Shared helpers are in `support`; a test that needs its own process state (an environment
//! variable, the working directory) sets it on the child it starts, never on this process.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

mod agent_names;
mod batch;
mod cache;
mod cache_list;
mod cli;
mod conventions;
mod diff;
mod explain_causes;
mod explain_golden;
mod lint_explain;
mod readme_commands;
mod remote;
mod serve;
mod serve_browser;
mod serve_static;
mod support;
mod survey;
mod terminal_safe;
mod tls;
mod usage;
