//! The `fetch` case format: what the loopback server does ([`FetchEvent`], a status, headers)
//! and what `robotrules-fetch` must make of it (`expect.access`, the verdict class, and
//! optionally how many requests were made and how much body was kept).
//!
//! Events (`input.event`), see `conformance/README.md`:
//!
//! | event | the server (or the network) |
//! |---|---|
//! | `redirects:N` | N consecutive redirects (`input.redirect_status`, default 301), then `status` |
//! | `redirect-loop` | `/robots.txt` → `/loop` → `/robots.txt` |
//! | `redirect-cross-host` | one redirect to another host name, which answers `status` |
//! | `redirect-cross-scheme` | one redirect to the other scheme (https → http, http → https) on another host name, which answers `status` |
//! | `html-meta-refresh` | a 200 HTML page whose meta refresh points elsewhere |
//! | `gzip` | the body gzip-compressed |
//! | `body-bytes:N` | a 200 body of N bytes of 13-byte lines |
//! | `gzip-bomb-bytes:N` | a gzip body decompressing to about N bytes |
//! | `dns-failure`, `connection-refused`, `timeout`, `invalid-response`, `reset`, `interrupted`, `chunking-error`, `truncated-body` | that failure |
//! | `unreachable-days:N,cached-copy` (or `-hours:`, `no-cached-copy`) | `status` for N days (hours), with or without a good copy fetched before |
//! | `cached-for-hours:N` | asked again N hours after the first fetch |
//! | `ftp-retr-ok`, `ftp-550`, `ftp-login-refused`, `ftp-silent` | an FTP server with the file, without it, refusing logins, never greeting |
//! | `tls-unknown-issuer`, `tls-expired`, `tls-wrong-host`, `tls-handshake-failure`, `tls-not-tls` (`scheme: https` only) | a certificate from an untrusted CA, an expired one, one for another host name; a handshake_failure alert; a plain HTTP server on the TLS port |

use std::fmt;
use std::time::Duration;

use robotrules_fetch::status::TooManyRequests;
use serde::{Deserialize, Serialize};

use crate::spec::Spec;

const HOUR: Duration = Duration::from_secs(3600);

/// What the server or the network does in a `fetch` case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(try_from = "String", into = "String")]
pub enum FetchEvent {
    /// This many consecutive redirects before the final response.
    Redirects(u32),
    /// A redirect back to the robots.txt.
    RedirectLoop,
    /// One redirect to another host name.
    RedirectCrossHost,
    /// One redirect to the other scheme (https → http, http → https) on another host name.
    RedirectCrossScheme,
    /// A 200 HTML page with a meta refresh to another URL (a logical redirect).
    HtmlMetaRefresh,
    /// The body sent with `Content-Encoding: gzip`.
    Gzip,
    /// A 200 body of this many bytes.
    BodyBytes(u64),
    /// A gzip body decompressing to about this many bytes.
    GzipBombBytes(u64),
    /// The host name does not resolve.
    DnsFailure,
    /// Nothing listens on the port.
    ConnectionRefused,
    /// The server never answers.
    Timeout,
    /// The server answers something that is not HTTP.
    InvalidResponse,
    /// The connection is reset in the middle of the body.
    Reset,
    /// The server hangs up without answering.
    Interrupted,
    /// A malformed chunked body.
    ChunkingError,
    /// A body shorter than its Content-Length.
    TruncatedBody,
    /// The file has been unreachable (`status`) for this long, with or without a last good
    /// copy fetched before.
    Unreachable {
        /// How long.
        for_: Duration,
        /// Whether a good copy was fetched before the outage.
        cached_copy: bool,
    },
    /// The robots.txt is asked about again this long after the first fetch.
    CachedFor(Duration),
    /// An FTP server serving `/robots.txt` to an anonymous login.
    FtpRetrOk,
    /// An FTP server without `/robots.txt` (reply 550).
    Ftp550,
    /// An FTP server that refuses every login.
    FtpLoginRefused,
    /// A server that accepts the connection and never greets.
    FtpSilent,
    /// A TLS server whose certificate chains to a CA the fetcher does not trust.
    TlsUnknownIssuer,
    /// A TLS server whose certificate has expired.
    TlsExpired,
    /// A TLS server whose certificate is for another host name.
    TlsWrongHost,
    /// A server that answers the ClientHello with a `handshake_failure` alert.
    TlsHandshakeFailure,
    /// A plain HTTP server on the TLS port.
    TlsNotTls,
}

