//! `robotrules usage [--profile P] [--format F] [--content-usage VALUE] [--timeout SECS]
//! [--ca-cert FILE]... [--platform-roots] [--user-agent TEXT] [--cache URL [--cache-timeout
//! SECS]] ROBOTS AGENT [URL...]`: may crawler AGENT use each URL for AI training, for search,
//! for AI input, and which line says so?
//!
//! ROBOTS is read as `check` reads it (a file parsed once, or a URL looked up once with the
//! library's client, [`crate::cmd::check::with_checker`]); each URL gets the crawl verdict and
//! the library's usage answer ([`robotrules::Crawler::decide_with_usage`]): each vocabulary in
//! its own terms (`Content-Usage`, IETF AIPREF; `Content-Signal`, Cloudflare), each category
//! allowed, disallowed or unknown with its deciding lines, and the combined answer for the
//! categories both name (draft-ietf-aipref-attach-05 §3.1, draft-ietf-aipref-vocab-07 §5.1).
//! A URL the crawler may not crawl has no preference. Without URLs, `/` (the site's root) is
//! asked about. A fetched robots.txt that is unavailable states no preference (every category
//! unknown); an unreachable one disallows every URL.
//!
//! Text: a block per URL ([`crate::usage_text`]); JSON: one object per URL, `check --format
//! json`'s row with `usage` filled. Exit status as `check`: 0 when every URL may be crawled, 1
//! when any may not, 2 on a usage or input error (also when any URL cannot be read: its row
//! says why).

use std::io::{self, BufWriter, Write};

use crate::args::{ProfileArg, RemoteArgs};
use crate::cmd::check::{with_checker, CheckArgs, Checker};
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::lines;
use crate::output::{self, write_error, Format};
use crate::rows::{Body, Row};

/// The URL asked about when none is given: the site's root.
const DEFAULT_URL: &str = "/";

/// Arguments of `robotrules usage`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules usage examples/robots.txt GPTBot /articles/1 /ai-ok/page
  robotrules usage --format json https://example.com/robots.txt ExampleBot
  robotrules usage --content-usage 'train-ai=n' robots.txt ExampleBot /a")]
pub(crate) struct UsageArgs {
    #[command(flatten)]
    profile: ProfileArg,

    /// Output: a block of text per URL, or one JSON object per line (`check`'s row, with
    /// `usage`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// The value of the HTTP `Content-Usage` response header of the URLs, when the crawler
    /// has it (draft-ietf-aipref-attach-05 §2): one more AIPREF statement, combined with the
    /// file's most-restrictively.
    #[arg(long, value_name = "VALUE")]
    content_usage: Option<String>,

    /// How a ROBOTS URL is fetched and cached (a file is read as it is).
    #[command(flatten)]
    remote: RemoteArgs,

    /// The robots.txt file, `-` for standard input, or an http://, https:// or ftp:// URL (the
    /// robots.txt or any page of the site).
    #[arg(value_name = "ROBOTS")]
    robots: String,

    /// The crawler's name, a product token such as `GPTBot` (RFC 9309 §2.2.1).
    #[arg(value_name = "AGENT")]
    agent: String,

    /// URLs to ask about: absolute (`https://example.com/a?b`) or a path (`/a?b`); none: `/`.
    /// With a ROBOTS URL, only URLs of its scheme, host and port (RFC 9309 §2.3).
    #[arg(value_name = "URL")]
    urls: Vec<String>,
}

