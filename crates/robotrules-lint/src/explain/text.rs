//! An [`ExplainReport`] as text: a verdict table when several profiles are asked for, why they
//! differ, then per profile the groups and why, every matching rule with its length, the
//! winner (and the tie rule when it applied), and the deciding line in context.

use std::fmt::Write as _;

use annotate_snippets::{Level, Renderer};
use robotrules_grammar::{parse_with, ParseOptions, Parsed};
use robotrules_model::{Explanation, Profile, Reason, RuleKind, RuleMatch, Span};

use super::{ExplainReport, GroupChoice, ProfileExplanation, SpecialCase};
use crate::render::{excerpts, Place, TextOptions, TERM_WIDTH};
use crate::source::excerpt;

/// Longest agent or URL shown, in characters.
const SHOW_INPUT: usize = 200;

/// The report as text.
pub fn text(report: &ExplainReport, source: &[u8], options: &TextOptions) -> String {
    let parsed = parse_with(
        source,
        &ParseOptions {
            limit: usize::MAX,
            max_line_len: None,
        },
    );
    let agent = excerpt(report.agent.as_bytes(), SHOW_INPUT);
    let url = excerpt(report.url.as_bytes(), SHOW_INPUT);
    let mut out = format!("`{agent}` on `{url}`\n");
    if report.profiles.len() > 1 {
        out.push('\n');
        out.push_str(&table(report));
        if report.differences.is_empty() && !report.any_error() {
            out.push_str("\nthe profiles agree\n");
        } else if !report.differences.is_empty() {
            out.push_str("\nwhy they differ:\n");
            for d in &report.differences {
                let _ = writeln!(out, "  - {d}");
            }
        }
    }
    for p in &report.profiles {
        out.push('\n');
        out.push_str(&section(p, &agent, &parsed, options));
    }
    out
}

fn verdict_word(p: &ProfileExplanation) -> &'static str {
    match p.allowed() {
        Some(true) => "allowed",
        Some(false) => "disallowed",
        None => "error",
    }
}

fn rule_text(m: &RuleMatch) -> String {
    let key = match m.kind {
        RuleKind::Allow => "allow",
        RuleKind::Disallow => "disallow",
    };
    format!("{key}: {}", excerpt(m.pattern.as_bytes(), 80))
}

fn table(report: &ExplainReport) -> String {
    let mut out = format!("{:<12}{:<12}{}\n", "profile", "verdict", "decided by");
    for p in &report.profiles {
        let decided = match (&p.error, &p.explanation) {
            (Some(error), _) => error.clone(),
            (None, Some(e)) => decided_by(e),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            out,
            "{:<12}{:<12}{decided}",
            p.profile.name(),
            verdict_word(p)
        );
    }
    out
}

fn decided_by(e: &Explanation) -> String {
    match (&e.decided_by, e.reason) {
        (Some(rule), _) if e.profile == Profile::Legacy1994 => {
            format!("line {}: {} (first match)", rule.line, rule_text(rule))
        }
        (Some(rule), _) => format!(
            "line {}: {} (length {})",
            rule.line,
            rule_text(rule),
            rule.priority
        ),
        (None, Reason::RobotsTxtImplicitlyAllowed) => "/robots.txt is always allowed".to_owned(),
        (None, Reason::NoGroup) => "no group applies".to_owned(),
        (None, _) => "no rule matches".to_owned(),
    }
}

fn precedence(profile: Profile) -> &'static str {
    match profile {
        Profile::Rfc9309 => {
            "the longest match wins, counted in octets of the canonical pattern; a tie goes to \
             allow (RFC 9309 §2.2.2)"
        }
        Profile::Google => {
            "the longest match wins, counted in bytes of the pattern as written with `*` and \
             `$`; a tie goes to allow (Google: the least restrictive rule)"
        }
        Profile::Legacy1994 => "the first matching rule in file order wins (1994 convention)",
    }
}

fn lines(v: &[u32]) -> String {
    let v: Vec<String> = v.iter().map(u32::to_string).collect();
    if v.len() == 1 {
        format!("line {}", v[0])
    } else {
        format!("lines {}", v.join(", "))
    }
}

fn groups(p: &ProfileExplanation, e: &Explanation, agent: &str) -> String {
    let at: Vec<u32> = e.groups.iter().map(|g| g.line).collect();
    match &p.group_choice {
        Some(GroupChoice::ExactToken { token, groups: 1 }) => format!(
            "the group at {} names `{token}` (product-token match, RFC 9309 §2.2.1)",
            lines(&at)
        ),
        Some(GroupChoice::ExactToken { token, groups }) => format!(
            "{groups} groups name `{token}` ({}): merged into one (RFC 9309 §2.2.1)",
            lines(&at)
        ),
        Some(GroupChoice::GlobalFallback { groups: 1 }) => format!(
            "no group names `{agent}`: the `*` group at {} applies",
            lines(&at)
        ),
        Some(GroupChoice::GlobalFallback { groups }) => format!(
            "no group names `{agent}`: the {groups} `*` groups ({}) apply, merged",
            lines(&at)
        ),
        Some(GroupChoice::FirstRecord { token }) => format!(
            "the first record whose user-agent `{token}` is part of `{agent}` ({}); later records are not read (1994)",
            lines(&at)
        ),
        Some(GroupChoice::FirstGlobalRecord) => format!(
            "no record names `{agent}`: the first `*` record ({})",
            lines(&at)
        ),
        Some(GroupChoice::NoGroup) | None => {
            format!("no group names `{agent}` and there is no `*` group: no rule applies")
        }
    }
}

