//! Writing verdicts: one line per URL, as tab-separated text or as a JSON object.
//!
//! Text: `allowed<TAB>URL` or `disallowed<TAB>URL`; with `--explain` two more columns, the
//! deciding rule's line number and the rule as written (`disallow: /private`), or `-` and the
//! reason no rule decided (`no-matching-rule`, `no-group`, `robots-txt-implicitly-allowed`).
//! A tab, CR or LF inside a field is written as `\t`, `\r`, `\n` so every line keeps its
//! columns.
//!
//! JSON: `{"url":…,"allowed":…,"profile":…}`, with `--explain` also `"explanation":{…}`, the
//! library's full [`Explanation`].
//!
//! For a fetched robots.txt (ROBOTS a URL) the JSON objects also carry `"access"` (`success`,
//! `unavailable`, `unreachable`) and, when it is not a success, `"access_reason"`. When the
//! access result decided for every URL (RFC 9309 §2.3.1.3: unavailable, allow all; §2.3.1.4:
//! unreachable, disallow all), the `--explain` text columns are `-` and
//! `robots-txt-unavailable: REASON` or `robots-txt-unreachable: REASON`.

use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};

use robotrules::fetch::{AccessKind, FetchOutcome, VerdictClass};
use robotrules::{Explanation, Profile};
use serde::Serialize;

use crate::error::CliError;

/// How results are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Text for people (each command's help says its shape).
    #[default]
    Text,
    /// JSON Lines: one object per line.
    Json,
}

/// The answer for one URL.
#[derive(Debug, Serialize)]
pub(crate) struct Verdict<'a> {
    /// The URL as given.
    pub(crate) url: &'a str,
    /// Whether the crawler may fetch it.
    pub(crate) allowed: bool,
    /// The reading applied.
    pub(crate) profile: Profile,
    /// Why, when `--explain` was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) explanation: Option<Explanation>,
    /// For a fetched robots.txt: its access result.
    #[serde(flatten)]
    pub(crate) fetched: Option<&'a Fetched>,
    /// With `--explain`, when the access result decided for every URL: the reason column.
    #[serde(skip)]
    pub(crate) blanket: Option<&'a str>,
}

/// The access result of a fetched robots.txt, as the verdicts report it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Fetched {
    /// Success, unavailable or unreachable (RFC 9309 §2.3.1).
    pub(crate) access: AccessKind,
    /// Why the file is unavailable or unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) access_reason: Option<String>,
    /// What the access result means for every URL.
    #[serde(skip)]
    pub(crate) verdict: VerdictClass,
}

impl Fetched {
    /// The access result of `outcome`.
    pub(crate) fn new(outcome: &FetchOutcome) -> Fetched {
        Fetched {
            access: outcome.access.kind(),
            access_reason: outcome.access.reason(),
            verdict: outcome.verdict_class(),
        }
    }

    /// The verdict for every URL when the access result decides alone: `Some(true)` for
    /// unavailable (allow all), `Some(false)` for unreachable (disallow all), with the
    /// `--explain` reason column; `None` for a success (the file's rules decide).
    pub(crate) fn blanket(&self) -> Option<(bool, String)> {
        let allowed = match self.verdict {
            VerdictClass::FullAllow => true,
            VerdictClass::FullDisallow => false,
            VerdictClass::Conditional => return None,
        };
        let reason = self.access_reason.as_deref().unwrap_or("no reason given");
        Some((allowed, format!("robots-txt-{}: {reason}", self.access)))
    }
}

/// Writes verdicts to `out`, one line each.
#[derive(Debug)]
pub(crate) struct Printer<W> {
    out: W,
    format: Format,
}

impl<W: Write> Printer<W> {
    /// A printer writing `format` to `out`.
    pub(crate) fn new(out: W, format: Format) -> Printer<W> {
        Printer { out, format }
    }

    /// Writes the line for `verdict`.
    ///
    /// # Errors
    /// [`CliError::OutputClosed`] when the reader has gone away (a closed pipe),
    /// [`CliError::Write`] on any other write error.
    pub(crate) fn print(&mut self, verdict: &Verdict<'_>) -> Result<(), CliError> {
        let written = match self.format {
            Format::Text => writeln!(self.out, "{}", text_line(verdict)),
            Format::Json => serde_json::to_writer(&mut self.out, verdict)
                .map_err(io::Error::from)
                .and_then(|()| self.out.write_all(b"\n")),
        };
        written.map_err(write_error)
    }

