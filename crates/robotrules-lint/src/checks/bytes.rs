//! The file's bytes: byte order mark, UTF-8, NUL bytes, HTML served as robots.txt, the parse
//! limit and Google's line-length limit. All of these are found by the grammar; this module
//! says what they mean for the author.

use robotrules_grammar::{classify_key, FindingKind as G, KeyKind};
use robotrules_model::{DiagnosticKind, Profile, Severity, GOOGLE_MAX_LINE_LEN};

use super::observed::Observed;
use crate::code::Code;
use crate::context::Context;
use crate::finding::Finding;

/// How far past the parse limit to look for rules that are ignored.
const SCAN_PAST_LIMIT: usize = 64 << 20;

/// Turn a grammar finding into a lint.
pub(super) fn from_model(ctx: &mut Context<'_>, o: &Observed) {
    let Some(DiagnosticKind::Grammar(kind)) = o.any() else {
        return;
    };
    let profiles = o.profiles();
    let lint = match kind {
        G::ByteOrderMark { complete } => {
            let message = if complete {
                "the file starts with a UTF-8 byte order mark".to_owned()
            } else {
                format!(
                    "the file starts with part of a UTF-8 byte order mark ({} of its 3 bytes)",
                    o.span.len()
                )
            };
            // A crawler that does not skip the mark loses the first line: that costs something
            // only when the line is a record. The help names the key it loses.
            let first = ctx
                .line(1)
                .and_then(|l| l.directive)
                .map(|d| (ctx.excerpt(d.key), ctx.excerpt(ctx.record_span(1))));
            let mark: String = if complete {
                "<U+FEFF>".to_owned()
            } else {
                ctx.slice(o.span)
                    .iter()
                    .map(|b| format!("<{b:02X}>"))
                    .collect()
            };
            let (severity, help) = match first {
                Some((key, record)) => (
                    Severity::Warning,
                    format!(
                        "save the file as UTF-8 without a byte order mark: a crawler that does \
                         not skip it reads the first key as `{mark}{key}`, an unknown record, \
                         and loses the first line, `{record}`"
                    ),
                ),
                None => (
                    Severity::Note,
                    "save the file as UTF-8 without a byte order mark: the first line is no \
                     record, so a crawler that does not skip the mark loses nothing yet, but \
                     it would lose a record moved there"
                        .to_owned(),
                ),
            };
            Finding::new(Code::ByteOrderMark, severity, o.span, o.line, message)
                .label("skipped by robotrules and Google")
                .help(help)
        }
        G::InvalidUtf8 => {
            let bytes: Vec<String> = ctx
                .slice(o.span)
                .iter()
                .take(4)
                .map(|b| format!("{b:02X}"))
                .collect();
            Finding::new(
                Code::InvalidUtf8,
                Severity::Warning,
                o.span,
                o.line,
                format!("invalid UTF-8: byte {}", bytes.join(" ")),
            )
            .label("not UTF-8")
            .help(
                "RFC 9309 §2.3 requires the file to be UTF-8: save it as UTF-8 (Latin-1 `é` is \
                 the byte E9, UTF-8 `é` is C3 A9); a pattern with these bytes is compared \
                 percent-encoded and will not match URLs written in UTF-8",
            )
        }
        G::NulByte => Finding::new(
            Code::NulByte,
            Severity::Error,
            o.span,
            o.line,
            "NUL byte: the rest of the line is ignored",
        )
        .label("ignored from here")
        .help("robots.txt is text: remove the NUL byte (Google's library stops reading the line there)"),
        G::HtmlContent => Finding::new(
            Code::HtmlContent,
            Severity::Error,
            o.span,
            o.line,
            "the file is an HTML page, not a robots.txt",
        )
        .label("HTML starts here"),
        G::ParseLimit { limit } => parse_limit(ctx, o, limit),
        G::LineTooLong { limit } => line_too_long(ctx, o, limit),
        G::NoDirective => no_directive(ctx, o),
        // A finding newer than this crate's codes: `observed::code_of` leaves it out.
        _ => return,
    };
    ctx.push(lint.profiles(&profiles));
}

