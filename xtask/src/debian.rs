//! Installing what the tests need from Debian's packages, and finding the programs after.
//!
//! The README's test command brings its own servers and browsers (`redis-server`, Chromium
//! with its WebDriver, a Java runtime): when a program is missing, its packages are installed
//! with `apt-get` (as root, or through `sudo -n`). An install changes as little of the
//! machine as it can: `--no-install-recommends` (only what the packages need), `--no-upgrade`
//! (a package already there stays at its version), and a dry run first (`apt-get install -s`)
//! that stops the command, saying what to do by hand, when the install would upgrade any
//! installed package (a newer library a package depends on). One line before each install
//! says what is installed and why. On a machine without `apt-get` the command stops with a
//! message that says what to install. `redis.rs`, `browser.rs`, `java.rs` and `js.rs` say
//! which programs and packages; this module does the finding and the installing.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _};

/// `name` in a directory of `PATH`.
pub(crate) fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// `name` on `PATH`, else at `debian` (where Debian's package puts it, for when `/usr/sbin`
/// or `/usr/bin` is not on `PATH`).
pub(crate) fn find(name: &str, debian: &str) -> Option<PathBuf> {
    on_path(name).or_else(|| Some(Path::new(debian).to_path_buf()).filter(|path| path.is_file()))
}

/// What to install and why, and what to say when it cannot be.
pub(crate) struct Install<'a> {
    /// The Debian packages.
    pub(crate) packages: &'a [&'a str],
    /// Which tests need them (said before the install): "the browser tests of `robotrules
    /// serve`".
    pub(crate) why: &'a str,
    /// The variable that skips those tests instead ([`crate::skip::Piece::variable`]).
    pub(crate) skip: &'a str,
    /// The message when there is no `apt-get`: what to install by hand.
    pub(crate) without_apt: &'a str,
}

/// The arguments of `apt-get` that install `packages`: no recommended packages, no upgrade
/// of a package already installed; `simulate` for the dry run (`-s`, which needs no root).
pub(crate) fn install_args<'a>(packages: &[&'a str], simulate: bool) -> Vec<&'a str> {
    let mut args = vec!["install"];
    args.push(if simulate { "-s" } else { "-y" });
    args.extend(["--no-install-recommends", "--no-upgrade"]);
    args.extend(packages);
    args
}

/// The installed packages a dry run (`apt-get install -s`) would upgrade: its `Inst NAME
/// [OLD] (NEW …)` lines, where `[OLD]` is the version installed now. A new package's line has
/// no `[OLD]`.
pub(crate) fn upgrades(dry_run: &str) -> Vec<&str> {
    dry_run
        .lines()
        .filter_map(|line| line.strip_prefix("Inst "))
        .filter_map(|rest| {
            let mut words = rest.split_whitespace();
            let name = words.next()?;
            words.next()?.starts_with('[').then_some(name)
        })
        .collect()
}

/// Installs `install.packages` with `apt-get update` then `apt-get install -y
/// --no-install-recommends --no-upgrade PACKAGES`, through `sudo -n` unless root, after one
/// line saying what and why, and after a dry run that shows it upgrades nothing already
/// installed.
pub(crate) fn apt_install(install: &Install<'_>) -> anyhow::Result<()> {
    let packages = install.packages.join(" ");
    if !Command::new("apt-get")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        bail!(
            "{}, then run `cargo xtask test` again (or set {}=1 to skip {})",
            install.without_apt,
            install.skip,
            install.why
        );
    }
    eprintln!(
        "xtask: installing {packages} with apt-get (no recommended packages, nothing already \
         installed upgraded) for {}; set {}=1 to skip those tests instead",
        install.why, install.skip
    );
    apt_get(&["update"], &packages)?;
    let dry_run = Command::new("apt-get")
        .args(install_args(install.packages, true))
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .context("running apt-get install -s")?;
    if !dry_run.status.success() {
        bail!(
            "`apt-get {}` failed ({}); install {packages} by hand",
            install_args(install.packages, true).join(" "),
            dry_run.status
        );
    }
    let plan = String::from_utf8_lossy(&dry_run.stdout);
    let upgraded = upgrades(&plan);
    if !upgraded.is_empty() {
        bail!(
            "installing {packages} would upgrade packages already installed ({}); xtask does \
             not upgrade the machine: install {packages} by hand, or set {}=1 to skip {}",
            upgraded.join(", "),
            install.skip,
            install.why
        );
    }
    apt_get(&install_args(install.packages, false), &packages)
}

/// `apt-get ARGS` through `sudo -n` unless root, failing with what to install by hand.
fn apt_get(args: &[&str], packages: &str) -> anyhow::Result<()> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
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
            "`apt-get {}` failed ({status}); install {packages} by hand",
            args.join(" ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_install_takes_no_recommended_package_and_upgrades_nothing() {
        assert_eq!(
            install_args(&["chromium", "chromium-driver"], false),
            [
                "install",
                "-y",
                "--no-install-recommends",
                "--no-upgrade",
                "chromium",
                "chromium-driver"
            ]
        );
        assert_eq!(
            install_args(&["redis-server"], true),
            [
                "install",
                "-s",
                "--no-install-recommends",
                "--no-upgrade",
                "redis-server"
            ]
        );
    }

    #[test]
    fn the_dry_run_names_the_installed_packages_it_would_upgrade() {
        let plan = "\
NOTE: This is only a simulation!
Reading package lists...
The following NEW packages will be installed:
  chromium chromium-common
Inst systemd [252.30-1~deb12u2] (252.31-1~deb12u1 Debian-Security:12/stable-security [amd64])
Inst chromium-common (131.0.6778.85-1~deb12u1 Debian-Security:12/stable-security [amd64])
Inst perl [5.36.0-7+deb12u1] (5.36.0-7+deb12u2 Debian:12.9/stable [amd64]) []
Inst chromium (131.0.6778.85-1~deb12u1 Debian-Security:12/stable-security [amd64])
Conf chromium-common (131.0.6778.85-1~deb12u1 Debian-Security:12/stable-security [amd64])
";
        assert_eq!(upgrades(plan), ["systemd", "perl"]);
        assert!(
            upgrades("Inst redis-server (5:7.0.15-1~deb12u3 Debian:12.9/stable [amd64])\n")
                .is_empty()
        );
        assert!(upgrades("").is_empty());
    }
}
