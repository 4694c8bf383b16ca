//! Finding the entries of a large bucket by a literal they need.
//!
//! A pattern such as `/*a*12345*b*c` matches only paths that contain each of its segments, so
//! each entry of a bucket is filed under one of them, its longest segment after the head,
//! keyed by the segment's first one to four bytes. A path then visits only the entries filed
//! under a key that occurs in it: for one-byte keys, under each distinct byte of the path; for
//! longer ones, under each window of the path, each key once. Entries without a segment after
//! the head (`/`, `/$`) are visited for every path.
//!
//! This is what keeps a file of 20,000 rules that all begin with `/*` fast: without it, every
//! check would try every rule.

use super::entry::{Entries, Entry, Probe, Shape};
use crate::pattern::len_u32;

/// Buckets with more entries than this are searched by literal.
pub(super) const GRAMS_FROM: usize = 32;

/// Keys are at most this many bytes of a segment.
const MAX_WIDTH: usize = 4;

/// A bucket's entries filed by literal.
#[derive(Clone, Debug)]
pub(super) struct Grams {
    /// Entries with no segment after the head, in precedence order.
    generic: Box<[u32]>,
    /// Where the path is searched from: the bucket's head length.
    skip: u32,
    /// Which key widths occur: bit `w - 1` for width `w`.
    widths: u8,
    /// One-byte keys: each byte's entries in `ids` (empty when none are one byte).
    single: Box<[(u32, u32)]>,
    /// Longer keys, open addressing on [`Slot::key`] (a power of two long).
    table: Box<[Slot]>,
    /// The bytes longer keys start with, one bit each: a window starting with another byte
    /// is passed over without a lookup.
    leads: [u64; 4],
    /// Entry positions, key by key, each key's in precedence order.
    ids: Box<[u32]>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// [`key_of`] the gram; 0 for an empty slot.
    key: u64,
    start: u32,
    end: u32,
}

/// A gram of one to four bytes as a non-zero number: its width in the top byte.
#[inline]
fn key_of(gram: &[u8]) -> u64 {
    match gram.len() {
        1 => fixed_key::<1>(gram),
        2 => fixed_key::<2>(gram),
        3 => fixed_key::<3>(gram),
        _ => fixed_key::<4>(gram),
    }
}

/// [`key_of`] a gram of `W` bytes (`gram` is at least that long): copies of a known length,
/// which cost no call to `memcpy`.
#[inline(always)]
fn fixed_key<const W: usize>(gram: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    if let Some(gram) = gram.first_chunk::<W>() {
        buf[..W].copy_from_slice(gram);
    }
    buf[7] = W as u8;
    u64::from_le_bytes(buf)
}

