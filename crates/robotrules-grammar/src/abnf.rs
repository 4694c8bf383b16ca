//! The productions of RFC 9309 §2.2, one function each, in nom.
//!
//! These are the *strict* productions: a line that one of them accepts is exactly what the RFC
//! allows. [`crate::parse`] reads files leniently (RFC 9309 §2.3.1.5: "Crawlers MUST try to
//! parse each line"), so it does not require a line to pass them; the model and the linter use
//! them to tell a well-formed line from one that was only understood.
//!
//! One deviation, stated where it applies: [`eol`] also accepts the end of the input, because a
//! last line without a line break is common and the RFC's own examples end that way.
//!
//! The productions are the reference the hand-written reader is held to (the tests check that
//! its line split is the `NL` production, and the `grammar_parse` fuzz target checks it on
//! arbitrary input). They are public only with the `fuzz` feature.

// Without the `fuzz` feature only the tests call the productions.
#![cfg_attr(not(feature = "fuzz"), allow(unreachable_pub, dead_code))]

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while1, take_while_m_n};
use nom::combinator::{eof, opt, recognize};
use nom::multi::many0_count;
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};

use crate::key::KeyKind;

/// The result of a production: the rest of the input and the bytes it recognised.
type Res<'a> = IResult<&'a [u8], &'a [u8]>;

/// `NL = %x0D / %x0A / %x0D.0A`
pub fn nl(i: &[u8]) -> Res<'_> {
    alt((tag(&b"\r\n"[..]), tag(&b"\r"[..]), tag(&b"\n"[..]))).parse(i)
}

/// `WS = %x20 / %x09`
pub fn ws(i: &[u8]) -> Res<'_> {
    take_while_m_n(1, 1, |b| b == b' ' || b == b'\t').parse(i)
}

/// `UTF8-char-noctl = UTF8-1-noctl / UTF8-2 / UTF8-3 / UTF8-4`
///
/// with `UTF8-1-noctl = %x21 / %x22 / %x24-7F` (no control, space or `#`) and the multi-byte
/// forms of RFC 3629.
pub fn utf8_char_noctl(i: &[u8]) -> Res<'_> {
    let tail = |b: u8| (0x80..=0xBF).contains(&b);
    let ok = match *i {
        [0x21 | 0x22 | 0x24..=0x7F, ..] => Some(1),
        [0xC2..=0xDF, b, ..] if tail(b) => Some(2),
        [0xE0, 0xA0..=0xBF, c, ..] if tail(c) => Some(3),
        [0xE1..=0xEC | 0xEE..=0xEF, b, c, ..] if tail(b) && tail(c) => Some(3),
        [0xED, 0x80..=0x9F, c, ..] if tail(c) => Some(3),
        [0xF0, 0x90..=0xBF, c, d, ..] if tail(c) && tail(d) => Some(4),
        [0xF1..=0xF3, b, c, d, ..] if tail(b) && tail(c) && tail(d) => Some(4),
        [0xF4, 0x80..=0x8F, c, d, ..] if tail(c) && tail(d) => Some(4),
        _ => None,
    };
    match ok {
        Some(n) => Ok((&i[n..], &i[..n])),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Char,
        ))),
    }
}

/// `comment = "#" *(UTF8-char-noctl / WS / "#")`
pub fn comment(i: &[u8]) -> Res<'_> {
    recognize(preceded(
        tag(&b"#"[..]),
        many0_count(alt((utf8_char_noctl, ws, tag(&b"#"[..])))),
    ))
    .parse(i)
}

/// `EOL = *WS [comment] NL`
///
/// Also accepts the end of the input in place of `NL` (see the module docs).
pub fn eol(i: &[u8]) -> Res<'_> {
    recognize((many0_count(ws), opt(comment), alt((nl, eof)))).parse(i)
}

/// `emptyline = EOL`
pub fn emptyline(i: &[u8]) -> Res<'_> {
    eol(i)
}

/// Whether `b` may appear in an `identifier`.
pub(crate) const fn is_identifier_byte(b: u8) -> bool {
    matches!(b, b'-' | b'A'..=b'Z' | b'_' | b'a'..=b'z')
}

/// `identifier = 1*(%x2D / %x41-5A / %x5F / %x61-7A)`
pub fn identifier(i: &[u8]) -> Res<'_> {
    take_while1(is_identifier_byte).parse(i)
}

/// `product-token = identifier / "*"`
pub fn product_token(i: &[u8]) -> Res<'_> {
    alt((identifier, tag(&b"*"[..]))).parse(i)
}

/// `path-pattern = "/" *UTF8-char-noctl`
pub fn path_pattern(i: &[u8]) -> Res<'_> {
    recognize(preceded(tag(&b"/"[..]), many0_count(utf8_char_noctl))).parse(i)
}

