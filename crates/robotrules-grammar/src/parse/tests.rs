//! Tests of the lenient file reading.

use super::*;
use crate::abnf::nl;
use crate::limits::cut_at_limit;
use crate::{KeyKind, Separator, Severity, Spelling, DEFAULT_PARSE_LIMIT};
use rstest::rstest;

/// `(kind, key, value)` of every directive.
fn directives(input: &[u8]) -> Vec<(KeyKind, String, String)> {
    let p = parse(input);
    p.lines
        .iter()
        .filter_map(|l| l.directive)
        .map(|d| {
            (
                d.kind,
                String::from_utf8_lossy(p.slice(d.key)).into_owned(),
                String::from_utf8_lossy(p.slice(d.value)).into_owned(),
            )
        })
        .collect()
}

fn codes(input: &[u8], options: &Limits) -> Vec<&'static str> {
    parse_with(input, options)
        .diagnostics
        .iter()
        .map(|d| d.code())
        .collect()
}

/// Every byte belongs to exactly one of: the BOM, a line's content, a line's terminator, or
/// the ignored tail.
fn assert_tiles(input: &[u8], options: &Limits) {
    let p = parse_with(input, options);
    let mut pos = p.bom.map_or(0, |b| b.end);
    for line in &p.lines {
        assert_eq!(
            line.span.start, pos,
            "line {} starts where the previous ended",
            line.number
        );
        assert_eq!(line.span.end, line.eol.start);
        assert!(line.read.start == line.span.start && line.read.end <= line.span.end);
        pos = line.eol.end;
    }
    assert_eq!(pos, p.ignored.map_or(input.len(), |s| s.start));
}

#[rstest]
#[case::lf(&b"user-agent: a\ndisallow: /x\n\nallow: /y"[..])]
#[case::cr(&b"user-agent: a\rdisallow: /x\r\rallow: /y"[..])]
#[case::crlf(&b"user-agent: a\r\ndisallow: /x\r\n\r\nallow: /y"[..])]
#[case::mixed(&b"user-agent: a\rdisallow: /x\n\r\nallow: /y"[..])]
#[case::final_newline(&b"user-agent: a\ndisallow: /x\n\nallow: /y\n"[..])]
fn line_endings_give_the_same_records(#[case] input: &[u8]) {
    let got = directives(input);
    assert_eq!(got.len(), 3);
    assert_eq!(got[1], (KeyKind::Disallow, "disallow".into(), "/x".into()));
    assert_tiles(input, &Limits::default());
    let p = parse(input);
    let numbers: Vec<u32> = p
        .lines
        .iter()
        .filter(|l| l.directive.is_some())
        .map(|l| l.number)
        .collect();
    assert_eq!(numbers, vec![1, 2, 4]);
}

#[test]
fn crcr_is_two_line_ends() {
    let p = parse(b"a: 1\r\rb: 2");
    assert_eq!(p.lines.len(), 3);
    assert_eq!(p.lines[2].number, 3);
}

#[test]
fn the_line_split_is_the_nl_production() {
    let inputs: [&[u8]; 6] = [
        b"a\nb\rc\r\nd",
        b"\r\n\r\n\n\r\r",
        b"x",
        b"",
        b"a\r",
        b"\n\nlast\r\n",
    ];
    for input in inputs {
        // Reference split with the `nl` production.
        let mut reference = Vec::new();
        let mut i = 0;
        let mut line_start = 0;
        while i < input.len() {
            if let Ok((rest, _)) = nl(&input[i..]) {
                reference.push((line_start, i));
                i = input.len() - rest.len();
                line_start = i;
            } else {
                i += 1;
            }
        }
        if line_start < input.len() {
            reference.push((line_start, input.len()));
        }
        let got: Vec<(usize, usize)> = parse(input)
            .lines
            .iter()
            .map(|l| (l.span.start, l.span.end))
            .collect();
        assert_eq!(got, reference, "input {input:?}");
    }
}

#[rstest]
#[case::full(&b"\xEF\xBB\xBFuser-agent: a"[..], 3, 1)]
#[case::two(&b"\xEF\xBBuser-agent: a"[..], 2, 1)]
#[case::one(&b"\xEFuser-agent: a"[..], 1, 1)]
#[case::broken(&b"\xEF\x11\xBFuser-agent: a"[..], 1, 0)]
#[case::none(&b"user-agent: a"[..], 0, 1)]
fn byte_order_mark_and_its_prefixes_are_skipped(
    #[case] input: &[u8],
    #[case] skipped: usize,
    #[case] user_agents: usize,
) {
    let p = parse(input);
    assert_eq!(p.bom.map_or(0, |b| b.len()), skipped);
    let uas = p
        .lines
        .iter()
        .filter(|l| l.directive.map(|d| d.kind) == Some(KeyKind::UserAgent))
        .count();
    assert_eq!(uas, user_agents);
    assert_tiles(input, &Limits::default());
}

