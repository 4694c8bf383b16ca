//! Allow and disallow patterns: a path without `/`, a `$` that does not anchor, empty rules,
//! raw non-ASCII and lower-case percent-escapes, and an allow and a disallow of equal length
//! that match the same URLs (allow wins the tie).

use std::collections::{BTreeMap, HashSet};

use robotrules_model::{
    DiagnosticKind, GroupRules, Precedence, Profile, RobotsTxt, Rule, RuleKind, Severity, Span,
};

use robotrules_grammar::KeyKind;

use super::observed::Observed;
use super::{profile_list, profiles_do};
use crate::code::Code;
use crate::context::Context;
use crate::finding::Finding;

/// Most pairs of equally long rules compared for one profile.
const MAX_PAIRS: usize = 20_000;
/// Most states explored to decide whether two patterns match a common URL.
const MAX_STATES: usize = 4_096;
/// How much longer than the longer pattern a path both match may be for a tie to be reported.
const WITNESS_SLACK: usize = 8;

/// Turn the model's pattern findings into lints.
pub(super) fn from_model(ctx: &mut Context<'_>, o: &Observed) {
    let Some(DiagnosticKind::PatternWithoutSlash { .. }) = o.any() else {
        return;
    };
    let written = ctx.excerpt(o.span);
    let prepended = o.profiles_where(|k| {
        matches!(
            k,
            DiagnosticKind::PatternWithoutSlash {
                slash_prepended: true
            }
        )
    });
    let never: Vec<Profile> = o.profiles_where(|k| {
        matches!(
            k,
            DiagnosticKind::PatternWithoutSlash {
                slash_prepended: false
            }
        )
    });
    let label = if prepended.contains(&ctx.profile()) {
        format!("read as `/{written}`")
    } else {
        "never matches".to_owned()
    };
    let readers = if prepended.is_empty() {
        String::new()
    } else {
        format!("{} it as `/{written}`; ", profiles_do(&prepended, "read"))
    };
    ctx.push(
        Finding::new(
            Code::PatternWithoutSlash,
            ctx.error_if_dropped_by(&never),
            o.span,
            o.line,
            format!("pattern `{written}` does not start with `/` or `*`"),
        )
        .label(label)
        .help(format!(
            "RFC 9309 §2.2 patterns start with `/`; {readers}{} it. Write `/{written}`",
            profiles_do(&never, "never match")
        ))
        .profiles(&Profile::ALL),
    );
}

/// Checks on each rule of the profile linted for.
pub(super) fn check(ctx: &mut Context<'_>) {
    let robots = ctx.target();
    // (kind, line, whether its group has a rule with a value)
    let mut rules: Vec<(RuleKind, u32, bool)> = Vec::new();
    let mut twins: BTreeMap<(u32, bool), HashSet<Vec<u8>>> = BTreeMap::new();
    for (index, group) in robots.groups().iter().enumerate() {
        let own: Vec<&Rule> = ctx
            .rules_of(ctx.profile(), group)
            .iter()
            .filter(|r| !r.derived)
            .collect();
        let has_value = own.iter().any(|r| !r.value(robots).is_empty());
        for rule in &own {
            rules.push((rule.kind, rule.line, has_value));
            let key = (
                u32::try_from(index).unwrap_or(u32::MAX),
                rule.kind == RuleKind::Allow,
            );
            twins
                .entry(key)
                .or_default()
                .insert(rule.value(robots).as_bytes().to_vec());
        }
    }
    let group_of: BTreeMap<u32, u32> = robots
        .groups()
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            let group = u32::try_from(i).unwrap_or(u32::MAX);
            ctx.rules_of(ctx.profile(), g)
                .iter()
                .map(|r| (r.line, group))
                .collect::<Vec<_>>()
        })
        .collect();
    rules.sort_by_key(|&(_, line, _)| line);
    rules.dedup_by_key(|r| r.1);
    for (kind, line, group_has_value) in rules {
        if ctx.expired() {
            return;
        }
        let Some(d) = ctx.line(line).and_then(|l| l.directive) else {
            continue;
        };
        let value = ctx.slice(d.value);
        if value.is_empty() {
            // The key as written: the 1994 reading turns an empty `disallow:` into an allow.
            let written = match d.kind {
                KeyKind::Allow => RuleKind::Allow,
                KeyKind::Disallow => RuleKind::Disallow,
                _ => kind,
            };
            empty_rule(ctx, written, line, group_has_value);
            continue;
        }
        dollar(ctx, d.value, line);
        non_ascii(ctx, d.value, line);
        control(ctx, d.value, line);
        let siblings = group_of
            .get(&line)
            .and_then(|&g| twins.get(&(g, kind == RuleKind::Allow)));
        lowercase_escapes(ctx, d.value, line, siblings);
    }
    equal_length(ctx);
    rule_order(ctx);
    robots_txt(ctx);
}

