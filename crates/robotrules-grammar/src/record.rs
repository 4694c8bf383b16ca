//! The record a line carries, as spans: `key: value` (RFC 9309 §2.2.1, §2.2.2, §2.2.4), or two
//! words when the colon is missing.

use crate::abnf::{record_value, spaced_record, trimmed, LineParts};
use crate::key::classify_key;
use crate::line::{Directive, Separator};
use crate::span::Span;

/// What a line holds besides its comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Record {
    /// A record.
    Directive(Directive),
    /// Nothing but whitespace.
    Blank,
    /// Text that is neither `key: value` nor two words: its span, trimmed.
    Unread(Span),
}

/// The record on a line split by [`crate::abnf::line`]; `source` is the input the line is a
/// slice of.
#[inline(always)]
pub(crate) fn record(source: &[u8], line: &LineParts<'_>) -> Record {
    // The productions below never fail; each falls back to its input all the same.
    let text = trimmed(line.key_text).map_or(line.key_text, |(_, text)| text);
    match line.value_text {
        Some(value) => {
            let value = record_value(value).map_or(value, |(_, value)| value);
            Record::Directive(directive(source, text, value, Separator::Colon))
        }
        None if text.is_empty() => Record::Blank,
        None => match spaced_record(text) {
            Ok((_, (key, value))) => {
                Record::Directive(directive(source, key, value, Separator::Whitespace))
            }
            Err(_) => Record::Unread(Span::of(source, text)),
        },
    }
}

/// The directive of `key` and `value`, slices of `source`.
#[inline(always)]
fn directive(source: &[u8], key: &[u8], value: &[u8], separator: Separator) -> Directive {
    let (kind, spelling) = classify_key(key);
    Directive {
        key: Span::of(source, key),
        kind,
        spelling,
        separator,
        value: Span::of(source, value),
    }
}
