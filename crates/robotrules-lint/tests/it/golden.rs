//! Golden tests: a fixture file per lint code (`fixtures/<code>.txt`) with its text rendering
//! (`<code>.stderr`, as `robotrules lint` prints it) and JSON lines (`<code>.json`) committed
//! beside it. `BLESS=1 cargo test -p robotrules-lint --test it golden::` rewrites the goldens.
//!
//! A fixture may start with `# lint-options: profile=google parse-limit=64` (a comment, so
//! still a valid robots.txt) to lint it with other options.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use robotrules_lint::{lint, render, Code, LintOptions, LintReport, Profile};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn options_of(source: &[u8]) -> LintOptions {
    let mut options = LintOptions::default();
    let first = source.split(|&b| b == b'\n').next().unwrap_or_default();
    let Some(rest) = std::str::from_utf8(first)
        .ok()
        .and_then(|l| l.strip_prefix("# lint-options:"))
    else {
        return options;
    };
    for setting in rest.split_whitespace() {
        match setting.split_once('=') {
            Some(("profile", p)) => options.profile = p.parse().unwrap(),
            Some(("parse-limit", n)) => options.parse_limit = n.parse().unwrap(),
            _ => panic!("unknown lint option {setting}"),
        }
    }
    options
}

fn run(code: Code) -> (Vec<u8>, LintReport) {
    let path = fixtures().join(format!("{code}.txt"));
    let source = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report = lint(&source, &options_of(&source));
    (source, report)
}

/// Compares `actual` with the golden file, or rewrites it under `BLESS=1`.
fn check_golden(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("BLESS").is_some() {
        fs::write(path, actual).unwrap();
        return Ok(());
    }
    let expected = fs::read_to_string(path)
        .map_err(|e| format!("{}: {e} (run with BLESS=1 to create it)", path.display()))?;
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "{} differs (run with BLESS=1 to accept):\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        ))
    }
}

