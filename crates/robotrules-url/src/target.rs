//! The part of a URL that allow/disallow rules are matched against.
//!
//! RFC 9309 §2.2.2: "The matching MUST start with the first octet of the path", and the RFC's
//! examples match the query too (§2.2.2 Figure 4, §5.2), so the matcher sees path, params and
//! query, without the fragment.
//!
//! [`Target::parse`] is the one place a URL is read for matching, under a [`UrlReading`]:
//! Google's (any string; [`crate::google::path_params_query`], compared as written) or the
//! RFC's (an absolute URL with a host, or a path starting with `/`; dot segments resolved as
//! the URL Standard does; [`crate::canonical`] percent-encoding). [`target_path`] is the URL
//! Standard reading of path and query on its own, for callers that need exactly that.

use std::borrow::Cow;

use memchr::memchr3;

use crate::error::{UrlError, EXCERPT_CHARS};
use crate::origin::OriginRef;
use robotrules_text::excerpt;

/// How URLs are accepted and read for matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UrlReading {
    /// Google's `GetPathParamsQuery`: any string is accepted (a scheme is optional, the first
    /// segment of a scheme-less string is the host), and its path, params and query are
    /// compared as written.
    Google,
    /// RFC 9309: an absolute URL with a host, or a path starting with `/`. Dot segments, `%2e`,
    /// backslashes, tabs and line breaks are resolved as the URL Standard does, so a rule
    /// cannot be side-stepped with `/a/../private/x`; then the canonical percent-encoding of
    /// RFC 9309 §2.2.2 ([`crate::canonical::path`]).
    Canonical,
}

/// A URL as a [`UrlReading`] matches it: its path, params and query, in the form patterns are
/// compared with.
///
/// Reading is cheap for ordinary URLs: no allocation when the URL is already in form, and the
/// URL Standard parser runs only for URLs outside the common `scheme://host[:port]/…` shape.
///
/// ```
/// use robotrules_url::{Target, UrlReading};
///
/// let target = Target::parse("https://example.com/a/../%62?q#frag", UrlReading::Canonical)?;
/// assert_eq!(target.path(), b"/b?q");
/// assert!(Target::parse("example.com/a", UrlReading::Canonical).is_err());
/// assert_eq!(Target::parse("example.com/a", UrlReading::Google)?.path(), b"/a");
/// # Ok::<(), robotrules_url::UrlError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target<'a> {
    path: Cow<'a, [u8]>,
}

