//! The URLs a command is asked about, one per line: from the command line, or from standard
//! input as they arrive (never all held in memory).
//!
//! A line is trimmed; blank lines and `#` lines are skipped. A line that cannot be a URL — not
//! UTF-8, with a control character (NUL, tab, …) inside, or longer than [`MAX_LINE`] bytes —
//! is an [`Item`] with a problem instead of a URL, so the command reports it on its line and
//! goes on. Reading a long line keeps at most [`MAX_LINE`] bytes of it.

use std::fmt;
use std::io::{BufRead, BufReader, Read};

use crate::error::CliError;

/// The longest line read as a URL, in bytes: far beyond any URL a server accepts.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// One URL to check, or why its line is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    /// The 1-based line number on standard input, or the argument's position.
    pub(crate) line: u64,
    /// The URL, or what is wrong with the line.
    pub(crate) url: Result<String, Problem>,
}

/// An item borrowing the line it was read from (no copy), as [`for_each`] hands it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// The 1-based line number.
    pub(crate) number: u64,
    /// The URL, or the line's bytes when they are not one.
    pub(crate) url: Result<&'a str, &'a [u8]>,
    /// Whether the line was cut at [`MAX_LINE`].
    pub(crate) cut: bool,
}

impl Line<'_> {
    /// The owned item.
    pub(crate) fn to_item(self) -> Item {
        Item {
            line: self.number,
            url: self.url().map(str::to_owned),
        }
    }

    /// The URL, or what is wrong with the line.
    pub(crate) fn url(&self) -> Result<&str, Problem> {
        if self.cut {
            let bytes = match self.url {
                Ok(text) => text.as_bytes(),
                Err(bytes) => bytes,
            };
            return Err(Problem::TooLong {
                start: String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned(),
            });
        }
        match self.url {
            Ok(text) => Ok(text),
            Err(bytes) => Err(problem(bytes)),
        }
    }
}

/// Why a line is not a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// The bytes are not UTF-8; `text` shows them with U+FFFD.
    NotUtf8 {
        /// The line, lossily.
        text: String,
    },
    /// A control character inside the line.
    Control {
        /// The line as read.
        text: String,
        /// The character.
        found: char,
    },
    /// The line is longer than [`MAX_LINE`]; `start` is its beginning.
    TooLong {
        /// Its first bytes, lossily.
        start: String,
    },
}

impl Problem {
    /// The line as far as it can be shown, for the URL column.
    pub(crate) fn text(&self) -> &str {
        match self {
            Problem::NotUtf8 { text } | Problem::Control { text, .. } => text,
            Problem::TooLong { start } => start,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotUtf8 { .. } => f.write_str("the line is not UTF-8"),
            Problem::Control { found, .. } => write!(
                f,
                "control character U+{:04X} in the line",
                u32::from(*found)
            ),
            Problem::TooLong { .. } => write!(f, "the line is longer than {MAX_LINE} bytes"),
        }
    }
}

/// Items for URLs given as arguments, as they are (positions count from 1): an argument is
/// not a line, so what the profile's URL reading makes of it decides (Google's reads any
/// string, blank ones too).
pub(crate) fn from_args(urls: Vec<String>) -> impl Iterator<Item = Item> {
    urls.into_iter()
        .zip(1..)
        .map(|(url, line)| Item { line, url: Ok(url) })
}

/// What reading standard input gives a command.
#[derive(Debug)]
pub(crate) enum Input<'a> {
    /// The next line with a URL, or with what is wrong with it.
    Line(Line<'a>),
    /// Nothing more is buffered: the next read may wait for the writer. The moment to flush
    /// output, so answers never wait for more questions.
    Idle,
}

/// The size of the read buffer over standard input.
const READ_BUFFER: usize = 64 * 1024;

/// `source` (standard input, a file) buffered for [`for_each`].
pub(crate) fn reader<R: Read>(source: R) -> BufReader<R> {
    BufReader::with_capacity(READ_BUFFER, source)
}

