//! End-to-end tests of `robotrules lint` and `robotrules explain`: exit statuses, where the
//! output goes (lint: the report on standard output, summaries on standard error), one-line
//! errors, bounded output on bad input.

#![allow(clippy::unwrap_used)]

use rstest::rstest;

use crate::support::{Fixture, Harness, Run};

/// `NO_COLOR` set, and output read lossily: lint shows excerpts of whatever bytes it read.
const HARNESS: Harness = Harness {
    no_color: true,
    without_proxies: false,
    lossy: true,
};

fn run(args: &[&str], stdin: &[u8]) -> Run {
    HARNESS.run(args, stdin)
}

#[test]
fn lint_a_clean_file_exits_0() {
    let f = Fixture::new(b"user-agent: *\ndisallow: /private/\n");
    let r = run(&["lint", f.path()], b"");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains("no problems found (profile rfc9309)"),
        "{r:?}"
    );
}

#[test]
fn lint_findings_are_rendered_like_rustc_on_stdout_and_exit_1() {
    let r = run(&["lint", "-"], b"user-agent: *\ndissallow: /private\n");
    assert_eq!(r.code, 1, "{r:?}");
    for fragment in [
        "error[misspelt-key]: `dissallow` is not a directive; did you mean `disallow`?",
        " --> <stdin>:2:1",
        "2 | dissallow: /private",
        "  | ^^^^^^^^^",
        "= help: google accepts this spelling",
    ] {
        assert!(
            r.stdout.contains(fragment),
            "{fragment:?} not in\n{}",
            r.stdout
        );
    }
    // The summary is progress, not report: standard error, and only there.
    assert_eq!(
        r.stderr, "<stdin>: 1 error and 0 warnings (profile rfc9309)\n",
        "{r:?}"
    );
    assert!(!r.stdout.contains("(profile rfc9309)"), "{r:?}");
}

/// `robotrules lint a b | less` and `> report.txt` hold every file's report; the per-file
/// summaries and the total stay on the terminal.
#[test]
fn lint_report_goes_to_stdout_and_summaries_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::write(&a, "user-agent: *\nDisalow: /a\n").unwrap();
    std::fs::write(&b, "user-agent: *\ndisallow: /b\nfoo bar baz\n").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let r = run(&["lint", a, b], b"");
    assert_eq!(r.code, 1, "{r:?}");
    let a_at = r
        .stdout
        .find(&format!("{a}:2:1"))
        .expect("a's finding on stdout");
    let b_at = r
        .stdout
        .find(&format!("{b}:3:1"))
        .expect("b's finding on stdout");
    assert!(a_at < b_at, "{r:?}");
    assert!(!r.stderr.contains('['), "no finding on stderr: {r:?}");
    let summaries: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(
        summaries,
        [
            format!("{a}: 1 error and 0 warnings (profile rfc9309)").as_str(),
            format!("{b}: 1 error and 0 warnings (profile rfc9309)").as_str(),
            "2 files: 2 errors, 0 warnings, 0 notes",
        ],
        "{r:?}"
    );
}

/// WordPress's default file is right for every longest-match crawler: no note by default;
/// `--profile legacy1994` or `-W rule-order` asks about first-match readers.
#[test]
fn lint_rule_order_only_when_asked_about_first_match_readers() {
    const WORDPRESS: &[u8] =
        b"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n";
    let r = run(&["lint", "-"], WORDPRESS);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "", "{r:?}");
    assert_eq!(
        r.stderr, "<stdin>: no problems found (profile rfc9309)\n",
        "{r:?}"
    );
    let legacy = run(&["lint", "--profile", "legacy1994", "-"], WORDPRESS);
    assert_eq!(legacy.code, 0, "{legacy:?}");
    assert!(
        legacy.stdout.contains("note[rule-order]: `Allow: /wp-admin/admin-ajax.php` is never used by first-match readers"),
        "{legacy:?}"
    );
    assert!(legacy.stdout.contains(" --> <stdin>:3:1"), "{legacy:?}");
    let asked = run(&["lint", "-W", "rule-order", "-"], WORDPRESS);
    assert_eq!(asked.code, 0, "{asked:?}");
    assert!(asked.stdout.contains("warning[rule-order]"), "{asked:?}");
    assert!(asked.stderr.contains("0 errors and 1 warning"), "{asked:?}");
}

