//! What `robotrules fetch` reports: a flat, serialisable summary of one fetch, as text
//! (`key: value` lines) or JSON.

use std::fmt;
use std::time::UNIX_EPOCH;

use serde::Serialize;

use robotrules_fetch::cache::{Basis, CachePolicy};
use robotrules_fetch::{Access, AccessKind, FetchOutcome, Hop, Truncation, VerdictClass};

use crate::remote::SharedAnswer;

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
    /// Summarises `outcome`, with the cache lifetime `policy` gives it.
    pub(crate) fn new(outcome: &FetchOutcome, policy: &CachePolicy) -> Self {
        let (bytes_read, truncation, content_type) = match &outcome.access {
            Access::Success {
                body,
                truncation,
                content_type,
            } => (body.len(), *truncation, content_type.clone()),
            Access::Unavailable { .. } | Access::Unreachable { .. } => (0, None, None),
        };
        Self {
            robots_txt_url: outcome.robots_txt_url.clone(),
            chain: outcome.chain.clone(),
            access: outcome.access.kind(),
            reason: outcome.access.reason(),
            verdict: outcome.verdict_class(),
            bytes_read,
            truncation,
            content_type,
            fetched_at: httpdate::fmt_http_date(outcome.fetched_at),
            fetched_at_unix: outcome
                .fetched_at
                .duration_since(UNIX_EPOCH)
                .map_or(0, |since| since.as_secs()),
            elapsed_ms: u64::try_from(outcome.elapsed.as_millis()).unwrap_or(u64::MAX),
            cache_lifetime_secs: policy.cache_lifetime(outcome).as_secs(),
            retry_after_secs: outcome.retry_after.map(|delay| delay.as_secs()),
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
