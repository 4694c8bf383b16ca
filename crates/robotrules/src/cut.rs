//! Where the parse limit cut a file (RFC 9309 §2.5): [`Robots::cut`](crate::Robots::cut).

use crate::model::DiagnosticKind;
use crate::Diagnostic;
use robotrules_grammar::FindingKind;

/// Where the parse limit ([`ParseOptions::parse_limit`](crate::ParseOptions::parse_limit))
/// cut a file: at the start of the line the limit falls in, so the bytes from [`Cut::at`] on
/// were not read (RFC 9309 §2.5).
///
/// ```
/// use robotrules::{ParseOptions, Robots};
///
/// let options = ParseOptions::new().with_parse_limit(20);
/// let robots = Robots::parse_with(b"user-agent: *\ndisallow: /a\ndisallow: /b\n", &options);
/// let cut = robots.cut().expect("longer than 20 bytes");
/// assert_eq!((cut.at, cut.limit, cut.line), (14, 20, 2));
/// assert_eq!(Robots::parse(b"user-agent: *\n").cut(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Cut {
    /// The byte offset of the cut (the start of the line the limit falls in): bytes from here
    /// on were not read.
    pub at: usize,
    /// The parse limit in bytes.
    pub limit: usize,
    /// The 1-based line the cut starts: it and every line after it were not read.
    pub line: u32,
}

impl Cut {
    /// The cut the parser reported among `diagnostics`, if any.
    pub(crate) fn of(diagnostics: &[Diagnostic]) -> Option<Cut> {
        diagnostics.iter().find_map(|d| match d.kind {
            DiagnosticKind::Grammar(FindingKind::ParseLimit { limit }) => Some(Cut {
                at: d.span.start,
                limit,
                line: d.line,
            }),
            _ => None,
        })
    }
}
