//! `robotrules usage`: per URL the crawl verdict and the AI usage preferences
//! (`Content-Usage`, draft-ietf-aipref-attach-05; `Content-Signal`, Cloudflare), each
//! category with its deciding line, in text and in JSON (`check`'s row with `usage`), on a
//! file and on a robots.txt served on loopback.

use robotrules_testserver::http::Reply;
use serde_json::json;

use crate::support::{run, run_loopback, Fixture, Sites};

/// A Cloudflare-managed robots.txt (its `Content-Signal` inside `User-agent: *`) with the
/// attach draft's example rules (attach-05 §3.1) and a file-wide record.
const ROBOTS: &str = "\
# As a Cloudflare-managed robots.txt writes it
User-agent: *
Content-Signal: search=yes,ai-train=no
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-agent: GPTBot
Disallow: /

License: /license.xml
";

/// One category's JSON in a vocabulary.
fn category<'a>(
    row: &'a serde_json::Value,
    vocabulary: &str,
    label: &str,
) -> &'a serde_json::Value {
    let vocabularies = row["usage"]["vocabularies"].as_array().unwrap();
    let v = vocabularies
        .iter()
        .find(|v| v["vocabulary"] == vocabulary)
        .unwrap();
    v["categories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == label)
        .unwrap()
}

/// One shared category's combined JSON.
fn combined<'a>(row: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    row["usage"]["combined"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["category"] == name)
        .unwrap()
}

