//! Golden tests for explain: the seeds' precedence examples (Google's robots.txt
//! specification, "order of precedence for group-member lines") and the special cases,
//! explained under every profile side by side. Text goldens `explain/<name>.stdout` (as
//! `robotrules explain --profile all` prints it) and JSON goldens `explain/<name>.json`;
//! `BLESS=1 cargo test -p robotrules-lint --test explain` rewrites them.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;

use robotrules_lint::explain::{explain, text, ExplainOptions, ExplainReport};
use robotrules_lint::render::TextOptions;
use robotrules_lint::Profile;
use rstest::rstest;

fn all() -> ExplainOptions {
    ExplainOptions {
        profiles: Profile::ALL.to_vec(),
        ..ExplainOptions::default()
    }
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

fn verdicts(report: &ExplainReport) -> Vec<Option<bool>> {
    report.profiles.iter().map(|p| p.allowed()).collect()
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
#[case::crawl_delay_join("special-crawl-delay-join", "User-agent: *\nCrawl-delay: 10\nUser-agent: CCBot\nDisallow: /\n", "https://example.com/page", [Some(true), Some(false), Some(false)])]
#[case::merged_groups("groups-merged", "user-agent: examplebot\ndisallow: /a\n\nuser-agent: *\ndisallow: /\n\nuser-agent: ExampleBot\nallow: /a/public\n", "https://example.com/a/public/x", [Some(true), Some(true), Some(false)])]
#[case::no_group("groups-none", "user-agent: otherbot\ndisallow: /\n", "https://example.com/x", [Some(true), Some(true), Some(true)])]
fn explained(
    #[case] name: &str,
    #[case] robots: &str,
    #[case] url: &str,
    #[case] expected: [Option<bool>; 3],
) {
    let report = explain(robots.as_bytes(), "ExampleBot", url, &all());
    assert_eq!(verdicts(&report), expected, "{name}");
    let options = TextOptions {
        path: "robots.txt".into(),
        color: false,
    };
    check_golden(name, "stdout", &text(&report, robots.as_bytes(), &options));
    check_golden(
        name,
        "json",
        &(serde_json::to_string_pretty(&report).unwrap() + "\n"),
    );
}

#[test]
fn a_name_rfc9309_rejects_is_an_error_there_only() {
    let report = explain(
        b"user-agent: *\ndisallow: /x\n",
        "Example Bot/1.0",
        "/x",
        &all(),
    );
    assert!(report.profiles[0].error.is_some());
    assert!(report.any_error());
    assert_eq!(report.profiles[1].allowed(), Some(false));
    assert_eq!(report.profiles[2].allowed(), Some(false));
    let shown = text(&report, b"", &TextOptions::default());
    assert!(
        shown.contains("rfc9309: error: invalid crawler name"),
        "{shown}"
    );
}

#[test]
fn the_tie_rule_is_reported_for_equal_lengths() {
    let report = explain(
        b"user-agent: *\nallow: /folder\ndisallow: /folder\n",
        "Bot",
        "/folder/page",
        &all(),
    );
    let tie = report.profiles[0].tie.as_ref().unwrap();
    assert_eq!((tie.priority, tie.lines.as_slice()), (7, &[3][..]));
    assert!(report.profiles[2].tie.is_none(), "no ties in file order");
}
