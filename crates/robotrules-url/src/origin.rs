//! The origin key of a robots.txt file: scheme, host and port.
//!
//! RFC 9309 §2.3 puts the rules at `scheme:[//authority]/robots.txt`, and Google's specification
//! (the seed documents, "robots.txt location") says the rules apply only to the host, protocol
//! and port number the file is hosted on, that an IDN equals its punycode form, and that the
//! standard ports (http 80, https 443, ftp 21) equal the elided port. [`Origin`] is that triple
//! in one normal form, so two URLs are governed by the same robots.txt exactly when their
//! origins are equal.
//!
//! This module does not resolve names: `http://212.96.82.21/` and `http://example.com/` are
//! different origins even when the name resolves to the address (as the seed table demands).

use std::fmt;
use std::str::FromStr;

use crate::authority;
use crate::error::{UrlError, EXCERPT_CHARS};
use robotrules_text::excerpt;

/// The default port of `scheme`, if it has one this crate knows.
///
/// http 80, https 443 and ftp 21 come from Google's specification; ws 80 and wss 443 are added
/// because the `url` crate elides them as well (WHATWG URL Standard "special schemes"), and the
/// two must agree.
pub fn default_port(scheme: &str) -> Option<u16> {
    // Compared without a lower-cased copy: this runs for every URL a client is asked about.
    const DEFAULT_PORTS: [(&str, u16); 5] = [
        ("http", 80),
        ("https", 443),
        ("ftp", 21),
        ("ws", 80),
        ("wss", 443),
    ];
    DEFAULT_PORTS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(scheme))
        .map(|&(_, port)| port)
}

/// Whether `port` is the default port of `scheme` (`http` 80, `https` 443, `ftp` 21), i.e.
/// whether `scheme://host:port/` and `scheme://host/` are the same origin.
pub fn is_default_port(scheme: &str, port: u16) -> bool {
    default_port(scheme) == Some(port)
}

/// The origin key of a URL: scheme, host and port, normalised.
///
/// - `scheme` is lower-case;
/// - `host` is lower-case; an internationalised name is converted to punycode (UTS #46, as the
///   `url` and `idna` crates do it), an IPv4 address is a dotted quad, an IPv6 address is in
///   brackets (`[::1]`);
/// - `port` is `None` when it is omitted or equal to the scheme's default port.
///
/// Userinfo, path, query and fragment are dropped. Two URLs fall under the same robots.txt
/// exactly when their `Origin`s are equal. A trailing dot in a host name is kept, as the `url`
/// crate keeps it: `example.com.` and `example.com` are different origins.
///
/// ```
/// use robotrules_url::Origin;
/// let origin = Origin::parse("HTTP://user:pw@WWW.Müller.EU:80/a?b#c").unwrap();
/// assert_eq!(origin.to_string(), "http://www.xn--mller-kva.eu");
/// assert_eq!(origin.robots_txt_url(), "http://www.xn--mller-kva.eu/robots.txt");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Origin {
    /// Parses any absolute URL that has a host and returns its origin.
    ///
    /// Errors: a relative reference or bare path ([`UrlError::NotAbsolute`]), a scheme without
    /// an authority such as `mailto:` or `data:` ([`UrlError::UnsupportedScheme`]), an empty
    /// host ([`UrlError::NoHost`]), an invalid IDN ([`UrlError::BadIdn`]), a bad port
    /// ([`UrlError::InvalidPort`]), anything else the `url` crate rejects
    /// ([`UrlError::Unparsable`]).
    pub fn parse(url: &str) -> Result<Origin, UrlError> {
        if let Some(simple) = authority::simple(url) {
            return Ok(Origin::from_simple(simple));
        }
        let parsed = url::Url::parse(url).map_err(|error| UrlError::from_parse(error, url))?;
        Origin::from_url(&parsed)
    }

    /// The origin of a URL in the common form, as the `url` crate would give it.
    fn from_simple(simple: authority::Simple<'_>) -> Origin {
        let scheme = simple.scheme.to_ascii_lowercase();
        let port = simple.port.filter(|&port| !is_default_port(&scheme, port));
        Origin {
            host: simple.host.to_ascii_lowercase(),
            scheme,
            port,
        }
    }

    /// The origin of an already parsed URL (see [`Origin::parse`] for the errors).
    pub(crate) fn from_url(url: &url::Url) -> Result<Origin, UrlError> {
        if url.cannot_be_a_base() {
            return Err(UrlError::UnsupportedScheme(excerpt(
                url.scheme(),
                EXCERPT_CHARS,
            )));
        }
        let scheme = url.scheme().to_owned();
        let host = match url.host() {
            None => return Err(UrlError::NoHost),
            Some(url::Host::Domain("")) => return Err(UrlError::NoHost),
            // The `url` crate already applies UTS #46 (lower-casing, punycode) to the hosts of
            // special schemes (http, https, ftp, ws, wss, file).
            Some(url::Host::Domain(domain)) if url_normalises_host(&scheme) => domain.to_owned(),
            // Other schemes keep an "opaque host" verbatim; bring it to the same form.
            Some(url::Host::Domain(domain)) => opaque_host_to_ascii(domain)?,
            Some(url::Host::Ipv4(address)) => address.to_string(),
            Some(url::Host::Ipv6(address)) => format!("[{address}]"),
        };
        let port = url.port().filter(|&port| !is_default_port(&scheme, port));
        Ok(Origin { scheme, host, port })
    }

    /// The scheme, lower-case (`http`, `https`, `ftp`, …).
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The host, lower-case: a punycode domain, a dotted-quad IPv4 address, or an IPv6 address
    /// in brackets.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The explicit port, or `None` when the URL used the scheme's default port (or none).
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The port a client connects to: the explicit port, else the scheme's default port
    /// (`None` for a scheme without a known default and without an explicit port).
    pub fn effective_port(&self) -> Option<u16> {
        self.port.or_else(|| default_port(&self.scheme))
    }

    /// The robots.txt URL of this origin, `scheme://host[:port]/robots.txt` (RFC 9309 §2.3).
    pub fn robots_txt_url(&self) -> String {
        format!("{self}/robots.txt")
    }
}