#[test]
fn the_longest_content_usage_path_decides_and_the_vocabularies_combine() {
    let file = Fixture::new(ROBOTS.as_bytes());
    let r = run(
        &[
            "usage",
            "--format",
            "json",
            file.path(),
            "ExampleBot",
            "/test",
            "/ai-ok/test",
        ],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let rows: Vec<serde_json::Value> = r
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    // `/test`: `Content-Usage: train-ai=n` (no path) applies.
    assert_eq!(rows[0]["url"], "/test");
    assert_eq!(rows[0]["allowed"], true);
    assert_eq!(
        rows[0]["decided_by"],
        json!({"line": 4, "kind": "allow", "pattern": "/"})
    );
    assert_eq!(
        category(&rows[0], "aipref", "train-ai"),
        &json!({"label": "train-ai", "outcome": "disallowed", "lines": [6]})
    );
    // `/ai-ok/test`: the longer path wins in its vocabulary (attach-05 §3.1) ...
    assert_eq!(
        category(&rows[1], "aipref", "train-ai"),
        &json!({"label": "train-ai", "outcome": "allowed", "lines": [7]})
    );
    assert_eq!(rows[1]["usage"]["vocabularies"][0]["applied"], json!([7]));
    // ... and Cloudflare's `ai-train=no` makes the combined answer disallowed (vocab-07 §5.1).
    assert_eq!(
        category(&rows[1], "content-signals", "ai-train")["outcome"],
        "disallowed"
    );
    assert_eq!(
        combined(&rows[1], "train-ai"),
        &json!({"category": "train-ai", "outcome": "disallowed", "lines": [3]})
    );
    assert_eq!(
        combined(&rows[1], "search"),
        &json!({"category": "search", "outcome": "allowed", "lines": [3]})
    );
    assert_eq!(
        category(&rows[1], "content-signals", "ai-input")["outcome"],
        "unknown"
    );
}

#[test]
fn text_names_each_line_and_why_the_combined_answer_is_what_it_is() {
    let file = Fixture::new(ROBOTS.as_bytes());
    let r = run(&["usage", file.path(), "ExampleBot", "/ai-ok/test"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    let expected = "\
ExampleBot (profile rfc9309)

/ai-ok/test
  crawl                 allowed     line 4: allow: /
  combined (both vocabularies, most restrictive wins, vocab-07 §5.1):
    train-ai / ai-train   disallowed  line 3  (Content-Usage allowed, Content-Signal disallowed: the most restrictive wins)
    search                allowed     line 3  (from Content-Signal alone)
  Content-Usage (IETF AIPREF, draft-ietf-aipref-vocab-07):
    applies: line 7: Content-Usage: /ai-ok/ train-ai=y
    train-ai              allowed     line 7
    search                unknown     no line says
  Content-Signal (Cloudflare content signals, draft-romm-aipref-contentsignals-00):
    applies: line 3: Content-Signal: search=yes,ai-train=no
    search                allowed     line 3
    ai-input              unknown     no line says  (no counterpart in the other vocabulary: not combined)
    ai-train              disallowed  line 3
";
    assert_eq!(r.stdout, expected);
}

#[test]
fn a_disallowed_url_is_not_crawlable_and_has_no_preference() {
    let file = Fixture::new(ROBOTS.as_bytes());
    let r = run(&["usage", file.path(), "ExampleBot", "/never/test"], b"");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains(
            "  crawl                 disallowed  line 5: disallow: /never/\n  usage                 \
             not crawlable, no preference"
        ),
        "{r:?}"
    );
    let r = run(
        &[
            "usage",
            "--format",
            "json",
            file.path(),
            "GPTBot",
            "/ai-ok/test",
        ],
        b"",
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.json()["usage"],
        json!({"crawlable": false, "vocabularies": [], "combined": []})
    );
}

#[test]
fn without_a_url_the_site_root_is_asked_about() {
    let file = Fixture::new(ROBOTS.as_bytes());
    let r = run(
        &["usage", "--format", "json", file.path(), "ExampleBot"],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    let row = r.json();
    assert_eq!(row["url"], "/");
    assert_eq!(combined(&row, "train-ai")["lines"], json!([3, 6]));
}

#[test]
fn a_file_wide_content_signal_speaks_to_every_crawler() {
    let file = Fixture::new(
        b"Content-Signal: search=yes, ai-train=no\n\nUser-agent: ExampleBot\nDisallow: /private/\n",
    );
    let r = run(
        &["usage", "--format", "json", file.path(), "ExampleBot", "/a"],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    let row = r.json();
    assert_eq!(
        category(&row, "content-signals", "ai-train"),
        &json!({"label": "ai-train", "outcome": "disallowed", "lines": [1]})
    );
    assert_eq!(combined(&row, "search")["outcome"], "allowed");
    let text = run(&["usage", file.path(), "OtherBot", "/a"], b"");
    assert!(
        text.stdout.contains(
            "    applies: line 1: Content-Signal: search=yes, ai-train=no  (outside any group: \
             for every crawler)\n"
        ),
        "{text:?}"
    );
}

#[test]
fn a_dictionary_that_does_not_parse_is_unknown_for_every_category() {
    let file = Fixture::new(b"User-agent: *\nContent-Usage: train-ai=n;;\n");
    let r = run(
        &["usage", "--format", "json", file.path(), "ExampleBot", "/a"],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    let row = r.json();
    assert_eq!(row["usage"]["vocabularies"][0]["unparsed"], json!([2]));
    assert_eq!(category(&row, "aipref", "train-ai")["outcome"], "unknown");
    let text = run(&["usage", file.path(), "ExampleBot", "/a"], b"");
    let applies = text
        .lines()
        .into_iter()
        .find(|l| l.contains("applies: line 2"))
        .unwrap()
        .to_owned();
    assert!(applies.contains("(not a Dictionary: "), "{applies}");
    assert!(
        applies.ends_with("unknown for every category)"),
        "{applies}"
    );
}

#[test]
fn the_content_usage_header_is_one_more_statement() {
    let file = Fixture::new(b"User-agent: *\nContent-Usage: train-ai=y\n");
    let r = run(
        &[
            "usage",
            "--format",
            "json",
            "--content-usage",
            "train-ai=n",
            file.path(),
            "ExampleBot",
            "/a",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        category(&r.json(), "aipref", "train-ai"),
        &json!({"label": "train-ai", "outcome": "disallowed", "lines": [], "header": true})
    );
}

#[test]
fn a_served_robots_txt_is_fetched_once_and_answered_the_same() {
    let sites = Sites::new(vec![Reply::ok(ROBOTS), Reply::status(404)]);
    let robots = sites.url(0, "/robots.txt");
    let page = sites.url(0, "/ai-ok/test");
    let r = run_loopback(
        &["usage", "--format", "json", &robots, "ExampleBot", &page],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    let row = r.json();
    assert_eq!(row["access"], "success");
    assert_eq!(row["robots_txt_url"], robots.as_str());
    assert_eq!(combined(&row, "train-ai")["outcome"], "disallowed");
    assert_eq!(sites.hits(0), 1);
    // An unavailable robots.txt: every URL allowed, and no line states a preference.
    let missing = sites.url(1, "/robots.txt");
    let r = run_loopback(&["usage", &missing, "ExampleBot"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(
            "  crawl                 allowed     robots.txt unavailable: HTTP status 404\n"
        ),
        "{r:?}"
    );
    assert!(r.stdout.contains("no Content-Usage line applies"), "{r:?}");
    // A URL of another site is refused as `check` refuses it.
    let r = run_loopback(
        &["usage", &robots, "ExampleBot", "https://example.org/"],
        b"",
    );
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stdout.contains("governs only"), "{r:?}");
}

#[test]
fn bad_usage_is_one_line_and_exit_2() {
    let file = Fixture::new(ROBOTS.as_bytes());
    run(&["usage", file.path()], b"").assert_error("AGENT");
    run(&["usage", "--format", "yaml", file.path(), "Bot"], b"").assert_error("yaml");
    run(&["usage", "no-such-file.txt", "Bot"], b"").assert_error("no-such-file.txt");
    let r = run(&["usage", file.path(), "Bot", "not a url"], b"");
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stdout.contains("  error: cannot read URL"), "{r:?}");
    assert!(r.stderr.contains("1 line could not be checked"), "{r:?}");
}

#[test]
fn explain_has_a_usage_section_when_the_crawler_has_usage_rules() {
    let file = Fixture::new(ROBOTS.as_bytes());
    let r = run(&["explain", file.path(), "ExampleBot", "/ai-ok/test"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    let section = r
        .stdout
        .split_once("\nAI usage preferences (rfc9309):\n")
        .map(|(_, section)| section)
        .unwrap_or_else(|| panic!("no usage section: {r:?}"));
    assert!(
        section.starts_with("  combined (both vocabularies"),
        "{section}"
    );
    assert!(
        section.contains("    applies: line 7: Content-Usage: /ai-ok/ train-ai=y\n"),
        "{section}"
    );
    let json = run(
        &[
            "explain",
            "--format",
            "json",
            "--profile",
            "all",
            file.path(),
            "ExampleBot",
            "/never/x",
        ],
        b"",
    )
    .json();
    // Each profile's usage follows its own crawl verdict: the 1994 convention's first match
    // (`Allow: /`) lets the crawler in, and the preferences then apply.
    let crawlable: Vec<&serde_json::Value> = json["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["usage"]["crawlable"])
        .collect();
    assert_eq!(crawlable, [&json!(false), &json!(false), &json!(true)]);
    // Without usage rules, explain is as it was: no section, no field.
    let plain = Fixture::new(b"User-agent: *\nDisallow: /private/\n");
    let r = run(&["explain", plain.path(), "ExampleBot", "/a"], b"");
    assert!(!r.stdout.contains("AI usage"), "{r:?}");
    let json = run(
        &[
            "explain",
            "--format",
            "json",
            plain.path(),
            "ExampleBot",
            "/a",
        ],
        b"",
    )
    .json();
    assert!(json["profiles"][0].get("usage").is_none(), "{json}");
}

#[test]
fn show_lists_the_usage_rules_and_the_file_wide_records() {
    let file = Fixture::new(ROBOTS.as_bytes());
    let r = run(&["show", file.path(), "ExampleBot"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(
            "usage rules (Content-Usage, Content-Signal):\n  3: Content-Signal: search=yes,ai-train=no\n  \
             6: Content-Usage: train-ai=n\n  7: Content-Usage: /ai-ok/ train-ai=y\n"
        ),
        "{r:?}"
    );
    assert!(
        r.stdout.contains(
            "file-wide records (License, LLM-Policy, Content-Signal):\n  12: license: /license.xml\n"
        ),
        "{r:?}"
    );
    let json = run(&["show", "--format", "json", file.path(), "GPTBot"], b"").json();
    assert_eq!(json["usage"], json!([]));
    assert_eq!(
        json["file_wide"]["licenses"],
        json!([{"line": 12, "value": "/license.xml"}])
    );
}