#[test]
fn bom_elsewhere_is_not_skipped() {
    let got = directives(b"user-agent: a\n\xEF\xBB\xBFdisallow: /");
    assert_eq!(got[1].0, KeyKind::Other);
}

#[rstest]
#[case(&b"user-agent FooBot"[..], Some((KeyKind::UserAgent, Separator::Whitespace)))]
#[case(&b"disallow  \t /"[..], Some((KeyKind::Disallow, Separator::Whitespace)))]
#[case(&b"absolutely random line"[..], None)]
#[case(&b"Error #and comment"[..], None)]
#[case(&b"Disallow /a:b"[..], Some((KeyKind::Disallow, Separator::Colon)))]
#[case(&b": /a"[..], Some((KeyKind::Other, Separator::Colon)))]
fn missing_colon_only_with_two_words(
    #[case] input: &[u8],
    #[case] expected: Option<(KeyKind, Separator)>,
) {
    let p = parse(input);
    assert_eq!(
        p.lines[0].directive.map(|d| (d.kind, d.separator)),
        expected
    );
}

#[test]
fn colon_inside_value_without_key_colon() {
    // Google: key `Disallow /a` (a disallow by prefix), value `b`.
    let p = parse(b"Disallow /a:b");
    let d = p.lines[0].directive.unwrap();
    assert_eq!((d.kind, d.spelling), (KeyKind::Disallow, Spelling::Prefix));
    assert_eq!(p.slice(d.value), b"b");
}

#[test]
fn comments_and_whitespace() {
    let got = directives(b"  Disallow :  /a b  # c\n# whole line\nallow:/x#y");
    assert_eq!(got[0].2, "/a b");
    assert_eq!(got[1].2, "/x");
    let p = parse(b"# only\n   \n");
    assert!(p.lines.iter().all(|l| l.directive.is_none()));
    assert!(p.lines[1].is_blank(p.source));
    assert!(!p.lines[0].is_blank(p.source));
    assert!(p.diagnostics.is_empty());
}

#[test]
fn nul_byte_ends_the_line_content() {
    let p = parse(b"disallow: /a\0/b\nallow: /c");
    let d = p.lines[0].directive.unwrap();
    assert_eq!(p.slice(d.value), b"/a");
    assert_eq!(
        codes(b"disallow: /a\0/b", &Limits::default()),
        vec!["nul-byte"]
    );
    assert_eq!(p.lines[1].directive.map(|d| d.kind), Some(KeyKind::Allow));
}

#[test]
fn invalid_utf8_is_reported_and_the_line_still_read() {
    let p = parse(b"disallow: /\xFF\xFEx\n");
    assert_eq!(p.slice(p.lines[0].directive.unwrap().value), b"/\xFF\xFEx");
    let d = p.diagnostics[0];
    assert_eq!((d.code(), d.span), ("invalid-utf8", Span::new(11, 12)));
}

#[test]
fn parse_limit_drops_the_crossing_line_whole() {
    let input = b"user-agent: *\ndisallow: /private-stuff\n";
    let options = Limits {
        parse_limit: 20,
        max_line_len: None,
    };
    let p = parse_with(input, &options);
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.ignored, Some(Span::new(14, input.len())));
    assert_eq!(codes(input, &options), vec!["parse-limit"]);
    assert_tiles(input, &options);
    // A line ending exactly at the limit is kept.
    let p = parse_with(
        input,
        &Limits {
            parse_limit: 13,
            max_line_len: None,
        },
    );
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.ignored, Some(Span::new(14, input.len())));
}

#[test]
fn line_length_limit_truncates_and_keeps_the_rule() {
    let mut input = b"disallow: /".to_vec();
    input.extend(std::iter::repeat_n(b'a', 100));
    let options = Limits {
        parse_limit: DEFAULT_PARSE_LIMIT,
        max_line_len: Some(20),
    };
    let p = parse_with(&input, &options);
    assert_eq!(p.slice(p.lines[0].directive.unwrap().value), b"/aaaaaaaaa");
    assert_eq!(p.diagnostics[0].code(), "line-too-long");
    assert_eq!(p.diagnostics[0].severity(), Severity::Error);
    assert_tiles(&input, &options);
}

