//! Building a [`RobotsTxt`] from the grammar's lines: group formation (RFC 9309 §2.1,
//! §2.2.1), rule compilation (§2.2.2, §2.2.3), records (§2.2.4), under a profile.

use robotrules_grammar::{parse_with, KeyKind, Limits, Line, Parsed, Separator, Spelling};

use crate::agent::cmp_ignore_case;
use crate::diagnostic::{Diagnostic, DiagnosticKind};
use crate::extension::{Extension, ExtensionKey};
use crate::pattern::{compile, len_u32, RuleKind};
use crate::profile::{
    AgentListEnd, AgentToken, KeySpellings, Precedence, Profile, SlashlessPattern,
};
use crate::robots::{Group, RobotsTxt, Rule, Text, UserAgent};

impl RobotsTxt {
    /// Read `input` under `profile`, ignoring bytes past `parse_limit` (RFC 9309 §2.5).
    /// Never fails, never panics.
    pub fn parse(input: &[u8], profile: Profile, parse_limit: usize) -> RobotsTxt {
        let options = Limits {
            parse_limit,
            max_line_len: profile.reading().max_line_len,
        };
        let parsed = parse_with(input, &options);
        Builder::new(profile, &parsed).build(&parsed)
    }
}

/// Groups with more rules than this are deduplicated and, with more distinct rules than this,
/// indexed by first byte.
const INDEX_FROM: usize = 16;

/// Keep the first of identical rules (same kind, pattern, anchor and priority) in place and
/// move the others, in order, after all distinct rules; return how many are distinct. A later
/// identical rule can never decide: the earlier one matches first.
fn move_duplicates_last(rules: &mut [Rule], arena: &[u8]) -> usize {
    let mut seen = std::collections::HashSet::with_capacity(rules.len());
    let is_first: Vec<bool> = rules
        .iter()
        .map(|r| {
            let p = &r.pattern;
            let flags = (p.anchored, p.matches_nothing, p.matches_everything);
            seen.insert((r.kind == RuleKind::Allow, flags, p.priority, p.bytes(arena)))
        })
        .collect();
    let distinct = is_first.iter().filter(|&&f| f).count();
    if distinct < rules.len() {
        let firsts = rules.iter().zip(&is_first).filter(|(_, f)| **f);
        let dups = rules.iter().zip(&is_first).filter(|(_, f)| !**f);
        let reordered: Vec<Rule> = firsts.chain(dups).map(|(r, _)| *r).collect();
        rules.copy_from_slice(&reordered);
    }
    distinct
}

/// The state of group formation.
struct Builder {
    robots: RobotsTxt,
    arena: Vec<u8>,
    /// The group being filled, if any.
    current: Option<usize>,
    /// Whether the current group's user-agent list is closed (a rule was seen, or a blank
    /// line where the profile says so): the next user-agent line starts a new group.
    closed: bool,
}

impl Builder {
    fn new(profile: Profile, parsed: &Parsed<'_>) -> Builder {
        let read = parsed.ignored.map_or(parsed.source.len(), |s| s.start);
        Builder {
            robots: RobotsTxt {
                profile,
                arena: Box::default(),
                groups: Vec::new(),
                rules: Vec::with_capacity(parsed.lines.len()),
                agents: Vec::new(),
                agent_index: Vec::new(),
                rule_index: Vec::new(),
                global_groups: Vec::new(),
                group_extensions: Vec::new(),
                file_extensions: Vec::new(),
                sitemaps: Vec::new(),
                diagnostics: parsed.diagnostics.iter().map(Diagnostic::grammar).collect(),
                bytes_read: read,
            },
            arena: Vec::with_capacity(read),
            current: None,
            closed: false,
        }
    }

