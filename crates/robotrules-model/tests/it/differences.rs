//! `robotrules_model::differences`: each cause found from the decisions two profiles made,
//! with its line, on a small real file. The pair is (first, second) as listed in each case.

// Test code: a failure to unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use robotrules_model::{differences, Crawler, Difference, Profile, RobotsTxt};

/// The differences between `a` and `b` for `agent` on `url` in `file`.
fn diff(file: &str, a: Profile, b: Profile, agent: &str, url: &str) -> Vec<Difference> {
    let crawler = |p| {
        let robots = Arc::new(RobotsTxt::parse(file.as_bytes(), p, 512_000));
        Crawler::new(robots, agent).unwrap()
    };
    let (ca, cb) = (crawler(a), crawler(b));
    let (ea, eb) = (ca.explain(url).unwrap(), cb.explain(url).unwrap());
    differences(&ca, &ea, &cb, &eb)
}

const RFC: Profile = Profile::Rfc9309;
const GOOGLE: Profile = Profile::Google;
const LEGACY: Profile = Profile::Legacy1994;

#[test]
fn a_misspelt_user_agent_line_is_the_cause_not_the_token() {
    let file = "User-agent: *\nAllow: /\n\nUser agent: BadBot\nDisallow: /\n";
    let found = diff(file, RFC, GOOGLE, "BadBot", "/x");
    assert_eq!(found.len(), 1, "{found:?}");
    let Difference::KeySpelling {
        line,
        key,
        accepted_by,
        ignored_by,
        ..
    } = &found[0]
    else {
        panic!("{found:?}");
    };
    assert_eq!(*line, 4);
    assert_eq!(&file[key.start..key.end], "User agent");
    assert_eq!((*accepted_by, *ignored_by), (GOOGLE, RFC));
}

#[test]
fn a_misspelt_rule_is_not_a_rule_under_rfc9309() {
    let file = "User-agent: *\nDissallow: /\n";
    let found = diff(file, RFC, GOOGLE, "Bot", "/x");
    assert!(
        matches!(
            found.as_slice(),
            [Difference::KeySpelling {
                line: 2,
                accepted_by: GOOGLE,
                ignored_by: RFC,
                ..
            }]
        ),
        "{found:?}"
    );
    // A missing colon is a key spelling too.
    let found = diff("User-agent: *\nDisallow /x\n", RFC, GOOGLE, "Bot", "/x");
    assert!(
        matches!(found.as_slice(), [Difference::KeySpelling { line: 2, .. }]),
        "{found:?}"
    );
}

#[test]
fn a_token_read_differently_names_the_line_and_both_tokens() {
    let found = diff(
        "User-agent: MJ12bot\nDisallow: /\n",
        RFC,
        GOOGLE,
        "MJ12bot",
        "/x",
    );
    let [Difference::AgentToken {
        line,
        value,
        tokens,
    }] = found.as_slice()
    else {
        panic!("{found:?}");
    };
    assert_eq!((*line, value.as_str()), (1, "MJ12bot"));
    assert_eq!(tokens[0].value, "MJ12bot");
    assert_eq!(tokens[1].value, "MJ");
}

#[test]
fn percent_encoding_shows_both_forms() {
    let found = diff("User-agent: *\nDisallow: /%62\n", RFC, GOOGLE, "Bot", "/b");
    let [Difference::Encoding {
        line,
        pattern,
        compared,
    }] = found.as_slice()
    else {
        panic!("{found:?}");
    };
    assert_eq!((*line, pattern.as_str()), (2, "/%62"));
    assert_eq!(compared[0].profile, RFC);
    assert_eq!(compared[0].value.pattern, "/b");
    assert_eq!(compared[1].value.pattern, "/%62");
}

#[test]
fn a_dot_segment_path_is_compared_differently() {
    let found = diff(
        "User-agent: *\nDisallow: /b\n",
        RFC,
        GOOGLE,
        "Bot",
        "/a/../b",
    );
    let [Difference::Encoding {
        line: 2, compared, ..
    }] = found.as_slice()
    else {
        panic!("{found:?}");
    };
    assert_eq!(compared[0].value.path, "/b");
    assert_eq!(compared[1].value.path, "/a/../b");
}

#[test]
fn wildcards_read_literally_are_a_rule_matching_once() {
    let found = diff(
        "User-agent: *\nAllow: /a\nDisallow: /*.htm\n",
        RFC,
        LEGACY,
        "Bot",
        "/a.htm",
    );
    assert!(
        matches!(found.as_slice(), [Difference::Encoding { line: 3, .. }]),
        "{found:?}"
    );
}

