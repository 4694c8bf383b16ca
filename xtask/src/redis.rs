//! Making sure `redis-server` is installed before the tests that start one.
//!
//! The fleet-cache tests run a real `redis-server` on a loopback port (never a mock), so the
//! README's test command brings it: when no `redis-server` is on `PATH`, it is installed with
//! Debian's `apt-get` (as root, or through `sudo`). Anywhere else the command stops with a
//! message that says what to install.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context as _};

/// Where Debian's package puts the server, for when `/usr/sbin` or `/usr/bin` is not on `PATH`.
const DEBIAN_PATH: &str = "/usr/bin/redis-server";

/// The `redis-server` binary: on `PATH`, at Debian's path, or installed now with `apt-get`.
pub(crate) fn ensure_installed() -> anyhow::Result<PathBuf> {
    if let Some(found) = find() {
        return Ok(found);
    }
    eprintln!("xtask: redis-server is missing; installing Debian's redis-server package");
    install()?;
    find().context(
        "apt-get reported success but redis-server is still missing; install Redis (or Valkey) \
         and put redis-server on PATH",
    )
}

/// `redis-server` on `PATH`, then at [`DEBIAN_PATH`].
fn find() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("redis-server"))
            .find(|candidate| candidate.is_file())
    });
    on_path.or_else(|| Some(PathBuf::from(DEBIAN_PATH)).filter(|path| path.is_file()))
}

/// `apt-get update` and `apt-get install -y redis-server`, through `sudo` unless root.
fn install() -> anyhow::Result<()> {
    if !Command::new("apt-get")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        bail!(
            "redis-server is missing and there is no apt-get to install it; install Redis (or \
             Valkey) so that redis-server is on PATH, then run `cargo xtask test` again"
        );
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    for args in [&["update"][..], &["install", "-y", "redis-server"][..]] {
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
                "`apt-get {}` failed ({status}); install redis-server by hand",
                args.join(" ")
            );
        }
    }
    Ok(())
}
