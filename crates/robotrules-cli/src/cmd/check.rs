//! `robotrules check [--profile P] [--format F] [--explain] [--timeout SECS] [--ca-cert
//! FILE]... [--platform-roots] [--user-agent TEXT] [--cache URL [--cache-timeout SECS]] ROBOTS
//! AGENT [URL...]`: may crawler AGENT fetch each URL under the robots.txt file ROBOTS?
//!
//! The file is parsed once and the crawler's groups resolved once (RFC 9309 §2.2.1); then each
//! URL gets one line (see [`crate::output`]). Which URLs a profile reads is the model's call
//! (its URL reading): in `rfc9309` and `legacy1994` a URL must be an absolute URL with a host
//! or a path starting with `/`; in `google` every string is read as Google's `robots` tool
//! reads it, so no URL is an error there. The library answers for exactly the same strings.
//!
//! ROBOTS may be an `http://`, `https://` or `ftp://` URL (the robots.txt itself or any page of
//! the site), fetched once with the rules of RFC 9309 §2.3–§2.5. Its access result matters: a
//! success is parsed like a file; an unavailable file (4xx, too many redirects, FTP 550)
//! allows every URL (§2.3.1.3); an unreachable one (5xx, network errors, deadline) disallows
//! every URL (§2.3.1.4), a certificate that does not verify included (`--ca-cert` adds a
//! trusted root). URLs are matched by their path, as with a file. With `--cache`, the fetch goes
//! through the fleet's shared cache in Redis ([`crate::shared_cache`]): a fresh entry answers
//! without fetching, and a last good copy kept there serves while the file is unreachable.

use std::io::{self, BufWriter, IsTerminal, Write};

use robotrules::client::store::Origin;
use robotrules::client::Lookup;
use robotrules::{Crawler, ParseOptions, Profile};

use crate::args::{ProfileArg, RemoteArgs};
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::explain::{self, PastCut};
use crate::fetched::Fetched;
use crate::input::{self, RobotsSource};
use crate::lines::{self, Input, Problem};
use crate::output::{self, Format};
use crate::remote::For;
use crate::rows::{Printer, Row, UrlVerdict};

/// Arguments of `robotrules check`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules check examples/robots.txt Googlebot /search/results /about
  robotrules check --explain --profile google https://example.com/robots.txt Googlebot /cart
  cat urls.txt | robotrules check --format json robots.txt ExampleBot")]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    profile: ProfileArg,

    /// Output: tab-separated text, or one JSON object per line.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// Also show the deciding rule (line number and rule as written) or why none decided;
    /// for a fetched robots.txt that is unavailable or unreachable, that and why.
    #[arg(long)]
    explain: bool,

    /// How a ROBOTS URL is fetched and cached (a file is read as it is).
    #[command(flatten)]
    remote: RemoteArgs,

    /// The robots.txt file, `-` for standard input, or an http://, https:// or ftp:// URL (the
    /// robots.txt or any page of the site). A fetched file that is unavailable (4xx) allows
    /// every URL; one that is unreachable (5xx, network error, timeout) disallows every URL.
    #[arg(value_name = "ROBOTS")]
    robots: String,

    /// The crawler's name, a product token such as `Googlebot` (RFC 9309 §2.2.1).
    #[arg(value_name = "AGENT")]
    agent: String,

    /// URLs to check: absolute (`https://example.com/a?b`) or a path (`/a?b`). When none are
    /// given, they are read from standard input, one per line (blank and `#` lines skipped).
    /// With a ROBOTS URL, only URLs of its scheme, host and port (RFC 9309 §2.3); `robotrules
    /// batch` checks URLs of many sites.
    #[arg(value_name = "URL")]
    urls: Vec<String>,
}

