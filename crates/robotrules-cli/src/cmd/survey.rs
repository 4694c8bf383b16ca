//! `robotrules survey [--agents A,B,… | --agents-file F] [--profile P] [--format F] [-o FILE]
//! [--threads N] INPUT...`: which hosts are open, partial or blocked to which crawlers, over
//! WARC files of robots.txt captures (Common Crawl's robots.txt subset) or directories of
//! robots.txt files.
//!
//! The work is the `robotrules-survey` crate's ([`robotrules_survey::run`]): every capture is
//! surveyed for every crawler, on every core, streaming, rows in input order (redirects last,
//! once their targets are known). This module reads the command line, checks every crawler
//! name and every input before any work, writes the rows ([`rows`]: CSV, JSON Lines, or
//! Parquet with the `parquet` feature), shows a progress bar on a terminal ([`progress`]) and
//! ends with the summary table ([`summary`]): on standard error when the rows go to standard
//! output, else on standard output.
//!
//! Exit status: 0 when every input was read (malformed records and skipped directory entries
//! are warnings, counted in the summary); 2 when no capture was read at all (one line says
//! what was read instead, and no table is printed), on a usage error, an invalid crawler name, an input that does not exist (before
//! any work), or an input that could not be read (after the others are surveyed).

#[cfg(feature = "parquet")]
mod parquet;
mod progress;
mod rows;
mod summary;

use std::fs::File;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use robotrules::{Profile, DEFAULT_PARSE_LIMIT};
use robotrules_survey::{
    default_agents, parse_agent_list, Agent, Event, Input, RunOptions, Survey, Tally,
};

use crate::args::profile_parser;
use crate::cmd::Outcome;
use crate::error::{agent_warning, CliError};
use crate::output::closed_is_done;

use self::rows::{RowFormat, RowWriter};

/// Arguments of `robotrules survey`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules survey --agents GPTBot,ClaudeBot,Googlebot robots/
  robotrules survey -o rows.csv CC-MAIN-*-robotstxt.warc.gz
  find crawl/ -name '*.warc.gz' | robotrules survey --format json -o rows.jsonl -")]
pub(crate) struct SurveyArgs {
    /// The crawlers to survey, comma-separated product tokens (default: the AI crawlers and
    /// the Googlebot and Bingbot baselines of the default list, data/agents.tsv).
    #[arg(
        long,
        value_name = "A,B,...",
        value_delimiter = ',',
        conflicts_with = "agents_file"
    )]
    agents: Vec<String>,

    /// Read the crawlers from FILE: one per line, optionally followed by a tab, the operator,
    /// a tab and the purpose (training, search, user-triggered); `#` lines are comments.
    #[arg(long, value_name = "FILE")]
    agents_file: Option<PathBuf>,

    /// How to read robots.txt files: Google's reference library (the reading most studies
    /// want), RFC 9309, or the 1994 convention.
    #[arg(
        long = "profile",
        value_name = "PROFILE",
        default_value_t = Profile::Google,
        ignore_case = true,
        value_parser = profile_parser(),
    )]
    profile: Profile,

    /// Output: CSV with a header line, one JSON object per line, or Parquet (with -o; in
    /// builds with the `parquet` feature).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = RowFormat::Csv)]
    format: RowFormat,

    /// Write the rows to FILE instead of standard output (the summary then goes to standard
    /// output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,

    /// Threads surveying captures (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,

    /// WARC files (plain or gzipped, `response` records of robots.txt fetches), robots.txt
    /// files named after their hosts (`HOST/robots.txt`, `HOST_robots.txt`, `HOST.txt`),
    /// directories of them, or `-` to read such paths from standard input, one per line.
    #[arg(value_name = "INPUT", required = true)]
    inputs: Vec<String>,
}