#[test]
fn lint_profile_changes_severity() {
    let r = run(
        &["lint", "--profile", "google", "-"],
        b"user-agent: *\ndissallow: /private\n",
    );
    // Google reads the typo: a warning, which fails the run only when denied.
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("warning[misspelt-key]"), "{}", r.stdout);
    let denied = run(
        &["lint", "--profile", "google", "--deny", "warnings", "-"],
        b"user-agent: *\ndissallow: /private\n",
    );
    assert_eq!(denied.code, 1, "{denied:?}");
    assert!(
        denied.stdout.contains("error[misspelt-key]"),
        "{}",
        denied.stdout
    );
    let allowed = run(
        &["lint", "-A", "misspelt-key", "-"],
        b"user-agent: *\ndissallow: /private\n",
    );
    assert_eq!(allowed.code, 0, "{allowed:?}");
    assert!(
        allowed.stderr.contains("no problems found"),
        "{}",
        allowed.stderr
    );
}

#[test]
fn lint_several_files_names_each_and_exits_with_the_worst() {
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.txt");
    let broken = dir.path().join("broken.txt");
    std::fs::write(&clean, "user-agent: *\ndisallow:\n").unwrap();
    std::fs::write(&broken, "user-agent: *\ndissallow: /x\n").unwrap();
    let (clean, broken) = (clean.to_str().unwrap(), broken.to_str().unwrap());
    let r = run(&["lint", clean, broken], b"");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!("{clean}: no problems found")),
        "{r:?}"
    );
    assert!(r.stderr.contains(&format!("{broken}: 1 error")), "{r:?}");
    assert!(
        r.stderr.contains("2 files: 1 error, 0 warnings, 0 notes"),
        "{r:?}"
    );
    let sarif = run(&["lint", "--format", "sarif", clean, broken], b"");
    assert_eq!(sarif.code, 1, "{sarif:?}");
    let log: serde_json::Value = serde_json::from_str(&sarif.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"][0]["results"][0]["ruleId"], "misspelt-key");
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        broken
    );
    let missing = run(&["lint", clean, "/no/such/robots.txt"], b"");
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(missing.stderr.contains("no problems found"), "{missing:?}");
}

#[test]
fn lint_json_is_one_object_per_finding_on_stdout() {
    let r = run(
        &["lint", "--format", "json", "-"],
        b"disallow: /a\nuser-agent: MJ12bot\ndisallow private\n",
    );
    assert_eq!(r.code, 1);
    let mut lines: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.pop().unwrap();
    assert_eq!(summary["summary"]["files"], 1, "{summary}");
    assert_eq!(summary["summary"]["truncated"], 0, "{summary}");
    assert!(lines
        .iter()
        .all(|v| v["file"] == "<stdin>" || v["file"] == "-"));
    let codes: Vec<&str> = lines.iter().map(|v| v["code"].as_str().unwrap()).collect();
    // Google reads `disallow private` as `disallow: private`, a pattern without `/`.
    assert_eq!(
        codes,
        [
            "rule-outside-group",
            "user-agent-truncated",
            "missing-colon",
            "pattern-without-slash"
        ]
    );
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["column"], 13);
}

#[test]
fn lint_caps_findings_and_says_how_many_more() {
    let source = "dissallow: /x\n".repeat(50);
    let r = run(&["lint", "--max-findings", "3", "-"], source.as_bytes());
    assert_eq!(r.code, 1);
    let shown = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("error[") || l.starts_with("warning["))
        .count();
    assert_eq!(shown, 3, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("note: 97 more findings not shown, only the first 3\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn lint_binary_input_is_bounded() {
    let mut state = 7u64;
    let noise: Vec<u8> = (0..2_000_000)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 56) as u8
        })
        .collect();
    let r = run(&["lint", "-"], &noise);
    assert_eq!(r.code, 1);
    assert!(r.stdout.len() < 1_000_000, "{} bytes", r.stdout.len());
    // One finding for the file, not one per stray byte.
    assert_eq!(
        r.stdout.matches("error[").count() + r.stdout.matches("warning[").count(),
        1,
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("error[not-text]: the file is not a text file"),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stderr,
        "<stdin>: 1 error and 0 warnings (profile rfc9309)\n"
    );
}

#[rstest]
#[case(&["lint", "/no/such/robots.txt"], "cannot read robots.txt")]
#[case(&["lint", "--profile", "bing", "-"], "bing")]
#[case(&["lint", "--format", "xml", "-"], "xml")]
#[case(&["lint"], "missing argument")]
#[case(&["explain", "-", "Googlebot"], "missing argument")]
#[case(&["explain", "-", "Google bot", "/"], "invalid crawler name")]
#[case(&["explain", "-", "Googlebot", "example.com/x"], "cannot read URL")]
#[case(&["explain", "--profile", "some", "-", "Googlebot", "/"], "some")]
fn usage_and_input_errors_exit_2_with_one_line(#[case] args: &[&str], #[case] fragment: &str) {
    run(args, b"user-agent: *\n").assert_one_line_error(fragment);
}

