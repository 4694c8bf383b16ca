//! Google's reading of URLs and patterns, ported from google/robotstxt (`robots.cc`).
//!
//! The `google` profile aims at bit-for-bit agreement with Google's reference library
//! (`reference/google-reference-behaviour.md`, groups G6 and G7). Two functions matter here:
//!
//! - `GetPathParamsQuery` ([`path_params_query`]) cuts a URL down to path, params and query by
//!   plain string search. It never fails and does not normalise anything (no `..` removal, no
//!   case folding, no escaping); the caller is expected to pass a URL that is already
//!   percent-encoded per RFC 3986.
//! - `MaybeEscapePattern` ([`escape_pattern`]) normalises an allow/disallow value: octets at or
//!   above 0x80 are percent-encoded, existing `%xx` escapes are upper-cased, nothing else.
//!
//! Where this differs from RFC 9309 (the URL is not normalised, `%62` is not decoded, reserved
//! characters in the query are compared verbatim) is listed in `docs/profiles.md`; the RFC
//! reading is in [`crate::target_path`] and [`crate::canonical`].
//!
//! One representational difference: Google processes lines as C strings, so a NUL byte ends a
//! pattern there. [`escape_pattern`] takes a byte slice and copies a NUL like any other ASCII
//! byte; cutting the line at NUL is the grammar layer's job.

use std::borrow::Cow;

use crate::percent::{hex_value, push_escaped};

/// Google's `GetPathParamsQuery`: the path, params and query of `url`, always starting with `/`.
///
/// Never fails: without a path the result is `/`. Ported step by step from `robots.cc`:
///
/// 1. Two initial slashes (`//host/...`) are skipped: they introduce an authority.
/// 2. `://` counts as the end of a scheme only if it comes before the first `/`, `?` or `;`.
/// 3. The path starts at the first `/`, `?` or `;` after the scheme (and authority); none → `/`.
/// 4. A `#` before that point → `/`; otherwise the result ends at the first `#`.
/// 5. A result that does not start with `/` (it starts with `?` or `;`) gets one prepended.
///
/// Borrows from `url` unless step 5 applies. Note that a URL without a scheme is read as
/// host first: `a/b` → `/b`.
///
/// ```
/// use robotrules_url::google::path_params_query;
/// assert_eq!(path_params_query("http://www.example.com/a/b?c=d&e=f#fragment"), "/a/b?c=d&e=f");
/// assert_eq!(path_params_query("example.com?a"), "/?a");
/// assert_eq!(path_params_query("//a/b/c"), "/b/c");
/// ```
pub fn path_params_query(url: &str) -> Cow<'_, str> {
    match path_params_query_span(url.as_bytes()) {
        Pqs::Span(start, end) => Cow::Borrowed(&url[start..end]),
        Pqs::Root => Cow::Borrowed("/"),
        // "Prepend a slash if the result would start e.g. with '?'."
        Pqs::Prefixed(start, end) => Cow::Owned(format!("/{}", &url[start..end])),
    }
}

/// Where [`path_params_query`]'s result lies in the URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pqs {
    /// `url[start..end]`, which starts with `/`.
    Span(usize, usize),
    /// `/` alone.
    Root,
    /// `/` followed by `url[start..end]` (which starts with `?` or `;`).
    Prefixed(usize, usize),
}

