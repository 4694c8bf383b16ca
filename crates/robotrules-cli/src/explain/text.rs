//! A [`Report`] as text: a verdict table when several profiles are asked for, why they differ,
//! then per profile the groups and why, every matching rule with its length, the winner (and
//! the tie rule when it applied), and the deciding line in context.
//!
//! The wording of each step follows the profile's reading ([`robotrules::reading::Reading`]),
//! never its name: "first match in file order" is what [`Precedence::FirstMatch`] says.

use robotrules::reading::Precedence;
use robotrules::{Explanation, Reason, RuleMatch, Span};
use robotrules_lint::render::{snippet, Place, TextOptions};
use robotrules_text::excerpt;

use super::cut::parse_limit;
use super::{ProfileReport, Report};

/// Longest agent or URL shown, in characters.
const SHOW_INPUT: usize = 200;

/// The file an explanation is about, with where each of its lines is
/// ([`robotrules::line_spans`]).
struct Source<'a> {
    bytes: &'a [u8],
    /// The span to point at for each line (index 0 is line 1).
    lines: Vec<Span>,
}

/// The report as text.
pub(crate) fn text(report: &Report, source: &[u8], options: &TextOptions) -> String {
    let file = Source {
        bytes: source,
        lines: robotrules::line_spans(source),
    };
    let agent = excerpt(report.agent.as_bytes(), SHOW_INPUT);
    let url = excerpt(report.url.as_bytes(), SHOW_INPUT);
    let note = crate::output::agent_note(&report.agent);
    let mut out = format!("`{agent}`{note} on `{url}`\n");
    if let Some(cut) = &report.parse_limit {
        out.push('\n');
        out.push_str(&parse_limit(cut));
    }
    if report.profiles.len() > 1 {
        out.push('\n');
        out.push_str(&table(report));
        if report.differences.is_empty() && report.first_error().is_none() {
            out.push_str("\nthe profiles agree\n");
        } else if !report.differences.is_empty() {
            out.push_str("\nwhy they differ:\n");
            for d in &report.differences {
                out.push_str(&format!("  - {d}\n"));
            }
        }
    }
    for p in &report.profiles {
        out.push('\n');
        out.push_str(&section(p, &file, options));
    }
    out
}

fn verdict_word(p: &ProfileReport) -> &'static str {
    match p.allowed() {
        Some(true) => "allowed",
        Some(false) => "disallowed",
        None => "error",
    }
}

fn rule_text(m: &RuleMatch) -> String {
    format!("{}: {}", m.kind, excerpt(m.pattern.as_bytes(), 80))
}

fn table(report: &Report) -> String {
    let mut out = format!("{:<12}{:<12}{}\n", "profile", "verdict", "decided by");
    for p in &report.profiles {
        let decided = match (&p.error, &p.explanation) {
            (Some(error), _) => error.clone(),
            (None, Some(e)) => decided_by(e),
            (None, None) => String::new(),
        };
        out.push_str(&format!(
            "{:<12}{:<12}{decided}\n",
            p.profile.as_str(),
            verdict_word(p)
        ));
    }
    out
}

fn decided_by(e: &Explanation) -> String {
    let reading = e.profile.reading();
    match (&e.decided_by, e.reason) {
        (Some(rule), _) if reading.precedence == Precedence::FirstMatch => {
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

fn section(p: &ProfileReport, file: &Source<'_>, options: &TextOptions) -> String {
    let Some(e) = &p.explanation else {
        return format!(
            "{}: error: {}\n",
            p.profile,
            p.error.as_deref().unwrap_or("no answer")
        );
    };
    // The model's account (its `Display`), then the deciding line in context.
    let mut out = e.to_string();
    if let Some(winner) = &e.decided_by {
        out.push('\n');
        out.push_str(&context(e, winner, file, options));
        out.push('\n');
    }
    out
}

/// The deciding line in context: the groups' first lines and the other matching rules too.
fn context(
    e: &Explanation,
    winner: &RuleMatch,
    file: &Source<'_>,
    options: &TextOptions,
) -> String {
    let span_of = |line: u32| -> Option<Span> {
        let at = usize::try_from(line).ok()?.checked_sub(1)?;
        file.lines.get(at).copied()
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
    let why = match e.profile.reading().precedence {
        Precedence::FirstMatch => "first match in file order".to_owned(),
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
    let title = format!("decided by line {}: {}", winner.line, rule_text(winner));
    snippet(&title, places, file.bytes, options)
}
