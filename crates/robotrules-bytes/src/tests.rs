//! Every search against a byte-by-byte one, at every length and alignment.

use super::*;

fn plain(haystack: &[u8], set: &[u8]) -> Option<usize> {
    haystack.iter().position(|b| set.contains(b))
}

/// Haystacks of every length up to 300 from `alphabet`, sparse in stops at some lengths and
/// dense at others, each from several starting offsets.
fn haystacks(alphabet: &[u8], each: impl Fn(&[u8])) {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for len in 0..300usize {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let density = (state % 40) as usize + 1;
        let input: Vec<u8> = (0..len)
            .map(|i| {
                let k = (i * 7 + len) % (alphabet.len() * density);
                alphabet.get(k).copied().unwrap_or(b'x')
            })
            .collect();
        for start in 0..len.min(17) {
            each(&input[start..]);
        }
    }
}

#[test]
fn first_in_prefix_finds_what_a_plain_search_finds_or_says_how_far_it_looked() {
    haystacks(b"\n\r:#a/ \x80\x00\xFF", |hay| {
        for limit in [0, 1, 16, 32, 64, usize::MAX] {
            let expected = plain(hay, b"\n\r#:");
            match first_in_prefix(hay, [b'\n', b'\r', b'#', b':'], limit) {
                Ok(at) => assert_eq!(Some(at), expected, "{hay:?} {limit}"),
                Err(clear) => {
                    assert!(clear >= limit.min(hay.len()), "{hay:?} {limit}: {clear}");
                    assert!(clear <= hay.len(), "{hay:?} {limit}: {clear}");
                    assert!(expected.is_none_or(|e| e >= clear), "{hay:?} {limit}");
                }
            }
        }
    });
}

#[test]
fn find_high_or_finds_the_first_high_byte_or_byte_of_the_set() {
    haystacks(b"ab/%\x7F\x80\xC3\xFF", |hay| {
        let expected = hay.iter().position(|&b| b >= 0x80 || b == b'%');
        assert_eq!(find_high_or(hay, [b'%']), expected, "{hay:?}");
        let expected = hay.iter().position(|&b| b >= 0x80);
        assert_eq!(find_high_or(hay, []), expected, "{hay:?}");
    });
}

#[test]
fn find_any_and_find_byte_find_what_a_plain_search_finds() {
    haystacks(b"ab/?;#\x80\x00", |hay| {
        assert_eq!(find_any(hay, [b'/', b'?', b';', b'#']), plain(hay, b"/?;#"));
        assert_eq!(find_any(hay, [b'#', 0x80]), plain(hay, b"#\x80"));
        for byte in [b'a', b'#', 0x80, 0, b'z'] {
            assert_eq!(find_byte(hay, byte), plain(hay, &[byte]), "{hay:?} {byte}");
        }
    });
}

/// The word path's lowest mark is exact for every pair of bytes in every pair of places (a
/// byte that matches, then anything).
#[test]
fn the_lowest_word_mark_is_the_first_equal_byte() {
    for target in [b'\n', b'\r', b'#', b':', 0, 0xFF] {
        for (a, b) in (0..=u8::MAX).flat_map(|a| (0..=u8::MAX).map(move |b| (a, b))) {
            for place in 0..7 {
                let word = u64::from(a) << (8 * place)
                    | u64::from(b) << (8 * (place + 1))
                    | 0x4141_4141_4141_4141 & !(0xFFFF << (8 * place));
                let first = word.to_le_bytes().iter().position(|&x| x == target);
                let marks = word::equal(word, target);
                let got = (marks != 0).then(|| (marks.trailing_zeros() / 8) as usize);
                assert_eq!(got, first, "{a} {b} at {place} for {target}");
            }
        }
    }
}

/// The vector path and the word path agree on the first mark of every chunk with one or two
/// bytes of the set in it (and a high byte). On x86-64 that compares SSE2 with the words;
/// where the build has no vectors both are the words. The SIMD128 path is not built for the
/// host: the npm package's tests (`cargo xtask js`) run it end to end.
#[test]
fn every_path_marks_the_same_first_byte() {
    let set = [b'/', b'?', b';', b'#'];
    for first in 0..CHUNK {
        for second in first..CHUNK {
            for (x, y) in [(b'/', b'#'), (b'#', b'?'), (b';', b';'), (b'a', b'?')] {
                let mut chunk = [b'a'; CHUNK];
                chunk[first] = x;
                chunk[second] = y;
                let expected = plain(&chunk, &set);
                let lowest = |m: u32| (m != 0).then(|| m.trailing_zeros() as usize);
                assert_eq!(
                    lowest(word::chunk_marks::<4, false>(&chunk, &set)),
                    expected
                );
                assert_eq!(
                    lowest(chunk_marks::<4, false>(&chunk, &set)),
                    expected,
                    "{chunk:?}"
                );
                // With the high bytes: a byte above 0x7F anywhere before comes first.
                for high in 0..CHUNK {
                    let mut with_high = chunk;
                    with_high[high] = 0x80 | (high as u8);
                    let expected = with_high
                        .iter()
                        .position(|&b| b >= 0x80 || set.contains(&b));
                    let got = lowest(word::chunk_marks::<4, true>(&with_high, &set));
                    assert_eq!(got, expected, "{with_high:?}");
                    let got = lowest(chunk_marks::<4, true>(&with_high, &set));
                    assert_eq!(got, expected, "{with_high:?}");
                }
            }
        }
    }
}
