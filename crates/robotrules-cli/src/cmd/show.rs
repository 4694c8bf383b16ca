//! `robotrules show [--profile P] [--format F] [--timeout SECS] [--ca-cert FILE]...
//! [--platform-roots] [--user-agent TEXT] [--cache URL [--cache-timeout SECS]] ROBOTS AGENT`:
//! what a crawler gets from a robots.txt file — how its groups were chosen, each group's
//! user-agent lines and rules, its crawl-delay, request-rate and visit-time, and the file's
//! sitemaps (resolved against the robots.txt URL when ROBOTS is a URL); its AI usage rules
//! (`Content-Usage`, `Content-Signal`: path, statement of preference, the Dictionary read or
//! where it stops parsing) and the file-wide records (`License`, `LLM-Policy`, a
//! `Content-Signal` outside any group).
//!
//! Text on standard output, or (`--format json`) one JSON object. A remote robots.txt that is
//! unavailable or unreachable has no groups: `show` says only what RFC 9309 makes of it
//! (`unreachable (503): every URL is disallowed, RFC 9309 §2.3.1.4`), and lists none. Exit
//! status 0, or 1 when the robots.txt is unreachable (every URL disallowed, as in `check`);
//! 2 on a usage or input error.

use robotrules::client::Truncation;
use robotrules::{Crawler, ParseOptions, Profile, Robots, DEFAULT_PARSE_LIMIT};
use robotrules_tester_api::show::CrawlerView;
use serde::Serialize;
use std::fmt::Write as _;
use std::io;

use crate::args::RemoteArgs;
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::fetched::Fetched;
use crate::input::{self, RobotsSource};
use crate::output::{self, Format};
use crate::remote::For;

/// Arguments of `robotrules show`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules show examples/robots.txt Bingbot
  robotrules show --format json https://example.com/robots.txt Googlebot")]
pub(crate) struct ShowArgs {
    #[command(flatten)]
    profile: crate::args::ProfileArg,

    /// Output: text, or one JSON object.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// How a ROBOTS URL is fetched and cached.
    #[command(flatten)]
    remote: RemoteArgs,

    /// The robots.txt file, `-` for standard input, or an http://, https:// or ftp:// URL.
    #[arg(value_name = "ROBOTS")]
    robots: String,

    /// The crawler's name, a product token such as `Googlebot` (RFC 9309 §2.2.1).
    #[arg(value_name = "AGENT")]
    agent: String,
}

/// What a crawler gets: the tester's view (`robotrules-tester-api`, the same as the static
/// tester's), with the CLI's access result and parse-limit sentence in its head.
#[derive(Debug, Serialize)]
pub(crate) struct Shown {
    profile: Profile,
    agent: String,
    /// The robots.txt URL, when ROBOTS is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    robots_txt_url: Option<String>,
    /// The access result, when ROBOTS was fetched.
    #[serde(skip_serializing_if = "Option::is_none")]
    fetched: Option<Fetched>,
    /// Where the file was cut by the parse or size limit (RFC 9309 §2.5): what follows was
    /// not read, so none of its groups or rules are listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    cut: Option<String>,
    /// The groups, records, sitemaps, AI usage rules and file-wide records.
    #[serde(flatten)]
    crawler: CrawlerView,
    /// Each AI usage rule quoted as the crawler reads it (text output), in `usage` order.
    #[serde(skip)]
    usage_text: Vec<String>,
}

/// Runs `show`: [`Outcome::Flagged`] only when a fetched robots.txt is unreachable.
///
/// # Errors
/// A [`CliError`] for an unreadable file, an unusable `--ca-cert`, a crawler name the profile
/// rejects, or a failed write.
pub(crate) fn run(args: ShowArgs) -> Result<Outcome, CliError> {
    let remote = args.remote.load()?;
    let purpose = For::new(Some(&args.agent), args.profile.profile);
    let source = input::load_robots_or_fetch(&args.robots, DEFAULT_PARSE_LIMIT, &remote, purpose)?;
    let (fetched, url) = match &source {
        RobotsSource::Local(_) => (None, None),
        RobotsSource::Remote(lookup) => (
            Some(Fetched::new(lookup)),
            Some(lookup.robots_txt_url().to_owned()),
        ),
    };
    let rules = source.crawler(&options(args.profile.profile), &args.agent)?;
    let body = (source.body(), source.truncation());
    let shown = shown_for(&rules, url, fetched, body);
    let unreachable = shown
        .fetched
        .as_ref()
        .and_then(Fetched::blanket)
        .is_some_and(|(allowed, _)| !allowed);
    let rendered = match args.format {
        Format::Text => text(&shown),
        Format::Json => output::json_line(&shown)?,
    };
    output::write_text(io::stdout().lock(), &rendered)?;
    Ok(Outcome::flagged_if(unreachable))
}

