//! `robotrules cache list` and `robotrules cache stats`: every entry of the shared cache, walked
//! with Redis's `SCAN` one page at a time (never the whole cache in memory: a page of keys, then
//! one value at a time), and what they add up to.
//!
//! An entry is read as `cache show` reads it (`RedisStore::inspect`); a value that is not a
//! readable entry is listed as `unreadable` with the reason. `SCAN` returns every key present
//! for the whole walk, and may return a key twice when Redis resizes its table meanwhile; an
//! entry that expires or is purged during the walk is left out.

use std::fmt::Write as _;
use std::io;
use std::time::SystemTime;

use robotrules::client::store::{self, CacheEntry};
use robotrules::client::{AccessKind, CachePolicy, FleetError, FleetHealth, RedisStore};
use serde::Serialize;
use tokio::runtime::Runtime;

use super::options::CacheStoreArgs;
use super::when::When;
use crate::args::ProfileArg;
use crate::cmd::Outcome;
use crate::error::CliError;
use crate::output::{self, Format};
use crate::remote::{For, Remote};

/// Keys asked of Redis per `SCAN` step: the most a page holds in memory.
const PAGE: usize = 200;

/// Arguments of `robotrules cache list`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules cache list --cache redis://127.0.0.1:6379
  robotrules cache list --cache rediss://cache.internal:6380/2 --format json")]
pub(crate) struct ListArgs {
    /// The shared cache, its command timeout and the roots trusted for a `rediss://` one.
    #[command(flatten)]
    remote: CacheStoreArgs,

    /// Whose cache rules say whether an entry is fresh.
    #[command(flatten)]
    profile: ProfileArg,

    /// Output: text (one line per origin: ACCESS, BYTES, AGE, FRESHNESS and the origin,
    /// tab-separated) or json (one object per origin, one per line).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,
}

/// Arguments of `robotrules cache stats`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  robotrules cache stats --cache redis://127.0.0.1:6379
  robotrules cache stats --cache redis://127.0.0.1:6379 --format json")]
pub(crate) struct StatsArgs {
    /// The shared cache, its command timeout and the roots trusted for a `rediss://` one.
    #[command(flatten)]
    remote: CacheStoreArgs,

    /// Whose cache rules say whether an entry is fresh.
    #[command(flatten)]
    profile: ProfileArg,

    /// Output: text (`key: value` lines, each saying what it counts) or json (one object).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,
}

/// One origin of `cache list`.
#[derive(Clone, Debug, Serialize)]
struct Listed {
    /// The origin, as in the key (scheme, host, effective port).
    origin: String,
    /// The Redis key.
    key: String,
    /// The value's size in Redis (`STRLEN`): the entry, bodies included.
    bytes: u64,
    /// The latest fetch's access result; none when the value is unreadable.
    #[serde(skip_serializing_if = "Option::is_none")]
    access: Option<AccessKind>,
    /// Why it is unavailable or unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    access_reason: Option<String>,
    /// When the latest fetch started.
    #[serde(skip_serializing_if = "Option::is_none")]
    fetched_at: Option<When>,
    /// How long ago, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    age_secs: Option<u64>,
    /// Whether a crawler uses it without fetching again, under the profile's cache rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    fresh: Option<bool>,
    /// Why the value is not a readable entry (crawlers read it as a miss and replace it).
    #[serde(skip_serializing_if = "Option::is_none")]
    unreadable: Option<String>,
}

impl Listed {
    fn new(
        key: String,
        origin: &str,
        bytes: u64,
        entry: Result<&CacheEntry, String>,
        policy: &CachePolicy,
        now: SystemTime,
    ) -> Listed {
        let mut listed = Listed {
            origin: origin.to_owned(),
            key,
            bytes,
            access: None,
            access_reason: None,
            fetched_at: None,
            age_secs: None,
            fresh: None,
            unreadable: None,
        };
        match entry {
            Ok(entry) => {
                let latest = &entry.latest;
                listed.access = Some(latest.access.kind());
                listed.access_reason = latest.access.reason();
                listed.fetched_at = Some(When::new(latest.fetched_at));
                listed.age_secs = Some(
                    now.duration_since(latest.fetched_at)
                        .unwrap_or_default()
                        .as_secs(),
                );
                listed.fresh = Some(policy.is_fresh(entry, now));
            }
            Err(reason) => listed.unreadable = Some(reason),
        }
        listed
    }

