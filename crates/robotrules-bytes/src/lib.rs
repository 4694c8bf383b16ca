//! robotrules-bytes: the first byte of a small set in a short haystack, sixteen bytes at a
//! time.
//!
//! A robots.txt reader spends most of its time looking for one of a few bytes in short
//! haystacks: the `:`, `#` or line break that ends a key on the rest of a line, the `/`, `?`,
//! `;` or `#` that starts a URL's path. `memchr` is the fastest on long haystacks, but its
//! fixed cost per call dominates on 20 to 100 bytes. Here a chunk of sixteen bytes is tested
//! against every byte of the set at once:
//!
//! - with the 128-bit vectors of SSE2 on x86-64 and of SIMD128 on WebAssembly built with it
//!   (the npm package is): one compare per byte of the set, one mask;
//! - elsewhere, as two words of eight bytes, with plain integer operations (a borrow trick
//!   whose lowest mark is exact: the tests check it for every pair of bytes, for six targets).
//!
//! The tail of a haystack is its last chunk, overlapping bytes already read; a haystack
//! shorter than sixteen bytes is read as two overlapping words, or a byte at a time below
//! eight.
//!
//! # Why `unsafe`
//!
//! This is the only crate of the workspace that allows `unsafe` code, for one reason. The
//! x86-64 vector intrinsics (`_mm_cmpeq_epi8`, …) are safe functions with a
//! `#[target_feature]` attribute, and Rust lets safe code call such a function only from a
//! function with the same attribute, even when the feature is enabled for the whole build
//! (SSE2 is part of every x86-64 target). So the SSE2 module calls its one
//! `#[target_feature]` function from one `unsafe` block, under a `cfg` that holds only when
//! the feature is enabled at compile time: the function can never run on a machine without
//! it. Nothing reads memory through a pointer: the chunk is a `&[u8; 16]`, turned into a
//! vector from two `u64`s. (WebAssembly's intrinsics need no `unsafe`: an engine without
//! SIMD128 refuses the whole module.)

/// How many bytes a chunk holds.
const CHUNK: usize = 16;

/// The first byte of `haystack` that is in `set`, looked for in the first `limit` bytes at
/// least (whole chunks: it may look a little further): `Ok(position)`, or `Err(n)` when none
/// of the first `n` bytes is in `set`, `n` being at least `limit` or the whole haystack.
///
/// Callers that hand long haystacks over to `memchr` after a few chunks use the `Err` to know
/// where to start.
///
/// ```
/// use robotrules_bytes::first_in_prefix;
/// assert_eq!(first_in_prefix(b"Allow: /", [b':', b'#'], 16), Ok(5));
/// assert_eq!(first_in_prefix(b"no stop here", [b':'], 16), Err(12));
/// ```
#[inline(always)]
pub fn first_in_prefix<const N: usize>(
    haystack: &[u8],
    set: [u8; N],
    limit: usize,
) -> Result<usize, usize> {
    scan::<N, false>(haystack, set, limit)
}

/// [`first_in_prefix`], and with `HIGH` the bytes at or above 0x80 count as in the set.
#[inline(always)]
fn scan<const N: usize, const HIGH: bool>(
    haystack: &[u8],
    set: [u8; N],
    limit: usize,
) -> Result<usize, usize> {
    let mut at = 0;
    while at < limit {
        let Some(chunk) = haystack.get(at..).and_then(<[u8]>::first_chunk::<CHUNK>) else {
            return tail::<N, HIGH>(haystack, at, set);
        };
        let marks = chunk_marks::<N, HIGH>(chunk, &set);
        if marks != 0 {
            return Ok(at + marks.trailing_zeros() as usize);
        }
        at += CHUNK;
    }
    Err(at)
}

/// The first byte of `haystack` that is at or above 0x80 or in `set`: where text stops being
/// ASCII that needs nothing done (a pattern with neither `%` nor a byte above 0x7F needs no
/// escaping).
///
/// ```
/// use robotrules_bytes::find_high_or;
/// assert_eq!(find_high_or("/caf\u{e9}".as_bytes(), [b'%']), Some(4));
/// assert_eq!(find_high_or(b"/a%2F", [b'%']), Some(2));
/// assert_eq!(find_high_or(b"/plain/path", [b'%']), None);
/// ```
#[inline]
pub fn find_high_or<const N: usize>(haystack: &[u8], set: [u8; N]) -> Option<usize> {
    scan::<N, true>(haystack, set, usize::MAX).ok()
}

