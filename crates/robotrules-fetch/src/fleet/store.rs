//! [`RedisStore`]: the [`Store`] in Redis, with the fleet lock, and inspection for operators.

use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use redis::cluster::ClusterClient;
use redis::Script;
use robotrules_url::Origin;
use tokio::time::Instant;

use super::codec::{self, CodecError};
use super::connection::{Backend, Failure};
use super::error::FleetError;
use super::health::{bump, Counters, FleetHealth};
use super::lock::{millis, new_token, UNLOCK_SCRIPT};
use super::options::RedisOptions;
use super::tls;
use crate::cache::{CacheEntry, IsFresh, Lease, Store};

/// A robots.txt cache in Redis shared by every process that connects to it; `Clone` (clones
/// share the connection and the counters) and `Send + Sync`. Use it as the store of the
/// facade's client (`robotrules::client::ClientBuilder::store`), or with
/// [`refresh_entry`](crate::refresh_entry): each origin is then fetched once across the fleet,
/// and every process reads the same answer.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use robotrules_fetch::fleet::{RedisOptions, RedisStore};
/// use robotrules_fetch::{cache::CachePolicy, refresh_entry, Fetcher, FetchOptions, Origin};
///
/// let store = RedisStore::connect("redis://127.0.0.1:6379/0", RedisOptions::default()).await?;
/// let fetcher = Fetcher::new(FetchOptions::default())?;
/// let origin = Origin::parse("https://example.com/page")?;
/// let refreshed = refresh_entry(&fetcher, &CachePolicy::rfc9309(), Some(&store), &origin, None).await?;
/// println!("{:?}; {:?}", refreshed.entry.latest.access.verdict_class(), store.health());
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisStore {
    inner: Arc<Inner>,
}

struct Inner {
    backend: Backend,
    options: RedisOptions,
    counters: Counters,
    unlock: Script,
    /// Where the store connects, any password hidden (for `Debug` and logs).
    target: String,
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("target", &self.inner.target)
            .field("backend", &self.inner.backend)
            .field("options", &self.inner.options)
            .finish_non_exhaustive()
    }
}

/// `url` with every password replaced by `***`: the one in the user information
/// (`redis://user:pw@host`) and, for socket URLs, the `pass` or `password` query parameter
/// (`redis+unix:///run/redis.sock?pass=pw`). A URL that does not parse keeps only what comes
/// before a password could start.
fn redact(url: &str) -> String {
    let Ok(mut parsed) = reqwest::Url::parse(url) else {
        return redact_unparsed(url);
    };
    if parsed.password().is_some() {
        // Fails only for URLs without a host, which carry no user information.
        let _ = parsed.set_password(Some("***"));
    }
    let is_secret =
        |key: &str| key.eq_ignore_ascii_case("pass") || key.eq_ignore_ascii_case("password");
    if parsed.query_pairs().any(|(key, _)| is_secret(&key)) {
        let pairs: Vec<(String, String)> = parsed
            .query_pairs()
            .map(|(key, value)| {
                let value = if is_secret(&key) {
                    "***".into()
                } else {
                    value.into_owned()
                };
                (key.into_owned(), value)
            })
            .collect();
        parsed.query_pairs_mut().clear().extend_pairs(pairs);
    }
    parsed.into()
}

/// [`redact`] for a string that is not a URL: the user information's password and the whole
/// query hidden.
fn redact_unparsed(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.split('?').next().unwrap_or_default().to_owned();
    };
    let rest = match rest.split_once('?') {
        Some((before, _)) => format!("{before}?***"),
        None => rest.to_owned(),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => {
            let user = rest[..at].split(':').next().unwrap_or("");
            format!("{scheme}://{user}:***{}", &rest[at..])
        }
        None => format!("{scheme}://{rest}"),
    }
}

impl RedisStore {
    /// Connects to the Redis server at `url` (`redis://[USER:PASSWORD@]HOST[:PORT][/DB]`,
    /// `rediss://` for TLS, `redis+unix:///PATH`).
    ///
    /// For `rediss://` the server's certificate must chain to the platform's certificate
    /// store or to one of [`RedisOptions::extra_root_certificates`]; a certificate that does
    /// not is a connection failure like any other (the store is returned and falls back).
    ///
    /// A URL that is not a Redis URL is [`FleetError::Url`]; credentials Redis refuses are
    /// [`FleetError::Auth`]. A Redis that is down or slow does not fail: the store is
    /// returned, logs a warning, counts the failure, and connects on a later command (until
    /// then the cache works from each process's own fetches).
    pub async fn connect(url: &str, options: RedisOptions) -> Result<RedisStore, FleetError> {
        let target = redact(url);
        let client = tls::client(url, &options.extra_root_certificates)
            .map_err(|error| url_error(&target, &error))?;
        let backend = Backend::single(client, options.command_timeout)
            .map_err(|error| url_error(&target, &error))?;
        Self::start(backend, options, target).await
    }

