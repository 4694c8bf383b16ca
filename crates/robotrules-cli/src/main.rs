//! The `robotrules` command-line tool.
//!
//! `main` parses the command line, hands it to the subcommand's module under [`cmd`], and turns
//! the result into the exit status every command shares: 0 when there is nothing to report,
//! 1 when there is (a disallowed URL), 2 on a usage or input error, with one line on standard
//! error (`robotrules: error: …`). To add a command: a module `cmd/<name>.rs` with an
//! `Args` struct and `run`, and one variant of [`Command`].

mod args;
mod bare_host;
mod cmd;
mod error;
mod explain;
mod fetch_report;
mod fetched;
mod input;
mod lines;
mod output;
mod remote;
mod rows;
mod shared_cache;
mod trust;
mod usage_text;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::error::{one_line, CliError};

/// mimalloc: small allocations freed on another thread (each URL `batch` reads) are cheap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Check URLs against robots.txt files (RFC 9309, Google's reading, the 1994 convention).
#[derive(Debug, Parser)]
#[command(
    name = "robotrules",
    version,
    about,
    after_help = "\
Examples:
  robotrules check examples/robots.txt Googlebot /search/results /about
  robotrules explain --profile all examples/robots.txt Googlebot /search/results
  robotrules lint examples/robots.txt
  robotrules survey --agents GPTBot,ClaudeBot,Googlebot robots/"
)]
struct Cli {
    /// When to colour the output: auto (when writing to a terminal and NO_COLOR is unset or
    /// empty), always, or never.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value_t = args::ColorChoice::Auto
    )]
    color: args::ColorChoice,

    /// Where a fetch fails on the network (fetch, check, usage, show, explain, lint, batch),
    /// add the network library's error chain to the short reason (`connection refused`).
    #[arg(long, global = true)]
    verbose: bool,

    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// May a crawler fetch these URLs? One line per URL; exit 1 when any is disallowed.
    Check(cmd::check::CheckArgs),
    /// May a crawler use these URLs for AI training, for search, for AI input? Per URL the
    /// crawl verdict and each Content-Usage / Content-Signal category with its deciding line;
    /// exit 1 when any URL may not be crawled.
    Usage(cmd::usage::UsageArgs),
    /// May a crawler fetch these URLs of many sites? Each against its own robots.txt, fetched
    /// once per origin; one row per URL, in input order (or as decided, --unordered); exit 1 when any is disallowed, 2 when
    /// any line is not a URL with a robots.txt.
    Batch(cmd::batch::BatchArgs),
    /// What is wrong with robots.txt files? rustc-style findings (or JSON, SARIF) per file;
    /// exit 1 when a file has an error (or, with -D warnings, a warning).
    Lint(cmd::lint::LintArgs),
    /// Why may a crawler fetch a URL, or not? Groups, matching rules, the deciding line; exit 1
    /// when disallowed.
    Explain(cmd::explain::ExplainArgs),
    /// What happens when a robots.txt is fetched? Requests and statuses, bytes, truncation,
    /// access result, cache lifetime, verdict class; exit 1 when unreachable (full disallow).
    Fetch(cmd::fetch::FetchArgs),
    /// What changes for crawlers when robots.txt OLD is replaced by NEW? The URLs whose verdict
    /// changes, or the rules whose effect changed with a witness path; exit 1 when something
    /// changes.
    Diff(cmd::diff::DiffArgs),
    /// What does a crawler get? Its groups and rules, crawl-delay, request-rate, visit-time
    /// and the sitemaps; exit 1 only when a fetched robots.txt is unreachable.
    Show(cmd::show::ShowArgs),
    /// What does the fleet's shared robots.txt cache (Redis, `--cache`) hold, site by site or
    /// in total, and remove entries: `cache show`, `cache list`, `cache stats`, `cache purge`.
    Cache(cmd::cache::CacheArgs),
    /// A robots.txt tester in the browser: one page and a JSON API on 127.0.0.1:8080 (the
    /// same answers as check, explain, lint, show, diff and fetch).
    Serve(cmd::serve::ServeArgs),
    /// Which hosts are open, partial or blocked to which crawlers? One row per robots.txt
    /// capture (WARC files, directories) and crawler as CSV, JSON Lines or Parquet, then a
    /// summary table per crawler.
    Survey(cmd::survey::SurveyArgs),
    /// Print a completion script for a shell, to save where the shell loads completions.
    Completions(cmd::completions::CompletionsArgs),
}

