//! `robotrules-conformance`: runs the conformance corpus (`conformance/README.md`) and prints
//! the report, writes `docs/conformance.md`, or checks that the file is up to date. Run it as
//! `cargo xtask conformance [OPTIONS]`.
//!
//! Exit status: 0 when nothing fails, 1 on a failure (or, with `--check`, a stale file), 2 on
//! a usage or corpus error, with one line on stderr.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use robotrules::Profile;
use robotrules_conformance::case::parse_profile;
use robotrules_conformance::report::failure_text;
use robotrules_conformance::{stale_docs, workspace_root, Corpus, RunOptions, DOCS_FILE};

/// Run the conformance corpus and print a report; exit non-zero on any failure.
#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask conformance",
    bin_name = "cargo xtask conformance",
    version
)]
struct Args {
    /// `text` prints to the terminal; `markdown` writes docs/conformance.md.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Regenerate docs/conformance.md in memory; exit 1 if the file differs.
    #[arg(long, conflicts_with_all = ["format", "filter", "profile"])]
    check: bool,
    /// The corpus directory (relative paths start at the workspace root).
    #[arg(long, default_value = "conformance")]
    dir: PathBuf,
    /// Run only cases whose id, source or section contains this substring.
    #[arg(long)]
    filter: Option<String>,
    /// Run only this profile (rfc9309, google, legacy1994).
    #[arg(long, value_parser = parse_profile)]
    profile: Option<Profile>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Markdown,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// Runs the command; `Ok(false)` when the run (or the check) fails.
fn run(args: Args) -> Result<bool, String> {
    if args.format == Format::Markdown && (args.filter.is_some() || args.profile.is_some()) {
        return Err(format!(
            "--format markdown regenerates the whole {DOCS_FILE}: drop --filter and --profile"
        ));
    }
    let root = workspace_root();
    let dir = root.join(&args.dir);
    let corpus = Corpus::load(&dir)
        .map_err(|error| format!("loading the corpus in {}: {error}", dir.display()))?;
    let report = corpus.run(&RunOptions {
        profile: args.profile,
        filter: args.filter,
        layer: None,
    });
    let docs = root.join(DOCS_FILE);
    let fresh = if args.check {
        let on_disk = fs::read_to_string(&docs)
            .map_err(|error| format!("reading {}: {error}", docs.display()))?;
        if let Some(message) = stale_docs(&on_disk, &report.to_markdown()) {
            eprintln!("{message}");
            return Ok(false);
        }
        println!("{DOCS_FILE} is up to date");
        true
    } else if args.format == Format::Markdown {
        fs::write(&docs, report.to_markdown())
            .map_err(|error| format!("writing {}: {error}", docs.display()))?;
        println!("wrote {}", docs.display());
        true
    } else {
        print!("{}", report.to_text());
        return Ok(report.is_success());
    };
    let failures: Vec<String> = report.failures().map(failure_text).collect();
    if !failures.is_empty() {
        eprintln!("{} failures:\n\n{}", failures.len(), failures.join("\n"));
    }
    Ok(fresh && failures.is_empty())
}