    /// Connects to the Redis Cluster whose nodes (some of them) are `nodes`, Redis URLs as
    /// for [`connect`](Self::connect). Entries and locks are one key per origin, so every
    /// command touches one slot. As with `connect`, a cluster that cannot be reached at start
    /// is connected on a later command.
    pub async fn connect_cluster(
        nodes: &[&str],
        options: RedisOptions,
    ) -> Result<RedisStore, FleetError> {
        let target = nodes
            .iter()
            .map(|node| redact(node))
            .collect::<Vec<_>>()
            .join(",");
        let mut builder = ClusterClient::builder(nodes.iter().copied())
            .connection_timeout(options.command_timeout)
            .response_timeout(options.command_timeout);
        if let Some(certificates) =
            tls::cluster_certificates(nodes, &options.extra_root_certificates)
        {
            builder = builder.certs(certificates);
        }
        let client = builder
            .build()
            .map_err(|error| url_error(&target, &error))?;
        Self::start(Backend::cluster(client), options, target).await
    }

    async fn start(
        backend: Backend,
        options: RedisOptions,
        target: String,
    ) -> Result<RedisStore, FleetError> {
        let store = RedisStore {
            inner: Arc::new(Inner {
                backend,
                options,
                counters: Counters::default(),
                unlock: Script::new(UNLOCK_SCRIPT),
                target,
            }),
        };
        match store.ping().await {
            Ok(()) => Ok(store),
            Err(error @ FleetError::Auth(_)) => Err(error),
            Err(error) => {
                tracing::warn!(
                    target = %store.inner.target,
                    %error,
                    "Redis is not reachable; the robots.txt cache falls back to this process until it is"
                );
                Ok(store)
            }
        }
    }

    /// Sends `PING`: whether Redis answers now, within the command timeout.
    pub async fn ping(&self) -> Result<(), FleetError> {
        self.command::<String>(&redis::cmd("PING"), "ping")
            .await
            .map(|_| ())
            .map_err(|failure| {
                failure.into_error(self.inner.options.command_timeout, &self.inner.target)
            })
    }

    /// The options.
    pub fn options(&self) -> &RedisOptions {
        &self.inner.options
    }

    /// The key of `origin`'s entry: `{prefix}{origin}`, for example
    /// `robotrules:https://example.com:443`.
    pub fn entry_key(&self, origin: &Origin) -> String {
        format!("{}{}", self.inner.options.key_prefix, origin_key(origin))
    }

    /// The key of `origin`'s fleet lock: `{prefix}lock:{origin}`.
    pub fn lock_key(&self, origin: &Origin) -> String {
        format!(
            "{}lock:{}",
            self.inner.options.key_prefix,
            origin_key(origin)
        )
    }

    /// The counters since the store was connected.
    pub fn health(&self) -> FleetHealth {
        self.inner.counters.snapshot()
    }

    /// The entry Redis holds for `origin` (for `robotrules cache show`): `None` when there is
    /// none, [`FleetError::Corrupt`] when the value is not a readable entry, and the error
    /// when Redis fails. Counts nothing in [`health`](Self::health) but failures.
    pub async fn inspect(&self, origin: &Origin) -> Result<Option<CacheEntry>, FleetError> {
        let value = self
            .read_value(origin)
            .await
            .map_err(|failure| match failure.code() {
                Some("WRONGTYPE") => FleetError::Corrupt("the key holds another type".into()),
                _ => failure.into_error(self.inner.options.command_timeout, &self.inner.target),
            })?;
        match value {
            None => Ok(None),
            Some(value) => self
                .decode(origin, &value)
                .map(Some)
                .map_err(|reason| FleetError::Corrupt(reason.to_string())),
        }
    }

