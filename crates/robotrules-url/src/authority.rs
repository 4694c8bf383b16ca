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
    let bytes = url.as_bytes();
    // The scheme ends at the first `:` (schemes are a few letters: look only that far).
    let colon = bytes.iter().take(6).position(|&b| b == b':')?;
    let scheme = &url[..colon];
    if !SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme))
        || bytes.get(colon + 1..colon + 3) != Some(b"//")
    {
        return None;
    }
    let start = colon + 3;
    // One pass over the authority: its end, the port's colon, the last dot, and whether
    // every byte is a host byte.
    let mut end = bytes.len();
    let mut port_colon = None;
    let mut last_dot = None;
    let mut label_start = start;
    for (at, &b) in bytes.iter().enumerate().skip(start) {
        match b {
            b'/' | b'?' | b'#' => {
                end = at;
                break;
            }
            b':' if port_colon.is_none() => port_colon = Some(at),
            b'.' if port_colon.is_none() => {
                if bytes[label_start..at]
                    .get(..4)
                    .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"))
                {
                    return None;
                }
                last_dot = Some(at);
                label_start = at + 1;
            }
            _ if port_colon.is_some() => {
                if !b.is_ascii_digit() {
                    return None;
                }
            }
            b'-' => {}
            _ if b.is_ascii_alphanumeric() => {}
            _ => return None,
        }
    }
    let host_end = port_colon.unwrap_or(end);
    let host = &url[start..host_end];
    let port = match port_colon {
        Some(at) => Some(port_number(&url[at + 1..end])?),
        None => None,
    };
    let last_label = &bytes[label_start..host_end];
    if host.is_empty() || b"xn--".eq_ignore_ascii_case(last_label.get(..4).unwrap_or_default()) {
        return None;
    }
    // The last label, not counting a final dot, must not read as a number (IPv4).
    let last = if last_label.is_empty() {
        match last_dot {
            Some(dot) => {
                let before = &bytes[start..dot];
                let from = memchr::memrchr(b'.', before).map_or(0, |d| d + 1);
                &before[from..]
            }
            None => last_label,
        }
    } else {
        last_label
    };
    if is_dotted_quad(host) {
        // An IPv4 address the URL Standard writes back exactly as it is.
        return Some(Simple { scheme, host, port });
    }
    let numeric = last.iter().all(u8::is_ascii_digit)
        || last.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(b"0x"));
    if numeric {
        return None;
    }
    Some(Simple { scheme, host, port })
}

/// `a.b.c.d`, each a decimal number from 0 to 255 without leading zeros: an IPv4 address in
/// the form the URL Standard serialises it.
fn is_dotted_quad(host: &str) -> bool {
    let mut parts = 0;
    let mut value = 0_u32;
    let mut digits = 0;
    for &b in host.as_bytes().iter().chain([&b'.']) {
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
    if digits.is_empty() || digits.len() > 5 {
        return None;
    }
    let value = digits.bytes().try_fold(0_u32, |value, b| {
        b.is_ascii_digit().then(|| value * 10 + u32::from(b - b'0'))
    })?;
    u16::try_from(value).ok()
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
