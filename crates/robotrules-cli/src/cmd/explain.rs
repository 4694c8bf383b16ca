//! `robotrules explain [--profile P|all] [--format F] [--timeout SECS] [--ca-cert FILE]...
//! [--platform-roots] [--user-agent TEXT] [--cache URL [--cache-timeout SECS]] ROBOTS AGENT
//! URL`: why crawler AGENT may or may not fetch URL — which groups apply and why, every
//! matching rule with its length, the winner and the tie rule, the deciding line in context,
//! the `/robots.txt` and `index.html` special cases; with `--profile all`, each profile's
//! verdict side by side and why they differ (the model's causes, each with its line). When the
//! parse limit cut the file, where (byte offset) and the matching rules past the cut, ignored
//! (RFC 9309 §2.5): a local file is read past the limit for that, and parsed under it. When the
//! crawler has usage rules (`Content-Usage`, `Content-Signal`), a usage section follows: the
//! URL's preferences per category with the lines that decide them (`robotrules usage`'s
//! block).
//!
//! Text on standard output, or (`--format json`) the structured report as one JSON object.
//! Exit status as `check`: 0 allowed, 1 disallowed (by any profile shown), 2 on a usage or
//! input error, including a crawler name or URL that a profile cannot read.

use std::io;

use robotrules::client::AccessKind;
use robotrules::{Profile, DEFAULT_PARSE_LIMIT};
use robotrules_lint::render::TextOptions;

use crate::args::{parse_profiles, Profiles, RemoteArgs};
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::explain::{self, Cut, Report};

use crate::fetched::Fetched;
use crate::input::{self, RobotsSource};
use crate::output::{self, Format};
use crate::remote::For;

/// Arguments of `robotrules explain`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules explain examples/robots.txt Googlebot /search/results
  robotrules explain --profile all examples/robots.txt Googlebot /search/results
  robotrules explain --format json https://example.com/robots.txt ExampleBot /private/x")]
pub(crate) struct ExplainArgs {
    /// The reading to explain (rfc9309, google, legacy1994), or `all` to compare them.
    #[arg(long, value_name = "PROFILE", default_value = "rfc9309", value_parser = parse_profiles)]
    profile: Profiles,

    /// Output: text, or json: the structured report as one JSON object on one line (every
    /// profile's answer inside it, with `--profile all`).
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        default_value_t = Format::Text,
        hide_possible_values = true
    )]
    format: Format,

    /// How a ROBOTS URL is fetched and cached.
    #[command(flatten)]
    remote: RemoteArgs,

    /// The robots.txt file, `-` for standard input, or an `http://`, `https://` or `ftp://`
    /// URL (the robots.txt or any page of the site).
    #[arg(value_name = "ROBOTS")]
    robots: String,

    /// The crawler's name, a product token such as `Googlebot` (RFC 9309 §2.2.1).
    #[arg(value_name = "AGENT")]
    agent: String,

    /// The URL: absolute (`https://example.com/a?b`) or a path (`/a?b`).
    #[arg(value_name = "URL")]
    url: String,
}

/// Runs `explain`: [`Outcome::AllClear`] when every profile shown allows the URL,
/// [`Outcome::Flagged`] when any disallows it.
///
/// # Errors
/// A [`CliError`] for an unreadable file, a crawler name a profile rejects (the report is
/// still written first), or a failed write.
pub(crate) fn run(args: ExplainArgs) -> Result<Outcome, CliError> {
    let remote = args.remote.load()?;
    let profile = match args.profile {
        Profiles::One(profile) => profile,
        Profiles::All => Profile::default(),
    };
    let purpose = For::new(Some(&args.agent), profile);
    // A local file is read past the parse limit (up to [`explain::READ_PAST_CUT`]), so that
    // the rules the limit left out can be named; it is still parsed under the limit.
    let source =
        input::load_robots_or_fetch(&args.robots, explain::READ_PAST_CUT, &remote, purpose)?;
    let (bytes, truncation) = match source {
        RobotsSource::Local(bytes) => (bytes, None),
        RobotsSource::Remote(lookup) => match (lookup.access(), lookup.served().body()) {
            (AccessKind::Success, Some(body)) => (body.to_vec(), lookup.served().truncation()),
            // No file to explain: the access result decides every URL, as in `check`.
            _ => return no_file(&args, &Fetched::new(&lookup), lookup.robots_txt_url()),
        },
    };
    // A single profile that rejects the name or the URL is a plain input error, as in `check`:
    // the model says which, before anything is written.
    if let Profiles::One(profile) = args.profile {
        profile.check_crawler_name(&args.agent)?;
        profile.check_url(&args.url)?;
    }
    let mut report = Report::new(
        &bytes,
        &args.agent,
        &args.url,
        &args.profile.list(),
        DEFAULT_PARSE_LIMIT,
    );
    // A fetched file the size limit cut: the rest was never downloaded (RFC 9309 §2.5).
    if let Some(truncation) = truncation {
        report
            .parse_limit
            .get_or_insert_with(|| Cut::downloaded(&bytes, truncation));
    }
    let stdout = io::stdout();
    let color = args.format == Format::Text && output::use_color(&stdout);
    let rendered = match args.format {
        Format::Text => explain::text(
            &report,
            &bytes,
            &TextOptions {
                path: output::display_path(&args.robots),
                color,
            },
        ),
        Format::Json => output::json_line(&report)?,
    };
    output::write_styled(stdout.lock(), &rendered, color)?;
    match (args.profile, report.first_error()) {
        // One profile that cannot read the name or URL: a usage error, as in `check`.
        (Profiles::One(_), Some((profile, error))) => {
            Err(CliError::Usage(format!("{profile}: {error}")))
        }
        // Side by side, the other profiles' answers are shown; the one that errored fails
        // the run.
        (Profiles::All, Some((profile, error))) => {
            eprintln!(
                "robotrules: error: {}",
                crate::error::one_line(&format!("{profile}: {error}"))
            );
            Ok(Outcome::Flagged)
        }
        (_, None) => Ok(Outcome::flagged_if(report.any_disallowed())),
    }
}

/// A remote robots.txt that is unavailable or unreachable: what RFC 9309 makes of it, for
/// every profile, and the exit status `check` gives.
fn no_file(args: &ExplainArgs, fetched: &Fetched, url: &str) -> Result<Outcome, CliError> {
    let Some((allowed, reason)) = fetched.blanket() else {
        return Ok(Outcome::AllClear);
    };
    #[derive(serde::Serialize)]
    struct NoFile<'a> {
        robots_txt_url: &'a str,
        agent: &'a str,
        url: &'a str,
        allowed: bool,
        reason: &'a str,
        #[serde(flatten)]
        fetched: &'a Fetched,
    }
    let record = NoFile {
        robots_txt_url: url,
        agent: &args.agent,
        url: &args.url,
        allowed,
        reason: &reason,
        fetched,
    };
    let rendered = match args.format {
        Format::Text => format!(
            "{url}: {}\n`{}`{} on `{}`: {}\n",
            fetched.plainly().unwrap_or_default(),
            args.agent,
            output::agent_note(&args.agent),
            args.url,
            if allowed { "allowed" } else { "disallowed" },
        ),
        Format::Json => output::json_line(&record)?,
    };
    output::write_text(io::stdout().lock(), &rendered)?;
    Ok(Outcome::flagged_if(!allowed))
}
