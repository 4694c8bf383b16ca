//! `robotrules diff [--profile P|all] [--format F] [--url URL]... [--urls-from-stdin] [REMOTE]
//! OLD NEW [AGENT...]`: what changes for crawlers when robots.txt OLD is replaced by NEW.
//!
//! OLD and NEW are each a file, `-` (standard input, for one of them) or a URL, fetched as
//! `check` fetches one. Both are read under each profile asked for; every verdict and deciding
//! line is the model's own ([`robotrules_diff`]). Without AGENTs, the crawlers compared are
//! the ones either file names plus one that stands for every other crawler
//! ([`robotrules_diff::agents_to_compare`], per profile, since a misspelt group line names a
//! crawler in one profile and not another).
//!
//! With URLs (`--url`, repeatable, or one per line on standard input with
//! `--urls-from-stdin`, blank and `#` lines skipped), each URL whose verdict changes is a row;
//! without, each rule whose effect changed is a row, shown on a witness path the two files
//! decide differently ([`robotrules_diff::diff_rules`]). The URLs are held in memory: each is
//! asked once per crawler and profile. Text rows say it in a sentence; JSON
//! Lines give one object per change and a closing `{"summary": …}` record. Exit status 0 when
//! nothing changes, 1 when something does, 2 on a usage or input error.
//!
//! A fetched file that is unavailable (4xx) is compared as an empty file, which allows every
//! URL (RFC 9309 §2.3.1.3); one that is unreachable (5xx, network error, timeout) is an input
//! error: there are no rules to compare, and a CI job should not pass on it.

use std::fmt::Write as _;
use std::io::{self, BufWriter, IsTerminal, Write};

use robotrules::client::AccessKind;
use robotrules::{ParseOptions, Profile, Robots, DEFAULT_PARSE_LIMIT};
use robotrules_diff::{
    agents_to_compare, witness_candidates, AgentDiff, Deadline, DiffError, FileDecision,
    CANDIDATES_PER_CHECK,
};
use robotrules_text::excerpt;
use serde::Serialize;

use crate::args::{parse_profiles, Profiles, RemoteArgs};
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::input::{self, RobotsSource};
use crate::lines::{self, Input};
use crate::output::{self, Format};
use crate::remote::For;

/// The longest excerpt of a URL, path or pattern a text row quotes, in characters.
const EXCERPT_CHARS: usize = 200;

/// The example and exit status in `robotrules diff --help`.
const AFTER_HELP: &str = "\
Examples:
  robotrules diff robots.txt new-robots.txt
  robotrules diff https://example.com/robots.txt robots.txt Googlebot
  robotrules diff --url /private/x --url /blog/ old.txt new.txt Googlebot GPTBot
  cat urls.txt | robotrules diff --urls-from-stdin --profile all --format json old.txt new.txt

Exit status: 0 when nothing changes, 1 when some verdict changes, 2 on a usage or input error.";

/// Arguments of `robotrules diff`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = AFTER_HELP
)]
pub(crate) struct DiffArgs {
    /// How to read both files: RFC 9309, Google's reference library, the 1994 convention, or
    /// `all` (each profile in turn, changes per profile).
    #[arg(long, value_name = "PROFILE", default_value = "rfc9309", value_parser = parse_profiles)]
    profile: Profiles,

    /// Output: one sentence per change, or one JSON object per change and a closing
    /// `{"summary": …}` record.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// A URL to compare (absolute, or a path such as `/a?b`): the row says whether its verdict
    /// changes. Repeatable. Without URLs, the rules whose effect changed are listed instead.
    #[arg(long = "url", value_name = "URL")]
    urls: Vec<String>,

    /// Also read URLs to compare from standard input, one per line (blank and `#` lines
    /// skipped). Not with OLD or NEW `-`.
    #[arg(long = "urls-from-stdin")]
    urls_from_stdin: bool,

    /// How an OLD or NEW URL is fetched and cached (a file is read as it is).
    #[command(flatten)]
    remote: RemoteArgs,

    /// The robots.txt in place now: a file, `-` for standard input, or an http://, https://
    /// or ftp:// URL.
    #[arg(value_name = "OLD")]
    old: String,

    /// The robots.txt to deploy: a file, `-` for standard input, or a URL.
    #[arg(value_name = "NEW")]
    new: String,

    /// Crawler names, product tokens such as `Googlebot` (RFC 9309 §2.2.1). Without any, every
    /// crawler either file names, and `ExampleBot` (or another unnamed one) for the rest.
    #[arg(value_name = "AGENT")]
    agents: Vec<String>,
}

