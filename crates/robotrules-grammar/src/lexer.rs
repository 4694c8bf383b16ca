//! The one pass over a file's bytes: lines with their records, one at a time.
//!
//! [`Lexer`] is what [`crate::parse_with`] collects, and what the model reads directly (without
//! collecting the lines) to build its value. It is written for files of a few hundred bytes as
//! much as for 500 KiB ones: the checks that concern the whole file are made once up front and
//! remembered as positions, not repeated per line:
//!
//! - UTF-8: the file is validated once; a line is validated on its own only when it reaches
//!   past the first invalid byte, or when the line-length limit cuts it inside a character;
//! - NUL bytes: the position of the next NUL is known, so a line without one is not scanned
//!   for it;
//! - keys are told apart by their first letter before any comparison
//!   ([`crate::classify_key`]).
//!
//! What it reports is exactly what reading each line on its own would report (a test keeps
//! the two equal on generated and real files).

use memchr::{memchr, memchr2};

use crate::finding::{Finding, FindingKind};
use crate::line::Line;
use crate::parse::{cut_at_limit, record, skip_bom, trim, Limits};
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
        let start = skip_bom(input);
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
            next_nul: memchr(0, &input[start..end]).map_or(end, |k| start + k),
            bom,
            findings,
        }
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

    /// Read one line: the length and NUL cuts, the UTF-8 check, comment, record.
    fn read_line(&mut self, span: Span, eol: Span) -> Line {
        let input = self.input;
        let number = self.number;
        let mut read = span;
        if let Some(max) = self.max_line_len {
            if read.len() > max {
                let cut = read.start + max;
                self.findings.push(Finding {
                    kind: FindingKind::LineTooLong { limit: max },
                    span: Span::new(cut, read.end),
                    line: number,
                });
                read.end = cut;
            }
        }
        if self.next_nul < span.end {
            if self.next_nul < read.end {
                self.findings.push(Finding {
                    kind: FindingKind::NulByte,
                    span: Span::new(self.next_nul, read.end),
                    line: number,
                });
                read.end = self.next_nul;
            }
            let after = eol.end;
            self.next_nul = memchr(0, &input[after..self.end]).map_or(self.end, |k| after + k);
        }
        self.check_utf8(read, eol.end);
        let (body, comment) = match memchr(b'#', read.slice(input)) {
            Some(k) => (
                Span::new(read.start, read.start + k),
                Some(Span::new(read.start + k, read.end)),
            ),
            None => (read, None),
        };
        let text = trim(input, body);
        let directive = record(input, text);
        if directive.is_none() && !text.is_empty() {
            self.findings.push(Finding {
                kind: FindingKind::NoDirective,
                span: text,
                line: number,
            });
        }
        if !self.seen_content {
            let text = trim(input, read);
            if !text.is_empty() {
                self.seen_content = true;
                if input[text.start] == b'<' {
                    self.findings.push(Finding {
                        kind: FindingKind::HtmlContent,
                        span: text,
                        line: number,
                    });
                }
            }
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

    /// Report the first invalid UTF-8 sequence of `read`, if any. Lines inside the validated
    /// region need no work; one that reaches past it is checked on its own, and the region
    /// then starts again at the next line (`next_line`).
    fn check_utf8(&mut self, read: Span, next_line: usize) {
        let input = self.input;
        let inside = read.start >= self.valid_from && read.end <= self.valid_until;
        // A cut inside a character (the line-length limit) leaves a partial sequence.
        let cut_inside_char = input
            .get(read.end)
            .is_some_and(|&b| (0x80..0xC0).contains(&b));
        if inside && !cut_inside_char {
            return;
        }
        if let Err(e) = std::str::from_utf8(read.slice(input)) {
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

    fn next(&mut self) -> Option<Line> {
        let (pos, end) = (self.pos, self.end);
        if pos >= end {
            return None;
        }
        self.number = self.number.saturating_add(1);
        let (content_end, eol_end) = match memchr2(b'\r', b'\n', &self.input[pos..end]) {
            Some(k) => {
                let at = pos + k;
                let crlf = self.input[at] == b'\r' && at + 1 < end && self.input[at + 1] == b'\n';
                (at, if crlf { at + 2 } else { at + 1 })
            }
            None => (end, end),
        };
        self.pos = eol_end;
        Some(self.read_line(Span::new(pos, content_end), Span::new(content_end, eol_end)))
    }
}

/// The length of the longest valid UTF-8 prefix of `bytes`.
fn valid_prefix(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    }
}
