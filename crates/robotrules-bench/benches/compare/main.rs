//! robotrules side by side with `robotxt`, `texting_robots` and `robotstxt`, in one run.
//!
//! `cargo bench -p robotrules-bench --bench compare` measures, in criterion groups holding one
//! function per implementation (see `robotrules_bench::contenders`):
//!
//! - `parse_typical`: bytes to a ready-to-query value for the 712-byte typical file, the
//!   per-file fixed cost;
//! - `parse_corpus`, `parse_crawl`, `parse_real_sample`: the same over the committed corpus,
//!   the real sample's files of at most 16 KiB (the crawl distribution) and the whole real
//!   sample, in bytes/s counting only the bytes each contender reads (up to its parse limit);
//!   each group also times `memchr-line-scan`, one `memchr` pass for line ends over the same
//!   bytes: the limit of any parse;
//! - `check_typical`, `check_real_sample`, `check_crawl_urls`: `is_allowed` after parse with
//!   the crawler resolved once, over the own-pattern URLs of the typical file and of the real
//!   sample, and over the crawl-like URLs of the real sample (`robotrules_bench::urls`), in
//!   checks/s (`robotstxt` parses again for every check);
//! - `crawler_<work>` (issue 26, `robotrules_bench::crawler_pays`): what a crawler pays per
//!   site, over the real sample's crawl files (the committed corpus when not measuring) and
//!   each site's crawl-like URLs: `parse_resolve` (parse + resolve one crawler),
//!   `first_check`, `ten_checks`, `site_checks` (the same + 1, 10, all of the site's checks),
//!   `check_alone` (the crawler resolved before timing), in sites/s or checks/s;
//!   `cargo run --release -p robotrules-bench --bin crawler_pays` prints the same as ratios;
//! - `adversarial_<case>`: parse plus 1,000 checks on each generated 500 KiB case
//!   (`robotstxt`: one query, see the group's note).
//!
//! Times are wall time; with `ROBOTRULES_BENCH_CLOCK=cpu` they are the benchmark thread's CPU
//! time instead (see `cpu_clock`), steadier on a machine shared with other busy processes.
//!
//! The real-sample groups run only under `cargo bench` (not when `cargo test --benches` runs
//! each function once) and only when the sample is present. `cargo run --release -p
//! robotrules-bench --bin report` turns the results into the tables of `docs/performance.md`.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use robotrules::Robots;
use robotrules_bench::contenders::{
    count_allowed_robotrules, count_allowed_robotstxt, count_allowed_robotxt,
    count_allowed_texting, line_scan, panics, parse_robotrules, parse_robotxt, parse_texting,
    path_and_query, robotstxt_allowed, Contender, AGENT,
};
use robotrules_bench::corpus::{self, Sample};
use robotrules_bench::crawler_pays::{self, pay, units, Payer, Resolved, Work};
use robotrules_bench::synthetic::{self, Adversarial};
use robotrules_bench::urls::{crawl_urls_for, urls_for};

mod cpu_clock;

/// The environment variable that selects the clock: `cpu` for thread CPU time, else wall time.
const CLOCK_VAR: &str = "ROBOTRULES_BENCH_CLOCK";

/// The name of the limit measured beside the contenders in the parse groups.
const LINE_SCAN: &str = "memchr-line-scan";

/// Whether criterion measures (`cargo bench` passes `--bench`) rather than running each
/// function once as a test.
fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// The committed corpus plus the generated realistic file.
fn committed_corpus() -> Vec<Sample> {
    let mut samples = corpus::committed().unwrap_or_else(|e| {
        eprintln!("robotrules-bench: cannot read the committed corpus: {e}");
        Vec::new()
    });
    samples.push(Sample::new(
        "synthetic-realistic-64k",
        synthetic::realistic(synthetic::REALISTIC_SIZE, 1),
    ));
    samples
}

/// The real sample, when measuring and present.
fn real_sample() -> Option<Vec<Sample>> {
    if !measuring() {
        return None;
    }
    match corpus::real_sample() {
        Ok(Some(samples)) => Some(samples),
        Ok(None) => {
            eprintln!(
                "robotrules-bench: no real sample (set {}), skipping its groups",
                corpus::REAL_SAMPLE_VAR
            );
            None
        }
        Err(e) => {
            eprintln!("robotrules-bench: cannot read the real sample: {e}");
            None
        }
    }
}

/// The samples `robotstxt` 0.3.0 can read without panicking.
fn robotstxt_survivors(samples: &[Sample]) -> Vec<&Sample> {
    let kept: Vec<&Sample> = samples
        .iter()
        .filter(|s| {
            !panics(|| {
                robotstxt_allowed(&s.text, AGENT, "/");
            })
        })
        .collect();
    if kept.len() < samples.len() {
        eprintln!(
            "robotrules-bench: robotstxt panics on {} of {} files; they are left out of its figures",
            samples.len() - kept.len(),
            samples.len()
        );
    }
    kept
}

/// The bytes `contender` reads of `samples`.
fn parsed_bytes(contender: Contender, samples: &[&Sample]) -> u64 {
    samples
        .iter()
        .map(|s| contender.parsed_bytes(s.bytes.len()) as u64)
        .sum()
}

