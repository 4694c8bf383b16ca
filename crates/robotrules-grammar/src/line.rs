//! One line of a robots.txt file and the record it carries.

use crate::key::{KeyKind, Spelling};
use crate::span::Span;

/// What separates key and value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Separator {
    /// A colon, as RFC 9309 §2.2 requires.
    Colon,
    /// Whitespace: the colon is missing (`user-agent FooBot`). Only read this way when the line
    /// holds exactly two whitespace-separated words, as Google's library does.
    Whitespace,
}

/// A `key: value` record found on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Directive {
    /// The key, trimmed of whitespace.
    pub key: Span,
    /// Which record the key names.
    pub kind: KeyKind,
    /// How the key was written.
    pub spelling: Spelling,
    /// Colon or (missing colon) whitespace.
    pub separator: Separator,
    /// The value, trimmed of whitespace, without the comment.
    pub value: Span,
}

/// One line of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Line {
    /// 1-based line number.
    pub number: u32,
    /// The line's bytes, without its line terminator.
    pub span: Span,
    /// The line terminator (`CR`, `LF` or `CRLF`); empty for a last line without one.
    pub eol: Span,
    /// The part of `span` that was read: all of it, unless a NUL byte, the line-length limit
    /// or the parse limit cut it short.
    pub read: Span,
    /// The record on the line, if any.
    pub directive: Option<Directive>,
    /// The comment, from `#` to the end of what was read.
    pub comment: Option<Span>,
}

impl Line {
    /// Whether the line is empty or whitespace only (`emptyline` without a comment).
    pub fn is_blank(&self, source: &[u8]) -> bool {
        self.comment.is_none() && self.directive.is_none() && is_all_ws(self.read.slice(source))
    }
}

/// Whitespace as robots.txt readers trim it: space, tab, vertical tab, form feed.
#[inline(always)]
pub(crate) const fn is_ws(b: u8) -> bool {
    // Space, or 0x09 to 0x0C but not 0x0A (LF).
    b == b' ' || (b.wrapping_sub(0x09) < 4 && b != b'\n')
}

fn is_all_ws(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| is_ws(b))
}

#[cfg(test)]
mod tests {
    #[test]
    fn whitespace_is_space_tab_vertical_tab_and_form_feed() {
        let ws: Vec<u8> = (0..=u8::MAX).filter(|&b| super::is_ws(b)).collect();
        assert_eq!(ws, [0x09, 0x0b, 0x0c, 0x20]);
    }
}
