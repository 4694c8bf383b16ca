//! `robotrules serve` under load: 10,000 URLs through `POST /api/check` (wall time of the
//! whole request over loopback: connect, send ~200 KB, three verdicts per URL, ~2 MB of JSON
//! back), for a typical file where the profiles agree and for one where they disagree on half
//! the URLs (each disagreement carries `explain`'s causes, the costly part), and for a file with
//! AI usage preferences (every verdict carries its usage answer); and the page's weight (the
//! three files a browser loads), printed before the measurements.
//!
//! `cargo bench -p robotrules-cli --bench serve`; figures in docs/performance.md and
//! docs/serve.md.

#![allow(missing_docs, clippy::unwrap_used)]

// The tests' server harness; the bench uses part of it.
#[allow(dead_code)]
#[path = "../tests/it/support/serve.rs"]
mod serve_support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::json;

use serve_support::Server;

/// The repository's example file: groups for several crawlers, wildcards, a sitemap (read
/// at run time: the packaged crate does not hold it).
fn example_robots() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/robots.txt");
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// The repository's file with AI usage preferences (`Content-Signal`, `Content-Usage` with
/// paths): every verdict carries its usage answer.
fn preferences_robots() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/ai-preferences.txt"
    );
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// A file on which `legacy1994` disagrees with the others on half the URLs below, every
/// `.pdf` and `?session=` one (it reads `*` and `$` literally).
const WILDCARDS: &str = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?session=\n";

const URLS: usize = 10_000;

/// 10,000 crawl-like paths: sections, ids, queries, file types.
fn urls() -> Vec<String> {
    let sections = [
        "search",
        "private",
        "blog",
        "shop/cart",
        "api/v1",
        "static",
        "about",
    ];
    (0..URLS)
        .map(|i| {
            let section = sections[i % sections.len()];
            match i % 4 {
                0 => format!("/{section}/{i}"),
                1 => format!("/{section}/item-{i}?session={}", i * 7),
                2 => format!("/{section}/doc-{i}.pdf"),
                _ => format!("/{section}/page/{}/", i % 97),
            }
        })
        .collect()
}

fn page_weight(server: &Server) -> usize {
    ["/", "/app.js", "/app.css"]
        .iter()
        .map(|path| {
            let response = server.request("GET", path, &[], b"");
            assert_eq!(response.status, 200, "{path}");
            response.body.len()
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let server = Server::start(&[]);
    let weight = page_weight(&server);
    println!("page weight: {weight} bytes (HTML + JS + CSS, uncompressed)");
    let urls = urls();
    let example = example_robots();
    let preferences = preferences_robots();
    let mut group = c.benchmark_group("serve/check");
    group.throughput(Throughput::Elements(URLS as u64));
    group.sample_size(30);
    for (name, robots, agent) in [
        ("10000-urls-typical-file", example.as_str(), "Googlebot"),
        ("10000-urls-half-disagreeing", WILDCARDS, "ExampleBot"),
        (
            "10000-urls-usage-preferences",
            preferences.as_str(),
            "ExampleBot",
        ),
    ] {
        let body =
            serde_json::to_vec(&json!({"robots": robots, "agent": agent, "urls": urls})).unwrap();
        let probe = serde_json::from_slice::<serde_json::Value>(&body).unwrap();
        let answer = server.api("check", &probe);
        assert_eq!(answer.status, 200);
        let disagreeing = answer.json()["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["disagree"] == true)
            .count();
        println!(
            "{name}: request {} bytes, answer {} bytes, {disagreeing} URLs disagreeing",
            body.len(),
            answer.body.len()
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                let response = server.request(
                    "POST",
                    "/api/check",
                    &[("Content-Type", "application/json")],
                    &body,
                );
                assert_eq!(response.status, 200);
                response.body.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
