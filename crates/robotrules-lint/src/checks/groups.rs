//! User-agent lines and groups: rules outside any group, empty or truncated user-agents,
//! several groups for one agent, a named group that escapes every `*` rule, and an extension
//! record that Google reads as joining two groups.

use std::collections::BTreeMap;
use std::sync::Arc;

use robotrules_model::{
    Crawler, DiagnosticKind, GroupMerge, Profile, RobotsTxt, RuleKind, Selection, Severity,
};

use super::observed::Observed;
use super::{profile_list, profiles_do};
use crate::code::Code;
use crate::context::Context;
use crate::finding::Finding;

/// How many of the `*` group's rules a finding names before "and N more".
const LIST_RULES: usize = 3;

/// Turn the model's group findings into lints.
pub(super) fn from_model(ctx: &mut Context<'_>, o: &Observed) {
    let profiles = o.profiles();
    let span = ctx.record_span(o.line);
    let lint = match o.any() {
        Some(DiagnosticKind::RuleOutsideGroup) => {
            let rule = ctx.excerpt(span);
            let by = if profiles.len() == Profile::ALL.len() {
                String::new()
            } else {
                format!(" by {}", profile_list(&profiles))
            };
            Finding::new(
                Code::RuleOutsideGroup,
                ctx.error_if_dropped_by(&profiles),
                span,
                o.line,
                format!("`{rule}` comes before any user-agent line: it is ignored{by}"),
            )
            .label("belongs to no group")
            .help(
                "rules belong to the group of the user-agent lines above them (RFC 9309 §2.1, \
                 §2.2.2); put `user-agent: *` (or a crawler's name) above this rule",
            )
        }
        Some(DiagnosticKind::EmptyUserAgent) => Finding::new(
            Code::EmptyUserAgent,
            Severity::Warning,
            span,
            o.line,
            "empty user-agent value",
        )
        .label("matches no crawler")
        .help(
            "name a crawler (`user-agent: ExampleBot`), or `*` for every crawler; a group whose \
             only user-agent is empty applies to no crawler (RFC 9309 §2.2.1)",
        ),
        Some(DiagnosticKind::UserAgentTruncated) => truncated(ctx, o, &profiles),
        _ => return,
    };
    ctx.push(lint.profiles(&profiles));
}

fn truncated(ctx: &Context<'_>, o: &Observed, profiles: &[Profile]) -> Finding {
    let value = ctx.slice(o.span);
    let written = ctx.excerpt(o.span);
    // The token as the profile linted for reads it, else as the first that reported it.
    let reader = if profiles.contains(&ctx.profile()) {
        ctx.profile()
    } else {
        profiles.first().copied().unwrap_or_default()
    };
    let token = reader.reading().agent_token.leading(value);
    let token = String::from_utf8_lossy(token);
    let rest = &value[token.len()..];
    let lint = |message: String| {
        Finding::new(
            Code::UserAgentTruncated,
            Severity::Note,
            o.span,
            o.line,
            message,
        )
    };
    if token.is_empty() {
        return lint(format!(
            "user-agent `{written}` has no product token: it matches no crawler"
        ))
        .label("matches no crawler")
        .help(
            "RFC 9309 §2.2.1: crawlers match the leading run of letters, digits, `_` and `-` of \
             the value; write the crawler's name (`ExampleBot`) or `*`",
        );
    }
    if matches!(rest.first(), Some(b'/' | b' ' | b'\t' | b'(' | b';')) {
        return lint(format!("user-agent `{written}` is read as `{token}`"))
            .label(format!("read as `{token}`"))
            .help(format!(
                "versions and comments after the product token are ignored (RFC 9309 §2.2.1); \
                 write just `{token}`"
            ));
    }
    lint(format!("user-agent `{written}` is read as `{token}`"))
        .label(format!("read as `{token}`"))
        .help(format!(
            "{readers} the leading run of the product-token characters (RFC 9309 §2.2.1), so \
             this group applies to a crawler named `{token}`, not to one named `{written}` \
             (1994-style readers match the whole value as a substring)",
            readers = profiles_do(profiles, "match")
        ))
}

/// Lints that look at the groups as a whole.
pub(super) fn check(ctx: &mut Context<'_>) {
    duplicate_groups(ctx);
    specific_ignores_global(ctx);
    groups_without_rules(ctx);
    joined_by_extension(ctx);
    empty_file(ctx);
}

