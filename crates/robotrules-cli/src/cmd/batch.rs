//! `robotrules batch [--profile P] [--format F] [--explain] [--concurrency N] [--only V]
//! [--unordered] [--timeout SECS] [--ca-cert FILE]... [--platform-roots] [--user-agent TEXT]
//! [--cache URL [--cache-timeout SECS]] AGENT [URL...]`: a stream of URLs from many sites, each checked
//! against the robots.txt of its own origin.
//!
//! The URLs come from the arguments, or one per line from standard input (blank and `#`
//! lines skipped), and are answered in input order, one row each ([`crate::rows`]). Each
//! origin's robots.txt is fetched once, with RFC 9309's status, redirect, size and cache rules
//! and the politeness floor (the library's [`Client`]: one fetch per origin at a time, parsed
//! once per copy), at most `--concurrency` origins at once, each within `--timeout`. With
//! `--cache`, the client's store is the fleet's shared cache in Redis
//! ([`crate::shared_cache`]): any number of `batch` processes over the same sites cost each
//! site one robots.txt request per freshness period, and agree.
//!
//! Streaming: rows are written as soon as every earlier row is, while up to [`WINDOW_PER_FETCH`]
//! times `--concurrency` URLs are in flight; a slow origin holds back output (its URLs and
//! those after them), never memory, and only until its deadline: the library's
//! `total_timeout` (`--timeout`) bounds each origin's whole fetch, every redirect included
//! (there are no retries), and an origin past it is unreachable, so its rows are disallowed.
//! A row whose origin waits for a fetch slot waits longer: when more slow origins than
//! `--concurrency` come ahead of it, each slot serves them one deadline after another. Cutting
//! those queued origins short would answer for sites never asked, so they keep their turn, and
//! the first row held back past `--timeout` prints one warning naming the remedies
//! (`--unordered`, a higher `--concurrency`); see [`Stall`].
//! With `--unordered` each row is written as soon as it is decided, so a slow origin holds
//! back only its own rows; the same window bounds the questions waiting. In JSON every row
//! carries its input `line`. Standard input is read by a thread of its own into a bounded
//! queue, so a 10-million-line input costs no more memory than a short one.
//!
//! Summary: one line on standard error counts lines and origins apart (`4,000 lines: 3,471
//! allowed, 0 disallowed, 529 errors (8 origins failed)`, an origin failing when its
//! robots.txt is unreachable), written when an origin failed, and as the error message when a
//! line got an `error` row.
//!
//! Exit status: 0 all allowed, 1 any disallowed, 2 any error row (or a usage error), decided
//! after the whole stream.

use std::collections::{HashSet, VecDeque};
use std::future::Future;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::{self, Either};
use futures_util::stream::FuturesUnordered;
use futures_util::{stream, FutureExt, Stream, StreamExt};
use robotrules::client::{AccessKind, Answer, Client, ClientError};
use robotrules::Profile;

use crate::args::{ProfileArg, RemoteArgs, Verbose};
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::input;
use crate::lines::{self, Input, Item, Problem};
use crate::output::{self, Format};
use crate::remote::{self, For};
use crate::rows::{Only, Pending, Printer, Row};
use crate::shared_cache::SharedCache;

/// The default `--concurrency`: origins fetched at once.
const DEFAULT_CONCURRENCY: &str = "32";

/// URLs in flight per fetch slot: the reorder window is this times `--concurrency`.
const WINDOW_PER_FETCH: usize = 16;

/// The most `--concurrency` accepted.
const MAX_CONCURRENCY: usize = 4096;

/// Arguments of `robotrules batch`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules batch ExampleBot https://example.com/a https://example.org/b
  cat urls.txt | robotrules batch --only allowed ExampleBot > to-fetch.txt
  cat urls.txt | robotrules batch --format json --concurrency 64 ExampleBot")]
pub(crate) struct BatchArgs {
    #[command(flatten)]
    profile: ProfileArg,

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

    /// Print each row as soon as it is decided, not in input order: a slow site then holds
    /// back only its own rows (in JSON each row carries its input `line`).
    #[arg(long)]
    unordered: bool,

