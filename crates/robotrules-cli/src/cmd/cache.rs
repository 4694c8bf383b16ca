//! `robotrules cache show --cache URL [--cache-timeout SECS] [--ca-cert FILE]... [--profile P]
//! [--format F] ORIGIN`, `robotrules cache list …`, `robotrules cache stats …` and
//! `robotrules cache purge --cache URL [--cache-timeout SECS] [--ca-cert FILE]... ORIGIN|--all`:
//! look into the fleet's shared robots.txt cache in Redis (see [`crate::shared_cache`]), list
//! and count its entries ([`listing`]), and remove one origin's entry or all of them.
//!
//! ORIGIN is any URL of the site (`https://example.com/page` means `https://example.com`),
//! read as every command reads a site URL (`store::origin_of`: lower-case punycode host,
//! default port elided). `show` prints the entry: the origin, the latest fetch's age, whether
//! the entry is fresh (for how long) or stale (since when), its access result and bytes, and
//! the last good copy kept while the file is unreachable (RFC 9309 §2.4), and the access result
//! a crawler applies now under `--profile`'s cache rules (`CachePolicy::serve`: the latest
//! fetch's, the last good copy's, or unavailable after too long unreachable); exit 1 when
//! there is no entry. `purge` removes the entry (the next crawler to ask fetches again) and says
//! whether there was one; exit 0 either way. Unlike the commands that fetch, these cannot fall
//! back: a Redis that does not answer is an error (exit 2, one line).

use std::io;
use std::time::SystemTime;

use robotrules::client::store::{self, CacheEntry, FetchOutcome, Origin};
use robotrules::client::{AccessKind, Basis, CachePolicy};
use serde::Serialize;

use crate::args::ProfileArg;
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::output::{self, Format};
use crate::remote::{self, For};

mod listing;
mod options;
mod when;

use options::CacheStoreArgs;
use when::When;

/// Arguments of `robotrules cache`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules cache list --cache redis://127.0.0.1:6379
  robotrules cache show --cache redis://127.0.0.1:6379 https://example.com
  robotrules cache purge --cache redis://127.0.0.1:6379 --all")]
pub(crate) struct CacheArgs {
    /// What to do with the shared cache.
    #[command(subcommand)]
    command: CacheCommand,
}

/// The `cache` subcommands.
#[derive(Debug, clap::Subcommand)]
enum CacheCommand {
    /// What does the shared cache hold for a site? Age, freshness, access result, bytes, the
    /// last good copy; exit 1 when it holds nothing.
    Show(ShowArgs),
    /// Every site the shared cache holds, one line (or JSON object) each: access result,
    /// size, age, freshness.
    List(listing::ListArgs),
    /// What the shared cache holds in total (entries, bytes, access results, oldest and newest
    /// fetch, locks held) and this process's counters of its Redis commands.
    Stats(listing::StatsArgs),
    /// Remove a site's entry from the shared cache, so that the next crawler fetches its
    /// robots.txt again; says whether there was one. `--all` removes every entry and lock of
    /// the cache (its keys only).
    Purge(PurgeArgs),
}

/// Arguments of `robotrules cache show`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules cache show --cache redis://127.0.0.1:6379 https://example.com
  robotrules cache show --cache redis://127.0.0.1:6379 --format json https://example.com/any/page")]
struct ShowArgs {
    /// The shared cache, its command timeout and the roots trusted for a `rediss://` one.
    #[command(flatten)]
    remote: CacheStoreArgs,

    /// Whose cache rules say what the entry means now (the access result a crawler applies
    /// during an outage).
    #[command(flatten)]
    profile: ProfileArg,

    /// Output: text (`key: value` lines) or json (one object).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// The site: its origin (`https://example.com`) or any URL of it.
    #[arg(value_name = "ORIGIN")]
    origin: String,
}

/// Arguments of `robotrules cache purge`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules cache purge --cache redis://127.0.0.1:6379 https://example.com
  robotrules cache purge --cache redis://127.0.0.1:6379 --all")]
struct PurgeArgs {
    /// The shared cache, its command timeout and the roots trusted for a `rediss://` one.
    #[command(flatten)]
    remote: CacheStoreArgs,

    /// Remove every entry and lock of the cache: the keys under the cache's prefix
    /// (`robotrules:`), walked with SCAN; other keys in the database are left alone.
    #[arg(long, conflicts_with = "origin", required_unless_present = "origin")]
    all: bool,

