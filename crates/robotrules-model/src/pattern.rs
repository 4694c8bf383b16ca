//! Allow/disallow patterns: compiling a rule's value under a profile, and matching it.
//!
//! RFC 9309 §2.2.2: matching starts at the first octet of the path and the most specific
//! (longest) match wins; §2.2.3: `*` is any sequence, `$` the end of the path. A pattern is a
//! literal head followed by `*`-separated literal segments; matching finds the head at the
//! start and each later segment leftmost after the previous one (Two-Way substring search
//! via `memchr::memmem`), which is exact for `*`-only globs and linear in
//! `pattern + path` — no backtracking blow-up on `/*a*a*a…` patterns.

use std::borrow::Cow;

use robotrules_url::{canonical, google};

use crate::profile::{PatternEncoding, Reading, SlashlessPattern};

/// Whether a rule allows or disallows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum RuleKind {
    /// `allow:`
    Allow,
    /// `disallow:`
    Disallow,
}

impl RuleKind {
    /// `allow` or `disallow`, as JSON and reports spell it.
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleKind::Allow => "allow",
            RuleKind::Disallow => "disallow",
        }
    }
}

impl std::fmt::Display for RuleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A compiled pattern. Its bytes live in its group's compiled rules ([`crate::compile`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub(crate) start: u32,
    pub(crate) len: u32,
    /// Offset of the first `*` within the pattern, if it has wildcards.
    pub(crate) first_star: Option<u32>,
    /// Whether the pattern ended in the `$` anchor (not stored in the bytes).
    pub(crate) anchored: bool,
    /// Whether the pattern can match at all (an empty pattern never decides anything).
    pub(crate) matches_nothing: bool,
    /// Whether the pattern matches every path (legacy empty rules).
    pub(crate) matches_everything: bool,
    /// Precedence: longer wins (RFC 9309 §2.2.2).
    pub(crate) priority: u32,
    /// The number of literal bytes: a shorter path cannot match.
    pub(crate) min_len: u32,
}

impl Pattern {
    /// The pattern's bytes in `bytes`, its group's compiled bytes.
    pub(crate) fn bytes<'a>(&self, bytes: &'a [u8]) -> &'a [u8] {
        let start = self.start as usize;
        bytes
            .get(start..start + self.len as usize)
            .unwrap_or_default()
    }
}

/// Needles up to this long are found by [`find_short`]; longer ones with a `memmem` searcher.
pub(crate) const SHORT: usize = 8;