/// Calls `each` for every item of `reader` as it arrives, and with [`Input::Idle`] whenever
/// nothing more is buffered, stopping at the first error.
///
/// # Errors
/// [`CliError::ReadUrls`] when the input cannot be read; whatever `each` returns.
pub(crate) fn for_each<R: Read>(
    reader: &mut BufReader<R>,
    mut each: impl FnMut(Input<'_>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut line = Vec::new();
    let mut number = 0_u64;
    loop {
        if reader.fill_buf().map_err(CliError::ReadUrls)?.is_empty() {
            // Nothing buffered and nothing more: end of input. (An empty `fill_buf` after
            // data means end of input too.)
            return Ok(());
        }
        line.clear();
        let complete = read_line(reader, &mut line)?;
        number += 1;
        if let Some(url) = url_of(&line) {
            each(Input::Line(Line {
                number,
                url,
                cut: !complete,
            }))?;
        }
        if reader.buffer().is_empty() {
            each(Input::Idle)?;
        }
    }
}

/// Reads one line into `line` (without its `\n`), keeping at most [`MAX_LINE`] + 1 bytes;
/// false when the line was longer (the rest is consumed and dropped).
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> Result<bool, CliError> {
    loop {
        let buffer = reader.fill_buf().map_err(CliError::ReadUrls)?;
        if buffer.is_empty() {
            return Ok(line.len() <= MAX_LINE);
        }
        let (chunk, found_end) = match memchr::memchr(b'\n', buffer) {
            Some(end) => (&buffer[..end], true),
            None => (buffer, false),
        };
        let room = (MAX_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len() + usize::from(found_end);
        reader.consume(used);
        if found_end {
            return Ok(line.len() <= MAX_LINE);
        }
    }
}

/// The URL on `bytes`, a line without its `\n` (trimmed): `Err` with the bytes when they are
/// not one (not UTF-8, a control character); `None` for a blank or `#` line.
fn url_of(bytes: &[u8]) -> Option<Result<&str, &[u8]>> {
    let trimmed = bytes.trim_ascii();
    if trimmed.is_empty() || trimmed[0] == b'#' {
        return None;
    }
    // C0 controls and DEL are single bytes; C1 controls (U+0080 to U+009F) are C2 80 to C2 9F.
    let c0 = trimmed.iter().any(|&b| b < 0x20 || b == 0x7F);
    let c1 = || {
        memchr::memchr_iter(0xC2, trimmed).any(|at| {
            trimmed
                .get(at + 1)
                .is_some_and(|next| (0x80..=0x9F).contains(next))
        })
    };
    let control = c0 || c1();
    if control {
        return Some(Err(trimmed));
    }
    Some(std::str::from_utf8(trimmed).map_err(|_| trimmed))
}

/// What is wrong with `bytes`, a line [`url_of`] refused.
fn problem(bytes: &[u8]) -> Problem {
    let text = String::from_utf8_lossy(bytes).into_owned();
    match text.chars().find(|c| c.is_control()) {
        Some(found) => Problem::Control { text, found },
        None => Problem::NotUtf8 { text },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(input: &[u8]) -> Vec<Item> {
        let mut seen = Vec::new();
        for_each(&mut reader(input), |input| {
            if let Input::Line(line) = input {
                seen.push(line.to_item());
            }
            Ok(())
        })
        .unwrap();
        seen
    }

    #[test]
    fn lines_are_trimmed_and_blank_and_comment_lines_skipped() {
        let got = items(b"/a\r\n\n   \n# a comment\n  https://example.com/b  \n/last");
        let urls: Vec<(u64, String)> = got.into_iter().map(|i| (i.line, i.url.unwrap())).collect();
        assert_eq!(
            urls,
            [
                (1, "/a".to_owned()),
                (5, "https://example.com/b".to_owned()),
                (6, "/last".to_owned())
            ]
        );
    }

    #[test]
    fn bad_lines_are_items_with_their_problem() {
        let got = items(b"/\xffc\n/a\x00b\n/tab\there\n/ok\n/c1\xc2\x85\n");
        assert!(matches!(got[0].url, Err(Problem::NotUtf8 { .. })));
        assert_eq!(
            got[1].url,
            Err(Problem::Control {
                text: "/a\0b".into(),
                found: '\0'
            })
        );
        assert!(matches!(
            got[2].url,
            Err(Problem::Control { found: '\t', .. })
        ));
        assert_eq!((got[3].line, got[3].url.as_deref()), (4, Ok("/ok")));
        assert!(matches!(
            got[4].url,
            Err(Problem::Control {
                found: '\u{85}',
                ..
            })
        ));
    }

    #[test]
    fn a_line_longer_than_the_limit_is_reported_and_not_kept() {
        let mut input = b"/".to_vec();
        input.extend(std::iter::repeat_n(b'a', 1 << 20));
        input.extend_from_slice(b"\n/next\n");
        let got = items(&input);
        assert_eq!(got.len(), 2);
        match &got[0].url {
            Err(Problem::TooLong { start }) => assert_eq!(start.len(), 200),
            other => panic!("{other:?}"),
        }
        assert_eq!(got[1].url.as_deref(), Ok("/next"));
    }

    #[test]
    fn arguments_are_taken_as_they_are() {
        let got: Vec<Item> = from_args(vec!["/a".into(), "".into(), "/c\t".into()]).collect();
        let seen: Vec<(u64, &str)> = got
            .iter()
            .map(|i| (i.line, i.url.as_deref().unwrap_or_default()))
            .collect();
        assert_eq!(seen, [(1, "/a"), (2, ""), (3, "/c\t")]);
    }

    #[test]
    fn an_error_from_the_callback_stops_reading() {
        let mut seen = 0;
        let result = for_each(&mut reader(&b"/a\n/b\n/c\n"[..]), |input| {
            if let Input::Line(_) = input {
                seen += 1;
            }
            if seen == 2 {
                Err(CliError::StdinTwice)
            } else {
                Ok(())
            }
        });
        assert!(matches!(result, Err(CliError::StdinTwice)));
        assert_eq!(seen, 2);
    }
}
