//! Caching of fetch results (RFC 9309 §2.4): the pure [`CachePolicy`], the [`Store`] trait,
//! the [`Budget`] of an in-memory tier, and the [`Lease`] a shared store hands out for one
//! fetch per origin across processes.

/// Header parsing, public only for the fuzz targets (`fuzz` feature).
#[cfg(feature = "fuzz")]
pub mod directives;
#[cfg(not(feature = "fuzz"))]
mod directives;
mod policy;
mod store;

pub(crate) use directives::{parse_http_date, parse_retry_after};
pub use policy::{Basis, CacheEntry, CachePolicy, Served, POLITENESS_FLOOR};
pub use store::{Budget, IsFresh, Lease, Store};
