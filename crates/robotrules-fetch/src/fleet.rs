//! A robots.txt cache shared by a crawler fleet: [`RedisStore`], a [`Store`](crate::cache::Store)
//! in Redis (or Valkey), behind the `redis` feature.
//!
//! N crawler processes on M machines cost a site one robots.txt request per freshness period,
//! not N, and agree with each other: the entry in Redis is the source of truth (bytes, access
//! result, fetch time, freshness, last good copy; RFC 9309 §2.4), and a lock key per origin
//! makes the fetch happen once across the fleet ([`refresh_entry`](crate::refresh_entry), and
//! so the facade's client, takes it through [`Store::lock`](crate::cache::Store::lock)).
//!
//! - Keys: `{prefix}{origin}` holds the entry (for example
//!   `robotrules:https://example.com:443`), `{prefix}lock:{origin}` the lock. One key per
//!   origin, so Redis Cluster shards them and no command crosses slots.
//! - Entries ([`codec`]): a version byte, then MessagePack; at most
//!   [`RedisOptions::max_entry_bytes`]; written whole with one `SET … PX`, the expiry being
//!   the retention of the last good copy ([`RedisOptions::retention`]). Freshness is read
//!   from the entry, never from the key's TTL.
//! - Nothing read from Redis is trusted: a corrupt, truncated, foreign (another version byte,
//!   another origin's entry), wrong-type or oversized value is a miss, counted in
//!   [`FleetHealth`], logged with `tracing`, and replaced by the next write.
//! - Faults never stop the crawl: when Redis is down, slow, restarting or refusing writes, a
//!   read is a miss, a write is dropped and the lock is taken locally (the process fetches
//!   itself), all within [`RedisOptions::command_timeout`], counted and logged.

pub mod codec;
mod connection;
mod error;
mod health;
mod lock;
mod options;
mod store;
mod tls;

pub use error::FleetError;
pub use health::FleetHealth;
pub use options::RedisOptions;
pub use store::RedisStore;
