//! The fleet lock's pieces: random tokens and the compare-and-delete release script.
//!
//! The lock is a key `{prefix}lock:{origin}` set with `SET key token NX PX ttl`: it exists
//! only if nobody held it, it expires by itself after `ttl` (a crashed holder's lock simply
//! goes away), and it is released only by the process that holds its token, with
//! [`UNLOCK_SCRIPT`], so that a slow holder whose lock expired cannot delete its successor's.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// Deletes `KEYS[1]` only when it holds `ARGV[1]`; returns how many keys were deleted.
pub(super) const UNLOCK_SCRIPT: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
";

/// A token no other lock holder has: 128 bits from std's randomly keyed hasher (seeded from
/// the operating system's random source), over the process id, the time and a counter.
pub(super) fn new_token() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    let seed = (std::process::id(), nanos, count);
    let high = RandomState::new().hash_one(seed);
    let low = RandomState::new().hash_one((seed, high));
    format!("{high:016x}{low:016x}")
}

/// `ttl` in whole milliseconds for `PX`, at least 1.
pub(super) fn millis(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}
