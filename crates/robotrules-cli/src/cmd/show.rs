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
use robotrules::{
    Crawler, DictionaryError, Group, Member, ParseOptions, Profile, RequestRate, Robots,
    UsageStatement, Vocabulary, DEFAULT_PARSE_LIMIT,
};
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
    /// The crawler's AI usage rules: its groups' `Content-Usage` and `Content-Signal` lines
    /// and the file-wide `Content-Signal` lines, in file order.
    usage: Vec<ShownStatement>,
    /// The file-wide records about AI use, for every crawler.
    file_wide: FileWide,
}

/// One `Content-Usage` or `Content-Signal` line as the crawler reads it.
#[derive(Debug, Serialize)]
pub(crate) struct ShownStatement {
    line: u32,
    /// `content-usage` or `content-signal`.
    key: &'static str,
    /// `aipref` or `content-signals`.
    vocabulary: Vocabulary,
    /// The first line of the group it stands in; none outside any group (for every crawler).
    #[serde(skip_serializing_if = "Option::is_none")]
    group_line: Option<u32>,
    /// The path as written, when there is one (draft-ietf-aipref-attach-05 §3.2).
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    /// The statement of preference as written.
    preference: String,
    /// Its RFC 9651 Dictionary's members, when it parses.
    #[serde(skip_serializing_if = "Option::is_none")]
    members: Option<Vec<Member>>,
    /// Where it stops parsing, when it does not (every category unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<DictionaryError>,
    /// The line quoted as the crawler reads it (text output).
    #[serde(skip)]
    text: String,
}

/// A file-wide record's line and value (a URL resolved against the robots.txt URL).
#[derive(Debug, Serialize)]
pub(crate) struct FileRecord {
    line: u32,
    value: String,
}

/// The file-wide records about AI use.
#[derive(Debug, Serialize)]
pub(crate) struct FileWide {
    /// `License:` (RSL 1.0).
    licenses: Vec<FileRecord>,
    /// `LLM-Policy:`.
    llm_policies: Vec<FileRecord>,
    /// `Content-Signal:` outside any group.
    content_signals: Vec<FileRecord>,
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
    // File-wide records with their lines; URLs resolved against the robots.txt URL as
    // sitemaps are.
    let records = |written: Vec<(u32, &str)>, resolved: Option<Vec<String>>| match resolved {
        Some(resolved) => written
            .into_iter()
            .zip(resolved)
            .map(|((line, _), value)| FileRecord { line, value })
            .collect(),
        None => written
            .into_iter()
            .map(|(line, value)| FileRecord {
                line,
                value: value.to_owned(),
            })
            .collect(),
    };
    let file_wide = FileWide {
        licenses: records(
            robots.licenses().collect(),
            url.as_deref().map(|base| robots.licenses_from(base)),
        ),
        llm_policies: records(
            robots.llm_policies().collect(),
            url.as_deref().map(|base| robots.llm_policies_from(base)),
        ),
        content_signals: records(robots.file_signals().collect(), None),
    };
    let usage = rules
        .usage_statements()
        .iter()
        .map(|s| shown_statement(s, &robots))
        .collect();
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
        usage,
        file_wide,
    }
}

/// A usage statement as `show` lists it.
fn shown_statement(s: &UsageStatement, robots: &Robots) -> ShownStatement {
    let (members, error) = match &s.members {
        Ok(members) => (Some(members.clone()), None),
        Err(error) => (None, Some(error.clone())),
    };
    let mut text = String::new();
    crate::usage_text::statements(&mut text, "", std::slice::from_ref(s));
    ShownStatement {
        line: s.line,
        key: s.vocabulary.key(),
        vocabulary: s.vocabulary,
        group_line: s
            .group
            .and_then(|g| robots.model().groups().get(g))
            .map(|g| g.line),
        path: s.path.clone(),
        preference: s.preference.clone(),
        members,
        error,
        text: text.trim_end().to_owned(),
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
    if shown.usage.is_empty() {
        let _ = writeln!(out, "usage rules (Content-Usage, Content-Signal): none");
    } else {
        let _ = writeln!(out, "usage rules (Content-Usage, Content-Signal):");
        for s in &shown.usage {
            let _ = writeln!(out, "  {}", s.text);
        }
    }
    let file_wide = &shown.file_wide;
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
        let shown = shown(
            b"Content-Signal: ai-train=no\nUser-agent: *\nContent-Usage: /ai-ok/ train-ai=y\n\
              Content-Usage: train-ai=yes;;\nLicense: /license.xml\nLLM-Policy: /llm.txt\n",
            Profile::Rfc9309,
            "ExampleBot",
            Some("https://example.com/robots.txt".to_owned()),
            None,
        )
        .expect("a valid crawler name");
        let json = serde_json::to_value(&shown).expect("JSON");
        assert_eq!(
            json["usage"][1],
            serde_json::json!({"line": 3, "key": "content-usage", "vocabulary": "aipref",
                "group_line": 2, "path": "/ai-ok/", "preference": "train-ai=y",
                "members": [{"label": "train-ai", "value": {"token": "y"}}]})
        );
        assert_eq!(json["usage"][0]["group_line"], serde_json::Value::Null);
        assert!(json["usage"][2]["error"]["offset"].is_number(), "{json}");
        assert_eq!(
            json["file_wide"],
            serde_json::json!({
                "licenses": [{"line": 5, "value": "https://example.com/license.xml"}],
                "llm_policies": [{"line": 6, "value": "https://example.com/llm.txt"}],
                "content_signals": [{"line": 1, "value": "ai-train=no"}]})
        );
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
