//! Counts the findings per lint code over a directory of real robots.txt files and samples
//! some of each for labelling by hand (the precision figures of `docs/lints.md`).
//!
//! ```text
//! cargo run --release -p robotrules-lint --example lint_sample -- DIR [--per-code N] [--profile P] [--samples FILE]
//! ```
//!
//! Prints, per code, the number of findings, of files with one, and how many of each severity;
//! then the exit status `robotrules lint` would give (files with an error, with a warning).
//! With `--samples FILE`, writes up to N findings per code (default 20: one per file, from files
//! spread evenly in name order, then more per file when fewer files have the code; the same
//! sample every run) as tab-separated lines: code,
//! severity, file, line, the source line, message, and an empty `label` column to fill in
//! (`tp` or `fp`, and a reason).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::PathBuf;

use robotrules_lint::{lint, Code, LintOptions, Profile, Severity};

struct Sample {
    file: String,
    line: u32,
    severity: Severity,
    text: String,
    message: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut dir = None;
    let mut per_code = 20usize;
    let mut profile = Profile::default();
    let mut samples_out: Option<PathBuf> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--per-code" => per_code = args.next().ok_or("--per-code N")?.parse()?,
            "--profile" => profile = args.next().ok_or("--profile P")?.parse()?,
            "--samples" => samples_out = Some(args.next().ok_or("--samples FILE")?.into()),
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.ok_or("usage: lint_sample DIR [--per-code N] [--profile P] [--samples FILE]")?;
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let options = LintOptions {
        profile,
        max_findings: usize::MAX,
        ..LintOptions::default()
    };
    let mut by_code: BTreeMap<&'static str, Vec<Sample>> = BTreeMap::new();
    let mut files_with: BTreeMap<&'static str, usize> = BTreeMap::new();
    let (mut with_error, mut with_warning) = (0usize, 0usize);
    for path in &paths {
        let bytes = fs::read(path)?;
        let report = lint(&bytes, &options);
        with_error += usize::from(report.errors > 0);
        with_warning += usize::from(report.errors == 0 && report.warnings > 0);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut seen = std::collections::BTreeSet::new();
        for f in report.findings {
            if seen.insert(f.code) {
                *files_with.entry(f.code.as_str()).or_default() += 1;
            }
            let start = f.span.start.min(bytes.len());
            let line_start = bytes[..start]
                .iter()
                .rposition(|&b| b == b'\n' || b == b'\r')
                .map_or(0, |k| k + 1);
            let line_end = bytes[start..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map_or(bytes.len(), |k| start + k);
            let text: String = String::from_utf8_lossy(&bytes[line_start..line_end])
                .chars()
                .take(120)
                .collect();
            by_code.entry(f.code.as_str()).or_default().push(Sample {
                file: name.clone(),
                line: f.line,
                severity: f.severity,
                text,
                message: f.message,
            });
        }
    }
    println!(
        "{} files, profile {profile}: {with_error} with an error, {with_warning} more with a warning",
        paths.len()
    );
    println!(
        "{:<32} {:>8} {:>6} {:>7} {:>8} {:>6}",
        "code", "findings", "files", "errors", "warnings", "notes"
    );
    for code in Code::ALL {
        let list = by_code.get(code.as_str()).map_or(&[][..], Vec::as_slice);
        let count = |s: Severity| list.iter().filter(|x| x.severity == s).count();
        println!(
            "{:<32} {:>8} {:>6} {:>7} {:>8} {:>6}",
            code.as_str(),
            list.len(),
            files_with.get(code.as_str()).copied().unwrap_or_default(),
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Note)
        );
    }
    if let Some(out) = samples_out {
        let mut w = std::io::BufWriter::new(fs::File::create(out)?);
        writeln!(w, "code\tseverity\tfile\tline\tsource\tmessage\tlabel")?;
        for code in Code::ALL {
            let Some(list) = by_code.get(code.as_str()) else {
                continue;
            };
            for s in spread(list, per_code) {
                let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
                writeln!(
                    w,
                    "{}\t{}\t{}\t{}\t{}\t{}\t",
                    code.as_str(),
                    s.severity.as_str(),
                    s.file,
                    s.line,
                    clean(&s.text),
                    clean(&s.message)
                )?;
            }
        }
    }
    Ok(())
}

/// Up to `n` samples: the first finding of files spread evenly over those with one; when fewer
/// than `n` files have one, the second of each, and so on.
fn spread(list: &[Sample], n: usize) -> Vec<&Sample> {
    let mut rounds: Vec<Vec<&Sample>> = Vec::new();
    let mut rank: BTreeMap<&str, usize> = BTreeMap::new();
    for s in list {
        let r = rank.entry(s.file.as_str()).or_default();
        if rounds.len() <= *r {
            rounds.push(Vec::new());
        }
        rounds[*r].push(s);
        *r += 1;
    }
    let first = rounds.first().map_or(0, Vec::len);
    if first >= n {
        return (0..n).map(|i| rounds[0][i * first / n]).collect();
    }
    rounds.into_iter().flatten().take(n).collect()
}
