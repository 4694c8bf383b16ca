//! The robotrules conformance corpus: the case format ([`case`]), loading `conformance/`
//! ([`load`]), the expected-differences list ([`expected`]), running each (case, profile)
//! pair through the crates ([`run`]), the outcome rules ([`outcome`]) and the report
//! ([`report`]). `cargo xtask conformance` is a thin command over [`Corpus`].
//!
//! ```no_run
//! use robotrules_conformance::{Corpus, RunOptions};
//!
//! let corpus = Corpus::load(std::path::Path::new("conformance")).unwrap();
//! let report = corpus.run(&RunOptions::default());
//! print!("{}", report.to_text());
//! assert!(report.is_success());
//! ```

pub mod case;
pub mod expected;
pub mod fetch;
pub mod fetch_case;
pub mod grammar;
pub mod load;
pub mod outcome;
pub mod report;
pub mod run;

use std::path::Path;

pub use case::{Case, Layer};
pub use expected::ExpectedDifferences;
pub use outcome::{Outcome, RunOptions};
pub use report::Report;

/// The name of the expected-differences file inside the corpus directory.
pub const EXPECTED_DIFFERENCES_FILE: &str = "expected-differences.txt";

/// A loaded corpus: its cases and its expected-differences list.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// Every case, in load order.
    pub cases: Vec<Case>,
    /// The expected-differences list (empty when the file is missing).
    pub expected: ExpectedDifferences,
}

impl Corpus {
    /// Loads every `*.jsonl` under `dir` and `dir/expected-differences.txt`.
    pub fn load(dir: &Path) -> Result<Corpus, Box<dyn std::error::Error>> {
        let cases = load::load_dir(dir)?;
        let expected = ExpectedDifferences::load(&dir.join(EXPECTED_DIFFERENCES_FILE))?;
        Ok(Corpus { cases, expected })
    }

    /// Runs the selected pairs through the crates and applies the outcome rules. The loopback
    /// servers of the `fetch` layer start once, on the first fetch case.
    pub fn run(&self, options: &RunOptions) -> Report {
        let mut evaluator = run::Evaluator::new();
        Report {
            rows: outcome::run_with(&self.cases, &self.expected, options, |case, profile| {
                evaluator.evaluate(case, profile)
            }),
        }
    }
}
