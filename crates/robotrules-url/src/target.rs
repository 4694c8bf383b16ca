//! The part of a URL that allow/disallow rules are matched against, in the RFC 9309 reading.
//!
//! RFC 9309 §2.2.2: "The matching MUST start with the first octet of the path", and the RFC's
//! examples match the query too (§2.2.2 Figure 4, §5.2), so the matcher sees path, params and
//! query, without the fragment. An absolute URL is parsed with the `url` crate (WHATWG URL
//! Standard), which percent-encodes non-ASCII octets and the characters a URL may not contain,
//! and removes dot segments; a bare path is taken as the caller wrote it.
//!
//! This module does not bring the result to the canonical form used for comparison; that is
//! [`crate::canonical::path`]. Google's reading of a URL is [`crate::google::path_params_query`].

use std::borrow::Cow;

use memchr::memchr3;

use crate::error::{excerpt, UrlError};

/// The path+params+query the matcher sees, in the RFC 9309 reading.
///
/// - An absolute URL is parsed with the `url` crate; the fragment is dropped and an empty path
///   becomes `/` (`http://example.com?q` → `/?q`).
/// - A bare path starting with `/` is taken as is, only the fragment is dropped
///   (`/a/b?c#d` → `/a/b?c`).
/// - Anything else is an error: a relative reference such as `example.com/a` or ``
///   ([`UrlError::NotAbsolute`]), a scheme without an authority such as `mailto:`
///   ([`UrlError::UnsupportedScheme`]), or a URL the `url` crate rejects.
///
/// The result borrows from `url` whenever its text appears there unchanged.
///
/// ```
/// use robotrules_url::target_path;
/// assert_eq!(target_path("https://example.com/a/b?c=d#e").unwrap(), "/a/b?c=d");
/// assert_eq!(target_path("https://example.com").unwrap(), "/");
/// assert_eq!(target_path("/a/ü#x").unwrap(), "/a/ü");
/// assert!(target_path("example.com/a").is_err());
/// ```
pub fn target_path(url: &str) -> Result<Cow<'_, str>, UrlError> {
    let without_fragment = url.find('#').map_or(url, |hash| &url[..hash]);
    if without_fragment.starts_with('/') {
        return Ok(Cow::Borrowed(without_fragment));
    }
    let parsed = url::Url::parse(url).map_err(|error| UrlError::from_parse(error, url))?;
    if parsed.cannot_be_a_base() {
        return Err(UrlError::UnsupportedScheme(excerpt(parsed.scheme())));
    }
    let path_and_query = &parsed[url::Position::BeforePath..url::Position::AfterQuery];
    Ok(match path_and_query {
        // RFC 3986 §6.2.3: an empty path is equivalent to "/".
        "" => Cow::Borrowed("/"),
        text if text.starts_with('/') => match without_fragment.strip_suffix(text) {
            // Same text as the caller's: hand out the caller's bytes.
            Some(prefix) => Cow::Borrowed(&without_fragment[prefix.len()..]),
            None => Cow::Owned(text.to_owned()),
        },
        // A non-special scheme with an empty path and a query: `foo://host?q` -> `/?q`.
        text => Cow::Owned(format!("/{text}")),
    })
}

/// The path+params+query the RFC profiles match, for any string a caller passes (never
/// fails): Google's allocation-free reading ([`crate::google::path_params_query`]), except
/// when the URL Standard could read it differently — a path with dot segments, `%2e`,
/// backslashes, or a URL with tabs or line breaks — which is then read by [`target_path`]
/// (a scheme-relative `//host/…` given a scheme, a bare path resolved against a dummy
/// origin), so `/a/../private/x` is matched as `/private/x`.
///
/// ```
/// use robotrules_url::matched_path;
/// assert_eq!(matched_path("https://example.com/a/b?c"), "/a/b?c");
/// assert_eq!(matched_path("https://example.com/a/../private/x"), "/private/x");
/// assert_eq!(matched_path("//example.com/a/./b"), "/a/b");
/// assert_eq!(matched_path("example.com/a"), "/a");
/// ```
pub fn matched_path(url: &str) -> Cow<'_, str> {
    let path = crate::google::path_params_query(url);
    if !needs_url_standard(url, &path) {
        return path;
    }
    let absolute;
    let resolvable = if url.starts_with("//") {
        absolute = format!("http:{url}");
        absolute.as_str()
    } else if url.starts_with('/') {
        absolute = format!("http://robotrules.invalid{url}");
        absolute.as_str()
    } else {
        url
    };
    target_path(resolvable).map_or(path, |p| Cow::Owned(p.into_owned()))
}

