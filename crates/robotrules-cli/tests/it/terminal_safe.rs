//! Terminal-safe everywhere: ESC, BEL, CSI and OSC sequences, a C1 control, a bare CR and a
//! bidi override, fed through every command by URLs, crawler names, robots.txt content, file
//! names and a loopback server's response, never reach standard output or standard error
//! raw, in text or JSON; JSON lines still parse, and a tab in a URL does not add a column.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use robotrules_testserver::http::Reply;
use robotrules_testserver::redis::RedisServer;

use crate::support::{run_loopback as run, Fixture, Run, Sites};

/// Every hostile sequence, in one string: ESC, BEL, CSI, OSC, C1 CSI, bare CR, bidi override.
const EVIL: &str = "a\x1bb\x07c\x1b[31md\x1b]0;x\x07e\u{9b}f\rg\u{202E}h\x7fi";

/// A robots.txt with [`EVIL`] in a user-agent value, patterns, a sitemap, an extension key
/// and value, and a crawl-delay.
fn evil_robots() -> String {
    format!(
        "User-agent: Evil{EVIL}Bot\nUser-agent: ExampleBot\nDisallow: /p{EVIL}\n\
         Allow: /q{EVIL}\nCrawl-delay: 1{EVIL}\nX-{EVIL}: v{EVIL}\n\
         Sitemap: https://example.com/s{EVIL}.xml\n\nUser-agent: *\nDisallow: /{EVIL}\n"
    )
}

/// Whether `c` may not reach a terminal: C0 but LF and tab, DEL, C1, bidi controls.
fn forbidden(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00..=0x08 | 0x0B..=0x1F | 0x7F..=0x9F | 0x061C | 0x200E | 0x200F | 0x202A..=0x202E
            | 0x2066..=0x2069
    )
}

/// Asserts `run` wrote nothing forbidden; with `json`, that every stdout line parses.
fn assert_safe(what: &str, run: &Run, json: bool) {
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        let bad: Vec<_> = text.chars().filter(|&c| forbidden(c)).collect();
        assert!(bad.is_empty(), "{what}: {stream} has {bad:?}: {run:?}");
    }
    if json {
        for line in run.stdout.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                serde_json::from_str::<serde_json::Value>(line).is_ok()
                    || serde_json::from_str::<serde_json::Value>(&run.stdout).is_ok(),
                "{what}: not JSON: {line:?}"
            );
        }
    }
}

/// Runs `args` in text and JSON (`--format json` appended) and checks both.
fn both(what: &str, args: &[&str], stdin: &[u8]) -> (Run, Run) {
    let text = run(args, stdin);
    assert_safe(what, &text, false);
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let json = run(&json_args, stdin);
    assert_safe(what, &json, true);
    (text, json)
}

#[test]
fn check_rows_explanations_and_agent_errors() {
    let robots = Fixture::new(evil_robots().as_bytes());
    let url = format!("https://example.com/p{EVIL}");
    for explain in [false, true] {
        let mut args = vec!["check", robots.path(), "ExampleBot", &url, "/not\ta url"];
        if explain {
            args.push("--explain");
        }
        let (text, json) = both("check", &args, b"");
        assert!(text.stdout.contains("<U+001B>"), "{text:?}");
        // The JSON value is the exact URL.
        let first: serde_json::Value =
            serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
        assert_eq!(first["url"], url.as_str(), "{json:?}");
    }
    let agent = format!("Evil{EVIL}Bot");
    both("check agent", &["check", robots.path(), &agent, "/x"], b"");
    both(
        "check agent google",
        &["check", "--profile", "google", robots.path(), &agent, "/x"],
        b"",
    );
    // Usage errors quote the bad value.
    both(
        "usage",
        &["check", "--profile", EVIL, robots.path(), "Bot"],
        b"",
    );
    both("subcommand", &[EVIL], b"");
    let missing = format!("/nonexistent/{EVIL}.txt");
    both(
        "check missing file",
        &["check", &missing, "ExampleBot", "/x"],
        b"",
    );
}

#[test]
fn batch_rows_keep_their_columns() {
    let sites = Sites::new(vec![Reply::ok(evil_robots())]);
    let input = format!(
        "http://127.0.0.1:1/\x1b]0;pwned\x07x\n{}\nnot a url{EVIL}\n{}\n",
        sites.url(0, &format!("/p{EVIL}")),
        sites.url(0, "/tab\there"),
    );
    for explain in [false, true] {
        let mut args = vec!["batch", "ExampleBot"];
        if explain {
            args.push("--explain");
        }
        let (text, json) = both("batch", &args, input.as_bytes());
        let columns = if explain { [3, 4] } else { [2, 3] };
        for line in text.lines() {
            let n = line.split('\t').count();
            assert!(columns.contains(&n), "{line:?}");
        }
        let first: serde_json::Value =
            serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
        assert_eq!(
            first["url"], "http://127.0.0.1:1/\x1b]0;pwned\x07x",
            "{json:?}"
        );
    }
}

