//! Building a [`RobotsTxt`] from the grammar's lines: group formation (RFC 9309 §2.1,
//! §2.2.1), rules as written (§2.2.2), records (§2.2.4), under a profile.
//!
//! One pass: the [`Lexer`] hands over each line and the builder files it — a user-agent line
//! joins or opens a group, an allow or disallow line is kept as written (patterns are compiled
//! per group when a crawler first asks, [`crate::compile`]), a sitemap or other record is kept
//! as a compact record. Nothing is sorted or hashed. The vectors filled on the way are kept
//! per thread and reused, so a parse allocates only the value's own, exactly sized, arrays.

use std::cell::RefCell;

use robotrules_grammar::{Finding, KeyKind, Lexer, Limits, Line, Separator, Span, Spelling};

use crate::diagnostic::{Diagnostic, DiagnosticKind};
use crate::extension::{ExtensionKey, Record, RecordKind};
use crate::pattern::{len_u32, RuleKind};
use crate::profile::{AgentListEnd, AgentToken, KeySpellings, Profile, Reading, SlashlessPattern};
use crate::robots::{Group, RobotsTxt, RuleLine, UserAgent};
use crate::text::Text;

impl RobotsTxt {
    /// Read `input` under `profile`, ignoring bytes past `parse_limit` (RFC 9309 §2.5).
    /// Never fails, never panics.
    pub fn parse(input: &[u8], profile: Profile, parse_limit: usize) -> RobotsTxt {
        let limits = Limits {
            parse_limit,
            max_line_len: profile.reading().max_line_len,
        };
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => {
                let robots = build(input, profile, &limits, &mut scratch);
                scratch.trim();
                robots
            }
            // Only reachable if building re-entered itself; build with fresh vectors then.
            Err(_) => build(input, profile, &limits, &mut Scratch::default()),
        })
    }
}

/// The vectors a parse fills before the value takes exact copies.
#[derive(Default)]
struct Scratch {
    text: Vec<u8>,
    groups: Vec<Group>,
    agents: Vec<UserAgent>,
    rule_lines: Vec<RuleLine>,
    records: Vec<Record>,
    diagnostics: Vec<Diagnostic>,
    findings: Vec<Finding>,
}

/// A thread keeps at most about this many bytes of scratch between parses; a parse of a
/// larger file gives them back.
const SCRATCH_KEPT: usize = 256 * 1024;

impl Scratch {
    fn clear(&mut self) {
        self.text.clear();
        self.groups.clear();
        self.agents.clear();
        self.rule_lines.clear();
        self.records.clear();
        self.diagnostics.clear();
        self.findings.clear();
    }

    fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.text.capacity()
            + self.groups.capacity() * size_of::<Group>()
            + self.agents.capacity() * size_of::<UserAgent>()
            + self.rule_lines.capacity() * size_of::<RuleLine>()
            + self.records.capacity() * size_of::<Record>()
            + self.diagnostics.capacity() * size_of::<Diagnostic>()
            + self.findings.capacity() * size_of::<Finding>()
    }

    /// Give back what a large file made the vectors grow to.
    fn trim(&mut self) {
        if self.bytes() > SCRATCH_KEPT {
            *self = Scratch::default();
        }
    }
}

/// Files larger than this get room for a rule per line before the parse.
const RESERVE_FROM: usize = 64 * 1024;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

fn build(input: &[u8], profile: Profile, limits: &Limits, scratch: &mut Scratch) -> RobotsTxt {
    scratch.clear();
    let findings = std::mem::take(&mut scratch.findings);
    let mut lexer = Lexer::with_findings(input, limits, findings);
    let bytes_read = lexer.read_len();
    if bytes_read > RESERVE_FROM {
        // A large file's lines are mostly rules: room for one per line, rather than doubling
        // (and copying) the vector a dozen times. Counting lines costs little beside the parse.
        let read = input.get(..bytes_read).unwrap_or(input);
        let lines = memchr::memchr_iter(b'\n', read).count() + 1;
        scratch.rule_lines.reserve(lines);
    }
    let mut builder = Builder {
        reading: profile.reading(),
        input,
        s: scratch,
        current: None,
        closed: false,
        utf8: true,
    };
    while let Some(line) = lexer.next() {
        builder.utf8 = lexer.line_is_utf8();
        builder.line(&line);
    }
    let end = lexer.finish();
    scratch.findings = end.findings;
    finish(profile, bytes_read, scratch)
}

