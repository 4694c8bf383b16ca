//! A bare host given where a robots.txt file or URL goes (`example.com`, `127.0.0.1:8080`):
//! the robots.txt URL it stands for, which error messages name as the argument to pass.

/// The robots.txt URL a bare host stands for: `example.com`, `example.com/robots.txt` or
/// `127.0.0.1:8080` (no scheme; the part before the first `/` a host with a dot, an IP
/// literal or `localhost`, with an optional port) gives `https://HOST[:PORT]/robots.txt`.
/// `None` for anything else, a path such as `robots.txt` or `./site/robots.txt` included.
/// Commands do not fetch it on their own: it is the hint of the error for such an argument
/// (a file that does not exist, or a URL without a scheme), since the site may speak http.
pub(crate) fn bare_host_url(arg: &str) -> Option<String> {
    if arg.contains("://") || arg.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let authority = arg.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    };
    let host_like = host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok()
        || (host.contains('.')
            && !host.starts_with('.')
            && !host.ends_with(".txt")
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-'));
    if !host_like {
        return None;
    }
    robotrules::client::store::Origin::parse(&format!("https://{authority}/"))
        .ok()
        .map(|origin| origin.robots_txt_url())
}

#[cfg(test)]
mod tests {
    #[rstest::rstest]
    #[case("example.com", Some("https://example.com/robots.txt"))]
    #[case("example.com/robots.txt", Some("https://example.com/robots.txt"))]
    #[case("127.0.0.1:8080", Some("https://127.0.0.1:8080/robots.txt"))]
    #[case("localhost:99/x", Some("https://localhost:99/robots.txt"))]
    #[case("robots.txt", None)]
    #[case("site/robots.txt", None)]
    #[case("./example.com", None)]
    #[case("https://example.com/", None)]
    #[case("-", None)]
    fn bare_hosts_stand_for_their_robots_txt(#[case] arg: &str, #[case] url: Option<&str>) {
        assert_eq!(super::bare_host_url(arg).as_deref(), url);
    }
}
