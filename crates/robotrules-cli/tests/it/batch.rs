//! End-to-end tests of `robotrules batch`: URL streams over many sites, each site a real HTTP
//! server on 127.0.0.1 (`robotrules-testserver`) answering its robots.txt its own way; the
//! requests are counted at the servers.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

use robotrules_testserver::http::Reply;

use crate::support::{Harness, Sites};

use crate::support::{run_loopback as run, SITE_ROBOTS as ROBOTS};

/// The six kinds of site of the mixed stream, and each one's verdict on `/private/x` and
/// `/public`.
fn mixed() -> (Sites, [(bool, bool); 6]) {
    let sites = Sites::new(vec![
        Reply::ok(ROBOTS),
        Reply::status(404),
        Reply::status(503),
        Reply::ok(ROBOTS).after(Duration::from_millis(300)),
        Reply::ResetAfter(
            b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n".to_vec(),
        ),
        Reply::ok("<html><body>\nUser-agent: *\nDisallow: /\n</body></html>\n")
            .header("Content-Type", "text/html"),
    ]);
    // 200: the rules; 404: allow all; 503 and a reset: disallow all; slow: the rules; an HTML
    // page: its valid lines are read (`User-agent: *` / `Disallow: /` between the tags).
    let verdicts = [
        (false, true),
        (true, true),
        (false, false),
        (false, true),
        (false, false),
        (false, false),
    ];
    (sites, verdicts)
}

#[test]
fn error_rows_for_url_arguments_do_not_name_a_line() {
    let out = run(&["batch", "ExampleBot", "relative/url"], b"");
    assert_eq!(out.lines().len(), 1, "{out:?}");
    let row = out.lines()[0];
    assert!(row.starts_with("error\trelative/url\t"), "{row}");
    assert!(!row.contains("line 1:"), "{row}");
    out.assert_one_line_error("1 line: 0 allowed, 0 disallowed, 1 error");
}

#[test]
fn a_mixed_stream_keeps_its_order_and_asks_each_origin_once() {
    let (sites, verdicts) = mixed();
    let mut input = String::new();
    let mut expected = Vec::new();
    for round in 0..5 {
        for (site, (private, public)) in verdicts.iter().enumerate() {
            for (path, allowed) in [
                (format!("/private/{round}"), private),
                (format!("/public/{round}"), public),
            ] {
                let url = sites.url(site, &path);
                input.push_str(&url);
                input.push('\n');
                let verdict = if *allowed { "allowed" } else { "disallowed" };
                expected.push(format!("{verdict}\t{url}"));
            }
        }
    }
    let out = run(&["batch", "--timeout", "5", "ExampleBot"], input.as_bytes());
    assert_eq!(out.lines(), expected, "{out:?}");
    assert_eq!(out.code, 1);
    // The 503 and the reset: two origins failed, their rows disallowed.
    assert_eq!(
        out.stderr,
        "robotrules: 60 lines: 20 allowed, 40 disallowed, 0 errors (2 origins failed)\n"
    );
    for site in 0..verdicts.len() {
        assert_eq!(sites.hits(site), 1, "site {site}");
    }
}

