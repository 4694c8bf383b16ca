//! The lenient reading of a whole file: `robotstxt = *(group / emptyline)` (RFC 9309 §2.2),
//! line by line, as RFC 9309 §2.3.1.5 asks ("Crawlers MUST try to parse each line").
//!
//! Each line is read as the record line this crate defines for what the RFC leaves to
//! implementors ("define additional lines you need"):
//!
//! ```text
//! record = *WS key *WS ":" *WS value EOL    ; or, colon missing: key 1*WS value, two words only
//! key    = 1*(any octet but ":" and "#")   ; classified by `classify_key`
//! value  = *(any octet but "#")
//! ```
//!
//! Lines are split with `memchr` (a measured hot path) by the [`Lexer`]; a test keeps the split
//! equal to the [`crate::abnf::nl`] production, and another keeps the lexer's lines and
//! findings equal to reading each line on its own.

use memchr::{memchr, memrchr2};

use crate::finding::Finding;
use crate::key::classify_key;
use crate::lexer::Lexer;
use crate::line::{is_ws, Directive, Line, Separator};
use crate::span::Span;

/// The parse limit RFC 9309 §2.5 sets as a floor ("at least 500 kibibytes"), rounded to the
/// 512,000 bytes crawlers commonly use.
pub const DEFAULT_PARSE_LIMIT: usize = 512_000;

/// How to read the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes past this offset are ignored and reported (RFC 9309 §2.5). The line that crosses
    /// it is ignored whole, so no rule is read cut short.
    pub parse_limit: usize,
    /// When set, bytes of a line past this length are ignored and reported (Google's library
    /// cuts lines at 16,663 bytes).
    pub max_line_len: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            parse_limit: DEFAULT_PARSE_LIMIT,
            max_line_len: None,
        }
    }
}

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

/// Length of the UTF-8 byte order mark, or of a prefix of it, at the start of `input`.
pub(crate) fn skip_bom(input: &[u8]) -> usize {
    const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
    input.iter().zip(BOM).take_while(|(a, b)| **a == *b).count()
}

/// Where reading stops: the end of the input, or the end of the last whole line before
/// `limit` bytes.
pub(crate) fn cut_at_limit(input: &[u8], start: usize, limit: usize) -> usize {
    if input.len() <= limit {
        return input.len();
    }
    // The BOM is never cut: a limit inside it counts from its end.
    let limit = limit.max(start);
    if limit >= input.len() {
        return input.len();
    }
    if matches!(input[limit], b'\r' | b'\n') {
        // The line ends exactly at the limit: keep it, with a CRLF kept whole.
        return if input[limit] == b'\r' && input.get(limit + 1) == Some(&b'\n') {
            limit + 2
        } else {
            limit + 1
        };
    }
    match memrchr2(b'\r', b'\n', &input[start..limit]) {
        Some(k) => start + k + 1,
        None => start,
    }
}

/// `record = *WS key *WS ":" *WS value EOL`, or with the colon missing, `key 1*WS value` when
/// the line holds exactly two words (Google's reading). `text` is the line without comment,
/// trimmed.
#[inline]
pub(crate) fn record(input: &[u8], text: Span) -> Option<Directive> {
    let bytes = text.slice(input);
    if bytes.is_empty() {
        return None;
    }
    let (key, value, separator) = match memchr(b':', bytes) {
        Some(k) => (
            Span::new(text.start, text.start + k),
            Span::new(text.start + k + 1, text.end),
            Separator::Colon,
        ),
        None => {
            let k = find_ws(bytes)?;
            let value_start = k + bytes[k..].iter().take_while(|&&b| is_ws(b)).count();
            if find_ws(&bytes[value_start..]).is_some() {
                return None;
            }
            (
                Span::new(text.start, text.start + k),
                Span::new(text.start + value_start, text.end),
                Separator::Whitespace,
            )
        }
    };
    let key = trim(input, key);
    let (kind, spelling) = classify_key(key.slice(input));
    Some(Directive {
        key,
        kind,
        spelling,
        separator,
        value: trim(input, value),
    })
}

/// The first whitespace byte of `bytes` (lines without a colon can be long: minified pages).
fn find_ws(bytes: &[u8]) -> Option<usize> {
    let first = memchr::memchr3(b' ', b'\t', 0x0c, bytes);
    let limit = first.unwrap_or(bytes.len());
    match memchr(0x0b, &bytes[..limit]) {
        Some(vt) => Some(vt),
        None => first,
    }
}

/// The span without leading and trailing whitespace.
#[inline]
pub(crate) fn trim(input: &[u8], span: Span) -> Span {
    let (mut start, mut end) = (span.start, span.end.min(input.len()));
    while start < end && is_ws(input[start]) {
        start += 1;
    }
    while end > start && is_ws(input[end - 1]) {
        end -= 1;
    }
    Span::new(start, end)
}

#[cfg(test)]
mod tests;