#[test]
fn html_is_reported_and_its_valid_lines_kept() {
    let p = parse(b"\n<!DOCTYPE html>\n<p>\nDisallow: /x\n</p>");
    assert_eq!(
        p.diagnostics
            .iter()
            .filter(|d| d.code() == "html-content")
            .count(),
        1
    );
    assert!(p
        .lines
        .iter()
        .any(|l| l.directive.map(|d| d.kind) == Some(KeyKind::Disallow)));
}

#[test]
fn empty_input() {
    let p = parse(b"");
    assert!(p.lines.is_empty() && p.diagnostics.is_empty());
}

#[test]
fn huge_inputs_are_bounded_by_the_limit() {
    let single_line = vec![b'a'; 5_000_000];
    let p = parse(&single_line);
    assert!(p.lines.is_empty());
    assert_eq!(p.ignored, Some(Span::new(0, single_line.len())));
    let mut big = b"user-agent: *\n".repeat(8_000_000);
    big.extend_from_slice(b"disallow: /");
    let p = parse(&big);
    assert!(p.lines.len() <= DEFAULT_PARSE_LIMIT / 14 + 1);
    assert_tiles(&big, &Limits::default());
}

/// Hostile inputs read whole (no parse limit): a 10 MB line, a file of CRs, of NULs, of
/// invalid UTF-8. Each is read in one pass (the `parse_speed` example times them).
#[test]
fn hostile_inputs_are_read_whole() {
    let unlimited = |max_line_len| Limits {
        parse_limit: usize::MAX,
        max_line_len,
    };
    let long = b"disallow: /".repeat(1_000_000);
    for max in [None, Some(16_663)] {
        let p = parse_with(&long, &unlimited(max));
        assert_eq!(p.lines.len(), 1);
        let value = p.lines[0].directive.map(|d| d.value.len());
        assert_eq!(value, Some(max.map_or(long.len(), |m| m) - 10));
        assert_tiles(&long, &unlimited(max));
    }
    let crs = vec![b'\r'; 200_000];
    assert_eq!(parse_with(&crs, &unlimited(None)).lines.len(), 200_000);
    let nuls = b"\0:#".repeat(100_000);
    let p = parse_with(&nuls, &unlimited(Some(16_663)));
    assert_eq!((p.lines.len(), p.lines[0].read.len()), (1, 0));
    assert_eq!(
        codes(&nuls, &unlimited(Some(16_663))),
        ["line-too-long", "nul-byte"]
    );
    let invalid = b"a: \xFF\xC3\n".repeat(50_000);
    let p = parse_with(&invalid, &unlimited(None));
    let invalid_lines = p.diagnostics.iter().filter(|d| d.code() == "invalid-utf8");
    assert_eq!(invalid_lines.count(), 50_000);
    assert_tiles(&invalid, &unlimited(None));
}

#[test]
fn arbitrary_bytes_never_panic_and_tile() {
    // A deterministic pseudo-random walk over awkward bytes.
    let alphabet = b"\0\r\n\t #:*/$%aZ\xEF\xBB\xBF\xFF\xC3";
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for len in 0..400 {
        let input: Vec<u8> = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet[(state % alphabet.len() as u64) as usize]
            })
            .collect();
        for limit in [0, 1, 7, DEFAULT_PARSE_LIMIT] {
            let options = Limits {
                parse_limit: limit,
                max_line_len: Some(5),
            };
            assert_tiles(&input, &options);
            assert_tiles(
                &input,
                &Limits {
                    parse_limit: limit,
                    max_line_len: None,
                },
            );
        }
    }
}

#[test]
fn parse_limit_inside_the_byte_order_mark() {
    // Found by fuzzing: a limit shorter than the BOM indexed past the end.
    for input in [
        &b"\xEF\xBB\xBF"[..],
        b"\xEF\xBB\xBFa",
        b"\xEF\xBB\xBF\n",
        b"\xEF\xBB",
    ] {
        for limit in 0..4 {
            let options = Limits {
                parse_limit: limit,
                max_line_len: None,
            };
            assert_tiles(input, &options);
        }
    }
}

