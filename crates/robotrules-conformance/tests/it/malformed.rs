//! A malformed corpus line is refused with its file, its line, its case id and what is wrong,
//! down to the field (`input.headers.age`).

use robotrules_conformance::load::parse_jsonl;
use rstest::rstest;
use serde_json::{json, Value};

/// The error for a case with this layer, input and expectation on line 3 of `src/x.jsonl`.
fn error(layer: &str, input: Value, expect: Value) -> String {
    let line = json!({
        "id": "src/1", "source": "src", "section": "§1", "layer": layer,
        "profiles": ["rfc9309"], "input": input, "expect": expect,
    });
    parse_jsonl("src/x.jsonl", &format!("\n\n{line}\n"))
        .err()
        .map(|error| error.to_string())
        .unwrap_or_else(|| panic!("{line} was accepted"))
}

fn model_input() -> Value {
    json!({"robots": "", "agent": "a", "url": "/"})
}

#[rstest]
#[case::unknown_layer("shell", json!({}), json!({}),
    "unknown variant `shell`, expected one of `grammar`, `url`, `model`, `fetch`, `usage`, `cli`")]
#[case::no_input("model", Value::Null, json!({"allowed": true}),
    "`input`: invalid type: null, expected struct ModelInput")]
#[case::no_body("model", json!({"agent": "a", "url": "/"}), json!({"allowed": true}),
    "`input` needs `robots` or `robots_b64`")]
#[case::missing_agent("model", json!({"robots": "", "url": "/"}), json!({"allowed": true}),
    "`input`: missing field `agent`")]
#[case::unknown_input_field("model", json!({"robots": "", "agent": "a", "url": "/", "ur": 1}),
    json!({"allowed": true}),
    "`input.ur`: unknown field `ur`, expected one of `robots`, `robots_b64`, `agent`, `url`")]
#[case::bad_base64("model", json!({"robots_b64": "!!", "agent": "a", "url": "/"}),
    json!({"allowed": true}), "`input.robots_b64`: not valid base64: Invalid symbol 33, offset 0.")]
#[case::wrong_type("model", model_input(), json!({"allowed": "yes"}),
    "`expect.allowed`: invalid type: string \"yes\", expected a boolean")]
#[case::both_expectations("model", model_input(), json!({"allowed": true, "error": "invalid-agent"}),
    "`expect`: invalid value: map, expected map with a single key")]
#[case::unknown_error("model", model_input(), json!({"error": "boom"}),
    "`expect.error`: unknown variant `boom`, expected `invalid-agent`")]
#[case::unknown_op("url", json!({"op": "frobnicate", "url": "x"}), json!({"error": true}),
    "`input.op`: unknown variant `frobnicate`, expected one of `robots_txt_url`, `governs`, `origin`, `path`")]
#[case::governs_without_robots_txt("url", json!({"op": "governs", "url": "x"}), json!({"governs": true}),
    "`input`: missing field `robots_txt`")]
#[case::bad_profile_style("url", json!({"op": "path", "url": "x", "profile_style": "bing"}),
    json!({"path": "x"}), "`input`: unknown variant `bing`, expected `rfc9309` or `google`")]
#[case::expectation_of_another_op("url", json!({"op": "origin", "url": "x"}), json!({"path": "/"}),
    "`expect` needs exactly one of `origin` or `error: true`")]
#[case::error_false("url", json!({"op": "origin", "url": "x"}), json!({"error": false}),
    "`expect` needs exactly one of `origin` or `error: true`")]
#[case::grammar_without_expectation("grammar", json!({"robots": ""}), json!({}),
    "`expect` needs `lines` or `directives`")]
#[case::bad_directive("grammar", json!({"robots": ""}), json!({"directives": [["crawl-delay", "1"]]}),
    "`expect.directives[0][0]`: unknown variant `crawl-delay`, expected one of `user-agent`, `allow`, `disallow`, `sitemap`, `other`")]
#[case::fetch_without_status("fetch", json!({"scheme": "http"}), json!({"access": "success"}),
    "`input` needs `status` or `event`")]
#[case::bad_scheme("fetch", json!({"scheme": "gopher", "status": 200}), json!({"access": "success"}),
    "`input.scheme`: unknown variant `gopher`, expected one of `http`, `https`, `ftp`")]
#[case::bad_status("fetch", json!({"scheme": "http", "status": 70000}), json!({"access": "success"}),
    "`input.status`: invalid value: integer `70000`, expected u16")]
#[case::bad_event("fetch", json!({"scheme": "http", "event": "redirects:many"}), json!({"access": "success"}),
    "`input.event`: event `redirects:many`: `many` is not a number")]
#[case::header_not_text("fetch", json!({"scheme": "http", "status": 200, "headers": {"age": 3}}),
    json!({"access": "success"}), "`input.headers.age`: invalid type: integer `3`, expected a string")]
#[case::unknown_fetch_field("fetch", json!({"scheme": "http", "status": 200, "body": "x"}),
    json!({"access": "success"}),
    "`input.body`: unknown field `body`, expected one of `scheme`, `status`, `event`, `headers`, `redirect_status`, `too_many_requests`")]
#[case::bad_access("fetch", json!({"scheme": "http", "status": 200}), json!({"access": "fine"}),
    "`expect.access` is `fine`; expected success, unavailable, unreachable")]
#[case::bad_verdict("fetch", json!({"scheme": "http", "status": 200}), json!({"access": "success", "verdict": "maybe"}),
    "`expect.verdict` is `maybe`; expected conditional, full-allow, full-disallow")]
#[case::ftp_event_on_http("fetch", json!({"scheme": "http", "event": "ftp-550"}), json!({"access": "unavailable"}),
    "FTP events go with `scheme: ftp`, and only they")]
#[case::http_event_on_ftp("fetch", json!({"scheme": "ftp", "event": "timeout"}), json!({"access": "unreachable"}),
    "FTP events go with `scheme: ftp`, and only they")]
fn a_malformed_case_names_file_line_id_and_place(
    #[case] layer: &str,
    #[case] input: Value,
    #[case] expect: Value,
    #[case] message: &str,
) {
    assert_eq!(
        error(layer, input, expect),
        format!("src/x.jsonl:3: src/1: {message}")
    );
}

#[rstest]
#[case::not_json(
    r#"{"id": "src/1""#,
    "src/x.jsonl:1: not valid JSON: EOF while parsing an object at line 1 column 14"
)]
#[case::no_id(r#"{"source": "s"}"#, "src/x.jsonl:1: missing field `id`")]
#[case::empty_id(r#"{"id": " "}"#, "src/x.jsonl:1: `id` is empty")]
#[case::no_profiles(
    r#"{"id": "src/1", "source": "s", "section": "s", "profiles": []}"#,
    "src/x.jsonl:1: src/1: `profiles` is empty: name the profiles the expectation holds for"
)]
#[case::unknown_profile(
    r#"{"id": "src/1", "source": "s", "section": "s", "profiles": ["rfc9309", "bing"]}"#,
    "src/x.jsonl:1: src/1: unknown profile `bing` (known: rfc9309, google, legacy1994)"
)]
#[case::profile_twice(
    r#"{"id": "src/1", "source": "s", "section": "s", "profiles": ["google", "google"]}"#,
    "src/x.jsonl:1: src/1: profile `google` is listed twice"
)]
fn a_malformed_line_names_file_and_line(#[case] line: &str, #[case] message: &str) {
    let error = parse_jsonl("src/x.jsonl", line)
        .err()
        .map(|e| e.to_string());
    assert_eq!(error.as_deref(), Some(message));
}
