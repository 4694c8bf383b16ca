//! Reporting results: a table by source and section (cases, pass, expected difference, fail,
//! not run), a summary by source and profile, then each failure with its inputs. Plain text
//! with aligned columns for the terminal, Markdown for `docs/conformance.md`.

use std::collections::HashSet;
use std::fmt::{self, Write as _};

use indexmap::IndexMap;
use robotrules::Profile;
use robotrules_text::excerpt;

use crate::case::Layer;
use crate::outcome::{Failure, Outcome, Row};

/// How many robots.txt lines a failure shows before cutting.
const ROBOTS_LINES_SHOWN: usize = 20;
/// How many characters of a robots.txt line, an input or another value a failure shows.
const VALUE_CHARS: usize = 200;
/// The widest section name the text table shows before cutting.
const SECTION_CHARS: usize = 64;

/// The command that regenerates `docs/conformance.md`.
pub const MARKDOWN_COMMAND: &str = "cargo xtask conformance --format markdown";

/// The results of a run, ready to print.
#[derive(Clone, Debug)]
pub struct Report {
    /// Every row, in run order.
    pub rows: Vec<Row>,
}

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
    /// All pairs counted.
    pub fn runs(&self) -> usize {
        self.pass + self.expected + self.fail + self.not_run
    }
}

/// A group of rows the report counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group<'a> {
    /// Every row.
    Total,
    /// The rows of one source.
    Source(&'a str),
    /// The rows of one section of a source.
    Section(&'a str, &'a str),
    /// The rows of one profile in a source.
    Profile(&'a str, Profile),
}

/// The counts of every group, in the order the groups first appear among the rows.
#[derive(Clone, Debug, Default)]
pub struct Tally<'a>(IndexMap<Group<'a>, Counts>);

impl<'a> Tally<'a> {
    /// Counts `rows`; a case counts once in each group it has rows in.
    pub fn new(rows: &'a [Row]) -> Tally<'a> {
        let mut groups: IndexMap<Group<'a>, Counts> = IndexMap::new();
        let mut cases = HashSet::new();
        for row in rows {
            let source = row.source();
            for group in [
                Group::Total,
                Group::Source(source),
                Group::Section(source, row.section()),
                Group::Profile(source, row.profile),
            ] {
                let counts = groups.entry(group).or_default();
                match row.outcome {
                    Outcome::Pass => counts.pass += 1,
                    Outcome::ExpectedDifference { .. } => counts.expected += 1,
                    Outcome::Fail(_) => counts.fail += 1,
                    Outcome::NotRun(_) => counts.not_run += 1,
                }
                if row.case.is_some() && cases.insert((group, row.id.as_str())) {
                    counts.cases += 1;
                }
            }
        }
        Tally(groups)
    }

    /// The counts of `group` (all zero when it has no rows).
    pub fn get(&self, group: Group<'a>) -> Counts {
        self.0.get(&group).copied().unwrap_or_default()
    }

    /// The sources, in order of first appearance.
    pub fn sources(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.0.keys().filter_map(|group| match group {
            Group::Source(source) => Some(*source),
            _ => None,
        })
    }

    /// The sections of `source` with their counts, in order of first appearance.
    pub fn sections<'s>(&'s self, source: &'s str) -> impl Iterator<Item = (&'a str, Counts)> + 's {
        self.0
            .iter()
            .filter_map(move |(group, counts)| match group {
                Group::Section(of, section) if *of == source => Some((*section, *counts)),
                _ => None,
            })
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

    /// The rows of `usage` cases (AI usage preferences), reported in a section of their own.
    pub fn usage_rows(&self) -> Vec<Row> {
        self.rows
            .iter()
            .filter(|row| row.case.as_ref().is_some_and(|c| c.layer() == Layer::Usage))
            .cloned()
            .collect()
    }

    /// The drafts the `usage` cases cite, in order of first appearance: each section's text
    /// before ` §` (`draft-ietf-aipref-attach-05`).
    pub fn usage_drafts(rows: &[Row]) -> Vec<&str> {
        let mut drafts: Vec<&str> = Vec::new();
        for row in rows {
            let draft = row.section().split(" §").next().unwrap_or_default();
            if !drafts.contains(&draft) {
                drafts.push(draft);
            }
        }
        drafts
    }

