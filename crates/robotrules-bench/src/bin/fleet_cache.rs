//! `robotrules batch` over 100,000 URLs of 1,000 loopback origins with the fleet's shared
//! cache in Redis (`--cache`), cold and warm, against the in-process memory store
//! (`docs/performance.md`, "Fleet cache"):
//!
//! - **memory**: no `--cache`: every run fetches the 1,000 robots.txt files itself;
//! - **redis, cold**: `--cache` on an emptied Redis: 1,000 fetches, each behind the fleet lock,
//!   and 1,000 entries written;
//! - **redis, warm**: `--cache` with the entries of the previous run: 1,000 reads from Redis
//!   and no fetch (checked at the servers).
//!
//! ```sh
//! cargo build --release -p robotrules-cli
//! cargo run --release -p robotrules-bench --bin fleet_cache
//! ```
//!
//! It starts its own `redis-server` (on the PATH) and HTTP servers. Wall-clock times of whole
//! runs, best of five after one untimed run, output to /dev/null. `ROBOTRULES_BIN` overrides the binary's path.

use std::time::Duration;

use robotrules_bench::cli_run::{robots_servers, time_runs, workspace, write_urls};
use robotrules_testserver::redis::RedisServer;
use robotrules_testserver::Background;

/// The crawler asked about.
const AGENT: &str = "Googlebot";

/// URLs per run.
const URLS: usize = 100_000;

/// Origins (one HTTP server each).
const ORIGINS: usize = 1_000;

/// Runs per figure (the best is kept).
const RUNS: usize = 5;

/// Empties the Redis at `url` (`FLUSHALL`).
fn flush(url: &str) {
    let client = redis::Client::open(url).unwrap_or_else(|e| panic!("{e}"));
    let mut connection = client
        .get_connection()
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    redis::cmd("FLUSHALL")
        .query::<()>(&mut connection)
        .unwrap_or_else(|e| panic!("FLUSHALL: {e}"));
}

fn report(name: &str, took: Duration, rss: u64, fetches: usize) {
    println!(
        "{name:<14} {:>8.3} s {:>10.0} URLs/s {:>9} KiB peak RSS {:>6} robots.txt requests per run",
        took.as_secs_f64(),
        URLS as f64 / took.as_secs_f64(),
        rss,
        fetches
    );
}

fn main() {
    let body = std::fs::read(workspace().join("examples/robots.txt"))
        .unwrap_or_else(|e| panic!("examples/robots.txt: {e}"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary directory: {e}"));
    let redis = RedisServer::start();
    let url = redis.url();
    let background = Background::new().unwrap_or_else(|e| panic!("{e}"));
    let servers = robots_servers(&background, ORIGINS, &body);
    let hits = || -> usize { servers.iter().map(|s| s.hits("/robots.txt")).sum() };
    let origins: Vec<String> = servers.iter().map(|s| s.url("")).collect();
    let input = dir.path().join("batch-100k.txt");
    write_urls(&input, URLS, &origins, &body).unwrap_or_else(|e| panic!("{e}"));
    println!("batch: {URLS} URLs over {ORIGINS} loopback origins, best of {RUNS}");

    let plain = ["batch", "--timeout", "10", AGENT];
    let cached = ["batch", "--timeout", "10", "--cache", &url, AGENT];

    // One untimed run first: the servers' and the page cache's first touch is not measured.
    time_runs(&plain, &input, 1, || {});
    let start = hits();
    let (took, rss) = time_runs(&plain, &input, RUNS, || {});
    report("memory", took, rss, (hits() - start) / RUNS);

    let start = hits();
    let (took, rss) = time_runs(&cached, &input, RUNS, || flush(&url));
    report("redis, cold", took, rss, (hits() - start) / RUNS);

    let start = hits();
    let (took, rss) = time_runs(&cached, &input, RUNS, || {});
    report("redis, warm", took, rss, (hits() - start) / RUNS);
    drop(servers);
}
