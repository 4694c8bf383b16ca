//! `Client::wait_turn`: the crawler's turn at an origin under its robots.txt's `crawl-delay`
//! and `request-rate`, capped, with several tasks sharing one origin. Time is a
//! `ManualClock`: a test moves it and watches which tasks get their turn.

// The client is behind the `fetch` feature (`cargo test -p robotrules --features fetch`; the
// workspace turns it on through the command line and the conformance runner).
#![cfg(feature = "fetch")]
#![cfg(feature = "fetch")]
#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use robotrules::client::{Client, Clock, ManualClock, Turn, DEFAULT_MAX_CRAWL_DELAY};
use robotrules_testserver::http::{HttpServer, Reply};

const SEC: Duration = Duration::from_secs(1);

fn client(clock: &ManualClock, max: Option<Duration>) -> Client {
    let mut builder = Client::builder()
        .crawler("ExampleBot")
        .connect_timeout(SEC)
        .total_timeout(2 * SEC)
        .use_env_proxy(false)
        .clock(Arc::new(clock.clone()));
    if let Some(max) = max {
        builder = builder.max_crawl_delay(max);
    }
    builder.build().unwrap()
}

async fn server(reply: Reply) -> HttpServer {
    let server = HttpServer::start().await;
    server.route("/robots.txt", reply);
    server
}

/// A turn and the clock's time when its task got it.
type Taken = (Turn, SystemTime);

