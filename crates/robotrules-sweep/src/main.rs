//! `robotrules-sweep DIR`: every file under DIR through parse, lint, explain and `is_allowed`
//! in every profile; exits 1 on a panic or a file over the time budget, 2 on a usage error.
//! Run it as `cargo xtask sweep DIR [OPTIONS]` (a release build: times mean nothing in debug).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use robotrules_sweep::{sweep, SweepOptions};

/// Run every file under DIR through robotrules; exit non-zero on a panic or a slow file.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask sweep", bin_name = "cargo xtask sweep", version)]
struct Args {
    /// The directory of robots.txt files (searched recursively).
    dir: PathBuf,
    /// Time budget per file in milliseconds (all profiles together).
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// URLs asked about per file and crawler.
    #[arg(long, default_value_t = 50)]
    urls: usize,
    /// How many of the slowest files to list.
    #[arg(long, default_value_t = 10)]
    slowest: usize,
    /// `text` for the terminal, `markdown` for docs/robustness.md.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Markdown,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let options = SweepOptions {
        time_budget: Duration::from_millis(args.budget_ms),
        urls_per_file: args.urls,
        slowest: args.slowest,
        ..SweepOptions::default()
    };
    let report = sweep(&args.dir, &options);
    match args.format {
        Format::Text => print!("{report}"),
        Format::Markdown => print!("{}", report.to_markdown()),
    }
    if report.is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
