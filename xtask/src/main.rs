//! Project commands, run as `cargo xtask <command>` (alias in `.cargo/config.toml`).
//!
//! `cargo xtask conformance [--format text|markdown] [--dir conformance] [--filter SUBSTRING]
//! [--profile P]` runs the conformance corpus (see `conformance/README.md`); the logic lives in
//! the `robotrules-conformance` crate.
//!
//! `cargo xtask sweep DIR [--budget-ms 1000] [--urls 50] [--slowest 10] [--format text|markdown]`
//! runs every file under DIR through parse, explain and `is_allowed` in every profile and
//! exits non-zero on a panic or a file over the time budget; the logic lives in the
//! `robotrules-sweep` crate. Run it in release mode for meaningful times
//! (`cargo xtask --release` is not an option: use `cargo run --release -p xtask -- sweep DIR`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context as _};
use clap::{Parser, Subcommand, ValueEnum};
use robotrules_conformance::{report::MARKDOWN_COMMAND, Corpus, RunOptions};

/// Project commands for robotrules.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the conformance corpus and print a report; exit non-zero on any failure.
    Conformance(ConformanceArgs),
    /// Run every file under DIR through robotrules; exit non-zero on a panic or a slow file.
    Sweep(SweepArgs),
}

#[derive(Debug, clap::Args)]
struct SweepArgs {
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

fn sweep(args: SweepArgs) -> anyhow::Result<ExitCode> {
    let options = robotrules_sweep::SweepOptions {
        time_budget: std::time::Duration::from_millis(args.budget_ms),
        urls_per_file: args.urls,
        slowest: args.slowest,
        ..robotrules_sweep::SweepOptions::default()
    };
    let report = robotrules_sweep::sweep(&args.dir, &options);
    match args.format {
        Format::Text => print!("{report}"),
        Format::Markdown => print!("{}", report.to_markdown()),
    }
    Ok(if report.is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[derive(Debug, clap::Args)]
struct ConformanceArgs {
    /// `text` prints to the terminal; `markdown` writes docs/conformance.md.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The corpus directory (relative paths start at the workspace root).
    #[arg(long, default_value = "conformance")]
    dir: PathBuf,
    /// Run only cases whose id, source or section contains this substring.
    #[arg(long)]
    filter: Option<String>,
    /// Run only this profile (rfc9309, google, legacy1994).
    #[arg(long)]
    profile: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Markdown,
}

/// The workspace root: the parent of this crate's directory.
fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

fn conformance(args: ConformanceArgs) -> anyhow::Result<ExitCode> {
    let root = workspace_root();
    let dir = root.join(&args.dir);
    let profile = args
        .profile
        .as_deref()
        .map(robotrules_conformance::case::parse_profile)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    if args.format == Format::Markdown && (args.filter.is_some() || profile.is_some()) {
        bail!("--format markdown regenerates the whole docs/conformance.md: drop --filter and --profile");
    }
    let corpus = Corpus::load(&dir)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("loading the corpus in {}", dir.display()))?;
    let report = corpus.run(&RunOptions {
        profile,
        filter: args.filter,
        layer: None,
    });
    match args.format {
        Format::Text => print!("{}", report.to_text()),
        Format::Markdown => {
            let path = root.join("docs").join("conformance.md");
            std::fs::write(&path, report.to_markdown())
                .with_context(|| format!("writing {}", path.display()))?;
            println!(
                "wrote {} ({MARKDOWN_COMMAND}): {} failures",
                path.display(),
                report.failures().count()
            );
            for row in report.failures() {
                eprint!("{}", robotrules_conformance::report::failure_text(row));
            }
        }
    }
    Ok(if report.is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Conformance(args) => conformance(args),
        Command::Sweep(args) => sweep(args),
    };
    result.unwrap_or_else(|error| {
        eprintln!("error: {error:#}");
        ExitCode::from(2)
    })
}
