//! Lint reports as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format), the
//! format code-scanning dashboards read.
//!
//! One run of the tool `robotrules`; its `rules` are every lint [`Code`] (id, description);
//! each finding is a `result` with its `ruleId`, `level` (`error`, `warning`, `note`), message
//! (with the help appended), the file's URI and a region (start and end line and column,
//! byte offset and length), and its related places as `relatedLocations`. Columns count
//! Unicode code points, as the text output does (`columnKind: unicodeCodePoints`).

use serde_json::{json, Value};

use crate::code::Code;
use crate::finding::{Finding, LintReport};
use crate::source;

/// The SARIF version written.
pub const VERSION: &str = "2.1.0";

/// The JSON schema of SARIF 2.1.0 (OASIS, errata 01).
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// One linted file: the URI it is shown under, its bytes (for end lines and columns) and its
/// report.
#[derive(Clone, Copy, Debug)]
pub struct File<'a> {
    /// The file's URI or path, as given.
    pub uri: &'a str,
    /// The bytes linted.
    pub source: &'a [u8],
    /// The report.
    pub report: &'a LintReport,
}

/// The SARIF log of `files`, one run.
pub fn log(files: &[File<'_>], tool_version: &str) -> Value {
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|code| {
            json!({
                "id": code.as_str(),
                "name": code.as_str(),
                "shortDescription": { "text": code.description() },
                "properties": { "family": code.family() },
            })
        })
        .collect();
    let results: Vec<Value> = files
        .iter()
        .flat_map(|file| {
            file.report
                .findings
                .iter()
                .map(move |lint| result(file, lint))
        })
        .collect();
    let artifacts: Vec<Value> = files
        .iter()
        .map(|file| json!({ "location": { "uri": file.uri }, "length": file.source.len() }))
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": VERSION,
        "runs": [{
            "tool": {
                "driver": {
                    "name": "robotrules",
                    "version": tool_version,
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "artifacts": artifacts,
            "results": results,
        }]
    })
}

fn result(file: &File<'_>, lint: &Finding) -> Value {
    let rule_index = Code::ALL.iter().position(|&c| c == lint.code);
    let message = match &lint.help {
        Some(help) => format!("{}\n\nhelp: {help}", lint.message),
        None => lint.message.clone(),
    };
    let related: Vec<Value> = lint
        .related
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut location = location(file, r.span, r.line, r.column);
            location["id"] = json!(i);
            location["message"] = json!({ "text": r.label });
            location
        })
        .collect();
    let mut out = json!({
        "ruleId": lint.code.as_str(),
        "ruleIndex": rule_index,
        "level": lint.severity.as_str(),
        "message": { "text": message },
        "locations": [location(file, lint.span, lint.line, lint.column)],
        "properties": { "profiles": lint.profiles },
    });
    if !related.is_empty() {
        out["relatedLocations"] = Value::Array(related);
    }
    out
}

fn location(file: &File<'_>, span: robotrules_model::Span, line: u32, column: u32) -> Value {
    // The region ends on the span's start line (a span never crosses a line in lint output
    // except a line terminator, which is not shown).
    let end = span
        .end
        .min(source::line_end(file.source, span.start))
        .max(span.start);
    let end_column = source::column(file.source, end).max(column);
    json!({
        "physicalLocation": {
            "artifactLocation": { "uri": file.uri },
            "region": {
                "startLine": line,
                "startColumn": column,
                "endLine": line,
                "endColumn": end_column,
                "byteOffset": span.start,
                "byteLength": span.end - span.start,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{lint, LintOptions};

    #[test]
    fn the_log_has_the_required_shape() {
        let source = b"user-agent: *\ndissallow: /x\ndisallow: /\xC3\xA9\n";
        let report = lint(source, &LintOptions::default());
        let log = log(
            &[File {
                uri: "robots.txt",
                source,
                report: &report,
            }],
            "9.9.9",
        );
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["$schema"], SCHEMA);
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "robotrules");
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        assert_eq!(rules.len(), Code::ALL.len());
        assert!(rules.iter().all(|r| r["id"].is_string()
            && r["shortDescription"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty())));
        let results = run["results"].as_array().expect("results");
        assert_eq!(results.len(), report.findings.len());
        for r in results {
            let index = r["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(rules[index]["id"], r["ruleId"]);
            assert!(matches!(
                r["level"].as_str(),
                Some("error" | "warning" | "note")
            ));
            assert!(r["message"]["text"].as_str().is_some_and(|t| !t.is_empty()));
            let region = &r["locations"][0]["physicalLocation"]["region"];
            assert_eq!(
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                "robots.txt"
            );
            assert!(region["startLine"].as_u64() >= Some(1));
            assert!(region["startColumn"].as_u64() >= Some(1));
            assert!(region["endColumn"].as_u64() >= region["startColumn"].as_u64());
        }
        let misspelt = results
            .iter()
            .find(|r| r["ruleId"] == "misspelt-key")
            .expect("misspelt-key");
        let region = &misspelt["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            (region["startLine"].as_u64(), region["startColumn"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(region["endColumn"].as_u64(), Some(10));
    }
}