#[test]
fn bad_lines_mid_stream_are_error_rows_and_the_batch_goes_on() {
    let sites = Sites::new(vec![Reply::ok(ROBOTS)]);
    let mut input = Vec::new();
    let ok = sites.url(0, "/public");
    for line in [
        ok.as_bytes(),
        b"www.example.com/no-scheme",
        b"# a comment line",
        b"",
        b"mailto:someone@example.com",
        b"gopher://example.com/x",
        b"http://xn--a.example/x",
        b"http://a\x00b.example/",
        b"http://\xff.example/",
    ] {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    input.extend(std::iter::repeat_n(b'a', 1 << 20));
    input.push(b'\n');
    input.extend_from_slice(sites.url(0, "/private/x").as_bytes());
    input.push(b'\n');
    let out = run(&["batch", "ExampleBot"], &input);
    let lines = out.lines();
    assert_eq!(lines.len(), 9, "{out:?}");
    assert_eq!(lines[0], format!("allowed\t{ok}"));
    for (row, line_number) in lines[1..8].iter().zip([2, 5, 6, 7, 8, 9, 10]) {
        assert!(row.starts_with("error\t"), "{row}");
        assert!(
            row.contains(&format!("\tline {line_number}: ")),
            "{row} (line {line_number})"
        );
    }
    assert!(lines[7].contains("longer than 65536 bytes"), "{}", lines[7]);
    assert!(lines[7].len() < 1000, "a long line is shown cut");
    assert_eq!(
        lines[8],
        format!("disallowed\t{}", sites.url(0, "/private/x"))
    );
    out.assert_one_line_error("9 lines: 1 allowed, 1 disallowed, 7 errors");
    assert!(!out.stderr.contains("origins failed"), "{out:?}");
    assert_eq!(sites.hits(0), 1);
}

#[test]
fn only_prints_the_urls_of_one_verdict_bare() {
    let (sites, verdicts) = mixed();
    let mut input = String::new();
    let mut allowed = Vec::new();
    for (site, (private, public)) in verdicts.iter().enumerate() {
        for (path, ok) in [("/private/x", private), ("/public", public)] {
            let url = sites.url(site, path);
            input.push_str(&url);
            input.push('\n');
            if *ok {
                allowed.push(url);
            }
        }
    }
    input.push_str("not a url\n");
    let out = run(
        &["batch", "--only", "allowed", "ExampleBot"],
        input.as_bytes(),
    );
    assert_eq!(out.lines(), allowed, "{out:?}");
    // The error row is left out of standard output but still counts.
    out.assert_one_line_error("13 lines: 4 allowed, 8 disallowed, 1 error (2 origins failed)");
}

#[test]
fn json_rows_have_the_documented_shape() {
    let sites = Sites::new(vec![Reply::ok(ROBOTS), Reply::status(503)]);
    let urls = [
        sites.url(0, "/private/x"),
        sites.url(0, "/public"),
        sites.url(1, "/a"),
    ];
    let mut args = vec!["batch", "--format", "json", "ExampleBot"];
    args.extend(urls.iter().map(String::as_str));
    args.push("relative/url");
    let out = run(&args, b"");
    let rows: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        rows,
        [
            serde_json::json!({"url": urls[0], "verdict": "disallowed", "allowed": false,
                "line": 1, "profile": "rfc9309", "access": "success",
                "robots_txt_url": sites.url(0, "/robots.txt"), "reason": "rule-matched",
                "decided_by": {"line": 2, "kind": "disallow", "pattern": "/private/"}}),
            serde_json::json!({"url": urls[1], "verdict": "allowed", "allowed": true,
                "line": 2, "profile": "rfc9309", "access": "success",
                "robots_txt_url": sites.url(0, "/robots.txt"), "reason": "no-matching-rule"}),
            serde_json::json!({"url": urls[2], "verdict": "disallowed", "allowed": false,
                "line": 3, "profile": "rfc9309", "access": "unreachable", "access_reason": "HTTP status 503",
                "robots_txt_url": sites.url(1, "/robots.txt")}),
            serde_json::json!({"url": "relative/url", "verdict": "error", "line": 4,
                "error": "cannot locate a robots.txt for this URL: not an absolute url: \"relative/url\""}),
        ]
    );
    assert_eq!(out.code, 2);
}

#[test]
fn ten_thousand_urls_of_one_no_store_origin_make_one_request() {
    let sites = Sites::new(vec![Reply::ok(ROBOTS).header("Cache-Control", "no-store")]);
    let mut input = String::new();
    for i in 0..10_000 {
        input.push_str(&sites.url(0, &format!("/private/{i}")));
        input.push('\n');
    }
    let out = run(
        &["batch", "--only", "disallowed", "ExampleBot"],
        input.as_bytes(),
    );
    assert_eq!(out.lines().len(), 10_000, "{}", out.stderr);
    assert_eq!(out.code, 1);
    assert_eq!(sites.hits(0), 1);
}

#[test]
fn a_silent_origin_holds_back_only_until_its_deadline() {
    let sites = Sites::new(vec![Reply::Silent, Reply::ok(ROBOTS)]);
    let input = format!(
        "{}\n{}\n{}\n",
        sites.url(0, "/a"),
        sites.url(1, "/private/x"),
        sites.url(0, "/b")
    );
    let started = Instant::now();
    let out = run(&["batch", "--timeout", "1", "ExampleBot"], input.as_bytes());
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "ended near its deadline"
    );
    assert_eq!(
        out.lines(),
        [
            format!("disallowed\t{}", sites.url(0, "/a")),
            format!("disallowed\t{}", sites.url(1, "/private/x")),
            format!("disallowed\t{}", sites.url(0, "/b")),
        ]
    );
    assert_eq!(sites.hits(0), 1);
}

