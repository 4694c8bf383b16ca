//! The client's cache against a real loopback server, on a manual clock (no sleeps):
//! freshness (RFC 9309 §2.4), error back-off with Retry-After, the last good copy while
//! unreachable (§2.3.1.4), one fetch per origin at a time, and a store of one's own.

// The client is behind the `fetch` feature (`cargo test -p robotrules --features fetch`; the
// workspace turns it on through the command line and the conformance runner).
#![cfg(feature = "fetch")]
#![allow(clippy::unwrap_used)] // tests may unwrap

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::join_all;
use robotrules::client::store::{BoxFuture, CacheEntry, Origin, Store};
use robotrules::client::{
    AccessKind, Basis, CachePolicy, Client, ClientBuilder, Clock, Lookup, ManualClock, VerdictClass,
};
use robotrules::Robots;
use robotrules_testserver::http::{HttpServer, Reply};
use rstest::rstest;

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n";
const SECOND: Duration = Duration::from_secs(1);
const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);

/// RFC 9309's rules without the politeness floor: the server's cache headers alone.
fn without_floor() -> CachePolicy {
    CachePolicy {
        min_lifetime: Duration::ZERO,
        ..CachePolicy::rfc9309()
    }
}

/// Short deadlines, no proxy from the environment.
fn quick(policy: CachePolicy) -> ClientBuilder {
    Client::builder()
        .crawler("ExampleBot")
        .connect_timeout(Duration::from_secs(1))
        .total_timeout(Duration::from_secs(2))
        .use_env_proxy(false)
        .cache_policy(policy)
}

struct Setup {
    server: HttpServer,
    clock: ManualClock,
    client: Client,
}

async fn setup(builder: ClientBuilder) -> Setup {
    let server = HttpServer::start().await;
    let clock = ManualClock::default();
    let client = builder.clock(Arc::new(clock.clone())).build().unwrap();
    Setup {
        server,
        clock,
        client,
    }
}

/// The body of the copy served, when the access result is a success.
fn body(lookup: &Lookup) -> Option<Vec<u8>> {
    (lookup.access() == AccessKind::Success)
        .then(|| lookup.served().body().map(<[u8]>::to_vec))
        .flatten()
}

impl Setup {
    async fn get(&self) -> Lookup {
        self.client.lookup(&self.server.url("/page")).await.unwrap()
    }

    fn fetches(&self) -> usize {
        self.server.hits("/robots.txt")
    }

    fn serve(&self, reply: Reply) {
        self.server.route("/robots.txt", reply);
    }
}

#[tokio::test]
async fn a_fresh_entry_is_served_without_fetching_again() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::ok(ROBOTS));
    let first = s.get().await;
    assert!(!first.from_cache());
    assert_eq!(first.verdict_class(), VerdictClass::Conditional);
    s.clock.advance(DAY - SECOND);
    let second = s.get().await;
    assert!(second.from_cache());
    assert_eq!(second.age(), DAY - SECOND);
    assert_eq!(body(&second), body(&first));
    assert_eq!(s.fetches(), 1);
    s.clock.advance(SECOND);
    let third = s.get().await;
    assert!(!third.from_cache());
    assert_eq!(third.age(), Duration::ZERO);
    assert_eq!(s.fetches(), 2);
}

