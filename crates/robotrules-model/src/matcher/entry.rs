//! One rule in the matcher's form, and how a path is tried against it.
//!
//! Each distinct rule becomes an [`Entry`]: its pattern in the matcher's form (a `*` before
//! the `$` anchor, which matches any rest, is dropped with the anchor), the length of its
//! literal head (the bytes before the first `*`), the first eight bytes of that head as a
//! number with a mask, so that a path is ruled out by one comparison, and the place of its
//! prebuilt `memmem` searchers for segments longer than eight bytes, which are built with the
//! group's index ([`Entries::build_finders`]; until then each search builds its own).
//! [`Entries`] holds a group's entries in
//! precedence order: an entry's position is its precedence, which is all the index
//! ([`super::index`], [`super::grams`]) needs to know.

use std::sync::OnceLock;

use memchr::memmem::Finder;

use crate::pattern::{find_short, len_u32, Pattern, SHORT};

/// At most this many prebuilt searchers per group.
const FINDERS_PER_GROUP: usize = 64;

/// [`Entry::finders`] of an entry whose long segments have no prebuilt searcher.
const NO_FINDERS: u32 = u32::MAX;

/// How an entry's pattern matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// Every path (`*`, or the 1994 reading's empty rule).
    Everything,
    /// The pattern is a prefix of the path.
    Prefix,
    /// The pattern is the path (`/$`).
    Exact,
    /// The head is a prefix, the other segments follow in order.
    Glob,
    /// The same, and the last segment ends the path.
    AnchoredGlob,
}

/// One distinct rule in the matcher's form.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// The head's first eight bytes (little-endian, zero-padded) and which of them count.
    lead: u64,
    mask: u64,
    /// The pattern in the group's compiled bytes.
    pub(super) start: u32,
    len: u32,
    /// The literal head's length (the position of the first `*`, or `len`).
    pub(super) head: u32,
    /// The position of the last `*` (or `len`).
    last_star: u32,
    /// The number of literal bytes: a shorter path cannot match.
    min_len: u32,
    /// The rule: its position among the patterns the entries were made from.
    pub(super) rule: u32,
    /// This entry's first searcher in [`Entries::finders`], or [`NO_FINDERS`].
    finders: u32,
    /// For an unanchored glob, the [`bloom`] of the bytes its segments after the head need:
    /// a path missing one of them cannot match.
    need: u64,
    pub(super) shape: Shape,
}

impl Entry {
    /// Rule `rule`'s pattern `p` (its bytes in `bytes`) in the matcher's form, without
    /// prebuilt searchers; `None` for a pattern that matches nothing.
    pub(super) fn of(p: &Pattern, bytes: &[u8], rule: u32) -> Option<Entry> {
        Entry::with_long_segments(p, bytes, rule).map(|(entry, _)| entry)
    }

    /// [`Entry::of`], and how many of the entry's segments are searched and longer than
    /// [`SHORT`] bytes ([`long_segments`]): the bytes after the head are read once.
    fn with_long_segments(p: &Pattern, bytes: &[u8], rule: u32) -> Option<(Entry, u32)> {
        if p.matches_nothing {
            return None;
        }
        let mut pattern = p.bytes(bytes);
        let mut anchored = p.anchored;
        // `…*$`: the `*` matches whatever is left, so the anchor adds nothing.
        if anchored && pattern.last() == Some(&b'*') {
            anchored = false;
            while let [rest @ .., b'*'] = pattern {
                pattern = rest;
            }
        }
        // Compiling found the first `*`; dropping `*` at the end leaves it or none.
        let first_star = p
            .first_star
            .map(|at| at as usize)
            .filter(|&at| at < pattern.len());
        let head = first_star.unwrap_or(pattern.len());
        let after = Segments::of(pattern, head);
        let shape = match (first_star, anchored) {
            _ if p.matches_everything || (pattern.is_empty() && !anchored) => Shape::Everything,
            (None, false) => Shape::Prefix,
            (None, true) => Shape::Exact,
            (Some(_), false) => Shape::Glob,
            (Some(_), true) => Shape::AnchoredGlob,
        };
        let (need, long) = match shape {
            Shape::Glob => (after.bloom, after.long_before_last + after.long_last),
            // The last segment ends the path: compared in place, never searched.
            Shape::AnchoredGlob => (0, after.long_before_last),
            _ => (0, 0),
        };
        let lead_len = if shape == Shape::Everything {
            0
        } else {
            head.min(8)
        };
        let mask = match lead_len {
            8 => u64::MAX,
            n => (1u64 << (8 * n)) - 1,
        };
        let entry = Entry {
            lead: lead_of(&pattern[..lead_len]) & mask,
            mask,
            // The matcher's form only drops bytes at the end: it starts where the rule's.
            start: p.start,
            len: len_u32(pattern.len()),
            head: len_u32(head),
            last_star: len_u32(after.last_star.unwrap_or(pattern.len())),
            // The pattern's literal bytes, as compiled: dropping `*` before the anchor drops
            // none of them.
            min_len: if shape == Shape::Everything {
                0
            } else {
                p.min_len
            },
            rule,
            finders: NO_FINDERS,
            need,
            shape,
        };
        Some((entry, long))
    }