fn parse_limit(ctx: &Context<'_>, o: &Observed, limit: usize) -> Finding {
    let rest = ctx.slice(o.span);
    let scanned = rest.get(..SCAN_PAST_LIMIT).unwrap_or(rest);
    let mut rules = 0usize;
    let mut first = None;
    for (i, line) in scanned
        .split(|&b| b == b'\n' || b == b'\r')
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        let key = line.split(|&b| b == b':').next().unwrap_or_default();
        if matches!(
            classify_key(key.trim_ascii()).0,
            KeyKind::Allow | KeyKind::Disallow
        ) {
            rules += 1;
            first.get_or_insert(i);
        }
    }
    let at_least = if scanned.len() < rest.len() {
        "at least "
    } else {
        ""
    };
    let ignored = match first {
        Some(_) => format!("{at_least}{rules} allow/disallow line(s) past the limit are ignored"),
        None => format!("{at_least}no allow/disallow line is past the limit"),
    };
    Finding::new(
        Code::ParseLimit,
        Severity::Error,
        o.span,
        o.line,
        format!(
            "the file is longer than the parse limit of {limit} bytes: the last {} bytes are ignored",
            rest.len()
        ),
    )
    .label("ignored from here")
    .help(format!(
        "RFC 9309 §2.5: crawlers parse at least 500 KiB and may ignore the rest; {ignored}. Put \
         the rules that matter first, or shorten the file (a wildcard pattern instead of a list of URLs)"
    ))
}

fn line_too_long(ctx: &Context<'_>, o: &Observed, limit: usize) -> Finding {
    let length = ctx.line(o.line).map_or(o.span.end, |l| l.span.len());
    let severity = ctx.error_if_dropped_by(&Profile::those(|r| r.max_line_len.is_some()));
    Finding::new(
        Code::LineTooLong,
        severity,
        o.span,
        o.line,
        format!("line is {length} bytes long: Google reads only the first {limit}"),
    )
    .label("Google ignores from here")
    .help(format!(
        "Google's library cuts lines at {GOOGLE_MAX_LINE_LEN} bytes; a rule cut short has a \
         shorter pattern, which matches more URLs. Shorten the line"
    ))
}

/// A line that is no record is an error, except a line of only punctuation (`@@@@`, `====`),
/// which is decoration, and a comment behind a byte order mark saved twice (`ï»¿# …`): both
/// are ignored, as meant, so a note.
pub(super) fn no_directive_severity(text: &[u8]) -> Severity {
    let meant = text.iter().any(u8::is_ascii_alphanumeric)
        && !text
            .strip_prefix("\u{EF}\u{BB}\u{BF}".as_bytes())
            .is_some_and(|rest| rest.starts_with(b"#"));
    if meant {
        Severity::Error
    } else {
        Severity::Note
    }
}