/// An entry is served from the cache for exactly its lifetime, set by the response's
/// headers under the policy (RFC 9309 §2.4), then fetched again.
#[rstest]
#[case::max_age_shortens_the_lifetime(
    without_floor(),
    Reply::ok(ROBOTS).header("Cache-Control", "public, max-age=60"),
    VerdictClass::Conditional,
    Duration::from_secs(60)
)]
#[case::the_politeness_floor_outlasts_a_short_max_age(
    CachePolicy::rfc9309(),
    Reply::ok(ROBOTS).header("Cache-Control", "public, max-age=60"),
    VerdictClass::Conditional,
    HOUR
)]
#[case::the_politeness_floor_outlasts_no_cache(
    CachePolicy::rfc9309(),
    Reply::ok(ROBOTS).header("Cache-Control", "no-cache"),
    VerdictClass::Conditional,
    HOUR
)]
#[case::the_politeness_floor_outlasts_an_expires_in_the_past(
    CachePolicy::google(),
    Reply::ok(ROBOTS)
        .header("Date", "Sun, 06 Nov 1994 08:49:37 GMT")
        .header("Expires", "Sun, 06 Nov 1994 07:49:37 GMT"),
    VerdictClass::Conditional,
    HOUR
)]
#[case::the_politeness_floor_covers_a_404_with_max_age_0(
    CachePolicy::rfc9309(),
    Reply::status(404).header("Cache-Control", "max-age=0"),
    VerdictClass::FullAllow,
    HOUR
)]
#[case::max_age_beyond_24_hours_is_capped_in_rfc9309(
    CachePolicy::rfc9309(),
    Reply::ok(ROBOTS).header("Cache-Control", "max-age=172800"),
    VerdictClass::Conditional,
    DAY
)]
#[case::max_age_beyond_24_hours_is_followed_in_google(
    CachePolicy::google(),
    Reply::ok(ROBOTS).header("Cache-Control", "max-age=172800"),
    VerdictClass::Conditional,
    2 * DAY
)]
#[case::expires_relative_to_date_sets_the_lifetime(
    CachePolicy::rfc9309(),
    Reply::ok(ROBOTS)
        .header("Date", "Sun, 06 Nov 1994 08:49:37 GMT")
        .header("Expires", "Sun, 06 Nov 1994 10:49:37 GMT"),
    VerdictClass::Conditional,
    2 * HOUR
)]
#[case::retry_after_on_503_delays_the_next_fetch(
    CachePolicy::rfc9309(),
    Reply::status(503).header("Retry-After", "600"),
    VerdictClass::FullDisallow,
    Duration::from_secs(600)
)]
#[tokio::test]
async fn an_entry_is_kept_for_its_lifetime(
    #[case] policy: CachePolicy,
    #[case] reply: Reply,
    #[case] verdict: VerdictClass,
    #[case] lifetime: Duration,
) {
    let s = setup(quick(policy)).await;
    s.serve(reply);
    let first = s.get().await;
    assert_eq!(first.verdict_class(), verdict);
    assert_eq!(first.fresh_until(), first.latest().fetched_at() + lifetime);
    s.clock.advance(lifetime - SECOND);
    assert!(s.get().await.from_cache());
    assert_eq!(s.fetches(), 1);
    s.clock.advance(SECOND);
    assert!(!s.get().await.from_cache());
    assert_eq!(s.fetches(), 2);
}

#[tokio::test]
async fn no_store_is_kept_for_the_politeness_floor_and_as_the_last_good_copy() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::ok(ROBOTS).header("Cache-Control", "no-store"));
    for _ in 0..100 {
        s.get().await;
    }
    assert_eq!(s.fetches(), 1);
    s.clock.advance(HOUR);
    s.serve(Reply::status(500));
    let during_outage = s.get().await;
    assert_eq!(s.fetches(), 2);
    assert_eq!(during_outage.verdict_class(), VerdictClass::Conditional);
    assert!(matches!(during_outage.basis(), Basis::LastGoodCopy { .. }));
}

#[tokio::test]
async fn without_the_floor_no_store_is_fetched_every_time_and_never_kept_as_a_good_copy() {
    let s = setup(quick(without_floor())).await;
    s.serve(Reply::ok(ROBOTS).header("Cache-Control", "no-store"));
    s.get().await;
    s.get().await;
    assert_eq!(s.fetches(), 2);
    // Nothing was kept, so an outage now means complete disallow.
    s.serve(Reply::status(500));
    let during_outage = s.get().await;
    assert_eq!(during_outage.verdict_class(), VerdictClass::FullDisallow);
    assert_eq!(during_outage.basis(), Basis::Current);
}

#[tokio::test]
async fn an_invalid_expires_means_already_stale() {
    let s = setup(quick(without_floor())).await;
    s.serve(Reply::ok(ROBOTS).header("Expires", "0"));
    s.get().await;
    s.get().await;
    assert_eq!(s.fetches(), 2);
}

#[tokio::test]
async fn a_404_is_cached_like_a_success() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::status(404));
    let first = s.get().await;
    assert_eq!(first.verdict_class(), VerdictClass::FullAllow);
    s.clock.advance(23 * HOUR);
    assert!(s.get().await.from_cache());
    assert_eq!(s.fetches(), 1);
}

#[tokio::test]
async fn errors_back_off_with_growing_delays() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::status(500));
    let mut delays = Vec::new();
    for _ in 0..8 {
        let outcome = s.get().await;
        let delay = outcome
            .fresh_until()
            .duration_since(outcome.latest().fetched_at())
            .unwrap();
        delays.push(delay.as_secs());
        s.clock.advance(delay);
    }
    assert_eq!(delays, vec![60, 120, 240, 480, 960, 1920, 3600, 3600]);
    assert_eq!(s.fetches(), 8);
}

