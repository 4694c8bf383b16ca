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

/// Whether an octet is left as it is without a look at its neighbours: in the path
/// ([`Class::Keep`] and [`Class::GenDelim`]), and in the query ([`Class::Keep`]).
static KEEP: [[bool; 256]; 2] = {
    let mut table = [[false; 256]; 2];
    let mut byte = 0;
    while byte < 256 {
        table[0][byte] = matches!(CLASS[byte], Class::Keep | Class::GenDelim);
        table[1][byte] = matches!(CLASS[byte], Class::Keep);
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

/// An upper-case hex digit.
const fn is_upper_hex(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'A'..=b'F')
}

/// What [`plain_path`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plain<'a> {
    /// The path and query, taken unchanged.
    Path(&'a [u8]),
    /// A path or an absolute URL whose authority is in the common form
    /// ([`crate::authority::simple`]: nothing to check there), but whose path needs work.
    CheckedAuthority,
    /// Anything else.
    Unknown,
}

/// The path and query of `url` when the RFC reading would take them unchanged, else `None`.
#[cfg(test)]
fn plain_path(url: &str) -> Option<&[u8]> {
    match plain(url) {
        Plain::Path(path) => Some(path),
        _ => None,
    }
}

/// [`plain_path`], saying when the authority at least is in the common form.
pub(crate) fn plain(url: &str) -> Plain<'_> {
    let bytes = url.as_bytes();
    if bytes.first() == Some(&b'/') {
        // A scheme-relative `//host/…` is read differently.
        if bytes.get(1) == Some(&b'/') {
            return Plain::Unknown;
        }
        return match plain_from(bytes, 0) {
            Some(path) => Plain::Path(path),
            None => Plain::CheckedAuthority,
        };
    }
    match crate::authority::simple(url) {
        Some(origin) => after_authority(bytes, path_start(bytes, &origin)),
        None => Plain::Unknown,
    }
}

/// Where the path (or query, or fragment) of `bytes` starts, after its authority `origin`.
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
pub(crate) fn after_authority(bytes: &[u8], after: usize) -> Plain<'_> {
    // An empty path is read as `/`: not the text itself.
    if bytes.get(after) != Some(&b'/') {
        return Plain::CheckedAuthority;
    }
    match plain_from(bytes, after) {
        Some(path) => Plain::Path(path),
        None => Plain::CheckedAuthority,
    }
}

/// The rest of [`plain`]: `bytes[start..]` up to the fragment, when it needs no work.
fn plain_from(bytes: &[u8], start: usize) -> Option<&[u8]> {
    let mut query = false;
    let mut at = start;
    loop {
        // Runs of plain octets, eight at a time.
        let keep = &KEEP[usize::from(query)];
        while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
            if !chunk.iter().fold(true, |k, &b| k & keep[usize::from(b)]) {
                break;
            }
            at += 8;
        }
        while bytes.get(at).is_some_and(|&b| keep[usize::from(b)]) {
            at += 1;
        }
        let Some(&b) = bytes.get(at) else {
            break;
        };
        match CLASS[usize::from(b)] {
            Class::Keep => {}
            Class::Dot if !query && bytes[at - 1] == b'/' => return None,
            Class::Dot => {}
            Class::Percent => {
                let (Some(&high), Some(&low)) = (bytes.get(at + 1), bytes.get(at + 2)) else {
                    return None;
                };
                if !is_upper_hex(high) || !is_upper_hex(low) {
                    return None;
                }
                let octet = (high as char).to_digit(16)? << 4 | (low as char).to_digit(16)?;
                // Unreserved octets are decoded, and `%2E` is a dot segment's dot.
                let octet = u8::try_from(octet).ok()?;
                if octet.is_ascii_alphanumeric() || matches!(octet, b'-' | b'.' | b'_' | b'~') {
                    return None;
                }
                at += 2;
            }
            Class::Question if query => return None,
            Class::Question => query = true,
            Class::GenDelim if query => return None,
            Class::GenDelim => {}
            Class::Hash => {
                // Tabs and line breaks anywhere send the URL through the URL Standard.
                if memchr::memchr3(b'\t', b'\n', b'\r', &bytes[at..]).is_some() {
                    return None;
                }
                return Some(&bytes[start..at]);
            }
            Class::Other => return None,
        }
        at += 1;
    }
    Some(&bytes[start..])
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
}
