//! URLs that the RFC reading leaves as they are, recognised in one pass.
//!
//! Most URLs a crawler asks about are an absolute `http`/`https`/`ftp` URL in the common form
//! ([`crate::authority::simple`]) or a bare path, whose path and query contain nothing the RFC
//! reading of [`crate::Target`] would change: no dot segment, no `%2e`, no backslash, tab or
//! line break (which send a URL through the URL Standard parser), and no octet that the
//! canonical form ([`crate::canonical::path`]) encodes, decodes or upper-cases. For those, the
//! text between the authority and the fragment *is* the target, borrowed. [`plain_path`]
//! recognises them and answers `None` for everything else, which takes the full way; a test
//! keeps both ways equal.
//!
//! The same pass also recognises the URLs whose path and query only the canonical form
//! changes (a lower-case escape, a space, a second `?`, a gen-delim in the query, non-ASCII):
//! for those it hands [`crate::canonical`] the span and the place of the first change
//! ([`Plain::Canonical`]), so that neither Google's path search nor the URL Standard test
//! runs again, and the canonical pass starts where the first change is.

use std::borrow::Cow;

/// What an octet of a path or query asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Left as it is, anywhere.
    Keep,
    /// `.`: a dot segment when it follows `/` before the query.
    Dot,
    /// `%`: left as it is when followed by two upper-case hex digits of a reserved octet.
    Percent,
    /// `?`: the first starts the query; another is encoded.
    Question,
    /// `:` `/` `@` `[` `]`: left in the path, encoded in the query.
    GenDelim,
    /// `#`: the fragment starts.
    Hash,
    /// Changed by the canonical form or the URL Standard wherever it is.
    Other,
}

static CLASS: [Class; 256] = classes();

/// The octets that stop the scan of a path or query in which nothing has changed yet: all
/// but those left as they are without a look at their neighbours, in the path ([`Class::Keep`]
/// and [`Class::GenDelim`], `STOP[0]`) and in the query ([`Class::Keep`], `STOP[1]`).
static STOP: [[bool; 256]; 2] = {
    let mut table = [[true; 256]; 2];
    let mut byte = 0;
    while byte < 256 {
        table[0][byte] = !matches!(CLASS[byte], Class::Keep | Class::GenDelim);
        table[1][byte] = !matches!(CLASS[byte], Class::Keep);
        byte += 1;
    }
    table
};

/// The octets that stop the scan once the canonical form changes something: those that may
/// send the URL through the URL Standard parser (`.`, `%`, `\`, tab, line breaks), the `?`
/// that starts the query, and the `#` that ends it, in the path (`REREAD[0]`); in the query,
/// only `#`, tab and line breaks (`REREAD[1]`).
static REREAD: [[bool; 256]; 2] = {
    let mut table = [[false; 256]; 2];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[0][byte] = matches!(b, b'.' | b'%' | b'\\' | b'?' | b'#' | b'\t' | b'\n' | b'\r');
        table[1][byte] = matches!(b, b'#' | b'\t' | b'\n' | b'\r');
        byte += 1;
    }
    table
};

const fn classes() -> [Class; 256] {
    let mut table = [Class::Other; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = match b {
            b'.' => Class::Dot,
            b'%' => Class::Percent,
            b'?' => Class::Question,
            b':' | b'/' | b'@' | b'[' | b']' => Class::GenDelim,
            b'#' => Class::Hash,
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => Class::Keep,
            b'-' | b'_' | b'~' | b'!' | b'&' | b'\'' | b'(' | b')' | b'+' | b',' | b';' | b'=' => {
                Class::Keep
            }
            _ => Class::Other,
        };
        byte += 1;
    }
    table
}

/// What [`plain`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plain<'a> {
    /// The path and query, taken unchanged.
    Path(&'a [u8]),
    /// The path and query as the RFC reading takes them (no URL Standard parser needed), of
    /// which the canonical form ([`crate::canonical::path`]) changes something: the first
    /// `from` octets stay as they are, and `query` says whether they hold the `?`.
    Canonical {
        path: &'a [u8],
        from: usize,
        query: bool,
    },
    /// A path or an absolute URL whose authority is in the common form
    /// ([`crate::authority::simple`]: nothing to check there), but which the full reading
    /// must read (dot segments, `%2e`, backslashes, tabs or line breaks; an empty path).
    CheckedAuthority,
    /// Anything else.
    Unknown,
}