    /// Flushes what is buffered.
    ///
    /// # Errors
    /// As [`Printer::print`].
    pub(crate) fn flush(&mut self) -> Result<(), CliError> {
        self.out.flush().map_err(write_error)
    }
}

/// `value` as one line of JSON, line ending included.
///
/// # Errors
/// [`CliError::Write`] when it cannot be serialized.
pub(crate) fn json_line(value: &impl Serialize) -> Result<String, CliError> {
    serde_json::to_string(value)
        .map(|json| json + "\n")
        .map_err(|error| CliError::Write(io::Error::other(error)))
}

/// Writes all of `text` to `out` and flushes it; a closed pipe ends the writing quietly (see
/// [`closed_is_done`]).
///
/// # Errors
/// [`CliError::Write`] on any write error but a closed pipe.
pub(crate) fn write_text(mut out: impl Write, text: &str) -> Result<(), CliError> {
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    closed_is_done(written.map_err(write_error))
}

/// `written` with [`CliError::OutputClosed`] counted as done: the reader has what it wanted,
/// and the command ends with the status of what it found.
///
/// # Errors
/// Any other error in `written`.
pub(crate) fn closed_is_done(written: Result<(), CliError>) -> Result<(), CliError> {
    match written {
        Err(CliError::OutputClosed) => Ok(()),
        other => other,
    }
}

/// A closed pipe (`robotrules check … | head -1`) is the reader saying it has enough.
fn write_error(error: io::Error) -> CliError {
    if error.kind() == io::ErrorKind::BrokenPipe {
        CliError::OutputClosed
    } else {
        CliError::Write(error)
    }
}

/// The text line for `verdict`, without its line ending.
fn text_line(verdict: &Verdict<'_>) -> String {
    let status = if verdict.allowed {
        "allowed"
    } else {
        "disallowed"
    };
    let mut line = format!("{status}\t{}", field(verdict.url));
    let columns = match (&verdict.explanation, verdict.blanket) {
        (Some(explanation), _) => Some(explain_columns(explanation)),
        (None, Some(reason)) => Some(("-".to_owned(), reason.to_owned())),
        (None, None) => None,
    };
    if let Some((first, second)) = columns {
        line.push('\t');
        line.push_str(&first);
        line.push('\t');
        line.push_str(&field(&second));
    }
    line
}

/// The `--explain` columns: the deciding rule's line and the rule as written, or `-` and the
/// reason.
fn explain_columns(explanation: &Explanation) -> (String, String) {
    match &explanation.decided_by {
        Some(rule) => (
            rule.line.to_string(),
            format!("{}: {}", rule.kind, rule.pattern),
        ),
        None => ("-".to_owned(), explanation.reason.as_str().to_owned()),
    }
}

