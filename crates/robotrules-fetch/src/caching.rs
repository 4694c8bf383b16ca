//! One refresh of an origin's cache entry ([`refresh_entry`]): a [`Fetcher`] behind a
//! [`CachePolicy`] and, when one is shared between processes, a [`Store`] and its lock. The
//! `robotrules` client keeps the entries and the single flight per origin around it.

use robotrules_url::Origin;

use crate::cache::{CacheEntry, CachePolicy, Lease, Store};
use crate::error::FetchError;
use crate::fetcher::{ensure_supported, Fetcher};

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

/// One refresh of `origin`'s cache entry, for callers that keep entries and a single flight of
/// their own (the `robotrules` client keeps one entry per origin with its parsed file).
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
