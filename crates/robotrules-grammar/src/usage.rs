//! The value of a usage-preference line: `Content-Usage` (draft-ietf-aipref-attach-05 §3) and
//! `Content-Signal` (Cloudflare's content signals, draft-romm-aipref-contentsignals-00), read
//! as an optional path and a statement of preference.
//!
//! ```text
//! content-usage = *WS "content-usage" *WS ":" *WS [ path-pattern 1*WS ] usage-pref EOL
//! usage-value   = [ path 1*( SP / HTAB ) ] usage-pref     ; what `usage_value` reads
//! path          = "/" *( any byte but SP / HTAB )
//! ```
//!
//! attach-05 §3.2: "The first character of the rule value will be "/" (U+2F) if a non-empty
//! path is specified. […] If a path is specified, the path ends immediately before the first
//! SP (U+20) or HTAB (U+09) character. The remainder of the rule value is the statement of
//! preference. If a path is absent, the entire rule value is the statement of preference."
//! Cloudflare publishes no grammar for `Content-Signal`; its values are the same Structured
//! Fields Dictionary, and generators write it with a path too, so it is read the same way.
//!
//! The statement of preference is read by [`crate::dictionary`]. The grammar reads, it never
//! decides: which labels and values mean what is the model's business.

use nom::bytes::complete::{take_till, take_while, take_while1};
use nom::combinator::{opt, recognize};
use nom::sequence::{pair, terminated};
use nom::{IResult, Parser};

use crate::span::Span;

/// A usage line's value as [`usage_value`] splits it: spans into the same input as the value's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UsageValue {
    /// The path, when the value starts with `/` (attach-05 §3.2).
    pub path: Option<Span>,
    /// The statement of preference: the rest of the value (the whole value without a path).
    pub preference: Span,
}

/// `usage-value = [ path 1*( SP / HTAB ) ] usage-pref` (draft-ietf-aipref-attach-05 §3,
/// §3.2), for the value at `value` in `source` (a record's value: trimmed, without comment).
///
/// Never fails: any bytes are a value. One pass over the value (linear in its length).
///
/// ```
/// use robotrules_grammar::{usage_value, Span};
///
/// let line = b"/ai-ok/ train-ai=y";
/// let read = usage_value(line, Span::new(0, line.len()));
/// assert_eq!(read.path, Some(Span::new(0, 7)));
/// assert_eq!(read.preference.slice(line), b"train-ai=y");
/// let read = usage_value(b"train-ai=n", Span::new(0, 10));
/// assert_eq!((read.path, read.preference), (None, Span::new(0, 10)));
/// ```
pub fn usage_value(source: &[u8], value: Span) -> UsageValue {
    let bytes = value.slice(source);
    match path_then_space(bytes) {
        Ok((preference, Some(path))) => UsageValue {
            path: Some(Span::of(source, path)),
            preference: Span::of(source, preference),
        },
        _ => UsageValue {
            path: None,
            preference: value,
        },
    }
}

/// `[ path 1*( SP / HTAB ) ]`: the optional path and the blanks after it, yielding the path.
fn path_then_space(input: &[u8]) -> IResult<&[u8], Option<&[u8]>> {
    opt(terminated(path, take_while(is_sp_or_htab))).parse(input)
}

/// `path = "/" *( any byte but SP / HTAB )`
fn path(input: &[u8]) -> IResult<&[u8], &[u8]> {
    recognize(pair(take_while1(|b| b == b'/'), take_till(is_sp_or_htab))).parse(input)
}

/// SP or HTAB: what ends a usage line's path (attach-05 §3.2).
const fn is_sp_or_htab(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// `(path, preference)` of `value` read whole.
    fn split(value: &str) -> (Option<&str>, &str) {
        let bytes = value.as_bytes();
        let read = usage_value(bytes, Span::new(0, bytes.len()));
        let text = |s: Span| std::str::from_utf8(s.slice(bytes)).unwrap();
        (read.path.map(text), text(read.preference))
    }

    /// attach-05 §3.2, rule by rule.
    #[rstest]
    // "a rule value that starts with any other character indicates that the path is absent"
    #[case::no_path("train-ai=n", None, "train-ai=n")]
    #[case::no_path_with_blanks("train-ai=n, search=y", None, "train-ai=n, search=y")]
    // "the path ends immediately before the first SP or HTAB"
    #[case::path_then_space("/ai-ok/ train-ai=y", Some("/ai-ok/"), "train-ai=y")]
    #[case::path_then_tab("/ai-ok/\ttrain-ai=y", Some("/ai-ok/"), "train-ai=y")]
    #[case::path_then_blanks("/a \t  train-ai=y", Some("/a"), "train-ai=y")]
    #[case::root("/ search=n", Some("/"), "search=n")]
    #[case::path_with_wildcards("/*.pdf$ train-ai=n", Some("/*.pdf$"), "train-ai=n")]
    // A path and nothing else: an empty statement of preference.
    #[case::path_only("/private/", Some("/private/"), "")]
    #[case::empty("", None, "")]
    // A path's second word is the preference, whatever it holds.
    #[case::three_words("/a b c", Some("/a"), "b c")]
    // Whitespace other than SP and HTAB does not end a path.
    #[case::vertical_tab("/a\x0bb train-ai=y", Some("/a\x0bb"), "train-ai=y")]
    fn splits_path_and_preference(
        #[case] value: &str,
        #[case] path: Option<&str>,
        #[case] preference: &str,
    ) {
        assert_eq!(split(value), (path, preference));
    }

    #[test]
    fn spans_are_into_the_source() {
        let source = b"Content-Usage: /x/ train-ai=n";
        let read = usage_value(source, Span::new(15, source.len()));
        assert_eq!(read.path, Some(Span::new(15, 18)));
        assert_eq!(read.preference, Span::new(19, source.len()));
    }

    proptest::proptest! {
        /// Any bytes: the split never panics, the path and the preference lie inside the
        /// value in that order, and the Dictionary reader never panics and points inside the
        /// preference when it fails.
        #[test]
        fn any_bytes_are_read(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            let value = Span::new(0, bytes.len());
            let read = usage_value(&bytes, value);
            proptest::prop_assert!(read.preference.end == value.end);
            proptest::prop_assert!(read.preference.start <= read.preference.end);
            if let Some(path) = read.path {
                proptest::prop_assert_eq!(path.start, 0);
                proptest::prop_assert!(path.end <= read.preference.start);
                proptest::prop_assert_eq!(bytes[0], b'/');
            } else {
                proptest::prop_assert_eq!(read.preference, value);
            }
            if let Err(error) = crate::dictionary(read.preference.slice(&bytes)) {
                proptest::prop_assert!(error.offset <= read.preference.len());
            }
        }
    }

    /// A line of any length: one pass, no recursion, no panic (a 1 MB path, a 1 MB
    /// Dictionary of members, a 1 MB run of one byte).
    #[test]
    fn long_values_are_read() {
        let mut path = vec![b'/'; 1 << 20];
        path.extend_from_slice(b" train-ai=n");
        let read = usage_value(&path, Span::new(0, path.len()));
        assert_eq!(read.path.map(Span::len), Some(1 << 20));
        let members = "a=y, ".repeat(200_000) + "train-ai=n";
        assert_eq!(
            crate::dictionary(members.as_bytes()).map(|m| m.len()),
            Ok(2)
        );
        let parens = vec![b'('; 1 << 20];
        assert!(crate::dictionary(&parens).is_err());
    }
}
