//! What a capture's body is: a robots.txt text, an HTML page (an error or login page served
//! as robots.txt), or binary data.

/// The kind of a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum BodyKind {
    /// Text read as a robots.txt (an empty body included).
    Robots,
    /// Markup: the first byte that is not white space (after a UTF-8 BOM) is `<`, which no
    /// robots.txt line starts with.
    Html,
    /// Not text: a NUL byte in the first KiB, or the magic bytes of gzip, PNG, GIF, JPEG,
    /// PDF or ZIP.
    Binary,
}

impl BodyKind {
    /// The name used in rows.
    pub const fn as_str(self) -> &'static str {
        match self {
            BodyKind::Robots => "robots",
            BodyKind::Html => "html",
            BodyKind::Binary => "binary",
        }
    }
}

impl std::fmt::Display for BodyKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Magic bytes of the binary formats most often served in place of a robots.txt.
const MAGIC: &[&[u8]] = &[
    b"\x1f\x8b",
    b"\x89PNG",
    b"GIF8",
    b"\xff\xd8\xff",
    b"%PDF",
    b"PK\x03\x04",
];

/// The kind of `body`.
pub fn body_kind(body: &[u8]) -> BodyKind {
    let head = &body[..body.len().min(1024)];
    if MAGIC.iter().any(|m| head.starts_with(m)) || memchr::memchr(0, head).is_some() {
        return BodyKind::Binary;
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    match text.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'<') => BodyKind::Html,
        _ => BodyKind::Robots,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(body_kind(b""), BodyKind::Robots);
        assert_eq!(body_kind(b"user-agent: *\n"), BodyKind::Robots);
        assert_eq!(body_kind(b"\xef\xbb\xbf\n <!DOCTYPE html>"), BodyKind::Html);
        assert_eq!(body_kind(b"\x89PNG\r\n"), BodyKind::Binary);
        assert_eq!(body_kind(b"user\0agent"), BodyKind::Binary);
    }
}
