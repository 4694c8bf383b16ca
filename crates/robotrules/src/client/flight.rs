//! One refresh per origin at a time ("single flight"): concurrent questions about an origin
//! whose entry is not current share one fetch and one parse.

use std::collections::HashMap;
use std::sync::{Arc, MutexGuard, PoisonError};

use robotrules_fetch::refresh_entry;
use robotrules_fetch::Origin;
use tokio::sync::OnceCell;

use super::entry::Entry;
use super::{Client, ClientError};

/// A refresh of one origin's entry in progress, shared by every caller asking meanwhile: the
/// entry, and whether it took a fetch.
pub(super) type Flight = Arc<OnceCell<(Arc<Entry>, bool)>>;

impl Client {
    /// The entry for `origin` (asked about as `url`), and whether no fetch was waited for:
    /// the current one, or a refreshed one that every caller asking meanwhile shares.
    pub(super) async fn entry(
        &self,
        origin: &Origin,
        url: &str,
    ) -> Result<(Arc<Entry>, bool), ClientError> {
        if let Some(entry) = self.current(origin, self.now()) {
            return Ok((entry, true));
        }
        let flight = {
            let mut in_flight = self.lock_in_flight();
            Arc::clone(in_flight.entry(origin.clone()).or_default())
        };
        let result = flight
            .get_or_try_init(|| self.refresh(origin, url))
            .await
            .cloned();
        {
            let mut in_flight = self.lock_in_flight();
            if in_flight
                .get(origin)
                .is_some_and(|current| Arc::ptr_eq(current, &flight))
            {
                in_flight.remove(origin);
            }
        }
        let (entry, fetched) = result?;
        Ok((entry, !fetched))
    }

    /// A new entry for `origin`, and whether it took a fetch: the one a flight just finished
    /// put there, the same cache entry served anew (the unreachable schedule passed a
    /// threshold), or the shared store's or a new fetch's; its served copy parsed unless the
    /// entry it replaces holds that copy parsed already.
    pub(super) async fn refresh(
        &self,
        origin: &Origin,
        url: &str,
    ) -> Result<(Arc<Entry>, bool), ClientError> {
        let inner = &*self.inner;
        let now = self.now();
        let current = inner.entries.get(origin);
        if let Some(entry) = &current {
            if now < entry.until {
                return Ok((Arc::clone(entry), false));
            }
        }
        let local = current
            .as_deref()
            .filter(|entry| entry.storable)
            .map(|entry| &entry.cache);
        let refreshed = refresh_entry(
            &inner.fetcher,
            &inner.policy,
            inner.shared.as_deref(),
            origin,
            local,
        )
        .await
        .map_err(|source| ClientError::Url {
            url: url.to_owned(),
            source,
        })?;
        let entry = self.entry_of(
            refreshed.entry,
            refreshed.storable,
            current.as_deref(),
            self.now(),
        );
        self.remember(origin, &entry);
        Ok((entry, refreshed.fetched))
    }

    pub(super) fn lock_in_flight(&self) -> MutexGuard<'_, HashMap<Origin, Flight>> {
        self.inner
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