    /// Counts by source, section and profile.
    pub fn tally(&self) -> Tally<'_> {
        Tally::new(&self.rows)
    }

    /// Counts over every row.
    pub fn total(&self) -> Counts {
        self.tally().get(Group::Total)
    }

    /// The plain-text report: summary, table by source and section, table by source and
    /// profile, then each failure with its inputs.
    pub fn to_text(&self) -> String {
        Show(|f: &mut fmt::Formatter<'_>| self.write_text(f)).to_string()
    }

    /// The Markdown report written to `docs/conformance.md`.
    pub fn to_markdown(&self) -> String {
        Show(|f: &mut fmt::Formatter<'_>| self.write_markdown(f)).to_string()
    }

    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tally = self.tally();
        let total = tally.get(Group::Total);
        writeln!(f, "robotrules conformance: {}\n", summary(&total))?;
        let header = "source / section|cases|pass|expected diff|fail|not run".split('|');
        let mut sections = Table::new("lrrrrr", header);
        for source in tally.sources() {
            sections.push(count_cells(
                source.to_owned(),
                &tally.get(Group::Source(source)),
            ));
            for (section, counts) in tally.sections(source) {
                let label = format!("  {}", excerpt(section, SECTION_CHARS));
                sections.push(count_cells(label, &counts));
            }
        }
        sections.push(count_cells("total".to_owned(), &total));
        sections.write_text(f)?;
        writeln!(
            f,
            "\nby profile (pass/expected diff/fail/not run; - when the profile ran nothing):"
        )?;
        let header = ["source".to_owned(), "cases".to_owned()];
        let mut profiles = Table::new("lrrrr", header.into_iter().chain(profile_names("")));
        for source in tally.sources() {
            let mut cells = vec![
                source.to_owned(),
                tally.get(Group::Source(source)).cases.to_string(),
            ];
            cells.extend(Profile::ALL.map(|profile| {
                let c = tally.get(Group::Profile(source, profile));
                if c.runs() == 0 {
                    "-".to_owned()
                } else {
                    format!("{}/{}/{}/{}", c.pass, c.expected, c.fail, c.not_run)
                }
            }));
            profiles.push(cells);
        }
        profiles.write_text(f)?;
        let usage = self.usage_rows();
        if !usage.is_empty() {
            let tally = Tally::new(&usage);
            writeln!(
                f,
                "\nAI usage preferences ({}): {}",
                Report::usage_drafts(&usage).join(", "),
                summary(&tally.get(Group::Total))
            )?;
            let header = "section|cases|pass|expected diff|fail|not run".split('|');
            let mut sections = Table::new("lrrrrr", header);
            for source in tally.sources() {
                for (section, counts) in tally.sections(source) {
                    sections.push(count_cells(excerpt(section, SECTION_CHARS), &counts));
                }
            }
            sections.write_text(f)?;
        }
        let failures: Vec<&Row> = self.failures().collect();
        if failures.is_empty() {
            return writeln!(f, "\nno failures");
        }
        writeln!(f, "\nFAILURES ({})", failures.len())?;
        for row in failures {
            writeln!(f)?;
            write_failure(f, row)?;
        }
        Ok(())
    }

    fn write_markdown(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tally = self.tally();
        writeln!(
            f,
            "<!-- Generated by `{MARKDOWN_COMMAND}`; do not edit by hand, run it again. -->\n\
             # Conformance\n\n\
             Generated by `{MARKDOWN_COMMAND}` from the corpus in `conformance/` \
             (see `conformance/README.md`). Each case runs in every profile it lists; the \
             counts after *cases* are (case, profile) runs. An *expected difference* is a run \
             whose result differs from the case's expectation as \
             `conformance/expected-differences.txt` says it must, with the reason given there.\n\n\
             **Total**: {}.\n\n\
             ## By source and profile\n",
            summary(&tally.get(Group::Total))
        )?;
        let header = ["source".to_owned(), "cases".to_owned()];
        let mut profiles = Table::new("lrlll", header.into_iter().chain(profile_names("`")));
        for source in tally.sources() {
            let mut cells = vec![
                md_cell(source),
                tally.get(Group::Source(source)).cases.to_string(),
            ];
            cells.extend(Profile::ALL.map(|p| profile_cell(&tally.get(Group::Profile(source, p)))));
            profiles.push(cells);
        }
        profiles.write_markdown(f)?;

        writeln!(f, "\n## By source and section\n")?;
        let header = "source|section|cases|pass|expected difference|fail|not run".split('|');
        let mut sections = Table::new("llrrrrr", header);
        for source in tally.sources() {
            for (section, counts) in tally.sections(source) {
                let mut cells = count_cells(md_cell(source), &counts);
                cells.insert(1, md_cell(section));
                sections.push(cells);
            }
        }
        sections.write_markdown(f)?;

        let usage = self.usage_rows();
        if !usage.is_empty() {
            let tally = Tally::new(&usage);
            let drafts: Vec<String> = Report::usage_drafts(&usage)
                .into_iter()
                .map(|d| format!("`{}`", md_cell(d)))
                .collect();
            writeln!(
                f,
                "\n## AI usage preferences\n\n\
                 The `usage` cases (`Crawler::usage`: `Content-Usage`, `Content-Signal` and the \
                 HTTP `Content-Usage` header), by the section of the draft each cites: {}. \
                 {}.\n",
                drafts.join(", "),
                summary(&tally.get(Group::Total))
            )?;
            let header = "draft section|cases|pass|expected difference|fail|not run".split('|');
            let mut sections = Table::new("lrrrrr", header);
            for source in tally.sources() {
                for (section, counts) in tally.sections(source) {
                    sections.push(count_cells(md_cell(section), &counts));
                }
            }
            sections.write_markdown(f)?;
        }

        writeln!(f, "\n## Expected differences\n")?;
        let mut none = true;
        for source in tally.sources() {
            let mut differences =
                Table::new("lllll", ["case", "profile", "expected", "got", "reason"]);
            for row in self.rows.iter().filter(|row| row.source() == source) {
                if let Outcome::ExpectedDifference {
                    reason,
                    expected,
                    got,
                } = &row.outcome
                {
                    differences.push(vec![
                        format!("`{}`", md_cell(&row.id)),
                        format!("`{}`", row.profile),
                        md_cell(expected),
                        md_cell(got),
                        md_cell(reason),
                    ]);
                }
            }
            let count = differences.rows.len() - 1;
            if count > 0 {
                none = false;
                writeln!(
                    f,
                    "<details><summary>{source}: {count} expected differences</summary>\n"
                )?;
                differences.write_markdown(f)?;
                writeln!(f, "\n</details>\n")?;
            }
        }
        if none {
            writeln!(f, "None.\n")?;
        }

        writeln!(f, "## Not run\n")?;
        let mut not_run: IndexMap<&str, usize> = IndexMap::new();
        for row in &self.rows {
            if let Outcome::NotRun(why) = &row.outcome {
                *not_run.entry(why.as_str()).or_default() += 1;
            }
        }
        if not_run.is_empty() {
            writeln!(f, "None.")?;
        } else {
            let mut table = Table::new("rl", ["runs", "why"]);
            for (why, runs) in not_run {
                table.push(vec![runs.to_string(), md_cell(why)]);
            }
            table.write_markdown(f)?;
        }

        writeln!(f, "\n## Failures\n")?;
        let failures: Vec<&Row> = self.failures().collect();
        if failures.is_empty() {
            return writeln!(f, "None.");
        }
        for row in failures {
            let text = failure_text(row).replace("```", "`\u{200b}``");
            writeln!(f, "```text\n{text}```\n")?;
        }
        Ok(())
    }
}

