//! Turn the results of `cargo bench -p robotrules-bench --bench compare` into Markdown tables.
//!
//! `cargo run --release -p robotrules-bench --bin report [CRITERION_DIR]` reads criterion's
//! `new/estimates.json` and `new/benchmark.json` under `target/criterion` (or the folder given)
//! and prints the parse, per-check and adversarial tables and issue 11's targets, met or not.
//! Times are criterion's median estimates, steadier than the mean on a shared machine.

use std::path::{Path, PathBuf};

use robotrules_bench::contenders::Contender;
use robotrules_bench::synthetic::ADVERSARIAL_CHECKS;

/// Parse throughput on the files of at most 16 KiB, as a multiple of `robotxt`'s (issue 11).
const CRAWL_PARSE_FACTOR: f64 = 2.5;
/// Parse throughput target on the whole real sample, in MB/s (10^6 bytes per second).
const PARSE_TARGET_MB_S: f64 = 1000.0;
/// Time to parse the 712-byte typical file, in µs.
const TYPICAL_PARSE_TARGET_US: f64 = 1.5;
/// Per-check targets on the real sample, in ns, per profile (none for `legacy1994`).
const CHECK_TARGET_NS: [(&str, f64); 2] =
    [("robotrules-google", 60.0), ("robotrules-rfc9309", 90.0)];
/// How many times faster than `robotxt` a check must be.
const CHECK_FACTOR: f64 = 12.0;
/// Parse plus 1,000 checks of a 500 KiB file, in ms.
const ADVERSARIAL_TARGET_MS: f64 = 5.0;

const ADVERSARIAL_CASES: [&str; 4] = ["wildcards", "single-line", "10k-groups", "star-first"];

/// The check groups over the real sample: own-pattern URLs and crawl-like URLs.
const CHECK_GROUPS: [&str; 2] = ["check_real_sample", "check_crawl_urls"];

/// The limit measured beside the contenders in the parse groups.
const LINE_SCAN: &str = "memchr-line-scan";

/// One measured function.
#[derive(Clone, Copy, Debug)]
struct Measured {
    /// Median time per iteration, ns.
    median_ns: f64,
    /// Bytes or elements per iteration, when declared.
    bytes: Option<f64>,
    elements: Option<f64>,
}

impl Measured {
    fn mb_per_s(self) -> Option<f64> {
        self.bytes.map(|b| b / self.median_ns * 1e3)
    }

    fn ns_per_element(self) -> Option<f64> {
        self.elements.map(|e| self.median_ns / e)
    }
}

fn read(dir: &Path, group: &str, function: &str) -> Option<Measured> {
    let base = dir.join(group).join(function).join("new");
    let json = |name: &str| -> Option<serde_json::Value> {
        let text = std::fs::read_to_string(base.join(name)).ok()?;
        serde_json::from_str(&text).ok()
    };
    let estimates = json("estimates.json")?;
    let benchmark = json("benchmark.json")?;
    let throughput = &benchmark["throughput"];
    Some(Measured {
        median_ns: estimates["median"]["point_estimate"].as_f64()?,
        bytes: throughput["Bytes"].as_f64(),
        elements: throughput["Elements"].as_f64(),
    })
}

fn cell(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "–".to_owned(), |v| format!("{v:.digits$}"))
}

fn verdict(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "**missed**",
        None => "not measured",
    }
}

/// Every row name of the parse table: the contenders, then the line-scan limit.
fn parse_rows() -> Vec<String> {
    let mut rows: Vec<String> = Contender::ALL.iter().map(|c| c.name()).collect();
    rows.push(LINE_SCAN.to_owned());
    rows
}