/// What crawler `agent` gets from the robots.txt `bytes` under `profile`: `url` is the file's
/// URL (sitemaps are resolved against it), `fetched` its access result when it was fetched.
/// `show` prints it; `robotrules serve` answers `/api/show` with it.
///
/// # Errors
/// [`CliError::InvalidAgent`] for a crawler name the profile rejects.
pub(crate) fn shown(
    bytes: &[u8],
    profile: Profile,
    agent: &str,
    url: Option<String>,
    fetched: Option<Fetched>,
) -> Result<Shown, CliError> {
    let rules = Robots::parse_with(bytes, &options(profile)).crawler(agent)?;
    Ok(shown_for(&rules, url, fetched, (bytes, None)))
}

/// How `show` reads a file under `profile`.
fn options(profile: Profile) -> ParseOptions {
    ParseOptions::new()
        .with_profile(profile)
        .with_parse_limit(DEFAULT_PARSE_LIMIT)
}

/// What crawler `rules` gets from its parsed file (see [`shown`]); `body` is the file as
/// fetched, with how the fetcher's size limit cut it, if it did (where the file was cut is
/// then said from the truncation, else from the parse limit).
fn shown_for(
    rules: &Crawler,
    url: Option<String>,
    fetched: Option<Fetched>,
    body: (&[u8], Option<Truncation>),
) -> Shown {
    let robots = rules.robots();
    let usage_text = rules
        .usage_statements()
        .iter()
        .map(|s| {
            let mut text = String::new();
            crate::usage_text::statements(&mut text, "", std::slice::from_ref(s));
            text.trim_end().to_owned()
        })
        .collect();
    Shown {
        profile: robots.profile(),
        agent: rules.name().to_owned(),
        cut: crate::explain::Cut::sentence(&robots, body.0, body.1),
        crawler: CrawlerView::of(rules, url.as_deref()),
        robots_txt_url: url,
        fetched,
        usage_text,
    }
}

