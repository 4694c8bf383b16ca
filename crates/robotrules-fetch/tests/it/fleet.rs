//! The fleet cache (`fleet::RedisStore`) against a real `redis-server` (never a mock), from
//! `robotrules-testserver`: the entry format and every unreadable value, the fleet lock, many
//! processes sharing one cache (exactly one robots.txt request per origin), and every fault
//! (Redis down at start, killed and restarted, slow, full, holding garbage): the crawl goes
//! on and the verdicts stay RFC 9309's (§2.3.1); and Redis over TLS (`rediss://`) with its CA
//! trusted or not.

#![cfg(feature = "redis")]
#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use futures_util::future::join_all;
use robotrules_fetch::cache::{CacheEntry, CachePolicy, Lease, Served, Store};
use robotrules_fetch::fleet::codec::{self, CodecError};
use robotrules_fetch::fleet::{FleetError, FleetHealth, RedisOptions, RedisStore};
use robotrules_fetch::{
    refresh_entry, Access, CacheHeaders, FetchError, FetchOptions, FetchOutcome, Fetcher, Origin,
    RootCertificate, UnreachableReason, VerdictClass,
};
use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::redis::RedisServer;
use robotrules_testserver::tls::TestCa;
use robotrules_testserver::Background;

// ---------------------------------------------------------------------------------------------
// Warnings: a global subscriber keeps every `tracing` warning the crate logs.

static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Recorder;

struct Fields(String);

impl tracing::field::Visit for Fields {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!(" {}={value:?}", field.name()));
    }
}

impl tracing::Subscriber for Recorder {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        metadata.target().starts_with("robotrules_fetch")
            && *metadata.level() <= tracing::Level::WARN
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        WARNINGS.lock().unwrap().push(fields.0);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

fn record_warnings() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        tracing::subscriber::set_global_default(Recorder).unwrap();
    });
}

/// Whether a warning holding every one of `parts` was logged (tests run in parallel and share
/// the recorder: let `parts` name the test's own Redis, origin or key).
fn warned(parts: &[&str]) -> bool {
    warnings(parts) > 0
}

/// How many warnings holding every one of `parts` were logged.
fn warnings(parts: &[&str]) -> usize {
    WARNINGS
        .lock()
        .unwrap()
        .iter()
        .filter(|warning| parts.iter().all(|part| warning.contains(part)))
        .count()
}

// ---------------------------------------------------------------------------------------------
// Entries.

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n";

fn origin(name: &str) -> Origin {
    Origin::parse(&format!("https://{name}/")).unwrap()
}

fn outcome(origin: &Origin, access: Access, at: SystemTime) -> Arc<FetchOutcome> {
    Arc::new(FetchOutcome {
        robots_txt_url: origin.robots_txt_url(),
        chain: vec![],
        access,
        fetched_at: at,
        elapsed: Duration::from_millis(12),
        headers: CacheHeaders {
            cache_control: Some("max-age=60".into()),
            ..CacheHeaders::default()
        },
        retry_after: None,
    })
}

fn success(body: &str) -> Access {
    Access::Success {
        body: body.as_bytes().to_vec().into(),
        truncation: None,
        content_type: Some("text/plain".into()),
    }
}

fn unreachable() -> Access {
    Access::Unreachable {
        reason: UnreachableReason::ServerError { status: 503 },
    }
}

/// A success entry fresh for an hour from now (its last good copy is itself).
fn fresh_entry(origin: &Origin, body: &str) -> CacheEntry {
    let now = SystemTime::now();
    let latest = outcome(origin, success(body), now);
    CacheEntry {
        last_good: Some(Arc::clone(&latest)),
        latest,
        unreachable_since: None,
        consecutive_failures: 0,
        fresh_until: now + Duration::from_secs(3600),
    }
}

/// An unreachable entry keeping an older last good copy.
fn outage_entry(origin: &Origin) -> CacheEntry {
    let now = SystemTime::now();
    CacheEntry {
        latest: outcome(origin, unreachable(), now),
        last_good: Some(outcome(
            origin,
            success(ROBOTS),
            now - Duration::from_secs(7200),
        )),
        unreachable_since: Some(now - Duration::from_secs(60)),
        consecutive_failures: 2,
        fresh_until: now + Duration::from_secs(120),
    }
}

const CAP: usize = RedisOptions::DEFAULT_MAX_ENTRY_BYTES;

