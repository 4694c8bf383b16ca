//! Throughput of the survey on the real sample packed into a gzipped WARC file (one gzip
//! member per record, as Common Crawl writes them), with the default crawler list (22
//! crawlers), gunzip included:
//!
//! - `one_core`: reading, inflating, parsing and surveying every capture on one thread, one
//!   after the other, timed in the thread's CPU time (the machine is shared): the captures
//!   per second per core;
//! - `pipeline`: [`robotrules_survey::run`] on every core of the machine (reader threads and
//!   the rayon pool), rows formatted as CSV as the CLI does;
//! - `inflate_only`: reading and inflating the records, nothing else (thread CPU time).
//!
//! The real sample is `shared/corpora/real-sample/` beside the repository, or the folder
//! named by `ROBOTRULES_REAL_SAMPLE`; without it the committed corpus of robotrules-bench is
//! packed instead (and the figures are not the documented ones).
//!
//! `cargo bench -p robotrules-survey --bench survey`
//!
//! The whole path as users run it — the `robotrules survey` binary over a gzipped WARC file,
//! the CLI's CSV rows written, every thread's CPU counted — is timed by robotrules-bench's
//! `where_it_shows survey` (issue 26: captures per CPU-second, output included).

// A benchmark's setup unwraps: a failure there is a failed run.
#![allow(clippy::unwrap_used, missing_docs)]

use std::io::Write;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use robotrules_model::Profile;
use robotrules_survey::{
    default_agents, read_input, run, Event, Input, Reading, RunOptions, Survey, WarcReader,
};

/// The robots.txt files to pack: the real sample, else the committed corpus.
fn sample_dir() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let real = std::env::var_os("ROBOTRULES_REAL_SAMPLE").map_or_else(
        || here.join("../../../shared/corpora/real-sample"),
        PathBuf::from,
    );
    if real.is_dir() {
        real
    } else {
        here.join("../robotrules-bench/corpus")
    }
}

/// Every file of `dir` as a `response` record of a 200, one gzip member each.
fn pack(dir: &Path, out: &Path) -> u64 {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut warc = std::io::BufWriter::new(std::fs::File::create(out).unwrap());
    for (i, file) in files.iter().enumerate() {
        let body = std::fs::read(file).unwrap();
        let mut http = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        http.extend_from_slice(&body);
        let mut record = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-06-01T12:00:00Z\r\nWARC-Target-URI: https://host{i}.example/robots.txt\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            http.len()
        )
        .into_bytes();
        record.extend_from_slice(&http);
        record.extend_from_slice(b"\r\n\r\n");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&record).unwrap();
        warc.write_all(&gz.finish().unwrap()).unwrap();
    }
    files.len() as u64
}

fn survey(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("sample.warc.gz");
    let captures = pack(&sample_dir(), &warc);
    let input = Input::Warc(warc.clone());
    let survey = Survey::new(default_agents(), Profile::Google, 512_000).unwrap();
    let mut group = c.benchmark_group("survey");
    group.sample_size(10);
    group.throughput(Throughput::Elements(captures));
    group.bench_function("one_core", |b| {
        b.iter_custom(|iterations| {
            let start = cpu_time::ThreadTime::now();
            for _ in 0..iterations {
                let mut rows = 0;
                read_input(&input, |raw| {
                    if let Reading::Capture(capture) = raw.read() {
                        rows += survey.capture(&capture).per_agent.agents.len();
                    }
                    true
                })
                .unwrap();
                std::hint::black_box(rows);
            }
            start.elapsed()
        });
    });
    group.bench_function("pipeline", |b| {
        b.iter(|| {
            let mut bytes = 0;
            run(
                std::slice::from_ref(&input),
                &survey,
                RunOptions::default(),
                |batch| {
                    let mut out = Vec::new();
                    for row in batch.iter().flat_map(|s| s.rows(survey.agents())) {
                        let _ = writeln!(out, "{},{},{}", row.host, row.agent, row.reach);
                    }
                    out.len()
                },
                |event| {
                    if let Event::Batch(n, _) = event {
                        bytes += n;
                    }
                    std::ops::ControlFlow::Continue(())
                },
            )
            .unwrap();
            bytes
        });
    });
    group.bench_function("inflate_only", |b| {
        b.iter_custom(|iterations| {
            let start = cpu_time::ThreadTime::now();
            for _ in 0..iterations {
                let file = std::io::BufReader::new(std::fs::File::open(&warc).unwrap());
                std::hint::black_box(WarcReader::new(file).filter(Result::is_ok).count());
            }
            start.elapsed()
        });
    });
    group.finish();
}

criterion_group!(benches, survey);
criterion_main!(benches);
