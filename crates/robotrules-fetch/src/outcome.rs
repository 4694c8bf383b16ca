//! What a fetch produced: the access result of RFC 9309 §2.3.1, the redirect chain, and the
//! response metadata caching needs.

use std::time::{Duration, SystemTime};

use bytes::Bytes;
use serde::{Deserialize, Serialize};

/// One request of a fetch: the URL asked for and the status the server answered.
///
/// For HTTP the status is the HTTP status code; for FTP it is the FTP reply code of the
/// `RETR /robots.txt` command (`226` transfer complete, `150` transfer started and stopped
/// at the size limit, `550` file unavailable, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hop {
    /// The URL requested.
    pub url: String,
    /// The status the server answered with.
    pub status: u16,
}

/// How the body was cut at the size limit (RFC 9309 §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truncation {
    /// The limit in effect, in decompressed bytes.
    pub limit: usize,
    /// Decompressed bytes received but not kept: the partial line before the limit and
    /// whatever was received past it. The fetchers stop reading at the first byte past the
    /// limit, so this is a lower bound of what the server had to send.
    pub ignored_bytes: u64,
}

/// Why a robots.txt is "unavailable" (RFC 9309 §2.3.1.3): the crawler may access everything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum UnavailableReason {
    /// The server answered with a status in 400–499 (RFC 9309 §2.3.1.3), or 429 when
    /// [`TooManyRequests::Unavailable`](crate::status::TooManyRequests::Unavailable) is set.
    #[error("HTTP status {status}")]
    ClientError {
        /// The status code.
        status: u16,
    },
    /// More redirects than allowed (RFC 9309 §2.3.1.2: "crawlers MAY assume that the
    /// robots.txt file is unavailable").
    #[error("more than {limit} consecutive redirects")]
    TooManyRedirects {
        /// The redirect limit in effect.
        limit: usize,
    },
    /// A redirect led back to a URL already requested in the same fetch.
    #[error("redirect loop back to {url}")]
    RedirectLoop {
        /// The URL that was requested twice.
        url: String,
    },
    /// A redirect status without a usable `Location` (missing, malformed, or pointing to a
    /// scheme other than http or https). Google reads a failed redirect as a 404.
    #[error("HTTP {status} redirect with an unusable Location ({detail})")]
    BadRedirect {
        /// The redirect status.
        status: u16,
        /// What was wrong with the Location header.
        detail: String,
    },
    /// A 3xx status that is not a redirect (300, 304, 305, …).
    #[error("HTTP status {status} is neither success nor a redirect")]
    UnexpectedStatus {
        /// The status code.
        status: u16,
    },
    /// The FTP server reported the file missing (reply 550).
    #[error("FTP reply {code}: {message}")]
    FileNotFound {
        /// The FTP reply code.
        code: u16,
        /// The server's reply text.
        message: String,
    },
    /// The robots.txt has been unreachable for longer than the cache policy allows, so it is
    /// read as unavailable (RFC 9309 §2.3.1.4: "crawlers MAY assume that the robots.txt file
    /// is unavailable"). Only produced by the cache.
    #[error("unreachable since {} for longer than the policy allows", httpdate::fmt_http_date(*since))]
    UnreachableTooLong {
        /// When the robots.txt was first found unreachable.
        since: SystemTime,
    },
}

/// Which deadline ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum TimeoutPhase {
    /// Opening the connection ([`FetchOptions::connect_timeout`](crate::FetchOptions::connect_timeout)).
    Connect,
    /// The whole fetch ([`FetchOptions::total_timeout`](crate::FetchOptions::total_timeout)).
    Total,
}

impl TimeoutPhase {
    /// What was being done when the deadline ran out, for the reason's text: ` connecting`,
    /// or nothing for the whole fetch.
    fn during(self) -> &'static str {
        match self {
            TimeoutPhase::Connect => " connecting",
            TimeoutPhase::Total => "",
        }
    }
}