    /// `success\t498 B\t12 s\tfresh\thttps://example.com:443`, control characters escaped.
    fn row(&self) -> String {
        let mut row = String::new();
        match (&self.access, &self.unreadable) {
            (Some(access), _) => {
                let _ = write!(row, "{access}");
                if let Some(reason) = &self.access_reason {
                    row.push_str(" (");
                    visible(&mut row, reason);
                    row.push(')');
                }
            }
            (None, _) => row.push_str("unreadable"),
        }
        let _ = write!(row, "\t{} B\t", self.bytes);
        match self.age_secs {
            Some(age) => {
                let _ = write!(row, "{age} s");
            }
            None => row.push('-'),
        }
        row.push('\t');
        row.push_str(match self.fresh {
            Some(true) => "fresh",
            Some(false) => "stale",
            None => "-",
        });
        row.push('\t');
        visible(&mut row, &self.origin);
        if let Some(reason) = &self.unreadable {
            row.push_str("\t(");
            visible(&mut row, reason);
            row.push(')');
        }
        row.push('\n');
        row
    }
}

/// `text` onto `out`, control and invisible characters as `<U+XXXX>`.
fn visible(out: &mut String, text: &str) {
    for c in text.chars() {
        robotrules_text::push_visible(out, c);
    }
}

/// The cache policy `--profile` names (the one a crawler in that profile applies).
fn policy(remote: &Remote, profile: &ProfileArg) -> Result<CachePolicy, CliError> {
    let purpose = For::new(None, profile.profile);
    Ok(remote.client(purpose, None)?.cache_policy().clone())
}