fn empty_rule(ctx: &mut Context<'_>, kind: RuleKind, line: u32, group_has_value: bool) {
    let span = ctx.record_span(line);
    let lint = match kind {
        // `Disallow:` alone is the 1994 convention's "allow everything": nothing to say.
        RuleKind::Disallow if !group_has_value => return,
        RuleKind::Disallow => Finding::new(
            Code::EmptyRule,
            Severity::Note,
            span,
            line,
            "empty `disallow:` disallows nothing: next to other rules it has no effect",
        )
        .label("matches no URL")
        .help(
            "an empty `disallow:` allows every URL (RFC 9309 §2.2.2; the 1994 convention's \
             \"allow all\"), which the other rules of this group already decide; remove it, or \
             write `disallow: /` if the whole site should be blocked",
        ),
        RuleKind::Allow => Finding::new(
            Code::EmptyRule,
            Severity::Note,
            span,
            line,
            "empty `allow:` allows nothing: it has no effect",
        )
        .label("matches no URL")
        .help("give it a path (`allow: /public/`) or remove it"),
    };
    ctx.push(lint);
}

fn dollar(ctx: &mut Context<'_>, value: Span, line: u32) {
    let bytes = ctx.slice(value);
    let body = &bytes[..bytes.len().saturating_sub(1)];
    let Some(at) = body.iter().position(|&b| b == b'$') else {
        return;
    };
    let span = Span::new(value.start + at, value.start + at + 1);
    // `/*.php$,`: only punctuation follows, so the `$` was meant as the end anchor. `{$id}`
    // in a path is a literal `$`, which is what it matches: a note.
    let severity = if bytes[at + 1..].iter().any(u8::is_ascii_alphanumeric) {
        Severity::Note
    } else {
        Severity::Warning
    };
    ctx.push(
        Finding::new(
            Code::DollarNotAtEnd,
            severity,
            span,
            line,
            "`$` in the middle of a pattern matches a literal `$`",
        )
        .label("not an end anchor here")
        .help(
            "`$` anchors the end of the URL only as a pattern's last character (RFC 9309 \
             §2.2.3); to match a literal `$` write `%24`, to end the pattern there remove what \
             follows",
        )
        .profiles(&Profile::those(|r| r.wildcards)),
    );
}

/// Upper-case percent-encoding of the octets at or above 0x80.
fn encode_non_ascii(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b >= 0x80 {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(char::from(b));
        }
    }
    out
}

/// The text `bytes` meant, when they are UTF-8 text encoded to UTF-8 a second time (each
/// character U+0080–U+00FF standing for one byte of a valid multi-byte UTF-8 sequence).
fn double_encoded(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut once = Vec::with_capacity(text.len());
    for c in text.chars() {
        once.push(u8::try_from(u32::from(c)).ok()?);
    }
    let meant = String::from_utf8(once).ok()?;
    (!meant.is_ascii()).then_some(meant)
}

/// A C0 control character inside a pattern (NUL has its own finding, `nul-byte`): a stray
/// terminal escape sequence (`ESC [2J`), a tab. No URL path holds one raw; crawlers compare the
/// pattern with paths where it is percent-encoded (`%1B`), so the rule matches nothing meant.
fn control(ctx: &mut Context<'_>, value: Span, line: u32) {
    let bytes = ctx.slice(value);
    let Some(at) = bytes.iter().position(|&b| b < 0x20 && b != 0) else {
        return;
    };
    let byte = bytes[at];
    let name = match byte {
        0x1b => " (ESC)".to_owned(),
        b'\t' => " (tab)".to_owned(),
        _ => String::new(),
    };
    let span = Span::new(value.start + at, value.start + at + 1);
    ctx.push(
        Finding::new(
            Code::ControlCharacter,
            Severity::Warning,
            span,
            line,
            format!("control character U+{byte:04X}{name} in a pattern"),
        )
        .label("no URL path holds this raw")
        .help(format!(
            "URL paths hold control characters only percent-encoded (`%{byte:02X}`), so this \
             rule matches no path it seems to name; it is most often a stray escape sequence \
             pasted from a terminal. Remove it, or write `%{byte:02X}` if the path really holds \
             one (RFC 9309 §2.2.2)"
        )),
    );
}

