//! AI usage preferences (`Content-Usage`, draft-ietf-aipref-attach-05; `Content-Signal`,
//! Cloudflare's content signals): a Dictionary that does not parse, values and labels of the
//! other vocabulary or of an older draft, lines outside any group, paths no crawlable URL
//! reaches, and preferences that allow a use to a crawler that may not crawl at all (or allow
//! search while the search engines' crawlers are blocked).
//!
//! Every line is read as the model reads it (`usage_value`, `dictionary`); what a statement
//! means comes from the model (`Vocabulary::outcome`, `Crawler::usage_statements`).

use std::collections::HashMap;
use std::sync::Arc;

use robotrules_grammar::{dictionary, usage_value, Member, MemberValue};
use robotrules_model::agents::{default_agents, Purpose};
use robotrules_model::{
    Contradiction, Crawler, ExtensionKey, Profile, RuleKind, Severity, Span, Vocabulary,
    ANY_CRAWLER,
};

use crate::code::Code;
use crate::context::Context;
use crate::finding::Finding;

/// Labels of earlier drafts, of the other vocabulary and common guesses, with the label the
/// vocabulary defines for them now (`None`: no current label covers it).
const FORMER_LABELS: [(Vocabulary, &str, Option<&str>); 14] = [
    (Vocabulary::Aipref, "train-genai", Some("train-ai")),
    (Vocabulary::Aipref, "ai", Some("train-ai")),
    (Vocabulary::Aipref, "genai", Some("train-ai")),
    (Vocabulary::Aipref, "ai-train", Some("train-ai")),
    (Vocabulary::Aipref, "ai-training", Some("train-ai")),
    (Vocabulary::Aipref, "training", Some("train-ai")),
    (Vocabulary::Aipref, "ai-input", None),
    (Vocabulary::Aipref, "bots", None),
    (Vocabulary::Aipref, "ai-use", None),
    (Vocabulary::ContentSignals, "train-ai", Some("ai-train")),
    (Vocabulary::ContentSignals, "ai-training", Some("ai-train")),
    (Vocabulary::ContentSignals, "train-genai", Some("ai-train")),
    (Vocabulary::ContentSignals, "ai-inference", Some("ai-input")),
    (Vocabulary::ContentSignals, "input", Some("ai-input")),
];

/// A usage line of the file: its line, vocabulary and the spans of its parts.
struct UsageLine {
    line: u32,
    vocabulary: Vocabulary,
    record: Span,
    preference: Span,
}

/// At most this many groups are asked about a file-wide `Content-Signal` (each is a crawler
/// compiled): bounded work on a file of many groups.
const GROUPS_ASKED: usize = 1000;

/// Every check of the family. A file without usage lines costs one pass over its lines.
pub(super) fn check(ctx: &mut Context<'_>) {
    let lines = usage_lines(ctx);
    if lines.is_empty() {
        return;
    }
    for usage in &lines {
        if ctx.expired() {
            return;
        }
        statement(ctx, usage);
    }
    outside_group(ctx, &lines);
    // The groups that hold a usage line; every group (up to a bound) when a line outside any
    // group speaks to all of them.
    let members = &ctx.lines_by_group(ctx.profile()).members;
    let mut groups: Vec<usize> = lines
        .iter()
        .filter_map(|u| members.get(&u.line).copied())
        .collect();
    let file_wide = lines.iter().any(|u| !members.contains_key(&u.line));
    if file_wide {
        groups.extend(0..ctx.target().groups().len().min(GROUPS_ASKED));
    }
    groups.sort_unstable();
    groups.dedup();
    unreachable_paths(ctx, &groups);
    contradictions(ctx, &groups);
    search_blocked(ctx);
}

/// The `Content-Usage` and `Content-Signal` lines, in file order.
fn usage_lines(ctx: &Context<'_>) -> Vec<UsageLine> {
    ctx.parsed
        .lines
        .iter()
        .filter_map(|line| {
            let d = line.directive?;
            let vocabulary = Vocabulary::of_key(ExtensionKey::from_key(ctx.slice(d.key)))?;
            Some(UsageLine {
                line: line.number,
                vocabulary,
                record: Span::new(d.key.start, d.value.end.max(d.key.end)),
                preference: usage_value(ctx.source, d.value).preference,
            })
        })
        .collect()
}

