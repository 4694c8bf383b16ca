//! Record keys: misspelt known keys ("did you mean"), missing colons, keys no profile knows.
//!
//! The grammar classifies every key (exact, accepted typo, key prefix, missing colon) and the
//! model decides per profile whether it counts; this module adds the keys neither recognises:
//! near misses of known keys (by edit distance) and unknown records.

use robotrules_grammar::{KeyKind, Line, Separator};
use robotrules_model::{DiagnosticKind, ExtensionKey, Profile, Severity};

use super::observed::Observed;
use super::spelling::{near_miss, KNOWN_KEYS};
use super::{profile_list, profiles_do};
use crate::code::Code;
use crate::context::Context;
use crate::finding::Finding;

/// Keys some sites use that no major crawler reads in robots.txt any more.
const PAGE_DIRECTIVES: [&str; 3] = ["noindex", "nofollow", "noarchive"];

/// Keys of Google's `kUnsupportedTags` (robotstxt's `RobotsParsingReporter`: recognised, not
/// acted on) that robotrules does not read as extension records either: widespread and
/// harmless, so not reported as unknown. (`noindex`, `nofollow` and `noarchive`, on the same
/// list, keep their warning: authors expect them to work.)
const GOOGLE_KNOWN_UNSUPPORTED: [&str; 2] = ["domain", "revisit-after"];

/// Turn the model's key findings (typo, prefix, missing colon) into lints.
pub(super) fn from_model(ctx: &mut Context<'_>, o: &Observed) {
    let drops = o.profiles_where(|k| matches!(k, DiagnosticKind::KeyNotAccepted { .. }));
    let accepts = o.profiles_where(|k| matches!(k, DiagnosticKind::KeyAcceptedLeniently { .. }));
    let (looks_like, separator) = match o.any() {
        Some(
            DiagnosticKind::KeyNotAccepted {
                looks_like,
                separator,
                ..
            }
            | DiagnosticKind::KeyAcceptedLeniently {
                read_as: looks_like,
                separator,
                ..
            },
        ) => (looks_like, separator),
        _ => return,
    };
    let Some(key) = looks_like.canonical() else {
        return;
    };
    let written = ctx.excerpt(o.span);
    let value = ctx
        .line(o.line)
        .and_then(|l| l.directive)
        .map(|d| ctx.excerpt(d.value))
        .unwrap_or_default();
    // `allowOnlyLimitedAds:` (a script's key) starts with `allow` but is no typo of it: a key
    // with a long run of letters after the known key is a note.
    let extra = written.len().saturating_sub(key.len());
    let word = written.len() > key.len()
        && written.is_char_boundary(key.len())
        && written[key.len()..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric());
    let severity = if word && extra > 3 {
        Severity::Note
    } else {
        ctx.error_if_dropped_by(&drops)
    };
    let label = if drops.contains(&ctx.profile()) {
        format!("ignored by {}", profile_list(&drops))
    } else {
        format!("read as `{key}` by {} only", profile_list(&accepts))
    };
    let exact = written.eq_ignore_ascii_case(key);
    let lint = if separator == Separator::Whitespace {
        let also = if exact {
            String::new()
        } else {
            format!(" (did you mean `{key}`?)")
        };
        Finding::new(
            Code::MissingColon,
            severity,
            o.span,
            o.line,
            format!("missing `:` after `{written}`{also}"),
        )
        .help(format!(
            "{} `{written} {value}` as `{key}: {value}`; {} the line. Write `{key}: {value}`",
            profiles_do(&accepts, "read"),
            profiles_do(&drops, "ignore")
        ))
    } else {
        Finding::new(
            Code::MisspeltKey,
            severity,
            o.span,
            o.line,
            format!("`{written}` is not a directive; did you mean `{key}`?"),
        )
        .help(format!(
            "{} this spelling (Google's library reads common typos and keys with extra \
             characters); {} the line. Write `{key}`",
            profiles_do(&accepts, "accept"),
            profiles_do(&drops, "ignore")
        ))
    };
    let lint = lint.label(label).profiles(&drops);
    let lint = if looks_like == KeyKind::UserAgent {
        with_consequences(ctx, lint, o.line, &drops)
    } else {
        lint
    };
    ctx.push(lint);
}

