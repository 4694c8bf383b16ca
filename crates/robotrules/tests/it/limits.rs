//! Resource limits (issue 4, `docs/robustness.md`): the parse limit, the line-length limit,
//! the number of groups and rules, the crawler name's and the URL's length. At every limit
//! robotrules truncates and reports, never aborts; memory stays within a fixed multiple of the
//! parse limit, measured here with a counting allocator on worst-case files.
//!
//! The allocator counts the whole process, where the other tests of this binary run at the
//! same time: the memory test runs itself again in a process of its own ([`alone`]).

use std::process::Command;

use peak_alloc::PeakAlloc;
use robotrules::{ParseOptions, Profile, Robots, DEFAULT_PARSE_LIMIT};
use robotrules_model::DiagnosticKind;
use robotrules_model::{AgentToken, CrawlerNames};
use rstest::rstest;

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// Set in the process [`alone`] starts.
const ALONE: &str = "ROBOTRULES_TEST_ALONE";

/// Whether the test `name` (its path in this binary) is in a process of its own: true in the
/// process this starts, which runs that test only (`--exact`), and false in the caller, once
/// that process has passed (it fails the caller's test when it fails).
fn alone(name: &str) -> bool {
    if std::env::var_os(ALONE).is_some() {
        return true;
    }
    let binary = std::env::current_exe().expect("the test binary's path");
    let output = Command::new(binary)
        .args(["--exact", name, "--test-threads", "1", "--nocapture"])
        .env(ALONE, "1")
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{name} alone: {}\n{stdout}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    false
}

fn parse(body: &[u8], profile: Profile, parse_limit: usize) -> Robots {
    Robots::parse_with(
        body,
        &ParseOptions::new()
            .with_profile(profile)
            .with_parse_limit(parse_limit),
    )
}

/// `prefix` then `line` repeated until the file is `len` bytes (cut to whole lines).
fn filled(prefix: &str, line: &str, len: usize) -> Vec<u8> {
    let mut out = prefix.as_bytes().to_vec();
    while out.len() + line.len() <= len {
        out.extend_from_slice(line.as_bytes());
    }
    out
}

#[rstest]
fn the_parse_limit_cuts_at_the_last_whole_line_and_reports(
    #[values(Profile::Rfc9309, Profile::Google, Profile::Legacy1994)] profile: Profile,
) {
    // Line 3 crosses the limit: it is dropped whole, so `/private` is never read as `/p`.
    let body = b"user-agent: *\ndisallow: /a\ndisallow: /private\ndisallow: /b\n";
    let limit = 30;
    let robots = parse(body, profile, limit);
    assert_eq!(robots.bytes_read(), 27);
    assert!(!robots.is_allowed("FooBot", "/a").unwrap());
    assert!(robots.is_allowed("FooBot", "/p").unwrap());
    assert!(robots.is_allowed("FooBot", "/b").unwrap());
    let cut = robots
        .diagnostics()
        .iter()
        .find(|d| d.code() == "parse-limit")
        .expect("the cut is reported");
    assert_eq!((cut.span.start, cut.span.end), (27, body.len()));
    assert_eq!(cut.line, 3);
}

#[test]
fn the_default_parse_limit_is_512000_bytes() {
    assert_eq!(DEFAULT_PARSE_LIMIT, 512_000);
    assert_eq!(ParseOptions::default().parse_limit(), DEFAULT_PARSE_LIMIT);
    let mut body = filled("user-agent: *\n", "disallow: /x\n", DEFAULT_PARSE_LIMIT);
    body.extend_from_slice(b"disallow: /\n");
    let robots = Robots::parse(&body);
    assert!(robots.bytes_read() <= DEFAULT_PARSE_LIMIT);
    assert!(
        robots.is_allowed("FooBot", "/y").unwrap(),
        "the rule past the limit is ignored"
    );
    assert!(!robots.is_allowed("FooBot", "/x").unwrap());
}

#[test]
fn a_single_line_longer_than_the_parse_limit_is_ignored_whole() {
    let mut body = b"user-agent: *\ndisallow: /".to_vec();
    body.resize(DEFAULT_PARSE_LIMIT + 10, b'a');
    for profile in Profile::ALL {
        let robots = parse(&body, profile, DEFAULT_PARSE_LIMIT);
        assert_eq!(robots.bytes_read(), 14, "{profile}");
        assert!(robots.is_allowed("FooBot", "/aaa").unwrap(), "{profile}");
    }
}

