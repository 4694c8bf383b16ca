//! `testerApi(endpoint, requestJson)`: the tester page of `robotrules serve` without its
//! server. The static build of the page (`cargo xtask static-tester DIR`) calls this function
//! where the served page posts to `/api/{endpoint}`, and gets the JSON the server's handler
//! (`crates/robotrules-cli/src/cmd/serve/api.rs`) answers, computed by the same engine in the
//! browser, so the file never leaves it.
//!
//! The page's endpoints, with what differs from the server's answer:
//! - `lint`: the linter's report and its summary line, without the server's rustc-style
//!   `text` (the page reads the findings; the renderer would add 63 KB gzipped to the package);
//! - `check`: the same verdicts, deciding lines, name readings and `*` label; without the
//!   server's `differences` (the causes `robotrules explain` gives, which live in the CLI) and
//!   without Google's warning for a name that is no product token;
//! - `explain`: `text` is the library's account, one profile after another (the CLI's
//!   rustc-style snippets are the CLI's);
//! - `show`: the same view, without the parse-limit sentence;
//! - `diff` and `fetch`: an error saying they need `robotrules serve` (fetching a live file is
//!   a server's job; the diff's sentences live in the CLI).
//!
//! Errors are `{"error": "…"}` as the server's, with the server's messages for a request that
//! is not the endpoint's and for too many URLs.

use robotrules::{Crawler, DecidingRule, ParseOptions, Profile, Reason, RequestRate, Robots};
use robotrules_lint::render;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;

/// The file name in lint's text, as the server's.
const FILE_NAME: &str = "robots.txt";

/// The most URLs one request may ask about, as the server's (`serve/limits.rs`).
const MAX_URLS: usize = 10_000;

/// The answer of the tester's endpoint `endpoint` (`check`, `explain`, `lint`, `show`) to the
/// request `request` (the JSON the page posts): the JSON the server answers, or
/// `{"error": "…"}`.
#[wasm_bindgen(js_name = testerApi)]
pub fn tester_api(endpoint: &str, request: &str) -> String {
    let answer = match endpoint {
        "check" => parse(request).and_then(|r| to_json(&check(&r)?)),
        "explain" => parse(request).and_then(|r| to_json(&explain(&r))),
        "lint" => parse(request).and_then(|r| to_json(&lint(&r)?)),
        "show" => parse(request).and_then(|r| to_json(&show(&r)?)),
        "diff" | "fetch" => Err(format!(
            "{endpoint} needs the tester's server: run `robotrules serve` to use it"
        )),
        other => Err(format!(
            "no such page: {:?}",
            robotrules_text::excerpt(&format!("/api/{other}"), 100)
        )),
    };
    answer.unwrap_or_else(|error| to_json(&ErrorReply { error }).unwrap_or_default())
}

/// `{"error": "…"}`.
#[derive(Serialize)]
struct ErrorReply {
    error: String,
}

/// The endpoint's request in `body`, with the server's message when it is not one.
fn parse<T: DeserializeOwned>(body: &str) -> Result<T, String> {
    serde_json::from_str(body)
        .map_err(|error| format!("not a request this endpoint takes: {error}"))
}

fn to_json(value: &impl Serialize) -> Result<String, String> {
    serde_json::to_string(value).map_err(|error| format!("cannot write the answer: {error}"))
}

/// One profile by name, any case (`rfc9309` when none is given), read as the CLI's
/// `--profile` reads it, with its messages.
fn one_profile(name: Option<&str>) -> Result<Profile, String> {
    let Some(name) = name else {
        return Ok(Profile::default());
    };
    if name.eq_ignore_ascii_case("all") {
        return Err("this endpoint takes one profile, not all".to_owned());
    }
    name.to_ascii_lowercase().parse().map_err(|_| {
        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
        format!(
            "`{}`: the profile is one of {}, or all",
            robotrules_text::excerpt(name, 40),
            names.join(", ")
        )
    })
}