/// A file without a single record: no group, so every crawler may fetch every URL (RFC 9309
/// §2.2.1: a crawler with no group to obey has no rules). Worth a note: an empty file is
/// often a deploy that lost its content. Not said of a file with other findings (binary,
/// HTML, lines that are no record): those say what is wrong.
fn empty_file(ctx: &mut Context<'_>) {
    if ctx.has_findings() {
        return;
    }
    let mut number = 1;
    while let Some(line) = ctx.line(number) {
        if line.directive.is_some() {
            return;
        }
        number += 1;
    }
    ctx.push(
        Finding::new(
            Code::EmptyFile,
            Severity::Note,
            robotrules_model::Span::default(),
            1,
            "the file has no records: every crawler may fetch everything",
        )
        .label("no user-agent group, no rule")
        .help(
            "a robots.txt without rules allows every URL to every crawler (RFC 9309 §2.2.1). \
             If that is meant, `User-agent: *` followed by an empty `Disallow:` says it \
             explicitly; if not, the file lost its content",
        ),
    );
}

/// The key a user-agent line is grouped by: `*`, or its lower-cased token.
fn agent_key(robots: &RobotsTxt, agent: &robotrules_model::UserAgent) -> String {
    agent.token(robots).to_ascii_lowercase()
}

fn duplicate_groups(ctx: &mut Context<'_>) {
    let legacy = ctx.profile().reading().groups == GroupMerge::First;
    let mut first: BTreeMap<String, (usize, u32)> = BTreeMap::new();
    let mut found = Vec::new();
    let robots = ctx.target();
    for (index, group) in robots.groups().iter().enumerate() {
        for agent in group.agents(robots) {
            let key = agent_key(robots, agent);
            if key.is_empty() {
                continue;
            }
            match first.get(&key) {
                Some(&(g, line)) if g != index => {
                    found.push((agent.token(robots).into_owned(), agent.line, line));
                }
                Some(_) => {}
                None => {
                    first.insert(key, (index, agent.line));
                }
            }
        }
    }
    for (key, line, first_line) in found {
        let span = ctx.record_span(line);
        let first_span = ctx.record_span(first_line);
        let (message, label) = match (key.as_str(), legacy) {
            ("*", false) => (
                format!("another `*` group (the first is at line {first_line}): the groups are merged"),
                "merged with the `*` group above".to_owned(),
            ),
            (_, false) => (
                format!("`{key}` already has a group at line {first_line}: the groups are merged"),
                format!("merged with the group for `{key}` above"),
            ),
            ("*", true) => (
                format!("another `*` record (the first is at line {first_line}): only the first is used"),
                "never used by legacy1994".to_owned(),
            ),
            (_, true) => (
                format!("`{key}` already has a record at line {first_line}: only the first is used"),
                "never used by legacy1994".to_owned(),
            ),
        };
        ctx.push(
            Finding::new(
                Code::DuplicateGroup,
                if legacy { Severity::Error } else { Severity::Note },
                span,
                line,
                message,
            )
            .label(label)
            .related(first_span, first_line, "first group for this agent")
            .help(format!(
                "RFC 9309 §2.2.1 and Google merge the rules of every group for `{key}`; 1994-style \
                 readers use only the first record that matches. Put all rules for `{key}` in one group"
            )),
        );
    }
}

/// A named crawler that drops `*` rules: its token as written, its user-agent line, and the
/// `*` group's disallow rules (line, pattern) it leaves out.
type Dropping = (String, u32, Vec<(u32, String)>);

