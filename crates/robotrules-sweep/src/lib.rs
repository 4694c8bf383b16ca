//! The robustness sweep behind `cargo xtask sweep DIR` (issue 4): every file under a directory
//! through parse, lint (with its rendering), explain and `is_allowed` in every profile, each file inside `catch_unwind`,
//! timed, with the process's peak memory at the end.
//!
//! RFC 9309 §3 asks parsers to treat robots.txt as untrusted input; the sweep checks that
//! real files (HTML pages, binary junk, megabyte lines) make robotrules neither panic nor
//! slow down. Per file and per profile it parses, resolves a few crawlers (two fixed names and
//! the file's own product tokens), and asks about [`SweepOptions::urls_per_file`] URLs built
//! from the file's own patterns plus fixed ones ([`urls`]), checking that `explain` agrees
//! with `is_allowed`.
//!
//! ```no_run
//! use robotrules_sweep::{sweep, SweepOptions};
//!
//! let report = sweep("../shared/corpora/real-sample".as_ref(), &SweepOptions::default());
//! println!("{report}");
//! assert!(report.is_success());
//! ```

mod memory;
mod options;
mod panic_capture;
mod report;
pub mod urls;
mod walk;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use robotrules::{ParseOptions, Profile, Severity};
use robotrules_lint::render::TextOptions;
use robotrules_model::{Crawler, RobotsTxt};

pub use memory::peak_rss_kib;
pub use options::SweepOptions;
use report::FileStats;
pub use report::{FileTime, Problem, SweepReport};

/// Crawler names asked about in every file, besides the file's own product tokens.
pub const FIXED_AGENTS: [&str; 2] = ["Googlebot", "FooBot"];

/// How many of the file's own user-agent tokens are asked about.
const OWN_AGENTS: usize = 3;

/// Sweep every regular file under `dir` (recursively, in path order).
pub fn sweep(dir: &Path, options: &SweepOptions) -> SweepReport {
    let started = Instant::now();
    let mut report = SweepReport::new(options);
    let (paths, walk_errors) = walk::files(dir);
    for (path, error) in walk_errors {
        report.problems.push(Problem::read(path, error));
    }
    let capture = panic_capture::Capture::install();
    for path in paths {
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) => {
                report.problems.push(Problem::read(path, error.to_string()));
                continue;
            }
        };
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| check_file(&bytes, options)));
        let elapsed = start.elapsed();
        report.record_file(&path, bytes.len(), elapsed);
        match outcome {
            Ok(stats) => {
                report.add(&path, bytes.len(), &stats);
                for mismatch in stats.mismatches {
                    report
                        .problems
                        .push(Problem::mismatch(path.clone(), mismatch));
                }
            }
            Err(payload) => {
                let message = capture.take().unwrap_or_else(|| panic_message(&*payload));
                report.problems.push(Problem::panic(path.clone(), message));
            }
        }
    }
    drop(capture);
    report.finish(started.elapsed(), peak_rss_kib());
    report
}

/// Parse, resolve crawlers, ask about URLs, explain: every profile.
pub(crate) fn check_file(bytes: &[u8], options: &SweepOptions) -> FileStats {
    let mut stats = FileStats::default();
    let urls = urls::for_file(bytes, options.urls_per_file);
    for profile in Profile::ALL {
        // The model itself (its heap size, every group's agents): the layer crate's own API.
        let robots = Arc::new(RobotsTxt::parse(bytes, profile, options.parse_limit));
        stats.heap_bytes = stats.heap_bytes.max(robots.heap_size());
        stats.truncated |= robots.bytes_read() < bytes.len();
        stats.error_diagnostics += robots
            .diagnostics()
            .iter()
            .filter(|d| d.severity() == Severity::Error)
            .count() as u64;
        let _ = robots.sitemaps().count();
        let parse_options = ParseOptions::new()
            .with_profile(profile)
            .with_parse_limit(options.parse_limit);
        let lint = robotrules::lint(bytes, &parse_options);
        stats.lint_findings += lint.total() as u64;
        let rendered = robotrules_lint::render::text(&lint, bytes, &TextOptions::default());
        stats.rendered_bytes += rendered.len() as u64;
        for agent in agents(&robots) {
            let rules = match Crawler::new(Arc::clone(&robots), &agent) {
                Ok(rules) => rules,
                Err(error) => {
                    stats.mismatches.push(format!("{profile}: {error}"));
                    continue;
                }
            };
            let _ = rules.crawl_delay();
            for url in &urls {
                let allowed = rules.is_allowed(url).ok();
                let why = rules.explain(url).ok().map(|why| why.allowed);
                stats.queries += 2;
                stats.disallowed += u64::from(allowed == Some(false));
                if why != allowed {
                    stats.mismatches.push(format!(
                        "{profile}: explain says allowed={why:?} but is_allowed says {allowed:?} for {agent} {url}"
                    ));
                }
            }
        }
    }
    stats
}

/// The fixed crawler names plus the first few distinct product tokens the file names.
fn agents(robots: &Arc<RobotsTxt>) -> Vec<String> {
    let mut names: Vec<String> = FIXED_AGENTS.iter().map(|s| (*s).to_owned()).collect();
    let model = &**robots;
    let own = model
        .groups()
        .iter()
        .flat_map(|g| g.agents(model))
        .filter(|a| !a.global)
        .map(|a| a.token(model).into_owned())
        .filter(|t| Crawler::new(Arc::clone(robots), t).is_ok());
    for token in own {
        if names.len() >= FIXED_AGENTS.len() + OWN_AGENTS {
            break;
        }
        if !names.iter().any(|n| n.eq_ignore_ascii_case(&token)) {
            names.push(token);
        }
    }
    names
}

/// The text of a panic payload (`&str` or `String`), else a placeholder.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_owned()
    }
}

#[cfg(test)]
mod tests;
