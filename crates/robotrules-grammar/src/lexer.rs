//! The one pass over a file's bytes: lines with their records, one at a time.
//!
//! [`Lexer`] is what [`crate::parse_with`] collects, and what the model reads directly (without
//! collecting the lines) to build its value. Each line is read by the [`abnf::line`]
//! production and its record by [`record`]; the lexer adds what concerns the file rather than
//! the line, and the limits. It is written for files of a few hundred bytes as much as for
//! 500 KiB ones: the checks that concern the whole file are made once up front and remembered
//! as positions, not repeated per line:
//!
//! - UTF-8: the file is validated once ([`scan::utf8_text`]); a line is validated on its own
//!   only when it reaches past the first invalid byte, or when the line-length limit cuts it
//!   inside a character;
//! - NUL bytes: the position of the next NUL is known ([`scan::not_nul`]), so a line without
//!   one is not scanned for it;
//! - keys are told apart by their first letter before any comparison
//!   ([`crate::classify_key`]).
//!
//! A line that may be cut short (by a NUL or the line-length limit) is read by the production
//! only up to the cut, so nothing past the cut counts. What the lexer reports is exactly what
//! reading each line on its own would report (a test keeps the two equal on generated files).

use crate::abnf::{self, LineParts};
use crate::finding::{Finding, FindingKind};
use crate::limits::{cut_at_limit, Limits};
use crate::line::Line;
use crate::record::{record, Record};
use crate::scan;
use crate::span::Span;

/// Reads a file line by line; an [`Iterator`] of [`Line`]s. Findings go to a vector the caller
/// may reuse ([`Lexer::with_findings`]); [`Lexer::finish`] hands it back with the byte order
/// mark and the ignored tail.
///
/// ```
/// use robotrules_grammar::{KeyKind, Lexer, Limits};
///
/// let mut lexer = Lexer::new(b"user-agent: *\ndisallow: /x\n", &Limits::default());
/// let kinds: Vec<_> = lexer.by_ref().filter_map(|l| l.directive.map(|d| d.kind)).collect();
/// assert_eq!(kinds, [KeyKind::UserAgent, KeyKind::Disallow]);
/// assert!(lexer.finish().findings.is_empty());
/// ```
#[derive(Debug)]
pub struct Lexer<'a> {
    input: &'a [u8],
    max_line_len: Option<usize>,
    parse_limit: usize,
    /// Where the next line starts.
    pos: usize,
    /// Where reading stops (the parse limit, on a line boundary).
    end: usize,
    number: u32,
    seen_content: bool,
    /// `input[valid_from..valid_until]` is valid UTF-8 and `valid_from` starts a line.
    valid_from: usize,
    valid_until: usize,
    /// The next NUL byte at or after `pos`, or `end`.
    next_nul: usize,
    /// Whether what was read of the last line is valid UTF-8.
    line_utf8: bool,
    bom: Option<Span>,
    findings: Vec<Finding>,
}

/// What is left when the lines are read.
#[derive(Clone, Debug, Default)]
pub struct LexEnd {
    /// Findings, in input order.
    pub findings: Vec<Finding>,
    /// The byte order mark skipped at the start, if any.
    pub bom: Option<Span>,
    /// The bytes ignored because of the parse limit, if any.
    pub ignored: Option<Span>,
}

