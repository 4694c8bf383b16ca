//! The canonical form in which RFC 9309 compares allow/disallow patterns with URL paths.
//!
//! RFC 9309 §2.2.2: "Octets in the URI and robots.txt paths outside the range of the ASCII coded
//! character set, and those in the reserved range defined by \[RFC3986\], MUST be percent-encoded
//! as defined by \[RFC3986\] prior to comparison. If a percent-encoded ASCII octet is encountered
//! in the URI, it MUST be unencoded prior to comparison, unless it is a reserved character in
//! the URI as defined by \[RFC3986\] or the character is outside the unreserved character range."
//! RFC 9309 §2.2.3: "If crawlers match special characters verbatim in the URI, crawlers SHOULD
//! use "%" encoding."
//!
//! Both sides are brought to one form, so that a plain byte comparison (with `*` and `$` on the
//! pattern side) decides a match. In one pass over the input:
//!
//! 1. `%XX` with two hex digits: decoded if the octet is unreserved (RFC 3986 §2.3: ALPHA,
//!    DIGIT, `-`, `.`, `_`, `~`), else kept with upper-case hex.
//! 2. A `%` not followed by two hex digits becomes `%25`.
//! 3. Octets >= 0x80, control octets (< 0x20 and 0x7F) and space become `%XX`; so do the
//!    printable ASCII characters that RFC 3986 allows nowhere in a URI (`"` `<` `>` `\` `^`
//!    `` ` `` `{` `|` `}`), because the `url` crate (and any browser) percent-encodes most of
//!    them in the URLs that [`crate::target_path`] returns, and a rule written with the raw
//!    character must still match.
//! 4. In the query (after the first `?`), the gen-delims `:` `/` `?` `@` `[` `]` become `%XX`
//!    (RFC 9309 §2.2.2 Figure 4, row 2: `?baz=https://foo.bar` is `?baz=https%3A%2F%2Ffoo.bar`).
//!    The sub-delims (`=`, `&`, …) stay.
//! 5. Target side only ([`path`]): a literal `*` becomes `%2A` and `$` becomes `%24`
//!    (RFC 9309 §2.2.3 Figure 6: pattern `%2A` matches a literal `*` in the URI).
//! 6. Pattern side only ([`pattern`]): `*` stays a wildcard; `$` stays the end anchor when it is
//!    the last byte, elsewhere it is a literal and becomes `%24`.
//! 7. Everything else is unchanged.
//!
//! The form is idempotent, and the input is borrowed when nothing changes, so the common case
//! (a plain ASCII path) costs one scan and no allocation.
//!
//! This module does not match; the matcher (robotrules-model) compares the two forms. Google's
//! profile does not use this form (see [`crate::google`]).

use std::borrow::Cow;

use crate::percent::{hex_value, is_unreserved, push_escaped};

/// RFC 9309 §2.2.2 / §2.2.3 canonical form of a URL's path and query (the target side).
///
/// Give it the output of [`crate::target_path`] (or any path+query without fragment).
///
/// ```
/// use robotrules_url::canonical::path;
/// assert_eq!(&*path(b"/foo/bar/%62%61%7a"), b"/foo/bar/baz");
/// assert_eq!(&*path(b"/foo/bar?baz=https://foo.bar"), b"/foo/bar?baz=https%3A%2F%2Ffoo.bar");
/// assert_eq!(&*path(b"/file-with-a-*.html"), b"/file-with-a-%2A.html");
/// ```
pub fn path(path: &[u8]) -> Cow<'_, [u8]> {
    canonicalise(path, Side::Target)
}

/// [`path`] for a path whose first `from` octets a caller has already read and found
/// unchanged by the canonical form, with `in_query` saying whether a `?` was among them: the
/// one pass continues at `from` (where an octet changes) instead of starting again.
///
/// `from` must fall on an octet boundary of that reading (not inside a `%XX` escape);
/// [`crate::plain`] gives it.
pub(crate) fn path_from(path: &[u8], from: usize, in_query: bool) -> Cow<'_, [u8]> {
    rewrite(path, Side::Target, from, in_query)
}

