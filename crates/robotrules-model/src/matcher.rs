//! Which rule of a group decides for a path: the first distinct rule, in precedence order,
//! whose pattern matches (RFC 9309 §2.2.2, §2.2.3) — visiting only rules that can match; and,
//! for explanations, every rule that matches.
//!
//! Each distinct rule becomes an entry ([`entry`]), tried in one comparison for most paths.
//! A small group (at most [`SCAN_MAX`] entries) is scanned in precedence order: the first
//! entry that matches decides. A larger group gets an [`index`]: the literal heads in a
//! flattened trie (sorted, each knowing the longest other head that is a prefix of it), so
//! that a path visits only the entries whose head it starts with; entries whose head is `/`
//! or empty (`/*.php$`, `*?`), which every path starts with, are found by a literal they
//! contain ([`grams`]) when there are many. Whatever visits them, the entries' positions are
//! their precedence, so the smallest position that matches decides.
//!
//! The tests (`matcher/tests.rs`) check every structure here against the plain definition of
//! a match, one pattern at a time, and against Google's position-set algorithm.

mod entry;
mod grams;
mod index;

use crate::pattern::Pattern;

use self::entry::Entries;
pub(crate) use self::entry::Probe;
use self::index::Index;

/// Groups with at most this many distinct rules are scanned; larger ones get an index.
pub(crate) const SCAN_MAX: usize = 16;

/// The rules of one group, ready to match.
#[derive(Clone, Debug)]
pub(crate) struct Matcher {
    entries: Entries,
    /// For groups of more than [`SCAN_MAX`] entries.
    index: Option<Box<Index>>,
}

impl Matcher {
    /// A matcher for `patterns` (distinct, in precedence order), whose normalised bytes are
    /// in `bytes`. A rule is known by its pattern's position in `patterns`.
    pub(crate) fn new<'p>(patterns: impl IntoIterator<Item = &'p Pattern>, bytes: &[u8]) -> Self {
        let entries = Entries::new(patterns, bytes);
        let index = (entries.all().len() > SCAN_MAX).then(|| Box::new(Index::new(&entries, bytes)));
        Matcher { entries, index }
    }

    /// The position of the first pattern, in precedence order, that matches `path`.
    #[inline]
    pub(crate) fn first_match(&self, bytes: &[u8], probe: &mut Probe<'_>) -> Option<u32> {
        let found = match &self.index {
            None => self
                .entries
                .all()
                .iter()
                .position(|e| self.entries.entry_matches(e, bytes, probe))?,
            Some(index) => index.first_match(&self.entries, bytes, probe)? as usize,
        };
        Some(self.entries.all().get(found)?.rule)
    }

    /// The positions of every pattern that matches `path`, in precedence order: what an
    /// explanation lists. Every entry is tried (the index only finds the first).
    pub(crate) fn every_match(&self, bytes: &[u8], probe: &mut Probe<'_>) -> Vec<u32> {
        self.entries
            .all()
            .iter()
            .filter(|e| self.entries.entry_matches(e, bytes, probe))
            .map(|e| e.rule)
            .collect()
    }

    pub(crate) fn heap_size(&self) -> usize {
        self.entries.heap_size() + self.index.as_ref().map_or(0, |i| i.heap_size())
    }
}

#[cfg(test)]
mod tests;
