//! Matcher tests, including a differential check against Google's position-set algorithm.

use super::oracle::find;
use super::*;
use crate::Profile;
use rstest::rstest;

fn compiled_matches(pattern: &str, profile: Profile, path: &str) -> bool {
    let c = compile(pattern.as_bytes(), RuleKind::Disallow, profile.reading());
    c.pattern.matches(&c.bytes, path.as_bytes())
}

/// Google's `RobotsMatchStrategy::Matches`: a set of positions, O(path * pattern).
fn reference_matches(path: &[u8], pattern: &[u8]) -> bool {
    let mut pos = vec![0usize];
    for (i, &c) in pattern.iter().enumerate() {
        if c == b'$' && i + 1 == pattern.len() {
            return pos.last() == Some(&path.len());
        }
        if c == b'*' {
            let first = pos[0];
            pos = (first..=path.len()).collect();
        } else {
            pos = pos
                .into_iter()
                .filter(|&p| p < path.len() && path[p] == c)
                .map(|p| p + 1)
                .collect();
            if pos.is_empty() {
                return false;
            }
        }
    }
    true
}

#[rstest]
#[case("/fish", "/fish", true)]
#[case("/fish", "/fish.html", true)]
#[case("/fish", "/Fish.asp", false)]
#[case("/fish", "/catfish", false)]
#[case("/fish*", "/fishheads/yummy.html", true)]
#[case("/fish/", "/fish", false)]
#[case("/*.php", "/index?f=filename.php/", true)]
#[case("/*.php$", "/filename.php?parameters", false)]
#[case("/*.php$", "/folder/filename.php", true)]
#[case("/fish*.php", "/fishheads/catfish.php?parameters", true)]
#[case("/fish*.php", "/Fish.PHP", false)]
#[case("/this/*/exactly", "/this/a/b/exactly", true)]
#[case("/this/*/exactly", "/this/exactly", false)]
#[case("*.gif$", "/images/logo.gif", true)]
#[case("/a$b", "/a$b", true)]
#[case("*", "/anything", true)]
#[case(
    "/*a*a*a*a*a*a$",
    "/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
    false
)]
fn google_matching(#[case] pattern: &str, #[case] path: &str, #[case] expected: bool) {
    assert_eq!(compiled_matches(pattern, Profile::Google, path), expected);
    assert_eq!(
        reference_matches(path.as_bytes(), pattern.as_bytes()),
        expected
    );
}

#[test]
fn glob_agrees_with_the_reference_on_every_small_case() {
    let alphabet = [b'a', b'b', b'*', b'$', b'/'];
    let paths: Vec<Vec<u8>> = (0..4u32)
        .flat_map(|len| {
            (0..3usize.pow(len)).map(move |mut n| {
                let mut p = vec![b'/'];
                for _ in 0..len {
                    p.push([b'a', b'b', b'/'][n % 3]);
                    n /= 3;
                }
                p
            })
        })
        .collect();
    for len in 0..5u32 {
        for mut n in 0..5usize.pow(len) {
            let mut pattern = vec![b'/'];
            for _ in 0..len {
                pattern.push(alphabet[n % 5]);
                n /= 5;
            }
            let text = String::from_utf8(pattern.clone()).unwrap();
            for path in &paths {
                let path_text = String::from_utf8(path.clone()).unwrap();
                assert_eq!(
                    compiled_matches(&text, Profile::Google, &path_text),
                    reference_matches(path, &pattern),
                    "pattern {text:?} path {path_text:?}"
                );
            }
        }
    }
}

#[rstest]
#[case("/x/page.html", 12)]
#[case("/*.html", 7)]
#[case("/*****", 6)]
#[case("/$", 2)]
#[case("/foo/bar/ツ", 18)]
fn google_priority_is_escaped_length(#[case] pattern: &str, #[case] priority: u32) {
    assert_eq!(
        compile(
            pattern.as_bytes(),
            RuleKind::Allow,
            Profile::Google.reading()
        )
        .pattern
        .priority,
        priority
    );
}

#[rstest]
#[case("/x/page.html", 12)]
#[case("/*.html", 7)]
#[case("/*****", 6)]
#[case("/fish*", 6)]
#[case("/a*", 3)]
#[case("/$", 2)]
#[case("/a$b", 6)]
#[case("/foo/bar/%62%61%7A", 12)]
#[case("fish", 5)]
fn rfc_priority_counts_every_canonical_octet(#[case] pattern: &str, #[case] priority: u32) {
    assert_eq!(
        compile(
            pattern.as_bytes(),
            RuleKind::Allow,
            Profile::Rfc9309.reading()
        )
        .pattern
        .priority,
        priority
    );
}

#[test]
fn rfc_prepends_a_slash_and_google_never_matches() {
    assert!(compiled_matches("fish", Profile::Rfc9309, "/fish/x"));
    assert!(!compiled_matches("fish", Profile::Google, "/fish/x"));
}

#[test]
fn legacy_is_a_literal_prefix() {
    assert!(compiled_matches("/a*", Profile::Legacy1994, "/a%2A"));
    assert!(!compiled_matches("/a*", Profile::Legacy1994, "/ab"));
    assert!(compiled_matches("", Profile::Legacy1994, "/anything"));
}

#[test]
fn index_html_rewrite() {
    let c = compile(
        b"/allowed-slash/index.html",
        RuleKind::Allow,
        Profile::Google.reading(),
    );
    assert_eq!(c.index_html, Some((b"/allowed-slash/$".to_vec(), 16)));
    assert!(compile(
        b"/x/index.html",
        RuleKind::Disallow,
        Profile::Google.reading()
    )
    .index_html
    .is_none());
    assert!(
        compile(b"/x/indexhtml", RuleKind::Allow, Profile::Google.reading())
            .index_html
            .is_none()
    );
}

#[test]
fn find_short_and_find_byte_agree_with_a_plain_search() {
    let haystacks: Vec<Vec<u8>> = (0..140)
        .map(|len| (0..len).map(|i| b"abba/a\x80"[(i * 5 + len) % 7]).collect())
        .collect();
    for haystack in &haystacks {
        for needle in [
            &b"a"[..],
            b"ab",
            b"ba/",
            b"/a\x80",
            b"zz",
            b"",
            b"abba/a\x80a",
        ] {
            let expected = if needle.is_empty() {
                Some(0)
            } else {
                haystack.windows(needle.len()).position(|w| w == needle)
            };
            if needle.len() <= SHORT {
                assert_eq!(
                    find_short(haystack, needle),
                    expected,
                    "{haystack:?} {needle:?}"
                );
            }
            assert_eq!(find(haystack, needle), expected, "{haystack:?} {needle:?}");
        }
        for byte in [b'a', b'/', 0x80, b'z'] {
            let expected = haystack.iter().position(|&b| b == byte);
            assert_eq!(find_byte(haystack, byte), expected);
        }
    }
}
