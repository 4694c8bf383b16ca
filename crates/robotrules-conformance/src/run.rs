//! Running one (case, profile) pair through the crate its layer names.
//!
//! The result is an [`Evaluation`]: the expectation held, it did not (with what was expected
//! and what came back), or the case could not run. Whether a failed expectation is a failure
//! of the run is decided later, against the expected-differences list (see [`crate::outcome`]).
//!
//! [`evaluate`] runs the layers that need nothing but the input; [`Evaluator`] adds the
//! `fetch` layer, whose loopback servers it starts on the first fetch case and keeps for the
//! rest of the run.

use std::panic::{self, AssertUnwindSafe};

use robotrules::usage::{Outcome, SharedCategory, Usage, Vocabulary};
use robotrules::{ParseOptions, Profile, Robots};

use crate::case::{
    Case, GrammarExpect, GrammarTest, ModelError, ModelExpect, ModelTest, PathStyle, Test,
    UrlExpect, UrlOp, UrlTest, UsageExpect, UsageTest,
};
use crate::fetch::FetchEnv;

/// What running a (case, profile) pair gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The expectation held.
    Pass,
    /// The expectation did not hold.
    Mismatch {
        /// What the case expects.
        expected: String,
        /// What robotrules answered.
        got: String,
    },
    /// The pair was not run; the reason says why.
    NotRun(String),
}

/// Runs `case` in `profile` through the crates, catching panics (a panic is a mismatch whose
/// `got` is the panic message). `fetch` cases need servers: run them with [`Evaluator`].
pub fn evaluate(case: &Case, profile: Profile) -> Evaluation {
    if let Some(why) = &case.pending {
        return Evaluation::NotRun(format!("pending: {why}"));
    }
    guarded(case, || match &case.test {
        Test::Model(test) => evaluate_model(test, profile),
        Test::Url(test) => evaluate_url(test),
        Test::Grammar(test) => evaluate_grammar(test),
        Test::Usage(test) => evaluate_usage(test, profile),
        Test::Fetch(_) => Evaluation::NotRun("fetch cases run through run::Evaluator".into()),
        Test::Cli(_) => Evaluation::NotRun("the cli layer is not wired into the runner yet".into()),
    })
}

/// Runs every layer, `fetch` included: the loopback servers start on the first `fetch` case
/// and stop when the evaluator is dropped.
#[derive(Default)]
pub struct Evaluator {
    fetch: Option<Result<FetchEnv, String>>,
}

impl Evaluator {
    /// An evaluator that has started nothing yet.
    pub fn new() -> Evaluator {
        Evaluator::default()
    }

    /// As [`evaluate`], and `fetch` cases against the loopback servers.
    pub fn evaluate(&mut self, case: &Case, profile: Profile) -> Evaluation {
        let Test::Fetch(test) = &case.test else {
            return evaluate(case, profile);
        };
        if let Some(why) = &case.pending {
            return Evaluation::NotRun(format!("pending: {why}"));
        }
        let env = self
            .fetch
            .get_or_insert_with(|| FetchEnv::start().map_err(|error| error.to_string()));
        guarded(case, || {
            let observed = match env {
                Ok(env) => env.run(test, profile),
                Err(error) => Err(format!("the loopback servers could not start: {error}")),
            };
            match observed {
                Ok(observed) => compare(test.expect.to_string(), observed.to_string()),
                Err(error) => Evaluation::Mismatch {
                    expected: expected_text(case),
                    got: format!("error: {error}"),
                },
            }
        })
    }
}

/// Runs `run`, turning a panic into a mismatch whose `got` is the panic message.
fn guarded(case: &Case, run: impl FnOnce() -> Evaluation) -> Evaluation {
    panic::catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string payload)".to_owned());
        Evaluation::Mismatch {
            expected: expected_text(case),
            got: format!("panic: {message}"),
        }
    })
}

/// The case's expectation as the report shows it.
pub fn expected_text(case: &Case) -> String {
    match &case.test {
        Test::Model(test) => test.expect.to_string(),
        Test::Url(test) => test.expect.to_string(),
        Test::Grammar(test) => test.expect.to_string(),
        Test::Fetch(test) => test.expect.to_string(),
        Test::Usage(test) => test.expect.to_string(),
        Test::Cli(test) => test.expect.to_string(),
    }
}

fn compare(expected: String, got: String) -> Evaluation {
    if expected == got {
        Evaluation::Pass
    } else {
        Evaluation::Mismatch { expected, got }
    }
}

