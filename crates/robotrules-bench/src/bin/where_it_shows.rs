//! Where resolving a crawler shows (issue 26 item 4), on the real sample's crawl files:
//!
//! ```text
//! cargo build --release -p robotrules-cli -p robotrules-bench
//! target/release/where_it_shows [PASSES]            # everything below but the survey end to end
//! target/release/where_it_shows survey [COPIES [PASSES]]
//! target/release/where_it_shows pack COPIES OUT    # the survey's input, for callgrind
//! valgrind --tool=callgrind --toggle-collect='robotrules_bench::where_it_shows::*' \
//!     target/release/where_it_shows once WHAT      # WHAT: one_shot, client, survey
//! ```
//!
//! - `one_shot`: per file, `Robots::parse_with` (`google`) and one `Robots::is_allowed(agent,
//!   url)` (thread CPU time, least of PASSES passes, default 7);
//! - `client`: a fresh `Client`'s first decision for each of 400 origins, each a loopback
//!   HTTP server serving one crawl file (thread CPU time of the client's thread, the servers
//!   on another; and wall time), least of PASSES;
//! - `survey` (in process): `Survey::capture` with the 22 default crawlers over every file of
//!   the real sample, captures in memory (thread CPU time);
//! - `batch`: `robotrules batch` over 1,000 loopback origins, each serving one crawl file, 5
//!   URLs each (user + system CPU seconds of the child, `/usr/bin/time`), least of 3;
//! - `survey` end to end (`survey [COPIES [PASSES]]`): `robotrules survey -o /dev/null` over
//!   the whole real sample packed COPIES times (default 16: 32,960 captures) into one gzipped
//!   WARC file, the 22 default crawlers, CSV rows written: captures per CPU-second (user +
//!   system, `/usr/bin/time`), least of PASSES (default 3);
//! - `pack COPIES OUT`: writes that WARC file to OUT and nothing else (one copy, 2,060
//!   captures, is what `valgrind --tool=callgrind target/release/robotrules survey --threads 1
//!   -o rows.csv OUT` counts the instructions of).
//!
//! The Python `Robots.is_allowed` is timed by `crates/robotrules-python/bench/one_shot.py`.
//! `ROBOTRULES_BIN` overrides the `robotrules` binary's path. Figures are printed, never
//! asserted; they go to `docs/performance.md`.

use std::hint::black_box;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use robotrules::Profile;
use robotrules_bench::cli_run::{binary, robots_servers, workspace};
use robotrules_bench::corpus;
use robotrules_bench::crawler_pays::{sites, Site};
use robotrules_bench::where_it_shows::{
    captures, client_first, one_shot, pack_warc, survey_captures,
};
use robotrules_testserver::http::HttpServer;
use robotrules_testserver::Background;

/// Origins of the client's first decisions.
const CLIENT_ORIGINS: usize = 400;

/// Origins and URLs per origin of the `batch` run.
const BATCH_ORIGINS: usize = 1_000;
const BATCH_URLS_PER_ORIGIN: usize = 5;

fn cpu_now() -> Duration {
    cpu_time::ThreadTime::try_now()
        .map(|t| t.as_duration())
        .unwrap_or_default()
}

/// The least thread CPU time of `passes` runs of `f`.
fn least(passes: usize, mut f: impl FnMut() -> usize) -> Duration {
    (0..passes)
        .map(|_| {
            let start = cpu_now();
            black_box(f());
            cpu_now().saturating_sub(start)
        })
        .min()
        .unwrap_or_default()
}

fn per(took: Duration, units: usize) -> String {
    let seconds = took.as_secs_f64() / units.max(1) as f64;
    if seconds < 1e-6 {
        format!("{:.0} ns", seconds * 1e9)
    } else {
        format!("{:.2} µs", seconds * 1e6)
    }
}

/// The crawl files' sites, or a message when the real sample is missing.
fn crawl_sites() -> Result<Vec<Site>, String> {
    let samples = corpus::crawl_sample()
        .map_err(|e| e.to_string())?
        .ok_or("the real sample is missing (ROBOTRULES_REAL_SAMPLE)")?;
    Ok(sites(&samples))
}

