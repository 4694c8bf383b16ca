//! The productions that read a line, one function each, in nom: RFC 9309 §2.2 as crawlers
//! must read it.
//!
//! RFC 9309 §2.2 defines `robotstxt = *(group / emptyline)` with strict `startgroupline`,
//! `rule` and `emptyline` productions, and leaves the rest to implementors ("define
//! additional lines you need"); RFC 9309 §2.3.1.5 asks crawlers to "try to parse each
//! line" whatever it holds. So every line is read with one lenient production, `line`,
//! that accepts any bytes and splits them where the RFC's productions do: at the first `:`
//! (RFC 9309 §2.2.1, §2.2.2), at the `#` that starts a `comment`, and at `NL`. The record on
//! the line is then the `trimmed` key and the `record_value` around the colon, or, the colon
//! missing, a `spaced_record` (two words, as Google's library reads them). Which key it is,
//! and whether its spelling counts, is for [`crate::classify_key`] and the model.
//!
//! ```text
//! line          = key-text [":" value-text] [comment] line-break
//! comment       = "#" comment-text                 ; RFC 9309: "#" *(UTF8-char-noctl / WS / "#")
//! line-break    = NL / end-of-input
//! NL            = %x0D / %x0A / %x0D.0A            ; RFC 9309 §2.2
//! WS            = %x20 / %x09 / %x0B / %x0C        ; RFC 9309: %x20 / %x09; readers trim more
//! trimmed       = *WS text *WS                     ; the key before the colon; a line's text
//! record-value  = *WS value *WS                    ; after the colon, up to any comment
//! spaced-record = word 1*WS word                   ; no colon: exactly two words
//! ```
//!
//! `key-text`, `value-text`, `comment-text` and `word` are runs of bytes up to a stop byte
//! (`word` stops at `WS`); they are the hot loops, written as nom parsers in `scan.rs`. No
//! production rejects a byte: a line that is not UTF-8, or holds a NUL, is read all the same
//! (the lexer reports it and applies the cuts).
//!
//! The productions are public only with the `fuzz` feature, for fuzz targets.

// Without the `fuzz` feature the module is private and its items crate-wide.
#![cfg_attr(not(feature = "fuzz"), allow(unreachable_pub))]

use nom::branch::alt;
use nom::combinator::{eof, opt};
use nom::sequence::preceded;
use nom::Parser;

use crate::line::is_ws;
use crate::scan::{comment_text, key_text, spaces, split, value_text, word, Inlined, Res};

/// A line as [`line`](fn@line) splits it. Every part is a slice of the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineParts<'a> {
    /// The line without its line break.
    pub content: &'a [u8],
    /// What comes before the first `:`, `#` or line break.
    pub key_text: &'a [u8],
    /// What follows the first `:`, up to a `#` or the line break, when the line has a `:`
    /// before any `#`.
    pub value_text: Option<&'a [u8]>,
    /// The comment, from its `#`.
    pub comment: Option<&'a [u8]>,
}

/// `line = key-text [":" value-text] [comment] line-break`
///
/// Accepts any bytes: every part may be empty, and only the empty input has no line. Yields
/// the line's parts.
#[inline(always)]
pub fn line(i: &[u8]) -> Res<'_, LineParts<'_>> {
    let (rest, (key_text, value_text, comment)) = (
        Inlined(key_text),
        opt(preceded(octet::<b':'>, Inlined(value_text))),
        opt(Inlined(comment)),
    )
        .parse(i)?;
    let content = &i[..i.len() - rest.len()];
    let (rest, _) = line_break(rest)?;
    Ok((
        rest,
        LineParts {
            content,
            key_text,
            value_text,
            comment,
        },
    ))
}

