//! The edits a site owner makes, each as an old and a new file, and what the diff says about
//! them under each profile.

use std::sync::Arc;
use std::time::Duration;

use robotrules_diff::{
    agents_to_compare, diff_rules, diff_urls, witness_candidates, AgentDiff, Deadline, DiffError,
    Expired, RuleChange,
};
use robotrules_model::{Precedence, Profile, RobotsTxt, RuleKind, Selection};
use rstest::rstest;

const R: Profile = Profile::Rfc9309;
const G: Profile = Profile::Google;
const L: Profile = Profile::Legacy1994;

fn parse(file: &str, profile: Profile) -> Arc<RobotsTxt> {
    Arc::new(RobotsTxt::parse(file.as_bytes(), profile, 512_000))
}

/// What a rule change says, in short: (agent, witness, line before, line after, allowed
/// before, allowed after).
type Short = (String, String, Option<u32>, Option<u32>, bool, bool);

fn short(changes: &[RuleChange]) -> Vec<Short> {
    changes
        .iter()
        .map(|c| {
            (
                c.agent.clone(),
                c.witness.clone(),
                c.before.line(),
                c.after.line(),
                c.before.allowed,
                c.after.allowed,
            )
        })
        .collect()
}

fn rules(old: &str, new: &str, profile: Profile, agents: &[&str]) -> Vec<RuleChange> {
    diff_rules(&parse(old, profile), &parse(new, profile), agents).expect("comparable")
}

fn s(
    agent: &str,
    witness: &str,
    before: Option<u32>,
    after: Option<u32>,
    allowed: (bool, bool),
) -> Short {
    (
        agent.into(),
        witness.into(),
        before,
        after,
        allowed.0,
        allowed.1,
    )
}

#[rstest]
fn an_added_disallow(#[values(R, G, L)] profile: Profile) {
    let old = "User-agent: *\nDisallow: /private/\n";
    let new = "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n";
    let changes = rules(old, new, profile, &["ExampleBot"]);
    // `/tmp/` and `/tmp/x` both show it: one change per pair of deciding lines.
    assert_eq!(
        short(&changes),
        [s("ExampleBot", "/tmp/", None, Some(3), (true, false))]
    );
    let rule = changes[0]
        .after
        .decided_by
        .as_ref()
        .expect("a rule decided");
    assert_eq!(
        (rule.kind, rule.pattern.as_str()),
        (RuleKind::Disallow, "/tmp/")
    );
    assert_eq!(changes[0].profile, profile);

    let urls = [
        "https://example.com/tmp/a.txt",
        "https://example.com/private/b",
        "/c",
    ];
    let changes = diff_urls(
        &parse(old, profile),
        &parse(new, profile),
        &["ExampleBot"],
        &urls,
    )
    .expect("comparable");
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].url, "https://example.com/tmp/a.txt");
    assert_eq!(changes[0].path, "/tmp/a.txt");
    assert_eq!(
        (changes[0].before.line(), changes[0].after.line()),
        (None, Some(3))
    );
}

#[rstest]
fn a_removed_allow(#[values(R, G)] profile: Profile) {
    let old = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n";
    let new = "User-agent: *\nDisallow: /private/\n";
    let changes = rules(old, new, profile, &["ExampleBot", "Googlebot"]);
    assert_eq!(
        short(&changes),
        [
            s(
                "ExampleBot",
                "/private/press/",
                Some(3),
                Some(2),
                (true, false)
            ),
            s(
                "Googlebot",
                "/private/press/",
                Some(3),
                Some(2),
                (true, false)
            ),
        ]
    );
    assert_eq!(
        changes[0].before.decided_by.as_ref().map(|r| r.kind),
        Some(RuleKind::Allow)
    );
}

/// `User agent: Googlebot` (a space for the hyphen): `google` accepts the spelling, so nothing
/// changes; under `rfc9309` the line is an unknown record, which does not start a group, so
/// `Disallow: /nogoogle/` joins the `*` group: Googlebot loses its own group and gets `*`'s
/// rules, and every other crawler gets `/nogoogle/` disallowed.
#[test]
fn a_group_renamed_by_a_typo_google_accepts() {
    let old = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n";
    let new = "User-agent: *\nDisallow: /private/\n\nUser agent: Googlebot\nDisallow: /nogoogle/\n";
    let agents = ["Googlebot", "Bingbot"];

    let changes = rules(old, new, R, &agents);
    assert_eq!(
        short(&changes),
        [
            s("Googlebot", "/private/", None, Some(2), (true, false)),
            s("Bingbot", "/nogoogle/", None, Some(5), (true, false)),
        ]
    );
    // Googlebot was named by the group at line 4, and now falls to `*` at line 1.
    let googlebot = &changes[0];
    assert_eq!(googlebot.before.selection, Selection::Exact);
    assert_eq!(googlebot.before.groups, [4]);
    assert_eq!(googlebot.after.selection, Selection::Global);
    assert_eq!(googlebot.after.groups, [1]);

    assert_eq!(rules(old, new, G, &agents), []);
}

