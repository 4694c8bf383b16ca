//! End-to-end tests of the `robotrules` binary on fetched robots.txt files: `check` with an
//! `http://` or `ftp://` ROBOTS, and `robotrules fetch`, against HTTP and FTP servers the tests
//! start on 127.0.0.1 (`robotrules-testserver`). Deadlines are kept short with `--timeout`.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::Background;
use rstest::rstest;

use crate::support::{Harness, Run};

const ROBOTS: &str = "User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: FooBot
Disallow: /
";

/// Without proxies from the environment: the servers are on loopback.
const HARNESS: Harness = Harness::LOOPBACK;

fn run(args: &[&str], stdin: &[u8]) -> Run {
    HARNESS.run(args, stdin)
}

/// An HTTP server answering `/robots.txt` with `reply`, and the runtime it runs on.
struct Site {
    server: HttpServer,
    _background: Background,
}

impl Site {
    fn new(reply: Reply) -> Site {
        let background = Background::new().unwrap();
        let server = background.http().unwrap();
        server.route("/robots.txt", reply);
        Site {
            server,
            _background: background,
        }
    }

    fn url(&self, path: &str) -> String {
        self.server.url(path)
    }
}

/// A bare `HOST:PORT` (no scheme) is never fetched on a guess: the error names the robots.txt
/// URL to pass. The hint is `https://`: a loopback test server speaks http, which is exactly
/// why the scheme is left to the caller (the same address over http answers).
#[test]
fn a_bare_host_gets_the_robots_txt_url_to_pass() {
    let site = Site::new(Reply::ok(ROBOTS));
    let http = site.url("/robots.txt");
    let host_port = http
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/robots.txt"))
        .unwrap();
    let hint = format!("for the site's robots.txt, pass https://{host_port}/robots.txt");
    let r = run(&["fetch", host_port], b"");
    r.assert_one_line_error(&format!("not a URL {host_port:?}; {hint}"));
    let arg = format!("{host_port}/robots.txt");
    let r = run(&["check", &arg, "Bot", "/private/x"], b"");
    r.assert_one_line_error(&format!("no such file {arg:?}; {hint}"));
    assert_eq!(site.server.hits("/robots.txt"), 0);
    // Over the scheme the server speaks, the same address answers.
    let r = run(&["check", &http, "Bot", "/private/x"], b"");
    assert_eq!(
        (r.code, r.lines()),
        (1, vec!["disallowed\t/private/x"]),
        "{r:?}"
    );
    // A file name is not a host: the plain error.
    let r = run(&["check", "no-such-robots.txt", "Bot", "/"], b"");
    r.assert_one_line_error("cannot read robots.txt \"no-such-robots.txt\"");
}

#[rstest]
#[case::robots_txt_url("/robots.txt")]
#[case::page_url("/some/page?q=1")]
#[case::site_root("/")]
fn check_fetches_the_sites_robots_txt(#[case] robots: &str) {
    let site = Site::new(Reply::ok(ROBOTS));
    let out = run(
        &[
            "check",
            &site.url(robots),
            "ExampleBot",
            "/private/x",
            "/private/press/1",
            "/public",
        ],
        b"",
    );
    assert_eq!(
        out.lines(),
        [
            "disallowed\t/private/x",
            "allowed\t/private/press/1",
            "allowed\t/public"
        ],
        "{out:?}"
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stderr, "");
    assert_eq!(site.server.hits("/robots.txt"), 1);
    let user_agent = site.server.requests()[0]
        .header("user-agent")
        .unwrap()
        .to_owned();
    // One User-Agent rule for the library and the tool: the crawler's name first.
    assert!(
        user_agent.starts_with("ExampleBot robotrules/"),
        "{user_agent}"
    );
}

#[test]
fn check_on_a_fetched_file_explains_with_its_lines_and_exits_0_when_all_allowed() {
    let site = Site::new(Reply::ok(ROBOTS));
    let out = run(
        &[
            "check",
            "--explain",
            &site.url("/"),
            "ExampleBot",
            "/private/press/1",
            "/public",
        ],
        b"",
    );
    assert_eq!(
        out.lines(),
        [
            "allowed\t/private/press/1\t3\tallow: /private/press/",
            "allowed\t/public\t-\tno-matching-rule"
        ]
    );
    assert_eq!(out.code, 0);
}

