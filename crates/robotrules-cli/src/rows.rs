//! The answer rows of `check` and `batch`: one line per URL, as tab-separated text or as a
//! JSON object.
//!
//! Text: `allowed<TAB>URL`, `disallowed<TAB>URL`, or `error<TAB>URL<TAB>MESSAGE` for a line
//! that is not a URL the command can answer for. With `--explain` two more columns follow a
//! verdict: the deciding rule's line number and the rule as written (`disallow: /private`),
//! or `-` and why no rule decided (`no-matching-rule`, `no-group`,
//! `robots-txt-implicitly-allowed`, or `robots-txt-unreachable: REASON` when the access result
//! decided alone). With `--only allowed` (or `disallowed`) just those URLs are written, bare,
//! for piping into a fetcher. A tab, CR or LF inside a field is written as `\t`, `\r`, `\n`, and any other control
//! or invisible character as its code point, `<U+001B>`, as lint shows it.
//!
//! JSON: `{"url", "verdict", "allowed", "profile"}`, with `"access"`, `"access_reason"` and
//! `"robots_txt_url"` for a fetched robots.txt, `"decided_by": {"line", "kind", "pattern"}`
//! and `"reason"` when the file's rules decided, `"explanation"` (the library's full
//! account) with `--explain`, and `"usage"` (the URL's AI usage preferences) in `robotrules
//! usage`'s rows; an error row is `{"url", "verdict": "error", "error", "line"}`.

use std::io::{self, Write};

use robotrules::client::{AccessKind, Answer};
use robotrules::usage::Usage;
use robotrules::{DecidingRule, Explanation, Profile, Reason};
use serde::Serialize;

use crate::error::CliError;
use crate::explain::Cut;
use crate::output::{write_error, Format};

/// Which verdicts `--only` keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Only {
    /// The allowed URLs.
    Allowed,
    /// The disallowed URLs.
    Disallowed,
}

/// What a row says about its URL: a verdict, or why there is none.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum Body<'a> {
    /// Allowed or disallowed.
    Verdict(UrlVerdict<'a>),
    /// The line is not a URL the command can answer for.
    Error {
        /// Why.
        error: String,
        /// Its line on standard input (or its position among the arguments).
        line: u64,
    },
}

/// A verdict and what it rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct UrlVerdict<'a> {
    /// May the crawler fetch the URL?
    pub(crate) allowed: bool,
    /// The reading applied.
    pub(crate) profile: Profile,
    /// For a fetched robots.txt: its access result (RFC 9309 §2.3.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) access: Option<AccessKind>,
    /// Why the fetched robots.txt is unavailable or unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) access_reason: Option<&'a str>,
    /// For a fetched robots.txt: its URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) robots_txt_url: Option<&'a str>,
    /// Why, when the file's rules decided (none when the access result decided alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<Reason>,
    /// The deciding rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decided_by: Option<DecidingRule>,
    /// The full account, with `--explain` (JSON only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) explanation: Option<Box<Explanation>>,
    /// With `--explain`, for a file the parse limit cut: where, and the matching rules past
    /// the cut (RFC 9309 §2.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) parse_limit: Option<Cut>,
    /// The URL's AI usage preferences, when the command asks for them (the library's
    /// [`robotrules::usage::Usage`], as `Decision::usage` and the client's `Answer::usage` carry it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) usage: Option<Box<Usage>>,
}

/// What the library's client answered for one URL (`batch`), held until its row's turn.
pub(crate) enum Pending {
    /// A decision, and with `--explain` its account.
    Decided(Answer, Option<Box<Explanation>>),
    /// Why there is none.
    Failed(String),
}

impl Pending {
    /// The row for `url`, line `line` of the input (or argument `line`), read under
    /// `profile`; an error row's message names the line only when `from_stdin`.
    pub(crate) fn row<'a>(
        &'a self,
        url: &'a str,
        line: u64,
        from_stdin: bool,
        profile: Profile,
    ) -> Row<'a> {
        let mut row = match self {
            Pending::Failed(error) if from_stdin => {
                Row::error(url, line, format!("line {line}: {error}"))
            }
            Pending::Failed(error) => Row::error(url, line, error.clone()),
            Pending::Decided(decision, explanation) => Row::verdict(
                url,
                UrlVerdict {
                    allowed: decision.allowed,
                    profile,
                    access: Some(decision.access),
                    access_reason: decision.access_reason.as_deref(),
                    robots_txt_url: Some(&decision.robots_txt_url),
                    reason: decision.reason(),
                    decided_by: decision.decided_by().cloned(),
                    explanation: explanation.clone(),
                    parse_limit: None,
                    usage: decision.usage.clone(),
                },
            ),
        };
        if matches!(self, Pending::Decided(..)) {
            row.line = Some(line);
        }
        row
    }
}

