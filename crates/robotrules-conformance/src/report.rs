//! Reporting results: a table by source and section (cases, pass, expected difference, fail,
//! not run), a summary by source and profile, then each failure with its inputs. Plain text
//! with aligned columns for the terminal, Markdown for `docs/conformance.md`.

use std::collections::HashSet;
use std::fmt::Write as _;

use robotrules::Profile;

use crate::case::{Case, Test, UrlOp};
use crate::outcome::{Failure, Outcome, Row};

/// How many robots.txt lines a failure shows before cutting.
const ROBOTS_LINES_SHOWN: usize = 20;
/// How many characters of one robots.txt line a failure shows before cutting.
const ROBOTS_LINE_CHARS: usize = 200;
/// How many characters of an agent, URL or other value a failure shows before cutting.
const VALUE_CHARS: usize = 200;
/// The widest section name the text table shows before cutting.
const SECTION_CHARS: usize = 64;

/// The command that regenerates `docs/conformance.md`.
pub const MARKDOWN_COMMAND: &str = "cargo xtask conformance --format markdown";

/// Counts of one group of rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Distinct cases.
    pub cases: usize,
    /// Pairs that passed.
    pub pass: usize,
    /// Pairs that failed as the expected-differences list says.
    pub expected: usize,
    /// Pairs (or listings) that fail the run.
    pub fail: usize,
    /// Pairs that did not run.
    pub not_run: usize,
}

impl Counts {
    fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Pass => self.pass += 1,
            Outcome::ExpectedDifference { .. } => self.expected += 1,
            Outcome::Fail(_) => self.fail += 1,
            Outcome::NotRun(_) => self.not_run += 1,
        }
    }

    /// All pairs counted.
    pub fn runs(&self) -> usize {
        self.pass + self.expected + self.fail + self.not_run
    }
}

/// The results of a run, ready to print.
#[derive(Clone, Debug)]
pub struct Report {
    /// Every row, in run order.
    pub rows: Vec<Row>,
}

/// One section's counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionCounts {
    /// The section name.
    pub section: String,
    /// Its counts.
    pub counts: Counts,
}

/// One source's counts, overall, by section and by profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceCounts {
    /// The source name.
    pub source: String,
    /// Counts over the whole source.
    pub total: Counts,
    /// By section, in order of first appearance.
    pub sections: Vec<SectionCounts>,
    /// By profile, in the order of [`Profile::ALL`].
    pub profiles: Vec<(Profile, Counts)>,
}

/// Counts of a group of rows while they are added, with the ids seen so far so that each
/// case counts once.
#[derive(Default)]
struct Tally {
    counts: Counts,
    ids: HashSet<String>,
}

impl Tally {
    fn add(&mut self, row: &Row) {
        self.counts.add(&row.outcome);
        if row.case.is_some() && self.ids.insert(row.id.clone()) {
            self.counts.cases += 1;
        }
    }
}

/// A source's tallies while rows are added.
struct SourceTally {
    source: String,
    total: Tally,
    sections: Vec<(String, Tally)>,
    profiles: Vec<(Profile, Tally)>,
}

impl SourceTally {
    fn new(source: &str) -> SourceTally {
        SourceTally {
            source: source.to_owned(),
            total: Tally::default(),
            sections: Vec::new(),
            profiles: Profile::ALL
                .iter()
                .map(|p| (*p, Tally::default()))
                .collect(),
        }
    }

    fn add(&mut self, row: &Row) {
        self.total.add(row);
        let section = match self.sections.iter().position(|(s, _)| s == row.section()) {
            Some(index) => index,
            None => {
                self.sections
                    .push((row.section().to_owned(), Tally::default()));
                self.sections.len() - 1
            }
        };
        self.sections[section].1.add(row);
        if let Some((_, tally)) = self.profiles.iter_mut().find(|(p, _)| *p == row.profile) {
            tally.add(row);
        }
    }

