//! The [`Fetcher`]: one robots.txt fetch per call, over HTTP, HTTPS or FTP, within the
//! configured deadlines.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use robotrules_text::excerpt;
use robotrules_url::Origin;

use crate::cache::parse_http_date;
use crate::cache::parse_retry_after;
use crate::clock::{Clock, SystemClock};
use crate::error::FetchError;
use crate::http::{self, Progress};
use crate::options::FetchOptions;
use crate::outcome::{Access, FetchOutcome, TimeoutPhase, UnreachableReason};
use crate::{ftp, ftp::FTP_PORT};

/// The protocols robots.txt is fetched over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protocol {
    Http,
    Ftp,
}

impl Protocol {
    fn of(origin: &Origin) -> Result<Self, FetchError> {
        match origin.scheme() {
            "http" | "https" => Ok(Protocol::Http),
            "ftp" => Ok(Protocol::Ftp),
            other => Err(FetchError::UnsupportedScheme(excerpt(other, 64))),
        }
    }
}

/// Fails with [`FetchError::UnsupportedScheme`] unless the origin is http, https or ftp.
pub(crate) fn ensure_supported(origin: &Origin) -> Result<(), FetchError> {
    Protocol::of(origin).map(|_| ())
}

/// Fetches robots.txt files. Cheap to clone (clones share the HTTP client); `Send + Sync`.
///
/// ```no_run
/// # async fn demo() -> Result<(), robotrules_fetch::FetchError> {
/// use robotrules_fetch::{Fetcher, FetchOptions, VerdictClass};
///
/// let fetcher = Fetcher::new(FetchOptions::default())?;
/// let outcome = fetcher.fetch("https://example.com/some/page").await?;
/// if outcome.verdict_class() == VerdictClass::Conditional {
///     let body = outcome.body().expect("a success has a body");
///     println!("{} bytes of rules", body.len());
/// }
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

struct Inner {
    options: FetchOptions,
    client: reqwest::Client,
    clock: Arc<dyn Clock>,
    /// Turns to fetch, when [`FetchOptions::max_concurrent_fetches`] limits them.
    turns: Option<tokio::sync::Semaphore>,
}

impl fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fetcher")
            .field("options", &self.inner.options)
            .field("clock", &self.inner.clock)
            .finish_non_exhaustive()
    }
}

impl Fetcher {
    /// A fetcher with `options`, stamping outcomes with the system clock.
    pub fn new(options: FetchOptions) -> Result<Self, FetchError> {
        Self::with_clock(options, Arc::new(SystemClock))
    }

    /// A fetcher with `options`, stamping outcomes with `clock`.
    pub fn with_clock(options: FetchOptions, clock: Arc<dyn Clock>) -> Result<Self, FetchError> {
        let client = http::build_client(&options)?;
        let turns = match options.max_concurrent_fetches {
            0 => None,
            n => Some(tokio::sync::Semaphore::new(
                n.min(tokio::sync::Semaphore::MAX_PERMITS),
            )),
        };
        Ok(Self {
            inner: Arc::new(Inner {
                options,
                client,
                clock,
                turns,
            }),
        })
    }

    /// The options in effect.
    pub fn options(&self) -> &FetchOptions {
        &self.inner.options
    }

    /// The clock outcomes are stamped with.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.inner.clock
    }

    /// The origin whose robots.txt governs `url` (any URL: a page or the robots.txt itself),
    /// or an error when the URL cannot have a robots.txt this crate can fetch.
    pub fn origin_of(url: &str) -> Result<Origin, FetchError> {
        let origin = Origin::parse(url)?;
        ensure_supported(&origin)?;
        Ok(origin)
    }

    /// Fetches the robots.txt that governs `url`.
    ///
    /// Only a URL that cannot have a robots.txt is an error; every server or network failure
    /// is an [`Access`] in the outcome.
    pub async fn fetch(&self, url: &str) -> Result<FetchOutcome, FetchError> {
        let origin = Self::origin_of(url)?;
        self.fetch_origin(&origin).await
    }

    /// Fetches the robots.txt of `origin`. Fails only for a scheme other than http, https
    /// and ftp.
    pub async fn fetch_origin(&self, origin: &Origin) -> Result<FetchOutcome, FetchError> {
        let protocol = Protocol::of(origin)?;
        // The semaphore is never closed, so acquiring fails never; without a turn the fetch
        // would still be correct, only not limited.
        let _turn = match &self.inner.turns {
            Some(turns) => turns.acquire().await.ok(),
            None => None,
        };
        let options = &self.inner.options;
        let robots_txt_url = origin.robots_txt_url();
        let fetched_at = self.inner.clock.now();
        let started = Instant::now();
        let mut progress = Progress::default();
        let work = async {
            match protocol {
                Protocol::Http => {
                    http::fetch(&self.inner.client, options, &robots_txt_url, &mut progress).await
                }
                Protocol::Ftp => {
                    let port = origin.port().unwrap_or(FTP_PORT);
                    ftp::fetch(options, origin.host(), port, &robots_txt_url, &mut progress).await
                }
            }
        };
        let access = match tokio::time::timeout(options.total_timeout, work).await {
            Ok(access) => access,
            Err(_) => Access::Unreachable {
                reason: UnreachableReason::Timeout {
                    phase: TimeoutPhase::Total,
                    after: options.total_timeout,
                },
            },
        };
        let Progress { chain, headers } = progress;
        let retry_after = headers.retry_after.as_deref().and_then(|value| {
            let base = headers
                .date
                .as_deref()
                .and_then(parse_http_date)
                .unwrap_or(fetched_at);
            parse_retry_after(value, base)
        });
        Ok(FetchOutcome {
            robots_txt_url,
            chain,
            access,
            fetched_at,
            elapsed: started.elapsed(),
            headers,
            retry_after,
        })
    }
}