/// The reading before the one-pass lexer and the nom productions, line by line as written
/// then: each line cut at the line-length limit and at its first NUL, validated as UTF-8 on its
/// own, then split into comment and record by hand. The lexer must report exactly what it
/// reports.
mod line_by_line {
    use super::*;
    use crate::finding::FindingKind;
    use crate::line::{is_ws, Directive};
    use memchr::memchr;

    /// Length of the UTF-8 byte order mark, or of a prefix of it, at the start of `input`.
    fn skip_bom(input: &[u8]) -> usize {
        const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
        input.iter().zip(BOM).take_while(|(a, b)| **a == *b).count()
    }

    /// `record = *WS key *WS ":" *WS value EOL`, or with the colon missing, `key 1*WS value`
    /// when the line holds exactly two words. `text` is the line without comment, trimmed.
    fn record(input: &[u8], text: Span) -> Option<Directive> {
        let bytes = text.slice(input);
        if bytes.is_empty() {
            return None;
        }
        let (key, value, separator) = match memchr(b':', bytes) {
            Some(k) => (
                Span::new(text.start, text.start + k),
                Span::new(text.start + k + 1, text.end),
                Separator::Colon,
            ),
            None => {
                let k = bytes.iter().position(|&b| is_ws(b))?;
                let value_start = k + bytes[k..].iter().take_while(|&&b| is_ws(b)).count();
                if bytes[value_start..].iter().any(|&b| is_ws(b)) {
                    return None;
                }
                (
                    Span::new(text.start, text.start + k),
                    Span::new(text.start + value_start, text.end),
                    Separator::Whitespace,
                )
            }
        };
        let key = trim(input, key);
        let (kind, spelling) = crate::classify_key(key.slice(input));
        Some(Directive {
            key,
            kind,
            spelling,
            separator,
            value: trim(input, value),
        })
    }

    /// The span without leading and trailing whitespace.
    pub(super) fn trim(input: &[u8], span: Span) -> Span {
        let (mut start, mut end) = (span.start, span.end.min(input.len()));
        while start < end && is_ws(input[start]) {
            start += 1;
        }
        while end > start && is_ws(input[end - 1]) {
            end -= 1;
        }
        Span::new(start, end)
    }

    pub(super) fn parse_with<'a>(input: &'a [u8], options: &Limits) -> Parsed<'a> {
        let mut parsed = Parsed {
            source: input,
            lines: Vec::new(),
            diagnostics: Vec::new(),
            bom: None,
            ignored: None,
        };
        let start = skip_bom(input);
        if start > 0 {
            parsed.bom = Some(Span::new(0, start));
            parsed.diagnostics.push(Finding {
                kind: FindingKind::ByteOrderMark {
                    complete: start == 3,
                },
                span: Span::new(0, start),
                line: 1,
            });
        }
        let end = cut_at_limit(input, start, options.parse_limit);
        let mut pos = start;
        let mut number = 0u32;
        let mut seen_content = false;
        while pos < end {
            number = number.saturating_add(1);
            let (content_end, eol_end) = match memchr::memchr2(b'\r', b'\n', &input[pos..end]) {
                Some(k) => {
                    let at = pos + k;
                    let crlf =
                        input[at] == b'\r' && input.get(at + 1) == Some(&b'\n') && at + 1 < end;
                    (at, if crlf { at + 2 } else { at + 1 })
                }
                None => (end, end),
            };
            let line = read_line(
                input,
                number,
                Span::new(pos, content_end),
                Span::new(content_end, eol_end),
                options,
                &mut parsed.diagnostics,
            );
            if !seen_content {
                let text = trim(input, line.read);
                if !text.is_empty() {
                    seen_content = true;
                    if text.slice(input).first() == Some(&b'<') {
                        parsed.diagnostics.push(Finding {
                            kind: FindingKind::HtmlContent,
                            span: text,
                            line: number,
                        });
                    }
                }
            }
            parsed.lines.push(line);
            pos = eol_end;
        }
        if end < input.len() {
            let span = Span::new(end, input.len());
            parsed.ignored = Some(span);
            parsed.diagnostics.push(Finding {
                kind: FindingKind::ParseLimit {
                    limit: options.parse_limit,
                },
                span,
                line: number.saturating_add(1),
            });
        }
        parsed
    }

    fn read_line(
        input: &[u8],
        number: u32,
        span: Span,
        eol: Span,
        options: &Limits,
        diagnostics: &mut Vec<Finding>,
    ) -> Line {
        let mut read = span;
        if let Some(max) = options.max_line_len {
            if read.len() > max {
                let cut = read.start + max;
                diagnostics.push(Finding {
                    kind: FindingKind::LineTooLong { limit: max },
                    span: Span::new(cut, read.end),
                    line: number,
                });
                read.end = cut;
            }
        }
        if let Some(k) = memchr::memchr(0, read.slice(input)) {
            let nul = read.start + k;
            diagnostics.push(Finding {
                kind: FindingKind::NulByte,
                span: Span::new(nul, read.end),
                line: number,
            });
            read.end = nul;
        }
        if let Err(e) = std::str::from_utf8(read.slice(input)) {
            let bad = read.start + e.valid_up_to();
            let bad_end = e.error_len().map_or(read.end, |n| bad + n);
            diagnostics.push(Finding {
                kind: FindingKind::InvalidUtf8,
                span: Span::new(bad, bad_end),
                line: number,
            });
        }
        let (body, comment) = match memchr::memchr(b'#', read.slice(input)) {
            Some(k) => (
                Span::new(read.start, read.start + k),
                Some(Span::new(read.start + k, read.end)),
            ),
            None => (read, None),
        };
        let text = trim(input, body);
        let directive = record(input, text);
        if directive.is_none() && !text.is_empty() {
            diagnostics.push(Finding {
                kind: FindingKind::NoDirective,
                span: text,
                line: number,
            });
        }
        Line {
            number,
            span,
            eol,
            read,
            directive,
            comment,
        }
    }
}