impl FetchEvent {
    /// Parses the `input.event` string.
    pub fn parse(text: &str) -> Result<FetchEvent, String> {
        let number = |value: &str| -> Result<u64, String> {
            value
                .parse()
                .map_err(|_| format!("event `{text}`: `{value}` is not a number"))
        };
        let simple = match text {
            "redirect-loop" => Some(FetchEvent::RedirectLoop),
            "redirect-cross-host" => Some(FetchEvent::RedirectCrossHost),
            "redirect-cross-scheme" => Some(FetchEvent::RedirectCrossScheme),
            "html-meta-refresh" => Some(FetchEvent::HtmlMetaRefresh),
            "gzip" => Some(FetchEvent::Gzip),
            "dns-failure" => Some(FetchEvent::DnsFailure),
            "connection-refused" => Some(FetchEvent::ConnectionRefused),
            "timeout" => Some(FetchEvent::Timeout),
            "invalid-response" => Some(FetchEvent::InvalidResponse),
            "reset" => Some(FetchEvent::Reset),
            "interrupted" => Some(FetchEvent::Interrupted),
            "chunking-error" => Some(FetchEvent::ChunkingError),
            "truncated-body" => Some(FetchEvent::TruncatedBody),
            "ftp-retr-ok" => Some(FetchEvent::FtpRetrOk),
            "ftp-550" => Some(FetchEvent::Ftp550),
            "ftp-login-refused" => Some(FetchEvent::FtpLoginRefused),
            "ftp-silent" => Some(FetchEvent::FtpSilent),
            "tls-unknown-issuer" => Some(FetchEvent::TlsUnknownIssuer),
            "tls-expired" => Some(FetchEvent::TlsExpired),
            "tls-wrong-host" => Some(FetchEvent::TlsWrongHost),
            "tls-handshake-failure" => Some(FetchEvent::TlsHandshakeFailure),
            "tls-not-tls" => Some(FetchEvent::TlsNotTls),
            _ => None,
        };
        if let Some(event) = simple {
            return Ok(event);
        }
        let Some((name, value)) = text.split_once(':') else {
            return Err(format!("unknown event `{text}`"));
        };
        match name {
            "redirects" => {
                let hops = u32::try_from(number(value)?)
                    .map_err(|_| format!("event `{text}`: too many redirects"))?;
                Ok(FetchEvent::Redirects(hops))
            }
            "body-bytes" => Ok(FetchEvent::BodyBytes(number(value)?)),
            "gzip-bomb-bytes" => Ok(FetchEvent::GzipBombBytes(number(value)?)),
            "cached-for-hours" => Ok(FetchEvent::CachedFor(HOUR * hours(number(value)?)?)),
            "unreachable-days" | "unreachable-hours" => {
                let (count, copy) = value.split_once(',').ok_or_else(|| {
                    format!("event `{text}` needs `,cached-copy` or `,no-cached-copy`")
                })?;
                let cached_copy = match copy {
                    "cached-copy" => true,
                    "no-cached-copy" => false,
                    other => {
                        return Err(format!(
                        "event `{text}`: `{other}` is neither `cached-copy` nor `no-cached-copy`"
                    ))
                    }
                };
                let unit = if name == "unreachable-days" { 24 } else { 1 };
                let count = number(count)?.saturating_mul(unit);
                Ok(FetchEvent::Unreachable {
                    for_: HOUR * hours(count)?,
                    cached_copy,
                })
            }
            _ => Err(format!("unknown event `{text}`")),
        }
    }

    /// Whether the event happens on an FTP server.
    pub fn is_ftp(self) -> bool {
        matches!(
            self,
            FetchEvent::FtpRetrOk
                | FetchEvent::Ftp550
                | FetchEvent::FtpLoginRefused
                | FetchEvent::FtpSilent
        )
    }

    /// Whether the event is a TLS failure (only with `scheme: https`).
    pub fn is_tls(self) -> bool {
        matches!(
            self,
            FetchEvent::TlsUnknownIssuer
                | FetchEvent::TlsExpired
                | FetchEvent::TlsWrongHost
                | FetchEvent::TlsHandshakeFailure
                | FetchEvent::TlsNotTls
        )
    }
}

