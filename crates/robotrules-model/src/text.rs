//! Where a parsed file keeps what it read: values as byte ranges of one buffer.

/// A byte range in a parsed file's text buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Text {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Text {
    /// The bytes of the range in `text` (empty when out of range).
    pub(crate) fn get(self, text: &[u8]) -> &[u8] {
        let start = self.start as usize;
        text.get(start..start + self.len as usize)
            .unwrap_or_default()
    }
}
