//! A small driver to profile robotrules alone, under `perf` or `valgrind --tool=callgrind`, and
//! to take quick readings between bench runs.
//!
//! ```text
//! cargo build --release -p robotrules-bench --bin profile
//! perf record --call-graph dwarf target/release/profile parse rfc9309 20
//! perf report --no-children
//! ```
//!
//! Modes (PROFILE is `rfc9309`, `google`, `legacy1994`, or `robotxt` for the peer where the
//! mode allows it; ROUNDS repeats the work):
//!
//! - `parse PROFILE ROUNDS`: parse every file of the real sample (else the committed corpus),
//!   counting the bytes up to the parse limit;
//! - `crawl PROFILE ROUNDS`: the same over the real sample's files of at most 16 KiB;
//! - `typical PROFILE ROUNDS`: parse the 712-byte typical file, time per parse;
//! - `linescan ROUNDS`: one `memchr` pass for line ends over the real sample (the limit);
//! - `files PROFILE ROUNDS [NAME]`: parse speed of each committed file and of the synthetic
//!   one (only those whose name contains NAME, when given);
//! - `check PROFILE ROUNDS [crawl]`: parse once, then ask each file's own-pattern URLs (or the
//!   crawl-like URLs) ROUNDS times;
//! - `adversarial CASE PROFILE ROUNDS`: parse the generated case (`wildcards`, `single-line`,
//!   `10k-groups`, `star-first`) and ask its 1,000 URLs, ROUNDS times;
//! - `usage PROFILE ROUNDS`: the AI usage preferences (`Crawler::usage`) of `GPTBot` and
//!   `Googlebot` in `examples/ai-preferences.txt`, for its own paths and a few others, ROUNDS
//!   times (what the tester's `check` adds per URL and profile when a file has usage lines).
//!
//! It prints what it did, the wall time and the thread's CPU time (which leaves out the time
//! spent waiting for a core on a shared machine), each the least of seven repetitions; the
//! profiler says where the time went.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use robotrules::Profile;
use robotrules_bench::contenders::{
    count_allowed_robotrules, count_allowed_robotxt, line_scan, parse_robotrules, parse_robotxt,
    path_and_query, Contender, AGENT,
};
use robotrules_bench::corpus::{self, Sample};
use robotrules_bench::synthetic;
use robotrules_bench::urls::{crawl_urls_for, urls_for};

const USAGE: &str = "usage: profile parse|crawl|typical|files|check PROFILE ROUNDS [crawl|NAME] | profile linescan ROUNDS | profile adversarial CASE PROFILE ROUNDS";

/// robotrules in a profile, or the `robotxt` peer.
#[derive(Clone, Copy)]
enum Who {
    Robotrules(Profile),
    Robotxt,
}

impl Who {
    fn contender(self) -> Contender {
        match self {
            Who::Robotrules(p) => Contender::Robotrules(p),
            Who::Robotxt => Contender::Robotxt,
        }
    }

    fn parse(self, bytes: &[u8]) -> usize {
        match self {
            Who::Robotrules(p) => black_box(parse_robotrules(bytes, p)).bytes_read(),
            Who::Robotxt => black_box(parse_robotxt(AGENT, bytes)).rules().len(),
        }
    }
}

fn samples() -> Vec<Sample> {
    match corpus::real_sample() {
        Ok(Some(real)) => real,
        _ => corpus::committed().unwrap_or_default(),
    }
}

fn parse_args(who: Option<&String>, rounds: Option<&String>) -> Option<(Who, usize)> {
    let who = match who?.as_str() {
        "robotxt" => Who::Robotxt,
        name => Who::Robotrules(name.parse().ok()?),
    };
    let rounds = rounds.map_or(Some(1), |r| r.parse().ok())?;
    Some((who, rounds))
}

fn cpu_now() -> Duration {
    cpu_time::ThreadTime::try_now()
        .map(|t| t.as_duration())
        .unwrap_or_default()
}

/// How many times each measurement is repeated; the fastest repetition is reported, the one
/// least disturbed by other processes on a shared machine.
const REPEAT: usize = 7;

