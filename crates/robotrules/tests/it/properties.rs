//! Property tests (issue 4): the matcher against a reference matcher, rule-order independence,
//! percent-encoding normalisation, total parsing with tiling spans, and agreement of the
//! `google` and `rfc9309` profiles where `docs/profiles.md` says they agree.
//!
//! Each property runs 256 generated cases by default (`PROPTEST_CASES` overrides it), so
//! `cargo test` stays fast; the fuzz targets in `fuzz/` run the same checks for longer.

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::RngSeed;
use robotrules::{ParseOptions, Profile, Robots};
use robotrules_grammar::{parse_with, Limits, Parsed, Span};
use std::sync::Arc;

use robotrules::InvalidAgent;
use robotrules_model::{Crawler, RobotsTxt};
use robotrules_url::{canonical, google};

/// 256 cases from a fixed seed, so a run is deterministic; `PROPTEST_CASES` and
/// `PROPTEST_RNG_SEED` override. Failures are not persisted to files: a shrunk failing input
/// becomes a test in `regressions.rs`.
fn config() -> ProptestConfig {
    let env = |name| std::env::var(name).ok().and_then(|n| n.parse().ok());
    ProptestConfig {
        cases: env("PROPTEST_CASES").map_or(256, |n: u64| u32::try_from(n).unwrap_or(u32::MAX)),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(0x0052_4F42_4F54)),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The model of `body` read under `profile` (the layer crate's own API: these properties look
/// at groups, rules and targets, which the facade does not show).
fn parse(body: &[u8], profile: Profile) -> Arc<RobotsTxt> {
    Arc::new(RobotsTxt::parse(
        body,
        profile,
        robotrules::DEFAULT_PARSE_LIMIT,
    ))
}

/// The model's crawler `name` in `robots`.
fn crawler(robots: &Arc<RobotsTxt>, name: &str) -> Result<Crawler, InvalidAgent> {
    Crawler::new(Arc::clone(robots), name)
}

/// Google's `RobotsMatchStrategy::Matches` (robots.cc) as plainly as possible: the set of path
/// positions the pattern prefix can end at. `*` is any sequence, a final `$` anchors, every
/// other byte is literal. (The same algorithm as `fuzz/src/lib.rs`.)
fn reference_matches(path: &[u8], pattern: &[u8]) -> bool {
    let mut positions = vec![0usize];
    for (i, &c) in pattern.iter().enumerate() {
        if c == b'$' && i + 1 == pattern.len() {
            return positions.last() == Some(&path.len());
        }
        if c == b'*' {
            let first = positions[0];
            positions = (first..=path.len()).collect();
        } else {
            positions.retain(|&p| p < path.len() && path[p] == c);
            positions.iter_mut().for_each(|p| *p += 1);
            if positions.is_empty() {
                return false;
            }
        }
    }
    true
}

/// Concatenations of `pieces`, `len` pieces long, after `prefix`.
fn joined(
    prefix: &'static str,
    pieces: &'static [&'static str],
    len: std::ops::Range<usize>,
) -> impl Strategy<Value = String> {
    prop::collection::vec(select(pieces), len)
        .prop_map(move |parts| format!("{prefix}{}", parts.concat()))
}

/// Pattern pieces over a small alphabet with the special characters.
const PATTERN_PIECES: &[&str] = &[
    "a", "b", "/", "*", "$", "%", "%61", "%2a", "%2F", "ab", "b/",
];
/// Path pieces over the same alphabet.
const PATH_PIECES: &[&str] = &[
    "a", "b", "/", "*", "$", "%", "%61", "%2A", "%2f", "ab", "/a",
];

fn pattern() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => joined("/", PATTERN_PIECES, 0..8),
        1 => joined("*", PATTERN_PIECES, 0..8),
    ]
}

fn path() -> impl Strategy<Value = String> {
    joined("/", PATH_PIECES, 0..10)
}

