//! End-to-end tests of the `robotrules` binary: output lines, exit statuses, and one-line
//! errors, run as a user would run it (arguments, files, standard input).

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};

use rstest::rstest;

use crate::support::{run, Fixture, Harness};

/// The file most tests read: a `*` group with an allow inside a disallowed folder and a
/// wildcard rule, and a group of its own for FooBot.
const ROBOTS: &[u8] = b"# test file
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.gif$

User-agent: FooBot
Disallow: /foo
";

fn example_robots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/robots.txt")
}

#[rstest]
#[case("ExampleBot", "https://example.com/", "allowed", 0)]
#[case("ExampleBot", "https://example.com/private/x", "disallowed", 1)]
#[case("ExampleBot", "https://example.com/private/press/1", "allowed", 0)]
#[case("ExampleBot", "/a/b.gif", "disallowed", 1)]
#[case("ExampleBot", "/a/b.gif?x", "allowed", 0)]
#[case("FooBot", "/private/x", "allowed", 0)]
#[case("foobot", "/foo/bar", "disallowed", 1)]
fn one_url_one_line(
    #[case] agent: &str,
    #[case] url: &str,
    #[case] verdict: &str,
    #[case] code: i32,
) {
    let robots = Fixture::new(ROBOTS);
    let out = run(&["check", robots.path(), agent, url], b"");
    assert_eq!(out.stdout, format!("{verdict}\t{url}\n"));
    assert_eq!(out.stderr, "");
    assert_eq!(out.code, code);
}

#[test]
fn several_urls_keep_their_order_and_any_disallowed_gives_1() {
    let robots = Fixture::new(ROBOTS);
    let urls = ["/a", "/private/x", "/b"];
    let out = run(
        &[
            "check",
            robots.path(),
            "ExampleBot",
            urls[0],
            urls[1],
            urls[2],
        ],
        b"",
    );
    assert_eq!(
        out.lines(),
        ["allowed\t/a", "disallowed\t/private/x", "allowed\t/b"]
    );
    assert_eq!(out.code, 1);

    let out = run(&["check", robots.path(), "ExampleBot", "/a", "/b"], b"");
    assert_eq!(out.lines(), ["allowed\t/a", "allowed\t/b"]);
    assert_eq!(out.code, 0);
}

#[rstest]
#[case(
    "ExampleBot",
    "/private/x",
    "disallowed\t/private/x\t3\tdisallow: /private/"
)]
#[case(
    "ExampleBot",
    "/private/press/a",
    "allowed\t/private/press/a\t4\tallow: /private/press/"
)]
#[case("ExampleBot", "/x.gif", "disallowed\t/x.gif\t5\tdisallow: /*.gif$")]
#[case("ExampleBot", "/public", "allowed\t/public\t-\tno-matching-rule")]
#[case(
    "ExampleBot",
    "/robots.txt",
    "allowed\t/robots.txt\t-\trobots-txt-implicitly-allowed"
)]
#[case("FooBot", "/foo", "disallowed\t/foo\t8\tdisallow: /foo")]
fn explain_adds_the_line_and_the_rule_or_the_reason(
    #[case] agent: &str,
    #[case] url: &str,
    #[case] line: &str,
) {
    let robots = Fixture::new(ROBOTS);
    let out = run(&["check", "--explain", robots.path(), agent, url], b"");
    assert_eq!(out.lines(), [line]);
    assert_eq!(out.stderr, "");
}

#[test]
fn explain_says_no_group_when_nothing_applies() {
    let robots = Fixture::new(b"User-agent: FooBot\nDisallow: /\n");
    let out = run(&["check", "--explain", robots.path(), "BarBot", "/x"], b"");
    assert_eq!(out.lines(), ["allowed\t/x\t-\tno-group"]);
    assert_eq!(out.code, 0);
}