/// The statement of one line: does it parse, and are its labels and values its vocabulary's?
fn statement(ctx: &mut Context<'_>, usage: &UsageLine) {
    let bytes = ctx.slice(usage.preference);
    let members = match dictionary(bytes) {
        Ok(members) => members,
        Err(error) => {
            // Point at the byte the parser stopped at (the last byte when it ran out).
            let at = usage.preference.start + error.offset.min(bytes.len().saturating_sub(1));
            let span = Span::new(at, (at + 1).min(usage.preference.end.max(at)));
            let key = usage.vocabulary.key();
            ctx.push(
                Finding::new(
                    Code::PreferenceNotADictionary,
                    Severity::Error,
                    span,
                    usage.line,
                    format!(
                        "this `{key}` value is not a Structured Fields Dictionary: every \
                         preference on the line is unknown"
                    ),
                )
                .label(error.message.clone())
                .help(format!(
                    "write labels in lower case, `label=value` pairs separated by commas, with \
                     nothing after the last one: `{}` (RFC 9651 §3.2; {} §6.5.1)",
                    example(usage.vocabulary),
                    Vocabulary::Aipref.draft()
                ))
                .related(
                    usage.record,
                    usage.line,
                    "read as unknown for every category",
                ),
            );
            return;
        }
    };
    for member in &members {
        value(ctx, usage, member);
        label(ctx, usage, member);
    }
}

/// A value of the other vocabulary: `yes`/`no` in `Content-Usage`, `y`/`n` in
/// `Content-Signal`.
fn value(ctx: &mut Context<'_>, usage: &UsageLine, member: &Member) {
    let MemberValue::Token(token) = &member.value else {
        return;
    };
    let vocabulary = usage.vocabulary;
    if !vocabulary.labels().contains(&member.label.as_str()) {
        return;
    }
    let other = match vocabulary {
        Vocabulary::Aipref => Vocabulary::ContentSignals,
        _ => Vocabulary::Aipref,
    };
    let (allow, disallow) = vocabulary.values();
    let (other_allow, other_disallow) = other.values();
    let meant = if token == other_allow {
        allow
    } else if token == other_disallow {
        disallow
    } else {
        return;
    };
    let Some(span) = member_value_span(ctx.slice(usage.preference), &member.label).map(|s| {
        Span::new(
            usage.preference.start + s.start,
            usage.preference.start + s.end,
        )
    }) else {
        return;
    };
    let (key, label) = (vocabulary.key(), &member.label);
    ctx.push(
        Finding::new(
            Code::PreferenceValue,
            Severity::Warning,
            span,
            usage.line,
            format!("`{token}` states no preference in `{key}`: `{label}` is unknown"),
        )
        .label(format!("`{key}` reads `{allow}` and `{disallow}`"))
        .help(format!(
            "write `{label}={meant}` ({} defines the values `{allow}` and `{disallow}`; \
             `{other_allow}`/`{other_disallow}` are `{}`'s)",
            vocabulary.draft(),
            other.key()
        ))
        .profiles(&Profile::ALL),
    );
}