proptest! {
    #![proptest_config(config())]

    /// `google`: a `disallow` rule blocks a URL exactly when Google's algorithm matches the
    /// escaped pattern against the URL's path+params+query.
    #[test]
    fn google_matcher_agrees_with_the_reference(pattern in pattern(), url in path()) {
        let robots = parse(format!("user-agent: *\ndisallow: {pattern}\n").as_bytes(), Profile::Google);
        let target = google::path_params_query(&url);
        let escaped = google::escape_pattern(pattern.as_bytes());
        let expected = !reference_matches(target.as_bytes(), &escaped);
        prop_assert_eq!(robots.is_allowed("FooBot", &url).unwrap(), expected);
    }

    /// `rfc9309`: the same, on the canonical pattern against the path as the profile reads
    /// it (`Crawler::target`, RFC 9309 §2.2.2).
    #[test]
    fn rfc9309_matcher_agrees_with_the_reference(pattern in pattern(), url in path()) {
        let robots = parse(format!("user-agent: *\ndisallow: {pattern}\n").as_bytes(), Profile::Rfc9309);
        let rules = crawler(&robots, "FooBot").unwrap();
        let target = rules.target(&url).unwrap();
        let compiled = canonical::pattern(pattern.as_bytes());
        prop_assume!(!target.is_robots_txt());
        let expected = !reference_matches(target.path(), &compiled);
        prop_assert_eq!(rules.is_allowed(&url), Ok(expected));
    }
}