impl fmt::Display for Origin {
    /// `scheme://host[:port]`, e.g. `https://www.xn--mller-kva.eu`, `http://example.com:8181`,
    /// `http://[::1]:8080`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        Ok(())
    }
}

impl FromStr for Origin {
    type Err = UrlError;

    /// Same as [`Origin::parse`].
    fn from_str(url: &str) -> Result<Origin, UrlError> {
        Origin::parse(url)
    }
}

/// Whether the `url` crate parses hosts of `scheme` as domains (WHATWG "special" schemes).
fn url_normalises_host(scheme: &str) -> bool {
    matches!(scheme, "http" | "https" | "ftp" | "ws" | "wss" | "file")
}

/// Brings an opaque host (non-special scheme) to the lower-case punycode form.
///
/// The `url` crate keeps such a host verbatim except that it percent-encodes non-ASCII octets
/// (`foo://bücher.example` has host `b%C3%BCcher.example`), so decode first, then apply the
/// same UTS #46 processing as for http.
fn opaque_host_to_ascii(host: &str) -> Result<String, UrlError> {
    let decoded = percent_encoding::percent_decode_str(host)
        .decode_utf8()
        .map_err(|_| UrlError::BadIdn(excerpt(host, EXCERPT_CHARS)))?;
    idna::domain_to_ascii(&decoded).map_err(|_| UrlError::BadIdn(excerpt(host, EXCERPT_CHARS)))
}

/// The origin of a URL in the common form (`http`, `https` or `ftp`, a plain host, an optional
/// port) whose scheme and host are already lower-case, borrowed from the URL.
///
/// It is what a cache keyed by [`Origin`] needs to look a URL up without allocating: it hashes
/// exactly as the equal [`Origin`] does (the same fields, in the same order) and
/// [`OriginRef::is`] compares it with one. Any other URL gives `None`; read it with
/// [`Origin::parse`].
///
/// ```
/// use robotrules_url::{Origin, OriginRef};
///
/// let url = "https://example.com:443/a?b";
/// let borrowed = OriginRef::parse(url).expect("common form");
/// assert!(borrowed.is(&Origin::parse(url)?));
/// assert_eq!(borrowed.to_origin(), Origin::parse(url)?);
/// assert!(OriginRef::parse("https://Example.com/").is_none()); // not lower-case
/// # Ok::<(), robotrules_url::UrlError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct OriginRef<'a> {
    url: &'a str,
    scheme: &'a str,
    host: &'a str,
    port: Option<u16>,
    /// Where the URL's path (or query, or fragment) starts.
    path_start: usize,
}

impl std::hash::Hash for OriginRef<'_> {
    /// As the equal [`Origin`] hashes (its derived `Hash`: the fields in order).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.scheme.hash(state);
        self.host.hash(state);
        self.port.hash(state);
    }
}

impl<'a> OriginRef<'a> {
    /// The origin of `url` when it is in the common form with a lower-case scheme and host.
    pub fn parse(url: &'a str) -> Option<OriginRef<'a>> {
        let simple = authority::simple(url)?;
        if simple
            .scheme
            .bytes()
            .chain(simple.host.bytes())
            .any(|b| b.is_ascii_uppercase())
        {
            return None;
        }
        Some(OriginRef {
            url,
            path_start: crate::plain::path_start(url.as_bytes(), &simple),
            scheme: simple.scheme,
            host: simple.host,
            port: simple
                .port
                .filter(|&port| !is_default_port(simple.scheme, port)),
        })
    }

    /// The URL it was read from.
    pub fn url(&self) -> &'a str {
        self.url
    }