    /// Deletes `origin`'s entry and lock (for `robotrules cache purge`); whether an entry
    /// was there.
    pub async fn purge(&self, origin: &Origin) -> Result<bool, FleetError> {
        let timeout = self.inner.options.command_timeout;
        // Two commands, not one `DEL a b`: in a cluster the keys may live in different slots.
        let deleted: u64 = self
            .command(redis::cmd("DEL").arg(self.entry_key(origin)), "purge")
            .await
            .map_err(|failure| failure.into_error(timeout, &self.inner.target))?;
        let _: u64 = self
            .command(redis::cmd("DEL").arg(self.lock_key(origin)), "purge")
            .await
            .map_err(|failure| failure.into_error(timeout, &self.inner.target))?;
        Ok(deleted > 0)
    }

    /// One step of a walk over the cache's entry keys (for `robotrules cache list`, `stats`
    /// and `purge --all`): `SCAN cursor MATCH {prefix}* COUNT count`, the lock keys left out.
    /// Start with cursor 0; the walk is over when the cursor returned is 0. Redis's SCAN
    /// guarantees that every key present for the whole walk is returned (some may be
    /// returned twice, and a page may be empty), and never holds more than one page: a cache
    /// of any size is walked in bounded memory. A single server only: on a Redis Cluster each
    /// node holds part of the keys, and this is [`FleetError::Redis`].
    pub async fn scan_keys(
        &self,
        cursor: u64,
        count: usize,
    ) -> Result<(u64, Vec<String>), FleetError> {
        self.single_only()?;
        let prefix = &self.inner.options.key_prefix;
        let (next, keys) = self
            .scan_page(cursor, &format!("{}*", glob_escape(prefix)), count.max(1))
            .await?;
        let lock = format!("{prefix}lock:");
        let keys = keys
            .into_iter()
            // Keys of this schema are text; anything else under the prefix is not ours.
            .filter_map(|key| String::from_utf8(key).ok())
            .filter(|key| !key.starts_with(&lock))
            .collect();
        Ok((next, keys))
    }

    /// One `SCAN cursor MATCH pattern COUNT count` step: the next cursor (0 at the end) and
    /// the keys of this page.
    async fn scan_page(
        &self,
        cursor: u64,
        pattern: &str,
        count: usize,
    ) -> Result<(u64, Vec<Vec<u8>>), FleetError> {
        self.command(
            redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(pattern)
                .arg("COUNT")
                .arg(count),
            "scan",
        )
        .await
        .map_err(|failure| self.error(failure))
    }

