//! [`FleetError`]: what connecting to Redis, and the inspection commands, can fail with.

/// Errors of [`RedisStore`](super::RedisStore)'s constructor and of its inspection methods
/// ([`inspect`](super::RedisStore::inspect), [`purge`](super::RedisStore::purge)). The cache
/// itself never fails: through [`Store`](crate::cache::Store) a fault is a miss.
///
/// Each message is one line, for a command line to print before exiting with status 2.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FleetError {
    /// The URL is not a Redis URL (`redis://`, `rediss://`, `redis+unix://`, `unix://`).
    #[error("invalid Redis URL {url:?}: {reason}")]
    Url {
        /// The URL given (with any password replaced by `***`).
        url: String,
        /// Why it was refused.
        reason: String,
    },
    /// Redis refused the credentials (`WRONGPASS`, `NOAUTH`, an ACL denial): which Redis
    /// (its URL, password hidden) and what it said.
    #[error("Redis authentication failed: {0}")]
    Auth(String),
    /// Redis did not answer within the command timeout.
    #[error("Redis at {target} did not answer within {timeout_ms} ms")]
    Timeout {
        /// The Redis asked (its URL, password hidden).
        target: String,
        /// The timeout, in milliseconds.
        timeout_ms: u128,
    },
    /// Redis answered with an error, or the connection failed: which Redis (its URL,
    /// password hidden) and what went wrong.
    #[error("Redis at {0}")]
    Redis(String),
    /// The value stored for the origin is not a readable entry.
    #[error("the cached entry is unreadable: {0}")]
    Corrupt(String),
}
