//! One refresh per origin at a time ("single flight"): concurrent questions about an origin
//! whose entry is not current share one fetch and one parse.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use robotrules_fetch::Origin;
use tokio::sync::OnceCell;

use super::entry::Entry;
use super::error::ClientError;

/// A refresh of one origin's entry in progress, shared by every caller asking meanwhile: the
/// entry, and whether it took a fetch.
type Flight = Arc<OnceCell<(Arc<Entry>, bool)>>;

/// The refreshes in progress, one per origin.
#[derive(Debug, Default)]
pub(super) struct Flights(Mutex<HashMap<Origin, Flight>>);

impl Flights {
    /// The result of `refresh` for `origin`, run once for every caller asking meanwhile: the
    /// first caller runs it, the others wait for its result (a cancelled first caller leaves
    /// the refresh to the next one).
    pub(super) async fn share<F, R>(
        &self,
        origin: &Origin,
        refresh: F,
    ) -> Result<(Arc<Entry>, bool), ClientError>
    where
        F: FnOnce() -> R,
        R: Future<Output = Result<(Arc<Entry>, bool), ClientError>>,
    {
        let flight = Arc::clone(self.lock().entry(origin.clone()).or_default());
        let result = flight.get_or_try_init(refresh).await.cloned();
        let mut in_flight = self.lock();
        if in_flight
            .get(origin)
            .is_some_and(|current| Arc::ptr_eq(current, &flight))
        {
            in_flight.remove(origin);
        }
        result
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Origin, Flight>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
