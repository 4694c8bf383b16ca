//! [`RedisOptions`]: key prefix, retention, entry size cap, timeouts, lock waiting and the
//! extra trust roots of `rediss://`.

use std::time::Duration;

use crate::RootCertificate;

/// Options of a [`RedisStore`](super::RedisStore). Start from [`RedisOptions::default`].
///
/// ```
/// use std::time::Duration;
/// use robotrules_fetch::fleet::RedisOptions;
///
/// let options = RedisOptions {
///     key_prefix: "crawler-a:robots:".into(),
///     command_timeout: Duration::from_millis(200),
///     ..RedisOptions::default()
/// };
/// assert_eq!(options.retention, Duration::from_secs(30 * 24 * 3600));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedisOptions {
    /// Put in front of every key: `{prefix}{origin}` for entries, `{prefix}lock:{origin}` for
    /// locks. Default `"robotrules:"`.
    pub key_prefix: String,
    /// How long Redis keeps an entry (its `PX` expiry): the retention of the last good copy,
    /// 30 days by default (RFC 9309 §2.3.1.4: "for example, 30 days"). An entry fresh for
    /// longer is kept until it is stale. Freshness is always read from the entry itself.
    pub retention: Duration,
    /// The largest value written or read, in bytes, version byte and header included. The
    /// default, 1 MiB + 64 KiB, holds two bodies at RFC 9309 §2.5's 500 KiB floor (the latest
    /// fetch and the last good copy) and their headers. A larger entry is not written (the
    /// process keeps its own answer); a larger value read is treated as corrupt.
    pub max_entry_bytes: usize,
    /// The deadline of every Redis command, connecting included. Past it the command counts
    /// as a timeout and the cache falls back (a miss, a dropped write, a local lock).
    /// Default 500 ms.
    pub command_timeout: Duration,
    /// First pause of a process waiting for another's fetch of the same origin before it
    /// reads the entry again; doubles after each read, up to
    /// [`lock_poll_max`](Self::lock_poll_max). Default 25 ms.
    pub lock_poll_initial: Duration,
    /// Longest pause between two reads while waiting for another's fetch. Default 500 ms.
    pub lock_poll_max: Duration,
    /// Root certificates trusted for `rediss://` (Redis over TLS) besides the platform's
    /// certificate store (the system bundle on Linux, or the files named by `SSL_CERT_FILE`
    /// and `SSL_CERT_DIR`), which is all that is trusted by default: the CA of a private
    /// Redis, for example. Unused for `redis://` and Unix sockets. Default none.
    pub extra_root_certificates: Vec<RootCertificate>,
}

impl RedisOptions {
    /// The default key prefix, `"robotrules:"`.
    pub const DEFAULT_KEY_PREFIX: &'static str = "robotrules:";
    /// The default retention: 30 days.
    pub const DEFAULT_RETENTION: Duration = Duration::from_secs(30 * 24 * 3600);
    /// The default size cap: 1 MiB + 64 KiB.
    pub const DEFAULT_MAX_ENTRY_BYTES: usize = 1024 * 1024 + 64 * 1024;
}

impl Default for RedisOptions {
    fn default() -> Self {
        Self {
            key_prefix: Self::DEFAULT_KEY_PREFIX.to_owned(),
            retention: Self::DEFAULT_RETENTION,
            max_entry_bytes: Self::DEFAULT_MAX_ENTRY_BYTES,
            command_timeout: Duration::from_millis(500),
            lock_poll_initial: Duration::from_millis(25),
            lock_poll_max: Duration::from_millis(500),
            extra_root_certificates: Vec::new(),
        }
    }
}
