//! The JSON of the tester's API, assembled in one place for its two hosts: `robotrules serve`
//! (`crates/robotrules-cli/src/cmd/serve`) and the static tester's `testerApi`
//! (`crates/robotrules-js/src/tester.rs`, the same page on WebAssembly). Both answer `check`
//! and `show` with these structures, so their answers cannot drift apart; each host adds only
//! what is its own (the server: `differences`, `show`'s `text` and `cut`).
//!
//! - [`check`]: a crawler's verdicts on many URLs under each profile, with the deciding lines
//!   and the AI usage preferences (`Content-Usage`, `Content-Signal`) of each URL;
//! - [`show`]: what a crawler gets from a file (groups, records, sitemaps), its AI usage rules
//!   and the file-wide records about AI use (`License`, `LLM-Policy`, `Content-Signal` outside
//!   any group).
//!
//! Pure Rust over the facade, with no I/O: it builds for `wasm32-unknown-unknown`.

pub mod check;
pub mod show;

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