/// A rule line: allow or disallow, and its value.
type RuleLine = (bool, String);
/// A group: its user-agent values and its rule lines.
type GroupLines = (Vec<&'static str>, Vec<RuleLine>);

fn render(groups: &[GroupLines]) -> String {
    let mut out = String::new();
    for (agents, rules) in groups {
        for agent in agents {
            out.push_str(&format!("user-agent: {agent}\n"));
        }
        for (allow, value) in rules {
            let key = if *allow { "allow" } else { "disallow" };
            out.push_str(&format!("{key}: {value}\n"));
        }
    }
    out
}

fn rule_line() -> impl Strategy<Value = RuleLine> {
    let value = prop_oneof![
        6 => pattern(),
        1 => Just(String::new()),
        1 => joined("/", &["a/", "b/"], 0..2).prop_map(|d| format!("{d}index.html")),
    ];
    (any::<bool>(), value)
}

/// Groups with at least one rule each, so that reordering groups keeps their boundaries.
fn groups() -> impl Strategy<Value = Vec<GroupLines>> {
    let agents = prop::collection::vec(select(&["*", "FooBot", "barbot", "BazBot/2.0"][..]), 1..3);
    prop::collection::vec((agents, prop::collection::vec(rule_line(), 1..7)), 1..4)
}

/// The same groups with each group's rules shuffled, and the groups themselves shuffled.
fn shuffled(groups: Vec<GroupLines>) -> impl Strategy<Value = (Vec<GroupLines>, Vec<GroupLines>)> {
    let each: Vec<_> = groups
        .iter()
        .map(|(agents, rules)| {
            let agents = agents.clone();
            Just(rules.clone())
                .prop_shuffle()
                .prop_map(move |r| (agents.clone(), r))
        })
        .collect();
    (Just(groups), each.prop_shuffle())
}

const AGENTS: [&str; 3] = ["FooBot", "BarBot", "QuxBot"];

proptest! {
    #![proptest_config(config())]

    /// Precedence is by pattern length, allow on a tie (RFC 9309 §2.2.2), and several groups
    /// for one crawler are merged: the verdict depends on neither rule order nor group order.
    /// (Not in `legacy1994`, which is first-match by design.)
    #[test]
    fn the_verdict_does_not_depend_on_rule_order(
        (original, reordered) in groups().prop_flat_map(shuffled),
        urls in prop::collection::vec(path(), 1..8),
    ) {
        let (a, b) = (render(&original), render(&reordered));
        for profile in [Profile::Google, Profile::Rfc9309] {
            let (first, second) = (parse(a.as_bytes(), profile), parse(b.as_bytes(), profile));
            for agent in AGENTS {
                for url in &urls {
                    prop_assert_eq!(
                        first.is_allowed(agent, url).unwrap(),
                        second.is_allowed(agent, url).unwrap(),
                        "{} {} {}\n--- original\n{}--- reordered\n{}", profile, agent, url, a, b
                    );
                }
            }
        }
    }
}

/// One octet of a path and the ways it may be written that RFC 9309 §2.2.2 counts as the same.
#[derive(Clone, Debug)]
enum Octet {
    /// Unreserved (RFC 3986 §2.3): raw or `%xx` in either case.
    Unreserved(u8),
    /// Non-ASCII, control, space, a character never allowed in a URI, or (target side) `*`
    /// and `$`: raw or `%xx` in either case.
    Encoded(u8),
    /// A reserved character outside the query: only raw (its escape means something else).
    Reserved(u8),
    /// A reserved character's escape: the hex case does not matter.
    Escaped(u8),
}

fn octet() -> impl Strategy<Value = Octet> {
    let unreserved = select(b"AZaz09-._~".to_vec()).prop_map(Octet::Unreserved);
    let encoded = prop_oneof![
        0x80u8..=0xFF,
        0u8..0x20,
        select(b" \"<>\\^`{|}*$\x7f".to_vec()),
    ]
    .prop_map(Octet::Encoded);
    let reserved = select(b"/:@!&'()+,;=[]".to_vec()).prop_map(Octet::Reserved);
    let escaped = select(b"/:?#@[]!$&'()*+,;=%".to_vec()).prop_map(Octet::Escaped);
    prop_oneof![unreserved, encoded, reserved, escaped]
}

/// Write `octets` choosing, per octet, one of its equivalent spellings (`choice` bits).
fn spell(octets: &[Octet], choices: &[u8]) -> Vec<u8> {
    let mut out = vec![b'/'];
    for (octet, &choice) in octets.iter().zip(choices.iter().cycle()) {
        let escape = |b: u8, lower: bool| {
            let s = format!("%{b:02X}");
            if lower {
                s.to_ascii_lowercase().into_bytes()
            } else {
                s.into_bytes()
            }
        };
        match *octet {
            Octet::Unreserved(b) | Octet::Encoded(b) => match choice % 3 {
                0 => out.push(b),
                n => out.extend(escape(b, n == 2)),
            },
            Octet::Reserved(b) => out.push(b),
            Octet::Escaped(b) => out.extend(escape(b, choice % 2 == 1)),
        }
    }
    out
}

proptest! {
    #![proptest_config(config())]

    /// The canonical form is idempotent on any bytes, on both sides.
    #[test]
    fn canonical_form_is_idempotent(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        for side in [canonical::path, canonical::pattern] {
            let once = side(&bytes).into_owned();
            prop_assert_eq!(&*side(&once), &once[..]);
        }
    }

    /// Spellings that differ only in escaping (`%7E` vs `~`, `%aa` vs `%AA`, raw UTF-8 vs its
    /// escapes) reach one canonical form, and that form is the same for a pattern without `*`
    /// and `$` (RFC 9309 §2.2.2 Figure 4).
    #[test]
    fn equivalent_spellings_have_one_canonical_form(
        octets in prop::collection::vec(octet(), 0..16),
        a in prop::collection::vec(any::<u8>(), 1..16),
        b in prop::collection::vec(any::<u8>(), 1..16),
    ) {
        let (first, second) = (spell(&octets, &a), spell(&octets, &b));
        prop_assert_eq!(
            canonical::path(&first),
            canonical::path(&second),
            "{:?} vs {:?}", String::from_utf8_lossy(&first), String::from_utf8_lossy(&second)
        );
        let literal = !octets
            .iter()
            .any(|o| matches!(o, Octet::Encoded(b'*' | b'$')));
        if literal {
            prop_assert_eq!(canonical::pattern(&first), canonical::path(&second));
        }
    }
}

/// Byte strings biased towards what robots.txt readers trip over.
fn robots_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => select(vec![
            &b"user-agent:"[..], b"disallow:", b"allow:", b"sitemap:", b"useragent ", b"crawl-delay: 1",
            b"\r", b"\n", b"\r\n", b"#", b"\0", b"\xef\xbb\xbf", b"\xef\xbb", b" ", b"\t", b"*",
            b"/a*b$", b"<html>", b"\xe3\x83\x84", b"\xff", b":",
        ])
        .prop_map(<[u8]>::to_vec),
        1 => prop::collection::vec(any::<u8>(), 0..8),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|p| p.concat())
}

fn inside(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.start <= inner.end && inner.end <= outer.end
}