impl<'a> Target<'a> {
    /// Read `url` under `reading`.
    ///
    /// # Errors
    /// Under [`UrlReading::Canonical`], a string that is neither a path starting with `/` nor
    /// an absolute URL with a host ([`crate::Origin::parse`] says why). Under
    /// [`UrlReading::Google`], never.
    #[inline]
    pub fn parse(url: &'a str, reading: UrlReading) -> Result<Target<'a>, UrlError> {
        if reading == UrlReading::Canonical {
            let plain = crate::plain::plain(url);
            if let Some(path) = plain.target() {
                return Ok(Target { path });
            }
            if plain == crate::plain::Plain::CheckedAuthority {
                return Ok(Target {
                    path: canonical_path(url),
                });
            }
        }
        Target::parse_full(url, reading)
    }

    /// Read the URL whose origin was read as `origin` under `reading`, without checking its
    /// authority again: what [`Target::parse`] gives for [`OriginRef::url`], and it cannot
    /// fail.
    ///
    /// ```
    /// use robotrules_url::{OriginRef, Target, UrlReading};
    ///
    /// let url = "https://example.com/a/../b?q#f";
    /// let origin = OriginRef::parse(url).expect("common form");
    /// assert_eq!(Target::of(&origin, UrlReading::Canonical).path(), b"/b?q");
    /// assert_eq!(Target::of(&origin, UrlReading::Google), Target::parse(url, UrlReading::Google)?);
    /// # Ok::<(), robotrules_url::UrlError>(())
    /// ```
    #[inline]
    pub fn of(origin: &OriginRef<'a>, reading: UrlReading) -> Target<'a> {
        let url = origin.url();
        let path = match reading {
            UrlReading::Canonical => {
                crate::plain::after_authority(url.as_bytes(), origin.path_start())
                    .target()
                    .unwrap_or_else(|| canonical_path(url))
            }
            UrlReading::Google => google_path(url),
        };
        Target { path }
    }

    /// The RFC reading of `url`, whose authority is in the common form and ends at `start`.
    #[inline]
    fn after_authority(url: &'a str, start: usize) -> Target<'a> {
        let path = crate::plain::after_authority(url.as_bytes(), start)
            .target()
            .unwrap_or_else(|| canonical_path(url));
        Target { path }
    }

    /// [`Target::parse`] without the shortcut for URLs the reading leaves unchanged
    /// ([`crate::plain`]): the definition the shortcut is tested against.
    pub(crate) fn parse_full(url: &'a str, reading: UrlReading) -> Result<Target<'a>, UrlError> {
        let path = match reading {
            UrlReading::Google => google_path(url),
            UrlReading::Canonical => {
                if !url.starts_with('/') && crate::authority::simple(url).is_none() {
                    crate::Origin::parse(url)?;
                }
                canonical_path(url)
            }
        };
        Ok(Target { path })
    }

    /// The path, params and query as compared.
    pub fn path(&self) -> &[u8] {
        &self.path
    }

    /// Whether the path is `/robots.txt` itself (any query).
    #[inline]
    pub fn is_robots_txt(&self) -> bool {
        match self.path.strip_prefix(b"/robots.txt") {
            Some(rest) => rest.is_empty() || rest[0] == b'?',
            None => false,
        }
    }
}

/// Reads the URLs of a batch under one [`UrlReading`], as [`Target::parse`] reads each,
/// without checking an authority again when it is the one of the URL before.
///
/// Under [`UrlReading::Canonical`], a URL in the common form (`scheme://host[:port]/…`,
/// the `authority` module) leaves its `scheme://host[:port]` behind; a next URL that starts
/// with the same text followed by `/` has the same authority, in the common form, ending at
/// the same place (the check reads nothing past that `/`), so only its path and query are
/// read. Every answer is [`Target::parse`]'s.
///
/// ```
/// use robotrules_url::{Target, Targets, UrlReading};
///
/// let urls = ["https://example.com/a", "https://example.com/b/../c?d", "https://example.com:99999/"];
/// let mut targets = Targets::new(UrlReading::Canonical);
/// for url in urls {
///     assert_eq!(targets.parse(url), Target::parse(url, UrlReading::Canonical));
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Targets<'a> {
    reading: UrlReading,
    /// `scheme://host[:port]` of the last URL read in the common form with a path; empty when
    /// there is none.
    authority: &'a [u8],
}

impl<'a> Targets<'a> {
    /// A reader of URLs under `reading`, which knows no authority yet.
    pub fn new(reading: UrlReading) -> Targets<'a> {
        Targets {
            reading,
            authority: &[],
        }
    }

    /// [`Target::parse`]`(url, reading)`.
    ///
    /// # Errors
    /// As [`Target::parse`].
    #[inline]
    pub fn parse(&mut self, url: &'a str) -> Result<Target<'a>, UrlError> {
        if self.reading != UrlReading::Canonical {
            return Target::parse(url, self.reading);
        }
        let bytes = url.as_bytes();
        let known = self.authority.len();
        if known != 0 && bytes.get(known) == Some(&b'/') && bytes.starts_with(self.authority) {
            return Ok(Target::after_authority(url, known));
        }
        // As `Target::parse` reads a URL whose authority is in the common form.
        if bytes.first() != Some(&b'/') {
            if let Some(origin) = crate::authority::simple(url) {
                let start = crate::plain::path_start(bytes, &origin);
                if bytes.get(start) == Some(&b'/') {
                    self.authority = &bytes[..start];
                }
                return Ok(Target::after_authority(url, start));
            }
        }
        Target::parse(url, self.reading)
    }
}

/// The RFC reading's path of a URL whose authority was checked: [`matched_path`], then the
/// canonical form.
/// The path+params+query the matcher sees, in Google's reading (never fails).
fn google_path(url: &str) -> Cow<'_, [u8]> {
    match crate::google::path_params_query_span(url.as_bytes()) {
        crate::google::Pqs::Span(start, end) => Cow::Borrowed(&url.as_bytes()[start..end]),
        crate::google::Pqs::Root => Cow::Borrowed(&b"/"[..]),
        crate::google::Pqs::Prefixed(start, end) => {
            let mut path = Vec::with_capacity(end - start + 1);
            path.push(b'/');
            path.extend_from_slice(&url.as_bytes()[start..end]);
            Cow::Owned(path)
        }
    }
}

fn canonical_path(url: &str) -> Cow<'_, [u8]> {
    match matched_path(url) {
        Cow::Borrowed(p) => crate::canonical::path(p.as_bytes()),
        Cow::Owned(p) => Cow::Owned(crate::canonical::path(p.as_bytes()).into_owned()),
    }
}

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
        return Err(UrlError::UnsupportedScheme(excerpt(
            parsed.scheme(),
            EXCERPT_CHARS,
        )));
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
pub(crate) fn matched_path(url: &str) -> Cow<'_, str> {
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
    #[case("https://example.com/a/b?c", "/a/b?c")]
    #[case("https://example.com/a/../private/x", "/private/x")]
    #[case("//example.com/a/./b", "/a/b")]
    #[case("example.com/a", "/a")]
    #[case("/a/%2e%2E/b", "/b")]
    fn matched_path_resolves_dot_segments(#[case] url: &str, #[case] path: &str) {
        assert_eq!(matched_path(url), path);
    }

