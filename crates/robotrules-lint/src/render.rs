//! Showing a [`LintReport`]: text like rustc's diagnostics (rendered by `annotate-snippets`,
//! the renderer rustc uses) or JSON lines, one object per finding.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use crate::finding::{Finding, LintReport, Summary};
use crate::source;
use robotrules_model::{Profile, Severity, Span};

/// Width the text is laid out for; longer source lines are cut around the span, as rustc does.
pub(crate) const TERM_WIDTH: usize = 140;

/// Bytes shown on either side of a place in a long line.
const WINDOW: usize = 4 * TERM_WIDTH;

/// Lines between two places of one finding beyond which they are shown as separate excerpts.
const CLUSTER_GAP: u32 = 4;
/// Most places in one excerpt: the renderer's work on an excerpt grows with its places times
/// its lines, so thirty thousand matching rules on consecutive lines are shown as excerpts of
/// this many places each.
const CLUSTER_PLACES: usize = 64;

/// How to render text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextOptions {
    /// The file name shown in `--> robots.txt:3:1`.
    pub path: String,
    /// ANSI colours.
    pub color: bool,
}

/// The report as text: each finding with its source line(s), a caret under the span, its code,
/// help and notes; then a summary line. [`findings_text`] and [`summary`] are its two parts,
/// for a tool that writes the findings to standard output and the summary to standard error.
pub fn text(report: &LintReport, source: &[u8], options: &TextOptions) -> String {
    let mut out = findings_text(report, source, options);
    out.push_str(&summary(report, &options.path));
    out.push('\n');
    out
}

/// The findings as text, without the summary line: each finding with its source line(s), a
/// caret under the span, its code, help and notes, and how many findings were not shown.
/// Empty when there is no finding.
pub fn findings_text(report: &LintReport, source: &[u8], options: &TextOptions) -> String {
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
    .term_width(TERM_WIDTH);
    let mut out = String::new();
    for lint in &report.findings {
        let group = finding_group(lint, source, &options.path);
        out.push_str(&renderer.render(&[group]));
        out.push_str("\n\n");
    }
    if report.truncated_count > 0 {
        out.push_str(&format!(
            "note: {} not shown, only the first {}\n",
            count(report.truncated_count, "more finding"),
            report.findings.len()
        ));
    }
    out
}

/// `1 error`, `2 warnings`.
pub fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The closing line: how many errors, warnings and notes, for which profile.
pub fn summary(report: &LintReport, path: &str) -> String {
    if report.total() == 0 {
        return format!("{path}: no problems found (profile {})", report.profile);
    }
    let mut parts = Vec::new();
    if !report.is_clean() {
        parts.push(count(report.errors, "error"));
        parts.push(count(report.warnings, "warning"));
    }
    if report.notes > 0 {
        parts.push(count(report.notes, "note"));
    }
    let listed = match parts.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
        [] => String::new(),
    };
    format!("{path}: {listed} (profile {})", report.profile)
}

/// The report as JSON lines: one object per finding, in file order.
pub fn json_lines(report: &LintReport) -> String {
    json_lines_for(report, None)
}

/// The report as JSON lines, each finding naming `file` (`"file": …`) when given.
pub fn json_lines_for(report: &LintReport, file: Option<&str>) -> String {
    #[derive(serde::Serialize)]
    struct Named<'a> {
        file: &'a str,
        #[serde(flatten)]
        lint: &'a Finding,
    }
    let mut out = String::new();
    for lint in &report.findings {
        // A `Finding` holds only strings, numbers and lists: serialising it cannot fail.
        let line = match file {
            Some(file) => serde_json::to_string(&Named { file, lint }),
            None => serde_json::to_string(lint),
        };
        if let Ok(line) = line {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The closing JSON record of a run: `{"summary":{…}}` with the counts of [`Summary`].
pub fn json_summary(summary: &Summary) -> String {
    #[derive(serde::Serialize)]
    struct Record<'a> {
        summary: &'a Summary,
    }
    let mut out = serde_json::to_string(&Record { summary }).unwrap_or_default();
    out.push('\n');
    out
}

/// One place to show: span, line, label, whether it is the finding's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place<'a> {
    /// The bytes to underline.
    pub span: Span,
    /// Their 1-based line.
    pub line: u32,
    /// Text under the underline.
    pub label: Option<&'a str>,
    /// `^^^` (the finding's own place) rather than `---`.
    pub primary: bool,
}

/// `places` of `source` shown rustc-style under a `note:` titled `title` (the deciding line
/// of an explanation, say): nearby places share one excerpt, invisible characters are shown by
/// code point.
pub fn snippet(
    title: &str,
    places: Vec<Place<'_>>,
    source: &[u8],
    options: &TextOptions,
) -> String {
    if places.is_empty() {
        return String::new();
    }
    let group = Level::NOTE
        .primary_title(title)
        .elements(excerpts(places, source, &options.path));
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
    .term_width(TERM_WIDTH);
    renderer.render(&[group])
}

