//! Making sure a Java runtime is installed before the Python tests that start Spark.
//!
//! The Spark job's test (`crates/robotrules-python/tests/test_spark_survey.py`) runs PySpark
//! in local mode, which starts a JVM: when no `java` is on `PATH` (nor under `$JAVA_HOME`),
//! Debian's headless OpenJDK 17 (the Java that PySpark 4 needs) is installed with `apt-get`
//! (as root, or through `sudo`), as `redis.rs` installs `redis-server`. Anywhere else the
//! command stops with a message that says what to install.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context as _};

/// Debian's package: the JVM without a display, Java 17 (PySpark 4's minimum).
const PACKAGE: &str = "openjdk-17-jre-headless";

/// The `java` binary: under `$JAVA_HOME`, on `PATH`, or installed now with `apt-get`.
pub(crate) fn ensure_installed() -> anyhow::Result<PathBuf> {
    if let Some(found) = find() {
        return Ok(found);
    }
    eprintln!("xtask: java is missing (Spark needs it); installing Debian's {PACKAGE} package");
    install()?;
    find().context(format!(
        "apt-get reported success but java is still missing; install Java 17 or later \
         ({PACKAGE} on Debian) and put java on PATH"
    ))
}

/// `$JAVA_HOME/bin/java`, then `java` on `PATH`.
fn find() -> Option<PathBuf> {
    let home = std::env::var_os("JAVA_HOME")
        .map(|home| PathBuf::from(home).join("bin").join("java"))
        .filter(|java| java.is_file());
    home.or_else(|| {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join("java"))
                .find(|candidate| candidate.is_file())
        })
    })
}

/// `apt-get update` and `apt-get install -y --no-install-recommends PACKAGE`, through `sudo`
/// unless root.
fn install() -> anyhow::Result<()> {
    if !Command::new("apt-get")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        bail!(
            "java is missing and there is no apt-get to install it; install Java 17 or later so \
             that java is on PATH (or set JAVA_HOME), then run `cargo xtask test` again"
        );
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0"));
    let install = ["install", "-y", "--no-install-recommends", PACKAGE];
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
                "`apt-get {}` failed ({status}); install {PACKAGE} by hand",
                args.join(" ")
            );
        }
    }
    Ok(())
}
