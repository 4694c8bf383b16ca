//! `check`: may a crawler fetch each of many URLs, under `rfc9309`, `google` and `legacy1994`
//! side by side? The file is parsed and the crawler's groups chosen once per profile; each URL
//! then gets a verdict per profile with its deciding line, and, when the crawler has
//! `Content-Usage` or `Content-Signal` lines, the URL's AI usage preferences in the verdict's
//! `usage` (the facade's [`Usage`], as `robotrules usage --format json` gives it).
//!
//! The crawler's name is read by each profile: one that rejects it says why (the facade's
//! [`robotrules::InvalidAgent`] message) and which token to pass instead.

use robotrules::usage::Usage;
use robotrules::{
    Crawler, DecidingRule, Decision, ParseOptions, Profile, Reason, Robots, DEFAULT_PARSE_LIMIT,
};
use serde::{Deserialize, Serialize};

/// The most URLs one request may ask about.
pub const MAX_URLS: usize = 10_000;

/// The message for a request of `count` URLs, past [`MAX_URLS`].
pub fn too_many_urls(count: usize) -> String {
    format!("{count} URLs: a request may ask about at most {MAX_URLS}")
}

/// The request: the file's text, the crawler's name, URLs (absolute or paths).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The robots.txt file's text.
    pub robots: String,
    /// The crawler's name.
    pub agent: String,
    /// URLs, absolute or paths.
    pub urls: Vec<String>,
}

impl CheckRequest {
    /// The request about `urls` for crawler `agent` in the file `robots`.
    pub fn new(robots: &str, agent: &str, urls: &[&str]) -> CheckRequest {
        CheckRequest {
            robots: robots.to_owned(),
            agent: agent.to_owned(),
            urls: urls.iter().map(|u| (*u).to_owned()).collect(),
        }
    }
}

/// The file `bytes` parsed under each profile ([`Profile::ALL`] order), with the default
/// parse limit (RFC 9309 §2.5).
pub fn parsed(bytes: &[u8]) -> Vec<Robots> {
    Profile::ALL
        .into_iter()
        .map(|profile| {
            let options = ParseOptions::new()
                .with_profile(profile)
                .with_parse_limit(DEFAULT_PARSE_LIMIT);
            Robots::parse_with(bytes, &options)
        })
        .collect()
}

/// Each parsed file's crawler `agent`, or why its profile rejects the name.
pub fn crawlers(parsed: &[Robots], agent: &str) -> Vec<(Profile, Result<Crawler, String>)> {
    parsed
        .iter()
        .map(|robots| {
            let crawler = robots.crawler(agent).map_err(|invalid| invalid.to_string());
            (robots.profile(), crawler)
        })
        .collect()
}

