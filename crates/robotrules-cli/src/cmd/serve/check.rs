//! `POST /api/check`: may a crawler fetch each of many URLs, under `rfc9309`, `google` and
//! `legacy1994` side by side? The file is parsed and the crawler's groups chosen once per
//! profile (the model's [`Crawler`], as `check` does); each URL then gets three verdicts with
//! their deciding lines. Where the verdicts differ, the causes are `explain --profile all`'s
//! (the model's typed differences, [`crate::explain::Report`]).
//!
//! The crawler's name is read by each profile: one that rejects it says why with the CLI's
//! message (and the token to pass instead, for a full User-Agent string), and Google's reading
//! of a name that is not a product token carries `check`'s warning.

use robotrules::{Crawler, ParseOptions, Profile, Robots, DEFAULT_PARSE_LIMIT};
use serde::{Deserialize, Serialize};

use crate::error::{agent_warning_in, CliError};
use crate::explain::Report;
use crate::rows::UrlVerdict;

use super::error::{too_many_urls, ApiError};
use super::limits::MAX_URLS;

/// The request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckRequest {
    /// The robots.txt file's text.
    pub(crate) robots: String,
    /// The crawler's name.
    pub(crate) agent: String,
    /// URLs, absolute or paths.
    pub(crate) urls: Vec<String>,
}

/// How one profile reads the crawler's name.
#[derive(Debug, Serialize)]
struct AgentReading {
    profile: Profile,
    /// Why the profile rejects the name (the CLI's message).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// The token to pass instead (the crawler's token of a full User-Agent header).
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<String>,
    /// The CLI's warning for a name the profile reads although it is no product token.
    #[serde(skip_serializing_if = "Option::is_none")]
    warning: Option<String>,
}

/// One profile's answer for one URL: the verdict `check --format json` writes for it
/// (`allowed`, `profile`, `reason`, `decided_by`), or why the profile cannot answer.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum ProfileAnswer {
    /// Allowed or disallowed, and the rule that decided.
    Verdict(UrlVerdict<'static>),
    /// A name or URL the profile cannot read.
    Error { profile: Profile, error: String },
}

impl ProfileAnswer {
    /// The verdict, when the profile answered.
    fn allowed(&self) -> Option<bool> {
        match self {
            ProfileAnswer::Verdict(verdict) => Some(verdict.allowed),
            ProfileAnswer::Error { .. } => None,
        }
    }
}

/// The answers for one URL.
#[derive(Debug, Serialize)]
struct UrlResult<'a> {
    url: &'a str,
    verdicts: Vec<ProfileAnswer>,
    /// Whether the profiles that answered disagree on the verdict.
    disagree: bool,
    /// Why they disagree, cause by cause, each with its line (`explain`'s differences).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    differences: Vec<String>,
}

/// The answer.
#[derive(Debug, Serialize)]
pub(crate) struct Checked<'a> {
    agent: &'a str,
    /// What the name stands for, when it is `*`: a crawler that no group names.
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_label: Option<&'static str>,
    agent_readings: Vec<AgentReading>,
    results: Vec<UrlResult<'a>>,
}

/// Answers `request`.
///
/// # Errors
/// [`ApiError`] for more than [`MAX_URLS`] URLs.
pub(crate) fn check(request: &CheckRequest) -> Result<Checked<'_>, ApiError> {
    if request.urls.len() > MAX_URLS {
        return Err(too_many_urls(request.urls.len()));
    }
    let bytes = request.robots.as_bytes();
    let agent = request.agent.as_str();
    // The file parsed once per profile: for the crawler's verdicts and the name's reading.
    let parsed: Vec<Robots> = Profile::ALL
        .into_iter()
        .map(|profile| {
            let options = ParseOptions {
                profile,
                parse_limit: DEFAULT_PARSE_LIMIT,
            };
            Robots::parse_with(bytes, &options)
        })
        .collect();
    let crawlers: Vec<(Profile, Result<Crawler, String>)> = parsed
        .iter()
        .map(|robots| {
            let crawler = robots
                .crawler(agent)
                .map_err(|invalid| CliError::InvalidAgent(invalid).to_string());
            (robots.profile(), crawler)
        })
        .collect();
    let agent_readings = parsed
        .iter()
        .map(|robots| {
            let profile = robots.profile();
            let (error, suggestion) = match profile.check_crawler_name(agent) {
                Ok(_) => (None, None),
                Err(invalid) => {
                    let suggestion = invalid.suggestion.clone();
                    (
                        Some(CliError::InvalidAgent(invalid).to_string()),
                        suggestion,
                    )
                }
            };
            AgentReading {
                profile,
                error,
                suggestion,
                // With the file: which group the name gets, and which the suggested token would.
                warning: agent_warning_in(robots, agent),
            }
        })
        .collect();
    let results = request
        .urls
        .iter()
        .map(|url| answer(&crawlers, bytes, agent, url))
        .collect();
    Ok(Checked {
        agent,
        agent_label: robotrules::any_crawler_label(agent),
        agent_readings,
        results,
    })
}

