//! The structured answers as the JSON text the JavaScript wrapper parses: the same objects
//! the CLI's `--format json` prints (a verdict's `allowed`, `profile`, `reason`, `decided_by`;
//! the library's explanation; lint findings), which the wrapper hands out with camelCase keys.

use robotrules::usage::Usage;
use robotrules::{Decision, Diagnostic, Explanation, Extension, LintReport, Profile};
use robotrules_tester_api::check::Verdict;
use robotrules_tester_api::show::Statement;
use serde::Serialize;

/// An extension record: `{"key", "value", "line"}`, the key lower-cased, the value as written.
#[derive(Serialize)]
struct Record {
    key: String,
    value: String,
    line: u32,
}

/// The text of `value` (serialising these plain structures cannot fail; `null` if it did).
fn text(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

/// `decision`, reached under `profile`, as the CLI's JSON rows and the tester's verdicts give
/// it, without the row's URL: `{"allowed", "profile", "reason", "decided_by": {"line", "kind",
/// "pattern"}, "usage"}`, `decided_by` left out when no rule decided, `usage` when not asked
/// for.
pub(crate) fn verdict(decision: Decision, profile: Profile) -> String {
    text(&Verdict::of(decision, profile))
}

/// What a profile reads of a crawler name: `{"name", "reads", "token", "message"}`.
pub(crate) fn name_reading(reading: &robotrules::NameReading) -> String {
    text(reading)
}

/// A URL's AI usage preferences, as `robotrules usage --format json` gives them.
pub(crate) fn usage(usage: &Usage) -> String {
    text(usage)
}

/// A crawler's usage statements, as `show` lists them.
pub(crate) fn statements(statements: &[Statement]) -> String {
    text(&statements)
}

/// A file-wide record: `{"line", "value"}`.
#[derive(Serialize)]
struct Line<'a> {
    line: u32,
    value: &'a str,
}

/// File-wide records with their lines, in file order.
pub(crate) fn lines<'a>(records: impl Iterator<Item = (u32, &'a str)>) -> String {
    let records: Vec<Line<'_>> = records.map(|(line, value)| Line { line, value }).collect();
    text(&records)
}

/// The library's explanation, as the CLI's `--explain` prints it.
pub(crate) fn explanation(explanation: &Explanation) -> String {
    text(explanation)
}

/// The parser's diagnostics, in file order: the facade's one record each (`{"code",
/// "severity", "line", "start", "end", "message"}`).
pub(crate) fn diagnostics(diagnostics: &[Diagnostic]) -> String {
    text(&diagnostics)
}

/// Extension records, in file order.
pub(crate) fn extensions(records: Vec<Extension>) -> String {
    let records: Vec<Record> = records
        .into_iter()
        .map(|e| Record {
            key: e.key.to_ascii_lowercase(),
            value: e.value,
            line: e.line,
        })
        .collect();
    text(&records)
}

/// A lint report, as `robotrules lint --format json` gives its findings.
pub(crate) fn lint(report: &LintReport) -> String {
    text(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_verdict_is_the_cli_row_without_its_url() {
        let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /private\n");
        let decision = robots.decide("bot", "/private/x").unwrap();
        assert_eq!(
            parsed(&verdict(decision, robots.profile())),
            json!({"allowed": false, "profile": "rfc9309", "reason": "rule-matched",
                "decided_by": {"line": 2, "kind": "disallow", "pattern": "/private"}})
        );
        let decision = robots.decide("bot", "/public").unwrap();
        assert_eq!(
            parsed(&verdict(decision, robots.profile())),
            json!({"allowed": true, "profile": "rfc9309", "reason": "no-matching-rule"})
        );
    }

    #[test]
    fn diagnostics_and_records_carry_lines_and_spans() {
        let robots = robotrules::Robots::parse(b"user-agent: *\ndissallow: /y\nhost: a.example\n");
        assert_eq!(
            parsed(&diagnostics(robots.diagnostics()))[0],
            json!({"code": "misspelt-key", "severity": "error", "line": 2, "start": 14,
                "end": 23, "message": robots.diagnostics()[0].to_string()})
        );
        assert_eq!(
            parsed(&extensions(robots.file_extensions())),
            json!([{"key": "host", "value": "a.example", "line": 3}])
        );
    }

    #[test]
    fn explanations_and_lint_reports_are_the_library_s_json() {
        let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /a\nallow: /a/b\n");
        let why = robots.explain("bot", "/a/b").unwrap();
        let shown = parsed(&explanation(&why));
        assert_eq!(shown["allowed"], json!(true));
        assert_eq!(shown["decided_by"]["line"], json!(3));
        let report = robotrules::lint(b"user-agent: *\ndissallow: /x\n", &Default::default());
        assert_eq!(
            parsed(&lint(&report))["findings"][0]["code"],
            json!("misspelt-key")
        );
    }
}