/// `show`'s text: the groups, rules and records, one per line.
pub(crate) fn text(shown: &Shown) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "agent: {}{} (profile {})",
        shown.agent,
        crate::output::agent_note(&shown.agent),
        shown.profile
    );
    if let Some(cut) = &shown.cut {
        let _ = writeln!(out, "{cut}");
    }
    if let (Some(url), Some(fetched)) = (&shown.robots_txt_url, &shown.fetched) {
        let _ = writeln!(out, "robots.txt: {url} ({})", fetched.access);
        // Without a file there are no groups to list: the access result decides alone.
        if let Some(sentence) = fetched.plainly() {
            let _ = writeln!(out, "{sentence}");
            return out;
        }
    }
    let selection = match shown.crawler.selection.as_str() {
        "exact" => "a group names it",
        "substring" => "a group's user-agent is part of its name (1994 substring match)",
        "global" => "no group names it: the `*` group applies",
        _ => "no group names it and there is no `*` group: no rules apply",
    };
    let _ = writeln!(out, "groups: {} ({selection})", shown.crawler.groups.len());
    for g in &shown.crawler.groups {
        let _ = writeln!(out, "  line {}: user-agent {}", g.line, g.agents.join(", "));
        for rule in &g.rules {
            let _ = writeln!(out, "    {}: {}: {}", rule.line, rule.kind, rule.pattern);
        }
        if g.rules.is_empty() {
            let _ = writeln!(out, "    (no allow or disallow rules: everything allowed)");
        }
    }
    let none = "none".to_owned();
    let _ = writeln!(
        out,
        "crawl-delay: {}",
        shown
            .crawler
            .crawl_delay
            .map_or_else(|| none.clone(), |d| format!("{d} s"))
    );
    let _ = writeln!(
        out,
        "request-rate: {}",
        shown
            .crawler
            .request_rate
            .map_or_else(|| none.clone(), |r| r.to_string())
    );
    let _ = writeln!(
        out,
        "visit-time: {}",
        if shown.crawler.visit_time.is_empty() {
            none.clone()
        } else {
            shown.crawler.visit_time.join(", ")
        }
    );
    if shown.crawler.sitemaps.is_empty() {
        let _ = writeln!(out, "sitemaps: none");
    } else {
        let _ = writeln!(out, "sitemaps:");
        for s in &shown.crawler.sitemaps {
            let _ = writeln!(out, "  {s}");
        }
    }
    if shown.usage_text.is_empty() {
        let _ = writeln!(out, "usage rules (Content-Usage, Content-Signal): none");
    } else {
        let _ = writeln!(out, "usage rules (Content-Usage, Content-Signal):");
        for s in &shown.usage_text {
            let _ = writeln!(out, "  {s}");
        }
    }
    let file_wide = &shown.crawler.file_wide;
    let lists = [
        ("license", &file_wide.licenses),
        ("llm-policy", &file_wide.llm_policies),
        ("content-signal", &file_wide.content_signals),
    ];
    if lists.iter().all(|(_, list)| list.is_empty()) {
        let _ = writeln!(
            out,
            "file-wide records (License, LLM-Policy, Content-Signal): none"
        );
    } else {
        let _ = writeln!(
            out,
            "file-wide records (License, LLM-Policy, Content-Signal):"
        );
        for (name, list) in lists {
            for record in list {
                let _ = writeln!(
                    out,
                    "  {}: {name}: {}",
                    record.line,
                    robotrules_text::excerpt(record.value.as_bytes(), 200)
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_the_same_object_as_a_deciding_rule() {
        let shown = shown(
            b"user-agent: *\ndisallow: /private\nallow: /private/press\n",
            Profile::Rfc9309,
            "ExampleBot",
            None,
            None,
        )
        .expect("a valid crawler name");
        let json = serde_json::to_value(&shown).expect("JSON");
        assert_eq!(
            json["groups"][0]["rules"],
            serde_json::json!([
                {"line": 2, "kind": "disallow", "pattern": "/private"},
                {"line": 3, "kind": "allow", "pattern": "/private/press"},
            ])
        );
        assert!(text(&shown).contains("    2: disallow: /private\n"));
    }

    #[test]
    fn usage_rules_and_file_wide_records_are_listed() {
        const FILE: &[u8] = b"Content-Signal: ai-train=no\nUser-agent: *\n\
            Content-Usage: /ai-ok/ train-ai=y\nContent-Usage: train-ai=yes;;\n\
            License: /license.xml\nLLM-Policy: /llm.txt\n";
        let shown = shown(
            FILE,
            Profile::Rfc9309,
            "ExampleBot",
            Some("https://example.com/robots.txt".to_owned()),
            None,
        )
        .expect("a valid crawler name");
        // The rules and records as the tester's `show` gives them (their tests are there).
        let json = serde_json::to_value(&shown).expect("JSON");
        let robots = Robots::parse(FILE);
        let crawler = robots.crawler("ExampleBot").expect("a token");
        let url = Some("https://example.com/robots.txt".to_owned());
        let shared = serde_json::to_value(robotrules_tester_api::show::Shown::of(&crawler, url))
            .expect("JSON");
        assert_eq!(json["usage"].as_array().map(Vec::len), Some(3), "{json}");
        for key in ["usage", "file_wide"] {
            assert_eq!(json[key], shared[key], "{key}");
        }
        let text = text(&shown);
        for line in [
            "usage rules (Content-Usage, Content-Signal):\n",
            "  1: Content-Signal: ai-train=no  (outside any group: for every crawler)\n",
            "  3: Content-Usage: /ai-ok/ train-ai=y\n",
            "  5: license: https://example.com/license.xml\n",
            "  6: llm-policy: https://example.com/llm.txt\n",
            "  1: content-signal: ai-train=no\n",
        ] {
            assert!(text.contains(line), "{line:?} not in {text}");
        }
    }
}
