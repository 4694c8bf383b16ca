//! `Sitemap:` records: the URL must be absolute, `http` or `https`, and parse (sitemaps.org;
//! RFC 9309 §2.2.4 leaves the record to that protocol).

use robotrules_model::{Severity, Span};
use robotrules_url::UrlError;

use crate::code::Code;
use crate::context::Context;
use crate::finding::Lint;

/// Check every sitemap record of the profile linted for.
pub(super) fn check(ctx: &mut Context<'_>) {
    let lines: Vec<u32> = ctx.target().sitemap_lines().map(|(line, _)| line).collect();
    for line in lines {
        let Some(d) = ctx.line(line).and_then(|l| l.directive) else {
            continue;
        };
        if let Some(lint) = sitemap(ctx, d.value, line) {
            ctx.push(lint);
        }
    }
}

fn sitemap(ctx: &Context<'_>, span: Span, line: u32) -> Option<Lint> {
    let written = ctx.excerpt(span);
    let text = String::from_utf8_lossy(ctx.slice(span));
    let help = "crawlers read a sitemap from an absolute `http` or `https` URL \
                (`sitemap: https://example.com/sitemap.xml`, sitemaps.org; RFC 9309 §2.2.4); \
                this one is ignored";
    let lint = |code, message: String, label: &str| {
        Lint::new(code, Severity::Error, span, line, message)
            .label(label)
            .help(help)
    };
    if text.is_empty() {
        let span = ctx.record_span(line);
        return Some(
            Lint::new(
                Code::SitemapInvalidUrl,
                Severity::Error,
                span,
                line,
                "empty sitemap URL",
            )
            .label("no URL")
            .help(help),
        );
    }
    let unsupported = |scheme: &str| {
        Some(lint(
            Code::SitemapUnsupportedScheme,
            format!(
                "sitemap URL `{written}` uses `{}`, not `http` or `https`",
                crate::source::excerpt(scheme.as_bytes(), 20)
            ),
            "not http or https",
        ))
    };
    match robotrules_url::Origin::parse(&text) {
        Ok(origin) if matches!(origin.scheme(), "http" | "https") => None,
        Ok(origin) => unsupported(origin.scheme()),
        Err(UrlError::UnsupportedScheme(scheme)) => unsupported(&scheme),
        Err(UrlError::NotAbsolute(_)) => Some(lint(
            Code::SitemapRelativeUrl,
            format!("sitemap URL `{written}` is relative"),
            "not an absolute URL",
        )),
        Err(UrlError::NoHost) => Some(lint(
            Code::SitemapInvalidUrl,
            format!("sitemap URL `{written}` has no host"),
            "no host",
        )),
        Err(error) => Some(lint(
            Code::SitemapInvalidUrl,
            format!("sitemap URL `{written}` cannot be parsed: {error}"),
            "not a URL",
        )),
    }
}