fn no_directive(ctx: &Context<'_>, o: &Observed) -> Finding {
    let text = ctx.slice(o.span);
    let first_word = text
        .split(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or_default();
    let (kind, _) = classify_key(first_word);
    match kind.canonical() {
        Some(key) if !text.contains(&b':') => Finding::new(
            Code::MissingColon,
            Severity::Error,
            o.span,
            o.line,
            format!("missing `:` after `{key}`: the line is ignored"),
        )
        .label("no `:` on this line")
        .help(format!(
            "write `{key}: <value>`; without the colon even Google ignores a line of more than two words"
        )),
        _ => Finding::new(
            Code::NoDirective,
            no_directive_severity(text),
            o.span,
            o.line,
            "this line is neither a `key: value` record nor a comment: it is ignored",
        )
        .label("not a record")
        .help("records are written `key: value` (RFC 9309 §2.2); start a comment with `#`"),
    }
}

/// Byte order marks other than UTF-8's: (bytes, encoding).
const FOREIGN_BOMS: [(&[u8], &str); 10] = [
    (&[0xFF, 0xFE, 0x00, 0x00], "UTF-32 (little-endian)"),
    (&[0x00, 0x00, 0xFE, 0xFF], "UTF-32 (big-endian)"),
    (&[0xFF, 0xFE], "UTF-16 (little-endian)"),
    (&[0xFE, 0xFF], "UTF-16 (big-endian)"),
    (&[0x2B, 0x2F, 0x76], "UTF-7"),
    (&[0xF7, 0x64, 0x4C], "UTF-1"),
    (&[0xDD, 0x73, 0x66, 0x73], "UTF-EBCDIC"),
    (&[0x0E, 0xFE, 0xFF], "SCSU"),
    (&[0xFB, 0xEE, 0x28], "BOCU-1"),
    (&[0x84, 0x31, 0x95, 0x33], "GB 18030"),
];

/// How many leading bytes the encoding guess looks at.
const SNIFF: usize = 1024;

/// The encoding of a file that is not UTF-8 in a way that loses every line: a foreign byte
/// order mark (its length), or UTF-16/UTF-32 without one (most code units have NUL bytes in
/// the same places).
pub(crate) fn foreign_encoding(bytes: &[u8]) -> Option<(&'static str, usize, bool)> {
    if let Some((bom, name)) = FOREIGN_BOMS.iter().find(|(bom, _)| bytes.starts_with(bom)) {
        return Some((name, bom.len(), true));
    }
    let head = bytes.get(..SNIFF).unwrap_or(bytes);
    for (width, name_le, name_be) in [
        (4, "UTF-32 (little-endian)", "UTF-32 (big-endian)"),
        (2, "UTF-16 (little-endian)", "UTF-16 (big-endian)"),
    ] {
        let units = head.len() / width;
        if units < 4 {
            continue;
        }
        let chunks = head.chunks_exact(width);
        // Little-endian ASCII: the first byte set, the others NUL; big-endian: the last set.
        let le = chunks
            .clone()
            .filter(|c| c[0] != 0 && c[1..].iter().all(|&b| b == 0))
            .count();
        let be = chunks
            .filter(|c| c[width - 1] != 0 && c[..width - 1].iter().all(|&b| b == 0))
            .count();
        if le * 10 >= units * 9 {
            return Some((name_le, width, false));
        }
        if be * 10 >= units * 9 {
            return Some((name_be, width, false));
        }
    }
    None
}

/// A file in UTF-16, UTF-32 or with a foreign byte order mark: one error for the file.
pub(super) fn encoding(ctx: &mut Context<'_>) {
    let Some((name, len, bom)) = foreign_encoding(ctx.source) else {
        return;
    };
    let span = robotrules_model::Span::new(0, len.min(ctx.source.len()));
    let how = if bom {
        "starts with the byte order mark of"
    } else {
        "looks like"
    };
    ctx.push(
        Finding::new(
            Code::WrongEncoding,
            Severity::Error,
            span,
            1,
            format!("the file {how} {name}, not UTF-8: crawlers find no rules in it"),
        )
        .label(if bom {
            format!("{name} byte order mark")
        } else {
            format!("{name} text")
        })
        .help(format!(
            "RFC 9309 §2.3 requires UTF-8: crawlers read the file as UTF-8 bytes, so {name} \
             text is a run of NUL bytes and unknown characters and every line is lost. Save the \
             file as UTF-8 (without a byte order mark)"
        )),
    );
}

/// How many leading bytes the not-text test looks at.
const TEXT_SNIFF: usize = 64 << 10;

/// Fewest control bytes that make a file binary, whatever its length: a short file with a
/// stray NUL byte or two is text with a `nul-byte` finding.
const MIN_CONTROL: usize = 8;

/// Why a file is not text, measured over its first [`TEXT_SNIFF`] bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Binary {
    /// Bytes looked at.
    pub(crate) sampled: usize,
    /// Control bytes among them: C0 controls other than tab, line feed, vertical tab, form
    /// feed and carriage return, and DEL.
    pub(crate) control: usize,
    /// Runs of consecutive control bytes: a block of NUL padding is one run.
    pub(crate) runs: usize,
    /// Bytes that are no part of a valid UTF-8 sequence.
    pub(crate) invalid: usize,
    /// Offset of the first control byte (or invalid byte, when there is no control byte).
    pub(crate) first: usize,
}

/// Whether `byte` is a control byte no text file holds.
const fn is_binary_control(byte: u8) -> bool {
    matches!(byte, 0x00..=0x08 | 0x0E..=0x1F | 0x7F)
}