/// `comment = "#" comment-text`
///
/// RFC 9309 §2.2 has `comment = "#" *(UTF8-char-noctl / WS / "#")`; read leniently, a comment
/// runs to the line break whatever it holds.
#[inline(always)]
pub fn comment(i: &[u8]) -> Res<'_, &[u8]> {
    recognized(i, (octet::<b'#'>, Inlined(comment_text)))
}

/// `line-break = NL / end-of-input`
///
/// RFC 9309 §2.2 ends every line with `NL`; a last line without one is common (the RFC's own
/// examples end that way), so the end of the input ends a line too.
#[inline(always)]
pub fn line_break(i: &[u8]) -> Res<'_, &[u8]> {
    alt((nl, eof)).parse(i)
}

/// `NL = %x0D / %x0A / %x0D.0A` (RFC 9309 §2.2)
///
/// Read as `%x0D [%x0A] / %x0A`: a `CRLF` is one line break.
#[inline(always)]
pub fn nl(i: &[u8]) -> Res<'_, &[u8]> {
    recognized(
        i,
        alt((
            (octet::<b'\r'>, opt(octet::<b'\n'>)).map(|_| ()),
            octet::<b'\n'>.map(|_| ()),
        )),
    )
}

/// One octet: `B`.
#[inline(always)]
fn octet<const B: u8>(i: &[u8]) -> Res<'_, &[u8]> {
    match i.first() {
        Some(&b) if b == B => split(i, 1),
        _ => Err(nom::Err::Error(())),
    }
}

/// What `parser` read of `i`, as one slice (nom's `recognize`, with the slicing inlined).
#[inline(always)]
fn recognized<'a, O>(
    i: &'a [u8],
    mut parser: impl Parser<&'a [u8], Output = O, Error = ()>,
) -> Res<'a, &'a [u8]> {
    let (rest, _) = parser.parse(i)?;
    Ok((rest, &i[..i.len() - rest.len()]))
}

/// `*WS`, with `WS = %x20 / %x09 / %x0B / %x0C`
///
/// RFC 9309 §2.2 has `WS = %x20 / %x09`; robots.txt readers (Google's among them) also trim
/// vertical tab and form feed.
#[inline(always)]
pub fn ws0(i: &[u8]) -> Res<'_, &[u8]> {
    spaces(i)
}

/// `1*WS`
#[inline(always)]
pub fn ws1(i: &[u8]) -> Res<'_, &[u8]> {
    match spaces(i)? {
        (_, []) => Err(nom::Err::Error(())),
        some => Ok(some),
    }
}

/// The bytes without their trailing `*WS`: a left-to-right reading only knows whitespace is
/// trailing where the text ends, so this is the one step that reads from the right.
#[inline(always)]
fn without_trailing_ws(i: &[u8]) -> &[u8] {
    let mut end = i.len();
    while end > 0 && is_ws(i[end - 1]) {
        end -= 1;
    }
    &i[..end]
}

/// `trimmed = *WS text *WS`: a key before its colon, or a line's text before any comment
///
/// Yields `text`; when the input is all whitespace, `text` is empty, at its end (for a key,
/// at the colon).
#[inline(always)]
pub fn trimmed(i: &[u8]) -> Res<'_, &[u8]> {
    ws0.parse(i)
        .map(|(text, _)| (&text[text.len()..], without_trailing_ws(text)))
}

/// `record-value = *WS value *WS`, on the `value-text` after the colon
///
/// Yields `value`; when the input is all whitespace, `value` is empty, at its start (right
/// after the colon).
#[inline(always)]
pub fn record_value(i: &[u8]) -> Res<'_, &[u8]> {
    let (rest, value) = (&i[i.len()..], without_trailing_ws(i));
    ws0.parse(value).map(|(value, _)| (rest, value))
}

/// `spaced-record = word 1*WS word`, on a line's trimmed `text` without a colon
///
/// The colon missing, Google's library reads a line of exactly two words as key and value
/// (`user-agent FooBot`). Yields the two words.
#[inline]
pub fn spaced_record(i: &[u8]) -> Res<'_, (&[u8], &[u8])> {
    (word, ws1, word, eof)
        .map(|(key, _, value, _)| (key, value))
        .parse(i)
}

