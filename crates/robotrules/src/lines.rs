//! Where each line of a file is, to point at it ([`line_spans`]).

use robotrules_grammar::{parse_with, Limits};

use crate::Span;

/// The span to point at for each line of `bytes` (index 0 is line 1), the whole file read
/// (no parse limit, no line-length cut): a record from its key to the end of its value, any
/// other line the text before its comment. What a snippet underlines for a line an
/// [`Explanation`](crate::Explanation) names.
///
/// ```
/// let spans = robotrules::line_spans(b"user-agent: *  # all\n\ndisallow: /x\n");
/// assert_eq!(spans.len(), 3);
/// assert_eq!((spans[0].start, spans[0].end), (0, 13));
/// assert_eq!((spans[2].start, spans[2].end), (22, 34));
/// ```
pub fn line_spans(bytes: &[u8]) -> Vec<Span> {
    let whole = Limits {
        parse_limit: usize::MAX,
        max_line_len: None,
    };
    parse_with(bytes, &whole)
        .lines
        .iter()
        .map(|line| match line.directive {
            Some(d) => Span::new(d.key.start, d.value.end.max(d.key.end)),
            None => line.read,
        })
        .collect()
}
