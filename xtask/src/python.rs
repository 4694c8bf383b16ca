//! The Python package's tests, run by `cargo xtask test` after `cargo test`.
//!
//! In a virtualenv under `target/python-venv` (made with the `python3` on `PATH`, or
//! `$PYTHON`), it installs the pinned tools when they are missing ([`PINS`]), builds the
//! `robotrules` package into it with `maturin develop --release`, downloads and unpacks the
//! pinned sdists of Scrapy and Protego into `target/python-sdists` for their own test files
//! (`pip download --no-binary :all: --no-deps`, once), and runs pytest on
//! `crates/robotrules-python/tests` (the API tests, the stub check, Protego's, Scrapy's and
//! CPython's suites against the drop-ins, an end-to-end Scrapy crawl on loopback, and the
//! Spark job `examples/spark/survey.py` in local mode against the CLI's Parquet output).
//!
//! For the Spark test it also makes sure Java is installed (`java.rs`) and builds the CLI
//! with its `parquet` feature (`cargo build -p robotrules-cli --features parquet`), whose
//! path it hands to pytest in `ROBOTRULES_CLI`.
//!
//! The step runs when the whole workspace is tested, or when `-p robotrules-python` is
//! named; `ROBOTRULES_SKIP_PYTHON=1` leaves it out, and `ROBOTRULES_SKIP_JAVA=1` leaves out
//! the Spark test (and the Java install) only (`skip.rs`).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{bail, Context as _};

use crate::cargo::check;
use crate::skip::Piece;

/// The packages installed into the virtualenv, pinned. Why each: maturin builds the wheel,
/// pytest runs the tests, mypy's `stubtest` checks the `.pyi` stubs, Scrapy and Protego are
/// the libraries the drop-ins stand in for (their APIs and test suites); PySpark runs the
/// Spark job in local mode, warcio is the WARC reader it uses (as cc-pyspark does), and
/// PyArrow reads both Parquet outputs' schemas in the test that compares them.
pub(crate) const PINS: &[&str] = &[
    "maturin==1.16.0",
    "pytest==9.2.0",
    "mypy==2.4.1",
    "scrapy==2.19.0",
    "protego==0.7.0",
    "pyspark==4.3.0",
    "warcio==1.8.1",
    "pyarrow==26.0.1",
];

/// The test that starts Spark, and so Java: left out with `ROBOTRULES_SKIP_JAVA=1`.
const SPARK_TEST: &str = "test_spark_survey.py";

/// The sdists whose test files are run against the drop-ins (the same versions as [`PINS`]).
const SDISTS: &[(&str, &str)] = &[("protego", "0.7.0"), ("scrapy", "2.19.0")];

/// Runs the Python tests after `cargo test` ended with `cargo_status`, unless it failed or
/// the arguments chose other packages; the result is the run's exit status.
pub(crate) fn after_cargo_test(
    cargo_status: ExitCode,
    args: &[OsString],
) -> anyhow::Result<ExitCode> {
    if cargo_status != ExitCode::SUCCESS
        || Piece::Python.skipped()
        || (crate::cargo::names_packages(args) && !names_this_package(args))
    {
        return Ok(cargo_status);
    }
    test(crate::cargo::workspace_root())
}

/// Whether `args` name `robotrules-python` among the packages.
fn names_this_package(args: &[OsString]) -> bool {
    args.iter()
        .any(|arg| arg.to_string_lossy().ends_with("robotrules-python"))
}

/// The whole Python step in the workspace at `root`.
fn test(root: &Path) -> anyhow::Result<ExitCode> {
    let target = root.join("target");
    let venv = target.join("python-venv");
    let python = ensure_venv(&venv)?;
    ensure_pins(&python, &venv)?;
    let sdists = target.join("python-sdists");
    ensure_sdists(&python, &sdists)?;

    eprintln!("xtask: building the robotrules Python package (maturin develop --release)");
    let mut build = Command::new(venv.join("bin").join("maturin"));
    build
        .args(["develop", "--release", "--quiet"])
        .current_dir(root.join("crates/robotrules-python"))
        .env("VIRTUAL_ENV", &venv);
    check(build)?;

    let tests = root.join("crates/robotrules-python/tests");
    let mut pytest = Command::new(&python);
    pytest.args(["-m", "pytest", "-q", "-p", "no:cacheprovider"]);
    if Piece::Java.skipped() {
        pytest.arg("--ignore").arg(tests.join(SPARK_TEST));
    } else {
        crate::java::ensure_installed()?;
    }
    let cli = build_cli(root)?;

    eprintln!("xtask: running the Python tests (pytest crates/robotrules-python/tests)");
    pytest
        .arg(&tests)
        .env("ROBOTRULES_SDISTS", &sdists)
        .env("ROBOTRULES_CLI", &cli)
        .current_dir(root);
    crate::cargo::run(pytest)
}

