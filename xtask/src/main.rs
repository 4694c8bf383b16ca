//! Project commands, run as `cargo xtask <command>` (alias in `.cargo/config.toml`).
//!
//! Each command is the binary of the crate that does the work, run with `cargo run`, so that
//! xtask itself builds from clap and anyhow alone; arguments after the command go to that
//! binary as they are, and its exit status is xtask's (`cargo xtask conformance --help`):
//!
//! - `cargo xtask conformance [--format text|markdown] [--check] [--dir conformance]
//!   [--filter SUBSTRING] [--profile P]` runs `robotrules-conformance` (see
//!   `conformance/README.md`);
//! - `cargo xtask sweep DIR [--budget-ms 1000] [--urls 50] [--slowest 10]
//!   [--format text|markdown]` runs `robotrules-sweep` in release mode, since its times mean
//!   nothing in a debug build (see `docs/robustness.md`);
//! - `cargo xtask test [CARGO TEST ARGS]` is the README's test command: everything plain
//!   `cargo test --workspace` runs, plus the tests that need more than the Rust toolchain. It
//!   makes sure a `redis-server` is installed (the fleet-cache tests start a real one,
//!   `src/redis.rs`) and `chromium` with `chromium-driver` (the tester page's browser tests,
//!   `src/browser.rs`), installing what is missing with `apt-get --no-install-recommends` and
//!   upgrading nothing (`src/debian.rs`), then runs `cargo test --workspace` with the features
//!   that turn those tests on (`redis-tests`, `browser-tests`), then the Python package's
//!   tests in a virtualenv under `target/` (`src/python.rs`; Java is installed when missing
//!   for the Spark job's test, `src/java.rs`), then the npm package's (`src/js.rs`).
//!   `ROBOTRULES_SKIP_REDIS`, `_BROWSER`, `_JAVA`, `_PYTHON` and `_JS` (set to `1`) each leave
//!   one piece out, and the run then ends saying so (`src/skip.rs`);
//! - `cargo xtask js` builds the npm package (WebAssembly, wasm-bindgen), packs it into
//!   `target/js/` and runs its tests, installing the WebAssembly target, wasm-bindgen-cli and
//!   the tests' npm packages when missing (`src/js.rs`);
//! - `cargo xtask public-api [--bless]` compares the facade's public API, as `cargo
//!   public-api` lists it, with the committed `crates/robotrules/public-api.txt`
//!   (`src/public_api.rs`);
//! - `cargo xtask static-tester DIR` writes the tester page of `robotrules serve` into DIR as
//!   a static site run by the WebAssembly engine in the browser (`src/static_tester.rs`).
//!
//! The crate's tests are the tidy checks of the workspace's invariants (`src/tidy.rs`).

mod browser;
mod cargo;
mod debian;
mod java;
mod js;
mod public_api;
mod python;
mod redis;
mod skip;
mod static_tester;
#[cfg(test)]
mod tidy;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::cargo::{cargo_command, names_packages, run, workspace_root};

/// Project commands for robotrules.
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask", version, about)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Run the conformance corpus and print a report (robotrules-conformance; --help for its
    /// options).
    #[command(disable_help_flag = true)]
    Conformance(Forwarded),
    /// Run every file under DIR through robotrules (robotrules-sweep, release build; --help
    /// for its options).
    #[command(disable_help_flag = true)]
    Sweep(Forwarded),
    /// Install redis-server when it is missing, then run `cargo test --workspace` with the
    /// Redis store's features (arguments go to cargo test), then the Python package's tests,
    /// then the npm package's.
    #[command(disable_help_flag = true)]
    Test(Forwarded),
    /// Build the npm package (WebAssembly), pack it into target/js/ and run its tests (the
    /// static tester's in headless Chromium among them).
    Js,
    /// List the facade's public API (cargo public-api) and compare it with the committed
    /// crates/robotrules/public-api.txt.
    PublicApi {
        /// Write the listing anew instead of comparing.
        #[arg(long)]
        bless: bool,
    },
    /// Write the tester page of `robotrules serve` as a static site into DIR, answered by the
    /// WebAssembly engine in the browser (no server).
    StaticTester {
        /// The folder to write (made if missing; its files of the same names replaced).
        dir: std::path::PathBuf,
    },
}

/// The arguments handed to the command's binary.
#[derive(Debug, clap::Args)]
struct Forwarded {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<OsString>,
}

/// The features `cargo xtask test` always turns on: the Redis store and everything built on
/// it, and `robotrules survey`'s Parquet output (off in a default CLI build, which it would
/// slow). Each piece not skipped adds its own ([`skip::Piece::features`]).
const TEST_FEATURES: &str = "robotrules-fetch/redis,robotrules/redis,robotrules-cli/parquet";