fn evaluate_model(test: &ModelTest, profile: Profile) -> Evaluation {
    let options = ParseOptions::new().with_profile(profile);
    let robots = Robots::parse_with(test.input.body(), &options);
    let got = match robots.is_allowed(&test.input.agent, &test.input.url) {
        Ok(allowed) => ModelExpect::Allowed(allowed).to_string(),
        Err(error) => match test.expect {
            ModelExpect::Error(ModelError::InvalidAgent) => test.expect.to_string(),
            ModelExpect::Allowed(_) => format!("error: {error}"),
        },
    };
    compare(test.expect.to_string(), got)
}

fn evaluate_url(test: &UrlTest) -> Evaluation {
    let got: Result<UrlExpect, String> = match &test.input {
        UrlOp::RobotsTxtUrl { url } => robotrules_url::robots_txt_url(url)
            .map(UrlExpect::RobotsTxtUrl)
            .map_err(|e| e.to_string()),
        UrlOp::Governs { robots_txt, url } => robotrules_url::governs(robots_txt, url)
            .map(UrlExpect::Governs)
            .map_err(|e| e.to_string()),
        UrlOp::Origin { url } => robotrules_url::Origin::parse(url)
            .map(|origin| UrlExpect::Origin(origin.to_string()))
            .map_err(|e| e.to_string()),
        UrlOp::Path {
            url,
            profile_style: PathStyle::Google,
        } => Ok(UrlExpect::Path(
            robotrules_url::google::path_params_query(url).into_owned(),
        )),
        UrlOp::Path {
            url,
            profile_style: PathStyle::Rfc9309,
        } => robotrules_url::target_path(url)
            .map(|path| UrlExpect::Path(path.into_owned()))
            .map_err(|e| e.to_string()),
    };
    match (got, &test.expect) {
        (Err(_), UrlExpect::Error(_)) => Evaluation::Pass,
        (Err(error), expect) => Evaluation::Mismatch {
            expected: expect.to_string(),
            got: format!("error: {error}"),
        },
        (Ok(value), expect) => compare(expect.to_string(), value.to_string()),
    }
}

fn evaluate_grammar(test: &GrammarTest) -> Evaluation {
    let got = crate::grammar::observe(test.input.body());
    let observed = GrammarExpect {
        lines: test.expect.lines.map(|_| got.lines),
        directives: test.expect.directives.as_ref().map(|_| got.directives),
    };
    compare(test.expect.to_string(), observed.to_string())
}

fn evaluate_usage(test: &UsageTest, profile: Profile) -> Evaluation {
    let options = ParseOptions::new().with_profile(profile);
    let robots = Robots::parse_with(test.input.body(), &options);
    let usage = match robots.usage(&test.input.agent, &test.input.url) {
        Ok(usage) => usage,
        Err(error) => {
            return Evaluation::Mismatch {
                expected: test.expect.to_string(),
                got: format!("error: {error}"),
            }
        }
    };
    let usage = match &test.input.header {
        Some(header) => usage.with_header(header.as_bytes()),
        None => usage,
    };
    compare(
        test.expect.to_string(),
        observed_usage(&usage, &test.expect).to_string(),
    )
}

/// What `usage` says of the categories `expect` names, in its terms.
fn observed_usage(usage: &Usage, expect: &UsageExpect) -> UsageExpect {
    let mut observed = UsageExpect {
        crawlable: usage.crawlable,
        outcomes: Default::default(),
        lines: Default::default(),
    };
    if !usage.crawlable {
        return observed;
    }
    for name in expect.outcomes.keys() {
        let (outcome, mut lines, header) = category_of(usage, name);
        observed
            .outcomes
            .insert(name.clone(), outcome.as_str().to_owned());
        if expect.lines.contains_key(name) {
            if header {
                lines.insert(0, 0);
            }
            observed.lines.insert(name.clone(), lines);
        }
    }
    observed
}

/// The outcome, deciding lines and header flag of the category `name`
/// (`VOCABULARY:LABEL` or `combined:CATEGORY`); unknown for a name robotrules does not report.
fn category_of(usage: &Usage, name: &str) -> (Outcome, Vec<u32>, bool) {
    let unknown = (Outcome::Unknown, Vec::new(), false);
    let Some((vocabulary, label)) = name.split_once(':') else {
        return unknown;
    };
    if vocabulary == "combined" {
        return usage
            .combined
            .iter()
            .find(|c| c.category.as_str() == label && SharedCategory::ALL.contains(&c.category))
            .map_or(unknown, |c| (c.outcome, c.lines.clone(), c.header));
    }
    Vocabulary::ALL
        .into_iter()
        .find(|v| v.as_str() == vocabulary)
        .and_then(|v| usage.category(v, label))
        .map_or(unknown, |c| (c.outcome, c.lines.clone(), c.header))
}