/// The state of group formation.
struct Builder<'s, 'i> {
    reading: &'static Reading,
    input: &'i [u8],
    s: &'s mut Scratch,
    /// The group being filled, if any.
    current: Option<u32>,
    /// Whether the current group's user-agent list is closed (a rule was seen, or a blank
    /// line where the profile says so): the next user-agent line starts a new group.
    closed: bool,
    /// Whether the line being filed is valid UTF-8 (its values need no checking).
    utf8: bool,
}

impl Builder<'_, '_> {
    fn line(&mut self, line: &Line) {
        let reading = self.reading;
        let Some(d) = line.directive else {
            if reading.agent_list_end == AgentListEnd::RuleOrBlankLine && line.is_blank(self.input)
            {
                // 1994: "records are separated by one or more blank lines": a user-agent
                // line after a blank line starts a new record. Rule lines after a blank
                // line, with no user-agent line between, still join the open record (a
                // strict reader drops them; RFC 9309 §2.3.1.5 asks to use what parses).
                self.closed = true;
            }
            return;
        };
        let mut kind = d.kind;
        if kind != KeyKind::Other
            && (d.spelling != Spelling::Exact || d.separator == Separator::Whitespace)
        {
            let (spelling, separator) = (d.spelling, d.separator);
            let diagnostic = if reading.keys == KeySpellings::Lenient {
                DiagnosticKind::KeyAcceptedLeniently {
                    read_as: kind,
                    spelling,
                    separator,
                }
            } else {
                kind = KeyKind::Other;
                DiagnosticKind::KeyNotAccepted {
                    looks_like: d.kind,
                    spelling,
                    separator,
                }
            };
            self.diagnose(diagnostic, d.key, line.number);
        }
        let value = d.value.slice(self.input);
        match kind {
            KeyKind::UserAgent => self.user_agent(line, d.value, value),
            KeyKind::Allow => self.rule(line, d.value, value, RuleKind::Allow),
            KeyKind::Disallow => self.rule(line, d.value, value, RuleKind::Disallow),
            KeyKind::Sitemap => self.record(line, RecordKind::Sitemap, Record::FILE, &[], value),
            KeyKind::Other => {
                let key = d.key.slice(self.input);
                let kind = ExtensionKey::from_key(key);
                let group = match self.current {
                    Some(group) if !kind.is_file_wide() => group,
                    _ => Record::FILE,
                };
                self.record(line, RecordKind::Extension(kind), group, key, value);
            }
        }
    }

    fn diagnose(&mut self, kind: DiagnosticKind, span: Span, line: u32) {
        self.s.diagnostics.push(Diagnostic { kind, span, line });
    }

    fn store(&mut self, bytes: &[u8]) -> Text {
        let text = &mut self.s.text;
        let start = len_u32(text.len());
        text.extend_from_slice(bytes);
        Text {
            start,
            len: len_u32(bytes.len()),
        }
    }

    /// Store `bytes`, a key or value of the current line, as valid UTF-8 (invalid sequences
    /// replaced), returning its length.
    fn store_str(&mut self, bytes: &[u8]) -> u32 {
        if self.utf8 {
            return self.store(bytes).len;
        }
        self.store(String::from_utf8_lossy(bytes).as_bytes()).len
    }

    /// `startgroupline`: a user-agent line joins the open user-agent list or starts a group.
    fn user_agent(&mut self, line: &Line, span: Span, value: &[u8]) {
        let reading = self.reading;
        let group = match self.current {
            Some(g) if !self.closed => g,
            _ => {
                let index = len_u32(self.s.groups.len());
                let agents = len_u32(self.s.agents.len());
                let rules = len_u32(self.s.rule_lines.len());
                self.s.groups.push(Group {
                    line: line.number,
                    index,
                    agents: agents..agents,
                    rules: rules..rules,
                });
                self.closed = false;
                index
            }
        };
        self.current = Some(group);
        // Google: `*` alone or followed by whitespace is the global agent.
        let global =
            value.first() == Some(&b'*') && (value.len() == 1 || value[1].is_ascii_whitespace());
        // RFC 9309 §2.2.1 / Google's ExtractUserAgent: the leading token; 1994: the name
        // without version information, matched as a substring. The token always starts the
        // value (the grammar trimmed it).
        let token = if global {
            0..0
        } else {
            reading.agent_token.leading_range(value)
        };
        if value.is_empty() {
            self.diagnose(DiagnosticKind::EmptyUserAgent, line.span, line.number);
        } else if !global
            && token.len() != value.len()
            && matches!(reading.agent_token, AgentToken::LeadingRun { .. })
        {
            self.diagnose(DiagnosticKind::UserAgentTruncated, span, line.number);
        }
        let value_text = self.store_span(span);
        let token_len = if token.start == 0 {
            len_u32(token.end)
        } else {
            // Not reached: tokens start the value. Keep the token as the whole value
            // rather than a wrong one.
            value_text.len
        };
        self.s.agents.push(UserAgent {
            line: line.number,
            global,
            group,
            value: value_text,
            token_len,
        });
        let end = len_u32(self.s.agents.len());
        if let Some(g) = self.s.groups.get_mut(group as usize) {
            g.agents.end = end;
        }
    }