/// `User-agnet` is a typo neither profile accepts (Google's library knows `useragent` and
/// `user agent`, not this one): both read the rules below it as the `*` group's.
#[rstest]
fn a_group_renamed_by_a_typo_no_profile_accepts(#[values(R, G)] profile: Profile) {
    let old = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n";
    let new = "User-agent: *\nDisallow: /private/\n\nUser-agnet: Googlebot\nDisallow: /nogoogle/\n";
    assert_eq!(
        short(&rules(old, new, profile, &["Googlebot", "Bingbot"])),
        [
            s("Googlebot", "/private/", None, Some(2), (true, false)),
            s("Bingbot", "/nogoogle/", None, Some(5), (true, false)),
        ]
    );
}

/// Groups swapped and rules within a group swapped: longest-match readings decide every path
/// as before; the 1994 reading's first match does not.
#[test]
fn a_reordered_file() {
    let old = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\n\
               User-agent: Googlebot\nDisallow: /nogoogle/\n";
    let new = "User-agent: Googlebot\nDisallow: /nogoogle/\n\n\
               User-agent: *\nAllow: /private/press/\nDisallow: /private/\n";
    let agents = ["Googlebot", "ExampleBot"];
    assert_eq!(rules(old, new, R, &agents), []);
    assert_eq!(rules(old, new, G, &agents), []);
    let urls = ["/private/press/a", "/private/b", "/nogoogle/c", "/d"];
    assert_eq!(
        diff_urls(&parse(old, R), &parse(new, R), &agents, &urls).expect("comparable"),
        []
    );
    assert_eq!(
        short(&rules(old, new, L, &agents)),
        [s(
            "ExampleBot",
            "/private/press/",
            Some(2),
            Some(5),
            (false, true)
        )]
    );
}

/// `/a/*.pdf` widened to `/*.pdf`: a PDF outside `/a/` shows it; narrowed back, the same path
/// shows the reverse.
#[rstest]
fn a_wildcard_widening(#[values(R, G)] profile: Profile) {
    let old = "User-agent: *\nDisallow: /a/*.pdf\n";
    let new = "User-agent: *\nDisallow: /*.pdf\n";
    let changes = rules(old, new, profile, &["ExampleBot"]);
    assert_eq!(
        short(&changes),
        [s("ExampleBot", "/x.pdf", None, Some(2), (true, false))]
    );
    assert_eq!(
        changes[0]
            .after
            .decided_by
            .as_ref()
            .map(|r| r.pattern.as_str()),
        Some("/*.pdf")
    );
    assert_eq!(
        short(&rules(new, old, profile, &["ExampleBot"])),
        [s("ExampleBot", "/x.pdf", Some(2), None, (false, true))]
    );
}

/// An end anchor added: the pattern plus one byte shows it.
#[rstest]
fn an_anchor_added(#[values(R, G)] profile: Profile) {
    let old = "User-agent: *\nDisallow: /*.php\n";
    let new = "User-agent: *\nDisallow: /*.php$\n";
    assert_eq!(
        short(&rules(old, new, profile, &["ExampleBot"])),
        [s("ExampleBot", "/x.phpx", Some(2), None, (false, true))]
    );
}

/// The filler is a letter no pattern has: `x` would give `/xxy`, which both patterns match.
#[test]
fn the_filler_avoids_the_patterns_letters() {
    let old = "User-agent: *\nDisallow: /x*y\n";
    let new = "User-agent: *\nDisallow: /*xy\n";
    assert_eq!(
        short(&rules(old, new, R, &["ExampleBot"])),
        [
            s("ExampleBot", "/xzy", Some(2), None, (false, true)),
            s("ExampleBot", "/zxy", None, Some(2), (true, false)),
        ]
    );
}