    /// The entry's pattern bytes in `bytes`, its group's compiled bytes.
    pub(super) fn pattern<'b>(&self, bytes: &'b [u8]) -> &'b [u8] {
        let start = self.start as usize;
        bytes
            .get(start..start + self.len as usize)
            .unwrap_or_default()
    }

    /// Whether the entry matches the path of `probe`, its long segments searched with
    /// `finders()` (a group's prebuilt searchers, when built; asked only for an entry that has
    /// some) or with searchers made per search.
    #[inline]
    pub(super) fn matches<'f>(
        &self,
        bytes: &[u8],
        finders: impl FnOnce() -> Option<&'f [Finder<'static>]>,
        probe: &mut Probe<'_>,
    ) -> bool {
        let e = self;
        let path = probe.path;
        if path.len() < e.min_len as usize || probe.lead & e.mask != e.lead {
            return false;
        }
        if e.shape == Shape::Everything {
            return true;
        }
        if e.need != 0 && e.need & !probe.bloom() != 0 {
            return false;
        }
        let pattern = e.pattern(bytes);
        // The first eight bytes of the head are equal; `min_len` covers the whole head.
        let head = e.head as usize;
        let from = head.min(8);
        if path.get(from..head) != pattern.get(from..head) {
            return false;
        }
        match e.shape {
            Shape::Prefix | Shape::Everything => true,
            Shape::Exact => path.len() == pattern.len(),
            Shape::Glob | Shape::AnchoredGlob => {
                let finders = if e.finders == NO_FINDERS {
                    None
                } else {
                    finders()
                };
                e.glob(pattern, path, finders)
            }
        }
    }

    /// The segments after the head: the last one ends the path when anchored, the others are
    /// found leftmost, in order (exact for `*`-only globs, linear in pattern plus path).
    fn glob(&self, pattern: &[u8], path: &[u8], finders: Option<&[Finder<'static>]>) -> bool {
        let head = self.head as usize;
        let last_star = self.last_star as usize;
        let last = pattern.get(last_star + 1..).unwrap_or_default();
        let anchored = self.shape == Shape::AnchoredGlob;
        let end = if anchored {
            if !path.ends_with(last) {
                return false;
            }
            path.len() - last.len()
        } else {
            path.len()
        };
        let mut pos = head;
        let mut finder = self.finders as usize;
        let mut find = |haystack: &[u8], segment: &[u8]| {
            if segment.len() <= SHORT {
                return find_short(haystack, segment);
            }
            match finders {
                None => memchr::memmem::find(haystack, segment),
                Some(finders) => {
                    let found = finders.get(finder).and_then(|f| f.find(haystack));
                    finder += 1;
                    found
                }
            }
        };
        if last_star > head {
            let middle = pattern.get(head + 1..last_star).unwrap_or_default();
            for segment in middle.split(|&b| b == b'*') {
                if segment.is_empty() {
                    continue;
                }
                match find(path.get(pos..end).unwrap_or_default(), segment) {
                    Some(at) => pos += at + segment.len(),
                    None => return false,
                }
            }
        }
        anchored || find(path.get(pos..).unwrap_or_default(), last).is_some()
    }
}

/// What one pass over a pattern's bytes after its head finds.
struct Segments {
    /// The position of the last `*`, if any.
    last_star: Option<usize>,
    /// The [`bloom`] of the bytes after the head but the `*`.
    bloom: u64,
    /// How many segments between the head and the last `*` are longer than [`SHORT`].
    long_before_last: u32,
    /// Whether the segment after the last `*` is longer than [`SHORT`] (1) or not (0).
    long_last: u32,
}

