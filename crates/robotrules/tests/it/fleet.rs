//! Two crawler processes' clients sharing one robots.txt cache in a real Redis
//! (`client::RedisStore`, feature `redis`): one request per origin, each its own parsed copy,
//! never used past the entry's freshness (RFC 9309 §2.4).

#![cfg(feature = "redis")]
#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::Arc;
use std::time::Duration;

use robotrules::client::{Client, ManualClock, RedisOptions, RedisStore};
use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::redis::RedisServer;

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\n";

async fn client(redis: &RedisServer, clock: &ManualClock) -> (Client, RedisStore) {
    let store = RedisStore::connect(&redis.url(), RedisOptions::default())
        .await
        .unwrap();
    let client = Client::builder()
        .crawler("ExampleBot")
        .connect_timeout(Duration::from_secs(1))
        .total_timeout(Duration::from_secs(2))
        .use_env_proxy(false)
        .clock(Arc::new(clock.clone()))
        .store(Arc::new(store.clone()))
        .build()
        .unwrap();
    (client, store)
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_share_one_fetch_and_drop_parsed_copies_when_stale() {
    let redis = RedisServer::start();
    let server = HttpServer::start().await;
    server.route(
        "/robots.txt",
        Reply::ok(ROBOTS).header("Cache-Control", "max-age=7200"),
    );
    let clock = ManualClock::default();
    let (a, a_store) = client(&redis, &clock).await;
    let (b, b_store) = client(&redis, &clock).await;

    let private = server.url("/private/x");
    assert!(!a.is_allowed(&private).await.unwrap().allowed);
    let from_b = b.is_allowed(&private).await.unwrap();
    assert!(!from_b.allowed);
    assert!(from_b.from_cache);
    assert!(b.is_allowed(&server.url("/public")).await.unwrap().allowed);
    assert_eq!(
        server.hits("/robots.txt"),
        1,
        "one request for both processes"
    );

    // Past the entry's freshness neither client answers from its parsed copy.
    clock.advance(Duration::from_secs(7201));
    assert!(a.try_is_allowed(&private).is_none());
    assert!(b.try_is_allowed(&private).is_none());
    server.route("/robots.txt", Reply::ok("User-agent: *\nDisallow:\n"));
    assert!(b.is_allowed(&private).await.unwrap().allowed);
    assert!(a.is_allowed(&private).await.unwrap().allowed);
    assert_eq!(server.hits("/robots.txt"), 2);
    assert_eq!(a_store.health().errors + b_store.health().errors, 0);
}
