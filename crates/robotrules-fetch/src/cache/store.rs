//! Where cache entries live: the [`Store`] trait (entries, and the lock that makes one fetch
//! per origin at a time across processes), and the [`Budget`] that bounds an in-memory tier of
//! them (the `robotrules` client's entries).

use std::fmt;
use std::future::ready;
use std::time::Duration;

use futures_util::future::BoxFuture;
use robotrules_url::Origin;

use super::policy::CacheEntry;

/// Whether an entry may be served now (the client's [`CachePolicy`] and clock), for
/// a store that waits for another process's fetch in [`Store::lock`].
///
/// [`CachePolicy`]: super::CachePolicy
pub type IsFresh<'a> = &'a (dyn Fn(&CacheEntry) -> bool + Send + Sync);

/// The answer of [`Store::lock`]: may this process fetch the origin's robots.txt?
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Lease {
    /// No lock shared with other processes: the store is local, or the shared lock could not
    /// be used (the store is down, slow, or the wait reached the deadline). Fetch; within the
    /// process the caching fetcher's single flight still makes it one fetch per origin.
    Local,
    /// This process holds the shared lock until it is released with [`Store::unlock`] or it
    /// expires: fetch, store the entry, release.
    Held {
        /// The lock's random token: only its holder can release it.
        token: String,
    },
    /// Another process fetched while this one waited, or had just stored its entry when this
    /// one took the lock (the lock is then released again): its fresh entry.
    Ready(CacheEntry),
}

/// A cache of [`CacheEntry`] values keyed by origin.
///
/// Methods return boxed futures so that a store can live elsewhere (Redis, a database) and
/// still be used as `Arc<dyn Store>`. A store may forget entries at any time. A store never
/// fails: an entry it cannot read is a miss, an entry it cannot write is dropped.
pub trait Store: Send + Sync + fmt::Debug {
    /// The entry for `origin`, if any.
    fn get<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, Option<CacheEntry>>;
    /// Stores (or replaces) the entry for `origin`.
    fn put<'a>(&'a self, origin: &'a Origin, entry: CacheEntry) -> BoxFuture<'a, ()>;
    /// Forgets the entry for `origin`.
    fn remove<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, ()>;

    /// Takes the right to fetch `origin` for every process sharing the store, for at most
    /// `ttl` (the fetch deadline): a lock that expires by itself if its holder dies. When
    /// another process holds it, waits until that process's entry is stored and `is_fresh`
    /// ([`Lease::Ready`]), the lock is free ([`Lease::Held`], unless a fresh entry is already
    /// stored: [`Lease::Ready`]), or `ttl` has passed ([`Lease::Local`]).
    ///
    /// The default, for stores local to one process, is [`Lease::Local`] at once.
    fn lock<'a>(
        &'a self,
        origin: &'a Origin,
        ttl: Duration,
        is_fresh: IsFresh<'a>,
    ) -> BoxFuture<'a, Lease> {
        let _ = (origin, ttl, is_fresh);
        Box::pin(ready(Lease::Local))
    }

    /// Releases a lease from [`Store::lock`] (only a [`Lease::Held`] needs it; the default
    /// does nothing).
    fn unlock<'a>(&'a self, origin: &'a Origin, lease: Lease) -> BoxFuture<'a, ()> {
        let _ = (origin, lease);
        Box::pin(ready(()))
    }
}

/// The most body bytes a budget counts (1 TiB), so that `max_entries × max_body_bytes`
/// stays within `u64`.
const BODY_BUDGET_CAP: u64 = 1 << 40;

/// The share of the capacity for entries used more than once (`quick_cache`'s hot section);
/// it is also the heaviest entry `quick_cache` admits, so weights are clamped to it.
const HOT_ALLOCATION: f64 = 0.9;

/// A memory budget of at most about `max_entries` entries and `max_body_bytes` bytes of
/// robots.txt bodies, kept with one weight per entry in a weighted `quick_cache`: `max(
/// max_body_bytes, max_entries × body bytes)` out of a capacity of `max_entries ×
/// max_body_bytes`. A full cache of bodiless entries holds `max_entries`, a full cache of
/// large bodies `max_body_bytes`; an entry over the budget on its own is still kept (alone).
/// The bound of the `robotrules` client's entries (one per origin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    max_entries: u64,
    max_body_bytes: u64,
    /// The heaviest weight admitted (an entry over the budget on its own).
    heaviest: u64,
}

impl Budget {
    /// A budget of `max_entries` entries (at least 1) and `max_body_bytes` bytes of bodies.
    pub fn new(max_entries: usize, max_body_bytes: usize) -> Budget {
        let max_entries = u64::try_from(max_entries.max(1)).unwrap_or(u64::MAX);
        let max_body_bytes = u64::try_from(max_body_bytes)
            .unwrap_or(u64::MAX)
            .clamp(1, BODY_BUDGET_CAP);
        let capacity = max_entries.saturating_mul(max_body_bytes);
        // As quick_cache computes its hot target (at least 1).
        let heaviest = ((capacity as f64 * HOT_ALLOCATION) as u64).clamp(1, capacity);
        Budget {
            max_entries,
            max_body_bytes,
            heaviest,
        }
    }

    /// The weight of an entry holding `body_bytes` bytes of bodies.
    pub fn weight(&self, body_bytes: usize) -> u64 {
        let body = u64::try_from(body_bytes).unwrap_or(u64::MAX);
        body.saturating_mul(self.max_entries)
            .max(self.max_body_bytes)
            .min(self.heaviest)
    }

    /// The options of a `quick_cache` cache that keeps this budget: its weight capacity,
    /// hot allocation and shards (small caches keep one shard, so the bounds hold exactly;
    /// large ones spread the lock).
    pub fn cache_options(&self) -> quick_cache::Options {
        let items = usize::try_from(self.max_entries).unwrap_or(usize::MAX);
        let shards = (items / 1024).clamp(1, 64).next_power_of_two();
        let options = quick_cache::OptionsBuilder::new()
            .estimated_items_capacity(items.min(1 << 20))
            .weight_capacity(self.max_entries.saturating_mul(self.max_body_bytes))
            .shards(shards)
            .hot_allocation(HOT_ALLOCATION)
            .build();
        // The builder fails only when a required field (items, weight capacity) is missing.
        options.expect("both required options are set")
    }
}