    fn build(mut self, parsed: &Parsed<'_>) -> RobotsTxt {
        let reading = self.robots.profile.reading();
        let blank_lines_end = reading.agent_list_end == AgentListEnd::RuleOrBlankLine;
        for line in &parsed.lines {
            if blank_lines_end && line.is_blank(parsed.source) {
                // 1994: "records are separated by one or more blank lines": a user-agent
                // line after a blank line starts a new record. Rule lines after a blank
                // line, with no user-agent line between, still join the open record (a
                // strict reader drops them; RFC 9309 §2.3.1.5 asks to use what parses).
                self.closed = true;
                continue;
            }
            let Some(d) = line.directive else { continue };
            let lenient = d.spelling != Spelling::Exact || d.separator == Separator::Whitespace;
            let mut kind = d.kind;
            if lenient && kind != KeyKind::Other {
                let spelling = d.spelling;
                let separator = d.separator;
                let diag = if reading.keys == KeySpellings::Lenient {
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
                self.diagnose(diag, d.key, line);
            }
            let value = parsed.slice(d.value);
            match kind {
                KeyKind::UserAgent => self.user_agent(line, d.value, value),
                KeyKind::Allow => self.rule(line, d.value, value, RuleKind::Allow),
                KeyKind::Disallow => self.rule(line, d.value, value, RuleKind::Disallow),
                KeyKind::Sitemap => {
                    let url = String::from_utf8_lossy(value).into_owned();
                    self.robots.sitemaps.push((line.number, url));
                }
                KeyKind::Other => self.extension(line, parsed.slice(d.key), value),
            }
        }
        self.finish()
    }

    fn diagnose(&mut self, kind: DiagnosticKind, span: robotrules_grammar::Span, line: &Line) {
        self.robots.diagnostics.push(Diagnostic {
            kind,
            span,
            line: line.number,
        });
    }

    fn store(&mut self, bytes: &[u8]) -> Text {
        let start = len_u32(self.arena.len());
        self.arena.extend_from_slice(bytes);
        Text {
            start,
            len: len_u32(bytes.len()),
        }
    }

    /// `startgroupline`: a user-agent line joins the open user-agent list or starts a group.
    fn user_agent(&mut self, line: &Line, span: robotrules_grammar::Span, value: &[u8]) {
        let reading = self.robots.profile.reading();
        let group = match self.current {
            Some(g) if !self.closed => g,
            _ => {
                let n = len_u32(self.robots.agents.len());
                let r = len_u32(self.robots.rules.len());
                let e = len_u32(self.robots.group_extensions.len());
                self.robots.groups.push(Group {
                    line: line.number,
                    agents: n..n,
                    rules: r..r,
                    distinct_end: r,
                    index: 0..0,
                    extensions: e..e,
                });
                self.closed = false;
                self.robots.groups.len() - 1
            }
        };
        self.current = Some(group);
        // Google: `*` alone or followed by whitespace is the global agent.
        let global =
            value.first() == Some(&b'*') && (value.len() == 1 || value[1].is_ascii_whitespace());
        // RFC 9309 §2.2.1 / Google's ExtractUserAgent: the leading token; 1994: the name
        // without version information, matched as a substring.
        let token = if global {
            0..0
        } else {
            reading.agent_token.leading_range(value)
        };
        if value.is_empty() {
            self.diagnose(DiagnosticKind::EmptyUserAgent, line.span, line);
        } else if !global
            && token.len() != value.len()
            && matches!(reading.agent_token, AgentToken::LeadingRun { .. })
        {
            self.diagnose(DiagnosticKind::UserAgentTruncated, span, line);
        }
        let value_text = self.store(value);
        // The token is a part of the value: no bytes of its own.
        let token = Text {
            start: value_text.start + len_u32(token.start),
            len: len_u32(token.len()),
        };
        self.robots.agents.push(UserAgent {
            line: line.number,
            global,
            group: len_u32(group),
            value: value_text,
            token,
        });
        if let Some(g) = self.robots.groups.get_mut(group) {
            g.agents.end = len_u32(self.robots.agents.len());
        }
    }

    /// `rule`: an allow or disallow line, compiled under the profile.
    fn rule(&mut self, line: &Line, span: robotrules_grammar::Span, value: &[u8], kind: RuleKind) {
        let Some(group) = self.current else {
            self.diagnose(DiagnosticKind::RuleOutsideGroup, line.span, line);
            return;
        };
        self.closed = true;
        let reading = self.robots.profile.reading();
        // 1994 (as CPython reads it): an empty `Disallow:` allows everything.
        let kind = if reading.empty_disallow_allows_all && value.is_empty() {
            RuleKind::Allow
        } else {
            kind
        };
        let compiled = compile(value, kind, reading);
        if !value.is_empty() && !matches!(value[0], b'/' | b'*') {
            let slash_prepended = reading.slashless_pattern == SlashlessPattern::PrependSlash;
            self.diagnose(
                DiagnosticKind::PatternWithoutSlash { slash_prepended },
                span,
                line,
            );
        }
        let text = self.store(value);
        let mut pattern = compiled.pattern;
        let stored = self.store(&compiled.bytes);
        pattern.start = stored.start;
        pattern.len = stored.len;
        self.robots.rules.push(Rule {
            kind,
            line: line.number,
            derived: false,
            value: text,
            pattern,
        });
        if let Some((rewritten, priority)) = compiled.index_html {
            let derived = compile(&rewritten, RuleKind::Allow, reading);
            let mut pattern = derived.pattern;
            let stored = self.store(&derived.bytes);
            pattern.start = stored.start;
            pattern.len = stored.len;
            pattern.priority = priority;
            self.robots.rules.push(Rule {
                kind: RuleKind::Allow,
                line: line.number,
                derived: true,
                value: text,
                pattern,
            });
        }
        if let Some(g) = self.robots.groups.get_mut(group) {
            g.rules.end = len_u32(self.robots.rules.len());
        }
    }

    /// Other records (RFC 9309 §2.2.4): kept with the group they stand in, or file-wide. They
    /// never close a user-agent list: their parsing "MUST NOT interfere with the parsing of
    /// explicitly defined records".
    fn extension(&mut self, line: &Line, key: &[u8], value: &[u8]) {
        let kind = ExtensionKey::from_key(key);
        let record = Extension {
            kind,
            key: String::from_utf8_lossy(key).into_owned(),
            value: String::from_utf8_lossy(value).into_owned(),
            line: line.number,
        };
        match self.current {
            Some(group) if !kind.is_file_wide() => {
                self.robots.group_extensions.push(record);
                if let Some(g) = self.robots.groups.get_mut(group) {
                    g.extensions.end = len_u32(self.robots.group_extensions.len());
                }
            }
            _ => self.robots.file_extensions.push(record),
        }
    }

    fn finish(mut self) -> RobotsTxt {
        let longest = self.robots.profile.reading().precedence == Precedence::LongestMatch;
        let arena = &self.arena;
        // Precedence order inside each group: highest priority first, allow before disallow
        // on a tie (RFC 9309 §2.2.2), then file order. 1994: file order only.
        for group in &mut self.robots.groups {
            let range = group.rules.start as usize..group.rules.end as usize;
            let rules = &mut self.robots.rules[range.clone()];
            if longest {
                rules.sort_by_key(|r| {
                    (
                        std::cmp::Reverse(r.pattern.priority),
                        r.kind == RuleKind::Disallow,
                        r.line,
                    )
                });
            }
            // Small groups are scanned whole: hashing them would cost more than it saves.
            let distinct = if rules.len() > INDEX_FROM {
                move_duplicates_last(rules, arena)
            } else {
                rules.len()
            };
            group.distinct_end = group.rules.start + len_u32(distinct);
            if distinct > INDEX_FROM {
                let start = len_u32(self.robots.rule_index.len());
                let mut entries: Vec<(u8, u32)> = rules[..distinct]
                    .iter()
                    .enumerate()
                    .map(|(offset, r)| (r.pattern.key, len_u32(offset)))
                    .collect();
                entries.sort_unstable();
                self.robots.rule_index.extend(entries);
                group.index = start..len_u32(self.robots.rule_index.len());
            }
        }
        let mut index: Vec<u32> = (0..len_u32(self.robots.agents.len()))
            .filter(|&i| !self.robots.agents[i as usize].global)
            .collect();
        index.sort_by(|&a, &b| {
            let ta = self.robots.agents[a as usize].token.get(arena);
            let tb = self.robots.agents[b as usize].token.get(arena);
            cmp_ignore_case(ta, tb).then(a.cmp(&b))
        });
        self.robots.agent_index = index;
        self.robots.global_groups = (0..len_u32(self.robots.groups.len()))
            .filter(|&g| {
                let group = &self.robots.groups[g as usize];
                self.robots.agents[group.agents.start as usize..group.agents.end as usize]
                    .iter()
                    .any(|a| a.global)
            })
            .collect();
        self.robots
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.line));
        self.robots.rules.shrink_to_fit();
        self.robots.groups.shrink_to_fit();
        self.robots.agents.shrink_to_fit();
        self.robots.arena = self.arena.into_boxed_slice();
        self.robots
    }
}
