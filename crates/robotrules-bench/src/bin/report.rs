//! Turn the results of `cargo bench -p robotrules-bench --bench compare` into Markdown tables.
//!
//! `cargo run --release -p robotrules-bench --bin report [CRITERION_DIR]` reads criterion's
//! `new/estimates.json` and `new/benchmark.json` under `target/criterion` (or the folder given)
//! and prints the parse, per-check and adversarial tables and the issue's targets, met or not.
//! Times are criterion's median estimates, steadier than the mean on a shared machine.

use std::path::{Path, PathBuf};

use robotrules_bench::contenders::Contender;
use robotrules_bench::synthetic::ADVERSARIAL_CHECKS;

/// Parse throughput target on the real sample, in MB/s (10^6 bytes per second).
const PARSE_TARGET_MB_S: f64 = 400.0;
/// Per-check target on the real sample, in ns.
const CHECK_TARGET_NS: f64 = 100.0;
/// Parse plus 1,000 checks of a 500 KiB file, in ms.
const ADVERSARIAL_TARGET_MS: f64 = 20.0;

const ADVERSARIAL_CASES: [&str; 3] = ["wildcards", "single-line", "10k-groups"];

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

fn parse_table(dir: &Path) {
    println!("\n### Parse throughput (MB/s = 10^6 bytes/s, higher is better)\n");
    println!("| contender | committed corpus + synthetic | real sample |");
    println!("|---|---:|---:|");
    for c in Contender::ALL {
        let corpus = read(dir, "parse_corpus", &c.name()).and_then(Measured::mb_per_s);
        let real = read(dir, "parse_real_sample", &c.name()).and_then(Measured::mb_per_s);
        println!("| {} | {} | {} |", c.name(), cell(corpus, 1), cell(real, 1));
    }
}

fn check_table(dir: &Path) {
    println!(
        "\n### ns per check after parse (lower is better; `robotstxt` parses again per check)\n"
    );
    println!("| contender | typical file | real sample |");
    println!("|---|---:|---:|");
    for c in Contender::ALL {
        let typical = read(dir, "check_typical", &c.name()).and_then(Measured::ns_per_element);
        let real = read(dir, "check_real_sample", &c.name()).and_then(Measured::ns_per_element);
        println!(
            "| {} | {} | {} |",
            c.name(),
            cell(typical, 0),
            cell(real, 0)
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

fn targets(dir: &Path) {
    println!("\n### Targets (issue 2, item 8)\n");
    println!("| profile | parse ≥ {PARSE_TARGET_MB_S} MB/s (real sample) | ≤ {CHECK_TARGET_NS} ns per check (real sample) | any 500 KiB file + 1,000 checks ≤ {ADVERSARIAL_TARGET_MS} ms |");
    println!("|---|---|---|---|");
    for c in Contender::ALL {
        if !matches!(c, Contender::Robotrules(_)) {
            continue;
        }
        let parse = read(dir, "parse_real_sample", &c.name()).and_then(Measured::mb_per_s);
        let check = read(dir, "check_real_sample", &c.name()).and_then(Measured::ns_per_element);
        let worst = ADVERSARIAL_CASES
            .iter()
            .map(|case| read(dir, &format!("adversarial_{case}"), &c.name()))
            .try_fold(0.0f64, |worst, m| m.map(|m| worst.max(m.median_ns / 1e6)));
        println!(
            "| {} | {} ({}) | {} ({}) | {} (worst {} ms) |",
            c.name(),
            verdict(parse.map(|v| v >= PARSE_TARGET_MB_S)),
            cell(parse, 1),
            verdict(check.map(|v| v <= CHECK_TARGET_NS)),
            cell(check, 0),
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
