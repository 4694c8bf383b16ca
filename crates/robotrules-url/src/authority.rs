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
const SCHEMES: [&str; 3] = ["http", "https", "ftp"];

/// `scheme "://" host [":" port]` followed by the end or one of `/ ? #`, where the URL
/// Standard parser could not fail and would change nothing but the case of scheme and host.
///
/// `None` for anything else: other schemes, userinfo, IP literals in brackets, percent signs,
/// non-ASCII, whitespace or a backslash in the authority, an empty port, a host whose last
/// label looks like a number (the URL Standard reads it as IPv4), or an `xn--` label (its
/// punycode must be checked).
pub(crate) fn simple(url: &str) -> Option<Simple<'_>> {
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
    if is_dotted_quad(host) {
        // An IPv4 address the URL Standard writes back exactly as it is.
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

/// `a.b.c.d`, each a decimal number from 0 to 255 without leading zeros: an IPv4 address in
/// the form the URL Standard serialises it.
fn is_dotted_quad(host: &str) -> bool {
    let mut parts = 0;
    for part in host.split('.') {
        parts += 1;
        let canonical = match part.as_bytes() {
            [b'0'] => true,
            [first, rest @ ..] if rest.len() <= 2 => {
                *first != b'0' && part.bytes().all(|b| b.is_ascii_digit())
            }
            _ => false,
        };
        if !canonical || part.parse::<u16>().map_or(true, |n| n > 255) {
            return false;
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

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

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
