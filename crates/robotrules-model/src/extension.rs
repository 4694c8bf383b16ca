//! Extension records: the "other records" of RFC 9309 §2.2.4 (crawl-delay, request-rate,
//! visit-time, host, clean-param, content-signal, content-usage, license, llm-policy, and any
//! other key), kept per group and globally, with typed readings of the common ones.
//!
//! A parsed file keeps them, with the sitemaps, as compact [`Record`]s (ranges of its text);
//! they become [`Extension`] values ([`Extensions`]) the first time someone asks for them.

use crate::text::Text;
use std::time::Duration;

/// The extension records robotrules knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum ExtensionKey {
    /// `crawl-delay: <seconds>` (Bing, Yandex, many others).
    CrawlDelay,
    /// `request-rate: <n>/<seconds>` (the 1996 extended standard).
    RequestRate,
    /// `visit-time: HHMM-HHMM`.
    VisitTime,
    /// `host: example.com` (Yandex mirror host; file-wide).
    Host,
    /// `clean-param: …` (Yandex).
    CleanParam,
    /// `content-signal: …` (Cloudflare's content signals).
    ContentSignal,
    /// `content-usage: [path] …` (IETF AI preferences, draft-ietf-aipref-attach-05 §3): a
    /// group rule, read by [`crate::Usage`].
    ContentUsage,
    /// `license: <URL>` (Really Simple Licensing, RSL 1.0): file-wide, like `sitemap`.
    License,
    /// `llm-policy: <URL>`: file-wide, like `sitemap`.
    LlmPolicy,
    /// Any other key.
    Other,
}

impl ExtensionKey {
    /// Recognise a key (ASCII case-insensitive, exact).
    pub fn from_key(key: &[u8]) -> ExtensionKey {
        // Every known key is 4 to 14 bytes long and starts with one of `c`, `r`, `v`, `h`, `l`.
        if !(4..=14).contains(&key.len())
            || !matches!(
                key[0].to_ascii_lowercase(),
                b'c' | b'r' | b'v' | b'h' | b'l'
            )
        {
            return ExtensionKey::Other;
        }
        const KNOWN: [(&str, ExtensionKey); 9] = [
            ("crawl-delay", ExtensionKey::CrawlDelay),
            ("request-rate", ExtensionKey::RequestRate),
            ("visit-time", ExtensionKey::VisitTime),
            ("host", ExtensionKey::Host),
            ("clean-param", ExtensionKey::CleanParam),
            ("content-signal", ExtensionKey::ContentSignal),
            ("content-usage", ExtensionKey::ContentUsage),
            ("license", ExtensionKey::License),
            ("llm-policy", ExtensionKey::LlmPolicy),
        ];
        KNOWN
            .iter()
            .find(|(name, _)| name.as_bytes().eq_ignore_ascii_case(key))
            .map_or(ExtensionKey::Other, |&(_, k)| k)
    }

    /// Records that describe the group they stand in (they do not close its user-agent list:
    /// RFC 9309 §2.2.4; lint warns when one stands between user-agent lines).
    pub const fn is_group_member(self) -> bool {
        matches!(
            self,
            ExtensionKey::CrawlDelay
                | ExtensionKey::RequestRate
                | ExtensionKey::VisitTime
                | ExtensionKey::ContentSignal
                | ExtensionKey::ContentUsage
        )
    }

    /// Records that describe the whole file whatever group they stand in.
    pub const fn is_file_wide(self) -> bool {
        matches!(
            self,
            ExtensionKey::Host | ExtensionKey::License | ExtensionKey::LlmPolicy
        )
    }

    /// Records whose value is a URL, resolved against the robots.txt URL as sitemaps are
    /// (`license`, `llm-policy`).
    pub const fn is_url(self) -> bool {
        matches!(self, ExtensionKey::License | ExtensionKey::LlmPolicy)
    }
}

/// One extension record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Extension {
    /// The recognised key.
    pub kind: ExtensionKey,
    /// The key as written (lossy UTF-8).
    pub key: String,
    /// The value as written (lossy UTF-8), trimmed, without comment.
    pub value: String,
    /// 1-based line number.
    pub line: u32,
}

/// What a [`Record`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RecordKind {
    /// A `sitemap:` line (its value is the URL; it has no key).
    Sitemap,
    /// An extension record.
    Extension(ExtensionKey),
}

/// A sitemap or extension line, compact: its key and value lie back to back in the file's
/// text, both valid UTF-8 (invalid sequences were replaced when parsing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) line: u32,
    /// The group it stands in, or [`Record::FILE`] for a file-wide record.
    pub(crate) group: u32,
    pub(crate) kind: RecordKind,
    pub(crate) start: u32,
    pub(crate) key_len: u32,
    pub(crate) value_len: u32,
}

impl Record {
    /// The `group` of a record that belongs to no group.
    pub(crate) const FILE: u32 = u32::MAX;

    fn key(self, text: &[u8]) -> &str {
        as_str(
            Text {
                start: self.start,
                len: self.key_len,
            }
            .get(text),
        )
    }

    pub(crate) fn value(self, text: &[u8]) -> &str {
        as_str(
            Text {
                start: self.start.saturating_add(self.key_len),
                len: self.value_len,
            }
            .get(text),
        )
    }