    /// How each site's robots.txt is fetched (within --timeout each), and the robots.txt
    /// cache shared with other processes.
    #[command(flatten)]
    remote: RemoteArgs,

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
/// [`CliError::BatchFailed`] when some lines got `error` rows (after every row is written);
/// a [`CliError`] for an invalid crawler name, an unusable `--ca-cert` file, fetching that
/// cannot start, or a failed write.
pub(crate) fn run(args: BatchArgs) -> Result<Outcome, CliError> {
    let stall = Stall {
        limit: args.remote.timeout + STALL_GRACE,
        timeout: args.remote.timeout,
        concurrency: args.concurrency.get(),
        warned: false,
    };
    let remote = args.remote.load()?;
    let runtime = remote::runtime()?;
    let shared = runtime.block_on(remote.shared())?;
    let purpose = For {
        concurrency: Some(args.concurrency.get()),
        ..For::new(Some(&args.agent), args.profile.profile)
    };
    // A name the profile rejects is a usage error before anything is fetched.
    purpose.parse.profile().check_crawler_name(&args.agent)?;
    if let Some(warning) = crate::error::agent_warning(purpose.parse.profile(), &args.agent) {
        eprintln!("robotrules: warning: {}", crate::error::one_line(&warning));
    }
    let client = remote.client(purpose, shared.as_ref().map(SharedCache::store))?;
    let window = args.concurrency.get().saturating_mul(WINDOW_PER_FETCH);
    let asker = Asker {
        client,
        profile: args.profile.profile,
        explain: args.explain && args.format == Format::Json,
    };
    let printer = Printer::new(
        BufWriter::new(io::stdout().lock()),
        args.format,
        args.explain,
        args.only,
    );
    let mut tally = Tally {
        printer,
        failed_origins: HashSet::new(),
        from_stdin: args.urls.is_empty(),
    };
    let unordered = args.unordered;
    let written = runtime.block_on(async {
        let items: Pin<Box<dyn Stream<Item = Result<Vec<Item>, CliError>>>> =
            if args.urls.is_empty() {
                if let Some(hint) = input::urls_from_stdin_hint(io::stdin().is_terminal()) {
                    eprintln!("{hint}");
                }
                Box::pin(stdin_items(window))
            } else {
                let items: Vec<Item> = lines::from_args(args.urls).collect();
                Box::pin(stream::iter([Ok(items)]))
            };
        if unordered {
            answer_unordered(&asker, items, window, &mut tally).await
        } else {
            answer(&asker, items, window, stall, &mut tally).await
        }
    });
    output::closed_is_done(written.and_then(|()| tally.printer.flush()))?;
    if let Some(shared) = &shared {
        shared.warn_if_degraded();
    }
    let summary = tally.summary();
    if tally.printer.errors > 0 {
        return Err(CliError::BatchFailed(summary));
    }
    if !tally.failed_origins.is_empty() {
        eprintln!("robotrules: {summary}");
    }
    Ok(Outcome::flagged_if(tally.printer.any_disallowed))
}

/// The printer, and the origins whose robots.txt was unreachable, for the summary.
struct Tally<W> {
    printer: Printer<W>,
    /// The robots.txt URLs that were unreachable (one per origin).
    failed_origins: HashSet<Arc<str>>,
    /// Whether the URLs are lines of standard input (error rows then name the line).
    from_stdin: bool,
}

impl<W: Write> Tally<W> {
    /// Writes the row for `item` and counts it.
    fn print(&mut self, answered: &Pending, item: &Item, profile: Profile) -> Result<(), CliError> {
        if let Pending::Decided(decision, _) = answered {
            if decision.access == AccessKind::Unreachable {
                self.failed_origins
                    .insert(Arc::clone(&decision.robots_txt_url));
            }
        }
        self.printer
            .print(&row(answered, item, self.from_stdin, profile))
    }