#[test]
fn entries_round_trip_and_a_shared_last_good_copy_is_written_once() {
    let key = origin("example.com");
    for entry in [fresh_entry(&key, ROBOTS), outage_entry(&key)] {
        let value = codec::encode(&entry, CAP).unwrap();
        assert_eq!(value[0], codec::VERSION);
        let back = codec::decode(&value, CAP).unwrap();
        assert_eq!(back, entry);
    }
    // The last good copy that is the latest fetch stays one copy (one body in the value).
    let body = "x".repeat(10_000);
    let entry = fresh_entry(&key, &body);
    let value = codec::encode(&entry, CAP).unwrap();
    assert!(value.len() < 10_000 + 1_000, "{} bytes", value.len());
    let back = codec::decode(&value, CAP).unwrap();
    assert!(Arc::ptr_eq(back.last_good.as_ref().unwrap(), &back.latest));
    assert_eq!(back.body_bytes(), 10_000);
}

#[test]
fn every_unreadable_value_is_refused() {
    let key = origin("example.com");
    let value = codec::encode(&outage_entry(&key), CAP).unwrap();
    assert_eq!(codec::decode(b"", CAP), Err(CodecError::Empty));
    let mut other_version = value.clone();
    other_version[0] = 2;
    assert_eq!(
        codec::decode(&other_version, CAP),
        Err(CodecError::UnknownVersion(2))
    );
    assert_eq!(
        codec::decode(b"{\"latest\":1}", CAP),
        Err(CodecError::UnknownVersion(b'{'))
    );
    // Every truncation of a valid value.
    for len in 1..value.len() {
        assert!(
            codec::decode(&value[..len], CAP).is_err(),
            "a value cut at {len} of {} bytes was read",
            value.len()
        );
    }
    let mut trailing = value.clone();
    trailing.push(0);
    assert_eq!(codec::decode(&trailing, CAP), Err(CodecError::Trailing(1)));
    let mut garbage = vec![codec::VERSION];
    garbage.extend((0..2000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    assert!(matches!(
        codec::decode(&garbage, CAP),
        Err(CodecError::Malformed(_))
    ));
    assert!(matches!(
        codec::decode(&value, value.len() - 1),
        Err(CodecError::TooLarge { .. })
    ));
    // Oversized on write: not encoded.
    let big = fresh_entry(&key, &"y".repeat(CAP));
    assert!(matches!(
        codec::encode(&big, CAP),
        Err(CodecError::TooLarge { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// The store.

fn fast_options() -> RedisOptions {
    RedisOptions {
        command_timeout: Duration::from_millis(300),
        ..RedisOptions::default()
    }
}

async fn connect(redis: &RedisServer) -> RedisStore {
    RedisStore::connect(&redis.url(), fast_options())
        .await
        .unwrap()
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_put_remove_inspect_and_purge_round_trip_through_redis() {
    let redis = RedisServer::start();
    let store = connect(&redis).await;
    let key = origin("example.com");
    assert_eq!(store.entry_key(&key), "robotrules:https://example.com:443");
    assert_eq!(
        store.lock_key(&key),
        "robotrules:lock:https://example.com:443"
    );
    assert_eq!(store.get(&key).await, None);

    let entry = outage_entry(&key);
    store.put(&key, entry.clone()).await;
    assert_eq!(store.get(&key).await, Some(entry.clone()));
    assert_eq!(store.inspect(&key).await, Ok(Some(entry)));
    // The expiry is the retention (30 days), not the freshness (2 minutes).
    let ttl = redis
        .command(&["PTTL", "robotrules:https://example.com:443"])
        .unwrap();
    let ttl: u64 = ttl.trim_start_matches(':').parse().unwrap();
    assert!(ttl > 29 * 24 * 3600 * 1000, "PTTL {ttl}");

    store.remove(&key).await;
    assert_eq!(store.get(&key).await, None);
    store.put(&key, fresh_entry(&key, ROBOTS)).await;
    assert_eq!(store.purge(&key).await, Ok(true));
    assert_eq!(store.purge(&key).await, Ok(false));
    assert_eq!(store.inspect(&key).await, Ok(None));

    let health = store.health();
    assert!(health.connected);
    assert_eq!((health.writes, health.hits), (2, 1));
    assert_eq!((health.errors, health.timeouts, health.corrupt), (0, 0, 0));
}

/// An invalid URL is refused before any connection, in words a user reads (not the Redis
/// library's `Redis URL did not parse - InvalidClientConfig`).
#[tokio::test]
async fn an_invalid_url_gets_a_readable_reason() {
    for url in [
        "http://127.0.0.1:6379/",
        "redis://",
        "not a url",
        "redis://:pw@[::1",
    ] {
        let error = RedisStore::connect(url, fast_options()).await.unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, FleetError::Url { .. }), "{url}: {error:?}");
        assert!(!text.contains("InvalidClientConfig"), "{text}");
        assert!(!text.contains(" - "), "{text}");
        assert!(
            text.contains("a Redis URL is redis://HOST[:PORT][/DB]"),
            "{text}"
        );
        assert!(!text.contains("pw@"), "{text}");
    }
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_urls_and_refused_credentials_are_distinct_errors() {
    for url in ["http://127.0.0.1:6379/", "redis://", "not a url"] {
        let error = RedisStore::connect(url, fast_options()).await.unwrap_err();
        assert!(matches!(error, FleetError::Url { .. }), "{url}: {error:?}");
        assert!(!error.to_string().contains('\n'));
    }
    let redis = RedisServer::start();
    assert_eq!(
        redis
            .command(&["CONFIG", "SET", "requirepass", "s3cret"])
            .unwrap(),
        "+OK"
    );
    let url = redis.url().replace("redis://", "redis://:wrong@");
    let error = RedisStore::connect(&url, fast_options()).await.unwrap_err();
    assert!(matches!(error, FleetError::Auth(_)), "{error:?}");
    assert!(error.to_string().starts_with("Redis authentication failed"));
    assert!(!error.to_string().contains("wrong"), "{error}");
    let url = redis.url().replace("redis://", "redis://:s3cret@");
    assert!(RedisStore::connect(&url, fast_options()).await.is_ok());
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_values_are_misses_counted_logged_and_replaced() {
    record_warnings();
    let redis = RedisServer::start();
    let store = connect(&redis).await;
    let good = codec::encode(&fresh_entry(&origin("corrupt.example"), ROBOTS), CAP).unwrap();
    let mut other_version = good.clone();
    other_version[0] = 9;
    let foreign = codec::encode(&fresh_entry(&origin("elsewhere.example"), ROBOTS), CAP).unwrap();
    let mut oversized = vec![codec::VERSION];
    oversized.resize(CAP + 100, b'x');
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("garbage", b"\x01\xff\xfe garbage".to_vec()),
        ("truncated", good[..good.len() / 2].to_vec()),
        ("other-version", other_version),
        ("foreign", foreign),
        ("oversized", oversized),
        ("json", br#"{"latest":{}}"#.to_vec()),
    ];
    for (i, (name, value)) in cases.iter().enumerate() {
        let key = origin(&format!("{name}.corrupt.example"));
        let redis_key = store.entry_key(&key);
        let reply = redis
            .command_bytes(&[b"SET", redis_key.as_bytes(), value])
            .unwrap();
        assert_eq!(reply, "+OK");
        assert_eq!(store.get(&key).await, None, "{name}");
        assert_eq!(store.health().corrupt, i as u64 + 1, "{name}");
        assert!(warned(&[&redis_key, "unreadable"]), "{name}: no warning");
        assert!(matches!(
            store.inspect(&key).await,
            Err(FleetError::Corrupt(_))
        ));
        // The next write replaces it.
        let entry = fresh_entry(&key, ROBOTS);
        store.put(&key, entry.clone()).await;
        assert_eq!(store.get(&key).await, Some(entry), "{name}");
    }
    // A key of another type (a list): WRONGTYPE, read as a miss, replaced by SET.
    let key = origin("list.corrupt.example");
    let redis_key = store.entry_key(&key);
    assert_eq!(
        redis.command(&["RPUSH", &redis_key, "a", "b"]).unwrap(),
        ":2"
    );
    assert_eq!(store.get(&key).await, None);
    assert_eq!(store.health().corrupt, cases.len() as u64 + 1);
    assert!(warned(&[&redis_key, "another Redis type"]));
    let entry = fresh_entry(&key, ROBOTS);
    store.put(&key, entry.clone()).await;
    assert_eq!(store.get(&key).await, Some(entry));
    assert_eq!(store.health().errors, 0);
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_entry_is_not_written() {
    record_warnings();
    let redis = RedisServer::start();
    let store = RedisStore::connect(
        &redis.url(),
        RedisOptions {
            max_entry_bytes: 4096,
            ..fast_options()
        },
    )
    .await
    .unwrap();
    let key = origin("big.example");
    store.put(&key, fresh_entry(&key, &"z".repeat(5000))).await;
    assert_eq!(store.get(&key).await, None);
    assert_eq!(
        redis.command(&["EXISTS", &store.entry_key(&key)]).unwrap(),
        ":0"
    );
    assert_eq!(store.health().oversized, 1);
    assert!(warned(&["big.example", "not written"]));
}

// ---------------------------------------------------------------------------------------------
// The fleet lock.

fn never_fresh(_: &CacheEntry) -> bool {
    false
}

fn is_fresh(entry: &CacheEntry) -> bool {
    SystemTime::now() < entry.fresh_until
}

fn token(lease: &Lease) -> String {
    match lease {
        Lease::Held { token } => token.clone(),
        other => panic!("expected the lock, got {other:?}"),
    }
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lock_is_exclusive_expires_and_is_released_by_its_holder_only() {
    let redis = RedisServer::start();
    let (a, b) = (connect(&redis).await, connect(&redis).await);
    let key = origin("lock.example");
    let lock_key = a.lock_key(&key);

    // NX: while A holds it, B waits for the deadline, then fetches itself.
    let held = a.lock(&key, Duration::from_secs(5), &never_fresh).await;
    let a_token = token(&held);
    let pttl: u64 = redis.command(&["PTTL", &lock_key]).unwrap()[1..]
        .parse()
        .unwrap();
    assert!(
        pttl <= 5000 && pttl > 4000,
        "the expiry is the deadline: {pttl}"
    );
    let started = Instant::now();
    assert_eq!(
        b.lock(&key, Duration::from_millis(300), &never_fresh).await,
        Lease::Local
    );
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert!(started.elapsed() < Duration::from_secs(2));
    let health = b.health();
    assert_eq!((health.lock_waits, health.lock_wait_timeouts), (1, 1));

    // Compare-and-delete: another token does not release it; the holder's does.
    b.unlock(
        &key,
        Lease::Held {
            token: "someone else".into(),
        },
    )
    .await;
    assert_eq!(redis.command(&["EXISTS", &lock_key]).unwrap(), ":1");
    a.unlock(&key, held).await;
    assert_eq!(redis.command(&["EXISTS", &lock_key]).unwrap(), ":0");

    // A crashed holder's lock expires: B gets it then, before its own deadline.
    let crashed = a.lock(&key, Duration::from_millis(300), &never_fresh).await;
    let started = Instant::now();
    let successor = b.lock(&key, Duration::from_secs(3), &never_fresh).await;
    let b_token = token(&successor);
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "{:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    // The slow holder's late release does not delete its successor's lock.
    assert_ne!(token(&crashed), b_token);
    a.unlock(&key, crashed).await;
    assert_eq!(redis.command(&["GET", &lock_key]).unwrap(), "$32");
    b.unlock(&key, successor).await;
    assert_eq!(redis.command(&["EXISTS", &lock_key]).unwrap(), ":0");
    assert_ne!(a_token, b_token);

    // A waiter takes the holder's fresh entry as soon as it lands.
    let held = a.lock(&key, Duration::from_secs(5), &never_fresh).await;
    let entry = fresh_entry(&key, ROBOTS);
    let writer = {
        let (a, key, entry) = (a.clone(), key.clone(), entry.clone());
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(150)).await;
            a.put(&key, entry).await;
        })
    };
    let started = Instant::now();
    assert_eq!(
        b.lock(&key, Duration::from_secs(5), &is_fresh).await,
        Lease::Ready(entry.clone())
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    writer.await.unwrap();
    a.unlock(&key, held).await;
    assert_eq!(b.health().lock_wait_hits, 1);
    assert_eq!(a.health().locks_acquired, 3);

    // A fresh entry stored just before the lock is taken: the entry, and the lock released.
    assert_eq!(
        b.lock(&key, Duration::from_secs(5), &is_fresh).await,
        Lease::Ready(entry)
    );
    assert_eq!(redis.command(&["EXISTS", &lock_key]).unwrap(), ":0");
}

// ---------------------------------------------------------------------------------------------
// Many processes, one cache.

/// What a crawler process does for each URL, as the facade's client does under its entries:
/// refresh the origin's entry through the shared store (one fetch across the fleet, under the
/// store's lock) and serve it under the RFC 9309 policy.
struct Asker {
    fetcher: Fetcher,
    policy: CachePolicy,
    store: RedisStore,
}

impl Asker {
    fn new(options: FetchOptions, store: RedisStore) -> Asker {
        Asker {
            fetcher: Fetcher::new(options).unwrap(),
            policy: CachePolicy::rfc9309(),
            store,
        }
    }

    /// What is served for `url`'s origin now.
    async fn lookup(&self, url: &str) -> Result<Served, FetchError> {
        let origin = Fetcher::origin_of(url)?;
        let refreshed = refresh_entry(
            &self.fetcher,
            &self.policy,
            Some(&self.store),
            &origin,
            None,
        )
        .await?;
        Ok(self.policy.serve(&refreshed.entry, SystemTime::now()))
    }

    /// Forgets `url`'s origin in the store.
    async fn invalidate(&self, url: &str) -> Result<(), FetchError> {
        self.store.remove(&Fetcher::origin_of(url)?).await;
        Ok(())
    }
}

/// How many origins the fleet crawls.
const ORIGINS: usize = 200;
/// How many crawler processes (threads with their own runtime and Redis connection).
const CLIENTS: usize = 8;
/// How long the server takes to answer each robots.txt request.
const SLOW: Duration = Duration::from_millis(150);
const DISALLOW_ALL: &str = "User-agent: *\nDisallow: /\n";

fn site(i: usize) -> String {
    format!("site{i}.fleet.test")
}

/// Origin `i`'s robots.txt: a file, 404 (allow all), 503 (disallow all), another file.
fn reply(i: usize) -> Reply {
    let reply = match i % 4 {
        0 => Reply::ok(ROBOTS),
        1 => Reply::status(404),
        2 => Reply::status(503),
        _ => Reply::ok(DISALLOW_ALL),
    };
    reply.after(SLOW)
}

/// The verdict RFC 9309 §2.3.1 gives origin `i`; panics on any other.
fn check(i: usize, answer: &Served) {
    let expected = match i % 4 {
        0 | 3 => VerdictClass::Conditional,
        1 => VerdictClass::FullAllow,
        _ => VerdictClass::FullDisallow,
    };
    assert_eq!(
        answer.access.verdict_class(),
        expected,
        "origin {i}: {:?}",
        answer.access
    );
    let body = answer.access.body().map(|body| body.to_vec());
    match i % 4 {
        0 => assert_eq!(body.as_deref(), Some(ROBOTS.as_bytes()), "origin {i}"),
        3 => assert_eq!(body.as_deref(), Some(DISALLOW_ALL.as_bytes()), "origin {i}"),
        _ => assert_eq!(body, None, "origin {i}"),
    }
}

/// The loopback site server: every origin a host name on one server.
struct Sites {
    server: HttpServer,
    _background: Background,
}

impl Sites {
    fn start() -> Self {
        let background = Background::new().unwrap();
        let server = background.http().unwrap();
        for i in 0..ORIGINS {
            server.route_on(&site(i), "/robots.txt", reply(i));
        }
        Sites {
            server,
            _background: background,
        }
    }

    fn requests(&self) -> usize {
        self.server.hits("/robots.txt")
    }

    /// A crawler process's asker over `store`: every origin on the loopback server.
    fn client(addr: std::net::SocketAddr, store: RedisStore) -> Asker {
        Asker::new(
            FetchOptions {
                connect_timeout: Duration::from_secs(2),
                total_timeout: Duration::from_secs(5),
                use_env_proxy: false,
                resolve: (0..ORIGINS).map(|i| (site(i), addr)).collect(),
                ..FetchOptions::default()
            },
            store,
        )
    }

    fn url(&self, i: usize) -> String {
        self.server.url_on(&site(i), "/some/page")
    }
}

/// `CLIENTS` crawler processes, each a thread with its own runtime, Redis connection and
/// client, asking every origin once, 25 at a time, each starting a little further (so they
/// overlap and race for the same origins). Returns
/// the health of each store; panics on a wrong verdict.
fn crawl(sites: &Sites, redis_url: &str) -> Vec<FleetHealth> {
    let threads: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let urls: Vec<(usize, String)> = (0..ORIGINS)
                .map(|n| (n + client * 3) % ORIGINS)
                .map(|i| (i, sites.url(i)))
                .collect();
            let addr = sites.server.addr();
            let redis_url = redis_url.to_owned();
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                runtime.block_on(async move {
                    let store = RedisStore::connect(&redis_url, crawl_options())
                        .await
                        .unwrap();
                    let client = Sites::client(addr, store.clone());
                    for chunk in urls.chunks(25) {
                        let answers =
                            join_all(chunk.iter().map(|(_, url)| client.lookup(url))).await;
                        for ((i, _), answer) in chunk.iter().zip(answers) {
                            check(*i, &answer.unwrap());
                        }
                    }
                    store.health()
                })
            })
        })
        .collect();
    threads
        .into_iter()
        .map(|thread| thread.join().unwrap())
        .collect()
}

/// The crawl's store options: a command timeout that a loaded machine does not reach (a
/// timeout would make a process fetch itself, which the exact counts would take for a bug).
fn crawl_options() -> RedisOptions {
    RedisOptions {
        command_timeout: Duration::from_secs(2),
        ..RedisOptions::default()
    }
}

fn total(healths: &[FleetHealth], counter: fn(&FleetHealth) -> u64) -> u64 {
    healths.iter().map(counter).sum()
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn eight_processes_make_one_request_per_origin_even_after_garbage() {
    record_warnings();
    let redis = RedisServer::start();
    let sites = Sites::start();
    let started = Instant::now();
    let healths = crawl(&sites, &redis.url());
    eprintln!("fleet crawl: {:?}", started.elapsed());
    assert_eq!(
        sites.requests(),
        ORIGINS,
        "one request per origin for the whole fleet"
    );
    // A process that gets the lock just after the holder released it finds the entry and
    // does not fetch: more locks than fetches, never fewer.
    assert!(total(&healths, |h| h.locks_acquired) >= ORIGINS as u64);
    assert_eq!(total(&healths, |h| h.writes), ORIGINS as u64);
    assert!(total(&healths, |h| h.lock_waits) > 0);
    assert!(total(&healths, |h| h.lock_wait_hits) > 0);
    assert_eq!(total(&healths, |h| h.lock_wait_timeouts), 0);
    assert_eq!(total(&healths, |h| h.errors + h.timeouts + h.fallbacks), 0);
    assert!(healths.iter().all(|h| h.connected));

    // One key per origin (the locks are gone); memory per entry as Redis counts it: for a
    // 34-byte robots.txt, under 1 KiB (measured: a 498-byte value, 600 bytes of memory).
    let store_keys = redis.command(&["DBSIZE"]).unwrap();
    assert_eq!(store_keys, format!(":{ORIGINS}"));
    let key = format!("robotrules:http://{}:{}", site(0), sites.server.port());
    let usage: usize = redis.command(&["MEMORY", "USAGE", &key]).unwrap()[1..]
        .parse()
        .unwrap();
    let value: usize = redis.command(&["STRLEN", &key]).unwrap()[1..]
        .parse()
        .unwrap();
    eprintln!("entry of {key}: {value} bytes, {usage} bytes of Redis memory");
    assert!(usage < 1024, "{usage} bytes");

    // Every entry overwritten with garbage: read as misses, fetched again once, replaced.
    for i in 0..ORIGINS {
        let key = format!("robotrules:http://{}:{}", site(i), sites.server.port());
        let reply = redis
            .command_bytes(&[b"SET", key.as_bytes(), b"\x01garbage\xff"])
            .unwrap();
        assert_eq!(reply, "+OK");
    }
    let healths = crawl(&sites, &redis.url());
    assert_eq!(sites.requests(), 2 * ORIGINS);
    assert!(total(&healths, |h| h.corrupt) >= ORIGINS as u64);
    assert!(warned(&["unreadable", "site7.fleet.test"]));
    // Replaced: a third crawl is served by Redis alone.
    let healths = crawl(&sites, &redis.url());
    assert_eq!(sites.requests(), 2 * ORIGINS);
    assert_eq!(total(&healths, |h| h.corrupt), 0);
    assert_eq!(total(&healths, |h| h.hits), (CLIENTS * ORIGINS) as u64);
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn killing_and_restarting_redis_mid_crawl_keeps_every_verdict() {
    let mut redis = RedisServer::start();
    let sites = Sites::start();
    let url = redis.url();
    let crawler = {
        let sites = &sites;
        std::thread::scope(|scope| {
            let crawler = scope.spawn(move || crawl(sites, &url));
            std::thread::sleep(Duration::from_millis(300));
            redis.kill();
            std::thread::sleep(Duration::from_millis(500));
            redis.restart();
            crawler.join().unwrap()
        })
    };
    let during = sites.requests();
    // A request beyond one per origin needs a process that could not use the lock (a counted
    // fallback or wait timeout), or an entry lost with the restart (Redis keeps nothing on
    // disk here): at most one more fetch per origin.
    let local = total(&crawler, |h| h.fallbacks + h.lock_wait_timeouts);
    assert!(during >= ORIGINS, "{during} requests");
    assert!(
        during as u64 <= 2 * ORIGINS as u64 + local,
        "{during} requests, {local} local leases"
    );
    assert!(total(&crawler, |h| h.errors + h.timeouts) > 0);
    assert!(total(&crawler, |h| h.fallbacks) > 0);
    eprintln!("requests during the outage: {during}");

    // After the restart (Redis came back empty), the fleet shares one cache again.
    let after = crawl(&sites, &redis.url());
    assert!(
        sites.requests() - during <= ORIGINS,
        "{} more",
        sites.requests() - during
    );
    assert_eq!(total(&after, |h| h.errors + h.timeouts + h.fallbacks), 0);
}

// ---------------------------------------------------------------------------------------------
// Faults: Redis down at start, slow, full.

async fn site_cache(server: &HttpServer, store: RedisStore) -> Asker {
    for i in 0..4 {
        server.route_on(&site(i), "/robots.txt", reply(i));
    }
    Asker::new(
        FetchOptions {
            connect_timeout: Duration::from_secs(1),
            total_timeout: Duration::from_secs(2),
            use_env_proxy: false,
            resolve: (0..4).map(|i| (site(i), server.addr())).collect(),
            ..FetchOptions::default()
        },
        store,
    )
}

/// Asks the four kinds of origin and checks the verdicts, within `limit`.
async fn ask_all(cache: &Asker, server: &HttpServer, limit: Duration) {
    let started = Instant::now();
    for i in 0..4 {
        let answer = cache.lookup(&server.url_on(&site(i), "/x")).await.unwrap();
        check(i, &answer);
    }
    assert!(started.elapsed() < limit, "{:?}", started.elapsed());
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_at_start_falls_back_then_recovers() {
    record_warnings();
    let mut redis = RedisServer::start();
    redis.kill();
    let started = Instant::now();
    let store = RedisStore::connect(&redis.url(), fast_options())
        .await
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(!store.health().connected);
    assert!(warned(&["not reachable", &redis.url()]));
    let server = HttpServer::start().await;
    let cache = site_cache(&server, store.clone()).await;
    ask_all(&cache, &server, Duration::from_secs(4)).await;
    let health = store.health();
    assert!(health.errors >= 4, "{health:?}");
    assert!(health.fallbacks >= 8, "{health:?}");
    assert_eq!(health.writes, 0);

    redis.restart();
    let started = Instant::now();
    while store.ping().await.is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "no reconnection"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let key = Origin::parse(&server.url_on(&site(0), "/")).unwrap();
    cache
        .invalidate(&server.url_on(&site(0), "/"))
        .await
        .unwrap();
    check(
        0,
        &cache.lookup(&server.url_on(&site(0), "/x")).await.unwrap(),
    );
    assert!(store.inspect(&key).await.unwrap().is_some());
    assert!(store.health().connected);
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_redis_costs_at_most_the_command_timeout() {
    record_warnings();
    let redis = RedisServer::start();
    let store = connect(&redis).await;
    let server = HttpServer::start().await;
    let cache = site_cache(&server, store.clone()).await;
    assert_eq!(
        redis.command(&["CLIENT", "PAUSE", "2500", "ALL"]).unwrap(),
        "+OK"
    );
    let started = Instant::now();
    assert_eq!(store.get(&origin("paused.example")).await, None);
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
    // Each origin: a read, a lock and a write time out (300 ms each), then the fetch.
    ask_all(&cache, &server, Duration::from_secs(8)).await;
    let health = store.health();
    assert!(health.timeouts >= 5, "{health:?}");
    assert!(health.fallbacks >= 5, "{health:?}");
    assert!(warned(&["did not answer in time", &redis.url()]));
    assert_eq!(server.hits("/robots.txt"), 4);
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_redis_refusing_writes_keeps_the_crawl_going() {
    record_warnings();
    let redis = RedisServer::start();
    let store = connect(&redis).await;
    // 2 MB of data, then a limit of 1 MB: every write is refused (`OOM`).
    let filler = vec![b'f'; 16 * 1024];
    for i in 0..128 {
        let key = format!("filler:{i}");
        let reply = redis
            .command_bytes(&[b"SET", key.as_bytes(), &filler])
            .unwrap();
        assert_eq!(reply, "+OK");
    }
    redis.set_maxmemory("1mb", "noeviction");
    assert!(redis
        .command(&["SET", "one-more", "x"])
        .unwrap()
        .starts_with("-OOM"));
    let server = HttpServer::start().await;
    let cache = site_cache(&server, store.clone()).await;
    ask_all(&cache, &server, Duration::from_secs(4)).await;
    let health = store.health();
    assert_eq!(health.writes, 0, "{health:?}");
    assert!(health.errors >= 4, "{health:?}");
    assert!(health.fallbacks >= 4, "{health:?}");
    assert!(health.connected);
    assert!(warned(&["OOM", &redis.url()]));
    // Each process still fetches once per origin (its own single flight and answer).
    assert_eq!(server.hits("/robots.txt"), 4);
}

// ---------------------------------------------------------------------------------------------
// Redis Cluster.

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_cluster_stores_entries_and_locks_per_origin() {
    let redis = RedisServer::start_cluster();
    let url = redis.url().trim_end_matches("/0").to_owned();
    let store = RedisStore::connect_cluster(&[&url], fast_options())
        .await
        .unwrap();
    for name in [
        "a.cluster.example",
        "b.cluster.example",
        "c.cluster.example",
    ] {
        let key = origin(name);
        assert_eq!(store.get(&key).await, None);
        let entry = outage_entry(&key);
        store.put(&key, entry.clone()).await;
        assert_eq!(store.get(&key).await, Some(entry));
        let lease = store.lock(&key, Duration::from_secs(2), &never_fresh).await;
        assert!(matches!(lease, Lease::Held { .. }), "{lease:?}");
        store.unlock(&key, lease).await;
        assert_eq!(
            redis.command(&["EXISTS", &store.lock_key(&key)]).unwrap(),
            ":0"
        );
        assert_eq!(store.purge(&key).await, Ok(true));
    }
    let health = store.health();
    assert_eq!(
        (health.errors, health.timeouts, health.fallbacks),
        (0, 0, 0)
    );
    assert_eq!(health.writes, 3);
}

// ---------------------------------------------------------------------------------------------
// Redis over TLS (`rediss://`), the server's certificate issued by a CA made for the test.

/// `fast_options` trusting the certificates in `pem` besides the platform's.
fn trusting(pem: &str) -> RedisOptions {
    RedisOptions {
        extra_root_certificates: RootCertificate::from_pem(pem.as_bytes()).unwrap(),
        ..fast_options()
    }
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rediss_with_the_ca_trusted_shares_entries_and_the_lock() {
    let ca = TestCa::new("robotrules redis CA").unwrap();
    let redis = RedisServer::start_tls(&ca);
    assert!(redis.url().starts_with("rediss://127.0.0.1:"));
    let options = trusting(&ca.pem());
    let a = RedisStore::connect(&redis.url(), options.clone())
        .await
        .unwrap();
    let b = RedisStore::connect(&redis.url(), options.clone())
        .await
        .unwrap();
    assert_eq!(a.ping().await, Ok(()));
    assert!(a.health().connected);

    // Entries round-trip, and the other client reads them.
    let key = origin("tls.example");
    let entry = outage_entry(&key);
    a.put(&key, entry.clone()).await;
    assert_eq!(b.get(&key).await, Some(entry.clone()));
    assert_eq!(b.inspect(&key).await, Ok(Some(entry)));
    assert_eq!(
        redis.command(&["EXISTS", &a.entry_key(&key)]).unwrap(),
        ":1"
    );

    // The fleet lock: exclusive, waited for, released by its holder.
    let held = a.lock(&key, Duration::from_secs(5), &never_fresh).await;
    assert!(matches!(held, Lease::Held { .. }), "{held:?}");
    assert_eq!(
        b.lock(&key, Duration::from_millis(300), &never_fresh).await,
        Lease::Local
    );
    a.unlock(&key, held).await;
    assert_eq!(redis.command(&["EXISTS", &a.lock_key(&key)]).unwrap(), ":0");
    let successor = b.lock(&key, Duration::from_secs(5), &never_fresh).await;
    assert!(matches!(successor, Lease::Held { .. }), "{successor:?}");
    b.unlock(&key, successor).await;

    // A crawl through the TLS cache: each origin fetched once, by whichever process asks first.
    let server = HttpServer::start().await;
    let first = site_cache(&server, a.clone()).await;
    ask_all(&first, &server, Duration::from_secs(4)).await;
    let second = site_cache(&server, b.clone()).await;
    ask_all(&second, &server, Duration::from_secs(4)).await;
    assert_eq!(server.hits("/robots.txt"), 4);
    for store in [&a, &b] {
        let health = store.health();
        assert_eq!(
            (health.errors, health.timeouts, health.fallbacks),
            (0, 0, 0),
            "{health:?}"
        );
    }
    assert!(b.health().hits >= 4, "{:?}", b.health());

    // The extra roots change nothing for a plain `redis://` server.
    let plain = RedisServer::start();
    let store = RedisStore::connect(&plain.url(), options).await.unwrap();
    assert_eq!(store.ping().await, Ok(()));
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rediss_with_an_untrusted_ca_falls_back_and_counts_the_failure() {
    record_warnings();
    let ca = TestCa::new("robotrules redis CA").unwrap();
    let redis = RedisServer::start_tls(&ca);
    let stranger = TestCa::new("another CA").unwrap();
    // Trusting only the platform's roots, then another CA: the certificate is refused both
    // times; the store is returned all the same, and falls back.
    for options in [fast_options(), trusting(&stranger.pem())] {
        let before = warnings(&["not reachable", &redis.url()]);
        let store = RedisStore::connect(&redis.url(), options).await.unwrap();
        assert!(!store.health().connected);
        assert!(warnings(&["not reachable", &redis.url()]) > before);
        let error = store.ping().await.unwrap_err();
        assert!(matches!(error, FleetError::Redis(_)), "{error:?}");
        assert!(
            error.to_string().to_lowercase().contains("certificate"),
            "{error}"
        );

        let server = HttpServer::start().await;
        let cache = site_cache(&server, store.clone()).await;
        ask_all(&cache, &server, Duration::from_secs(4)).await;
        assert_eq!(server.hits("/robots.txt"), 4);
        let health = store.health();
        assert!(!health.connected, "{health:?}");
        assert!(health.errors >= 4, "{health:?}");
        assert!(health.fallbacks >= 8, "{health:?}");
        assert_eq!((health.writes, health.hits), (0, 0), "{health:?}");
    }
    assert_eq!(redis.command(&["DBSIZE"]).unwrap(), ":0");
}