/// Runs `check`: [`Outcome::AllClear`] when every URL is allowed, [`Outcome::Flagged`] when
/// any is disallowed. A line that is not a URL the file can answer for is an `error` row; the
/// others go on, and the command ends with [`CliError::LinesFailed`] (exit 2).
///
/// # Errors
/// A [`CliError`] for ROBOTS `-` without URL arguments, an unusable `--ca-cert` file, an
/// unreadable file, a ROBOTS URL that cannot have a robots.txt, an invalid crawler name, a
/// failed write, or error rows.
pub(crate) fn run(args: CheckArgs) -> Result<Outcome, CliError> {
    if args.robots == input::STDIN && args.urls.is_empty() {
        return Err(CliError::StdinTwice);
    }
    let (format, explain, urls) = (args.format, args.explain, args.urls.clone());
    with_checker(args, false, |checker| {
        let mut printer = Printer::new(BufWriter::new(io::stdout().lock()), format, explain, None);
        let written = if urls.is_empty() {
            if let Some(hint) = input::urls_from_stdin_hint(io::stdin().is_terminal()) {
                eprintln!("{hint}");
            }
            lines::for_each(
                &mut lines::reader(io::stdin().lock()),
                |input| match input {
                    Input::Line(line) => checker.answer(line.number, line.url(), &mut printer),
                    Input::Idle => printer.flush(),
                },
            )
        } else {
            lines::from_args(urls).try_for_each(|item| {
                let url = item.url.as_deref().map_err(Clone::clone);
                checker.answer(item.line, url, &mut printer)
            })
        }
        .and_then(|()| printer.flush());
        output::closed_is_done(written)?;
        if printer.errors > 0 {
            return Err(CliError::LinesFailed {
                count: printer.errors,
            });
        }
        Ok(Outcome::flagged_if(printer.any_disallowed))
    })
}

impl CheckArgs {
    /// The arguments `robotrules usage` shares with `check` (no `--explain`): the same loading,
    /// lookup and crawler.
    pub(crate) fn for_usage(
        profile: ProfileArg,
        format: Format,
        remote: RemoteArgs,
        robots: String,
        agent: String,
        urls: Vec<String>,
    ) -> CheckArgs {
        CheckArgs {
            profile,
            format,
            explain: false,
            remote,
            robots,
            agent,
            urls,
        }
    }
}

/// Loads ROBOTS as `check` does (a file parsed once, or a URL looked up once with the
/// library's client, whose crawler is reused), chooses the crawler's groups once, and hands
/// `answer` the [`Checker`] (with `usage`, its verdicts carry the URL's usage preferences).
///
/// # Errors
/// As [`run`], before `answer` is called; then what `answer` returns.
pub(crate) fn with_checker<T>(
    args: CheckArgs,
    usage: bool,
    answer: impl FnOnce(&Checker<'_>) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let remote = args.remote.load()?;
    let options = ParseOptions::new().with_profile(args.profile.profile);
    let purpose = For {
        agent: Some(&args.agent),
        parse: options,
        concurrency: None,
    };
    // With `--explain`, a local file is read past the parse limit so that the rules it leaves
    // out can be named; it is still parsed under the limit.
    let read = if args.explain {
        explain::READ_PAST_CUT.max(options.parse_limit())
    } else {
        options.parse_limit()
    };
    let source = input::load_robots_or_fetch(&args.robots, read, &remote, purpose)?;
    let (bytes, truncation) = (source.body(), source.truncation());
    let fetched = match &source {
        RobotsSource::Local(_) => None,
        RobotsSource::Remote(lookup) => Some(FetchedOrigin::new(lookup)),
    };
    let rules = source.crawler(&options, &args.agent)?;
    if let Some(warning) = crate::error::agent_warning_in(&rules.robots(), &args.agent) {
        eprintln!("robotrules: warning: {}", crate::error::one_line(&warning));
    }
    // Without `--explain` (whose rows say it), where the file was cut: one line on stderr.
    if !args.explain {
        if let Some(cut) = crate::explain::Cut::sentence(&rules.robots(), bytes, truncation) {
            eprintln!("robotrules: note: {}", crate::error::one_line(&cut));
        }
    }
    // A fetched file the size limit cut was never whole in hand (RFC 9309 §2.5).
    let past_cut = args
        .explain
        .then(|| match truncation {
            Some(truncation) => Some(PastCut::downloaded(bytes, truncation)),
            None => PastCut::new(&rules.robots(), bytes, &args.agent),
        })
        .flatten();
    let checker = Checker {
        rules,
        past_cut,
        profile: args.profile.profile,
        explain: args.explain && args.format == Format::Json,
        usage,
        fetched: fetched.as_ref(),
        from_stdin: args.urls.is_empty(),
    };
    answer(&checker)
}

/// The access result of a fetched robots.txt, and the origin it governs.
struct FetchedOrigin<'a> {
    lookup: &'a Lookup,
    fetched: Fetched,
    /// The scheme, host and port of the robots.txt (the origin asked about, whatever redirects
    /// followed), for the words of a refusal; [`robotrules::governs`] decides.
    origin: Option<Origin>,
}

