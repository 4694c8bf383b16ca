//! One profile's answer to an `explain` question.

use robotrules::usage::{Usage, UsageStatement};
use robotrules::{Crawler, Error, Explanation, Profile, Robots};
use serde::Serialize;

/// One profile's answer: its explanation, or why it could not answer (a crawler name or a
/// URL it cannot read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct ProfileReport {
    /// The profile.
    pub(crate) profile: Profile,
    /// Why it cannot answer, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// The model's account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) explanation: Option<Explanation>,
    /// The URL's AI usage preferences ([`robotrules::Crawler::usage`]), when the crawler has
    /// usage rules (`Content-Usage`, `Content-Signal`) to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) usage: Option<Usage>,
    /// The crawler's usage rules, to quote the lines that apply.
    #[serde(skip)]
    pub(crate) usage_statements: Vec<UsageStatement>,
}

impl ProfileReport {
    /// The verdict, if the profile could answer.
    pub(crate) fn allowed(&self) -> Option<bool> {
        self.explanation.as_ref().map(|e| e.allowed)
    }
}

/// One profile's answer with the crawler it came from (the file parsed once for the profile),
/// handed to the difference and cut reports.
pub(crate) struct Asked {
    /// The answer.
    pub(crate) report: ProfileReport,
    /// The crawler in the file, when the profile could answer.
    pub(crate) crawler: Option<Crawler>,
}

impl Asked {
    /// Asks `profile` whether crawler `agent` may fetch `url` in the file `bytes`, parsed once.
    pub(super) fn new(
        bytes: &[u8],
        agent: &str,
        url: &str,
        profile: Profile,
        parse_limit: usize,
    ) -> Asked {
        let options = robotrules::ParseOptions::new()
            .with_profile(profile)
            .with_parse_limit(parse_limit);
        let crawler = Robots::parse_with(bytes, &options)
            .crawler(agent)
            .map_err(|invalid| Error::from(invalid).to_string());
        Asked::with(profile, crawler, url)
    }

    /// Asks `crawler`, already chosen under `profile` (or why it could not be), about `url`.
    pub(super) fn with(profile: Profile, crawler: Result<Crawler, String>, url: &str) -> Asked {
        let asked = crawler.and_then(|crawler| {
            let explanation = crawler.explain(url).map_err(|error| error.to_string())?;
            Ok((explanation, crawler))
        });
        match asked {
            Ok((explanation, crawler)) => Asked {
                report: ProfileReport {
                    profile,
                    error: None,
                    explanation: Some(explanation),
                    usage: (!crawler.usage_statements().is_empty())
                        .then(|| crawler.usage(url).ok())
                        .flatten(),
                    usage_statements: crawler.usage_statements().to_vec(),
                },
                crawler: Some(crawler),
            },
            Err(error) => Asked {
                report: ProfileReport {
                    profile,
                    error: Some(error),
                    explanation: None,
                    usage: None,
                    usage_statements: Vec::new(),
                },
                crawler: None,
            },
        }
    }
}
