//! Integration tests of robotrules-url through its public API only: the API other crates are
//! written against, totality on odd inputs, and the invariants tying the functions together.

use std::borrow::Cow;

use robotrules_url::{
    canonical, google, governs, robots_txt_url, target_path, Origin, Target, UrlError, UrlReading,
};

/// The public signatures other crates of the workspace are written against. This fails to
/// compile, not at run time, when one of them changes.
#[test]
fn public_api_signatures() {
    let _: fn(&str) -> Result<Origin, UrlError> = Origin::parse;
    let _: for<'a> fn(&'a Origin) -> &'a str = Origin::scheme;
    let _: for<'a> fn(&'a Origin) -> &'a str = Origin::host;
    let _: fn(&Origin) -> Option<u16> = Origin::port;
    let _: fn(&Origin) -> Option<u16> = Origin::effective_port;
    let _: fn(&Origin) -> String = Origin::robots_txt_url;
    let _: fn(&str) -> Result<String, UrlError> = robots_txt_url;
    let _: fn(&str, &str) -> Result<bool, UrlError> = governs;
    let _: for<'a> fn(&'a str) -> Result<Cow<'a, str>, UrlError> = target_path;
    let _: fn(&'static str, UrlReading) -> Result<Target<'static>, UrlError> = Target::parse;
    let _: for<'a> fn(&'a str) -> Cow<'a, str> = google::path_params_query;
    let _: for<'a> fn(&'a [u8]) -> Cow<'a, [u8]> = google::escape_pattern;
    let _: for<'a> fn(&'a [u8]) -> Cow<'a, [u8]> = canonical::path;
    let _: for<'a> fn(&'a [u8]) -> Cow<'a, [u8]> = canonical::pattern;
    let _: fn(&str, u16) -> bool = robotrules_url::is_default_port;
    fn traits<T: Eq + std::hash::Hash + Clone + std::fmt::Debug + std::fmt::Display>() {}
    fn error<T: std::error::Error + Send + Sync + 'static>() {}
    fn from_str<T: std::str::FromStr<Err = UrlError>>() {}
    traits::<Origin>();
    error::<UrlError>();
    from_str::<Origin>();
    assert_eq!(
        "http://example.com"
            .parse::<Origin>()
            .map(|o| o.to_string())
            .as_deref(),
        Ok("http://example.com")
    );
}

/// Inputs that have broken URL code elsewhere. Every public function must return (an error
/// where the input is not usable), never panic.
#[test]
fn odd_inputs_never_panic() {
    let huge_path = format!("http://example.com/{}", "a/%zz?ü*$".repeat(100_000));
    let huge_host = format!("http://{}.com/", "a".repeat(1_000_000));
    let huge_label = format!("http://{}.com/", "ü".repeat(100_000));
    let many_dots = format!("http://{}/", ".".repeat(100_000));
    let odd: Vec<&str> = vec![
        "",
        " ",
        "\0",
        "http://",
        "http:",
        "http:/",
        "http:///",
        "http://[::1",
        "http://[::1]]/",
        "http://[:::1]/",
        "http://[1.2.3.4]/",
        "http://exa mple.com/",
        "http://xn--a.com/",
        "http://xn--/",
        "http://xn--ls8h.la/",
        "http://.../",
        "http://a..b/",
        "http://%zz/",
        "http://%ff/",
        "http://\u{200b}/",
        "http://example.com:65535/",
        "http://example.com:65536/",
        "http://example.com:99999999999999999999/",
        "http://example.com:-1/",
        "http://user:pass@:80/",
        "http://@/",
        "http://256.256.256.256/",
        "http://1.2.3/",
        "ftp://",
        "ftp://example.com",
        "file:///etc/passwd",
        "file://",
        "mailto:",
        "mailto:a@b",
        "data:,",
        "javascript:alert(1)",
        "urn:isbn:0",
        ":",
        "://",
        "//",
        "///",
        "//a",
        "?",
        "#",
        "%",
        "*",
        "$",
        "/robots.txt",
        "foo://",
        "foo://%zz/",
        "foo://\u{fffd}/",
        "\u{feff}http://example.com/",
        "http://example.com/\u{0}\u{7f}\u{80}",
        &huge_path,
        &huge_host,
        &huge_label,
        &many_dots,
    ];
    for &input in &odd {
        let _ = Origin::parse(input);
        let _ = input.parse::<Origin>();
        let _ = robots_txt_url(input);
        let _ = robotrules_url::robots_txt_origin(input);
        let _ = governs(input, input);
        let _ = governs("http://example.com/robots.txt", input);
        let _ = governs(input, "http://example.com/");
        let _ = target_path(input);
        let google_path = google::path_params_query(input);
        assert!(google_path.starts_with('/'), "{input:?}");
        for bytes in [input.as_bytes(), google_path.as_bytes()] {
            let _ = google::escape_pattern(bytes);
            let _ = canonical::path(bytes);
            let _ = canonical::pattern(bytes);
        }
    }
    for bytes in [
        &b"\xff\xfe%"[..],
        b"%\xff",
        b"%f\xff",
        b"\x00%",
        b"$",
        b"%%",
    ] {
        let _ = google::escape_pattern(bytes);
        let _ = canonical::path(bytes);
        let _ = canonical::pattern(bytes);
    }
    // Errors quote at most a short excerpt of the input.
    for &input in &odd {
        for error in [Origin::parse(input).err(), target_path(input).err()]
            .into_iter()
            .flatten()
        {
            let message = error.to_string();
            assert!(message.len() < 400 && !message.contains('\n'), "{message}");
        }
    }
}

