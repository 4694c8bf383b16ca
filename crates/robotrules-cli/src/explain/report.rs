//! The account of one (crawler, URL) question under one or more profiles: each profile's
//! answer, why they differ, and where the parse limit cut the file.

use robotrules::{Crawler, Profile};
use serde::Serialize;

use super::cut::Cut;
use super::differences;
use super::profile_report::{Asked, ProfileReport};

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
        Report::of_asked(bytes, agent, url, asked)
    }

    /// [`Report::new`] with the crawlers already chosen in the file `bytes`, one per profile
    /// (or why the profile refused the name): nothing is parsed again (the tester's `check`).
    pub(crate) fn of_crawlers(
        bytes: &[u8],
        agent: &str,
        url: &str,
        crawlers: &[(Profile, Result<Crawler, String>)],
    ) -> Report {
        let asked = crawlers
            .iter()
            .map(|(profile, crawler)| Asked::with(*profile, crawler.clone(), url))
            .collect();
        Report::of_asked(bytes, agent, url, asked)
    }

    fn of_asked(bytes: &[u8], agent: &str, url: &str, asked: Vec<Asked>) -> Report {
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
