//! [`FleetHealth`]: counters of what went wrong (and right) between a process and Redis.

use std::sync::atomic::{AtomicU64, Ordering};

/// A snapshot of a [`RedisStore`](super::RedisStore)'s counters since it was connected
/// ([`RedisStore::health`](super::RedisStore::health)). Every fault the store absorbed is
/// counted here: a crawler can export these as metrics and alert on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct FleetHealth {
    /// Whether the last command reached Redis.
    pub connected: bool,
    /// Reads that found a readable entry.
    pub hits: u64,
    /// Reads that found no entry.
    pub misses: u64,
    /// Entries written.
    pub writes: u64,
    /// Commands that failed with an error (connection refused or lost, `OOM`, `READONLY`, …),
    /// timeouts not included.
    pub errors: u64,
    /// Commands that did not finish within the command timeout.
    pub timeouts: u64,
    /// Values found at an entry key that were not a readable entry (corrupt, truncated,
    /// another format version, another origin's entry, a key of another type, oversized):
    /// each was read as a miss and is replaced by the next write.
    pub corrupt: u64,
    /// Entries not written because they were over the size cap.
    pub oversized: u64,
    /// Operations that fell back because Redis failed or timed out: a read taken as a miss, a
    /// write dropped, a lock taken locally.
    pub fallbacks: u64,
    /// Fleet locks acquired (this process fetched for the fleet).
    pub locks_acquired: u64,
    /// Times this process found the lock held by another and waited.
    pub lock_waits: u64,
    /// Waits that ended with the other process's fresh entry.
    pub lock_wait_hits: u64,
    /// Waits that reached the fetch deadline without a fresh entry, after which this process
    /// fetched itself. (A wait that finds the lock gone takes it: [`FleetHealth::locks_acquired`].)
    pub lock_wait_timeouts: u64,
}

/// The live counters behind [`FleetHealth`].
#[derive(Debug, Default)]
pub(super) struct Counters {
    pub(super) connected: std::sync::atomic::AtomicBool,
    pub(super) hits: AtomicU64,
    pub(super) misses: AtomicU64,
    pub(super) writes: AtomicU64,
    pub(super) errors: AtomicU64,
    pub(super) timeouts: AtomicU64,
    pub(super) corrupt: AtomicU64,
    pub(super) oversized: AtomicU64,
    pub(super) fallbacks: AtomicU64,
    pub(super) locks_acquired: AtomicU64,
    pub(super) lock_waits: AtomicU64,
    pub(super) lock_wait_hits: AtomicU64,
    pub(super) lock_wait_timeouts: AtomicU64,
}

/// Adds one to `counter`.
pub(super) fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

impl Counters {
    pub(super) fn snapshot(&self) -> FleetHealth {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        FleetHealth {
            connected: self.connected.load(Ordering::Relaxed),
            hits: get(&self.hits),
            misses: get(&self.misses),
            writes: get(&self.writes),
            errors: get(&self.errors),
            timeouts: get(&self.timeouts),
            corrupt: get(&self.corrupt),
            oversized: get(&self.oversized),
            fallbacks: get(&self.fallbacks),
            locks_acquired: get(&self.locks_acquired),
            lock_waits: get(&self.lock_waits),
            lock_wait_hits: get(&self.lock_wait_hits),
            lock_wait_timeouts: get(&self.lock_wait_timeouts),
        }
    }
}