fn non_ascii(ctx: &mut Context<'_>, value: Span, line: u32) {
    let bytes = ctx.slice(value);
    let (Some(first), Some(last)) = (
        bytes.iter().position(|&b| b >= 0x80),
        bytes.iter().rposition(|&b| b >= 0x80),
    ) else {
        return;
    };
    let span = Span::new(value.start + first, value.start + last + 1);
    // UTF-8 is what RFC 9309 asks for, and every profile percent-encodes it the same way:
    // nothing to say. Text that was UTF-8, read as Latin-1 and saved as UTF-8 again (`Ã±` for
    // `ñ`) matches no URL of the site: a warning.
    let Some(meant) = double_encoded(&bytes[first..=last]) else {
        return;
    };
    let mut repaired = bytes[..first].to_vec();
    repaired.extend_from_slice(meant.as_bytes());
    repaired.extend_from_slice(&bytes[last + 1..]);
    let fix = robotrules_text::excerpt(encode_non_ascii(&repaired).as_bytes(), 80);
    ctx.push(
        Finding::new(
            Code::NonAsciiPattern,
            Severity::Warning,
            span,
            line,
            format!("pattern has mis-encoded characters: `{meant}` saved twice as UTF-8"),
        )
        .label(format!("meant `{meant}`"))
        .help(format!(
            "the text was UTF-8, read as Latin-1 and saved as UTF-8 again, so the pattern \
             matches none of the site's URLs (RFC 9309 §2.2.2 compares the UTF-8 octets, \
             percent-encoded). Write `{fix}`"
        )),
    );
}

fn lowercase_escapes(
    ctx: &mut Context<'_>,
    value: Span,
    line: u32,
    siblings: Option<&HashSet<Vec<u8>>>,
) {
    let bytes = ctx.slice(value);
    let lower: Vec<usize> = bytes
        .windows(3)
        .enumerate()
        .filter(|(_, w)| {
            w[0] == b'%'
                && w[1].is_ascii_hexdigit()
                && w[2].is_ascii_hexdigit()
                && (w[1].is_ascii_lowercase() || w[2].is_ascii_lowercase())
        })
        .map(|(i, _)| i)
        .collect();
    let (Some(&first), Some(&last)) = (lower.first(), lower.last()) else {
        return;
    };
    let mut fixed = bytes.to_vec();
    for &i in &lower {
        fixed[i + 1] = fixed[i + 1].to_ascii_uppercase();
        fixed[i + 2] = fixed[i + 2].to_ascii_uppercase();
    }
    if siblings.is_some_and(|s| s.contains(&fixed)) {
        // The upper-case spelling is in the group too: a harmless twin.
        return;
    }
    let escape = String::from_utf8_lossy(&bytes[first..first + 3]).into_owned();
    let mut fixes: Vec<String> = lower
        .iter()
        .take(4)
        .map(|&i| format!("`{}`", String::from_utf8_lossy(&fixed[i..i + 3])))
        .collect();
    if lower.len() > 4 {
        fixes.push("…".to_owned());
    }
    let span = Span::new(value.start + first, value.start + last + 3);
    ctx.push(
        Finding::new(
            Code::LowercasePercentEscape,
            Severity::Note,
            span,
            line,
            format!("percent-escape `{escape}` uses lower-case hex digits"),
        )
        .label(format!("write {}", fixes.join(", ")))
        .help(format!(
            "upper-case hex is the normal form (RFC 3986 §2.1); every profile upper-cases \
             escapes before comparing, but a crawler that compares bytes as written will not \
             match URLs that use upper case. Write `{}`",
            robotrules_text::excerpt(&fixed, 80)
        )),
    );
}

/// A pattern as the matcher sees it: bytes with `*` wildcards, and whether `$` anchors it.
struct Glob {
    bytes: Vec<u8>,
    anchored: bool,
}

impl Glob {
    fn of(rules: &GroupRules, rule: &Rule) -> Glob {
        Glob {
            bytes: rules.normalized(rule).into_owned().into_bytes(),
            anchored: rule.is_anchored(),
        }
    }