#[test]
fn output_begins_before_input_ends() {
    let sites = Sites::new(vec![Reply::ok(ROBOTS)]);
    let mut child = Harness::LOOPBACK
        .command(&["batch", "ExampleBot"])
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{}", sites.url(0, "/private/x")).unwrap();
    stdin.flush().unwrap();
    // Standard input stays open: the answer must come anyway.
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        format!("disallowed\t{}\n", sites.url(0, "/private/x"))
    );
    writeln!(stdin, "{}", sites.url(0, "/public")).unwrap();
    drop(stdin);
    line.clear();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line, format!("allowed\t{}\n", sites.url(0, "/public")));
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

#[test]
fn the_concurrency_bounds_the_fetches_at_once() {
    let sites = Sites::new(
        (0..6)
            .map(|_| Reply::ok(ROBOTS).after(Duration::from_millis(100)))
            .collect(),
    );
    let input: String = (0..6)
        .map(|site| format!("{}\n", sites.url(site, "/public")))
        .collect();
    let started = Instant::now();
    let out = run(
        &["batch", "--concurrency", "2", "ExampleBot"],
        input.as_bytes(),
    );
    let took = started.elapsed();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.lines().len(), 6);
    // Six answers that each take 100 ms, two at a time: three rounds at least. (A lower
    // bound only: the fetch crate's test counts the requests in flight at one server.)
    assert!(took >= Duration::from_millis(300), "{took:?}");
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    run(&["batch", "--concurrency", "0", "ExampleBot", "/"], b"").assert_error("--concurrency");
    run(&["batch", "ExampleBot/1.0", "https://example.com/"], b"")
        .assert_error("pass `ExampleBot`");
    run(&["batch"], b"").assert_error("missing argument AGENT");
}

/// A silent origin first, then two healthy ones, then the silent one again: four lines.
fn hanging_then_healthy() -> (Sites, String, [String; 4]) {
    let sites = Sites::new(vec![Reply::Silent, Reply::ok(ROBOTS), Reply::ok(ROBOTS)]);
    let urls = [
        sites.url(0, "/a"),
        sites.url(1, "/private/x"),
        sites.url(2, "/public"),
        sites.url(0, "/b"),
    ];
    let input = urls.iter().map(|url| format!("{url}\n")).collect();
    (sites, input, urls)
}

#[test]
fn unordered_rows_of_healthy_sites_pass_a_hanging_one() {
    let (_sites, input, urls) = hanging_then_healthy();
    let started = Instant::now();
    let mut child = Harness::LOOPBACK
        .command(&[
            "batch",
            "--unordered",
            "--format",
            "json",
            "--timeout",
            "4",
            "ExampleBot",
        ])
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut rows = Vec::new();
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 {
        let row: serde_json::Value = serde_json::from_str(&line).unwrap();
        rows.push((started.elapsed(), row));
        line.clear();
    }
    assert_eq!(child.wait().unwrap().code(), Some(1));
    let order: Vec<(&str, u64)> = rows
        .iter()
        .map(|(_, row)| (row["url"].as_str().unwrap(), row["line"].as_u64().unwrap()))
        .collect();
    // The healthy sites' rows first, as soon as they are decided, each with its input line;
    // the silent site's rows after its deadline, unreachable.
    let mut early = order[..2].to_vec();
    early.sort_unstable_by_key(|(_, line)| *line);
    assert_eq!(early, [(&*urls[1], 2), (&*urls[2], 3)], "{rows:?}");
    let mut late = order[2..].to_vec();
    late.sort_unstable_by_key(|(_, line)| *line);
    assert_eq!(late, [(&*urls[0], 1), (&*urls[3], 4)], "{rows:?}");
    for (took, _) in &rows[..2] {
        assert!(*took < Duration::from_secs(3), "{rows:?}");
    }
    for (_, row) in &rows[2..] {
        assert_eq!(row["access"], "unreachable", "{row}");
    }
    assert!(started.elapsed() < Duration::from_secs(4 + 5), "{rows:?}");
}