/// Wall and CPU time of `f`: the least of [`REPEAT`] runs of each.
fn timed<T>(mut f: impl FnMut() -> T) -> (T, f64, f64) {
    let (mut best_wall, mut best_cpu) = (f64::MAX, f64::MAX);
    let mut out = None;
    for _ in 0..REPEAT {
        let (wall, cpu) = (Instant::now(), cpu_now());
        out = Some(f());
        let cpu = cpu_now().saturating_sub(cpu).as_secs_f64();
        best_wall = best_wall.min(wall.elapsed().as_secs_f64());
        best_cpu = best_cpu.min(cpu);
    }
    match out {
        Some(out) => (out, best_wall, best_cpu),
        None => (f(), best_wall, best_cpu),
    }
}

fn parse_set(who: Who, rounds: usize, samples: &[Sample]) -> String {
    let (groups, wall, cpu) = timed(|| {
        let mut groups = 0usize;
        for _ in 0..rounds {
            for s in samples {
                groups += who.parse(&s.bytes);
            }
        }
        groups
    });
    let bytes: usize = samples
        .iter()
        .map(|s| who.contender().parsed_bytes(s.bytes.len()))
        .sum();
    let total = bytes as f64 * rounds as f64;
    format!(
        "parsed {} files, {bytes} bytes, {rounds} times ({groups} groups or rules): {:.1} MB/s cpu, {:.1} MB/s wall",
        samples.len(),
        total / cpu / 1e6,
        total / wall / 1e6
    )
}

