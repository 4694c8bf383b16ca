//! The fleet cache (`fleet::RedisStore`) against a real `redis-server` (never a mock), from
//! `robotrules-testserver`: the entry format and every unreadable value, the fleet lock, many
//! processes sharing one cache (exactly one robots.txt request per origin), and every fault
//! (Redis down at start, killed and restarted, slow, full, holding garbage): the crawl goes
//! on and the verdicts stay RFC 9309's (§2.3.1).

#![cfg(feature = "redis")]
#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use robotrules_fetch::cache::{CacheEntry, Store};
use robotrules_fetch::fleet::codec::{self, CodecError};
use robotrules_fetch::fleet::{FleetError, RedisOptions, RedisStore};
use robotrules_fetch::{Access, CacheHeaders, FetchOutcome, Origin, UnreachableReason};
use robotrules_testserver::redis::RedisServer;

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

/// Whether a warning holding every one of `parts` was logged.
fn warned(parts: &[&str]) -> bool {
    WARNINGS
        .lock()
        .unwrap()
        .iter()
        .any(|warning| parts.iter().all(|part| warning.contains(part)))
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