/// `Some` when `bytes` is not text, judged on the first [`TEXT_SNIFF`] bytes:
///
/// - at least [`MIN_CONTROL`] separate runs of control bytes, one per 20 bytes or more: text
///   in UTF-8 or any 8-bit encoding has next to none, random or compressed bytes about one
///   in ten, images and archives more. Runs, not bytes: a real robots.txt padded with a block
///   of NUL bytes after its rules (one is in the real sample) stays text, with its `nul-byte`
///   finding;
/// - or, in a file where no line is a record (`has_record` false), half or more of the bytes
///   control bytes (a file of NUL bytes), or a quarter or more outside valid UTF-8.
///
/// Files in UTF-16 or UTF-32 are [`foreign_encoding`]'s, and checked first. A Latin-1 or
/// Windows-1251 file with long comments has many bytes that are not UTF-8 but no control
/// bytes, and records, so it stays text (with `invalid-utf8` findings).
pub(crate) fn binary(bytes: &[u8], has_record: bool) -> Option<Binary> {
    let head = bytes.get(..TEXT_SNIFF).unwrap_or(bytes);
    let control = head.iter().filter(|&&b| is_binary_control(b)).count();
    let runs = head
        .iter()
        .enumerate()
        .filter(|&(i, &b)| is_binary_control(b) && (i == 0 || !is_binary_control(head[i - 1])))
        .count();
    let mut invalid = 0usize;
    let mut first_invalid = None;
    let mut at = 0usize;
    for chunk in head.utf8_chunks() {
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            first_invalid.get_or_insert(at);
        }
        invalid += chunk.invalid().len();
        at += chunk.invalid().len();
    }
    let scattered = runs >= MIN_CONTROL && runs * 20 >= head.len();
    let mostly_control = !has_record && control >= MIN_CONTROL && control * 2 >= head.len();
    let by_invalid = !has_record && invalid >= MIN_CONTROL && invalid * 4 >= head.len();
    if !(scattered || mostly_control || by_invalid) {
        return None;
    }
    let first = head
        .iter()
        .position(|&b| is_binary_control(b))
        .or(first_invalid)
        .unwrap_or_default();
    Some(Binary {
        sampled: head.len(),
        control,
        runs,
        invalid,
        first,
    })
}

/// A file that is not text (an image, an archive, compressed bytes served without their
/// `Content-Encoding`): one error for the file.
pub(super) fn not_text(ctx: &mut Context<'_>) {
    if foreign_encoding(ctx.source).is_some() {
        return;
    }
    let has_record = ctx
        .parsed
        .lines
        .iter()
        .any(|l| l.directive.is_some_and(|d| d.kind != KeyKind::Other));
    let Some(found) = binary(ctx.source, has_record) else {
        return;
    };
    let lines = &ctx.parsed.lines;
    let index = lines.partition_point(|l| l.eol.end <= found.first);
    let line = lines.get(index).map_or(1, |l| l.number);
    let end = (found.first + 1).min(ctx.source.len());
    let span = robotrules_model::Span::new(found.first.min(end), end);
    let share = |n: usize| n * 100 / found.sampled.max(1);
    let of = if found.sampled < ctx.source.len() {
        format!("of its first {} bytes", found.sampled)
    } else {
        format!("of its {} bytes", found.sampled)
    };
    let what = if found.runs >= MIN_CONTROL && found.runs * 20 >= found.sampled
        || found.control * 2 >= found.sampled
    {
        format!(
            "{} {of} ({}%) are control characters",
            found.control,
            share(found.control)
        )
    } else {
        format!(
            "{} {of} ({}%) are not UTF-8 and no line is a record",
            found.invalid,
            share(found.invalid)
        )
    };
    ctx.push(
        Finding::new(
            Code::NotText,
            Severity::Error,
            span,
            line,
            format!("the file is not a text file: {what}"),
        )
        .label("binary data")
        .help(
            "robots.txt is a plain-text file (RFC 9309 §2.3: UTF-8 text, `text/plain`); this \
             looks like binary data (an image, an archive, compressed bytes served without \
             their `Content-Encoding`), and any rule a crawler finds in it is there by chance. \
             Serve the text file",
        ),
    );
}