/// The three verdicts on `url`, and why they differ.
fn answer<'a>(
    crawlers: &[(Profile, Result<Crawler, String>)],
    bytes: &[u8],
    agent: &str,
    url: &'a str,
) -> UrlResult<'a> {
    let verdicts: Vec<ProfileAnswer> = crawlers
        .iter()
        .map(|(profile, crawler)| verdict(*profile, crawler, url))
        .collect();
    let mut answered = verdicts.iter().filter_map(ProfileAnswer::allowed);
    let first = answered.next();
    let disagree = answered.any(|allowed| Some(allowed) != first);
    let differences = if disagree {
        Report::new(bytes, agent, url, &Profile::ALL, DEFAULT_PARSE_LIMIT).differences
    } else {
        Vec::new()
    };
    UrlResult {
        url,
        verdicts,
        disagree,
        differences,
    }
}

fn verdict(profile: Profile, crawler: &Result<Crawler, String>, url: &str) -> ProfileAnswer {
    let error = |error: String| ProfileAnswer::Error { profile, error };
    let crawler = match crawler {
        Ok(crawler) => crawler,
        Err(message) => return error(message.clone()),
    };
    let decided = match crawler.decide(url) {
        Ok(decided) => decided,
        Err(invalid) => return error(invalid.to_string()),
    };
    ProfileAnswer::Verdict(UrlVerdict {
        allowed: decided.allowed,
        profile,
        access: None,
        access_reason: None,
        robots_txt_url: None,
        reason: Some(decided.reason),
        decided_by: decided.decided_by,
        explanation: None,
        parse_limit: None,
        usage: decided.usage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(robots: &str, agent: &str, urls: &[&str]) -> CheckRequest {
        CheckRequest {
            robots: robots.to_owned(),
            agent: agent.to_owned(),
            urls: urls.iter().map(|u| (*u).to_owned()).collect(),
        }
    }

    #[test]
    fn three_profiles_side_by_side_with_the_deciding_line() {
        let request = request(
            "User-agent: *\nDisallow: /private\nAllow: /private/open\n",
            "ExampleBot",
            &["/private/x", "/public"],
        );
        let checked = check(&request).expect("an answer");
        let json = serde_json::to_value(&checked).expect("JSON");
        let first = &json["results"][0];
        assert_eq!(first["disagree"], false);
        for verdict in first["verdicts"].as_array().expect("verdicts") {
            assert_eq!(verdict["allowed"], false);
            assert_eq!(
                verdict["decided_by"],
                serde_json::json!({"line": 2, "kind": "disallow", "pattern": "/private"})
            );
        }
        assert_eq!(json["results"][1]["verdicts"][0]["allowed"], true);
    }

    #[test]
    fn disagreements_carry_the_causes_explain_gives() {
        // `Disallow: /*.pdf$` is a wildcard pattern: RFC 9309 and Google read it, the 1994
        // convention matches it literally.
        let robots = "User-agent: *\nDisallow: /*.pdf$\n";
        let asked = request(robots, "ExampleBot", &["/a.pdf"]);
        let checked = check(&asked).expect("an answer");
        let json = serde_json::to_value(&checked).expect("JSON");
        let result = &json["results"][0];
        assert_eq!(result["disagree"], true, "{result}");
        let report = Report::new(
            robots.as_bytes(),
            "ExampleBot",
            "/a.pdf",
            &Profile::ALL,
            DEFAULT_PARSE_LIMIT,
        );
        assert!(!report.differences.is_empty());
        assert_eq!(
            result["differences"],
            serde_json::to_value(&report.differences).expect("JSON")
        );
    }

    #[test]
    fn a_full_user_agent_string_gets_the_clis_message_and_the_token() {
        let agent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        let asked = request("User-agent: *\nDisallow: /\n", agent, &["/x"]);
        let checked = check(&asked).expect("an answer");
        let rfc = &checked.agent_readings[0];
        assert_eq!(rfc.profile, Profile::Rfc9309);
        assert_eq!(rfc.suggestion.as_deref(), Some("Googlebot"));
        let invalid = Profile::Rfc9309
            .check_crawler_name(agent)
            .expect_err("not a token");
        assert_eq!(
            rfc.error.as_deref(),
            Some(CliError::InvalidAgent(invalid).to_string().as_str())
        );
    }

    #[test]
    fn too_many_urls_are_refused() {
        let urls = vec!["/"; MAX_URLS + 1];
        let error = check(&request("", "ExampleBot", &urls)).expect_err("too many");
        assert!(error.message.contains("at most 10000"), "{}", error.message);
    }
}