/// One row: a URL and what it says about it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Row<'a> {
    /// The URL as given.
    pub(crate) url: &'a str,
    /// `allowed`, `disallowed` or `error`.
    verdict: &'static str,
    /// For a verdict row of `batch`: its line on standard input (or its position among the
    /// arguments). An error row carries it in its body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<u64>,
    /// The verdict, or why there is none.
    #[serde(flatten)]
    pub(crate) body: Body<'a>,
}

impl<'a> Row<'a> {
    /// A verdict row.
    pub(crate) fn verdict(url: &'a str, verdict: UrlVerdict<'a>) -> Row<'a> {
        Row {
            url,
            verdict: if verdict.allowed {
                "allowed"
            } else {
                "disallowed"
            },
            line: None,
            body: Body::Verdict(verdict),
        }
    }

    /// An error row for line `line`.
    pub(crate) fn error(url: &'a str, line: u64, error: String) -> Row<'a> {
        Row {
            url,
            verdict: "error",
            line: None,
            body: Body::Error { error, line },
        }
    }
}

/// How rows are written, and what was written so far.
#[derive(Debug)]
pub(crate) struct Printer<W> {
    out: W,
    format: Format,
    explain: bool,
    only: Option<Only>,
    /// Whether a disallowed URL was answered.
    pub(crate) any_disallowed: bool,
    /// How many URLs were answered allowed.
    pub(crate) allowed: u64,
    /// How many URLs were answered disallowed.
    pub(crate) disallowed: u64,
    /// How many lines could not be answered.
    pub(crate) errors: u64,
}

impl<W: Write> Printer<W> {
    /// A printer writing `format` to `out`, with the `--explain` columns and the `--only`
    /// filter.
    pub(crate) fn new(out: W, format: Format, explain: bool, only: Option<Only>) -> Printer<W> {
        Printer {
            out,
            format,
            explain,
            only,
            any_disallowed: false,
            allowed: 0,
            disallowed: 0,
            errors: 0,
        }
    }

    /// Writes `row` (or nothing, when `--only` leaves it out) and counts it.
    ///
    /// # Errors
    /// [`CliError::OutputClosed`] when the reader has gone away, [`CliError::Write`] on any
    /// other write error.
    pub(crate) fn print(&mut self, row: &Row<'_>) -> Result<(), CliError> {
        match &row.body {
            Body::Verdict(v) if v.allowed => self.allowed += 1,
            Body::Verdict(_) => {
                self.any_disallowed = true;
                self.disallowed += 1;
            }
            Body::Error { .. } => self.errors += 1,
        }
        let written = match (self.format, self.only, &row.body) {
            (_, Some(only), Body::Verdict(v)) if v.allowed != (only == Only::Allowed) => Ok(()),
            (_, Some(_), Body::Error { .. }) => Ok(()),
            (Format::Json, _, _) => {
                let line = crate::output::json_line(row)?;
                self.out.write_all(line.as_bytes())
            }
            (Format::Text, Some(_), _) => write_fields(&mut self.out, &[row.url]),
            (Format::Text, None, answer) => self.text(row.url, answer),
        };
        written.map_err(write_error)
    }

    fn text(&mut self, url: &str, answer: &Body<'_>) -> io::Result<()> {
        match answer {
            Body::Error { error, .. } => write_fields(&mut self.out, &["error", url, error]),
            Body::Verdict(v) => {
                let status = if v.allowed { "allowed" } else { "disallowed" };
                if !self.explain {
                    return write_fields(&mut self.out, &[status, url]);
                }
                let (line, what) = match (&v.decided_by, v.reason, v.access) {
                    (Some(rule), _, _) => (
                        rule.line().to_string(),
                        format!("{}: {}", rule.kind(), rule.pattern()),
                    ),
                    (None, Some(reason), _) => ("-".to_owned(), reason.as_str().to_owned()),
                    (None, None, Some(access)) => (
                        "-".to_owned(),
                        format!(
                            "robots-txt-{access}: {}",
                            v.access_reason.unwrap_or("no reason given")
                        ),
                    ),
                    (None, None, None) => ("-".to_owned(), "-".to_owned()),
                };
                let what = match &v.parse_limit {
                    Some(cut) => format!("{what}; {}", cut.clause()),
                    None => what,
                };
                write_fields(&mut self.out, &[status, url, &line, &what])
            }
        }
    }