impl Segments {
    /// Read `pattern` from `head`, the position of its first `*` (or its length).
    fn of(pattern: &[u8], head: usize) -> Segments {
        let mut found = Segments {
            last_star: None,
            bloom: 0,
            long_before_last: 0,
            long_last: 0,
        };
        // The `*` at `head` ends the head, which is not searched: the segments start after it.
        let Some(after) = pattern.get(head + 1..) else {
            return found;
        };
        let (mut last_star, mut run) = (0, 0usize);
        for (at, &b) in after.iter().enumerate() {
            if b == b'*' {
                found.long_before_last += u32::from(run > SHORT);
                last_star = at + 1;
                run = 0;
            } else {
                found.bloom |= 1 << (b & 63);
                run += 1;
            }
        }
        found.last_star = Some(head + last_star);
        found.long_last = u32::from(run > SHORT);
        found
    }
}

/// A set of bytes in 64 bits, one bit per byte value modulo 64: which bytes may be there.
#[inline(always)]
fn bloom(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |set, &b| set | 1 << (b & 63))
}

/// A path being matched, with what is worked out about it on the way.
pub(crate) struct Probe<'p> {
    pub(super) path: &'p [u8],
    /// The first eight bytes, as [`Entry::lead`] compares them.
    lead: u64,
    /// [`bloom`] of the path, once an entry needed it.
    bloom: Option<u64>,
}

impl<'p> Probe<'p> {
    /// A path in the profile's form, about to be matched.
    pub(crate) fn new(path: &'p [u8]) -> Probe<'p> {
        Probe {
            path,
            lead: lead_of(path),
            bloom: None,
        }
    }

    /// The path.
    pub(crate) fn path(&self) -> &'p [u8] {
        self.path
    }

    #[inline]
    fn bloom(&mut self) -> u64 {
        *self.bloom.get_or_insert_with(|| bloom(self.path))
    }
}

/// The first eight bytes of `bytes` as a little-endian number, zero-padded.
#[inline]
fn lead_of(bytes: &[u8]) -> u64 {
    if let Some(lead) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*lead);
    }
    // Fewer than eight bytes, one by one: a copy of a length not known would call `memcpy`.
    bytes
        .iter()
        .rev()
        .fold(0, |lead, &b| lead << 8 | u64::from(b))
}

/// A group's entries, in precedence order, with their searchers.
#[derive(Clone, Debug)]
pub(super) struct Entries {
    /// The distinct rules that can match anything, in precedence order.
    entries: Box<[Entry]>,
    /// How many searchers [`Entries::build_finders`] makes.
    long_segments: u32,
    /// Searchers for the segments longer than [`SHORT`] bytes, in entry and segment order,
    /// once built.
    pub(super) finders: OnceLock<Box<[Finder<'static>]>>,
}

impl Entries {
    /// The entries of `patterns` (distinct, in precedence order), whose bytes are in `bytes`;
    /// patterns that match nothing get none.
    pub(super) fn new<'p>(patterns: impl IntoIterator<Item = &'p Pattern>, bytes: &[u8]) -> Self {
        let patterns = patterns.into_iter();
        let mut entries = Vec::with_capacity(patterns.size_hint().0);
        let mut finders = 0usize;
        for (i, p) in patterns.enumerate() {
            let Some((mut entry, long)) = Entry::with_long_segments(p, bytes, len_u32(i)) else {
                continue;
            };
            // Searchers cost more to build than one search: a group gets a few, for its first
            // patterns with long segments; the others search without one.
            let long = long as usize;
            if long > 0 && finders + long <= FINDERS_PER_GROUP {
                entry.finders = len_u32(finders);
                finders += long;
            }
            entries.push(entry);
        }
        Entries {
            entries: entries.into(),
            long_segments: len_u32(finders),
            finders: OnceLock::new(),
        }
    }

    /// Whether some entries have segments that get a prebuilt searcher.
    pub(super) fn has_long_segments(&self) -> bool {
        self.long_segments > 0
    }

