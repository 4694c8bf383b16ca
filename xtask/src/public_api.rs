//! `cargo xtask public-api [--bless]`: the facade's public API, listed by `cargo public-api`
//! (every item, all features on, the noise of blanket, auto-trait and auto-derived impls left
//! out) and compared with the committed listing `crates/robotrules/public-api.txt`, so that
//! every change to the surface shows as a diff in review. `--bless` writes the listing anew.
//!
//! `cargo-public-api` is installed at [`VERSION`] when missing (`cargo install --locked`). It
//! reads rustdoc's JSON output, which stable rustdoc writes when `RUSTC_BOOTSTRAP=1` lets it
//! take the `-Z` flag; the listing is built in its own target directory
//! (`target/public-api`), so that the flag changes no other build's fingerprints.

use std::path::Path;
use std::process::{Command, ExitCode};

use anyhow::{bail, Context as _};

use crate::cargo::{cargo_command, check, workspace_root};

/// The version of `cargo-public-api` installed and run.
const VERSION: &str = "0.52.0";

/// The committed listing, relative to the workspace root.
const LISTING: &str = "crates/robotrules/public-api.txt";

/// Lists the facade's API and compares it with [`LISTING`] (or writes it, with `bless`).
pub(crate) fn run(bless: bool) -> anyhow::Result<ExitCode> {
    let root = workspace_root();
    ensure_installed()?;
    let listed = list(root)?;
    let path = root.join(LISTING);
    if bless {
        std::fs::write(&path, &listed).with_context(|| format!("writing {}", path.display()))?;
        eprintln!("xtask: wrote {LISTING} ({} lines)", listed.lines().count());
        return Ok(ExitCode::SUCCESS);
    }
    let committed =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    if committed == listed {
        eprintln!(
            "xtask: the facade's public API is {LISTING} ({} items)",
            listed.lines().count()
        );
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("xtask: the facade's public API differs from {LISTING}:");
    for line in diff(&committed, &listed) {
        eprintln!("{line}");
    }
    eprintln!(
        "xtask: if the change is meant, run `cargo xtask public-api --bless` and commit the listing \
         (with a CHANGELOG entry for what breaks)"
    );
    Ok(ExitCode::FAILURE)
}

/// Installs `cargo-public-api` at [`VERSION`] unless that version is there.
fn ensure_installed() -> anyhow::Result<()> {
    let installed = Command::new("cargo-public-api")
        .arg("--version")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains(VERSION));
    if installed {
        return Ok(());
    }
    eprintln!("xtask: installing cargo-public-api {VERSION} (cargo install --locked)");
    let mut install = cargo_command();
    install.args([
        "install",
        "--locked",
        "--quiet",
        "cargo-public-api",
        "--version",
        VERSION,
    ]);
    check(install)
}

/// The facade's API as `cargo public-api` lists it.
fn list(root: &Path) -> anyhow::Result<String> {
    let mut command = Command::new("cargo-public-api");
    command
        .args([
            "--package",
            "robotrules",
            "--all-features",
            "-sss",
            "--color",
            "never",
        ])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .current_dir(root)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", root.join("target/public-api"));
    let out = command.output().context("running cargo-public-api")?;
    if !out.status.success() {
        bail!(
            "cargo-public-api failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8(out.stdout).context("cargo-public-api's listing is not UTF-8")
}

/// The lines only one side has, `-` for the committed listing's and `+` for the new one's, in
/// the new listing's order (the listing is sorted, so this is the diff a reviewer reads).
fn diff(committed: &str, listed: &str) -> Vec<String> {
    let old: std::collections::BTreeSet<&str> = committed.lines().collect();
    let new: std::collections::BTreeSet<&str> = listed.lines().collect();
    let mut lines: Vec<String> = old.difference(&new).map(|l| format!("-{l}")).collect();
    lines.extend(new.difference(&old).map(|l| format!("+{l}")));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_names_what_went_and_what_came() {
        let committed = "pub fn a\npub fn b\n";
        let listed = "pub fn a\npub fn c\n";
        assert_eq!(diff(committed, listed), ["-pub fn b", "+pub fn c"]);
        assert!(diff(listed, listed).is_empty());
    }
}