    /// Where the URL's path (or query, or fragment) starts.
    pub(crate) fn path_start(&self) -> usize {
        self.path_start
    }

    /// Whether `origin` is this origin.
    pub fn is(&self, origin: &Origin) -> bool {
        self.port == origin.port && self.host == origin.host && self.scheme == origin.scheme
    }

    /// The owned origin.
    pub fn to_origin(&self) -> Origin {
        Origin {
            scheme: self.scheme.to_owned(),
            host: self.host.to_owned(),
            port: self.port,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("http://example.com/", "http", "example.com", None)]
    #[case("HTTP://EXAMPLE.COM/", "http", "example.com", None)]
    #[case("http://example.com:80/", "http", "example.com", None)]
    #[case("http://example.com:0080/", "http", "example.com", None)]
    #[case("http://example.com:/", "http", "example.com", None)]
    #[case("http://example.com:81/", "http", "example.com", Some(81))]
    #[case("https://example.com:443/", "https", "example.com", None)]
    #[case("https://example.com:80/", "https", "example.com", Some(80))]
    #[case("ftp://example.com:21/", "ftp", "example.com", None)]
    #[case("ftp://example.com:2121/", "ftp", "example.com", Some(2121))]
    #[case("http://user:secret@example.com/a/b?c#d", "http", "example.com", None)]
    #[case("http://www.müller.eu/", "http", "www.xn--mller-kva.eu", None)]
    #[case("http://WWW.MÜLLER.EU/", "http", "www.xn--mller-kva.eu", None)]
    #[case("http://www.xn--mller-kva.eu/", "http", "www.xn--mller-kva.eu", None)]
    #[case("http://ex%41mple.com/", "http", "example.com", None)]
    #[case("http://212.96.82.21/", "http", "212.96.82.21", None)]
    #[case("http://0xd4.0x60.0x52.0x15/", "http", "212.96.82.21", None)]
    #[case("http://[::1]:8080/", "http", "[::1]", Some(8080))]
    #[case("http://[0:0:0:0:0:0:0:1]/", "http", "[::1]", None)]
    #[case("http://[2001:DB8::A]/", "http", "[2001:db8::a]", None)]
    #[case("foo://Example.COM:80/x", "foo", "example.com", Some(80))]
    #[case("foo://Bücher.example/", "foo", "xn--bcher-kva.example", None)]
    #[case("foo://[::1]/", "foo", "[::1]", None)]
    #[case("file://server/share", "file", "server", None)]
    fn parses_to_normal_form(
        #[case] url: &str,
        #[case] scheme: &str,
        #[case] host: &str,
        #[case] port: Option<u16>,
    ) {
        let origin = Origin::parse(url).unwrap();
        assert_eq!(
            (origin.scheme(), origin.host(), origin.port()),
            (scheme, host, port)
        );
    }

    #[rstest]
    #[case("https://www.müller.eu/a", "https://www.xn--mller-kva.eu")]
    #[case("http://example.com:8181/", "http://example.com:8181")]
    #[case("http://[::1]:8080/", "http://[::1]:8080")]
    #[case("ftp://ftp.example.com/pub/", "ftp://ftp.example.com")]
    fn displays_as_scheme_host_port(#[case] url: &str, #[case] shown: &str) {
        let origin = Origin::parse(url).unwrap();
        assert_eq!(origin.to_string(), shown);
        assert_eq!(origin.robots_txt_url(), format!("{shown}/robots.txt"));
        // Display round-trips through FromStr.
        assert_eq!(shown.parse::<Origin>().unwrap(), origin);
    }

    #[rstest]
    #[case("http://example.com/", Some(80))]
    #[case("http://example.com:8181/", Some(8181))]
    #[case("https://example.com/", Some(443))]
    #[case("ftp://example.com/", Some(21))]
    #[case("wss://example.com/", Some(443))]
    #[case("gopher://example.com/", None)]
    #[case("gopher://example.com:70/", Some(70))]
    fn effective_port_falls_back_to_the_default(#[case] url: &str, #[case] port: Option<u16>) {
        assert_eq!(Origin::parse(url).unwrap().effective_port(), port);
    }

    #[rstest]
    #[case("http", 80, true)]
    #[case("HTTP", 80, true)]
    #[case("ws", 80, true)]
    #[case("WsS", 443, true)]
    #[case("htt", 80, false)]
    #[case("https", 443, true)]
    #[case("ftp", 21, true)]
    #[case("http", 443, false)]
    #[case("https", 80, false)]
    #[case("ftp", 80, false)]
    #[case("gopher", 70, false)]
    fn default_ports(#[case] scheme: &str, #[case] port: u16, #[case] default: bool) {
        assert_eq!(is_default_port(scheme, port), default);
    }

    #[rstest]
    #[case("", UrlError::NotAbsolute(String::new()))]
    #[case("/robots.txt", UrlError::NotAbsolute("/robots.txt".into()))]
    #[case("example.com/a", UrlError::NotAbsolute("example.com/a".into()))]
    #[case("http://", UrlError::NoHost)]
    #[case("ftp://", UrlError::NoHost)]
    #[case("file:///etc/passwd", UrlError::NoHost)]
    #[case("foo:///x", UrlError::NoHost)]
    #[case("mailto:someone@example.com", UrlError::UnsupportedScheme("mailto".into()))]
    #[case("data:text/plain,hi", UrlError::UnsupportedScheme("data".into()))]
    #[case("http://example.com:65536/", UrlError::InvalidPort)]
    #[case("http://example.com:8o/", UrlError::InvalidPort)]
    #[case("http://[::1", UrlError::Unparsable("invalid IPv6 address".into()))]
    fn rejects(#[case] url: &str, #[case] error: UrlError) {
        assert_eq!(Origin::parse(url), Err(error));
    }

    #[rstest]
    #[case("http://exa mple.com/")]
    #[case("http://xn--a.com/")]
    #[case("foo://xn--a.com/")]
    fn rejects_bad_hosts(#[case] url: &str) {
        assert!(Origin::parse(url).is_err(), "{url}");
    }

    #[test]
    fn equal_origins_hash_equal() {
        use std::collections::HashSet;
        let set: HashSet<Origin> = ["http://www.müller.eu/", "http://www.xn--mller-kva.eu:80/x"]
            .iter()
            .map(|url| Origin::parse(url).unwrap())
            .collect();
        assert_eq!(set.len(), 1);
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2048,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            ..proptest::test_runner::Config::default()
        })]

        /// The common-form shortcut gives exactly what the `url` crate gives.
        #[test]
        fn the_shortcut_agrees_with_the_url_crate(
            url in "(http|HTTPS|ftp|Http)://([a-zA-Z0-9.:xX-]{0,14}|[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,4}(:[0-9]{1,5})?)([/?#][a-z/.]{0,4})?"
        ) {
            let slow = url::Url::parse(&url)
                .map_err(|error| UrlError::from_parse(error, &url))
                .and_then(|parsed| Origin::from_url(&parsed));
            if let Some(simple) = authority::simple(&url) {
                proptest::prop_assert_eq!(Ok(Origin::from_simple(simple)), slow, "{}", url);
            }
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serializes_its_parts() {
        let origin = Origin::parse("http://example.com:8181/").unwrap();
        assert_eq!(
            serde_json::to_string(&origin).unwrap(),
            r#"{"scheme":"http","host":"example.com","port":8181}"#
        );
        let origin = Origin::parse("https://[::1]/").unwrap();
        assert_eq!(
            serde_json::to_string(&origin).unwrap(),
            r#"{"scheme":"https","host":"[::1]","port":null}"#
        );
    }

    /// The borrowed origin is the owned one, and hashes like it, or leaves the URL to
    /// `Origin::parse`.
    #[rstest]
    #[case("https://example.com/a", true)]
    #[case("http://example.com:80/", true)]
    #[case("http://example.com:8080/x?y#z", true)]
    #[case("ftp://files.example.org", true)]
    #[case("https://127.0.0.1:8443/", true)]
    #[case("https://www.example.com.:443", true)]
    #[case("HTTPS://example.com/", false)]
    #[case("https://Example.com/", false)]
    #[case("https://xn--mller-kva.eu/", false)]
    #[case("https://user@example.com/", false)]
    #[case("https://[::1]/", false)]
    #[case("/relative", false)]
    fn the_borrowed_origin_equals_and_hashes_as_the_owned_one(
        #[case] url: &str,
        #[case] borrowed: bool,
    ) {
        use std::hash::BuildHasher;
        let Some(origin_ref) = OriginRef::parse(url) else {
            assert!(!borrowed, "{url} should be borrowed");
            return;
        };
        assert!(borrowed, "{url} should not be borrowed");
        let origin = Origin::parse(url).expect("a valid URL");
        assert!(origin_ref.is(&origin));
        assert_eq!(origin_ref.to_origin(), origin);
        let hasher = std::collections::hash_map::RandomState::new();
        assert_eq!(hasher.hash_one(origin_ref), hasher.hash_one(&origin));
        let other = Origin::parse("https://other.example/").expect("a valid URL");
        assert!(!origin_ref.is(&other));
    }
}