    /// Flushes what is buffered.
    ///
    /// # Errors
    /// As [`Printer::print`].
    pub(crate) fn flush(&mut self) -> Result<(), CliError> {
        self.out.flush().map_err(write_error)
    }
}

/// Writes `fields` tab-separated on one line, each with tab, CR, LF and every other invisible
/// character shown as `<U+XXXX>`: the form messages quote input in ([`robotrules_text::excerpt`]),
/// so a URL reads the same in its column and in its error message.
fn write_fields(out: &mut impl Write, fields: &[&str]) -> io::Result<()> {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.write_all(b"\t")?;
        }
        out.write_all(robotrules_text::visible(field).as_bytes())?;
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Failing;
    use rstest::rstest;

    fn verdict(allowed: bool) -> UrlVerdict<'static> {
        UrlVerdict {
            allowed,
            profile: Profile::Rfc9309,
            access: None,
            access_reason: None,
            robots_txt_url: None,
            reason: Some(Reason::RuleMatched),
            decided_by: robotrules::Robots::parse(b"user-agent: *\ndisallow: /private\n")
                .decide("ExampleBot", "/private")
                .unwrap()
                .decided_by,
            explanation: None,
            parse_limit: None,
            usage: None,
        }
    }

    fn printed(format: Format, explain: bool, only: Option<Only>, row: &Row<'_>) -> String {
        let mut printer = Printer::new(Vec::new(), format, explain, only);
        printer.print(row).unwrap();
        String::from_utf8(printer.out).unwrap()
    }

    #[rstest]
    #[case(false, None, "disallowed\t/private/x\n")]
    #[case(true, None, "disallowed\t/private/x\t2\tdisallow: /private\n")]
    #[case(false, Some(Only::Disallowed), "/private/x\n")]
    #[case(false, Some(Only::Allowed), "")]
    fn text_rows(#[case] explain: bool, #[case] only: Option<Only>, #[case] line: &str) {
        let row = Row::verdict("/private/x", verdict(false));
        assert_eq!(printed(Format::Text, explain, only, &row), line);
    }

    #[test]
    fn the_access_result_decides_alone() {
        let row = Row::verdict(
            "/a",
            UrlVerdict {
                access: Some(AccessKind::Unreachable),
                access_reason: Some("HTTP status 503"),
                reason: None,
                decided_by: None,
                ..verdict(false)
            },
        );
        assert_eq!(
            printed(Format::Text, true, None, &row),
            "disallowed\t/a\t-\trobots-txt-unreachable: HTTP status 503\n"
        );
        let json: serde_json::Value =
            serde_json::from_str(&printed(Format::Json, false, None, &row)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"url": "/a", "verdict": "disallowed", "allowed": false,
                "profile": "rfc9309", "access": "unreachable", "access_reason": "HTTP status 503"})
        );
    }

    #[test]
    fn errors_are_rows_and_counted_and_left_out_by_only() {
        let row = Row::error("a\tb", 7, "line 7: not an absolute url".into());
        assert_eq!(
            printed(Format::Text, false, None, &row),
            "error\ta<U+0009>b\tline 7: not an absolute url\n"
        );
        let json: serde_json::Value =
            serde_json::from_str(&printed(Format::Json, false, None, &row)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"url": "a\tb", "verdict": "error",
                "error": "line 7: not an absolute url", "line": 7})
        );
        let mut printer = Printer::new(Vec::new(), Format::Text, false, Some(Only::Allowed));
        printer.print(&row).unwrap();
        assert_eq!((printer.out.len(), printer.errors), (0, 1));
    }

    #[test]
    fn json_rows_carry_the_deciding_rule() {
        let row = Row::verdict("/private/x", verdict(false));
        let json: serde_json::Value =
            serde_json::from_str(&printed(Format::Json, false, None, &row)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"url": "/private/x", "verdict": "disallowed", "allowed": false,
                "profile": "rfc9309", "reason": "rule-matched",
                "decided_by": {"line": 2, "kind": "disallow", "pattern": "/private"}})
        );
    }

    #[test]
    fn a_closed_pipe_is_not_an_error_message() {
        let row = Row::verdict("/a", verdict(true));
        let mut closed = Printer::new(
            Failing(io::ErrorKind::BrokenPipe),
            Format::Text,
            false,
            None,
        );
        assert!(matches!(closed.print(&row), Err(CliError::OutputClosed)));
        let mut broken = Printer::new(Failing(io::ErrorKind::Other), Format::Text, false, None);
        assert!(matches!(broken.print(&row), Err(CliError::Write(_))));
    }
}
