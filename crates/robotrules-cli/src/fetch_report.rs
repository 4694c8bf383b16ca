//! What `robotrules fetch` reports: a flat, serialisable summary of one fetch, as text
//! (`key: value` lines) or JSON.

use std::fmt;
use std::time::UNIX_EPOCH;

use serde::Serialize;

use robotrules::client::{AccessKind, Basis, Hop, Lookup, Truncation, VerdictClass};

/// How the shared cache (`--cache`) answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct SharedAnswer {
    /// True when the answer was in the cache (fresh, or written by another process while this
    /// one waited for the fleet's fetch); false when this process fetched.
    pub(crate) from_cache: bool,
    /// How old the served copy is, in seconds.
    pub(crate) age_secs: u64,
    /// Why the access result is what it is: the latest fetch's own, the last good copy kept
    /// while the file is unreachable, or unavailable after too long unreachable.
    #[serde(flatten)]
    pub(crate) basis: Basis,
}

impl SharedAnswer {
    /// How the cache answered `lookup`.
    pub(crate) fn new(lookup: &Lookup) -> SharedAnswer {
        SharedAnswer {
            from_cache: lookup.from_cache(),
            age_secs: lookup.age().as_secs(),
            basis: lookup.basis(),
        }
    }
}

/// What happened during a fetch, without the body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct FetchSummary {
    /// The robots.txt URL of the origin asked about.
    pub(crate) robots_txt_url: String,
    /// Every request made, with its status.
    pub(crate) chain: Vec<Hop>,
    /// Success, unavailable or unreachable.
    pub(crate) access: AccessKind,
    /// Why the file is unavailable or unreachable.
    pub(crate) reason: Option<String>,
    /// The verdict class.
    pub(crate) verdict: VerdictClass,
    /// Bytes of body kept (after decompression and the size limit).
    pub(crate) bytes_read: usize,
    /// Set when the body was cut at the size limit.
    pub(crate) truncation: Option<Truncation>,
    /// The `Content-Type` header of a successful response.
    pub(crate) content_type: Option<String>,
    /// When the fetch started, as an HTTP date.
    pub(crate) fetched_at: String,
    /// When the fetch started, in seconds since the Unix epoch.
    pub(crate) fetched_at_unix: u64,
    /// How long the fetch took, in milliseconds.
    pub(crate) elapsed_ms: u64,
    /// How long the result is cached under the policy, in seconds.
    pub(crate) cache_lifetime_secs: u64,
    /// The server's `Retry-After`, in seconds.
    pub(crate) retry_after_secs: Option<u64>,
    /// How the shared cache answered (`--cache`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) shared_cache: Option<SharedAnswer>,
}

impl FetchSummary {
    /// Summarises the fetch the client's answer comes from (the latest one, or the last good
    /// copy the shared cache serves), with the access result the client applies and the
    /// cache lifetime its policy gives it.
    pub(crate) fn new(lookup: &Lookup) -> Self {
        let served = lookup.served();
        let fetched_at = served.fetched_at();
        Self {
            robots_txt_url: served.robots_txt_url().to_owned(),
            chain: served.requests().to_vec(),
            access: lookup.access(),
            reason: crate::fetched::access_reason(lookup),
            verdict: lookup.verdict_class(),
            bytes_read: served.body().map_or(0, <[u8]>::len),
            truncation: served.truncation(),
            content_type: served.content_type().map(str::to_owned),
            fetched_at: httpdate::fmt_http_date(fetched_at),
            fetched_at_unix: fetched_at
                .duration_since(UNIX_EPOCH)
                .map_or(0, |since| since.as_secs()),
            elapsed_ms: u64::try_from(served.elapsed().as_millis()).unwrap_or(u64::MAX),
            cache_lifetime_secs: lookup.cache_lifetime().as_secs(),
            retry_after_secs: served.retry_after().map(|delay| delay.as_secs()),
            shared_cache: None,
        }
    }
}

impl fmt::Display for FetchSummary {
    /// One `key: value` line per fact, the chain first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "robots.txt: {}", self.robots_txt_url)?;
        for hop in &self.chain {
            writeln!(f, "request: {} {}", hop.status, hop.url)?;
        }
        match &self.reason {
            Some(reason) => writeln!(f, "access: {} ({reason})", self.access)?,
            None => writeln!(f, "access: {}", self.access)?,
        }
        writeln!(f, "verdict: {}", self.verdict)?;
        writeln!(f, "bytes read: {}", self.bytes_read)?;
        if let Some(truncation) = &self.truncation {
            writeln!(
                f,
                "truncated: at {} bytes, {} bytes ignored (reading stopped)",
                truncation.limit, truncation.ignored_bytes,
            )?;
        }
        if let Some(content_type) = &self.content_type {
            writeln!(f, "content type: {content_type}")?;
        }
        writeln!(f, "fetched at: {}", self.fetched_at)?;
        writeln!(f, "elapsed: {} ms", self.elapsed_ms)?;
        if let Some(retry_after) = self.retry_after_secs {
            writeln!(f, "retry after: {retry_after} s")?;
        }
        write!(f, "cache lifetime: {} s", self.cache_lifetime_secs)?;
        if let Some(shared) = &self.shared_cache {
            let source = if shared.from_cache {
                "answered from the entry"
            } else {
                "no fresh entry, fetched"
            };
            write!(f, "\nshared cache: {source} (age {} s", shared.age_secs)?;
            match shared.basis {
                Basis::Current => write!(f, ")")?,
                Basis::LastGoodCopy { since } => write!(
                    f,
                    "; last good copy, unreachable since {})",
                    httpdate::fmt_http_date(since)
                )?,
                Basis::UnreachableTooLong { since } => write!(
                    f,
                    "; unreachable since {}, read as unavailable)",
                    httpdate::fmt_http_date(since)
                )?,
                _ => write!(f, ")")?,
            }
        }
        Ok(())
    }
}