#[rstest]
#[case::not_found(404)]
#[case::forbidden(403)]
#[case::gone(410)]
fn an_unavailable_robots_txt_allows_every_url(#[case] status: u16) {
    let site = Site::new(Reply::status(status));
    let out = run(
        &[
            "check",
            "--explain",
            &site.url("/"),
            "FooBot",
            "/private/x",
            "/robots.txt",
        ],
        b"",
    );
    let reason = format!("robots-txt-unavailable: HTTP status {status}");
    assert_eq!(
        out.lines(),
        [
            format!("allowed\t/private/x\t-\t{reason}"),
            format!("allowed\t/robots.txt\t-\t{reason}")
        ],
        "{out:?}"
    );
    assert_eq!(out.code, 0);
}

#[rstest]
#[case::service_unavailable(Reply::status(503), "HTTP status 503")]
#[case::internal_server_error(Reply::status(500), "HTTP status 500")]
#[case::too_many_requests(Reply::status(429), "HTTP status 429")]
#[case::garbage(Reply::Raw(b"garbage\r\n\r\n".to_vec()), "invalid response")]
fn an_unreachable_robots_txt_disallows_every_url(#[case] reply: Reply, #[case] reason: &str) {
    let site = Site::new(reply);
    let plain = run(
        &["check", &site.url("/"), "ExampleBot", "/", "/robots.txt"],
        b"",
    );
    assert_eq!(plain.lines(), ["disallowed\t/", "disallowed\t/robots.txt"]);
    assert_eq!(plain.code, 1);
    let explained = run(
        &["check", "--explain", &site.url("/"), "ExampleBot", "/a"],
        b"",
    );
    assert!(
        explained.stdout.starts_with(&format!(
            "disallowed\t/a\t-\trobots-txt-unreachable: {reason}"
        )),
        "{explained:?}"
    );
}

#[test]
fn json_lines_carry_the_access_result() {
    let unreachable = Site::new(Reply::status(503));
    let out = run(
        &[
            "check",
            "--format",
            "json",
            &unreachable.url("/"),
            "ExampleBot",
            "/a",
        ],
        b"",
    );
    assert_eq!(
        out.json(),
        serde_json::json!({"url": "/a", "verdict": "disallowed", "allowed": false,
            "profile": "rfc9309", "access": "unreachable", "access_reason": "HTTP status 503",
            "robots_txt_url": unreachable.url("/robots.txt")})
    );
    let success = Site::new(Reply::ok(ROBOTS));
    let out = run(
        &[
            "check",
            "--format",
            "json",
            &success.url("/"),
            "ExampleBot",
            "/private/a",
        ],
        b"",
    );
    assert_eq!(
        out.json(),
        serde_json::json!({"url": "/private/a", "verdict": "disallowed", "allowed": false,
            "profile": "rfc9309", "access": "success",
            "robots_txt_url": success.url("/robots.txt"), "reason": "rule-matched",
            "decided_by": {"line": 2, "kind": "disallow", "pattern": "/private/"}})
    );
}

#[test]
fn urls_come_from_stdin_with_a_fetched_robots_txt() {
    let site = Site::new(Reply::ok(ROBOTS));
    let own = site.url("/b");
    let input = format!("/a\n{own}\n");
    let out = run(&["check", &site.url("/"), "FooBot"], input.as_bytes());
    assert_eq!(
        out.lines(),
        ["disallowed\t/a", &format!("disallowed\t{own}")]
    );
    assert_eq!(out.code, 1);
}

