//! End-to-end tests of `--cache redis://…` and the `cache` commands: real `redis-server`
//! processes (`robotrules_testserver::redis`, which panics with install instructions when
//! `redis-server` is missing) and real HTTP servers on 127.0.0.1, whose robots.txt requests
//! are counted; Redis over TLS (`rediss://`) with `--ca-cert`.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use robotrules_testserver::http::Reply;
use robotrules_testserver::redis::RedisServer;
use robotrules_testserver::tls::TestCa;

use crate::support::{Fixture, Harness, Sites};

use crate::support::{run_loopback as run, SITE_ROBOTS as ROBOTS};

/// Two URLs per site, one disallowed and one allowed, starting at site `first` (so that
/// processes start on different sites and meet each other's fetches); the expected rows.
fn stream(sites: &Sites, first: usize) -> (String, Vec<String>) {
    let count = sites.servers.len();
    let mut input = String::new();
    let mut expected = Vec::new();
    for i in 0..count {
        let site = (first + i) % count;
        for (path, verdict) in [("/private/x", "disallowed"), ("/public", "allowed")] {
            let url = sites.url(site, path);
            input.push_str(&url);
            input.push('\n');
            expected.push(format!("{verdict}\t{url}"));
        }
    }
    (input, expected)
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn eight_processes_over_two_hundred_slow_origins_fetch_each_once() {
    let redis = RedisServer::start();
    let sites = Sites::alike(200, &Reply::ok(ROBOTS).after(Duration::from_millis(200)));
    let url = redis.url();
    let children: Vec<_> = (0..8)
        .map(|process| {
            let (input, expected) = stream(&sites, process * 25);
            let mut child = Harness::LOOPBACK
                // A Redis command slower than its timeout makes a process fetch for itself;
                // on a loaded machine 2 s keeps that from looking like a second fetch.
                .command(&[
                    "batch",
                    "--cache",
                    &url,
                    "--cache-timeout",
                    "2",
                    "--timeout",
                    "20",
                    "ExampleBot",
                ])
                .stdin(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(input.as_bytes()).unwrap();
            drop(stdin);
            (child, expected)
        })
        .collect();
    for (child, expected) in children {
        let output = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(stdout.lines().collect::<Vec<_>>(), expected, "{stderr}");
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr, "");
    }
    for site in &sites.servers {
        assert_eq!(site.hits("/robots.txt"), 1);
    }
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn cache_show_and_purge_read_and_remove_an_entry() {
    let redis = RedisServer::start();
    let sites = Sites::alike(1, &Reply::ok(ROBOTS));
    let url = redis.url();
    let page = sites.url(0, "/private/x");
    let out = run(&["batch", "--cache", &url, "ExampleBot", &page], b"");
    assert_eq!(out.lines(), [format!("disallowed\t{page}")], "{out:?}");

    // Another process, `check` this time, reads the entry: no second request.
    let out = run(
        &["check", "--cache", &url, &page, "ExampleBot", "/public"],
        b"",
    );
    assert_eq!(out.lines(), ["allowed\t/public"], "{out:?}");
    assert_eq!(sites.total_hits(), 1);
    let out = run(&["fetch", "--cache", &url, &page], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("shared cache: answered from the entry"),
        "{out:?}"
    );
    assert_eq!(sites.total_hits(), 1);
    let out = run(&["fetch", "--cache", &url, "--format", "json", &page], b"");
    let shared = &out.json()["shared_cache"];
    assert_eq!(shared["from_cache"], true, "{out:?}");
    assert_eq!(shared["basis"], "current", "{out:?}");
    assert!(shared.get("since").is_none(), "{out:?}");
    assert_eq!(sites.total_hits(), 1);

    // Any URL of the site names its origin.
    let origin = sites.url(0, "");
    let out = run(&["cache", "show", "--cache", &url, &page], b"");
    assert_eq!(out.code, 0, "{out:?}");
    let text = out.stdout;
    assert!(text.starts_with(&format!("origin: {origin}\n")), "{text}");
    for line in [
        format!("robots.txt: {}", sites.url(0, "/robots.txt")),
        "access: success".to_owned(),
        format!("bytes: {}", ROBOTS.len()),
        "last good copy: the latest fetch".to_owned(),
        "applies now: success".to_owned(),
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} not in {text}");
    }
    assert!(text.contains("\nfresh: for "), "{text}");
    assert!(text.contains("\nfetched at: "), "{text}");

    let out = run(
        &[
            "cache", "show", "--cache", &url, "--format", "json", &origin,
        ],
        b"",
    );
    let json = out.json();
    assert_eq!(json["origin"], origin.as_str(), "{json}");
    assert_eq!(json["fresh"], true);
    assert_eq!(json["latest"]["access"], "success");
    assert_eq!(json["applies"]["access"], "success", "{json}");
    assert_eq!(json["applies"]["basis"], "current", "{json}");
    assert_eq!(json["latest"]["bytes"], ROBOTS.len());
    assert!(json["fresh_for_secs"].as_u64().unwrap() > 3000, "{json}");

    let out = run(&["cache", "purge", "--cache", &url, &origin], b"");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, format!("purged {origin}\n").as_str())
    );
    let out = run(&["cache", "purge", "--cache", &url, &origin], b"");
    assert_eq!(out.stdout, format!("no entry for {origin}\n"));
    let out = run(&["cache", "show", "--cache", &url, &origin], b"");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (1, format!("no entry for {origin}\n").as_str())
    );

    // Purged: the next process fetches again.
    let out = run(&["batch", "--cache", &url, "ExampleBot", &page], b"");
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(sites.total_hits(), 2);
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn usage_errors_are_one_line() {
    let redis = RedisServer::start();
    let sites = Sites::alike(1, &Reply::ok(ROBOTS));
    let page = sites.url(0, "/x");
    for cache in ["http://127.0.0.1:1/", "redis://:hunter2@[::1", "not a url"] {
        let out = run(&["batch", "--cache", cache, "ExampleBot", &page], b"");
        out.assert_error("invalid Redis URL");
        assert!(!out.stderr.contains("hunter2"), "{out:?}");
    }
    let out = run(
        &["cache", "show", "--cache", "nope", "https://example.com"],
        b"",
    );
    out.assert_error("\"nope\"");
    let out = run(
        &["cache", "show", "--cache", &redis.url(), "not a site"],
        b"",
    );
    out.assert_error("not a site URL \"not a site\"");
    let out = run(&["cache", "purge", "https://example.com"], b"");
    out.assert_error("--cache");
    assert_eq!(sites.total_hits(), 0);
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn a_redis_that_wants_a_password_is_a_usage_error() {
    let redis = RedisServer::start();
    // As `redis-server --requirepass s3cret`.
    redis
        .command(&["CONFIG", "SET", "requirepass", "s3cret"])
        .unwrap();
    let sites = Sites::alike(1, &Reply::ok(ROBOTS));
    let page = sites.url(0, "/private/x");
    let out = run(
        &["batch", "--cache", &redis.url(), "ExampleBot", &page],
        b"",
    );
    out.assert_error("authentication");
    let out = run(&["fetch", "--cache", &redis.url(), &page], b"");
    out.assert_error("authentication");
    let wrong = redis.url().replace("redis://", "redis://:wrong@");
    let out = run(&["batch", "--cache", &wrong, "ExampleBot", &page], b"");
    out.assert_error("authentication");
    assert!(!out.stderr.contains("wrong@"), "{out:?}");
    // With the password, it works.
    let right = redis.url().replace("redis://", "redis://:s3cret@");
    let out = run(&["batch", "--cache", &right, "ExampleBot", &page], b"");
    assert_eq!(out.lines(), [format!("disallowed\t{page}")], "{out:?}");
    assert_eq!(out.stderr, "");
}

/// Asserts right verdicts for `sites` with `--cache cache`, and one warning line.
fn answers_with_a_warning(sites: &Sites, cache: &str) {
    let (input, expected) = stream(sites, 0);
    let out = run(
        &["batch", "--cache", cache, "--timeout", "10", "ExampleBot"],
        input.as_bytes(),
    );
    assert_eq!(out.lines(), expected, "{out:?}");
    assert_eq!(out.code, 1, "{out:?}");
    let warnings: Vec<_> = out.stderr.lines().collect();
    assert_eq!(warnings.len(), 1, "{out:?}");
    assert!(
        warnings[0].starts_with("robotrules: warning: --cache: "),
        "{out:?}"
    );
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn a_redis_that_is_down_or_not_redis_only_costs_a_warning() {
    let sites = Sites::alike(3, &Reply::ok(ROBOTS));
    // Down: started, then killed.
    let mut redis = RedisServer::start();
    let url = redis.url();
    redis.kill();
    answers_with_a_warning(&sites, &url);
    assert_eq!(sites.total_hits(), 3);
    // Not Redis: an HTTP server.
    let http = Sites::alike(1, &Reply::ok(ROBOTS));
    let not_redis = http.url(0, "").replace("http://", "redis://");
    answers_with_a_warning(&sites, &not_redis);
    assert_eq!(sites.total_hits(), 6);
    // `check` with a ROBOTS URL too.
    let out = run(
        &[
            "check",
            "--cache",
            &url,
            &sites.url(0, "/"),
            "ExampleBot",
            "/private/x",
        ],
        b"",
    );
    assert_eq!(out.lines(), ["disallowed\t/private/x"], "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    assert!(out.stderr.starts_with("robotrules: warning: "), "{out:?}");
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn cache_commands_fail_in_one_line_when_redis_is_down() {
    let mut redis = RedisServer::start();
    let url = redis.url();
    redis.kill();
    let out = run(
        &["cache", "show", "--cache", &url, "https://example.com"],
        b"",
    );
    // The message names the Redis it could not reach.
    out.assert_error(&format!("--cache: Redis at {url}"));
    let out = run(
        &["cache", "purge", "--cache", &url, "https://example.com"],
        b"",
    );
    out.assert_error(&format!("--cache: Redis at {url}"));
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn an_unreadable_entry_is_refetched_and_shown_as_an_error() {
    let redis = RedisServer::start();
    let sites = Sites::alike(1, &Reply::ok(ROBOTS));
    let url = redis.url();
    let origin = sites.url(0, "");
    // Another program's value under the origin's key.
    let key = format!("robotrules:{origin}");
    redis.command(&["SET", &key, "not an entry"]).unwrap();
    let out = run(&["cache", "show", "--cache", &url, &origin], b"");
    out.assert_error("unreadable");
    answers_with_a_warning(&sites, &url);
    assert_eq!(sites.total_hits(), 1);
    // The fetch replaced it.
    let out = run(&["cache", "show", "--cache", &url, &origin], b"");
    assert!(out.stdout.contains("access: success"), "{out:?}");
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn a_slow_redis_only_costs_a_warning() {
    let redis = RedisServer::start();
    let sites = Sites::alike(3, &Reply::ok(ROBOTS));
    // Every command waits past the 500 ms command timeout.
    redis.command(&["CLIENT", "PAUSE", "2500", "ALL"]).unwrap();
    answers_with_a_warning(&sites, &redis.url());
    assert_eq!(sites.total_hits(), 3);
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn rediss_with_ca_cert_shares_the_cache_over_tls() {
    let ca = TestCa::new("robotrules CLI redis CA").unwrap();
    let redis = RedisServer::start_tls(&ca);
    let ca_file = Fixture::new(ca.pem().as_bytes());
    let url = redis.url();
    assert!(url.starts_with("rediss://"), "{url}");
    let sites = Sites::alike(1, &Reply::ok(ROBOTS));
    let (input, expected) = stream(&sites, 0);
    let batch = [
        "batch",
        "--cache",
        &url,
        "--ca-cert",
        ca_file.path(),
        "ExampleBot",
    ];
    let out = run(&batch, input.as_bytes());
    assert_eq!(out.lines(), expected, "{out:?}");
    assert_eq!((out.code, out.stderr.as_str()), (1, ""), "{out:?}");
    assert_eq!(sites.total_hits(), 1);
    // A second process answers from the entry in Redis: still one request.
    let out = run(&batch, input.as_bytes());
    assert_eq!(out.lines(), expected, "{out:?}");
    assert_eq!(out.stderr, "", "{out:?}");
    assert_eq!(sites.total_hits(), 1);

    let origin = sites.url(0, "");
    let show = |extra: &[&str]| {
        let mut args = vec!["cache", "show", "--cache", url.as_str()];
        args.extend_from_slice(extra);
        args.push(&origin);
        run(&args, b"")
    };
    let out = show(&["--ca-cert", ca_file.path()]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.starts_with(&format!("origin: {origin}\n")),
        "{out:?}"
    );
    assert!(out.stdout.contains("\naccess: success\n"), "{out:?}");

    // Without the CA the server's certificate is not trusted: `cache show` fails in one line,
    // `batch` answers from its own fetch and warns.
    let out = show(&[]);
    out.assert_one_line_error("--cache: ");
    assert!(out.stderr.contains("certificate"), "{out:?}");
    answers_with_a_warning(&sites, &url);
    assert_eq!(sites.total_hits(), 2);
}

#[test]
fn a_dead_redis_is_a_warning_for_every_command_that_carries_on() {
    // A loopback port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cache = format!("redis://127.0.0.1:{port}/");
    let sites = Sites::new(vec![Reply::ok(ROBOTS)]);
    let robots_txt = sites.url(0, "/robots.txt");
    let page = sites.url(0, "/private/x");
    let commands: [(&[&str], i32); 6] = [
        (&["check", &robots_txt, "ExampleBot", "/private/x"], 1),
        (&["batch", "ExampleBot", &page], 1),
        (&["show", &robots_txt, "ExampleBot"], 0),
        (&["explain", &robots_txt, "ExampleBot", "/private/x"], 1),
        (&["lint", &robots_txt], 0),
        (&["fetch", &robots_txt], 0),
    ];
    for (args, code) in commands {
        let mut args = args.to_vec();
        args.splice(1..1, ["--cache", cache.as_str()]);
        let out = run(&args, b"");
        assert_eq!(out.code, code, "{args:?}: {out:?}");
        let warnings: Vec<&str> = out
            .stderr
            .lines()
            .filter(|line| line.starts_with("robotrules: "))
            .collect();
        assert_eq!(warnings.len(), 1, "{args:?}: {out:?}");
        assert!(
            warnings[0].starts_with("robotrules: warning: --cache: the shared cache failed"),
            "{args:?}: {out:?}"
        );
        assert!(!out.stderr.contains("error:"), "{args:?}: {out:?}");
    }
    // The command whose work is the cache cannot carry on: an error.
    run(&["cache", "show", "--cache", &cache, &robots_txt], b"").assert_error("--cache");
}

/// The `cache` commands fetch nothing: the fetch options are not theirs, and given they are
/// usage errors (clap answers before any Redis is reached, so none runs here).
#[test]
fn cache_commands_refuse_the_fetch_options() {
    let redis = "redis://127.0.0.1:1";
    let origin = "https://example.com";
    for fetch_option in [
        &["--timeout", "3"][..],
        &["--platform-roots"][..],
        &["--user-agent", "ExampleBot/1.0"][..],
    ] {
        for command in [
            &["cache", "purge", "--cache", redis, origin][..],
            &["cache", "purge", "--cache", redis, "--all"][..],
            &["cache", "show", "--cache", redis, origin][..],
            &["cache", "list", "--cache", redis][..],
            &["cache", "stats", "--cache", redis][..],
        ] {
            let args: Vec<&str> = command.iter().chain(fetch_option).copied().collect();
            let out = run(&args, b"");
            out.assert_one_line_error(fetch_option[0]);
        }
    }
}
