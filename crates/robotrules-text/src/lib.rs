//! robotrules-text: text shown to people — short excerpts of untrusted input, control
//! characters escaped.
//!
//! Every robotrules crate that quotes its input in a message (a URL in an error, a pattern in
//! a lint finding, a line of a robots.txt file in a conformance report) goes through
//! [`excerpt`], so all of them agree on what a quoted input looks like:
//!
//! - **Short.** At most `max_chars` characters of the input, cut on a character boundary, with
//!   `…` when something was cut. A megabyte of garbage never becomes a megabyte of message,
//!   and only the bytes shown are read.
//! - **One line, terminal-safe.** Every character that [`is_invisible`] (C0 controls with tab
//!   and line breaks, DEL, C1 controls, bidi and other format characters, separators,
//!   private-use and non-characters) is shown by code point, as `<U+001B>`. An escape counts
//!   as one character of the excerpt.
//! - **Bytes or text.** Invalid UTF-8 shows as U+FFFD, one per invalid sequence (as
//!   [`String::from_utf8_lossy`] does).
//! - **Never panics**, on any input and any `max_chars`.
//!
//! To quote an excerpt in a message, format it with `{:?}`: as it holds no control
//! character, that only adds the quotes and escapes `"` and `\`.

use std::borrow::Cow;
use std::fmt::Write as _;

/// At most `max_chars` characters of `input` for a message, `…` marking a cut, every
/// [invisible](is_invisible) character shown by code point (`<U+202E>`) and each invalid UTF-8
/// sequence as U+FFFD.
///
/// ```
/// use robotrules_text::excerpt;
///
/// assert_eq!(excerpt("/private/", 4), "/pri…");
/// assert_eq!(excerpt(b"a\x1bb\xff", 10), "a<U+001B>b\u{FFFD}");
/// assert_eq!(format!("{:?}", excerpt("two\nlines", 20)), r#""two<U+000A>lines""#);
/// ```
pub fn excerpt<T: AsRef<[u8]> + ?Sized>(input: &T, max_chars: usize) -> String {
    let bytes = input.as_ref();
    let mut out = String::with_capacity(
        bytes
            .len()
            .min(max_chars.saturating_mul(4))
            .saturating_add('…'.len_utf8()),
    );
    let mut taken = 0usize;
    for chunk in bytes.utf8_chunks() {
        let invalid = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
        for c in chunk.valid().chars().chain(invalid) {
            if taken == max_chars {
                out.push('…');
                return out;
            }
            push_visible(&mut out, c);
            taken += 1;
        }
    }
    out
}

/// All of `input`, every [invisible](is_invisible) character shown by code point: [`excerpt`]
/// without the cut, for text that is shown whole (a URL in a row, a pattern in a report).
/// Borrowed when there is nothing to escape.
///
/// ```
/// use robotrules_text::visible;
///
/// assert_eq!(visible("/a\x1b]0;x\x07"), "/a<U+001B>]0;x<U+0007>");
/// assert!(matches!(visible("/plain"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn visible(input: &str) -> Cow<'_, str> {
    visible_except(input, |_| false)
}

/// All of `input` with every [invisible](is_invisible) character shown by code point, except
/// line feed and tab, which are kept: for a whole multi-line report whose fields were
/// escaped already, as a last guard before the terminal.
///
/// ```
/// use robotrules_text::visible_lines;
///
/// assert_eq!(visible_lines("a\tb\r\n\u{9b}2J\n"), "a\tb<U+000D>\n<U+009B>2J\n");
/// ```
pub fn visible_lines(input: &str) -> Cow<'_, str> {
    visible_except(input, |c| c == '\n' || c == '\t')
}

fn visible_except(input: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let escape = |c: char| is_invisible(c) && !keep(c);
    let Some(first) = input.find(escape) else {
        return Cow::Borrowed(input);
    };
    let mut out = String::with_capacity(input.len() + 16);
    out.push_str(&input[..first]);
    for c in input[first..].chars() {
        if escape(c) {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Push `c` onto `out`, or `<U+XXXX>` when it [is invisible](is_invisible).
pub fn push_visible(out: &mut String, c: char) {
    if is_invisible(c) {
        let _ = write!(out, "<U+{:04X}>", u32::from(c));
    } else {
        out.push(c);
    }
}

/// Whether `c` shows as nothing, or moves or restyles a terminal's cursor: C0 controls (tab
/// and line breaks too), DEL, C1 controls, format characters (soft hyphen, zero-width and bidi
/// controls, the byte order mark), line and paragraph separators, fillers, variation
/// selectors, private-use code points and non-characters.
pub fn is_invisible(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00..=0x1F
            | 0x7F..=0x9F
            | 0xAD
            | 0x034F
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x2028..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xE000..=0xF8FF
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFFB
            | 0xFFFE..=0xFFFF
            | 0x110BD
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
            | 0xF0000..=0x10FFFF
    )
}

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[cfg(test)]
mod tests;