/// The same canonical form for an allow/disallow pattern (the rule side): `*` stays a wildcard
/// and a `$` that is the last byte stays the end anchor.
///
/// ```
/// use robotrules_url::canonical::pattern;
/// assert_eq!(&*pattern("/foo/bar/ツ".as_bytes()), b"/foo/bar/%E3%83%84");
/// assert_eq!(&*pattern(b"/*.php$"), b"/*.php$");
/// assert_eq!(&*pattern(b"/a$b$"), b"/a%24b$");
/// ```
pub fn pattern(pattern: &[u8]) -> Cow<'_, [u8]> {
    canonicalise(pattern, Side::Pattern)
}

/// Which side of the comparison an input is on; only `*` and `$` depend on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// A URL's path and query: `*` and `$` are plain characters.
    Target,
    /// An allow/disallow value: `*` is the wildcard, a final `$` the end anchor.
    Pattern,
}

/// What the canonical form does with an octet, before looking at its context.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Copied unchanged.
    Keep,
    /// `%`: an escape to check (steps 1 and 2).
    Percent,
    /// Always percent-encoded (step 3).
    Encode,
    /// A gen-delim encoded in the query only (step 4).
    GenDelim,
    /// `?`: the first one starts the query, later ones are gen-delims in the query.
    QuestionMark,
    /// `*` (steps 5 and 6).
    Star,
    /// `$` (steps 5 and 6).
    Dollar,
}

/// The class of every octet.
static CLASS: [Class; 256] = classes();

const fn classes() -> [Class; 256] {
    let mut table = [Class::Keep; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = match byte as u8 {
            b'%' => Class::Percent,
            b'?' => Class::QuestionMark,
            b'*' => Class::Star,
            b'$' => Class::Dollar,
            b':' | b'/' | b'@' | b'[' | b']' => Class::GenDelim,
            0x00..=0x20 | 0x7F..=0xFF => Class::Encode,
            b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}' => Class::Encode,
            _ => Class::Keep,
        };
        byte += 1;
    }
    table
}

/// Octets that stay as they are wherever they stand, on the target side (`SAFE[0]`) and the
/// pattern side (`SAFE[1]`, where `*` stays a wildcard): [`Class::Keep`], and the gen-delims
/// (changed only in a query, which needs a `?`, which is not safe).
static SAFE: [[bool; 256]; 2] = {
    let mut table = [[false; 256]; 2];
    let mut byte = 0;
    while byte < 256 {
        let safe = matches!(CLASS[byte], Class::Keep | Class::GenDelim);
        table[0][byte] = safe;
        table[1][byte] = safe || byte == b'*' as usize;
        byte += 1;
    }
    table
};

/// Whether every octet of `input` is [`SAFE`] on `side`: then the canonical form is the input.
/// Eight octets at a time, without branching on each.
fn all_safe(input: &[u8], side: Side) -> bool {
    let safe = &SAFE[usize::from(side == Side::Pattern)];
    let mut chunks = input.chunks_exact(8);
    let whole = chunks
        .by_ref()
        .all(|c| c.iter().fold(true, |ok, &b| ok & safe[usize::from(b)]));
    whole && chunks.remainder().iter().all(|&b| safe[usize::from(b)])
}

/// One pass over `input`; output is built only from the first change on.
fn canonicalise(input: &[u8], side: Side) -> Cow<'_, [u8]> {
    // A pattern's final `$` is its end anchor, kept as it is (step 6).
    let body = match (side, input) {
        (Side::Pattern, [body @ .., b'$']) => body,
        _ => input,
    };
    if all_safe(body, side) {
        return Cow::Borrowed(input);
    }
    rewrite(input, side, 0, false)
}