/// A named crawler's own rules (merged over every group naming it) and what it drops of the
/// `*` group: for each named agent that has rules, blocks something but not everything, and
/// leaves out some of the `*` group's disallow rules. One note for the whole file.
fn specific_ignores_global(ctx: &mut Context<'_>) {
    let robots = ctx.target();
    let global: Vec<(u32, String)> = robots
        .groups()
        .iter()
        .filter(|g| g.is_global(robots))
        .flat_map(|g| ctx.rules_of(ctx.profile(), g))
        .filter(|r| r.kind == RuleKind::Disallow && !r.derived && !r.is_empty())
        .map(|r| (r.line, r.value(robots).into_owned()))
        .collect();
    if global.is_empty() {
        return;
    }
    let mut seen: BTreeMap<String, ()> = BTreeMap::new();
    // (token as written, its user-agent line, the `*` rules it drops)
    let mut found: Vec<Dropping> = Vec::new();
    for group in robots.groups() {
        for agent in group.agents(robots) {
            let key = agent_key(robots, agent);
            if agent.global || key.is_empty() || seen.insert(key.clone(), ()).is_some() {
                continue;
            }
            // Every group naming this agent, merged.
            let own: Vec<_> = robots
                .groups()
                .iter()
                .filter(|g| g.agents(robots).iter().any(|a| agent_key(robots, a) == key))
                .flat_map(|g| ctx.rules_of(ctx.profile(), g))
                .filter(|r| !r.derived && !r.is_empty())
                .collect();
            let blocks_some = own.iter().any(|r| r.kind == RuleKind::Disallow);
            let blocks_all = own.iter().any(|r| {
                r.kind == RuleKind::Disallow && matches!(&*r.value(robots), "/" | "/*" | "*")
            });
            if !blocks_some || blocks_all {
                // A group granting full access, or blocking everything, loses nothing it
                // meant to keep; a group without rules is `group-without-rules`.
                continue;
            }
            let missing: Vec<(u32, String)> = global
                .iter()
                .filter(|(_, pattern)| !own.iter().any(|r| r.value(robots) == pattern.as_str()))
                .cloned()
                .collect();
            if !missing.is_empty() {
                found.push((agent.token(robots).into_owned(), agent.line, missing));
            }
        }
    }
    let Some((first_token, first_line, first_missing)) = found.first().cloned() else {
        return;
    };
    let span = ctx.record_span(first_line);
    let rules = |missing: &[(u32, String)]| {
        let names: Vec<String> = missing
            .iter()
            .take(LIST_RULES)
            .map(|(_, p)| format!("`disallow: {p}`"))
            .collect();
        let more = missing.len().saturating_sub(LIST_RULES);
        if more > 0 {
            format!("{} and {more} more", names.join(", "))
        } else {
            names.join(", ")
        }
    };
    let message = if found.len() == 1 {
        format!(
            "`{first_token}` obeys only its own group, which leaves out {} of the `*` group",
            rules(&first_missing)
        )
    } else {
        let names: Vec<String> = found
            .iter()
            .take(LIST_RULES)
            .map(|(t, _, m)| format!("`{t}` ({})", m.len()))
            .collect();
        let more = found.len().saturating_sub(LIST_RULES);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        format!(
            "{} crawlers obey only their own groups, which leave out rules of the `*` group: {}{more}",
            found.len(),
            names.join(", ")
        )
    };
    let mut lint = Finding::new(
        Code::SpecificGroupIgnoresGlobal,
        Severity::Note,
        span,
        first_line,
        message,
    )
    .label(format!("`{first_token}` ignores the `*` group"));
    for (token, line, _) in found.iter().skip(1).take(LIST_RULES - 1) {
        lint = lint.related(
            ctx.record_span(*line),
            *line,
            format!("`{token}` ignores the `*` group"),
        );
    }
    let (rule_line, _) = first_missing[0];
    let details: Vec<String> = found
        .iter()
        .take(LIST_RULES)
        .map(|(t, _, m)| format!("`{t}` leaves out {}", rules(m)))
        .collect();
    ctx.push(
        lint.related(
            ctx.record_span(rule_line),
            rule_line,
            format!("does not apply to `{first_token}`"),
        )
        .help(format!(
            "a crawler follows the group that names it and ignores `*` entirely (RFC 9309 \
             §2.2.1): {}. If that is deliberate, nothing is wrong; otherwise repeat those rules \
             in the crawler's group",
            details.join("; ")
        )),
    );
}

