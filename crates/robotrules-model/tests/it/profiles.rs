//! The profile table of DESIGN.md, row by row, as cases: the same file and question, and
//! what each profile answers.

use std::sync::Arc;

use robotrules_model::{Crawler, InvalidAgent, Profile, Reason, RobotsTxt, RuleKind, Selection};
use rstest::rstest;

const R: Profile = Profile::Rfc9309;
const G: Profile = Profile::Google;
const L: Profile = Profile::Legacy1994;

/// Crawler `name`'s rules in (a copy of) `robots`.
fn crawler(robots: &RobotsTxt, name: &str) -> Result<Crawler, InvalidAgent> {
    Crawler::new(Arc::new(robots.clone()), name)
}

fn allowed(robots: &str, profile: Profile, agent: &str, url: &str) -> bool {
    RobotsTxt::parse(robots.as_bytes(), profile, 512_000)
        .is_allowed(agent, url)
        .expect("valid agent")
}

/// `(rfc9309, google, legacy1994)` verdicts for one question.
#[rstest]
// Key typos, key prefixes, missing colon: google accepts them.
#[case::typo("user-agent: *\ndissallow: /x\n", "Bot", "/x", [true, false, true])]
#[case::prefix("user-agent: *\nDisallowed: /x\n", "Bot", "/x", [true, false, true])]
#[case::missing_colon("user-agent: *\ndisallow /x\n", "Bot", "/x", [true, false, true])]
#[case::useragent_typo("useragent: Bot\ndisallow: /x\n", "Bot", "/x", [true, false, true])]
// User-agent value: the leading run of the token alphabet is the token, digits included in
// rfc9309 (RFC 9309 §2.2.1 plus digits, correction (c)), [A-Za-z_-] in google; legacy
// matches the whole value as a substring of the crawler's name.
#[case::token_prefix("user-agent: MJ12bot\ndisallow: /\n", "MJ", "/x", [true, false, true])]
#[case::token_digits("user-agent: MJ12bot\ndisallow: /\n", "MJ12bot", "/x", [false, true, false])]
#[case::token_digits_case("user-agent: mj12BOT/1.4\ndisallow: /\n", "MJ12bot", "/x", [false, true, false])]
#[case::token_leading_digit("user-agent: 360Spider\ndisallow: /\n", "360Spider", "/x", [false, true, false])]
#[case::token_version("user-agent: FooBot/1.2\ndisallow: /\n", "FooBot", "/x", [false, false, false])]
#[case::substring("user-agent: bot\ndisallow: /\n", "SuperBot", "/x", [true, true, false])]
#[case::star_space("user-agent: * foo\ndisallow: /\n", "Bot", "/x", [false, false, false])]
// Groups: consecutive user-agent lines share a group; blank lines do not end a group
// (rfc9309, google) but do end a record (legacy).
#[case::blank_between_agents("user-agent: a\n\nuser-agent: b\ndisallow: /\n", "a", "/x", [false, false, true])]
#[case::rule_before_agent("disallow: /x\nuser-agent: *\ndisallow: /y\n", "Bot", "/x", [true, true, true])]
// An extension record between user-agent lines does not close the list (RFC 9309 §2.2.4: other
// records "MUST NOT interfere", correction (a)): `*` and CCBot share one group, everyone is
// blocked, as in google.
#[case::crawl_delay_joins("user-agent: *\ncrawl-delay: 10\nuser-agent: CCBot\ndisallow: /\n", "Googlebot", "/x", [false, false, false])]
#[case::crawl_delay_joins_named("user-agent: FooBot\ncrawl-delay: 5\nuser-agent: BarBot\ndisallow: /\n", "FooBot", "/x", [false, false, false])]
#[case::unknown_record_joins("user-agent: FooBot\nx-thing: 1\nuser-agent: BarBot\ndisallow: /\n", "FooBot", "/x", [false, false, false])]
#[case::crawl_delay_ccbot("user-agent: *\ncrawl-delay: 10\nuser-agent: CCBot\ndisallow: /\n", "CCBot", "/x", [false, false, false])]
// Several groups for one agent: merged (legacy: first record wins).
#[case::merged("user-agent: a\ndisallow: /x\n\nuser-agent: a\ndisallow: /y\n", "a", "/y", [false, false, true])]
// A specific group replaces `*` entirely.
#[case::specific_replaces_star("user-agent: *\ndisallow: /x\n\nuser-agent: a\ndisallow: /y\n", "a", "/x", [true, true, true])]
// Precedence: longest wins, allow on a tie; legacy: first match in file order.
#[case::longest("user-agent: *\ndisallow: /a\nallow: /a/b\n", "Bot", "/a/b", [true, true, false])]
#[case::tie("user-agent: *\ndisallow: /a\nallow: /a\n", "Bot", "/a", [true, true, false])]
// Every octet of the normalised pattern counts, `*` and `$` included, a trailing `*` too
// (correction (b)): `allow: /a*` (3) ties `disallow: /ab` (3), and allow wins the tie.
#[case::priority_counts_wildcards("user-agent: *\nallow: /*****\ndisallow: /abc\n", "Bot", "/abcd", [true, true, false])]
#[case::trailing_star_ties("user-agent: *\nallow: /a*\ndisallow: /ab\n", "Bot", "/abc", [true, true, false])]
#[case::trailing_star_counts("user-agent: *\nallow: /a**\ndisallow: /abc\n", "Bot", "/abcd", [true, true, false])]
#[case::dollar_counts("user-agent: *\nallow: /ab$\ndisallow: /ab\n", "Bot", "/ab", [true, true, false])]
// `*` and `$`: legacy reads them literally.
#[case::wildcard("user-agent: *\ndisallow: /*.gif$\n", "Bot", "/a.gif", [false, false, true])]
#[case::literal_star("user-agent: *\ndisallow: /a*b\n", "Bot", "/a*b", [false, false, false])]
// Path not starting with `/` or `*`: rfc9309 prepends `/`, google never matches.
#[case::no_slash("user-agent: *\ndisallow: private\n", "Bot", "/private", [false, true, true])]
// Percent-encoding: rfc9309 and legacy normalise both sides; google only escapes patterns.
#[case::pct_unreserved("user-agent: *\ndisallow: /%62az\n", "Bot", "/baz", [false, true, false])]
#[case::pct_lowercase("user-agent: *\ndisallow: /a%2f\n", "Bot", "/a%2F", [false, false, false])]
#[case::raw_utf8_url("user-agent: *\ndisallow: /%E3%83%84\n", "Bot", "/ツ", [false, true, false])]
// Dot segments: the RFC profiles read the URL as a browser would fetch it.
#[case::dot_segments("user-agent: *\ndisallow: /private/\n", "Bot", "http://e.com/a/../private/x", [false, true, false])]
#[case::dot_segments_bare("user-agent: *\ndisallow: /private/\n", "Bot", "/a/./../private/x", [false, true, false])]
#[case::encoded_dot("user-agent: *\ndisallow: /private/\n", "Bot", "/a/%2e%2E/private/x", [false, true, false])]
// `/robots.txt` is always allowed in rfc9309.
#[case::robots_txt("user-agent: *\ndisallow: /\n", "Bot", "/robots.txt", [true, false, false])]
// `index.html`: google's Allow `…/index.htm*` also allows `…/$`.
#[case::index_html("user-agent: *\ndisallow: /\nallow: /d/index.html\n", "Bot", "/d/", [false, true, false])]
fn profile_table(
    #[case] robots: &str,
    #[case] agent: &str,
    #[case] url: &str,
    #[case] expected: [bool; 3],
) {
    let got = [R, G, L].map(|p| allowed(robots, p, agent, url));
    assert_eq!(got, expected, "verdicts (rfc9309, google, legacy1994)");
}