/// The first byte of `haystack` that is in `set`, however long the haystack (meant for short
/// ones: a URL).
///
/// ```
/// use robotrules_bytes::find_any;
/// assert_eq!(find_any(b"https://example.com/", [b'/', b'?']), Some(6));
/// assert_eq!(find_any(b"example.com", [b'/', b'?']), None);
/// ```
#[inline]
pub fn find_any<const N: usize>(haystack: &[u8], set: [u8; N]) -> Option<usize> {
    first_in_prefix(haystack, set, usize::MAX).ok()
}

/// After this many bytes, [`find_byte`] hands over to `memchr`.
const SHORT: usize = 128;

/// The position of the first `byte` in `haystack`: chunks for the first 128 bytes (a URL's
/// path, nearly always), `memchr` after them.
///
/// ```
/// use robotrules_bytes::find_byte;
/// assert_eq!(find_byte(b"/path#fragment", b'#'), Some(5));
/// assert_eq!(find_byte(&[b'a'; 1000], b'#'), None);
/// ```
#[inline]
pub fn find_byte(haystack: &[u8], byte: u8) -> Option<usize> {
    match first_in_prefix(haystack, [byte], SHORT) {
        Ok(at) => Some(at),
        Err(at) if at < haystack.len() => memchr::memchr(byte, &haystack[at..]).map(|k| at + k),
        Err(_) => None,
    }
}

/// Fewer than sixteen bytes left at `at`. The bytes before `at` are known to be unmarked, so
/// the last chunk of the haystack, which overlaps them, has its lowest mark at the first
/// marked byte after `at`. A haystack shorter than a chunk (then `at` is 0) is read as its
/// first word and its last word, which overlaps the first in the same way, and one shorter
/// than a word byte by byte.
#[inline(always)]
fn tail<const N: usize, const HIGH: bool>(
    haystack: &[u8],
    at: usize,
    set: [u8; N],
) -> Result<usize, usize> {
    let len = haystack.len();
    if let Some(chunk) = haystack.last_chunk::<CHUNK>() {
        let marks = chunk_marks::<N, HIGH>(chunk, &set);
        return match marks {
            0 => Err(len),
            marks => Ok(len - CHUNK + marks.trailing_zeros() as usize),
        };
    }
    debug_assert_eq!(at, 0);
    if let (Some(first), Some(last)) = (haystack.first_chunk::<8>(), haystack.last_chunk::<8>()) {
        for (start, word) in [(0, first), (len - 8, last)] {
            let marks = word::marks::<N, HIGH>(u64::from_le_bytes(*word), &set);
            if marks != 0 {
                return Ok(start + (marks.trailing_zeros() / 8) as usize);
            }
        }
        return Err(len);
    }
    match haystack
        .iter()
        .position(|b| (HIGH && *b >= 0x80) || set.contains(b))
    {
        Some(k) => Ok(k),
        None => Err(len),
    }
}

// `chunk_marks::<N, HIGH>(chunk, set)`: a bit per byte of `chunk` that is in `set` (or, with
// `HIGH`, at or above 0x80), in memory order (bit `k` for byte `k`), with the widest vectors
// the build has.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd128::marks as chunk_marks;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use sse2::marks as chunk_marks;
#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
use word::chunk_marks;

/// The two little-endian halves of a chunk.
#[inline(always)]
fn halves(chunk: &[u8; CHUNK]) -> (u64, u64) {
    let bytes = u128::from_le_bytes(*chunk);
    (bytes as u64, (bytes >> 64) as u64)
}

/// Eight bytes at a time with integer operations: everywhere, for haystacks shorter than a
/// chunk, and for whole chunks where the build has no vectors.
mod word {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;