fn parse_group<M: Measurement>(c: &mut Criterion<M>, name: &str, samples: &[Sample], slow: bool) {
    let all: Vec<&Sample> = samples.iter().collect();
    let robotstxt_set = robotstxt_survivors(samples);
    let mut group = c.benchmark_group(name);
    if slow {
        group.sample_size(10).sampling_mode(SamplingMode::Flat);
    }
    for contender in Contender::ALL {
        let set = match contender {
            Contender::Robotstxt => &robotstxt_set,
            _ => &all,
        };
        group.throughput(Throughput::Bytes(parsed_bytes(contender, set)));
        group.bench_function(contender.name(), |b| match contender {
            Contender::Robotrules(profile) => b.iter(|| {
                for s in set {
                    black_box(parse_robotrules(black_box(&s.bytes), profile));
                }
            }),
            Contender::Robotxt => b.iter(|| {
                for s in set {
                    let _ = black_box(parse_robotxt(AGENT, black_box(&s.bytes)));
                }
            }),
            Contender::TextingRobots => b.iter(|| {
                for s in set {
                    black_box(parse_texting(AGENT, black_box(&s.bytes)));
                }
            }),
            Contender::Robotstxt => b.iter(|| {
                for s in set {
                    black_box(robotstxt_allowed(black_box(&s.text), AGENT, "/"));
                }
            }),
        });
    }
    // The limit: one line-end scan over the bytes robotrules reads.
    let limit = Contender::Robotrules(robotrules::Profile::Rfc9309);
    let cut: Vec<&[u8]> = all
        .iter()
        .map(|s| &s.bytes[..limit.parsed_bytes(s.bytes.len())])
        .collect();
    group.throughput(Throughput::Bytes(parsed_bytes(limit, &all)));
    group.bench_function(LINE_SCAN, |b| {
        b.iter(|| cut.iter().map(|s| line_scan(black_box(s))).sum::<usize>())
    });
    group.finish();
}

/// Which URLs a check group asks about each file.
#[derive(Clone, Copy)]
enum UrlSet {
    /// Generic URLs plus URLs from the file's own rules ([`urls_for`]).
    OwnPatterns,
    /// Crawl-like URLs ([`crawl_urls_for`]).
    CrawlLike,
}

impl UrlSet {
    fn urls(self, body: &[u8]) -> Vec<String> {
        match self {
            UrlSet::OwnPatterns => urls_for(body),
            UrlSet::CrawlLike => crawl_urls_for(body),
        }
    }
}

/// Checks of every file's URLs against the already parsed file.
fn check_group<M: Measurement>(
    c: &mut Criterion<M>,
    name: &str,
    samples: &[Sample],
    set: UrlSet,
    slow: bool,
) {
    let urls: Vec<Vec<String>> = samples.iter().map(|s| set.urls(&s.bytes)).collect();
    let checks = urls.iter().map(Vec::len).sum::<usize>() as u64;
    let mut group = c.benchmark_group(name);
    for contender in Contender::ALL {
        group.throughput(Throughput::Elements(checks));
        match contender {
            Contender::Robotrules(profile) => {
                let parsed: Vec<Robots> = samples
                    .iter()
                    .map(|s| parse_robotrules(&s.bytes, profile))
                    .collect();
                let rules: Vec<_> = parsed.iter().map(|r| r.crawler(AGENT).ok()).collect();
                group.bench_function(contender.name(), |b| {
                    b.iter(|| {
                        let mut allowed = 0usize;
                        for (rules, urls) in rules.iter().zip(&urls) {
                            let Some(rules) = rules else { continue };
                            for url in urls {
                                allowed +=
                                    usize::from(rules.is_allowed(black_box(url)) == Ok(true));
                            }
                        }
                        allowed
                    })
                });
            }
            Contender::Robotxt => {
                let parsed: Vec<_> = samples
                    .iter()
                    .map(|s| parse_robotxt(AGENT, &s.bytes))
                    .collect();
                let paths: Vec<Vec<String>> = urls
                    .iter()
                    .map(|u| u.iter().map(|u| path_and_query(u)).collect())
                    .collect();
                group.bench_function(contender.name(), |b| {
                    b.iter(|| {
                        let mut allowed = 0usize;
                        for (robots, paths) in parsed.iter().zip(&paths) {
                            for path in paths {
                                allowed += usize::from(robots.is_allowed(black_box(path)));
                            }
                        }
                        allowed
                    })
                });
            }
            Contender::TextingRobots => {
                let parsed: Vec<_> = samples
                    .iter()
                    .map(|s| parse_texting(AGENT, &s.bytes))
                    .collect();
                group.bench_function(contender.name(), |b| {
                    b.iter(|| {
                        let mut allowed = 0usize;
                        for (robot, urls) in parsed.iter().zip(&urls) {
                            if let Some(robot) = robot {
                                for url in urls {
                                    allowed += usize::from(robot.allowed(black_box(url)));
                                }
                            }
                        }
                        allowed
                    })
                });
            }
            Contender::Robotstxt => {
                let kept = robotstxt_survivors(samples);
                let kept_urls: Vec<Vec<String>> = kept.iter().map(|s| set.urls(&s.bytes)).collect();
                let kept_checks = kept_urls.iter().map(Vec::len).sum::<usize>() as u64;
                group.throughput(Throughput::Elements(kept_checks));
                if slow {
                    group.sample_size(10).sampling_mode(SamplingMode::Flat);
                }
                group.bench_function(contender.name(), |b| {
                    b.iter(|| {
                        let mut allowed = 0usize;
                        for (s, urls) in kept.iter().zip(&kept_urls) {
                            allowed += count_allowed_robotstxt(black_box(&s.text), AGENT, urls);
                        }
                        allowed
                    })
                });
            }
        }
    }
    group.finish();
}

