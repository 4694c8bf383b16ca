//! Byte spans into the parsed input.

/// A half-open byte range `start..end` into the input given to [`crate::parse`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span of `part` in `source`; `part` is a slice of `source` (as every output of the
    /// productions is a slice of their input).
    #[inline(always)]
    pub(crate) fn of(source: &[u8], part: &[u8]) -> Span {
        let start = (part.as_ptr() as usize).wrapping_sub(source.as_ptr() as usize);
        Span::new(start, start.wrapping_add(part.len()))
    }

    /// Number of bytes covered.
    pub const fn len(self) -> usize {
        self.end - self.start
    }

    /// Whether the span covers no byte.
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The bytes of `source` the span covers (empty if out of range).
    pub fn slice(self, source: &[u8]) -> &[u8] {
        source.get(self.start..self.end).unwrap_or_default()
    }
}