/// [`path_params_query`] as a place in `bytes`, in one scan up to the path and one search for
/// the fragment after it.
#[inline]
pub(crate) fn path_params_query_span(bytes: &[u8]) -> Pqs {
    // "Initial two slashes are ignored."
    let search_start = if bytes.starts_with(b"//") { 2 } else { 0 };
    // The first of "/?;" after `search_start`. Google also searches the first "://" and keeps
    // it only when it comes before this position. "://" holds a '/' itself, so that happens
    // exactly when this very '/' is the middle of a "://", which we check in place: one scan.
    // A "#" before the path start makes everything after it the fragment: the result is "/".
    let early_path = match bytes {
        // The common case needs no search: in a URL that starts `http://` or `https://`, the
        // first of "/?;#" is the first slash of the "://".
        [b'h', b't', b't', b'p', b':', b'/', b'/', ..] => 5,
        [b'h', b't', b't', b'p', b's', b':', b'/', b'/', ..] => 6,
        _ => match find_path_start(bytes, search_start) {
            Some(at) => at,
            None => return Pqs::Root,
        },
    };
    let is_protocol_separator = early_path > search_start
        && bytes[early_path] == b'/'
        && bytes[early_path - 1] == b':'
        && bytes.get(early_path + 1) == Some(&b'/');
    let path_start = if is_protocol_separator {
        // Past "://": `protocol_end + 3` in robots.cc.
        match find_path_start(bytes, early_path + 2) {
            Some(start) => start,
            None => return Pqs::Root,
        }
    } else {
        early_path
    };
    let path_end = robotrules_bytes::find_byte(&bytes[path_start..], b'#')
        .map_or(bytes.len(), |at| path_start + at);
    if bytes[path_start] == b'/' {
        Pqs::Span(path_start, path_end)
    } else {
        Pqs::Prefixed(path_start, path_end)
    }
}

/// Index of the first `/`, `?` or `;` at or after `from` (`find_first_of("/?;", from)`), or
/// `None` when there is none or a `#` comes first (the path would start in the fragment). It
/// is near: after a scheme or a host.
#[inline]
fn find_path_start(bytes: &[u8], from: usize) -> Option<usize> {
    let at = from + robotrules_bytes::find_any(bytes.get(from..)?, [b'/', b'?', b';', b'#'])?;
    (bytes[at] != b'#').then_some(at)
}