fn adversarial_case<M: Measurement>(group: &mut BenchmarkGroup<'_, M>, case: &Adversarial) {
    let paths: Vec<String> = case.urls.iter().map(|u| path_and_query(u)).collect();
    for contender in Contender::ALL {
        group.bench_function(contender.name(), |b| match contender {
            Contender::Robotrules(profile) => b.iter(|| {
                let robots = parse_robotrules(black_box(&case.bytes), profile);
                count_allowed_robotrules(&robots, &case.agent, &case.urls)
            }),
            Contender::Robotxt => b.iter(|| {
                let robots = parse_robotxt(&case.agent, black_box(&case.bytes));
                count_allowed_robotxt(&robots, &paths)
            }),
            Contender::TextingRobots => b.iter(|| {
                parse_texting(&case.agent, black_box(&case.bytes))
                    .map(|robot| count_allowed_texting(&robot, &case.urls))
            }),
            // One query only: every query parses the whole file again, and on `wildcards` a
            // single query with a longer URL takes seconds (quadratic matcher).
            Contender::Robotstxt => {
                b.iter(|| robotstxt_allowed(black_box(&case.text), &case.agent, &case.urls[0]))
            }
        });
    }
}

fn parse<M: Measurement>(c: &mut Criterion<M>) {
    match corpus::typical() {
        Ok(typical) => parse_group(c, "parse_typical", &[typical], false),
        Err(e) => eprintln!("robotrules-bench: cannot read the typical file: {e}"),
    }
    parse_group(c, "parse_corpus", &committed_corpus(), false);
    if let Some(real) = real_sample() {
        let crawl = corpus::crawl_part(real.clone());
        parse_group(c, "parse_crawl", &crawl, true);
        parse_group(c, "parse_real_sample", &real, true);
    }
}

fn check<M: Measurement>(c: &mut Criterion<M>) {
    match corpus::typical() {
        Ok(typical) => check_group(c, "check_typical", &[typical], UrlSet::OwnPatterns, false),
        Err(e) => eprintln!("robotrules-bench: cannot read the typical file: {e}"),
    }
    if let Some(real) = real_sample() {
        check_group(c, "check_real_sample", &real, UrlSet::OwnPatterns, true);
        check_group(c, "check_crawl_urls", &real, UrlSet::CrawlLike, true);
    }
}

/// What crawlers pay per site: one group per [`Work`], one function per [`Payer`].
fn crawler<M: Measurement>(c: &mut Criterion<M>) {
    let samples = match real_sample() {
        Some(real) => corpus::crawl_part(real),
        None => committed_corpus(),
    };
    let sites = crawler_pays::sites(&samples);
    for work in Work::ALL {
        let mut group = c.benchmark_group(format!("crawler_{}", work.name()));
        group.sample_size(10).sampling_mode(SamplingMode::Flat);
        group.throughput(Throughput::Elements(units(work, &sites) as u64));
        for payer in Payer::ALL {
            if work == Work::CheckAlone {
                let resolved = Resolved::new(payer, &sites);
                group.bench_function(payer.name(), |b| b.iter(|| resolved.check_all(&sites)));
            } else {
                group.bench_function(payer.name(), |b| b.iter(|| pay(payer, work, &sites)));
            }
        }
        group.finish();
    }
}

fn adversarial<M: Measurement>(c: &mut Criterion<M>) {
    for mut case in synthetic::adversarial() {
        if !measuring() {
            // Test mode runs each function once: keep it quick.
            case.urls.truncate(10);
        }
        let mut group = c.benchmark_group(format!("adversarial_{}", case.name));
        group.sample_size(10).sampling_mode(SamplingMode::Flat);
        adversarial_case(&mut group, &case);
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

fn run<M: Measurement>(c: Criterion<M>) {
    let mut c = c.configure_from_args();
    parse(&mut c);
    check(&mut c);
    crawler(&mut c);
    adversarial(&mut c);
    c.final_summary();
}

fn main() {
    if std::env::var(CLOCK_VAR).is_ok_and(|v| v == "cpu") {
        eprintln!("robotrules-bench: timing thread CPU time ({CLOCK_VAR}=cpu)");
        run(config().with_measurement(cpu_clock::ThreadCpuTime));
    } else {
        run(config());
    }
}
