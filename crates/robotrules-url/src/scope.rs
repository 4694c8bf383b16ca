//! Where the robots.txt for a URL lives, and which URLs a robots.txt governs.
//!
//! RFC 9309 §2.3: "The rules MUST be accessible in a file named "/robots.txt" (all lowercase)
//! in the top-level path of the service", at `scheme:[//authority]/robots.txt`. Google's
//! specification (seed documents, table "examples of valid robots.txt URLs") adds the scope: the
//! rules apply only to the host, protocol and port number the file is hosted on; subdomains,
//! other protocols and other ports are not covered; a robots.txt in a subdirectory is not a
//! valid robots.txt file; an IDN equals its punycode form; the standard port equals the elided
//! port. Those table rows are the unit tests below.
//!
//! This module compares origins only; it does not fetch, follow redirects (RFC 9309 §2.3.1.2
//! applies the fetched rules to the *initial* authority, which is the caller's to remember) or
//! resolve host names.

use crate::error::UrlError;
use crate::origin::Origin;

/// The robots.txt URL that governs `url` (RFC 9309 §2.3): `scheme://host[:port]/robots.txt`,
/// with the host lower-case punycode and a default port elided.
///
/// ```
/// assert_eq!(
///     robotrules_url::robots_txt_url("http://www.müller.eu:80/a/b?c#d").unwrap(),
///     "http://www.xn--mller-kva.eu/robots.txt"
/// );
/// ```
pub fn robots_txt_url(url: &str) -> Result<String, UrlError> {
    Ok(Origin::parse(url)?.robots_txt_url())
}

/// `reference` (a `Sitemap:` value, say) resolved against the robots.txt URL `base`, as the
/// URL Standard resolves a link: an absolute URL stays as it is, `/sitemap.xml` gets the
/// base's scheme and host. `None` when `base` is not a URL or `reference` cannot be resolved.
///
/// ```
/// assert_eq!(
///     robotrules_url::resolve("https://example.com/robots.txt", "/sitemap.xml").as_deref(),
///     Some("https://example.com/sitemap.xml")
/// );
/// assert_eq!(
///     robotrules_url::resolve("https://example.com/robots.txt", "https://cdn.example.net/s.xml")
///         .as_deref(),
///     Some("https://cdn.example.net/s.xml")
/// );
/// ```
pub fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = url::Url::parse(base).ok()?;
    base.join(reference.trim()).ok().map(String::from)
}

/// The longest excerpt of a Location header that a bad redirect's message quotes, in
/// characters.
const LOCATION_CHARS: usize = 100;

/// The URL a redirect's `location` points to, resolved against `current` (RFC 3986 §5) as a
/// robots.txt fetch follows it (RFC 9309 §2.3.1.2): without its fragment, and only to http or
/// https. The error says why the Location is no redirect to follow (the fetcher reads that
/// robots.txt as unavailable). One reading for the fetcher and for surveys of captured
/// redirects.
pub fn redirect_target(current: &url::Url, location: &str) -> Result<url::Url, String> {
    let mut next = current.join(location.trim()).map_err(|error| {
        format!(
            "Location {:?}: {error}",
            robotrules_text::excerpt(location, LOCATION_CHARS)
        )
    })?;
    match next.scheme() {
        "http" | "https" => {
            next.set_fragment(None);
            Ok(next)
        }
        other => Err(format!(
            "Location {:?} has scheme {:?}, not http or https",
            robotrules_text::excerpt(location, LOCATION_CHARS),
            robotrules_text::excerpt(other, LOCATION_CHARS)
        )),
    }
}

/// The origin whose URLs the robots.txt at `robots_txt` governs, or `None` when that URL is
/// not a robots.txt location at all (its path is not exactly `/robots.txt`, or it has a query).
///
/// Errors when `robots_txt` cannot be parsed or has no host (see [`Origin::parse`]).
pub fn robots_txt_origin(robots_txt: &str) -> Result<Option<Origin>, UrlError> {
    let parsed =
        url::Url::parse(robots_txt).map_err(|error| UrlError::from_parse(error, robots_txt))?;
    let origin = Origin::from_url(&parsed)?;
    // RFC 9309 §2.3: the file is "/robots.txt" (all lowercase) in the top-level path.
    let at_root = parsed.path() == "/robots.txt" && parsed.query().is_none();
    Ok(at_root.then_some(origin))
}

