//! Which rule of a group decides for a path: the first distinct rule, in precedence order,
//! whose pattern matches (RFC 9309 §2.2.2, §2.2.3) — visiting only rules that can match; and,
//! for explanations, every rule that matches.
//!
//! Each distinct rule becomes an entry ([`entry`]), tried in one comparison for most paths.
//! A group is first scanned in precedence order: the first entry that matches decides. A
//! crawler that checks a handful of URLs per site pays nothing more; what makes a large group
//! fast to ask is built only once the group has been asked [`BUILD_AFTER`] times (sooner for
//! a very large group, see [`SCAN_BUDGET`]), when its cost is repaid (a scan that long costs
//! about as much as the build):
//!
//! - a group of more than [`SCAN_MAX`] entries gets an [`index`]: the literal heads in a
//!   flattened trie (sorted, each knowing the longest other head that is a prefix of it), so
//!   that a path visits only the entries whose head it starts with; entries whose head is `/`
//!   or empty (`/*.php$`, `*?`), which every path starts with, are found by a literal they
//!   contain ([`grams`]) when there are many. Whatever visits them, the entries' positions are
//!   their precedence, so the smallest position that matches decides;
//! - segments longer than eight bytes get prebuilt `memmem` searchers ([`entry`]); until then
//!   each search builds its own.
//!
//! The tests (`matcher/tests.rs`) check every structure here against the plain definition of
//! a match, one pattern at a time, and against Google's position-set algorithm, both before
//! and after the build.

mod entry;
mod grams;
mod index;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use crate::pattern::Pattern;

pub(crate) use self::entry::Probe;
use self::entry::{Entries, Entry};
use self::index::Index;

/// Groups with at most this many distinct rules are always scanned; larger ones get an index
/// once asked [`BUILD_AFTER`] times. A scan rules out most entries by one comparison of their
/// first eight bytes, so up to about this size it costs less than the index's search and its
/// buckets (run T of `docs/performance.md`: 16 cost 4–5% more instructions per check on the
/// real sample, and 6–40% more CPU time run by run).
pub(crate) const SCAN_MAX: usize = 64;

/// How many checks of a group are scanned before its index and searchers are built. Building
/// an index costs about as much as this many scans of the same entries, so a crawler pays at
/// most about twice what the better of the two choices would have cost (the ski-rental bound),
/// and a crawler that checks a handful of URLs never pays for the build.
pub(crate) const BUILD_AFTER: u32 = 32;

/// At most this many entries are scanned in all before the build, whatever the group's size:
/// a large group is built sooner (a group of 20,000 `/*a*N*b*c*$` rules at its first check),
/// so that no file costs more than a few scans of its largest group (the worst cases of
/// `docs/performance.md`).
const SCAN_BUDGET: usize = 2048;

/// The rules of one group, ready to match.
#[derive(Debug)]
pub(crate) struct Matcher {
    entries: Entries,
    /// Whether there is anything to build: more than [`SCAN_MAX`] entries, or long segments.
    builds: bool,
    /// The check that builds: the [`BUILD_AFTER`]th, or sooner for a group so large that
    /// this many scans would go past [`SCAN_BUDGET`] entries.
    build_after: u32,
    /// The checks so far, until the build (a plain count: two threads may count one check
    /// once, which only delays the build).
    asked: AtomicU32,
    /// Set by the build: the index, for groups of more than [`SCAN_MAX`] entries.
    index: OnceLock<Option<Box<Index>>>,
}

impl Clone for Matcher {
    fn clone(&self) -> Self {
        Matcher {
            entries: self.entries.clone(),
            builds: self.builds,
            build_after: self.build_after,
            asked: AtomicU32::new(self.asked.load(Ordering::Relaxed)),
            index: self.index.clone(),
        }
    }
}

impl Matcher {
    /// A matcher for `patterns` (distinct, in precedence order), whose normalised bytes are
    /// in `bytes`. A rule is known by its pattern's position in `patterns`. Nothing is built
    /// beyond the entries until the group has been asked [`BUILD_AFTER`] times.
    pub(crate) fn new<'p>(patterns: impl IntoIterator<Item = &'p Pattern>, bytes: &[u8]) -> Self {
        let entries = Entries::new(patterns, bytes);
        let builds = entries.all().len() > SCAN_MAX || entries.has_long_segments();
        let build_after = (SCAN_BUDGET / entries.all().len().max(1)).clamp(1, BUILD_AFTER as usize);
        Matcher {
            entries,
            builds,
            build_after: build_after as u32,
            asked: AtomicU32::new(0),
            index: OnceLock::new(),
        }
    }

    /// Build the index and the searchers now (the tests ask both forms).
    #[cfg(test)]
    pub(crate) fn built(self, bytes: &[u8]) -> Self {
        self.build(bytes);
        self
    }

    /// Build what makes a large group fast to ask: once, whichever thread gets here first.
    #[cold]
    fn build(&self, bytes: &[u8]) -> Option<&Index> {
        self.index
            .get_or_init(|| {
                self.entries.build_finders(bytes);
                (self.entries.all().len() > SCAN_MAX)
                    .then(|| Box::new(Index::new(&self.entries, bytes)))
            })
            .as_deref()
    }

    /// The index, when the group has one or has just been asked often enough to build it.
    #[inline]
    fn index(&self, bytes: &[u8]) -> Option<&Index> {
        if !self.builds {
            return None;
        }
        if let Some(built) = self.index.get() {
            return built.as_deref();
        }
        let asked = self.asked.load(Ordering::Relaxed) + 1;
        if asked >= self.build_after {
            return self.build(bytes);
        }
        self.asked.store(asked, Ordering::Relaxed);
        None
    }

    /// The position of the first pattern, in precedence order, that matches `path`.
    #[inline]
    pub(crate) fn first_match(&self, bytes: &[u8], probe: &mut Probe<'_>) -> Option<u32> {
        let found = match self.index(bytes) {
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
        self.entries.heap_size()
            + self
                .index
                .get()
                .and_then(Option::as_ref)
                .map_or(0, |i| i.heap_size())
    }
}

/// Whether `pattern`, its bytes in `bytes`, matches the path of `probe`, with nothing built
/// (the check of a group not compiled yet, [`crate::compile::first_match_uncompiled`]).
#[inline]
pub(crate) fn matches_alone(pattern: &Pattern, bytes: &[u8], probe: &mut Probe<'_>) -> bool {
    Entry::of(pattern, bytes, 0).is_some_and(|e| e.matches(bytes, || None, probe))
}

#[cfg(test)]
mod tests;