/// A duration in seconds as a reason says it: `3 s`, `2.5 s`, `0.25 s`.
fn seconds(duration: Duration) -> String {
    let text = format!("{:.3}", duration.as_secs_f64());
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} s")
}

/// ` (REASON)` after `connection failed`, or nothing for a reason kept before there was one.
fn in_parentheses(reason: &str) -> String {
    if reason.is_empty() {
        String::new()
    } else {
        format!(" ({reason})")
    }
}

/// Why a robots.txt is "unreachable" (RFC 9309 §2.3.1.4): the crawler must assume complete
/// disallow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum UnreachableReason {
    /// The server answered with a status in 500–599, or 429 (by default), or a status
    /// outside 100–599.
    #[error("HTTP status {status}")]
    ServerError {
        /// The status code.
        status: u16,
    },
    /// The host name could not be resolved.
    #[error("no such host (DNS)")]
    Dns {
        /// The underlying error chain (for `--verbose` and JSON).
        detail: String,
    },
    /// The server refused the connection: nothing listens on the port.
    #[error("connection refused")]
    ConnectionRefused {
        /// The underlying error chain (for `--verbose` and JSON).
        detail: String,
    },
    /// The connection could not be opened for another reason (no route, network down, …):
    /// `connection failed (no route to host)`.
    #[error("connection failed{}", in_parentheses(reason))]
    Connect {
        /// The innermost error's own message, as classified (`no route to host`).
        #[serde(default)]
        reason: String,
        /// The underlying error chain (for `--verbose` and JSON).
        detail: String,
    },
    /// The TLS handshake failed (a certificate that does not verify, a handshake the server
    /// aborted, a server that does not speak TLS, …): `TLS: the server does not speak TLS`.
    #[error("TLS: {failure}")]
    Tls {
        /// What went wrong, in one word of [`TlsFailure`].
        #[serde(default)]
        failure: TlsFailure,
        /// The underlying error chain (for `--verbose` and JSON).
        detail: String,
    },
    /// A deadline ran out: `timed out after 3 s`, `timed out connecting after 3 s`.
    #[error("timed out{} after {}", phase.during(), seconds(*after))]
    Timeout {
        /// Which deadline.
        phase: TimeoutPhase,
        /// The deadline's length.
        after: Duration,
    },
    /// The connection was reset or closed while the response was being read.
    #[error("connection reset")]
    ConnectionReset {
        /// The underlying error chain (for `--verbose` and JSON).
        detail: String,
    },
    /// The body ended before its announced length.
    #[error("truncated body: {detail}")]
    TruncatedBody {
        /// The underlying error.
        detail: String,
    },
    /// The chunked transfer encoding was malformed or cut off.
    #[error("bad chunked encoding: {detail}")]
    BadChunkedEncoding {
        /// The underlying error.
        detail: String,
    },
    /// The content encoding (gzip, brotli, deflate) could not be decoded.
    #[error("cannot decode the content encoding: {detail}")]
    Decompression {
        /// The underlying error.
        detail: String,
    },
    /// The server did not speak the protocol (garbage instead of an HTTP response, a
    /// malformed FTP reply, …).
    #[error("invalid response: {detail}")]
    InvalidResponse {
        /// The underlying error.
        detail: String,
    },
    /// The FTP server refused the anonymous login.
    #[error("FTP login refused: {code} {message}")]
    FtpLoginRefused {
        /// The FTP reply code.
        code: u16,
        /// The server's reply text.
        message: String,
    },
    /// The FTP server answered a command with an error other than "file not found".
    #[error("FTP reply {code}: {message}")]
    FtpError {
        /// The FTP reply code.
        code: u16,
        /// The server's reply text.
        message: String,
    },
    /// The address policy refused the host's address (a loopback or private address, for a
    /// fetcher that fetches only public ones: `robotrules serve`).
    #[error("refused: {detail}")]
    Refused {
        /// The host, its address and what kind of address it is.
        detail: String,
    },
    /// Any other failure.
    #[error("{detail}")]
    Other {
        /// The underlying error.
        detail: String,
    },
}