    /// `4,000 lines: 3,471 allowed, 0 disallowed, 529 errors (8 origins failed)`: lines and
    /// origins counted apart; the origins only when one failed.
    fn summary(&self) -> String {
        let printer = &self.printer;
        let lines = printer.allowed + printer.disallowed + printer.errors;
        let origins = u64::try_from(self.failed_origins.len()).unwrap_or(u64::MAX);
        let failed = if origins == 0 {
            String::new()
        } else {
            format!(
                " ({} {} failed)",
                thousands(origins),
                if origins == 1 { "origin" } else { "origins" }
            )
        };
        format!(
            "{} {}: {} allowed, {} disallowed, {} {}{failed}",
            thousands(lines),
            if lines == 1 { "line" } else { "lines" },
            thousands(printer.allowed),
            thousands(printer.disallowed),
            thousands(printer.errors),
            if printer.errors == 1 {
                "error"
            } else {
                "errors"
            },
        )
    }
}

/// `n` with a comma between each group of three digits.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A question waiting for its origin's robots.txt, with its item (`--unordered`).
type WaitingItem = Pin<Box<dyn Future<Output = (Item, Pending)>>>;

/// Asks the client about each item and prints each row as soon as it is decided
/// (`--unordered`), at most `window` questions waiting at a time.
async fn answer_unordered<W: Write>(
    asker: &Asker,
    chunks: impl Stream<Item = Result<Vec<Item>, CliError>>,
    window: usize,
    tally: &mut Tally<W>,
) -> Result<(), CliError> {
    let mut waiting: FuturesUnordered<WaitingItem> = FuturesUnordered::new();
    let mut chunks = std::pin::pin!(chunks);
    loop {
        let chunk = match chunks.next().now_or_never() {
            Some(chunk) => chunk,
            None => loop {
                tally.printer.flush()?;
                if waiting.is_empty() {
                    break chunks.next().await;
                }
                match future::select(chunks.next(), waiting.next()).await {
                    Either::Left((chunk, _)) => break chunk,
                    Either::Right((Some((item, answered)), _)) => {
                        tally.print(&answered, &item, asker.profile)?;
                    }
                    Either::Right((None, _)) => {}
                }
            },
        };
        let Some(chunk) = chunk else { break };
        for item in chunk? {
            match asker.try_ask(&item) {
                Some(answered) => tally.print(&answered, &item, asker.profile)?,
                None => {
                    let asked = asker.ask(item.url.clone());
                    waiting.push(Box::pin(async move { (item, asked.await) }));
                }
            }
            while let Some(Some((item, answered))) = waiting.next().now_or_never() {
                tally.print(&answered, &item, asker.profile)?;
            }
            while waiting.len() >= window {
                tally.printer.flush()?;
                if let Some((item, answered)) = waiting.next().await {
                    tally.print(&answered, &item, asker.profile)?;
                }
            }
        }
    }
    while let Some((item, answered)) = {
        tally.printer.flush()?;
        waiting.next().await
    } {
        tally.print(&answered, &item, asker.profile)?;
    }
    Ok(())
}

/// A question waiting for its origin's robots.txt, with its slot's sequence number.
type Waiting = Pin<Box<dyn Future<Output = (u64, Pending)>>>;

/// An item read, when it was read, and its answer once there is one.
type Slot = (Item, Instant, Option<Pending>);

/// Items read but not yet written, in input order: each answered already, or waiting for its
/// origin's robots.txt.
struct Queue {
    slots: VecDeque<Slot>,
    /// The sequence number of the first slot.
    first: u64,
    /// Questions waiting for a fetch, each with its slot's sequence number.
    waiting: FuturesUnordered<Waiting>,
}

impl Queue {
    /// Puts the answer for slot `seq` in place.
    fn fill(&mut self, seq: u64, answered: Pending) {
        let index = usize::try_from(seq - self.first).unwrap_or(usize::MAX);
        if let Some(slot) = self.slots.get_mut(index) {
            slot.2 = Some(answered);
        }
    }

    /// Writes the answered slots at the front.
    fn drain<W: Write>(&mut self, tally: &mut Tally<W>, profile: Profile) -> Result<(), CliError> {
        while self
            .slots
            .front()
            .is_some_and(|(_, _, answer)| answer.is_some())
        {
            if let Some((item, _, Some(answered))) = self.slots.pop_front() {
                tally.print(&answered, &item, profile)?;
            }
            self.first += 1;
        }
        Ok(())
    }