/// The BOM, the lines with their terminators, and the ignored tail tile the input; every
/// inner span lies inside what was read.
fn check_tiling(parsed: &Parsed<'_>) -> Result<(), TestCaseError> {
    let mut pos = parsed.bom.map_or(0, |bom| bom.end);
    prop_assert!(parsed
        .bom
        .is_none_or(|bom| bom.start == 0 && bom.len() <= 3));
    for (i, line) in parsed.lines.iter().enumerate() {
        prop_assert_eq!(line.number as usize, i + 1);
        prop_assert_eq!(line.span.start, pos);
        prop_assert_eq!(line.span.end, line.eol.start);
        prop_assert!(matches!(
            parsed.slice(line.eol),
            b"" | b"\r" | b"\n" | b"\r\n"
        ));
        prop_assert!(!parsed.slice(line.span).contains(&b'\n'));
        prop_assert!(!parsed.slice(line.span).contains(&b'\r'));
        prop_assert_eq!(line.read.start, line.span.start);
        prop_assert!(inside(line.span, line.read));
        if let Some(d) = line.directive {
            prop_assert!(inside(line.read, d.key) && inside(line.read, d.value));
        }
        if let Some(comment) = line.comment {
            prop_assert!(inside(line.read, comment));
        }
        pos = line.eol.end;
    }
    let end = parsed.ignored.map_or(parsed.source.len(), |s| s.start);
    prop_assert_eq!(pos, end);
    prop_assert!(parsed.ignored.is_none_or(|s| s.end == parsed.source.len()));
    let whole = Span::new(0, parsed.source.len());
    prop_assert!(parsed.diagnostics.iter().all(|d| inside(whole, d.span)));
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// Parsing is total, and the spans tile the input, under any parse limit and line-length
    /// limit; the model reads the same bytes in every profile without panicking.
    #[test]
    fn parsing_is_total_and_spans_tile_the_input(
        bytes in robots_bytes(),
        limit in prop_oneof![Just(usize::MAX), 0usize..200],
        max_line_len in prop::option::of(0usize..40),
    ) {
        check_tiling(&parse_with(&bytes, &Limits { parse_limit: limit, max_line_len }))?;
        for profile in Profile::ALL {
            let robots = Robots::parse_with(&bytes, &ParseOptions::new().with_profile(profile).with_parse_limit(limit));
            prop_assert!(robots.bytes_read() <= bytes.len());
            let _ = robots.is_allowed("FooBot", "/a");
        }
    }
}

/// Files on which `docs/profiles.md` ("Where `google` and `rfc9309` agree") says the two
/// profiles agree: exact keys with colons, rule paths starting with `/` or `*` (letters, `/`,
/// `.`, `-`, `?`, `=`, inner and trailing `*`, a final `$`), product-token agents without
/// digits, no `%` or non-ASCII, extension records anywhere (also between user-agent lines),
/// no `index.htm`; URLs that are paths of letters, `-` and `.` with an optional query without
/// gen-delims, never `/robots.txt`.
///
/// One restriction here was missing from the document when this test was written: no `.` or
/// `..` path segment in the URL (nor `%2e`, `\`, tab): `rfc9309` resolves them by the URL
/// Standard and `google` does not (`disallow: /.` blocks `/./` in `google` only). URLs here
/// have `.` only inside segments (`/a.b`, `/.x`), and never start with `//` (see
/// `regressions.rs`, property failure 2).
fn agreeing_file() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        3 => joined("/", &["a", "b", "/", ".", "*a", "-", "?", "="], 0..5),
        1 => joined("*", &["a", "b", "/", ".", "*a", "-", "?", "="], 1..5),
        1 => joined("/", &["a", "b", "/", ".", "*a", "?"], 0..5).prop_map(|p| format!("{p}$")),
        1 => joined("/", &["a", "b", "/", "."], 0..4).prop_map(|p| format!("{p}*")),
    ];
    let rule = (any::<bool>(), value);
    let agent = select(&["*", "FooBot", "foobot", "BarBot", "barbot/1.0", "Qux_Bot"][..]);
    let extra = select(
        &[
            "",
            "\n",
            "# note\n",
            "sitemap: https://example.com/s.xml\n",
            "crawl-delay: 5\n",
            "x-other: 1\n",
        ][..],
    );
    let group = (
        prop::collection::vec((agent, extra.clone()), 1..3),
        prop::collection::vec((rule, extra), 0..5),
        any::<bool>(),
    );
    let leading = prop::collection::vec(
        joined("/", &["a", "b"], 0..3).prop_map(|p| format!("disallow: {p}\n")),
        0..2,
    );
    (leading, prop::collection::vec(group, 0..4)).prop_map(|(leading, groups)| {
        let mut out = leading.concat();
        for (agents, rules, delay) in groups {
            for (agent, extra) in agents {
                out.push_str(&format!("user-agent: {agent}\n{extra}"));
            }
            for ((allow, value), extra) in &rules {
                let key = if *allow { "Allow" } else { "Disallow" };
                out.push_str(&format!("{key}: {value}\n{extra}"));
            }
            if delay && !rules.is_empty() {
                out.push_str("crawl-delay: 5\n");
            }
        }
        out
    })
}

