//! URLs per second through the `robotrules` binary, as a crawler pipes them:
//!
//! - `check`: a local file (`examples/robots.txt`) and URLs on standard input;
//! - `batch`: URLs of 1,000 loopback origins (one HTTP server each, serving the same file),
//!   once their robots.txt are cached: the marginal cost per URL between a run of 100,000 and
//!   a run of 1,000,000 URLs over the same origins (the 1,000 fetches cancel out);
//! - `batch`'s memory on a long input: the peak resident set size over 10,000,000 URLs.
//!
//! ```sh
//! cargo build --release -p robotrules-cli
//! cargo run --release -p robotrules-bench --bin cli_throughput
//! ```
//!
//! Wall-clock times of whole runs (best of three), output to /dev/null; the figures go to
//! `docs/performance.md`. `ROBOTRULES_BIN` overrides the binary's path.

use std::time::Duration;

use robotrules_bench::cli_run::{robots_servers, time_runs, workspace, write_urls};
use robotrules_testserver::Background;

/// The crawler asked about.
const AGENT: &str = "Googlebot";

/// Runs the binary with `args` and `input` on standard input: best wall time of `runs`, peak
/// RSS (KiB).
fn time(args: &[&str], input: &std::path::Path, runs: usize) -> (Duration, u64) {
    time_runs(args, input, runs, || {})
}

fn per_second(count: usize, took: Duration) -> f64 {
    count as f64 / took.as_secs_f64()
}

fn main() {
    let body = std::fs::read(workspace().join("examples/robots.txt"))
        .unwrap_or_else(|e| panic!("examples/robots.txt: {e}"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary directory: {e}"));

    // check: one local file, URLs of one site.
    let site = vec!["https://www.example.com".to_owned()];
    let check_urls = dir.path().join("check.txt");
    let n_check = 1_000_000;
    write_urls(&check_urls, n_check, &site, &body).unwrap_or_else(|e| panic!("{e}"));
    let (took, rss) = time(&["check", "examples/robots.txt", AGENT], &check_urls, 3);
    println!(
        "check: {n_check} URLs in {:.3} s: {:.0} URLs/s ({:.0} ns per URL), peak RSS {} KiB",
        took.as_secs_f64(),
        per_second(n_check, took),
        took.as_nanos() as f64 / n_check as f64,
        rss
    );

    // batch: 1,000 loopback origins.
    let background = Background::new().unwrap_or_else(|e| panic!("{e}"));
    let servers = robots_servers(&background, 1_000, &body);
    let origins: Vec<String> = servers.iter().map(|s| s.url("")).collect();
    let small = dir.path().join("batch-100k.txt");
    let large = dir.path().join("batch-1m.txt");
    write_urls(&small, 100_000, &origins, &body).unwrap_or_else(|e| panic!("{e}"));
    write_urls(&large, 1_000_000, &origins, &body).unwrap_or_else(|e| panic!("{e}"));
    let args = ["batch", "--timeout", "10", AGENT];
    let (t_small, _) = time(&args, &small, 3);
    let (t_large, rss_large) = time(&args, &large, 3);
    let marginal = (t_large.saturating_sub(t_small)).as_nanos() as f64 / 900_000.0;
    println!(
        "batch: 100,000 URLs over 1,000 origins in {:.3} s; 1,000,000 in {:.3} s (peak RSS {} KiB)",
        t_small.as_secs_f64(),
        t_large.as_secs_f64(),
        rss_large
    );
    println!(
        "batch, origins cached: {marginal:.0} ns per URL ({:.0} URLs/s); check: {:.0} ns per URL; ratio {:.2}",
        1e9 / marginal,
        took.as_nanos() as f64 / n_check as f64,
        marginal / (took.as_nanos() as f64 / n_check as f64)
    );

    // batch memory on a long input.
    let huge = dir.path().join("batch-10m.txt");
    write_urls(&huge, 10_000_000, &origins, &body).unwrap_or_else(|e| panic!("{e}"));
    let (t_huge, rss_huge) = time(&args, &huge, 1);
    println!(
        "batch: 10,000,000 URLs in {:.1} s, peak RSS {rss_huge} KiB",
        t_huge.as_secs_f64()
    );
    drop(servers);
}
