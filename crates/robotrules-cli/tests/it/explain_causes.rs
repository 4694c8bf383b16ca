//! `robotrules explain --profile all`: "why they differ" names the cause the model found, with
//! its line (issue 18), says nothing on files where the profiles agree, and the parse limit
//! is reported by `explain` and `check --explain` with the rules it left out.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use crate::support::{Fixture, Harness, Run};
use rstest::rstest;

const HARNESS: Harness = Harness {
    no_color: true,
    without_proxies: false,
    lossy: false,
};

fn explain_all(file: &str, agent: &str, url: &str) -> Run {
    let f = Fixture::new(file.as_bytes());
    HARNESS.run(&["explain", "--profile", "all", f.path(), agent, url], b"")
}

/// The bullet points under "why they differ".
fn causes(run: &Run) -> Vec<String> {
    run.stdout
        .split("why they differ:\n")
        .nth(1)
        .map(|rest| {
            rest.lines()
                .take_while(|l| l.starts_with("  - "))
                .map(|l| l.trim_start_matches("  - ").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[rstest]
// A key spelling google accepts and rfc9309 ignores: the line and the spelling, never the token.
#[case::user_agent_spelling(
    "User-agent: *\nAllow: /\n\nUser agent: BadBot\nDisallow: /\n", "BadBot", "/x",
    "line 4: google reads the key `User agent` as `user-agent`; rfc9309 does not accept that spelling and ignores the line"
)]
#[case::disallow_spelling(
    "User-agent: *\nDissallow: /\n",
    "Bot",
    "/x",
    "line 2: google reads the key `Dissallow` as `disallow`; rfc9309 does not accept that spelling"
)]
#[case::missing_colon(
    "User-agent: *\nDisallow /x\n",
    "Bot",
    "/x",
    "line 2: google reads the key `Disallow` as `disallow`; rfc9309 does not accept"
)]
// How the user-agent token is read.
#[case::agent_token(
    "User-agent: MJ12bot\nDisallow: /\n",
    "MJ12bot",
    "/x",
    "line 1 `user-agent: MJ12bot`: rfc9309 reads the token `MJ12bot` and google reads `MJ`"
)]
// Percent-encoding: both forms shown.
#[case::encoding(
    "User-agent: *\nDisallow: /%62\n", "Bot", "/b",
    "line 2 `/%62` matches under rfc9309 only: rfc9309 compares `/b` against the path `/b`; google compares `/%62` against the path `/b`"
)]
#[case::dot_segments(
    "User-agent: *\nDisallow: /b\n",
    "Bot",
    "/a/../b",
    "google compares `/b` against the path `/a/../b`; the URL's path is read differently"
)]
// Precedence.
#[case::precedence(
    "User-agent: *\nDisallow: /a\nAllow: /ab\n", "Bot", "/abc",
    "the rules at line 3 and line 2 both match under each profile, which picks a different one: rfc9309 lets the longest match decide (line 3, length 3); legacy1994 lets the first matching rule in file order decide (line 2)"
)]
// Group selection and merging.
#[case::merging(
    "User-agent: foo\nDisallow: /a\n\nUser-agent: foo\nDisallow: /b\n", "foo", "/b",
    "rfc9309 merges every group that names the crawler (RFC 9309 §2.2.1), legacy1994 uses only the first record"
)]
#[case::substring(
    "User-agent: bot\nDisallow: /\n", "ExampleBot", "/x",
    "legacy1994 applies the group at line 1 (`bot`) (the first record whose user-agent is part of the name)"
)]
#[case::empty_disallow(
    "User-agent: *\nDisallow:\nDisallow: /\n", "Bot", "/x",
    "line 2 is an empty `disallow:`: legacy1994 reads it as allowing everything (1994 convention), rfc9309 matches nothing"
)]
#[case::blank_line_ends_a_record(
    "User-agent: a\n\nUser-agent: b\nDisallow: /\n", "a", "/x",
    "rfc9309 applies the group at line 1 (`a`, `b`) (named by its token); legacy1994 applies the group at line 1 (`a`) (the first record whose user-agent is part of the name): legacy1994 ends a record's user-agent lines at a blank line (1994), rfc9309 ends them only at an allow or disallow line"
)]
fn each_cause_is_named_with_its_line(
    #[case] file: &str,
    #[case] agent: &str,
    #[case] url: &str,
    #[case] expected: &str,
) {
    let run = explain_all(file, agent, url);
    let found = causes(&run);
    assert!(
        found.iter().any(|c| c.contains(expected)),
        "{expected:?} not in {found:#?}\n{}",
        run.stdout
    );
    // No guessed cause beside the real one.
    assert!(!run.stdout.contains("MJ12bot` is `MJ"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("encode patterns and URLs differently"),
        "{}",
        run.stdout
    );
}

const WORDPRESS: &str = "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://example.com/wp-sitemap.xml\n";
const GOOGLE_BASIC: &str = "User-agent: Googlebot\nDisallow: /nogooglebot/\n\nUser-agent: *\nAllow: /\n\nSitemap: https://www.example.com/sitemap.xml\n";

/// Clean files, URLs on which the profiles agree: no "why they differ" section.
#[rstest]
#[case::allow_all("User-agent: *\nAllow: /\n", "ExampleBot", "/x")]
#[case::allow_all_root("User-agent: *\nAllow: /\n", "ExampleBot", "/")]
#[case::disallow_all("User-agent: *\nDisallow: /\n", "ExampleBot", "/x")]
#[case::disallow_all_query("User-agent: *\nDisallow: /\n", "ExampleBot", "/a?b=c")]
#[case::empty("", "ExampleBot", "/x")]
#[case::wordpress_admin(WORDPRESS, "ExampleBot", "/wp-admin/options.php")]
#[case::wordpress_post(WORDPRESS, "ExampleBot", "/2024/01/hello-world/")]
#[case::google_basic_googlebot(GOOGLE_BASIC, "Googlebot", "/nogooglebot/page")]
#[case::google_basic_googlebot_elsewhere(GOOGLE_BASIC, "Googlebot", "/page")]
#[case::google_basic_other(GOOGLE_BASIC, "ExampleBot", "/nogooglebot/page")]
fn clean_files_where_the_profiles_agree_say_nothing_more(
    #[case] file: &str,
    #[case] agent: &str,
    #[case] url: &str,
) {
    let run = explain_all(file, agent, url);
    assert!(run.stdout.contains("the profiles agree"), "{}", run.stdout);
    assert!(!run.stdout.contains("why they differ"), "{}", run.stdout);
}

/// WordPress's `admin-ajax.php` is where first-match and longest-match differ: the one cause
/// is precedence, with both lines.
#[test]
fn wordpress_ajax_differs_by_precedence_only() {
    let run = explain_all(WORDPRESS, "ExampleBot", "/wp-admin/admin-ajax.php");
    assert_eq!(
        causes(&run),
        [
            "the rules at line 3 and line 2 both match under each profile, which picks a different one: rfc9309 lets the longest match decide (line 3, length 24); \
          legacy1994 lets the first matching rule in file order decide (line 2)"
        ],
        "{}",
        run.stdout
    );
}

/// A 600 KB file whose only rule for `/secret` is past 512,000 bytes.
fn cut_file() -> (Vec<u8>, u32) {
    let mut file = String::from("User-agent: *\n");
    let mut line = 1;
    while file.len() < 600_000 {
        file.push_str(&format!("Disallow: /filler/{:07}\n", file.len()));
        line += 1;
    }
    file.push_str("Disallow: /secret\n");
    (file.into_bytes(), line + 1)
}

#[test]
fn explain_names_a_rule_past_the_parse_limit() {
    let (file, secret) = cut_file();
    let f = Fixture::new(&file);
    let run = HARNESS.run(&["explain", f.path(), "ExampleBot", "/secret/x"], b"");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains(
            "the file was cut at byte 511980 by the parse limit of 512000 bytes (RFC 9309 §2.5)"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!(
            "rfc9309: line {secret} `disallow: /secret` matches: ignored: past the parse limit at byte 511980 (RFC 9309 §2.5)"
        )),
        "{}",
        run.stdout
    );
    let json = HARNESS
        .run(
            &[
                "explain",
                "--format",
                "json",
                "--profile",
                "all",
                f.path(),
                "ExampleBot",
                "/secret/x",
            ],
            b"",
        )
        .json();
    assert_eq!(json["parse_limit"]["at"], 511_980);
    let ignored = json["parse_limit"]["ignored"].as_array().unwrap();
    assert_eq!(ignored.len(), 3, "{ignored:?}");
    assert!(ignored
        .iter()
        .all(|r| r["line"] == secret && r["pattern"] == "/secret" && r["kind"] == "disallow"));
}