#[test]
fn long_lines_are_cut_only_by_google() {
    let long = format!("user-agent: *\ndisallow: /{}x\n", "a".repeat(20_000));
    let url = format!("/{}", "a".repeat(16_700));
    assert!(allowed(&long, R, "Bot", &url));
    assert!(!allowed(&long, G, "Bot", &url));
}

#[test]
fn crawler_name_validity() {
    let robots = "user-agent: *\ndisallow: /\n";
    for profile in [R, G, L] {
        let r = RobotsTxt::parse(robots.as_bytes(), profile, 512_000);
        assert_eq!(crawler(&r, "Foo Bar").is_err(), profile == R, "{profile}");
        assert_eq!(crawler(&r, "").is_err(), profile == R, "{profile}");
        assert_eq!(
            crawler(&r, "ExampleBot/1.0").is_err(),
            profile == R,
            "{profile}"
        );
        assert!(crawler(&r, "Foo_Bar-baz").is_ok());
        // Real crawlers carry digits (correction (c)).
        for name in ["MJ12bot", "AI2Bot", "360Spider"] {
            assert!(crawler(&r, name).is_ok(), "{profile} {name}");
        }
    }
    // google: a name that is not a token never matches a group, so `*` applies.
    let r = RobotsTxt::parse(
        b"user-agent: foo\nallow: /\nuser-agent: *\ndisallow: /\n",
        G,
        512_000,
    );
    assert_eq!(r.is_allowed("Foo Bar", "/x"), Ok(false));
    assert_eq!(r.is_allowed("foo", "/x"), Ok(true));
    // rfc9309: the error shows the token to pass.
    let r = RobotsTxt::parse(robots.as_bytes(), R, 512_000);
    let error = crawler(&r, "ExampleBot/1.0").unwrap_err();
    assert_eq!(error.suggestion.as_deref(), Some("ExampleBot"));
    assert!(error.to_string().ends_with("pass `ExampleBot`"), "{error}");
    assert_eq!(crawler(&r, "/x").unwrap_err().suggestion, None);
    // A full User-Agent header: the crawler's token, never `Mozilla`.
    let googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    let error = crawler(&r, googlebot).unwrap_err();
    assert_eq!(error.suggestion.as_deref(), Some("Googlebot"));
    assert!(error.to_string().ends_with("pass `Googlebot`"), "{error}");
    let gptbot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; \
                  +https://openai.com/gptbot)";
    assert_eq!(
        crawler(&r, gptbot).unwrap_err().suggestion.as_deref(),
        Some("GPTBot")
    );
    // A browser's header names no crawler: no suggestion at all.
    let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like \
                  Gecko) Chrome/120.0.0.0 Safari/537.36";
    let error = crawler(&r, chrome).unwrap_err();
    assert_eq!(error.suggestion, None);
    assert!(!error.to_string().contains("pass `"), "{error}");
    assert_eq!(crawler(&r, "Mozilla/5.0").unwrap_err().suggestion, None);
}

