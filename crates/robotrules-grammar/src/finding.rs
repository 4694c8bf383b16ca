//! What the grammar reports beside the lines: everything it skipped or could not read.

use std::fmt;

use crate::span::Span;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Content was dropped.
    Error,
    /// Content was kept but is likely not what the author meant.
    Warning,
    /// Worth knowing; nothing is wrong.
    Note,
}

impl Severity {
    /// The severity as output names it: `error`, `warning` or `note`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the grammar found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum FindingKind {
    /// A UTF-8 byte order mark (or a prefix of one) at the start was skipped.
    ByteOrderMark {
        /// Whether all three bytes were there.
        complete: bool,
    },
    /// The file looks like an HTML page; only its valid lines are read.
    HtmlContent,
    /// The line is not valid UTF-8 (RFC 9309 §2.3: the file MUST be UTF-8).
    InvalidUtf8,
    /// A NUL byte; the rest of the line is ignored.
    NulByte,
    /// The line is longer than the line-length limit; the rest is ignored.
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// The file is longer than the parse limit (RFC 9309 §2.5); the rest is ignored.
    ParseLimit {
        /// The limit in bytes.
        limit: usize,
    },
    /// The line holds text that is neither a record nor a comment.
    NoDirective,
}

/// A finding with the bytes it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Finding {
    /// What was found.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub kind: FindingKind,
    /// The bytes concerned.
    pub span: Span,
    /// The 1-based line number where the span starts.
    pub line: u32,
}

impl Finding {
    /// A stable code, e.g. `"nul-byte"`.
    pub const fn code(&self) -> &'static str {
        match self.kind {
            FindingKind::ByteOrderMark { .. } => "byte-order-mark",
            FindingKind::HtmlContent => "html-content",
            FindingKind::InvalidUtf8 => "invalid-utf8",
            FindingKind::NulByte => "nul-byte",
            FindingKind::LineTooLong { .. } => "line-too-long",
            FindingKind::ParseLimit { .. } => "parse-limit",
            FindingKind::NoDirective => "no-directive",
        }
    }

    /// How serious it is.
    pub const fn severity(&self) -> Severity {
        match self.kind {
            FindingKind::ByteOrderMark { .. } => Severity::Note,
            FindingKind::HtmlContent | FindingKind::InvalidUtf8 | FindingKind::NoDirective => {
                Severity::Warning
            }
            FindingKind::NulByte
            | FindingKind::LineTooLong { .. }
            | FindingKind::ParseLimit { .. } => Severity::Error,
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            FindingKind::ByteOrderMark { complete: true } => {
                f.write_str("UTF-8 byte order mark skipped")
            }
            FindingKind::ByteOrderMark { complete: false } => {
                f.write_str("truncated UTF-8 byte order mark skipped")
            }
            FindingKind::HtmlContent => {
                f.write_str("the file looks like HTML, not a robots.txt; only valid lines are read")
            }
            FindingKind::InvalidUtf8 => f.write_str("line is not valid UTF-8"),
            FindingKind::NulByte => f.write_str("NUL byte: the rest of the line is ignored"),
            FindingKind::LineTooLong { limit } => write!(
                f,
                "line longer than {limit} bytes: {} bytes ignored",
                self.span.len()
            ),
            FindingKind::ParseLimit { limit } => write!(
                f,
                "file longer than the parse limit of {limit} bytes: {} bytes ignored",
                self.span.len()
            ),
            FindingKind::NoDirective => {
                f.write_str("line is neither a `key: value` record nor a comment; ignored")
            }
        }
    }
}