/// Whether the robots.txt at `robots_txt` governs `url`: same scheme, host and port only.
///
/// A default port equals the elided port (`http://example.com:80/` is `http://example.com/`),
/// an IDN equals its punycode form; subdomains, other ports and other schemes are not covered,
/// and a robots.txt whose path is not exactly `/robots.txt` (say, in a subfolder) governs
/// nothing (`Ok(false)`, not an error). Errors when either URL cannot be parsed.
///
/// ```
/// use robotrules_url::governs;
/// assert!(governs("http://example.com:80/robots.txt", "http://example.com/a").unwrap());
/// assert!(!governs("http://example.com/robots.txt", "https://example.com/a").unwrap());
/// assert!(!governs("http://example.com/folder/robots.txt", "http://example.com/folder/a").unwrap());
/// ```
pub fn governs(robots_txt: &str, url: &str) -> Result<bool, UrlError> {
    let governed = robots_txt_origin(robots_txt)?;
    let target = Origin::parse(url)?;
    Ok(governed.is_some_and(|origin| origin == target))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// Every row of the seed table "examples of valid robots.txt URLs" (Google's robots.txt
    /// specification; the same table in seeds 000 Korean, 001 Indonesian, 002 Thai): the
    /// robots.txt URL, a URL from its "valid for" or "not valid for" column, and which column.
    #[rstest]
    // "The general case. Not valid for other subdomains, protocols or port numbers. Valid for
    // all files in all subdirectories on the same host, protocol and port number."
    #[case("http://example.com/robots.txt", "http://example.com/", true)]
    #[case(
        "http://example.com/robots.txt",
        "http://example.com/folder/file",
        true
    )]
    #[case("http://example.com/robots.txt", "http://other.example.com/", false)]
    #[case("http://example.com/robots.txt", "https://example.com/", false)]
    #[case("http://example.com/robots.txt", "http://example.com:8181/", false)]
    // "A robots.txt on a subdomain is only valid for that subdomain."
    #[case("http://www.example.com/robots.txt", "http://www.example.com/", true)]
    #[case("http://www.example.com/robots.txt", "http://example.com/", false)]
    #[case(
        "http://www.example.com/robots.txt",
        "http://shop.www.example.com/",
        false
    )]
    #[case(
        "http://www.example.com/robots.txt",
        "http://www.shop.example.com/",
        false
    )]
    // "IDNs are equivalent to their punycode versions. See also RFC 3492."
    #[case("http://www.müller.eu/robots.txt", "http://www.müller.eu/", true)]
    #[case(
        "http://www.müller.eu/robots.txt",
        "http://www.xn--mller-kva.eu/",
        true
    )]
    #[case("http://www.müller.eu/robots.txt", "http://www.muller.eu/", false)]
    // "Google-specific: We use the robots.txt for FTP resources."
    #[case("ftp://example.com/robots.txt", "ftp://example.com/", true)]
    #[case("ftp://example.com/robots.txt", "http://example.com/", false)]
    // "A robots.txt with an IP-address as the host name is only valid for crawling of that
    // IP-address as host name." (not for http://example.com/ "even if hosted on 212.96.82.21")
    #[case("http://212.96.82.21/robots.txt", "http://212.96.82.21/", true)]
    #[case("http://212.96.82.21/robots.txt", "http://example.com/", false)]
    // "Standard port numbers (80 for http, 443 for https, 21 for ftp) are equivalent to their
    // default host names."
    #[case("http://example.com:80/robots.txt", "http://example.com:80/", true)]
    #[case("http://example.com:80/robots.txt", "http://example.com/", true)]
    #[case("http://example.com:80/robots.txt", "http://example.com:81/", false)]
    // "robots.txt files on non-standard port numbers are only valid for content made available
    // through those port numbers."
    #[case("http://example.com:8181/robots.txt", "http://example.com:8181/", true)]
    #[case("http://example.com:8181/robots.txt", "http://example.com/", false)]
    fn seed_table_robots_txt_locations(
        #[case] robots_txt: &str,
        #[case] url: &str,
        #[case] valid: bool,
    ) {
        assert_eq!(governs(robots_txt, url), Ok(valid));
        // The location rule and the scope rule agree: a URL is governed exactly by the
        // robots.txt that `robots_txt_url` computes for it.
        let own = robots_txt_url(url).unwrap();
        assert_eq!(governs(&own, url), Ok(true));
        assert_eq!(
            robots_txt_origin(&own).unwrap() == robots_txt_origin(robots_txt).unwrap(),
            valid
        );
    }

    /// Seed table: "http://example.com/folder/robots.txt — not a valid robots.txt file.
    /// Crawlers don't check for robots.txt files in subdirectories." It governs nothing, not
    /// even the URLs in its own folder.
    #[rstest]
    #[case("http://example.com/folder/robots.txt", "http://example.com/folder/")]
    #[case(
        "http://example.com/folder/robots.txt",
        "http://example.com/folder/file"
    )]
    #[case("http://example.com/folder/robots.txt", "http://example.com/")]
    #[case(
        "http://example.com/folder/robots.txt",
        "http://example.com/folder/robots.txt"
    )]
    // RFC 9309 §2.3: "/robots.txt" (all lowercase) in the top-level path.
    #[case("http://example.com/ROBOTS.TXT", "http://example.com/")]
    #[case("http://example.com/robots.txt/", "http://example.com/")]
    #[case("http://example.com//robots.txt", "http://example.com/")]
    #[case("http://example.com/robots.txt?x=1", "http://example.com/")]
    #[case("http://example.com/", "http://example.com/")]
    fn a_robots_txt_outside_the_root_governs_nothing(#[case] robots_txt: &str, #[case] url: &str) {
        assert_eq!(governs(robots_txt, url), Ok(false));
        assert_eq!(robots_txt_origin(robots_txt), Ok(None));
    }

    #[rstest]
    #[case("http://example.com/robots.txt#top", "http://example.com/")]
    #[case("http://example.com/a/../robots.txt", "http://example.com/")]
    #[case("HTTP://EXAMPLE.COM/robots.txt", "http://example.com/x")]
    #[case("http://user:pw@example.com/robots.txt", "http://example.com/x")]
    #[case("https://example.com:443/robots.txt", "https://example.com/x")]
    #[case("ftp://example.com:21/robots.txt", "ftp://example.com/pub/x")]
    #[case("http://[::1]:8080/robots.txt", "http://[0::1]:8080/x")]
    fn same_origin_in_another_spelling_is_governed(#[case] robots_txt: &str, #[case] url: &str) {
        assert_eq!(governs(robots_txt, url), Ok(true));
    }

    #[rstest]
    #[case("http://example.com/a/b?c=d#e", "http://example.com/robots.txt")]
    #[case("HTTPS://Example.COM:443/", "https://example.com/robots.txt")]
    #[case("https://example.com:8443/x", "https://example.com:8443/robots.txt")]
    #[case("http://www.müller.eu/", "http://www.xn--mller-kva.eu/robots.txt")]
    #[case("ftp://ftp.example.com/pub/file", "ftp://ftp.example.com/robots.txt")]
    #[case("http://[::1]:8080/x", "http://[::1]:8080/robots.txt")]
    #[case("http://212.96.82.21:80/x", "http://212.96.82.21/robots.txt")]
    fn robots_txt_locations(#[case] url: &str, #[case] robots_txt: &str) {
        assert_eq!(robots_txt_url(url).unwrap(), robots_txt);
    }

    #[rstest]
    #[case("", "http://example.com/")]
    #[case("http://example.com/robots.txt", "")]
    #[case("http://example.com/robots.txt", "/a")]
    #[case("mailto:x@example.com", "http://example.com/")]
    #[case("http://[::1/robots.txt", "http://example.com/")]
    fn unparsable_inputs_are_errors(#[case] robots_txt: &str, #[case] url: &str) {
        assert!(governs(robots_txt, url).is_err());
    }
}