/// A named group without allow or disallow rules, while the `*` group has some: the crawler
/// it names obeys that group, so it may fetch everything the `*` group disallows. Reported on
/// the group's first user-agent line, for the profiles where the crawler gets no rule.
fn groups_without_rules(ctx: &mut Context<'_>) {
    // First user-agent line -> (tokens as written, first `*` disallow line, its count, profiles)
    let mut found: BTreeMap<u32, (Vec<String>, u32, usize, Vec<Profile>)> = BTreeMap::new();
    for profile in Profile::ALL {
        let robots = ctx.model(profile);
        let global: Vec<u32> = robots
            .groups()
            .iter()
            .filter(|g| g.is_global(robots))
            .flat_map(|g| ctx.rules_of(profile, g))
            .filter(|r| r.kind == RuleKind::Disallow && !r.derived && !r.is_empty())
            .map(|r| r.line)
            .collect();
        let Some(&first_rule) = global.iter().min() else {
            continue;
        };
        for group in robots.groups() {
            // A group of only records (`crawl-delay: 5`): the crawler meant to get the same
            // rules, slower, gets none. (A bare user-agent line is left alone.)
            if group.is_global(robots) || group.has_rules() || group.extensions(robots).is_empty() {
                continue;
            }
            let mut escaping = Vec::new();
            for agent in group.agents(robots) {
                let token = agent.token(robots);
                if token.is_empty() {
                    continue;
                }
                let Ok(rules) = Crawler::new(Arc::clone(robots), &token) else {
                    continue;
                };
                let named = matches!(rules.selection(), Selection::Exact | Selection::Substring);
                let ruleless = rules
                    .group_indices()
                    .iter()
                    .all(|&i| robots.groups().get(i).is_none_or(|g| !g.has_rules()));
                if named && ruleless {
                    escaping.push(token.into_owned());
                }
            }
            if escaping.is_empty() {
                continue;
            }
            let entry =
                found
                    .entry(group.line)
                    .or_insert((escaping, first_rule, global.len(), Vec::new()));
            entry.3.push(profile);
        }
    }
    for (line, (tokens, rule_line, count, profiles)) in found {
        let span = ctx.record_span(line);
        let names: Vec<String> = tokens.iter().map(|t| format!("`{t}`")).collect();
        let who = and_list(&names);
        let first = names.first().cloned().unwrap_or_default();
        let rules = if count == 1 {
            "the `*` group's disallow rule".to_owned()
        } else {
            format!("all {count} disallow rules of the `*` group")
        };
        ctx.push(
            Finding::new(
                Code::GroupWithoutRules,
                Severity::Warning,
                span,
                line,
                format!(
                    "the group for {who} has no allow or disallow rules, so it ignores {rules}"
                ),
            )
            .label("no rules: the `*` group does not apply")
            .related(
                ctx.record_span(rule_line),
                rule_line,
                format!("does not apply to {first}"),
            )
            .help(format!(
                "a crawler obeys only the group that names it (RFC 9309 §2.2.1), and a group with \
                 only `crawl-delay` or other records gives it no rules at all: {who} may fetch \
                 everything. If it should obey the `*` rules too, repeat them in this group; if \
                 it may fetch everything, say so with `allow: /`"
            ))
            .profiles(&profiles),
        );
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Where an extension record between user-agent lines joins two user-agent lists into one
/// group: (joined user-agent line, extension line, group's first user-agent line, key, whether
/// the group has allow or disallow rules).
fn joins(robots: &RobotsTxt) -> Vec<(u32, u32, u32, String, bool)> {
    let mut found = Vec::new();
    for group in robots.groups() {
        let agents = group.agents(robots);
        let records: Vec<_> = group
            .extensions(robots)
            .into_iter()
            .filter(|e| e.kind.is_group_member())
            .collect();
        for pair in agents.windows(2) {
            let (before, after) = (pair[0].line, pair[1].line);
            if let Some(record) = records.iter().find(|e| before < e.line && e.line < after) {
                found.push((
                    after,
                    record.line,
                    group.line,
                    record.key.clone(),
                    group.has_rules(),
                ));
                break;
            }
        }
    }
    found
}

fn joined_by_extension(ctx: &mut Context<'_>) {
    let mut by_line: BTreeMap<u32, (u32, u32, String, bool, Vec<Profile>)> = BTreeMap::new();
    for profile in Profile::ALL {
        for (line, record, first, key, rules) in joins(ctx.model(profile)) {
            let entry = by_line
                .entry(line)
                .or_insert((record, first, key, false, Vec::new()));
            entry.3 |= rules;
            entry.4.push(profile);
        }
    }
    for (line, (record, first, key, rules, profiles)) in by_line {
        // With rules, the first user-agents get rules meant for the later ones (`*` blocked
        // by CCBot's `disallow: /`); without, they only share the records (the first
        // crawl-delay), which is worth a note.
        let (severity, effect) = if rules {
            (
                Severity::Warning,
                "so the rules below apply to every user-agent of the joined group",
            )
        } else {
            (
                Severity::Note,
                "so every user-agent of the joined group gets the same records (the first \
                 valid crawl-delay)",
            )
        };
        let readers = profile_list(&profiles);
        let read = profiles_do(&profiles, "read");
        let span = ctx.record_span(line);
        let agent = ctx.excerpt(span);
        ctx.push(
            Finding::new(
                Code::GroupJoinedByExtension,
                severity,
                span,
                line,
                format!(
                    "{read} `{agent}` as part of the group at line {first}: the `{key}` line does not end it"
                ),
            )
            .label("joins the group above")
            .related(ctx.record_span(record), record, format!("does not end the group for {readers}"))
            .related(ctx.record_span(first), first, "the group starts here")
            .help(format!(
                "only an allow or disallow line ends a group's user-agent list (RFC 9309 §2.2.4: \
                 other records do not interfere; Google reads it the same way), and only a blank \
                 line for 1994-style readers, {effect}. End the group before the next \
                 `user-agent` line with a rule: `allow: /` after the record keeps its meaning \
                 (everything allowed) and closes the group for every reader",
            ))
            .profiles(&profiles),
        );
    }
}
