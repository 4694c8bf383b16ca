//! `testerApi(endpoint, requestJson)`: the tester page of `robotrules serve` without its
//! server. The static build of the page (`cargo xtask static-tester DIR`) calls this function
//! where the served page posts to `/api/{endpoint}`, and gets the JSON the server's handler
//! (`crates/robotrules-cli/src/cmd/serve/api.rs`) answers, computed by the same engine in the
//! browser, so the file never leaves it. `check` and `show` are assembled by the crate the
//! server's handlers use too (`robotrules-tester-api`), so their answers are the server's.
//!
//! The page's endpoints, with what differs from the server's answer:
//! - `lint`: the linter's report and its summary line, without the server's rustc-style
//!   `text` (the page reads the findings; the renderer would add 63 KB gzipped to the package);
//! - `check`: the same verdicts, deciding lines, AI usage preferences (each verdict's `usage`),
//!   name readings and `*` label; without the server's `differences` (the causes
//!   `robotrules explain` gives, which live in the CLI);
//! - `explain`: `text` is the library's account, one profile after another (the CLI's
//!   rustc-style snippets are the CLI's);
//! - `show`: the same view, AI usage rules (`usage`) and file-wide records (`file_wide`)
//!   included, without the parse-limit sentence (`cut`) and the server's `text`;
//! - `diff` and `fetch`: an error saying they need `robotrules serve` (fetching a live file is
//!   a server's job; the diff's sentences live in the CLI).
//!
//! Errors are `{"error": "…"}` as the server's, with the server's messages for a request that
//! is not the endpoint's and for too many URLs.

use robotrules::{ParseOptions, Profile, Robots};
use robotrules_lint::render;
use robotrules_tester_api::check::check;
use robotrules_tester_api::show::{ShowRequest, Shown};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;

/// The file name in lint's text, as the server's.
const FILE_NAME: &str = "robots.txt";

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
        &ParseOptions::new().with_profile(profile),
    )
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

/// `show`'s answer.
#[derive(Serialize)]
struct ShowReply {
    show: Shown,
}

fn show(request: &ShowRequest) -> Result<ShowReply, String> {
    let profile = one_profile(request.profile.as_deref())?;
    let rules = parsed(&request.robots, profile)
        .crawler(&request.agent)
        .map_err(|invalid| invalid.to_string())?;
    Ok(ShowReply {
        show: Shown::of(&rules, request.robots_txt_url.clone()),
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
    fn check_and_show_give_the_ai_usage_fields() {
        let robots = "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n\
                      Content-Usage: /ai-ok/ train-ai=y\nLicense: /license.xml\n";
        let json = answer(
            "check",
            serde_json::json!({"robots": robots, "agent": "ExampleBot",
                               "urls": ["/ai-ok/test", "/never/test"]}),
        );
        let usage = &json["results"][0]["verdicts"][0]["usage"];
        assert_eq!(usage["crawlable"], true, "{json}");
        assert_eq!(
            usage["vocabularies"][0]["categories"][0],
            serde_json::json!({"label": "train-ai", "outcome": "allowed", "lines": [5]})
        );
        // RFC 9309 disallows `/never/test` (no preference); the 1994 convention's first match,
        // `Allow: /`, lets it be crawled.
        assert_eq!(
            json["results"][1]["verdicts"][0]["usage"]["crawlable"],
            false
        );
        assert_eq!(
            json["results"][1]["verdicts"][2]["usage"]["crawlable"],
            true
        );
        let json = answer(
            "show",
            serde_json::json!({"robots": robots, "agent": "ExampleBot",
                               "robots_txt_url": "https://example.com/robots.txt"}),
        );
        let shown = &json["show"];
        assert_eq!(shown["usage"][1]["path"], "/ai-ok/", "{json}");
        assert_eq!(shown["usage"][1]["group_line"], 1);
        assert_eq!(
            shown["file_wide"]["licenses"],
            serde_json::json!([{"line": 6, "value": "https://example.com/license.xml"}])
        );
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
        let urls = vec!["/"; robotrules_tester_api::check::MAX_URLS + 1];
        let json = answer(
            "check",
            serde_json::json!({"robots": "", "agent": "ExampleBot", "urls": urls}),
        );
        assert!(json["error"]
            .as_str()
            .is_some_and(|e| e.contains("at most 10000")));
    }
}