    /// Store the value at `span` of the input. Most values are short: when the input has 16
    /// bytes from its start, they are copied as one block (no call to `memcpy`) and the
    /// surplus dropped.
    fn store_span(&mut self, span: Span) -> Text {
        let len = span.len();
        match self
            .input
            .get(span.start..)
            .and_then(<[u8]>::first_chunk::<16>)
        {
            Some(block) if len <= 16 => {
                let text = &mut self.s.text;
                let start = len_u32(text.len());
                text.extend_from_slice(block);
                text.truncate(text.len() - (16 - len));
                Text {
                    start,
                    len: len_u32(len),
                }
            }
            _ => self.store(span.slice(self.input)),
        }
    }

    /// `rule`: an allow or disallow line, kept as written; compiled with its group.
    fn rule(&mut self, line: &Line, span: Span, value: &[u8], kind: RuleKind) {
        let Some(group) = self.current else {
            self.diagnose(DiagnosticKind::RuleOutsideGroup, line.span, line.number);
            return;
        };
        self.closed = true;
        let reading = self.reading;
        // 1994 (as CPython reads it): an empty `Disallow:` allows everything.
        let kind = if reading.empty_disallow_allows_all && value.is_empty() {
            RuleKind::Allow
        } else {
            kind
        };
        if !value.is_empty() && !matches!(value[0], b'/' | b'*') {
            let slash_prepended = reading.slashless_pattern == SlashlessPattern::PrependSlash;
            self.diagnose(
                DiagnosticKind::PatternWithoutSlash { slash_prepended },
                span,
                line.number,
            );
        }
        let value = self.store_span(span);
        self.s.rule_lines.push(RuleLine {
            line: line.number,
            value,
            kind,
        });
        let end = len_u32(self.s.rule_lines.len());
        if let Some(g) = self.s.groups.get_mut(group as usize) {
            g.rules.end = end;
        }
    }

    /// Sitemaps and other records (RFC 9309 §2.2.4): kept with the group they stand in, or
    /// file-wide. They never close a user-agent list: their parsing "MUST NOT interfere with
    /// the parsing of explicitly defined records".
    fn record(&mut self, line: &Line, kind: RecordKind, group: u32, key: &[u8], value: &[u8]) {
        let start = len_u32(self.s.text.len());
        let key_len = self.store_str(key);
        let value_len = self.store_str(value);
        self.s.records.push(Record {
            line: line.number,
            group,
            kind,
            start,
            key_len,
            value_len,
        });
    }
}

/// The value, with exactly sized copies of what the scratch vectors hold ([`keep`]).
fn finish(profile: Profile, bytes_read: usize, s: &mut Scratch) -> RobotsTxt {
    let diagnostics: Box<[Diagnostic]> = if s.findings.is_empty() && s.diagnostics.is_empty() {
        Box::default()
    } else {
        let mut all = Vec::with_capacity(s.findings.len() + s.diagnostics.len());
        all.extend(s.findings.iter().map(Diagnostic::grammar));
        all.extend_from_slice(&s.diagnostics);
        // In input order; on equal positions the grammar's first, as they were found first.
        all.sort_by_key(|d| (d.span.start, d.line));
        all.into()
    };
    // A scratch the thread would give back ([`Scratch::trim`]) is handed over instead.
    let hand_over = s.bytes() > SCRATCH_KEPT;
    RobotsTxt {
        profile,
        bytes_read,
        text: keep(&mut s.text, hand_over),
        groups: keep(&mut s.groups, hand_over),
        agents: keep(&mut s.agents, hand_over),
        rule_lines: keep(&mut s.rule_lines, hand_over),
        records: keep(&mut s.records, hand_over),
        diagnostics,
    }
}

/// What `scratch` holds, exactly sized: copied when the scratch is kept for the next parse,
/// else (`hand_over`) taken and shrunk in place, since a copy would touch as much fresh memory
/// again.
fn keep<T: Clone>(scratch: &mut Vec<T>, hand_over: bool) -> Box<[T]> {
    if hand_over {
        std::mem::take(scratch).into_boxed_slice()
    } else {
        scratch.as_slice().into()
    }
}