#[test]
fn every_code_has_a_fixture_that_fires_it_and_matches_its_goldens() {
    let mut failures = Vec::new();
    for &code in Code::ALL {
        let (source, report) = run(code);
        if !report.findings.iter().any(|f| f.code == code) {
            failures.push(format!("fixture {code}.txt does not fire {code}"));
        }
        let text = render::text(
            &report,
            &source,
            &render::TextOptions {
                path: format!("{code}.txt"),
                color: false,
            },
        );
        let json = render::json_lines(&report);
        for (ext, actual) in [("stderr", &text), ("json", &json)] {
            if let Err(e) = check_golden(&fixtures().join(format!("{code}.{ext}")), actual) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn no_stray_fixtures() {
    for entry in fs::read_dir(fixtures()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let stem = name.split('.').next().unwrap();
        assert!(
            stem.parse::<Code>().is_ok(),
            "{name} belongs to no lint code"
        );
    }
}

#[test]
fn renderings_are_stable_across_runs() {
    for &code in Code::ALL {
        let (source, a) = run(code);
        let (_, b) = run(code);
        assert_eq!(a, b, "{code}");
        assert_eq!(render::json_lines(&a), render::json_lines(&b), "{code}");
        let opts = render::TextOptions {
            path: "x".into(),
            color: true,
        };
        assert_eq!(
            render::text(&a, &source, &opts),
            render::text(&b, &source, &opts),
            "{code}"
        );
    }
}

#[test]
fn json_lines_are_one_object_each_with_the_documented_fields() {
    for &code in Code::ALL {
        let (_, report) = run(code);
        let json = render::json_lines(&report);
        assert_eq!(json.lines().count(), report.findings.len());
        for line in json.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for field in [
                "code", "severity", "span", "line", "column", "message", "profiles",
            ] {
                assert!(v.get(field).is_some(), "{code}: {field} missing in {line}");
            }
            assert!(matches!(
                v["severity"].as_str(),
                Some("error" | "warning" | "note")
            ));
        }
    }
}

#[test]
fn every_fixture_lints_under_every_profile_with_spans_inside_the_input() {
    for &code in Code::ALL {
        let path = fixtures().join(format!("{code}.txt"));
        let source = fs::read(&path).unwrap();
        for profile in Profile::ALL {
            let options = LintOptions {
                profile,
                ..options_of(&source)
            };
            let report = lint(&source, &options);
            assert_eq!(report.profile, profile);
            for f in &report.findings {
                assert!(
                    f.span.start <= f.span.end && f.span.end <= source.len(),
                    "{code} {f:?}"
                );
                assert!(f.line >= 1 && f.column >= 1, "{code} {f:?}");
                assert!(!f.profiles.is_empty(), "{code} {f:?}");
                for r in &f.related {
                    assert!(r.span.end <= source.len() && r.line >= 1 && r.column >= 1);
                }
            }
        }
    }
}

#[test]
fn docs_lints_md_documents_every_code_once() {
    let docs =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/lints.md"))
            .unwrap();
    for &code in Code::ALL {
        let heading = format!("### `{code}`\n");
        assert_eq!(
            docs.matches(&heading).count(),
            1,
            "docs/lints.md: {heading:?}"
        );
    }
    let headings = docs.lines().filter(|l| l.starts_with("### `")).count();
    assert_eq!(
        headings,
        Code::ALL.len(),
        "a heading for a code that does not exist"
    );
}

/// Every finding of `source` under every profile, as `profile code line: message`.
fn findings_everywhere(source: &[u8], base: &LintOptions) -> Vec<String> {
    Profile::ALL
        .iter()
        .flat_map(|&profile| {
            let options = LintOptions {
                profile,
                ..base.clone()
            };
            lint(source, &options)
                .findings
                .into_iter()
                .map(move |f| format!("{profile} {} {}: {}", f.code, f.line, f.message))
        })
        .collect()
}

/// The notes the clean files may have, each documented in `docs/lints.md`: (file, profile,
/// code, line). Shopify's named-bot groups leave out `*` rules on purpose
/// (`specific-group-ignores-global`, a note because it is often deliberate); WordPress's
/// `allow` after its `disallow` is never reached by first-match readers (`rule-order`,
/// reported only for `legacy1994`); an empty file allows everything (`empty-file`).
const CLEAN_NOTES: &[(&str, Profile, Code, u32)] = &[
    ("empty.txt", Profile::Rfc9309, Code::EmptyFile, 1),
    ("empty.txt", Profile::Google, Code::EmptyFile, 1),
    ("empty.txt", Profile::Legacy1994, Code::EmptyFile, 1),
    (
        "shopify.txt",
        Profile::Rfc9309,
        Code::SpecificGroupIgnoresGlobal,
        48,
    ),
    (
        "shopify.txt",
        Profile::Google,
        Code::SpecificGroupIgnoresGlobal,
        48,
    ),
    (
        "shopify.txt",
        Profile::Legacy1994,
        Code::SpecificGroupIgnoresGlobal,
        48,
    ),
    ("wordpress.txt", Profile::Legacy1994, Code::RuleOrder, 3),
];

/// Precision first: the files that are right (allow-all, disallow-all, empty, WordPress's
/// default, Shopify's default, Google's basic example) have no error or warning in any
/// profile, and no note but the documented ones ([`CLEAN_NOTES`]).
#[test]
fn files_that_are_right_have_no_error_or_warning_in_any_profile() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clean");
    let mut names = Vec::new();
    let mut notes = Vec::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let source = fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for profile in Profile::ALL {
            let options = LintOptions {
                profile,
                ..LintOptions::default()
            };
            let report = lint(&source, &options);
            let loud: Vec<String> = report
                .findings
                .iter()
                .filter(|f| f.severity != robotrules_lint::Severity::Note)
                .map(|f| format!("{} {}: {}", f.code, f.line, f.message))
                .collect();
            assert!(
                loud.is_empty() && report.is_clean(),
                "{} under {profile}: {loud:#?}",
                path.display()
            );
            assert_eq!(report.truncated_count, 0);
            for f in &report.findings {
                notes.push((name.clone(), profile, f.code, f.line));
            }
        }
        names.push(name);
    }
    names.sort();
    assert_eq!(
        names,
        [
            "allow-all.txt",
            "disallow-all.txt",
            "empty.txt",
            "google-basic.txt",
            "shopify.txt",
            "wordpress.txt"
        ]
    );
    notes.sort();
    let mut expected: Vec<(String, Profile, Code, u32)> = CLEAN_NOTES
        .iter()
        .map(|&(n, p, c, l)| (n.to_owned(), p, c, l))
        .collect();
    expected.sort();
    assert_eq!(notes, expected, "notes on the clean files");
    // Shopify's file is its real shape: the paths every shop has, and its sitemap.
    let shopify = fs::read_to_string(dir.join("shopify.txt")).unwrap();
    for line in [
        "Disallow: /admin\n",
        "Disallow: /cart\n",
        "Disallow: /checkout\n",
        "Disallow: /*?*oseid=*\n",
        "Sitemap: https://example.com/sitemap.xml\n",
    ] {
        assert!(shopify.contains(line), "shopify.txt lacks {line:?}");
    }
}

/// Each `fixed/<code>.txt` is its fixture with the finding's help applied by hand: it must
/// lint with no finding at all, in any profile, so advice never leads to another finding.
#[test]
fn applying_each_help_to_its_fixture_leaves_nothing_to_report() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixed");
    let mut failures = Vec::new();
    for &code in Code::ALL {
        let path = dir.join(format!("{code}.txt"));
        let Ok(source) = fs::read(&path) else {
            failures.push(format!("{}: missing", path.display()));
            continue;
        };
        let found = findings_everywhere(&source, &options_of(&source));
        if !found.is_empty() {
            failures.push(format!("{code}: {found:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