    /// The pattern with the implicit trailing `*` of an unanchored pattern made explicit.
    fn full(&self) -> Vec<u8> {
        let mut v = self.bytes.clone();
        if !self.anchored {
            v.push(b'*');
        }
        v
    }
}

/// The length of the shortest path both patterns match: `Some(None)` when there is none,
/// `None` when it is too costly to tell. A 0-1 breadth-first search over pairs of pattern
/// positions: consuming a path byte costs 1, a `*` matching nothing costs 0.
fn shortest_common(a: &Glob, b: &Glob) -> Option<Option<usize>> {
    let (a, b) = (a.full(), b.full());
    let (n, m) = (a.len(), b.len());
    if (n + 1).saturating_mul(m + 1) > MAX_STATES {
        return None;
    }
    let width = m + 1;
    let mut best = vec![usize::MAX; (n + 1) * width];
    let mut queue = std::collections::VecDeque::from([(0usize, 0usize, 0usize)]);
    best[0] = 0;
    while let Some((i, j, cost)) = queue.pop_front() {
        if cost > best[i * width + j] {
            continue;
        }
        if i == n && j == m {
            return Some(Some(cost));
        }
        let (x, y) = (a.get(i).copied(), b.get(j).copied());
        let mut next = |p: usize, q: usize, step: usize| {
            let c = cost + step;
            if c < best[p * width + q] {
                best[p * width + q] = c;
                if step == 0 {
                    queue.push_front((p, q, c));
                } else {
                    queue.push_back((p, q, c));
                }
            }
        };
        if x == Some(b'*') {
            next(i + 1, j, 0);
        }
        if y == Some(b'*') {
            next(i, j + 1, 0);
        }
        match (x, y) {
            (Some(b'*'), Some(c)) if c != b'*' => next(i, j + 1, 1),
            (Some(c), Some(b'*')) if c != b'*' => next(i + 1, j, 1),
            (Some(c), Some(d)) if c != b'*' && c == d => next(i + 1, j + 1, 1),
            _ => {}
        }
    }
    Some(None)
}

/// Whether the two patterns plausibly decide the same URLs: the same pattern, or at most one
/// with a wildcard and a common path at most [`WITNESS_SLACK`] bytes longer than the longer
/// pattern. (Two wildcard patterns almost always share some contrived path, such as
/// `/profiles/x/media/oembed.svg` for `/*/media/oembed` and `/profiles/*.svg`; reporting those
/// would bury the real conflicts.)
fn conflict(a: &Glob, b: &Glob) -> bool {
    if a.bytes == b.bytes && a.anchored == b.anchored {
        return true;
    }
    if a.bytes.contains(&b'*') && b.bytes.contains(&b'*') {
        return false;
    }
    let longer = a.bytes.len().max(b.bytes.len());
    matches!(shortest_common(a, b), Some(Some(len)) if len <= longer + WITNESS_SLACK)
}

/// A pattern as [`conflict`] compares it, borrowed.
struct Literal<'p> {
    bytes: &'p [u8],
    anchored: bool,
}