/// When the file is in another encoding or not text, that is the one finding; when it is
/// HTML, its lines are not listed one by one: the HTML finding counts them.
pub(super) fn finish(ctx: &mut Context<'_>) {
    if ctx.has(Code::WrongEncoding) {
        ctx.retain(|f| f.code == Code::WrongEncoding);
        return;
    }
    if ctx.has(Code::NotText) {
        ctx.retain(|f| f.code == Code::NotText);
        return;
    }
    if !ctx.has(Code::HtmlContent) {
        return;
    }
    let mut ignored = 0usize;
    ctx.retain(|f| {
        let noise = f.code != Code::HtmlContent;
        ignored += usize::from(noise);
        !noise
    });
    let help = format!(
        "{ignored} other finding(s) in the page are not listed one by one. A server that answers /robots.txt with an HTML page (an error page, a soft \
         404) and status 200 gives crawlers a robots.txt without rules: serve a plain-text file, \
         or a 404 when there is none (RFC 9309 §2.3.1.3)"
    );
    ctx.update(Code::HtmlContent, |f| f.help = Some(help.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, big: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    /// Deterministic pseudo-random bytes (a 64-bit LCG).
    fn noise(len: usize, seed: u64) -> Vec<u8> {
        let mut state = seed;
        (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn binary_data_is_not_text_and_text_with_stray_bytes_is() {
        for seed in 1..=8 {
            let found = binary(&noise(4_000, seed), false).expect("noise is binary");
            assert!(found.runs * 100 >= found.sampled * 5, "{found:?}");
        }
        let nul = binary(&[0; 1_000], false).unwrap();
        assert_eq!((nul.control, nul.runs, nul.first), (1_000, 1, 0));
        // Rules, then a block of NUL padding: text.
        let mut padded = b"User-agent: *\nDisallow: /a\n".to_vec();
        padded.extend([0; 8_000]);
        assert_eq!(binary(&padded, true), None);
        // A PNG's first bytes, then a run of its data.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0".to_vec();
        png.extend(noise(500, 9));
        assert!(binary(&png, false).is_some());
        // Text with a stray NUL or two is text (with `nul-byte` findings).
        assert_eq!(binary(b"User-agent: *\0\nDisallow: /a\0b\n", true), None);
        assert_eq!(binary(b"\0", false), None);
        // Latin-1 text, comments and all, has no control bytes and records.
        let latin1: Vec<u8> = b"# R\xE9gles pour les robots \xE0 suivre \xE9\xE8\xEA\xEB\xE0\xE2\n"
            .repeat(40)
            .into_iter()
            .chain(b"User-agent: *\nDisallow: /priv\xE9/\n".iter().copied())
            .collect();
        assert_eq!(binary(&latin1, true), None);
        // No record and mostly bytes that are not UTF-8: binary even without control bytes.
        let high: Vec<u8> = noise(2_000, 3).iter().map(|b| b | 0x80).collect();
        assert!(binary(&high, false).is_some());
        assert_eq!(binary(&high, true), None);
        assert_eq!(binary(b"", false), None);
    }

    /// No real robots.txt is called binary: the 2,060 files of the shared real sample (beside
    /// the repository, or where `ROBOTRULES_REAL_SAMPLE` says), when present.
    #[test]
    fn no_real_robots_txt_is_binary() {
        let dir = std::env::var_os("ROBOTRULES_REAL_SAMPLE").map_or_else(
            || {
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../../shared/corpora/real-sample")
            },
            std::path::PathBuf::from,
        );
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("{}: absent, skipped", dir.display());
            return;
        };
        let mut checked = 0;
        let mut flagged = Vec::new();
        for entry in entries.flatten() {
            let Ok(bytes) = std::fs::read(entry.path()) else {
                continue;
            };
            checked += 1;
            if foreign_encoding(&bytes).is_some() {
                continue;
            }
            let parsed = robotrules_grammar::parse(&bytes);
            let has_record = parsed
                .lines
                .iter()
                .any(|l| l.directive.is_some_and(|d| d.kind != KeyKind::Other));
            if let Some(found) = binary(&bytes, has_record) {
                flagged.push(format!(
                    "{}: {found:?}",
                    entry.file_name().to_string_lossy()
                ));
            }
        }
        assert!(checked > 0);
        assert!(flagged.is_empty(), "{flagged:#?}");
    }

    #[test]
    fn encodings_are_recognised() {
        let text = "User-agent: *\nDisallow: /private\n";
        assert_eq!(
            foreign_encoding(&utf16(text, false)),
            Some(("UTF-16 (little-endian)", 2, false))
        );
        assert_eq!(
            foreign_encoding(&utf16(text, true)),
            Some(("UTF-16 (big-endian)", 2, false))
        );
        let mut bom = vec![0xFF, 0xFE];
        bom.extend(utf16(text, false));
        assert_eq!(
            foreign_encoding(&bom),
            Some(("UTF-16 (little-endian)", 2, true))
        );
        let utf32: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect();
        assert_eq!(
            foreign_encoding(&utf32),
            Some(("UTF-32 (little-endian)", 4, false))
        );
        assert_eq!(
            foreign_encoding(b"+/v8User-agent: *"),
            Some(("UTF-7", 3, true))
        );
        assert_eq!(foreign_encoding(text.as_bytes()), None);
        assert_eq!(foreign_encoding(&[0; 4096]), None);
        assert_eq!(foreign_encoding(b"\xEF\xBB\xBFuser-agent: *"), None);
        assert_eq!(foreign_encoding(b""), None);
    }
}
