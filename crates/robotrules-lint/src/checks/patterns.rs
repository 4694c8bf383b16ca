//! Allow and disallow patterns: a path without `/`, a `$` that does not anchor, empty rules,
//! raw non-ASCII and lower-case percent-escapes, and an allow and a disallow of equal length
//! that match the same URLs (allow wins the tie).

use std::collections::BTreeMap;

use robotrules_model::{
    DiagnosticKind, Precedence, Profile, RobotsTxt, Rule, RuleKind, Severity, Span,
};

use super::observed::Observed;
use super::{profile_list, profiles_do};
use crate::code::Code;
use crate::context::Context;
use crate::finding::Lint;

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
        Lint::new(
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
    let rules: Vec<(RuleKind, u32)> = robots
        .groups()
        .iter()
        .flat_map(|g| g.rules(robots))
        .filter(|r| !r.derived)
        .map(|r| (r.kind, r.line))
        .collect();
    for (kind, line) in rules {
        let Some(d) = ctx.line(line).and_then(|l| l.directive) else {
            continue;
        };
        let value = ctx.slice(d.value);
        if value.is_empty() {
            empty_rule(ctx, kind, line);
            continue;
        }
        dollar(ctx, d.value, line);
        non_ascii(ctx, d.value, line);
        lowercase_escapes(ctx, d.value, line);
    }
    equal_length(ctx);
}

fn empty_rule(ctx: &mut Context<'_>, kind: RuleKind, line: u32) {
    let span = ctx.record_span(line);
    let lint = match kind {
        RuleKind::Disallow => Lint::new(
            Code::EmptyRule,
            Severity::Warning,
            span,
            line,
            "empty `disallow:` disallows nothing",
        )
        .label("matches no URL")
        .help(
            "an empty `disallow:` allows every URL (RFC 9309 §2.2.2; the 1994 convention's \
             \"allow all\"); to block the whole site write `disallow: /`",
        ),
        RuleKind::Allow => Lint::new(
            Code::EmptyRule,
            Severity::Warning,
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
    ctx.push(
        Lint::new(
            Code::DollarNotAtEnd,
            Severity::Warning,
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

fn non_ascii(ctx: &mut Context<'_>, value: Span, line: u32) {
    let bytes = ctx.slice(value);
    let (Some(first), Some(last)) = (
        bytes.iter().position(|&b| b >= 0x80),
        bytes.iter().rposition(|&b| b >= 0x80),
    ) else {
        return;
    };
    let span = Span::new(value.start + first, value.start + last + 1);
    let encoded = encode_non_ascii(&bytes[first..=last]);
    let whole = encode_non_ascii(bytes);
    ctx.push(
        Lint::new(
            Code::NonAsciiPattern,
            Severity::Warning,
            span,
            line,
            "pattern has raw non-ASCII characters",
        )
        .label(format!(
            "write `{}`",
            crate::source::excerpt(encoded.as_bytes(), 60)
        ))
        .help(format!(
            "RFC 9309 §2.2.2: octets outside US-ASCII are percent-encoded before comparison; \
             robotrules and Google encode them as UTF-8, crawlers that compare bytes or read the \
             file in another encoding may not. Write `{}`",
            crate::source::excerpt(whole.as_bytes(), 80)
        )),
    );
}

fn lowercase_escapes(ctx: &mut Context<'_>, value: Span, line: u32) {
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
        Lint::new(
            Code::LowercasePercentEscape,
            Severity::Warning,
            span,
            line,
            format!("percent-escape `{escape}` uses lower-case hex digits"),
        )
        .label(format!("write {}", fixes.join(", ")))
        .help(format!(
            "upper-case hex is the normal form (RFC 3986 §2.1); robotrules and Google upper-case \
             escapes in patterns, crawlers that compare bytes as written will not match URLs \
             that use upper case. Write `{}`",
            crate::source::excerpt(&fixed, 80)
        )),
    );
}

/// A pattern as the matcher sees it: bytes with `*` wildcards, and whether `$` anchors it.
struct Glob {
    bytes: Vec<u8>,
    anchored: bool,
}

impl Glob {
    fn of(robots: &RobotsTxt, rule: &Rule) -> Glob {
        Glob {
            bytes: rule.normalized(robots).into_owned().into_bytes(),
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

/// Pairs (allow line, disallow line) of equal priority that match a common path, per agent.
fn ties(robots: &RobotsTxt) -> Vec<(u32, u32, u32)> {
    let mut sets: BTreeMap<String, Vec<&Rule>> = BTreeMap::new();
    for group in robots.groups() {
        for agent in group.agents(robots) {
            let set = sets.entry(agent.token(robots).into_owned()).or_default();
            set.extend(
                group
                    .rules(robots)
                    .iter()
                    .filter(|r| !r.derived && !r.is_empty()),
            );
        }
    }
    let mut found = BTreeMap::new();
    let mut budget = MAX_PAIRS;
    for rules in sets.values() {
        let mut by_priority: BTreeMap<u32, (Vec<&Rule>, Vec<&Rule>)> = BTreeMap::new();
        for &rule in rules {
            let bucket = by_priority.entry(rule.priority()).or_default();
            match rule.kind {
                RuleKind::Allow => bucket.0.push(rule),
                RuleKind::Disallow => bucket.1.push(rule),
            }
        }
        for (priority, (allows, disallows)) in by_priority {
            for allow in &allows {
                for disallow in &disallows {
                    if found.contains_key(&(allow.line, disallow.line)) {
                        continue;
                    }
                    if budget == 0 {
                        return found.into_values().collect();
                    }
                    budget -= 1;
                    let (a, d) = (Glob::of(robots, allow), Glob::of(robots, disallow));
                    if conflict(&a, &d) {
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
        for (allow, disallow, priority) in ties(ctx.model(profile)) {
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
            Lint::new(
                Code::EqualLengthConflict,
                Severity::Warning,
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