/// A label the vocabulary does not define, with the current one when there is one.
fn label(ctx: &mut Context<'_>, usage: &UsageLine, member: &Member) {
    let vocabulary = usage.vocabulary;
    let label = member.label.as_str();
    if vocabulary.labels().contains(&label) {
        return;
    }
    let former = FORMER_LABELS
        .iter()
        .find(|(v, old, _)| *v == vocabulary && *old == label)
        .map(|(_, _, now)| *now);
    let near = super::spelling::closest(label.as_bytes(), vocabulary.labels().iter().copied());
    let Some(span) = member_label_span(ctx.slice(usage.preference), label).map(|s| {
        Span::new(
            usage.preference.start + s.start,
            usage.preference.start + s.end,
        )
    }) else {
        return;
    };
    let key = vocabulary.key();
    let defined = vocabulary
        .labels()
        .iter()
        .map(|l| format!("`{l}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let (severity, help) = match (former, near) {
        (Some(Some(now)), _) | (None, Some(now)) => (
            Severity::Warning,
            format!("write `{now}`: {} defines {defined}", vocabulary.draft()),
        ),
        (Some(None), _) => (
            Severity::Warning,
            format!(
                "no label of {} covers it ({defined}); remove it, or say what you mean with \
                 those",
                vocabulary.draft()
            ),
        ),
        (None, None) => (
            Severity::Note,
            format!(
                "readers ignore labels they do not know ({} §6.4); {} defines {defined}",
                Vocabulary::Aipref.draft(),
                vocabulary.draft()
            ),
        ),
    };
    ctx.push(
        Finding::new(
            Code::UndefinedUsageLabel,
            severity,
            span,
            usage.line,
            format!("`{label}` is not a label of `{key}`: no reader acts on it"),
        )
        .label("ignored")
        .help(help)
        .profiles(&Profile::ALL),
    );
}

/// A usage line before the first group: `Content-Usage` is a group rule and is not read
/// there; `Content-Signal` is read for every crawler by some readers and by none by others.
fn outside_group(ctx: &mut Context<'_>, lines: &[UsageLine]) {
    let profile = ctx.profile();
    let members = &ctx.lines_by_group(profile).members;
    let outside: Vec<&UsageLine> = lines
        .iter()
        .filter(|u| !members.contains_key(&u.line))
        .collect();
    let mut found = Vec::new();
    for usage in outside {
        let finding = match usage.vocabulary {
            Vocabulary::Aipref => Finding::new(
                Code::UsageOutsideGroup,
                Severity::Warning,
                usage.record,
                usage.line,
                "`content-usage` before any `user-agent` line is read by no crawler",
            )
            .label("ignored: a group rule (draft-ietf-aipref-attach-05 §3)")
            .help(
                "put the line in the `User-agent: *` group, and in each named group whose \
                 crawlers it is for",
            ),
            _ => Finding::new(
                Code::UsageOutsideGroup,
                Severity::Note,
                usage.record,
                usage.line,
                "`content-signal` before any `user-agent` line: readers disagree on whom it \
                 speaks to",
            )
            .label("robotrules and crawler-commons read it for every crawler")
            .help(
                "Cloudflare writes it inside the `User-agent: *` group, and readers that attach \
                 it to groups ignore it here; put it in the `User-agent: *` group, and in each \
                 named group whose crawlers it is for",
            ),
        };
        found.push(finding.profiles(&Profile::ALL));
    }
    for finding in found {
        ctx.push(finding);
    }
}

/// The crawler a group speaks to: its first user-agent's token, or a crawler no group names
/// for a `*` group.
fn crawler_of(robots: &Arc<robotrules_model::RobotsTxt>, group: usize) -> Option<Crawler> {
    let group = robots.groups().get(group)?;
    let agent = group.agents(robots).first()?;
    let name = if agent.global {
        ANY_CRAWLER.to_owned()
    } else {
        agent.token(robots).into_owned()
    };
    Crawler::new(Arc::clone(robots), &name).ok()
}

/// A statement's path that no URL the crawler may crawl reaches: the path's literal head is
/// disallowed, and so is every longer allow rule under it.
fn unreachable_paths(ctx: &mut Context<'_>, groups: &[usize]) {
    let profile = ctx.profile();
    let robots = Arc::clone(ctx.model(profile));
    let mut found = Vec::new();
    for &group in groups {
        if ctx.expired() {
            return;
        }
        let Some(crawler) = crawler_of(&robots, group) else {
            continue;
        };
        if !crawler.group_indices().contains(&group) {
            continue;
        }
        // The literal heads of the crawler's allow rules, sorted: those under a path's head
        // are one range of them. Each verdict asked once.
        let mut allows: Vec<String> = crawler
            .groups()
            .flat_map(|(_, rules)| rules.rules())
            .filter(|rule| rule.kind == RuleKind::Allow)
            .map(|rule| literal_head(&rule.value(&robots)))
            .collect();
        allows.sort_unstable();
        let mut disallowed: HashMap<String, bool> = HashMap::new();
        let mut is_disallowed = |path: &str| {
            *disallowed.entry(path.to_owned()).or_insert_with(|| {
                crawler
                    .target(path)
                    .map(|t| crawler.verdict(&t))
                    .is_ok_and(|v| !v.allowed)
            })
        };
        for statement in crawler.usage_statements() {
            let (Some(path), Some(g)) = (&statement.path, statement.group) else {
                continue;
            };
            if g != group {
                continue;
            }
            let head = literal_head(path);
            if head.is_empty() {
                continue;
            }
            let under = allows.partition_point(|a| a.as_str() < head.as_str());
            let blocked = is_disallowed(&head)
                && allows[under..]
                    .iter()
                    .take_while(|a| a.starts_with(&head))
                    .all(|a| is_disallowed(a));
            if !blocked {
                continue;
            }
            let Ok(target) = crawler.target(&head) else {
                continue;
            };
            let Some(rule) = crawler.verdict(&target).rule else {
                continue;
            };
            let key = statement.vocabulary.key();
            found.push(
                Finding::new(
                    Code::UsagePathDisallowed,
                    Severity::Warning,
                    ctx.record_span(statement.line),
                    statement.line,
                    format!(
                        "this `{key}` path is disallowed: no URL under `{path}` may be crawled, \
                         so the preference applies to nothing"
                    ),
                )
                .label("preferences apply only to URLs that may be crawled")
                .help(format!(
                    "draft-ietf-aipref-attach-05 §3.1: \"no preferences are implied for \
                     resources that are disallowed\"; remove the line, or allow `{path}` if \
                     it is meant to be crawled"
                ))
                .related(ctx.record_span(rule.line), rule.line, "disallowed here")
                .profiles(&[profile]),
            );
        }
    }
    for finding in found {
        ctx.push(finding);
    }
}

/// A pattern up to its first `*` or `$`.
fn literal_head(pattern: &str) -> String {
    pattern
        .chars()
        .take_while(|&c| c != '*' && c != '$')
        .collect()
}

/// A crawler that may crawl nothing, to which a statement allows a use: the preference can
/// never apply (a Disallow for GPTBot with `ai-train=yes`). The model decides
/// ([`Crawler::usage_contradictions`]); this renders each statement line once, for the first
/// crawler it contradicts.
fn contradictions(ctx: &mut Context<'_>, groups: &[usize]) {
    let profile = ctx.profile();
    let robots = Arc::clone(ctx.model(profile));
    let mut seen: std::collections::HashSet<u32> = std::collections::HashSet::new();
    let mut found = Vec::new();
    for &group in groups {
        if ctx.expired() {
            return;
        }
        let Some(crawler) = crawler_of(&robots, group) else {
            continue;
        };
        let name = if crawler.name() == ANY_CRAWLER {
            "crawlers without a group of their own".to_owned()
        } else {
            format!("`{}`", crawler.name())
        };
        for contradiction in crawler.usage_contradictions() {
            let Contradiction::AllowsUse {
                statement,
                allowing,
                blocked_by,
                group: stands_in,
            } = contradiction
            else {
                continue;
            };
            if !seen.insert(statement) {
                continue;
            }
            let own_group = stands_in == Some(group);
            found.push(
                Finding::new(
                    Code::UsageContradictsCrawl,
                    if own_group {
                        Severity::Warning
                    } else {
                        Severity::Note
                    },
                    ctx.record_span(statement),
                    statement,
                    format!(
                        "`{allowing}` allows a use, but {name} may not crawl anything: the \
                         preference never applies"
                    ),
                )
                .label("contradicts the crawl rules")
                .help(
                    "preferences apply only to URLs a crawler may crawl \
                     (draft-ietf-aipref-attach-05 §3.1); allow the paths the preference is for, \
                     or remove the preference",
                )
                .related(
                    ctx.record_span(blocked_by),
                    blocked_by,
                    "everything disallowed here",
                )
                .profiles(&[profile]),
            );
        }
    }
    for finding in found {
        ctx.push(finding);
    }
}

/// A `search` preference that allows search, for the crawlers without a group of their own,
/// while search crawlers (the default crawler list's, [`Purpose::Search`]) have groups that
/// block everything: the file says "use this for search" and "search engines, keep out" at
/// once (a note: the groups may be deliberate). The model decides
/// ([`Crawler::search_contradictions`]).
fn search_blocked(ctx: &mut Context<'_>) {
    let profile = ctx.profile();
    let robots = Arc::clone(ctx.model(profile));
    // Per statement line, its vocabulary, the search crawlers it contradicts, and the first
    // one's block.
    let mut by_statement: Vec<(u32, Vocabulary, Vec<String>, u32)> = Vec::new();
    for agent in default_agents()
        .into_iter()
        .filter(|a| a.purpose == Purpose::Search)
    {
        let Ok(crawler) = Crawler::new(Arc::clone(&robots), &agent.name) else {
            continue;
        };
        for found in crawler.search_contradictions() {
            let Contradiction::SearchAllowed {
                statement,
                blocked_by,
                vocabulary,
            } = found
            else {
                continue;
            };
            match by_statement
                .iter_mut()
                .find(|(line, ..)| *line == statement)
            {
                Some((.., names, _)) => names.push(agent.name.clone()),
                None => {
                    by_statement.push((
                        statement,
                        vocabulary,
                        vec![agent.name.clone()],
                        blocked_by,
                    ));
                }
            }
        }
    }
    let mut found = Vec::new();
    for (statement, vocabulary, crawlers, line) in by_statement {
        let (allow, _) = vocabulary.values();
        let names = crawlers
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let Some(first) = crawlers.first() else {
            continue;
        };
        found.push(
            Finding::new(
                Code::UsageContradictsCrawl,
                Severity::Note,
                ctx.record_span(statement),
                statement,
                format!("`search={allow}` allows search, but {names} may not crawl anything"),
            )
            .label("contradicts the crawl rules of the search engines' crawlers")
            .help(format!(
                "`{first}` has a group of its own, so it reads neither this line nor the rules \
                 beside it; if search engines are meant to index the site, allow them to crawl \
                 it, else say `search` is not allowed"
            ))
            .related(
                ctx.record_span(line),
                line,
                format!("`{first}` blocked here"),
            )
            .profiles(&[profile]),
        );
    }
    for finding in found {
        ctx.push(finding);
    }
}

/// An example statement in `vocabulary`.
fn example(vocabulary: Vocabulary) -> &'static str {
    match vocabulary {
        Vocabulary::Aipref => "train-ai=n, search=y",
        _ => "search=yes, ai-train=no",
    }
}