#[test]
fn json_is_one_object_per_line() {
    let robots = Fixture::new(ROBOTS);
    let out = run(
        &[
            "check",
            "--format",
            "json",
            robots.path(),
            "ExampleBot",
            "/private/x",
            "/a",
        ],
        b"",
    );
    assert_eq!(out.code, 1);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .iter()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(
        objects,
        [
            serde_json::json!({"url": "/private/x", "verdict": "disallowed", "allowed": false,
                "profile": "rfc9309", "reason": "rule-matched",
                "decided_by": {"line": 3, "kind": "disallow", "pattern": "/private/"}}),
            serde_json::json!({"url": "/a", "verdict": "allowed", "allowed": true,
                "profile": "rfc9309", "reason": "no-matching-rule"}),
        ]
    );
}

#[test]
fn json_with_explain_carries_the_explanation() {
    let robots = Fixture::new(ROBOTS);
    let out = run(
        &[
            "check",
            "--format=json",
            "--explain",
            "--profile=google",
            robots.path(),
            "ExampleBot",
            "https://example.com/private/press/1",
            "/elsewhere",
        ],
        b"",
    );
    assert_eq!(out.code, 0);
    let lines = out.lines();
    assert_eq!(lines.len(), 2);
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["url"], "https://example.com/private/press/1");
    assert_eq!(first["allowed"], true);
    assert_eq!(first["profile"], "google");
    let why = &first["explanation"];
    assert_eq!(why["reason"], "rule-matched");
    assert_eq!(why["path"], "/private/press/1");
    assert_eq!(why["decided_by"]["line"], 4);
    assert_eq!(why["decided_by"]["kind"], "allow");
    assert_eq!(why["decided_by"]["pattern"], "/private/press/");
    assert_eq!(why["matches"].as_array().unwrap().len(), 2);
    let second: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(second["explanation"]["reason"], "no-matching-rule");
    assert!(second["explanation"]["decided_by"].is_null());
}

#[test]
fn urls_come_from_stdin_when_none_are_given() {
    let robots = Fixture::new(ROBOTS);
    let stdin = b"/a\r\n\n   \n/private/x\n  https://example.com/b.gif  \n/last";
    let out = run(&["check", robots.path(), "ExampleBot"], stdin);
    assert_eq!(
        out.lines(),
        [
            "allowed\t/a",
            "disallowed\t/private/x",
            "disallowed\thttps://example.com/b.gif",
            "allowed\t/last",
        ]
    );
    assert_eq!(out.code, 1);
}

#[test]
fn no_urls_on_stdin_means_nothing_to_report() {
    let robots = Fixture::new(ROBOTS);
    let out = run(&["check", robots.path(), "ExampleBot"], b"\n\n");
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "");
    assert_eq!(out.code, 0);
}

#[test]
fn robots_from_stdin() {
    let out = run(&["check", "-", "ExampleBot", "/private/x", "/a"], ROBOTS);
    assert_eq!(out.lines(), ["disallowed\t/private/x", "allowed\t/a"]);
    assert_eq!(out.code, 1);
}