/// Why a TLS connection failed; every one makes the robots.txt unreachable (RFC 9309
/// §2.3.1.4: "network errors").
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error,
)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum TlsFailure {
    /// The certificate chain does not lead to a trusted root (a private or self-signed CA
    /// that is not among the trusted roots).
    #[error("certificate not trusted (signed by an unknown issuer)")]
    UnknownIssuer,
    /// A certificate of the chain has expired.
    #[error("certificate not trusted (expired)")]
    Expired,
    /// A certificate of the chain is not valid yet.
    #[error("certificate not trusted (not valid yet)")]
    NotYetValid,
    /// The certificate is for another host name.
    #[error("certificate not trusted (not valid for this host name)")]
    NameMismatch,
    /// The certificate is unusable for another reason (bad signature, revoked, wrong
    /// purpose, malformed, …).
    #[error("certificate not trusted (bad certificate)")]
    BadCertificate,
    /// The handshake failed: the server sent an alert, closed the connection, offered nothing
    /// in common, sent an oversized or malformed handshake message, ….
    #[error("handshake failed")]
    Handshake,
    /// The server does not speak TLS (for example a plain HTTP server on the port).
    #[error("the server does not speak TLS")]
    NotTls,
    /// Any other TLS failure.
    #[default]
    #[error("failed")]
    Other,
}

/// The access result of RFC 9309 §2.3.1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Access {
    /// The file was downloaded (RFC 9309 §2.3.1.1): follow its parseable rules.
    Success {
        /// The (decompressed) body, cut at the size limit.
        body: Bytes,
        /// Set when the body was cut at the size limit.
        truncation: Option<Truncation>,
        /// The `Content-Type` header as sent, if any. An HTML body is still parsed for its
        /// valid lines (Google; RFC 9309 §2.3.1.5).
        content_type: Option<String>,
    },
    /// The file is unavailable (RFC 9309 §2.3.1.3): the crawler may access everything.
    Unavailable {
        /// Why.
        reason: UnavailableReason,
    },
    /// The file is unreachable (RFC 9309 §2.3.1.4): the crawler must assume complete
    /// disallow.
    Unreachable {
        /// Why.
        reason: UnreachableReason,
    },
}

impl UnreachableReason {
    /// The underlying error chain of a network failure, as the HTTP or FTP library reported
    /// it (`error sending request for url (…): client error (Connect): tcp connect error:
    /// Connection refused (os error 111)`), for `--verbose` output; the reason's text is the
    /// short one (`connection refused`). `None` for reasons without one (a status, a
    /// deadline).
    pub fn chain(&self) -> Option<&str> {
        match self {
            UnreachableReason::Dns { detail }
            | UnreachableReason::ConnectionRefused { detail }
            | UnreachableReason::Connect { detail, .. }
            | UnreachableReason::Tls { detail, .. }
            | UnreachableReason::ConnectionReset { detail }
            | UnreachableReason::TruncatedBody { detail }
            | UnreachableReason::BadChunkedEncoding { detail }
            | UnreachableReason::Decompression { detail }
            | UnreachableReason::InvalidResponse { detail }
            | UnreachableReason::Other { detail } => Some(detail),
            _ => None,
        }
    }
}

impl Access {
    /// The verdict class this access result leads to.
    pub fn verdict_class(&self) -> VerdictClass {
        match self {
            Access::Success { .. } => VerdictClass::Conditional,
            Access::Unavailable { .. } => VerdictClass::FullAllow,
            Access::Unreachable { .. } => VerdictClass::FullDisallow,
        }
    }

    /// The body, when the access was a success.
    pub fn body(&self) -> Option<&Bytes> {
        match self {
            Access::Success { body, .. } => Some(body),
            _ => None,
        }
    }