    /// The record as an [`Extension`] value, when it is one (not a sitemap).
    pub(crate) fn extension(self, text: &[u8]) -> Option<Extension> {
        let RecordKind::Extension(kind) = self.kind else {
            return None;
        };
        Some(Extension {
            kind,
            key: self.key(text).to_owned(),
            value: self.value(text).to_owned(),
            line: self.line,
        })
    }

    /// The value as a crawl delay, without making an [`Extension`].
    pub(crate) fn crawl_delay(self, text: &[u8]) -> Option<Duration> {
        if self.kind != RecordKind::Extension(ExtensionKey::CrawlDelay) {
            return None;
        }
        parse_crawl_delay(self.value(text))
    }
}

/// Text stored as valid UTF-8 by the parser; anything else reads as empty.
fn as_str(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

/// `request-rate: <requests>/<seconds>[s|m|h]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RequestRate {
    /// Number of requests…
    pub requests: u32,
    /// …per this many seconds.
    pub seconds: u32,
}

impl RequestRate {
    /// `requests` requests per `seconds` seconds.
    pub const fn new(requests: u32, seconds: u32) -> RequestRate {
        RequestRate { requests, seconds }
    }

    /// The time the rate leaves between two requests: `seconds / requests` (the whole window
    /// when `requests` is 0).
    pub fn interval(&self) -> Duration {
        Duration::from_secs(u64::from(self.seconds)) / self.requests.max(1)
    }
}

impl std::fmt::Display for RequestRate {
    /// `1 request per 5 seconds`, `3 requests per 15 seconds`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: u32| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{} request{} per {} second{}",
            self.requests,
            plural(self.requests),
            self.seconds,
            plural(self.seconds)
        )
    }
}

impl Extension {
    /// The value as a crawl delay: a finite, non-negative number of seconds.
    pub fn crawl_delay(&self) -> Option<Duration> {
        if self.kind != ExtensionKey::CrawlDelay {
            return None;
        }
        parse_crawl_delay(&self.value)
    }

    /// The value as a request rate.
    pub fn request_rate(&self) -> Option<RequestRate> {
        if self.kind != ExtensionKey::RequestRate {
            return None;
        }
        let (n, per) = self.value.trim().split_once('/')?;
        let per = per.trim();
        let (digits, unit) = match per.find(|c: char| !c.is_ascii_digit()) {
            Some(i) => per.split_at(i),
            None => (per, ""),
        };
        let factor = match unit.trim() {
            "" | "s" => 1,
            "m" => 60,
            "h" => 3600,
            _ => return None,
        };
        let seconds = digits.parse::<u32>().ok()?.checked_mul(factor)?;
        let requests = n.trim().parse::<u32>().ok()?;
        (seconds > 0).then_some(RequestRate { requests, seconds })
    }
}

/// A crawl delay in seconds: a finite, non-negative number that fits a [`Duration`].
fn parse_crawl_delay(value: &str) -> Option<Duration> {
    let seconds = value.trim().parse::<f64>().ok()?;
    Duration::try_from_secs_f64(seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ext(key: &str, value: &str) -> Extension {
        Extension {
            kind: ExtensionKey::from_key(key.as_bytes()),
            key: key.into(),
            value: value.into(),
            line: 1,
        }
    }

    /// The premise of `from_key`'s early exit.
    #[test]
    fn known_keys_are_4_to_14_bytes_and_start_with_c_r_v_h_or_l() {
        for name in [
            "crawl-delay",
            "request-rate",
            "visit-time",
            "host",
            "clean-param",
            "content-signal",
            "content-usage",
            "license",
            "llm-policy",
        ] {
            assert!((4..=14).contains(&name.len()), "{name}");
            assert!(matches!(
                name.as_bytes()[0],
                b'c' | b'r' | b'v' | b'h' | b'l'
            ));
            assert_ne!(ExtensionKey::from_key(name.as_bytes()), ExtensionKey::Other);
            let upper = name.to_ascii_uppercase();
            assert_ne!(
                ExtensionKey::from_key(upper.as_bytes()),
                ExtensionKey::Other
            );
        }
    }

    #[test]
    fn typed_readings() {
        assert_eq!(
            ext("Crawl-Delay", "2.5").crawl_delay(),
            Some(Duration::from_millis(2500))
        );
        assert_eq!(ext("crawl-delay", "inf").crawl_delay(), None);
        assert_eq!(
            RequestRate {
                requests: 3,
                seconds: 15
            }
            .interval(),
            Duration::from_secs(5)
        );
        assert_eq!(
            RequestRate {
                requests: 1,
                seconds: 5
            }
            .to_string(),
            "1 request per 5 seconds"
        );
        assert_eq!(ext("crawl-delay", "-1").crawl_delay(), None);
        assert_eq!(ext("crawl-delay", "soon").crawl_delay(), None);
        assert_eq!(ext("host", "1").crawl_delay(), None);
        assert_eq!(
            ext("request-rate", "3/15").request_rate(),
            Some(RequestRate {
                requests: 3,
                seconds: 15
            })
        );
        assert_eq!(
            ext("request-rate", "1/5m").request_rate(),
            Some(RequestRate {
                requests: 1,
                seconds: 300
            })
        );
        assert_eq!(ext("request-rate", "whale/banana").request_rate(), None);
        assert_eq!(ext("x-custom", "1").kind, ExtensionKey::Other);
    }
}