/// The pass of [`canonicalise`], from octet `from` on, `in_query` saying whether the octets
/// before it held a `?`; they are taken as they are.
fn rewrite(input: &[u8], side: Side, from: usize, mut in_query: bool) -> Cow<'_, [u8]> {
    let mut out = Vec::new();
    // `input[copied..i]` is unchanged text not yet copied to `out`; 0 means "no change yet"
    // because every change consumes at least one octet.
    let mut copied = 0;
    let mut i = from;
    // The first change sizes the output once: each later one adds at most two octets.
    let reserve = |out: &mut Vec<u8>, copied: usize| {
        if copied == 0 {
            out.reserve(input.len() + 16);
        }
    };
    while i < input.len() {
        let byte = input[i];
        let encode = match CLASS[usize::from(byte)] {
            Class::Keep => false,
            Class::Encode => true,
            Class::GenDelim => in_query,
            Class::QuestionMark => std::mem::replace(&mut in_query, true),
            Class::Star => side == Side::Target,
            Class::Dollar => side == Side::Target || i + 1 != input.len(),
            Class::Percent => {
                let high = input.get(i + 1).copied().unwrap_or(0);
                let low = input.get(i + 2).copied().unwrap_or(0);
                match (hex_value(high), hex_value(low)) {
                    (Some(h), Some(l)) => {
                        let octet = h << 4 | l;
                        if is_unreserved(octet) {
                            // Step 1: an escaped unreserved octet is decoded.
                            reserve(&mut out, copied);
                            out.extend_from_slice(&input[copied..i]);
                            out.push(octet);
                            copied = i + 3;
                        } else if high.is_ascii_lowercase() || low.is_ascii_lowercase() {
                            // Step 1: other escapes are kept, with upper-case hex.
                            reserve(&mut out, copied);
                            out.extend_from_slice(&input[copied..i]);
                            push_escaped(&mut out, octet);
                            copied = i + 3;
                        }
                        i += 3;
                        continue;
                    }
                    // Step 2: a lone `%` is itself percent-encoded.
                    _ => true,
                }
            }
        };
        if encode {
            reserve(&mut out, copied);
            out.extend_from_slice(&input[copied..i]);
            push_escaped(&mut out, byte);
            copied = i + 1;
        }
        i += 1;
    }
    if copied == 0 {
        Cow::Borrowed(input)
    } else {
        out.extend_from_slice(&input[copied..]);
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// RFC 9309 §2.2.2 Figure 4, "Examples of matching percent-encoded URI components": the
    /// "Path" column, the "Encoded Path" column, and the "Path to Match". Whichever of the two
    /// spellings the rule and the URI use, both sides reach the "Path to Match".
    #[rstest]
    #[case("/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz")]
    #[case(
        "/foo/bar?baz=https://foo.bar",
        "/foo/bar?baz=https%3A%2F%2Ffoo.bar",
        "/foo/bar?baz=https%3A%2F%2Ffoo.bar"
    )]
    #[case("/foo/bar/\u{30C4}", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84")]
    #[case("/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84")]
    #[case("/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz")]
    fn rfc9309_figure_4(#[case] written: &str, #[case] encoded: &str, #[case] to_match: &str) {
        for spelling in [written, encoded] {
            assert_eq!(
                &*pattern(spelling.as_bytes()),
                to_match.as_bytes(),
                "rule {spelling}"
            );
            assert_eq!(
                &*path(spelling.as_bytes()),
                to_match.as_bytes(),
                "uri {spelling}"
            );
        }
    }

    /// RFC 9309 §2.2.2 Figure 4 row 5 the other way round: rule `baz`, URI `%62%61%7A`.
    #[test]
    fn rfc9309_figure_4_unreserved_escapes_in_the_uri() {
        assert_eq!(pattern(b"/foo/bar/baz"), path(b"/foo/bar/%62%61%7A"));
    }

    /// RFC 9309 §2.2.3 Figure 6, "Example of percent-encoding": the percent-encoded pattern
    /// matches the URI with the literal special character, and does not act as a wildcard or
    /// anchor.
    #[rstest]
    #[case(
        "/path/file-with-a-%2A.html",
        "https://www.example.com/path/file-with-a-*.html"
    )]
    #[case("/path/foo-%24", "https://www.example.com/path/foo-$")]
    fn rfc9309_figure_6(#[case] rule: &str, #[case] uri: &str) {
        let target = crate::target_path(uri).unwrap();
        assert_eq!(pattern(rule.as_bytes()), path(target.as_bytes()));
        // Neither %2A nor %24 is special any more: the pattern is plain text.
        let canonical_rule = pattern(rule.as_bytes());
        assert!(!canonical_rule.contains(&b'*') && !canonical_rule.contains(&b'$'));
    }

    #[rstest]
    // Step 1: unreserved escapes decode, other escapes get upper-case hex.
    #[case(b"/%41%5a%61%7a%30%39%2d%2e%5f%7e", b"/AZaz09-._~")]
    #[case(b"/%2f%3a%3f%40%25%2a%24%20", b"/%2F%3A%3F%40%25%2A%24%20")]
    #[case(b"/%e3%83%84", b"/%E3%83%84")]
    #[case(b"/a%2Fb", b"/a%2Fb")]
    // Step 2: lone `%`.
    #[case(b"%", b"%25")]
    #[case(b"/100%", b"/100%25")]
    #[case(b"/%4", b"/%254")]
    #[case(b"/%zz", b"/%25zz")]
    #[case(b"/%%41", b"/%25A")]
    #[case(b"/%%34%31", b"/%2541")]
    // Step 3: non-ASCII, controls, space, characters never allowed in a URI.
    #[case(b"/a b", b"/a%20b")]
    #[case(b"/\x00\x1f\x7f\x80\xff", b"/%00%1F%7F%80%FF")]
    #[case(b"/\"<>\\^`{|}", b"/%22%3C%3E%5C%5E%60%7B%7C%7D")]
    // Step 4: gen-delims in the query only; the first `?` stays.
    #[case(b"/a:b@c[d]/e", b"/a:b@c[d]/e")]
    #[case(b"/a?b=c:d/e?f@g[h]", b"/a?b=c%3Ad%2Fe%3Ff%40g%5Bh%5D")]
    #[case(b"/a?b=c&d=e;f,g+h!i'j(k)", b"/a?b=c&d=e;f,g+h!i'j(k)")]
    #[case(b"?", b"?")]
    #[case(b"??", b"?%3F")]
    // Step 7: the rest.
    #[case(b"/a/b;c=d,e", b"/a/b;c=d,e")]
    #[case(b"", b"")]
    fn both_sides(#[case] input: &[u8], #[case] canonical: &[u8]) {
        assert_eq!(&*path(input), canonical);
        assert_eq!(&*pattern(input), canonical);
    }

    #[rstest]
    #[case(b"/*", b"/%2A", b"/*")]
    #[case(b"/a$", b"/a%24", b"/a$")]
    #[case(b"$", b"%24", b"$")]
    #[case(b"/a$b", b"/a%24b", b"/a%24b")]
    #[case(b"/a$$", b"/a%24%24", b"/a%24$")]
    #[case(b"/*.php$", b"/%2A.php%24", b"/*.php$")]
    #[case(b"/*?q=*:*$", b"/%2A?q=%2A%3A%2A%24", b"/*?q=*%3A*$")]
    #[case(b"/%2A%24", b"/%2A%24", b"/%2A%24")]
    fn star_and_dollar(#[case] input: &[u8], #[case] as_target: &[u8], #[case] as_pattern: &[u8]) {
        assert_eq!(&*path(input), as_target);
        assert_eq!(&*pattern(input), as_pattern);
    }

    #[rstest]
    #[case(b"/a/b?c=d")]
    #[case(b"/")]
    #[case(b"/index.html")]
    #[case(b"/a-b_c.d~e/f;g?h=i&j=k")]
    #[case(b"/%E3%83%84/%2F")]
    fn borrows_common_inputs(#[case] input: &[u8]) {
        assert!(matches!(path(input), Cow::Borrowed(_)));
        assert!(matches!(pattern(input), Cow::Borrowed(_)));
    }

    #[test]
    fn pattern_keeps_wildcards_borrowed() {
        assert!(matches!(pattern(b"/*.php$"), Cow::Borrowed(_)));
        assert!(matches!(pattern(b"/fish*"), Cow::Borrowed(_)));
    }

    /// Every string of length <= 4 over an alphabet that exercises every rule, plus some
    /// longer ones: canonical(canonical(x)) == canonical(x) on both sides, and the result is
    /// always a valid, normalised URI-ish string.
    #[test]
    fn idempotent() {
        let alphabet: &[u8] = b"%2aAf?/:$* \xc3~";
        let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
        let mut frontier: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for prefix in &frontier {
                for &byte in alphabet {
                    let mut input = prefix.clone();
                    input.push(byte);
                    next.push(input);
                }
            }
            inputs.extend(next.iter().cloned());
            frontier = next;
        }
        inputs.extend(
            [
                &b"/foo/bar?baz=https://foo.bar"[..],
                b"/%%%41%4%%25%2525",
                b"/a?b?c?d",
                b"/%7e%7E%25%2f?%3f%3A",
                "/ü/ツ/%c3%bc".as_bytes(),
                b"/*$*$",
                b"$$",
            ]
            .map(<[u8]>::to_vec),
        );
        assert!(inputs.len() > 20_000);
        for input in &inputs {
            for canonicalise in [path, pattern] {
                let once = canonicalise(input).into_owned();
                let twice = canonicalise(&once);
                assert_eq!(&*twice, &once[..], "{:?}", String::from_utf8_lossy(input));
                assert!(matches!(twice, Cow::Borrowed(_)));
                assert_every_escape_is_upper_case_and_not_unreserved(&once);
            }
        }
    }

    fn assert_every_escape_is_upper_case_and_not_unreserved(canonical: &[u8]) {
        for (at, _) in canonical.iter().enumerate().filter(|(_, &b)| b == b'%') {
            let (high, low) = (canonical[at + 1], canonical[at + 2]);
            assert!(high.is_ascii_hexdigit() && !high.is_ascii_lowercase());
            assert!(low.is_ascii_hexdigit() && !low.is_ascii_lowercase());
            let octet = hex_value(high).unwrap() << 4 | hex_value(low).unwrap();
            assert!(!is_unreserved(octet));
        }
        assert!(canonical.iter().all(|&b| b.is_ascii_graphic()));
    }

    /// Canonical forms of a rule and a URL that name the same resource are equal (the point of
    /// the form), for spellings that differ in escaping only.
    #[rstest]
    #[case("/ü?q=ü", "/%C3%BC?q=%c3%bc")]
    #[case("/~user/", "/%7Euser/")]
    #[case("/a b", "/a%20b")]
    #[case("/a?x=http://y/z", "/a?x=http%3a%2f%2fy%2Fz")]
    #[case("/a|b", "/a%7cb")]
    fn equivalent_spellings_meet(#[case] rule: &str, #[case] uri: &str) {
        assert_eq!(pattern(rule.as_bytes()), path(uri.as_bytes()));
    }

    /// The form agrees with what the `url` crate makes of raw characters in a URL, so a rule
    /// written with the raw character matches the URL that `target_path` returns.
    #[rstest]
    #[case("/a\"b<c>d`e{f}g h/ü")]
    #[case("/a?b=\"<>ü c")]
    fn rules_with_raw_characters_match_parsed_urls(#[case] raw: &str) {
        let url = format!("http://example.com{raw}");
        let target = crate::target_path(&url).unwrap();
        assert_eq!(path(target.as_bytes()), pattern(raw.as_bytes()), "{target}");
    }

    proptest::proptest! {
        /// The shortcut for input that needs no change (a pattern's final `$` set aside) gives
        /// what the full pass gives, on both sides.
        #[test]
        fn the_unchanged_shortcut_is_the_full_pass(
            input in proptest::collection::vec(
                proptest::sample::select(&b"/a9*$?:%2Af \x80"[..]),
                0..24,
            ),
        ) {
            for side in [Side::Target, Side::Pattern] {
                proptest::prop_assert_eq!(
                    canonicalise(&input, side),
                    rewrite(&input, side, 0, false)
                );
            }
        }
    }
}