impl<'p> Literal<'p> {
    fn new(bytes: &'p [u8], anchored: bool) -> Literal<'p> {
        Literal { bytes, anchored }
    }

    /// [`conflict`]'s answer without allocating, for two unanchored patterns without `*` (the
    /// paths each matches are those that start with it, so a common path is the longer
    /// pattern when the shorter is its prefix); `None` for any other pair.
    fn conflict(a: &Literal<'_>, b: &Literal<'_>) -> Option<bool> {
        if a.bytes == b.bytes && a.anchored == b.anchored {
            return Some(true);
        }
        if a.anchored || b.anchored || a.bytes.contains(&b'*') || b.bytes.contains(&b'*') {
            return None;
        }
        // `shortest_common` gives up past MAX_STATES (each pattern with its trailing `*`).
        if (a.bytes.len() + 2).saturating_mul(b.bytes.len() + 2) > MAX_STATES {
            return Some(false);
        }
        Some(a.bytes.starts_with(b.bytes) || b.bytes.starts_with(a.bytes))
    }
}

/// Pairs (allow line, disallow line) of equal priority that match a common path, per agent.
fn ties(robots: &RobotsTxt, compiled: &[GroupRules]) -> Vec<(u32, u32, u32)> {
    // Each rule with its group's compiled rules.
    let mut sets: BTreeMap<String, Vec<(&Rule, &GroupRules)>> = BTreeMap::new();
    for (group, rules) in robots.groups().iter().zip(compiled) {
        for agent in group.agents(robots) {
            let set = sets.entry(agent.token(robots).into_owned()).or_default();
            set.extend(
                rules
                    .rules()
                    .iter()
                    .filter(|r| !r.derived && !r.is_empty())
                    .map(|r| (r, rules)),
            );
        }
    }
    let mut found = BTreeMap::new();
    let mut budget = MAX_PAIRS;
    for rules in sets.values() {
        type Of<'r> = (&'r Rule, &'r GroupRules);
        let mut by_priority: BTreeMap<u32, (Vec<Of<'_>>, Vec<Of<'_>>)> = BTreeMap::new();
        for &(rule, of) in rules {
            let bucket = by_priority.entry(rule.priority()).or_default();
            match rule.kind {
                RuleKind::Allow => bucket.0.push((rule, of)),
                RuleKind::Disallow => bucket.1.push((rule, of)),
            }
        }
        for (priority, (allows, disallows)) in by_priority {
            for &(allow, allow_of) in &allows {
                for &(disallow, disallow_of) in &disallows {
                    if found.contains_key(&(allow.line, disallow.line)) {
                        continue;
                    }
                    if budget == 0 {
                        return found.into_values().collect();
                    }
                    budget -= 1;
                    let (a, d) = (allow_of.normalized(allow), disallow_of.normalized(disallow));
                    let (a, d) = (
                        Literal::new(a.as_bytes(), allow.is_anchored()),
                        Literal::new(d.as_bytes(), disallow.is_anchored()),
                    );
                    let conflicting = match Literal::conflict(&a, &d) {
                        Some(known) => known,
                        None => {
                            conflict(&Glob::of(allow_of, allow), &Glob::of(disallow_of, disallow))
                        }
                    };
                    if conflicting {
                        found.insert(
                            (allow.line, disallow.line),
                            (allow.line, disallow.line, priority),
                        );
                    }
                }
            }
        }
    }
    found.into_values().collect()
}

fn equal_length(ctx: &mut Context<'_>) {
    let mut merged: BTreeMap<(u32, u32), (u32, Vec<Profile>)> = BTreeMap::new();
    for profile in Profile::those(|r| r.precedence == Precedence::LongestMatch) {
        for (allow, disallow, priority) in ties(ctx.model(profile), ctx.compiled(profile)) {
            let entry = merged
                .entry((disallow, allow))
                .or_insert((priority, Vec::new()));
            entry.1.push(profile);
        }
    }
    for ((disallow, allow), (priority, profiles)) in merged {
        let span = ctx.record_span(disallow);
        let allow_span = ctx.record_span(allow);
        let same = ctx.slice(
            ctx.line(disallow)
                .and_then(|l| l.directive)
                .map_or(span, |d| d.value),
        ) == ctx.slice(
            ctx.line(allow)
                .and_then(|l| l.directive)
                .map_or(allow_span, |d| d.value),
        );
        let by = if profiles.len() == 2 {
            String::new()
        } else {
            format!(" for {}", profile_list(&profiles))
        };
        ctx.push(
            Finding::new(
                Code::EqualLengthConflict,
                // The same pattern allowed and disallowed: the disallow never applies. Two
                // patterns that only share some paths are often meant that way: a note.
                if same { Severity::Warning } else { Severity::Note },
                span,
                disallow,
                format!(
                    "`{}` and `{}` (line {allow}) are equally long{by}: where both match, the allow wins",
                    ctx.excerpt(span),
                    ctx.excerpt(allow_span)
                ),
            )
            .label(if same {
                "never applies: the allow always wins".to_owned()
            } else {
                format!("loses ties at {priority} octets")
            })
            .related(allow_span, allow, "this allow wins the tie")
            .help(
                "the longest matching pattern wins and on a tie the allow rule is used (RFC 9309 \
                 §2.2.2; Google: the least restrictive rule); if these URLs should be blocked, \
                 make the disallow pattern longer than the allow, or remove the allow",
            )
            .profiles(&profiles),
        );
    }
}

/// Rules that a first-match reader never reaches: a later rule whose every URL an earlier,
/// shorter rule of the other kind matches first (an empty rule, which such readers take as
/// matching everything, included). Longest-match readers let the later, longer rule decide.
fn rule_order(ctx: &mut Context<'_>) {
    // later line -> (earlier line, profiles)
    let mut found: BTreeMap<u32, (u32, Vec<Profile>)> = BTreeMap::new();
    for profile in Profile::those(|r| r.precedence == Precedence::FirstMatch) {
        let robots = ctx.model(profile);
        for group in robots.groups() {
            if ctx.expired() {
                return;
            }
            let Some(compiled) = ctx.compiled(profile).get(group.index()) else {
                continue;
            };
            let rules: Vec<&Rule> = compiled.rules().iter().filter(|r| !r.derived).collect();
            // The earlier non-empty rules of each kind (allow, disallow), by pattern: the
            // earlier rule a later one looks for is the first whose pattern is a proper prefix
            // of its own, one walk down the other kind's trie.
            let mut earlier_of = [Prefixes::default(), Prefixes::default()];
            for (i, later) in rules.iter().enumerate() {
                let written = later.value(robots);
                let pattern = compiled.normalized(later);
                let kind = usize::from(later.kind == RuleKind::Allow);
                if !written.is_empty() && !written.contains(['*', '$']) {
                    let first = earlier_of[1 - kind]
                        .first_proper_prefix(pattern.as_bytes())
                        .and_then(|at| rules.get(at));
                    let shadow = match first {
                        Some(earlier) if earlier.line >= later.line => {
                            // Not in line order (no reading builds such a group): the scan.
                            rules[..i].iter().find(|earlier| {
                                let prefix = compiled.normalized(earlier);
                                earlier.kind != later.kind
                                    && !earlier.is_empty()
                                    && earlier.line < later.line
                                    && prefix.len() < pattern.len()
                                    && pattern.starts_with(&*prefix)
                            })
                        }
                        first => first,
                    };
                    if let Some(earlier) = shadow {
                        found
                            .entry(later.line)
                            .or_insert((earlier.line, Vec::new()))
                            .1
                            .push(profile);
                    }
                }
                if !later.is_empty() {
                    earlier_of[kind].insert(pattern.as_bytes(), i);
                }
            }
        }
    }
    report_rule_order(ctx, found);
}

/// Patterns by their bytes, each with the index of the first rule written with it: a trie.
#[derive(Default)]
struct Prefixes {
    /// (node, byte) -> child node; node 0 is the root (the empty pattern).
    edges: std::collections::HashMap<(u32, u8), u32>,
    /// Node -> index of the first rule whose pattern ends there.
    ends: std::collections::HashMap<u32, usize>,
    /// Nodes made so far, the root included.
    nodes: u32,
}

impl Prefixes {
    /// Adds `pattern` for rule `index` (kept only if it is the first rule with that pattern).
    fn insert(&mut self, pattern: &[u8], index: usize) {
        let mut node = 0;
        for &byte in pattern {
            let next = self.nodes + 1;
            node = *self.edges.entry((node, byte)).or_insert(next);
            if node == next {
                self.nodes = next;
            }
        }
        self.ends.entry(node).or_insert(index);
    }