fn parse_table(dir: &Path) {
    println!("\n### Parse (higher MB/s is better; MB/s = 10^6 bytes/s of the bytes each reads)\n");
    println!("| contender | typical file (712 B), µs per parse | committed corpus + synthetic, MB/s | files ≤ 16 KiB, MB/s | whole real sample, MB/s |");
    println!("|---|---:|---:|---:|---:|");
    for name in parse_rows() {
        let typical = read(dir, "parse_typical", &name).map(|m| m.median_ns / 1e3);
        let corpus = read(dir, "parse_corpus", &name).and_then(Measured::mb_per_s);
        let crawl = read(dir, "parse_crawl", &name).and_then(Measured::mb_per_s);
        let real = read(dir, "parse_real_sample", &name).and_then(Measured::mb_per_s);
        println!(
            "| {name} | {} | {} | {} | {} |",
            cell(typical, 2),
            cell(corpus, 1),
            cell(crawl, 1),
            cell(real, 1)
        );
    }
}

fn check_table(dir: &Path) {
    println!(
        "\n### ns per check after parse (lower is better; `robotstxt` parses again per check)\n"
    );
    println!("| contender | typical file | real sample, own-pattern URLs | real sample, crawl-like URLs |");
    println!("|---|---:|---:|---:|");
    for c in Contender::ALL {
        let typical = read(dir, "check_typical", &c.name()).and_then(Measured::ns_per_element);
        let cells: Vec<String> = CHECK_GROUPS
            .iter()
            .map(|g| {
                cell(
                    read(dir, g, &c.name()).and_then(Measured::ns_per_element),
                    0,
                )
            })
            .collect();
        println!(
            "| {} | {} | {} |",
            c.name(),
            cell(typical, 0),
            cells.join(" | ")
        );
    }
}

fn adversarial_table(dir: &Path) {
    println!(
        "\n### Adversarial: parse + {ADVERSARIAL_CHECKS} checks, ms (`robotstxt`: one query, ms)\n"
    );
    println!("| contender | {} |", ADVERSARIAL_CASES.join(" | "));
    println!("|---|{}", "---:|".repeat(ADVERSARIAL_CASES.len()));
    for c in Contender::ALL {
        let cells: Vec<String> = ADVERSARIAL_CASES
            .iter()
            .map(|case| {
                let ms =
                    read(dir, &format!("adversarial_{case}"), &c.name()).map(|m| m.median_ns / 1e6);
                cell(ms, 2)
            })
            .collect();
        println!("| {} | {} |", c.name(), cells.join(" | "));
    }
}

/// `robotxt`'s figure in a group, by `value`.
fn robotxt(dir: &Path, group: &str, value: fn(Measured) -> Option<f64>) -> Option<f64> {
    read(dir, group, &Contender::Robotxt.name()).and_then(value)
}

fn targets(dir: &Path) {
    println!("\n### Targets (issue 11)\n");
    println!("| profile | parse ≥ {CRAWL_PARSE_FACTOR}× robotxt (files ≤ 16 KiB) | parse ≥ {PARSE_TARGET_MB_S} MB/s (real sample) | typical parse ≤ {TYPICAL_PARSE_TARGET_US} µs | check ≤ target ns (own-pattern / crawl-like) | check ≥ {CHECK_FACTOR}× robotxt (own-pattern / crawl-like) | any 500 KiB file + 1,000 checks ≤ {ADVERSARIAL_TARGET_MS} ms |");
    println!("|---|---|---|---|---|---|---|");
    let robotxt_crawl = robotxt(dir, "parse_crawl", Measured::mb_per_s);
    for c in Contender::ALL {
        if !matches!(c, Contender::Robotrules(_)) {
            continue;
        }
        let name = c.name();
        let crawl = read(dir, "parse_crawl", &name).and_then(Measured::mb_per_s);
        let factor = crawl.zip(robotxt_crawl).map(|(a, b)| a / b);
        let parse = read(dir, "parse_real_sample", &name).and_then(Measured::mb_per_s);
        let typical = read(dir, "parse_typical", &name).map(|m| m.median_ns / 1e3);
        let limit = CHECK_TARGET_NS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, ns)| *ns);
        let checks: Vec<Option<f64>> = CHECK_GROUPS
            .iter()
            .map(|g| read(dir, g, &name).and_then(Measured::ns_per_element))
            .collect();
        let factors: Vec<Option<f64>> = CHECK_GROUPS
            .iter()
            .zip(&checks)
            .map(|(g, ns)| {
                robotxt(dir, g, Measured::ns_per_element)
                    .zip(*ns)
                    .map(|(r, ns)| r / ns)
            })
            .collect();
        let check_verdict = match limit {
            Some(limit) => verdict(
                checks
                    .iter()
                    .try_fold(true, |ok, ns| ns.map(|ns| ok && ns <= limit)),
            ),
            None => "no target",
        };
        let worst = ADVERSARIAL_CASES
            .iter()
            .map(|case| read(dir, &format!("adversarial_{case}"), &name))
            .try_fold(0.0f64, |worst, m| m.map(|m| worst.max(m.median_ns / 1e6)));
        println!(
            "| {name} | {} ({}×) | {} ({}) | {} ({} µs) | {} ({} / {} ns) | {} ({}× / {}×) | {} (worst {} ms) |",
            verdict(factor.map(|f| f >= CRAWL_PARSE_FACTOR)),
            cell(factor, 2),
            verdict(parse.map(|v| v >= PARSE_TARGET_MB_S)),
            cell(parse, 1),
            verdict(typical.map(|v| v <= TYPICAL_PARSE_TARGET_US)),
            cell(typical, 2),
            check_verdict,
            cell(checks[0], 0),
            cell(checks[1], 0),
            verdict(
                factors
                    .iter()
                    .try_fold(true, |ok, f| f.map(|f| ok && f >= CHECK_FACTOR))
            ),
            cell(factors[0], 1),
            cell(factors[1], 1),
            verdict(worst.map(|v| v <= ADVERSARIAL_TARGET_MS)),
            cell(worst, 2),
        );
    }
}

