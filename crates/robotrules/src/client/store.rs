//! What a cache shared between processes implements: the [`Store`] trait and every type its
//! methods take and return. Pass one to [`ClientBuilder::store`](super::ClientBuilder::store);
//! the client keeps its own entries in front of it. `RedisStore` (feature `redis`) is one.
//!
//! ```
//! use std::collections::HashMap;
//! use std::sync::{Arc, Mutex};
//! use robotrules::client::store::{BoxFuture, CacheEntry, Origin, Store};
//!
//! /// Every entry in one map, for one process.
//! #[derive(Debug, Default)]
//! struct MapStore(Mutex<HashMap<Origin, CacheEntry>>);
//!
//! impl Store for MapStore {
//!     fn get<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, Option<CacheEntry>> {
//!         let found = self.0.lock().ok().and_then(|map| map.get(origin).cloned());
//!         Box::pin(async move { found })
//!     }
//!     fn put<'a>(&'a self, origin: &'a Origin, entry: CacheEntry) -> BoxFuture<'a, ()> {
//!         if let Ok(mut map) = self.0.lock() {
//!             map.insert(origin.clone(), entry);
//!         }
//!         Box::pin(async {})
//!     }
//!     fn remove<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, ()> {
//!         if let Ok(mut map) = self.0.lock() {
//!             map.remove(origin);
//!         }
//!         Box::pin(async {})
//!     }
//! }
//!
//! let client = robotrules::client::Client::builder().crawler("ExampleBot")
//!     .store(Arc::new(MapStore::default()))
//!     .build()?;
//! # let _ = client; Ok::<(), robotrules::client::ClientError>(())
//! ```

pub use robotrules_fetch::cache::{CacheEntry, IsFresh, Lease, Store};
pub use robotrules_fetch::{
    Access, CacheHeaders, FetchOutcome, Hop, Origin, TimeoutPhase, TlsFailure, Truncation,
    UnavailableReason, UnreachableReason,
};

/// The origin whose robots.txt governs `url`, read as the client reads it: the key of its
/// entry in a [`Store`] (scheme, lower-case punycode host, port; a default port elided).
///
/// ```
/// let origin = robotrules::client::store::origin_of("https://EXAMPLE.com:443/a?b")?;
/// assert_eq!(origin.to_string(), "https://example.com");
/// assert!(robotrules::client::store::origin_of("mailto:a@example.com").is_err());
/// # Ok::<(), robotrules::client::FetchError>(())
/// ```
///
/// # Errors
/// A URL that cannot have a robots.txt the client fetches: not a URL, no host, or a scheme
/// other than http, https and ftp.
pub fn origin_of(url: &str) -> Result<Origin, robotrules_fetch::FetchError> {
    robotrules_fetch::Fetcher::origin_of(url)
}

/// The future a [`Store`] method returns: boxed, so a store can be used as `Arc<dyn Store>`
/// (the same type as `futures_util::future::BoxFuture`).
pub type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;