#[test]
fn in_order_a_hanging_origin_holds_back_later_rows_at_most_its_timeout() {
    let (sites, input, urls) = hanging_then_healthy();
    let started = Instant::now();
    let out = run(&["batch", "--timeout", "2", "ExampleBot"], input.as_bytes());
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2 + 5), "{took:?}");
    assert_eq!(
        out.lines(),
        [
            format!("disallowed\t{}", urls[0]),
            format!("disallowed\t{}", urls[1]),
            format!("allowed\t{}", urls[2]),
            format!("disallowed\t{}", urls[3]),
        ]
    );
    assert_eq!(sites.hits(0), 1);
    // Four lines, one origin: counted apart.
    assert_eq!(
        out.stderr,
        "robotrules: 4 lines: 1 allowed, 3 disallowed, 0 errors (1 origin failed)\n"
    );
}

#[test]
fn in_order_more_hanging_origins_than_slots_keep_their_turn_and_say_why_rows_wait() {
    // Three silent origins and one fetch slot: the third is asked only when the second gives
    // up, two deadlines after its row was read. It is not cut short (it was never asked), and
    // the wait past --timeout is explained once, with the remedies.
    let sites = Sites::new(vec![
        Reply::Silent,
        Reply::Silent,
        Reply::Silent,
        Reply::ok(ROBOTS),
    ]);
    let urls: Vec<String> = (0..4).map(|site| sites.url(site, "/public")).collect();
    let input: String = urls.iter().map(|url| format!("{url}\n")).collect();
    let out = run(
        &[
            "batch",
            "--timeout",
            "1",
            "--concurrency",
            "1",
            "ExampleBot",
        ],
        input.as_bytes(),
    );
    assert_eq!(
        out.lines(),
        [
            format!("disallowed\t{}", urls[0]),
            format!("disallowed\t{}", urls[1]),
            format!("disallowed\t{}", urls[2]),
            format!("allowed\t{}", urls[3]),
        ]
    );
    for site in 0..4 {
        assert_eq!(sites.hits(site), 1, "site {site}");
    }
    let warnings: Vec<&str> = out
        .stderr
        .lines()
        .filter(|line| line.starts_with("robotrules: warning:"))
        .collect();
    assert_eq!(
        warnings,
        [
            "robotrules: warning: rows are held back longer than --timeout (1 s): the one fetch \
          slot is busy with slow sites, and the next origin waits its turn; --unordered writes \
          the other rows at once, and a higher --concurrency gives more slots"
        ],
        "{out:?}"
    );
    assert!(
        out.stderr.ends_with(
            "robotrules: 4 lines: 1 allowed, 3 disallowed, 0 errors (3 origins failed)\n"
        ),
        "{out:?}"
    );
}

#[test]
fn json_rows_carry_their_input_line_in_either_order() {
    let sites = Sites::new(vec![Reply::ok(ROBOTS)]);
    let input = format!(
        "{}\n# a comment\n\n{}\n",
        sites.url(0, "/private/x"),
        sites.url(0, "/public")
    );
    for mode in [&[][..], &["--unordered"][..]] {
        let mut args = vec!["batch", "--format", "json"];
        args.extend_from_slice(mode);
        args.push("ExampleBot");
        let out = run(&args, input.as_bytes());
        let mut lines: Vec<u64> = out
            .stdout
            .lines()
            .map(|row| {
                serde_json::from_str::<serde_json::Value>(row).unwrap()["line"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        lines.sort_unstable();
        assert_eq!(lines, [1, 4], "{mode:?} {out:?}");
    }
}

#[test]
fn the_error_summary_counts_lines_and_origins_apart() {
    let sites = Sites::new(vec![Reply::ok(ROBOTS), Reply::status(503)]);
    let mut input = String::new();
    for i in 0..1000 {
        input.push_str(&sites.url(0, &format!("/public/{i}")));
        input.push('\n');
        input.push_str(&sites.url(1, &format!("/{i}")));
        input.push('\n');
    }
    input.push_str("not a url\nnor this\n");
    for mode in [&[][..], &["--unordered"][..]] {
        let mut args = mode.to_vec();
        args.insert(0, "batch");
        args.push("ExampleBot");
        let out = run(&args, input.as_bytes());
        out.assert_one_line_error(
            "2,002 lines: 1,000 allowed, 1,000 disallowed, 2 errors (1 origin failed)",
        );
        assert_eq!(out.lines().len(), 2002);
    }
}
