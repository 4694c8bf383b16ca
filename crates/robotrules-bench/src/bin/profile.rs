//! A small driver to profile robotrules alone, under `perf` or `valgrind --tool=callgrind`.
//!
//! ```text
//! cargo build --release -p robotrules-bench --bin profile
//! perf record --call-graph dwarf target/release/profile parse rfc9309 20
//! perf report --no-children
//! ```
//!
//! Modes (PROFILE is `rfc9309`, `google` or `legacy1994`; ROUNDS repeats the work):
//!
//! - `parse PROFILE ROUNDS`: parse every file of the real sample (else the committed corpus);
//! - `files PROFILE ROUNDS [NAME]`: parse speed of each committed file and of the synthetic
//!   one (only those whose name contains NAME, when given);
//! - `check PROFILE ROUNDS`: parse once, then ask each file's fixed URLs ROUNDS times;
//! - `adversarial CASE PROFILE ROUNDS`: parse the generated case (`wildcards`, `single-line`,
//!   `10k-groups`) and ask its 1,000 URLs, ROUNDS times.
//!
//! It prints what it did and how long it took; the profiler says where the time went.

use std::process::ExitCode;
use std::time::Instant;

use robotrules::Profile;
use robotrules_bench::contenders::{count_allowed_robotrules, parse_robotrules, AGENT};
use robotrules_bench::corpus::{self, Sample};
use robotrules_bench::synthetic;
use robotrules_bench::urls::urls_for;

const USAGE: &str =
    "usage: profile parse|files|check PROFILE ROUNDS | profile adversarial CASE PROFILE ROUNDS";

fn samples() -> Vec<Sample> {
    match corpus::real_sample() {
        Ok(Some(real)) => real,
        _ => corpus::committed().unwrap_or_default(),
    }
}

fn parse_args(profile: Option<&String>, rounds: Option<&String>) -> Option<(Profile, usize)> {
    let profile = profile?.parse().ok()?;
    let rounds = rounds.map_or(Some(1), |r| r.parse().ok())?;
    Some((profile, rounds))
}

fn run(args: &[String]) -> Option<String> {
    let start = Instant::now();
    let done = match args.first().map(String::as_str)? {
        "parse" => {
            let (profile, rounds) = parse_args(args.get(1), args.get(2))?;
            let samples = samples();
            let start = Instant::now();
            let mut groups = 0usize;
            for _ in 0..rounds {
                for s in &samples {
                    groups += parse_robotrules(&s.bytes, profile).model().groups().len();
                }
            }
            let bytes = corpus::total_bytes(&samples) as f64 * rounds as f64;
            format!(
                "parsed {bytes} bytes ({groups} groups) at {:.1} MB/s",
                bytes / start.elapsed().as_secs_f64() / 1e6
            )
        }
        "files" => {
            let (profile, rounds) = parse_args(args.get(1), args.get(2))?;
            let mut samples = corpus::committed().unwrap_or_default();
            samples.push(Sample::new(
                "synthetic-realistic-64k",
                synthetic::realistic(synthetic::REALISTIC_SIZE, 1),
            ));
            let only = args.get(3).map_or("", String::as_str);
            for s in samples.iter().filter(|s| s.name.contains(only)) {
                let start = Instant::now();
                for _ in 0..rounds {
                    std::hint::black_box(parse_robotrules(&s.bytes, profile));
                }
                let mb_s = (s.bytes.len() * rounds) as f64 / start.elapsed().as_secs_f64() / 1e6;
                println!("{mb_s:8.1} MB/s {:>7} bytes {}", s.bytes.len(), s.name);
            }
            format!("{} files", samples.len())
        }
        "check" => {
            let (profile, rounds) = parse_args(args.get(1), args.get(2))?;
            let samples = samples();
            let parsed: Vec<_> = samples
                .iter()
                .map(|s| (parse_robotrules(&s.bytes, profile), urls_for(&s.bytes)))
                .collect();
            let start = Instant::now();
            let (mut checks, mut allowed) = (0usize, 0usize);
            for _ in 0..rounds {
                for (robots, urls) in &parsed {
                    allowed += count_allowed_robotrules(robots, AGENT, urls);
                    checks += urls.len();
                }
            }
            format!(
                "{checks} checks ({allowed} allowed) at {:.0} ns per check",
                start.elapsed().as_nanos() as f64 / checks.max(1) as f64
            )
        }
        "adversarial" => {
            let name = args.get(1)?;
            let (profile, rounds) = parse_args(args.get(2), args.get(3))?;
            let case = synthetic::adversarial()
                .into_iter()
                .find(|c| c.name == name)?;
            let start = Instant::now();
            let mut allowed = 0usize;
            for _ in 0..rounds {
                let robots = parse_robotrules(&case.bytes, profile);
                allowed += count_allowed_robotrules(&robots, &case.agent, &case.urls);
            }
            format!(
                "{rounds} x (parse + {} checks) ({allowed} allowed) at {:.2} ms each",
                case.urls.len(),
                start.elapsed().as_secs_f64() * 1e3 / rounds.max(1) as f64
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
