//! The entry format in Redis: one version byte ([`VERSION`]), then the [`CacheEntry`] in
//! MessagePack (rmp-serde, fields named so that fields can be added later).
//!
//! The last good copy is written once when it is the latest fetch itself (the usual case after
//! a success), so an entry holds each body at most once per copy. Decoding checks everything:
//! an empty, oversized, foreign (another version byte), truncated or malformed value, or one
//! with bytes after the entry, is a [`CodecError`], never a guess.

use std::sync::Arc;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::cache::CacheEntry;
use crate::outcome::FetchOutcome;

/// The version byte of the format written by this crate. A value starting with any other
/// byte is not read (a newer or older writer's entry is a miss, then replaced).
pub const VERSION: u8 = 1;

/// Why a value is not a readable entry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The value is empty.
    #[error("empty value")]
    Empty,
    /// The value is larger than the size cap.
    #[error("{len} bytes, over the cap of {max}")]
    TooLarge {
        /// The value's length.
        len: usize,
        /// The cap.
        max: usize,
    },
    /// The value starts with a version byte this crate does not write.
    #[error("unknown format version {0}")]
    UnknownVersion(u8),
    /// The bytes after the version byte are not an entry (corrupt or truncated).
    #[error("malformed entry: {0}")]
    Malformed(String),
    /// The entry is followed by more bytes.
    #[error("{0} bytes after the entry")]
    Trailing(usize),
    /// The entry could not be encoded.
    #[error("cannot encode the entry: {0}")]
    Encode(String),
}

/// The last good copy on the wire.
#[derive(Serialize)]
enum GoodRef<'a> {
    None,
    Latest,
    Other(&'a FetchOutcome),
}

#[derive(Deserialize)]
enum Good {
    None,
    Latest,
    Other(Box<FetchOutcome>),
}

#[derive(Serialize)]
struct WireRef<'a> {
    latest: &'a FetchOutcome,
    last_good: GoodRef<'a>,
    unreachable_since: Option<SystemTime>,
    consecutive_failures: u32,
    fresh_until: SystemTime,
}

#[derive(Deserialize)]
struct Wire {
    latest: FetchOutcome,
    last_good: Good,
    unreachable_since: Option<SystemTime>,
    consecutive_failures: u32,
    fresh_until: SystemTime,
}

/// The value for `entry`: [`VERSION`], then the entry. Fails with [`CodecError::TooLarge`]
/// when the value would be longer than `max_bytes`.
pub fn encode(entry: &CacheEntry, max_bytes: usize) -> Result<Vec<u8>, CodecError> {
    let last_good = match &entry.last_good {
        None => GoodRef::None,
        Some(good) if Arc::ptr_eq(good, &entry.latest) || **good == *entry.latest => {
            GoodRef::Latest
        }
        Some(good) => GoodRef::Other(good),
    };
    let wire = WireRef {
        latest: &entry.latest,
        last_good,
        unreachable_since: entry.unreachable_since,
        consecutive_failures: entry.consecutive_failures,
        fresh_until: entry.fresh_until,
    };
    let mut value = Vec::with_capacity(256 + entry.body_bytes());
    value.push(VERSION);
    rmp_serde::encode::write_named(&mut value, &wire)
        .map_err(|error| CodecError::Encode(error.to_string()))?;
    if value.len() > max_bytes {
        return Err(CodecError::TooLarge {
            len: value.len(),
            max: max_bytes,
        });
    }
    Ok(value)
}

/// The entry in `value`, checked: at most `max_bytes` long, [`VERSION`], one whole entry and
/// nothing after it.
pub fn decode(value: &[u8], max_bytes: usize) -> Result<CacheEntry, CodecError> {
    if value.len() > max_bytes {
        return Err(CodecError::TooLarge {
            len: value.len(),
            max: max_bytes,
        });
    }
    let (&version, mut rest) = value.split_first().ok_or(CodecError::Empty)?;
    if version != VERSION {
        return Err(CodecError::UnknownVersion(version));
    }
    let wire = {
        let mut deserializer = rmp_serde::Deserializer::new(&mut rest);
        Wire::deserialize(&mut deserializer)
            .map_err(|error| CodecError::Malformed(error.to_string()))?
    };
    if !rest.is_empty() {
        return Err(CodecError::Trailing(rest.len()));
    }
    let latest = Arc::new(wire.latest);
    let last_good = match wire.last_good {
        Good::None => None,
        Good::Latest => Some(Arc::clone(&latest)),
        Good::Other(good) => Some(Arc::new(*good)),
    };
    Ok(CacheEntry {
        latest,
        last_good,
        unreachable_since: wire.unreachable_since,
        consecutive_failures: wire.consecutive_failures,
        fresh_until: wire.fresh_until,
    })
}