impl<'a> Plain<'a> {
    /// The target this says, when it says one: the path borrowed, or its canonical form.
    #[inline]
    pub(crate) fn target(self) -> Option<Cow<'a, [u8]>> {
        match self {
            Plain::Path(path) => Some(Cow::Borrowed(path)),
            Plain::Canonical { path, from, query } => {
                Some(crate::canonical::path_from(path, from, query))
            }
            Plain::CheckedAuthority | Plain::Unknown => None,
        }
    }
}

/// The path and query of `url` when the RFC reading would take them unchanged, else `None`.
#[cfg(test)]
fn plain_path(url: &str) -> Option<&[u8]> {
    match plain(url) {
        Plain::Path(path) => Some(path),
        _ => None,
    }
}

/// [`plain_path`], saying when the authority at least is in the common form, and when only
/// the canonical form changes the path.
#[inline]
pub(crate) fn plain(url: &str) -> Plain<'_> {
    let bytes = url.as_bytes();
    if bytes.first() == Some(&b'/') {
        // A scheme-relative `//host/…` is read differently.
        if bytes.get(1) == Some(&b'/') {
            return Plain::Unknown;
        }
        return plain_from(bytes, 0);
    }
    match crate::authority::simple(url) {
        Some(origin) => after_authority(bytes, path_start(bytes, &origin)),
        None => Plain::Unknown,
    }
}

/// Where the path (or query, or fragment) of `bytes` starts, after its authority `origin`.
#[inline]
pub(crate) fn path_start(bytes: &[u8], origin: &crate::authority::Simple<'_>) -> usize {
    let after = origin.scheme.len() + 3 + origin.host.len();
    match origin.port {
        Some(_) => {
            after
                + 1
                + bytes
                    .get(after + 1..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count()
        }
        None => after,
    }
}

/// [`plain`] for a URL whose authority is in the common form and ends at `after`.
#[inline]
pub(crate) fn after_authority(bytes: &[u8], after: usize) -> Plain<'_> {
    // An empty path is read as `/`: not the text itself.
    if bytes.get(after) != Some(&b'/') {
        return Plain::CheckedAuthority;
    }
    plain_from(bytes, after)
}

/// The first octet at or after `at` that `stop` marks, or the end: eight at a time, without
/// branching on each.
#[inline(always)]
fn skip(bytes: &[u8], mut at: usize, stop: &[bool; 256]) -> usize {
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        if chunk.iter().fold(false, |s, &b| s | stop[usize::from(b)]) {
            break;
        }
        at += 8;
    }
    while bytes.get(at).is_some_and(|&b| !stop[usize::from(b)]) {
        at += 1;
    }
    at
}

/// What the canonical form does with the escape at `bytes[at]` (a `%`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    /// `%XX` with upper-case hex digits of an octet that is not unreserved: kept.
    Kept,
    /// `%2e` or `%2E`: a dot segment's dot in the path (the URL Standard's reading).
    Dot,
    /// Anything else: decoded, upper-cased, or (a lone `%`) encoded.
    Changed,
}

/// The escape at `bytes[at]`: `pct-encoded = "%" HEXDIG HEXDIG` (RFC 3986 §2.1).
#[inline]
fn escape(bytes: &[u8], at: usize) -> Escape {
    let (Some(&high), Some(&low)) = (bytes.get(at + 1), bytes.get(at + 2)) else {
        return Escape::Changed;
    };
    if high == b'2' && low | 0x20 == b'e' {
        return Escape::Dot;
    }
    let (high, low) = (UPPER_HEX[usize::from(high)], UPPER_HEX[usize::from(low)]);
    if high | low >= 16 || UNRESERVED[usize::from(high << 4 | low)] {
        return Escape::Changed;
    }
    Escape::Kept
}

/// The value of each upper-case hex digit; 16 for every other octet.
static UPPER_HEX: [u8; 256] = {
    let mut table = [16; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = match byte as u8 {
            b @ b'0'..=b'9' => b - b'0',
            b @ b'A'..=b'F' => b - b'A' + 10,
            _ => 16,
        };
        byte += 1;
    }
    table
};

/// RFC 3986 §2.3: `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`, as a table.
static UNRESERVED: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
        byte += 1;
    }
    table
};