/// A fetched robots.txt governs only its own scheme, host and port (RFC 9309 §2.3): another
/// site's URL is an error row that names `batch`; the other lines go on; exit 2.
#[test]
fn a_fetched_robots_txt_answers_only_for_its_own_origin() {
    let site = Site::new(Reply::ok(ROBOTS));
    let input = format!(
        "https://example.com/b\n{}\n{}\n",
        site.url("/public"),
        site.url("/private/x").replace("127.0.0.1", "localhost")
    );
    for format in ["text", "json"] {
        let out = run(
            &["check", "--format", format, &site.url("/"), "FooBot"],
            input.as_bytes(),
        );
        assert_eq!(out.code, 2, "{out:?}");
        assert_eq!(out.stdout.lines().count(), 3, "{out:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
        assert!(
            out.stderr.contains("2 lines could not be checked"),
            "{out:?}"
        );
        if format == "text" {
            let lines = out.lines();
            assert!(
                lines[0].starts_with("error\thttps://example.com/b\tline 1: "),
                "{out:?}"
            );
            assert!(lines[0].contains("robotrules batch"), "{out:?}");
            assert!(lines[1].starts_with("disallowed\t"), "{out:?}");
            assert!(lines[2].starts_with("error\t"), "{out:?}");
        } else {
            let rows: Vec<serde_json::Value> = out
                .stdout
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(rows[0]["verdict"], "error");
            assert_eq!(rows[0]["line"], 1);
            assert!(rows[0]["error"]
                .as_str()
                .unwrap()
                .contains("robotrules batch"));
            assert_eq!(rows[1]["verdict"], "disallowed");
        }
    }
}

#[test]
fn the_profile_reads_the_fetched_file() {
    // No leading slash: read as `/private` in rfc9309, never matches in google.
    let site = Site::new(Reply::ok("User-agent: *\nDisallow: private\n"));
    let rfc = run(&["check", &site.url("/"), "Bot", "/private"], b"");
    assert_eq!(rfc.lines(), ["disallowed\t/private"]);
    let google = run(
        &[
            "check",
            "--profile",
            "google",
            &site.url("/"),
            "Bot",
            "/private",
        ],
        b"",
    );
    assert_eq!(google.lines(), ["allowed\t/private"]);
}

#[test]
fn a_silent_server_is_unreachable_within_the_timeout() {
    let site = Site::new(Reply::Silent);
    let started = Instant::now();
    let out = run(
        &[
            "check",
            "--timeout",
            "0.5",
            &site.url("/"),
            "ExampleBot",
            "/",
        ],
        b"",
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{out:?}");
    assert_eq!(out.lines(), ["disallowed\t/"]);
    assert_eq!(out.code, 1);
}

#[test]
fn check_reads_an_ftp_robots_txt() {
    let background = Background::new().unwrap();
    let server = background.ftp(false).unwrap();
    server.put_robots_txt(b"User-agent: *\r\nDisallow: /pub/private/\r\n");
    let out = run(
        &[
            "check",
            &server.url("/pub/file"),
            "ExampleBot",
            "/pub/private/x",
            "/pub/x",
        ],
        b"",
    );
    assert_eq!(
        out.lines(),
        ["disallowed\t/pub/private/x", "allowed\t/pub/x"]
    );
    assert_eq!(out.code, 1);
}

#[test]
fn an_invalid_agent_is_an_error_whatever_the_access_result() {
    let site = Site::new(Reply::status(503));
    run(&["check", &site.url("/"), "Example Bot", "/"], b"").assert_error("invalid crawler name");
}

#[rstest]
#[case::no_host(&["check", "http://", "Bot", "/"], "cannot fetch robots.txt")]
#[case::bad_idn(&["check", "http://xn--a.xn--/", "Bot", "/"], "cannot fetch robots.txt")]
#[case::fetch_no_host(&["fetch", "http://"], "cannot fetch robots.txt")]
#[case::fetch_not_a_url(&["fetch", "robots.txt"], "cannot fetch robots.txt")]
#[case::fetch_unsupported_scheme(&["fetch", "gopher://example.com/"], "unsupported scheme")]
#[case::fetch_missing_url(&["fetch"], "missing argument URL")]
#[case::fetch_bad_timeout(&["fetch", "--timeout", "0", "http://example.com/"], "--timeout")]
#[case::fetch_bad_format(&["fetch", "--format", "yaml", "http://example.com/"], "'yaml'")]
fn usage_and_url_errors(#[case] args: &[&str], #[case] fragment: &str) {
    run(args, b"").assert_error(fragment);
}

#[test]
fn fetch_prints_the_chain_the_access_result_and_the_cache_lifetime() {
    let site = Site::new(Reply::redirect(301, "/moved/robots.txt"));
    site.server.route(
        "/moved/robots.txt",
        Reply::ok(ROBOTS).header("Cache-Control", "max-age=3600"),
    );
    let out = run(&["fetch", &site.url("/any/page")], b"");
    assert_eq!(out.code, 0, "{out:?}");
    let lines = out.lines();
    assert_eq!(lines[0], format!("robots.txt: {}", site.url("/robots.txt")));
    assert_eq!(
        lines[1],
        format!("request: 301 {}", site.url("/robots.txt"))
    );
    assert_eq!(
        lines[2],
        format!("request: 200 {}", site.url("/moved/robots.txt"))
    );
    for line in [
        "access: success",
        "verdict: conditional",
        &format!("bytes read: {}", ROBOTS.len()),
        "content type: text/plain",
        "cache lifetime: 3600 s",
    ] {
        assert!(lines.contains(&line), "{line:?} not in {out:?}");
    }
}

#[rstest]
#[case::rfc9309_caps_at_24_hours("rfc9309", 86_400)]
#[case::google_follows_max_age("google", 172_800)]
fn fetch_json_reports_the_profiles_cache_lifetime(#[case] profile: &str, #[case] secs: u64) {
    let site = Site::new(Reply::ok(ROBOTS).header("Cache-Control", "max-age=172800"));
    let out = run(
        &[
            "fetch",
            "--format",
            "json",
            "--profile",
            profile,
            &site.url("/robots.txt"),
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let json = out.json();
    assert_eq!(json["cache_lifetime_secs"], secs);
    assert_eq!(json["access"], "success");
    assert_eq!(json["verdict"], "conditional");
    assert_eq!(json["chain"][0]["status"], 200);
    assert_eq!(out.stdout.lines().count(), 1);
}

#[rstest]
#[case::not_found(Reply::status(404), 0, "unavailable", "full-allow")]
#[case::redirect_loop(
    Reply::redirect(302, "/robots.txt?again"),
    0,
    "unavailable",
    "full-allow"
)]
#[case::server_error(Reply::status(503).header("Retry-After", "120"), 1, "unreachable", "full-disallow")]
fn fetch_exits_1_only_for_full_disallow(
    #[case] reply: Reply,
    #[case] code: i32,
    #[case] access: &str,
    #[case] verdict: &str,
) {
    let site = Site::new(reply);
    site.server
        .route("/robots.txt?again", Reply::redirect(302, "/robots.txt"));
    let out = run(&["fetch", "--format", "json", &site.url("/")], b"");
    assert_eq!(out.code, code, "{out:?}");
    let json = out.json();
    assert_eq!(json["access"], access);
    assert_eq!(json["verdict"], verdict);
    assert!(json["reason"].is_string());
}

#[test]
fn fetch_reports_retry_after_and_the_back_off() {
    let site = Site::new(Reply::status(503).header("Retry-After", "120"));
    let out = run(&["fetch", &site.url("/")], b"");
    assert_eq!(out.code, 1);
    for line in [
        "access: unreachable (HTTP status 503)",
        "verdict: full-disallow",
        "retry after: 120 s",
        "cache lifetime: 120 s",
    ] {
        assert!(out.lines().contains(&line), "{line:?} not in {out:?}");
    }
}

#[test]
fn fetch_reports_truncation_at_the_limit() {
    let body = "Disallow: /x\n".repeat(50_000); // 650,000 bytes
    let site = Site::new(Reply::ok(body));
    let out = run(&["fetch", "--format", "json", &site.url("/")], b"");
    let json = out.json();
    assert_eq!(json["truncation"]["limit"], 512_000);
    // Cut at the last whole line within the limit.
    assert_eq!(json["bytes_read"], 511_992);
    assert_eq!(out.code, 0);
}

#[test]
fn explain_and_check_report_where_the_size_limit_cut_a_fetched_file() {
    // `User-agent: *` / `Allow: /`, then comments past 512,000 bytes, then the rule that would
    // have decided: never downloaded, so it cannot be named, but the cut is.
    let (rules, comment) = (
        "User-agent: *\nAllow: /\n",
        "# a line to push the rules down\n",
    );
    let body = format!("{rules}{}Disallow: /secret\n", comment.repeat(20_000));
    let site = Site::new(Reply::ok(body));
    let robots = site.url("/robots.txt");
    // The rules, then as many whole comment lines as fit in 512,000 bytes.
    let kept = (512_000 - rules.len()) / comment.len();
    let (at, first_not_fetched) = (rules.len() + kept * comment.len(), 3 + kept);
    let out = run(&["explain", &robots, "ExampleBot", "/secret"], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(&format!(
            "the file was cut at byte {at} by the size limit of 512000 bytes when fetched (RFC \
             9309 §2.5): line {first_not_fetched} and everything after it were not fetched, so \
             no rule past the cut can be named"
        )),
        "{out:?}"
    );
    let out = run(
        &[
            "explain",
            "--format",
            "json",
            &robots,
            "ExampleBot",
            "/secret",
        ],
        b"",
    );
    let cut = &out.json()["parse_limit"];
    assert_eq!(cut["by"], "size-limit", "{out:?}");
    assert_eq!(cut["at"], at);
    assert_eq!(cut["line"], first_not_fetched);
    let out = run(
        &["check", "--explain", &robots, "ExampleBot", "/secret"],
        b"",
    );
    assert_eq!(
        out.lines(),
        [format!(
            "allowed\t/secret\t2\tallow: /; file cut at byte {at} by the size limit when \
             fetched, rules past it not fetched (RFC 9309 §2.5)"
        )
        .as_str()]
    );
}

#[test]
fn fetch_over_ftp() {
    let background = Background::new().unwrap();
    let server = background.ftp(false).unwrap();
    server.put_robots_txt(b"User-agent: *\nDisallow: /\n");
    let out = run(&["fetch", &server.url("/")], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out
        .lines()
        .contains(&format!("request: 226 {}", server.url("/robots.txt")).as_str()));
    let refused = background.ftp(true).unwrap();
    let out = run(&["fetch", &refused.url("/")], b"");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out
        .stdout
        .contains("access: unreachable (FTP login refused"));
}

#[test]
fn a_silent_ftp_server_is_unreachable_within_the_timeout() {
    let background = Background::new().unwrap();
    let silent = background.block_on(robotrules_testserver::ftp::SilentListener::start());
    let started = Instant::now();
    let out = run(
        &[
            "fetch",
            "--timeout",
            "0.5",
            &format!("ftp://{}/", silent.addr()),
        ],
        b"",
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{out:?}");
    assert_eq!(out.code, 1, "{out:?}");
}

#[test]
fn lint_reads_a_fetched_file_and_explains_why_there_is_none() {
    let site = Site::new(Reply::ok("user-agent: *\ndissallow: /x\n"));
    let out = run(&["lint", "--format", "json", &site.url("/")], b"");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("misspelt-key"), "{out:?}");
    // No file: what RFC 9309 makes of it, and the exit status `check` gives.
    let missing = Site::new(Reply::status(404));
    let out = run(&["lint", &missing.url("/")], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("every URL is allowed"), "{out:?}");
    let failing = Site::new(Reply::status(503));
    let out = run(&["lint", "--format", "json", &failing.url("/")], b"");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("\"access\":\"unreachable\""), "{out:?}");
    assert!(out.stdout.contains("{\"summary\":"), "{out:?}");
    let out = run(&["explain", &missing.url("/"), "ExampleBot", "/x"], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout
            .contains("no robots.txt (404): every URL is allowed, RFC 9309 §2.3.1.3"),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("`ExampleBot` on `/x`: allowed\n"),
        "{out:?}"
    );
    assert!(!out.stdout.contains("is:"), "{out:?}");
    let out = run(&["explain", &failing.url("/"), "ExampleBot", "/x"], b"");
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout
            .contains("unreachable (503): every URL is disallowed, RFC 9309 §2.3.1.4"),
        "{out:?}"
    );
    assert!(
        out.stdout.contains("`ExampleBot` on `/x`: disallowed\n"),
        "{out:?}"
    );
    assert!(!out.stdout.contains("is not"), "{out:?}");
}