/// Google's `MaybeEscapePattern`: octets at or above 0x80 are percent-encoded with upper-case
/// hex (`ツ` → `%E3%83%84`), existing `%xx` escapes are upper-cased (`%aa` → `%AA`), and nothing
/// else changes (ASCII, reserved characters, spaces, a `%` without two hex digits).
///
/// Borrows `pattern` when nothing changes (the common case), so no allocation then.
///
/// ```
/// use robotrules_url::google::escape_pattern;
/// assert_eq!(&*escape_pattern("/foo/bar/ツ".as_bytes()), b"/foo/bar/%E3%83%84");
/// assert_eq!(&*escape_pattern(b"/a%2fb%zz"), b"/a%2Fb%zz");
/// ```
pub fn escape_pattern(pattern: &[u8]) -> Cow<'_, [u8]> {
    // The common case: nothing to escape or upper-case (no octet >= 0x80, no `%`), found
    // sixteen octets at a time; the first that may change is where the copying starts.
    let Some(first) = robotrules_bytes::find_high_or(pattern, [b'%']) else {
        return Cow::Borrowed(pattern);
    };
    let mut out = Vec::new();
    // `pattern[copied..i]` is unchanged text not yet copied to `out`.
    let mut copied = 0;
    let mut i = first;
    while i < pattern.len() {
        let byte = pattern[i];
        if byte == b'%' {
            let high = pattern.get(i + 1).copied();
            let low = pattern.get(i + 2).copied();
            if let (Some(high), Some(low)) = (high, low) {
                if hex_value(high).is_some() && hex_value(low).is_some() {
                    // "(a) Normalize %-escaped sequence (eg. %2f -> %2F)."
                    if high.is_ascii_lowercase() || low.is_ascii_lowercase() {
                        out.extend_from_slice(&pattern[copied..i]);
                        out.extend_from_slice(&[
                            b'%',
                            high.to_ascii_uppercase(),
                            low.to_ascii_uppercase(),
                        ]);
                        copied = i + 3;
                    }
                    i += 3;
                    continue;
                }
            }
        } else if byte >= 0x80 {
            // "(b) %-escape octets whose highest bit is set."
            out.extend_from_slice(&pattern[copied..i]);
            push_escaped(&mut out, byte);
            copied = i + 1;
        }
        // "(c) Normal character, no modification needed."
        i += 1;
    }
    if copied == 0 {
        Cow::Borrowed(pattern)
    } else {
        out.extend_from_slice(&pattern[copied..]);
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// google/robotstxt `robots_test.cc`, TEST(RobotsUnittest, TestGetPathParamsQuery): all 19
    /// assertions, in their order.
    #[rstest]
    #[case("", "/")]
    #[case("http://www.example.com", "/")]
    #[case("http://www.example.com/", "/")]
    #[case("http://www.example.com/a", "/a")]
    #[case("http://www.example.com/a/", "/a/")]
    #[case("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/")]
    #[case("http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f")]
    #[case("example.com", "/")]
    #[case("example.com/", "/")]
    #[case("example.com/a", "/a")]
    #[case("example.com/a/", "/a/")]
    #[case("example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f")]
    #[case("a", "/")]
    #[case("a/", "/")]
    #[case("/a", "/a")]
    #[case("a/b", "/b")]
    #[case("example.com?a", "/?a")]
    #[case("example.com/a;b#c", "/a;b")]
    #[case("//a/b/c", "/b/c")]
    fn google_get_path_params_query(#[case] url: &str, #[case] path: &str) {
        assert_eq!(path_params_query(url), path);
    }

    /// Behaviour of the ported code beyond Google's tests (no normalisation at all).
    #[rstest]
    #[case("http://example.com/a/../b//c", "/a/../b//c")]
    #[case("http://example.com/%7e/ü", "/%7e/ü")]
    #[case("http://example.com#a/b", "/")]
    #[case("http://example.com/a#b/c", "/a")]
    #[case("http://example.com;p", "/;p")]
    #[case("a:b/c://d/e", "/c://d/e")]
    #[case("//x://y/z", "/z")]
    #[case("//", "/")]
    #[case("///", "/")]
    #[case("http://", "/")]
    #[case("http:/", "/")]
    #[case("://a/b", "/b")]
    #[case("#", "/")]
    #[case("?", "/?")]
    fn beyond_googles_tests(#[case] url: &str, #[case] path: &str) {
        assert_eq!(path_params_query(url), path);
    }

    #[rstest]
    #[case("http://www.example.com/a/b?c=d")]
    #[case("http://www.example.com/a/b?c=d#e")]
    #[case("/a/b?c=d")]
    #[case("")]
    #[case("example.com")]
    fn path_params_query_borrows(#[case] url: &str) {
        assert!(matches!(path_params_query(url), Cow::Borrowed(_)), "{url}");
    }

    /// A literal port of `GetPathParamsQuery` from robots.cc (with `npos` as `None`), kept
    /// naive on purpose: the single-scan version above must agree with it on every input.
    fn reference(url: &str) -> String {
        let find_first_of = |from: usize| {
            url.get(from..)
                .and_then(|rest| rest.find(['/', '?', ';']))
                .map(|at| at + from)
        };
        let search_start = if url.starts_with("//") { 2 } else { 0 };
        let early_path = find_first_of(search_start);
        let mut protocol_end = url
            .get(search_start..)
            .and_then(|r| r.find("://"))
            .map(|at| at + search_start);
        if let (Some(early), Some(protocol)) = (early_path, protocol_end) {
            if early < protocol {
                protocol_end = None;
            }
        }
        let protocol_end = protocol_end.map_or(search_start, |at| at + 3);
        if let Some(path_start) = find_first_of(protocol_end) {
            let hash_pos = url
                .get(search_start..)
                .and_then(|r| r.find('#'))
                .map(|at| at + search_start);
            if hash_pos.is_some_and(|hash| hash < path_start) {
                return "/".to_owned();
            }
            let path_end = hash_pos.unwrap_or(url.len());
            let path = &url[path_start..path_end];
            if !path.starts_with('/') {
                return format!("/{path}");
            }
            return path.to_owned();
        }
        "/".to_owned()
    }

    #[test]
    fn single_scan_agrees_with_the_literal_port() {
        // Every string of length <= 6 over the alphabet that steers the algorithm.
        let alphabet = ['/', ':', '?', ';', '#', 'a'];
        let mut frontier = vec![String::new()];
        let mut checked = 0;
        for _ in 0..6 {
            let mut next = Vec::new();
            for prefix in &frontier {
                for c in alphabet {
                    let mut url = prefix.clone();
                    url.push(c);
                    assert_eq!(path_params_query(&url), reference(&url), "{url:?}");
                    checked += 1;
                    next.push(url);
                }
            }
            frontier = next;
        }
        assert_eq!(checked, (1..=6).map(|n| 6_usize.pow(n)).sum::<usize>());
    }

    /// The shortcut for URLs that start `http://` or `https://` (no search for the "://")
    /// agrees with the literal port whatever follows, and so do near misses that must search.
    #[test]
    fn the_http_shortcut_agrees_with_the_literal_port() {
        let alphabet = ['/', ':', '?', ';', '#', 'a'];
        let mut suffixes = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = suffixes
                .iter()
                .filter(|s| s.len() == suffixes.last().map_or(0, String::len))
                .flat_map(|s| alphabet.map(|c| format!("{s}{c}")))
                .collect();
            suffixes.extend(longer);
        }
        for prefix in [
            "http://",
            "https://",
            "http:/",
            "https:",
            "HTTP://",
            "httpx://",
            "//http://",
        ] {
            for suffix in &suffixes {
                let url = format!("{prefix}{suffix}");
                assert_eq!(path_params_query(&url), reference(&url), "{url:?}");
            }
        }
    }

    /// google/robotstxt `robots_test.cc`, TEST(RobotsUnittest, TestMaybeEscapePattern): all 4.
    #[rstest]
    #[case(b"http://www.example.com", b"http://www.example.com")]
    #[case(b"/a/b/c", b"/a/b/c")]
    #[case("á".as_bytes(), b"%C3%A1")]
    #[case(b"%aa", b"%AA")]
    fn google_maybe_escape_pattern(#[case] pattern: &[u8], #[case] escaped: &[u8]) {
        assert_eq!(&*escape_pattern(pattern), escaped);
    }

    #[rstest]
    #[case("/foo/bar/ツ".as_bytes(), b"/foo/bar/%E3%83%84")]
    #[case(b"/%e3%83%84", b"/%E3%83%84")]
    #[case(b"/%62%61%7a", b"/%62%61%7A")]
    #[case(b"/a b?c=http://d", b"/a b?c=http://d")]
    #[case(b"%", b"%")]
    #[case(b"%a", b"%a")]
    #[case(b"%zz%a", b"%zz%a")]
    #[case(b"%%aa", b"%%AA")]
    #[case(b"%a\xff", b"%a%FF")]
    #[case(b"\x80\xff", b"%80%FF")]
    #[case(b"*$", b"*$")]
    #[case(b"a\0b", b"a\0b")]
    fn escape_pattern_beyond_googles_tests(#[case] pattern: &[u8], #[case] escaped: &[u8]) {
        assert_eq!(&*escape_pattern(pattern), escaped);
    }

    #[rstest]
    #[case(b"/a/b?c=d")]
    #[case(b"/%2F%E3")]
    #[case(b"/*.php$")]
    #[case(b"")]
    fn escape_pattern_borrows_when_unchanged(#[case] pattern: &[u8]) {
        assert!(matches!(escape_pattern(pattern), Cow::Borrowed(_)));
    }

    /// `MaybeEscapePattern` byte by byte, as robots.cc writes it.
    fn escape_reference(pattern: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < pattern.len() {
            let b = pattern[i];
            let hex = |k: usize| pattern.get(k).is_some_and(u8::is_ascii_hexdigit);
            if b == b'%' && hex(i + 1) && hex(i + 2) {
                out.push(b'%');
                out.push(pattern[i + 1].to_ascii_uppercase());
                out.push(pattern[i + 2].to_ascii_uppercase());
                i += 3;
            } else if b >= 0x80 {
                out.extend_from_slice(format!("%{b:02X}").as_bytes());
                i += 1;
            } else {
                out.push(b);
                i += 1;
            }
        }
        out
    }

    proptest::proptest! {
        /// Whatever the pattern's length and where its first `%` or high octet is (before,
        /// inside or after the first sixteen octets), the escaping is robots.cc's.
        #[test]
        fn escape_pattern_is_the_byte_by_byte_escaping(
            pattern in proptest::collection::vec(
                proptest::sample::select(&b"/aZ9%fF\x80\xE3\xFF*$"[..]),
                0..60,
            ),
            plain in 0..40usize,
        ) {
            let mut pattern = pattern;
            pattern.splice(0..0, std::iter::repeat_n(b'a', plain));
            proptest::prop_assert_eq!(
                escape_pattern(&pattern).into_owned(),
                escape_reference(&pattern)
            );
        }
    }
}