/// Where `label` starts a member of `preference` (the last such member: a repeated key's
/// last value is the one read), as a range of `preference`.
fn member_label_span(preference: &[u8], label: &str) -> Option<std::ops::Range<usize>> {
    let label = label.as_bytes();
    let mut found = None;
    let mut at = 0;
    while let Some(i) = memchr::memmem::find(&preference[at..], label) {
        let start = at + i;
        let end = start + label.len();
        let before = preference[..start]
            .iter()
            .rev()
            .find(|&&b| b != b' ' && b != b'\t');
        let after = preference.get(end);
        if matches!(before, None | Some(b','))
            && matches!(after, None | Some(b'=' | b';' | b',' | b' ' | b'\t'))
        {
            found = Some(start..end);
        }
        at = start + 1;
    }
    found
}

/// The value of the member `label` of `preference` (after its `=`), as a range.
fn member_value_span(preference: &[u8], label: &str) -> Option<std::ops::Range<usize>> {
    let name = member_label_span(preference, label)?;
    if preference.get(name.end) != Some(&b'=') {
        return None;
    }
    let start = name.end + 1;
    let len = preference[start..]
        .iter()
        .position(|&b| matches!(b, b',' | b';' | b' ' | b'\t'))
        .unwrap_or(preference.len() - start);
    Some(start..start + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_found_at_member_starts_only() {
        let p = b"ai-train=no, train-ai=y;q=1, train-ai=n";
        assert_eq!(member_label_span(p, "train-ai"), Some(29..37));
        assert_eq!(member_value_span(p, "train-ai"), Some(38..39));
        assert_eq!(member_label_span(p, "ai-train"), Some(0..8));
        assert_eq!(member_value_span(p, "ai-train"), Some(9..11));
        assert_eq!(member_label_span(p, "train"), None);
        assert_eq!(member_value_span(b"search", "search"), None);
    }
}
