//! Writing a command's report: the output format, whole-report writing that ends quietly at a
//! closed pipe, and where the report goes. The per-URL rows of `check` and `batch` are
//! [`crate::rows`].

use std::io::{self, IsTerminal, Write};

use serde::Serialize;

use crate::error::CliError;
use crate::rows::write_error;

/// How results are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Text for people (each command's help says its shape).
    #[default]
    Text,
    /// JSON Lines: one object per line.
    Json,
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