/// Leftmost occurrence of a `needle` of at most [`SHORT`] bytes in `haystack`: candidates by
/// the first byte ([`find_byte`]), then a compare (at most `SHORT` byte comparisons per
/// candidate, so still linear).
#[inline]
pub(crate) fn find_short(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let [first, rest @ ..] = needle else {
        return Some(0);
    };
    let last_start = haystack.len().checked_sub(needle.len())?;
    let candidates = &haystack[..=last_start];
    let mut from = 0;
    while let Some(k) = find_byte(&candidates[from..], *first) {
        let at = from + k;
        if haystack[at + 1..at + needle.len()] == *rest {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The first `byte` in `haystack` (sixteen bytes at a time for its first 128, then `memchr`).
pub(crate) use robotrules_bytes::find_byte;

/// A pattern compiled to the bytes it stores and its flags, before it is placed with its
/// group's.
pub(crate) struct CompiledPattern<'a> {
    pub(crate) bytes: Cow<'a, [u8]>,
    pub(crate) pattern: Pattern,
    /// Google's `index.html` rewrite of an allow rule: `…/index.htm*` also allows `…/$`.
    pub(crate) index_html: Option<(Vec<u8>, u32)>,
}

/// Compile a rule value (raw bytes from the file) as `reading` says.
pub(crate) fn compile<'v>(
    value: &'v [u8],
    kind: RuleKind,
    reading: &Reading,
) -> CompiledPattern<'v> {
    let mut pattern = Pattern {
        start: 0,
        len: 0,
        first_star: None,
        anchored: false,
        matches_nothing: false,
        matches_everything: false,
        priority: 0,
        min_len: 0,
    };
    let slashless = !value.is_empty() && !matches!(value[0], b'/' | b'*');
    let slash_prepended = slashless && reading.slashless_pattern == SlashlessPattern::PrependSlash;
    let mut bytes: Cow<'v, [u8]> = match (reading.patterns, reading.wildcards) {
        (PatternEncoding::GoogleEscape, _) => google::escape_pattern(value),
        (PatternEncoding::Canonical, true) if slash_prepended => {
            let mut with_slash = Vec::with_capacity(value.len() + 1);
            with_slash.push(b'/');
            with_slash.extend_from_slice(value);
            Cow::Owned(canonical::pattern(&with_slash).into_owned())
        }
        (PatternEncoding::Canonical, true) => canonical::pattern(value),
        // No wildcards: `*` and `$` are literal, so the pattern takes the URL's form.
        (PatternEncoding::Canonical, false) => canonical::path(value),
    };
    // RFC 9309 §2.2.2, "the match that has the most octets": every octet of the pattern in
    // its normalised form, `*` and `$` included (a trailing `*` too).
    pattern.priority = len_u32(bytes.len());
    let index_html = if reading.index_html && kind == RuleKind::Allow {
        index_html_rewrite(&bytes)
    } else {
        None
    };
    if bytes.is_empty() {
        // An empty rule never decides, except under the 1994 convention, where it is a prefix
        // of every path (the builder reads an empty `disallow:` as an allow).
        if reading.empty_disallow_allows_all {
            pattern.matches_everything = true;
        } else {
            pattern.matches_nothing = true;
        }
        return CompiledPattern {
            bytes,
            pattern,
            index_html,
        };
    }
    if reading.wildcards {
        if bytes.last() == Some(&b'$') {
            pattern.anchored = true;
            trim_end(&mut bytes, 1);
        } else {
            // A trailing `*` changes nothing about what matches (RFC 9309 §2.2.3 example
            // `/fish*` = `/fish`); it still counted for the priority above.
            let stars = bytes.iter().rev().take_while(|&&b| b == b'*').count();
            trim_end(&mut bytes, stars);
        }
        pattern.first_star = find_byte(&bytes, b'*').map(len_u32);
        if bytes.is_empty() && !pattern.anchored {
            // `*` alone: matches every path.
            pattern.matches_everything = true;
        }
    }
    // Every byte is literal but the wildcards' `*`, which come at or after the first.
    pattern.min_len = match pattern.first_star {
        None => len_u32(bytes.len()),
        Some(first) => {
            // Patterns are short: a plain count beats setting up a vector search.
            let after = bytes.get(first as usize..).unwrap_or_default();
            let stars = after.iter().filter(|&&b| b == b'*').count();
            len_u32(bytes.len() - stars)
        }
    };
    CompiledPattern {
        bytes,
        pattern,
        index_html,
    }
}

/// Google: an allow pattern whose last segment starts with `index.htm` also allows the
/// directory itself, as `<dir>/$` with priority `len(<dir>/$)`.
fn index_html_rewrite(escaped: &[u8]) -> Option<(Vec<u8>, u32)> {
    let slash = memchr::memrchr(b'/', escaped)?;
    if !escaped[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let mut rewritten = escaped[..=slash].to_vec();
    rewritten.push(b'$');
    let priority = len_u32(rewritten.len());
    Some((rewritten, priority))
}

fn trim_end(bytes: &mut Cow<'_, [u8]>, n: usize) {
    if n == 0 {
        return;
    }
    match bytes {
        Cow::Borrowed(b) => *b = &b[..b.len() - n],
        Cow::Owned(v) => v.truncate(v.len() - n),
    }
}

/// Lengths are bounded by the parse limit, far below `u32::MAX`; saturate rather than wrap.
pub(crate) fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;