/// `empty-pattern = *WS`
pub fn empty_pattern(i: &[u8]) -> Res<'_> {
    take_while(|b| b == b' ' || b == b'\t').parse(i)
}

/// `startgroupline = *WS "user-agent" *WS ":" *WS product-token EOL`
///
/// Yields the product token.
pub fn startgroupline(i: &[u8]) -> Res<'_> {
    delimited(
        (
            many0_count(ws),
            tag_no_case(&b"user-agent"[..]),
            many0_count(ws),
            tag(&b":"[..]),
            many0_count(ws),
        ),
        product_token,
        eol,
    )
    .parse(i)
}

/// `rule = *WS ("allow" / "disallow") *WS ":" *WS (path-pattern / empty-pattern) EOL`
///
/// Yields the kind of rule and its pattern (empty for `empty-pattern`).
pub fn rule(i: &[u8]) -> IResult<&[u8], (KeyKind, &[u8])> {
    let allow = tag_no_case(&b"allow"[..]).map(|_| KeyKind::Allow);
    let disallow = tag_no_case(&b"disallow"[..]).map(|_| KeyKind::Disallow);
    (
        preceded(many0_count(ws), alt((allow, disallow))),
        preceded(
            (many0_count(ws), tag(&b":"[..]), many0_count(ws)),
            alt((path_pattern, empty_pattern)),
        ),
        eol,
    )
        .map(|(kind, pattern, _)| (kind, pattern))
        .parse(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"user-agent: ExampleBot\n", Some(&b"ExampleBot"[..]))]
    #[case(b"  User-Agent :\t* # all\r\n", Some(&b"*"[..]))]
    #[case(b"user-agent: ExampleBot", Some(&b"ExampleBot"[..]))]
    #[case(b"user-agent: Example Bot\n", None)]
    #[case(b"user-agent: Bot2\n", None)]
    #[case(b"useragent: Bot\n", None)]
    #[case(b"user-agent Bot\n", None)]
    fn startgroupline_is_strict(#[case] line: &[u8], #[case] token: Option<&[u8]>) {
        assert_eq!(startgroupline(line).ok().map(|(_, t)| t), token);
    }

    #[rstest]
    #[case(b"allow: /a\n", Some((KeyKind::Allow, &b"/a"[..])))]
    #[case(b"Disallow: /x/\xE3\x83\x84 # c\n", Some((KeyKind::Disallow, &b"/x/\xE3\x83\x84"[..])))]
    #[case(b"disallow:\n", Some((KeyKind::Disallow, &b""[..])))]
    #[case(b"disallow: *.gif$\n", None)]
    #[case(b"disallow: /a b\n", None)]
    #[case(b"disallow: /\xFF\n", None)]
    #[case(b"dissallow: /\n", None)]
    fn rule_is_strict(#[case] line: &[u8], #[case] parsed: Option<(KeyKind, &[u8])>) {
        assert_eq!(rule(line).ok().map(|(_, r)| r), parsed);
    }

    #[rstest]
    #[case(b"\r\nx", 2)]
    #[case(b"\rx", 1)]
    #[case(b"\nx", 1)]
    fn nl_takes_crlf_as_one(#[case] input: &[u8], #[case] len: usize) {
        assert_eq!(nl(input).map(|(_, t)| t.len()).ok(), Some(len));
    }

    #[test]
    fn identifier_stops_at_digits_and_slashes() {
        assert_eq!(
            identifier(b"Foo_Bar-baz2/1.0").ok(),
            Some((&b"2/1.0"[..], &b"Foo_Bar-baz"[..]))
        );
        assert!(identifier(b"2bot").is_err());
        assert_eq!(product_token(b"*").ok(), Some((&b""[..], &b"*"[..])));
    }

    #[test]
    fn comments_and_empty_lines() {
        assert!(emptyline(b"   # a # b\n").is_ok());
        assert!(emptyline(b"\n").is_ok());
        assert!(emptyline(b"x\n").is_err());
        assert!(comment(b"#\x01")
            .map(|(rest, _)| rest == b"\x01")
            .unwrap_or(false));
    }

    #[test]
    fn utf8_noctl_rejects_controls_and_overlongs() {
        assert!(utf8_char_noctl(b" ").is_err());
        assert!(utf8_char_noctl(b"#").is_err());
        assert!(utf8_char_noctl(b"\xC0\x80").is_err());
        assert!(utf8_char_noctl(b"\xED\xA0\x80").is_err());
        assert!(utf8_char_noctl("ツ".as_bytes()).is_ok());
        assert!(utf8_char_noctl("😀".as_bytes()).is_ok());
        assert!(empty_pattern(b"  x").is_ok());
        assert!(path_pattern(b"x").is_err());
    }
}
