//! End-to-end tests of `robotrules diff`: the edits a site owner makes before deploying a new
//! robots.txt (a rule added or removed, a misspelt group line, a reordered file, a widened
//! wildcard), URL mode, JSON Lines, exit statuses, and an OLD file fetched from a loopback
//! server.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use robotrules_testserver::http::Reply;

use crate::support::{run, run_loopback, Fixture, Run, Sites};

/// `robotrules diff ARGS… OLD NEW AGENTS…` on two files holding `old` and `new`.
fn diff(options: &[&str], old: &str, new: &str, agents: &[&str]) -> Run {
    let (old, new) = (Fixture::new(old.as_bytes()), Fixture::new(new.as_bytes()));
    let mut args = vec!["diff"];
    args.extend(options);
    args.extend([old.path(), new.path()]);
    args.extend(agents);
    run(&args, b"")
}

/// Every line of standard output as JSON; the last is the summary.
fn records(run: &Run) -> Vec<serde_json::Value> {
    run.stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn an_added_disallow_is_shown_on_its_own_path_with_its_line() {
    let r = diff(
        &[],
        "User-agent: *\nDisallow: /private/\n",
        "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n",
        &["ExampleBot"],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.lines(),
        ["ExampleBot (rfc9309): /tmp/ was allowed (no rule), now disallowed by line 3: Disallow: /tmp/"]
    );
    assert!(r.stderr.contains("1 change"), "{r:?}");
}

#[test]
fn a_removed_allow_names_the_rule_that_decides_now() {
    let r = diff(
        &[],
        "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n",
        "User-agent: *\nDisallow: /private/\n",
        &[],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.lines(),
        [
            "ExampleBot (rfc9309): /private/press/ was allowed by line 3: Allow: /private/press/, \
          now disallowed by line 2: Disallow: /private/"
        ]
    );
}

/// `User agent` (a space for the dash) is a spelling Google's library accepts and RFC 9309
/// does not: under rfc9309 Googlebot loses its group (and its rules join the `*` group), under
/// google nothing changes.
#[test]
fn a_group_renamed_by_a_typo_differs_by_profile() {
    let old = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n";
    let new = "User-agent: *\nDisallow: /private/\n\nUser agent: Googlebot\nDisallow: /nogoogle/\n";
    let rfc = diff(&["--profile", "rfc9309"], old, new, &["Googlebot"]);
    assert_eq!(rfc.code, 1, "{rfc:?}");
    let lines = rfc.lines();
    assert!(
        lines.iter().any(|l| l.starts_with(
            "Googlebot (rfc9309): /private/ was allowed (no rule), now disallowed by line 2: \
             Disallow: /private/ (before: the group at line 4; now: the * group at line 1"
        )),
        "{rfc:?}"
    );
    let google = diff(&["--profile", "google"], old, new, &["Googlebot"]);
    assert_eq!((google.code, google.stdout.as_str()), (0, ""), "{google:?}");

    let all = diff(&["--profile", "all", "--format", "json"], old, new, &[]);
    assert_eq!(all.code, 1, "{all:?}");
    let records = records(&all);
    let profiles: Vec<&str> = records
        .iter()
        .filter_map(|r| r["profile"].as_str())
        .collect();
    assert!(profiles.contains(&"rfc9309"), "{all:?}");
    assert!(!profiles.contains(&"google"), "{all:?}");
}

#[test]
fn under_all_profiles_each_crawler_is_counted_once() {
    let old = "User-agent: Googlebot\nDisallow: /a\n";
    let new = "User-agent: Googlebot\nDisallow: /b\n";
    let agents = ["Googlebot", "Bingbot"];
    let r = diff(&["--profile", "all"], old, new, &agents);
    assert_eq!(r.lines().len(), 6, "{r:?}");
    assert_eq!(
        r.stderr, "6 changes (2 crawlers, under rfc9309, google, legacy1994)\n",
        "{r:?}"
    );
    let json = diff(&["--profile", "all", "--format", "json"], old, new, &agents);
    let records = records(&json);
    let summary = &records.last().unwrap()["summary"];
    assert_eq!(
        summary["agents"],
        serde_json::json!(["Googlebot", "Bingbot"])
    );
    assert_eq!(
        summary["profiles"],
        serde_json::json!(["rfc9309", "google", "legacy1994"])
    );
}

#[test]
fn a_reordered_file_changes_nothing() {
    let old = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\nDisallow: /*.gif$\n\n\
               User-agent: FooBot\nDisallow: /foo\n";
    let new = "User-agent: FooBot\nDisallow: /foo\n\n\
               User-agent: *\nDisallow: /*.gif$\nAllow: /private/press/\nDisallow: /private/\n";
    let r = diff(&[], old, new, &[]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    assert!(r.stderr.starts_with("no change"), "{r:?}");
    let json = diff(&["--format", "json"], old, new, &[]);
    assert_eq!(json.code, 0, "{json:?}");
    let records = records(&json);
    assert_eq!(records.len(), 1, "{json:?}");
    assert_eq!(records[0]["summary"]["changes"], 0);
    assert_eq!(
        records[0]["summary"]["agents"],
        serde_json::json!(["FooBot", "ExampleBot"])
    );
}

#[test]
fn a_widened_wildcard_is_shown_on_a_path_only_the_new_pattern_matches() {
    let r = diff(
        &[],
        "User-agent: *\nDisallow: /a/*.pdf\n",
        "User-agent: *\nDisallow: /*.pdf\n",
        &["ExampleBot"],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.lines(),
        ["ExampleBot (rfc9309): /x.pdf was allowed (no rule), now disallowed by line 2: Disallow: /*.pdf"]
    );
}

#[test]
fn url_mode_prints_only_the_urls_whose_verdict_changes() {
    let old = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n";
    let new = "User-agent: *\nDisallow: /private/\n";
    let (old, new) = (Fixture::new(old.as_bytes()), Fixture::new(new.as_bytes()));
    let args = |extra: &[&'static str]| {
        let mut args = vec!["diff", "--url", "https://example.com/private/press/2024"];
        args.extend(extra);
        args
    };
    let mut a = args(&["--url", "/about"]);
    a.extend([old.path(), new.path(), "ExampleBot", "Googlebot"]);
    let r = run(&a, b"");
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.lines(),
        [
            "ExampleBot (rfc9309): https://example.com/private/press/2024 was allowed by line 3: \
             Allow: /private/press/, now disallowed by line 2: Disallow: /private/",
            "Googlebot (rfc9309): https://example.com/private/press/2024 was allowed by line 3: \
             Allow: /private/press/, now disallowed by line 2: Disallow: /private/",
        ]
    );
    assert!(r.stderr.contains("2 changes (2 crawlers, 2 URLs"), "{r:?}");

    // From standard input, with --urls-from-stdin: blank and `#` lines skipped.
    let r = run(
        &[
            "diff",
            "--urls-from-stdin",
            "--format",
            "json",
            old.path(),
            new.path(),
            "ExampleBot",
        ],
        b"# urls\n/about\n\n/private/press/x\n",
    );
    assert_eq!(r.code, 1, "{r:?}");
    let records = records(&r);
    assert_eq!(records.len(), 2, "{r:?}");
    assert_eq!(records[0]["kind"], "url");
    assert_eq!(records[0]["url"], "/private/press/x");
    assert_eq!(records[0]["before"]["decided_by"]["line"], 3);
    assert_eq!(records[0]["after"]["decided_by"]["line"], 2);
    assert_eq!(records[0]["after"]["allowed"], false);
    assert_eq!(records[1]["summary"]["urls"], 2);
    assert_eq!(records[1]["summary"]["mode"], "url");

    // A URL that changes nothing: exit 0.
    let r = run(&["diff", "--url", "/about", old.path(), new.path()], b"");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
}

#[test]
fn json_lines_are_valid_and_end_with_a_summary() {
    let r = diff(
        &["--format", "json", "--profile", "all"],
        "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n",
        "User-agent: *\nDisallow: /private/\nDisallow: /\x1b]0;pwned\x07x\n",
        &[],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        !r.stdout.contains('\x1b') && !r.stdout.contains('\x07'),
        "{r:?}"
    );
    let records = records(&r);
    let (summary, changes) = records.split_last().unwrap();
    assert!(!changes.is_empty());
    for change in changes {
        assert_eq!(change["kind"], "rule", "{change}");
        assert!(change["witness"].as_str().unwrap().starts_with('/'));
        assert!(change["before"]["allowed"].is_boolean());
        assert!(change["after"]["allowed"].is_boolean());
    }
    assert_eq!(summary["summary"]["changes"], changes.len());
    assert_eq!(
        summary["summary"]["profiles"],
        serde_json::json!(["rfc9309", "google", "legacy1994"])
    );
}

#[test]
fn text_rows_escape_control_characters_from_the_files() {
    let r = diff(
        &["--profile", "google"],
        "User-agent: *\nDisallow: /private/\n",
        "User-agent: *\nDisallow: /\x1b[2Jx\r\n",
        &["ExampleBot"],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        !r.stdout.bytes().any(|b| b.is_ascii_control() && b != b'\n'),
        "{r:?}"
    );
    assert!(r.stdout.contains("<U+001B>"), "{r:?}");
}

#[test]
fn usage_and_input_errors_exit_2_with_one_line() {
    let file = Fixture::new(b"User-agent: *\nDisallow: /x\n");
    run(&["diff", "-", "-"], b"").assert_error("standard input can hold only one");
    run(&["diff", "--urls-from-stdin", "-", file.path()], b"")
        .assert_error("standard input can hold only one");
    run(&["diff", file.path()], b"").assert_error("missing argument");
    run(&["diff", "/no/such/file", file.path()], b"").assert_error("cannot read robots.txt");
    run(
        &["diff", "--profile", "bing", file.path(), file.path()],
        b"",
    )
    .assert_error("bing");
    run(&["diff", file.path(), file.path(), "Example Bot"], b"")
        .assert_error("invalid crawler name");
    run(
        &["diff", "--url", "no-slash", file.path(), file.path()],
        b"",
    )
    .assert_error("cannot read URL");
    // The one-side `-` is read from standard input.
    let r = run(
        &["diff", "-", file.path(), "ExampleBot"],
        b"User-agent: *\nDisallow: /\n",
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .contains("was disallowed by line 2: Disallow: /, now allowed"),
        "{r:?}"
    );
}

#[test]
fn help_has_an_example_and_the_exit_status() {
    let r = run(&["diff", "--help"], b"");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("Examples:\n  robotrules diff"), "{r:?}");
    assert!(
        r.stdout.contains("Exit status: 0 when nothing changes, 1"),
        "{r:?}"
    );
}

#[test]
fn a_remote_old_file_is_fetched_from_its_site() {
    let sites = Sites::new(vec![
        Reply::ok("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n"),
        Reply::status(404),
        Reply::status(503),
    ]);
    let new = Fixture::new(b"User-agent: *\nDisallow: /private/\n");
    let old = sites.url(0, "/robots.txt");
    let r = run_loopback(
        &["diff", "--timeout", "5", &old, new.path(), "ExampleBot"],
        b"",
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.lines(),
        [
            "ExampleBot (rfc9309): /private/press/ was allowed by line 3: Allow: /private/press/, \
          now disallowed by line 2: Disallow: /private/"
        ]
    );
    assert_eq!(sites.hits(0), 1);

    // No robots.txt (404) allows every URL: compared as an empty file.
    let missing = sites.url(1, "/robots.txt");
    let r = run_loopback(
        &["diff", "--timeout", "5", &missing, new.path(), "ExampleBot"],
        b"",
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.lines(),
        ["ExampleBot (rfc9309): /private/ was allowed (no group applies), now disallowed by line \
          2: Disallow: /private/ (before: no group; now: the * group at line 1, no group naming \
          ExampleBot)"]
    );
    assert!(
        r.stderr.starts_with("robotrules: note: no robots.txt at "),
        "{r:?}"
    );
    assert!(
        r.stderr
            .contains("(HTTP status 404): compared as an empty file"),
        "{r:?}"
    );

    // An unreachable robots.txt has no rules to compare: an input error.
    let down = sites.url(2, "/robots.txt");
    run_loopback(&["diff", "--timeout", "5", &down, new.path()], b"").assert_error("unreachable");
}