#[test]
fn urls_each_profile_reads() {
    let robots = "user-agent: *\ndisallow: /a\n";
    for profile in [R, G, L] {
        let r = RobotsTxt::parse(robots.as_bytes(), profile, 512_000);
        for url in ["example.com/a", "a/b", "", "mailto:x@example.com"] {
            let read = r.is_allowed("Bot", url);
            assert_eq!(read.is_err(), profile != G, "{profile} {url:?}");
        }
        assert_eq!(r.is_allowed("Bot", "https://example.com/a"), Ok(false));
        assert_eq!(r.is_allowed("Bot", "/b"), Ok(true));
    }
}

#[test]
fn explain_names_ties_and_tokens() {
    let text = b"user-agent: MJ12bot/1.4\ndisallow: /ab\nallow: /a*\n";
    for (profile, token, tied) in [(R, Some("MJ12bot"), vec![2]), (G, None, vec![])] {
        let r = RobotsTxt::parse(text, profile, 512_000);
        let e = r.explain("MJ12bot", "/abc").unwrap();
        assert_eq!(e.token.as_deref(), token, "{profile}");
        assert_eq!(e.tied_with, tied, "{profile}");
    }
    let r = RobotsTxt::parse(text, L, 512_000);
    let e = r.explain("MJ12bot", "/abc").unwrap();
    assert_eq!(e.selection, Selection::Substring);
    assert_eq!(e.token.as_deref(), Some("MJ12bot"));
    assert!(e.tied_with.is_empty());
}