/// Small generated URLs around the characters that steer URL parsing, checked against the
/// invariants that tie the functions together.
#[test]
fn generated_urls_keep_the_invariants() {
    let prefixes = [
        "",
        "http://",
        "HTTPS://u:p@",
        "ftp://",
        "foo://",
        "//",
        "http://[::1]",
        "mailto:",
    ];
    let alphabet = [
        "a", "Ü", ".", ":", "/", "?", "#", "@", "%", "[", "]", " ", "8", "*",
    ];
    let mut checked_origins = 0;
    for prefix in prefixes {
        for first in alphabet {
            for second in alphabet {
                for third in alphabet {
                    let input = format!("{prefix}{first}{second}{third}");
                    checked_origins += usize::from(check_invariants(&input));
                }
            }
        }
    }
    // The loop must have met plenty of valid origins, or it checked nothing.
    assert!(checked_origins > 2_000, "{checked_origins}");
}

/// Checks the invariants for `input`; returns whether it had an origin.
fn check_invariants(input: &str) -> bool {
    let google_path = google::path_params_query(input);
    assert!(google_path.starts_with('/'), "{input:?}");
    if let Ok(path) = target_path(input) {
        assert!(path.starts_with('/'), "{input:?} -> {path:?}");
        assert!(!path.contains('#'), "{input:?} -> {path:?}");
        let once = canonical::path(path.as_bytes()).into_owned();
        assert_eq!(&*canonical::path(&once), &once[..], "{input:?}");
    }
    let Ok(origin) = Origin::parse(input) else {
        assert!(robots_txt_url(input).is_err(), "{input:?}");
        return false;
    };
    // Display round-trips, and the robots.txt of a URL governs it.
    assert_eq!(
        origin.to_string().parse::<Origin>().as_ref(),
        Ok(&origin),
        "{input:?}"
    );
    let robots = origin.robots_txt_url();
    assert_eq!(robots_txt_url(input).as_ref(), Ok(&robots), "{input:?}");
    assert_eq!(governs(&robots, input), Ok(true), "{input:?} by {robots}");
    assert_eq!(
        robotrules_url::robots_txt_origin(&robots).as_ref(),
        Ok(&Some(origin.clone()))
    );
    // Normal form: lower-case scheme and host, no default port.
    assert_eq!(origin.scheme(), origin.scheme().to_ascii_lowercase());
    assert_eq!(origin.host(), origin.host().to_ascii_lowercase());
    assert!(origin.host().is_ascii() && !origin.host().is_empty());
    if let Some(port) = origin.port() {
        assert!(!robotrules_url::is_default_port(origin.scheme(), port));
    }
    // A robots.txt of another scheme or port never governs it.
    let others = [
        format!("gopher://{}/robots.txt", origin.host()),
        format!("{}://{}:1/robots.txt", origin.scheme(), origin.host()),
    ];
    for other in others {
        if let Ok(Some(other_origin)) = robotrules_url::robots_txt_origin(&other) {
            assert_eq!(
                governs(&other, input),
                Ok(other_origin == origin),
                "{input:?} by {other}"
            );
        }
    }
    true
}
