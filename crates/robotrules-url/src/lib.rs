//! robotrules-url: the URL side of the Robots Exclusion Protocol.
//!
//! - **Location** ([`robots_txt_url`], [`Origin`]): the robots.txt for a URL is at
//!   `scheme://host[:port]/robots.txt` (RFC 9309 §2.3), with the host lower-case and in
//!   punycode, and default ports (http 80, https 443, ftp 21) elided.
//! - **Scope** ([`governs`]): a robots.txt governs URLs of the same scheme, host and port only
//!   (Google's specification, "robots.txt location" table; RFC 9309 §2.3).
//! - **Target** ([`Target`]): a URL read once, under a [`UrlReading`], as the matcher sees it:
//!   path, params and query (RFC 9309 §2.2.2) in the form patterns are compared with.
//!   [`target_path`] is the URL Standard's path and query alone; [`google::path_params_query`]
//!   is Google's reading.
//! - **Canonical form** ([`canonical`]): percent-encoding normalisation of URL paths and
//!   allow/disallow patterns (RFC 9309 §2.2.2, §2.2.3); [`google::escape_pattern`] is Google's.
//!
//! What this crate does not do: parse robots.txt files (robotrules-grammar), match patterns or
//! choose groups (robotrules-model), fetch anything or resolve host names (robotrules-fetch).
//! Functions on the per-query path ([`canonical::path`], [`google::path_params_query`]) borrow
//! their input and do not allocate when nothing changes. Nothing here panics on any input.

mod authority;
pub mod canonical;
mod error;
pub mod google;
mod origin;
mod percent;
mod plain;
mod scope;
mod target;

pub use error::UrlError;
pub use origin::{default_port, is_default_port, Origin, OriginRef};
pub use scope::{governs, redirect_target, resolve, robots_txt_origin, robots_txt_url};
pub use target::{target_path, Target, Targets, UrlReading};

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
