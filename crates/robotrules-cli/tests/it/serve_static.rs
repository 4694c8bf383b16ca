//! The static tester's answers against the server's: `robotrules serve`'s `/api/check`,
//! `/api/lint` and `/api/show` on loopback, and the npm package's `testerApi` (what the static
//! page of `cargo xtask static-tester` calls, `crates/robotrules-js/src/tester.rs`) on the same
//! requests, compared field by field. Every field `testerApi` gives is the server's, equal;
//! the server's only extra fields are the ones `docs/serve.md` lists as the CLI's alone
//! (`differences`, `warning`, lint's and show's `text`, show's `cut`), so the two JSON
//! assemblies cannot drift apart unnoticed. The AI usage fields (each verdict's `usage`,
//! show's `usage` and `file_wide`) are compared too, on the repository's example of them.

use serde_json::{json, Value};

use crate::support::serve::Server;

/// The server's fields that the static tester leaves out, by key.
const SERVER_ONLY: [&str; 4] = ["differences", "warning", "text", "cut"];

/// Files: the README's example, the example of AI usage preferences, then the cases where
/// the profiles and names part ways.
fn files() -> Vec<String> {
    let example = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/../../examples/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    vec![
        example("robots.txt"),
        example("ai-preferences.txt"),
        "Content-Signal: ai-train=no\nUser-agent: *\nContent-Usage: /a/ train-ai=yes;;\nDisallow: /private/\nLicense: /license.xml\nLLM-Policy: /llm.txt\n".to_owned(),
        "User-agent: *\nDisallow: /private/\nDisalow: /typo\nAllow: /private/press/\nDisallow: /*.pdf$\nCrawl-delay: 5\nRequest-rate: 1/10s\nSitemap: /sitemap.xml\n".to_owned(),
        "\u{feff}user-agent: googlebot-news\ndisallow: /%7Euser/\n\nuser-agent: googlebot\nallow: /\ndisallow: /a$\n\nuser-agent: *\ndisallow: /\n".to_owned(),
        "User-agent: Example Bot\nDisallow: /x\nVisit-time: 0600-0845\n<html>\n".to_owned(),
        String::new(),
    ]
}

const AGENTS: [&str; 7] = [
    "Googlebot",
    "Googlebot-News",
    "*",
    "Example Bot",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "ExampleBot",
    "GPTBot",
];

const URLS: [&str; 10] = [
    "/",
    "/private/x",
    "/private/press/a",
    "/a.pdf",
    "/~user/page",
    "https://example.com/a",
    "example.com/no-scheme",
    "/robots.txt",
    "/ai-ok/article",
    "/never/x",
];

/// Checks that every field of `static_answer` is in `server` with the same value, and that
/// `server`'s other fields are [`SERVER_ONLY`]'s.
fn same_where_given(static_answer: &Value, server: &Value, at: &str) {
    match (static_answer, server) {
        (Value::Object(ours), Value::Object(theirs)) => {
            for (key, value) in ours {
                let theirs = theirs
                    .get(key)
                    .unwrap_or_else(|| panic!("{at}.{key}: the server has no such field"));
                same_where_given(value, theirs, &format!("{at}.{key}"));
            }
            for key in theirs.keys() {
                assert!(
                    ours.contains_key(key) || SERVER_ONLY.contains(&key.as_str()),
                    "{at}.{key}: the static tester leaves out the server's field"
                );
            }
        }
        (Value::Array(ours), Value::Array(theirs)) => {
            assert_eq!(ours.len(), theirs.len(), "{at}: lengths");
            for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
                same_where_given(a, b, &format!("{at}[{i}]"));
            }
        }
        _ => assert_eq!(static_answer, server, "{at}"),
    }
}

/// The server's answer and `testerApi`'s to the same request.
fn both(server: &Server, endpoint: &str, request: &Value) -> (Value, Value) {
    let served = server.api(endpoint, request).json();
    let computed: Value =
        serde_json::from_str(&robotrules_js::tester_api(endpoint, &request.to_string())).unwrap();
    (computed, served)
}

#[test]
fn the_static_tester_answers_check_lint_and_show_as_the_server_does() {
    let server = Server::start(&[]);
    let mut compared = 0;
    for robots in files() {
        for agent in AGENTS {
            let request = json!({"robots": robots, "agent": agent, "urls": URLS});
            let (computed, served) = both(&server, "check", &request);
            same_where_given(&computed, &served, &format!("check {agent:?}"));
            for profile in ["rfc9309", "google", "legacy1994"] {
                let request = json!({"robots": robots, "agent": agent, "profile": profile,
                                     "robots_txt_url": "https://example.com/robots.txt"});
                let (computed, served) = both(&server, "show", &request);
                same_where_given(&computed, &served, &format!("show {agent:?} {profile}"));
                compared += 1;
            }
        }
        for profile in ["rfc9309", "google", "legacy1994"] {
            let request = json!({"robots": robots, "profile": profile,
                                 "robots_txt_url": "https://example.com/robots.txt"});
            let (computed, served) = both(&server, "lint", &request);
            same_where_given(&computed, &served, &format!("lint {profile}"));
        }
    }
    assert_eq!(compared, 7 * 7 * 3);
}

#[test]
fn the_static_tester_refuses_what_the_server_refuses_with_its_messages() {
    let server = Server::start(&[]);
    for (endpoint, request) in [
        ("check", json!({"robots": "", "agent": "x"})),
        ("lint", json!({"robots": "", "profile": "all"})),
        ("lint", json!({"robots": "", "profile": "googel"})),
        ("lint", json!({"robots": "", "profile": "ALL"})),
        (
            "show",
            json!({"robots": "", "agent": "x", "profile": "Google/"}),
        ),
        ("show", json!({"robots": "", "agent": "x", "extra": 1})),
    ] {
        let (computed, served) = both(&server, endpoint, &request);
        assert_eq!(computed, served, "{endpoint} {request}");
    }
}