    /// The site: its origin (`https://example.com`) or any URL of it.
    #[arg(value_name = "ORIGIN")]
    origin: Option<String>,
}

/// Runs `cache show`, `list`, `stats` or `purge`.
///
/// # Errors
/// A [`CliError`] for an ORIGIN that is no site URL, a `--cache` that is not a Redis URL or
/// is refused, a Redis that does not answer, or a failed write.
pub(crate) fn run(args: CacheArgs) -> Result<Outcome, CliError> {
    let runtime = remote::runtime()?;
    match args.command {
        CacheCommand::Show(args) => {
            let origin = read_origin(&args.origin)?;
            let remote = args.remote.load()?;
            let entry = runtime.block_on(async {
                let cache = remote.shared_required().await?;
                cache
                    .redis()
                    .inspect(&origin)
                    .await
                    .map_err(CliError::Cache)
            })?;
            let Some(entry) = entry else {
                let text = match args.format {
                    Format::Text => format!("no entry for {origin}\n"),
                    Format::Json => output::json_line(&serde_json::json!({
                        "origin": origin.to_string(),
                        "entry": null,
                    }))?,
                };
                output::write_text(io::stdout().lock(), &text)?;
                return Ok(Outcome::Flagged);
            };
            // What a crawler applies now is what the library's client applies: its policy.
            let purpose = For::new(None, args.profile.profile);
            let client = remote.client(purpose, None)?;
            let report =
                EntryReport::new(&origin, &entry, client.cache_policy(), SystemTime::now());
            let text = match args.format {
                Format::Text => format!("{report}"),
                Format::Json => output::json_line(&report)?,
            };
            output::write_text(io::stdout().lock(), &text)?;
            Ok(Outcome::AllClear)
        }
        CacheCommand::List(args) => listing::list(&runtime, args),
        CacheCommand::Stats(args) => listing::stats(&runtime, args),
        CacheCommand::Purge(args) if args.all => {
            let remote = args.remote.load()?;
            let purged = runtime.block_on(async {
                let cache = remote.shared_required().await?;
                cache.redis().purge_all().await.map_err(CliError::Cache)
            })?;
            let plural = if purged == 1 { "entry" } else { "entries" };
            let text = format!("purged {purged} {plural}\n");
            output::write_text(io::stdout().lock(), &text)?;
            Ok(Outcome::AllClear)
        }
        CacheCommand::Purge(args) => {
            let origin = read_origin(args.origin.as_deref().unwrap_or_default())?;
            let remote = args.remote.load()?;
            let removed = runtime.block_on(async {
                let cache = remote.shared_required().await?;
                cache.redis().purge(&origin).await.map_err(CliError::Cache)
            })?;
            let text = if removed {
                format!("purged {origin}\n")
            } else {
                format!("no entry for {origin}\n")
            };
            output::write_text(io::stdout().lock(), &text)?;
            Ok(Outcome::AllClear)
        }
    }
}

/// The origin of `text`, read as the client reads a site URL.
fn read_origin(text: &str) -> Result<Origin, CliError> {
    store::origin_of(text).map_err(|source| CliError::Origin {
        text: text.to_owned(),
        source,
    })
}

/// One fetch the entry holds.
#[derive(Clone, Debug, Serialize)]
struct FetchReport {
    /// When it started.
    fetched_at: When,
    /// How long ago, in seconds.
    age_secs: u64,
    /// Its access result.
    access: AccessKind,
    /// Why it is unavailable or unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    access_reason: Option<String>,
    /// Bytes of body kept.
    bytes: usize,
}

impl FetchReport {
    fn new(outcome: &FetchOutcome, now: SystemTime) -> FetchReport {
        FetchReport {
            fetched_at: When::new(outcome.fetched_at),
            age_secs: now
                .duration_since(outcome.fetched_at)
                .unwrap_or_default()
                .as_secs(),
            access: outcome.access.kind(),
            access_reason: outcome.access.reason(),
            bytes: outcome.body().map_or(0, |body| body.len()),
        }
    }
}

