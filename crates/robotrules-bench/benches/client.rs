//! The crawler's path: what a cached `Client::is_allowed` costs next to the bare check.
//!
//! `cargo bench -p robotrules-bench --bench client` measures, on the bundled example file
//! (`examples/robots.txt`, the typical few-KB file) and on a 512 KB generated file, over each
//! file's own URL set made absolute:
//!
//! - `bare_check`: `Crawler::is_allowed(url)` (the URL read and matched);
//! - `bare_decide`: `Crawler::decide(url)`, the same with the reason and the deciding rule
//!   (no allocation: it should cost what `bare_check` does);
//! - `origin_key`: `Origin::parse(url)`, which the client computes for every URL;
//! - `client_cached`: `Client::is_allowed(url)` on an origin whose robots.txt the client
//!   already holds (fetched once from a loopback server before measuring).
//!
//! The target (issue 9): `client_cached` costs at most 1.5 times `bare_check` plus
//! `origin_key`. Figures and the command are in `docs/performance.md`.
//!
//! Wall time by default; `ROBOTRULES_BENCH_CLOCK=cpu` times the thread's CPU time instead, as
//! the `compare` bench does (the same measurement, `compare/cpu_clock.rs`).

use std::hint::black_box;
use std::path::Path;

use criterion::measurement::Measurement;
use criterion::{Criterion, Throughput};
use robotrules::client::Client;
use robotrules::Robots;
use robotrules_bench::synthetic;
use robotrules_bench::urls::urls_for;
use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_url::Origin;

/// The crawler asked about.
const AGENT: &str = "ExampleBot";

/// The files measured: the bundled example and a 512 KB generated file.
fn files() -> Vec<(&'static str, Vec<u8>)> {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/robots.txt");
    let typical = std::fs::read(&example).unwrap_or_else(|error| {
        eprintln!(
            "robotrules-bench: cannot read {}: {error}",
            example.display()
        );
        Vec::new()
    });
    vec![
        ("typical", typical),
        ("512k", synthetic::realistic(512 * 1000, 7)),
    ]
}

/// The thread-CPU-time measurement, shared with the `compare` bench.
#[path = "compare/cpu_clock.rs"]
mod cpu_clock;

/// The environment variable that selects the clock (`cpu`: thread CPU time).
const CLOCK_VAR: &str = "ROBOTRULES_BENCH_CLOCK";

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|error| panic!("a tokio runtime: {error}"));
    for (name, body) in files() {
        let server = runtime.block_on(HttpServer::start());
        server.route("/robots.txt", Reply::ok(body.clone()));
        // A host name, as crawlers meet them, resolved to the loopback server.
        let base = format!("http://www.example.com:{}", server.port());
        // The file's own URL set, moved to the loopback origin.
        let urls: Vec<String> = urls_for(&body)
            .into_iter()
            .filter_map(|url| {
                let path = url
                    .strip_prefix(robotrules_bench::urls::ORIGIN)
                    .unwrap_or(&url);
                path.starts_with('/').then(|| format!("{base}{path}"))
            })
            .collect();
        let robots = Robots::parse(&body);
        let rules = robots
            .crawler(AGENT)
            .unwrap_or_else(|error| panic!("{error}"));
        let client = Client::builder()
            .crawler(AGENT)
            .use_env_proxy(false)
            .resolve("www.example.com", server.addr())
            .build()
            .unwrap_or_else(|error| panic!("{error}"));
        runtime.block_on(async {
            for url in &urls {
                let decision = client
                    .is_allowed(url)
                    .await
                    .unwrap_or_else(|error| panic!("{url}: {error}"));
                assert_eq!(Ok(decision.allowed), rules.is_allowed(url), "{url}");
            }
        });
        assert_eq!(server.hits("/robots.txt"), 1, "one fetch, then the cache");

        let mut group = c.benchmark_group(format!("client_{name}"));
        group.throughput(Throughput::Elements(urls.len() as u64));
        group.bench_function("bare_check", |b| {
            b.iter(|| {
                for url in &urls {
                    black_box(rules.is_allowed(black_box(url)).ok());
                }
            });
        });
        group.bench_function("bare_decide", |b| {
            b.iter(|| {
                for url in &urls {
                    black_box(rules.decide(black_box(url)).ok());
                }
            });
        });
        group.bench_function("origin_key", |b| {
            b.iter(|| {
                for url in &urls {
                    black_box(Origin::parse(black_box(url)).ok());
                }
            });
        });
        group.bench_function("client_cached", |b| {
            b.iter(|| {
                runtime.block_on(async {
                    for url in &urls {
                        black_box(client.is_allowed(black_box(url)).await.ok());
                    }
                });
            });
        });
        group.finish();
    }
}

fn run<M: Measurement>(c: Criterion<M>) {
    let mut c = c.configure_from_args();
    bench(&mut c);
    c.final_summary();
}

fn main() {
    if std::env::var(CLOCK_VAR).is_ok_and(|v| v == "cpu") {
        eprintln!("robotrules-bench: timing thread CPU time ({CLOCK_VAR}=cpu)");
        run(Criterion::default().with_measurement(cpu_clock::ThreadCpuTime));
    } else {
        run(Criterion::default());
    }
}