#[test]
fn fetch_shows_and_saves_the_body_with_the_user_agent_given() {
    let site = Site::new(Reply::ok("user-agent: *\ndisallow: /x\n"));
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("robots.txt");
    let out = run(
        &[
            "fetch",
            "--body",
            "--user-agent",
            "ExampleBot/1.0",
            "--output",
            saved.to_str().unwrap(),
            &site.url("/"),
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.ends_with("\nuser-agent: *\ndisallow: /x\n"),
        "{out:?}"
    );
    assert_eq!(
        std::fs::read(&saved).unwrap(),
        b"user-agent: *\ndisallow: /x\n"
    );
    assert_eq!(
        site.server.requests()[0].header("user-agent"),
        Some("ExampleBot/1.0")
    );
}

#[test]
fn show_resolves_sitemaps_against_the_fetched_robots_txt() {
    let site = Site::new(Reply::ok(
        "user-agent: *\ndisallow: /x\ncrawl-delay: 2\nsitemap: /sitemap.xml\n",
    ));
    let out = run(
        &["show", "--format", "json", &site.url("/"), "ExampleBot"],
        b"",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["crawl_delay"], 2.0);
    assert_eq!(v["sitemaps"][0], site.url("/sitemap.xml"));
}

#[rstest]
#[case(
    503,
    1,
    "unreachable (503): every URL is disallowed, RFC 9309 §2.3.1.4"
)]
#[case(404, 0, "no robots.txt (404): every URL is allowed, RFC 9309 §2.3.1.3")]
fn show_without_a_file_says_what_it_means_and_lists_no_groups(
    #[case] status: u16,
    #[case] code: i32,
    #[case] sentence: &str,
) {
    let site = Site::new(Reply::status(status));
    let robots_txt = site.url("/robots.txt");
    let out = run(&["show", &robots_txt, "ExampleBot"], b"");
    assert_eq!(out.code, code, "{out:?}");
    let access = if status == 503 {
        "unreachable"
    } else {
        "unavailable"
    };
    assert_eq!(
        out.lines(),
        [
            "agent: ExampleBot (profile rfc9309)".to_owned(),
            format!("robots.txt: {robots_txt} ({access})"),
            sentence.to_owned(),
        ],
        "{out:?}"
    );
    assert!(!out.stdout.contains("groups"), "{out:?}");
}

