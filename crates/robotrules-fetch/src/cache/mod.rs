//! Caching of fetch results (RFC 9309 §2.4): the pure [`CachePolicy`], the [`Store`] trait
//! with its in-memory [`MemoryStore`], and header parsing helpers.

mod directives;
mod policy;
mod store;

pub use directives::{parse_delta_seconds, parse_http_date, parse_retry_after, CacheControl};
pub use policy::{Basis, CacheEntry, CachePolicy, Served};
pub use store::{MemoryStore, Store};
