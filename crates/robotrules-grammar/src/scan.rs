//! The hot loops of reading, as nom parsers: runs of bytes up to a `:`, `#`, line break or
//! NUL, found sixteen bytes at a time, and `memchr` once a run is long.
//!
//! Each parser here is an ordinary nom parser (`fn(&[u8]) -> Res<'_, &[u8]>`) that
//! recognises the longest run of bytes outside a small set and never fails (the run may be
//! empty); [`crate::abnf`] composes them with nom combinators like any other production.
//!
//! Most lines are short (a key, a colon, a path), so a run is first looked for in chunks of
//! sixteen bytes, each tested against every byte of the set at once
//! ([`robotrules_bytes::first_in_prefix`]). After [`SHORT`] bytes without a hit (a long
//! value, a minified HTML page), `memchr` takes over. Each byte is looked at a bounded number
//! of times, so reading stays linear whatever the input.

use memchr::{memchr, memchr2, memchr3};
use nom::{IResult, Mode, OutputMode, PResult, Parser};

use crate::line::is_ws;

/// What the parsers of this crate return: the rest of the input and what they read, or a
/// failure that says nothing more (no production needs to say why it did not match, and an
/// error value nobody reads costs time on every line).
pub(crate) type Res<'a, O> = IResult<&'a [u8], O, ()>;

/// The nom parser `parser` is, always inlined where it is composed.
///
/// nom makes every `fn(I) -> IResult<…>` a [`Parser`], through a `process` method it leaves to
/// the optimiser, which keeps it out of line once the scanner's loop is inside: a call per run
/// and line. The runs of a line are read in the same few nanoseconds as the rest of it, so the
/// call shows (about a tenth of the time on files of short lines).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Inlined<F>(pub(crate) F);

impl<'a, O, F> Parser<&'a [u8]> for Inlined<F>
where
    F: Fn(&'a [u8]) -> Res<'a, O>,
{
    type Output = O;
    type Error = ();

    #[inline(always)]
    fn process<OM: OutputMode>(&mut self, i: &'a [u8]) -> PResult<OM, &'a [u8], O, ()> {
        match (self.0)(i) {
            Ok((rest, o)) => Ok((rest, OM::Output::bind(|| o))),
            Err(nom::Err::Error(e)) => Err(nom::Err::Error(OM::Error::bind(|| e))),
            Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(e)),
            Err(nom::Err::Incomplete(n)) => Err(nom::Err::Incomplete(n)),
        }
    }
}

/// Bytes looked at in chunks ([`robotrules_bytes`]) before `memchr` takes over: past the
/// length of nearly every line, whose comment would otherwise pay `memchr`'s setup (parse +
/// resolve over the crawl sample, callgrind: 32 bytes 36.87 M instructions, 64 bytes 36.57 M,
/// 128 bytes 36.31 M, 256 bytes 36.59 M).
const SHORT: usize = 128;

/// The bytes that end a run: `N` of `LF`, `CR`, `#` and `:`, in that order.
const STOPS: [u8; 4] = [b'\n', b'\r', b'#', b':'];

/// Where the first of the first `N` [`STOPS`] is in `bytes`, or `bytes.len()`.
#[inline(always)]
fn first_stop<const N: usize>(bytes: &[u8]) -> usize {
    let set: [u8; N] = std::array::from_fn(|k| STOPS[k]);
    match robotrules_bytes::first_in_prefix(bytes, set, SHORT) {
        Ok(at) => at,
        Err(at) => at + long_run::<N>(bytes.get(at..).unwrap_or_default()),
    }
}

/// [`first_stop`] past the first chunks: with `memchr`.
#[cold]
#[inline(never)]
fn long_run<const N: usize>(rest: &[u8]) -> usize {
    let found = match N {
        2 => memchr2(b'\n', b'\r', rest),
        3 => memchr3(b'\n', b'\r', b'#', rest),
        _ => {
            let stop = memchr3(b'\n', b'\r', b'#', rest).unwrap_or(rest.len());
            Some(memchr(b':', &rest[..stop]).unwrap_or(stop))
        }
    };
    found.unwrap_or(rest.len())
}

/// Split `i` after `n` bytes: the rest, and the run.
#[inline(always)]
pub(crate) fn split(i: &[u8], n: usize) -> Res<'_, &[u8]> {
    let (run, rest) = i.split_at(n.min(i.len()));
    Ok((rest, run))
}

