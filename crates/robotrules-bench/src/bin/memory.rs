//! Memory held per parsed file, measured with a counting global allocator.
//!
//! `cargo run --release -p robotrules-bench --bin memory` parses each file with each contender
//! and prints, as Markdown tables, the heap bytes still live after parse while the parsed
//! value is kept (`held`) and the bytes allocated during the parse (`allocated`). The same
//! allocator counts robotrules and its peers; robotrules' own estimate, `heap_size()`, is
//! printed beside it. robotrules compiles a group's patterns the first time a crawler asks,
//! so it is also measured after asking each file's own-pattern URLs for `Googlebot`
//! (`held after checks`). `robotxt` and `texting_robots` keep one crawler's rules; `robotstxt`
//! keeps nothing: each query parses the body again, so its `held` is 0 and the caller keeps the
//! body.

use cap::Cap;
use robotrules_bench::contenders::{
    panics, parse_robotrules, parse_robotxt, parse_texting, robotstxt_allowed, Contender, AGENT,
};
use robotrules_bench::corpus::{self, Sample};
use robotrules_bench::synthetic;
use robotrules_bench::urls::urls_for;
use std::alloc::System;

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// What one parse cost.
#[derive(Clone, Copy, Debug, Default)]
struct Cost {
    /// Heap bytes live after parse, the value kept.
    held: usize,
    /// Heap bytes allocated while parsing (including what was freed again).
    allocated: usize,
    /// robotrules' `heap_size()` (0 for the peers).
    estimate: usize,
    /// Heap bytes live after the crawler asked its URLs (robotrules compiles lazily).
    after_checks: usize,
}

/// Measure `parse`, keeping its result alive until the counts are taken; `ask` then uses it as
/// a crawler would.
fn measure<T>(
    parse: impl FnOnce() -> T,
    estimate: impl FnOnce(&T) -> usize,
    ask: impl FnOnce(&T),
) -> Cost {
    let live = ALLOCATOR.allocated();
    let total = ALLOCATOR.total_allocated();
    let value = parse();
    let held = ALLOCATOR.allocated().saturating_sub(live);
    let allocated = ALLOCATOR.total_allocated().saturating_sub(total);
    let estimate = estimate(&value);
    ask(&value);
    let after_checks = ALLOCATOR.allocated().saturating_sub(live);
    drop(value);
    Cost {
        held,
        allocated,
        estimate,
        after_checks,
    }
}

fn cost(contender: Contender, agent: &str, sample: &Sample) -> Cost {
    let urls = urls_for(&sample.bytes);
    match contender {
        Contender::Robotrules(profile) => {
            // The thread's scratch vectors grow to this file first, so that the figure is the
            // value's own (the scratch is measured once, in `scratch_retained`).
            drop(parse_robotrules(&sample.bytes, profile));
            robotrules_cost(profile, agent, sample, &urls)
        }
        Contender::Robotxt => measure(|| parse_robotxt(agent, &sample.bytes), |_| 0, |_| ()),
        Contender::TextingRobots => measure(|| parse_texting(agent, &sample.bytes), |_| 0, |_| ()),
        Contender::Robotstxt => measure(
            || robotstxt_allowed(&sample.text, agent, "/"),
            |_| 0,
            |_| (),
        ),
    }
}

/// What a robotrules parse of `sample` holds, and holds after `agent` asked `urls`.
fn robotrules_cost(
    profile: robotrules::Profile,
    agent: &str,
    sample: &Sample,
    urls: &[String],
) -> Cost {
    measure(
        || parse_robotrules(&sample.bytes, profile),
        |r| r.model().heap_size(),
        |r| {
            if let Ok(rules) = r.crawler(agent) {
                for url in urls {
                    let _ = rules.is_allowed(url);
                }
            }
        },
    )
}

/// The scratch a fresh thread keeps after parsing `sample` (robotrules reuses its vectors
/// between parses, up to 256 KiB, instead of growing new ones for each file).
fn scratch_retained(sample: &Sample) -> usize {
    let bytes = sample.bytes.clone();
    std::thread::spawn(move || {
        let before = ALLOCATOR.allocated();
        drop(parse_robotrules(&bytes, robotrules::Profile::Rfc9309));
        ALLOCATOR.allocated().saturating_sub(before)
    })
    .join()
    .unwrap_or_default()
}

