//! How much of the input is read: the parse limit (RFC 9309 §2.5) and the line-length limit.

use memchr::memrchr2;

/// The parse limit RFC 9309 §2.5 sets as a floor ("at least 500 kibibytes"), rounded to the
/// 512,000 bytes crawlers commonly use.
pub const DEFAULT_PARSE_LIMIT: usize = 512_000;

/// How to read the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes past this offset are ignored and reported (RFC 9309 §2.5). The line that crosses
    /// it is ignored whole, so no rule is read cut short.
    pub parse_limit: usize,
    /// When set, bytes of a line past this length are ignored and reported (Google's library
    /// cuts lines at 16,663 bytes).
    pub max_line_len: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            parse_limit: DEFAULT_PARSE_LIMIT,
            max_line_len: None,
        }
    }
}

/// Where reading stops: the end of the input, or the end of the last whole line before
/// `limit` bytes. `start` is where the first line starts (after a byte order mark, which is
/// never cut).
pub(crate) fn cut_at_limit(input: &[u8], start: usize, limit: usize) -> usize {
    if input.len() <= limit {
        return input.len();
    }
    // The BOM is never cut: a limit inside it counts from its end.
    let limit = limit.max(start);
    if limit >= input.len() {
        return input.len();
    }
    if matches!(input[limit], b'\r' | b'\n') {
        // The line ends exactly at the limit: keep it, with a CRLF kept whole.
        return if input[limit] == b'\r' && input.get(limit + 1) == Some(&b'\n') {
            limit + 2
        } else {
            limit + 1
        };
    }
    // Looking back from the limit: the last line break before it ends the last whole line.
    match memrchr2(b'\r', b'\n', &input[start..limit]) {
        Some(k) => start + k + 1,
        None => start,
    }
}