/// `*WS`: the whitespace at the start of `i`, `WS` as [`is_ws`] reads it. Runs of whitespace
/// are short: a byte at a time.
#[inline(always)]
pub(crate) fn spaces(i: &[u8]) -> Res<'_, &[u8]> {
    split(i, i.iter().take_while(|&&b| is_ws(b)).count())
}

/// `key-text = *(%x00-09 / %x0B-0C / %x0E-22 / %x24-39 / %x3B-FF)`: anything but a line
/// break, `#` or `:`.
#[inline(always)]
pub(crate) fn key_text(i: &[u8]) -> Res<'_, &[u8]> {
    split(i, first_stop::<4>(i))
}

/// `value-text = *(%x00-09 / %x0B-0C / %x0E-22 / %x24-FF)`: anything but a line break or `#`.
#[inline(always)]
pub(crate) fn value_text(i: &[u8]) -> Res<'_, &[u8]> {
    split(i, first_stop::<3>(i))
}

/// `comment-text = *(%x00-09 / %x0B-0C / %x0E-FF)`: anything but a line break.
#[inline(always)]
pub(crate) fn comment_text(i: &[u8]) -> Res<'_, &[u8]> {
    split(i, first_stop::<2>(i))
}

/// `not-nul = *(%x01-FF)`: up to the first NUL byte.
pub(crate) fn not_nul(i: &[u8]) -> Res<'_, &[u8]> {
    split(i, memchr(0, i).unwrap_or(i.len()))
}

/// `word = *(any octet but WS)`, `WS` as [`is_ws`] reads it (space, tab, vertical tab, form
/// feed). With `memchr`: lines without a colon can be long (minified pages).
pub(crate) fn word(i: &[u8]) -> Res<'_, &[u8]> {
    let first = memchr3(b' ', b'\t', 0x0c, i);
    let limit = first.unwrap_or(i.len());
    let n = memchr(0x0b, &i[..limit]).or(first).unwrap_or(i.len());
    split(i, n)
}

/// `utf8-text = *UTF8-char` (RFC 3629): the longest valid UTF-8 prefix.
pub(crate) fn utf8_text(i: &[u8]) -> Res<'_, &[u8]> {
    let n = match std::str::from_utf8(i) {
        Ok(_) => i.len(),
        Err(e) => e.valid_up_to(),
    };
    split(i, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(input: &[u8], stops: &[u8]) -> usize {
        input
            .iter()
            .position(|b| stops.contains(b))
            .unwrap_or(input.len())
    }

    /// Inputs up to 400 bytes (past [`SHORT`], so long runs go to `memchr`), mostly a filler
    /// byte with the bytes that end some run among them, one in `1 + sparseness`.
    fn inputs() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        (0..60u32).prop_flat_map(|sparseness| {
            let byte = prop_oneof![
                sparseness => Just(b'a'),
                1 => proptest::sample::select(&b"\n\r:#/ \t\x0b\x0c\x80\x00\xFF"[..]),
            ];
            proptest::collection::vec(byte, 0..400)
        })
    }

    proptest::proptest! {
        /// The runs end exactly where a byte-by-byte search says, whatever the alignment and
        /// the length of the run (short ones in chunks, long ones with `memchr`).
        #[test]
        fn runs_end_where_a_byte_by_byte_search_says(input in inputs(), start in 0..17usize) {
            let i = input.get(start..).unwrap_or_default();
            let runs = [
                (key_text(i), &b"\n\r#:"[..]),
                (value_text(i), b"\n\r#"),
                (comment_text(i), b"\n\r"),
                (not_nul(i), b"\0"),
                (word(i), b" \t\x0b\x0c"),
            ];
            for (got, stops) in runs {
                let n = reference(i, stops);
                proptest::prop_assert_eq!(got, Ok((&i[n..], &i[..n])), "stops {:?}", stops);
            }
        }
    }

    #[test]
    fn spaces_are_space_tab_vertical_tab_and_form_feed() {
        assert_eq!(
            spaces(b" \t\x0b\x0cx "),
            Ok((&b"x "[..], &b" \t\x0b\x0c"[..]))
        );
        assert_eq!(spaces(b"\nx"), Ok((&b"\nx"[..], &b""[..])));
    }

    #[test]
    fn utf8_text_stops_at_the_first_invalid_sequence() {
        let valid = "aé ツ".as_bytes();
        assert_eq!(utf8_text(valid), Ok((&b""[..], valid)));
        assert_eq!(utf8_text(b"ab\xC3(x"), Ok((&b"\xC3(x"[..], &b"ab"[..])));
    }
}
