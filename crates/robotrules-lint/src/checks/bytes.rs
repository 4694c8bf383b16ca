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
            Lint::new(Code::ByteOrderMark, Severity::Warning, o.span, o.line, message)
                .label("skipped by robotrules and Google")
                .help(
                    "save the file as UTF-8 without a byte order mark: a crawler that does not \
                     skip it reads the first key as `U+FEFF user-agent`, an unknown record, and \
                     loses the first line",
                )
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
            Severity::Error,
            o.span,
            o.line,
            "this line is neither a `key: value` record nor a comment: it is ignored",
        )
        .label("not a record")
        .help("records are written `key: value` (RFC 9309 §2.2); start a comment with `#`"),
    }
}

/// When the file is HTML, its lines are not listed one by one: the HTML finding counts them.
pub(super) fn finish(ctx: &mut Context<'_>) {
    if !ctx.has(Code::HtmlContent) {
        return;
    }
    let mut ignored = 0usize;
    ctx.retain(|f| {
        let noise = matches!(
            f.code,
            Code::NoDirective | Code::UnknownDirective | Code::MissingColon
        );
        ignored += usize::from(noise);
        !noise
    });
    let help = format!(
        "{ignored} line(s) of the page are not robots.txt records and are ignored (not listed one \
         by one). A server that answers /robots.txt with an HTML page (an error page, a soft \
         404) and status 200 gives crawlers a robots.txt without rules: serve a plain-text file, \
         or a 404 when there is none (RFC 9309 §2.3.1.3)"
    );
    ctx.update(Code::HtmlContent, |f| f.help = Some(help.clone()));
}
