//! What crawlers pay per site (issue 26), side by side with the peers, in one run: a table of
//! per-site (or per-check) CPU time and the ratio of robotrules `google` to the best peer,
//! then one summary line.
//!
//! ```text
//! cargo run --release -p robotrules-bench --bin crawler_pays [PASSES] [all]
//! valgrind --tool=callgrind target/release/crawler_pays once WORK [PAYER [ROUNDS]]
//! ```
//!
//! `once WORK [PAYER [ROUNDS]]` does ROUNDS passes (default one) of WORK (`parse_resolve`,
//! `first_check`, `ten_checks`, `site_checks`, `check_alone`) over the crawl files by one
//! payer alone (robotrules `google` by default, or a name as the table gives it: `robotxt`,
//! `robotrules-rfc9309`, …), for a profiler. Collect `robotrules_bench::crawler_pays::pay`,
//! or for `check_alone` `robotrules_bench::crawler_pays::Resolved::check_all` (the checks
//! without the resolving); two passes less one is the cost of a pass once every crawler has
//! built what it builds lazily.
//!
//! Over the real sample's crawl files (at most 16 KiB; `all`: every file), each asked the
//! crawl-like URLs of `robotrules_bench::urls::site_urls_for`. The work is described in
//! `robotrules_bench::crawler_pays`. Passes go round the contenders in turn; each figure is
//! the least thread CPU time of PASSES passes (default 7), the one least disturbed on a shared
//! machine.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

use robotrules::Profile;
use robotrules_bench::corpus;
use robotrules_bench::crawler_pays::{pay, sites, units, Payer, Resolved, Work};

fn cpu_now() -> Duration {
    cpu_time::ThreadTime::try_now()
        .map(|t| t.as_duration())
        .unwrap_or_default()
}

/// The least CPU seconds of `passes` runs of each payer's `work`, in [`Payer::ALL`] order.
fn measure(work: Work, passes: usize, sites: &[robotrules_bench::crawler_pays::Site]) -> Vec<f64> {
    let resolved: Vec<Option<Resolved>> = Payer::ALL
        .iter()
        .map(|&p| (work == Work::CheckAlone).then(|| Resolved::new(p, sites)))
        .collect();
    let mut best = vec![f64::MAX; Payer::ALL.len()];
    for _ in 0..passes {
        for (i, &payer) in Payer::ALL.iter().enumerate() {
            let start = cpu_now();
            match &resolved[i] {
                Some(r) => black_box(r.check_all(sites)),
                None => black_box(pay(payer, work, sites)),
            };
            best[i] = best[i].min(cpu_now().saturating_sub(start).as_secs_f64());
        }
    }
    best
}

/// A time per unit, in µs or ns.
fn show(seconds: f64) -> String {
    if seconds < 1e-6 {
        format!("{:.0} ns", seconds * 1e9)
    } else {
        format!("{:.1} µs", seconds * 1e6)
    }
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let once = match args.first().map(String::as_str) {
        Some("once") => {
            let work = args.get(1).map(|w| w.parse::<Work>());
            let payer = match args.get(2) {
                None => Some(Payer::Robotrules(Profile::Google)),
                Some(name) => Payer::ALL.into_iter().find(|p| p.name() == *name),
            };
            let rounds = args.get(3).map_or(Some(1), |r| r.parse::<usize>().ok());
            match (work, payer, rounds) {
                (Some(Ok(work)), Some(payer), Some(rounds)) => {
                    args.clear();
                    args.push("1".to_owned());
                    Some((work, payer, rounds))
                }
                _ => {
                    eprintln!("usage: crawler_pays once WORK [PAYER [ROUNDS]]");
                    return ExitCode::from(2);
                }
            }
        }
        _ => None,
    };
    let passes = match args.first().map(|a| a.parse::<usize>()) {
        None => 7,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("usage: crawler_pays [PASSES] [all]");
            return ExitCode::from(2);
        }
    };
    let samples = match corpus::real_sample() {
        Ok(Some(real)) if args.get(1).is_some_and(|a| a == "all") => real,
        Ok(Some(real)) => corpus::crawl_part(real),
        Ok(None) => {
            eprintln!(
                "crawler_pays: no real sample (set {}); the committed corpus instead",
                corpus::REAL_SAMPLE_VAR
            );
            corpus::committed().unwrap_or_default()
        }
        Err(e) => {
            eprintln!("crawler_pays: cannot read the real sample: {e}");
            return ExitCode::FAILURE;
        }
    };
    let sites = sites(&samples);
    if let Some((work, payer, rounds)) = once {
        let resolved = (work == Work::CheckAlone).then(|| Resolved::new(payer, &sites));
        let mut count = 0;
        for _ in 0..rounds {
            count += match &resolved {
                Some(resolved) => resolved.check_all(&sites),
                None => pay(payer, work, &sites),
            };
        }
        println!("{} once by {}: {count}", work.name(), payer.name());
        return ExitCode::SUCCESS;
    }
    let bytes: usize = sites.iter().map(|s| s.bytes.len()).sum();
    let urls: usize = sites.iter().map(|s| s.urls.len()).sum();
    println!(
        "{} files ({:.1} KB on average), {:.1} URLs per site on average; least CPU time of {passes} passes",
        sites.len(),
        bytes as f64 / sites.len().max(1) as f64 / 1e3,
        urls as f64 / sites.len().max(1) as f64
    );
    let mut header = format!("{:<14}", "per site");
    for payer in Payer::ALL {
        header += &format!(" {:>20}", payer.name());
    }
    println!("{header} {:>10} {:>7}", "google/best", "target");
    let google = Payer::ALL
        .iter()
        .position(|&p| p == Payer::Robotrules(Profile::Google))
        .unwrap_or(0);
    let mut summary = Vec::new();
    for work in Work::ALL {
        let n = units(work, &sites).max(1) as f64;
        let times = measure(work, passes, &sites);
        let per: Vec<f64> = times.iter().map(|t| t / n).collect();
        let best_peer = Payer::ALL
            .iter()
            .zip(&per)
            .filter(|(p, _)| Payer::PEERS.contains(p))
            .map(|(_, &t)| t)
            .fold(f64::MAX, f64::min);
        let ratio = best_peer / per[google];
        let mut row = format!("{:<14}", work.name());
        for t in &per {
            row += &format!(" {:>20}", show(*t));
        }
        let target = match work.target_ratio() {
            Some(target) if ratio >= target => format!("{target:.0}x met"),
            Some(target) => format!("{target:.0}x MISSED"),
            None => "none".to_owned(),
        };
        println!("{row} {:>10} {target:>7}", format!("{ratio:.2}x"));
        summary.push(format!("{} {ratio:.2}x", work.name()));
    }
    println!("crawler_pays (google / best peer): {}", summary.join(", "));
    ExitCode::SUCCESS
}