/// What `cache show` reports about an entry.
#[derive(Clone, Debug, Serialize)]
struct EntryReport {
    /// The origin.
    origin: String,
    /// Its robots.txt URL.
    robots_txt_url: String,
    /// Whether the entry is used without fetching again.
    fresh: bool,
    /// Until when it is.
    fresh_until: When,
    /// Seconds it stays fresh (fresh entries).
    #[serde(skip_serializing_if = "Option::is_none")]
    fresh_for_secs: Option<u64>,
    /// Seconds since it went stale (stale entries).
    #[serde(skip_serializing_if = "Option::is_none")]
    stale_for_secs: Option<u64>,
    /// The latest fetch.
    latest: FetchReport,
    /// The last successful fetch, kept while the file is unreachable; `None` when there is
    /// none or it is the latest fetch.
    last_good: Option<FetchReport>,
    /// When the current run of unreachable fetches began.
    #[serde(skip_serializing_if = "Option::is_none")]
    unreachable_since: Option<When>,
    /// Unreachable fetches in a row.
    consecutive_failures: u32,
    /// What a crawler applies now under the profile's cache rules (`CachePolicy::serve`).
    applies: Applies,
}

/// The access result the entry gives a crawler now, and why (RFC 9309 §2.3.1.4, §2.4).
#[derive(Clone, Debug, Serialize)]
struct Applies {
    /// The access result.
    access: AccessKind,
    /// Why it is unavailable or unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    access_reason: Option<String>,
    /// The latest fetch's own result, the last good copy, or unavailable after too long
    /// unreachable (with the outage's start).
    #[serde(flatten)]
    basis: Basis,
}

impl EntryReport {
    fn new(
        origin: &Origin,
        entry: &CacheEntry,
        policy: &CachePolicy,
        now: SystemTime,
    ) -> EntryReport {
        let fresh = policy.is_fresh(entry, now);
        let served = policy.serve(entry, now);
        let last_good = entry
            .last_good
            .as_ref()
            .filter(|good| **good != entry.latest)
            .map(|good| FetchReport::new(good, now));
        EntryReport {
            origin: origin.to_string(),
            robots_txt_url: entry.latest.robots_txt_url.clone(),
            fresh,
            fresh_until: When::new(entry.fresh_until),
            fresh_for_secs: fresh.then(|| {
                let left = entry.fresh_until.duration_since(now);
                left.unwrap_or_default().as_secs()
            }),
            stale_for_secs: (!fresh).then(|| {
                let past = now.duration_since(entry.fresh_until);
                past.unwrap_or_default().as_secs()
            }),
            latest: FetchReport::new(&entry.latest, now),
            last_good,
            unreachable_since: entry.unreachable_since.map(When::new),
            consecutive_failures: entry.consecutive_failures,
            applies: Applies {
                access: served.access.kind(),
                access_reason: served.access.reason(),
                basis: served.basis,
            },
        }
    }
}

impl std::fmt::Display for EntryReport {
    /// One `key: value` line per fact.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "origin: {}", self.origin)?;
        writeln!(f, "robots.txt: {}", self.robots_txt_url)?;
        let latest = &self.latest;
        writeln!(
            f,
            "fetched at: {} (age {} s)",
            latest.fetched_at.date, latest.age_secs
        )?;
        match (self.fresh_for_secs, self.stale_for_secs) {
            (Some(for_secs), _) => writeln!(
                f,
                "fresh: for {for_secs} s (until {})",
                self.fresh_until.date
            )?,
            (None, stale) => writeln!(
                f,
                "stale: since {} ({} s)",
                self.fresh_until.date,
                stale.unwrap_or(0)
            )?,
        }
        match &latest.access_reason {
            Some(reason) => writeln!(f, "access: {} ({reason})", latest.access)?,
            None => writeln!(f, "access: {}", latest.access)?,
        }
        writeln!(f, "bytes: {}", latest.bytes)?;
        if let Some(since) = &self.unreachable_since {
            let failures = self.consecutive_failures;
            let plural = if failures == 1 { "" } else { "es" };
            writeln!(
                f,
                "unreachable since: {} ({failures} fetch{plural} in a row)",
                since.date
            )?;
        }
        match &self.last_good {
            Some(good) => writeln!(
                f,
                "last good copy: fetched at {} (age {} s), {} bytes",
                good.fetched_at.date, good.age_secs, good.bytes
            ),
            None if latest.access == AccessKind::Success => {
                writeln!(f, "last good copy: the latest fetch")
            }
            None => writeln!(f, "last good copy: none"),
        }?;
        let applies = &self.applies;
        write!(f, "applies now: {}", applies.access)?;
        if let Some(reason) = &applies.access_reason {
            write!(f, " ({reason})")?;
        }
        match applies.basis {
            Basis::LastGoodCopy { .. } => writeln!(f, ", from the last good copy"),
            Basis::UnreachableTooLong { .. } => {
                writeln!(f, ", unreachable too long: read as unavailable")
            }
            _ => writeln!(f),
        }
    }
}
