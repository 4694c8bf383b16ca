//! The index of a large group: its entries' literal heads in a flattened trie, and a bucket
//! of the entries whose head every path starts with.
//!
//! The distinct heads of at least two bytes are sorted; each knows its parent, the longest
//! other head that is a prefix of it. For a path, the greatest head not above it (one binary
//! search) and that head's ancestors are the only heads the path can start with: every string
//! between a prefix of the path and the path itself starts with that prefix. So a check walks
//! from that head up to the root, visiting the buckets of the heads the path starts with —
//! the trie's path, without a node per byte.
//!
//! Entries whose head is `/` or empty are in the floating bucket, visited for every path; a
//! bucket of more than [`GRAMS_FROM`](super::grams::GRAMS_FROM) entries (floating or not) is searched by literal
//! ([`super::grams`]) rather than scanned.

use std::ops::Range;

use super::entry::{Entries, Probe, Shape};
use super::grams::Grams;
use crate::pattern::len_u32;

/// No parent.
const ROOT: u32 = u32::MAX;

/// The index of one group's entries.
#[derive(Clone, Debug)]
pub(super) struct Index {
    /// Entries whose head is at most one byte, which every path starts with.
    floating: Bucket,
    /// The distinct heads of at least two bytes, sorted.
    heads: Box<[Head]>,
    /// Entry positions, bucket after bucket, each bucket's in precedence order.
    ids: Box<[u32]>,
}

/// A distinct head and the entries that have it.
#[derive(Clone, Debug)]
struct Head {
    /// The head's first sixteen bytes, big-endian and zero-padded: orders like the bytes.
    key: u128,
    /// The head in the group's compiled bytes.
    start: u32,
    len: u32,
    /// The longest other head that is a prefix of this one, or [`ROOT`].
    parent: u32,
    bucket: Bucket,
}

/// Entries visited together.
#[derive(Clone, Debug)]
struct Bucket {
    ids: Range<u32>,
    /// For buckets of more than [`GRAMS_FROM`](super::grams::GRAMS_FROM) entries.
    grams: Option<Box<Grams>>,
}

/// The first sixteen bytes of `bytes`, big-endian and zero-padded.
fn key_of(bytes: &[u8]) -> u128 {
    if let Some(key) = bytes.first_chunk::<16>() {
        return u128::from_be_bytes(*key);
    }
    // Fewer than sixteen bytes, one by one: a copy of a length not known would call `memcpy`.
    let key = bytes.iter().fold(0u128, |key, &b| key << 8 | u128::from(b));
    key.checked_shl(8 * (16 - bytes.len() as u32)).unwrap_or(0)
}