fn assert_same_as_line_by_line(input: &[u8], options: &Limits) {
    let fast = parse_with(input, options);
    let reference = line_by_line::parse_with(input, options);
    assert_eq!(
        fast.lines, reference.lines,
        "lines of {input:?} {options:?}"
    );
    assert_eq!(
        fast.diagnostics, reference.diagnostics,
        "findings of {input:?} {options:?}"
    );
    assert_eq!((fast.bom, fast.ignored), (reference.bom, reference.ignored));
}

/// The one-pass lexer reads every line as reading it on its own does: generated files over an
/// alphabet of line ends, NULs, comment and key characters, and whole and broken UTF-8
/// sequences, under line-length limits that cut inside characters and parse limits that cut
/// the file.
#[test]
fn the_lexer_reads_as_line_by_line_reading_does() {
    let pieces: [&[u8]; 24] = [
        b"\n",
        b"\r",
        b"\r\n",
        b"\0",
        b"#",
        b":",
        b" ",
        b"\t",
        b"a",
        b"/",
        b"*",
        b"<",
        b"user-agent",
        b"Disallow",
        b"allow",
        "é".as_bytes(),
        "ツ".as_bytes(),
        b"\xE3\x83",
        b"\xFF",
        b"\xC3",
        b"\xEF\xBB\xBF",
        b"\x80",
        b"/a-rather-long-path/with/several/segments/and-more",
        b"                                        ",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut checked = 0;
    for round in 0..3_000 {
        let len = (next() % 60) as usize;
        let input: Vec<u8> = (0..len)
            .flat_map(|_| {
                pieces[(next() % pieces.len() as u64) as usize]
                    .iter()
                    .copied()
            })
            .collect();
        let cut = (next() % 12) as usize;
        for options in [
            Limits::default(),
            Limits {
                parse_limit: DEFAULT_PARSE_LIMIT,
                max_line_len: Some(cut),
            },
            Limits {
                parse_limit: input.len() / 2 + round % 3,
                max_line_len: Some(cut + 3),
            },
        ] {
            assert_same_as_line_by_line(&input, &options);
            checked += 1;
        }
    }
    assert_eq!(checked, 9_000);
}

#[rstest]
#[case::valid_then_invalid(&b"a: \xC3\xA9\nb: \xFF\nc: \xC3\xA9\nd: \xE3\x83\n\ne: x"[..])]
#[case::invalid_in_the_cut_tail(&b"disallow: /ab\xFF\ndisallow: /\xC3\xA9\n"[..])]
#[case::nul_before_invalid(&b"a: b\0\xFF\nc: \xFF\0\n"[..])]
#[case::only_invalid(&b"\xFF\n\xFF\r\n\xFF"[..])]
fn utf8_findings_after_an_invalid_line(#[case] input: &[u8]) {
    for max in [None, Some(5), Some(12)] {
        assert_same_as_line_by_line(
            input,
            &Limits {
                parse_limit: DEFAULT_PARSE_LIMIT,
                max_line_len: max,
            },
        );
    }
}
