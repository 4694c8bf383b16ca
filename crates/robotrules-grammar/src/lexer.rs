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

use memchr::memchr;

use crate::events::Events;
use crate::finding::{Finding, FindingKind};
use crate::key::classify_key;
use crate::line::{Directive, Line, Separator};
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
    /// Whether what was read of the last line is valid UTF-8.
    line_utf8: bool,
    /// The line ends, colons and hashes ahead.
    events: Events,
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
            line_utf8: true,
            events: Events::new(input, start, end),
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

    /// Read the line at `pos`: find its end, its first `:` and its `#` in one scan; apply the
    /// length and NUL cuts; check UTF-8; split comment and record.
    #[inline(always)]
    fn read_line(&mut self, pos: usize) -> Line {
        let (input, end, number) = (self.input, self.end, self.number);
        // Reading stops at the line-length limit or the first NUL, if the line is that long.
        let len_cut = self
            .max_line_len
            .map_or(end, |max| pos.saturating_add(max).min(end));
        let cap = len_cut.min(self.next_nul);
        let (mut colon, mut hash) = (None, None);
        let eol = [b'\n', b'\r'];
        let content_end = match self.events.next(input, pos, end) {
            None => end,
            Some(k) => match input[k] {
                b'\n' | b'\r' => k,
                // Past the cut, only the line end matters.
                _ if k >= cap => self.events.find(input, k + 1, end, eol),
                b'#' => {
                    hash = Some(k);
                    self.events.find(input, k + 1, end, eol)
                }
                _ => {
                    colon = Some(k);
                    let next = self.events.find(input, k + 1, end, [b'\n', b'\r', b'#']);
                    if next < end && input[next] == b'#' {
                        if next < cap {
                            hash = Some(next);
                        }
                        self.events.find(input, next + 1, end, eol)
                    } else {
                        next
                    }
                }
            },
        };
        let eol_end = if content_end < end
            && input[content_end] == b'\r'
            && content_end + 1 < end
            && input[content_end + 1] == b'\n'
        {
            content_end + 2
        } else if content_end < end {
            content_end + 1
        } else {
            end
        };
        self.pos = eol_end;
        let span = Span::new(pos, content_end);
        let eol = Span::new(content_end, eol_end);
        let mut read = span;
        if len_cut < content_end {
            self.findings.push(Finding {
                kind: FindingKind::LineTooLong {
                    limit: self.max_line_len.unwrap_or_default(),
                },
                span: Span::new(len_cut, content_end),
                line: number,
            });
            read.end = len_cut;
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
            self.next_nul = memchr(0, &input[eol_end..end]).map_or(end, |k| eol_end + k);
        }
        self.line_utf8 = true;
        if !(read.start >= self.valid_from && read.end <= self.valid_until)
            || input
                .get(read.end)
                .is_some_and(|&b| (0x80..0xC0).contains(&b))
        {
            self.check_utf8(read, eol_end);
        }
        let hash = hash.filter(|&h: &usize| h < read.end);
        let comment = hash.map(|h| Span::new(h, read.end));
        let text = trim(input, Span::new(read.start, hash.unwrap_or(read.end)));
        let directive = match colon {
            // `record`, with the colon already found: the first in the text (it is not
            // whitespace, and it comes before any `#`).
            Some(colon) => {
                let key = trim(input, Span::new(text.start, colon));
                let (kind, spelling) = classify_key(key.slice(input));
                Some(Directive {
                    key,
                    kind,
                    spelling,
                    separator: Separator::Colon,
                    value: trim(input, Span::new(colon + 1, text.end)),
                })
            }
            None => record(input, text),
        };
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
    match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    }
}