#[rstest]
#[case("/page", 0, "rfc9309: allowed")]
#[case("/private/x", 1, "rfc9309: disallowed")]
fn explain_exit_status_follows_the_verdict(
    #[case] url: &str,
    #[case] code: i32,
    #[case] verdict: &str,
) {
    let r = run(
        &["explain", "-", "Googlebot", url],
        b"user-agent: *\ndisallow: /private\n",
    );
    assert_eq!(r.code, code, "{r:?}");
    assert!(r.stdout.contains(verdict), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("groups: no group names `Googlebot`: the `*` group at line 1 applies"),
        "{}",
        r.stdout
    );
}

#[test]
fn explain_all_profiles_side_by_side() {
    let r = run(
        &[
            "explain",
            "--profile",
            "all",
            "-",
            "ExampleBot",
            "https://example.com/page.htm",
        ],
        b"user-agent: *\nallow: /page\ndisallow: /*.htm\n",
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .contains("rfc9309     disallowed  line 3: disallow: /*.htm (length 6)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("legacy1994  allowed     line 2: allow: /page (first match)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("why they differ:"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("note: decided by line 3: disallow: /*.htm"),
        "{}",
        r.stdout
    );
}

#[test]
fn explain_json_is_the_structured_report() {
    let r = run(
        &[
            "explain",
            "--format",
            "json",
            "--profile",
            "all",
            "-",
            "ExampleBot",
            "/robots.txt",
        ],
        b"user-agent: *\ndisallow: /\n",
    );
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        v["profiles"][0]["explanation"]["reason"],
        "robots-txt-implicitly-allowed"
    );
    assert_eq!(v["profiles"][1]["explanation"]["allowed"], false);
    // One cause, shared by google and legacy1994: said once, for both.
    assert_eq!(
        v["differences"],
        serde_json::json!([
            "rfc9309 always allows `/robots.txt` (RFC 9309 §2.2.2); google and legacy1994 apply the rules to it like any other path"
        ])
    );
}

#[test]
fn explain_all_with_a_name_only_rfc9309_rejects_shows_the_others_then_fails() {
    let r = run(
        &["explain", "--profile", "all", "-", "Googlebot/2.1", "/x"],
        b"user-agent: *\ndisallow: /x\n",
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("google      disallowed"), "{}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(r.stderr.contains("rfc9309: invalid crawler name"), "{r:?}");
}

/// `lint --explain CODE` says what a code means, as `rustc --explain` does; no ROBOTS needed.
#[test]
fn lint_explain_code_prints_its_meaning() {
    let r = run(&["lint", "--explain", "misspelt-key"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("misspelt-key (keys): "), "{r:?}");
    assert!(
        r.stdout
            .contains("A misspelt known key (`dissallow`), with \"did you mean\"."),
        "{r:?}"
    );
    assert!(r.stdout.contains("docs/lints.md"), "{r:?}");
    assert_eq!(r.stderr, "", "{r:?}");
}

/// `lint --explain` without a code lists every code with its one-line meaning.
#[test]
fn lint_explain_without_a_code_lists_every_code() {
    let r = run(&["lint", "--explain"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    let lines = r.lines();
    assert_eq!(lines.len(), robotrules_lint::Code::ALL.len(), "{r:?}");
    for (line, code) in lines.iter().zip(robotrules_lint::Code::ALL) {
        assert!(line.starts_with(code.as_str()), "{line:?}");
        assert!(line.ends_with(code.description()), "{line:?}");
    }
}

/// An unknown code is a usage error, in one line, with the near miss the lint crate finds.
#[test]
fn lint_explain_an_unknown_code_is_a_usage_error_with_a_suggestion() {
    let r = run(&["lint", "--explain", "misspeltkey"], b"");
    r.assert_one_line_error("did you mean `misspelt-key`?");
    let r = run(&["lint", "--explain", "no-such-code"], b"");
    r.assert_one_line_error("unknown lint code `no-such-code`");
}

/// ROBOTS stays required for a normal run.
#[test]
fn lint_without_robots_or_explain_is_a_usage_error() {
    let r = run(&["lint"], b"");
    assert_eq!(r.code, 2, "{r:?}");
}