proptest! {
    #![proptest_config(config())]

    /// `google` and `rfc9309` give the same verdict on files and URLs from the restricted
    /// grammar above (`docs/profiles.md`, "Where `google` and `rfc9309` agree").
    #[test]
    fn google_and_rfc9309_agree_where_profiles_md_says_so(
        file in agreeing_file(),
        urls in prop::collection::vec(
            (
                select(&["a", "b", "-", "a.b", ".x"][..]),
                joined("", &["a", "b", "/", "-", "a.b", ".x"], 0..6),
                prop::option::of(joined("?", &["a", "b", "=", "&", "-", "."], 0..4)),
            )
                .prop_map(|(first, p, q)| format!("/{first}{p}{}", q.unwrap_or_default())),
            1..8,
        ),
    ) {
        let google = parse(file.as_bytes(), Profile::Google);
        let rfc = parse(file.as_bytes(), Profile::Rfc9309);
        for agent in ["FooBot", "BarBot", "Qux_Bot", "Other"] {
            for url in &urls {
                prop_assert_eq!(
                    google.is_allowed(agent, url).unwrap(),
                    rfc.is_allowed(agent, url).unwrap(),
                    "{} {}\n{}", agent, url, file
                );
            }
        }
    }
}

/// A trailing `*` counts in precedence in both profiles (correction (b) of `rfc9309`: every
/// octet of the normalised pattern, `*` and `$` included), so `/a*` ties with `/ab` in both
/// and allow wins. Before the correction `rfc9309` dropped the trailing `*` and disagreed.
#[test]
fn trailing_star_precedence() {
    let file = b"user-agent: *\nallow: /a*\ndisallow: /ab\n";
    for profile in [Profile::Google, Profile::Rfc9309] {
        assert!(
            parse(file, profile).is_allowed("FooBot", "/abc").unwrap(),
            "{profile}"
        );
    }
}

/// The verdict by the rules' own definition, one rule at a time: every rule of the crawler's
/// groups (as the public API shows them: normalised pattern, anchor, priority) is matched with
/// Google's position-set algorithm ([`reference_matches`]); the best match decides (most
/// octets, allow on a tie; the first in file order under first-match precedence).
fn reference_verdict(robots: &Arc<RobotsTxt>, agent: &str, path: &[u8]) -> bool {
    let model = &**robots;
    let longest =
        model.profile().reading().precedence == robotrules_model::Precedence::LongestMatch;
    let Ok(rules) = crawler(robots, agent) else {
        return true;
    };
    let mut best: Option<(u32, bool, u32)> = None;
    for (_, compiled) in rules.groups() {
        for rule in compiled.rules() {
            if rule.is_empty() {
                continue;
            }
            let mut pattern = compiled.normalized(rule).into_owned().into_bytes();
            let wildcards = model.profile().reading().wildcards;
            let matched = if wildcards {
                if rule.is_anchored() {
                    pattern.push(b'$');
                } else if pattern.last() == Some(&b'$') {
                    // A literal `$` at the end: a trailing `*` keeps it literal in Google's
                    // syntax and changes nothing else.
                    pattern.push(b'*');
                }
                reference_matches(path, &pattern)
            } else {
                path.starts_with(&pattern)
            };
            if !matched {
                continue;
            }
            let allow = rule.kind == robotrules::RuleKind::Allow;
            let better = match best {
                None => true,
                Some((priority, best_allow, line)) if longest => {
                    rule.priority() > priority
                        || (rule.priority() == priority && allow && !best_allow)
                        || (rule.priority() == priority && allow == best_allow && rule.line < line)
                }
                Some((_, _, line)) => rule.line < line,
            };
            if better {
                best = Some((rule.priority(), allow, rule.line));
            }
        }
    }
    best.is_none_or(|(_, allow, _)| allow)
}