/// Builds the CLI with Parquet output (the Spark test compares its Parquet with the job's);
/// the binary's path.
fn build_cli(root: &Path) -> anyhow::Result<PathBuf> {
    eprintln!(
        "xtask: building the CLI with Parquet (cargo build -p robotrules-cli --features parquet)"
    );
    let mut build = crate::cargo::cargo_command();
    build
        .args([
            "build",
            "--quiet",
            "-p",
            "robotrules-cli",
            "--features",
            "parquet",
        ])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"));
    check(build)?;
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let cli = target
        .join("debug")
        .join(format!("robotrules{}", std::env::consts::EXE_SUFFIX));
    if !cli.is_file() {
        bail!("cargo built the CLI but {} is missing", cli.display());
    }
    Ok(cli)
}

/// The virtualenv's interpreter, making the virtualenv first when it is missing.
fn ensure_venv(venv: &Path) -> anyhow::Result<PathBuf> {
    let python = venv.join("bin").join("python");
    if python.is_file() {
        return Ok(python);
    }
    let base = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
    eprintln!(
        "xtask: making a virtualenv at {} with {}",
        venv.display(),
        base.to_string_lossy()
    );
    let mut command = Command::new(&base);
    command.args([OsStr::new("-m"), OsStr::new("venv"), venv.as_os_str()]);
    check(command).with_context(|| {
        format!(
            "making the virtualenv needs CPython 3.9 or later with its venv module ({} -m venv); \
             set PYTHON to another interpreter, or ROBOTRULES_SKIP_PYTHON=1 to leave the \
             Python tests out",
            base.to_string_lossy()
        )
    })?;
    Ok(python)
}

/// Installs [`PINS`] unless the virtualenv's stamp says they are there.
fn ensure_pins(python: &Path, venv: &Path) -> anyhow::Result<()> {
    let stamp = venv.join("robotrules-pins.txt");
    let wanted = PINS.join("\n");
    if std::fs::read_to_string(&stamp).is_ok_and(|had| had == wanted) {
        return Ok(());
    }
    eprintln!("xtask: installing {}", PINS.join(" "));
    let mut install = Command::new(python);
    install
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(PINS);
    check(install)?;
    std::fs::write(&stamp, wanted).with_context(|| format!("writing {}", stamp.display()))
}

/// Downloads and unpacks each of [`SDISTS`] into `dir` unless it is there.
fn ensure_sdists(python: &Path, dir: &Path) -> anyhow::Result<()> {
    for (name, version) in SDISTS {
        if dir.join(format!("{name}-{version}")).join("tests").is_dir() {
            continue;
        }
        eprintln!("xtask: downloading the {name} {version} sdist for its tests");
        let mut download = Command::new(python);
        download
            .args([
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(["--no-binary", ":all:", "--no-deps"])
            .arg(format!("{name}=={version}"))
            .arg("-d")
            .arg(dir);
        check(download)?;
        let archive = dir.join(format!("{name}-{version}.tar.gz"));
        let mut unpack = Command::new(python);
        unpack
            .args([OsStr::new("-m"), OsStr::new("tarfile"), OsStr::new("-e")])
            .arg(&archive)
            .arg(dir);
        check(unpack)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sdist_is_pinned_at_the_installed_version() {
        for (name, version) in SDISTS {
            assert!(
                PINS.contains(&format!("{name}=={version}").as_str()),
                "{name}"
            );
        }
    }

    #[test]
    fn every_tool_is_pinned_to_one_version() {
        for pin in PINS {
            let (name, version) = pin.split_once("==").unwrap_or_default();
            assert!(!name.is_empty() && !version.is_empty(), "{pin}");
            assert!(
                version.chars().all(|c| c.is_ascii_digit() || c == '.'),
                "{pin}"
            );
        }
        // The Spark test's three (tests/test_spark_survey.py).
        for name in ["pyspark", "warcio", "pyarrow"] {
            assert!(
                PINS.iter().any(|pin| pin.starts_with(&format!("{name}=="))),
                "{name}"
            );
        }
    }

    #[test]
    fn the_step_runs_for_the_workspace_or_this_package() {
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(names_this_package(&args(&["-p", "robotrules-python"])));
        assert!(!names_this_package(&args(&["-p", "robotrules"])));
        // A failed `cargo test`, or other packages chosen: nothing more runs.
        assert_eq!(
            after_cargo_test(ExitCode::FAILURE, &[]).ok(),
            Some(ExitCode::FAILURE)
        );
        assert_eq!(
            after_cargo_test(ExitCode::SUCCESS, &args(&["-p", "robotrules-url"])).ok(),
            Some(ExitCode::SUCCESS)
        );
    }
}