#[tokio::test]
async fn the_last_good_copy_is_served_while_unreachable_then_unavailable_after_30_days() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::ok(ROBOTS));
    let good = s.get().await;
    s.clock.advance(DAY);
    s.serve(Reply::status(503));
    let outage_start = s.clock.now();
    let during = s.get().await;
    assert_eq!(during.verdict_class(), VerdictClass::Conditional);
    assert_eq!(
        during.basis(),
        Basis::LastGoodCopy {
            since: outage_start
        }
    );
    assert_eq!(body(&during), body(&good));
    assert_eq!(during.served().fetched_at(), good.latest().fetched_at());
    assert_eq!(during.age(), DAY);
    assert_eq!(
        during.latest().access(),
        AccessKind::Unreachable,
        "the latest fetch itself failed"
    );
    // Still the good copy just before 30 days of outage.
    s.clock.advance(30 * DAY - SECOND);
    assert_eq!(s.get().await.verdict_class(), VerdictClass::Conditional);
    s.clock.advance(SECOND);
    let after = s.get().await;
    assert_eq!(after.verdict_class(), VerdictClass::FullAllow);
    assert_eq!(after.access(), AccessKind::Unavailable);
    assert_eq!(after.unreachable_since(), Some(outage_start));
    // Recovery starts over.
    s.serve(Reply::ok("User-agent: *\nDisallow: /\n"));
    s.clock.advance(2 * HOUR);
    let recovered = s.get().await;
    assert_eq!(recovered.basis(), Basis::Current);
    assert_eq!(
        body(&recovered).as_deref(),
        Some(&b"User-agent: *\nDisallow: /\n"[..])
    );
}

#[tokio::test]
async fn without_a_good_copy_an_outage_disallows_everything_for_30_days() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::status(500));
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullDisallow);
    s.clock.advance(29 * DAY);
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullDisallow);
    s.clock.advance(DAY);
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullAllow);
}

#[tokio::test]
async fn a_404_drops_the_last_good_copy() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::ok(ROBOTS));
    s.get().await;
    s.clock.advance(DAY);
    s.serve(Reply::status(404));
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullAllow);
    s.clock.advance(DAY);
    s.serve(Reply::status(500));
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullDisallow);
}

#[tokio::test]
async fn google_disallows_for_12_hours_before_using_the_last_good_copy() {
    let s = setup(quick(CachePolicy::google())).await;
    s.serve(Reply::ok(ROBOTS));
    s.get().await;
    s.clock.advance(DAY);
    s.serve(Reply::status(503));
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullDisallow);
    s.clock.advance(12 * HOUR);
    let later = s.get().await;
    assert_eq!(later.verdict_class(), VerdictClass::Conditional);
    assert!(matches!(later.basis(), Basis::LastGoodCopy { .. }));
}

#[tokio::test]
async fn google_allows_everything_after_12_hours_without_a_good_copy() {
    let s = setup(quick(CachePolicy::google())).await;
    s.serve(Reply::status(500));
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullDisallow);
    s.clock.advance(12 * HOUR);
    assert_eq!(s.get().await.verdict_class(), VerdictClass::FullAllow);
}

#[tokio::test]
async fn concurrent_callers_share_one_fetch_and_one_parse() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::ok(ROBOTS));
    let urls: Vec<String> = (0..20)
        .map(|i| s.server.url(&format!("/page/{i}")))
        .collect();
    let results = join_all(urls.iter().map(|url| s.client.lookup(url))).await;
    assert_eq!(s.fetches(), 1);
    let first = results[0].as_ref().unwrap().robots().unwrap();
    for result in &results {
        let lookup = result.as_ref().unwrap();
        assert_eq!(body(lookup).as_deref(), Some(ROBOTS.as_bytes()));
        assert!(Robots::ptr_eq(&lookup.robots().unwrap(), &first));
    }
}

#[tokio::test]
async fn concurrent_callers_share_one_fetch_across_tasks() {
    let s = setup(quick(CachePolicy::rfc9309()).total_timeout(Duration::from_millis(300))).await;
    s.serve(Reply::Silent);
    let url = s.server.url("/");
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let client = s.client.clone();
            let url = url.clone();
            tokio::spawn(async move { client.lookup(&url).await.unwrap() })
        })
        .collect();
    for task in tasks {
        let lookup = task.await.unwrap();
        assert_eq!(lookup.verdict_class(), VerdictClass::FullDisallow);
    }
    assert_eq!(s.fetches(), 1, "one request despite eight callers");
}