fn main() -> ExitCode {
    // `--help` is printed before the arguments are parsed into `Cli`, so its colour follows
    // a `--color` found by a scan of the raw arguments (NO_COLOR clap honours itself).
    let command = Cli::command().color(help_color(std::env::args_os().skip(1)));
    let matches = command.try_get_matches();
    let subcommand = matches
        .as_ref()
        .ok()
        .and_then(|m| m.subcommand_name())
        .map(str::to_owned);
    let cli = match matches.and_then(|matches| Cli::from_arg_matches(&matches)) {
        Ok(cli) => cli,
        Err(error)
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            // `--help`, `help`, `--version`: the full text on standard output, exit 0.
            return match error.print() {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(2),
            };
        }
        Err(error) => return fail(&CliError::from_clap(&error)),
    };
    cli.color.set();
    args::Verbose::set(cli.verbose);
    let result = match cli.command {
        Command::Check(args) => cmd::check::run(args),
        Command::Usage(args) => cmd::usage::run(args),
        Command::Batch(args) => cmd::batch::run(args),
        Command::Lint(args) => cmd::lint::run(args),
        Command::Explain(args) => cmd::explain::run(args),
        Command::Fetch(args) => cmd::fetch::run(args),
        Command::Diff(args) => cmd::diff::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Cache(args) => cmd::cache::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Survey(args) => cmd::survey::run(args),
        Command::Completions(args) => cmd::completions::run(&args, Cli::command()),
    };
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(error) => fail(&with_usage(error, subcommand.as_deref())),
    }
}

/// A URL given where the crawler's name goes (the name left out) is a usage error: the
/// model's message, then the command's usage line.
fn with_usage(error: CliError, subcommand: Option<&str>) -> CliError {
    let CliError::InvalidAgent(invalid) = &error else {
        return error;
    };
    let mut command = Cli::command();
    command.build();
    let usage = subcommand
        .and_then(|name| command.find_subcommand_mut(name))
        .map(|sub| sub.render_usage().to_string());
    match usage {
        Some(usage) if invalid.is_url() => {
            let usage = usage.trim().trim_start_matches("Usage:").trim();
            CliError::Usage(format!("{invalid} (usage: {usage})"))
        }
        _ => error,
    }
}

/// clap's colour for `--help`, from the last `--color WHEN` or `--color=WHEN` in `args`
/// (`auto` when there is none or it is not `always` or `never`).
fn help_color(args: impl IntoIterator<Item = std::ffi::OsString>) -> clap::ColorChoice {
    let mut choice = clap::ColorChoice::Auto;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let value = match arg.to_str() {
            Some("--") => break,
            Some("--color") => args.next(),
            Some(other) => other.strip_prefix("--color=").map(Into::into),
            None => None,
        };
        match value.as_ref().and_then(|v| v.to_str()) {
            Some("always") => choice = clap::ColorChoice::Always,
            Some("never") => choice = clap::ColorChoice::Never,
            Some(_) => choice = clap::ColorChoice::Auto,
            None => {}
        }
    }
    choice
}

/// Reports `error` on one line of standard error; exit status 2.
fn fail(error: &CliError) -> ExitCode {
    eprintln!("robotrules: error: {}", one_line(&error.to_string()));
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn help_color_of(args: &[&str]) -> clap::ColorChoice {
        help_color(args.iter().map(std::ffi::OsString::from))
    }

    #[test]
    fn help_colour_follows_the_last_color_flag() {
        assert_eq!(help_color_of(&["check", "--help"]), clap::ColorChoice::Auto);
        assert_eq!(
            help_color_of(&["--color", "never", "lint", "--help"]),
            clap::ColorChoice::Never
        );
        assert_eq!(
            help_color_of(&["lint", "--color=always", "--help"]),
            clap::ColorChoice::Always
        );
        assert_eq!(
            help_color_of(&["--color=never", "--color", "auto"]),
            clap::ColorChoice::Auto
        );
        assert_eq!(
            help_color_of(&["check", "--", "--color=never"]),
            clap::ColorChoice::Auto
        );
    }

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