/// The rest of [`plain`]: `bytes[start..]` (which starts with `/`) up to the fragment, in one
/// pass: [`Plain::Path`] while nothing changes, [`Plain::Canonical`] from the first octet the
/// canonical form changes, [`Plain::CheckedAuthority`] at the first sign that the URL Standard
/// could read it differently (what `needs_url_standard` in `target.rs` looks for: a `/.`,
/// `%2e` or `\` before the query, a tab or line break anywhere).
fn plain_from(bytes: &[u8], start: usize) -> Plain<'_> {
    let mut query = false;
    let mut at = start;
    loop {
        at = skip(bytes, at, &STOP[usize::from(query)]);
        let Some(&b) = bytes.get(at) else {
            return Plain::Path(&bytes[start..]);
        };
        match CLASS[usize::from(b)] {
            Class::Keep => {}
            Class::Dot if !query && bytes[at - 1] == b'/' => return Plain::CheckedAuthority,
            Class::Dot => {}
            Class::Percent => match escape(bytes, at) {
                Escape::Kept => at += 2,
                Escape::Dot if !query => return Plain::CheckedAuthority,
                Escape::Dot | Escape::Changed => return changed(bytes, start, at, query),
            },
            Class::Question if query => return changed(bytes, start, at, query),
            Class::Question => query = true,
            Class::GenDelim if query => return changed(bytes, start, at, query),
            Class::GenDelim => {}
            Class::Hash => return fragment(bytes, start, at, Plain::Path(&bytes[start..at])),
            Class::Other => match b {
                b'\t' | b'\n' | b'\r' => return Plain::CheckedAuthority,
                b'\\' if !query => return Plain::CheckedAuthority,
                _ => return changed(bytes, start, at, query),
            },
        }
        at += 1;
    }
}

/// The rest of [`plain_from`] once the canonical form changes `bytes[from]` (with `query`
/// there): only what sends the URL to the URL Standard parser, the query's start and the
/// fragment are looked at.
fn changed(bytes: &[u8], start: usize, from: usize, query_at: bool) -> Plain<'_> {
    let mut query = query_at;
    let mut at = from + 1;
    loop {
        at = skip(bytes, at, &REREAD[usize::from(query)]);
        let Some(&b) = bytes.get(at) else {
            break;
        };
        match b {
            b'#' => break,
            b'?' => query = true,
            b'.' if bytes[at - 1] == b'/' => return Plain::CheckedAuthority,
            b'%' if escape(bytes, at) == Escape::Dot => return Plain::CheckedAuthority,
            b'\\' | b'\t' | b'\n' | b'\r' => return Plain::CheckedAuthority,
            _ => {}
        }
        at += 1;
    }
    let canonical = Plain::Canonical {
        path: &bytes[start..at],
        from: from - start,
        query: query_at,
    };
    fragment(bytes, start, at, canonical)
}