/// One change, as a JSON Lines record.
#[derive(Serialize)]
pub(crate) struct Record<'a> {
    /// `url` (a URL given) or `rule` (a witness path).
    kind: &'static str,
    agent: &'a str,
    profile: Profile,
    /// The URL given (`url` records).
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    /// The witness path (`rule` records): a path the two files decide differently.
    #[serde(skip_serializing_if = "Option::is_none")]
    witness: Option<&'a str>,
    before: &'a FileDecision,
    after: &'a FileDecision,
}

/// The closing JSON Lines record.
#[derive(Serialize)]
pub(crate) struct Summary<'a> {
    /// `url` when URLs were compared, `rule` when rules were.
    pub(crate) mode: &'static str,
    pub(crate) changes: u64,
    pub(crate) profiles: &'a [Profile],
    /// The crawlers compared, each once (under any of `profiles`).
    pub(crate) agents: &'a [String],
    /// How many URLs were compared (URL mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) urls: Option<usize>,
}

/// Runs `diff`: [`Outcome::Flagged`] when some verdict changes.
///
/// # Errors
/// A [`CliError`] for both files `-`, a file that cannot be read, a URL that cannot have a
/// robots.txt or is unreachable, an invalid crawler name or URL, or a failed write.
pub(crate) fn run(args: DiffArgs) -> Result<Outcome, CliError> {
    let stdin_files = usize::from(args.old == input::STDIN) + usize::from(args.new == input::STDIN);
    if stdin_files > 1 || (stdin_files == 1 && args.urls_from_stdin) {
        return Err(CliError::Usage(
            "standard input can hold only one of OLD, NEW and the URLs (--urls-from-stdin)"
                .to_owned(),
        ));
    }
    let remote = args.remote.load()?;
    let profiles = args.profile.list();
    let purpose = For::new(
        args.agents.first().map(String::as_str),
        profiles.first().copied().unwrap_or_default(),
    );
    let old = load(&args.old, &remote, purpose)?;
    let new = load(&args.new, &remote, purpose)?;
    let mut urls = args.urls.clone();
    if args.urls_from_stdin {
        let stdin = io::stdin();
        if stdin.is_terminal() {
            eprintln!(
                "robotrules: reading URLs from standard input, one per line (end with Ctrl-D)"
            );
        }
        lines::for_each(&mut lines::reader(stdin.lock()), |item| {
            if let Input::Line(line) = item {
                match line.url() {
                    Ok(url) => urls.push(url.to_owned()),
                    Err(problem) => {
                        return Err(CliError::Usage(format!(
                            "line {} of standard input: {problem}: {:?}",
                            line.number,
                            excerpt(problem.text(), EXCERPT_CHARS)
                        )))
                    }
                }
            }
            Ok(())
        })?;
    }
    let url_mode = !args.urls.is_empty() || args.urls_from_stdin;
    // A name a profile reads although it is not a product token (google): once per name.
    for agent in &args.agents {
        let warning = profiles
            .iter()
            .find_map(|&profile| crate::error::agent_warning(profile, agent));
        if let Some(warning) = warning {
            eprintln!("robotrules: warning: {}", crate::error::one_line(&warning));
        }
    }

    let mut out = BufWriter::new(io::stdout().lock());
    let mut changes = 0_u64;
    let url_list = url_mode.then_some(&urls[..]);
    let compared = compare(
        &old,
        &new,
        &profiles,
        &args.agents,
        url_list,
        Deadline::NONE,
        |record| {
            let line = match args.format {
                Format::Text => record.sentence(),
                Format::Json => output::json_line(&record)?,
            };
            changes += 1;
            write(&mut out, &line)
        },
    );
    let compared = match compared {
        // The reader has gone: what was found decides the exit status.
        Err(CliError::OutputClosed) => return Ok(Outcome::Flagged),
        compared => compared?,
    };
    let summary = Summary {
        mode: if url_mode { "url" } else { "rule" },
        changes,
        profiles: &profiles,
        agents: &compared,
        urls: url_mode.then_some(urls.len()),
    };
    match args.format {
        Format::Json => {
            let line = output::json_line(&serde_json::json!({ "summary": summary }))?;
            output::closed_is_done(write(&mut out, &line))?;
        }
        Format::Text => {
            output::closed_is_done(out.flush().map_err(crate::output::write_error))?;
            eprintln!("{}", text_summary(&summary));
        }
    }
    output::closed_is_done(out.flush().map_err(crate::output::write_error))?;
    Ok(Outcome::flagged_if(changes > 0))
}

