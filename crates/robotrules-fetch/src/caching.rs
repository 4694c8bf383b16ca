//! The [`CachingFetcher`]: a [`Fetcher`] behind a [`CachePolicy`] and a [`Store`], with one
//! fetch per origin at a time ("single flight": concurrent callers share it).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use robotrules_url::Origin;
use tokio::sync::OnceCell;

use crate::cache::{Basis, CacheEntry, CachePolicy, Lease, MemoryStore, Store};
use crate::error::FetchError;
use crate::fetcher::{ensure_supported, Fetcher};
use crate::outcome::{Access, FetchOutcome, VerdictClass};

/// What the cache answers for an origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CachedOutcome {
    /// The origin asked about.
    pub origin: Origin,
    /// The access result to apply: the latest fetch's, the last good copy's while the file
    /// is unreachable, or "unavailable" once it has been unreachable too long.
    pub access: Access,
    /// Why `access` is what it is.
    pub basis: Basis,
    /// The fetch `access` comes from (the latest fetch, or the last good copy).
    pub served: Arc<FetchOutcome>,
    /// The most recent fetch (differs from `served` when a last good copy is used).
    pub latest: Arc<FetchOutcome>,
    /// True when the answer came from the cache without waiting for a fetch.
    pub from_cache: bool,
    /// How old `served` is.
    pub age: Duration,
    /// Until when the entry is used without fetching again.
    pub fresh_until: SystemTime,
    /// Until when this answer holds: `fresh_until`, or earlier when the unreachable schedule
    /// passes a threshold before it ([`crate::cache::Served::until`]).
    pub answer_until: SystemTime,
}

impl CachedOutcome {
    /// The verdict class of the access result.
    pub fn verdict_class(&self) -> VerdictClass {
        self.access.verdict_class()
    }

    /// The robots.txt body, when the access result is a success.
    pub fn body(&self) -> Option<&Bytes> {
        self.access.body()
    }
}

/// Fetches robots.txt through a cache; `Clone` (clones share the cache) and `Send + Sync`.
///
/// ```no_run
/// # async fn demo() -> Result<(), robotrules_fetch::FetchError> {
/// use robotrules_fetch::{cache::CachePolicy, CachingFetcher, Fetcher, FetchOptions};
///
/// let fetcher = Fetcher::new(FetchOptions::default())?;
/// let cache = CachingFetcher::new(fetcher, CachePolicy::rfc9309());
/// let first = cache.get("https://example.com/a").await?;
/// let again = cache.get("https://example.com/b").await?; // same origin: served from cache
/// assert!(again.from_cache);
/// # let _ = first; Ok(()) }
/// ```
#[derive(Clone)]
pub struct CachingFetcher {
    inner: Arc<Inner>,
}

struct Inner {
    fetcher: Fetcher,
    policy: CachePolicy,
    store: Arc<dyn Store>,
    in_flight: Mutex<HashMap<Origin, Arc<OnceCell<Refreshed>>>>,
}

impl fmt::Debug for CachingFetcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CachingFetcher")
            .field("fetcher", &self.inner.fetcher)
            .field("policy", &self.inner.policy)
            .field("store", &self.inner.store)
            .finish_non_exhaustive()
    }
}

impl CachingFetcher {
    /// A caching fetcher with a default [`MemoryStore`].
    pub fn new(fetcher: Fetcher, policy: CachePolicy) -> Self {
        Self::with_store(fetcher, policy, Arc::new(MemoryStore::default()))
    }

