//! robotrules side by side with `texting_robots` and `robotstxt`, in one run.
//!
//! `cargo bench -p robotrules-bench --bench compare` measures, in criterion groups holding one
//! function per implementation (see `robotrules_bench::contenders`):
//!
//! - `parse_corpus`, `parse_real_sample`: bytes to a ready-to-query value, in bytes/s;
//! - `check_typical`, `check_real_sample`: `is_allowed` after parse over the fixed URLs of
//!   each file, in checks/s (`robotstxt` parses again for every check);
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
    count_allowed_robotrules, count_allowed_robotstxt, count_allowed_texting, panics,
    parse_robotrules, parse_texting, robotstxt_allowed, Contender, AGENT,
};
use robotrules_bench::corpus::{self, Sample};
use robotrules_bench::synthetic::{self, Adversarial};
use robotrules_bench::urls::urls_for;

mod cpu_clock;

/// The environment variable that selects the clock: `cpu` for thread CPU time, else wall time.
const CLOCK_VAR: &str = "ROBOTRULES_BENCH_CLOCK";

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

fn bytes_of(samples: &[&Sample]) -> u64 {
    samples.iter().map(|s| s.bytes.len() as u64).sum()
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
        group.throughput(Throughput::Bytes(bytes_of(set)));
        group.bench_function(contender.name(), |b| match contender {
            Contender::Robotrules(profile) => b.iter(|| {
                for s in set {
                    black_box(parse_robotrules(black_box(&s.bytes), profile));
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
    group.finish();
}

/// Checks of every file's fixed URLs against the already parsed file.
fn check_group<M: Measurement>(c: &mut Criterion<M>, name: &str, samples: &[Sample], slow: bool) {
    let urls: Vec<Vec<String>> = samples.iter().map(|s| urls_for(&s.bytes)).collect();
    let checks = urls.iter().map(Vec::len).sum::<usize>() as u64;
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(checks));
    for contender in Contender::ALL {
        match contender {
            Contender::Robotrules(profile) => {
                let parsed: Vec<Robots> = samples
                    .iter()
                    .map(|s| parse_robotrules(&s.bytes, profile))
                    .collect();
                let rules: Vec<_> = parsed.iter().map(|r| r.agent(AGENT).ok()).collect();
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
                let kept_urls: Vec<Vec<String>> = kept.iter().map(|s| urls_for(&s.bytes)).collect();
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
    for contender in Contender::ALL {
        group.bench_function(contender.name(), |b| match contender {
            Contender::Robotrules(profile) => b.iter(|| {
                let robots = parse_robotrules(black_box(&case.bytes), profile);
                count_allowed_robotrules(&robots, &case.agent, &case.urls)
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
    parse_group(c, "parse_corpus", &committed_corpus(), false);
    if let Some(real) = real_sample() {
        parse_group(c, "parse_real_sample", &real, true);
    }
}

fn check<M: Measurement>(c: &mut Criterion<M>) {
    match corpus::typical() {
        Ok(typical) => check_group(c, "check_typical", &[typical], false),
        Err(e) => eprintln!("robotrules-bench: cannot read the typical file: {e}"),
    }
    if let Some(real) = real_sample() {
        check_group(c, "check_real_sample", &real, true);
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
