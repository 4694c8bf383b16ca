//! `robotrules batch [--profile P] [--format F] [--explain] [--concurrency N] [--only V]
//! [--timeout SECS] [--ca-cert FILE] [--user-agent TEXT] AGENT [URL...]`: a stream of URLs from
//! many sites, each checked against the robots.txt of its own origin.
//!
//! The URLs come from the arguments, or one per line from standard input (blank and `#`
//! lines skipped), and are answered in input order, one row each ([`crate::rows`]). Each
//! origin's robots.txt is fetched once, with RFC 9309's status, redirect, size and cache rules
//! and the politeness floor (the library's [`Client`]: one fetch per origin at a time, parsed
//! once per copy), at most `--concurrency` origins at once, each within `--timeout`.
//!
//! Streaming: rows are written as soon as every earlier row is, while up to [`WINDOW_PER_FETCH`]
//! times `--concurrency` URLs are in flight; a slow origin holds back output (its URLs and
//! those after them), never memory, and only until its deadline. Standard input is read by a
//! thread of its own into a bounded queue, so a 10-million-line input costs no more memory than
//! a short one.
//!
//! Exit status: 0 all allowed, 1 any disallowed, 2 any error row (or a usage error), decided
//! after the whole stream.

use std::io::{self, BufWriter, Write};
use std::num::NonZeroUsize;

use futures_util::{stream, FutureExt, Stream, StreamExt};
use robotrules::client::{Client, ClientError, Decision};
use robotrules::{ParseOptions, Profile, DEFAULT_PARSE_LIMIT};

use crate::cmd::{self, Outcome};
use crate::error::CliError;
use crate::lines::{self, Input, Item};
use crate::output::{self, Format};
use crate::remote::{self, TimeoutArg, UserAgentArg};
use crate::rows::{Deciding, Only, Printer, Row, Verdict};
use crate::trust::TrustArgs;

/// The default `--concurrency`: origins fetched at once.
const DEFAULT_CONCURRENCY: &str = "32";

/// URLs in flight per fetch slot: the reorder window is this times `--concurrency`.
const WINDOW_PER_FETCH: usize = 16;

/// The most `--concurrency` accepted.
const MAX_CONCURRENCY: usize = 4096;

/// Arguments of `robotrules batch`.
#[derive(Debug, clap::Args)]
#[command(override_usage = "robotrules batch [OPTIONS] AGENT [URL...]")]
pub(crate) struct BatchArgs {
    /// How to read the files: RFC 9309, Google's reference library, or the 1994 convention.
    #[arg(
        long,
        value_name = "PROFILE",
        default_value_t = Profile::default(),
        ignore_case = true,
        value_parser = cmd::profile_parser(),
    )]
    profile: Profile,

    /// Output: tab-separated text (`allowed|disallowed|error<TAB>URL[...]`), or one JSON
    /// object per line (url, verdict, access, robots_txt_url, the deciding line and rule).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// Also show the deciding rule (line number and rule as written) or why none decided; in
    /// JSON, the full explanation.
    #[arg(long)]
    explain: bool,

    /// How many origins' robots.txt are fetched at once.
    #[arg(long, value_name = "N", default_value = DEFAULT_CONCURRENCY, value_parser = parse_concurrency)]
    concurrency: NonZeroUsize,

    /// Print only the URLs with this verdict, bare, one per line (for piping into a fetcher);
    /// error rows are left out (the exit status and the message on standard error still
    /// count them).
    #[arg(long, value_enum, value_name = "VERDICT")]
    only: Option<Only>,

    /// Fetch deadline per robots.txt.
    #[command(flatten)]
    fetch: TimeoutArg,

    /// Certificates trusted for https:// sites.
    #[command(flatten)]
    trust: TrustArgs,

    /// The User-Agent header (default: AGENT before `robotrules/VERSION`).
    #[command(flatten)]
    user_agent: UserAgentArg,

    /// The crawler's name, a product token such as `Googlebot` (RFC 9309 §2.2.1).
    #[arg(value_name = "AGENT")]
    agent: String,

    /// Absolute URLs (`https://example.com/a?b`) of any sites. When none are given, they are
    /// read from standard input, one per line.
    #[arg(value_name = "URL")]
    urls: Vec<String>,
}

/// Parses `--concurrency`: 1 to [`MAX_CONCURRENCY`].
fn parse_concurrency(text: &str) -> Result<NonZeroUsize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_CONCURRENCY).contains(&n) => {
            NonZeroUsize::new(n).ok_or_else(|| "must be at least 1".to_owned())
        }
        _ => Err(format!(
            "`{text}`: the concurrency must be a whole number from 1 to {MAX_CONCURRENCY}"
        )),
    }
}

