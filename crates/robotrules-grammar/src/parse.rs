//! The lenient reading of a whole file: `robotstxt = *(group / emptyline)` (RFC 9309 §2.2),
//! line by line, as RFC 9309 §2.3.1.5 asks ("Crawlers MUST try to parse each line").
//!
//! [`parse_with`] collects the lines of a [`Lexer`], which reads each line with the nom
//! productions of `abnf.rs`. Tests keep the line split equal to the `NL` production, and the
//! lexer's lines and findings equal to reading each line on its own, by hand.

use crate::finding::Finding;
use crate::lexer::Lexer;
use crate::limits::Limits;
use crate::line::Line;
use crate::span::Span;

/// A parsed file: the input, its lines, and what was found on the way.
#[derive(Clone, Debug)]
pub struct Parsed<'a> {
    /// The input, whole.
    pub source: &'a [u8],
    /// The lines, in order.
    pub lines: Vec<Line>,
    /// Findings, in input order.
    pub diagnostics: Vec<Finding>,
    /// The byte order mark skipped at the start, if any.
    pub bom: Option<Span>,
    /// The bytes ignored because of the parse limit, if any.
    pub ignored: Option<Span>,
}

impl<'a> Parsed<'a> {
    /// The input bytes a span covers.
    pub fn slice(&self, span: Span) -> &'a [u8] {
        span.slice(self.source)
    }
}

/// Parse with the default options.
pub fn parse(input: &[u8]) -> Parsed<'_> {
    parse_with(input, &Limits::default())
}

/// Parse with the given options. Never fails, never panics; time and memory are linear in
/// `min(input.len(), options.parse_limit)`. The lines are those of a [`Lexer`], collected.
pub fn parse_with<'a>(input: &'a [u8], options: &Limits) -> Parsed<'a> {
    let mut lines = Vec::with_capacity(input.len().min(options.parse_limit) / 24 + 1);
    let mut lexer = Lexer::new(input, options);
    lines.extend(lexer.by_ref());
    let end = lexer.finish();
    Parsed {
        source: input,
        lines,
        diagnostics: end.findings,
        bom: end.bom,
        ignored: end.ignored,
    }
}

#[cfg(test)]
mod tests;
