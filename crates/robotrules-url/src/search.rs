//! Finding a byte in a short haystack, the URLs and paths a check reads.
//!
//! `memchr` is the fastest for long haystacks, but each call pays a fixed cost that dominates
//! for the 20 to 100 bytes of a URL. [`find_byte`](crate::search::find_byte) looks at eight
//! bytes at a time with plain integer operations for the first 64 bytes, then hands over to
//! `memchr`.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// After this many bytes, `memchr` takes over.
const SHORT: usize = 64;

/// The position of the first `byte` in `haystack`.
#[inline]
pub fn find_byte(haystack: &[u8], byte: u8) -> Option<usize> {
    let pattern = ONES * u64::from(byte);
    let mut at = 0;
    while let Some(word) = haystack.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        if at >= SHORT {
            return memchr::memchr(byte, &haystack[at..]).map(|k| at + k);
        }
        let x = u64::from_le_bytes(*word) ^ pattern;
        // The lowest set bit marks the first equal byte (higher ones may be wrong).
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    // Fewer than eight bytes left: the last eight of the haystack, whose bytes before `at`
    // are known not to be `byte`, so the lowest mark is still the first one after them.
    if let Some(word) = haystack.last_chunk::<8>() {
        let x = u64::from_le_bytes(*word) ^ pattern;
        let found = x.wrapping_sub(ONES) & !x & HIGHS;
        return (found != 0).then(|| haystack.len() - 8 + (found.trailing_zeros() / 8) as usize);
    }
    haystack[at..]
        .iter()
        .position(|&b| b == byte)
        .map(|k| at + k)
}

/// The position of the first byte of `haystack` that is one of `targets`, eight bytes at a
/// time.
#[inline]
pub(crate) fn find_any<const N: usize>(haystack: &[u8], targets: [u8; N]) -> Option<usize> {
    // The lowest mark of each target's test is exact, so the lowest of their union is too.
    let marks = |word: &[u8; 8]| {
        let word = u64::from_le_bytes(*word);
        targets.iter().fold(0, |found, &t| {
            let x = word ^ (ONES * u64::from(t));
            found | (x.wrapping_sub(ONES) & !x & HIGHS)
        })
    };
    let mut at = 0;
    while let Some(word) = haystack.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let found = marks(word);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    // As in `find_byte`: the last eight bytes, none of them a target before `at`.
    if let Some(word) = haystack.last_chunk::<8>() {
        let found = marks(word);
        return (found != 0).then(|| haystack.len() - 8 + (found.trailing_zeros() / 8) as usize);
    }
    haystack[at..]
        .iter()
        .position(|b| targets.contains(b))
        .map(|k| at + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_any_finds_what_a_plain_search_finds() {
        for len in 0..80 {
            let haystack: Vec<u8> = (0..len)
                .map(|i| b"ab/?;#\x80"[(i * 11 + len) % 7])
                .collect();
            for from in 0..len.min(9) {
                let hay = &haystack[from..];
                let targets = [b'/', b'?', b';', b'#'];
                let expected = hay.iter().position(|b| targets.contains(b));
                assert_eq!(find_any(hay, targets), expected, "{hay:?}");
                let expected = hay.iter().position(|&b| b == b'#' || b == 0x80);
                assert_eq!(find_any(hay, [b'#', 0x80]), expected, "{hay:?}");
            }
        }
    }

    #[test]
    fn finds_what_a_plain_search_finds() {
        for len in 0..150 {
            let haystack: Vec<u8> = (0..len).map(|i| b"ab#\x80\x00"[i * 7 % 5]).collect();
            for byte in [b'a', b'#', 0x80, 0, b'z'] {
                let expected = haystack.iter().position(|&b| b == byte);
                assert_eq!(find_byte(&haystack, byte), expected, "{haystack:?} {byte}");
                for from in 0..len.min(9) {
                    let expected = haystack[from..].iter().position(|&b| b == byte);
                    assert_eq!(find_byte(&haystack[from..], byte), expected);
                }
            }
        }
    }
}
