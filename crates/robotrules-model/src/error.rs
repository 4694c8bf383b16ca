//! Why a question cannot be answered: a crawler name or a URL the profile cannot read.
//!
//! Parsing a file never fails; these are the only errors of the model, and each prints as one
//! line that quotes the input (cut to an excerpt, so a megabyte of garbage never becomes a
//! megabyte of message).

use robotrules_text::excerpt;
use robotrules_url::UrlError;

/// The longest excerpt of an input that a message quotes, in characters.
const EXCERPT_CHARS: usize = 100;

/// A crawler name the profile does not answer for: under RFC 9309 §2.2.1 a name must be a
/// product token (here letters, digits, `_` and `-`). The message shows the token to pass when
/// there is one ([`crate::suggested_token`]): the crawler's token of a full User-Agent header
/// (`Mozilla/5.0 (compatible; Googlebot/2.1; …)` → `Googlebot`), the words of a name joined
/// (`My Bot 2.0` → `MyBot`), the product's name (`ExampleBot/1.0` → `ExampleBot`), never a
/// browser's product such as `Mozilla`. A URL or a path given as the name (the name left out
/// before the URLs) is said to be one ([`InvalidAgent::is_url`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidAgent {
    /// The name given.
    pub name: String,
    /// The token the caller most likely meant, if any (see above).
    pub suggestion: Option<String>,
}

impl InvalidAgent {
    /// Whether the name given is a URL or a path ([`crate::looks_like_url`]): the crawler's
    /// name was most likely left out.
    pub fn is_url(&self) -> bool {
        crate::looks_like_url(&self.name)
    }
}

impl std::error::Error for InvalidAgent {}

impl std::fmt::Display for InvalidAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = excerpt(&self.name, EXCERPT_CHARS);
        if self.is_url() {
            return write!(
                f,
                "invalid crawler name {name:?}: that looks like a URL; the crawler's name, a \
                 product token such as `Googlebot`, comes before the URLs (RFC 9309 §2.2.1)"
            );
        }
        write!(
            f,
            "invalid crawler name {name:?}: a product token has only letters, digits, `_` and \
             `-` (RFC 9309 §2.2.1)"
        )?;
        match &self.suggestion {
            Some(token) => write!(f, "; pass `{token}`"),
            None => Ok(()),
        }
    }
}

/// A URL the profile cannot read: under the RFC reading it must be an absolute URL with a host
/// or a path starting with `/` (Google's reading accepts any string).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read URL {:?}: {}", excerpt(url, EXCERPT_CHARS), why(source))]
#[non_exhaustive]
pub struct InvalidUrl {
    /// The URL as given.
    pub url: String,
    /// Why.
    pub source: UrlError,
}

impl InvalidUrl {
    /// `url` cannot be read, for `source`.
    pub fn new(url: &str, source: UrlError) -> InvalidUrl {
        InvalidUrl {
            url: url.to_owned(),
            source,
        }
    }
}

/// Why a URL cannot be read, without quoting it again (the message quotes it once).
fn why(source: &UrlError) -> String {
    match source {
        UrlError::NotAbsolute(_) => "not an absolute url, nor a path starting with `/`".to_owned(),
        other => other.to_string(),
    }
}

/// Either of the model's errors, for questions that take a crawler name and a URL.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The crawler name.
    #[error(transparent)]
    InvalidAgent(#[from] InvalidAgent),
    /// The URL.
    #[error(transparent)]
    InvalidUrl(#[from] InvalidUrl),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_suggest_the_token() {
        let error = InvalidAgent {
            name: "ExampleBot/1.0".into(),
            suggestion: Some("ExampleBot".into()),
        };
        assert_eq!(
            error.to_string(),
            "invalid crawler name \"ExampleBot/1.0\": a product token has only letters, digits, \
             `_` and `-` (RFC 9309 §2.2.1); pass `ExampleBot`"
        );
        let error = InvalidAgent {
            name: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)".into(),
            suggestion: Some("Googlebot".into()),
        };
        assert!(error.to_string().ends_with("; pass `Googlebot`"), "{error}");
        let error = InvalidUrl {
            url: "a\nb".repeat(100),
            source: UrlError::NoHost,
        };
        let shown = error.to_string();
        assert!(!shown.contains('\n') && shown.contains('…'), "{shown}");
        let error = InvalidAgent {
            name: "bot\u{1b}[2J\u{202E}".into(),
            suggestion: None,
        };
        assert!(error
            .to_string()
            .starts_with("invalid crawler name \"bot<U+001B>[2J<U+202E>\":"));
    }

    #[test]
    fn a_url_message_quotes_the_url_once() {
        let error = InvalidUrl {
            url: "relative".into(),
            source: UrlError::NotAbsolute("relative".into()),
        };
        assert_eq!(
            error.to_string(),
            "cannot read URL \"relative\": not an absolute url, nor a path starting with `/`"
        );
    }

    #[test]
    fn a_url_given_as_the_name_is_said_to_be_one() {
        let error = InvalidAgent {
            name: "https://example.com/x".into(),
            suggestion: None,
        };
        assert!(error.is_url());
        assert!(
            error.to_string().contains("that looks like a URL"),
            "{error}"
        );
    }
}