#[test]
fn precedence_first_match_against_longest_match() {
    let found = diff(
        "User-agent: *\nDisallow: /a\nAllow: /ab\n",
        RFC,
        LEGACY,
        "Bot",
        "/abc",
    );
    let [Difference::Precedence { decided }] = found.as_slice() else {
        panic!("{found:?}");
    };
    assert_eq!(decided[0].value.line, Some(3));
    assert_eq!(decided[1].value.line, Some(2));
}

#[test]
fn merged_groups_against_the_first_record() {
    let file = "User-agent: foo\nDisallow: /a\n\nUser-agent: foo\nDisallow: /b\n";
    let found = diff(file, RFC, LEGACY, "foo", "/b");
    let [Difference::Groups { groups, merging }] = found.as_slice() else {
        panic!("{found:?}");
    };
    assert!(merging);
    let lines = |i: usize| groups[i].value.1.iter().map(|g| g.line).collect::<Vec<_>>();
    assert_eq!(lines(0), [1, 4]);
    assert_eq!(lines(1), [1]);
}

#[test]
fn substring_selection_is_a_group_difference() {
    // `bot` is part of `ExampleBot` under the 1994 reading only.
    let file = "User-agent: bot\nDisallow: /\n";
    let found = diff(file, RFC, LEGACY, "ExampleBot", "/x");
    assert!(
        matches!(
            found.as_slice(),
            [Difference::Groups { merging: false, .. }]
        ),
        "{found:?}"
    );
}

#[test]
fn robots_txt_and_index_html_special_cases() {
    let found = diff(
        "User-agent: *\nDisallow: /\n",
        RFC,
        GOOGLE,
        "Bot",
        "/robots.txt",
    );
    assert!(
        matches!(
            found.as_slice(),
            [Difference::ImplicitRobotsTxt { allowed_by: RFC }]
        ),
        "{found:?}"
    );
    let file = "User-agent: *\nDisallow: /shop/\nAllow: /shop/index.html\n";
    let found = diff(file, RFC, GOOGLE, "Bot", "/shop/");
    assert!(
        matches!(
            found.as_slice(),
            [Difference::IndexHtml {
                line: 3,
                derived_by: GOOGLE
            }]
        ),
        "{found:?}"
    );
}

#[test]
fn a_line_cut_by_google_s_line_length_limit() {
    // Cut, the anchored allow loses its `$` under google and matches a longer path.
    let file = format!(
        "User-agent: *\nAllow: /{}x$\nDisallow: /\n",
        "a".repeat(17_000)
    );
    let url = format!("/{}xy", "a".repeat(17_000));
    let found = diff(&file, RFC, GOOGLE, "Bot", &url);
    assert!(
        found.iter().any(|d| matches!(
            d,
            Difference::LineCut {
                line: 2,
                cut_by: GOOGLE
            }
        )),
        "{found:?}"
    );
}

#[test]
fn agreeing_profiles_have_no_difference() {
    for (file, url) in [
        ("User-agent: *\nAllow: /\n", "/x"),
        ("User-agent: *\nDisallow: /\n", "/x"),
        ("", "/x"),
        (
            "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n",
            "/wp-admin/x",
        ),
    ] {
        for other in [GOOGLE, LEGACY] {
            assert_eq!(diff(file, RFC, other, "Bot", url), [], "{file:?} {url}");
        }
    }
}

#[test]
fn a_misspelt_line_that_did_not_decide_is_no_cause() {
    // Under google, line 2 (`User agent: b`) joins the group and line 4 (`Dissallow: /x`)
    // matches, but neither chose the group for `a` nor decided: the encoding of line 3 did.
    let file = "User-agent: a\nUser agent: b\nDisallow: /%62\nDissallow: /\nAllow: /\n";
    let found = diff(file, RFC, GOOGLE, "a", "/b");
    assert!(
        matches!(found.as_slice(), [Difference::Encoding { line: 3, .. }]),
        "{found:?}"
    );
}

#[test]
fn a_blank_line_ending_a_record_is_a_group_difference() {
    // Under the 1994 reading the blank line ends `a`'s record, which has no rules.
    let file = "User-agent: a\n\nUser-agent: b\nDisallow: /\n";
    let found = diff(file, RFC, LEGACY, "a", "/x");
    let [Difference::Groups { groups, .. }] = found.as_slice() else {
        panic!("{found:?}");
    };
    assert_eq!(groups[0].value.1[0].agents, ["a", "b"]);
    assert_eq!(groups[1].value.1[0].agents, ["a"]);
}

#[test]
fn an_empty_disallow_allows_all_only_in_1994() {
    let found = diff(
        "User-agent: *\nDisallow:\nDisallow: /\n",
        RFC,
        LEGACY,
        "Bot",
        "/x",
    );
    assert!(
        matches!(
            found.as_slice(),
            [Difference::EmptyDisallow {
                line: 2,
                allows_all: LEGACY
            }]
        ),
        "{found:?}"
    );
}
