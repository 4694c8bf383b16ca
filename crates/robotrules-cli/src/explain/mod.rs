//! What `robotrules explain` shows: the model's account of one (crawler, URL) question under
//! one or several profiles, and, side by side, why the profiles differ.
//!
//! Every decision here is the model's ([`robotrules::Explanation`]: the groups and how they
//! were chosen, the token that named the crawler, every matching rule, the winner, the rules
//! it tied with). This module only asks each profile and puts the answers together;
//! [`differences`] renders the model's causes of a difference
//! ([`robotrules_model::differences`]), [`cut`] where the parse limit cut the file and the
//! matching rules past it, and [`text()`] writes the report for people.

mod cut;
mod differences;
mod text;

use robotrules::{Crawler, Error, Explanation, Profile, Robots};
use serde::Serialize;

pub(crate) use cut::{Cut, CutBy, PastCut, READ_PAST_CUT};

pub(crate) use text::text;

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
    fn new(bytes: &[u8], agent: &str, url: &str, profile: Profile, parse_limit: usize) -> Asked {
        let options = robotrules::ParseOptions {
            profile,
            parse_limit,
        };
        let asked = Robots::parse_with(bytes, &options)
            .crawler(agent)
            .map_err(Error::from)
            .and_then(|crawler| Ok((crawler.explain(url)?, crawler)));
        match asked {
            Ok((explanation, crawler)) => Asked {
                report: ProfileReport {
                    profile,
                    error: None,
                    explanation: Some(explanation),
                },
                crawler: Some(crawler),
            },
            Err(error) => Asked {
                report: ProfileReport {
                    profile,
                    error: Some(error.to_string()),
                    explanation: None,
                },
                crawler: None,
            },
        }
    }
}

/// The account of one (crawler, URL) question under one or more profiles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Report {
    /// The crawler's name as given.
    pub(crate) agent: String,
    /// The URL as given.
    pub(crate) url: String,
    /// One answer per profile, in the order asked for.
    pub(crate) profiles: Vec<ProfileReport>,
    /// Why the profiles' verdicts or deciding rules differ (empty when they agree).
    pub(crate) differences: Vec<String>,
    /// Where the parse limit cut the file, and the matching rules it left out (RFC 9309
    /// §2.5); absent when the whole file was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) parse_limit: Option<Cut>,
}

impl Report {
    /// Asks each of `profiles` whether crawler `agent` may fetch `url` in the file `bytes`.
    pub(crate) fn new(
        bytes: &[u8],
        agent: &str,
        url: &str,
        profiles: &[Profile],
        parse_limit: usize,
    ) -> Report {
        let asked: Vec<Asked> = profiles
            .iter()
            .map(|&profile| Asked::new(bytes, agent, url, profile, parse_limit))
            .collect();
        let differences = differences::find(&asked, bytes);
        let parse_limit = Cut::find(bytes, agent, url, &asked);
        let profiles = asked.into_iter().map(|a| a.report).collect();
        Report {
            agent: agent.to_owned(),
            url: url.to_owned(),
            profiles,
            differences,
            parse_limit,
        }
    }

    /// Whether any profile disallows the URL.
    pub(crate) fn any_disallowed(&self) -> bool {
        self.profiles.iter().any(|p| p.allowed() == Some(false))
    }

    /// The first profile that could not answer, and why.
    pub(crate) fn first_error(&self) -> Option<(Profile, &str)> {
        self.profiles
            .iter()
            .find_map(|p| Some((p.profile, p.error.as_deref()?)))
    }
}
