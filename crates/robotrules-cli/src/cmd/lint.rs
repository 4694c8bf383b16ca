//! `robotrules lint --explain [CODE]`: what a lint code means, or every code in one line each.
//!
//! `robotrules lint [--profile P] [--format F] [--max-findings N] [-A|-W|-D CODE]... [--timeout
//! SECS] [--ca-cert FILE]... [--platform-roots] [--user-agent TEXT] [--cache URL
//! [--cache-timeout SECS]] ROBOTS...`: what is wrong with robots.txt files.
//!
//! Each file is linted under every profile for the one given (see `docs/lints.md`). The report
//! goes to standard output, rendered like rustc's diagnostics (the source line, a caret under
//! the span, the lint's code, help), so `robotrules lint f.txt | less` and `> report.txt` hold
//! it; the summary line per file (and the total for several files) goes to standard error, as
//! ruff and eslint keep progress and summaries off the report; `--format json` writes one
//! object per finding (each naming its `file`) and a closing `{"summary": …}` record to
//! standard output; `--format sarif` writes one SARIF 2.1.0 log for code-scanning dashboards.
//!
//! Levels as in rustc: `-A CODE` leaves a code out, `-W CODE` makes it a warning, `-D CODE` an
//! error; `warnings` and `notes` name every warning or note (`-D warnings` fails on warnings).
//! A level for a code beats a level for a group; for the same code or group, `-D` beats `-W`
//! beats `-A`.
//!
//! A remote ROBOTS is fetched once, as `check` fetches it, and the bytes `check` would read are
//! linted. A robots.txt that is unavailable (4xx) or unreachable (5xx, network error) has no
//! lines to lint: lint says what RFC 9309 makes of it (every URL allowed, every URL
//! disallowed) and exits as `check` would (0, 1).
//!
//! Exit status: 1 when any file has an error (after levels) or is unreachable, else 0 (notes
//! and warnings do not fail unless denied); 2 on a usage error or a file that cannot be read
//! (the other files are still linted and reported).

use std::io;

use robotrules::client::AccessKind;
use robotrules::{Profile, DEFAULT_PARSE_LIMIT};
use robotrules_lint::render::{self, TextOptions};
use robotrules_lint::{
    sarif, Code, Level, LevelTarget, Levels, LintOptions, LintReport, Summary, DEFAULT_MAX_FINDINGS,
};
use serde::Serialize;

use crate::args::RemoteArgs;
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::input::{self, RobotsSource};
use crate::output;
use crate::remote::For;

/// How much of a local file is read: the parse limit is applied by the linter, which also
/// counts the rules past it, so it is given more than the limit.
const READ_LIMIT: usize = 64 << 20;
const _: () = assert!(READ_LIMIT >= robotrules::DEFAULT_PARSE_LIMIT);

/// What `lint` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LintFormat {
    /// rustc-style findings on standard output, a summary line per file on standard error.
    #[default]
    Text,
    /// One JSON object per finding, then a `{"summary": …}` record, on standard output.
    Json,
    /// One SARIF 2.1.0 log on standard output.
    Sarif,
}

/// Parses a `-A`/`-W`/`-D` value: a lint code, `warnings` or `notes`.
fn parse_target(text: &str) -> Result<LevelTarget, String> {
    text.parse::<LevelTarget>()
        .map_err(|e| format!("{e} (a code from docs/lints.md, `warnings` or `notes`)"))
}