#[test]
fn parse_limit_ignores_the_rest() {
    let mut text = b"user-agent: *\n".to_vec();
    text.extend(b"# padding\n".repeat(60_000));
    text.extend_from_slice(b"disallow: /\n");
    for profile in [R, G, L] {
        let r = RobotsTxt::parse(&text, profile, 512_000);
        assert_eq!(r.is_allowed("Bot", "/x"), Ok(true));
        assert!(r.diagnostics().iter().any(|d| d.code() == "parse-limit"));
        let r = RobotsTxt::parse(&text, profile, 1_000_000);
        assert_eq!(r.is_allowed("Bot", "/x"), Ok(false));
    }
}

#[test]
fn sitemaps_and_extensions() {
    let text = b"sitemap: https://e.com/a.xml\nhost: e.com\nuser-agent: a\ncrawl-delay: 2.5\nrequest-rate: 1/10\nx-thing: 1\ndisallow: /\nSitemap: /relative.xml\n";
    let r = RobotsTxt::parse(text, R, 512_000);
    assert_eq!(
        r.sitemaps().collect::<Vec<_>>(),
        ["https://e.com/a.xml", "/relative.xml"]
    );
    assert_eq!(r.file_extensions()[0].value, "e.com");
    let a = crawler(&r, "a").unwrap();
    assert_eq!(
        a.crawl_delay(),
        Some(std::time::Duration::from_millis(2500))
    );
    let keys: Vec<_> = a.extensions().into_iter().map(|e| e.key).collect();
    assert_eq!(keys, ["crawl-delay", "request-rate", "x-thing"]);
    assert_eq!(crawler(&r, "b").unwrap().crawl_delay(), None);
}

#[test]
fn an_empty_sitemap_line_is_no_sitemap() {
    // `Sitemap:` with no value names no URL: it is skipped, not listed as `""` (which a
    // fetched file would resolve to its own robots.txt URL). Lint still sees the record.
    let text =
        b"Sitemap:\nsitemap:   \nSitemap: https://e.com/a.xml\nuser-agent: *\ndisallow: /x\n";
    for profile in Profile::ALL {
        let r = RobotsTxt::parse(text, profile, 512_000);
        assert_eq!(
            r.sitemaps().collect::<Vec<_>>(),
            ["https://e.com/a.xml"],
            "{profile:?}"
        );
        assert_eq!(
            r.sitemap_lines().collect::<Vec<_>>(),
            [(3, "https://e.com/a.xml")]
        );
        assert_eq!(
            r.sitemap_records().collect::<Vec<_>>(),
            [(1, ""), (2, ""), (3, "https://e.com/a.xml")]
        );
        let a = crawler(&r, "a").unwrap();
        assert_eq!(a.sitemaps().collect::<Vec<_>>(), ["https://e.com/a.xml"]);
    }
}

