//! Reading the response headers that decide freshness (RFC 9111 §5.2, §5.3, §5.1) and the
//! retry delay (RFC 9110 §10.2.3). Pure functions over header values.

// Without the `fuzz` feature only this crate calls the parsers.
#![cfg_attr(not(feature = "fuzz"), allow(unreachable_pub))]

use std::time::{Duration, SystemTime};

/// The largest delta-seconds value honoured; larger values are read as this one
/// (RFC 9111 §1.2.2: "2147483648 (2^31)").
const MAX_DELTA_SECONDS: u64 = 1 << 31;

/// The freshness-relevant directives of a `Cache-Control` header (RFC 9111 §5.2.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheControl {
    /// `max-age`: `Some(Duration::ZERO)` when present but invalid, which RFC 9111 §4.2.1 says
    /// to read as stale.
    pub max_age: Option<Duration>,
    /// `no-store`: the response must not be stored.
    pub no_store: bool,
    /// `no-cache`: the response must not be used without revalidation; with unconditional
    /// fetches that means a lifetime of zero.
    pub no_cache: bool,
}

impl CacheControl {
    /// Parses a `Cache-Control` value (directives separated by commas, names
    /// case-insensitive, `max-age` taken from its first occurrence).
    pub fn parse(value: &str) -> Self {
        let mut parsed = Self::default();
        for directive in value.split(',') {
            let (name, argument) = match directive.split_once('=') {
                Some((name, argument)) => (name.trim(), Some(argument.trim())),
                None => (directive.trim(), None),
            };
            if name.eq_ignore_ascii_case("no-store") {
                parsed.no_store = true;
            } else if name.eq_ignore_ascii_case("no-cache") {
                parsed.no_cache = true;
            } else if name.eq_ignore_ascii_case("max-age") && parsed.max_age.is_none() {
                let seconds = argument
                    .map(|argument| argument.trim_matches('"'))
                    .and_then(parse_delta_seconds)
                    .unwrap_or(0);
                parsed.max_age = Some(Duration::from_secs(seconds));
            }
        }
        parsed
    }
}

/// Parses delta-seconds (RFC 9111 §1.2.2): ASCII digits only, capped at 2^31.
pub fn parse_delta_seconds(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    Some(
        value
            .parse::<u64>()
            .map_or(MAX_DELTA_SECONDS, |seconds| seconds.min(MAX_DELTA_SECONDS)),
    )
}

/// Parses an HTTP date (IMF-fixdate, RFC 850 or asctime form, RFC 9110 §5.6.7).
pub fn parse_http_date(value: &str) -> Option<SystemTime> {
    httpdate::parse_http_date(value.trim()).ok()
}

/// Reads a `Retry-After` value (RFC 9110 §10.2.3): delay-seconds, or an HTTP date taken
/// relative to `base` (the response's `Date`, or when the fetch started). A date in the past
/// is a delay of zero; an unreadable value is `None`.
pub fn parse_retry_after(value: &str, base: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Some(seconds) = parse_delta_seconds(value) {
        return Some(Duration::from_secs(seconds));
    }
    let at = parse_http_date(value)?;
    Some(at.duration_since(base).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn secs(seconds: u64) -> Option<Duration> {
        Some(Duration::from_secs(seconds))
    }

    #[test]
    fn examples() {
        let cc = CacheControl::parse("public, Max-Age=\"600\"");
        assert_eq!(cc.max_age, secs(600));
        assert!(!cc.no_store);
        let base = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777);
        assert_eq!(parse_retry_after("120", base), secs(120));
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:50:37 GMT", base),
            secs(60)
        );
    }

    #[rstest]
    #[case("", None, false, false)]
    #[case("max-age=3600", secs(3600), false, false)]
    #[case("MAX-AGE=60, public", secs(60), false, false)]
    #[case("public,max-age=\"120\"", secs(120), false, false)]
    #[case("max-age = 30", secs(30), false, false)]
    #[case("max-age=abc", secs(0), false, false)]
    #[case("max-age=-5", secs(0), false, false)]
    #[case("max-age", secs(0), false, false)]
    #[case("max-age=10, max-age=20", secs(10), false, false)]
    #[case("max-age=99999999999999999999", secs(1 << 31), false, false)]
    #[case("no-store", None, true, false)]
    #[case("No-Cache, max-age=5", secs(5), false, true)]
    #[case("private, no-store, max-age=100", secs(100), true, false)]
    #[case("s-maxage=100", None, false, false)]
    fn cache_control_is_parsed(
        #[case] value: &str,
        #[case] max_age: Option<Duration>,
        #[case] no_store: bool,
        #[case] no_cache: bool,
    ) {
        assert_eq!(
            CacheControl::parse(value),
            CacheControl {
                max_age,
                no_store,
                no_cache
            }
        );
    }

    #[rstest]
    #[case("0", secs(0))]
    #[case("  17 ", secs(17))]
    #[case("1.5", None)]
    #[case("soon", None)]
    #[case("Thu, 01 Jan 1970 00:00:00 GMT", secs(0))]
    #[case("Thu, 01 Jan 1970 00:10:00 GMT", secs(0))]
    #[case("Thu, 01 Jan 1970 01:00:00 GMT", secs(600))]
    fn retry_after_is_parsed(#[case] value: &str, #[case] expected: Option<Duration>) {
        let base = SystemTime::UNIX_EPOCH + Duration::from_secs(3000);
        assert_eq!(parse_retry_after(value, base), expected);
    }
}
