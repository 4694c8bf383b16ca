//! The common case of an absolute URL, recognised without the URL Standard parser.
//!
//! Most URLs a crawler asks about look like `https://www.example.com/a/b?c`: a special scheme,
//! a plain ASCII host name and perhaps a port. For those, the `url` crate's full parse (which
//! [`crate::Origin::parse`] and the RFC reading of [`crate::Target`] would otherwise run) gives
//! a result that can be written down directly: the scheme and host lower-cased, the port read
//! as a number. [`simple`] recognises exactly such URLs and answers `None` for everything
//! else, which then goes to the `url` crate. A property test checks that both ways agree.

/// The scheme, host and port of a URL in the common form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Simple<'a> {
    /// The scheme as written (`http`, `HTTPS`, …); one of http, https, ftp.
    pub(crate) scheme: &'a str,
    /// The host as written: ASCII letters, digits, `.` and `-`.
    pub(crate) host: &'a str,
    /// The port as written, if any, as a number.
    pub(crate) port: Option<u16>,
}

/// Schemes whose hosts the URL Standard reads as plain domains, with a default port.
#[cfg(test)]
const SCHEMES: [&str; 3] = ["http", "https", "ftp"];

/// `scheme "://" host [":" port]` followed by the end or one of `/ ? #`, where the URL
/// Standard parser could not fail and would change nothing but the case of scheme and host.
///
/// `None` for anything else: other schemes, userinfo, IP literals in brackets, percent signs,
/// non-ASCII, whitespace or a backslash in the authority, an empty port, a host whose last
/// label looks like a number (the URL Standard reads it as IPv4), or an `xn--` label (its
/// punycode must be checked).
///
/// One pass over the scheme and the authority (it runs for every URL a crawler asks about).
pub(crate) fn simple(url: &str) -> Option<Simple<'_>> {
    let bytes = url.as_bytes();
    // The scheme is one of three, so its `:` is at 3, 4 or 5.
    let colon = match bytes.get(..6)? {
        [_, _, _, b':', ..] => 3,
        [_, _, _, _, b':', _] => 4,
        [_, _, _, _, _, b':'] => 5,
        _ => return None,
    };
    let scheme = url.get(..colon)?;
    // Letters only in the three schemes: `| 0x20` lower-cases them and matches no other byte.
    let lower = |i: usize| bytes[i] | 0x20;
    let known = match colon {
        3 => [lower(0), lower(1), lower(2)] == *b"ftp",
        4 => [lower(0), lower(1), lower(2), lower(3)] == *b"http",
        _ => [lower(0), lower(1), lower(2), lower(3), lower(4)] == *b"https",
    };
    if !known || bytes.get(colon + 1..colon + 3) != Some(b"//") {
        return None;
    }
    let host_start = colon + 3;
    // The host: letters, digits, `-` and `.`, eight at a time, up to the first other byte.
    let mut at = host_start;
    // Whether a `-` may be in the host (it may also be just after it): only then can a label
    // be punycode's `xn--`.
    let mut dash = 0;
    while let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let word = u64::from_le_bytes(*word);
        let outside = !host_bytes(word) & HIGHS;
        dash |= has_byte(word, b'-');
        if outside != 0 {
            at += (outside.trailing_zeros() / 8) as usize;
            break;
        }
        at += 8;
    }
    while let Some(&b) = bytes.get(at) {
        if !(b.is_ascii_alphanumeric() || b == b'-' || b == b'.') {
            break;
        }
        dash |= u64::from(b == b'-');
        at += 1;
    }
    if bytes
        .get(at)
        .is_some_and(|b| !matches!(b, b':' | b'/' | b'?' | b'#'))
    {
        return None;
    }
    let host_end = at;
    let host = &bytes[host_start..host_end];
    if host.is_empty() {
        return None;
    }
    // A punycode label needs checking: `xn--` starts the host or follows a `.`.
    if dash != 0
        && host.windows(2).any(|pair| pair == b"--")
        && host.split(|&b| b == b'.').any(|label| {
            label
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"))
        })
    {
        return None;
    }
    // The last label of the host without a trailing `.`.
    let trimmed = host.strip_suffix(b".").unwrap_or(host);
    let last = match trimmed.iter().rposition(|&b| b == b'.') {
        Some(dot) => &trimmed[dot + 1..],
        None => trimmed,
    };
    // Both need a digit first: most hosts end in a label that starts with a letter.
    let numeric = last.first().is_none_or(u8::is_ascii_digit)
        && (last.iter().all(u8::is_ascii_digit)
            || last.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(b"0x")));
    // A numeric host is read as IPv4; only the form the URL Standard writes back as it is
    // stays in the common form.
    if numeric && !is_dotted_quad(host) {
        return None;
    }
    Some(Simple {
        scheme,
        host: &url[host_start..host_end],
        port: port_after(url, at)?,
    })
}

