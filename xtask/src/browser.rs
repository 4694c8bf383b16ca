//! Making sure headless Chromium and its WebDriver are installed before the browser tests of
//! `robotrules serve` (`crates/robotrules-cli/tests/it/serve_browser.rs`).
//!
//! Those tests drive Debian's `chromium` through `chromedriver` (package `chromium-driver`),
//! and fail when either is missing, so the README's test command brings them: when one is not
//! on `PATH` (or at Debian's path), both packages are installed ([`crate::debian`]).

use anyhow::Context as _;

use crate::debian::{self, find};
use crate::skip::Piece;

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
    debian::apt_install(&debian::Install {
        packages: &PACKAGES,
        why: Piece::Browser.tests(),
        skip: Piece::Browser.variable(),
        without_apt: "chromium or chromedriver is missing and there is no apt-get to install \
                      them; install Chromium and its WebDriver (chromedriver) so that both are \
                      on PATH",
    })?;
    for (name, debian) in PROGRAMS {
        find(name, debian).with_context(|| {
            format!("apt-get reported success but {name} is still missing; install chromium and chromium-driver")
        })?;
    }
    Ok(())
}
