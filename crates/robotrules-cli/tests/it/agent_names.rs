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
    assert!(warnings[0].ends_with("pass `Googlebot`"), "{r:?}");
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
        warnings[0].starts_with("robotrules: warning: Google's library reads only the letters"),
        "{r:?}"
    );
    assert!(
        warnings[0].ends_with(&format!(
            "no group names {GOOGLEBOT:?}: it gets the `*` group at line 1; pass `Googlebot`, \
             which gets the group at line 4"
        )),
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
        .filter(|l| l.contains("Google's library reads"))
        .collect();
    assert_eq!(warnings.len(), 1, "{r:?}");
    assert!(warnings[0].ends_with("pass `Googlebot`"), "{r:?}");
}

#[test]
fn under_google_the_warning_says_what_the_library_reads_and_which_group_that_selects() {
    let robots = Fixture::new(b"User-agent: *\nDisallow: /x\n\nUser-agent: MJ12bot\nAllow: /x\n");
    for (name, reads) in [("MJ12bot", "MJ"), ("my-bot_2", "my-bot_")] {
        let r = run(
            &["check", "--profile", "google", robots.path(), name, "/x"],
            b"",
        );
        assert_eq!(r.code, 1, "{r:?}");
        assert!(!r.stderr.contains("not a product token"), "{r:?}");
        assert!(
            r.stderr
                .contains(&format!("(`User-agent: {name}` names `{reads}`)"))
                && r.stderr.contains("it gets the `*` group at line 1;")
                && r.stderr.contains(&format!("pass `{reads}`, which gets ")),
            "{r:?}"
        );
    }
    // `MJ` is what a `User-agent: MJ12bot` line names under google: its group applies.
    let r = run(
        &["check", "--profile", "google", robots.path(), "MJ", "/x"],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
}

#[test]
fn a_url_given_for_the_agent_says_so_with_the_usage_line() {
    let shop = Fixture::new(SHOP);
    let r = run(&["check", shop.path(), "https://example.com/x"], b"");
    r.assert_error("that looks like a URL");
    assert!(
        r.stderr
            .contains("(usage: robotrules check [OPTIONS] <ROBOTS> <AGENT>"),
        "{r:?}"
    );
    assert!(!r.stderr.contains("pass `https`"), "{r:?}");
}

#[test]
fn names_with_spaces_suggest_the_joined_token_never_the_first_word() {
    let shop = Fixture::new(SHOP);
    for (name, token) in [("My Bot 2.0", "MyBot"), ("Example Bot/1.0", "ExampleBot")] {
        let r = run(&["check", shop.path(), name, "/"], b"");
        r.assert_error(&format!("pass `{token}`"));
        let r = run(
            &["check", "--profile", "google", shop.path(), name, "/"],
            b"",
        );
        assert!(r.stderr.contains(&format!("pass `{token}`")), "{r:?}");
    }
}

#[test]
fn the_star_is_a_crawler_that_no_group_names_in_every_command() {
    let shop = Fixture::new(SHOP);
    for profile in ["rfc9309", "google", "legacy1994"] {
        let r = run(
            &[
                "check",
                "--profile",
                profile,
                shop.path(),
                "*",
                "/cart",
                "/a",
            ],
            b"",
        );
        assert_eq!(r.code, 1, "{r:?}");
        assert_eq!(r.lines(), ["disallowed\t/cart", "allowed\t/a"], "{r:?}");
        assert_eq!(r.stderr, "", "{r:?}");
    }
    let r = run(&["show", shop.path(), "*"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .starts_with("agent: * (a crawler that no group names) (profile rfc9309)"),
        "{r:?}"
    );
    let r = run(&["explain", shop.path(), "*", "/cart"], b"");
    assert!(
        r.stdout
            .starts_with("`*` (a crawler that no group names) on `/cart`"),
        "{r:?}"
    );
    let open = Fixture::new(b"User-agent: *\nDisallow:\n");
    let r = run(&["diff", shop.path(), open.path(), "*"], b"");
    assert!(
        r.stdout
            .starts_with("* (a crawler that no group names) (rfc9309): /cart was disallowed"),
        "{r:?}"
    );
}