/// Patterns that share heads (`/a`, `/ab/`, …), start with `*` or `/*`, or are anchored, in
/// numbers that give a group the literal-prefix index and, for those that start with `/*`,
/// the literal index (more than 16 and more than 32 rules).
fn many_rules() -> impl Strategy<Value = Vec<RuleLine>> {
    let head = select(
        &[
            "/a", "/ab", "/ab/", "/b", "/a/b", "/ba", "/", "/*", "*", "/x.y",
        ][..],
    );
    let tail = joined(
        "",
        &["a", "b", "/", "*", "ab", "?", "x.y", "$", "*a*", "%61"],
        0..4,
    );
    let value = (head, tail).prop_map(|(h, t)| format!("{h}{t}"));
    prop::collection::vec((any::<bool>(), value), 10..120)
}

fn index_urls() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        joined(
            "/",
            &[
                "a", "b", "/", "ab", "ba", "?", "x.y", "a?b", "*", "$", "%61",
            ],
            0..8,
        ),
        1..12,
    )
}

proptest! {
    #![proptest_config(config())]

    /// Large groups (the literal-prefix index, the literal index of patterns that start with
    /// `*`), several groups for one crawler (merged), and a group compiled when first asked:
    /// every verdict is the one the rules' own definition gives, in all three profiles.
    #[test]
    fn the_indexed_matcher_agrees_with_rule_by_rule_matching(
        first in many_rules(),
        second in many_rules(),
        urls in index_urls(),
    ) {
        let groups: Vec<GroupLines> = vec![(vec!["FooBot"], first), (vec!["*"], vec![]), (vec!["foobot"], second)];
        let file = render(&groups);
        for profile in Profile::ALL {
            let robots = parse(file.as_bytes(), profile);
            let rules = crawler(&robots, "FooBot").unwrap();
            for url in &urls {
                let target = rules.target(url).unwrap();
                if profile.reading().implicit_robots_txt && target.is_robots_txt() {
                    continue;
                }
                let expected = reference_verdict(&robots, "FooBot", target.path());
                prop_assert_eq!(
                    rules.is_allowed(url), Ok(expected),
                    "{} {}\n{}", profile, url, file
                );
                // explain lists the matcher's matches; its verdict must be the verdict.
                prop_assert_eq!(rules.explain(url).map(|e| e.allowed), Ok(expected));
            }
        }
    }
}

/// Groups compile when a crawler first asks, once, whichever thread asks first: threads that
/// ask about different crawlers and URLs at the same time get the verdicts one thread gets
/// alone, and the value is the same afterwards.
#[test]
fn lazy_compile_is_thread_safe_and_deterministic() {
    let mut file = String::new();
    for (agent, n) in [("FooBot", 40), ("BarBot", 25), ("*", 60)] {
        file.push_str(&format!("user-agent: {agent}\n"));
        for i in 0..n {
            let key = if i % 3 == 0 { "allow" } else { "disallow" };
            file.push_str(&format!("{key}: /{}/{}*x{}\n", i % 7, i % 5, i));
            file.push_str(&format!("{key}: /*q{}\n", i % 11));
        }
    }
    let urls: Vec<String> = (0..200)
        .map(|i| {
            format!(
                "https://example.com/{}/{}yx{}?q{}",
                i % 7,
                i % 5,
                i % 60,
                i % 13
            )
        })
        .collect();
    let agents = ["FooBot", "BarBot", "OtherBot"];
    for profile in Profile::ALL {
        let alone = parse(file.as_bytes(), profile);
        let expected: Vec<Vec<bool>> = agents
            .iter()
            .map(|a| {
                urls.iter()
                    .map(|u| alone.is_allowed(a, u).unwrap())
                    .collect()
            })
            .collect();
        let shared = parse(file.as_bytes(), profile);
        std::thread::scope(|scope| {
            for t in 0..6 {
                let (shared, urls, expected) = (&shared, &urls, &expected);
                scope.spawn(move || {
                    for round in 0..3 {
                        let a = (t + round) % agents.len();
                        let rules = crawler(shared, agents[a]).unwrap();
                        for (u, url) in urls.iter().enumerate().rev() {
                            assert_eq!(rules.is_allowed(url), Ok(expected[a][u]), "{url}");
                        }
                    }
                });
            }
        });
        assert_eq!(
            format!("{:?}", shared.groups()),
            format!("{:?}", alone.groups())
        );
    }
}
