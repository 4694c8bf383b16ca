//! The site-owner commands on their worst cases ([`robotrules_bench::site_owner`]): writes the
//! files to a temporary directory, runs each command with the release `robotrules`
//! (`cargo build --release -p robotrules-cli` first; `$ROBOTRULES_BIN` for another binary)
//! `ROUNDS` times (default 5), and prints a Markdown table: the least wall time of a run, and
//! the CPU time (user + system) of the runs over their number, against the 100 ms bound.
//!
//! `site_owner [ROUNDS] [CASE-SUBSTRING]`. A run that takes longer than 120 s is stopped and
//! shown as such.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use robotrules_bench::cli_run::{binary, spawn};
use robotrules_bench::site_owner::{files, CASES};

/// The bound every row is measured against.
const BOUND: Duration = Duration::from_millis(100);

/// A run longer than this is stopped.
const STOP: Duration = Duration::from_secs(120);

/// The CPU time this process's waited-for children have used: `/proc/self/stat` fields 16
/// and 17 (`cutime`, `cstime`), in ticks of 1/100 s.
fn children_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rfind(')').map_or("", |at| &stat[at + 2..]);
    let field = |i: usize| {
        rest.split(' ')
            .nth(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or_default()
    };
    Duration::from_millis((field(13) + field(14)) * 10)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: u32 = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let only = args.next();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("a temporary directory: {e}"));
    for file in files() {
        std::fs::write(dir.path().join(file.name), &file.bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", file.name));
        println!(
            "- `{}`: {} ({} bytes)",
            file.name,
            file.what,
            file.bytes.len()
        );
    }
    println!();
    println!("| command | least wall time | CPU per run | within 100 ms |");
    println!("|---|---:|---:|---|");
    for case in CASES {
        if only.as_deref().is_some_and(|o| !case.name.contains(o)) {
            continue;
        }
        let mut least = Duration::MAX;
        let cpu_before = children_cpu();
        let mut stopped = false;
        for _ in 0..rounds {
            let started = Instant::now();
            let mut child = spawn(
                Command::new(binary())
                    .args(["--color", "never"])
                    .args(case.args)
                    .current_dir(dir.path())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null()),
            );
            loop {
                match child.try_wait() {
                    Ok(Some(_)) => break,
                    Ok(None) if started.elapsed() > STOP => {
                        let _ = child.kill();
                        let _ = child.wait();
                        stopped = true;
                        break;
                    }
                    Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                    Err(e) => panic!("{e}"),
                }
            }
            least = least.min(started.elapsed());
            if stopped {
                break;
            }
        }
        let cpu = (children_cpu() - cpu_before) / rounds;
        let verdict = if stopped {
            format!("**missed**: stopped after {} s", STOP.as_secs())
        } else if least <= BOUND {
            "met".to_owned()
        } else {
            "**missed**".to_owned()
        };
        println!(
            "| `robotrules {}` | {:.1} ms | {:.0} ms | {verdict} |",
            case.args.join(" "),
            least.as_secs_f64() * 1e3,
            cpu.as_secs_f64() * 1e3,
        );
    }
}
