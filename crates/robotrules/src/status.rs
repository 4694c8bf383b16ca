//! What an HTTP status makes of a robots.txt (RFC 9309 §2.3.1), for crawlers that fetch with
//! their own HTTP client: the table the `fetch` feature's client reads too. It needs no runtime
//! and is in every build of this crate.
//!
//! ```
//! use robotrules::status::{status_access, StatusAccess, TooManyRequests};
//!
//! let access = status_access(503, false, TooManyRequests::default());
//! assert_eq!(access, StatusAccess::Unreachable);
//! assert_eq!(access.blanket(), Some(false)); // every path disallowed
//! ```

pub use robotrules_fetch::status::{
    status_access, StatusAccess, TooManyRequests, RFC9309_MIN_REDIRECTS,
};