#[tokio::test]
async fn different_origins_are_cached_separately() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::ok(ROBOTS));
    let client = quick(CachePolicy::rfc9309())
        .resolve("a.test", server.addr())
        .resolve("b.test", server.addr())
        .clock(Arc::new(ManualClock::default()))
        .build()
        .unwrap();
    client.lookup(&server.url_on("a.test", "/x")).await.unwrap();
    client.lookup(&server.url_on("A.TEST", "/y")).await.unwrap();
    client.lookup(&server.url_on("b.test", "/x")).await.unwrap();
    assert_eq!(server.hits("/robots.txt"), 2);
}

#[tokio::test]
async fn invalidate_forces_a_new_fetch() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    s.serve(Reply::ok(ROBOTS));
    s.get().await;
    s.client.invalidate(&s.server.url("/")).await.unwrap();
    s.get().await;
    assert_eq!(s.fetches(), 2);
}

/// A store of one's own, written with `robotrules::client::store` alone: every entry in one
/// map.
#[derive(Debug, Default)]
struct MapStore(Mutex<HashMap<Origin, CacheEntry>>);

impl MapStore {
    fn entry(&self, origin: &Origin) -> Option<CacheEntry> {
        self.0.lock().unwrap().get(origin).cloned()
    }
}

impl Store for MapStore {
    fn get<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, Option<CacheEntry>> {
        let found = self.entry(origin);
        Box::pin(async move { found })
    }

    fn put<'a>(&'a self, origin: &'a Origin, entry: CacheEntry) -> BoxFuture<'a, ()> {
        self.0.lock().unwrap().insert(origin.clone(), entry);
        Box::pin(async {})
    }

    fn remove<'a>(&'a self, origin: &'a Origin) -> BoxFuture<'a, ()> {
        self.0.lock().unwrap().remove(origin);
        Box::pin(async {})
    }
}

#[tokio::test]
async fn a_store_of_ones_own_is_written_read_and_emptied() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::ok(ROBOTS));
    let store = Arc::new(MapStore::default());
    let client = || {
        quick(CachePolicy::rfc9309())
            .clock(Arc::new(ManualClock::default()))
            .store(store.clone())
            .build()
            .unwrap()
    };
    let first = client();
    first.lookup(&server.url("/")).await.unwrap();
    let origin = Origin::parse(&server.url("/")).unwrap();
    let entry = store.entry(&origin).expect("stored");
    assert_eq!(entry.latest.body().map(|b| &b[..]), Some(ROBOTS.as_bytes()));
    // Another client sharing the store asks no more of the server.
    let second = client();
    assert!(second.lookup(&server.url("/x")).await.unwrap().from_cache());
    assert_eq!(server.hits("/robots.txt"), 1);
    second.invalidate(&server.url("/")).await.unwrap();
    assert!(store.entry(&origin).is_none());
}

#[tokio::test]
async fn unsupported_urls_are_errors_before_any_caching() {
    let s = setup(quick(CachePolicy::rfc9309())).await;
    assert!(s.client.lookup("mailto:x@example.com").await.is_err());
    assert!(s.client.lookup("ws://example.com/").await.is_err());
}

/// `max_concurrent_fetches` bounds the fetches running at once; the others wait their turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_fetches_are_bounded() {
    let server = HttpServer::start().await;
    server.route(
        "/robots.txt",
        Reply::ok(ROBOTS).after(Duration::from_millis(100)),
    );
    let mut builder = quick(CachePolicy::rfc9309())
        .max_concurrent_fetches(2)
        .clock(Arc::new(ManualClock::default()));
    for i in 0..6 {
        builder = builder.resolve(format!("site-{i}.test"), server.addr());
    }
    let client = builder.build().unwrap();
    let port = server.port();
    let tasks: Vec<_> = (0..6)
        .map(|i| {
            let client = client.clone();
            tokio::spawn(async move {
                client
                    .lookup(&format!("http://site-{i}.test:{port}/"))
                    .await
            })
        })
        .collect();
    for task in tasks {
        assert_eq!(
            task.await.unwrap().unwrap().verdict_class(),
            VerdictClass::Conditional
        );
    }
    assert_eq!(server.hits("/robots.txt"), 6);
    assert_eq!(server.max_in_flight(), 2);
}
