//! End-to-end run of a small fixture corpus (`tests/fixtures/corpus`) through the real
//! crates: loading, evaluation of every layer the runner wires, the outcome rules and both
//! report formats.

use std::path::{Path, PathBuf};

use robotrules_conformance::outcome::Failure;
use robotrules_conformance::report::Counts;
use robotrules_conformance::{Corpus, Layer, Outcome, Report, RunOptions};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus")
}

fn load() -> Corpus {
    Corpus::load(&fixture_dir()).unwrap_or_else(|error| panic!("loading the fixtures: {error}"))
}

fn run(options: &RunOptions) -> Report {
    load().run(options)
}

#[test]
fn fixture_corpus_passes_with_its_expected_difference() {
    let report = run(&RunOptions::default());
    assert!(report.is_success(), "{}", report.to_text());
    assert_eq!(
        report.total(),
        Counts {
            cases: 14,
            pass: 23,
            expected: 1,
            fail: 0,
            not_run: 1,
        },
        "{}",
        report.to_text()
    );
    let difference = report
        .rows
        .iter()
        .find(|row| matches!(row.outcome, Outcome::ExpectedDifference { .. }))
        .unwrap();
    assert_eq!(difference.id, "fixture/model-wildcard");
    assert_eq!(difference.profile.to_string(), "legacy1994");
}

#[test]
fn each_layer_slice_runs_only_its_cases() {
    for (layer, runs) in [(Layer::Model, 18), (Layer::Url, 5), (Layer::Grammar, 1)] {
        let report = run(&RunOptions {
            layer: Some(layer),
            ..RunOptions::default()
        });
        assert!(report.is_success(), "{}", report.to_text());
        assert_eq!(report.total().runs(), runs, "{layer}");
    }
}

#[test]
fn an_emptied_expected_differences_list_makes_the_difference_fail() {
    let mut corpus = load();
    corpus.expected.entries.clear();
    let report = corpus.run(&RunOptions::default());
    let failures: Vec<_> = report.failures().collect();
    assert_eq!(failures.len(), 1, "{}", report.to_text());
    assert!(matches!(
        &failures[0].outcome,
        Outcome::Fail(Failure::Mismatch { expected, got })
            if expected == "disallowed" && got == "allowed"
    ));
    let text = report.to_text();
    assert!(
        text.contains("FAIL fixture/model-wildcard [legacy1994]"),
        "{text}"
    );
    assert!(text.contains("  | disallow: /*.gif$"), "{text}");
}

#[test]
fn a_wrong_expectation_is_reported_with_what_came_back() {
    let mut corpus = load();
    for case in &mut corpus.cases {
        if let robotrules_conformance::case::Test::Url(test) = &mut case.test {
            if case.id == "fixture/url-path" {
                test.expect = robotrules_conformance::case::UrlExpect::Path("/wrong".into());
            }
        }
    }
    let report = corpus.run(&RunOptions {
        filter: Some("url-path".into()),
        ..RunOptions::default()
    });
    let failures: Vec<_> = report.failures().collect();
    assert_eq!(failures.len(), 1);
    assert_eq!(
        failures[0].outcome,
        Outcome::Fail(Failure::Mismatch {
            expected: "\"/wrong\"".into(),
            got: "\"/a?b\"".into(),
        })
    );
}

#[test]
fn markdown_report_of_the_fixtures() {
    let md = run(&RunOptions::default()).to_markdown();
    assert!(md.contains("## By source and profile"), "{md}");
    assert!(
        md.contains("| `fixture/model-wildcard` | `legacy1994` | disallowed | allowed |"),
        "{md}"
    );
    assert!(md.contains("## Failures\n\nNone."), "{md}");
}