/// Profile names for a message: `google`, `rfc9309 and legacy1994`, `a, b and c`.
pub fn profile_list(profiles: &[Profile]) -> String {
    let names: Vec<&str> = profiles.iter().map(|p| p.as_str()).collect();
    match names.as_slice() {
        [] => "no profile".to_owned(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `google reads`, `rfc9309 and legacy1994 read`: profiles as the subject of `verb`.
pub fn profiles_do(profiles: &[Profile], verb: &str) -> String {
    let subject = profile_list(profiles);
    if profiles.len() == 1 {
        let (stem, ending) = if verb.ends_with("ch") || verb.ends_with('s') {
            (verb, "es")
        } else if let Some(stem) = verb
            .strip_suffix('y')
            .filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
        {
            (stem, "ies")
        } else {
            (verb, "s")
        };
        format!("{subject} {stem}{ending}")
    } else {
        format!("{subject} {verb}")
    }
}

fn finding_group<'a>(lint: &'a Finding, source: &'a [u8], path: &'a str) -> Group<'a> {
    let level = match lint.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    };
    let mut places = vec![Place {
        span: lint.span,
        line: lint.line,
        label: lint.label.as_deref(),
        primary: true,
    }];
    places.extend(lint.related.iter().map(|r| Place {
        span: r.span,
        line: r.line,
        label: Some(r.label.as_str()),
        primary: false,
    }));
    let mut group = level
        .primary_title(lint.message.as_str())
        .id(lint.code.as_str())
        .elements(excerpts(places, source, path));
    if let Some(help) = &lint.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    if lint.profiles.len() < Profile::ALL.len() {
        let names: Vec<&str> = lint.profiles.iter().map(|p| p.as_str()).collect();
        group = group.element(Level::NOTE.message(format!("profiles: {}", names.join(", "))));
    }
    group
}

/// Source excerpts showing `places`: nearby places share one, the one with the primary place
/// comes first (as rustc does: `-->` names it), the others follow (`:::`).
pub(crate) fn excerpts<'a>(
    mut places: Vec<Place<'a>>,
    source: &[u8],
    path: &'a str,
) -> Vec<Snippet<'a, annotate_snippets::Annotation<'a>>> {
    places.sort_by_key(|p| (p.line, p.span.start));
    let mut runs = clusters(&places);
    runs.sort_by_key(|run| !run.iter().any(|p| p.primary));
    runs.into_iter().map(|c| excerpt(c, source, path)).collect()
}

/// Places split into runs of nearby lines.
fn clusters<'p, 'a>(places: &'p [Place<'a>]) -> Vec<&'p [Place<'a>]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=places.len() {
        let split = i == places.len()
            || places[i].line > places[i - 1].line + CLUSTER_GAP
            || i - start == CLUSTER_PLACES;
        if split {
            out.push(&places[start..i]);
            start = i;
        }
    }
    out
}

/// One excerpt of the source with the places of a cluster annotated.
fn excerpt<'a>(
    places: &[Place<'a>],
    source: &[u8],
    path: &'a str,
) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
    let first = places
        .iter()
        .map(|p| p.span.start)
        .min()
        .unwrap_or_default();
    let last = places
        .iter()
        .map(|p| p.span.start)
        .max()
        .unwrap_or_default();
    let start = source::line_start(source, first);
    let end = source::line_end(source, last);
    // Invisible characters are shown by code point only in a window around the places: the
    // renderer cuts a long line to the terminal's width anyway, and a 500 KB line of NUL
    // bytes eight times as long would cost seconds.
    let shown = first.saturating_sub(WINDOW)..last.saturating_add(WINDOW);
    let display = source::display_within(source, start, end, shown);
    let line = places.iter().map(|p| p.line).min().unwrap_or(1);
    let annotations: Vec<_> = places
        .iter()
        .map(|p| {
            let kind = if p.primary {
                AnnotationKind::Primary
            } else {
                AnnotationKind::Context
            };
            let mut range = display.range(p.span, source);
            if range.is_empty() && p.span.start < p.span.end {
                // A span made only of a line terminator: point at where it starts.
                range.end = range.start;
            }
            kind.span(range).label(p.label)
        })
        .collect();
    Snippet::source(display.text)
        .line_start(usize::try_from(line).unwrap_or(usize::MAX))
        .path(path)
        .annotations(annotations)
}

#[cfg(test)]
mod prose_tests {
    use super::*;
    use robotrules_model::Profile;

    #[test]
    fn profile_subjects_agree_with_their_verb() {
        assert_eq!(profiles_do(&[Profile::Google], "read"), "google reads");
        assert_eq!(profiles_do(&[Profile::Google], "apply"), "google applies");
        assert_eq!(profiles_do(&[Profile::Google], "say"), "google says");
        assert_eq!(
            profiles_do(&[Profile::Google], "never match"),
            "google never matches"
        );
        assert_eq!(
            profiles_do(&[Profile::Rfc9309, Profile::Legacy1994], "ignore"),
            "rfc9309 and legacy1994 ignore"
        );
        assert_eq!(
            profile_list(&Profile::ALL),
            "rfc9309, google and legacy1994"
        );
        assert_eq!(profile_list(&[]), "no profile");
    }
}
