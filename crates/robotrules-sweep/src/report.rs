//! The sweep's findings and their text and Markdown renderings.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::options::SweepOptions;

/// What went wrong with one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The file (or directory) could not be read. Reported; does not fail the sweep.
    Read {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        error: String,
    },
    /// robotrules panicked on the file. Fails the sweep.
    Panic {
        /// The path.
        path: PathBuf,
        /// The panic message and location.
        message: String,
    },
    /// `explain` disagreed with `is_allowed`, or a valid crawler name was refused. Fails the
    /// sweep.
    Mismatch {
        /// The path.
        path: PathBuf,
        /// What disagreed.
        detail: String,
    },
}

impl Problem {
    pub(crate) fn read(path: PathBuf, error: String) -> Problem {
        Problem::Read { path, error }
    }

    pub(crate) fn panic(path: PathBuf, message: String) -> Problem {
        Problem::Panic { path, message }
    }

    pub(crate) fn mismatch(path: PathBuf, detail: String) -> Problem {
        Problem::Mismatch { path, detail }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Read { path, error } => write!(f, "read error: {}: {error}", path.display()),
            Problem::Panic { path, message } => write!(f, "PANIC: {}: {message}", path.display()),
            Problem::Mismatch { path, detail } => {
                write!(f, "MISMATCH: {}: {detail}", path.display())
            }
        }
    }
}

/// What one file produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileStats {
    /// Queries asked (`is_allowed` and `explain` each count once).
    pub(crate) queries: u64,
    /// Queries answered "disallowed".
    pub(crate) disallowed: u64,
    /// Diagnostics of severity error, over all profiles.
    pub(crate) error_diagnostics: u64,
    /// Lint findings, over all profiles (including those past the report's cap).
    pub(crate) lint_findings: u64,
    /// Bytes of rendered lint text (rendering is exercised too).
    pub(crate) rendered_bytes: u64,
    /// Bytes ignored past the parse limit (counted once).
    pub(crate) truncated: bool,
    /// Largest `heap_size` of the parsed value over the profiles.
    pub(crate) heap_bytes: usize,
    /// `explain` disagreeing with `is_allowed`, or an agent refused that should not be.
    pub(crate) mismatches: Vec<String>,
}

/// A file and how long it took (all profiles together).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileTime {
    /// The path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: usize,
    /// Wall-clock time for everything the sweep does with it.
    pub time: Duration,
}

/// The result of a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepReport {
    /// The options the sweep ran with.
    pub options: SweepOptions,
    /// Files read.
    pub files: usize,
    /// Their total size.
    pub bytes: u64,
    /// `is_allowed` and `explain` calls made.
    pub queries: u64,
    /// Of those, answered "disallowed".
    pub disallowed: u64,
    /// Diagnostics of severity error (dropped content), over all files and profiles.
    pub error_diagnostics: u64,
    /// Lint findings over all files and profiles.
    pub lint_findings: u64,
    /// Files longer than the parse limit.
    pub truncated_files: usize,
    /// The largest parsed value (`RobotsTxt::heap_size`, any profile) and its file.
    pub largest_heap: Option<(PathBuf, usize, usize)>,
    /// Panics, mismatches and read errors, in file order.
    pub problems: Vec<Problem>,
    /// The slowest files, slowest first.
    pub slowest: Vec<FileTime>,
    /// Files over the time budget, in file order.
    pub over_budget: Vec<FileTime>,
    /// Wall-clock time of the whole sweep.
    pub total_time: Duration,
    /// Peak resident memory of the process, in KiB (`VmHWM`), where known.
    pub peak_rss_kib: Option<u64>,
}

impl SweepReport {
    pub(crate) fn new(options: &SweepOptions) -> SweepReport {
        SweepReport {
            options: options.clone(),
            files: 0,
            bytes: 0,
            queries: 0,
            disallowed: 0,
            error_diagnostics: 0,
            lint_findings: 0,
            truncated_files: 0,
            largest_heap: None,
            problems: Vec::new(),
            slowest: Vec::new(),
            over_budget: Vec::new(),
            total_time: Duration::ZERO,
            peak_rss_kib: None,
        }
    }

    pub(crate) fn record_file(&mut self, path: &Path, bytes: usize, time: Duration) {
        self.files += 1;
        self.bytes += bytes as u64;
        let entry = FileTime {
            path: path.to_path_buf(),
            bytes,
            time,
        };
        if time > self.options.time_budget {
            self.over_budget.push(entry.clone());
        }
        let at = self.slowest.partition_point(|f| f.time >= time);
        if at < self.options.slowest {
            self.slowest.insert(at, entry);
            self.slowest.truncate(self.options.slowest);
        }
    }