/// Compares `old` and `new` under each of `profiles` for `agents` (none: the crawlers either
/// file names, [`agents_to_compare`]), on `urls` (URL mode) or on witness paths of the rules
/// whose effect changed (rule mode), and hands each change to `each` in order. Returns the
/// crawlers compared, each once in the order first compared (without AGENTs, the profiles
/// may read the files' user-agent lines into different names). `diff` prints the changes;
/// `robotrules serve` answers
/// `/api/diff` with them.
///
/// # Errors
/// An invalid crawler name or URL, or the first error of `each`.
pub(crate) fn compare(
    old: &[u8],
    new: &[u8],
    profiles: &[Profile],
    agents: &[String],
    urls: Option<&[String]>,
    deadline: Deadline,
    mut each: impl FnMut(Record<'_>) -> Result<(), CliError>,
) -> Result<Vec<String>, CliError> {
    let mut compared: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for &profile in profiles {
        let options = ParseOptions::new()
            .with_profile(profile)
            .with_parse_limit(DEFAULT_PARSE_LIMIT);
        // The diff crate compares the model's files: the facade hands over the ones it parsed.
        let (old, new) = (
            Robots::parse_with(old, &options),
            Robots::parse_with(new, &options),
        );
        let (old, new) = (old.model(), new.model());
        let agents = if agents.is_empty() {
            agents_to_compare(old, new)
        } else {
            agents.to_vec()
        };
        let candidates = urls.is_none().then(|| witness_candidates(old, new));
        for agent in &agents {
            deadline.check()?;
            let diff = AgentDiff::new(old, new, agent).map_err(diff_error)?;
            let mut rows = Vec::new();
            if let Some(candidates) = &candidates {
                for change in diff.rule_changes_within(candidates, deadline)? {
                    rows.push(("rule", change.witness, change.before, change.after));
                }
            } else {
                for (asked, url) in urls.unwrap_or_default().iter().enumerate() {
                    if asked % CANDIDATES_PER_CHECK == 0 {
                        deadline.check()?;
                    }
                    if let Some(change) = diff.url(url)? {
                        rows.push(("url", change.url, change.before, change.after));
                    }
                }
            }
            for (kind, url, before, after) in &rows {
                each(Record {
                    kind,
                    agent,
                    profile,
                    url: (*kind == "url").then_some(url.as_str()),
                    witness: (*kind == "rule").then_some(url.as_str()),
                    before,
                    after,
                })?;
            }
        }
        for agent in agents {
            if seen.insert(agent.clone()) {
                compared.push(agent);
            }
        }
    }
    Ok(compared)
}

impl Record<'_> {
    /// The change in one sentence, as `diff` prints it.
    pub(crate) fn sentence(&self) -> String {
        let url = self.url.or(self.witness).unwrap_or_default();
        text_row(self.agent, self.profile, url, self.before, self.after)
    }
}

/// Writes `line` to `out`.
fn write(out: &mut impl Write, line: &str) -> Result<(), CliError> {
    out.write_all(robotrules_text::visible_lines(line).as_bytes())
        .map_err(crate::output::write_error)
}

/// The bytes of OLD or NEW: a file's, or a fetched file's body (none when it is unavailable).
fn load(arg: &str, remote: &crate::remote::Remote, purpose: For<'_>) -> Result<Vec<u8>, CliError> {
    match input::load_robots_or_fetch(arg, DEFAULT_PARSE_LIMIT, remote, purpose)? {
        RobotsSource::Local(bytes) => Ok(bytes),
        RobotsSource::Remote(lookup) => match lookup.access() {
            AccessKind::Success => Ok(lookup.served().body().unwrap_or_default().to_vec()),
            AccessKind::Unreachable => Err(CliError::Usage(format!(
                "cannot compare {:?}: its robots.txt {} is unreachable ({}), which disallows \
                 every URL (RFC 9309 §2.3.1.4); there are no rules to compare",
                excerpt(arg, EXCERPT_CHARS),
                excerpt(lookup.robots_txt_url(), EXCERPT_CHARS),
                excerpt(
                    lookup.access_reason().unwrap_or("no reason given"),
                    EXCERPT_CHARS
                ),
            ))),
            // Unavailable: no robots.txt, every URL allowed (RFC 9309 §2.3.1.3), as an empty
            // file allows every URL.
            _ => {
                eprintln!(
                    "robotrules: note: no robots.txt at {} ({}): compared as an empty file, \
                     which allows every URL (RFC 9309 §2.3.1.3)",
                    excerpt(lookup.robots_txt_url(), EXCERPT_CHARS),
                    excerpt(
                        lookup.access_reason().unwrap_or("unavailable"),
                        EXCERPT_CHARS
                    ),
                );
                Ok(Vec::new())
            }
        },
    }
}