/// One loopback server per site (the first `count`, cycling), and one URL per server: the
/// site's first URL moved to its origin.
fn origins(
    background: &Background,
    sites: &[Site],
    count: usize,
) -> (Vec<HttpServer>, Vec<Vec<String>>) {
    let mut servers = Vec::new();
    let mut urls = Vec::new();
    for site in sites.iter().cycle().take(count) {
        let mut server = robots_servers(background, 1, &site.bytes);
        let server = server.remove(0);
        let base = server.url("");
        let base = base.trim_end_matches('/');
        urls.push(
            site.urls
                .iter()
                .filter_map(|u| u.strip_prefix(robotrules_bench::urls::ORIGIN))
                .map(|path| format!("{base}{path}"))
                .collect(),
        );
        servers.push(server);
    }
    (servers, urls)
}

/// User + system CPU seconds and wall time of the least-CPU of `passes` runs of the
/// `robotrules` binary with `args` (standard input from `input`, output to /dev/null).
fn child_cpu(args: &[&str], input: Option<&Path>, passes: usize) -> (f64, Duration) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let times = dir.path().join("time");
    let mut best = (f64::MAX, Duration::MAX);
    for _ in 0..passes {
        let started = Instant::now();
        let mut command = Command::new("/usr/bin/time");
        command
            .args(["-f", "%U %S", "-o"])
            .arg(&times)
            .arg(binary())
            .args(args)
            .current_dir(workspace())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(input) = input {
            command.stdin(std::fs::File::open(input).unwrap_or_else(|e| panic!("{e}")));
        }
        let status = command
            .status()
            .unwrap_or_else(|e| panic!("/usr/bin/time {}: {e}", binary().display()));
        let wall = started.elapsed();
        let text = std::fs::read_to_string(&times).unwrap_or_default();
        let cpu: f64 = text
            .lines()
            .last()
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|n| n.parse::<f64>().ok())
            .sum();
        if !status.success() && status.code() != Some(1) {
            eprintln!("where_it_shows: {args:?} exited with {status}: {text}");
        }
        if cpu < best.0 {
            best = (cpu, wall);
        }
    }
    best
}

fn survey_end_to_end(copies: usize, passes: usize) -> Result<(), String> {
    let files = sample_files()?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let warc = dir.path().join("sample.warc.gz");
    let records = pack_warc(&files, copies, &warc).map_err(|e| e.to_string())?;
    let size = std::fs::metadata(&warc).map_err(|e| e.to_string())?.len();
    let warc = warc.to_string_lossy().into_owned();
    let (cpu, wall) = child_cpu(&["survey", "-o", "/dev/null", &warc], None, passes);
    println!(
        "survey end to end: {records} captures ({:.1} MB gzipped WARC), 22 crawlers, CSV to /dev/null: {cpu:.2} CPU-s ({:.0} captures per CPU-second), {:.2} s wall",
        size as f64 / 1e6,
        records as f64 / cpu,
        wall.as_secs_f64()
    );
    Ok(())
}

/// Every file of the real sample.
fn sample_files() -> Result<Vec<Vec<u8>>, String> {
    let samples = corpus::real_sample()
        .map_err(|e| e.to_string())?
        .ok_or("the real sample is missing (ROBOTRULES_REAL_SAMPLE)")?;
    Ok(samples.into_iter().map(|s| s.bytes).collect())
}

/// Writes the real sample packed `copies` times to `out`, as `survey` reads it.
fn pack(copies: usize, out: &Path) -> Result<(), String> {
    let files = sample_files()?;
    let records = pack_warc(&files, copies, out).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{records} captures written to {}", out.display());
    Ok(())
}