/// `found` for the path ending at `end` (the end, or a `#`), unless a tab or line break after
/// it sends the URL through the URL Standard parser.
#[inline]
fn fragment<'a>(bytes: &'a [u8], start: usize, end: usize, found: Plain<'a>) -> Plain<'a> {
    debug_assert!(start <= end);
    match bytes.get(end..) {
        Some(rest) if memchr::memchr3(b'\t', b'\n', b'\r', rest).is_some() => {
            Plain::CheckedAuthority
        }
        _ => found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Target, UrlReading};
    use rstest::rstest;

    #[rstest]
    #[case("https://www.example.com/a/b?c=d&e=f", "/a/b?c=d&e=f")]
    #[case("http://example.com:8080/x/index.html#top", "/x/index.html")]
    #[case("/search?q=caf%C3%A9+au+lait", "/search?q=caf%C3%A9+au+lait")]
    #[case("/a:b@c/d;e=f,g", "/a:b@c/d;e=f,g")]
    #[case("https://WWW.Example.COM/Shop/", "/Shop/")]
    fn takes_plain_urls_as_they_are(#[case] url: &str, #[case] path: &str) {
        assert_eq!(plain_path(url), Some(path.as_bytes()));
    }

    #[rstest]
    #[case("https://example.com")]
    #[case("https://example.com?q")]
    #[case("//example.com/a")]
    #[case("/a/./b")]
    #[case("/a/%2e%2E/b")]
    #[case("/a/%2E")]
    #[case("/%7e")]
    #[case("/%7E")]
    #[case("/%c3%a9")]
    #[case("/%4")]
    #[case("/a b")]
    #[case("/a*b")]
    #[case("/a$")]
    #[case("/a?b?c")]
    #[case("/a?b=http://c")]
    #[case("/a\\b")]
    #[case("/ü")]
    #[case("/a#b\tc")]
    #[case("http://user@example.com/")]
    #[case("mailto:a@b")]
    fn leaves_the_rest_to_the_full_reading(#[case] url: &str) {
        assert_eq!(plain_path(url), None, "{url}");
    }

    /// The canonical form starts where the scan found the first change, knowing whether the
    /// query had started: a `/` changes only in the query, and a `/.` there is no dot segment.
    #[rstest]
    #[case("http://a/?/.", "/?%2F.")]
    #[case(
        "https://WWW.Example.COM/c/?sessionid=AbC123&ref=%2Fhome%2F#top",
        "/c/?sessionid=AbC123&ref=%2Fhome%2F"
    )]
    #[case(
        "https://www.example.com/wiki/Caf%c3%a9_Society",
        "/wiki/Caf%C3%A9_Society"
    )]
    #[case("/a?b?c/./d", "/a?b%3Fc%2F.%2Fd")]
    #[case("/a%7e/b.c?d", "/a~/b.c?d")]
    #[case("/a b/./c", "/a%20b/c")]
    fn hands_the_canonical_form_the_first_change(#[case] url: &str, #[case] path: &str) {
        let fast = Target::parse(url, UrlReading::Canonical);
        assert_eq!(
            fast,
            Target::parse_full(url, UrlReading::Canonical),
            "{url}"
        );
        assert_eq!(
            fast.as_ref().map(Target::path),
            Ok(path.as_bytes()),
            "{url}"
        );
    }

    /// Wherever the shortcut answers, it answers what the full reading does: every string of
    /// up to three octets after a few prefixes, over an alphabet with every class.
    #[test]
    fn the_shortcut_agrees_with_the_full_reading() {
        let alphabet = [
            b'a', b'/', b'.', b'%', b'2', b'e', b'E', b'4', b'1', b'?', b':', b'#', b'*', b' ',
            b'\t', 0xC3, b'\\', b'~', b'=',
        ];
        let mut frontier = vec![Vec::new()];
        let mut answered = 0;
        let mut with_origin = 0;
        for _ in 0..3 {
            let mut next = Vec::new();
            for tail in &frontier {
                for &b in &alphabet {
                    let mut t: Vec<u8> = tail.clone();
                    t.push(b);
                    let tail = String::from_utf8_lossy(&t).into_owned();
                    for prefix in [
                        "/",
                        "http://example.com/",
                        "https://a.b:81/x",
                        "/p?",
                        "http://example.com",
                        "//example.com/",
                        "http://[::1]/",
                    ] {
                        let url = format!("{prefix}{tail}");
                        let full = Target::parse_full(&url, UrlReading::Canonical);
                        let fast = Target::parse(&url, UrlReading::Canonical);
                        assert_eq!(fast, full, "{url:?}");
                        if let Some(path) = plain_path(&url) {
                            assert_eq!(full.as_ref().map(Target::path), Ok(path), "{url:?}");
                            answered += 1;
                        }
                        // The target read after the borrowed origin is the same, in both
                        // readings.
                        if let Some(origin) = crate::OriginRef::parse(&url) {
                            for reading in [UrlReading::Canonical, UrlReading::Google] {
                                assert_eq!(
                                    Ok(Target::of(&origin, reading)),
                                    Target::parse(&url, reading),
                                    "{url:?} {reading:?}"
                                );
                            }
                            with_origin += 1;
                        }
                    }
                    next.push(t);
                }
            }
            frontier = next;
        }
        assert!(answered > 3_000, "{answered}");
        assert!(with_origin > 3_000, "{with_origin}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 4096,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            ..proptest::test_runner::Config::default()
        })]

        /// On generated crawl-like URLs (absolute in the common form or not, or bare paths;
        /// every class of octet, escapes of every kind, dot segments, queries, fragments), the
        /// one-pass reading gives what the full reading gives, and so does the reading after
        /// the borrowed origin.
        #[test]
        fn the_one_pass_reading_agrees_with_the_full_reading(
            url in "(https?://[a-zA-Z0-9.-]{1,12}(:[0-9]{1,5})?|HTTPS://WWW.Ex.COM|http://u@h|)(/([a-zA-Z0-9_~!$&'()*+,;=:@/?|\\\\ \"<>^`{}\t-]|\\.|/\\.|%[0-9a-fA-FgG]{0,2}|%2[eE]|ü){0,24})?(#[a-z\t/.%]{0,4})?"
        ) {
            let full = Target::parse_full(&url, UrlReading::Canonical);
            proptest::prop_assert_eq!(Target::parse(&url, UrlReading::Canonical), full.clone(), "{:?}", url);
            if let Some(origin) = crate::OriginRef::parse(&url) {
                proptest::prop_assert_eq!(Ok(Target::of(&origin, UrlReading::Canonical)), full, "{:?}", url);
            }
        }
    }
}