    /// The origin part of an entry key found by [`scan_keys`](Self::scan_keys)
    /// (`https://example.com:443` for `robotrules:https://example.com:443`).
    pub fn origin_of_key<'k>(&self, key: &'k str) -> Option<&'k str> {
        key.strip_prefix(self.inner.options.key_prefix.as_str())
    }

    /// The size in bytes of the value at `key` (`STRLEN`; 0 when there is none), and the
    /// entry in it as [`inspect`](Self::inspect) reads it: for `robotrules cache list`.
    /// `Ok((bytes, Err(reason)))` when the value is not a readable entry of `origin` (`None`:
    /// the key names no origin).
    pub async fn inspect_key(
        &self,
        key: &str,
        origin: Option<&Origin>,
    ) -> Result<(u64, Result<Option<CacheEntry>, FleetError>), FleetError> {
        let bytes = match self
            .command::<u64>(redis::cmd("STRLEN").arg(key), "strlen")
            .await
        {
            Ok(bytes) => bytes,
            Err(failure) if failure.code() == Some("WRONGTYPE") => {
                return Ok((
                    0,
                    Err(FleetError::Corrupt("the key holds another type".into())),
                ))
            }
            Err(failure) => return Err(self.error(failure)),
        };
        let Some(origin) = origin.filter(|origin| self.entry_key(origin) == key) else {
            return Ok((
                bytes,
                Err(FleetError::Corrupt(
                    "not an entry key of this schema".into(),
                )),
            ));
        };
        match self.inspect(origin).await {
            Ok(entry) => Ok((bytes, Ok(entry))),
            Err(error @ FleetError::Corrupt(_)) => Ok((bytes, Err(error))),
            Err(error) => Err(error),
        }
    }

    /// How many fleet locks are held now (keys `{prefix}lock:*`), walking them with `SCAN`.
    pub async fn count_locks(&self) -> Result<u64, FleetError> {
        self.single_only()?;
        let pattern = format!("{}lock:*", glob_escape(&self.inner.options.key_prefix));
        let mut cursor = 0;
        let mut locks = 0;
        loop {
            let (next, keys) = self.scan_page(cursor, &pattern, 500).await?;
            locks += u64::try_from(keys.len()).unwrap_or(u64::MAX);
            if next == 0 {
                return Ok(locks);
            }
            cursor = next;
        }
    }

    /// Deletes every key of the cache, entries and locks (`{prefix}*`), page by page (for
    /// `robotrules cache purge --all`); how many entries were deleted. Keys of other
    /// programs, or of fleets with another prefix, are left alone.
    pub async fn purge_all(&self) -> Result<u64, FleetError> {
        self.single_only()?;
        let pattern = format!("{}*", glob_escape(&self.inner.options.key_prefix));
        let lock = format!("{}lock:", self.inner.options.key_prefix);
        let mut cursor = 0;
        let mut entries = 0;
        loop {
            let (next, keys) = self.scan_page(cursor, &pattern, 500).await?;
            if !keys.is_empty() {
                let deleted: u64 = self
                    .command(redis::cmd("DEL").arg(&keys), "purge")
                    .await
                    .map_err(|failure| self.error(failure))?;
                let locks = keys.iter().filter(|key| key.starts_with(lock.as_bytes()));
                entries += deleted.saturating_sub(u64::try_from(locks.count()).unwrap_or(0));
            }
            if next == 0 {
                return Ok(entries);
            }
            cursor = next;
        }
    }

    /// An error for a Redis Cluster, whose keys no single `SCAN` walks.
    fn single_only(&self) -> Result<(), FleetError> {
        match self.inner.backend {
            Backend::Cluster(_) => Err(FleetError::Redis(format!(
                "{}: walking the keys of a Redis Cluster is not supported; ask each node",
                self.inner.target
            ))),
            Backend::Single(_) => Ok(()),
        }
    }

    /// A failed command as the error an operator's command reports.
    fn error(&self, failure: Failure) -> FleetError {
        failure.into_error(self.inner.options.command_timeout, &self.inner.target)
    }

    /// Runs `cmd`, keeping the counters and the connected flag.
    async fn command<T: redis::FromRedisValue>(
        &self,
        cmd: &redis::Cmd,
        op: &'static str,
    ) -> Result<T, Failure> {
        let result = self
            .inner
            .backend
            .run(cmd, self.inner.options.command_timeout)
            .await;
        self.note(&result, op);
        result
    }

    /// Counts and logs the outcome of a command.
    fn note<T>(&self, result: &Result<T, Failure>, op: &'static str) {
        let counters = &self.inner.counters;
        match result {
            Ok(_) => counters.connected.store(true, Ordering::Relaxed),
            // A type error is about the value, not the connection: counted as corrupt.
            Err(failure) if failure.code() == Some("WRONGTYPE") => {
                counters.connected.store(true, Ordering::Relaxed);
            }
            Err(Failure::Timeout) => {
                counters.connected.store(false, Ordering::Relaxed);
                bump(&counters.timeouts);
                tracing::warn!(
                    op,
                    target = %self.inner.target,
                    timeout_ms = u64::try_from(self.inner.options.command_timeout.as_millis())
                        .unwrap_or(u64::MAX),
                    "Redis did not answer in time; the robots.txt cache falls back"
                );
            }
            Err(failure @ Failure::Error(error)) => {
                let reached = error.code().is_some();
                counters.connected.store(reached, Ordering::Relaxed);
                bump(&counters.errors);
                tracing::warn!(
                    op,
                    target = %self.inner.target,
                    error = %failure,
                    "Redis failed; the robots.txt cache falls back"
                );
            }
        }
    }

    /// The value at `origin`'s entry key, at most one byte past the size cap (`GETRANGE`, so
    /// a huge value is never read whole). `None` for no key (or an empty value).
    async fn read_value(&self, origin: &Origin) -> Result<Option<Vec<u8>>, Failure> {
        let end = self.inner.options.max_entry_bytes;
        let value: Vec<u8> = self
            .command(
                redis::cmd("GETRANGE")
                    .arg(self.entry_key(origin))
                    .arg(0)
                    .arg(end),
                "get",
            )
            .await?;
        Ok((!value.is_empty()).then_some(value))
    }

    /// The entry in `value`, which must be `origin`'s.
    fn decode(&self, origin: &Origin, value: &[u8]) -> Result<CacheEntry, Unreadable> {
        let entry = codec::decode(value, self.inner.options.max_entry_bytes)?;
        let expected = origin.robots_txt_url();
        if entry.latest.robots_txt_url != expected {
            return Err(Unreadable::Foreign {
                expected,
                found: entry.latest.robots_txt_url.clone(),
            });
        }
        Ok(entry)
    }

    fn corrupt(&self, origin: &Origin, reason: &dyn fmt::Display) {
        bump(&self.inner.counters.corrupt);
        tracing::warn!(
            origin = %origin,
            key = %self.entry_key(origin),
            reason = %reason,
            "unreadable robots.txt cache entry in Redis read as a miss; the next write replaces it"
        );
    }

    async fn get_entry(&self, origin: &Origin) -> Option<CacheEntry> {
        let counters = &self.inner.counters;
        match self.read_value(origin).await {
            Ok(None) => {
                bump(&counters.misses);
                None
            }
            Ok(Some(value)) => match self.decode(origin, &value) {
                Ok(entry) => {
                    bump(&counters.hits);
                    Some(entry)
                }
                Err(reason) => {
                    self.corrupt(origin, &reason);
                    None
                }
            },
            Err(failure) if failure.code() == Some("WRONGTYPE") => {
                self.corrupt(origin, &"the key holds another Redis type");
                None
            }
            Err(_) => {
                bump(&counters.fallbacks);
                None
            }
        }
    }

    async fn put_entry(&self, origin: &Origin, entry: &CacheEntry) {
        let counters = &self.inner.counters;
        let options = &self.inner.options;
        let value = match codec::encode(entry, options.max_entry_bytes) {
            Ok(value) => value,
            Err(error) => {
                bump(&counters.oversized);
                tracing::warn!(
                    origin = %origin,
                    %error,
                    "robots.txt cache entry not written to Redis"
                );
                return;
            }
        };
        // Kept for the retention of the last good copy, or longer if fresh for longer.
        let fresh_for = entry
            .fresh_until
            .duration_since(entry.latest.fetched_at)
            .unwrap_or(Duration::ZERO);
        let ttl = millis(options.retention.max(fresh_for));
        let set = redis::cmd("SET")
            .arg(self.entry_key(origin))
            .arg(value)
            .arg("PX")
            .arg(ttl)
            .clone();
        match self.command::<()>(&set, "put").await {
            Ok(()) => bump(&counters.writes),
            Err(_) => bump(&counters.fallbacks),
        }
    }

    async fn remove_entry(&self, origin: &Origin) {
        let del = redis::cmd("DEL").arg(self.entry_key(origin)).clone();
        if self.command::<u64>(&del, "remove").await.is_err() {
            bump(&self.inner.counters.fallbacks);
        }
    }

    /// One `SET lock token NX PX ttl`: `Some(true)` taken, `Some(false)` held by another,
    /// `None` Redis failed.
    async fn try_lock(&self, key: &str, token: &str, ttl: Duration) -> Option<bool> {
        let set = redis::cmd("SET")
            .arg(key)
            .arg(token)
            .arg("NX")
            .arg("PX")
            .arg(millis(ttl))
            .clone();
        match self.command::<Option<String>>(&set, "lock").await {
            Ok(taken) => Some(taken.is_some()),
            Err(_) => None,
        }
    }

    async fn lock_origin(&self, origin: &Origin, ttl: Duration, is_fresh: IsFresh<'_>) -> Lease {
        let counters = &self.inner.counters;
        let options = &self.inner.options;
        let key = self.lock_key(origin);
        let token = new_token();
        let deadline = Instant::now() + ttl;
        let mut pause = options.lock_poll_initial;
        let mut waiting = false;
        loop {
            match self.try_lock(&key, &token, ttl).await {
                Some(true) => {
                    bump(&counters.locks_acquired);
                    // The previous holder may have stored its entry and released the lock
                    // between the caller's look-up and this lock.
                    if let Some(entry) = self.get_entry(origin).await {
                        if is_fresh(&entry) {
                            self.unlock_origin(origin, Lease::Held { token }).await;
                            return Lease::Ready(entry);
                        }
                    }
                    return Lease::Held { token };
                }
                Some(false) => {}
                None => {
                    bump(&counters.fallbacks);
                    return Lease::Local;
                }
            }
            if !waiting {
                waiting = true;
                bump(&counters.lock_waits);
                tracing::debug!(origin = %origin, "another process is fetching; waiting for its entry");
            }
            let now = Instant::now();
            if now >= deadline {
                bump(&counters.lock_wait_timeouts);
                tracing::warn!(
                    origin = %origin,
                    "no robots.txt entry from the fleet lock's holder by the fetch deadline; fetching here"
                );
                return Lease::Local;
            }
            tokio::time::sleep(pause.min(deadline - now)).await;
            pause = (pause * 2).min(options.lock_poll_max.max(options.lock_poll_initial));
            if let Some(entry) = self.get_entry(origin).await {
                if is_fresh(&entry) {
                    bump(&counters.lock_wait_hits);
                    return Lease::Ready(entry);
                }
            }
        }
    }

    async fn unlock_origin(&self, origin: &Origin, lease: Lease) {
        let Lease::Held { token } = lease else {
            return;
        };
        let mut invocation = self.inner.unlock.prepare_invoke();
        invocation.key(self.lock_key(origin)).arg(token);
        let result: Result<u64, Failure> = self
            .inner
            .backend
            .invoke(&invocation, self.inner.options.command_timeout)
            .await;
        self.note(&result, "unlock");
        if result.is_err() {
            // The lock expires by itself.
            bump(&self.inner.counters.fallbacks);
        }
    }
}

