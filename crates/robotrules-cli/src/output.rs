//! Writing a command's report: the output format, whole-report writing that ends quietly at a
//! closed pipe, and where the report goes. The per-URL rows of `check` and `batch` are
//! [`crate::rows`].

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};

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

/// What text output adds after a crawler name: ` (a crawler that no group names)` after `*`
/// ([`robotrules::any_crawler_label`], what the `*` group gives), nothing after any other.
pub(crate) fn agent_note(name: &str) -> String {
    robotrules::any_crawler_label(name)
        .map(|label| format!(" ({label})"))
        .unwrap_or_default()
}

/// `value` as one line of JSON, line ending included, [terminal-safe](json_safe).
///
/// # Errors
/// [`CliError::Write`] when it cannot be serialized.
pub(crate) fn json_line(value: &impl Serialize) -> Result<String, CliError> {
    serde_json::to_string(value)
        .map(|json| json_safe(&json).into_owned() + "\n")
        .map_err(|error| CliError::Write(io::Error::other(error)))
}

/// JSON text with every [invisible](robotrules_text::is_invisible) character but LF and tab
/// (whitespace between values) written as a `\uXXXX` escape (a surrogate pair above U+FFFF). `serde_json` escapes C0 controls
/// but writes DEL, C1 controls (`U+009B` is a CSI to many terminals) and bidi overrides raw;
/// escaped, the line is terminal-safe and its values are exactly the data. `serde_json` writes
/// no other control character outside strings, so every such character is inside a string,
/// where the escape means the same character.
pub(crate) fn json_safe(json: &str) -> Cow<'_, str> {
    let escape = |c: char| robotrules_text::is_invisible(c) && c != '\n' && c != '\t';
    if !json.chars().any(escape) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if escape(c) {
            let mut units = [0_u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Writes all of `text` to `out` and flushes it; a closed pipe ends the writing quietly (see
/// [`closed_is_done`]). Every control or other invisible character but LF and tab is written
/// escaped, `<U+001B>` ([`robotrules_text::visible_lines`]), whatever the report quoted.
///
/// # Errors
/// [`CliError::Write`] on any write error but a closed pipe.
pub(crate) fn write_text(out: impl Write, text: &str) -> Result<(), CliError> {
    write_text_raw(out, &robotrules_text::visible_lines(text))
}

/// [`write_text`] for a report the renderer coloured (`colored`: it was asked to, with
/// [`use_color`]): the renderer's SGR colour sequences (`ESC [ … m`) pass, everything else is
/// escaped as [`write_text`] does. The renderers escape what they quote from the input, so no
/// raw escape sequence of the input's reaches this far.
///
/// # Errors
/// As [`write_text`].
pub(crate) fn write_styled(out: impl Write, text: &str, colored: bool) -> Result<(), CliError> {
    if !colored {
        return write_text(out, text);
    }
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        kept.push_str(&robotrules_text::visible_lines(&rest[..at]));
        let after = &rest[at + 1..];
        let sgr = after.strip_prefix('[').and_then(|params| {
            let end = params.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            (params[end..].starts_with('m')).then_some(1 + end + 1)
        });
        match sgr {
            Some(len) => {
                kept.push_str(&rest[at..at + 1 + len]);
                rest = &after[len..];
            }
            None => {
                kept.push_str(&robotrules_text::visible_lines("\x1b"));
                rest = after;
            }
        }
    }
    kept.push_str(&robotrules_text::visible_lines(rest));
    write_text_raw(out, &kept)
}

/// Write `text` as it is (already made safe) and flush.
fn write_text_raw(mut out: impl Write, text: &str) -> Result<(), CliError> {
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    closed_is_done(written.map_err(write_error))
}

/// A closed pipe (`robotrules check … | head -1`) is the reader saying it has enough.
pub(crate) fn write_error(error: io::Error) -> CliError {
    if error.kind() == io::ErrorKind::BrokenPipe {
        CliError::OutputClosed
    } else {
        CliError::Write(error)
    }
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

/// The name shown in `--> NAME:3:1`: the path, or `<stdin>`.
pub(crate) fn display_path(robots: &str) -> String {
    if robots == crate::input::STDIN {
        "<stdin>".to_owned()
    } else {
        robots.to_owned()
    }
}

/// Whether to colour `stream`, as `--color` says (`auto`: a terminal, and `NO_COLOR` unset or
/// empty, no-color.org).
pub(crate) fn use_color(stream: &impl IsTerminal) -> bool {
    crate::args::ColorChoice::current().colors(
        stream.is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    )
}

/// A writer whose every write fails with its error kind, for the tests of writing.
#[cfg(test)]
pub(crate) struct Failing(pub(crate) io::ErrorKind);

#[cfg(test)]
impl Write for Failing {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from(self.0))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_escape_what_serde_leaves_raw_and_keep_the_values() {
        let value = serde_json::json!({ "url": "/\x1b[31m\u{9b}\u{202E}\x7f\u{E0001}\t" });
        let line = json_line(&value).unwrap();
        assert_eq!(
            line,
            "{\"url\":\"/\\u001b[31m\\u009b\\u202e\\u007f\\udb40\\udc01\\t\"}\n"
        );
        assert!(!line.trim_end().chars().any(robotrules_text::is_invisible));
        let back: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(back, value);
        assert!(matches!(json_safe("{\"a\": 1}\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn write_text_escapes_controls_but_line_feed_and_tab() {
        let mut out = Vec::new();
        write_text(&mut out, "a\tb\x1b]0;x\x07\r\n").unwrap();
        assert_eq!(out, b"a\tb<U+001B>]0;x<U+0007><U+000D>\n");
    }

    #[test]
    fn write_styled_keeps_colour_sequences_only_when_coloured() {
        let text = "\x1b[1;31merror\x1b[0m \x1b]0;x\x07 \x1b[2J\n";
        let mut out = Vec::new();
        write_styled(&mut out, text, true).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\x1b[1;31merror\x1b[0m <U+001B>]0;x<U+0007> <U+001B>[2J\n"
        );
        let mut plain = Vec::new();
        write_styled(&mut plain, text, false).unwrap();
        assert!(!plain.contains(&0x1b));
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
}