    /// The next answer to come, watched by `stall` while the front row waits for it.
    async fn next_answer(&mut self, stall: &mut Stall) -> Option<(u64, Pending)> {
        let since = self.slots.front().map(|(_, read, _)| *read);
        stall.watch(since, self.waiting.next()).await
    }
}

/// Slack past `--timeout` before a held-back row counts as waiting for a fetch slot: the
/// fetch's own deadline bounds the rest, and the cache and parse take a moment more.
const STALL_GRACE: Duration = Duration::from_secs(1);

/// The watch on ordered output: one warning on standard error when the front row has waited
/// longer than any one fetch may take, which means its origin is waiting for a fetch slot that
/// slower sites hold.
///
/// The bound of `--timeout` per origin cannot be kept for every row with at most
/// `--concurrency` fetches at once: when more origins hang than there are slots, a queued
/// origin's fetch starts only when a hanging one gives up. Counting the queue against the
/// queued origin's deadline would report sites as unreachable that were never asked; so the
/// queued origin keeps its full turn, and the user learns why rows stall and what avoids it.
struct Stall {
    /// How long the front row may wait before the warning: `--timeout` and the grace.
    limit: Duration,
    /// `--timeout`, for the message.
    timeout: Duration,
    /// `--concurrency`, for the message.
    concurrency: usize,
    /// Whether the warning was written (it is written once).
    warned: bool,
}

impl Stall {
    /// Waits for `next`; if the row read at `since` is still waiting when its limit passes,
    /// warns first (once) and goes on waiting.
    async fn watch<F: Future>(&mut self, since: Option<Instant>, next: F) -> F::Output {
        let Some(since) = since.filter(|_| !self.warned) else {
            return next.await;
        };
        let mut next = std::pin::pin!(next);
        let deadline = tokio::time::sleep_until((since + self.limit).into());
        match future::select(next.as_mut(), std::pin::pin!(deadline)).await {
            Either::Left((out, _)) => out,
            Either::Right(((), _)) => {
                self.warn();
                next.await
            }
        }
    }

    /// Writes the warning, once.
    fn warn(&mut self) {
        if !self.warned {
            self.warned = true;
            eprintln!("robotrules: warning: {}", self.message());
        }
    }

    /// Why rows stall, and what avoids it.
    fn message(&self) -> String {
        let slots = match self.concurrency {
            1 => "the one fetch slot is".to_owned(),
            n => format!("all {n} fetch slots are"),
        };
        format!(
            "rows are held back longer than --timeout ({} s): {slots} busy with slow sites, \
             and the next origin waits its turn; --unordered writes the other rows at once, \
             and a higher --concurrency gives more slots",
            self.timeout.as_secs_f64(),
        )
    }
}

/// Asks the client about each item and prints the rows in input order. An item whose origin
/// the client knows is answered at once, without a future; the others wait for their origin's
/// fetch, at most `window` items held at a time. Output is flushed whenever the next row has
/// to wait.
async fn answer<W: Write>(
    asker: &Asker,
    chunks: impl Stream<Item = Result<Vec<Item>, CliError>>,
    window: usize,
    mut stall: Stall,
    tally: &mut Tally<W>,
) -> Result<(), CliError> {
    let mut queue = Queue {
        slots: VecDeque::new(),
        first: 0,
        waiting: FuturesUnordered::new(),
    };
    let mut chunks = std::pin::pin!(chunks);
    let mut next_seq = 0_u64;
    loop {
        let chunk = match chunks.next().now_or_never() {
            Some(chunk) => chunk,
            // No input ready: write what can be written, and answer the waiting questions
            // while the input comes.
            None => loop {
                tally.printer.flush()?;
                if queue.waiting.is_empty() {
                    break chunks.next().await;
                }
                let first = {
                    let answered = std::pin::pin!(queue.next_answer(&mut stall));
                    match future::select(chunks.next(), answered).await {
                        Either::Left((chunk, _)) => Either::Left(chunk),
                        Either::Right((answered, _)) => Either::Right(answered),
                    }
                };
                match first {
                    Either::Left(chunk) => break chunk,
                    Either::Right(Some((seq, answered))) => {
                        queue.fill(seq, answered);
                        queue.drain(tally, asker.profile)?;
                    }
                    Either::Right(None) => {}
                }
            },
        };
        let Some(chunk) = chunk else { break };
        for item in chunk? {
            let seq = next_seq;
            next_seq += 1;
            match asker.try_ask(&item) {
                Some(answered) if queue.slots.is_empty() => {
                    tally.print(&answered, &item, asker.profile)?;
                    queue.first = next_seq;
                }
                Some(answered) => queue
                    .slots
                    .push_back((item, Instant::now(), Some(answered))),
                None => {
                    queue
                        .waiting
                        .push(Box::pin(asker.ask(item.url.clone()).map(move |a| (seq, a))));
                    queue.slots.push_back((item, Instant::now(), None));
                }
            }
            while let Some(Some((seq, answered))) = queue.waiting.next().now_or_never() {
                queue.fill(seq, answered);
            }
            queue.drain(tally, asker.profile)?;
            while queue.slots.len() >= window {
                tally.printer.flush()?;
                if let Some((seq, answered)) = queue.next_answer(&mut stall).await {
                    queue.fill(seq, answered);
                }
                queue.drain(tally, asker.profile)?;
            }
        }
    }
    while !queue.slots.is_empty() {
        tally.printer.flush()?;
        match queue.next_answer(&mut stall).await {
            Some((seq, answered)) => queue.fill(seq, answered),
            None => break,
        }
        queue.drain(tally, asker.profile)?;
    }
    Ok(())
}

/// Items per chunk handed from the reading thread (fewer wake-ups than one item at a time).
const CHUNK: usize = 2048;

/// Standard input's items in chunks, read by a thread of its own into a queue of at most
/// `bound` items.
fn stdin_items(bound: usize) -> impl Stream<Item = Result<Vec<Item>, CliError>> {
    let (sender, receiver) = tokio::sync::mpsc::channel((bound / CHUNK).max(1));
    std::thread::spawn(move || {
        let mut chunk = Vec::with_capacity(CHUNK);
        let read = lines::for_each(&mut lines::reader(io::stdin().lock()), |input| {
            match input {
                Input::Line(line) => chunk.push(line.to_item()),
                Input::Idle => {}
            }
            if chunk.len() >= CHUNK || (matches!(input, Input::Idle) && !chunk.is_empty()) {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                sender
                    .blocking_send(Ok(full))
                    .map_err(|_| CliError::OutputClosed)?;
            }
            Ok(())
        });
        let last = match read {
            Ok(()) if chunk.is_empty() => return,
            Ok(()) => Ok(chunk),
            Err(error) => Err(error),
        };
        // The receiver is gone only when the command already stopped.
        let _ = sender.blocking_send(last);
    });
    stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    })
}

