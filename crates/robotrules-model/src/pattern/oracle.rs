//! The plain definition of a match, one pattern at a time (RFC 9309 §2.2.2, §2.2.3): the
//! test oracle the group's matcher ([`crate::matcher`]) is checked against, itself checked
//! against Google's position-set algorithm (`pattern/tests.rs`).

use memchr::memmem;

use super::{find_short, Pattern, SHORT};

impl Pattern {
    /// Does the pattern, whose bytes are `pattern`, match `path` (already in the profile's
    /// form)? The plain definition, one rule at a time: the group's matcher
    /// ([`crate::matcher`]) must agree with it.
    pub(crate) fn matches(&self, pattern: &[u8], path: &[u8]) -> bool {
        if self.matches_nothing {
            return false;
        }
        if self.matches_everything {
            return true;
        }
        if path.len() < self.min_len as usize {
            return false;
        }
        match self.first_star {
            None if self.anchored => path == pattern,
            None => path.starts_with(pattern),
            Some(k) => glob_matches(pattern, k as usize, self.anchored, path),
        }
    }
}

/// Match `pattern` (with a `*` at `first_star`) against `path`. Linear time.
///
/// The head must be a prefix; with the `$` anchor the last segment must be a suffix (checked
/// first: it rejects most paths at once); the segments between are found leftmost, in order,
/// in what lies between.
fn glob_matches(pattern: &[u8], first_star: usize, anchored: bool, path: &[u8]) -> bool {
    let head = &pattern[..first_star];
    if !path.starts_with(head) {
        return false;
    }
    let last_star = memchr::memrchr(b'*', pattern).unwrap_or(first_star);
    let last = &pattern[last_star + 1..];
    let end = if anchored {
        if path.len() < head.len() + last.len() || !path.ends_with(last) {
            return false;
        }
        path.len() - last.len()
    } else {
        path.len()
    };
    let mut pos = head.len();
    if last_star > first_star {
        for segment in pattern[first_star + 1..last_star].split(|&b| b == b'*') {
            match find(&path[pos..end], segment) {
                Some(at) => pos += at + segment.len(),
                None => return false,
            }
        }
    }
    anchored || find(&path[pos..], last).is_some()
}

/// Leftmost occurrence of `needle` in `haystack`.
///
/// Needles of up to [`SHORT`] bytes are found by `memchr` on their first byte and a compare
/// (at most `SHORT` byte comparisons per candidate, so still linear); longer ones with
/// `memmem`'s Two-Way search, whose set-up cost only pays off for them.
#[inline]
pub(super) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.len() <= SHORT {
        return find_short(haystack, needle);
    }
    memmem::find(haystack, needle)
}
