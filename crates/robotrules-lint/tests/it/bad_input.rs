//! Bad input: huge files, binary files, thousands of findings, pathological patterns. The
//! linter never panics and its output stays bounded.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use crate::support::noise;

use robotrules_lint::{lint, render, Code, LintOptions, Profile, Severity};
use robotrules_model::KeySpellings;

fn text(report: &robotrules_lint::LintReport, source: &[u8]) -> String {
    render::text(
        report,
        source,
        &render::TextOptions {
            path: "robots.txt".into(),
            color: false,
        },
    )
}

/// Every profile; the report is bounded and its text too.
fn lint_everywhere(source: &[u8], max_text: usize) -> Vec<robotrules_lint::LintReport> {
    Profile::ALL
        .iter()
        .map(|&profile| {
            let options = LintOptions {
                profile,
                ..LintOptions::default()
            };
            let report = lint(source, &options);
            assert!(report.findings.len() <= options.max_findings);
            assert_eq!(
                report.total(),
                report.errors + report.warnings + report.notes
            );
            let shown = text(&report, source);
            assert!(shown.len() <= max_text, "{} bytes of text", shown.len());
            assert!(render::json_lines(&report).lines().count() <= options.max_findings);
            report
        })
        .collect()
}

#[test]
fn thousands_of_findings_are_capped_and_counted() {
    let mut source = b"user-agent: *\n".to_vec();
    for i in 0..5_000 {
        source.extend_from_slice(format!("dissallow: /x{i}\n").as_bytes());
    }
    for report in lint_everywhere(&source, 200 * 1_200) {
        if report.profile.reading().keys == KeySpellings::Lenient {
            continue; // Google accepts the typo: warnings, still capped.
        }
        assert_eq!(report.findings.len(), 200);
        assert_eq!(report.truncated_count, 4_800);
        assert_eq!(report.errors, 5_000);
        assert!(text(&report, &source)
            .contains("note: 4800 more findings not shown, only the first 200\n"));
    }
}

#[test]
fn a_huge_file_reports_the_parse_limit_and_rules_past_it() {
    let mut source = b"user-agent: *\n".to_vec();
    while source.len() < 5 << 20 {
        source.extend_from_slice(b"disallow: /some/long/path/to/a/page.html\n");
    }
    for report in lint_everywhere(&source, 64 * 1_024) {
        let limit = report
            .findings
            .iter()
            .find(|f| f.code == Code::ParseLimit)
            .expect("parse-limit finding");
        assert_eq!(limit.severity, Severity::Error);
        assert!(limit
            .help
            .as_deref()
            .unwrap_or_default()
            .contains("past the limit are ignored"));
    }
}

#[test]
fn binary_files_do_not_panic_and_stay_bounded() {
    for seed in 1..=4 {
        let source = noise(300_000, seed);
        lint_everywhere(&source, 200 * 2_000);
        for profile in Profile::ALL {
            let robots = robotrules_model::RobotsTxt::parse(&source, profile, 512_000);
            let explanation = robots.explain("ExampleBot", "/x").unwrap();
            assert_eq!(explanation.profile, profile);
        }
    }
}

#[test]
fn one_enormous_line_is_shown_cut_to_the_terminal_width() {
    let mut source = b"user-agent: *\ndisallow: /".to_vec();
    source.extend(std::iter::repeat_n(b'a', 700_000));
    for report in lint_everywhere(&source, 16 * 1_024) {
        assert!(report.findings.iter().any(|f| f.code == Code::ParseLimit));
    }
}

#[test]
fn many_equally_long_wildcard_rules_are_compared_within_a_budget() {
    let mut source = b"user-agent: *\n".to_vec();
    for i in 0..1_500 {
        source
            .extend_from_slice(format!("allow: /*a{:04}*\ndisallow: /*b{:04}*\n", i, i).as_bytes());
    }
    lint_everywhere(&source, 200 * 2_000);
}

#[test]
fn zero_findings_allowed_still_counts_them() {
    let options = LintOptions {
        max_findings: 0,
        ..LintOptions::default()
    };
    let report = lint(b"dissallow: /\nfoo bar baz\n", &options);
    assert!(report.findings.is_empty());
    assert_eq!(report.truncated_count, 3);
    assert!(!report.is_clean());
}

#[test]
fn every_prefix_of_a_messy_file_lints() {
    let source: &[u8] =
        b"\xEF\xBB\xBFuser-agent: MJ12bot\r\ncrawl-delay: x\r\nuser agent: *\rdisallow private\n\
        allow: /a$b%2f\xC3\xA9\x00z\nsitemap: /s\nDisallow:\n<html>\n\xff\xfe";
    for end in 0..=source.len() {
        for profile in Profile::ALL {
            let options = LintOptions {
                profile,
                ..LintOptions::default()
            };
            let report = lint(&source[..end], &options);
            text(&report, &source[..end]);
        }
    }
}

#[test]
fn a_file_of_only_nul_bytes_and_many_findings_stay_bounded() {
    let nul = vec![0u8; 1 << 20];
    for report in lint_everywhere(&nul, 200 * 1_200) {
        assert!(report.findings.len() <= 200);
    }
    // 20,000 lines that are no record (a debug build takes seconds per 100,000).
    let many = "x\n".repeat(20_000);
    for report in lint_everywhere(many.as_bytes(), 200 * 1_200) {
        assert_eq!(report.findings.len(), 200);
        assert_eq!(report.total(), 20_000);
    }
}

#[test]
fn thousands_of_misspelt_group_lines_are_accounted_for_in_bounded_time() {
    let mut source = b"user-agent: *\ndisallow: /private\n".to_vec();
    for i in 0..5_000 {
        source.extend_from_slice(format!("user agent: bot{i}\ndisallow: /x{i}\n").as_bytes());
    }
    let started = std::time::Instant::now();
    for report in lint_everywhere(&source, 200 * 4_000) {
        let first = report
            .findings
            .iter()
            .find(|f| f.code == Code::MisspeltKey)
            .expect("misspelt-key finding");
        assert_eq!(first.line, 3);
    }
    // Each account reads the models' line index, not every group again: linear, not
    // quadratic (a debug build takes about a second).
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}
