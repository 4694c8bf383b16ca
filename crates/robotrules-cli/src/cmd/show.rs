//! `robotrules show [--profile P] [--format F] [--timeout SECS] [--ca-cert FILE]...
//! [--platform-roots] [--user-agent TEXT] [--cache URL [--cache-timeout SECS]] ROBOTS AGENT`:
//! what a crawler gets from a robots.txt file — how its groups were chosen, each group's
//! user-agent lines and rules, its crawl-delay, request-rate and visit-time, and the file's
//! sitemaps (resolved against the robots.txt URL when ROBOTS is a URL).
//!
//! Text on standard output, or (`--format json`) one JSON object. A remote robots.txt that is
//! unavailable or unreachable has no groups: `show` says only what RFC 9309 makes of it
//! (`unreachable (503): every URL is disallowed, RFC 9309 §2.3.1.4`), and lists none. Exit
//! status 0, or 1 when the robots.txt is unreachable (every URL disallowed, as in `check`);
//! 2 on a usage or input error.

use robotrules::client::Truncation;
use robotrules::{Crawler, Group, ParseOptions, Profile, RequestRate, Robots, DEFAULT_PARSE_LIMIT};
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

/// What a crawler gets.
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
    /// How the groups were chosen (`exact`, `substring`, `global`, `unmatched`).
    selection: String,
    /// Each group's first line, user-agent values and rules as written (`{"line", "kind",
    /// "pattern"}`, in line order).
    groups: Vec<Group>,
    /// Seconds, from the first valid `crawl-delay` record.
    crawl_delay: Option<f64>,
    request_rate: Option<RequestRate>,
    visit_time: Vec<String>,
    sitemaps: Vec<String>,
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
    ParseOptions {
        profile,
        parse_limit: DEFAULT_PARSE_LIMIT,
    }
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
    let sitemaps = match &url {
        Some(base) => robots.sitemaps_from(base),
        None => robots.sitemaps().map(str::to_owned).collect(),
    };
    Shown {
        profile: robots.profile(),
        agent: rules.name().to_owned(),
        robots_txt_url: url,
        fetched,
        cut: crate::explain::Cut::sentence(&robots, body.0, body.1),
        selection: rules.selection().to_string(),
        groups: rules.groups(),
        crawl_delay: rules.crawl_delay().map(|d| d.as_secs_f64()),
        request_rate: rules.request_rate(),
        visit_time: rules.visit_times(),
        sitemaps,
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
    let selection = match shown.selection.as_str() {
        "exact" => "a group names it",
        "substring" => "a group's user-agent is part of its name (1994 substring match)",
        "global" => "no group names it: the `*` group applies",
        _ => "no group names it and there is no `*` group: no rules apply",
    };
    let _ = writeln!(out, "groups: {} ({selection})", shown.groups.len());
    for g in &shown.groups {
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
            .crawl_delay
            .map_or_else(|| none.clone(), |d| format!("{d} s"))
    );
    let _ = writeln!(
        out,
        "request-rate: {}",
        shown
            .request_rate
            .map_or_else(|| none.clone(), |r| r.to_string())
    );
    let _ = writeln!(
        out,
        "visit-time: {}",
        if shown.visit_time.is_empty() {
            none.clone()
        } else {
            shown.visit_time.join(", ")
        }
    );
    if shown.sitemaps.is_empty() {
        let _ = writeln!(out, "sitemaps: none");
    } else {
        let _ = writeln!(out, "sitemaps:");
        for s in &shown.sitemaps {
            let _ = writeln!(out, "  {s}");
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
}