#[rstest]
#[case(Profile::Google, true)]
#[case(Profile::Rfc9309, false)]
#[case(Profile::Legacy1994, false)]
fn google_cuts_long_lines_and_reports_it(#[case] profile: Profile, #[case] cut: bool) {
    let long = "a".repeat(20_000);
    let body = format!("user-agent: *\ndisallow: /{long}\n");
    let robots = parse(body.as_bytes(), profile, DEFAULT_PARSE_LIMIT);
    let reported = robots
        .diagnostics()
        .iter()
        .any(|d| matches!(d.kind, DiagnosticKind::Grammar(_)) && d.code() == "line-too-long");
    assert_eq!(reported, cut);
    // The rule is kept in every profile, cut short in google: `disallow: /` + 16,651 `a`s.
    let kept = 16_663 - "disallow: /".len();
    let just_past = format!("/{}b", "a".repeat(kept));
    assert_eq!(robots.is_allowed("FooBot", &just_past).unwrap(), !cut);
    assert!(!robots.is_allowed("FooBot", &format!("/{long}")).unwrap());
}

/// Worst-case files for the number of lines, groups, rules and records, each filling the
/// parse limit.
fn worst_cases() -> Vec<(&'static str, Vec<u8>)> {
    let n = DEFAULT_PARSE_LIMIT;
    vec![
        ("empty lines (`\\n`)", filled("", "\n", n)),
        ("junk lines (`a\\n`)", filled("", "a\n", n)),
        ("invalid UTF-8 (`\\xff\\n`)", [0xFF, b'\n'].repeat(n / 2)),
        (
            "empty records (`:\\n`)",
            filled("user-agent: *\n", ":\n", n),
        ),
        ("comments (`#\\n`)", filled("", "#\n", n)),
        (
            "extension records (`a:b\\n`)",
            filled("user-agent: *\n", "a:b\n", n),
        ),
        (
            "user-agent lines (`user-agent: a\\n`)",
            filled("", "user-agent: a\n", n),
        ),
        (
            "one-line groups (`user-agent: a\\ndisallow: /\\n`)",
            filled("", "user-agent: a\ndisallow: /\n", n),
        ),
        (
            "rules (`disallow: /\\n`)",
            filled("user-agent: *\n", "disallow: /\n", n),
        ),
        (
            "index.html rules (`allow: /index.html\\n`)",
            filled("user-agent: *\n", "allow: /index.html\n", n),
        ),
        (
            "misspelt keys (`dissallow: /\\n`)",
            filled("user-agent: *\n", "dissallow: /\n", n),
        ),
        ("sitemaps (`sitemap: a\\n`)", filled("", "sitemap: a\n", n)),
    ]
}

/// Peak heap bytes allocated while parsing `body` (the input itself excluded), and the bytes
/// still held by the parsed value.
fn measure(body: &[u8], profile: Profile) -> (usize, usize) {
    let base = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let robots = parse(body, profile, DEFAULT_PARSE_LIMIT);
    let peak = ALLOCATOR.peak_usage().saturating_sub(base);
    let held = ALLOCATOR.current_usage().saturating_sub(base);
    drop(robots);
    (peak, held)
}

/// The multiple `docs/robustness.md` documents: peak heap during a parse is at most this many
/// times the bytes read (the parse limit, at most).
const MEMORY_MULTIPLE: usize = 256;

/// The multiple the parsed value may keep after the parse.
const HELD_MULTIPLE: usize = 64;

#[test]
fn memory_is_bounded_by_a_multiple_of_the_parse_limit() {
    if !alone("limits::memory_is_bounded_by_a_multiple_of_the_parse_limit") {
        return;
    }
    let mut over = Vec::new();
    let mut worst = (0.0, "", Profile::Rfc9309);
    for (name, body) in worst_cases() {
        assert!(body.len() <= DEFAULT_PARSE_LIMIT);
        for profile in Profile::ALL {
            let (peak, held) = measure(&body, profile);
            let multiple = peak as f64 / body.len() as f64;
            println!(
                "| {name} | {profile} | {:.1}x | {:.1}x |",
                multiple,
                held as f64 / body.len() as f64
            );
            if multiple > worst.0 {
                worst = (multiple, name, profile);
            }
            if peak > MEMORY_MULTIPLE * body.len() || held > HELD_MULTIPLE * body.len() {
                over.push(format!(
                    "{name} in {profile}: peak {peak} bytes, held {held} for {} bytes",
                    body.len()
                ));
            }
        }
    }
    println!("worst: {:.1}x ({}, {})", worst.0, worst.1, worst.2);
    assert!(
        over.is_empty(),
        "over {MEMORY_MULTIPLE}x (peak) or {HELD_MULTIPLE}x (held): {over:#?}"
    );
}

