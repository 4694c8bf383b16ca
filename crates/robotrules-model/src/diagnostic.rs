//! Findings about a file's meaning under a profile, beside the grammar's own.

use std::fmt;

use robotrules_grammar::{KeyKind, Separator, Severity, Span, Spelling};
/// What the model found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// Found by the grammar.
    Grammar(robotrules_grammar::FindingKind),
    /// An allow or disallow before any user-agent line (RFC 9309 §2.2.2: ignored).
    RuleOutsideGroup,
    /// A misspelt key, a key with extra characters, or a missing colon, that this profile does
    /// not accept: the line is kept as an unknown record.
    KeyNotAccepted {
        /// The record the key looks like.
        looks_like: KeyKind,
        /// How it was written.
        spelling: Spelling,
        /// What separated key and value.
        separator: Separator,
    },
    /// The same, accepted by this profile (Google's reading).
    KeyAcceptedLeniently {
        /// The record the key was read as.
        read_as: KeyKind,
        /// How it was written.
        spelling: Spelling,
        /// What separated key and value.
        separator: Separator,
    },
    /// A rule value that starts with neither `/` nor `*`.
    PatternWithoutSlash {
        /// Whether the profile reads it with a `/` in front (else it never matches).
        slash_prepended: bool,
    },
    /// A user-agent value with characters after its token (`FooBot/1.2` is read as `FooBot`;
    /// under `google`, `MJ12bot` is read as `MJ`).
    UserAgentTruncated,
    /// An empty user-agent value.
    EmptyUserAgent,
}

/// A finding with the bytes it is about.
///
/// As JSON (feature `serde`), one flat record that every surface writes alike (the npm
/// package's `diagnostics`, the Python package's `Diagnostic` has the same fields):
/// `{"code", "severity", "line", "start", "end", "message"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Diagnostic {
    /// What was found.
    pub kind: DiagnosticKind,
    /// The bytes concerned (offsets into the parsed input).
    pub span: Span,
    /// The 1-based line where the span starts.
    pub line: u32,
}

impl Diagnostic {
    pub(crate) fn grammar(d: &robotrules_grammar::Finding) -> Diagnostic {
        Diagnostic {
            kind: DiagnosticKind::Grammar(d.kind),
            span: d.span,
            line: d.line,
        }
    }

    /// A stable code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            DiagnosticKind::Grammar(kind) => robotrules_grammar::Finding {
                kind,
                span: self.span,
                line: self.line,
            }
            .code(),
            DiagnosticKind::RuleOutsideGroup => "rule-outside-group",
            DiagnosticKind::KeyNotAccepted {
                separator: Separator::Whitespace,
                ..
            } => "missing-colon",
            DiagnosticKind::KeyNotAccepted { .. } => "misspelt-key",
            DiagnosticKind::KeyAcceptedLeniently { .. } => "lenient-key",
            DiagnosticKind::PatternWithoutSlash { .. } => "pattern-without-slash",
            DiagnosticKind::UserAgentTruncated => "user-agent-truncated",
            DiagnosticKind::EmptyUserAgent => "empty-user-agent",
        }
    }

    /// How serious it is: an error when the line or rule is dropped.
    pub fn severity(&self) -> Severity {
        match self.kind {
            DiagnosticKind::Grammar(kind) => robotrules_grammar::Finding {
                kind,
                span: self.span,
                line: self.line,
            }
            .severity(),
            DiagnosticKind::RuleOutsideGroup | DiagnosticKind::KeyNotAccepted { .. } => {
                Severity::Error
            }
            DiagnosticKind::PatternWithoutSlash {
                slash_prepended: false,
            } => Severity::Error,
            DiagnosticKind::KeyAcceptedLeniently { .. }
            | DiagnosticKind::PatternWithoutSlash {
                slash_prepended: true,
            }
            | DiagnosticKind::UserAgentTruncated
            | DiagnosticKind::EmptyUserAgent => Severity::Warning,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("Diagnostic", 6)?;
        out.serialize_field("code", self.code())?;
        out.serialize_field("severity", self.severity().as_str())?;
        out.serialize_field("line", &self.line)?;
        out.serialize_field("start", &self.span.start)?;
        out.serialize_field("end", &self.span.end)?;
        out.serialize_field("message", &self.to_string())?;
        out.end()
    }
}

fn key_name(kind: KeyKind) -> &'static str {
    kind.canonical().unwrap_or("unknown")
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DiagnosticKind::Grammar(kind) => {
                robotrules_grammar::Finding { kind, span: self.span, line: self.line }.fmt(f)
            }
            DiagnosticKind::RuleOutsideGroup => {
                f.write_str("rule before any user-agent line: ignored (RFC 9309 §2.2.2)")
            }
            DiagnosticKind::KeyNotAccepted { looks_like, separator: Separator::Whitespace, .. } => {
                write!(f, "missing colon after `{}`: line ignored", key_name(looks_like))
            }
            DiagnosticKind::KeyNotAccepted { looks_like, .. } => {
                write!(f, "unknown key; did you mean `{}`? line ignored", key_name(looks_like))
            }
            DiagnosticKind::KeyAcceptedLeniently { read_as, .. } => {
                write!(f, "non-standard key read as `{}`", key_name(read_as))
            }
            DiagnosticKind::PatternWithoutSlash { slash_prepended: true } => {
                f.write_str("path does not start with `/` or `*`: read with `/` in front")
            }
            DiagnosticKind::PatternWithoutSlash { slash_prepended: false } => {
                f.write_str("path does not start with `/` or `*`: it never matches")
            }
            DiagnosticKind::UserAgentTruncated => f.write_str(
                "user-agent value has characters after its product token: only the leading token is used (RFC 9309 §2.2.1)",
            ),
            DiagnosticKind::EmptyUserAgent => f.write_str("empty user-agent value"),
        }
    }
}