impl fmt::Display for FetchEvent {
    /// The event as the case format spells it (`unreachable-…` in days when whole days).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hours = |duration: &Duration| duration.as_secs() / 3600;
        match self {
            FetchEvent::Redirects(hops) => write!(f, "redirects:{hops}"),
            FetchEvent::RedirectLoop => f.write_str("redirect-loop"),
            FetchEvent::RedirectCrossHost => f.write_str("redirect-cross-host"),
            FetchEvent::RedirectCrossScheme => f.write_str("redirect-cross-scheme"),
            FetchEvent::HtmlMetaRefresh => f.write_str("html-meta-refresh"),
            FetchEvent::Gzip => f.write_str("gzip"),
            FetchEvent::BodyBytes(bytes) => write!(f, "body-bytes:{bytes}"),
            FetchEvent::GzipBombBytes(bytes) => write!(f, "gzip-bomb-bytes:{bytes}"),
            FetchEvent::DnsFailure => f.write_str("dns-failure"),
            FetchEvent::ConnectionRefused => f.write_str("connection-refused"),
            FetchEvent::Timeout => f.write_str("timeout"),
            FetchEvent::InvalidResponse => f.write_str("invalid-response"),
            FetchEvent::Reset => f.write_str("reset"),
            FetchEvent::Interrupted => f.write_str("interrupted"),
            FetchEvent::ChunkingError => f.write_str("chunking-error"),
            FetchEvent::TruncatedBody => f.write_str("truncated-body"),
            FetchEvent::Unreachable { for_, cached_copy } => {
                let copy = if *cached_copy {
                    "cached-copy"
                } else {
                    "no-cached-copy"
                };
                match hours(for_) {
                    h if h % 24 == 0 => write!(f, "unreachable-days:{},{copy}", h / 24),
                    h => write!(f, "unreachable-hours:{h},{copy}"),
                }
            }
            FetchEvent::CachedFor(after) => write!(f, "cached-for-hours:{}", hours(after)),
            FetchEvent::FtpRetrOk => f.write_str("ftp-retr-ok"),
            FetchEvent::Ftp550 => f.write_str("ftp-550"),
            FetchEvent::FtpLoginRefused => f.write_str("ftp-login-refused"),
            FetchEvent::FtpSilent => f.write_str("ftp-silent"),
            FetchEvent::TlsUnknownIssuer => f.write_str("tls-unknown-issuer"),
            FetchEvent::TlsExpired => f.write_str("tls-expired"),
            FetchEvent::TlsWrongHost => f.write_str("tls-wrong-host"),
            FetchEvent::TlsHandshakeFailure => f.write_str("tls-handshake-failure"),
            FetchEvent::TlsNotTls => f.write_str("tls-not-tls"),
        }
    }
}

impl TryFrom<String> for FetchEvent {
    type Error = String;

    fn try_from(text: String) -> Result<FetchEvent, String> {
        FetchEvent::parse(&text)
    }
}

impl From<FetchEvent> for String {
    fn from(event: FetchEvent) -> String {
        event.to_string()
    }
}

/// Hours as the `u32` a `Duration` multiplies by (at most about 490,000 years).
fn hours(count: u64) -> Result<u32, String> {
    u32::try_from(count).map_err(|_| format!("{count} hours is too long"))
}

/// A `fetch` case: what the server does and what must come of it.
pub type FetchTest = Spec<FetchInput, FetchObservation>;

/// The input of a `fetch` case: what the server (or the network) does.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FetchInput {
    /// The scheme of the robots.txt URL.
    pub scheme: Scheme,
    /// The HTTP status of the final response, if the case is about one.
    pub status: Option<u16>,
    /// The event, if the case is about one.
    pub event: Option<FetchEvent>,
    /// Response headers of the final response, in name order.
    #[serde(default, deserialize_with = "header_map")]
    pub headers: Vec<(String, String)>,
    /// The status of the redirects of `redirects:N` (default 301).
    pub redirect_status: Option<u16>,
    /// How to read 429: `unreachable` (the default) or `unavailable`.
    #[serde(default)]
    pub too_many_requests: TooManyRequests,
}

/// The scheme of a fetch case's URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// `http`
    Http,
    /// `https` (run against a loopback TLS server whose CA is made for the run)
    Https,
    /// `ftp`
    Ftp,
}

impl Scheme {
    /// The scheme as URLs spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
            Scheme::Ftp => "ftp",
        }
    }
}

/// `input.headers`: an object of strings.
fn header_map<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    Ok(
        std::collections::BTreeMap::<String, String>::deserialize(d)?
            .into_iter()
            .collect(),
    )
}