/// Arguments of `robotrules lint`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules lint examples/robots.txt
  robotrules lint --deny warnings --format sarif robots/*.txt > lint.sarif
  robotrules lint -A rule-order https://example.com/robots.txt
  robotrules lint --explain misspelt-key
  robotrules lint --explain              (every code, one line each)")]
pub(crate) struct LintArgs {
    /// The reading the files are checked for: an error is something it drops, a warning
    /// something it keeps that is likely not meant (or that another reading differs on), a
    /// note a harmless redundancy.
    #[arg(
        long,
        value_name = "PROFILE",
        default_value_t = Profile::default(),
        ignore_case = true,
        value_parser = crate::args::profile_parser(),
    )]
    profile: Profile,

    /// Output: rustc-style text (the summary lines on standard error); json (one object per
    /// finding, each with its `file`, then a `{"summary": …}` record with the counts per
    /// severity and the findings left out by --max-findings) or sarif (SARIF 2.1.0). Each
    /// writes its report on standard output.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = LintFormat::Text)]
    format: LintFormat,

    /// Show at most this many findings per file (the rest are counted).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FINDINGS)]
    max_findings: usize,

    /// Leave out findings of CODE (`warnings`, `notes`: every warning, every note).
    #[arg(short = 'A', long = "allow", value_name = "CODE", value_parser = parse_target)]
    allow: Vec<LevelTarget>,

    /// Report CODE as a warning (`notes`: every note).
    #[arg(short = 'W', long = "warn", value_name = "CODE", value_parser = parse_target)]
    warn: Vec<LevelTarget>,

    /// Report CODE as an error, which fails the run (`warnings`: every warning).
    #[arg(short = 'D', long = "deny", value_name = "CODE", value_parser = parse_target)]
    deny: Vec<LevelTarget>,

    /// How a ROBOTS URL is fetched and cached (the User-Agent is `robotrules/VERSION` unless
    /// --user-agent says otherwise).
    #[command(flatten)]
    remote: RemoteArgs,

    /// Print what lint CODE means and exit, as `rustc --explain` does; without CODE, list every
    /// code with its one-line meaning. No ROBOTS is read.
    #[arg(long, value_name = "CODE", num_args = 0..=1, conflicts_with = "robots")]
    explain: Option<Option<String>>,

    /// robots.txt files, `-` for standard input, or `http://`, `https://` or `ftp://` URLs
    /// (the robots.txt or any page of the site), fetched as `check` fetches them.
    #[arg(value_name = "ROBOTS", required_unless_present = "explain")]
    robots: Vec<String>,
}

impl LintArgs {
    fn levels(&self) -> Levels {
        Levels::from_list(
            self.allow
                .iter()
                .map(|&t| (t, Level::Allow))
                .chain(self.warn.iter().map(|&t| (t, Level::Warn)))
                .chain(self.deny.iter().map(|&t| (t, Level::Deny))),
        )
    }
}

/// A remote robots.txt without lines: what RFC 9309 makes of it.
#[derive(Debug, Serialize)]
struct NoFile {
    /// The file as given.
    file: String,
    /// The robots.txt URL fetched.
    robots_txt_url: String,
    /// Unavailable or unreachable.
    access: AccessKind,
    /// Why.
    reason: String,
    /// Whether every URL is allowed (unavailable) or disallowed (unreachable).
    allowed: bool,
}

/// One ROBOTS argument, linted or not.
enum Linted {
    /// The bytes and their report.
    File {
        name: String,
        bytes: Vec<u8>,
        report: LintReport,
    },
    /// A remote file that is unavailable or unreachable.
    NoFile(NoFile),
}

/// Runs `lint`: [`Outcome::Flagged`] when any file has an error or is unreachable.
///
/// # Errors
/// A [`CliError`] for an unusable `--ca-cert` file, a file that cannot be read (after the
/// others are reported), or a failed write.
pub(crate) fn run(args: LintArgs) -> Result<Outcome, CliError> {
    if let Some(code) = &args.explain {
        return explain(code.as_deref());
    }
    let remote = args.remote.load()?;
    if args.robots.iter().filter(|r| *r == input::STDIN).count() > 1 {
        return Err(CliError::Usage(
            "`-` (standard input) given twice".to_owned(),
        ));
    }
    let options = LintOptions {
        profile: args.profile,
        parse_limit: DEFAULT_PARSE_LIMIT,
        max_findings: args.max_findings,
        levels: args.levels(),
        robots_txt_url: None,
    };
    let mut linted = Vec::new();
    let mut failed = Vec::new();
    for arg in &args.robots {
        let name = output::display_path(arg);
        let purpose = For::new(None, args.profile);
        // A local file is read past the parse limit: the linter counts the rules past it.
        let source = input::load_robots_or_fetch(arg, READ_LIMIT, &remote, purpose);
        let entry = match source {
            Ok(RobotsSource::Local(bytes)) => {
                let report = robotrules_lint::lint(&bytes, &options);
                Linted::File {
                    name,
                    bytes,
                    report,
                }
            }
            Ok(RobotsSource::Remote(lookup)) => {
                let reason = crate::fetched::access_reason(&lookup).unwrap_or_default();
                let (access, reason, allowed) = match (lookup.access(), lookup.served().body()) {
                    (AccessKind::Success, Some(body)) => {
                        let options = LintOptions {
                            robots_txt_url: Some(lookup.robots_txt_url().to_owned()),
                            ..options.clone()
                        };
                        let bytes = body.to_vec();
                        let report = robotrules_lint::lint(&bytes, &options);
                        linted.push(Linted::File {
                            name,
                            bytes,
                            report,
                        });
                        continue;
                    }
                    (AccessKind::Unreachable, _) => (AccessKind::Unreachable, reason, false),
                    (access, _) => (access, reason, true),
                };
                Linted::NoFile(NoFile {
                    file: name,
                    robots_txt_url: lookup.robots_txt_url().to_owned(),
                    access,
                    reason,
                    allowed,
                })
            }
            Err(error) => {
                failed.push(error);
                continue;
            }
        };
        linted.push(entry);
    }
    write(&args, &linted)?;
    let flagged = linted.iter().any(|l| match l {
        Linted::File { report, .. } => report.has_errors(),
        Linted::NoFile(no) => !no.allowed,
    });
    match failed.len() {
        0 => Ok(Outcome::flagged_if(flagged)),
        1 => Err(failed.remove(0)),
        n => {
            for error in &failed[..n - 1] {
                eprintln!(
                    "robotrules: error: {}",
                    crate::error::one_line(&error.to_string())
                );
            }
            Err(failed.remove(n - 1))
        }
    }
}

/// `lint --explain [CODE]`: what CODE means (its family, description and where `docs/lints.md`
/// documents it), or every code with its one-line meaning.
///
/// # Errors
/// [`CliError::Usage`] for an unknown code, with the near miss the lint crate finds; a failed
/// write.
fn explain(code: Option<&str>) -> Result<Outcome, CliError> {
    let text = match code {
        Some(name) => {
            let code = name
                .parse::<Code>()
                .map_err(|e| CliError::Usage(e.to_string()))?;
            format!(
                "{code} ({family}): {description}\n\
                 See docs/lints.md#{code} for an example, why it matters and its citation.\n",
                family = code.family().as_str(),
                description = code.description(),
            )
        }
        None => {
            let width = Code::ALL
                .iter()
                .map(|c| c.as_str().len())
                .max()
                .unwrap_or(0);
            Code::ALL
                .iter()
                .map(|c| format!("{:width$}  {}\n", c.as_str(), c.description()))
                .collect()
        }
    };
    output::write_text(io::stdout().lock(), &text)?;
    Ok(Outcome::AllClear)
}

/// What RFC 9309 makes of a robots.txt without lines, in one line.
fn no_file_line(no: &NoFile) -> String {
    let (section, verdict) = if no.allowed {
        ("§2.3.1.3", "every URL is allowed")
    } else {
        ("§2.3.1.4", "every URL is disallowed")
    };
    format!(
        "{}: {} is {} ({}): nothing to lint; RFC 9309 {section}: {verdict}",
        no.file, no.robots_txt_url, no.access, no.reason
    )
}

fn write(args: &LintArgs, linted: &[Linted]) -> Result<(), CliError> {
    let mut summary = Summary::default();
    for l in linted {
        if let Linted::File { report, .. } = l {
            summary.add(report);
        }
    }
    match args.format {
        LintFormat::Text => {
            // Each file's report on standard output, then its summary line on standard error,
            // so the two streams stay in step on a terminal.
            let (stdout, stderr) = (io::stdout(), io::stderr());
            let color = output::use_color(&stdout);
            for l in linted {
                match l {
                    Linted::File {
                        name,
                        bytes,
                        report,
                    } => {
                        let options = TextOptions {
                            path: name.clone(),
                            color,
                        };
                        let findings = render::findings_text(report, bytes, &options);
                        output::write_styled(stdout.lock(), &findings, color)?;
                        let summary = format!("{}\n", render::summary(report, name));
                        output::write_text(stderr.lock(), &summary)?;
                    }
                    Linted::NoFile(no) => {
                        output::write_text(stdout.lock(), &format!("{}\n", no_file_line(no)))?;
                    }
                }
            }
            if linted.len() > 1 {
                let total = format!(
                    "{}: {}, {}, {}\n",
                    render::count(linted.len(), "file"),
                    render::count(summary.errors, "error"),
                    render::count(summary.warnings, "warning"),
                    render::count(summary.notes, "note")
                );
                output::write_text(stderr.lock(), &total)?;
            }
            Ok(())
        }
        LintFormat::Json => {
            let mut out = String::new();
            for l in linted {
                match l {
                    Linted::File { name, report, .. } => {
                        let lines = render::json_lines_for(report, Some(name));
                        out.push_str(&output::json_safe(&lines));
                    }
                    Linted::NoFile(no) => out.push_str(&output::json_line(no)?),
                }
            }
            out.push_str(&render::json_summary(&summary));
            output::write_text(io::stdout().lock(), &out)
        }
        LintFormat::Sarif => {
            let files: Vec<sarif::File<'_>> = linted
                .iter()
                .filter_map(|l| match l {
                    Linted::File {
                        name,
                        bytes,
                        report,
                    } => Some(sarif::File {
                        uri: name,
                        source: bytes,
                        report,
                    }),
                    Linted::NoFile(_) => None,
                })
                .collect();
            let log = sarif::log(&files, env!("CARGO_PKG_VERSION"));
            let mut out = serde_json::to_string_pretty(&log)
                .map_err(|e| CliError::Usage(format!("cannot write SARIF: {e}")))?;
            out.push('\n');
            for l in linted {
                if let Linted::NoFile(no) = l {
                    eprintln!("{}", crate::error::one_line(&no_file_line(no)));
                }
            }
            output::write_text(io::stdout().lock(), &output::json_safe(&out))
        }
    }
}
