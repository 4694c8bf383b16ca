//! The file's bytes: byte order mark, UTF-8, NUL bytes, HTML served as robots.txt, the parse
//! limit and Google's line-length limit. All of these are found by the grammar; this module
//! says what they mean for the author.

use robotrules_grammar::{classify_key, FindingKind as G, KeyKind};
use robotrules_model::{DiagnosticKind, Profile, Severity, GOOGLE_MAX_LINE_LEN};

use super::observed::Observed;
use crate::code::Code;
use crate::context::Context;
use crate::finding::Lint;

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
                    Severity::Info,
                    "save the file as UTF-8 without a byte order mark: the first line is no \
                     record, so a crawler that does not skip the mark loses nothing yet, but \
                     it would lose a record moved there"
                        .to_owned(),
                ),
            };
            Lint::new(Code::ByteOrderMark, severity, o.span, o.line, message)
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
            Lint::new(
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
        G::NulByte => Lint::new(
            Code::NulByte,
            Severity::Error,
            o.span,
            o.line,
            "NUL byte: the rest of the line is ignored",
        )
        .label("ignored from here")
        .help("robots.txt is text: remove the NUL byte (Google's library stops reading the line there)"),
        G::HtmlContent => Lint::new(
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

fn parse_limit(ctx: &Context<'_>, o: &Observed, limit: usize) -> Lint {
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
    Lint::new(
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

fn line_too_long(ctx: &Context<'_>, o: &Observed, limit: usize) -> Lint {
    let length = ctx.line(o.line).map_or(o.span.end, |l| l.span.len());
    let severity = ctx.error_if_dropped_by(&Profile::those(|r| r.max_line_len.is_some()));
    Lint::new(
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
        Severity::Info
    }
}

fn no_directive(ctx: &Context<'_>, o: &Observed) -> Lint {
    let text = ctx.slice(o.span);
    let first_word = text
        .split(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or_default();
    let (kind, _) = classify_key(first_word);
    match kind.canonical() {
        Some(key) if !text.contains(&b':') => Lint::new(
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
        _ => Lint::new(
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
        Lint::new(
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

/// When the file is in another encoding, that is the one finding; when it is HTML, its lines
/// are not listed one by one: the HTML finding counts them.
pub(super) fn finish(ctx: &mut Context<'_>) {
    if ctx.has(Code::WrongEncoding) {
        ctx.retain(|f| f.code == Code::WrongEncoding);
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