    /// Build the searchers of the segments longer than [`SHORT`] bytes (once).
    pub(super) fn build_finders(&self, bytes: &[u8]) {
        self.finders.get_or_init(|| {
            let mut finders = Vec::with_capacity(self.long_segments as usize);
            for e in self.entries.iter().filter(|e| e.finders != NO_FINDERS) {
                let pattern = self.pattern(e, bytes);
                let anchored = e.shape == Shape::AnchoredGlob;
                finders.extend(
                    long_segments(pattern, e.head as usize, e.last_star as usize, anchored)
                        .map(|s| Finder::new(s).into_owned()),
                );
            }
            finders.into()
        });
    }

    /// The entries, in precedence order.
    pub(super) fn all(&self) -> &[Entry] {
        &self.entries
    }

    /// Whether entry `id` matches.
    #[inline]
    pub(super) fn matches(&self, id: u32, bytes: &[u8], probe: &mut Probe<'_>) -> bool {
        self.entries
            .get(id as usize)
            .is_some_and(|e| self.entry_matches(e, bytes, probe))
    }

    /// Visit `ids` (in precedence order) while they could beat `best`; the first that matches
    /// is the best of them.
    #[inline]
    pub(super) fn visit_in_order(
        &self,
        ids: &[u32],
        bytes: &[u8],
        probe: &mut Probe<'_>,
        best: &mut u32,
    ) {
        for &id in ids {
            if id >= *best {
                return;
            }
            if self.matches(id, bytes, probe) {
                *best = id;
                return;
            }
        }
    }

    /// The pattern bytes of an entry.
    pub(super) fn pattern<'b>(&self, e: &Entry, bytes: &'b [u8]) -> &'b [u8] {
        e.pattern(bytes)
    }

    /// Whether entry `e` matches the path of `probe`.
    #[inline]
    pub(super) fn entry_matches(&self, e: &Entry, bytes: &[u8], probe: &mut Probe<'_>) -> bool {
        e.matches(bytes, || self.finders.get().map(|f| &f[..]), probe)
    }

    pub(super) fn heap_size(&self) -> usize {
        let finders = self.finders.get().map_or(&[][..], |f| &f[..]);
        self.entries.len() * std::mem::size_of::<Entry>()
            + std::mem::size_of_val(finders)
            + finders.iter().map(|f| f.needle().len()).sum::<usize>()
    }
}

/// The segments of a glob's pattern (in the matcher's form) that are searched and longer than
/// [`SHORT`] bytes: those after the head, but the last when anchored (it is compared in
/// place, never searched).
fn long_segments(
    pattern: &[u8],
    head: usize,
    last_star: usize,
    anchored: bool,
) -> impl Iterator<Item = &[u8]> {
    let searched = if anchored {
        pattern.get(head + 1..last_star)
    } else {
        pattern.get(head + 1..)
    };
    searched
        .unwrap_or_default()
        .split(|&b| b == b'*')
        .filter(|s| s.len() > SHORT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// The one pass of [`Segments::of`] finds what the slower definitions find: the last `*`,
    /// the bytes the segments need, and as many long segments as [`long_segments`] gives
    /// searchers for (the build relies on the two counts being equal).
    #[test]
    fn one_pass_over_the_segments_agrees_with_their_definitions() {
        let mut rng = Rng(0x00c0_ffee);
        for case in 0..20_000 {
            let len = rng.below(40);
            let pattern: Vec<u8> = (0..len)
                .map(|_| *rng.pick(&[&b'*', &b'*', &b'a', &b'b', &b'/', &b'%']))
                .collect();
            let head = memchr::memchr(b'*', &pattern).unwrap_or(pattern.len());
            let found = Segments::of(&pattern, head);
            let last_star = memchr::memrchr(b'*', &pattern);
            assert_eq!(found.last_star, last_star, "case {case}: {pattern:?}");
            let last_star = last_star.unwrap_or(pattern.len());
            let bloom = pattern[head..]
                .iter()
                .filter(|&&b| b != b'*')
                .fold(0u64, |set, &b| set | 1 << (b & 63));
            assert_eq!(found.bloom, bloom, "case {case}: {pattern:?}");
            if head < pattern.len() {
                let unanchored = long_segments(&pattern, head, last_star, false).count();
                let anchored = long_segments(&pattern, head, last_star, true).count();
                let counted = (found.long_before_last + found.long_last) as usize;
                assert_eq!(counted, unanchored, "case {case}: {pattern:?}");
                assert_eq!(
                    found.long_before_last as usize, anchored,
                    "case {case}: {pattern:?}"
                );
            }
        }
    }
}