#[test]
fn check_explain_names_a_rule_past_the_parse_limit() {
    let (file, secret) = cut_file();
    let f = Fixture::new(&file);
    let run = HARNESS.run(
        &["check", "--explain", f.path(), "ExampleBot", "/secret/x"],
        b"",
    );
    assert_eq!(
        run.lines(),
        [format!(
            "allowed\t/secret/x\t-\tno-matching-rule; ignored: line {secret} disallow: /secret: past the parse limit at byte 511980 (RFC 9309 §2.5)"
        )]
    );
    let json = HARNESS
        .run(
            &[
                "check",
                "--explain",
                "--format",
                "json",
                f.path(),
                "ExampleBot",
                "/secret/x",
            ],
            b"",
        )
        .json();
    assert_eq!(json["parse_limit"]["at"], 511_980);
    assert_eq!(json["parse_limit"]["ignored"][0]["line"], secret);
    assert_eq!(json["parse_limit"]["ignored"][0]["pattern"], "/secret");
    // Without --explain, the row is as before.
    let run = HARNESS.run(&["check", f.path(), "ExampleBot", "/secret/x"], b"");
    assert_eq!(run.lines(), ["allowed\t/secret/x"]);
}

#[test]
fn a_file_within_the_limit_says_nothing_about_it() {
    let run = explain_all("User-agent: *\nDisallow: /x\n", "ExampleBot", "/x");
    assert!(!run.stdout.contains("parse limit"), "{}", run.stdout);
    let f = Fixture::new(b"User-agent: *\nDisallow: /x\n");
    let json = HARNESS
        .run(
            &["explain", "--format", "json", f.path(), "ExampleBot", "/x"],
            b"",
        )
        .json();
    assert!(json.get("parse_limit").is_none(), "{json}");
}