/// `text` with tab, CR and LF escaped, so it stays one column of one line.
fn field(text: &str) -> Cow<'_, str> {
    if text.contains(['\t', '\r', '\n']) {
        Cow::Owned(
            text.replace('\t', "\\t")
                .replace('\r', "\\r")
                .replace('\n', "\\n"),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// The name shown in `--> NAME:3:1`: the path, or `<stdin>`.
pub(crate) fn display_path(robots: &str) -> String {
    if robots == crate::input::STDIN {
        "<stdin>".to_owned()
    } else {
        robots.to_owned()
    }
}

/// Colours when writing to a terminal and `NO_COLOR` is not set (no-color.org).
pub(crate) fn use_color(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotrules::{ParseOptions, Robots};
    use rstest::rstest;

    const ROBOTS: &[u8] = b"user-agent: *\ndisallow: /private\nallow: /private/press\n";

    fn verdict(url: &str, explain: bool) -> Verdict<'_> {
        let robots = Robots::parse_with(ROBOTS, &ParseOptions::default());
        let rules = robots.agent("ExampleBot").unwrap();
        let explanation = rules.explain("ExampleBot", url).unwrap();
        Verdict {
            url,
            allowed: explanation.allowed,
            profile: Profile::Rfc9309,
            explanation: explain.then_some(explanation),
            fetched: None,
            blanket: None,
        }
    }

    fn printed(format: Format, verdict: &Verdict<'_>) -> String {
        let mut printer = Printer::new(Vec::new(), format);
        printer.print(verdict).unwrap();
        String::from_utf8(printer.out).unwrap()
    }

    #[rstest]
    #[case("/private/x", false, "disallowed\t/private/x\n")]
    #[case("/public", false, "allowed\t/public\n")]
    #[case("/private/x", true, "disallowed\t/private/x\t2\tdisallow: /private\n")]
    #[case(
        "/private/press/1",
        true,
        "allowed\t/private/press/1\t3\tallow: /private/press\n"
    )]
    #[case("/public", true, "allowed\t/public\t-\tno-matching-rule\n")]
    #[case(
        "/robots.txt",
        true,
        "allowed\t/robots.txt\t-\trobots-txt-implicitly-allowed\n"
    )]
    #[case("/a\tb", false, "allowed\t/a\\tb\n")]
    fn text_lines(#[case] url: &str, #[case] explain: bool, #[case] line: &str) {
        assert_eq!(printed(Format::Text, &verdict(url, explain)), line);
    }

    #[test]
    fn json_lines_carry_the_explanation_only_when_asked() {
        let plain: serde_json::Value =
            serde_json::from_str(&printed(Format::Json, &verdict("/private/x", false))).unwrap();
        assert_eq!(
            plain,
            serde_json::json!({"url": "/private/x", "allowed": false, "profile": "rfc9309"})
        );
        let line = printed(Format::Json, &verdict("/private/x", true));
        assert_eq!(line.matches('\n').count(), 1);
        let explained: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(explained["explanation"]["decided_by"]["line"], 2);
        assert_eq!(explained["explanation"]["reason"], "rule-matched");
    }

    #[test]
    fn a_fetched_file_that_decides_alone_says_so() {
        let fetched = Fetched {
            access: AccessKind::Unreachable,
            access_reason: Some("HTTP status 503".into()),
            verdict: VerdictClass::FullDisallow,
        };
        let (allowed, reason) = fetched.blanket().unwrap();
        assert!(!allowed);
        let verdict = Verdict {
            url: "/a",
            allowed,
            profile: Profile::Rfc9309,
            explanation: None,
            fetched: Some(&fetched),
            blanket: Some(&reason),
        };
        assert_eq!(
            printed(Format::Text, &verdict),
            "disallowed\t/a\t-\trobots-txt-unreachable: HTTP status 503\n"
        );
        let json: serde_json::Value =
            serde_json::from_str(&printed(Format::Json, &verdict)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"url": "/a", "allowed": false, "profile": "rfc9309",
                "access": "unreachable", "access_reason": "HTTP status 503"})
        );
        let unavailable = Fetched {
            access: AccessKind::Unavailable,
            access_reason: Some("HTTP status 404".into()),
            verdict: VerdictClass::FullAllow,
        };
        assert_eq!(
            unavailable.blanket(),
            Some((true, "robots-txt-unavailable: HTTP status 404".into()))
        );
        let success = Fetched {
            access: AccessKind::Success,
            access_reason: None,
            verdict: VerdictClass::Conditional,
        };
        assert_eq!(success.blanket(), None);
    }

    /// A writer whose every write fails with its error kind.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_text_writes_all_and_ends_quietly_only_at_a_closed_pipe() {
        let mut out = Vec::new();
        write_text(&mut out, "a\nb\n").unwrap();
        assert_eq!(out, b"a\nb\n");
        assert!(write_text(Failing(io::ErrorKind::BrokenPipe), "a").is_ok());
        assert!(matches!(
            write_text(Failing(io::ErrorKind::Other), "a"),
            Err(CliError::Write(_))
        ));
    }

    #[test]
    fn a_closed_pipe_is_not_an_error_message() {
        assert!(matches!(
            write_error(io::Error::from(io::ErrorKind::BrokenPipe)),
            CliError::OutputClosed
        ));
        assert!(matches!(
            write_error(io::Error::from(io::ErrorKind::Other)),
            CliError::Write(_)
        ));
    }
}