/// Runs `survey` (see the module docs).
///
/// # Errors
/// A [`CliError`] for an unreadable agent list, an invalid crawler name, a missing input, an
/// output that cannot be written, or inputs that could not be read.
pub(crate) fn run(args: SurveyArgs) -> Result<Outcome, CliError> {
    let agents = agents_of(&args)?;
    let survey = Survey::new(agents, args.profile, DEFAULT_PARSE_LIMIT)?;
    for agent in survey.agents() {
        if let Some(warning) = agent_warning(args.profile, &agent.name) {
            eprintln!("robotrules: warning: {warning}");
        }
    }
    let inputs = inputs_of(&args.inputs)?;
    if args.format == RowFormat::Parquet && args.output.is_none() {
        return Err(CliError::Usage(
            "--format parquet writes a file: give it with -o FILE".to_owned(),
        ));
    }
    let to_file = args.output.is_some();
    let out: Box<dyn Write + Send> = match &args.output {
        Some(path) => Box::new(File::create(path).map_err(|source| CliError::WriteFile {
            path: path.display().to_string(),
            source,
        })?),
        None => Box::new(io::stdout()),
    };
    let mut writer = RowWriter::new(
        args.format,
        BufWriter::with_capacity(1 << 16, out),
        survey.agents(),
    )?;
    let progress = progress::Progress::new(io::stderr().is_terminal());
    let options = RunOptions {
        threads: args
            .threads
            .map_or_else(|| RunOptions::default().threads, usize::from),
    };
    let mut tally = Tally::default();
    let mut failed = 0_u64;
    let mut written: Result<(), CliError> = Ok(());
    let format = args.format;
    robotrules_survey::run(
        &inputs,
        &survey,
        options,
        |batch| rows::format_batch(format, batch, survey.agents()),
        |event| {
            match event {
                Event::Started(path) => progress.file(path),
                Event::Failed(path, error) => {
                    failed += 1;
                    progress.warn(&format!(
                        "cannot read {:?}: {error}",
                        robotrules_text::excerpt(&path.display().to_string(), 100)
                    ));
                }
                Event::Malformed(file, error) => {
                    progress.warn(&format!(
                        "{:?}: {error}",
                        robotrules_text::excerpt(file, 100)
                    ));
                }
                Event::Ignored(path, why) => {
                    progress.warn(&format!(
                        "skipped {:?}: {why}",
                        robotrules_text::excerpt(path, 100)
                    ));
                }
                Event::Batch(batch, batch_tally) => {
                    progress.add(batch_tally.captures);
                    tally.merge(&batch_tally);
                    written = writer.write(batch);
                }
            }
            // A failed write (the reader gone: `… | head`) ends the survey.
            if written.is_ok() {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        },
    )
    .map_err(|error| CliError::Write(io::Error::other(error)))?;
    progress.finish();
    closed_is_done(written.and_then(|()| writer.finish()))?;
    if tally.captures == 0 {
        return Err(CliError::NoCaptures {
            why: summary::nothing_read(&tally, failed),
        });
    }
    let table = summary::render(&survey, &tally);
    if to_file {
        crate::output::write_text(io::stdout().lock(), &table)?;
    } else {
        eprint!("{}", robotrules_text::visible_lines(&table));
    }
    if failed > 0 {
        return Err(CliError::InputsFailed { count: failed });
    }
    Ok(Outcome::AllClear)
}

/// The crawlers: `--agents`, `--agents-file`, or the default list.
fn agents_of(args: &SurveyArgs) -> Result<Vec<Agent>, CliError> {
    let agents = if let Some(path) = &args.agents_file {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| CliError::AgentList {
            path: shown.clone(),
            reason: error.to_string(),
        })?;
        parse_agent_list(&text).map_err(|error| CliError::AgentList {
            path: shown,
            reason: error.to_string(),
        })?
    } else if args.agents.is_empty() {
        default_agents()
    } else {
        let mut agents: Vec<Agent> = Vec::new();
        for name in args.agents.iter().map(|a| a.trim()) {
            if name.is_empty() {
                return Err(CliError::Usage(
                    "--agents: an empty crawler name (two commas, or one at an end)".to_owned(),
                ));
            }
            if !agents.iter().any(|a| a.name == name) {
                agents.push(Agent::named(name));
            }
        }
        agents
    };
    if agents.is_empty() {
        return Err(CliError::Usage("no crawler to survey".to_owned()));
    }
    Ok(agents)
}

/// The inputs, each checked to exist: `-` is replaced by the paths on standard input.
fn inputs_of(args: &[String]) -> Result<Vec<Input>, CliError> {
    let mut paths = Vec::new();
    for arg in args {
        if arg == crate::input::STDIN {
            for line in io::stdin().lock().lines() {
                let line = line.map_err(CliError::ReadUrls)?;
                let line = line.trim();
                if !line.is_empty() && !line.starts_with('#') {
                    paths.push(line.to_owned());
                }
            }
        } else {
            paths.push(arg.clone());
        }
    }
    paths
        .into_iter()
        .map(|path| Input::at(&path).map_err(|source| CliError::ReadInput { path, source }))
        .collect()
}