#[test]
fn fetch_help_documents_the_exit_status() {
    let out = run(&["fetch", "--help"], b"");
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("Exit status: 0 when"), "{out:?}");
    assert!(out.stdout.contains("1 when it is unreachable"));
}

/// A refused connection reads `connection refused` by default; `--verbose` adds the network
/// library's error chain to the same report, in every command that fetches.
#[test]
fn verbose_adds_the_error_chain_to_a_network_failure() {
    // A loopback port nothing listens on (bound, then released), so connecting is refused.
    let port = robotrules_testserver::free_port().unwrap();
    let robots = format!("http://127.0.0.1:{port}/robots.txt");
    let page = format!("http://127.0.0.1:{port}/x");
    let commands: [Vec<&str>; 4] = [
        vec!["fetch", &robots],
        vec!["check", "--format", "json", &robots, "ExampleBot", "/x"],
        vec!["show", &robots, "ExampleBot"],
        vec!["batch", "--format", "json", "ExampleBot", &page],
    ];
    for command in commands {
        let short = run(&command, b"");
        let text = format!("{}{}", short.stdout, short.stderr);
        assert!(text.contains("connection refused"), "{short:?}");
        assert!(!text.contains("error chain"), "{short:?}");
        assert!(!text.contains("os error"), "{short:?}");

        let verbose: Vec<&str> = command.iter().copied().chain(["--verbose"]).collect();
        let long = run(&verbose, b"");
        assert_eq!(long.code, short.code, "{long:?}");
        let text = format!("{}{}", long.stdout, long.stderr);
        assert!(
            text.contains("connection refused; error chain: "),
            "{long:?}"
        );
        assert!(text.contains("os error"), "{long:?}");
    }
}