    /// Which of the three access results this is, without its details.
    pub fn kind(&self) -> AccessKind {
        match self {
            Access::Success { .. } => AccessKind::Success,
            Access::Unavailable { .. } => AccessKind::Unavailable,
            Access::Unreachable { .. } => AccessKind::Unreachable,
        }
    }

    /// Why the file is unavailable or unreachable, as a message (`HTTP status 503`); `None`
    /// for a success.
    pub fn reason(&self) -> Option<String> {
        match self {
            Access::Success { .. } => None,
            Access::Unavailable { reason } => Some(reason.to_string()),
            Access::Unreachable { reason } => Some(reason.to_string()),
        }
    }
}

/// The three outcomes Google's specification names for a robots.txt fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictClass {
    /// The file's rules decide ("conditional allow").
    Conditional,
    /// Everything may be crawled ("full allow").
    FullAllow,
    /// Nothing may be crawled ("full disallow").
    FullDisallow,
}

impl VerdictClass {
    /// `"conditional"`, `"full-allow"` or `"full-disallow"`, as JSON spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            VerdictClass::Conditional => "conditional",
            VerdictClass::FullAllow => "full-allow",
            VerdictClass::FullDisallow => "full-disallow",
        }
    }
}

impl std::fmt::Display for VerdictClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The three access results of RFC 9309 §2.3.1, without their details.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccessKind {
    /// The file was fetched (§2.3.1.1): its rules decide.
    Success,
    /// The file is unavailable (§2.3.1.3): everything may be crawled.
    Unavailable,
    /// The file is unreachable (§2.3.1.4): nothing may be crawled.
    Unreachable,
}

impl AccessKind {
    /// `"success"`, `"unavailable"` or `"unreachable"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            AccessKind::Success => "success",
            AccessKind::Unavailable => "unavailable",
            AccessKind::Unreachable => "unreachable",
        }
    }
}

impl std::fmt::Display for AccessKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The response headers caching depends on, kept as sent (values of repeated headers joined
/// with `", "`). Empty for FTP and for fetches that got no final response.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheHeaders {
    /// `Cache-Control`.
    pub cache_control: Option<String>,
    /// `Expires`.
    pub expires: Option<String>,
    /// `Date`.
    pub date: Option<String>,
    /// `Age`.
    pub age: Option<String>,
    /// `Retry-After`.
    pub retry_after: Option<String>,
}

/// Everything one robots.txt fetch produced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchOutcome {
    /// The robots.txt URL of the origin asked about; the rules apply to this origin even when
    /// redirects led elsewhere (RFC 9309 §2.3.1.2).
    pub robots_txt_url: String,
    /// Every request that got a response, in order, with its status. Empty when no response
    /// was received; a request that failed without a response is not listed (the failure is
    /// in `access`).
    pub chain: Vec<Hop>,
    /// The access result.
    pub access: Access,
    /// When the fetch started (from the fetcher's [`Clock`](crate::Clock)).
    pub fetched_at: SystemTime,
    /// How long the fetch took (measured with a monotonic timer).
    pub elapsed: Duration,
    /// Caching headers of the final response.
    pub headers: CacheHeaders,
    /// The `Retry-After` delay of the final response, relative to `fetched_at`.
    pub retry_after: Option<Duration>,
}

impl FetchOutcome {
    /// The verdict class of the access result.
    pub fn verdict_class(&self) -> VerdictClass {
        self.access.verdict_class()
    }

    /// The last URL requested (the robots.txt URL when no request got an answer).
    pub fn final_url(&self) -> &str {
        self.chain
            .last()
            .map_or(self.robots_txt_url.as_str(), |hop| hop.url.as_str())
    }

    /// The status of the last response, if one was received.
    pub fn final_status(&self) -> Option<u16> {
        self.chain.last().map(|hop| hop.status)
    }

    /// The body, when the access was a success.
    pub fn body(&self) -> Option<&Bytes> {
        self.access.body()
    }
}