impl<'a> FetchedOrigin<'a> {
    fn new(lookup: &'a Lookup) -> FetchedOrigin<'a> {
        FetchedOrigin {
            lookup,
            fetched: Fetched::new(lookup),
            origin: Origin::parse(lookup.robots_txt_url()).ok(),
        }
    }

    /// Whether the robots.txt governs `url` ([`robotrules::governs`]: a path, or an absolute
    /// URL of its origin), and if not, why, in words.
    fn governs(&self, url: &str) -> Result<(), String> {
        let robots_txt = self.lookup.robots_txt_url();
        if robotrules::governs(robots_txt, url).map_err(|error| error.to_string())? {
            return Ok(());
        }
        match (&self.origin, Origin::parse(url)) {
            (Some(governed), Ok(origin)) => Err(format!(
                "{robots_txt} governs only {governed}, not {origin} (RFC 9309 §2.3); \
                 `robotrules batch` checks URLs of many sites, each against its own robots.txt"
            )),
            _ => Err(format!(
                "{robots_txt} governs no URL: it is not at the root of its site"
            )),
        }
    }
}

/// One crawler's rules and how to answer with them.
pub(crate) struct Checker<'a> {
    rules: Crawler,
    profile: Profile,
    /// Whether rows carry the full explanation (JSON with `--explain`).
    explain: bool,
    /// Whether verdicts carry the URL's AI usage preferences (`robotrules usage`).
    usage: bool,
    /// The access result of a fetched robots.txt.
    fetched: Option<&'a FetchedOrigin<'a>>,
    /// With `--explain`, a file the parse limit cut, read again whole.
    past_cut: Option<PastCut>,
    /// Whether the URLs are lines of standard input (their error rows then say which line);
    /// URL arguments are their own row's first column.
    from_stdin: bool,
}

impl Checker<'_> {
    /// Prints the row for line `number`: its verdict, or why there is none.
    fn answer<W: Write>(
        &self,
        number: u64,
        url: Result<&str, Problem>,
        printer: &mut Printer<W>,
    ) -> Result<(), CliError> {
        let at = if self.from_stdin {
            format!("line {number}: ")
        } else {
            String::new()
        };
        match url {
            Ok(url) => {
                let row = match self.verdict(url) {
                    Ok(verdict) => Row::verdict(url, verdict),
                    Err(error) => Row::error(url, number, format!("{at}{error}")),
                };
                printer.print(&row)
            }
            Err(problem) => {
                let message = format!("{at}{problem}");
                printer.print(&Row::error(problem.text(), number, message))
            }
        }
    }

    /// The crawler's rules, parsed once.
    pub(crate) fn rules(&self) -> &Crawler {
        &self.rules
    }

    /// The verdict on `url`, or why there is none; with the URL's usage preferences when the
    /// checker was made for them.
    pub(crate) fn verdict<'u>(&'u self, url: &'u str) -> Result<UrlVerdict<'u>, String> {
        let mut verdict = UrlVerdict {
            allowed: true,
            profile: self.profile,
            access: None,
            access_reason: None,
            robots_txt_url: None,
            reason: None,
            decided_by: None,
            explanation: None,
            parse_limit: None,
            usage: None,
        };
        let decided = match self.fetched {
            // The client's answer (RFC 9309 §2.3.1: the access result, then the file's rules).
            Some(fetched) => {
                fetched.governs(url)?;
                let answer = fetched
                    .lookup
                    .decide(url)
                    .map_err(|error| error.to_string())?;
                verdict.access = Some(answer.access);
                verdict.access_reason = fetched.fetched.access_reason.as_deref();
                verdict.robots_txt_url = Some(fetched.lookup.robots_txt_url());
                verdict.allowed = answer.allowed;
                let Some(mut decided) = answer.rules else {
                    // The access result alone decided: no rules, so no statement of
                    // preference either (as the client answers).
                    verdict.usage = self
                        .usage
                        .then(|| Box::new(robotrules::usage::Usage::unstated(answer.allowed)));
                    return Ok(verdict);
                };
                if self.usage {
                    decided.usage = Some(Box::new(
                        self.rules.usage(url).map_err(|error| error.to_string())?,
                    ));
                }
                decided
            }
            None if self.usage => self
                .rules
                .decide_with_usage(url)
                .map_err(|error| error.to_string())?,
            None => self.rules.decide(url).map_err(|error| error.to_string())?,
        };
        verdict.allowed = decided.allowed;
        verdict.reason = Some(decided.reason);
        verdict.decided_by = decided.decided_by;
        verdict.usage = decided.usage;
        if self.explain {
            verdict.explanation = self.rules.explain(url).ok().map(Box::new);
        }
        verdict.parse_limit = self.past_cut.as_ref().map(|past| past.on(url));
        Ok(verdict)
    }
}
