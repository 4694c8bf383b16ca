//! Making sure headless Chromium and its WebDriver are installed before the browser tests of
//! `robotrules serve` (`crates/robotrules-cli/tests/serve_browser.rs`).
//!
//! Those tests drive Debian's `chromium` through `chromedriver` (package `chromium-driver`),
//! and fail when either is missing, so the README's test command brings them: when one is not
//! on `PATH` (or at Debian's path), both packages are installed with `apt-get` (as root, or
//! through `sudo`). Anywhere else the command stops with a message that says what to install.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _};

/// The programs the tests start, each with where Debian's package puts it.
const PROGRAMS: [(&str, &str); 2] = [
    ("chromium", "/usr/bin/chromium"),
    ("chromedriver", "/usr/bin/chromedriver"),
];

/// The Debian packages that hold [`PROGRAMS`].
const PACKAGES: [&str; 2] = ["chromium", "chromium-driver"];

/// Installs `chromium` and `chromium-driver` with `apt-get` unless both programs are there.
pub(crate) fn ensure_installed() -> anyhow::Result<()> {
    if PROGRAMS
        .iter()
        .all(|(name, debian)| find(name, debian).is_some())
    {
        return Ok(());
    }
    eprintln!("xtask: chromium or chromedriver is missing; installing Debian's chromium and chromium-driver packages");
    install()?;
    for (name, debian) in PROGRAMS {
        find(name, debian).with_context(|| {
            format!("apt-get reported success but {name} is still missing; install chromium and chromium-driver")
        })?;
    }
    Ok(())
}

/// `name` on `PATH`, then at `debian`.
fn find(name: &str, debian: &str) -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    });
    on_path.or_else(|| Some(Path::new(debian).to_path_buf()).filter(|path| path.is_file()))
}

/// `apt-get update` and `apt-get install -y chromium chromium-driver`, through `sudo` unless
/// root.
fn install() -> anyhow::Result<()> {
    if !Command::new("apt-get")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        bail!(
            "chromium or chromedriver is missing and there is no apt-get to install them; \
             install Chromium and its WebDriver (chromedriver) so that both are on PATH, then \
             run `cargo xtask test` again"
        );
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let install: Vec<&str> = ["install", "-y"].into_iter().chain(PACKAGES).collect();
    for args in [&["update"][..], &install[..]] {
        let mut command = if root {
            Command::new("apt-get")
        } else {
            let mut sudo = Command::new("sudo");
            sudo.args(["-n", "apt-get"]);
            sudo
        };
        let status = command
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .context("running apt-get")?;
        if !status.success() {
            bail!(
                "`apt-get {}` failed ({status}); install chromium and chromium-driver by hand",
                args.join(" ")
            );
        }
    }
    Ok(())
}