/// The origin as it appears in keys: scheme, host and effective port (the host as in a URL,
/// an IPv6 address in brackets), so `https://example.com` and `https://example.com:443` share
/// one key.
fn origin_key(origin: &Origin) -> String {
    match origin.effective_port() {
        Some(port) => format!("{}://{}:{port}", origin.scheme(), origin.host()),
        None => origin.to_string(),
    }
}

/// `text` with the glob characters of `SCAN MATCH` escaped, so a key prefix matches only
/// itself.
fn glob_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Why a value read from Redis is not used.
#[derive(Debug, thiserror::Error)]
enum Unreadable {
    #[error(transparent)]
    Codec(#[from] CodecError),
    #[error("the entry of another origin ({found}, expected {expected})")]
    Foreign { expected: String, found: String },
}

impl Store for RedisStore {
    fn get<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, Option<CacheEntry>> {
        Box::pin(self.get_entry(origin))
    }

    fn put<'a>(&'a self, origin: &'a Origin, entry: CacheEntry) -> BoxFuture<'a, ()> {
        Box::pin(async move { self.put_entry(origin, &entry).await })
    }

    fn remove<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, ()> {
        Box::pin(self.remove_entry(origin))
    }

    fn lock<'a>(
        &'a self,
        origin: &'a Origin,
        ttl: Duration,
        is_fresh: IsFresh<'a>,
    ) -> BoxFuture<'a, Lease> {
        Box::pin(self.lock_origin(origin, ttl, is_fresh))
    }

    fn unlock<'a>(&'a self, origin: &'a Origin, lease: Lease) -> BoxFuture<'a, ()> {
        Box::pin(self.unlock_origin(origin, lease))
    }
}