/// The port after the host ending at `at`: `Some(None)` when there is none, `None` when it
/// is not a port in the common form.
fn port_after(url: &str, at: usize) -> Option<Option<u16>> {
    let bytes = url.as_bytes();
    if bytes.get(at) != Some(&b':') {
        return Some(None);
    }
    let digits_start = at + 1;
    let digits_end = bytes[digits_start..]
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .map_or(bytes.len(), |k| digits_start + k);
    Some(Some(port_number(&url[digits_start..digits_end])?))
}

/// `a.b.c.d`, each a decimal number from 0 to 255 without leading zeros: an IPv4 address in
/// the form the URL Standard serialises it.
fn is_dotted_quad(host: &[u8]) -> bool {
    let mut parts = 0;
    let mut value = 0_u32;
    let mut digits = 0;
    for &b in host.iter().chain([&b'.']) {
        match b {
            b'.' => {
                // Empty, over 255, or with a leading zero: not in the serialised form.
                let leading_zero = digits > 1 && value < 10_u32.pow(digits - 1);
                if digits == 0 || value > 255 || leading_zero {
                    return false;
                }
                parts += 1;
                value = 0;
                digits = 0;
            }
            b'0'..=b'9' if digits < 3 => {
                value = value * 10 + u32::from(b - b'0');
                digits += 1;
            }
            _ => return false,
        }
    }
    parts == 4
}

