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

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use robotrules_bench::synthetic::Xorshift;
use robotrules_bench::urls::urls_for;
use robotrules_testserver::http::Reply;
use robotrules_testserver::Background;

/// The crawler asked about.
const AGENT: &str = "Googlebot";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn binary() -> PathBuf {
    std::env::var_os("ROBOTRULES_BIN").map_or_else(
        || {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| workspace().join("target"), PathBuf::from);
            target.join("release/robotrules")
        },
        PathBuf::from,
    )
}

/// `count` URLs on `origins`, paths drawn from the file's own URL set and generic crawl paths.
fn write_urls(path: &Path, count: usize, origins: &[String], body: &[u8]) -> std::io::Result<()> {
    let paths: Vec<String> = urls_for(body)
        .into_iter()
        .filter_map(|url| {
            url.strip_prefix(robotrules_bench::urls::ORIGIN)
                .map(str::to_owned)
        })
        .collect();
    let mut rng = Xorshift::new(9);
    let mut out = BufWriter::new(File::create(path)?);
    for i in 0..count {
        let origin = &origins[rng.below(origins.len())];
        let path = &paths[rng.below(paths.len())];
        writeln!(out, "{origin}{path}&n={i}")?;
    }
    out.flush()
}

/// Runs the binary with `args` and `input` on standard input, output to /dev/null: the best
/// wall time of `runs`, and the peak resident set size seen (KiB).
fn time(args: &[&str], input: &Path, runs: usize) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut peak = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let mut child = Command::new(binary())
            .args(args)
            .current_dir(workspace())
            .stdin(File::open(input).unwrap_or_else(|e| panic!("{}: {e}", input.display())))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (build it: cargo build --release -p robotrules-cli)",
                    binary().display()
                )
            });
        let status_file = format!("/proc/{}/status", child.id());
        loop {
            if let Ok(status) = std::fs::read_to_string(&status_file) {
                if let Some(rss) = status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
                {
                    peak = peak.max(rss);
                }
            }
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => panic!("{e}"),
            }
        }
        best = best.min(started.elapsed());
    }
    (best, peak)
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
    let servers: Vec<_> = (0..1_000)
        .map(|_| {
            let server = background.http().unwrap_or_else(|e| panic!("{e}"));
            server.route("/robots.txt", Reply::ok(body.clone()));
            server
        })
        .collect();
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
