//! `robotrules fetch [--profile P] [--format F] [--timeout SECS] [--ca-cert FILE]...
//! [--platform-roots] [--user-agent TEXT] [--cache URL [--cache-timeout SECS]] [--body]
//! [--output FILE] URL`: fetch the robots.txt that governs URL (the robots.txt itself or any
//! page of the site) with the rules of RFC 9309 §2.3–§2.5 and show what happened: every request
//! and its status (redirects included), the bytes kept and whether the body was cut at the 500
//! KiB limit, the access result (success, unavailable, unreachable) and why (a TLS failure
//! names itself: unknown issuer, expired, name mismatch, handshake, not TLS), how long the
//! result would be cached, and the verdict class it gives every URL of the site (conditional,
//! full allow, full disallow). With `--cache`, through the fleet's shared cache in Redis
//! ([`crate::shared_cache`]): the report is of the copy served (a fresh entry is not fetched
//! again) and says whether it came from the cache, and how old it is.
//!
//! Exit status as `check`: 0 when the verdict class is not full disallow (the file was fetched,
//! or it is unavailable: every URL allowed), 1 when it is full disallow (unreachable: every
//! URL disallowed), 2 on a usage error, an unusable `--ca-cert` file, or a URL that cannot
//! have a robots.txt.

use std::io;

use robotrules::client::VerdictClass;
use robotrules::Profile;

use crate::args::RemoteArgs;
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::fetch_report::FetchSummary;
use crate::fetch_report::SharedAnswer;
use crate::output::{self, Format};
use crate::remote::For;

/// The examples and exit statuses, for `robotrules fetch --help`.
const EXIT_STATUS: &str = "\
Examples:
  robotrules fetch https://www.example.com/any/page
  robotrules fetch --body --output robots.txt https://example.com/

Exit status: 0 when the robots.txt was fetched (verdict conditional) or is unavailable (4xx, \
too many redirects, FTP 550: full allow); 1 when it is unreachable (5xx, network error, \
TLS failure, timeout: full disallow); 2 on a usage error, an unusable --ca-cert file, or a URL \
that cannot have a robots.txt.";

/// Arguments of `robotrules fetch`.
#[derive(Debug, clap::Args)]
#[command(after_help = EXIT_STATUS)]
pub(crate) struct FetchArgs {
    /// The cache rules behind the reported cache lifetime: rfc9309 (at most 24 hours) or
    /// google (follows Cache-Control max-age, also beyond 24 hours); legacy1994 uses rfc9309's.
    #[arg(
        long,
        value_name = "PROFILE",
        default_value_t = Profile::default(),
        ignore_case = true,
        value_parser = crate::args::profile_parser(),
    )]
    profile: Profile,

    /// Output: text (`key: value` lines) or json (one object).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text, hide_possible_values = true)]
    format: Format,

    /// How the robots.txt is fetched, and the robots.txt cache shared with other processes
    /// (the User-Agent is `robotrules/VERSION` unless --user-agent says otherwise).
    #[command(flatten)]
    remote: RemoteArgs,

    /// Also print the body kept (at most the 500 KiB parse limit) after the report; with
    /// `--format json`, as the `body` field (lossy UTF-8).
    #[arg(long)]
    body: bool,

    /// Save the body kept to FILE (nothing is written when there is no body).
    #[arg(long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,

    /// An http://, https:// or ftp:// URL: the robots.txt, or any page of the site.
    #[arg(value_name = "URL")]
    url: String,
}

/// Runs `fetch`: [`Outcome::Flagged`] when the robots.txt is unreachable (full disallow),
/// [`Outcome::AllClear`] otherwise.
///
/// # Errors
/// A [`CliError`] for an unusable `--ca-cert` file, a URL that cannot have a robots.txt,
/// fetching that cannot start, or a failed write.
pub(crate) fn run(args: FetchArgs) -> Result<Outcome, CliError> {
    let remote = args.remote.load()?;
    let purpose = For::new(None, args.profile);
    let lookup = remote.lookup(&args.url, purpose)?;
    let mut summary = FetchSummary::new(&lookup);
    if remote.is_shared() {
        summary.shared_cache = Some(SharedAnswer::new(&lookup));
    }
    let body = lookup.served().body();
    if let (Some(path), Some(body)) = (&args.output, body) {
        std::fs::write(path, body).map_err(|source| CliError::WriteFile {
            path: path.display().to_string(),
            source,
        })?;
    }
    let rendered = match args.format {
        Format::Text => {
            let mut text = format!("{summary}\n");
            if let (true, Some(body)) = (args.body, body) {
                text.push('\n');
                text.push_str(&String::from_utf8_lossy(body));
                if !text.ends_with('\n') {
                    text.push('\n');
                }
            }
            text
        }
        Format::Json if args.body => {
            let mut value = serde_json::to_value(&summary)
                .map_err(|e| CliError::Usage(format!("cannot write JSON: {e}")))?;
            value["body"] = body.map_or(serde_json::Value::Null, |b| {
                serde_json::Value::String(String::from_utf8_lossy(b).into_owned())
            });
            output::json_line(&value)?
        }
        Format::Json => output::json_line(&summary)?,
    };
    output::write_text(io::stdout().lock(), &rendered)?;
    Ok(Outcome::flagged_if(
        summary.verdict == VerdictClass::FullDisallow,
    ))
}
