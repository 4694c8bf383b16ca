//! The one error type of the URL layer.
//!
//! Every variant prints as a single lower-case line (no trailing period), so callers such as the
//! command-line tool can put it after `error: ` unchanged. Inputs quoted in a message are cut to
//! a short excerpt, so a megabyte of garbage never becomes a megabyte of error text.

use robotrules_text::excerpt;

/// Why a URL could not be used to locate or scope a robots.txt file, or to extract a path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// The `url` crate rejected the input; the payload is its (lower-case) reason.
    #[error("unparsable url: {0}")]
    Unparsable(String),
    /// The input has no scheme: it is a relative reference (`example.com/a`, `a/b`, ``) and not
    /// a path starting with `/` either.
    #[error("not an absolute url: {0:?}")]
    NotAbsolute(String),
    /// The URL has an authority but its host is empty (`file:///etc/passwd`, `http://`).
    #[error("url has no host")]
    NoHost,
    /// The scheme has no authority at all (`mailto:`, `data:`, `urn:`), so there is no
    /// `scheme://authority/robots.txt` for it (RFC 9309 §2.3).
    #[error("scheme {0:?} has no authority")]
    UnsupportedScheme(String),
    /// The host is not a valid internationalised domain name (UTS #46 processing failed).
    #[error("invalid internationalised host name: {0:?}")]
    BadIdn(String),
    /// The port is not a number in `0..=65535`.
    #[error("invalid port number")]
    InvalidPort,
}

/// The longest excerpt of an input that an error message quotes, in characters.
pub(crate) const EXCERPT_CHARS: usize = 64;

impl UrlError {
    /// Maps an error of the `url` crate to ours; `input` is quoted (shortened) where useful.
    pub(crate) fn from_parse(error: url::ParseError, input: &str) -> UrlError {
        match error {
            url::ParseError::EmptyHost => UrlError::NoHost,
            url::ParseError::InvalidPort => UrlError::InvalidPort,
            url::ParseError::IdnaError => {
                UrlError::BadIdn(excerpt(host_guess(input), EXCERPT_CHARS))
            }
            url::ParseError::RelativeUrlWithoutBase => {
                UrlError::NotAbsolute(excerpt(input, EXCERPT_CHARS))
            }
            other => UrlError::Unparsable(other.to_string()),
        }
    }
}

/// The authority part of `input` (after `://`, up to the next `/`, `?` or `#`), for messages.
fn host_guess(input: &str) -> &str {
    let after_scheme = input.split_once("://").map_or(input, |(_, rest)| rest);
    let end = after_scheme
        .find(['/', '?', '#'])
        .unwrap_or(after_scheme.len());
    &after_scheme[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(UrlError::Unparsable("invalid ipv6 address".into()), "unparsable url: invalid ipv6 address")]
    #[case(UrlError::NotAbsolute("a/b".into()), "not an absolute url: \"a/b\"")]
    #[case(UrlError::NoHost, "url has no host")]
    #[case(UrlError::UnsupportedScheme("mailto".into()), "scheme \"mailto\" has no authority")]
    #[case(UrlError::BadIdn("xn--a.com".into()), "invalid internationalised host name: \"xn--a.com\"")]
    #[case(UrlError::InvalidPort, "invalid port number")]
    fn messages_are_one_lower_case_line(#[case] error: UrlError, #[case] message: &str) {
        let shown = error.to_string();
        assert_eq!(shown, message);
        assert!(!shown.contains('\n'));
        assert_eq!(shown.chars().next().map(|c| c.is_lowercase()), Some(true));
    }

    #[test]
    fn inputs_are_quoted_as_a_short_one_line_excerpt() {
        let long = format!("{}\n", "ü".repeat(1000));
        let Err(UrlError::NotAbsolute(cut)) = crate::Origin::parse(&long) else {
            panic!("a relative reference");
        };
        assert_eq!(cut, format!("{}…", "ü".repeat(EXCERPT_CHARS)));
        let error = UrlError::from_parse(url::ParseError::RelativeUrlWithoutBase, "a\nb\x1b");
        assert_eq!(
            error.to_string(),
            "not an absolute url: \"a<U+000A>b<U+001B>\""
        );
    }

    #[rstest]
    #[case("http://user@host:99/x?y", "user@host:99")]
    #[case("http://host", "host")]
    #[case("host#frag", "host")]
    fn host_guess_takes_the_authority(#[case] input: &str, #[case] host: &str) {
        assert_eq!(host_guess(input), host);
    }
}