fn run(args: &[String]) -> Result<(), String> {
    let number = |i: usize, default: usize| -> Result<usize, String> {
        args.get(i).map_or(Ok(default), |a| {
            a.parse().map_err(|_| format!("not a number: {a}"))
        })
    };
    match args.first().map(String::as_str) {
        Some("survey") => return survey_end_to_end(number(1, 16)?, number(2, 3)?),
        Some("once") => return once(args.get(1).map_or("", String::as_str)),
        Some("pack") => {
            let out = args
                .get(2)
                .ok_or("pack COPIES OUT: where to write the WARC file")?;
            return pack(number(1, 1)?, Path::new(out));
        }
        _ => {}
    }
    let passes = number(0, 7)?;
    let sites = crawl_sites()?;

    let took = least(passes, || one_shot(&sites));
    println!(
        "one-shot Robots::is_allowed (parse + resolve + check), {} files: {} per file",
        sites.len(),
        per(took, sites.len())
    );

    let (survey, all) = survey_of_the_sample()?;
    let in_memory = captures(&all);
    let took = least(passes, || survey_captures(&survey, &in_memory));
    println!(
        "survey per capture in process (parse + 22 crawlers), {} captures: {} per capture ({:.0} captures per CPU-second)",
        in_memory.len(),
        per(took, in_memory.len()),
        in_memory.len() as f64 / took.as_secs_f64()
    );

    let background = Background::new().map_err(|e| e.to_string())?;
    let (servers, urls) = origins(&background, &sites, CLIENT_ORIGINS);
    let first: Vec<String> = urls.iter().filter_map(|u| u.first().cloned()).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let mut wall = Duration::MAX;
    let mut answers = (0, 0);
    let took = least(passes, || {
        let started = Instant::now();
        answers = runtime.block_on(client_first(&first));
        wall = wall.min(started.elapsed());
        answers.0
    });
    println!(
        "client's first decision per origin ({} origins, loopback; {} answered, {} allowed): {} CPU, {} wall",
        first.len(),
        answers.0,
        answers.1,
        per(took, first.len()),
        per(wall, first.len())
    );
    drop(servers);

    if binary().exists() {
        let (servers, urls) = origins(&background, &sites, BATCH_ORIGINS);
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let list = dir.path().join("urls.txt");
        let mut text = String::new();
        // Origin by origin in turn, so that each origin's first URL comes early.
        for round in 0..BATCH_URLS_PER_ORIGIN {
            for site in &urls {
                if let Some(url) = site.get(round).or(site.first()) {
                    text.push_str(url);
                    text.push('\n');
                }
            }
        }
        std::fs::write(&list, text).map_err(|e| e.to_string())?;
        let (cpu, wall) = child_cpu(&["batch", "--timeout", "10", "Googlebot"], Some(&list), 3);
        println!(
            "batch over {BATCH_ORIGINS} origins, {} URLs: {cpu:.3} CPU-s ({:.1} µs per origin), {:.3} s wall",
            BATCH_ORIGINS * BATCH_URLS_PER_ORIGIN,
            cpu * 1e6 / BATCH_ORIGINS as f64,
            wall.as_secs_f64()
        );
        drop(servers);
    } else {
        println!("batch: skipped, {} is not built", binary().display());
    }
    Ok(())
}

/// The survey of the default crawlers under `google`, and every file of the real sample.
fn survey_of_the_sample() -> Result<(robotrules_survey::Survey, Vec<Vec<u8>>), String> {
    let all = corpus::real_sample()
        .map_err(|e| e.to_string())?
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.bytes)
        .collect();
    let survey = robotrules_survey::Survey::new(
        robotrules_survey::default_agents(),
        Profile::Google,
        robotrules::DEFAULT_PARSE_LIMIT,
    )
    .map_err(|e| e.to_string())?;
    Ok((survey, all))
}

/// One pass of `what`, for a profiler.
fn once(what: &str) -> Result<(), String> {
    let sites = crawl_sites()?;
    match what {
        "one_shot" => {
            black_box(one_shot(&sites));
        }
        "survey" => {
            let (survey, all) = survey_of_the_sample()?;
            black_box(survey_captures(&survey, &captures(&all)));
        }
        "client" => {
            let background = Background::new().map_err(|e| e.to_string())?;
            let (_servers, urls) = origins(&background, &sites, CLIENT_ORIGINS);
            let first: Vec<String> = urls.iter().filter_map(|u| u.first().cloned()).collect();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            black_box(runtime.block_on(client_first(&first)));
        }
        other => return Err(format!("unknown work {other:?}: one_shot, client, survey")),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("where_it_shows: {e}");
            ExitCode::from(2)
        }
    }
}