/// The forms of a Redis URL, for a user who gave something else.
const URL_FORMS: &str = "a Redis URL is redis://HOST[:PORT][/DB], rediss://HOST[:PORT][/DB] \
                         (TLS) or redis+unix:///PATH";

/// A URL the Redis client refused, in words: the client's own text (`Redis URL did not parse -
/// InvalidClientConfig`) names its error kind, not what is wrong.
fn url_error(target: &str, error: &redis::RedisError) -> FleetError {
    let reason = match error.kind() {
        redis::ErrorKind::InvalidClientConfig => match error.detail() {
            Some(detail) => format!("{detail}; {URL_FORMS}"),
            None => format!("not a Redis URL; {URL_FORMS}"),
        },
        _ => format!("{error}; {URL_FORMS}"),
    };
    FleetError::Url {
        url: target.to_owned(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_never_reach_messages() {
        for (url, shown) in [
            ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
            (
                "redis://:secret@127.0.0.1:6379",
                "redis://:***@127.0.0.1:6379",
            ),
            (
                "rediss://user:secret@cache.example:6380/2",
                "rediss://user:***@cache.example:6380/2",
            ),
            (
                "redis+unix:///run/redis.sock?db=1&pass=secret",
                "redis+unix:///run/redis.sock?db=1&pass=***",
            ),
            (
                "unix:///run/redis.sock?user=u&password=secret",
                "unix:///run/redis.sock?user=u&password=***",
            ),
            (
                "redis://user:secret@bad host:1",
                "redis://user:***@bad host:1",
            ),
            ("redis://bad host/?pass=secret", "redis://bad host/?***"),
            ("not a url?pass=secret", "not a url"),
        ] {
            assert_eq!(redact(url), shown, "{url}");
            assert!(!redact(url).contains("secret"), "{url}");
        }
    }
}
