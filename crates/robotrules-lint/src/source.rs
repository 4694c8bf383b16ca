//! Showing input bytes as text: lines around a span, columns.
//!
//! robots.txt files are bytes, often not UTF-8. Everything shown to a person goes through
//! [`display`], which decodes UTF-8, shows each invalid sequence as one U+FFFD (as
//! `String::from_utf8_lossy` does) and ends lines at CR, LF or CRLF as the grammar does. Columns
//! count the characters of that text, so they agree with what the renderer shows.

use memchr::{memchr2, memrchr2};
use robotrules_model::Span;

/// The length of the UTF-8 byte order mark (or prefix of one) at the start of `bytes`; the
/// grammar skips it, and so do columns on line 1.
pub(crate) fn bom_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .zip([0xEF, 0xBB, 0xBF])
        .take_while(|(a, b)| **a == *b)
        .count()
}

/// Offset where the line holding `offset` starts (after any byte order mark).
pub(crate) fn line_start(bytes: &[u8], offset: usize) -> usize {
    let offset = offset.min(bytes.len());
    let start = memrchr2(b'\r', b'\n', &bytes[..offset]).map_or(0, |k| k + 1);
    let bom = bom_len(bytes);
    if start == 0 && offset >= bom {
        bom
    } else {
        start
    }
}

/// Offset where the line holding `offset` ends (its terminator, or the end of the input).
pub(crate) fn line_end(bytes: &[u8], offset: usize) -> usize {
    let offset = offset.min(bytes.len());
    memchr2(b'\r', b'\n', &bytes[offset..]).map_or(bytes.len(), |k| offset + k)
}

/// The 1-based column of `offset` in its line, in characters.
pub(crate) fn column(bytes: &[u8], offset: usize) -> u32 {
    let offset = offset.min(bytes.len());
    let start = line_start(bytes, offset);
    let chars = char_count(bytes.get(start..offset).unwrap_or_default());
    u32::try_from(chars.saturating_add(1)).unwrap_or(u32::MAX)
}

/// Characters in `bytes` read as UTF-8, each invalid sequence counting as one.
pub(crate) fn char_count(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// Text for display, with a map from input offsets to offsets in the text.
pub(crate) struct Display {
    /// The decoded text; line terminators are `\n`.
    pub(crate) text: String,
    /// `(input offset, text offset)` at the start of each character, in order.
    marks: Vec<(usize, usize)>,
    /// Input offset the text starts at.
    base: usize,
    /// Input offset the text ends at.
    end: usize,
}

impl Display {
    /// The text offset for input offset `offset` (clamped into the displayed range; an offset
    /// inside a character maps to that character's start).
    pub(crate) fn map(&self, offset: usize) -> usize {
        if offset >= self.end {
            return self.text.len();
        }
        let offset = offset.max(self.base);
        match self.marks.binary_search_by_key(&offset, |&(src, _)| src) {
            Ok(i) => self.marks[i].1,
            Err(0) => 0,
            Err(i) => self.marks[i - 1].1,
        }
    }

    /// A span of the input as a range of the text, clamped to the line the span starts on.
    pub(crate) fn range(&self, span: Span, source: &[u8]) -> std::ops::Range<usize> {
        let end = span.end.min(line_end(source, span.start)).max(span.start);
        self.map(span.start)..self.map(end)
    }
}

/// Decode `source[start..end]` for display, invisible characters shown by code point.
#[cfg(test)]
pub(crate) fn display(source: &[u8], start: usize, end: usize) -> Display {
    display_within(source, start, end, 0..usize::MAX)
}

/// Decode `source[start..end]` for display; invisible characters at offsets in `shown` are
/// shown by code point, others as they are.
pub(crate) fn display_within(
    source: &[u8],
    start: usize,
    end: usize,
    shown: std::ops::Range<usize>,
) -> Display {
    let end = end.min(source.len());
    let start = start.min(end);
    let bytes = &source[start..end];
    let mut text = String::with_capacity(bytes.len());
    let mut marks = Vec::with_capacity(bytes.len());
    let mut pos = 0;
    while pos < bytes.len() {
        let at = start + pos;
        marks.push((at, text.len()));
        match bytes[pos] {
            b'\r' if bytes.get(pos + 1) == Some(&b'\n') => {
                text.push('\n');
                marks.push((at + 1, text.len() - 1));
                pos += 2;
                continue;
            }
            b'\r' | b'\n' => {
                text.push('\n');
                pos += 1;
                continue;
            }
            _ => {}
        }
        // Decode up to the line's end only: a chunk of the whole rest would scan to the next
        // invalid byte (or the end of the input) on every line.
        let rest = &bytes[pos..];
        let rest = &rest[..memchr2(b'\r', b'\n', rest).unwrap_or(rest.len())];
        let chunk = rest.utf8_chunks().next();
        match chunk {
            Some(chunk) if !chunk.valid().is_empty() => {
                // Take characters up to the next line terminator.
                let valid = chunk.valid();
                let stop = valid.find(['\r', '\n']).unwrap_or(valid.len());
                for (i, c) in valid[..stop].char_indices() {
                    if i > 0 {
                        marks.push((at + i, text.len()));
                    }
                    if shown.contains(&(at + i)) {
                        push_visible(&mut text, c);
                    } else {
                        text.push(c);
                    }
                }
                pos += stop;
            }
            Some(chunk) => {
                text.push(char::REPLACEMENT_CHARACTER);
                pos += chunk.invalid().len().max(1);
            }
            None => break,
        }
    }
    Display {
        text,
        marks,
        base: start,
        end,
    }
}

/// Push `c`, or `<U+XXXX>` when it is invisible (as [`robotrules_text::excerpt`] shows it); a
/// tab as it is, for the renderer to lay out.
pub(crate) fn push_visible(out: &mut String, c: char) {
    if c == '\t' {
        out.push(c);
    } else {
        robotrules_text::push_visible(out, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"ab\ncd", 4, 2)]
    #[case(b"ab\r\ncd", 5, 2)]
    #[case(b"\xEF\xBB\xBFab", 4, 2)]
    #[case(b"\xEF\xBB\xBFab", 0, 1)]
    #[case("é\nxé-".as_bytes(), 6, 3)]
    #[case(b"\xff\xfea", 2, 3)]
    fn columns_count_characters(#[case] src: &[u8], #[case] offset: usize, #[case] col: u32) {
        assert_eq!(column(src, offset), col);
    }

    #[test]
    fn display_maps_offsets_and_normalises_line_ends() {
        let src = b"a\r\n\xffb\rc\xC3\xA9d";
        let d = display(src, 0, src.len());
        assert_eq!(d.text, "a\n\u{FFFD}b\nc\u{e9}d");
        assert_eq!(d.map(3), 2);
        assert_eq!(d.map(4), 5);
        assert_eq!(d.map(8), 8);
        assert_eq!(d.map(9), 10);
        assert_eq!(d.map(10), 11);
        assert_eq!(d.map(99), d.text.len());
    }

    #[test]
    fn invisible_characters_are_shown_by_code_point() {
        let src = "a\u{F148}b\u{200B}".as_bytes();
        let d = display(src, 0, src.len());
        assert_eq!(d.text, "a<U+F148>b<U+200B>");
        assert_eq!(display(b"a\tb\x1b", 0, 4).text, "a\tb<U+001B>");
        assert_eq!(d.map(1), 1);
        assert_eq!(d.map(4), 9);
    }
}