/// The client and how rows are built.
struct Asker {
    client: Client,
    profile: Profile,
    /// Whether rows carry the full explanation (JSON with `--explain`).
    explain: bool,
}

impl Asker {
    /// The answer for `item` now, when it needs no fetch: a line that is no URL, a URL that
    /// cannot have a robots.txt, or a URL of an origin the client knows.
    fn try_ask(&self, item: &Item) -> Option<Pending> {
        let url = match &item.url {
            Err(problem) => return Some(Pending::Failed(problem.to_string())),
            // `--verbose` rows take the error chain, which only the asynchronous lookup reads.
            Ok(url) if self.explain || Verbose::on() => return None,
            Ok(url) => url,
        };
        Some(match self.client.try_is_allowed(url)? {
            Ok(decision) => Pending::Decided(decision, None),
            Err(error) => Pending::Failed(message(error)),
        })
    }

    /// The answer for `url`, waiting for its origin's robots.txt.
    fn ask(&self, url: Result<String, Problem>) -> impl Future<Output = Pending> + 'static {
        let client = self.client.clone();
        let explain = self.explain;
        async move {
            match url {
                Err(problem) => Pending::Failed(problem.to_string()),
                Ok(url) if explain => match client.explain(&url).await {
                    Ok(explained) => {
                        Pending::Decided(explained.decision, explained.explanation.map(Box::new))
                    }
                    Err(error) => Pending::Failed(message(error)),
                },
                Ok(url) => match client.is_allowed(&url).await {
                    Ok(decision) if Verbose::on() => {
                        Pending::Decided(with_error_chain(&client, &url, decision).await, None)
                    }
                    Ok(decision) => Pending::Decided(decision, None),
                    Err(error) => Pending::Failed(message(error)),
                },
            }
        }
    }
}

/// `decision` with the network library's error chain after its access reason (`--verbose`),
/// when its robots.txt is unreachable through a network failure.
async fn with_error_chain(client: &Client, url: &str, mut decision: Answer) -> Answer {
    if decision.access != AccessKind::Unreachable {
        return decision;
    }
    let Ok(Some(lookup)) = client.cached(url).await else {
        return decision;
    };
    if let Some(reason) = crate::fetched::access_reason(&lookup) {
        decision.access_reason = Some(Arc::from(reason));
    }
    decision
}

/// Why the client could not answer, without the URL (the row shows it).
fn message(error: ClientError) -> String {
    match error {
        ClientError::Url { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

/// The row for `item`, as `answer` has it, read under `profile`.
fn row<'a>(answer: &'a Pending, item: &'a Item, from_stdin: bool, profile: Profile) -> Row<'a> {
    let url = match &item.url {
        Ok(url) => url.as_str(),
        Err(problem) => problem.text(),
    };
    answer.row(url, item.line, from_stdin, profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_thousands_separators() {
        let cases = [(0, "0"), (999, "999"), (1000, "1,000"), (4000, "4,000")];
        for (n, text) in cases {
            assert_eq!(thousands(n), text);
        }
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