    /// The least index among the patterns that are proper prefixes of `pattern` (shorter than
    /// it, itself excluded).
    fn first_proper_prefix(&self, pattern: &[u8]) -> Option<usize> {
        let mut node = 0;
        let mut best = self.ends.get(&0).copied();
        for &byte in pattern.iter().take(pattern.len().saturating_sub(1)) {
            let Some(&next) = self.edges.get(&(node, byte)) else {
                break;
            };
            node = next;
            if let Some(&at) = self.ends.get(&node) {
                best = Some(best.map_or(at, |b| b.min(at)));
            }
        }
        best
    }
}

/// The rule-order findings: later line -> (earlier line, profiles).
fn report_rule_order(ctx: &mut Context<'_>, found: BTreeMap<u32, (u32, Vec<Profile>)>) {
    for (line, (earlier, profiles)) in found {
        let span = ctx.record_span(line);
        let earlier_span = ctx.record_span(earlier);
        let rule = ctx.excerpt(span);
        let first = ctx.excerpt(earlier_span);
        let empty = ctx
            .line(earlier)
            .and_then(|l| l.directive)
            .is_some_and(|d| d.value.is_empty());
        let readers = profiles_do(&profiles, "use");
        let (help, label) = if empty {
            (
                format!(
                    "{readers} the first rule that matches, in file order, and read an empty \
                     rule as \"everything\" (the 1994 convention's allow-all), so this rule never \
                     decides for them; longest-match readers (RFC 9309, Google) ignore the empty \
                     rule. Remove the empty `{first}` on line {earlier}"
                ),
                "first-match readers never get here".to_owned(),
            )
        } else {
            (
                format!(
                    "{readers} the first rule that matches, in file order (the 1994 convention, \
                     Python's `urllib.robotparser`); longest-match readers (RFC 9309, Google) \
                     use the longest. Move this line above line {earlier} so both agree"
                ),
                "first-match readers never get here".to_owned(),
            )
        };
        ctx.push(
            Finding::new(
                Code::RuleOrder,
                Severity::Note,
                span,
                line,
                format!(
                    "`{rule}` is never used by first-match readers: `{first}` (line {earlier}) \
                     matches every URL it does, first"
                ),
            )
            .label(label)
            .related(earlier_span, earlier, "matches first")
            .help(help)
            .profiles(&profiles),
        );
    }
}

/// Disallow rules that match `/robots.txt` itself (a pattern without wildcards from
/// `/robots` up to `/robots.txt`).
fn robots_txt(ctx: &mut Context<'_>) {
    const PATH: &str = "/robots.txt";
    let mut found: BTreeMap<u32, Vec<Profile>> = BTreeMap::new();
    for profile in Profile::ALL {
        let robots = ctx.model(profile);
        for rule in robots
            .groups()
            .iter()
            .flat_map(|g| ctx.rules_of(profile, g))
        {
            let value = rule.value(robots);
            let literal = value.strip_suffix('$').unwrap_or(&value);
            let matches = literal.len() >= "/robots".len()
                && PATH.starts_with(literal)
                && (literal == PATH || !value.ends_with('$'));
            if rule.kind == RuleKind::Disallow && !rule.derived && matches {
                found.entry(rule.line).or_default().push(profile);
            }
        }
    }
    let implicit = Profile::those(|r| r.implicit_robots_txt);
    for (line, profiles) in found {
        let span = ctx.record_span(line);
        let rule = ctx.excerpt(span);
        ctx.push(
            Finding::new(
                Code::RobotsTxtDisallowed,
                Severity::Note,
                span,
                line,
                format!("`{rule}` disallows the robots.txt file itself"),
            )
            .label("matches /robots.txt")
            .help(format!(
                "crawlers fetch /robots.txt to read the rules whatever it says ({} always allow \
                 it: RFC 9309 §2.2.2); the rule only keeps the file out of search results, \
                 where it does no harm. Remove it",
                profile_list(&implicit)
            ))
            .profiles(&profiles),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn glob(s: &str) -> Glob {
        let anchored = s.ends_with('$');
        Glob {
            bytes: s.trim_end_matches('$').as_bytes().to_vec(),
            anchored,
        }
    }

    #[rstest]
    #[case("/folder", "/folder", Some(7))]
    #[case("/a", "/b", None)]
    #[case("/*.htm", "/page", Some(9))]
    #[case("/*.php$", "/page.html", Some(14))]
    #[case("/*.php$", "/page.html$", None)]
    #[case("/a*b$", "/ac*x$", None)]
    #[case("/a*b$", "/ac*", Some(4))]
    #[case("/$", "/", Some(1))]
    #[case("/$", "/a", None)]
    #[case("/x$", "/x$", Some(2))]
    fn shortest_common_paths(#[case] a: &str, #[case] b: &str, #[case] len: Option<usize>) {
        assert_eq!(shortest_common(&glob(a), &glob(b)), Some(len));
        assert_eq!(shortest_common(&glob(b), &glob(a)), Some(len));
    }

    #[rstest]
    #[case("/folder", "/folder", true)]
    #[case("/page", "/*.ph", true)]
    #[case("/reviews/", "/*?*date=", true)]
    #[case("/*/media/oembed", "/profiles/*.svg", false)]
    #[case("/clickthrough.jsp", "/*/landing/*.html", false)]
    #[case("/a", "/b", false)]
    fn conflicts(#[case] a: &str, #[case] b: &str, #[case] reported: bool) {
        assert_eq!(conflict(&glob(a), &glob(b)), reported);
    }

    #[test]
    fn overlap_gives_up_on_huge_patterns() {
        let long = format!("/{}", "a*".repeat(100));
        assert_eq!(shortest_common(&glob(&long), &glob(&long)), None);
    }
}