impl<'a> Lexer<'a> {
    /// A lexer over `input`.
    pub fn new(input: &'a [u8], limits: &Limits) -> Lexer<'a> {
        Lexer::with_findings(input, limits, Vec::new())
    }

    /// A lexer that appends its findings to `findings` (cleared first), so that a caller
    /// parsing many files can keep one vector.
    pub fn with_findings(input: &'a [u8], limits: &Limits, mut findings: Vec<Finding>) -> Self {
        findings.clear();
        let start = abnf::byte_order_mark(input).map_or(0, |(_, bom)| bom.len());
        let bom = (start > 0).then(|| Span::new(0, start));
        if let Some(span) = bom {
            findings.push(Finding {
                kind: FindingKind::ByteOrderMark {
                    complete: start == 3,
                },
                span,
                line: 1,
            });
        }
        let end = cut_at_limit(input, start, limits.parse_limit);
        Lexer {
            input,
            max_line_len: limits.max_line_len,
            parse_limit: limits.parse_limit,
            pos: start,
            end,
            number: 0,
            seen_content: false,
            valid_from: start,
            valid_until: start + valid_prefix(&input[start..end]),
            next_nul: start + not_nul_len(&input[start..end]),
            line_utf8: true,
            bom,
            findings,
        }
    }

    /// Whether what was read of the line last returned (its `read` span) is valid UTF-8.
    pub fn line_is_utf8(&self) -> bool {
        self.line_utf8
    }

    /// How many bytes of the input are read: up to the parse limit, on a line boundary.
    pub fn read_len(&self) -> usize {
        self.end
    }

    /// The findings, the byte order mark and the ignored tail. Call it after the last line.
    pub fn finish(mut self) -> LexEnd {
        let ignored = (self.end < self.input.len()).then(|| Span::new(self.end, self.input.len()));
        if let Some(span) = ignored {
            self.findings.push(Finding {
                kind: FindingKind::ParseLimit {
                    limit: self.parse_limit,
                },
                span,
                line: self.number.saturating_add(1),
            });
        }
        LexEnd {
            findings: self.findings,
            bom: self.bom,
            ignored,
        }
    }

    /// Read the line at `pos` with the `line` production, up to the first NUL or the
    /// line-length limit if the line is that long (so nothing past a cut counts); report the
    /// cuts; check UTF-8; read the record.
    #[inline(always)]
    fn read_line(&mut self, pos: usize) -> Line {
        let (input, end, number) = (self.input, self.end, self.number);
        let cap = self
            .max_line_len
            .map_or(end, |max| pos.saturating_add(max).min(end))
            .min(self.next_nul);
        let readable = &input[pos..cap];
        let parts = match abnf::line(readable) {
            Ok((_, parts)) => parts,
            Err(_) => unsplit(readable),
        };
        let mut content_end = pos + parts.content.len();
        if content_end == cap && cap < end {
            // Read up to a cut: the line goes on to the next line break.
            content_end = line_end(input, cap, end);
        }
        let eol_end =
            content_end + abnf::line_break(&input[content_end..end]).map_or(0, |(_, nl)| nl.len());
        self.pos = eol_end;
        let span = Span::new(pos, content_end);
        let eol = Span::new(content_end, eol_end);
        let mut read = span;
        // Report the cuts: the bytes the production was not given.
        if let Some(max) = self.max_line_len {
            if span.len() > max {
                read.end = pos + max;
                self.findings.push(Finding {
                    kind: FindingKind::LineTooLong { limit: max },
                    span: Span::new(read.end, content_end),
                    line: number,
                });
            }
        }
        if self.next_nul < content_end {
            if self.next_nul < read.end {
                self.findings.push(Finding {
                    kind: FindingKind::NulByte,
                    span: Span::new(self.next_nul, read.end),
                    line: number,
                });
                read.end = self.next_nul;
            }
            self.next_nul = eol_end + not_nul_len(&input[eol_end..end]);
        }
        self.line_utf8 = true;
        if !(read.start >= self.valid_from && read.end <= self.valid_until)
            || input
                .get(read.end)
                .is_some_and(|&b| (0x80..0xC0).contains(&b))
        {
            self.check_utf8(read, eol_end);
        }
        let comment = parts.comment.map(|c| Span::of(input, c));
        let directive = match record(input, &parts) {
            Record::Directive(directive) => Some(directive),
            Record::Blank => None,
            Record::Unread(text) => {
                self.findings.push(Finding {
                    kind: FindingKind::NoDirective,
                    span: text,
                    line: number,
                });
                None
            }
        };
        if !self.seen_content {
            self.first_content(read);
        }
        Line {
            number,
            span,
            eol,
            read,
            directive,
            comment,
        }
    }

    /// Until the first line with content: whether it is, and report it if it starts like an
    /// HTML page.
    #[cold]
    fn first_content(&mut self, read: Span) {
        let read_bytes = read.slice(self.input);
        let text = abnf::trimmed(read_bytes).map_or(read_bytes, |(_, text)| text);
        if text.is_empty() {
            return;
        }
        self.seen_content = true;
        if text[0] == b'<' {
            self.findings.push(Finding {
                kind: FindingKind::HtmlContent,
                span: Span::of(self.input, text),
                line: self.number,
            });
        }
    }

    /// Report the first invalid UTF-8 sequence of `read`, if any. Lines inside the validated
    /// region, not cut inside a character by the line-length limit, need no check (the
    /// caller tests that); one that reaches past it is checked on its own, and the region
    /// then starts again at the next line (`next_line`).
    #[cold]
    #[inline(never)]
    fn check_utf8(&mut self, read: Span, next_line: usize) {
        let input = self.input;
        if let Err(e) = std::str::from_utf8(read.slice(input)) {
            self.line_utf8 = false;
            let bad = read.start + e.valid_up_to();
            let bad_end = e.error_len().map_or(read.end, |n| bad + n);
            self.findings.push(Finding {
                kind: FindingKind::InvalidUtf8,
                span: Span::new(bad, bad_end),
                line: self.number,
            });
        }
        if self.valid_until < next_line {
            let from = next_line.min(self.end);
            self.valid_from = from;
            self.valid_until = from + valid_prefix(&input[from..self.end]);
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Line;

    #[inline]
    fn next(&mut self) -> Option<Line> {
        if self.pos >= self.end {
            return None;
        }
        self.number = self.number.saturating_add(1);
        Some(self.read_line(self.pos))
    }
}

/// The length of the longest valid UTF-8 prefix of `bytes`.
fn valid_prefix(bytes: &[u8]) -> usize {
    scan::utf8_text(bytes).map_or(0, |(_, valid)| valid.len())
}

/// How many bytes of `bytes` come before the first NUL (all of them if there is none).
fn not_nul_len(bytes: &[u8]) -> usize {
    scan::not_nul(bytes).map_or(bytes.len(), |(_, run)| run.len())
}

/// Where the line that goes on at `from` ends: the next line break, or `end`. (A comment's
/// text is anything but a line break.)
#[cold]
#[inline(never)]
fn line_end(input: &[u8], from: usize, end: usize) -> usize {
    let rest = &input[from..end];
    from + scan::comment_text(rest).map_or(rest.len(), |(_, run)| run.len())
}

/// `bytes` as one line without record or comment: what the `line` production would leave if
/// it failed (it accepts any bytes; this keeps the lexer free of panics all the same).
fn unsplit(bytes: &[u8]) -> LineParts<'_> {
    LineParts {
        content: bytes,
        key_text: &bytes[bytes.len()..],
        value_text: None,
        comment: None,
    }
}
