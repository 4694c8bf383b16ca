//! Fetching and caching robots.txt files as RFC 9309 §2.3–§2.5 and Google's specification
//! describe.
//!
//! This crate delivers bytes and an access result; it knows nothing about the robots.txt
//! format (that is `robotrules-grammar` and `robotrules-model`).
//!
//! - [`Fetcher`] fetches the robots.txt of an origin over HTTP, HTTPS or FTP and classifies
//!   the result as [`Access::Success`] (RFC 9309 §2.3.1.1), [`Access::Unavailable`]
//!   (§2.3.1.3: allow all) or [`Access::Unreachable`] (§2.3.1.4: disallow all), following
//!   redirects itself (§2.3.1.2) and cutting the decompressed body at the size limit (§2.5).
//! - [`cache::CachePolicy`] decides, with no I/O, how long a result is fresh (§2.4), how
//!   errors back off (honouring `Retry-After`) and what to serve while the file is
//!   unreachable (the last good copy, for up to 30 days).
//! - [`refresh_entry`] puts the two together for one origin over a [`cache::Store`] (with its
//!   lock when the store is shared between processes); the `robotrules` facade's client keeps
//!   the entries, one fetch per origin at a time, and the parsed files around it.
//! - [`RootCertificate`] adds trust roots for HTTPS (a private CA) to the built-in web roots;
//!   a certificate that does not verify makes the file unreachable ([`TlsFailure`]).
//! - `fleet::RedisStore` (feature `redis`) is a [`cache::Store`] in Redis shared by a crawler
//!   fleet, with a fleet-wide lock so each origin is fetched once at a time across processes.
//! - [`Clock`] makes time replaceable, so cache behaviour is testable without sleeping.
//! - [`status`] is the table of RFC 9309 §2.3.1 (an HTTP status to access), with no I/O:
//!   it is all this crate builds without its default feature `client` (no runtime, no
//!   HTTP or FTP client), for callers that fetch with their own client.
//!
//! `docs/fetching.md` in the repository has the full outcome table with citations.

pub mod status;

/// Items built with the `client` feature only: everything but [`status`].
macro_rules! with_client {
    ($($item:item)*) => { $( #[cfg(feature = "client")] $item )* };
}

with_client! {
    mod address_policy;
    mod body_limit;
    pub mod cache;
    mod caching;
    mod clock;
    mod error;
    mod fetcher;
    mod ftp;
    mod http;
    mod network_error;
    mod options;
    mod outcome;
    mod root_certificate;
    mod special_address;

    pub use address_policy::AddressPolicy;
    pub use caching::{refresh_entry, Refreshed};
    pub use clock::{Clock, ManualClock, SystemClock};
    pub use error::FetchError;
    pub use fetcher::Fetcher;
    pub use options::{FetchOptions, DEFAULT_USER_AGENT, RFC9309_MIN_BODY_LIMIT};
    pub use outcome::{
        Access, AccessKind, CacheHeaders, FetchOutcome, Hop, TimeoutPhase, TlsFailure, Truncation,
        UnavailableReason, UnreachableReason, VerdictClass,
    };
    pub use robotrules_url::Origin;
    pub use root_certificate::{CertificateError, RootCertificate};
}

#[cfg(feature = "redis")]
pub mod fleet;

/// The README's example, run as a doctest so it stays true.
#[cfg(all(doctest, feature = "client"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
