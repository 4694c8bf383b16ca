//! Golden tests for `robotrules explain --profile all`: the seeds' precedence examples
//! (Google's robots.txt specification, "order of precedence for group-member lines") and the
//! special cases, explained under every profile side by side. Text goldens
//! `explain/<name>.stdout` and JSON goldens `explain/<name>.json`;
//! `BLESS=1 cargo test -p robotrules-cli --test it explain_golden::` rewrites them.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;

use crate::support::{Fixture, Harness, Run};
use rstest::rstest;

/// `NO_COLOR` set: the goldens hold no colour codes.
const HARNESS: Harness = Harness {
    no_color: true,
    without_proxies: false,
    lossy: false,
};

/// `robotrules explain --profile all [--format json] robots.txt AGENT URL`, run next to the
/// file so the snippets name it `robots.txt`.
fn explain(robots: &str, agent: &str, url: &str, json: bool) -> Run {
    let f = Fixture::new(robots.as_bytes());
    let mut args = vec!["explain", "--profile", "all"];
    if json {
        args.extend(["--format", "json"]);
    }
    args.extend(["robots.txt", agent, url]);
    HARNESS.run_in(f.dir(), &args, b"")
}

fn check_golden(name: &str, ext: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/explain")
        .join(format!("{name}.{ext}"));
    if std::env::var_os("BLESS").is_some() {
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1)", path.display()));
    assert_eq!(
        expected,
        actual,
        "{} differs (BLESS=1 to accept)",
        path.display()
    );
}

fn verdicts(report: &serde_json::Value) -> Vec<Option<bool>> {
    report["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["explanation"]["allowed"].as_bool())
        .collect()
}

/// `(rfc9309, google, legacy1994)` verdicts: `Some(true)` allowed, `Some(false)` disallowed.
#[rstest]
// Google's precedence table, row by row (rules in the table's order: allow, then disallow).
#[case::p_vs_root("precedence-p", "user-agent: *\nallow: /p\ndisallow: /\n", "https://example.com/page", [Some(true), Some(true), Some(true)])]
#[case::folder_tie("precedence-folder", "user-agent: *\nallow: /folder\ndisallow: /folder\n", "https://example.com/folder/page", [Some(true), Some(true), Some(true)])]
#[case::htm_wildcard("precedence-htm", "user-agent: *\nallow: /page\ndisallow: /*.htm\n", "https://example.com/page.htm", [Some(false), Some(false), Some(true)])]
#[case::php5_wildcard("precedence-php5", "user-agent: *\nallow: /page\ndisallow: /*.ph\n", "https://example.com/page.php5", [Some(true), Some(true), Some(true)])]
#[case::anchor_root("precedence-anchor-root", "user-agent: *\nallow: /$\ndisallow: /\n", "https://example.com/", [Some(true), Some(true), Some(false)])]
#[case::anchor_page("precedence-anchor-page", "user-agent: *\nallow: /$\ndisallow: /\n", "https://example.com/page.htm", [Some(false), Some(false), Some(false)])]
// Special cases.
#[case::robots_txt("special-robots-txt", "user-agent: *\ndisallow: /\n", "https://example.com/robots.txt", [Some(true), Some(false), Some(false)])]
#[case::index_html("special-index-html", "user-agent: *\ndisallow: /shop/\nallow: /shop/index.html\n", "https://example.com/shop/", [Some(false), Some(true), Some(false)])]
#[case::crawl_delay_join("special-crawl-delay-join", "User-agent: *\nCrawl-delay: 10\nUser-agent: CCBot\nDisallow: /\n", "https://example.com/page", [Some(false), Some(false), Some(false)])]
#[case::merged_groups("groups-merged", "user-agent: examplebot\ndisallow: /a\n\nuser-agent: *\ndisallow: /\n\nuser-agent: ExampleBot\nallow: /a/public\n", "https://example.com/a/public/x", [Some(true), Some(true), Some(false)])]
#[case::no_group("groups-none", "user-agent: otherbot\ndisallow: /\n", "https://example.com/x", [Some(true), Some(true), Some(true)])]
fn explained(
    #[case] name: &str,
    #[case] robots: &str,
    #[case] url: &str,
    #[case] expected: [Option<bool>; 3],
) {
    let json = explain(robots, "ExampleBot", url, true);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(verdicts(&report), expected, "{name}");
    let text = explain(robots, "ExampleBot", url, false);
    let code = i32::from(expected.contains(&Some(false)));
    assert_eq!((text.code, json.code), (code, code), "{text:?}");
    check_golden(name, "stdout", &text.stdout);
    check_golden(
        name,
        "json",
        &(serde_json::to_string_pretty(&report).unwrap() + "\n"),
    );
}

#[test]
fn a_name_rfc9309_rejects_is_an_error_there_only() {
    let robots = "user-agent: *\ndisallow: /x\n";
    let json = explain(robots, "Example Bot/1.0", "/x", true);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(report["profiles"][0]["error"].is_string());
    assert_eq!(verdicts(&report), [None, Some(false), Some(false)]);
    // The other profiles' answers are shown; the profile that errored fails the run (exit 1).
    assert_eq!(json.code, 1, "{json:?}");
    assert_eq!(json.stderr.lines().count(), 1, "{json:?}");
    assert!(
        json.stderr.contains("rfc9309: invalid crawler name"),
        "{json:?}"
    );
    let text = explain(robots, "Example Bot/1.0", "/x", false);
    assert!(
        text.stdout.contains("rfc9309: error: invalid crawler name"),
        "{text:?}"
    );
}

#[test]
fn the_tie_rule_is_reported_for_equal_lengths() {
    let robots = "user-agent: *\nallow: /folder\ndisallow: /folder\n";
    let json = explain(robots, "Bot", "/folder/page", true);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        report["profiles"][0]["explanation"]["tied_with"],
        serde_json::json!([3])
    );
    assert_eq!(
        report["profiles"][2]["explanation"]["tied_with"],
        serde_json::json!([])
    );
    let text = explain(robots, "Bot", "/folder/page", false);
    assert!(text
        .stdout
        .contains("tie: line 3 as long (length 7); the allow wins"));
}
