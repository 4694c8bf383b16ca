//! Making sure a Java runtime is installed before the Python tests that start Spark.
//!
//! The Spark job's test (`crates/robotrules-python/tests/test_spark_survey.py`) runs PySpark
//! in local mode, which starts a JVM: when no `java` is on `PATH` (nor under `$JAVA_HOME`),
//! Debian's headless OpenJDK 17 (the Java that PySpark 4 needs) is installed with `apt-get`
//! ([`crate::debian`]), as `redis.rs` installs `redis-server`.

use std::path::PathBuf;

use anyhow::Context as _;

use crate::debian;
use crate::skip::Piece;

/// Debian's package: the JVM without a display, Java 17 (PySpark 4's minimum).
const PACKAGE: &str = "openjdk-17-jre-headless";

/// The `java` binary: under `$JAVA_HOME`, on `PATH`, or installed now with `apt-get`.
pub(crate) fn ensure_installed() -> anyhow::Result<PathBuf> {
    if let Some(found) = find() {
        return Ok(found);
    }
    debian::apt_install(&debian::Install {
        packages: &[PACKAGE],
        why: Piece::Java.tests(),
        skip: Piece::Java.variable(),
        without_apt: "java is missing and there is no apt-get to install it; install Java 17 or \
                      later so that java is on PATH (or set JAVA_HOME)",
    })?;
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
    home.or_else(|| debian::on_path("java"))
}
