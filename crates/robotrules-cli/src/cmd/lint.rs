//! `robotrules lint [--profile P] [--format F] [--max-findings N] ROBOTS`: what is wrong with a
//! robots.txt file.
//!
//! Text goes to standard error, rendered like rustc's diagnostics (the source line, a caret
//! under the span, the lint's code, help); JSON goes to standard output, one object per
//! finding. Exit status 0 when there is nothing to report, 1 when there are findings, 2 on a
//! usage or input error. The lint codes are documented in `docs/lints.md`.

use std::io;

use robotrules::lint::render::{self, TextOptions};
use robotrules::lint::{LintOptions, DEFAULT_MAX_FINDINGS};
use robotrules::{Profile, DEFAULT_PARSE_LIMIT};

use crate::cmd::{self, Outcome};
use crate::error::CliError;
use crate::input;
use crate::output::{self, Format};

/// How much of the file is read: the parse limit is applied by the linter, which also counts
/// the rules past it, so it is given more than the limit.
const READ_LIMIT: usize = 64 << 20;
const _: () = assert!(READ_LIMIT >= robotrules::DEFAULT_PARSE_LIMIT);

/// Arguments of `robotrules lint`.
#[derive(Debug, clap::Args)]
#[command(override_usage = "robotrules lint [OPTIONS] ROBOTS")]
pub(crate) struct LintArgs {
    /// The reading the file is checked for: an error is something it drops, a warning
    /// something it keeps that is likely not meant (or that another reading differs on).
    #[arg(
        long,
        value_name = "PROFILE",
        default_value_t = Profile::default(),
        ignore_case = true,
        value_parser = cmd::profile_parser(),
    )]
    profile: Profile,

    /// Output: rustc-style text on standard error, or one JSON object per finding on standard
    /// output.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// Show at most this many findings (the rest are counted).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FINDINGS)]
    max_findings: usize,

    /// The robots.txt file, `-` for standard input, or an `http://`, `https://` or `ftp://`
    /// URL (the robots.txt or any page of the site; fetched with a 30 s deadline).
    #[arg(value_name = "ROBOTS")]
    robots: String,
}

/// Runs `lint`: [`Outcome::AllClear`] without findings, [`Outcome::Flagged`] with any.
///
/// # Errors
/// A [`CliError`] when the file cannot be read or the output cannot be written.
pub(crate) fn run(args: LintArgs) -> Result<Outcome, CliError> {
    let bytes = input::load_robots(&args.robots, READ_LIMIT)?;
    let options = LintOptions {
        profile: args.profile,
        parse_limit: DEFAULT_PARSE_LIMIT,
        max_findings: args.max_findings,
    };
    let report = robotrules::lint::lint(&bytes, &options);
    match args.format {
        Format::Text => {
            let stderr = io::stderr();
            let text = TextOptions {
                path: output::display_path(&args.robots),
                color: output::use_color(&stderr),
            };
            output::write_text(stderr.lock(), &render::text(&report, &bytes, &text))
        }
        Format::Json => output::write_text(io::stdout().lock(), &render::json_lines(&report)),
    }?;
    Ok(Outcome::flagged_if(!report.is_clean()))
}