/// Writes what a closure writes: `Show(|f| ...).to_string()`.
struct Show<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Show<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

/// A table: a header row, then rows of cells; `align` has an `l` (left) or `r` (right) per
/// column.
struct Table {
    align: &'static str,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new<S: ToString>(align: &'static str, header: impl IntoIterator<Item = S>) -> Table {
        let header = header.into_iter().map(|cell| cell.to_string()).collect();
        Table {
            align,
            rows: vec![header],
        }
    }

    fn push(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Columns padded to their widest cell, two spaces apart.
    fn write_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let widths: Vec<usize> = (0..self.align.len())
            .map(|column| {
                let cells = self.rows.iter().filter_map(|row| row.get(column));
                cells.map(|cell| cell.chars().count()).max().unwrap_or(0)
            })
            .collect();
        for row in &self.rows {
            let mut line = String::new();
            for (column, (cell, align)) in row.iter().zip(self.align.chars()).enumerate() {
                let (width, gap) = (widths[column], if column == 0 { "" } else { "  " });
                match align {
                    'r' => write!(line, "{gap}{cell:>width$}")?,
                    _ => write!(line, "{gap}{cell:<width$}")?,
                }
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }

    /// A Markdown table (cells are written as they are: escape them with [`md_cell`]).
    fn write_markdown(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, row) in self.rows.iter().enumerate() {
            writeln!(f, "| {} |", row.join(" | "))?;
            if index == 0 {
                let rule = self
                    .align
                    .chars()
                    .map(|a| if a == 'r' { " ---: |" } else { " --- |" });
                writeln!(f, "|{}", rule.collect::<String>())?;
            }
        }
        Ok(())
    }
}