    #[rstest]
    #[case("/", UrlReading::Canonical, "/")]
    #[case("/a b#c", UrlReading::Canonical, "/a%20b")]
    #[case(
        "http://EXAMPLE.com:80/%7e?x=http://y",
        UrlReading::Canonical,
        "/~?x=http%3A%2F%2Fy"
    )]
    #[case("http://user@[::1]:8080/a/./b", UrlReading::Canonical, "/a/b")]
    #[case("http://www.müller.eu/ü", UrlReading::Canonical, "/%C3%BC")]
    #[case("example.com/a", UrlReading::Google, "/a")]
    #[case("", UrlReading::Google, "/")]
    #[case("http://example.com/%7e b", UrlReading::Google, "/%7e b")]
    fn targets(#[case] url: &str, #[case] reading: UrlReading, #[case] path: &str) {
        assert_eq!(Target::parse(url, reading).unwrap().path(), path.as_bytes());
    }

    #[rstest]
    #[case("")]
    #[case("example.com/a")]
    #[case("a/b")]
    #[case("mailto:x@example.com")]
    #[case("file:///etc/passwd")]
    #[case("http://")]
    #[case("http://example.com:99999/")]
    #[case("http://xn--a.example/")]
    fn the_canonical_reading_rejects_what_has_no_host_and_is_no_path(#[case] url: &str) {
        assert!(Target::parse(url, UrlReading::Canonical).is_err(), "{url}");
        assert!(Target::parse(url, UrlReading::Google).is_ok(), "{url}");
    }

    #[rstest]
    #[case("/robots.txt", true)]
    #[case("/robots.txt?x", true)]
    #[case("https://example.com/robots.txt#f", true)]
    #[case("/robots.txt/", false)]
    #[case("/Robots.txt", false)]
    fn knows_robots_txt(#[case] url: &str, #[case] is: bool) {
        let target = Target::parse(url, UrlReading::Canonical).unwrap();
        assert_eq!(target.is_robots_txt(), is);
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

    /// URLs whose authorities share a prefix with one another, differ only after it, or are
    /// not in the common form.
    const NEIGHBOURS: [&str; 26] = [
        "https://example.com/a",
        "https://example.com/a/../private/x",
        "https://example.com",
        "https://example.com?q",
        "https://example.com#f",
        "https://example.com//x",
        "https://example.com.evil/a",
        "https://example.comx/a",
        "https://example.co/a",
        "https://example.com:8080/a",
        "https://example.com:80/a",
        "https://example.com:8/a",
        "https://example.com:99999/a",
        "https://example.com:/a",
        "https://example.com:8080",
        "HTTPS://EXAMPLE.COM/a%7e b",
        "https://xn--a.example.com/a",
        "https://xn--mller-kva.example/a",
        "https://xn--/a",
        "https://1.2.3.4/a",
        "https://1.2.3.04/a",
        "https://example.1/a",
        "https://user@example.com/a",
        "/a/b?c",
        "//example.com/a",
        "example.com/a",
    ];

    /// Reading a batch gives what reading each URL on its own gives, whatever came before:
    /// every ordered pair and every run of the same URL, in both readings.
    #[test]
    fn a_batch_reads_each_url_as_on_its_own() {
        for reading in [UrlReading::Canonical, UrlReading::Google] {
            for first in NEIGHBOURS {
                for second in NEIGHBOURS {
                    let mut targets = Targets::new(reading);
                    for url in [first, second, second, first] {
                        assert_eq!(
                            targets.parse(url),
                            Target::parse(url, reading),
                            "{first:?} then {second:?}: {url:?}"
                        );
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2048,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            ..proptest::test_runner::Config::default()
        })]

        /// On generated batches of URLs on a few nearby authorities, each read in a batch is
        /// the reading of the URL on its own.
        #[test]
        fn a_generated_batch_reads_each_url_as_on_its_own(
            urls in proptest::collection::vec(
                "(https?|HTTP|ftp)://(a|a\\.b|xn--a|1\\.2\\.3\\.4|a-b|0x1)(:[0-9]{0,3})?([/?#:@.][a-z/.%2e?#]{0,4})?",
                1..8,
            )
        ) {
            let mut targets = Targets::new(UrlReading::Canonical);
            for url in &urls {
                proptest::prop_assert_eq!(
                    targets.parse(url),
                    Target::parse(url, UrlReading::Canonical),
                    "{:?} in {:?}", url, urls
                );
            }
        }
    }
}