/// The file parsed under `profile` with the default parse limit (RFC 9309 §2.5).
fn parsed(robots: &str, profile: Profile) -> Robots {
    Robots::parse_with(
        robots.as_bytes(),
        &ParseOptions {
            profile,
            ..ParseOptions::default()
        },
    )
}

/// `check`'s request: the file, the crawler's name, URLs.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    robots: String,
    agent: String,
    urls: Vec<String>,
}

/// How one profile reads the crawler's name.
#[derive(Serialize)]
struct AgentReading {
    profile: Profile,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<String>,
}

/// One profile's verdict on one URL, or why it has none.
#[derive(Serialize)]
#[serde(untagged)]
enum ProfileAnswer {
    Verdict {
        allowed: bool,
        profile: Profile,
        reason: Reason,
        #[serde(skip_serializing_if = "Option::is_none")]
        decided_by: Option<DecidingRule>,
    },
    Error {
        profile: Profile,
        error: String,
    },
}

/// The answers for one URL.
#[derive(Serialize)]
struct UrlResult<'a> {
    url: &'a str,
    verdicts: Vec<ProfileAnswer>,
    disagree: bool,
}

/// `check`'s answer.
#[derive(Serialize)]
struct Checked<'a> {
    agent: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_label: Option<&'static str>,
    agent_readings: Vec<AgentReading>,
    results: Vec<UrlResult<'a>>,
}

fn check(request: &CheckRequest) -> Result<Checked<'_>, String> {
    if request.urls.len() > MAX_URLS {
        return Err(format!(
            "{} URLs: a request may ask about at most {MAX_URLS}",
            request.urls.len()
        ));
    }
    let agent = request.agent.as_str();
    let crawlers: Vec<(Profile, Result<Crawler, String>)> = Profile::ALL
        .into_iter()
        .map(|profile| {
            let crawler = parsed(&request.robots, profile)
                .crawler(agent)
                .map_err(|invalid| invalid.to_string());
            (profile, crawler)
        })
        .collect();
    let agent_readings = Profile::ALL
        .into_iter()
        .map(|profile| match profile.check_crawler_name(agent) {
            Ok(()) => AgentReading {
                profile,
                error: None,
                suggestion: None,
            },
            Err(invalid) => AgentReading {
                profile,
                suggestion: invalid.suggestion.clone(),
                error: Some(invalid.to_string()),
            },
        })
        .collect();
    let results = request
        .urls
        .iter()
        .map(|url| {
            let verdicts: Vec<ProfileAnswer> = crawlers
                .iter()
                .map(|(profile, crawler)| verdict(*profile, crawler, url))
                .collect();
            let mut answered = verdicts.iter().filter_map(|answer| match answer {
                ProfileAnswer::Verdict { allowed, .. } => Some(*allowed),
                ProfileAnswer::Error { .. } => None,
            });
            let first = answered.next();
            let disagree = answered.any(|allowed| Some(allowed) != first);
            UrlResult {
                url,
                verdicts,
                disagree,
            }
        })
        .collect();
    Ok(Checked {
        agent,
        agent_label: robotrules_model::any_crawler_label(agent),
        agent_readings,
        results,
    })
}

fn verdict(profile: Profile, crawler: &Result<Crawler, String>, url: &str) -> ProfileAnswer {
    let decided = match crawler {
        Ok(crawler) => crawler.decide(url).map_err(|invalid| invalid.to_string()),
        Err(message) => Err(message.clone()),
    };
    match decided {
        Ok(decided) => ProfileAnswer::Verdict {
            allowed: decided.allowed,
            profile,
            reason: decided.reason,
            decided_by: decided.decided_by,
        },
        Err(error) => ProfileAnswer::Error { profile, error },
    }
}

/// `explain`'s request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    robots: String,
    agent: String,
    url: String,
}

/// `explain`'s answer: the account of every profile, as text.
#[derive(Serialize)]
struct ExplainReply {
    text: String,
}