/// One to five decimal digits with a value that fits a port.
fn port_number(digits: &str) -> Option<u16> {
    if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that is in `lo..=hi` (`hi` < 0x80), exactly.
#[inline(always)]
fn in_range(word: u64, lo: u8, hi: u8) -> u64 {
    let ascii = !word & HIGHS;
    let at_least = (word | HIGHS).wrapping_sub(ONES * u64::from(lo));
    let at_most = (ONES * u64::from(0x80 | hi)).wrapping_sub(word & !HIGHS);
    at_least & at_most & ascii & HIGHS
}

/// Non-zero when a byte of `word` is `byte` (the classic zero-byte test: exact about whether
/// there is one).
#[inline(always)]
fn has_byte(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The high bit of each byte of `word` that may be in a host in the common form: an ASCII
/// letter, a digit, `-` or `.`.
#[inline(always)]
fn host_bytes(word: u64) -> u64 {
    // Upper-case letters fold onto lower-case ones; no other byte folds onto a letter.
    let folded = word | (ONES * 0x20);
    in_range(folded, b'a', b'z') | in_range(word, b'0', b'9') | in_range(word, b'-', b'.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// The first version, kept as the reference for the one-pass scan:
    /// `scheme "://" host [":" port]` followed by the end or one of `/ ? #`, where the URL
    /// Standard parser could not fail and would change nothing but the case of scheme and host.
    ///
    /// `None` for anything else: other schemes, userinfo, IP literals in brackets, percent signs,
    /// non-ASCII, whitespace or a backslash in the authority, an empty port, a host whose last
    /// label looks like a number (the URL Standard reads it as IPv4), or an `xn--` label (its
    /// punycode must be checked).
    fn reference(url: &str) -> Option<Simple<'_>> {
        let (scheme, rest) = url.split_once("://")?;
        if !SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme)) {
            return None;
        }
        let end = rest
            .bytes()
            .position(|b| matches!(b, b'/' | b'?' | b'#'))
            .unwrap_or(rest.len());
        let authority = &rest[..end];
        let (host, port) = match authority.split_once(':') {
            Some((host, port)) => (host, Some(port_number(port)?)),
            None => (authority, None),
        };
        if host.is_empty()
            || !host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        {
            return None;
        }
        let mut labels = host.strip_suffix('.').unwrap_or(host).split('.');
        let last = labels.next_back()?;
        if is_dotted_quad(host.as_bytes()) {
            return Some(Simple { scheme, host, port });
        }
        let numeric = last.bytes().all(|b| b.is_ascii_digit())
            || last.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("0x"));
        let punycode = host.split('.').any(|label| {
            label
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
        });
        if numeric || punycode {
            return None;
        }
        Some(Simple { scheme, host, port })
    }

    /// One to five decimal digits with a value that fits a port.
    fn port_number(digits: &str) -> Option<u16> {
        if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }

    /// The one-pass scan agrees with the reference on every string of up to four bytes after
    /// a scheme over an alphabet that steers it, and on longer chosen ones.
    #[test]
    fn host_bytes_are_letters_digits_dash_and_dot() {
        for byte in 0..=u8::MAX {
            for place in 0..8 {
                let word = u64::from(byte) << (8 * place)
                    | (0x6161_6161_6161_6161 & !(0xFF << (8 * place)));
                let expected = byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'.';
                let got = host_bytes(word) & (0x80 << (8 * place)) != 0;
                assert_eq!(got, expected, "{byte} at {place}");
            }
        }
    }

    #[test]
    fn one_pass_agrees_with_the_reference() {
        let alphabet = [
            b'a', b'X', b'1', b'.', b'-', b':', b'/', b'?', b'#', b'%', b'n', b'@',
        ];
        let mut frontier = vec![Vec::new()];
        let mut checked = 0;
        for _ in 0..4 {
            let mut next = Vec::new();
            for tail in &frontier {
                for &b in &alphabet {
                    let mut t: Vec<u8> = tail.clone();
                    t.push(b);
                    for prefix in ["http://", "HTTPS://", "ftp://", "ftp:/", "gopher://"] {
                        let url = format!("{prefix}{}", String::from_utf8_lossy(&t));
                        assert_eq!(simple(&url), reference(&url), "{url}");
                        checked += 1;
                    }
                    next.push(t);
                }
            }
            frontier = next;
        }
        for url in [
            "http://xn--a.example/",
            "http://a.xn--b/",
            "http://a.XN--b.c/",
            "http://a.b.123/",
            "http://a.b.123./",
            "http://a.0x1f.c/",
            "http://a.b.0X1f/",
            "http://..//",
            "http://a..",
            "http://a:8080",
            "http://a:65536/",
            "http://a:0/",
            "http://a:/",
        ] {
            assert_eq!(simple(url), reference(url), "{url}");
            checked += 1;
        }
        assert!(checked > 100_000);
    }

    #[rstest]
    #[case("http://example.com/a", "http", "example.com", None)]
    #[case("HTTPS://WWW.Example.COM", "HTTPS", "WWW.Example.COM", None)]
    #[case(
        "ftp://ftp.example.com:2121/pub?x#y",
        "ftp",
        "ftp.example.com",
        Some(2121)
    )]
    #[case("http://example.com.:0080?q", "http", "example.com.", Some(80))]
    #[case("http://1.2.3.example/", "http", "1.2.3.example", None)]
    #[case("http://a-b--c.example#f", "http", "a-b--c.example", None)]
    #[case("http://127.0.0.1:8080/a", "http", "127.0.0.1", Some(8080))]
    #[case("https://0.10.255.9/", "https", "0.10.255.9", None)]
    fn recognises_the_common_form(
        #[case] url: &str,
        #[case] scheme: &str,
        #[case] host: &str,
        #[case] port: Option<u16>,
    ) {
        assert_eq!(simple(url), Some(Simple { scheme, host, port }));
    }

    #[rstest]
    #[case("foo://example.com/")]
    #[case("file://server/share")]
    #[case("http://user@example.com/")]
    #[case("http://[::1]/")]
    #[case("http://ex%41mple.com/")]
    #[case("http://müller.eu/")]
    #[case("http://exa mple.com/")]
    #[case("http://example.com\\a")]
    #[case("http://example.com:/")]
    #[case("http://example.com:99999/")]
    #[case("http://example.com:8a/")]
    #[case("http://212.96.82.256/")]
    #[case("http://1.2.3.4./")]
    #[case("http://01.2.3.4/")]
    #[case("http://1.2.3/")]
    #[case("http://1.2.3.4.5/")]
    #[case("http://example.0x1f/")]
    #[case("http://xn--mller-kva.eu/")]
    #[case("http:///a")]
    #[case("http://./")]
    #[case("example.com/a")]
    #[case("/a")]
    fn leaves_everything_else_to_the_url_crate(#[case] url: &str) {
        assert_eq!(simple(url), None, "{url}");
    }
}