impl Index {
    pub(super) fn new(m: &Entries, bytes: &[u8]) -> Index {
        let mut floating = Vec::new();
        // Heads of at least two bytes: the first sixteen bytes as a number, and the entry.
        // Reserved once, as `heads` below: grown by doubling, a large group's vectors were
        // copied (and faulted in) several times over (`legacy1994`'s `star-first`: 20,000).
        let mut rooted: Vec<(u128, u32)> = Vec::with_capacity(m.all().len());
        let head_of = |id: u32| {
            m.all().get(id as usize).map_or(&[][..], |e| {
                m.pattern(e, bytes)
                    .get(..e.head as usize)
                    .unwrap_or_default()
            })
        };
        for (id, e) in m.all().iter().enumerate() {
            let head = head_of(len_u32(id));
            if head.len() <= 1 || e.shape == Shape::Everything {
                floating.push(len_u32(id));
            } else {
                rooted.push((key_of(head), len_u32(id)));
            }
        }
        // By the first sixteen bytes (numbers, cheap to compare and to move), then the heads
        // that share them by the rest of their bytes. Stable sorts, so equal heads stay in
        // precedence order; they also take rules already in order (numbered paths, files
        // sorted by hand) in runs rather than one by one.
        rooted.sort_by_key(|&(key, _)| key);
        for same in rooted.chunk_by_mut(|a, b| a.0 == b.0) {
            if same.len() > 1 {
                same.sort_by(|a, b| head_of(a.1).cmp(head_of(b.1)));
            }
        }
        let mut ids = Vec::with_capacity(m.all().len());
        let mut heads: Vec<Head> = Vec::with_capacity(rooted.len());
        // The heads that may still be prefixes of the next one, longest last.
        let mut open: Vec<usize> = Vec::new();
        for run in rooted.chunk_by(|a, b| a.0 == b.0 && head_of(a.1) == head_of(b.1)) {
            let head = head_of(run[0].1);
            let start = len_u32(ids.len());
            ids.extend(run.iter().map(|r| r.1));
            while let Some(&top) = open.last() {
                if head.starts_with(head_bytes(&heads[top], bytes)) {
                    break;
                }
                open.pop();
            }
            let at = m.all().get(run[0].1 as usize).map_or(0, |e| e.start);
            heads.push(Head {
                key: run[0].0,
                start: at,
                len: len_u32(head.len()),
                parent: open.last().map_or(ROOT, |&p| len_u32(p)),
                bucket: Bucket {
                    ids: start..len_u32(ids.len()),
                    grams: None,
                },
            });
            open.push(heads.len() - 1);
        }
        let start = len_u32(ids.len());
        ids.extend(floating);
        let mut floating = Bucket {
            ids: start..len_u32(ids.len()),
            grams: None,
        };
        floating.grams = Grams::for_bucket(m, bytes, &ids, &floating.ids, 0);
        for head in &mut heads {
            head.bucket.grams =
                Grams::for_bucket(m, bytes, &ids, &head.bucket.ids, head.len as usize);
        }
        Index {
            floating,
            heads: heads.into(),
            ids: ids.into(),
        }
    }

    /// The smallest entry position that matches `path`.
    #[inline]
    pub(super) fn first_match(
        &self,
        m: &Entries,
        bytes: &[u8],
        probe: &mut Probe<'_>,
    ) -> Option<u32> {
        let mut best = u32::MAX;
        let path = probe.path;
        let key = key_of(path);
        // The heads not above the path in sort order.
        let below = self
            .heads
            .partition_point(|h| h.key < key || (h.key == key && head_bytes(h, bytes) <= path));
        if let Some(last) = below.checked_sub(1) {
            let common = common_prefix(head_bytes(&self.heads[last], bytes), path);
            let mut at = last;
            while let Some(head) = self.heads.get(at) {
                if head.len as usize <= common {
                    self.visit(&head.bucket, m, bytes, probe, &mut best);
                }
                at = head.parent as usize;
            }
        }
        self.visit(&self.floating, m, bytes, probe, &mut best);
        (best != u32::MAX).then_some(best)
    }

    fn visit(
        &self,
        bucket: &Bucket,
        m: &Entries,
        bytes: &[u8],
        probe: &mut Probe<'_>,
        best: &mut u32,
    ) {
        match &bucket.grams {
            Some(grams) => grams.visit(m, bytes, probe, best),
            None => {
                let ids = self
                    .ids
                    .get(bucket.ids.start as usize..bucket.ids.end as usize)
                    .unwrap_or_default();
                m.visit_in_order(ids, bytes, probe, best);
            }
        }
    }

    pub(super) fn heap_size(&self) -> usize {
        self.heads.len() * std::mem::size_of::<Head>()
            + self.ids.len() * 4
            + self
                .heads
                .iter()
                .map(|h| &h.bucket)
                .chain([&self.floating])
                .filter_map(|b| b.grams.as_ref())
                .map(|g| g.heap_size())
                .sum::<usize>()
    }
}

fn head_bytes<'b>(head: &Head, bytes: &'b [u8]) -> &'b [u8] {
    let start = head.start as usize;
    bytes
        .get(start..start + head.len as usize)
        .unwrap_or_default()
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}
