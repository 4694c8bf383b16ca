//! The async [`Client`]: may this crawler fetch this URL? End to end — the robots.txt of the
//! URL's origin is fetched (HTTP, HTTPS or FTP) and cached by `robotrules-fetch` with the
//! status, redirect, size and cache rules of RFC 9309 §2.3–§2.5, parsed once per fetched copy,
//! and asked.
//!
//! | access result (RFC 9309 §2.3.1) | verdict class | what [`Client::is_allowed`] answers |
//! |---|---|---|
//! | success (§2.3.1.1) | conditional | the file's rules decide ([`Answer::decided_by`]) |
//! | unavailable (§2.3.1.3: 4xx, too many redirects, FTP 550) | full allow | allowed |
//! | unreachable (§2.3.1.4: 5xx, network errors) | full disallow | disallowed, `/robots.txt` included |
//!
//! While the file is unreachable the cache may serve the last good copy, and after 30 days it
//! reads the file as unavailable ([`CachePolicy`]); the decision then follows what is served.
//! [`Client::lookup`] reports what the client holds for an origin: the fetches behind the
//! answer (requests, statuses, bytes kept, truncation), the access result and the cache
//! lifetime.
//! Only behind the `fetch` feature (off by default: parsing needs no runtime).
//!
//! The modules: the [`Client`] and its questions (`ask`), [`ClientBuilder`] (`builder`), the answer ([`Answer`], `decision`), what is
//! held for an origin ([`Lookup`], `lookup`), the client's per-origin entry (`entry`), the one
//! refresh per origin at a time (`flight`), the turns of [`Client::wait_turn`] (`turn`), and
//! what a cache shared between processes implements ([`store`]).

pub use robotrules_fetch::cache::{Basis, CachePolicy, POLITENESS_FLOOR};
/// A crawler fleet's shared robots.txt cache in Redis (feature `redis`): pass a
/// [`RedisStore`] to [`ClientBuilder::store`] and every process asks each origin once.
#[cfg(feature = "redis")]
pub use robotrules_fetch::fleet::{FleetError, FleetHealth, RedisOptions, RedisStore};
pub use robotrules_fetch::{
    AccessKind, AddressPolicy, Clock, FetchError, FetchOptions, Hop, ManualClock, RootCertificate,
    Truncation, VerdictClass, DEFAULT_USER_AGENT,
};

mod ask;
mod builder;
mod decision;
mod entry;
mod error;
mod flight;
mod lookup;
pub mod store;
mod turn;

pub use ask::Client;
pub use builder::ClientBuilder;
pub use decision::{Answer, Explained};
pub use error::ClientError;
pub use lookup::{FetchRecord, Lookup};
pub use store::Store;
pub use turn::{Turn, DEFAULT_MAX_CRAWL_DELAY};
