//! Redis memory per origin for the fleet's shared cache (`docs/fleet.md`): one entry per file
//! of the real sample, written by `RedisStore` into a fresh `redis-server`, then measured with
//! `MEMORY USAGE` per key (mean, median, percentiles) and the `INFO memory` delta over all of
//! them.
//!
//! ```sh
//! cargo run --release -p robotrules-bench --bin fleet_memory
//! ```
//!
//! Each file is stored as a successful fetch (HTTP 200, `text/plain`, `Cache-Control:
//! max-age=86400`) of `https://www.site-NNNNN.example.com/robots.txt`, a 34-byte origin, the
//! length of a typical one, cut at the 500 KiB parse limit as a fetch cuts it; the entry's
//! last good copy is the latest fetch (the usual case). For comparison it also stores one
//! entry of a 404 (unavailable) and one of a 503 (unreachable) fetch. Needs `redis-server` on
//! the PATH and the real sample (`ROBOTRULES_REAL_SAMPLE`).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules::DEFAULT_PARSE_LIMIT;
use robotrules_bench::corpus::real_sample;
use robotrules_fetch::cache::{CachePolicy, Store};
use robotrules_fetch::fleet::{RedisOptions, RedisStore};
use robotrules_fetch::{
    Access, CacheHeaders, FetchOutcome, Hop, Origin, Truncation, UnavailableReason,
    UnreachableReason,
};
use robotrules_testserver::redis::RedisServer;

/// The successful fetch of `body` from `origin`, cut at the parse limit.
fn outcome(origin: &Origin, body: &[u8]) -> FetchOutcome {
    let kept = body.len().min(DEFAULT_PARSE_LIMIT);
    let truncation = (kept < body.len()).then(|| Truncation {
        limit: DEFAULT_PARSE_LIMIT,
        ignored_bytes: (body.len() - kept) as u64,
    });
    let access = Access::Success {
        body: body[..kept].to_vec().into(),
        truncation,
        content_type: Some("text/plain".to_owned()),
    };
    with_access(origin, 200, access)
}

/// A fetch of `origin` answered with `status`, read as `access`.
fn with_access(origin: &Origin, status: u16, access: Access) -> FetchOutcome {
    FetchOutcome {
        robots_txt_url: origin.robots_txt_url(),
        chain: vec![Hop {
            url: origin.robots_txt_url(),
            status,
        }],
        access,
        fetched_at: SystemTime::now(),
        elapsed: Duration::from_millis(120),
        headers: CacheHeaders {
            cache_control: Some("max-age=86400".to_owned()),
            ..CacheHeaders::default()
        },
        retry_after: None,
    }
}

/// The origin of site number `i`: `https://www.site-NNNNN.example.com`.
fn site(i: usize) -> Origin {
    Origin::parse(&format!("https://www.site-{i:05}.example.com")).unwrap_or_else(|e| panic!("{e}"))
}

/// `INFO memory`'s `used_memory`, in bytes.
async fn used_memory(connection: &mut redis::aio::MultiplexedConnection) -> u64 {
    let info: String = redis::cmd("INFO")
        .arg("memory")
        .query_async(connection)
        .await
        .unwrap_or_else(|e| panic!("INFO memory: {e}"));
    info.lines()
        .find_map(|line| line.strip_prefix("used_memory:"))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no used_memory in INFO memory"))
}

/// The value at `fraction` (0 to 1) of sorted `values`.
fn percentile(values: &[u64], fraction: f64) -> u64 {
    let index = ((values.len() - 1) as f64 * fraction).round() as usize;
    values[index]
}