/// How one profile reads the crawler's name.
#[derive(Debug, Serialize)]
pub struct AgentReading {
    /// The profile.
    pub profile: Profile,
    /// Why the profile rejects the name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The token to pass instead (the crawler's token of a full User-Agent header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// What the profile reads of a name it answers for although no group can name it as it
    /// is ([`robotrules::NameReading`], with the groups it gets in the file): the CLI's
    /// warning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

impl AgentReading {
    /// How `robots`' profile reads the name `agent`, in `robots`.
    pub fn of(robots: &Robots, agent: &str) -> AgentReading {
        let profile = robots.profile();
        let warning = robots
            .name_reading(agent)
            .map(|reading| reading.to_string());
        match profile.check_crawler_name(agent) {
            Ok(()) => AgentReading {
                profile,
                error: None,
                suggestion: None,
                warning,
            },
            Err(invalid) => AgentReading {
                profile,
                suggestion: invalid.suggestion.clone(),
                error: Some(invalid.to_string()),
                warning,
            },
        }
    }
}

/// A verdict as `robotrules usage --format json` writes it, without the row's URL:
/// `{"allowed", "profile", "reason", "decided_by", "usage"}`, `decided_by` left out when no
/// rule decided and `usage` when it was not asked for.
#[derive(Debug, Serialize)]
pub struct Verdict {
    /// May the crawler fetch the URL?
    pub allowed: bool,
    /// The reading applied.
    pub profile: Profile,
    /// Why.
    pub reason: Reason,
    /// The rule that decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<DecidingRule>,
    /// The URL's AI usage preferences, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Box<Usage>>,
}

impl Verdict {
    /// `decision`, reached under `profile`.
    pub fn of(decision: Decision, profile: Profile) -> Verdict {
        Verdict {
            allowed: decision.allowed,
            profile,
            reason: decision.reason,
            decided_by: decision.decided_by,
            usage: decision.usage,
        }
    }
}

/// The decision of `crawler` on `url`, with the URL's AI usage preferences only where the
/// crawler has usage lines to read: a file without them answers as `decide` does, and many
/// URLs cost no more.
///
/// # Errors
/// A URL the profile cannot read.
pub fn decide(crawler: &Crawler, url: &str) -> Result<Decision, robotrules::InvalidUrl> {
    if crawler.usage_statements().is_empty() {
        crawler.decide(url)
    } else {
        crawler.decide_with_usage(url)
    }
}

/// One profile's answer for one URL: its verdict, or why it has none.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ProfileAnswer {
    /// Allowed or disallowed, the rule that decided, and the usage preferences.
    Verdict(Verdict),
    /// A name or URL the profile cannot read.
    Error {
        /// The profile.
        profile: Profile,
        /// Why it has no verdict.
        error: String,
    },
}

impl ProfileAnswer {
    /// The answer of `profile`'s `crawler` (or why there is none) for `url`.
    pub fn of(profile: Profile, crawler: &Result<Crawler, String>, url: &str) -> ProfileAnswer {
        let decided = match crawler {
            Ok(crawler) => decide(crawler, url).map_err(|invalid| invalid.to_string()),
            Err(message) => Err(message.clone()),
        };
        match decided {
            Ok(decided) => ProfileAnswer::Verdict(Verdict::of(decided, profile)),
            Err(error) => ProfileAnswer::Error { profile, error },
        }
    }

    /// The verdict, when the profile answered.
    pub fn allowed(&self) -> Option<bool> {
        match self {
            ProfileAnswer::Verdict(verdict) => Some(verdict.allowed),
            ProfileAnswer::Error { .. } => None,
        }
    }
}

/// The answers for one URL.
#[derive(Debug, Serialize)]
pub struct UrlResult<'a> {
    /// The URL as asked.
    pub url: &'a str,
    /// Each profile's answer, in [`Profile::ALL`] order.
    pub verdicts: Vec<ProfileAnswer>,
    /// Whether the profiles that answered disagree on the verdict.
    pub disagree: bool,
}

impl<'a> UrlResult<'a> {
    /// Each of `crawlers`' answer for `url`.
    pub fn of(crawlers: &[(Profile, Result<Crawler, String>)], url: &'a str) -> UrlResult<'a> {
        let verdicts: Vec<ProfileAnswer> = crawlers
            .iter()
            .map(|(profile, crawler)| ProfileAnswer::of(*profile, crawler, url))
            .collect();
        let mut answered = verdicts.iter().filter_map(ProfileAnswer::allowed);
        let first = answered.next();
        let disagree = answered.any(|allowed| Some(allowed) != first);
        UrlResult {
            url,
            verdicts,
            disagree,
        }
    }
}

/// The answer: the name, how each profile reads it (`R`), and each URL's answers (`U`); a host
/// that adds fields of its own wraps [`AgentReading`] and [`UrlResult`] in its own `R` and `U`.
#[derive(Debug, Serialize)]
pub struct Checked<'a, R, U> {
    /// The crawler's name as asked.
    pub agent: &'a str,
    /// What the name stands for, when it is `*`: a crawler that no group names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_label: Option<&'static str>,
    /// How each profile reads the name.
    pub agent_readings: Vec<R>,
    /// Each URL's answers, in request order.
    pub results: Vec<U>,
}