fn section(
    p: &ProfileExplanation,
    agent: &str,
    parsed: &Parsed<'_>,
    options: &TextOptions,
) -> String {
    let mut out = String::new();
    let Some(e) = &p.explanation else {
        let _ = writeln!(
            out,
            "{}: error: {}",
            p.profile,
            p.error.as_deref().unwrap_or("no answer")
        );
        return out;
    };
    let _ = writeln!(out, "{}: {}", p.profile, verdict_word(p));
    let _ = writeln!(out, "  groups: {}", groups(p, e, agent));
    let _ = writeln!(
        out,
        "  path compared: {}",
        excerpt(e.path.as_bytes(), SHOW_INPUT)
    );
    for special in &p.special_cases {
        match special {
            SpecialCase::RobotsTxt => {
                out.push_str("  special case: `/robots.txt` is always allowed (RFC 9309 §2.2.2)\n");
            }
            SpecialCase::IndexHtml { line } => {
                let _ = writeln!(
                    out,
                    "  special case: Google's index.html rule: the allow at line {line} also allows the directory itself"
                );
            }
        }
    }
    if e.matches.is_empty() {
        if e.reason == Reason::NoMatchingRule {
            out.push_str("  no rule matches: allowed (RFC 9309 §2.2.2)\n");
        }
        return out;
    }
    let order = if p.profile == Profile::Legacy1994 {
        "in file order"
    } else {
        "strongest first"
    };
    let _ = writeln!(out, "  matching rules, {order}:");
    let width = e
        .matches
        .iter()
        .map(|m| rule_text(m).len())
        .max()
        .unwrap_or(0);
    for m in &e.matches {
        let wins = e
            .decided_by
            .as_ref()
            .is_some_and(|d| d.line == m.line && d.derived == m.derived);
        let derived = if m.derived { " (index.html rule)" } else { "" };
        let _ = writeln!(
            out,
            "    line {:<5} {:<width$}  length {}{derived}{}",
            m.line,
            rule_text(m),
            m.priority,
            if wins { "  <- decides" } else { "" }
        );
    }
    let _ = writeln!(out, "  {}", precedence(p.profile));
    if let Some(tie) = &p.tie {
        let _ = writeln!(
            out,
            "  tie: {} as long (length {}); the allow wins",
            lines(&tie.lines),
            tie.priority
        );
    }
    if let Some(winner) = &e.decided_by {
        out.push('\n');
        out.push_str(&context(e, winner, parsed, options));
        out.push('\n');
    }
    out
}

/// The deciding line in context: the groups' first lines and the other matching rules too.
fn context(
    e: &Explanation,
    winner: &RuleMatch,
    parsed: &Parsed<'_>,
    options: &TextOptions,
) -> String {
    let span_of = |line: u32| -> Option<Span> {
        let l = parsed
            .lines
            .get(usize::try_from(line).ok()?.checked_sub(1)?)?;
        Some(match l.directive {
            Some(d) => Span::new(d.key.start, d.value.end.max(d.key.end)),
            None => l.read,
        })
    };
    let mut labels: Vec<(u32, String, bool)> = Vec::new();
    for g in &e.groups {
        let agents: Vec<String> = g
            .agents
            .iter()
            .map(|a| format!("`{}`", excerpt(a.as_bytes(), 40)))
            .collect();
        labels.push((g.line, format!("group for {}", agents.join(", ")), false));
    }
    for m in &e.matches {
        if m.line == winner.line {
            continue;
        }
        labels.push((
            m.line,
            format!("also matches (length {})", m.priority),
            false,
        ));
    }
    let why = match e.profile {
        Profile::Legacy1994 => "first match in file order".to_owned(),
        _ => format!("longest match (length {})", winner.priority),
    };
    labels.push((winner.line, format!("decides: {why}"), true));
    labels.sort_by_key(|(line, _, primary)| (*line, !*primary));
    labels.dedup_by_key(|(line, _, _)| *line);
    let places: Vec<Place<'_>> = labels
        .iter()
        .filter_map(|(line, label, primary)| {
            Some(Place {
                span: span_of(*line)?,
                line: *line,
                label: Some(label.as_str()),
                primary: *primary,
            })
        })
        .collect();
    if places.is_empty() {
        return String::new();
    }
    let title = format!("decided by line {}: {}", winner.line, rule_text(winner));
    let group =
        Level::NOTE
            .primary_title(title)
            .elements(excerpts(places, parsed.source, &options.path));
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
    .term_width(TERM_WIDTH);
    renderer.render(&[group])
}
