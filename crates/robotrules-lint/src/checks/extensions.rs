//! Extension records: a `crawl-delay` must be a number of seconds, not negative, and not so
//! large that crawlers skip the site.

use robotrules_model::{Extension, ExtensionKey, Profile, Severity};

use crate::code::Code;
use crate::context::Context;
use crate::finding::Finding;

/// Delays above this many seconds are reported: Apache Nutch's default `fetcher.max.crawl.delay`,
/// above which it skips the site's pages.
const LARGE_DELAY: f64 = 30.0;

/// Check every `crawl-delay` record of the profile linted for.
pub(super) fn check(ctx: &mut Context<'_>) {
    let robots = ctx.target();
    let lines: Vec<u32> = robots
        .groups()
        .iter()
        .flat_map(|g| g.extensions(robots))
        .chain(robots.file_extensions())
        .filter(|e| e.kind == ExtensionKey::CrawlDelay)
        .map(|e: Extension| e.line)
        .collect();
    for line in lines {
        let Some(d) = ctx.line(line).and_then(|l| l.directive) else {
            continue;
        };
        let text = String::from_utf8_lossy(ctx.slice(d.value));
        let written = ctx.excerpt(d.value);
        let span = if d.value.is_empty() {
            ctx.record_span(line)
        } else {
            d.value
        };
        let lint = |code, severity, message: String| {
            Finding::new(code, severity, span, line, message).profiles(&Profile::ALL)
        };
        let lint = match text.trim().parse::<f64>().ok().filter(|d| d.is_finite()) {
            None => lint(
                Code::CrawlDelayNotANumber,
                Severity::Error,
                format!("crawl-delay `{written}` is not a number of seconds"),
            )
            .label("ignored")
            .help(
                "write the delay as a plain number of seconds (`crawl-delay: 10`, \
                 `crawl-delay: 0.5`); crawlers ignore a value they cannot read as one",
            ),
            Some(delay) if delay < 0.0 => lint(
                Code::CrawlDelayNegative,
                Severity::Error,
                format!("crawl-delay `{written}` is negative"),
            )
            .label("ignored")
            .help(
                "a crawl-delay is the number of seconds to wait between requests, 0 or more; \
                 crawlers ignore a negative one",
            ),
            Some(delay) if delay > LARGE_DELAY => {
                let per_day = (86_400.0 / delay).floor();
                let requests = if per_day == 1.0 {
                    "request"
                } else {
                    "requests"
                };
                lint(
                    Code::CrawlDelayTooLarge,
                    Severity::Note,
                    format!(
                        "crawl-delay of {written} seconds allows at most {per_day} {requests} a day"
                    ),
                )
                .label("very long")
                .help(format!(
                    "some crawlers cap the delay, others skip sites that ask for more than their \
                     maximum (Apache Nutch's default is {LARGE_DELAY} seconds); Google ignores \
                     crawl-delay. Use a delay of a few seconds"
                ))
            }
            Some(_) => continue,
        };
        ctx.push(lint);
    }
    host(ctx);
}

/// `host:` records: Yandex's mirror host, which no other major crawler reads.
fn host(ctx: &mut Context<'_>) {
    let robots = ctx.target();
    let lines: Vec<u32> = robots
        .groups()
        .iter()
        .flat_map(|g| g.extensions(robots))
        .chain(robots.file_extensions())
        .filter(|e| e.kind == ExtensionKey::Host)
        .map(|e| e.line)
        .collect();
    for line in lines {
        let span = ctx.record_span(line);
        ctx.push(
            Finding::new(
                Code::HostDirective,
                Severity::Note,
                span,
                line,
                "`host` is read by no major crawler: Google never read it, Yandex stopped in 2018",
            )
            .label("ignored")
            .help(
                "to name the main mirror of a site, redirect the others to it (HTTP 301) and \
                 mark pages with `<link rel=\"canonical\">`; the line does no harm and can go",
            )
            .profiles(&Profile::ALL),
        );
    }
}
