//! The outcome rules: combining each (case, profile) evaluation with the expected-differences
//! list.
//!
//! - a pair whose expectation holds passes; one that fails is a failure, unless it is listed,
//!   then it is an expected difference;
//! - a listed pair that passes is a failure ("remove it from the list");
//! - a listed pair that never ran is a failure: the case is pending or not runnable, the
//!   profile is not among the case's profiles, or no case has that id;
//! - a pair that did not run and is not listed is "not run", never a pass or a failure.

use std::collections::HashMap;

use robotrules::Profile;

use crate::case::{Case, Layer};
use crate::expected::{Entry, ExpectedDifferences};
use crate::run::Evaluation;

/// Which part of the corpus to run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Only this profile (all the case's profiles when `None`).
    pub profile: Option<Profile>,
    /// Only cases whose id, source or section contains this substring.
    pub filter: Option<String>,
    /// Only cases of this layer.
    pub layer: Option<Layer>,
}

impl RunOptions {
    /// Whether `case` is selected by the filter and layer.
    pub fn selects(&self, case: &Case) -> bool {
        (self.layer.is_none() || self.layer == Some(case.layer()))
            && match self.filter.as_deref() {
                None => true,
                Some(needle) => {
                    case.id.contains(needle)
                        || case.source.contains(needle)
                        || case.section.contains(needle)
                }
            }
    }

    /// Whether pairs of `profile` are run.
    pub fn runs_profile(&self, profile: Profile) -> bool {
        self.profile.is_none() || self.profile == Some(profile)
    }
}

/// How one (case, profile) pair, or one listing of the expected-differences file, ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The expectation held.
    Pass,
    /// The expectation did not hold, as the expected-differences list says.
    ExpectedDifference {
        /// The reason given in the list.
        reason: String,
        /// What the case expects.
        expected: String,
        /// What the profile answered.
        got: String,
    },
    /// A failure of the run.
    Fail(Failure),
    /// The pair did not run (and is not listed).
    NotRun(String),
}

/// Why a pair (or a listing) fails the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The expectation did not hold and the pair is not listed.
    Mismatch {
        /// What the case expects.
        expected: String,
        /// What robotrules answered.
        got: String,
    },
    /// The pair is listed but now passes.
    NowPasses {
        /// The reason the list gives.
        reason: String,
    },
    /// The pair is listed but never ran.
    ListedNotRun {
        /// The reason the list gives.
        reason: String,
        /// Why it did not run.
        why: String,
    },
}

impl Failure {
    /// One line saying what went wrong.
    pub fn summary(&self) -> String {
        match self {
            Failure::Mismatch { expected, got } => format!("expected {expected}, got {got}"),
            Failure::NowPasses { .. } => {
                "expected difference now passes: remove it from the list".to_owned()
            }
            Failure::ListedNotRun { why, .. } => {
                format!("listed as an expected difference but never ran: {why}")
            }
        }
    }
}

/// One line of the results: a (case, profile) pair, or a listing that names no runnable pair.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case (`None` when the expected-differences file names an unknown id).
    pub case: Option<Case>,
    /// The case id.
    pub id: String,
    /// The profile.
    pub profile: Profile,
    /// The expected-differences entry for the pair, if listed.
    pub listing: Option<Entry>,
    /// How it ended.
    pub outcome: Outcome,
}

/// The source under which listings of unknown ids are reported.
pub const UNKNOWN_SOURCE: &str = "expected-differences.txt";
/// The section under which listings of unknown ids are reported.
pub const UNKNOWN_SECTION: &str = "listed ids that match no case";

impl Row {
    /// The case's source, or [`UNKNOWN_SOURCE`].
    pub fn source(&self) -> &str {
        self.case
            .as_ref()
            .map_or(UNKNOWN_SOURCE, |c| c.source.as_str())
    }

    /// The case's section, or [`UNKNOWN_SECTION`].
    pub fn section(&self) -> &str {
        self.case
            .as_ref()
            .map_or(UNKNOWN_SECTION, |c| c.section.as_str())
    }

    /// Whether the row fails the run.
    pub fn is_failure(&self) -> bool {
        matches!(self.outcome, Outcome::Fail(_))
    }
}

/// Decides the outcome of one pair from its evaluation and its listing.
pub fn decide(evaluation: Evaluation, listing: Option<&Entry>) -> Outcome {
    match (evaluation, listing) {
        (Evaluation::Pass, None) => Outcome::Pass,
        (Evaluation::Pass, Some(entry)) => Outcome::Fail(Failure::NowPasses {
            reason: entry.reason.clone(),
        }),
        (Evaluation::Mismatch { expected, got }, None) => {
            Outcome::Fail(Failure::Mismatch { expected, got })
        }
        (Evaluation::Mismatch { expected, got }, Some(entry)) => Outcome::ExpectedDifference {
            reason: entry.reason.clone(),
            expected,
            got,
        },
        (Evaluation::NotRun(why), None) => Outcome::NotRun(why),
        (Evaluation::NotRun(why), Some(entry)) => Outcome::Fail(Failure::ListedNotRun {
            reason: entry.reason.clone(),
            why,
        }),
    }
}