    /// A caching fetcher over `store`.
    pub fn with_store(fetcher: Fetcher, policy: CachePolicy, store: Arc<dyn Store>) -> Self {
        Self {
            inner: Arc::new(Inner {
                fetcher,
                policy,
                store,
                in_flight: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The underlying fetcher.
    pub fn fetcher(&self) -> &Fetcher {
        &self.inner.fetcher
    }

    /// The cache policy.
    pub fn policy(&self) -> &CachePolicy {
        &self.inner.policy
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The answer for the origin of `url` (any URL: a page or the robots.txt itself).
    pub async fn get(&self, url: &str) -> Result<CachedOutcome, FetchError> {
        let origin = Fetcher::origin_of(url)?;
        self.get_origin(&origin).await
    }

    /// The answer for `origin`: from the store while fresh, otherwise from a new fetch that
    /// concurrent callers for the same origin share. With a store shared by several processes
    /// ([`Store::lock`]) the fetch is also shared across them: one process fetches, the others
    /// wait (up to the fetch deadline) for its entry.
    pub async fn get_origin(&self, origin: &Origin) -> Result<CachedOutcome, FetchError> {
        ensure_supported(origin)?;
        let inner = &*self.inner;
        let now = inner.fetcher.clock().now();
        if let Some(entry) = inner.store.get(origin).await {
            if inner.policy.is_fresh(&entry, now) {
                return Ok(self.answer(origin, &entry, now, true));
            }
        }
        let cell = {
            let mut in_flight = self.lock_in_flight();
            Arc::clone(in_flight.entry(origin.clone()).or_default())
        };
        let result = cell
            .get_or_try_init(|| async {
                refresh_entry(
                    &inner.fetcher,
                    &inner.policy,
                    Some(&*inner.store),
                    origin,
                    None,
                )
                .await
            })
            .await
            .cloned();
        {
            let mut in_flight = self.lock_in_flight();
            if in_flight
                .get(origin)
                .is_some_and(|current| Arc::ptr_eq(current, &cell))
            {
                in_flight.remove(origin);
            }
        }
        let refreshed = result?;
        let now = inner.fetcher.clock().now();
        Ok(self.answer(origin, &refreshed.entry, now, !refreshed.fetched))
    }

    /// Forgets what the cache knows about `origin`; the next call fetches again.
    pub async fn invalidate(&self, origin: &Origin) {
        self.inner.store.remove(origin).await;
    }

    fn lock_in_flight(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<Origin, Arc<OnceCell<Refreshed>>>> {
        self.inner
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn answer(
        &self,
        origin: &Origin,
        entry: &CacheEntry,
        now: SystemTime,
        from_cache: bool,
    ) -> CachedOutcome {
        let served = self.inner.policy.serve(entry, now);
        CachedOutcome {
            origin: origin.clone(),
            access: served.access,
            basis: served.basis,
            age: now
                .duration_since(served.from.fetched_at)
                .unwrap_or(Duration::ZERO),
            served: served.from,
            latest: Arc::clone(&entry.latest),
            from_cache,
            fresh_until: entry.fresh_until,
            answer_until: served.until,
        }
    }
}

/// The result of [`refresh_entry`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refreshed {
    /// The origin's entry now.
    pub entry: CacheEntry,
    /// True when this call fetched; false when a fresh entry was found (stored, or written by
    /// another process while this one waited for the shared lock).
    pub fetched: bool,
    /// Whether the entry may be kept ([`CachePolicy::is_storable`]); one that may not is
    /// used for this answer only and is no `previous` for the next refresh.
    pub storable: bool,
}

/// One refresh of `origin`'s cache entry: the step a [`CachingFetcher`] takes under its single
/// flight, for callers that keep entries and a single flight of their own (the `robotrules`
/// client keeps one entry per origin with its parsed file).
///
/// The previous entry is `shared`'s, when a store is given and holds one, else `local`. A
/// previous entry still fresh is returned as it is. Otherwise the fetch is taken for every
/// process sharing `shared` ([`Store::lock`]: another process's fresh entry may come back
/// instead), made, turned into the next entry by `policy` (RFC 9309 §2.4: an unreachable
/// result keeps the last good copy), and written back to `shared` (or removed from it when it
/// may not be stored).
///
/// Call it at most once at a time per origin: concurrent calls each fetch.
///
/// # Errors
/// [`FetchError::UnsupportedScheme`] for an origin that is not http, https or ftp.
pub async fn refresh_entry(
    fetcher: &Fetcher,
    policy: &CachePolicy,
    shared: Option<&dyn Store>,
    origin: &Origin,
    local: Option<&CacheEntry>,
) -> Result<Refreshed, FetchError> {
    ensure_supported(origin)?;
    let stored = match shared {
        Some(store) => store.get(origin).await,
        None => None,
    };
    let previous = stored.as_ref().or(local);
    if let Some(previous) = previous {
        if policy.is_fresh(previous, fetcher.clock().now()) {
            return Ok(Refreshed {
                entry: previous.clone(),
                fetched: false,
                storable: true,
            });
        }
    }
    let Some(store) = shared else {
        let outcome = fetcher.fetch_origin(origin).await?;
        let storable = policy.is_storable(&outcome);
        let entry = policy.next_entry(previous, outcome);
        return Ok(Refreshed {
            entry,
            fetched: true,
            storable,
        });
    };
    // One fetch per origin across every process sharing the store: the lock expires with
    // the fetch deadline, so a crashed holder delays no one longer.
    let deadline = fetcher.options().total_timeout;
    let is_fresh = |entry: &CacheEntry| policy.is_fresh(entry, fetcher.clock().now());
    let lease = store.lock(origin, deadline, &is_fresh).await;
    if let Lease::Ready(entry) = lease {
        // Another process fetched it: this caller waited for no fetch of its own.
        return Ok(Refreshed {
            entry,
            fetched: false,
            storable: true,
        });
    }
    let outcome = match fetcher.fetch_origin(origin).await {
        Ok(outcome) => outcome,
        Err(error) => {
            store.unlock(origin, lease).await;
            return Err(error);
        }
    };
    let storable = policy.is_storable(&outcome);
    let entry = policy.next_entry(previous, outcome);
    if storable {
        store.put(origin, entry.clone()).await;
    } else {
        store.remove(origin).await;
    }
    store.unlock(origin, lease).await;
    Ok(Refreshed {
        entry,
        fetched: true,
        storable,
    })
}