fn explain(request: &ExplainRequest) -> ExplainReply {
    let text = Profile::ALL
        .into_iter()
        .map(|profile| {
            match parsed(&request.robots, profile).explain(&request.agent, &request.url) {
                Ok(explanation) => explanation.to_string(),
                Err(error) => format!("{profile}: {error}\n"),
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    ExplainReply { text }
}

/// `lint`'s request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LintRequest {
    robots: String,
    #[serde(default)]
    profile: Option<String>,
    #[serde(default)]
    robots_txt_url: Option<String>,
}

/// `lint`'s report and its summary line.
#[derive(Serialize)]
struct Linted {
    report: robotrules::LintReport,
    summary: String,
}

fn lint(request: &LintRequest) -> Result<Linted, String> {
    let options = robotrules_lint::LintOptions {
        profile: one_profile(request.profile.as_deref())?,
        robots_txt_url: request.robots_txt_url.clone(),
        ..robotrules_lint::LintOptions::default()
    };
    let report = robotrules_lint::lint(request.robots.as_bytes(), &options);
    Ok(Linted {
        summary: render::summary(&report, FILE_NAME),
        report,
    })
}

/// `show`'s request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShowRequest {
    robots: String,
    agent: String,
    #[serde(default)]
    profile: Option<String>,
    #[serde(default)]
    robots_txt_url: Option<String>,
}

/// A rule as written.
#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct Rule {
    line: u32,
    kind: &'static str,
    pattern: String,
}

/// A group the crawler obeys.
#[derive(Serialize)]
struct ShownGroup {
    line: u32,
    agents: Vec<String>,
    rules: Vec<Rule>,
}

/// What the crawler gets.
#[derive(Serialize)]
struct Shown {
    profile: Profile,
    agent: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    robots_txt_url: Option<String>,
    selection: String,
    groups: Vec<ShownGroup>,
    crawl_delay: Option<f64>,
    request_rate: Option<RequestRate>,
    visit_time: Vec<String>,
    sitemaps: Vec<String>,
}

/// `show`'s answer.
#[derive(Serialize)]
struct ShowReply {
    show: Shown,
}

