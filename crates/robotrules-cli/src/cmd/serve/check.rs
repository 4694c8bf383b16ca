//! `POST /api/check`: may a crawler fetch each of many URLs, under `rfc9309`, `google` and
//! `legacy1994` side by side? The answer is assembled by `robotrules-tester-api` (its
//! `check`: the file parsed and the crawler's groups chosen once per profile, three verdicts
//! per URL with their deciding lines, and the URL's AI usage preferences in each verdict's
//! `usage` when the crawler has usage lines), the same as the static tester's; the server adds
//! what is the CLI's: where the verdicts differ, the causes `explain --profile all` gives (the
//! model's typed differences, [`crate::explain::Report`]).

use robotrules::{Crawler, Profile};
use robotrules_tester_api::check::{self as shared, AgentReading, Checked, UrlResult};
use serde::Serialize;

use crate::explain::Report;

use super::error::{too_many_urls, ApiError};
use super::limits::MAX_URLS;

pub(crate) use shared::CheckRequest;

/// The answers for one URL: the shared ones, and why the profiles disagree.
#[derive(Debug, Serialize)]
pub(crate) struct CliUrlResult<'a> {
    #[serde(flatten)]
    result: UrlResult<'a>,
    /// Why they disagree, cause by cause, each with its line (`explain`'s differences).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    differences: Vec<String>,
}

/// Answers `request`.
///
/// # Errors
/// [`ApiError`] for more than [`MAX_URLS`] URLs.
pub(crate) fn check(
    request: &CheckRequest,
) -> Result<Checked<'_, AgentReading, CliUrlResult<'_>>, ApiError> {
    if request.urls.len() > MAX_URLS {
        return Err(too_many_urls(request.urls.len()));
    }
    let bytes = request.robots.as_bytes();
    let agent = request.agent.as_str();
    // The file parsed once per profile: for the crawler's verdicts and the name's reading.
    let parsed = shared::parsed(bytes);
    let crawlers = shared::crawlers(&parsed, agent);
    let agent_readings = parsed
        .iter()
        .map(|robots| AgentReading::of(robots, agent))
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
) -> CliUrlResult<'a> {
    let result = UrlResult::of(crawlers, url);
    let differences = if result.disagree {
        Report::of_crawlers(bytes, agent, url, crawlers).differences
    } else {
        Vec::new()
    };
    CliUrlResult {
        result,
        differences,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_profiles_side_by_side_with_the_deciding_line() {
        let request = CheckRequest::new(
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
        let asked = CheckRequest::new(robots, "ExampleBot", &["/a.pdf"]);
        let checked = check(&asked).expect("an answer");
        let json = serde_json::to_value(&checked).expect("JSON");
        let result = &json["results"][0];
        assert_eq!(result["disagree"], true, "{result}");
        let report = Report::new(
            robots.as_bytes(),
            "ExampleBot",
            "/a.pdf",
            &Profile::ALL,
            robotrules::DEFAULT_PARSE_LIMIT,
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
        let asked = CheckRequest::new("User-agent: *\nDisallow: /\n", agent, &["/x"]);
        let checked = serde_json::to_value(check(&asked).expect("an answer")).expect("JSON");
        let rfc = &checked["agent_readings"][0];
        assert_eq!(rfc["profile"], "rfc9309");
        assert_eq!(rfc["suggestion"], "Googlebot");
        let invalid = Profile::Rfc9309
            .check_crawler_name(agent)
            .expect_err("not a token");
        assert_eq!(
            rfc["error"],
            crate::error::CliError::InvalidAgent(invalid).to_string()
        );
    }

    #[test]
    fn too_many_urls_are_refused() {
        let urls = vec!["/"; MAX_URLS + 1];
        let error = check(&CheckRequest::new("", "ExampleBot", &urls)).expect_err("too many");
        assert!(error.message.contains("at most 10000"), "{}", error.message);
    }
}