/// `cargo run --quiet --package PACKAGE [cargo_args] -- args` in this workspace, with the
/// cargo that runs xtask; its exit status becomes xtask's.
fn cargo_run(package: &str, cargo_args: &[&str], args: &[OsString]) -> anyhow::Result<ExitCode> {
    let mut command = cargo_command();
    command
        .args(["run", "--quiet", "--package", package])
        .args(cargo_args)
        .arg("--manifest-path")
        .arg(workspace_root().join("Cargo.toml"))
        .arg("--")
        .args(args);
    run(command)
}

/// `cargo test --workspace --features FEATURES args` (or `cargo test args` when they
/// choose packages), once `redis-server` and Chromium are there (unless skipped).
fn cargo_test(args: &[OsString]) -> anyhow::Result<ExitCode> {
    let skipped = skip::skipped();
    if !skipped.contains(&skip::Piece::Redis) {
        redis::ensure_installed()?;
    }
    if !skipped.contains(&skip::Piece::Browser) {
        browser::ensure_installed()?;
    }
    let mut command = cargo_command();
    command.arg("test");
    // With `-p` given here, only those packages: `--workspace` would override it, and the
    // features name packages that may not be chosen (pass `--features redis-tests` for the
    // fetch crate's Redis tests).
    if !names_packages(args) {
        command.args(["--workspace", "--features", &features(&skipped)]);
    }
    command
        .arg("--manifest-path")
        .arg(workspace_root().join("Cargo.toml"))
        .args(args);
    run(command)
}

/// [`TEST_FEATURES`] and the features of every piece not `skipped`.
fn features(skipped: &[skip::Piece]) -> String {
    let mut features = vec![TEST_FEATURES];
    for piece in skip::Piece::ALL {
        if !skipped.contains(&piece) {
            features.extend(piece.features());
        }
    }
    features.join(",")
}

fn main() -> ExitCode {
    let result = match Cli::parse().task {
        Task::Conformance(forwarded) => cargo_run("robotrules-conformance", &[], &forwarded.args),
        Task::Sweep(forwarded) => cargo_run("robotrules-sweep", &["--release"], &forwarded.args),
        Task::Js => js::run(workspace_root()),
        Task::StaticTester { dir } => js::static_tester(workspace_root(), &dir),
        Task::PublicApi { bless } => public_api::run(bless),
        Task::Test(forwarded) => {
            let result = cargo_test(&forwarded.args)
                .and_then(|status| python::after_cargo_test(status, &forwarded.args))
                .and_then(|status| js::after_cargo_test(status, &forwarded.args));
            if let Some(summary) = skip::summary(&skip::skipped()) {
                eprintln!("{summary}");
            }
            result
        }
    };
    result.unwrap_or_else(|error| {
        eprintln!("error: {error:#}");
        ExitCode::from(2)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_after_the_command_are_forwarded_as_they_are() {
        let cli = Cli::try_parse_from(["cargo xtask", "conformance", "--help", "--dir", "x"]);
        let Ok(Cli {
            task: Task::Conformance(forwarded),
        }) = cli
        else {
            panic!("{cli:?}")
        };
        assert_eq!(forwarded.args, ["--help", "--dir", "x"]);
        let cli = Cli::try_parse_from(["cargo xtask", "sweep", "dir", "--budget-ms", "5"]);
        assert!(
            matches!(cli, Ok(Cli { task: Task::Sweep(f) }) if f.args == ["dir", "--budget-ms", "5"])
        );
        let cli = Cli::try_parse_from(["cargo xtask", "test", "-p", "robotrules-fetch"]);
        assert!(
            matches!(cli, Ok(Cli { task: Task::Test(f) }) if f.args == ["-p", "robotrules-fetch"])
        );
        assert!(Cli::try_parse_from(["cargo xtask", "frobnicate"]).is_err());
        let names =
            |args: &[&str]| names_packages(&args.iter().map(OsString::from).collect::<Vec<_>>());
        assert!(names(&["-p", "robotrules-fetch"]));
        assert!(names(&["--package=robotrules"]));
        assert!(!names(&["--", "--nocapture"]));
        assert!(!names(&["--release"]));
    }

    #[test]
    fn a_skipped_piece_leaves_its_features_out() {
        let all = features(&[]);
        assert!(all.starts_with(TEST_FEATURES), "{all}");
        assert!(all.contains("robotrules-cli/redis-tests") && all.contains("browser-tests"));
        let without_redis = features(&[skip::Piece::Redis]);
        assert!(!without_redis.contains("redis-tests"), "{without_redis}");
        assert!(without_redis.contains("robotrules-cli/browser-tests"));
    }
}
