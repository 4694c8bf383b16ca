//! The bytes that shape a line — line ends (`LF`, `CR`), `:` and `#` — in file order, found
//! eight at a time.
//!
//! Each word of eight bytes is tested against the four bytes at once (exactly: a bit per byte
//! that equals one of them), and the positions come out of the word's bits one by one, so each
//! byte of the file is looked at once, whatever the line lengths. After a run of words with
//! nothing in them (a long line, an HTML page), `memchr` finds the next position instead.

use memchr::{memchr, memchr3};

const ONES: u64 = 0x0101_0101_0101_0101;
const LOWS: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// [`Events::find`] looks at this many words before `memchr` takes over.
const FIND_WORDS: usize = 4;

/// After this many words without an event, `memchr` looks for the next one.
const QUIET_WORDS: u32 = 4;

/// The high bit of each byte of `word` that equals `target`, exactly.
#[inline(always)]
fn equal(word: u64, target: u8) -> u64 {
    let x = word ^ (ONES * u64::from(target));
    !(((x & LOWS).wrapping_add(LOWS)) | x | LOWS)
}

/// The events of a word: its line ends, colons and hashes, as the high bits of their bytes.
#[inline(always)]
fn events(word: u64) -> u64 {
    equal(word, b'\n') | equal(word, b'\r') | equal(word, b':') | equal(word, b'#')
}

/// A cursor over the events of `input[start..end]`.
#[derive(Clone, Debug)]
pub(crate) struct Events {
    /// Where the current word starts.
    base: usize,
    /// The current word's events not yet taken.
    pending: u64,
    /// Words in a row without an event.
    quiet: u32,
    /// Where `memchr` last found the next line end or `#` (or `end`): no need to look for
    /// one again before it.
    stop: usize,
}

impl Events {
    pub(crate) fn new(input: &[u8], start: usize, end: usize) -> Events {
        let mut events = Events {
            base: start,
            pending: 0,
            quiet: 0,
            stop: start,
        };
        events.load(input, end);
        events
    }

    /// Read the word at `base`.
    #[inline(always)]
    fn load(&mut self, input: &[u8], end: usize) {
        let word = match input.get(self.base..end).and_then(|w| w.first_chunk::<8>()) {
            Some(w) => u64::from_le_bytes(*w),
            None => {
                // The last bytes, zero-padded (no event byte is zero).
                let mut v = 0;
                let tail = input.get(self.base..end).unwrap_or_default();
                for (i, &b) in tail.iter().enumerate() {
                    v |= u64::from(b) << (8 * i);
                }
                v
            }
        };
        self.pending = events(word);
    }

    /// The next event at or after `from`, before `end`.
    #[inline(always)]
    pub(crate) fn next(&mut self, input: &[u8], from: usize, end: usize) -> Option<usize> {
        loop {
            while self.pending != 0 {
                let at = self.base + (self.pending.trailing_zeros() / 8) as usize;
                self.pending &= self.pending - 1;
                if at >= from {
                    self.quiet = 0;
                    return Some(at);
                }
            }
            self.base += 8;
            if self.base >= end {
                return None;
            }
            self.quiet += 1;
            if self.quiet > QUIET_WORDS {
                // A long stretch: jump to the next event with `memchr`, if any.
                self.quiet = 0;
                if self.stop < self.base {
                    self.stop = memchr3(b'\n', b'\r', b'#', &input[self.base..end])
                        .map_or(end, |k| self.base + k);
                }
                let rest = &input[self.base..end];
                let stop = self.stop - self.base;
                let next = memchr(b':', &rest[..stop]).unwrap_or(stop);
                if next == rest.len() {
                    self.base = end;
                    return None;
                }
                // Resume on a word boundary, from that byte on.
                let skip = next / 8 * 8;
                self.base += skip;
                self.load(input, end);
                let below = (next - skip) * 8;
                self.pending &= !((1u64 << below) - 1);
                continue;
            }
            self.load(input, end);
        }
    }
}

impl Events {
    /// Continue at `at`: the next word starts there.
    #[inline(always)]
    fn seek(&mut self, input: &[u8], at: usize, end: usize) {
        self.base = at;
        self.quiet = 0;
        self.load(input, end);
    }