/// `BOM = %xEF [%xBB [%xBF]]`: the UTF-8 byte order mark `%xEF.BB.BF`, or the first one or
/// two of its bytes when the input stops or goes on otherwise
///
/// A UTF-8 byte order mark at the start is skipped, also a truncated one.
pub fn byte_order_mark(i: &[u8]) -> Res<'_, &[u8]> {
    recognized(i, (octet::<0xEF>, opt((octet::<0xBB>, opt(octet::<0xBF>)))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"\r\nx", 2)]
    #[case(b"\rx", 1)]
    #[case(b"\nx", 1)]
    fn nl_takes_crlf_as_one(#[case] input: &[u8], #[case] len: usize) {
        assert_eq!(nl(input).map(|(_, t)| t.len()).ok(), Some(len));
    }

    #[rstest]
    #[case(b"user-agent: *\nx", b"user-agent", Some(&b" *"[..]), None, b"x")]
    #[case(b"a:b:c # d # e\r\n", b"a", Some(&b"b:c "[..]), Some(&b"# d # e"[..]), b"")]
    #[case(b"# a: b\rx", b"", None, Some(&b"# a: b"[..]), b"x")]
    #[case(b"Disallow /a", b"Disallow /a", None, None, b"")]
    #[case(b"", b"", None, None, b"")]
    #[case(b"\r\r", b"", None, None, b"\r")]
    fn line_splits_at_colon_hash_and_line_break(
        #[case] input: &[u8],
        #[case] key: &[u8],
        #[case] value: Option<&[u8]>,
        #[case] comment: Option<&[u8]>,
        #[case] rest: &[u8],
    ) {
        let (after, parts) = line(input).expect("every input is a line");
        assert_eq!(
            (parts.key_text, parts.value_text, parts.comment, after),
            (key, value, comment, rest)
        );
        // The content is the parts, one after the other.
        let content_len =
            key.len() + value.map_or(0, |v| v.len() + 1) + comment.map_or(0, <[u8]>::len);
        assert_eq!(parts.content, &input[..content_len]);
    }

    #[test]
    fn key_and_value_are_trimmed() {
        assert_eq!(trimmed(b" \tkey \x0b"), Ok((&b""[..], &b"key"[..])));
        assert_eq!(record_value(b"  /a b  "), Ok((&b""[..], &b"/a b"[..])));
        // All whitespace: the key is empty at the colon, the value right after it.
        let blank = b"   ";
        assert_eq!(
            trimmed(blank).map(|(_, k)| k.as_ptr()),
            Ok(blank[3..].as_ptr())
        );
        assert_eq!(
            record_value(blank).map(|(_, v)| v.as_ptr()),
            Ok(blank.as_ptr())
        );
    }

    #[rstest]
    #[case(b"user-agent FooBot", Some((&b"user-agent"[..], &b"FooBot"[..])))]
    #[case(b"disallow \t\x0c /", Some((&b"disallow"[..], &b"/"[..])))]
    #[case(b"absolutely random line", None)]
    #[case(b"one", None)]
    fn spaced_record_is_two_words(#[case] text: &[u8], #[case] words: Option<(&[u8], &[u8])>) {
        assert_eq!(spaced_record(text).ok().map(|(_, w)| w), words);
    }

    #[rstest]
    #[case(b"\xEF\xBB\xBFa", 3)]
    #[case(b"\xEF\xBB", 2)]
    #[case(b"\xEF\x11\xBF", 1)]
    fn byte_order_mark_and_its_prefixes(#[case] input: &[u8], #[case] len: usize) {
        assert_eq!(byte_order_mark(input).map(|(_, b)| b.len()), Ok(len));
        assert!(byte_order_mark(b"a").is_err());
    }
}