#[test]
fn explain_show_and_lint_of_a_hostile_file() {
    let robots = Fixture::new(evil_robots().as_bytes());
    let url = format!("/p{EVIL}");
    for profile in ["rfc9309", "all"] {
        both(
            "explain",
            &[
                "explain",
                "--profile",
                profile,
                robots.path(),
                "ExampleBot",
                &url,
            ],
            b"",
        );
    }
    let agent = format!("Evil{EVIL}Bot");
    both(
        "explain agent",
        &["explain", robots.path(), &agent, "/x"],
        b"",
    );
    for agent in ["ExampleBot", "Other"] {
        for profile in ["rfc9309", "google"] {
            let (text, _) = both(
                "show",
                &["show", "--profile", profile, robots.path(), agent],
                b"",
            );
            assert!(text.stdout.contains("<U+"), "{text:?}");
        }
    }
    both("lint", &["lint", robots.path()], b"");
    // A file whose name holds the sequences.
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join(format!("r{EVIL}.txt"));
    std::fs::write(&name, evil_robots()).unwrap();
    let name = name.to_str().unwrap();
    both("lint name", &["lint", name], b"");
    both("show name", &["show", name, "ExampleBot"], b"");
    both("explain name", &["explain", name, "ExampleBot", "/x"], b"");
}

#[test]
fn fetch_reports_a_hostile_response() {
    // A reason phrase and header values with obs-text (a C1 CSI, a bidi override), which an
    // HTTP parser accepts, unlike ESC.
    let mut raw = b"HTTP/1.1 200 O\xc2\x9bK\r\nContent-Type: text/plain\xc2\x9b\xe2\x80\xae\r\n\
        X-Evil: v\xc2\x9b\r\nConnection: close\r\n"
        .to_vec();
    let body = evil_robots();
    raw.extend(format!("Content-Length: {}\r\n\r\n{body}", body.len()).bytes());
    let sites = Sites::new(vec![
        Reply::Raw(raw),
        Reply::redirect(302, "/r\u{9b}\u{202E}x"),
        Reply::ok(evil_robots()),
    ]);
    let (text, json) = both("fetch", &["fetch", &sites.url(0, "/robots.txt")], b"");
    assert!(
        text.stdout
            .contains("content type: text/plain<U+009B><U+202E>"),
        "{text:?}"
    );
    assert_eq!(
        json.json()["content_type"],
        "text/plain\u{9b}\u{202E}",
        "{json:?}"
    );
    for site in 0..3 {
        let url = sites.url(site, "/robots.txt");
        both("fetch", &["fetch", &url], b"");
        both("fetch body", &["fetch", "--body", &url], b"");
        let bad = format!("{url}{EVIL}");
        both("fetch url", &["fetch", &bad], b"");
    }
    let remote = sites.url(2, "/robots.txt");
    both("show remote", &["show", &remote, "ExampleBot"], b"");
    both(
        "explain remote",
        &["explain", &remote, "ExampleBot", "/p"],
        b"",
    );
}

#[test]
fn diff_of_hostile_files() {
    let old = Fixture::new(b"User-agent: *\nAllow: /\n");
    let new = Fixture::new(evil_robots().as_bytes());
    both("diff rules", &["diff", old.path(), new.path()], b"");
    let url = format!("https://example.com/{EVIL}");
    both(
        "diff urls",
        &[
            "diff",
            old.path(),
            new.path(),
            "ExampleBot",
            "--urls-from-stdin",
        ],
        format!("{url}\n/p{EVIL}\n").as_bytes(),
    );
    let agent = format!("Evil{EVIL}Bot");
    both("diff agent", &["diff", old.path(), new.path(), &agent], b"");
}

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn cache_show_and_list() {
    let redis = RedisServer::start();
    let cache = redis.url();
    let sites = Sites::new(vec![Reply::ok(evil_robots())]);
    let url = sites.url(0, "/x");
    let filled = run(&["batch", "--cache", &cache, "ExampleBot", &url], b"");
    assert_eq!(filled.code, 0, "{filled:?}");
    redis
        .command(&[
            "SET",
            &format!("robotrules:https://a{EVIL}.example:443"),
            "x",
        ])
        .unwrap();
    let origin = sites.url(0, "");
    let origin = origin.trim_end_matches('/');
    let (text, _) = both(
        "cache show",
        &["cache", "show", "--cache", &cache, origin],
        b"",
    );
    assert_eq!(text.code, 0, "{text:?}");
    let evil_origin = format!("https://a{EVIL}.example");
    both(
        "cache show evil",
        &["cache", "show", "--cache", &cache, &evil_origin],
        b"",
    );
    let (text, json) = both("cache list", &["cache", "list", "--cache", &cache], b"");
    assert!(text.stdout.contains("<U+001B>"), "{text:?}");
    let origins: Vec<serde_json::Value> = json
        .stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["origin"].clone())
        .collect();
    assert!(
        origins.contains(&format!("https://a{EVIL}.example:443").into()),
        "{json:?}"
    );
}
