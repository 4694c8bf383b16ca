//! The robotrules conformance corpus: the case format ([`case`]), loading `conformance/`
//! ([`load`]), the expected-differences list ([`expected`]), running each (case, profile)
//! pair through the crates ([`run`]), the outcome rules ([`outcome`]) and the report
//! ([`report`]). The `robotrules-conformance` binary (`src/main.rs`, run by
//! `cargo xtask conformance`) is a thin command over [`Corpus`].
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
mod spec;

use std::path::{Path, PathBuf};

pub use case::{Case, Layer};
pub use expected::ExpectedDifferences;
pub use outcome::{Outcome, RunOptions};
pub use report::{Report, MARKDOWN_COMMAND};

/// The name of the expected-differences file inside the corpus directory.
pub const EXPECTED_DIFFERENCES_FILE: &str = "expected-differences.txt";

/// The generated report, relative to the workspace root.
pub const DOCS_FILE: &str = "docs/conformance.md";

/// The workspace root (two levels above this crate).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or(manifest)
        .to_path_buf()
}

/// `None` when [`DOCS_FILE`] as written (`on_disk`) is the `fresh` Markdown report, else a
/// one-line message naming the first line that differs and the command that regenerates it.
pub fn stale_docs(on_disk: &str, fresh: &str) -> Option<String> {
    if on_disk == fresh {
        return None;
    }
    let line = on_disk
        .split('\n')
        .zip(fresh.split('\n'))
        .take_while(|(old, new)| old == new)
        .count();
    Some(format!(
        "{DOCS_FILE} is out of date (it differs from line {}): run `{MARKDOWN_COMMAND}`",
        line + 1
    ))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_docs_names_the_first_differing_line() {
        assert_eq!(stale_docs("a\nb\n", "a\nb\n"), None);
        let message = stale_docs("a\nb\nc\n", "a\nB\nc\n").unwrap();
        assert_eq!(
            message,
            "docs/conformance.md is out of date (it differs from line 2): \
             run `cargo xtask conformance --format markdown`"
        );
        assert!(stale_docs("a\n", "a\nb\n").unwrap().contains("line 2"));
    }
}

/// The repository README's examples, run as doctests so they stay true (here, in a crate
/// that is never packaged, because the README lives outside every crate).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RepositoryReadmeDoctests;