/// What a fetch case expects (`expect`), and what it observed, in the same terms.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchObservation {
    /// `success`, `unavailable` or `unreachable`: the latest fetch's access result.
    pub access: String,
    /// `conditional`, `full-allow` or `full-disallow`: the verdict class applied.
    pub verdict: Option<String>,
    /// Requests for the robots.txt.
    pub fetches: Option<usize>,
    /// Body bytes kept.
    pub bytes: Option<usize>,
    /// Whether the body was cut at the size limit.
    pub truncated: Option<bool>,
}

impl fmt::Display for FetchObservation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "access {}", self.access)?;
        if let Some(verdict) = &self.verdict {
            write!(f, ", verdict {verdict}")?;
        }
        if let Some(fetches) = self.fetches {
            write!(f, ", {fetches} fetches")?;
        }
        if let Some(bytes) = self.bytes {
            write!(f, ", {bytes} bytes kept")?;
        }
        if let Some(truncated) = self.truncated {
            f.write_str(if truncated {
                ", truncated"
            } else {
                ", not truncated"
            })?;
        }
        Ok(())
    }
}

/// The checks across the fields of a `fetch` case.
pub(crate) fn check(test: &FetchTest) -> Result<(), String> {
    let (input, expect) = (&test.input, &test.expect);
    if input.status.is_none() && input.event.is_none() {
        return Err("`input` needs `status` or `event`".to_owned());
    }
    if input.event.is_some_and(FetchEvent::is_ftp) != (input.scheme == Scheme::Ftp) {
        return Err("FTP events go with `scheme: ftp`, and only they".to_owned());
    }
    if input.event.is_some_and(FetchEvent::is_tls) && input.scheme != Scheme::Https {
        return Err("TLS events go with `scheme: https`".to_owned());
    }
    one_of(
        "expect.access",
        &expect.access,
        &["success", "unavailable", "unreachable"],
    )?;
    if let Some(verdict) = &expect.verdict {
        one_of(
            "expect.verdict",
            verdict,
            &["conditional", "full-allow", "full-disallow"],
        )?;
    }
    Ok(())
}

fn one_of(field: &str, value: &str, known: &[&str]) -> Result<(), String> {
    if known.contains(&value) {
        return Ok(());
    }
    Err(format!(
        "`{field}` is `{value}`; expected {}",
        known.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("redirects:5", FetchEvent::Redirects(5))]
    #[case("redirect-loop", FetchEvent::RedirectLoop)]
    #[case("body-bytes:600000", FetchEvent::BodyBytes(600_000))]
    #[case("cached-for-hours:25", FetchEvent::CachedFor(HOUR * 25))]
    #[case("unreachable-days:31,cached-copy", FetchEvent::Unreachable { for_: HOUR * 24 * 31, cached_copy: true })]
    #[case("unreachable-hours:13,no-cached-copy", FetchEvent::Unreachable { for_: HOUR * 13, cached_copy: false })]
    #[case("ftp-550", FetchEvent::Ftp550)]
    fn events_parse_and_print_back(#[case] text: &str, #[case] event: FetchEvent) {
        assert_eq!(FetchEvent::parse(text), Ok(event));
        assert_eq!(event.to_string(), text);
    }

    #[rstest]
    #[case("teleport")]
    #[case("redirects:many")]
    #[case("unreachable-days:3")]
    #[case("unreachable-days:3,maybe")]
    #[case("cached-for-hours:99999999999")]
    fn bad_events_are_rejected(#[case] text: &str) {
        assert!(FetchEvent::parse(text).is_err(), "{text}");
    }

    #[test]
    fn the_expectation_shows_only_what_the_case_checks() {
        let test: FetchTest = serde_json::from_value(serde_json::json!({
            "input": {"scheme": "http", "event": "body-bytes:600000", "headers": {"content-type": "text/html"}},
            "expect": {"access": "success", "verdict": "conditional", "bytes": 511992, "truncated": true},
        }))
        .unwrap();
        assert_eq!(check(&test), Ok(()));
        assert_eq!(
            test.expect.to_string(),
            "access success, verdict conditional, 511992 bytes kept, truncated"
        );
        assert_eq!(
            test.input.headers,
            vec![("content-type".to_owned(), "text/html".to_owned())]
        );
        assert_eq!(test.input.event, Some(FetchEvent::BodyBytes(600_000)));
    }
}