#[inline]
fn hash(key: u64, bits: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

impl Grams {
    /// A literal index for the bucket `range` of `ids`, when it is large enough to pay.
    pub(super) fn for_bucket(
        m: &Entries,
        bytes: &[u8],
        ids: &[u32],
        range: &std::ops::Range<u32>,
        skip: usize,
    ) -> Option<Box<Grams>> {
        let ids = ids.get(range.start as usize..range.end as usize)?;
        (ids.len() > GRAMS_FROM).then(|| Box::new(Grams::new(m, bytes, ids, skip)))
    }

    fn new(m: &Entries, bytes: &[u8], ids: &[u32], skip: usize) -> Grams {
        let mut generic = Vec::new();
        let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(ids.len());
        let mut widths = 0u8;
        let mut singles = 0;
        for &id in ids {
            match m.all().get(id as usize).and_then(|e| literal(m, e, bytes)) {
                Some(segment) => {
                    let gram = &segment[..segment.len().min(MAX_WIDTH)];
                    widths |= 1 << (gram.len() - 1);
                    singles += usize::from(gram.len() == 1);
                    keyed.push((key_of(gram), id));
                }
                None => generic.push(id),
            }
        }
        let mut out = vec![0u32; keyed.len()];
        // One-byte keys: count per byte, then place in precedence order.
        let mut single = Vec::new();
        if singles > 0 {
            let mut counts = [0u32; 256];
            for &(key, _) in keyed.iter().filter(|k| k.0 >> 56 == 1) {
                counts[(key & 0xFF) as usize] += 1;
            }
            let mut at = 0u32;
            single = counts
                .iter()
                .map(|&n| {
                    let range = (at, at);
                    at += n;
                    range
                })
                .collect();
            for &(key, id) in keyed.iter().filter(|k| k.0 >> 56 == 1) {
                let slot = &mut single[(key & 0xFF) as usize];
                out[slot.1 as usize] = id;
                slot.1 += 1;
            }
        }
        // Longer keys: a table at most two thirds full (fewer keys than entries, often far
        // fewer), counted then placed.
        let multi = keyed.len() - singles;
        let bits = (multi + multi / 2)
            .next_power_of_two()
            .max(16)
            .trailing_zeros();
        let mut table = vec![Slot::default(); 1 << bits];
        let mut leads = [0u64; 4];
        if multi > 0 {
            // Each key's slot, found once: counted, then placed. The slot's number takes the
            // key's place in `keyed`: its top byte is zero, which no key's width is.
            for (key, _) in keyed.iter_mut().filter(|k| k.0 >> 56 > 1) {
                let lead = *key as u8;
                leads[usize::from(lead >> 6)] |= 1 << (lead & 63);
                let at = find_or_insert(&mut table, bits, *key);
                table[at].end += 1;
                *key = at as u64;
            }
            let mut at = len_u32(singles);
            for slot in table.iter_mut().filter(|s| s.key != 0) {
                let n = slot.end;
                slot.start = at;
                slot.end = at;
                at += n;
            }
            for &(at, id) in keyed.iter().filter(|k| k.0 >> 56 == 0) {
                let slot = &mut table[at as usize];
                out[slot.end as usize] = id;
                slot.end += 1;
            }
        } else {
            table = Vec::new();
        }
        Grams {
            generic: generic.into(),
            skip: len_u32(skip),
            widths,
            single: single.into(),
            table: table.into(),
            leads,
            ids: out.into(),
        }
    }

    fn find(&self, key: u64) -> Option<&Slot> {
        if self.table.is_empty() {
            return None;
        }
        let bits = self.table.len().trailing_zeros();
        let mask = self.table.len() - 1;
        let mut at = hash(key, bits);
        loop {
            let slot = self.table.get(at)?;
            if slot.key == key {
                return Some(slot);
            }
            if slot.key == 0 {
                return None;
            }
            at = (at + 1) & mask;
        }
    }

    fn slice(&self, start: u32, end: u32) -> &[u32] {
        self.ids
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// Visit the entries filed under the literals of `path`.
    pub(super) fn visit(&self, m: &Entries, bytes: &[u8], probe: &mut Probe<'_>, best: &mut u32) {
        m.visit_in_order(&self.generic, bytes, probe, best);
        let haystack = probe.path.get(self.skip as usize..).unwrap_or_default();
        if self.widths & 1 != 0 {
            let mut present = [0u64; 4];
            for &b in haystack {
                present[usize::from(b >> 6)] |= 1 << (b & 63);
            }
            for (word, mut bits) in present.into_iter().enumerate() {
                while bits != 0 {
                    let byte = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if let Some(&(start, end)) = self.single.get(byte) {
                        m.visit_in_order(self.slice(start, end), bytes, probe, best);
                    }
                }
            }
        }
        if self.widths & !1 == 0 {
            return;
        }
        let mut seen = Seen::default();
        self.visit_windows::<2>(m, bytes, haystack, probe, best, &mut seen);
        self.visit_windows::<3>(m, bytes, haystack, probe, best, &mut seen);
        self.visit_windows::<4>(m, bytes, haystack, probe, best, &mut seen);
    }

    /// Visit the entries filed under each window of `W` bytes of `haystack`, if any keys are
    /// that wide, each key once.
    #[inline(always)]
    fn visit_windows<const W: usize>(
        &self,
        m: &Entries,
        bytes: &[u8],
        haystack: &[u8],
        probe: &mut Probe<'_>,
        best: &mut u32,
        seen: &mut Seen,
    ) {
        if self.widths & (1 << (W - 1)) == 0 {
            return;
        }
        for window in haystack.windows(W) {
            let lead = window[0];
            if self.leads[usize::from(lead >> 6)] & 1 << (lead & 63) == 0 {
                continue;
            }
            if let Some(slot) = self.find(fixed_key::<W>(window)) {
                if seen.first_time(slot.start) {
                    m.visit_in_order(self.slice(slot.start, slot.end), bytes, probe, best);
                }
            }
        }
    }

    pub(super) fn heap_size(&self) -> usize {
        std::mem::size_of::<Grams>()
            + (self.generic.len() + self.ids.len()) * 4
            + self.single.len() * 8
            + self.table.len() * std::mem::size_of::<Slot>()
    }
}

fn find_or_insert(table: &mut [Slot], bits: u32, key: u64) -> usize {
    let mask = table.len() - 1;
    let mut at = hash(key, bits);
    loop {
        if table[at].key == key {
            return at;
        }
        if table[at].key == 0 {
            table[at].key = key;
            return at;
        }
        at = (at + 1) & mask;
    }
}

/// The longest segment after the head (the first of equals), if any.
fn literal<'b>(m: &Entries, e: &Entry, bytes: &'b [u8]) -> Option<&'b [u8]> {
    if !matches!(e.shape, Shape::Glob | Shape::AnchoredGlob) {
        return None;
    }
    let pattern = m.pattern(e, bytes);
    let after = pattern.get(e.head as usize + 1..)?;
    // One pass: the start and length of the longest run without `*` so far, and the current.
    let (mut best, mut best_len, mut start) = (0, 0, 0);
    for (at, &b) in after.iter().enumerate() {
        if b == b'*' {
            start = at + 1;
        } else if at + 1 - start > best_len {
            (best, best_len) = (start, at + 1 - start);
        }
    }
    (best_len > 0).then(|| &after[best..best + best_len])
}

/// The keys a check has visited, so that a key found at several places of a path is visited
/// once; when full, it stops remembering (a key may then be visited again, which is only
/// slower).
struct Seen {
    slots: [u32; 64],
    used: usize,
}

impl Default for Seen {
    fn default() -> Self {
        Seen {
            slots: [u32::MAX; 64],
            used: 0,
        }
    }
}

impl Seen {
    fn first_time(&mut self, start: u32) -> bool {
        let mut at = (start as usize).wrapping_mul(0x9E37_79B9) >> 7 & 63;
        loop {
            match self.slots[at] {
                s if s == start => return false,
                u32::MAX if self.used < 48 => {
                    self.slots[at] = start;
                    self.used += 1;
                    return true;
                }
                u32::MAX => return true,
                _ => at = (at + 1) & 63,
            }
        }
    }
}
