//! Installing what the tests need from Debian's packages, and finding the programs after.
//!
//! The README's test command brings its own servers and browsers (`redis-server`, Chromium
//! with its WebDriver, a Java runtime): when a program is missing, its packages are installed
//! with `apt-get` (as root, or through `sudo -n`). On a machine without `apt-get` the command
//! stops with a message that says what to install. `redis.rs`, `browser.rs` and `java.rs`
//! say which programs and packages; this module does the finding and the installing.

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

/// `apt-get update`, then `apt-get install -y INSTALL` (packages, and options such as
/// `--no-install-recommends`), through `sudo -n` unless root. `without_apt` is the message
/// when there is no `apt-get`: what to install by hand.
pub(crate) fn apt_install(install: &[&str], without_apt: &str) -> anyhow::Result<()> {
    if !Command::new("apt-get")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        bail!("{without_apt}, then run `cargo xtask test` again");
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let packages: Vec<&str> = install
        .iter()
        .copied()
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    let install: Vec<&str> = ["install", "-y"]
        .into_iter()
        .chain(install.iter().copied())
        .collect();
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
                "`apt-get {}` failed ({status}); install {} by hand",
                args.join(" "),
                packages.join(" and ")
            );
        }
    }
    Ok(())
}