/// Runs `batch`: [`Outcome::AllClear`] when every URL is allowed, [`Outcome::Flagged`] when
/// any is disallowed.
///
/// # Errors
/// [`CliError::LinesFailed`] when some lines got `error` rows (after every row is written);
/// a [`CliError`] for an invalid crawler name, an unusable `--ca-cert` file, fetching that
/// cannot start, or a failed write.
pub(crate) fn run(args: BatchArgs) -> Result<Outcome, CliError> {
    let trust = args.trust.load()?;
    let mut options = remote::options(
        args.fetch.timeout,
        DEFAULT_PARSE_LIMIT,
        &trust,
        args.user_agent.for_agent(Some(&args.agent)),
    );
    options.max_concurrent_fetches = args.concurrency.get();
    let client = Client::builder(&args.agent)
        .parse_options(ParseOptions {
            profile: args.profile,
            parse_limit: DEFAULT_PARSE_LIMIT,
        })
        .fetch_options(options)
        .build()
        .map_err(|error| match error {
            ClientError::InvalidAgent(invalid) => CliError::InvalidAgent(invalid),
            other => CliError::FetchSetup(other.to_string()),
        })?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| CliError::FetchSetup(error.to_string()))?;
    let window = args.concurrency.get().saturating_mul(WINDOW_PER_FETCH);
    let asker = Asker {
        client,
        profile: args.profile,
        explain: args.explain && args.format == Format::Json,
    };
    let mut printer = Printer::new(
        BufWriter::new(io::stdout().lock()),
        args.format,
        args.explain,
        args.only,
    );
    let written = runtime.block_on(async {
        if args.urls.is_empty() {
            let items = stdin_items(window);
            answer(&asker, items, window, &mut printer).await
        } else {
            let items = stream::iter(lines::from_args(args.urls).map(Ok));
            answer(&asker, items, window, &mut printer).await
        }
    });
    output::closed_is_done(written.and_then(|()| printer.flush()))?;
    if printer.errors > 0 {
        return Err(CliError::LinesFailed {
            count: printer.errors,
        });
    }
    Ok(Outcome::flagged_if(printer.any_disallowed))
}

/// Asks the client about each item, up to `window` at once, and prints the rows in input
/// order, flushing whenever the next row is not ready yet.
async fn answer<W: Write>(
    asker: &Asker,
    items: impl Stream<Item = Result<Item, CliError>>,
    window: usize,
    printer: &mut Printer<W>,
) -> Result<(), CliError> {
    let mut rows = std::pin::pin!(items
        .map(|item| async move {
            match item {
                Ok(item) => Ok(asker.ask(item).await),
                Err(error) => Err(error),
            }
        })
        .buffered(window));
    loop {
        let next = match rows.next().now_or_never() {
            Some(next) => next,
            None => {
                printer.flush()?;
                rows.next().await
            }
        };
        let Some(answered) = next else {
            return Ok(());
        };
        let (item, answer) = answered?;
        printer.print(&answer.row(&item, asker.profile))?;
    }
}

/// Standard input's items, read by a thread of its own into a queue of at most `bound`.
fn stdin_items(bound: usize) -> impl Stream<Item = Result<Item, CliError>> {
    let (sender, receiver) = tokio::sync::mpsc::channel(bound.max(1));
    std::thread::spawn(move || {
        let read = lines::for_each(
            &mut lines::reader(io::stdin().lock()),
            |input| match input {
                Input::Item(item) => sender
                    .blocking_send(Ok(item))
                    .map_err(|_| CliError::OutputClosed),
                Input::Idle => Ok(()),
            },
        );
        if let Err(error) = read {
            // The receiver is gone only when the command already stopped.
            let _ = sender.blocking_send(Err(error));
        }
    });
    stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|item| (item, receiver))
    })
}

/// The client and how rows are built.
struct Asker {
    client: Client,
    profile: Profile,
    /// Whether rows carry the full explanation (JSON with `--explain`).
    explain: bool,
}

/// What the client answered for one item.
enum Answered {
    /// A decision, and with `--explain` its account.
    Decided(Decision, Option<Box<robotrules::Explanation>>),
    /// Why there is none.
    Failed(String),
}

impl Asker {
    /// The answer for `item`, with the item.
    async fn ask(&self, item: Item) -> (Item, Answered) {
        let answered = match &item.url {
            Err(problem) => Answered::Failed(problem.to_string()),
            Ok(url) if self.explain => match self.client.explain(url).await {
                Ok(explained) => {
                    Answered::Decided(explained.decision, explained.explanation.map(Box::new))
                }
                Err(error) => Answered::Failed(message(error)),
            },
            Ok(url) => match self.client.is_allowed(url).await {
                Ok(decision) => Answered::Decided(decision, None),
                Err(error) => Answered::Failed(message(error)),
            },
        };
        (item, answered)
    }
}

/// Why the client could not answer, without the URL (the row shows it).
fn message(error: ClientError) -> String {
    match error {
        ClientError::Url { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

impl Answered {
    /// The row for `item`, read under `profile`.
    fn row<'a>(&'a self, item: &'a Item, profile: Profile) -> Row<'a> {
        let url = match &item.url {
            Ok(url) => url.as_str(),
            Err(problem) => problem.text(),
        };
        match self {
            Answered::Failed(error) => {
                Row::error(url, item.line, format!("line {}: {error}", item.line))
            }
            Answered::Decided(decision, explanation) => Row::verdict(
                url,
                Verdict {
                    allowed: decision.allowed,
                    profile,
                    access: Some(decision.access),
                    access_reason: decision.access_reason.as_deref(),
                    robots_txt_url: Some(&decision.robots_txt_url),
                    reason: decision.reason,
                    decided_by: decision.decided_by.as_ref().map(|rule| Deciding {
                        line: rule.line(),
                        kind: rule.kind(),
                        pattern: rule.pattern(),
                    }),
                    explanation: explanation.clone(),
                },
            ),
        }
    }
}