    /// The high bit of the first byte of `word` (in memory order: `word` is read
    /// little-endian) that equals `target`, and maybe of later bytes: the borrow of a byte
    /// that matches may mark the bytes after it, never the ones before. Only the lowest mark
    /// is exact.
    #[inline(always)]
    pub(super) const fn equal(word: u64, target: u8) -> u64 {
        let x = word ^ (ONES * target as u64);
        x.wrapping_sub(ONES) & !x & HIGHS
    }

    /// The marks of every byte of `set` in `word` (and, with `HIGH`, of every byte at or
    /// above 0x80, which are exact): the lowest is exact, since a byte of the set is marked
    /// wrongly only after one marked rightly.
    #[inline(always)]
    pub(super) fn marks<const N: usize, const HIGH: bool>(word: u64, set: &[u8; N]) -> u64 {
        let mut found = if HIGH { word & HIGHS } else { 0 };
        let mut k = 0;
        while k < N {
            found |= equal(word, set[k]);
            k += 1;
        }
        found
    }

    /// A chunk's marks as the vector paths give them: a bit for the first byte in `set`, or
    /// none (only the lowest is used).
    #[inline(always)]
    #[cfg(any(
        test,
        not(any(
            all(target_arch = "x86_64", target_feature = "sse2"),
            all(target_arch = "wasm32", target_feature = "simd128")
        ))
    ))]
    pub(super) fn chunk_marks<const N: usize, const HIGH: bool>(
        chunk: &[u8; super::CHUNK],
        set: &[u8; N],
    ) -> u32 {
        let (low, high) = super::halves(chunk);
        let low = marks::<N, HIGH>(low, set);
        if low != 0 {
            return 1 << (low.trailing_zeros() / 8);
        }
        let high = marks::<N, HIGH>(high, set);
        if high != 0 {
            return 1 << (8 + high.trailing_zeros() / 8);
        }
        0
    }
}

/// SSE2, which every x86-64 processor has.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod sse2 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
        _mm_setzero_si128,
    };

    use super::{halves, CHUNK};

    #[inline(always)]
    pub(super) fn marks<const N: usize, const HIGH: bool>(
        chunk: &[u8; CHUNK],
        set: &[u8; N],
    ) -> u32 {
        // SAFETY: this module is compiled only where SSE2 is enabled for the whole build
        // (`target_feature = "sse2"`), so the processor running it has SSE2. The function
        // takes references, reads no pointer, and has no other requirement.
        unsafe { with_sse2::<N, HIGH>(chunk, set) }
    }

    #[target_feature(enable = "sse2")]
    fn with_sse2<const N: usize, const HIGH: bool>(chunk: &[u8; CHUNK], set: &[u8; N]) -> u32 {
        let (low, high) = halves(chunk);
        let bytes = _mm_set_epi64x(high as i64, low as i64);
        // The high bit of every byte is the mask itself.
        let mut hits = if HIGH { bytes } else { _mm_setzero_si128() };
        let mut k = 0;
        while k < N {
            hits = _mm_or_si128(hits, _mm_cmpeq_epi8(bytes, _mm_set1_epi8(set[k] as i8)));
            k += 1;
        }
        _mm_movemask_epi8(hits) as u32
    }
}

/// WebAssembly's SIMD128, which the npm package is built with. Its intrinsics are safe to
/// call where the build enables the feature: a WebAssembly engine refuses a module with
/// instructions it does not know, so nothing can run them without it.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use core::arch::wasm32::{i64x2, u8x16_bitmask, u8x16_eq, u8x16_splat, v128_or};

    use super::{halves, CHUNK};

    #[inline(always)]
    pub(super) fn marks<const N: usize, const HIGH: bool>(
        chunk: &[u8; CHUNK],
        set: &[u8; N],
    ) -> u32 {
        let (low, high) = halves(chunk);
        let bytes = i64x2(low as i64, high as i64);
        // The high bit of every byte is what the bitmask reads.
        let mut hits = if HIGH { bytes } else { u8x16_splat(0) };
        let mut k = 0;
        while k < N {
            hits = v128_or(hits, u8x16_eq(bytes, u8x16_splat(set[k])));
            k += 1;
        }
        u32::from(u8x16_bitmask(hits))
    }
}

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[cfg(test)]
mod tests;