/// Whether the URL Standard parser could read `url` differently from Google's reading `path`.
fn needs_url_standard(url: &str, path: &str) -> bool {
    let path = path.split('?').next().unwrap_or_default().as_bytes();
    if memchr3(b'\t', b'\n', b'\r', url.as_bytes()).is_some() {
        return true;
    }
    if memchr3(b'.', b'%', b'\\', path).is_none() {
        return false;
    }
    let dot_segment = path.windows(2).any(|w| w == b"/.");
    let encoded_dot = path
        .windows(3)
        .any(|w| w[0] == b'%' && w[1..].eq_ignore_ascii_case(b"2e"));
    dot_segment || encoded_dot || path.contains(&b'\\')
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("http://www.example.com", "/")]
    #[case("http://www.example.com/", "/")]
    #[case("http://www.example.com/a", "/a")]
    #[case("http://www.example.com/a/", "/a/")]
    #[case("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/")]
    #[case("http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f")]
    #[case("http://www.example.com?a", "/?a")]
    #[case("http://www.example.com/a;b#c", "/a;b")]
    #[case("http://user:pw@www.example.com:8080/a?b", "/a?b")]
    #[case("http://www.example.com/a/./b/../c", "/a/c")]
    #[case("http://www.example.com/a b", "/a%20b")]
    #[case("http://www.example.com/ü?ü", "/%C3%BC?%C3%BC")]
    #[case("http://www.example.com/%7e%41", "/%7e%41")]
    #[case(
        "https://www.example.com/path/file-with-a-*.html",
        "/path/file-with-a-*.html"
    )]
    #[case("https://www.example.com/path/foo-$", "/path/foo-$")]
    #[case("ftp://ftp.example.com/pub/file.txt", "/pub/file.txt")]
    #[case("file:///etc/passwd", "/etc/passwd")]
    #[case("foo://host", "/")]
    #[case("foo://host?q", "/?q")]
    #[case("foo://host/a?q#f", "/a?q")]
    #[case("http://[::1]:8080/a", "/a")]
    #[case("/", "/")]
    #[case("/a/b?c=d", "/a/b?c=d")]
    #[case("/a/b?c=d#e", "/a/b?c=d")]
    #[case("/a/../b", "/a/../b")]
    #[case("/ü a", "/ü a")]
    #[case("//a/b", "//a/b")]
    #[case("/#", "/")]
    fn extracts_path_and_query(#[case] url: &str, #[case] path: &str) {
        assert_eq!(target_path(url).unwrap(), path);
    }

    #[rstest]
    #[case("/a/b?c=d")]
    #[case("/a/b?c=d#e")]
    #[case("http://example.com/a/b?c=d")]
    #[case("http://example.com/a/b?c=d#e")]
    #[case("https://user@example.com:8443/a;p?q")]
    fn borrows_when_the_text_is_unchanged(#[case] url: &str) {
        assert!(matches!(target_path(url), Ok(Cow::Borrowed(_))), "{url}");
    }

    #[rstest]
    #[case("")]
    #[case("a")]
    #[case("a/b")]
    #[case("example.com/a")]
    #[case("?a")]
    #[case("#a")]
    #[case("*")]
    #[case("mailto:x@example.com")]
    #[case("data:text/plain,/a")]
    #[case("http://")]
    #[case("http://[::1")]
    #[case("http://exa mple.com/")]
    #[case("http://example.com:99999/")]
    fn rejects_what_is_neither_an_absolute_url_nor_a_path(#[case] url: &str) {
        assert!(target_path(url).is_err(), "{url}");
    }
}
