//! `Sitemap:` records: the URL must be absolute, `http` or `https`, and parse (sitemaps.org;
//! RFC 9309 §2.2.4 leaves the record to that protocol).

use std::collections::BTreeMap;

use std::sync::Arc;

use robotrules_model::{Crawler, Profile, RobotsTxt, Selection, Severity, Span};
use robotrules_url::UrlError;

use super::profiles_do;
use crate::code::Code;
use crate::context::Context;
use crate::finding::Finding;

/// Crawler names tried for "a crawler that no group names": the first that gets the `*`
/// group is used.
const GENERIC_CRAWLERS: [&str; 3] = ["RobotrulesGenericCrawler", "Xyzzy", "Qqqq"];

/// Check every sitemap record of the profile linted for.
pub(super) fn check(ctx: &mut Context<'_>) {
    let lines: Vec<u32> = ctx
        .target()
        .sitemap_records()
        .map(|(line, _)| line)
        .collect();
    for line in lines {
        let Some(d) = ctx.line(line).and_then(|l| l.directive) else {
            continue;
        };
        if let Some(lint) = sitemap(ctx, d.value, line) {
            ctx.push(lint);
        }
    }
    disallowed(ctx);
}

/// The rules of a crawler that no group names (the `*` group's), if some name gets them.
fn generic(robots: &Arc<RobotsTxt>) -> Option<Crawler> {
    GENERIC_CRAWLERS.iter().find_map(|&name| {
        let rules = Crawler::new(Arc::clone(robots), name).ok()?;
        (rules.selection() == Selection::Global).then_some(rules)
    })
}

/// Sitemaps that the file's own rules disallow for crawlers without a group of their own.
/// Files that disallow everything (`disallow: /`) are left alone: the sitemap is as blocked as
/// the rest, deliberately.
fn disallowed(ctx: &mut Context<'_>) {
    // sitemap line -> (deciding line, profiles)
    let mut found: BTreeMap<u32, (u32, Vec<Profile>)> = BTreeMap::new();
    let home = ctx
        .options
        .robots_txt_url
        .as_deref()
        .and_then(|u| robotrules_url::Origin::parse(u).ok());
    // On the file's own origin, the rules govern the sitemap: a warning. Without the origin,
    // the sitemap may be on another host the rules do not govern: a note.
    let severity = if home.is_some() {
        Severity::Warning
    } else {
        Severity::Note
    };
    for profile in Profile::ALL {
        let robots = ctx.model(profile);
        let Some(rules) = generic(robots) else {
            continue;
        };
        let Ok(root) = rules.explain("/") else {
            continue;
        };
        if !root.allowed {
            continue;
        }
        for (line, url) in robots.sitemap_lines() {
            let Ok(origin) = robotrules_url::Origin::parse(url) else {
                continue;
            };
            if !matches!(origin.scheme(), "http" | "https")
                || home.as_ref().is_some_and(|home| *home != origin)
            {
                continue;
            }
            let Ok(explanation) = rules.explain(url) else {
                continue;
            };
            if let (false, Some(rule)) = (explanation.allowed, explanation.decided_by) {
                found
                    .entry(line)
                    .or_insert((rule.line, Vec::new()))
                    .1
                    .push(profile);
            }
        }
    }
    for (line, (rule, profiles)) in found {
        let Some(d) = ctx.line(line).and_then(|l| l.directive) else {
            continue;
        };
        let url = ctx.excerpt(d.value);
        let rule_span = ctx.record_span(rule);
        let written = ctx.excerpt(rule_span);
        ctx.push(
            Finding::new(
                Code::SitemapDisallowed,
                severity,
                d.value,
                line,
                format!("the sitemap `{url}` is disallowed by `{written}` (line {rule})"),
            )
            .label("crawlers may not fetch it")
            .related(rule_span, rule, "disallows the sitemap")
            .help(format!(
                "{} the `*` group's rules to the sitemap URL too, so crawlers without a group of \
                 their own may not fetch the sitemap this file announces. Add `allow:` with the \
                 sitemap's path to the `*` group, above the disallow rule, or narrow the \
                 disallow rule",
                profiles_do(&profiles, "apply")
            ))
            .profiles(&profiles),
        );
    }
}

fn sitemap(ctx: &Context<'_>, span: Span, line: u32) -> Option<Finding> {
    let written = ctx.excerpt(span);
    let text = String::from_utf8_lossy(ctx.slice(span));
    let help = "crawlers read a sitemap from an absolute `http` or `https` URL \
                (`sitemap: https://example.com/sitemap.xml`, sitemaps.org; RFC 9309 §2.2.4); \
                this one is ignored";
    let lint = |code, message: String, label: &str| {
        Finding::new(code, Severity::Error, span, line, message)
            .label(label)
            .help(help)
    };
    if text.is_empty() {
        let span = ctx.record_span(line);
        return Some(
            Finding::new(
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
                robotrules_text::excerpt(scheme.as_bytes(), 20)
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
