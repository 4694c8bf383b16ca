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
    in_flight: Mutex<HashMap<Origin, Arc<OnceCell<CacheEntry>>>>,
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
        let mut found_fresh = false;
        let result = cell
            .get_or_try_init(|| async {
                // Another caller may have stored a fresh entry since the look-up above.
                let previous = inner.store.get(origin).await;
                if let Some(previous) = previous.as_ref() {
                    if inner.policy.is_fresh(previous, inner.fetcher.clock().now()) {
                        found_fresh = true;
                        return Ok(previous.clone());
                    }
                }
                // One fetch per origin across every process sharing the store: the lock
                // expires with the fetch deadline, so a crashed holder delays no one longer.
                let deadline = inner.fetcher.options().total_timeout;
                let is_fresh =
                    |entry: &CacheEntry| inner.policy.is_fresh(entry, inner.fetcher.clock().now());
                let lease = inner.store.lock(origin, deadline, &is_fresh).await;
                if let Lease::Ready(entry) = lease {
                    // Another process fetched it: this caller waited for no fetch of its own.
                    found_fresh = true;
                    return Ok(entry);
                }
                let outcome = match inner.fetcher.fetch_origin(origin).await {
                    Ok(outcome) => outcome,
                    Err(error) => {
                        inner.store.unlock(origin, lease).await;
                        return Err(error);
                    }
                };
                let storable = inner.policy.is_storable(&outcome);
                let entry = inner.policy.next_entry(previous.as_ref(), outcome);
                if storable {
                    inner.store.put(origin, entry.clone()).await;
                } else {
                    inner.store.remove(origin).await;
                }
                inner.store.unlock(origin, lease).await;
                Ok::<_, FetchError>(entry)
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
        let entry = result?;
        let now = inner.fetcher.clock().now();
        Ok(self.answer(origin, &entry, now, found_fresh))
    }

    /// Forgets what the cache knows about `origin`; the next call fetches again.
    pub async fn invalidate(&self, origin: &Origin) {
        self.inner.store.remove(origin).await;
    }

    fn lock_in_flight(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<Origin, Arc<OnceCell<CacheEntry>>>> {
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
