//! `cache list`, `cache stats` and `cache purge --all` against a real `redis-server`
//! (`robotrules_testserver::redis`) filled by `batch --cache` from loopback sites.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use robotrules_testserver::http::Reply;
use robotrules_testserver::redis::RedisServer;

use crate::support::{run_loopback as run, Sites, SITE_ROBOTS as ROBOTS};

/// Three sites in the cache: a robots.txt, a 404 and a 503.
fn filled(redis: &RedisServer) -> Sites {
    let sites = Sites::new(vec![
        Reply::ok(ROBOTS),
        Reply::status(404),
        Reply::status(503),
    ]);
    let urls: Vec<String> = (0..3).map(|site| sites.url(site, "/x")).collect();
    let cache = redis.url();
    let mut args = vec!["batch", "--cache", &cache, "ExampleBot"];
    args.extend(urls.iter().map(String::as_str));
    let out = run(&args, b"");
    assert_eq!(out.lines().len(), 3, "{out:?}");
    sites
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn list_shows_each_origin_with_its_access_result_size_and_age() {
    let redis = RedisServer::start();
    let url = redis.url();
    let sites = filled(&redis);
    // Someone else's key, and a lock, are not listed; a broken value under the prefix is.
    redis.command(&["SET", "other:key", "x"]).unwrap();
    redis
        .command(&["SET", "robotrules:lock:http://127.0.0.1:1", "token"])
        .unwrap();
    redis
        .command(&["SET", "robotrules:http://127.0.0.1:2", "not an entry"])
        .unwrap();

    // A key with a terminal escape in it: shown escaped, never raw.
    redis
        .command(&[
            "SET",
            "robotrules:https://a\x1b]0;pwned\x07.example:443",
            "x",
        ])
        .unwrap();

    let out = run(&["cache", "list", "--cache", &url], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains(['\x1b', '\x07']), "{out:?}");
    let mut lines = out.lines();
    lines.sort_unstable();
    assert_eq!(lines.len(), 5, "{out:?}");
    let escaped = row_of(&lines, "https://a<U+001B>]0;pwned<U+0007>.example:443");
    assert_eq!(
        escaped,
        "unreadable\t1 B\t-\t-\thttps://a<U+001B>]0;pwned<U+0007>.example:443\t(not an entry key of this schema)"
    );
    let row = |site: usize| {
        let origin = sites.url(site, "");
        lines
            .iter()
            .find(|line| line.split('\t').nth(4) == Some(origin.as_str()))
            .unwrap_or_else(|| panic!("{origin} not in {lines:?}"))
            .split('\t')
            .collect::<Vec<_>>()
    };
    let ok = row(0);
    assert_eq!(ok[0], "success");
    assert!(
        ok[1].ends_with(" B")
            && ok[1].trim_end_matches(" B").parse::<u64>().unwrap() > ROBOTS.len() as u64,
        "{ok:?}"
    );
    assert!(ok[2].ends_with(" s"), "{ok:?}");
    assert_eq!(ok[3], "fresh");
    assert!(row(1)[0].starts_with("unavailable"), "{lines:?}");
    assert!(row(2)[0].starts_with("unreachable"), "{lines:?}");
    let broken = row_of(&lines, "http://127.0.0.1:2");
    assert!(
        broken.starts_with("unreadable\t12 B\t-\t-\thttp://127.0.0.1:2\t("),
        "{broken}"
    );

    let out = run(&["cache", "list", "--cache", &url, "--format", "json"], b"");
    assert_eq!(out.code, 0, "{out:?}");
    let objects: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(objects.len(), 5, "{out:?}");
    let ok = objects
        .iter()
        .find(|object| object["origin"] == sites.url(0, "").as_str())
        .unwrap();
    assert_eq!(ok["access"], "success", "{ok}");
    assert_eq!(ok["fresh"], true, "{ok}");
    assert!(ok["age_secs"].as_u64().unwrap() < 600, "{ok}");
    assert!(ok["bytes"].as_u64().unwrap() > ROBOTS.len() as u64, "{ok}");
    assert_eq!(
        ok["key"],
        format!("robotrules:{}", sites.url(0, "")).as_str()
    );
    let unreachable = objects
        .iter()
        .find(|object| object["origin"] == sites.url(2, "").as_str())
        .unwrap();
    assert_eq!(unreachable["access"], "unreachable", "{unreachable}");
    assert!(
        unreachable["access_reason"]
            .as_str()
            .unwrap()
            .contains("503"),
        "{unreachable}"
    );
    assert!(objects
        .iter()
        .any(|object| object["unreadable"].is_string()));
}

fn row_of<'a>(lines: &[&'a str], origin: &str) -> &'a str {
    lines
        .iter()
        .find(|line| line.split('\t').nth(4) == Some(origin))
        .unwrap()
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn list_walks_a_big_cache_page_by_page() {
    let redis = RedisServer::start();
    let url = redis.url();
    // 1,000 copies of one 404 entry under other origins' keys would be foreign entries: write
    // unreadable values instead, which are listed all the same.
    let mut args: Vec<String> = vec!["MSET".into()];
    for port in 0..1_000 {
        args.push(format!("robotrules:http://10.0.0.1:{}", 10_000 + port));
        args.push("x".into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    redis.command(&args).unwrap();
    let out = run(&["cache", "list", "--cache", &url], b"");
    assert_eq!(out.code, 0, "{out:?}");
    let mut origins: Vec<&str> = out
        .lines()
        .iter()
        .map(|line| line.split('\t').nth(4).unwrap())
        .collect();
    origins.sort_unstable();
    origins.dedup();
    assert_eq!(origins.len(), 1_000);
    let out = run(
        &["cache", "stats", "--cache", &url, "--format", "json"],
        b"",
    );
    assert_eq!(out.json()["entries"], 1_000, "{out:?}");
    assert_eq!(out.json()["unreadable"], 1_000, "{out:?}");
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn stats_counts_entries_bytes_results_and_locks() {
    let redis = RedisServer::start();
    let url = redis.url();
    let _sites = filled(&redis);
    redis
        .command(&["SET", "robotrules:lock:http://127.0.0.1:1", "token"])
        .unwrap();
    let out = run(
        &["cache", "stats", "--cache", &url, "--format", "json"],
        b"",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["entries"], 3, "{json}");
    assert_eq!(
        (
            &json["success"],
            &json["unavailable"],
            &json["unreachable"],
            &json["unreadable"]
        ),
        (&1.into(), &1.into(), &1.into(), &0.into()),
        "{json}"
    );
    assert_eq!(json["fresh"], 3, "{json}");
    assert_eq!(json["locks"], 1, "{json}");
    assert!(
        json["bytes"].as_u64().unwrap() > ROBOTS.len() as u64,
        "{json}"
    );
    assert!(
        json["oldest_fetch"]["unix"].as_u64().unwrap()
            <= json["newest_fetch"]["unix"].as_u64().unwrap()
    );
    assert_eq!(json["process"]["errors"], 0, "{json}");
    assert_eq!(json["process"]["connected"], true, "{json}");

    let out = run(&["cache", "stats", "--cache", &url], b"");
    let text = out.stdout;
    for line in [
        "entries: 3 (one per origin)",
        "latest fetch: 1 success, 1 unavailable, 1 unreachable, 0 unreadable",
        "locks held: 1 (origins a crawler is fetching now)",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} not in {text}");
    }
    assert!(text.contains("\nbytes: "), "{text}");
    assert!(text.contains("\noldest fetch: "), "{text}");
    assert!(
        text.contains("\nthis process: 0 errors, 0 timeouts"),
        "{text}"
    );
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn purge_all_empties_the_cache_and_only_the_cache() {
    let redis = RedisServer::start();
    let url = redis.url();
    let sites = filled(&redis);
    redis.command(&["SET", "other:key", "kept"]).unwrap();
    redis
        .command(&["SET", "robotrules:lock:http://127.0.0.1:1", "token"])
        .unwrap();
    let out = run(&["cache", "purge", "--cache", &url, "--all"], b"");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "purged 3 entries\n"),
        "{out:?}"
    );
    let out = run(&["cache", "list", "--cache", &url], b"");
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    assert_eq!(
        redis.command(&["EXISTS", "other:key"]).unwrap().trim(),
        ":1"
    );
    assert_eq!(
        redis
            .command(&["EXISTS", "robotrules:lock:http://127.0.0.1:1"])
            .unwrap()
            .trim(),
        ":0"
    );
    let out = run(
        &["cache", "stats", "--cache", &url, "--format", "json"],
        b"",
    );
    assert_eq!(out.json()["entries"], 0, "{out:?}");
    // The next crawler fetches again.
    let before = sites.total_hits();
    let out = run(
        &["batch", "--cache", &url, "ExampleBot", &sites.url(0, "/x")],
        b"",
    );
    assert_eq!(out.lines().len(), 1, "{out:?}");
    assert_eq!(sites.total_hits(), before + 1);
    // ORIGIN and --all exclude each other; one of them is needed.
    let out = run(
        &[
            "cache",
            "purge",
            "--cache",
            &url,
            "--all",
            &sites.url(0, ""),
        ],
        b"",
    );
    assert_eq!(out.code, 2, "{out:?}");
    let out = run(&["cache", "purge", "--cache", &url], b"");
    assert_eq!(out.code, 2, "{out:?}");
}
