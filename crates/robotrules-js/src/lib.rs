//! The WebAssembly half of the `robotrules` npm package: the facade of the `robotrules` crate,
//! bound with wasm-bindgen.
//!
//! The package's JavaScript (`npm/src/`) wraps these classes into the public API
//! (`Robots.parse(body, { profile })`, `robots.crawler(agent)`, typed `InvalidAgent` and
//! `InvalidUrl` errors) and adds the `robots-parser` drop-in in plain JavaScript. What crosses
//! the boundary is kept plain: bodies as bytes, names and URLs as strings, verdicts as booleans,
//! and the structured answers (decisions, explanations, diagnostics, lint reports) as JSON
//! text that the wrapper parses, so this crate needs no `js-sys`. On the hot paths (a
//! crawler's verdicts, parsing a string) the wrapper writes the text into a scratch buffer
//! itself and hands over its length ([`scratch`]).
//!
//! Bad input never traps: any bytes are parsed as the profile reads them, a name or URL with
//! lone surrogates reaches Rust with U+FFFD in their place (wasm-bindgen's encoding), and a
//! crawler name or URL the profile cannot read is a [`Failure`] with the CLI's message.
//!
//! wasm-bindgen's macros expand to `unsafe` glue, and the workspace denies `unsafe_code`; the
//! lint does not fire on code expanded from an external proc-macro, so this crate needs
//! no exemption and writes no `unsafe` itself. The exported items compile on every target (the
//! host's `cargo test` builds them); only a WebAssembly build can call them.

mod batch;
mod crawler;
mod failure;
mod json;
mod robots;
mod scratch;
mod tester;

pub use crawler::Crawler;
pub use failure::Failure;
pub use robots::{crawler_token, governs, lint, memory_bytes, status_access, Robots};
pub use scratch::{scratch, scratch_memory, SCRATCH};
pub use tester::tester_api;