/// A file on which the three profiles disagree.
const PROFILES: &[u8] = b"User-agent: *
Disallow: /a
Allow: /a/b
Disallow: /*.gif$
Disallow: /
Allow: /public
";

#[rstest]
#[case("rfc9309", "/a/b", "allowed")]
#[case("google", "/a/b", "allowed")]
#[case("legacy1994", "/a/b", "disallowed")] // first matching rule in file order
#[case("rfc9309", "/public", "allowed")]
#[case("google", "/public", "allowed")]
#[case("legacy1994", "/public", "disallowed")]
#[case("rfc9309", "/robots.txt", "allowed")] // RFC 9309 §2.2.2
#[case("google", "/robots.txt", "disallowed")]
#[case("legacy1994", "/robots.txt", "disallowed")]
#[case("RFC9309", "/a/c", "disallowed")]
fn every_profile(#[case] profile: &str, #[case] url: &str, #[case] verdict: &str) {
    let robots = Fixture::new(PROFILES);
    let out = run(
        &["check", "--profile", profile, robots.path(), "Bot", url],
        b"",
    );
    assert_eq!(out.lines(), [format!("{verdict}\t{url}")]);
    assert_eq!(out.code, if verdict == "allowed" { 0 } else { 1 });
}

#[rstest]
#[case("/x.gif", "disallowed", "allowed")]
#[case("/*.gif$", "allowed", "disallowed")]
fn wildcards_are_literal_in_legacy1994(
    #[case] url: &str,
    #[case] rfc9309: &str,
    #[case] legacy1994: &str,
) {
    let robots = Fixture::new(b"User-agent: *\nDisallow: /*.gif$\n");
    for (profile, verdict) in [("rfc9309", rfc9309), ("legacy1994", legacy1994)] {
        let out = run(
            &["check", "--profile", profile, robots.path(), "Bot", url],
            b"",
        );
        assert_eq!(out.lines(), [format!("{verdict}\t{url}")], "{profile}");
    }
}

#[test]
fn google_reads_any_agent_and_any_url() {
    let robots = Fixture::new(b"User-agent: *\nDisallow: /example.com\n");
    let out = run(
        &[
            "check",
            "--profile",
            "google",
            robots.path(),
            "Example Bot/1.0",
            "example.com/a",
            "",
        ],
        b"",
    );
    // The name is read as Google's library reads it, with one warning.
    assert_eq!(
        out.stderr,
        "robotrules: warning: Google's library reads only the letters, `_` and `-` a \
         user-agent line starts with (`User-agent: Example Bot/1.0` names `Example`), so no \
         group names \"Example Bot/1.0\": it gets the `*` group at line 1; pass `ExampleBot`, \
         which gets the `*` group at line 1\n"
    );
    // Google's reading takes `example.com` as the host (path `/a`) and "" as `/`, so the
    // `/example.com` rule matches neither: both allowed, with the `*` group for the
    // non-token agent name.
    assert_eq!(out.lines(), ["allowed\texample.com/a", "allowed\t"]);
    assert_eq!(out.code, 0);
}

#[test]
fn legacy1994_takes_any_agent_name() {
    let robots = Fixture::new(b"User-agent: Example Bot\nDisallow: /\n");
    let out = run(
        &[
            "check",
            "--profile",
            "legacy1994",
            robots.path(),
            "Example Bot/1.0",
            "/x",
        ],
        b"",
    );
    assert_eq!(out.lines(), ["disallowed\t/x"]);
    assert_eq!(out.code, 1);
}

#[rstest]
#[case::missing_agent(&["check", "ROBOTS"], "missing argument AGENT (usage: robotrules check <ROBOTS> <AGENT> [URL]...)")]
#[case::missing_both(&["check"], "missing arguments ROBOTS AGENT")]
#[case::missing_command(&[], "missing command")]
#[case::unknown_command(&["chek"], "'chek'")]
#[case::unknown_profile(&["check", "--profile", "bing", "R", "Bot", "/"], "'bing'")]
#[case::unknown_format(&["check", "--format", "yaml", "R", "Bot", "/"], "'yaml'")]
#[case::unknown_option(&["check", "--verbos", "R", "Bot", "/"], "'--verbos'")]
#[case::profile_without_value(&["check", "R", "Bot", "/", "--profile"], "--profile")]
#[case::unreadable_file(&["check", "/nonexistent/robots.txt", "Bot", "/"], "cannot read robots.txt \"/nonexistent/robots.txt\"")]
#[case::directory(&["check", "/", "Bot", "/"], "cannot read robots.txt \"/\"")]
#[case::url_without_host(&["check", "http://", "Bot", "/"], "cannot fetch robots.txt for \"http://\"")]
#[case::stdin_twice(&["check", "-", "Bot"], "standard input")]
fn usage_and_input_errors(#[case] args: &[&str], #[case] fragment: &str) {
    run(args, b"").assert_error(fragment);
}

#[rstest]
#[case::space("Example Bot")]
#[case::version("ExampleBot/1.0")]
#[case::dot("Bot.2")]
#[case::empty("")]
#[case::newline("Bad\nBot")]
fn invalid_agent_in_rfc9309(#[case] agent: &str) {
    let robots = Fixture::new(ROBOTS);
    run(&["check", robots.path(), agent, "/"], b"").assert_error("invalid crawler name");
}

#[test]
fn the_error_shows_the_token_to_pass_and_digits_are_fine() {
    let robots = Fixture::new(ROBOTS);
    run(&["check", robots.path(), "ExampleBot/1.0", "/"], b"").assert_error("pass `ExampleBot`");
    for agent in ["MJ12bot", "AI2Bot", "360Spider"] {
        let out = run(&["check", robots.path(), agent, "/"], b"");
        assert_eq!(out.code, 0, "{agent}: {out:?}");
    }
}

#[rstest]
#[case::relative("example.com/a", "rfc9309")]
#[case::empty("", "rfc9309")]
#[case::no_host("file:///etc/passwd", "rfc9309")]
#[case::no_authority("mailto:someone@example.com", "legacy1994")]
#[case::bad_port("http://example.com:99999/", "legacy1994")]
#[case::space_in_host("http://exa mple.com/", "rfc9309")]
fn unreadable_urls(#[case] url: &str, #[case] profile: &str) {
    let robots = Fixture::new(ROBOTS);
    let out = run(
        &[
            "check",
            "--profile",
            profile,
            robots.path(),
            "Bot",
            "/ok",
            url,
            "/private/x",
        ],
        b"",
    );
    // The unreadable URL is an error row; the others are answered; exit 2 and one line on
    // standard error.
    assert_eq!(out.lines().len(), 3, "{out:?}");
    assert_eq!(out.lines()[0], "allowed\t/ok");
    assert!(
        out.lines()[1].starts_with(&format!(
            "error\t{}\tcannot read URL",
            url.replace('\t', "<U+0009>")
        )),
        "{out:?}"
    );
    assert_eq!(out.lines()[2], "disallowed\t/private/x");
    out.assert_one_line_error("1 line could not be checked");
}

#[test]
fn line_breaks_and_tabs_in_a_url_do_not_break_the_columns() {
    // The google profile reads any string, tabs and line breaks included.
    let robots = Fixture::new(ROBOTS);
    let out = run(
        &[
            "check",
            "--explain",
            "--profile",
            "google",
            robots.path(),
            "Bot",
            "/pri\tvate\n/",
        ],
        b"",
    );
    assert_eq!(
        out.lines(),
        ["allowed\t/pri<U+0009>vate<U+000A>/\t-\tno-matching-rule"]
    );
}

#[test]
fn a_tab_in_a_url_argument_reads_the_same_in_its_column_and_its_message() {
    let robots = Fixture::new(ROBOTS);
    let out = run(&["check", robots.path(), "Bot", "exa\tmple.com/a"], b"");
    assert_eq!(
        out.lines(),
        [
            "error\texa<U+0009>mple.com/a\tcannot read URL \"exa<U+0009>mple.com/a\": not an \
          absolute url, nor a path starting with `/`"
        ]
    );
    // The row is for an argument: no `line N:` of an input it was not read from.
    assert!(!out.stdout.contains("line 1:"), "{out:?}");
}

#[test]
fn a_bad_line_on_stdin_is_an_error_row_and_the_rest_go_on() {
    let robots = Fixture::new(ROBOTS);
    let out = run(
        &["check", robots.path(), "Bot"],
        b"/a\nnot-a-url\n# a comment\n\n/b\x00c\n/\xff\n/b\n",
    );
    assert_eq!(
        out.lines(),
        [
            "allowed\t/a",
            "error\tnot-a-url\tline 2: cannot read URL \"not-a-url\": not an absolute url, nor a \
             path starting with `/`",
            "error\t/b<U+0000>c\tline 5: control character U+0000 in the line",
            "error\t/\u{fffd}\tline 6: the line is not UTF-8",
            "allowed\t/b",
        ]
    );
    out.assert_one_line_error("3 lines could not be checked");
}

#[test]
fn help_is_full_and_exits_0() {
    for args in [&["--help"][..], &["check", "--help"], &["help", "check"]] {
        let out = run(args, b"");
        assert_eq!(out.code, 0, "{args:?}");
        assert!(out.stdout.lines().count() > 5, "{args:?}");
        assert!(out.stdout.contains("Usage: robotrules"), "{args:?}");
        assert_eq!(out.stderr, "");
    }
}

#[test]
fn every_command_is_named_in_the_help_with_the_usage_clap_generates() {
    let top = run(&["--help"], b"");
    for command in [
        "check",
        "batch",
        "lint",
        "explain",
        "fetch",
        "diff",
        "show",
        "cache",
        "serve",
        "survey",
        "completions",
    ] {
        assert!(
            top.stdout
                .lines()
                .any(|line| line.trim_start().starts_with(command)),
            "{command} in:\n{}",
            top.stdout
        );
    }
    let about = top
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("cache"));
    for sub in ["show", "list", "stats", "purge"] {
        assert!(about.is_some_and(|l| l.contains(sub)), "{about:?}");
    }
    let cache = run(&["cache", "--help"], b"");
    for sub in ["show", "list", "stats", "purge"] {
        assert!(
            cache
                .stdout
                .lines()
                .any(|l| l.trim_start().starts_with(sub)),
            "{sub} in:\n{}",
            cache.stdout
        );
    }
    // clap's own usage line, from the arguments as declared.
    let check = run(&["check", "--help"], b"");
    assert!(
        check
            .stdout
            .contains("Usage: robotrules check [OPTIONS] <ROBOTS> <AGENT> [URL]..."),
        "{}",
        check.stdout
    );
}

#[test]
fn an_empty_file_allows_everything() {
    let robots = Fixture::new(b"");
    let out = run(
        &["check", "--explain", robots.path(), "Bot", "/", "/x"],
        b"",
    );
    assert_eq!(
        out.lines(),
        ["allowed\t/\t-\tno-group", "allowed\t/x\t-\tno-group"]
    );
    assert_eq!(out.code, 0);
}

#[test]
fn a_binary_file_with_invalid_utf8_is_read_as_far_as_it_goes() {
    let mut content = b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe garbage \xc3\x28\n".to_vec();
    content.extend_from_slice(b"User-agent: *\nDisallow: /x\xff\n\x00\x01\x02");
    let robots = Fixture::new(&content);
    let out = run(&["check", robots.path(), "Bot", "/x%FF", "/y"], b"");
    assert_eq!(out.stderr, "");
    assert_eq!(out.lines(), ["disallowed\t/x%FF", "allowed\t/y"]);
    assert_eq!(out.code, 1);
}

const FIVE_MB: usize = 5 * 1024 * 1024;

#[test]
fn a_5_mb_single_line_file_answers() {
    let mut content = b"Disallow: /".to_vec();
    content.resize(FIVE_MB, b'a');
    let robots = Fixture::new(&content);
    let out = run(&["check", "--explain", robots.path(), "Bot", "/a"], b"");
    // The one line crosses the parse limit, so nothing was read, and the row says so.
    assert_eq!(
        out.lines(),
        ["allowed\t/a\t-\tno-group; file cut at byte 0 by the parse limit (RFC 9309 §2.5)"]
    );
    assert_eq!(out.code, 0);
}

#[test]
fn rules_before_a_5_mb_line_still_apply() {
    let mut content = b"User-agent: *\nDisallow: /x\nDisallow: /".to_vec();
    content.resize(FIVE_MB, b'a');
    let robots = Fixture::new(&content);
    let out = run(&["check", robots.path(), "Bot", "/x", "/y"], b"");
    assert_eq!(out.lines(), ["disallowed\t/x", "allowed\t/y"]);

    // The same from standard input, which the binary stops reading at the parse limit.
    let out = run(&["check", "-", "Bot", "/x", "/y"], &content);
    assert_eq!(out.lines(), ["disallowed\t/x", "allowed\t/y"]);
    assert_eq!(out.code, 1);
}

#[test]
fn rules_past_the_parse_limit_are_ignored() {
    let mut content = b"User-agent: *\nDisallow: /x\n".to_vec();
    content.resize(FIVE_MB, b'\n');
    content.extend_from_slice(b"Disallow: /y\n");
    let robots = Fixture::new(&content);
    let out = run(&["check", robots.path(), "Bot", "/x", "/y"], b"");
    assert_eq!(out.lines(), ["disallowed\t/x", "allowed\t/y"]);
}

#[test]
fn show_and_check_say_where_the_file_was_cut() {
    let mut content = b"User-agent: *\nDisallow: /x\n".to_vec();
    while content.len() < FIVE_MB {
        content.extend_from_slice(b"Disallow: /more\n");
    }
    let robots = Fixture::new(&content);
    let cut =
        "the file was cut at byte 511995 by the parse limit of 512000 bytes (RFC 9309 §2.5): \
               line 32001 and everything after it were not read";
    // `check` without `--explain`: one line on standard error, the rows as before.
    let out = run(&["check", robots.path(), "Bot", "/x"], b"");
    assert_eq!(out.lines(), ["disallowed\t/x"]);
    assert_eq!(out.stderr, format!("robotrules: note: {cut}\n"), "{out:?}");
    // `show`: in its text and its JSON.
    let out = run(&["show", robots.path(), "Bot"], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.lines()[1], cut, "{out:?}");
    let out = run(&["show", "--format", "json", robots.path(), "Bot"], b"");
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["cut"], cut, "{out:?}");
    // A whole file: nothing said.
    let small = Fixture::new(b"User-agent: *\nDisallow: /x\n");
    let out = run(&["check", small.path(), "Bot", "/x"], b"");
    assert_eq!(out.stderr, "", "{out:?}");
    let out = run(&["show", "--format", "json", small.path(), "Bot"], b"");
    assert!(!out.stdout.contains("\"cut\""), "{out:?}");
}

#[test]
fn a_closed_output_pipe_ends_quietly_with_the_status_so_far() {
    let robots = Fixture::new(ROBOTS);
    let mut child = Harness::default()
        .command(&["check", robots.path(), "Bot"])
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all("/private/x\n".repeat(100_000).as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(String::from_utf8(output.stderr).unwrap(), "");
    assert_eq!(output.status.code(), Some(1));
}

#[rstest]
#[case("Googlebot", "https://example.com/page", "allowed", 0)]
#[case("Googlebot", "https://example.com/drafts/wip.html", "disallowed", 1)]
#[case(
    "Googlebot",
    "https://example.com/drafts/published-1.html",
    "allowed",
    0
)]
#[case("GPTBot", "https://example.com/page", "disallowed", 1)]
#[case(
    "ExampleBot",
    "https://example.com/admin/public/logo.png",
    "allowed",
    0
)]
#[case("ExampleBot", "https://example.com/admin/users", "disallowed", 1)]
#[case("ExampleBot", "https://example.com/report.pdf", "disallowed", 1)]
#[case("Bingbot", "https://example.com/shop/cart/saved", "allowed", 0)]
#[case("DuckDuckBot", "https://example.com/shop/cart/saved", "disallowed", 1)]
fn the_bundled_example(
    #[case] agent: &str,
    #[case] url: &str,
    #[case] verdict: &str,
    #[case] code: i32,
) {
    let example = example_robots();
    let out = run(&["check", example.to_str().unwrap(), agent, url], b"");
    assert_eq!(out.lines(), [format!("{verdict}\t{url}")]);
    assert_eq!(out.code, code);
}
