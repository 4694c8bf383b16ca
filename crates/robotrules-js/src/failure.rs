//! `Failure`: why a question has no answer, thrown to JavaScript, where the wrapper turns it
//! into an `InvalidAgent`, an `InvalidUrl` or a `RangeError` (an unknown profile).

use wasm_bindgen::prelude::wasm_bindgen;

/// A question the profile cannot answer: a crawler name or URL it cannot read, or a profile
/// name that is none of `rfc9309`, `google`, `legacy1994`.
#[wasm_bindgen(getter_with_clone)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `"agent"`, `"url"`, `"profile"` or `"range"` (a value out of its range).
    pub kind: String,
    /// The message, as the CLI prints it.
    pub message: String,
    /// The name, URL or profile as given (lone surrogates replaced by U+FFFD).
    pub input: String,
    /// For a crawler name: the product token to pass instead, when there is one.
    pub suggestion: Option<String>,
}

impl From<robotrules::InvalidAgent> for Failure {
    fn from(error: robotrules::InvalidAgent) -> Self {
        Failure {
            kind: "agent".to_owned(),
            message: error.to_string(),
            input: error.name,
            suggestion: error.suggestion,
        }
    }
}

impl From<robotrules::InvalidUrl> for Failure {
    fn from(error: robotrules::InvalidUrl) -> Self {
        Failure {
            kind: "url".to_owned(),
            message: error.to_string(),
            input: error.url,
            suggestion: None,
        }
    }
}

impl From<robotrules::Error> for Failure {
    fn from(error: robotrules::Error) -> Self {
        match error {
            robotrules::Error::InvalidAgent(error) => error.into(),
            robotrules::Error::InvalidUrl(error) => error.into(),
            // `Error` is non-exhaustive: a later kind is still an input the caller gave.
            other => Failure {
                kind: "input".to_owned(),
                message: other.to_string(),
                input: String::new(),
                suggestion: None,
            },
        }
    }
}

impl Failure {
    /// A value out of its range (a `RangeError` in JavaScript): `message` says which.
    pub(crate) fn range(message: String, input: &str) -> Self {
        Failure {
            kind: "range".to_owned(),
            message,
            input: input.to_owned(),
            suggestion: None,
        }
    }
}

/// The profile named `name`, or the failure that says it is none.
pub(crate) fn profile(name: &str) -> Result<robotrules::Profile, Failure> {
    name.parse()
        .map_err(|error: robotrules::UnknownProfile| Failure {
            kind: "profile".to_owned(),
            message: error.to_string(),
            input: name.to_owned(),
            suggestion: None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_failure_carries_the_cli_message_and_the_token() {
        let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /\n");
        let error = Failure::from(robots.crawler("ExampleBot/1.0").unwrap_err());
        assert_eq!(error.kind, "agent");
        assert_eq!(error.input, "ExampleBot/1.0");
        assert_eq!(error.suggestion.as_deref(), Some("ExampleBot"));
        assert!(
            error.message.ends_with("; pass `ExampleBot`"),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_url_failure_and_a_profile_failure_say_what_was_given() {
        let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /\n");
        let error = Failure::from(robots.is_allowed("bot", "example.com/x").unwrap_err());
        assert_eq!(
            (error.kind.as_str(), error.input.as_str()),
            ("url", "example.com/x")
        );
        assert!(
            error.message.starts_with("cannot read URL"),
            "{}",
            error.message
        );
        let error = profile("googel").unwrap_err();
        assert_eq!(
            (error.kind.as_str(), error.input.as_str()),
            ("profile", "googel")
        );
        assert_eq!(profile("google"), Ok(robotrules::Profile::Google));
    }
}
