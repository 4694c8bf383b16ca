//! Making sure `redis-server` is installed before the tests that start one.
//!
//! The fleet-cache tests run a real `redis-server` on a loopback port (never a mock), so the
//! README's test command brings it: when no `redis-server` is on `PATH` (or at Debian's path),
//! Debian's `redis-server` package is installed ([`crate::debian`]).

use std::path::PathBuf;

use anyhow::Context as _;

use crate::debian;
use crate::skip::Piece;

/// Where Debian's package puts the server, for when `/usr/sbin` or `/usr/bin` is not on `PATH`.
const DEBIAN_PATH: &str = "/usr/bin/redis-server";

/// The `redis-server` binary: on `PATH`, at Debian's path, or installed now with `apt-get`.
pub(crate) fn ensure_installed() -> anyhow::Result<PathBuf> {
    if let Some(found) = debian::find("redis-server", DEBIAN_PATH) {
        return Ok(found);
    }
    debian::apt_install(&debian::Install {
        packages: &["redis-server"],
        why: Piece::Redis.tests(),
        skip: Piece::Redis.variable(),
        without_apt: "redis-server is missing and there is no apt-get to install it; install \
                      Redis (or Valkey) so that redis-server is on PATH",
    })?;
    debian::find("redis-server", DEBIAN_PATH).context(
        "apt-get reported success but redis-server is still missing; install Redis (or Valkey) \
         and put redis-server on PATH",
    )
}
