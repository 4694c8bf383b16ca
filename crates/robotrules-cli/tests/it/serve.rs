//! End-to-end tests of `robotrules serve` against the real server on loopback: it starts and
//! prints its address, serves the page with its security headers, answers every endpoint
//! with what the command of the same name says (compared with the CLI's own JSON), reports
//! errors as JSON with the CLI's messages, enforces its limits, and `/api/fetch` refuses
//! non-public addresses (real loopback servers, `robotrules-testserver`) unless
//! `--allow-private-fetch`, and anything but http, https and ftp URLs.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use robotrules_testserver::http::Reply;
use robotrules_testserver::Background;
use serde_json::{json, Value};

use crate::support::serve::Server;
use crate::support::{run, Fixture};

const ROBOTS: &str = "User-agent: *
Disallow: /private
Allow: /private/open
Disallow: /*.pdf$
Crawl-delay: 5
Sitemap: /sitemap.xml

User-agent: Googlebot
Disalow: /typo
Disallow: /no-google
";

/// The fixture with `<script>` and an attribute breakout in a path and a comment.
const XSS: &str = "# <script>alert(1)</script>
User-agent: *
Disallow: /\"><img src=x onerror=alert(1)>
Disallow: /<script>alert(2)</script>
";

#[test]
fn it_starts_within_a_second_and_prints_its_address() {
    let started = Instant::now();
    let server = Server::start(&[]);
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(server.addr.ip().is_loopback());
    let page = server.request("GET", "/", &[], b"");
    assert_eq!(page.status, 200);
}

#[test]
fn it_listens_on_loopback_unless_told_otherwise() {
    let help = run(&["serve", "--help"], b"");
    assert_eq!(help.code, 0, "{help:?}");
    assert!(
        help.stdout.contains("[default: 127.0.0.1:8080]"),
        "{}",
        help.stdout
    );
    assert!(help.stdout.contains("Examples:"));
}

#[test]
fn a_loopback_server_answers_only_loopback_host_names() {
    // A page of another site that points a name of its own at 127.0.0.1 (DNS rebinding)
    // sends that name as Host.
    let server = Server::start(&[]);
    let rebound = server.request("GET", "/", &[("Host", "rebind.example:8080")], b"");
    assert_eq!(rebound.status, 421);
    assert!(rebound
        .error()
        .contains("answers only requests for localhost"));
    let named = server.request("GET", "/", &[("Host", "localhost")], b"");
    assert_eq!(named.status, 200);
}

#[test]
fn every_response_carries_the_security_headers() {
    let server = Server::start(&[]);
    for response in [
        server.request("GET", "/", &[], b""),
        server.request("GET", "/app.js", &[], b""),
        server.request("GET", "/nowhere", &[], b""),
        server.api("lint", &json!({"robots": ""})),
    ] {
        let csp = response.header("content-security-policy").unwrap();
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(csp.contains("default-src 'none'"), "{csp}");
        assert!(
            !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
            "{csp}"
        );
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(response.header("x-frame-options"), Some("DENY"));
    }
}

#[test]
fn the_page_is_three_embedded_files_under_150_kb() {
    let server = Server::start(&[]);
    let html = server.request("GET", "/", &[], b"");
    assert_eq!(
        html.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let text = String::from_utf8(html.body.clone()).unwrap();
    assert!(text.contains(r#"<script src="/app.js" defer></script>"#));
    let js = server.request("GET", "/app.js", &[], b"");
    assert_eq!(
        js.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let css = server.request("GET", "/app.css", &[], b"");
    assert_eq!(css.status, 200);
    let total = html.body.len() + js.body.len() + css.body.len();
    assert!(total < 150 * 1024, "{total} bytes");
}

/// The CLI's `--format json` answer for `args` on the robots.txt `robots` (given as a file).
fn cli_json(args: &[&str], robots: &str) -> Vec<Value> {
    let file = Fixture::new(robots.as_bytes());
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "FILE" { file.path() } else { a })
        .collect();
    let out = run(&args, b"");
    assert!(out.code == 0 || out.code == 1, "{out:?}");
    out.stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn check_gives_each_profiles_verdict_and_deciding_line_as_check_does() {
    let server = Server::start(&[]);
    let urls = ["/private/x", "/private/open/y", "/a.pdf", "/no-google", "/"];
    for agent in ["Googlebot", "ExampleBot"] {
        let answer = server.api(
            "check",
            &json!({"robots": ROBOTS, "agent": agent, "urls": urls}),
        );
        assert_eq!(answer.status, 200);
        let answer = answer.json();
        for profile in ["rfc9309", "google", "legacy1994"] {
            let mut args = vec![
                "check",
                "--format",
                "json",
                "--profile",
                profile,
                "FILE",
                agent,
            ];
            args.extend(urls);
            let rows = cli_json(&args, ROBOTS);
            for (row, result) in rows.iter().zip(answer["results"].as_array().unwrap()) {
                let verdict = result["verdicts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|v| v["profile"] == profile)
                    .unwrap();
                assert_eq!(result["url"], row["url"]);
                assert_eq!(
                    verdict["allowed"], row["allowed"],
                    "{agent} {profile} {row}"
                );
                // One verdict shape: the tester's is check's row without the URL and its
                // `verdict` word.
                for key in ["profile", "reason", "decided_by"] {
                    assert_eq!(verdict[key], row[key], "{key}: {agent} {profile} {row}");
                }
            }
        }
    }
}

#[test]
fn check_gives_each_profiles_usage_as_the_usage_command_does() {
    let server = Server::start(&[]);
    let robots = "User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\
                  Disallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\
                  Content-Usage: /broken/ train-ai=n;;\n";
    let urls = ["/", "/ai-ok/test", "/never/test", "/broken/x"];
    let answer = server.api(
        "check",
        &json!({"robots": robots, "agent": "ExampleBot", "urls": urls}),
    );
    assert_eq!(answer.status, 200);
    let answer = answer.json();
    for profile in ["rfc9309", "google", "legacy1994"] {
        let mut args = vec![
            "usage",
            "--format",
            "json",
            "--profile",
            profile,
            "FILE",
            "ExampleBot",
        ];
        args.extend(urls);
        let rows = cli_json(&args, robots);
        assert_eq!(rows.len(), urls.len());
        for (row, result) in rows.iter().zip(answer["results"].as_array().unwrap()) {
            let verdict = result["verdicts"]
                .as_array()
                .unwrap()
                .iter()
                .find(|v| v["profile"] == profile)
                .unwrap();
            // One verdict shape: the tester's is `usage --format json`'s row without the URL
            // and its `verdict` word.
            for key in ["allowed", "reason", "decided_by", "usage"] {
                assert_eq!(verdict[key], row[key], "{key}: {profile} {row}");
            }
        }
    }
    // A crawler without usage lines gets verdicts without `usage`, as `check` writes them.
    let plain = server
        .api(
            "check",
            &json!({"robots": "User-agent: *\nDisallow: /private\n", "agent": "ExampleBot", "urls": ["/"]}),
        )
        .json();
    assert!(
        plain["results"][0]["verdicts"][0].get("usage").is_none(),
        "{plain}"
    );
    let rfc = |i: usize| &answer["results"][i]["verdicts"][0]["usage"];
    assert_eq!(rfc(1)["combined"][0]["outcome"], "disallowed");
    assert_eq!(rfc(2)["crawlable"], false);
    assert_eq!(rfc(3)["vocabularies"][0]["unparsed"], json!([7]));
}

#[test]
fn disagreements_are_flagged_with_explains_causes() {
    let server = Server::start(&[]);
    let answer = server
        .api(
            "check",
            &json!({"robots": ROBOTS, "agent": "ExampleBot", "urls": ["/a.pdf", "/private/x"]}),
        )
        .json();
    let pdf = &answer["results"][0];
    assert_eq!(pdf["disagree"], true, "{pdf}");
    let explained = &cli_json(
        &[
            "explain",
            "--profile",
            "all",
            "--format",
            "json",
            "FILE",
            "ExampleBot",
            "/a.pdf",
        ],
        ROBOTS,
    )[0];
    assert_eq!(pdf["differences"], explained["differences"]);
    assert!(!pdf["differences"].as_array().unwrap().is_empty());
    assert_eq!(answer["results"][1]["disagree"], false);
}

#[test]
fn a_full_user_agent_string_gets_the_clis_message_and_the_suggested_token() {
    let server = Server::start(&[]);
    let agent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    let answer = server
        .api(
            "check",
            &json!({"robots": ROBOTS, "agent": agent, "urls": ["/"]}),
        )
        .json();
    let rfc = &answer["agent_readings"][0];
    assert_eq!(rfc["profile"], "rfc9309");
    assert_eq!(rfc["suggestion"], "Googlebot");
    let cli = run(&["check", "-", agent, "/"], ROBOTS.as_bytes());
    let message = cli
        .stderr
        .trim()
        .strip_prefix("robotrules: error: ")
        .unwrap();
    assert_eq!(rfc["error"], message);
    // The same message as the error of an endpoint that reads one profile.
    let shown = server.api(
        "show",
        &json!({"robots": ROBOTS, "agent": agent, "profile": "rfc9309"}),
    );
    assert_eq!(shown.status, 400);
    assert_eq!(shown.error(), message);
}

#[test]
fn the_star_is_a_crawler_that_no_group_names_in_every_profile() {
    let server = Server::start(&[]);
    let answer = server
        .api(
            "check",
            &json!({"robots": ROBOTS, "agent": "*", "urls": ["/private/x"]}),
        )
        .json();
    assert_eq!(
        answer["agent_label"], "a crawler that no group names",
        "{answer}"
    );
    for reading in answer["agent_readings"].as_array().unwrap() {
        assert!(reading.get("error").is_none(), "{reading}");
        assert!(reading.get("warning").is_none(), "{reading}");
    }
    let cli = cli_json(
        &[
            "check",
            "--format",
            "json",
            "FILE",
            "ExampleBot",
            "/private/x",
        ],
        ROBOTS,
    );
    let verdict = &answer["results"][0]["verdicts"][0];
    assert_eq!(verdict["allowed"], cli[0]["allowed"], "{answer}");
}

#[test]
fn the_google_warning_says_what_the_library_reads_and_which_group_that_selects() {
    let server = Server::start(&[]);
    let robots = "User-agent: *\nDisallow: /x\n\nUser-agent: MJ12bot\nAllow: /x\n";
    let answer = server
        .api(
            "check",
            &json!({"robots": robots, "agent": "MJ12bot", "urls": ["/x"]}),
        )
        .json();
    let google = &answer["agent_readings"][1];
    assert_eq!(google["profile"], "google");
    let cli = run(
        &["check", "--profile", "google", "-", "MJ12bot", "/x"],
        robots.as_bytes(),
    );
    let warning = cli
        .stderr
        .trim()
        .strip_prefix("robotrules: warning: ")
        .unwrap();
    assert_eq!(google["warning"], warning, "{answer}");
    assert!(
        warning.ends_with("pass `MJ`, which gets the group at line 4"),
        "{warning}"
    );
}

#[test]
fn a_diff_under_all_profiles_lists_each_crawler_once() {
    let server = Server::start(&[]);
    let answer = server
        .api(
            "diff",
            &json!({"old": ROBOTS, "new": "User-agent: *\nDisallow: /\n",
                    "agents": ["ExampleBot", "Googlebot"], "profile": "all"}),
        )
        .json();
    let summary = &answer["summary"];
    assert_eq!(
        summary["agents"],
        json!(["ExampleBot", "Googlebot"]),
        "{answer}"
    );
    assert_eq!(
        summary["profiles"],
        json!(["rfc9309", "google", "legacy1994"]),
        "{answer}"
    );
}

#[test]
fn explain_lint_show_and_diff_answer_as_the_commands_do() {
    let server = Server::start(&[]);
    let explained = server
        .api(
            "explain",
            &json!({"robots": ROBOTS, "agent": "Googlebot", "url": "/private/open/x"}),
        )
        .json();
    let cli = &cli_json(
        &[
            "explain",
            "--profile",
            "all",
            "--format",
            "json",
            "FILE",
            "Googlebot",
            "/private/open/x",
        ],
        ROBOTS,
    )[0];
    assert_eq!(&explained["report"], cli);
    assert!(explained["text"].as_str().unwrap().contains("Googlebot"));

    let linted = server.api("lint", &json!({"robots": ROBOTS})).json();
    let cli = cli_json(&["lint", "--format", "json", "FILE"], ROBOTS);
    let findings = linted["report"]["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    assert_eq!(
        findings.len() + 1,
        cli.len(),
        "one record per finding, then the summary"
    );
    for (finding, record) in findings.iter().zip(&cli) {
        for key in ["code", "severity", "line", "message", "help"] {
            assert_eq!(finding[key], record[key], "{key}");
        }
    }

    let shown = server
        .api("show", &json!({"robots": ROBOTS, "agent": "ExampleBot"}))
        .json();
    let cli = &cli_json(&["show", "--format", "json", "FILE", "ExampleBot"], ROBOTS)[0];
    assert_eq!(&shown["show"], cli);
    assert_eq!(shown["show"]["crawl_delay"], 5.0);
    // Sitemaps are resolved against the file's URL when the page knows it.
    let shown = server
        .api(
            "show",
            &json!({"robots": ROBOTS, "agent": "ExampleBot",
                    "robots_txt_url": "https://example.com/robots.txt"}),
        )
        .json();
    assert_eq!(
        shown["show"]["sitemaps"],
        json!(["https://example.com/sitemap.xml"])
    );

    let new = ROBOTS.replace("Disallow: /private\n", "Disallow: /priv\n");
    let diffed = server
        .api(
            "diff",
            &json!({"old": ROBOTS, "new": new, "agents": ["ExampleBot"], "urls": ["/private/x", "/privy"]}),
        )
        .json();
    let (old_file, new_file) = (
        Fixture::new(ROBOTS.as_bytes()),
        Fixture::new(new.as_bytes()),
    );
    let cli = run(
        &[
            "diff",
            "--profile",
            "all",
            "--format",
            "json",
            "--url",
            "/private/x",
            "--url",
            "/privy",
            old_file.path(),
            new_file.path(),
            "ExampleBot",
        ],
        b"",
    );
    let records: Vec<Value> = cli
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let changes = diffed["changes"].as_array().unwrap();
    assert_eq!(changes.len() + 1, records.len());
    for (change, record) in changes.iter().zip(&records) {
        let mut change = change.clone();
        let sentence = change.as_object_mut().unwrap().remove("sentence").unwrap();
        assert_eq!(&change, record);
        assert!(sentence.as_str().unwrap().contains("/privy"), "{sentence}");
    }
    assert_eq!(diffed["summary"], records.last().unwrap()["summary"]);
}

#[test]
fn input_is_returned_as_data_never_as_markup() {
    let server = Server::start(&[]);
    let response = server.api(
        "check",
        &json!({"robots": XSS, "agent": "ExampleBot", "urls": ["/\"><img src=x onerror=alert(1)>"]}),
    );
    assert_eq!(response.header("content-type"), Some("application/json"));
    let answer = response.json();
    assert_eq!(
        answer["results"][0]["url"],
        "/\"><img src=x onerror=alert(1)>"
    );
    assert_eq!(answer["results"][0]["verdicts"][0]["decided_by"]["line"], 3);
}

#[test]
fn errors_are_json_with_a_status() {
    let server = Server::start(&[]);
    let not_json = server.request(
        "POST",
        "/api/check",
        &[("Content-Type", "application/json")],
        b"{not json",
    );
    assert_eq!(not_json.status, 400);
    assert!(not_json
        .error()
        .starts_with("not a request this endpoint takes"));
    let missing = server.api("check", &json!({"robots": ""}));
    assert_eq!(missing.status, 400);
    assert!(
        missing.error().contains("missing field `agent`"),
        "{}",
        missing.error()
    );
    let form = server.request(
        "POST",
        "/api/check",
        &[("Content-Type", "text/plain")],
        b"{}",
    );
    assert_eq!(form.status, 415);
    assert_eq!(server.request("GET", "/api/check", &[], b"").status, 405);
    assert_eq!(server.api("frobnicate", &json!({})).status, 404);
    let profile = server.api("lint", &json!({"robots": "", "profile": "bing"}));
    assert_eq!(profile.status, 400);
    assert!(
        profile.error().contains("the profile is one of"),
        "{}",
        profile.error()
    );
}

#[test]
fn bodies_over_one_mebibyte_are_refused_with_413() {
    let server = Server::start(&[]);
    let robots = "#".repeat(1 << 20);
    let response = server.api("lint", &json!({ "robots": robots }));
    assert_eq!(response.status, 413);
    assert!(response.error().contains("1 MiB"));
    // Just under the limit is answered.
    let robots = "#".repeat((1 << 20) - 100);
    assert_eq!(server.api("lint", &json!({ "robots": robots })).status, 200);
}

#[test]
fn at_most_ten_thousand_urls_a_request() {
    let server = Server::start(&[]);
    let urls = vec!["/a"; 10_000];
    let response = server.api(
        "check",
        &json!({"robots": ROBOTS, "agent": "ExampleBot", "urls": urls}),
    );
    assert_eq!(response.status, 200);
    assert_eq!(response.json()["results"].as_array().unwrap().len(), 10_000);
    let urls = vec!["/a"; 10_001];
    let response = server.api(
        "check",
        &json!({"robots": ROBOTS, "agent": "ExampleBot", "urls": urls}),
    );
    assert_eq!(response.status, 400);
    assert_eq!(
        response.error(),
        "10001 URLs: a request may ask about at most 10000"
    );
}

#[test]
fn a_body_that_does_not_arrive_in_time_is_answered_503() {
    let server = Server::start(&[]);
    // Headers announce 100 bytes; none follow.
    let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
    use std::io::{Read, Write};
    stream
        .write_all(
            b"POST /api/lint HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let started = Instant::now();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("deadline of 10 s"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// A diff request that takes minutes to compute without a deadline: 5,000 groups, each
/// naming its own crawler, against 15,000 equal rules for every crawler (5,000 crawlers,
/// each asked about every rule's paths), 0.5 MB of JSON.
fn endless_diff() -> Value {
    let groups: String = (0..5_000)
        .map(|i| format!("User-agent: bot{i}\nDisallow: /p{i}\n"))
        .collect();
    let same = format!("User-agent: *\n{}", "Disallow: /same\n".repeat(15_000));
    json!({ "old": groups, "new": same, "profile": "rfc9309" })
}

/// The CPU time `server` uses in the two seconds after its last answer.
#[cfg(target_os = "linux")]
fn cpu_after_answering(server: &Server) -> Duration {
    let answered = server.cpu_time();
    std::thread::sleep(Duration::from_secs(2));
    server.cpu_time().saturating_sub(answered)
}

#[cfg(target_os = "linux")]
#[test]
fn a_request_past_its_deadline_stops_computing() {
    let server = Server::start(&["--request-deadline-ms", "300"]);
    let answer = server.api("diff", &endless_diff());
    assert_eq!(answer.status, 503, "{answer:?}");
    assert!(answer.error().contains("deadline of 300 ms"), "{answer:?}");
    // Left to run, the diff would keep a core busy for minutes: the server stops it at its
    // next look at the deadline, well within the half second allowed here.
    let after = cpu_after_answering(&server);
    assert!(
        after < Duration::from_millis(500),
        "{after:?} of CPU after the answer"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn at_most_two_heavy_requests_compute_at_once_the_rest_are_told_to_retry() {
    let server = Server::start(&["--request-deadline-ms", "1500"]);
    let body = endless_diff();
    let answers: Vec<_> = std::thread::scope(|scope| {
        let posts: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| server.api("diff", &body)))
            .collect();
        posts.into_iter().map(|p| p.join().unwrap()).collect()
    });
    let retry: Vec<_> = answers
        .iter()
        .filter(|a| a.header("retry-after").is_some())
        .collect();
    let late: Vec<_> = answers
        .iter()
        .filter(|a| a.error().contains("deadline of 1500 ms"))
        .collect();
    assert_eq!((retry.len(), late.len()), (2, 2), "{answers:?}");
    for refused in retry {
        assert_eq!(refused.status, 503);
        assert_eq!(refused.header("retry-after"), Some("1"));
        assert!(refused
            .error()
            .contains("2 large requests are being answered"));
    }
    let after = cpu_after_answering(&server);
    assert!(
        after < Duration::from_millis(500),
        "{after:?} of CPU after the answers"
    );
    // The turns are given back: a small request is answered as ever.
    let small = server.api("lint", &json!({ "robots": ROBOTS }));
    assert_eq!(small.status, 200, "{small:?}");
}

/// A loopback site answering `/robots.txt` with `reply`, on a background runtime.
fn site(reply: Reply) -> (Background, robotrules_testserver::http::HttpServer) {
    let background = Background::new().unwrap();
    let server = background.http().unwrap();
    server.route("/robots.txt", reply);
    (background, server)
}

#[test]
fn fetch_loads_a_file_and_says_what_404_and_5xx_mean() {
    let server = Server::start(&["--allow-private-fetch"]);
    let (_bg, ok) = site(Reply::ok(ROBOTS));
    let answer = server
        .api("fetch", &json!({"url": ok.url("/any/page")}))
        .json();
    assert_eq!(answer["body"], ROBOTS);
    assert_eq!(answer["summary"]["robots_txt_url"], ok.url("/robots.txt"));
    assert_eq!(answer["summary"]["access"], "success");

    let (_bg, missing) = site(Reply::status(404));
    let answer = server
        .api("fetch", &json!({"url": missing.url("/")}))
        .json();
    assert_eq!(
        answer["plainly"],
        "no robots.txt (404): every URL is allowed, RFC 9309 §2.3.1.3"
    );
    assert!(answer.get("body").is_none());

    let (_bg, down) = site(Reply::status(503));
    let answer = server.api("fetch", &json!({"url": down.url("/")})).json();
    assert_eq!(
        answer["plainly"],
        "unreachable (503): every URL is disallowed, RFC 9309 §2.3.1.4"
    );
}

#[test]
fn fetch_refuses_loopback_targets_by_address_and_by_name() {
    let server = Server::start(&[]);
    let (_bg, site) = site(Reply::ok(ROBOTS));
    for url in [
        site.url("/robots.txt"),
        site.url_on("localhost", "/robots.txt"),
    ] {
        let response = server.api("fetch", &json!({ "url": url }));
        assert_eq!(response.status, 403, "{url}");
        let error = response.error();
        assert!(error.starts_with("refused to fetch http://"), "{error}");
        assert!(error.contains("a loopback address"), "{error}");
        assert!(error.contains("--allow-private-fetch"), "{error}");
    }
    assert_eq!(site.hits("/robots.txt"), 0);
}

#[test]
fn fetch_refuses_a_private_first_hop_before_its_redirect_and_private_literals_unconnected() {
    // This does not test the check at a redirect hop: through `serve` every loopback first hop
    // is refused before a redirect can be seen. That check is the fetch crate's test
    // (`robotrules-fetch/tests/it/address_policy.rs`, whose policy lets the first hop through).
    // Here: a redirect whose first hop is loopback is refused before it is read, so the
    // target is never asked; and literal private addresses are refused unconnected.
    let server = Server::start(&[]);
    let (_bg, target) = site(Reply::ok(ROBOTS));
    let (_bg2, first) = site(Reply::redirect(301, &target.url("/robots.txt")));
    let response = server.api("fetch", &json!({"url": first.url("/robots.txt")}));
    assert_eq!(response.status, 403);
    assert_eq!(first.hits("/robots.txt") + target.hits("/robots.txt"), 0);
    // Link-local (cloud metadata), private and unspecified addresses: refused without a
    // connection.
    for url in [
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/",
        "http://0.0.0.0:8080/",
        "http://[::1]:8080/",
        "ftp://192.168.1.1/",
    ] {
        let response = server.api("fetch", &json!({ "url": url }));
        assert_eq!(response.status, 403, "{url}: {:?}", response.error());
    }
}

#[test]
fn fetch_takes_only_http_https_and_ftp_urls_and_never_reads_files() {
    let server = Server::start(&["--allow-private-fetch"]);
    for url in [
        "/etc/passwd",
        "file:///etc/passwd",
        "robots.txt",
        "gopher://example.com/",
    ] {
        let response = server.api("fetch", &json!({ "url": url }));
        assert_eq!(response.status, 400, "{url}");
        assert!(
            response
                .error()
                .contains("only http://, https:// and ftp:// URLs are fetched"),
            "{url}: {}",
            response.error()
        );
    }
    let response = server.api("fetch", &json!({"url": "http://"}));
    assert_eq!(response.status, 400);
    assert!(
        response.error().starts_with("cannot fetch robots.txt for"),
        "{}",
        response.error()
    );
}