/// Walks every entry of `store`, one page of keys at a time, calling `each` with one entry at
/// a time.
async fn walk(
    store: &RedisStore,
    policy: &CachePolicy,
    mut each: impl FnMut(Listed, Option<&CacheEntry>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut cursor = 0;
    loop {
        let (next, keys) = store
            .scan_keys(cursor, PAGE)
            .await
            .map_err(CliError::Cache)?;
        for key in keys {
            let origin_text = store.origin_of_key(&key).unwrap_or(&key).to_owned();
            let origin = store::origin_of(&origin_text).ok();
            let (bytes, entry) = store
                .inspect_key(&key, origin.as_ref())
                .await
                .map_err(CliError::Cache)?;
            let now = SystemTime::now();
            match entry {
                // Expired or purged since the key was listed.
                Ok(None) => {}
                Ok(Some(entry)) => {
                    let listed = Listed::new(key, &origin_text, bytes, Ok(&entry), policy, now);
                    each(listed, Some(&entry))?;
                }
                Err(FleetError::Corrupt(reason)) => {
                    let listed = Listed::new(key, &origin_text, bytes, Err(reason), policy, now);
                    each(listed, None)?;
                }
                Err(error) => {
                    let listed = Listed::new(
                        key,
                        &origin_text,
                        bytes,
                        Err(error.to_string()),
                        policy,
                        now,
                    );
                    each(listed, None)?;
                }
            }
        }
        if next == 0 {
            return Ok(());
        }
        cursor = next;
    }
}

/// Runs `cache list`: the rows are written as they are read, a page at a time.
pub(super) fn list(runtime: &Runtime, args: ListArgs) -> Result<Outcome, CliError> {
    let remote = args.remote.load()?;
    let policy = policy(&remote, &args.profile)?;
    runtime.block_on(async {
        let cache = remote.shared_required().await?;
        let mut page = String::new();
        let mut written = 0usize;
        walk(cache.redis(), &policy, |listed, _| {
            match args.format {
                Format::Text => page.push_str(&listed.row()),
                Format::Json => page.push_str(&output::json_line(&listed)?),
            }
            written += 1;
            if written.is_multiple_of(PAGE) {
                output::write_text(io::stdout().lock(), &page)?;
                page.clear();
            }
            Ok(())
        })
        .await?;
        output::write_text(io::stdout().lock(), &page)
    })?;
    Ok(Outcome::AllClear)
}

/// What `cache stats` reports.
#[derive(Clone, Debug, Default, Serialize)]
struct Stats {
    /// Entry keys (one per origin).
    entries: u64,
    /// The values' sizes added up (`STRLEN`).
    bytes: u64,
    /// Entries whose latest fetch was a success.
    success: u64,
    /// … unavailable (4xx: every URL allowed).
    unavailable: u64,
    /// … unreachable (5xx, network errors: every URL disallowed).
    unreachable: u64,
    /// Values that are not a readable entry.
    unreadable: u64,
    /// Entries a crawler uses without fetching again, under the profile's cache rules.
    fresh: u64,
    /// Entries a crawler fetches again before using.
    stale: u64,
    /// The oldest latest fetch.
    #[serde(skip_serializing_if = "Option::is_none")]
    oldest_fetch: Option<When>,
    /// The newest latest fetch.
    #[serde(skip_serializing_if = "Option::is_none")]
    newest_fetch: Option<When>,
    /// Fleet locks held now: origins a crawler is fetching.
    locks: u64,
    /// The counters of this command's own connection to Redis.
    process: FleetHealth,
}

/// Runs `cache stats`.
pub(super) fn stats(runtime: &Runtime, args: StatsArgs) -> Result<Outcome, CliError> {
    let remote = args.remote.load()?;
    let policy = policy(&remote, &args.profile)?;
    let stats = runtime.block_on(async {
        let cache = remote.shared_required().await?;
        let store = cache.redis();
        let mut stats = Stats::default();
        let (mut oldest, mut newest) = (None::<SystemTime>, None::<SystemTime>);
        walk(store, &policy, |listed, entry| {
            stats.entries += 1;
            stats.bytes += listed.bytes;
            match listed.access {
                Some(AccessKind::Success) => stats.success += 1,
                Some(AccessKind::Unavailable) => stats.unavailable += 1,
                Some(AccessKind::Unreachable) => stats.unreachable += 1,
                None => stats.unreadable += 1,
            }
            match listed.fresh {
                Some(true) => stats.fresh += 1,
                Some(false) => stats.stale += 1,
                None => {}
            }
            if let Some(entry) = entry {
                let at = entry.latest.fetched_at;
                oldest = Some(oldest.map_or(at, |oldest| oldest.min(at)));
                newest = Some(newest.map_or(at, |newest| newest.max(at)));
            }
            Ok(())
        })
        .await?;
        stats.oldest_fetch = oldest.map(When::new);
        stats.newest_fetch = newest.map(When::new);
        stats.locks = store.count_locks().await.map_err(CliError::Cache)?;
        stats.process = store.health();
        Ok::<_, CliError>(stats)
    })?;
    let text = match args.format {
        Format::Text => stats_text(&stats, SystemTime::now()),
        Format::Json => output::json_line(&stats)?,
    };
    output::write_text(io::stdout().lock(), &text)?;
    Ok(Outcome::AllClear)
}

/// `cache stats` as text: each line says what it counts.
fn stats_text(stats: &Stats, now: SystemTime) -> String {
    let mut text = String::new();
    let when = |at: &When| {
        let age = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs())
            .saturating_sub(at.unix);
        format!("{} (age {age} s)", at.date)
    };
    let _ = writeln!(text, "entries: {} (one per origin)", stats.entries);
    let _ = writeln!(
        text,
        "bytes: {} (the entries' values in Redis, bodies included)",
        stats.bytes
    );
    let _ = writeln!(
        text,
        "latest fetch: {} success, {} unavailable, {} unreachable, {} unreadable",
        stats.success, stats.unavailable, stats.unreachable, stats.unreadable
    );
    let _ = writeln!(
        text,
        "fresh: {} (used without fetching), stale: {} (fetched again when next asked)",
        stats.fresh, stats.stale
    );
    if let (Some(oldest), Some(newest)) = (&stats.oldest_fetch, &stats.newest_fetch) {
        let _ = writeln!(text, "oldest fetch: {}", when(oldest));
        let _ = writeln!(text, "newest fetch: {}", when(newest));
    }
    let _ = writeln!(
        text,
        "locks held: {} (origins a crawler is fetching now)",
        stats.locks
    );
    let health = &stats.process;
    let _ = writeln!(
        text,
        "this process: {} errors, {} timeouts, {} unreadable (the counters of this command's \
         own Redis commands; each crawler process counts its own)",
        health.errors, health.timeouts, health.corrupt
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_name_no_internal_item() {
        let text = stats_text(&Stats::default(), SystemTime::UNIX_EPOCH);
        assert!(text.contains("this process: 0 errors"), "{text}");
        assert!(!text.contains("::"), "{text}");
    }
}