/// A change that shows only where two patterns meet (a `?` before a `.pdf`): no single
/// pattern's path shows it, a pair does.
#[rstest]
fn a_change_where_two_patterns_meet(#[values(R, G)] profile: Profile) {
    let old = "User-agent: *\nDisallow: /*?\nAllow: /*.pdf$\n";
    let new = "User-agent: *\nDisallow: /*?\nAllow: /*.pdf\n";
    assert_eq!(
        short(&rules(old, new, profile, &["ExampleBot"])),
        [s("ExampleBot", "/x.pdfx?", Some(2), Some(3), (false, true))]
    );
    let changes = diff_urls(
        &parse(old, profile),
        &parse(new, profile),
        &["ExampleBot"],
        &["/a.pdf?x", "/a?b.pdf"],
    )
    .expect("comparable");
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].url, "/a.pdf?x");
}

/// The documented limit: the same edit in a file with too many patterns for pairs is found
/// by no candidate, though a URL shows it.
#[test]
fn pairs_are_not_made_in_large_files() {
    let mut others = String::new();
    for i in 0..250 {
        others.push_str(&format!("Disallow: /d{i}/\nDisallow: /*.e{i}$\n"));
    }
    let old = format!("User-agent: *\nDisallow: /*?\nAllow: /*.pdf$\n{others}");
    let new = format!("User-agent: *\nDisallow: /*?\nAllow: /*.pdf\n{others}");
    let (old, new) = (parse(&old, R), parse(&new, R));
    assert!(witness_candidates(&old, &new).len() < robotrules_diff::MAX_PAIRS);
    assert_eq!(
        diff_rules(&old, &new, &["ExampleBot"]).expect("comparable"),
        []
    );
    let changes = diff_urls(&old, &new, &["ExampleBot"], &["/a.pdf?x"]).expect("comparable");
    assert_eq!(changes.len(), 1);
}

#[test]
fn identical_and_empty_files_differ_in_nothing() {
    for profile in Profile::ALL {
        for file in ["", "User-agent: *\nDisallow: /\n", "garbage\0\u{1b}[2J\n"] {
            assert_eq!(rules(file, file, profile, &["ExampleBot"]), []);
        }
    }
    // Empty against disallow-all: the root shows it.
    assert_eq!(
        short(&rules(
            "",
            "User-agent: *\nDisallow: /\n",
            R,
            &["ExampleBot"]
        )),
        [s("ExampleBot", "/", None, Some(2), (true, false))]
    );
}

#[test]
fn what_cannot_be_compared_is_an_error() {
    let file = "User-agent: *\nDisallow: /x\n";
    let error = diff_rules(&parse(file, R), &parse(file, G), &["ExampleBot"]).unwrap_err();
    assert_eq!(error, DiffError::ProfileMismatch { old: R, new: G });
    assert!(error.to_string().contains("rfc9309") && error.to_string().contains("google"));

    let header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    let Err(DiffError::InvalidAgent(error)) =
        diff_rules(&parse(file, R), &parse(file, R), &[header])
    else {
        panic!("rfc9309 takes product tokens only");
    };
    assert_eq!(error.suggestion.as_deref(), Some("Googlebot"));

    let diff = AgentDiff::new(&parse(file, R), &parse("", R), "ExampleBot").expect("comparable");
    assert!(diff.url("no-slash").is_err());
    assert!(diff.url("/x").expect("a path").is_some());
    assert!(matches!(
        diff_urls(
            &parse(file, R),
            &parse("", R),
            &["ExampleBot"],
            &["/x", "no-slash"]
        ),
        Err(DiffError::InvalidUrl(_))
    ));
}

#[cfg(feature = "serde")]
#[test]
fn changes_serialize_to_json() {
    let old = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n";
    let new = "User-agent: *\nDisallow: /private/\n";
    let changes = rules(old, new, R, &["ExampleBot"]);
    let json = serde_json::to_value(&changes).expect("serializable");
    assert_eq!(json[0]["agent"], "ExampleBot");
    assert_eq!(json[0]["profile"], "rfc9309");
    assert_eq!(json[0]["witness"], "/private/press/");
    assert_eq!(json[0]["before"]["allowed"], true);
    assert_eq!(json[0]["before"]["decided_by"]["line"], 3);
    assert_eq!(json[0]["before"]["decided_by"]["kind"], "allow");
    assert_eq!(json[0]["after"]["reason"], "rule-matched");
    assert_eq!(json[0]["after"]["decided_by"]["pattern"], "/private/");
}