fn main() {
    let samples = real_sample()
        .unwrap_or_else(|e| panic!("the real sample: {e}"))
        .unwrap_or_else(|| panic!("no real sample: set ROBOTRULES_REAL_SAMPLE"));
    let server = RedisServer::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    runtime.block_on(async {
        let options = RedisOptions::default();
        let store = Arc::new(
            RedisStore::connect(&server.url(), options)
                .await
                .unwrap_or_else(|e| panic!("{e}")),
        );
        let client = redis::Client::open(server.url()).unwrap_or_else(|e| panic!("{e}"));
        let mut connection = client
            .get_multiplexed_async_connection()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let policy = CachePolicy::rfc9309();
        let before = used_memory(&mut connection).await;
        let mut bodies = Vec::with_capacity(samples.len());
        let mut keys = Vec::with_capacity(samples.len());
        for (i, sample) in samples.iter().enumerate() {
            let origin = site(i);
            let entry = policy.next_entry(None, outcome(&origin, &sample.bytes));
            store.put(&origin, entry).await;
            bodies.push(sample.bytes.len().min(DEFAULT_PARSE_LIMIT) as u64);
            keys.push(store.entry_key(&origin));
        }
        let after = used_memory(&mut connection).await;
        let stored: u64 = redis::cmd("DBSIZE")
            .query_async(&mut connection)
            .await
            .unwrap_or_else(|e| panic!("DBSIZE: {e}"));
        let mut usage = Vec::with_capacity(keys.len());
        let mut values = Vec::with_capacity(keys.len());
        for key in &keys {
            let bytes: Option<u64> = redis::cmd("MEMORY")
                .arg("USAGE")
                .arg(key)
                .query_async(&mut connection)
                .await
                .unwrap_or_else(|e| panic!("MEMORY USAGE: {e}"));
            let len: u64 = redis::cmd("STRLEN")
                .arg(key)
                .query_async(&mut connection)
                .await
                .unwrap_or_else(|e| panic!("STRLEN: {e}"));
            usage.push(bytes.unwrap_or(0));
            values.push(len);
        }
        assert_eq!(
            stored,
            samples.len() as u64,
            "one entry per file (health: {:?})",
            store.health()
        );
        // One 404 and one 503 entry, measured alone.
        let mut others = Vec::new();
        for (i, status, access) in [
            (
                samples.len(),
                404,
                Access::Unavailable {
                    reason: UnavailableReason::ClientError { status: 404 },
                },
            ),
            (
                samples.len() + 1,
                503,
                Access::Unreachable {
                    reason: UnreachableReason::ServerError { status: 503 },
                },
            ),
        ] {
            let origin = site(i);
            let entry = policy.next_entry(None, with_access(&origin, status, access));
            store.put(&origin, entry).await;
            let bytes: Option<u64> = redis::cmd("MEMORY")
                .arg("USAGE")
                .arg(store.entry_key(&origin))
                .query_async(&mut connection)
                .await
                .unwrap_or_else(|e| panic!("MEMORY USAGE: {e}"));
            others.push((status, bytes.unwrap_or(0)));
        }
        usage.sort_unstable();
        values.sort_unstable();
        bodies.sort_unstable();
        let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len() as f64;
        println!("{} entries (the real sample), one key each", samples.len());
        println!(
            "{:<28} {:>10} {:>10} {:>10} {:>10} {:>10}",
            "bytes per origin", "mean", "median", "p90", "p99", "max"
        );
        for (name, v) in [
            ("robots.txt body", &bodies),
            ("entry value (STRLEN)", &values),
            ("MEMORY USAGE of the key", &usage),
        ] {
            println!(
                "{name:<28} {:>10.0} {:>10} {:>10} {:>10} {:>10}",
                mean(v),
                percentile(v, 0.5),
                percentile(v, 0.9),
                percentile(v, 0.99),
                percentile(v, 1.0)
            );
        }
        println!(
            "INFO memory used_memory delta: {} bytes, {:.0} per origin",
            after.saturating_sub(before),
            after.saturating_sub(before) as f64 / samples.len() as f64
        );
        for (status, bytes) in others {
            println!("MEMORY USAGE of a {status} entry: {bytes} bytes");
        }
    });
}