#[test]
fn explain_names_the_deciding_line() {
    let text = b"user-agent: *\ndisallow: /\n\nuser-agent: foo\nuser-agent: bar\ndisallow: /a\nallow: /a/b\n\nuser-agent: foo\ndisallow: /a/b/c\n";
    let r = RobotsTxt::parse(text, R, 512_000);
    let e = r.explain("FOO", "https://example.com/a/b/c/d").unwrap();
    assert!(!e.allowed);
    assert_eq!(e.reason, Reason::RuleMatched);
    assert_eq!(e.selection, Selection::Exact);
    assert_eq!(e.token.as_deref(), Some("foo"));
    assert_eq!(e.groups.iter().map(|g| g.line).collect::<Vec<_>>(), [4, 9]);
    assert_eq!(
        e.matches.iter().map(|m| m.line).collect::<Vec<_>>(),
        [10, 7, 6]
    );
    let decided = e.decided_by.unwrap();
    assert_eq!(
        (decided.kind, decided.line, decided.priority),
        (RuleKind::Disallow, 10, 6)
    );

    let e = r.explain("other", "/robots.txt").unwrap();
    assert_eq!(
        (e.allowed, e.reason),
        (true, Reason::RobotsTxtImplicitlyAllowed)
    );
    let e = RobotsTxt::parse(b"user-agent: a\ndisallow: /\n", R, 512_000)
        .explain("b", "/")
        .unwrap();
    assert_eq!(
        (e.allowed, e.reason, e.selection),
        (true, Reason::NoGroup, Selection::Unmatched)
    );
    let e = RobotsTxt::parse(b"user-agent: *\ndisallow: /x\n", R, 512_000)
        .explain("b", "/y")
        .unwrap();
    assert_eq!((e.allowed, e.reason), (true, Reason::NoMatchingRule));
}

#[test]
fn adversarial_patterns_stay_linear() {
    // 500 KiB of `/*a*a*a…$` patterns against a long URL of `a`s: the backtracking blow-up of
    // a naive matcher would not finish; this one does one linear pass per rule.
    let mut text = b"user-agent: *\n".to_vec();
    let pattern = format!("disallow: /{}b$\n", "*a".repeat(200));
    while text.len() < 500 * 1024 {
        text.extend_from_slice(pattern.as_bytes());
    }
    let r = RobotsTxt::parse(&text, G, 512_000);
    let url = format!("/{}", "a".repeat(5_000));
    assert_eq!(r.is_allowed("Bot", &url), Ok(true));
    assert_eq!(r.is_allowed("Bot", &format!("{url}b")), Ok(false));
}

#[test]
fn many_groups_resolve_by_index() {
    let mut text = String::new();
    for i in 0..10_000 {
        text.push_str(&format!(
            "user-agent: bot{}\ndisallow: /{i}\n\n",
            to_letters(i)
        ));
    }
    let r = RobotsTxt::parse(text.as_bytes(), R, 1 << 20);
    assert_eq!(r.groups().len(), 10_000);
    let agent = format!("Bot{}", to_letters(4321));
    assert_eq!(r.is_allowed(&agent, "/4321"), Ok(false));
    assert_eq!(r.is_allowed(&agent, "/4322"), Ok(true));
}

fn to_letters(mut n: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
        if n == 0 {
            return s;
        }
    }
}

#[test]
fn an_empty_rule_is_not_a_duplicate_of_a_star() {
    // Both compile to empty bytes; found by the rule-order property test.
    for text in [
        "user-agent: *\ndisallow:\ndisallow: *\n",
        "user-agent: *\ndisallow: *\ndisallow:\n",
    ] {
        for profile in [R, G] {
            assert!(!allowed(text, profile, "Bot", "/x"), "{profile} {text:?}");
        }
    }
}