#[test]
fn every_group_and_rule_is_kept_up_to_the_parse_limit() {
    let body = filled("", "user-agent: a\ndisallow: /\n", DEFAULT_PARSE_LIMIT);
    let lines = body.iter().filter(|&&b| b == b'\n').count();
    for profile in Profile::ALL {
        let robots = parse(&body, profile, DEFAULT_PARSE_LIMIT);
        // The groups and rules are the model's (the layer crate's own API).
        let model = robotrules_model::RobotsTxt::parse(&body, profile, DEFAULT_PARSE_LIMIT);
        let rules: usize = model
            .groups()
            .iter()
            .map(|g| g.rules(&model).rules().len())
            .sum();
        // A rule line ends the user-agent list in every profile, so each `user-agent` line
        // starts a group.
        assert_eq!(model.groups().len(), lines / 2, "{profile}");
        assert_eq!(rules, lines / 2, "{profile}");
        assert!(!robots.is_allowed("a", "/x").unwrap());
        assert!(robots.is_allowed("b", "/x").unwrap());
    }
}

#[rstest]
fn a_long_crawler_name_is_read_whole(
    #[values(Profile::Rfc9309, Profile::Google, Profile::Legacy1994)] profile: Profile,
) {
    let name = "b".repeat(1 << 20);
    let body = format!("user-agent: {name}\ndisallow: /\n\nuser-agent: *\ndisallow: /x\n");
    let robots = parse(body.as_bytes(), profile, 4 << 20);
    // Google cuts the user-agent line at 16,663 bytes, so the group names a shorter token
    // and the 1 MiB name gets the `*` group; the other profiles read the line whole.
    let cut = profile.reading().max_line_len.is_some();
    assert_eq!(robots.is_allowed(&name, "/a").unwrap(), cut, "{profile}");
    let token_len = 16_663 - "user-agent: ".len();
    assert!(!robots.is_allowed(&name[..token_len], "/a").unwrap() || !cut);
    let other = format!("{name}c");
    // 1994 matches substrings of the crawler's name; the others need the whole token.
    let own_group = profile.reading().agent_token == AgentToken::Substring;
    assert_eq!(robots.is_allowed(&other, "/a").unwrap(), !own_group);
    let invalid = format!("{name}/1.0");
    assert_eq!(
        robots.is_allowed(&invalid, "/a").is_err(),
        profile.reading().crawler_names == CrawlerNames::Token,
        "a name that is not a product token"
    );
}

#[rstest]
fn a_long_url_is_read_whole(
    #[values(Profile::Rfc9309, Profile::Google, Profile::Legacy1994)] profile: Profile,
) {
    let body = b"user-agent: *\ndisallow: /a\nallow: /a*z$\n";
    let robots = parse(body, profile, DEFAULT_PARSE_LIMIT);
    let long = format!("https://example.com/a{}", "b".repeat(1 << 20));
    assert!(!robots.is_allowed("FooBot", &long).unwrap());
    let ends_in_z = format!("{long}z");
    // `*` and `$` are wildcards except in 1994.
    assert_eq!(
        robots.is_allowed("FooBot", &ends_in_z).unwrap(),
        profile.reading().wildcards
    );
    let why = robots.explain("FooBot", &ends_in_z).unwrap();
    assert_eq!(
        why.path.len(),
        ends_in_z.len() - "https://example.com".len()
    );
}

#[test]
fn deciding_a_canonical_url_allocates_nothing() {
    if !alone("limits::deciding_a_canonical_url_allocates_nothing") {
        return;
    }
    let robots = Robots::parse(b"user-agent: *\ndisallow: /private/\nallow: /private/press/\n");
    let crawler = robots.crawler("ExampleBot").unwrap();
    let urls = [
        "https://example.com/private/x",
        "https://example.com/private/press/1",
        "https://example.com/public",
        "/private/a?b=c",
        "/robots.txt",
    ];
    let mut decisions = Vec::with_capacity(urls.len());
    // The first check tries the rules without compiling them: nothing kept, nothing allocated.
    let base = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    decisions.push(crawler.decide(urls[0]).unwrap());
    let peak = ALLOCATOR.peak_usage().saturating_sub(base);
    assert_eq!(peak, 0, "the first Crawler::decide allocated {peak} bytes");
    // The second compiles the crawler's groups, once; no check after it allocates.
    decisions.push(crawler.decide(urls[1]).unwrap());
    let base = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    for url in &urls[2..] {
        decisions.push(crawler.decide(url).unwrap());
    }
    let peak = ALLOCATOR.peak_usage().saturating_sub(base);
    assert_eq!(peak, 0, "Crawler::decide allocated {peak} bytes");
    let lines: Vec<_> = decisions
        .iter()
        .map(|d| (d.allowed, d.decided_by.as_ref().map(|rule| rule.line())))
        .collect();
    assert_eq!(
        lines,
        [
            (false, Some(2)),
            (true, Some(3)),
            (true, None),
            (false, Some(2)),
            (true, None)
        ]
    );
}