    /// The first byte at or after `from` that is one of `targets` (two or three of the event
    /// bytes): from the current word's events and the next few words', else with `memchr`,
    /// which suits values and comments of any length. `end` if there is none.
    #[inline(always)]
    pub(crate) fn find<const N: usize>(
        &mut self,
        input: &[u8],
        from: usize,
        end: usize,
        targets: [u8; N],
    ) -> usize {
        // The current word and a few more, as words: most values and comments end there.
        for _ in 0..FIND_WORDS {
            while self.pending != 0 {
                let at = self.base + (self.pending.trailing_zeros() / 8) as usize;
                self.pending &= self.pending - 1;
                if at >= from && targets.iter().any(|&t| t == input[at]) {
                    return at;
                }
            }
            self.base += 8;
            if self.base >= end {
                self.base = end;
                return end;
            }
            self.load(input, end);
        }
        let next = self.base.max(from);
        let rest = &input[next..end];
        let found = match targets.as_slice() {
            [a, b] => memchr::memchr2(*a, *b, rest),
            [a, b, c] => memchr3(*a, *b, *c, rest),
            _ => None,
        };
        match found {
            Some(k) => {
                self.seek(input, next + k, end);
                next + k
            }
            None => {
                self.base = end;
                self.pending = 0;
                end
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cursor gives exactly the positions of `\n`, `\r`, `:` and `#`, in order, whatever
    /// the alignment and the length of quiet stretches.
    #[test]
    fn finds_every_event_and_nothing_else() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let alphabet = b"\n\r:#a/ \x80\x00\xFF";
        for len in 0..300usize {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Sparse events at some lengths, dense at others.
            let density = (state % 9) as usize + 1;
            let input: Vec<u8> = (0..len)
                .map(|i| {
                    let k = (i * 7 + len) % (alphabet.len() * density);
                    alphabet.get(k).copied().unwrap_or(b'x')
                })
                .collect();
            for start in 0..len.min(9) {
                let expected: Vec<usize> = (start..len)
                    .filter(|&i| matches!(input[i], b'\n' | b'\r' | b':' | b'#'))
                    .collect();
                let mut events = Events::new(&input, start, len);
                let mut got = Vec::new();
                while let Some(at) = events.next(&input, start, len) {
                    got.push(at);
                }
                assert_eq!(got, expected, "{input:?} from {start}");
            }
        }
    }

    /// `find` for line ends and hashes, then for line ends, as the lexer calls them: the
    /// same positions as looking byte by byte.
    #[test]
    fn find_agrees_with_a_byte_by_byte_search() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let alphabet = b"\n\r:#ab/ ";
        for round in 0..2_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 90) as usize;
            let input: Vec<u8> = (0..len)
                .map(|i| {
                    let x = state.rotate_left((i % 64) as u32) as usize + i * round;
                    alphabet[x % alphabet.len()]
                })
                .collect();
            let mut events = Events::new(&input, 0, len);
            let mut from = 0;
            let mut expected_from = 0;
            while from < len {
                let first = events.next(&input, from, len).unwrap_or(len);
                let reference = (from..len)
                    .find(|&i| matches!(input[i], b'\n' | b'\r' | b':' | b'#'))
                    .unwrap_or(len);
                assert_eq!(first, reference, "{input:?}");
                if first == len {
                    break;
                }
                let hash = events.find(&input, first + 1, len, [b'\n', b'\r', b'#']);
                let reference = (first + 1..len)
                    .find(|&i| matches!(input[i], b'\n' | b'\r' | b'#'))
                    .unwrap_or(len);
                assert_eq!(hash, reference, "{input:?}");
                let eol = events.find(&input, (hash + 1).min(len), len, [b'\n', b'\r']);
                let reference = ((hash + 1).min(len)..len)
                    .find(|&i| matches!(input[i], b'\n' | b'\r'))
                    .unwrap_or(len);
                assert_eq!(eol, reference, "{input:?}");
                from = eol + 1;
                expected_from += 1;
            }
            assert!(expected_from <= len + 1);
        }
    }

    #[test]
    fn equal_is_exact_for_every_byte_pair() {
        for target in [b'\n', b'\r', b':', b'#'] {
            for byte in 0..=u8::MAX {
                for place in 0..8 {
                    let word = u64::from(byte) << (8 * place)
                        | 0x4141_4141_4141_4141 & !(0xFF << (8 * place));
                    let hit = equal(word, target);
                    let expected = if byte == target {
                        0x80u64 << (8 * place)
                    } else {
                        0
                    };
                    assert_eq!(hit, expected, "{byte} at {place} for {target}");
                }
            }
        }
    }
}