    pub(crate) fn add(&mut self, path: &Path, bytes: usize, stats: &FileStats) {
        self.queries += stats.queries;
        self.disallowed += stats.disallowed;
        self.error_diagnostics += stats.error_diagnostics;
        self.lint_findings += stats.lint_findings;
        self.truncated_files += usize::from(stats.truncated);
        if self
            .largest_heap
            .as_ref()
            .is_none_or(|(_, heap, _)| stats.heap_bytes > *heap)
        {
            self.largest_heap = Some((path.to_path_buf(), stats.heap_bytes, bytes));
        }
    }

    pub(crate) fn finish(&mut self, total_time: Duration, peak_rss_kib: Option<u64>) {
        self.total_time = total_time;
        self.peak_rss_kib = peak_rss_kib;
    }

    /// Panics found.
    pub fn panics(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(|p| matches!(p, Problem::Panic { .. }))
    }

    /// Whether the sweep passed: no panic, no mismatch, no file over the time budget.
    pub fn is_success(&self) -> bool {
        self.over_budget.is_empty()
            && !self
                .problems
                .iter()
                .any(|p| matches!(p, Problem::Panic { .. } | Problem::Mismatch { .. }))
    }

    fn count(&self, f: impl Fn(&Problem) -> bool) -> usize {
        self.problems.iter().filter(|p| f(p)).count()
    }

    /// The figures as a Markdown section (for `docs/robustness.md`).
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        out.push_str("| figure | value |\n|---|---|\n");
        for (name, value) in self.figures() {
            out.push_str(&format!("| {name} | {value} |\n"));
        }
        out.push_str("\nSlowest files (all profiles together):\n\n| file | bytes | time |\n|---|---:|---:|\n");
        for f in &self.slowest {
            out.push_str(&format!(
                "| `{}` | {} | {:.2} ms |\n",
                file_name(&f.path),
                f.bytes,
                f.time.as_secs_f64() * 1e3
            ));
        }
        if !self.problems.is_empty() {
            out.push_str("\nProblems:\n\n");
            for p in &self.problems {
                out.push_str(&format!("- {p}\n"));
            }
        }
        out
    }

    fn figures(&self) -> Vec<(&'static str, String)> {
        let mib = self.bytes as f64 / (1024.0 * 1024.0);
        let secs = self.total_time.as_secs_f64();
        vec![
            ("files", self.files.to_string()),
            ("bytes", format!("{} ({mib:.1} MiB)", self.bytes)),
            ("panics", self.panics().count().to_string()),
            (
                "explain/is_allowed mismatches",
                self.count(|p| matches!(p, Problem::Mismatch { .. }))
                    .to_string(),
            ),
            (
                "read errors",
                self.count(|p| matches!(p, Problem::Read { .. }))
                    .to_string(),
            ),
            (
                "error diagnostics (content dropped, all profiles)",
                self.error_diagnostics.to_string(),
            ),
            (
                "lint findings (all profiles)",
                self.lint_findings.to_string(),
            ),
            (
                "files over the parse limit",
                self.truncated_files.to_string(),
            ),
            (
                "queries (is_allowed + explain)",
                format!("{} ({} disallowed)", self.queries, self.disallowed),
            ),
            (
                "files over the time budget",
                format!(
                    "{} (budget {} ms)",
                    self.over_budget.len(),
                    self.options.time_budget.as_millis()
                ),
            ),
            ("total time", format!("{secs:.2} s")),
            (
                "largest parsed value",
                self.largest_heap
                    .as_ref()
                    .map_or("-".to_owned(), |(p, heap, bytes)| {
                        format!("{heap} bytes for `{}` ({bytes} bytes)", file_name(p))
                    }),
            ),
            (
                "peak memory (VmHWM)",
                self.peak_rss_kib.map_or("unknown".to_owned(), |k| {
                    format!("{:.1} MiB", k as f64 / 1024.0)
                }),
            ),
        ]
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl fmt::Display for SweepReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in self.figures() {
            writeln!(f, "{name:<50} {value}")?;
        }
        writeln!(f, "slowest files:")?;
        for file in &self.slowest {
            writeln!(
                f,
                "  {:>9.2} ms  {:>9} bytes  {}",
                file.time.as_secs_f64() * 1e3,
                file.bytes,
                file.path.display()
            )?;
        }
        for file in &self.over_budget {
            writeln!(
                f,
                "OVER BUDGET: {} took {:.2} ms",
                file.path.display(),
                file.time.as_secs_f64() * 1e3
            )?;
        }
        for problem in &self.problems {
            writeln!(f, "{problem}")?;
        }
        let verdict = if self.is_success() { "ok" } else { "FAILED" };
        writeln!(f, "sweep {verdict}")
    }
}