    fn finish(self) -> SourceCounts {
        SourceCounts {
            source: self.source,
            total: self.total.counts,
            sections: self
                .sections
                .into_iter()
                .map(|(section, tally)| SectionCounts {
                    section,
                    counts: tally.counts,
                })
                .collect(),
            profiles: self
                .profiles
                .into_iter()
                .map(|(p, tally)| (p, tally.counts))
                .collect(),
        }
    }
}

impl Report {
    /// Whether nothing fails the run.
    pub fn is_success(&self) -> bool {
        !self.rows.iter().any(Row::is_failure)
    }

    /// The rows that fail the run, in run order.
    pub fn failures(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|row| row.is_failure())
    }

    /// Counts over every row.
    pub fn total(&self) -> Counts {
        let mut total = Tally::default();
        for row in &self.rows {
            total.add(row);
        }
        total.counts
    }

    /// Counts by source (in order of first appearance), each by section and by profile.
    pub fn by_source(&self) -> Vec<SourceCounts> {
        let mut sources: Vec<SourceTally> = Vec::new();
        for row in &self.rows {
            let index = match sources.iter().position(|s| s.source == row.source()) {
                Some(index) => index,
                None => {
                    sources.push(SourceTally::new(row.source()));
                    sources.len() - 1
                }
            };
            sources[index].add(row);
        }
        sources.into_iter().map(SourceTally::finish).collect()
    }

    /// The plain-text report: summary, table by source and section, table by source and
    /// profile, then each failure with its inputs.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let total = self.total();
        let _ = writeln!(out, "robotrules conformance: {}", summary_line(&total));
        let _ = writeln!(out);
        let sources = self.by_source();
        let mut table: Vec<Vec<String>> = vec![[
            "source / section",
            "cases",
            "pass",
            "expected diff",
            "fail",
            "not run",
        ]
        .map(str::to_owned)
        .to_vec()];
        for source in &sources {
            table.push(count_cells(source.source.clone(), &source.total));
            for section in &source.sections {
                table.push(count_cells(
                    format!("  {}", shorten(&section.section, SECTION_CHARS)),
                    &section.counts,
                ));
            }
        }
        table.push(count_cells("total".to_owned(), &total));
        out.push_str(&aligned(&table));
        let _ = writeln!(out);
        let mut by_profile: Vec<Vec<String>> = vec![std::iter::once("source".to_owned())
            .chain(std::iter::once("cases".to_owned()))
            .chain(Profile::ALL.iter().map(ToString::to_string))
            .collect()];
        for source in &sources {
            by_profile.push(
                [source.source.clone(), source.total.cases.to_string()]
                    .into_iter()
                    .chain(source.profiles.iter().map(|(_, c)| {
                        if c.runs() == 0 {
                            "-".to_owned()
                        } else {
                            format!("{}/{}/{}/{}", c.pass, c.expected, c.fail, c.not_run)
                        }
                    }))
                    .collect(),
            );
        }
        let _ = writeln!(
            out,
            "by profile (pass/expected diff/fail/not run; - when the profile ran nothing):"
        );
        out.push_str(&aligned(&by_profile));
        let failures: Vec<&Row> = self.failures().collect();
        if failures.is_empty() {
            let _ = writeln!(out, "\nno failures");
        } else {
            let _ = writeln!(out, "\nFAILURES ({})", failures.len());
            for row in failures {
                let _ = writeln!(out);
                out.push_str(&failure_text(row));
            }
        }
        out
    }

    /// The Markdown report written to `docs/conformance.md`.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<!-- Generated by `{MARKDOWN_COMMAND}`; do not edit by hand, run it again. -->"
        );
        let _ = writeln!(out, "# Conformance");
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Generated by `{MARKDOWN_COMMAND}` from the corpus in `conformance/` \
             (see `conformance/README.md`). Each case runs in every profile it lists; the \
             counts after *cases* are (case, profile) runs. An *expected difference* is a run \
             whose result differs from the case's expectation as \
             `conformance/expected-differences.txt` says it must, with the reason given there."
        );
        let _ = writeln!(out);
        let total = self.total();
        let _ = writeln!(out, "**Total**: {}.", summary_line(&total));
        let _ = writeln!(out);
        let sources = self.by_source();

        let _ = writeln!(out, "## By source and profile");
        let _ = writeln!(out);
        let header: Vec<String> = ["source".to_owned(), "cases".to_owned()]
            .into_iter()
            .chain(Profile::ALL.iter().map(|p| format!("`{p}`")))
            .collect();
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let _ = writeln!(out, "| --- | ---: |{}", " --- |".repeat(Profile::ALL.len()));
        for source in &sources {
            let cells: Vec<String> = source
                .profiles
                .iter()
                .map(|(_, counts)| profile_cell(counts))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                md_cell(&source.source),
                source.total.cases,
                cells.join(" | ")
            );
        }
        let _ = writeln!(out);

        let _ = writeln!(out, "## By source and section");
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "| source | section | cases | pass | expected difference | fail | not run |"
        );
        let _ = writeln!(out, "| --- | --- | ---: | ---: | ---: | ---: | ---: |");
        for source in &sources {
            for section in &source.sections {
                let c = &section.counts;
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    md_cell(&source.source),
                    md_cell(&section.section),
                    c.cases,
                    c.pass,
                    c.expected,
                    c.fail,
                    c.not_run
                );
            }
        }
        let _ = writeln!(out);

        let _ = writeln!(out, "## Expected differences");
        let _ = writeln!(out);
        let differences: Vec<&Row> = self
            .rows
            .iter()
            .filter(|row| matches!(row.outcome, Outcome::ExpectedDifference { .. }))
            .collect();
        if differences.is_empty() {
            let _ = writeln!(out, "None.");
            let _ = writeln!(out);
        }
        for source in &sources {
            let rows: Vec<&&Row> = differences
                .iter()
                .filter(|row| row.source() == source.source)
                .collect();
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "<details><summary>{}: {} expected differences</summary>",
                source.source,
                rows.len()
            );
            let _ = writeln!(out);
            let _ = writeln!(out, "| case | profile | expected | got | reason |");
            let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
            for row in rows {
                if let Outcome::ExpectedDifference {
                    reason,
                    expected,
                    got,
                } = &row.outcome
                {
                    let _ = writeln!(
                        out,
                        "| `{}` | `{}` | {} | {} | {} |",
                        md_cell(&row.id),
                        row.profile,
                        md_cell(expected),
                        md_cell(got),
                        md_cell(reason)
                    );
                }
            }
            let _ = writeln!(out);
            let _ = writeln!(out, "</details>");
            let _ = writeln!(out);
        }

        let _ = writeln!(out, "## Not run");
        let _ = writeln!(out);
        let not_run: Vec<(&str, usize)> = self.rows.iter().fold(Vec::new(), |mut acc, row| {
            if let Outcome::NotRun(why) = &row.outcome {
                match acc.iter_mut().find(|(w, _)| *w == why.as_str()) {
                    Some((_, n)) => *n += 1,
                    None => acc.push((why.as_str(), 1)),
                }
            }
            acc
        });
        if not_run.is_empty() {
            let _ = writeln!(out, "None.");
        } else {
            let _ = writeln!(out, "| runs | why |");
            let _ = writeln!(out, "| ---: | --- |");
            for (why, n) in not_run {
                let _ = writeln!(out, "| {n} | {} |", md_cell(why));
            }
        }
        let _ = writeln!(out);

        let _ = writeln!(out, "## Failures");
        let _ = writeln!(out);
        let failures: Vec<&Row> = self.failures().collect();
        if failures.is_empty() {
            let _ = writeln!(out, "None.");
        } else {
            for row in failures {
                let _ = writeln!(out, "```text");
                out.push_str(&failure_text(row).replace("```", "`\u{200b}``"));
                let _ = writeln!(out, "```");
                let _ = writeln!(out);
            }
        }
        out
    }
}

