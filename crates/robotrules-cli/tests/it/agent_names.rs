//! End-to-end tests of crawler names given as full User-Agent headers: under `rfc9309` the
//! error suggests the crawler's product token (never `Mozilla`); under `google` the name is
//! read as Google's library reads it, and `check` and `batch` warn once on standard error.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use robotrules_testserver::http::Reply;

use crate::support::{run, run_loopback, Fixture, Sites};

const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/// Googlebot's own group allows everything; the `*` group disallows `/cart`.
const SHOP: &[u8] = b"User-agent: *\nDisallow: /cart\n\nUser-agent: Googlebot\nAllow: /\n";

#[test]
fn the_error_suggests_the_crawlers_token_never_mozilla() {
    let shop = Fixture::new(SHOP);
    let r = run(&["check", shop.path(), GOOGLEBOT, "/cart"], b"");
    r.assert_error("pass `Googlebot`");
    assert!(!r.stderr.contains("`Mozilla`"), "{r:?}");
    let gptbot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; \
                  +https://openai.com/gptbot)";
    run(&["check", shop.path(), gptbot, "/cart"], b"").assert_error("pass `GPTBot`");
    run(&["diff", shop.path(), shop.path(), GOOGLEBOT], b"").assert_error("pass `Googlebot`");
}

#[test]
fn diff_under_google_warns_once_per_name() {
    let shop = Fixture::new(SHOP);
    let r = run(
        &[
            "diff",
            "--profile",
            "google",
            "--url",
            "/cart",
            shop.path(),
            shop.path(),
            GOOGLEBOT,
        ],
        b"",
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("robotrules: warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{r:?}");
    assert!(warnings[0].ends_with("pass Googlebot"), "{r:?}");
}

#[test]
fn check_under_google_reads_the_whole_string_and_warns_once() {
    let shop = Fixture::new(SHOP);
    let r = run(
        &[
            "check",
            "--profile",
            "google",
            shop.path(),
            GOOGLEBOT,
            "/cart",
            "/a",
            "/b",
        ],
        b"",
    );
    // Google's library matches the whole string against group tokens: the `*` group applies.
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.lines(),
        ["disallowed\t/cart", "allowed\t/a", "allowed\t/b"]
    );
    let warnings: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(warnings.len(), 1, "{r:?}");
    assert!(
        warnings[0].starts_with(&format!(
            "robotrules: warning: {GOOGLEBOT:?} is not a product token"
        )),
        "{r:?}"
    );
    assert!(
        warnings[0].ends_with("so it falls to the * group; pass Googlebot"),
        "{r:?}"
    );

    // A token: no warning, and its group applies.
    let r = run(
        &[
            "check",
            "--profile",
            "google",
            shop.path(),
            "Googlebot",
            "/cart",
        ],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    // The 1994 convention finds a group's name anywhere in the crawler's: no warning.
    let r = run(
        &[
            "check",
            "--profile",
            "legacy1994",
            shop.path(),
            GOOGLEBOT,
            "/a",
        ],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
}

#[test]
fn batch_under_google_warns_once_for_the_whole_stream() {
    let sites = Sites::new(vec![Reply::ok(SHOP)]);
    let urls = format!(
        "{}\n{}\n{}\n",
        sites.url(0, "/cart"),
        sites.url(0, "/a"),
        sites.url(0, "/b")
    );
    let r = run_loopback(
        &["batch", "--profile", "google", GOOGLEBOT],
        urls.as_bytes(),
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.lines().len(), 3, "{r:?}");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("is not a product token"))
        .collect();
    assert_eq!(warnings.len(), 1, "{r:?}");
    assert!(warnings[0].ends_with("pass Googlebot"), "{r:?}");
}