#[rstest]
fn the_agents_to_compare(#[values(R, G, L)] profile: Profile) {
    let old = "User-agent: Googlebot\nUser-agent: ExampleBot\nDisallow: /a\n\n\
               User-agent: *\nDisallow: /b\n";
    let new = "User-agent: googlebot\nUser-agent: GPTBot\nDisallow: /\n";
    let agents = agents_to_compare(&parse(old, profile), &parse(new, profile));
    // ExampleBot is named, so another name stands for the rest.
    assert_eq!(agents, ["Googlebot", "ExampleBot", "GPTBot", "AnyOtherBot"]);
    // Every name is one the profile answers for, and the last one gets `*` in both files.
    let agents: Vec<&str> = agents.iter().map(String::as_str).collect();
    let changes = diff_rules(&parse(old, profile), &parse(new, profile), &agents)
        .expect("every agent is valid");
    let other = changes
        .iter()
        .find(|c| c.agent == "AnyOtherBot")
        .expect("a change");
    assert_eq!(other.before.selection, Selection::Global);
    assert_eq!(other.after.selection, Selection::Unmatched);
}

/// A file of many rules, one of them removed: exactly that rule is reported, on its own path
/// (when it ever decided).
#[rstest]
fn one_rule_removed_among_many(#[values(R, G, L)] profile: Profile) {
    let lines: Vec<String> = (0..400)
        .map(|i| match i % 4 {
            0 => format!("Disallow: /d{i}/"),
            1 => format!("Allow: /d{}/keep{i}", i - 1),
            2 => format!("Disallow: /*.e{i}$"),
            _ => format!("Disallow: /q{i}?*&"),
        })
        .collect();
    let file = |skip: Option<usize>| {
        let mut file = String::from("User-agent: *\n");
        for (i, line) in lines.iter().enumerate() {
            if Some(i) != skip {
                file.push_str(line);
                file.push('\n');
            }
        }
        parse(&file, profile)
    };
    // `Allow: /d200/keep201`, line 203.
    let (old, new) = (file(None), file(Some(201)));
    assert!(witness_candidates(&old, &new).len() > 400);
    let changes = diff_rules(&old, &new, &["ExampleBot"]).expect("comparable");
    if profile.reading().precedence == Precedence::FirstMatch {
        // The Allow came after `Disallow: /d200/`, which matches first: it never decided.
        assert_eq!(changes, []);
    } else {
        let expected = s(
            "ExampleBot",
            "/d200/keep201",
            Some(203),
            Some(202),
            (true, false),
        );
        assert_eq!(short(&changes), [expected]);
    }
}

#[test]
fn a_crawler_with_the_same_rules_in_both_files_has_no_change() {
    // The same rules on other lines, under another group line: nothing to ask.
    let old = parse("User-agent: a\nDisallow: /x\nAllow: /x/y\n", R);
    let new = parse(
        "# moved\nUser-agent: b\nUser-agent: a\nDisallow: /x\nAllow: /x/y\n",
        R,
    );
    let diff = AgentDiff::new(&old, &new, "a").expect("comparable");
    assert_eq!(diff.rule_changes(&witness_candidates(&old, &new)), []);
    // One byte of one rule differs: the change is found.
    let new = parse("User-agent: a\nDisallow: /x\nAllow: /x/z\n", R);
    let diff = AgentDiff::new(&old, &new, "a").expect("comparable");
    assert_eq!(diff.rule_changes(&witness_candidates(&old, &new)).len(), 2);
}

#[test]
fn the_witness_search_stops_at_its_deadline() {
    let old = parse("User-agent: *\nDisallow: /a\n", R);
    let new = parse("User-agent: *\nDisallow: /b\n", R);
    let diff = AgentDiff::new(&old, &new, "ExampleBot").expect("comparable");
    let candidates = witness_candidates(&old, &new);
    let passed = Deadline::after(Duration::ZERO);
    assert_eq!(diff.rule_changes_within(&candidates, passed), Err(Expired));
    let ahead = Deadline::after(Duration::from_secs(3600));
    assert_eq!(
        diff.rule_changes_within(&candidates, ahead),
        Ok(diff.rule_changes(&candidates))
    );
    assert_eq!(diff.rule_changes(&candidates).len(), 2);
}