/// A [`DiffError`] as the command reports it.
fn diff_error(error: DiffError) -> CliError {
    match error {
        DiffError::InvalidAgent(invalid) => CliError::InvalidAgent(invalid),
        DiffError::InvalidUrl(invalid) => CliError::InvalidUrl(invalid),
        other => CliError::Usage(other.to_string()),
    }
}

/// `Googlebot (rfc9309): /private/x was allowed (no rule), now disallowed by line 4: Disallow:
/// /private/`, ended.
fn text_row(
    agent: &str,
    profile: Profile,
    url: &str,
    before: &FileDecision,
    after: &FileDecision,
) -> String {
    let note = crate::output::agent_note(agent);
    let agent = excerpt(agent, EXCERPT_CHARS);
    let mut row = format!(
        "{agent}{note} ({profile}): {} was {}, now {}",
        excerpt(url, EXCERPT_CHARS),
        decision(before),
        decision(after)
    );
    // A group gained, lost or renamed (a misspelt `user-agent` line) shows in the selection.
    let (was, now) = (before.selection.to_string(), after.selection.to_string());
    if was != now || before.groups != after.groups {
        let groups = |d: &FileDecision| match d.selection.to_string().as_str() {
            "exact" | "substring" => format!("the group at line {}", lines(&d.groups)),
            "global" => format!(
                "the * group at line {}, no group naming {agent}",
                lines(&d.groups)
            ),
            _ => "no group".to_owned(),
        };
        let _ = write!(row, " (before: {}; now: {})", groups(before), groups(after));
    }
    row.push('\n');
    row
}

/// `4` or `4, 9`.
fn lines(lines: &[u32]) -> String {
    let lines: Vec<String> = lines.iter().map(u32::to_string).collect();
    lines.join(", ")
}

/// `disallowed by line 4: Disallow: /private/`, `allowed (no rule)`.
fn decision(d: &FileDecision) -> String {
    let verdict = if d.allowed { "allowed" } else { "disallowed" };
    match &d.decided_by {
        Some(rule) => {
            let kind = rule.kind.as_str();
            let mut chars = kind.chars();
            let kind: String = chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
                .collect();
            format!(
                "{verdict} by line {}: {kind}: {}",
                rule.line,
                excerpt(&rule.pattern, EXCERPT_CHARS)
            )
        }
        None => {
            let why = match d.reason.as_str() {
                "no-group" => "no group applies",
                "robots-txt-implicitly-allowed" => "/robots.txt is always allowed",
                _ => "no rule",
            };
            format!("{verdict} ({why})")
        }
    }
}

/// The summary line on standard error after text rows: `2 changes (3 crawlers, 4 URLs, under
/// rfc9309)`.
fn text_summary(summary: &Summary<'_>) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let agents = summary.agents.len();
    let profiles: Vec<&str> = summary.profiles.iter().map(|p| p.as_str()).collect();
    let changes = match summary.changes {
        0 => "no change".to_owned(),
        n => plural(usize::try_from(n).unwrap_or(usize::MAX), "change"),
    };
    let mut out = format!("{changes} ({}", plural(agents, "crawler"));
    if let Some(urls) = summary.urls {
        let _ = write!(out, ", {}", plural(urls, "URL"));
    }
    let _ = write!(out, ", under {})", profiles.join(", "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_crawler_is_counted_once_under_every_profile() {
        let (old, new) = (
            b"User-agent: Googlebot\nDisallow: /a\n".as_slice(),
            b"User-agent: Googlebot\nDisallow: /b\n".as_slice(),
        );
        let agents = ["Googlebot".to_owned(), "Bingbot".to_owned()];
        let compared = compare(
            old,
            new,
            &Profile::ALL,
            &agents,
            None,
            Deadline::NONE,
            |_| Ok(()),
        )
        .unwrap();
        assert_eq!(compared, agents);
        let summary = Summary {
            mode: "rule",
            changes: 6,
            profiles: &Profile::ALL,
            agents: &compared,
            urls: None,
        };
        assert_eq!(
            text_summary(&summary),
            "6 changes (2 crawlers, under rfc9309, google, legacy1994)"
        );
    }

    #[test]
    fn profiles_by_name_or_all() {
        assert_eq!(parse_profiles("all").unwrap().list(), Profile::ALL);
        assert_eq!(parse_profiles("Google").unwrap().list(), [Profile::Google]);
        assert!(parse_profiles("bing").is_err());
    }
}