/// Waits (in real time, at most 5 s) until `done` holds `count` turns.
async fn settle(done: &Mutex<Vec<Taken>>, count: usize) {
    let start = Instant::now();
    while done.lock().unwrap().len() < count {
        assert!(
            start.elapsed() < 5 * SEC,
            "only {} of {count} turns",
            done.lock().unwrap().len()
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    // Give a task that would take its turn too early the chance to show it.
    tokio::time::sleep(Duration::from_millis(20)).await;
}

/// Starts `tasks` tasks asking for a turn at `url` at once; the turns taken so far.
async fn ask(
    client: &Client,
    clock: &ManualClock,
    url: &str,
    tasks: usize,
) -> Arc<Mutex<Vec<Taken>>> {
    // The robots.txt is fetched first, so the tasks only wait for turns.
    client.is_allowed(url).await.unwrap();
    let done = Arc::new(Mutex::new(Vec::new()));
    for _ in 0..tasks {
        let (client, clock, url, done) = (
            client.clone(),
            clock.clone(),
            url.to_owned(),
            Arc::clone(&done),
        );
        tokio::spawn(async move {
            let turn = client.wait_turn(&url).await.unwrap();
            done.lock().unwrap().push((turn, clock.now()));
        });
    }
    done
}

/// Runs `tasks` tasks at `url`, moving the clock by `interval` once the turns due have been
/// taken; checks that each task took its turn exactly at its slot, and returns the slots in
/// order.
async fn turns(
    client: &Client,
    clock: &ManualClock,
    url: &str,
    tasks: usize,
    interval: Duration,
) -> Vec<Turn> {
    let done = ask(client, clock, url, tasks).await;
    for taken in 1..=tasks {
        settle(&done, taken).await;
        assert_eq!(done.lock().unwrap().len(), taken, "a turn was taken early");
        if taken < tasks {
            clock.advance(interval);
        }
    }
    let mut done = done.lock().unwrap().clone();
    done.sort_by_key(|(turn, _)| turn.at);
    for (turn, taken_at) in &done {
        assert_eq!(turn.at, *taken_at, "{turn:?}");
    }
    done.into_iter().map(|(turn, _)| turn).collect()
}

fn slots(start: SystemTime, interval: Duration, count: u32) -> Vec<SystemTime> {
    (0..count).map(|k| start + interval * k).collect()
}

#[tokio::test]
async fn tasks_of_one_origin_are_spaced_by_its_crawl_delay() {
    let clock = ManualClock::default();
    let t0 = clock.now();
    let server = server(Reply::ok(
        "User-agent: *\nCrawl-delay: 10\nDisallow: /private/\n",
    ))
    .await;
    let client = client(&clock, None);
    let got = turns(&client, &clock, &server.url("/page"), 5, 10 * SEC).await;
    let at: Vec<_> = got.iter().map(|turn| turn.at).collect();
    assert_eq!(at, slots(t0, 10 * SEC, 5), "distinct slots, 10 s apart");
    let waited: Vec<_> = got.iter().map(|turn| turn.waited.as_secs()).collect();
    assert_eq!(waited, [0, 10, 20, 30, 40]);
    assert!(got
        .iter()
        .all(|turn| turn.interval == 10 * SEC && !turn.capped()));
    // The next turn comes 10 s after the last one granted.
    clock.advance(3 * SEC);
    let done = ask(&client, &clock, &server.url("/other"), 1).await;
    clock.advance(7 * SEC);
    settle(&done, 1).await;
    assert_eq!(done.lock().unwrap()[0].0.at, t0 + 50 * SEC);
}

#[tokio::test]
async fn the_cap_applies() {
    let clock = ManualClock::default();
    let t0 = clock.now();
    let server = server(Reply::ok("User-agent: *\nCrawl-delay: 3600\n")).await;
    let client = client(&clock, Some(30 * SEC));
    let got = turns(&client, &clock, &server.url("/"), 3, 30 * SEC).await;
    assert_eq!(
        got.iter().map(|turn| turn.at).collect::<Vec<_>>(),
        slots(t0, 30 * SEC, 3)
    );
    assert!(got
        .iter()
        .all(|turn| turn.capped() && turn.requested == Some(3600 * SEC)));
    assert_eq!(DEFAULT_MAX_CRAWL_DELAY, 60 * SEC);
    let default = client_default_cap(&clock, &server).await;
    assert_eq!(default.interval, 60 * SEC);
}

async fn client_default_cap(clock: &ManualClock, server: &HttpServer) -> Turn {
    client(clock, None)
        .wait_turn(&server.url("/"))
        .await
        .unwrap()
}

#[tokio::test]
async fn request_rate_applies_when_it_asks_for_more() {
    let clock = ManualClock::default();
    let t0 = clock.now();
    // 1 request per 20 s outweighs a crawl-delay of 5 s.
    let server = server(Reply::ok(
        "User-agent: *\nCrawl-delay: 5\nRequest-rate: 1/20\n",
    ))
    .await;
    let paced = client(&clock, None);
    let got = turns(&paced, &clock, &server.url("/"), 3, 20 * SEC).await;
    assert_eq!(
        got.iter().map(|turn| turn.at).collect::<Vec<_>>(),
        slots(t0, 20 * SEC, 3)
    );
    // 3 requests per 15 s, no crawl-delay: 5 s apart.
    let clock = ManualClock::default();
    let t0 = clock.now();
    let server = server_rate("3/15").await;
    let rated = client(&clock, None);
    let got = turns(&rated, &clock, &server.url("/"), 3, 5 * SEC).await;
    assert_eq!(
        got.iter().map(|turn| turn.at).collect::<Vec<_>>(),
        slots(t0, 5 * SEC, 3)
    );
}

async fn server_rate(rate: &str) -> HttpServer {
    server(Reply::ok(format!("User-agent: *\nRequest-rate: {rate}\n"))).await
}

#[tokio::test]
async fn origins_without_rules_or_delay_never_wait() {
    for reply in [
        Reply::status(404),
        Reply::status(503),
        Reply::ok("User-agent: *\nDisallow: /private/\n"),
        // Another crawler's delay (a rule first: in `rfc9309` a group without rules runs on
        // into the next user-agent line's).
        Reply::ok(
            "User-agent: OtherBot\nDisallow: /\nCrawl-delay: 10\n\nUser-agent: *\nDisallow:\n",
        ),
    ] {
        let clock = ManualClock::default();
        let server = server(reply).await;
        let client = client(&clock, None);
        let done = ask(&client, &clock, &server.url("/"), 5).await;
        settle(&done, 5).await;
        assert!(done
            .lock()
            .unwrap()
            .iter()
            .all(|(turn, _)| turn.at == clock.now()
                && turn.waited.is_zero()
                && turn.interval.is_zero()
                && turn.requested.is_none()));
    }
}

#[tokio::test]
async fn two_origins_do_not_wait_on_each_other() {
    let clock = ManualClock::default();
    let t0 = clock.now();
    let robots = "User-agent: *\nCrawl-delay: 10\n";
    let (a, b) = (
        server(Reply::ok(robots)).await,
        server(Reply::ok(robots)).await,
    );
    let client = client(&clock, None);
    let at_a = ask(&client, &clock, &a.url("/"), 3).await;
    let at_b = ask(&client, &clock, &b.url("/"), 3).await;
    for taken in 1..=3 {
        settle(&at_a, taken).await;
        settle(&at_b, taken).await;
        assert_eq!(
            (at_a.lock().unwrap().len(), at_b.lock().unwrap().len()),
            (taken, taken)
        );
        clock.advance(10 * SEC);
    }
    for done in [at_a, at_b] {
        let mut at: Vec<_> = done
            .lock()
            .unwrap()
            .iter()
            .map(|(turn, _)| turn.at)
            .collect();
        at.sort();
        assert_eq!(at, slots(t0, 10 * SEC, 3));
    }
}

#[tokio::test]
async fn a_zero_cap_turns_the_spacing_off() {
    let clock = ManualClock::default();
    let server = server(Reply::ok("User-agent: *\nCrawl-delay: 10\n")).await;
    let client = client(&clock, Some(Duration::ZERO));
    let done = ask(&client, &clock, &server.url("/"), 4).await;
    settle(&done, 4).await;
    assert!(done
        .lock()
        .unwrap()
        .iter()
        .all(|(turn, _)| turn.waited.is_zero() && turn.requested == Some(10 * SEC)));
}