/// Runs `usage`: [`Outcome::AllClear`] when every URL may be crawled, [`Outcome::Flagged`]
/// when any may not. A URL the file cannot answer for is an error row; the others go on, and
/// the command ends with [`CliError::LinesFailed`] (exit 2).
///
/// # Errors
/// As `check`: an unusable `--ca-cert` file, an unreadable file, a ROBOTS URL that cannot have
/// a robots.txt, an invalid crawler name, a failed write, or error rows.
pub(crate) fn run(args: UsageArgs) -> Result<Outcome, CliError> {
    let urls = if args.urls.is_empty() {
        vec![DEFAULT_URL.to_owned()]
    } else {
        args.urls
    };
    let format = args.format;
    let header = args.content_usage;
    let check = CheckArgs::for_usage(
        args.profile,
        format,
        args.remote,
        args.robots,
        args.agent,
        urls.clone(),
    );
    with_checker(check, true, |checker| {
        let mut report = Report {
            out: BufWriter::new(io::stdout().lock()),
            format,
            header: header.as_deref(),
            blocks: 0,
            any_disallowed: false,
            errors: 0,
        };
        let written = lines::from_args(urls)
            .try_for_each(|item| match item.url.as_deref() {
                Ok(url) => report.answer(checker, url, item.line),
                Err(problem) => report.write(
                    checker,
                    &Row::error(problem.text(), item.line, problem.to_string()),
                ),
            })
            .and_then(|()| report.out.flush().map_err(write_error));
        output::closed_is_done(written)?;
        if report.errors > 0 {
            return Err(CliError::LinesFailed {
                count: report.errors,
            });
        }
        Ok(Outcome::flagged_if(report.any_disallowed))
    })
}

/// Where the answers go, and what was answered so far.
struct Report<'h, W> {
    out: W,
    format: Format,
    /// The HTTP `Content-Usage` header value given with `--content-usage`.
    header: Option<&'h str>,
    /// Text blocks written (a blank line goes between two).
    blocks: u64,
    any_disallowed: bool,
    errors: u64,
}

impl<W: Write> Report<'_, W> {
    /// Answers for `url`, argument `line`.
    fn answer(&mut self, checker: &Checker<'_>, url: &str, line: u64) -> Result<(), CliError> {
        match checker.verdict(url) {
            Ok(mut verdict) => {
                if let Some(header) = self.header {
                    verdict.usage = verdict
                        .usage
                        .map(|usage| Box::new(usage.with_header(header.as_bytes())));
                }
                self.write(checker, &Row::verdict(url, verdict))
            }
            Err(error) => self.write(checker, &Row::error(url, line, error)),
        }
    }

    /// Writes `row` and counts it.
    fn write(&mut self, checker: &Checker<'_>, row: &Row<'_>) -> Result<(), CliError> {
        match &row.body {
            Body::Verdict(verdict) if !verdict.allowed => self.any_disallowed = true,
            Body::Verdict(_) => {}
            Body::Error { .. } => self.errors += 1,
        }
        let text = match self.format {
            Format::Json => output::json_line(row)?,
            Format::Text => {
                let mut text = if self.blocks == 0 {
                    let crawler = checker.rules();
                    format!(
                        "{}{} (profile {})\n\n",
                        crawler.name(),
                        output::agent_note(crawler.name()),
                        crawler.robots().profile()
                    )
                } else {
                    "\n".to_owned()
                };
                text.push_str(&block(checker, row));
                self.blocks += 1;
                robotrules_text::visible_lines(&text).into_owned()
            }
        };
        self.out.write_all(text.as_bytes()).map_err(write_error)
    }
}

/// One URL's block of text: the URL, the crawl verdict and what decided it, then its usage
/// preferences.
fn block(checker: &Checker<'_>, row: &Row<'_>) -> String {
    let mut out = format!("{}\n", robotrules_text::visible(row.url));
    let verdict = match &row.body {
        Body::Error { error, .. } => {
            out.push_str(&format!("  error: {error}\n"));
            return out;
        }
        Body::Verdict(verdict) => verdict,
    };
    let why = match (&verdict.decided_by, verdict.reason, verdict.access) {
        (Some(rule), _, _) => format!(
            "line {}: {}: {}",
            rule.line(),
            rule.kind(),
            robotrules_text::excerpt(rule.pattern().as_bytes(), 120)
        ),
        (None, Some(reason), _) => reason.as_str().to_owned(),
        (None, None, Some(access)) => format!(
            "robots.txt {access}: {}",
            verdict.access_reason.unwrap_or("no reason given")
        ),
        (None, None, None) => String::new(),
    };
    crate::usage_text::crawl(&mut out, "  ", verdict.allowed, &why);
    if let Some(usage) = &verdict.usage {
        crate::usage_text::usage(&mut out, "  ", usage, checker.rules().usage_statements());
    }
    out
}