/// Sums over a set of files.
#[derive(Debug, Default)]
struct Totals {
    files: usize,
    bytes: usize,
    held: usize,
    allocated: usize,
    estimate: usize,
    after_checks: usize,
    skipped: usize,
}

fn totals(contender: Contender, samples: &[Sample]) -> Totals {
    let mut t = Totals::default();
    for sample in samples {
        if contender == Contender::Robotstxt
            && panics(|| {
                robotstxt_allowed(&sample.text, AGENT, "/");
            })
        {
            t.skipped += 1;
            continue;
        }
        let c = cost(contender, AGENT, sample);
        t.files += 1;
        t.bytes += sample.bytes.len();
        t.held += c.held;
        t.allocated += c.allocated;
        t.estimate += c.estimate;
        t.after_checks += c.after_checks;
    }
    t
}

fn per_file_table(title: &str, samples: &[Sample]) {
    let total_bytes = corpus::total_bytes(samples);
    println!(
        "\n### {title}: {} files, {total_bytes} bytes\n",
        samples.len()
    );
    println!("| contender | files | mean file | mean held | held / file size | mean allocated during parse | mean `heap_size()` | held after checks / file size |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for contender in Contender::ALL {
        let t = totals(contender, samples);
        let n = t.files.max(1);
        let skipped = if t.skipped > 0 {
            format!(" ({} skipped: panics)", t.skipped)
        } else {
            String::new()
        };
        let estimate = match contender {
            Contender::Robotrules(_) => format!("{}", t.estimate / n),
            _ => "–".to_owned(),
        };
        println!(
            "| {} | {}{skipped} | {} | {} | {:.2} | {} | {estimate} | {:.2} |",
            contender.name(),
            t.files,
            t.bytes / n,
            t.held / n,
            t.held as f64 / t.bytes.max(1) as f64,
            t.allocated / n,
            t.after_checks as f64 / t.bytes.max(1) as f64,
        );
    }
}

fn adversarial_table() {
    println!("\n### Adversarial files (held / allocated during parse, bytes)\n");
    let cases = synthetic::adversarial();
    let header: Vec<String> = cases
        .iter()
        .map(|c| format!("{} ({} B)", c.name, c.bytes.len()))
        .collect();
    println!("| contender | {} |", header.join(" | "));
    println!("|---|{}", "---:|".repeat(cases.len()));
    for contender in Contender::ALL {
        let cells: Vec<String> = cases
            .iter()
            .map(|case| {
                let sample = Sample::new(case.name, case.bytes.clone());
                let refused = contender == Contender::TextingRobots
                    && parse_texting(&case.agent, &case.bytes).is_none();
                let c = cost(contender, &case.agent, &sample);
                let note = if refused { " (refused: error)" } else { "" };
                format!("{} / {}{note}", c.held, c.allocated)
            })
            .collect();
        println!("| {} | {} |", contender.name(), cells.join(" | "));
    }
}

fn main() {
    println!("## Memory held per parsed file (counting global allocator)");
    if let Ok(typical) = corpus::typical() {
        println!(
            "\nA parsing thread keeps {} bytes of scratch after parsing the typical file (at most 256 KiB after any file); the tables count each value alone.",
            scratch_retained(&typical)
        );
    }
    match corpus::typical() {
        Ok(typical) => per_file_table(
            &format!("Typical file `{}`", corpus::TYPICAL_FILE),
            &[typical],
        ),
        Err(e) => eprintln!("memory: cannot read the typical file: {e}"),
    }
    match corpus::committed() {
        Ok(committed) => per_file_table("Committed corpus", &committed),
        Err(e) => eprintln!("memory: cannot read the committed corpus: {e}"),
    }
    match corpus::real_sample() {
        Ok(Some(real)) => {
            per_file_table("Real sample", &real);
            per_file_table(
                "Real sample, files of at most 16 KiB",
                &corpus::crawl_part(real),
            );
        }
        Ok(None) => eprintln!(
            "memory: no real sample (set {}), skipped",
            corpus::REAL_SAMPLE_VAR
        ),
        Err(e) => eprintln!("memory: cannot read the real sample: {e}"),
    }
    adversarial_table();
}