fn show(request: &ShowRequest) -> Result<ShowReply, String> {
    let profile = one_profile(request.profile.as_deref())?;
    let robots = parsed(&request.robots, profile);
    let rules = robots
        .crawler(&request.agent)
        .map_err(|invalid| invalid.to_string())?;
    let model = &**rules.model().robots();
    let groups = rules
        .model()
        .groups()
        .map(|(group, compiled)| {
            let mut rules: Vec<Rule> = compiled
                .rules()
                .iter()
                .filter(|rule| !rule.derived)
                .map(|rule| Rule {
                    line: rule.line,
                    kind: rule.kind.as_str(),
                    pattern: rule.value(model).into_owned(),
                })
                .collect();
            rules.sort();
            rules.dedup();
            ShownGroup {
                line: group.line,
                agents: group
                    .agents(model)
                    .iter()
                    .map(|agent| agent.value(model).into_owned())
                    .collect(),
                rules,
            }
        })
        .collect();
    let sitemaps = match &request.robots_txt_url {
        Some(base) => robots.sitemaps_from(base),
        None => robots.sitemaps().map(str::to_owned).collect(),
    };
    Ok(ShowReply {
        show: Shown {
            profile,
            agent: rules.name().to_owned(),
            robots_txt_url: request.robots_txt_url.clone(),
            selection: rules.selection().to_string(),
            groups,
            crawl_delay: rules.crawl_delay().map(|delay| delay.as_secs_f64()),
            request_rate: rules.request_rate(),
            visit_time: rules.visit_times(),
            sitemaps,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(endpoint: &str, request: serde_json::Value) -> serde_json::Value {
        serde_json::from_str(&tester_api(endpoint, &request.to_string())).expect("JSON")
    }

    #[test]
    fn check_gives_three_verdicts_with_the_deciding_line() {
        let json = answer(
            "check",
            serde_json::json!({
                "robots": "User-agent: *\nDisallow: /private\nAllow: /private/open\n",
                "agent": "ExampleBot",
                "urls": ["/private/x", "/public"],
            }),
        );
        let first = &json["results"][0];
        assert_eq!(first["disagree"], false);
        let verdicts = first["verdicts"].as_array().expect("verdicts");
        assert_eq!(verdicts.len(), 3);
        for verdict in verdicts {
            assert_eq!(verdict["allowed"], false);
            assert_eq!(
                verdict["decided_by"],
                serde_json::json!({"line": 2, "kind": "disallow", "pattern": "/private"})
            );
        }
        assert_eq!(json["results"][1]["verdicts"][0]["allowed"], true);
        assert_eq!(
            json["results"][1]["verdicts"][0]["reason"],
            "no-matching-rule"
        );
    }

    #[test]
    fn a_full_user_agent_string_gets_the_message_and_the_token() {
        let agent = "Mozilla/5.0 (compatible; Googlebot/2.1)";
        let json = answer(
            "check",
            serde_json::json!({"robots": "User-agent: *\nDisallow: /\n", "agent": agent, "urls": ["/x"]}),
        );
        let rfc = &json["agent_readings"][0];
        assert_eq!(rfc["profile"], "rfc9309");
        assert_eq!(rfc["suggestion"], "Googlebot");
        assert!(rfc["error"]
            .as_str()
            .is_some_and(|e| e.ends_with("pass `Googlebot`")));
        assert!(json["results"][0]["verdicts"][0]["error"].is_string());
    }

    #[test]
    fn lint_gives_the_linter_s_findings_and_summary() {
        let json = answer(
            "lint",
            serde_json::json!({"robots": "User-agent: *\nDisalow: /x\n"}),
        );
        let findings = json["report"]["findings"].as_array().expect("findings");
        assert!(findings.iter().any(|f| f["line"] == 2), "{json}");
        assert!(json["summary"].as_str().is_some_and(|s| !s.is_empty()));
    }

    #[test]
    fn show_gives_the_crawler_s_groups_and_rules() {
        let json = answer(
            "show",
            serde_json::json!({
                "robots": "User-agent: ExampleBot\nDisallow: /a\nCrawl-delay: 2\nSitemap: /s.xml\n",
                "agent": "ExampleBot",
                "profile": "google",
                "robots_txt_url": "https://example.com/robots.txt",
            }),
        );
        let shown = &json["show"];
        assert_eq!(shown["selection"], "exact");
        assert_eq!(
            shown["groups"][0]["rules"][0],
            serde_json::json!({"line": 2, "kind": "disallow", "pattern": "/a"})
        );
        assert_eq!(shown["crawl_delay"], 2.0);
        assert_eq!(shown["sitemaps"][0], "https://example.com/s.xml");
    }

    #[test]
    fn explain_gives_every_profile_s_account() {
        let json = answer(
            "explain",
            serde_json::json!({"robots": "User-agent: *\nDisallow: /p\n", "agent": "ExampleBot", "url": "/p"}),
        );
        let text = json["text"].as_str().expect("text");
        for profile in [
            "rfc9309: disallowed",
            "google: disallowed",
            "legacy1994: disallowed",
        ] {
            assert!(text.contains(profile), "{text}");
        }
    }

    #[test]
    fn bad_requests_and_server_endpoints_are_errors() {
        for (endpoint, request, wanted) in [
            ("check", "{}", "not a request this endpoint takes"),
            (
                "lint",
                "{\"robots\": \"\", \"profile\": \"all\"}",
                "one profile",
            ),
            (
                "fetch",
                "{\"url\": \"https://example.com/\"}",
                "robotrules serve",
            ),
            ("diff", "{\"old\": \"\", \"new\": \"\"}", "robotrules serve"),
            ("nope", "{}", "no such page"),
        ] {
            let json: serde_json::Value =
                serde_json::from_str(&tester_api(endpoint, request)).expect("JSON");
            assert!(
                json["error"].as_str().is_some_and(|e| e.contains(wanted)),
                "{endpoint}: {json}"
            );
        }
        let urls = vec!["/"; MAX_URLS + 1];
        let json = answer(
            "check",
            serde_json::json!({"robots": "", "agent": "ExampleBot", "urls": urls}),
        );
        assert!(json["error"]
            .as_str()
            .is_some_and(|e| e.contains("at most 10000")));
    }
}