/// `N cases, M runs: P pass, D expected difference, F fail, R not run`.
fn summary_line(c: &Counts) -> String {
    format!(
        "{} cases, {} runs: {} pass, {} expected difference, {} fail, {} not run",
        c.cases,
        c.runs(),
        c.pass,
        c.expected,
        c.fail,
        c.not_run
    )
}

fn count_cells(label: String, c: &Counts) -> Vec<String> {
    vec![
        label,
        c.cases.to_string(),
        c.pass.to_string(),
        c.expected.to_string(),
        c.fail.to_string(),
        c.not_run.to_string(),
    ]
}

/// A source × profile cell: `12 pass, 1 expected difference`, or `—` when nothing ran.
fn profile_cell(c: &Counts) -> String {
    if c.runs() == 0 {
        return "—".to_owned();
    }
    let mut parts = vec![format!("{} pass", c.pass)];
    if c.expected > 0 {
        parts.push(format!("{} expected difference", c.expected));
    }
    if c.fail > 0 {
        parts.push(format!("**{} fail**", c.fail));
    }
    if c.not_run > 0 {
        parts.push(format!("{} not run", c.not_run));
    }
    parts.join(", ")
}

/// Lays out rows as columns: the first left-aligned, the others right-aligned.
fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            if c == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Cuts `text` to `max` characters, marking the cut with `…`.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let kept: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// Escapes a table cell for Markdown.
fn md_cell(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// Escapes one line of robots.txt bytes for display: control characters and invalid UTF-8
/// as escapes, everything else as is.
fn escape_line(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if ch.is_control() || ch == '\u{feff}' {
                out.extend(ch.escape_default());
            } else {
                out.push(ch);
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02X}");
        }
    }
    out
}