/// Runs every selected (case, profile) pair with `evaluate` and applies the outcome rules.
///
/// Rows come in corpus order, each case's profiles in the order the case lists them; rows for
/// listings that name no runnable pair follow, in file order.
pub fn run_with(
    cases: &[Case],
    expected: &ExpectedDifferences,
    options: &RunOptions,
    mut evaluate: impl FnMut(&Case, Profile) -> Evaluation,
) -> Vec<Row> {
    let mut rows = Vec::new();
    for case in cases.iter().filter(|case| options.selects(case)) {
        for &profile in case.profiles.iter().filter(|p| options.runs_profile(**p)) {
            let listing = expected.find(&case.id, profile);
            rows.push(Row {
                case: Some(case.clone()),
                id: case.id.clone(),
                profile,
                listing: listing.cloned(),
                outcome: decide(evaluate(case, profile), listing),
            });
        }
    }
    let by_id: HashMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    for entry in expected
        .entries
        .iter()
        .filter(|e| options.runs_profile(e.profile))
    {
        let why = match by_id.get(entry.id.as_str()) {
            Some(case) if !options.selects(case) || case.profiles.contains(&entry.profile) => {
                continue
            }
            Some(case) => {
                let names: Vec<String> = case.profiles.iter().map(ToString::to_string).collect();
                format!(
                    "profile {} is not among the case's profiles ({})",
                    entry.profile,
                    names.join(", ")
                )
            }
            None if options
                .filter
                .as_deref()
                .is_some_and(|needle| !entry.id.contains(needle)) =>
            {
                continue
            }
            None => "no case has this id".to_owned(),
        };
        rows.push(Row {
            case: by_id.get(entry.id.as_str()).map(|case| (*case).clone()),
            id: entry.id.clone(),
            profile: entry.profile,
            listing: Some(entry.clone()),
            outcome: Outcome::Fail(Failure::ListedNotRun {
                reason: entry.reason.clone(),
                why,
            }),
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::parse_jsonl;

    /// A synthetic corpus: the expectation of each case is in its note, read by a fake
    /// evaluator, so the rules are tested without depending on robotrules' answers.
    fn corpus() -> Vec<Case> {
        let text = [
            (
                "s/pass",
                "model",
                r#"["rfc9309","google"]"#,
                "pass",
                "",
            ),
            ("s/fail", "model", r#"["rfc9309","google"]"#, "fail", ""),
            ("s/pending", "model", r#"["rfc9309"]"#, "pass", r#","pending":"later""#),
            ("t/url", "url", r#"["rfc9309"]"#, "fail", ""),
        ]
        .iter()
        .map(|(id, layer, profiles, note, extra)| {
            let source = id.split('/').next().unwrap_or_default();
            let (input, expect) = if *layer == "url" {
                (r#"{"op":"origin","url":"x"}"#, r#"{"origin":"x"}"#)
            } else {
                (r#"{"robots":"","agent":"a","url":"/"}"#, r#"{"allowed":true}"#)
            };
            format!(
                r#"{{"id":"{id}","source":"{source}","section":"sec {source}","layer":"{layer}","profiles":{profiles},"input":{input},"expect":{expect},"note":"{note}"{extra}}}"#
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
        parse_jsonl("synthetic.jsonl", &text).unwrap()
    }

    /// Passes where the note says "pass", fails elsewhere; pending cases do not run.
    fn fake(case: &Case, _profile: Profile) -> Evaluation {
        if let Some(why) = &case.pending {
            return Evaluation::NotRun(why.clone());
        }
        match case.note.as_deref() {
            Some("pass") => Evaluation::Pass,
            _ => Evaluation::Mismatch {
                expected: "allowed".into(),
                got: "disallowed".into(),
            },
        }
    }

    fn run(list: &str, options: &RunOptions) -> Vec<(String, Profile, Outcome)> {
        let expected = ExpectedDifferences::parse(list).unwrap();
        run_with(&corpus(), &expected, options, fake)
            .into_iter()
            .map(|row| (row.id, row.profile, row.outcome))
            .collect()
    }

    fn kind(outcome: &Outcome) -> &'static str {
        match outcome {
            Outcome::Pass => "pass",
            Outcome::ExpectedDifference { .. } => "expected",
            Outcome::Fail(Failure::Mismatch { .. }) => "mismatch",
            Outcome::Fail(Failure::NowPasses { .. }) => "now-passes",
            Outcome::Fail(Failure::ListedNotRun { .. }) => "listed-not-run",
            Outcome::NotRun(_) => "not-run",
        }
    }

    fn kinds(rows: &[(String, Profile, Outcome)]) -> Vec<(String, String, &'static str)> {
        rows.iter()
            .map(|(id, profile, outcome)| (id.clone(), profile.to_string(), kind(outcome)))
            .collect()
    }

    fn row(id: &str, profile: &str, kind: &'static str) -> (String, String, &'static str) {
        (id.to_owned(), profile.to_owned(), kind)
    }

    #[test]
    fn without_a_list_failures_fail_and_pending_is_not_run() {
        let rows = run("", &RunOptions::default());
        assert_eq!(
            kinds(&rows),
            [
                row("s/pass", "rfc9309", "pass"),
                row("s/pass", "google", "pass"),
                row("s/fail", "rfc9309", "mismatch"),
                row("s/fail", "google", "mismatch"),
                row("s/pending", "rfc9309", "not-run"),
                row("t/url", "rfc9309", "mismatch"),
            ]
        );
    }

    #[test]
    fn a_listed_failure_is_an_expected_difference_with_its_reason() {
        let rows = run(
            "s/fail google Google reads it otherwise\n",
            &RunOptions::default(),
        );
        let google = rows
            .iter()
            .find(|(id, p, _)| id == "s/fail" && p.as_str() == "google")
            .unwrap();
        assert_eq!(
            google.2,
            Outcome::ExpectedDifference {
                reason: "Google reads it otherwise".into(),
                expected: "allowed".into(),
                got: "disallowed".into(),
            }
        );
        let rfc = rows
            .iter()
            .find(|(id, p, _)| id == "s/fail" && p.as_str() == "rfc9309")
            .unwrap();
        assert_eq!(
            kind(&rfc.2),
            "mismatch",
            "only the listed profile is excused"
        );
    }

    #[test]
    fn a_listed_pair_that_passes_fails() {
        let rows = run("s/pass rfc9309 stale\n", &RunOptions::default());
        assert_eq!(kind(&rows[0].2), "now-passes");
        assert_eq!(kind(&rows[1].2), "pass");
    }

    #[test]
    fn listed_pairs_that_never_ran_fail() {
        let list = "s/pending rfc9309 pending case\n\
                    s/pass legacy1994 profile not in the case\n\
                    nowhere/1 google unknown id\n";
        let rows = run(list, &RunOptions::default());
        let tail = kinds(&rows[4..]);
        assert_eq!(
            tail,
            [
                row("s/pending", "rfc9309", "listed-not-run"),
                row("t/url", "rfc9309", "mismatch"),
                row("s/pass", "legacy1994", "listed-not-run"),
                row("nowhere/1", "google", "listed-not-run"),
            ]
        );
        let Outcome::Fail(Failure::ListedNotRun { why, .. }) = &rows[6].2 else {
            panic!("{:?}", rows[6])
        };
        assert!(why.contains("not among the case's profiles"), "{why}");
        let Outcome::Fail(Failure::ListedNotRun { why, .. }) = &rows[7].2 else {
            panic!("{:?}", rows[7])
        };
        assert_eq!(why, "no case has this id");
    }

    #[test]
    fn profile_option_runs_only_that_profile_and_its_listings() {
        let options = RunOptions {
            profile: Some(Profile::Google),
            ..RunOptions::default()
        };
        let rows = run("s/pass rfc9309 stale\nnowhere/1 google unknown\n", &options);
        assert_eq!(
            kinds(&rows),
            [
                row("s/pass", "google", "pass"),
                row("s/fail", "google", "mismatch"),
                row("nowhere/1", "google", "listed-not-run"),
            ]
        );
    }

    #[test]
    fn filter_and_layer_skip_listings_of_unselected_cases() {
        let list = "s/pass google stale\nt/url rfc9309 known\nnowhere/1 google unknown\n";
        let by_layer = run(
            list,
            &RunOptions {
                layer: Some(Layer::Url),
                ..RunOptions::default()
            },
        );
        assert_eq!(
            kinds(&by_layer),
            [
                row("t/url", "rfc9309", "expected"),
                row("nowhere/1", "google", "listed-not-run"),
            ],
            "a listing of an unknown id fails every slice"
        );
        let by_filter = run(
            list,
            &RunOptions {
                filter: Some("t/".into()),
                ..RunOptions::default()
            },
        );
        assert_eq!(kinds(&by_filter), [row("t/url", "rfc9309", "expected")]);
        let by_section = run(
            "",
            &RunOptions {
                filter: Some("sec t".into()),
                ..RunOptions::default()
            },
        );
        assert_eq!(kinds(&by_section), [row("t/url", "rfc9309", "mismatch")]);
    }
}
