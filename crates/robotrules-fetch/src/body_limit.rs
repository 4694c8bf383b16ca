//! The size limit of RFC 9309 §2.5, applied to decompressed bytes as they stream in.
//!
//! The collector keeps at most `limit` bytes and tells the caller to stop reading as soon as
//! one byte past the limit has arrived, so an endless or enormous body (or a compression bomb)
//! costs at most `limit` bytes of memory plus one network chunk. A cut body ends at the last
//! complete line (CR, LF or CRLF) within the limit, so no rule is read from half a line.

use bytes::Bytes;

use crate::outcome::Truncation;

/// Accumulates a body up to a limit.
#[derive(Debug)]
pub(crate) struct BodyCollector {
    limit: usize,
    kept: Vec<u8>,
    overflow: u64,
}

impl BodyCollector {
    /// A collector for at most `limit` bytes; `size_hint` (for example Content-Length) only
    /// sizes the first allocation and is capped by the limit.
    pub(crate) fn new(limit: usize, size_hint: Option<u64>) -> Self {
        let initial = size_hint
            .and_then(|hint| usize::try_from(hint).ok())
            .unwrap_or(0)
            .min(limit)
            .min(64 * 1024);
        Self {
            limit,
            kept: Vec::with_capacity(initial),
            overflow: 0,
        }
    }

    /// Adds a chunk. Returns true once the limit is exceeded: the caller should stop reading.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> bool {
        let room = self.limit.saturating_sub(self.kept.len());
        let (keep, rest) = chunk.split_at(room.min(chunk.len()));
        self.kept.extend_from_slice(keep);
        self.overflow = self.overflow.saturating_add(rest.len() as u64);
        self.is_over_limit()
    }

    /// Whether more bytes than the limit have arrived.
    pub(crate) fn is_over_limit(&self) -> bool {
        self.overflow > 0
    }

    /// The body and, when it was cut, how.
    pub(crate) fn finish(mut self) -> (Bytes, Option<Truncation>) {
        if self.overflow == 0 {
            return (Bytes::from(self.kept), None);
        }
        let keep = last_full_line_end(&self.kept);
        let dropped = (self.kept.len() - keep) as u64;
        self.kept.truncate(keep);
        let truncation = Truncation {
            limit: self.limit,
            ignored_bytes: dropped.saturating_add(self.overflow),
        };
        (Bytes::from(self.kept), Some(truncation))
    }
}

/// The length of the longest prefix of `data` that ends with a line terminator (CR or LF);
/// 0 when there is none.
pub(crate) fn last_full_line_end(data: &[u8]) -> usize {
    data.iter()
        .rposition(|&byte| byte == b'\n' || byte == b'\r')
        .map_or(0, |pos| pos + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"", 0)]
    #[case(b"no newline", 0)]
    #[case(b"a\n", 2)]
    #[case(b"a\nb", 2)]
    #[case(b"a\r\nb", 3)]
    #[case(b"a\rb", 2)]
    #[case(b"a\nb\rc\r\nd", 7)]
    fn last_full_line_end_finds_the_last_terminator(#[case] data: &[u8], #[case] end: usize) {
        assert_eq!(last_full_line_end(data), end);
    }

    #[test]
    fn a_body_within_the_limit_is_kept_whole() {
        let mut collector = BodyCollector::new(10, None);
        assert!(!collector.push(b"0123"));
        assert!(!collector.push(b"456789"));
        let (body, truncation) = collector.finish();
        assert_eq!(&body[..], b"0123456789");
        assert_eq!(truncation, None);
    }

    #[test]
    fn a_body_past_the_limit_is_cut_at_the_last_full_line() {
        let mut collector = BodyCollector::new(10, Some(1_000_000));
        assert!(!collector.push(b"ab\ncd\nef"));
        assert!(collector.push(b"gh\nij"));
        let (body, truncation) = collector.finish();
        assert_eq!(&body[..], b"ab\ncd\n");
        assert_eq!(
            truncation,
            Some(Truncation {
                limit: 10,
                ignored_bytes: 7,
            })
        );
    }

    #[test]
    fn one_byte_past_the_limit_is_enough_to_stop() {
        let mut collector = BodyCollector::new(4, None);
        assert!(!collector.push(b"ab\nc"));
        assert!(collector.push(b"d"));
        let (body, truncation) = collector.finish();
        assert_eq!(&body[..], b"ab\n");
        assert_eq!(truncation.map(|t| t.ignored_bytes), Some(2));
    }

    #[test]
    fn a_single_line_longer_than_the_limit_keeps_nothing() {
        let mut collector = BodyCollector::new(4, None);
        assert!(collector.push(b"Disallow: /private"));
        let (body, truncation) = collector.finish();
        assert!(body.is_empty());
        assert_eq!(truncation.map(|t| t.ignored_bytes), Some(18));
    }

    #[test]
    fn a_line_ending_exactly_at_the_limit_is_kept() {
        let mut collector = BodyCollector::new(6, None);
        assert!(collector.push(b"ab\ncd\nmore"));
        let (body, truncation) = collector.finish();
        assert_eq!(&body[..], b"ab\ncd\n");
        assert_eq!(truncation.map(|t| t.ignored_bytes), Some(4));
    }
}