/// The profiles' names, each between `quote`s.
fn profile_names(quote: &str) -> impl Iterator<Item = String> + '_ {
    Profile::ALL
        .into_iter()
        .map(move |p| format!("{quote}{p}{quote}"))
}

/// `N cases, M runs: P pass, D expected difference, F fail, R not run`.
fn summary(c: &Counts) -> String {
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
    let counts = [c.cases, c.pass, c.expected, c.fail, c.not_run];
    std::iter::once(label)
        .chain(counts.map(|n| n.to_string()))
        .collect()
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
            out.push_str(&format!("\\x{byte:02X}"));
        }
    }
    out
}

/// The robots.txt body as display lines (split at LF; CR shown as `\r`), cut to
/// `ROBOTS_LINES_SHOWN` lines of at most `VALUE_CHARS` characters.
pub fn robots_excerpt(bytes: &[u8]) -> Vec<String> {
    if bytes.is_empty() {
        return vec!["(empty)".to_owned()];
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let lines: Vec<&[u8]> = body.split(|b| *b == b'\n').collect();
    let mut shown: Vec<String> = lines
        .iter()
        .take(ROBOTS_LINES_SHOWN)
        .map(|line| excerpt(&escape_line(line), VALUE_CHARS))
        .collect();
    if lines.len() > ROBOTS_LINES_SHOWN {
        let more = lines.len() - ROBOTS_LINES_SHOWN;
        shown.push(format!("… ({more} more lines)"));
    }
    if !bytes.ends_with(b"\n") {
        shown.push("(no final newline)".to_owned());
    }
    shown
}

/// A failure with everything needed to reproduce it.
pub fn failure_text(row: &Row) -> String {
    Show(|f: &mut fmt::Formatter<'_>| write_failure(f, row)).to_string()
}

fn write_failure(f: &mut fmt::Formatter<'_>, row: &Row) -> fmt::Result {
    let summary = match &row.outcome {
        Outcome::Fail(failure) => failure.summary(),
        _ => String::new(),
    };
    writeln!(f, "FAIL {} [{}]: {summary}", row.id, row.profile)?;
    if let Some(entry) = &row.listing {
        let (line, reason) = (entry.line, &entry.reason);
        writeln!(
            f,
            "  listed on expected-differences.txt line {line}: {reason}"
        )?;
    }
    let Some(case) = &row.case else {
        return Ok(());
    };
    if let Outcome::Fail(Failure::NowPasses { .. }) = &row.outcome {
        let expected = crate::run::expected_text(case);
        writeln!(f, "  expected and got: {expected}")?;
    }
    let (source, section, layer) = (&case.source, &case.section, case.layer());
    writeln!(
        f,
        "  {source} · {section} · layer {layer} · {}:{}",
        case.file, case.line
    )?;
    if let Some(body) = case.test.body() {
        writeln!(f, "  robots:")?;
        for line in robots_excerpt(body) {
            writeln!(f, "    | {line}")?;
        }
    }
    let input = case.test.input_json();
    let fields = input.as_object().into_iter().flatten();
    for (key, value) in fields.filter(|(key, value)| !key.starts_with("robots") && !value.is_null())
    {
        writeln!(f, "  {key}: {}", excerpt(&value.to_string(), VALUE_CHARS))?;
    }
    for (key, text) in [("note", &case.note), ("provenance", &case.provenance)] {
        if let Some(text) = text {
            writeln!(f, "  {key}: {}", excerpt(text, 4 * VALUE_CHARS))?;
        }
    }
    for (key, value) in &case.extra {
        writeln!(f, "  {key}: {}", excerpt(&value.to_string(), VALUE_CHARS))?;
    }
    Ok(())
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

    /// `usage` cases get a section of their own, naming the drafts their sections cite; a
    /// report without them has none.
    #[test]
    fn usage_cases_are_reported_with_their_drafts() {
        assert!(!report().to_markdown().contains("AI usage preferences"));
        let text = [
            r#"{"id":"u/1","source":"aipref","section":"draft-x-01 §3.1","layer":"usage","profiles":["rfc9309"],"input":{"robots":"","agent":"Bot","url":"/"},"expect":{"crawlable":true}}"#,
            r#"{"id":"u/2","source":"aipref","section":"draft-y-07 §5.1","layer":"usage","profiles":["rfc9309","google"],"input":{"robots":"","agent":"Bot","url":"/"},"expect":{"crawlable":true}}"#,
            r#"{"id":"u/3","source":"aipref","section":"draft-x-01 §2","layer":"usage","profiles":["rfc9309"],"input":{"robots":"","agent":"Bot","url":"/"},"expect":{"crawlable":true}}"#,
        ]
        .join("\n");
        let cases = parse_jsonl("f.jsonl", &text).unwrap();
        let rows = run_with(&cases, &Default::default(), &Default::default(), |_, _| {
            Evaluation::Pass
        });
        let report = Report { rows };
        assert_eq!(
            Report::usage_drafts(&report.usage_rows()),
            ["draft-x-01", "draft-y-07"]
        );
        let markdown = report.to_markdown();
        assert!(markdown.contains("\n## AI usage preferences\n"));
        assert!(markdown.contains("`draft-x-01`, `draft-y-07`"));
        assert!(markdown.contains("| draft-y-07 §5.1 | 1 | 2 | 0 | 0 | 0 |"));
        assert!(report
            .to_text()
            .contains("AI usage preferences (draft-x-01, draft-y-07): 3 cases, 4 runs"));
    }

    #[test]
    fn counts_by_source_section_and_profile() {
        let report = report();
        let tally = report.tally();
        let sources: Vec<&str> = tally.sources().collect();
        assert_eq!(sources, ["a", "b", crate::outcome::UNKNOWN_SOURCE]);
        let counts = |cases, pass, expected, fail, not_run| Counts {
            cases,
            pass,
            expected,
            fail,
            not_run,
        };
        assert_eq!(tally.get(Group::Source("a")), counts(2, 1, 1, 1, 0));
        let sections: Vec<_> = tally.sections("a").collect();
        assert_eq!(
            sections,
            [
                ("§1", counts(1, 0, 1, 1, 0)),
                ("§2 | pipes", counts(1, 1, 0, 0, 0))
            ]
        );
        let rfc = tally.get(Group::Profile("a", Profile::Rfc9309));
        assert_eq!(rfc, counts(2, 1, 0, 1, 0));
        assert_eq!(
            tally.get(Group::Profile("a", Profile::Legacy1994)),
            Counts::default()
        );
        assert_eq!(tally.get(Group::Source("b")), counts(1, 0, 0, 0, 1));
        let unknown = tally.get(Group::Source(crate::outcome::UNKNOWN_SOURCE));
        assert_eq!(
            unknown,
            counts(0, 0, 0, 1, 0),
            "a listing of an unknown id is no case"
        );
        assert_eq!(report.total(), counts(3, 1, 1, 2, 1));
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
        assert!(
            text.contains("  a · §1 · layer model · f.jsonl:1\n"),
            "{text}"
        );
        assert!(
            text.contains("    | user-agent: *\\r\n    | disallow: /\n"),
            "{text}"
        );
        assert!(text.contains("  agent: \"Bot\"\n  url: \"/x\"\n"), "{text}");
        assert!(
            text.contains("  note: n1\n  semantics: \"prefix\"\n"),
            "{text}"
        );
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
        assert!(table.contains(
            &"  §2 | pipes                         1     1              0     0        0"
        ));
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
        assert!(md.contains("```text\nFAIL a/1 [rfc9309]"), "{md}");
    }

    #[test]
    fn long_values_are_cut() {
        let long = "a".repeat(VALUE_CHARS + 5);
        let shown = excerpt(&long, VALUE_CHARS);
        assert_eq!(shown.chars().count(), VALUE_CHARS + 1);
        assert!(shown.ends_with("a…"), "{shown}");
        assert_eq!(excerpt("a\tb", 3), "a<U+0009>b");
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