/// The robots.txt body as display lines (split at LF; CR shown as `\r`), cut to
/// [`ROBOTS_LINES_SHOWN`] lines of at most [`ROBOTS_LINE_CHARS`] characters.
pub fn robots_excerpt(bytes: &[u8]) -> Vec<String> {
    if bytes.is_empty() {
        return vec!["(empty)".to_owned()];
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let lines: Vec<&[u8]> = body.split(|b| *b == b'\n').collect();
    let mut shown: Vec<String> = lines
        .iter()
        .take(ROBOTS_LINES_SHOWN)
        .map(|line| shorten(&escape_line(line), ROBOTS_LINE_CHARS))
        .collect();
    if lines.len() > ROBOTS_LINES_SHOWN {
        shown.push(format!(
            "… ({} more lines)",
            lines.len() - ROBOTS_LINES_SHOWN
        ));
    }
    if !bytes.ends_with(b"\n") {
        shown.push("(no final newline)".to_owned());
    }
    shown
}

/// A string input, quoted and escaped, cut to [`VALUE_CHARS`] characters.
fn quoted(value: &str) -> String {
    let count = value.chars().count();
    if count <= VALUE_CHARS {
        format!("{value:?}")
    } else {
        let kept: String = value.chars().take(VALUE_CHARS).collect();
        format!("{kept:?}… ({count} characters)")
    }
}

/// The inputs of a case, as `key: value` lines.
fn input_lines(case: &Case) -> Vec<String> {
    let robots = |bytes: &[u8]| {
        std::iter::once("robots:".to_owned())
            .chain(
                robots_excerpt(bytes)
                    .into_iter()
                    .map(|l| format!("  | {l}")),
            )
            .collect::<Vec<_>>()
    };
    match &case.test {
        Test::Model(test) => {
            let mut lines = robots(&test.robots);
            lines.push(format!("agent: {}", quoted(&test.agent)));
            lines.push(format!("url: {}", quoted(&test.url)));
            lines
        }
        Test::Url(test) => match &test.op {
            UrlOp::RobotsTxtUrl { url } | UrlOp::Origin { url } => {
                vec![
                    format!("op: {}", test.op.name()),
                    format!("url: {}", quoted(url)),
                ]
            }
            UrlOp::Governs { robots_txt, url } => vec![
                "op: governs".to_owned(),
                format!("robots_txt: {}", quoted(robots_txt)),
                format!("url: {}", quoted(url)),
            ],
            UrlOp::Path { url, google_style } => vec![
                "op: path".to_owned(),
                format!("url: {}", quoted(url)),
                format!(
                    "profile_style: {}",
                    if *google_style { "google" } else { "rfc9309" }
                ),
            ],
        },
        Test::Grammar(test) => robots(&test.robots),
        Test::Fetch(test) => {
            let mut lines = vec![format!("scheme: {}", test.scheme)];
            if let Some(status) = test.status {
                lines.push(format!("status: {status}"));
            }
            if let Some(event) = &test.event {
                lines.push(format!("event: {event}"));
            }
            if !test.headers.is_empty() {
                let headers: Vec<String> = test
                    .headers
                    .iter()
                    .map(|(name, value)| format!("{name}: {value}"))
                    .collect();
                lines.push(format!(
                    "headers: {}",
                    shorten(&headers.join("; "), VALUE_CHARS)
                ));
            }
            if let Some(status) = test.redirect_status {
                lines.push(format!("redirect_status: {status}"));
            }
            if test.too_many_requests_unavailable {
                lines.push("too_many_requests: unavailable".to_owned());
            }
            lines
        }
        Test::Cli { input, .. } => vec![format!(
            "input: {}",
            shorten(&input.to_string(), VALUE_CHARS)
        )],
    }
}

/// A failure with everything needed to reproduce it.
pub fn failure_text(row: &Row) -> String {
    let mut out = String::new();
    let summary = match &row.outcome {
        Outcome::Fail(failure) => failure.summary(),
        _ => String::new(),
    };
    let _ = writeln!(out, "FAIL {} [{}]: {summary}", row.id, row.profile);
    if let Some(entry) = &row.listing {
        let _ = writeln!(
            out,
            "  listed on expected-differences.txt line {}: {}",
            entry.line, entry.reason
        );
    }
    if let Outcome::Fail(Failure::NowPasses { .. }) = &row.outcome {
        if let Some(case) = &row.case {
            let _ = writeln!(
                out,
                "  expected and got: {}",
                crate::run::expected_text(case)
            );
        }
    }
    let Some(case) = &row.case else {
        return out;
    };
    let _ = writeln!(
        out,
        "  {} · {} · layer {} · {}:{}",
        case.source,
        case.section,
        case.layer(),
        case.file,
        case.line
    );
    for line in input_lines(case) {
        let _ = writeln!(out, "  {line}");
    }
    if let Some(note) = &case.note {
        let _ = writeln!(out, "  note: {}", shorten(note, 4 * VALUE_CHARS));
    }
    if let Some(provenance) = &case.provenance {
        let _ = writeln!(out, "  provenance: {provenance}");
    }
    for (key, value) in &case.extra {
        let _ = writeln!(out, "  {key}: {}", shorten(&value.to_string(), VALUE_CHARS));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expected::ExpectedDifferences;
    use crate::load::parse_jsonl;
    use crate::outcome::run_with;
    use crate::run::Evaluation;

    fn report() -> Report {
        let text = [
            r#"{"id":"a/1","source":"a","section":"§1","layer":"model","profiles":["rfc9309","google"],"input":{"robots":"user-agent: *\r\ndisallow: /\n","agent":"Bot","url":"/x"},"expect":{"allowed":true},"note":"n1","semantics":"prefix"}"#,
            r#"{"id":"a/2","source":"a","section":"§2 | pipes","layer":"model","profiles":["rfc9309"],"input":{"robots":"","agent":"Bot","url":"/"},"expect":{"allowed":true}}"#,
            r#"{"id":"b/1","source":"b","section":"§1","layer":"fetch","profiles":["rfc9309"],"input":{"scheme":"http","status":500},"expect":{"access":"unreachable"},"pending":"fetch layer"}"#,
        ]
        .join("\n");
        let cases = parse_jsonl("f.jsonl", &text).unwrap();
        let expected =
            ExpectedDifferences::parse("a/1 google Google differs\nzz/9 legacy1994 gone\n")
                .unwrap();
        let rows = run_with(&cases, &expected, &Default::default(), |case, _| {
            if case.pending.is_some() {
                Evaluation::NotRun("pending".into())
            } else if case.id == "a/1" {
                Evaluation::Mismatch {
                    expected: "allowed".into(),
                    got: "disallowed".into(),
                }
            } else {
                Evaluation::Pass
            }
        });
        Report { rows }
    }

    #[test]
    fn counts_by_source_section_and_profile() {
        let report = report();
        let sources = report.by_source();
        let names: Vec<&str> = sources.iter().map(|s| s.source.as_str()).collect();
        assert_eq!(names, ["a", "b", crate::outcome::UNKNOWN_SOURCE]);
        let a = &sources[0];
        assert_eq!(
            a.total,
            Counts {
                cases: 2,
                pass: 1,
                expected: 1,
                fail: 1,
                not_run: 0
            }
        );
        assert_eq!(a.sections.len(), 2);
        assert_eq!(a.sections[0].counts.cases, 1);
        assert_eq!(a.profiles[0].0, Profile::Rfc9309);
        assert_eq!(a.profiles[0].1.cases, 2);
        assert_eq!(a.profiles[0].1.pass, 1);
        assert_eq!(a.profiles[0].1.fail, 1);
        assert_eq!(sources[1].total.not_run, 1);
        assert_eq!(sources[2].total.cases, 0);
        assert_eq!(sources[2].total.fail, 1);
        assert_eq!(report.total().cases, 3);
        assert!(!report.is_success());
        assert_eq!(report.failures().count(), 2);
    }

    #[test]
    fn text_lists_each_failure_with_its_inputs() {
        let text = report().to_text();
        assert!(text.contains("FAILURES (2)"), "{text}");
        assert!(
            text.contains("FAIL a/1 [rfc9309]: expected allowed, got disallowed"),
            "{text}"
        );
        assert!(text.contains("  | user-agent: *\\r"), "{text}");
        assert!(text.contains("agent: \"Bot\""), "{text}");
        assert!(text.contains("semantics: \"prefix\""), "{text}");
        assert!(
            text.contains("FAIL zz/9 [legacy1994]: listed as an expected difference but never ran: no case has this id"),
            "{text}"
        );
    }

    #[test]
    fn text_table_columns_are_aligned() {
        let text = report().to_text();
        let table: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("source / section"))
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(table.len() >= 5, "{text}");
        let width = table[0].chars().count();
        assert!(table.iter().all(|l| l.chars().count() == width), "{text}");
    }

    #[test]
    fn markdown_has_header_tables_and_escaped_cells() {
        let md = report().to_markdown();
        assert!(md.starts_with("<!-- Generated by `cargo xtask conformance --format markdown`"));
        assert!(
            md.contains("| a | §2 \\| pipes | 1 | 1 | 0 | 0 | 0 |"),
            "{md}"
        );
        assert!(
            md.contains("| a | 2 | 1 pass, **1 fail** | 0 pass, 1 expected difference | — |"),
            "{md}"
        );
        assert!(
            md.contains("| `a/1` | `google` | allowed | disallowed | Google differs |"),
            "{md}"
        );
        assert!(md.contains("| 1 | pending |"), "{md}");
    }

    #[test]
    fn long_values_are_cut() {
        let long = "a".repeat(VALUE_CHARS + 5);
        let shown = quoted(&long);
        assert!(shown.ends_with(&format!("… ({} characters)", VALUE_CHARS + 5)));
        assert!(
            shown.starts_with(&format!("\"{}\"…", "a".repeat(VALUE_CHARS))),
            "{shown}"
        );
        assert_eq!(quoted("a\tb"), "\"a\\tb\"");
    }

    #[test]
    fn robots_excerpt_escapes_and_truncates() {
        let mut body = b"a\tb\xff\r\n".to_vec();
        for i in 0..30 {
            body.extend_from_slice(format!("line {i}\n").as_bytes());
        }
        let shown = robots_excerpt(&body);
        assert_eq!(shown[0], "a\\tb\\xFF\\r");
        assert_eq!(shown.len(), ROBOTS_LINES_SHOWN + 1);
        assert_eq!(shown[ROBOTS_LINES_SHOWN], "… (11 more lines)");
        assert_eq!(robots_excerpt(b"x"), ["x", "(no final newline)"]);
        assert_eq!(robots_excerpt(b""), ["(empty)"]);
    }
}
