//! What a lint run returns: findings with spans, and the report that holds them.

use robotrules_grammar::DEFAULT_PARSE_LIMIT;
use robotrules_model::{Profile, Severity, Span};
use serde::Serialize;

use crate::code::Code;
use crate::level::Levels;

/// How many findings a report keeps unless told otherwise.
pub const DEFAULT_MAX_FINDINGS: usize = 200;

/// How to lint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintOptions {
    /// The reading the file is checked for: a finding is an error when this profile drops a
    /// line or rule, a warning when it keeps it but the author likely meant something else (or
    /// another profile reads it differently).
    pub profile: Profile,
    /// Bytes past this many are ignored (RFC 9309 §2.5), and reported.
    pub parse_limit: usize,
    /// At most this many findings are kept (the first, in file order); the rest are counted.
    pub max_findings: usize,
    /// Which codes to allow (leave out), warn about or deny (make errors), as `-A`, `-W` and
    /// `-D` do for rustc's lints.
    pub levels: Levels,
    /// Where the file was fetched from, when known: sitemaps on the same origin are the ones
    /// its rules govern.
    pub robots_txt_url: Option<String>,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            profile: Profile::default(),
            parse_limit: DEFAULT_PARSE_LIMIT,
            max_findings: DEFAULT_MAX_FINDINGS,
            levels: Levels::default(),
            robots_txt_url: None,
        }
    }
}

/// A second place a finding points at ("the `*` group starts here").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Related {
    /// The bytes concerned.
    pub span: Span,
    /// 1-based line of the span's start.
    pub line: u32,
    /// 1-based column of the span's start, in characters (an invalid UTF-8 sequence counts
    /// as one).
    pub column: u32,
    /// What this place is.
    pub label: String,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// Stable code.
    pub code: Code,
    /// `error` when the profile linted for drops a line or rule, `warning` when it keeps it
    /// but it is likely not what the author meant, `note` for a harmless
    /// redundancy worth knowing about. Notes never change the exit status.
    pub severity: Severity,
    /// The bytes concerned (offsets into the linted input).
    pub span: Span,
    /// 1-based line of the span's start.
    pub line: u32,
    /// 1-based column of the span's start, in characters (an invalid UTF-8 sequence counts
    /// as one).
    pub column: u32,
    /// What is wrong, in one line.
    pub message: String,
    /// A short note shown under the span.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// How to fix it, and why it matters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The profiles under which the problem occurs.
    pub profiles: Vec<Profile>,
    /// Other places that explain the finding.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

impl Finding {
    /// A finding on `line`; the column is filled in when the report is made.
    pub(crate) fn new(
        code: Code,
        severity: Severity,
        span: Span,
        line: u32,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            code,
            severity,
            span,
            line,
            column: 0,
            message: message.into(),
            label: None,
            help: None,
            profiles: Profile::ALL.to_vec(),
            related: Vec::new(),
        }
    }

    pub(crate) fn label(mut self, label: impl Into<String>) -> Finding {
        self.label = Some(label.into());
        self
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Finding {
        self.help = Some(help.into());
        self
    }

    pub(crate) fn profiles(mut self, profiles: &[Profile]) -> Finding {
        self.profiles = profiles.to_vec();
        self
    }

    pub(crate) fn related(mut self, span: Span, line: u32, label: impl Into<String>) -> Finding {
        self.related.push(Related {
            span,
            line,
            column: 0,
            label: label.into(),
        });
        self
    }
}

/// The outcome of [`crate::lint`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct LintReport {
    /// The profile the file was checked for.
    pub profile: Profile,
    /// The findings kept, in file order.
    pub findings: Vec<Finding>,
    /// How many findings were left out because of [`LintOptions::max_findings`].
    pub truncated_count: usize,
    /// Errors among all findings (kept or not).
    pub errors: usize,
    /// Warnings among all findings (kept or not).
    pub warnings: usize,
    /// Notes among all findings (kept or not).
    pub notes: usize,
}

impl LintReport {
    /// Whether there is no error and no warning (notes do not count).
    pub fn is_clean(&self) -> bool {
        self.errors == 0 && self.warnings == 0
    }

    /// Whether there is any error.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// Every finding, kept or not.
    pub fn total(&self) -> usize {
        self.findings.len() + self.truncated_count
    }
}

/// Counts over one or more reports: the closing record of `robotrules lint --format json`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Files linted.
    pub files: usize,
    /// Errors, shown or not.
    pub errors: usize,
    /// Warnings, shown or not.
    pub warnings: usize,
    /// Notes, shown or not.
    pub notes: usize,
    /// Findings shown.
    pub shown: usize,
    /// Findings left out by the cap (`max_findings`).
    pub truncated: usize,
}

impl Summary {
    /// Add one file's report.
    pub fn add(&mut self, report: &LintReport) {
        self.files += 1;
        self.errors += report.errors;
        self.warnings += report.warnings;
        self.notes += report.notes;
        self.shown += report.findings.len();
        self.truncated += report.truncated_count;
    }
}