/// Answers `request` with nothing added.
///
/// # Errors
/// [`too_many_urls`]'s message past [`MAX_URLS`].
pub fn check(request: &CheckRequest) -> Result<Checked<'_, AgentReading, UrlResult<'_>>, String> {
    if request.urls.len() > MAX_URLS {
        return Err(too_many_urls(request.urls.len()));
    }
    let agent = request.agent.as_str();
    let parsed = parsed(request.robots.as_bytes());
    let crawlers = crawlers(&parsed, agent);
    Ok(Checked {
        agent,
        agent_label: robotrules::any_crawler_label(agent),
        agent_readings: parsed
            .iter()
            .map(|robots| AgentReading::of(robots, agent))
            .collect(),
        results: request
            .urls
            .iter()
            .map(|url| UrlResult::of(&crawlers, url))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn three_verdicts_with_the_deciding_line_and_no_usage_without_usage_lines() {
        let asked = CheckRequest::new(
            "User-agent: *\nDisallow: /private\nAllow: /private/open\n",
            "ExampleBot",
            &["/private/x", "/public"],
        );
        let json = serde_json::to_value(check(&asked).expect("an answer")).expect("JSON");
        let first = &json["results"][0];
        assert_eq!(first["disagree"], false);
        let verdicts = first["verdicts"].as_array().expect("verdicts");
        assert_eq!(verdicts.len(), 3);
        for verdict in verdicts {
            assert_eq!(
                verdict,
                &json!({"allowed": false, "profile": verdict["profile"], "reason": "rule-matched",
                    "decided_by": {"line": 2, "kind": "disallow", "pattern": "/private"}})
            );
        }
        assert_eq!(
            json["results"][1]["verdicts"][0],
            json!({"allowed": true, "profile": "rfc9309", "reason": "no-matching-rule"})
        );
    }

    #[test]
    fn verdicts_carry_usage_where_the_crawler_has_usage_lines() {
        let robots = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n\
                      Content-Usage: /ai-ok/ train-ai=y\n";
        let asked = CheckRequest::new(robots, "ExampleBot", &["/ai-ok/test", "/never/test"]);
        let json = serde_json::to_value(check(&asked).expect("an answer")).expect("JSON");
        let usage = &json["results"][0]["verdicts"][0]["usage"];
        let crawler = Robots::parse(robots.as_bytes())
            .crawler("ExampleBot")
            .expect("a token");
        let wanted = crawler.usage("/ai-ok/test").expect("a URL");
        assert_eq!(usage, &serde_json::to_value(&wanted).expect("JSON"));
        assert_eq!(usage["combined"][0]["outcome"], "allowed", "{usage}");
        assert_eq!(
            json["results"][1]["verdicts"][0]["usage"],
            json!({"crawlable": false, "vocabularies": [], "combined": []})
        );
    }

    #[test]
    fn names_and_urls_a_profile_cannot_read_are_errors_and_too_many_urls_are_refused() {
        let agent = "Mozilla/5.0 (compatible; Googlebot/2.1)";
        let json = serde_json::to_value(
            check(&CheckRequest::new(
                "User-agent: *\nDisallow: /\n",
                agent,
                &["/x"],
            ))
            .expect("an answer"),
        )
        .expect("JSON");
        assert_eq!(json["agent_readings"][0]["suggestion"], "Googlebot");
        assert!(json["results"][0]["verdicts"][0]["error"].is_string());
        let urls = vec!["/"; MAX_URLS + 1];
        let refused = check(&CheckRequest::new("", "ExampleBot", &urls)).expect_err("too many");
        assert_eq!(refused, too_many_urls(MAX_URLS + 1));
    }
}