fn run(args: &[String]) -> Option<String> {
    let start = Instant::now();
    let done = match args.first().map(String::as_str)? {
        "parse" => {
            let (who, rounds) = parse_args(args.get(1), args.get(2))?;
            parse_set(who, rounds, &samples())
        }
        "crawl" => {
            let (who, rounds) = parse_args(args.get(1), args.get(2))?;
            parse_set(who, rounds, &corpus::crawl_part(samples()))
        }
        "linescan" => {
            let rounds: usize = args.get(1).and_then(|r| r.parse().ok())?;
            let samples = samples();
            let cut: Vec<&[u8]> = samples
                .iter()
                .map(|s| &s.bytes[..s.bytes.len().min(robotrules::DEFAULT_PARSE_LIMIT)])
                .collect();
            let (lines, wall, cpu) = timed(|| {
                let mut lines = 0;
                for _ in 0..rounds {
                    lines += cut.iter().map(|b| line_scan(black_box(b))).sum::<usize>();
                }
                lines
            });
            let total = cut.iter().map(|b| b.len()).sum::<usize>() as f64 * rounds as f64;
            format!(
                "memchr line scan, {lines} lines: {:.1} MB/s cpu, {:.1} MB/s wall",
                total / cpu / 1e6,
                total / wall / 1e6
            )
        }
        "typical" => {
            let (who, rounds) = parse_args(args.get(1), args.get(2))?;
            let typical = corpus::typical().ok()?;
            let (_, wall, cpu) = timed(|| {
                for _ in 0..rounds {
                    who.parse(&typical.bytes);
                }
            });
            format!(
                "parsed the {}-byte typical file {rounds} times: {:.0} ns cpu, {:.0} ns wall per parse",
                typical.bytes.len(),
                cpu * 1e9 / rounds as f64,
                wall * 1e9 / rounds as f64
            )
        }
        "files" => {
            let (who, rounds) = parse_args(args.get(1), args.get(2))?;
            let mut samples = corpus::committed().unwrap_or_default();
            samples.push(Sample::new(
                "synthetic-realistic-64k",
                synthetic::realistic(synthetic::REALISTIC_SIZE, 1),
            ));
            let only = args.get(3).map_or("", String::as_str);
            for s in samples.iter().filter(|s| s.name.contains(only)) {
                let (_, _, cpu) = timed(|| {
                    for _ in 0..rounds {
                        who.parse(&s.bytes);
                    }
                });
                let mb_s = (s.bytes.len() * rounds) as f64 / cpu / 1e6;
                println!("{mb_s:8.1} MB/s cpu {:>7} bytes {}", s.bytes.len(), s.name);
            }
            format!("{} files", samples.len())
        }
        "check" => {
            let (who, rounds) = parse_args(args.get(1), args.get(2))?;
            let crawl = args.get(3).is_some_and(|a| a == "crawl");
            let samples = samples();
            let urls: Vec<Vec<String>> = samples
                .iter()
                .map(|s| {
                    if crawl {
                        crawl_urls_for(&s.bytes)
                    } else {
                        urls_for(&s.bytes)
                    }
                })
                .collect();
            let checks = urls.iter().map(Vec::len).sum::<usize>() * rounds;
            let (allowed, wall, cpu) = match who {
                Who::Robotrules(profile) => {
                    let parsed: Vec<_> = samples
                        .iter()
                        .map(|s| parse_robotrules(&s.bytes, profile))
                        .collect();
                    let rules: Vec<_> = parsed.iter().map(|r| r.crawler(AGENT).ok()).collect();
                    timed(|| {
                        let mut allowed = 0usize;
                        for _ in 0..rounds {
                            for (rules, urls) in rules.iter().zip(&urls) {
                                let Some(rules) = rules else { continue };
                                for url in urls {
                                    allowed +=
                                        usize::from(rules.is_allowed(black_box(url)) == Ok(true));
                                }
                            }
                        }
                        allowed
                    })
                }
                Who::Robotxt => {
                    let parsed: Vec<_> = samples
                        .iter()
                        .map(|s| parse_robotxt(AGENT, &s.bytes))
                        .collect();
                    let paths: Vec<Vec<String>> = urls
                        .iter()
                        .map(|u| u.iter().map(|u| path_and_query(u)).collect())
                        .collect();
                    timed(|| {
                        let mut allowed = 0usize;
                        for _ in 0..rounds {
                            for (robots, paths) in parsed.iter().zip(&paths) {
                                allowed += count_allowed_robotxt(robots, paths);
                            }
                        }
                        allowed
                    })
                }
            };
            format!(
                "{checks} checks ({allowed} allowed): {:.1} ns cpu, {:.1} ns wall per check",
                cpu * 1e9 / checks.max(1) as f64,
                wall * 1e9 / checks.max(1) as f64
            )
        }
        "adversarial" => {
            let name = args.get(1)?;
            let (who, rounds) = parse_args(args.get(2), args.get(3))?;
            let case = synthetic::adversarial()
                .into_iter()
                .find(|c| c.name == name)?;
            let paths: Vec<String> = case.urls.iter().map(|u| path_and_query(u)).collect();
            let (allowed, wall, cpu) = timed(|| {
                let mut allowed = 0usize;
                for _ in 0..rounds {
                    allowed += match who {
                        Who::Robotrules(profile) => {
                            let robots = parse_robotrules(&case.bytes, profile);
                            count_allowed_robotrules(&robots, &case.agent, &case.urls)
                        }
                        Who::Robotxt => {
                            count_allowed_robotxt(&parse_robotxt(&case.agent, &case.bytes), &paths)
                        }
                    };
                }
                allowed
            });
            format!(
                "{rounds} x (parse + {} checks) ({allowed} allowed): {:.2} ms cpu, {:.2} ms wall each",
                case.urls.len(),
                cpu * 1e3 / rounds.max(1) as f64,
                wall * 1e3 / rounds.max(1) as f64
            )
        }
        "usage" => {
            let (who, rounds) = parse_args(args.get(1), args.get(2))?;
            let Who::Robotrules(profile) = who else {
                return None;
            };
            let bytes = std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../examples/ai-preferences.txt"
            ))
            .ok()?;
            let robots = parse_robotrules(&bytes, profile);
            let crawlers: Vec<_> = ["GPTBot", "Googlebot"]
                .iter()
                .filter_map(|agent| robots.crawler(agent).ok())
                .collect();
            let mut urls = urls_for(&bytes);
            urls.extend(
                [
                    "/",
                    "/blog/post",
                    "/news/today",
                    "/archive/2020/x",
                    "/private/a",
                ]
                .map(|p| format!("https://example.com{p}")),
            );
            let asked = crawlers.len() * urls.len() * rounds;
            let (crawlable, wall, cpu) = timed(|| {
                let mut crawlable = 0usize;
                for _ in 0..rounds {
                    for crawler in &crawlers {
                        for url in &urls {
                            crawlable += crawler
                                .usage(black_box(url))
                                .map_or(0, |u| usize::from(u.crawlable));
                        }
                    }
                }
                crawlable
            });
            format!(
                "{asked} usage answers ({crawlable} crawlable): {:.0} ns cpu, {:.0} ns wall each",
                cpu * 1e9 / asked.max(1) as f64,
                wall * 1e9 / asked.max(1) as f64
            )
        }
        _ => return None,
    };
    Some(format!(
        "{done}; {:.2} s in all",
        start.elapsed().as_secs_f64()
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Some(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
