//! Where cache entries live: the [`Store`] trait and the bounded in-memory [`MemoryStore`].

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Mutex, PoisonError};

use futures_util::future::BoxFuture;
use robotrules_url::Origin;

use super::policy::CacheEntry;

/// A cache of [`CacheEntry`] values keyed by origin.
///
/// Methods return boxed futures so that a store can live elsewhere (Redis, a database) and
/// still be used as `Arc<dyn Store>`. A store may forget entries at any time.
pub trait Store: Send + Sync + fmt::Debug {
    /// The entry for `origin`, if any.
    fn get<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, Option<CacheEntry>>;
    /// Stores (or replaces) the entry for `origin`.
    fn put<'a>(&'a self, origin: &'a Origin, entry: CacheEntry) -> BoxFuture<'a, ()>;
    /// Forgets the entry for `origin`.
    fn remove<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, ()>;
}

/// A bounded in-memory store that evicts the least recently used entry when it holds more
/// than `max_entries` entries or more than `max_body_bytes` bytes of bodies.
#[derive(Debug)]
pub struct MemoryStore {
    max_entries: usize,
    max_body_bytes: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    entries: HashMap<Origin, Slot>,
    /// Use ticks to origins, oldest first.
    recency: BTreeMap<u64, Origin>,
    tick: u64,
    body_bytes: usize,
}

#[derive(Debug)]
struct Slot {
    entry: CacheEntry,
    tick: u64,
}

impl MemoryStore {
    /// Default bound on entries.
    pub const DEFAULT_MAX_ENTRIES: usize = 10_000;
    /// Default bound on body bytes (256 MiB).
    pub const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

    /// A store bounded by `max_entries` entries and `max_body_bytes` bytes of bodies (at
    /// least one entry is always kept).
    pub fn new(max_entries: usize, max_body_bytes: usize) -> Self {
        Self {
            max_entries: max_entries.max(1),
            max_body_bytes,
            state: Mutex::new(State::default()),
        }
    }

    /// How many entries the store holds.
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the store holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of bodies held.
    pub fn body_bytes(&self) -> usize {
        self.lock().body_bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn get_now(&self, origin: &Origin) -> Option<CacheEntry> {
        let mut state = self.lock();
        let tick = state.next_tick();
        let slot = state.entries.get_mut(origin)?;
        let old_tick = std::mem::replace(&mut slot.tick, tick);
        let entry = slot.entry.clone();
        state.recency.remove(&old_tick);
        state.recency.insert(tick, origin.clone());
        Some(entry)
    }

    fn put_now(&self, origin: &Origin, entry: CacheEntry) {
        let mut state = self.lock();
        state.remove(origin);
        let tick = state.next_tick();
        state.body_bytes += entry.body_bytes();
        state.recency.insert(tick, origin.clone());
        state.entries.insert(origin.clone(), Slot { entry, tick });
        while state.entries.len() > self.max_entries
            || (state.body_bytes > self.max_body_bytes && state.entries.len() > 1)
        {
            let Some((_, oldest)) = state.recency.pop_first() else {
                break;
            };
            state.remove(&oldest);
        }
    }
}

impl State {
    fn next_tick(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }

    fn remove(&mut self, origin: &Origin) {
        if let Some(slot) = self.entries.remove(origin) {
            self.recency.remove(&slot.tick);
            self.body_bytes = self.body_bytes.saturating_sub(slot.entry.body_bytes());
        }
    }
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::new(Self::DEFAULT_MAX_ENTRIES, Self::DEFAULT_MAX_BODY_BYTES)
    }
}

impl Store for MemoryStore {
    fn get<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, Option<CacheEntry>> {
        Box::pin(async move { self.get_now(origin) })
    }

    fn put<'a>(&'a self, origin: &'a Origin, entry: CacheEntry) -> BoxFuture<'a, ()> {
        Box::pin(async move { self.put_now(origin, entry) })
    }

    fn remove<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, ()> {
        Box::pin(async move { self.lock().remove(origin) })
    }
}