/// A user-agent line some profiles ignore: say what becomes of the lines below it, per
/// profile ([`super::regroup`]), and show where they go.
fn with_consequences(
    ctx: &Context<'_>,
    mut lint: Finding,
    line: u32,
    drops: &[Profile],
) -> Finding {
    let Some(c) = super::regroup::consequences(ctx, line, drops) else {
        return lint;
    };
    lint.help = Some(match lint.help.take() {
        Some(help) => format!("{help}. {}", c.help),
        None => c.help,
    });
    if let Some(label) = c.label {
        lint = lint.label(label);
    }
    for (span, line, label) in c.related {
        lint = lint.related(span, line, label);
    }
    lint
}

/// Keys that neither the grammar nor the model recognise.
pub(super) fn check(ctx: &mut Context<'_>) {
    let lines: Vec<Line> = ctx
        .parsed
        .lines
        .iter()
        .filter(|l| l.directive.is_some_and(|d| d.kind == KeyKind::Other))
        .copied()
        .collect();
    for line in lines {
        let Some(d) = line.directive else { continue };
        let key = ctx.slice(d.key);
        let written = ctx.excerpt(d.key);
        let near = near_miss(key);
        if key.is_empty() || (d.separator == Separator::Whitespace && near.is_none()) {
            let span = robotrules_model::Span::new(d.key.start, d.value.end);
            let severity = super::bytes::no_directive_severity(ctx.slice(span));
            ctx.push(
                Finding::new(
                    Code::NoDirective,
                    severity,
                    span,
                    line.number,
                    "this line is neither a `key: value` record nor a comment: it is ignored",
                )
                .label(if key.is_empty() { "no key" } else { "no `:`" })
                .help("records are written `key: value` (RFC 9309 §2.2); start a comment with `#`"),
            );
            continue;
        }
        if ExtensionKey::from_key(key) != ExtensionKey::Other
            || GOOGLE_KNOWN_UNSUPPORTED
                .iter()
                .any(|known| known.as_bytes().eq_ignore_ascii_case(key))
        {
            continue;
        }
        let value = ctx.excerpt(d.value);
        let lint = match near {
            Some(known) if d.separator == Separator::Whitespace => Finding::new(
                Code::MissingColon,
                Severity::Error,
                d.key,
                line.number,
                format!("missing `:` after `{written}` (did you mean `{known}`?)"),
            )
            .label("ignored by every profile")
            .help(format!("write `{known}: {value}`")),
            Some(known) => Finding::new(
                Code::MisspeltKey,
                Severity::Error,
                d.key,
                line.number,
                format!("`{written}` is not a directive; did you mean `{known}`?"),
            )
            .label("ignored by every profile")
            .help(format!(
                "no profile reads this spelling, so the line is ignored. Write `{known}`"
            )),
            None => unknown(d.key, line.number, &written),
        };
        let lint = if near == Some("user-agent") {
            with_consequences(ctx, lint, line.number, &Profile::ALL)
        } else {
            lint
        };
        ctx.push(lint);
    }
}

fn unknown(span: robotrules_model::Span, line: u32, written: &str) -> Finding {
    let lower = written.to_ascii_lowercase();
    // A UTF-8 byte order mark read as Latin-1 and saved as UTF-8 again: the first line is lost.
    let bom_twice = written.starts_with("\u{EF}\u{BB}\u{BF}");
    let page = PAGE_DIRECTIVES.contains(&lower.as_str());
    let help = if bom_twice {
        "the file starts with a byte order mark that was saved twice (`ï»¿` is the UTF-8 byte \
         order mark read as Latin-1), so the first key is not read and its line is lost: save \
         the file as UTF-8 without a byte order mark"
            .to_owned()
    } else if page {
        format!(
            "Google stopped reading `{lower}` in robots.txt in September 2019 and no major \
             crawler reads it; put `<meta name=\"robots\" content=\"{lower}\">` or an \
             `X-Robots-Tag: {lower}` header on the pages instead (robots.txt controls crawling, \
             not indexing)"
        )
    } else {
        format!(
            "crawlers ignore records they do not know (RFC 9309 §2.2.4); robotrules knows {}",
            KNOWN_KEYS.join(", ")
        )
    };
    // A page directive the author expects to work, or a lost first line, costs something;
    // another unknown record is ignored by every crawler and costs nothing.
    let severity = if page || bom_twice {
        Severity::Warning
    } else {
        Severity::Note
    };
    Finding::new(
        Code::UnknownDirective,
        severity,
        span,
        line,
        format!("unknown directive `{written}`"),
    )
    .label("no profile reads this key")
    .help(help)
    .profiles(&Profile::ALL)
}