fn main() {
    let dir = std::env::args_os().nth(1).map_or_else(
        || {
            std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(
                    || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
                    PathBuf::from,
                )
                .join("criterion")
        },
        PathBuf::from,
    );
    if !dir.is_dir() {
        eprintln!(
            "report: no criterion results in {} (run `cargo bench -p robotrules-bench --bench compare` first)",
            dir.display()
        );
        std::process::exit(2);
    }
    println!("## Results from {}", dir.display());
    parse_table(&dir);
    check_table(&dir);
    adversarial_table(&dir);
    targets(&dir);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_result(dir: &Path, group: &str, function: &str, median_ns: f64, throughput: &str) {
        let new = dir.join(group).join(function).join("new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(
            new.join("estimates.json"),
            format!(
                r#"{{"median":{{"point_estimate":{median_ns}}},"mean":{{"point_estimate":1.0}}}}"#
            ),
        )
        .unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            format!(
                r#"{{"group_id":"{group}","function_id":"{function}","throughput":{throughput}}}"#
            ),
        )
        .unwrap();
    }

    #[test]
    fn rates_come_from_the_median_and_the_declared_throughput() {
        let dir =
            std::env::temp_dir().join(format!("robotrules-report-test-{}", std::process::id()));
        // 2,000,000 bytes in 5 ms: 400 MB/s; 17,133 checks in 3.7693 ms: 220 ns each.
        fake_result(
            &dir,
            "parse_real_sample",
            "robotrules-rfc9309",
            5e6,
            r#"{"Bytes":2000000}"#,
        );
        fake_result(
            &dir,
            "check_real_sample",
            "robotrules-rfc9309",
            3_769_260.0,
            r#"{"Elements":17133}"#,
        );
        let parse = read(&dir, "parse_real_sample", "robotrules-rfc9309").unwrap();
        let check = read(&dir, "check_real_sample", "robotrules-rfc9309").unwrap();
        assert!((parse.mb_per_s().unwrap() - 400.0).abs() < 1e-9);
        assert_eq!(parse.ns_per_element(), None);
        assert!((check.ns_per_element().unwrap() - 220.0).abs() < 1e-9);
        assert!(read(&dir, "parse_real_sample", "robotstxt").is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn verdicts_say_missed_loudly() {
        assert_eq!(verdict(Some(true)), "met");
        assert_eq!(verdict(Some(false)), "**missed**");
        assert_eq!(verdict(None), "not measured");
        assert_eq!(cell(None, 1), "–");
        assert_eq!(cell(Some(445.67), 1), "445.7");
    }
}