#[test]
fn indexed_and_deduplicated_groups_decide_as_a_full_scan() {
    // Groups above the index threshold, with duplicates, wildcards in every position and
    // anchors; explain lists every matching rule by a full scan, so its strongest match must
    // be the rule that decided.
    let heads = [
        "/a", "/ab", "/b", "/*a", "*b", "/", "/a*b", "/b$", "/ab*$", "/%61", "/ä",
    ];
    let tails = ["", "c", "*c", "c$", "/"];
    let mut text = String::from("user-agent: *\n");
    for (i, head) in heads.iter().enumerate() {
        for (j, tail) in tails.iter().enumerate() {
            let kind = if (i + j) % 3 == 0 {
                "allow"
            } else {
                "disallow"
            };
            text.push_str(&format!("{kind}: {head}{tail}\n"));
            if j == 2 {
                text.push_str(&format!("{kind}: {head}{tail}\n"));
            }
        }
    }
    let paths = [
        "/", "/a", "/ab", "/abc", "/abc/", "/b", "/bc", "/cab", "/xbc", "/a/b/c", "/ä", "/%C3%A4c",
    ];
    for profile in [R, G, L] {
        let robots = RobotsTxt::parse(text.as_bytes(), profile, 512_000);
        let rules = crawler(&robots, "Bot").unwrap();
        for path in paths {
            let e = rules.explain(path).unwrap();
            let strongest = e.matches.first().map(|m| (m.kind, m.priority));
            let decided = e.decided_by.as_ref().map(|m| (m.kind, m.priority));
            assert_eq!(decided, strongest, "{profile} {path}");
            assert_eq!(Ok(e.allowed), rules.is_allowed(path));
            assert_eq!(e.allowed, decided.is_none_or(|(k, _)| k == RuleKind::Allow));
        }
        // Duplicates are still listed by explain.
        let e = rules.explain("/abc").unwrap();
        let copies = e.matches.iter().filter(|m| m.pattern == "/a*c").count();
        assert_eq!(copies, if profile == L { 0 } else { 2 }, "{profile}");
    }
}

/// `docs/profiles.md` shows the table of `Profile::reading()` field by field; this holds the
/// two equal, so the document cannot drift from the code.
#[test]
fn the_documented_table_is_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/profiles.md");
    let doc = std::fs::read_to_string(path).expect("docs/profiles.md");
    let table = doc
        .split("<!-- reading-table: begin -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- reading-table: end -->").next())
        .expect("the reading table markers in docs/profiles.md");
    let readings = [R, G, L].map(Profile::reading);
    let rows: [(&str, [String; 3]); 16] = [
        ("keys", readings.map(|r| format!("{:?}", r.keys))),
        (
            "agent_list_end",
            readings.map(|r| format!("{:?}", r.agent_list_end)),
        ),
        (
            "agent_token",
            readings.map(|r| format!("{:?}", r.agent_token)),
        ),
        (
            "crawler_names",
            readings.map(|r| format!("{:?}", r.crawler_names)),
        ),
        ("groups", readings.map(|r| format!("{:?}", r.groups))),
        ("wildcards", readings.map(|r| format!("{:?}", r.wildcards))),
        ("patterns", readings.map(|r| format!("{:?}", r.patterns))),
        (
            "slashless_pattern",
            readings.map(|r| format!("{:?}", r.slashless_pattern)),
        ),
        (
            "empty_disallow_allows_all",
            readings.map(|r| format!("{:?}", r.empty_disallow_allows_all)),
        ),
        ("urls", readings.map(|r| format!("{:?}", r.urls))),
        (
            "precedence",
            readings.map(|r| format!("{:?}", r.precedence)),
        ),
        (
            "implicit_robots_txt",
            readings.map(|r| format!("{:?}", r.implicit_robots_txt)),
        ),
        (
            "index_html",
            readings.map(|r| format!("{:?}", r.index_html)),
        ),
        (
            "max_line_len",
            readings.map(|r| format!("{:?}", r.max_line_len)),
        ),
        ("cache", readings.map(|r| format!("{:?}", r.cache))),
        (
            "file_wide_signal",
            readings.map(|r| format!("{:?}", r.file_wide_signal)),
        ),
    ];
    let fields = rows.len();
    for (field, [rfc, google, legacy]) in rows {
        let row = format!("| `{field}` | `{rfc}` | `{google}` | `{legacy}` |");
        assert!(
            table.contains(&row),
            "docs/profiles.md's table lacks or differs from {row}"
        );
    }
    assert_eq!(
        table.lines().filter(|l| l.starts_with("| `")).count(),
        fields,
        "every field of Reading is a row of the documented table"
    );
}
