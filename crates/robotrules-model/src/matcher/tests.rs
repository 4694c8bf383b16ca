//! The matcher against the plain definition of a match ([`crate::pattern`]'s test oracle):
//! for groups small enough to be scanned and large enough to get an index and literal
//! buckets, the first matching pattern and the set of matching patterns must be the oracle's,
//! before the index and searchers are built (a group is scanned until asked often enough),
//! across the build, and after it.

use rstest::rstest;

use super::{Matcher, Probe, BUILD_AFTER, SCAN_BUDGET, SCAN_MAX};
use crate::pattern::{compile, len_u32, Pattern, RuleKind};
use crate::test_rng::Rng;
use crate::Profile;

/// Patterns compiled under `profile` and placed back to back, as a group compiles them.
fn compiled(patterns: &[&[u8]], profile: Profile) -> (Vec<Pattern>, Vec<u8>) {
    let mut bytes = Vec::new();
    let mut placed = Vec::new();
    for text in patterns {
        let c = compile(text, RuleKind::Disallow, profile.reading());
        let mut pattern = c.pattern;
        pattern.start = len_u32(bytes.len());
        pattern.len = len_u32(c.bytes.len());
        bytes.extend_from_slice(&c.bytes);
        placed.push(pattern);
    }
    (placed, bytes)
}

/// Checks `path` against every pattern the matcher was made from, both ways.
fn agree(patterns: &[Pattern], bytes: &[u8], matcher: &Matcher, path: &[u8]) {
    let oracle: Vec<u32> = patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| p.matches(p.bytes(bytes), path))
        .map(|(i, _)| len_u32(i))
        .collect();
    let first = matcher.first_match(bytes, &mut Probe::new(path));
    assert_eq!(
        first,
        oracle.first().copied(),
        "first match of {:?}",
        String::from_utf8_lossy(path)
    );
    let every = matcher.every_match(bytes, &mut Probe::new(path));
    assert_eq!(
        every,
        oracle,
        "every match of {:?}",
        String::from_utf8_lossy(path)
    );
}

#[rstest]
#[case::prefix(&["/fish"], "/fish.html", Some(0))]
#[case::not_a_prefix(&["/fish"], "/Fish", None)]
#[case::exact(&["/$"], "/", Some(0))]
#[case::exact_longer(&["/$"], "/a", None)]
#[case::glob(&["/*.php"], "/a/b.php?x", Some(0))]
#[case::anchored_glob(&["/*.php$"], "/a/b.php?x", None)]
#[case::star_before_anchor(&["/a*$"], "/abc", Some(0))]
#[case::long_segment(&["/*/some-long-segment/*"], "/x/some-long-segment/y", Some(0))]
#[case::first_in_order(&["/a", "/"], "/a", Some(0))]
#[case::empty_matches_nothing(&["", "/"], "/a", Some(1))]
fn first_match_in_the_given_order(
    #[case] patterns: &[&str],
    #[case] path: &str,
    #[case] expected: Option<u32>,
) {
    let patterns: Vec<&[u8]> = patterns.iter().map(|p| p.as_bytes()).collect();
    let (placed, bytes) = compiled(&patterns, Profile::Google);
    let path = path.as_bytes();
    let scanned = Matcher::new(&placed, &bytes);
    let built = Matcher::new(&placed, &bytes).built(&bytes);
    for matcher in [&scanned, &built] {
        assert_eq!(matcher.first_match(&bytes, &mut Probe::new(path)), expected);
        agree(&placed, &bytes, matcher, path);
    }
}

/// A path or pattern over a small alphabet, so that matches are frequent.
fn text(rng: &mut Rng, wildcards: bool) -> Vec<u8> {
    const PLAIN: &[u8] = b"/ab.?=-";
    let len = rng.below(12);
    let mut out = vec![b'/'];
    for _ in 0..len {
        let c = if wildcards && rng.below(5) == 0 {
            b'*'
        } else {
            PLAIN[rng.below(PLAIN.len())]
        };
        out.push(c);
    }
    if wildcards && rng.below(4) == 0 {
        out.push(b'$');
    }
    out
}

#[rstest]
#[case::scanned(SCAN_MAX)]
#[case::indexed(SCAN_MAX + 5)]
#[case::literal_buckets(200)]
#[case::many(2_000)]
fn agrees_with_the_oracle(
    #[case] size: usize,
    #[values(Profile::Google, Profile::Rfc9309)] profile: Profile,
) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ size as u64);
    for _ in 0..8 {
        let texts: Vec<Vec<u8>> = (0..size).map(|_| text(&mut rng, true)).collect();
        let refs: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
        let (placed, bytes) = compiled(&refs, profile);
        // Scanned first, then built on the way (a large group at once), and built from the
        // start.
        let lazy = Matcher::new(&placed, &bytes);
        let built = Matcher::new(&placed, &bytes).built(&bytes);
        for _ in 0..200 {
            let path = text(&mut rng, false);
            agree(&placed, &bytes, &lazy, &path);
            agree(&placed, &bytes, &built, &path);
        }
        // Paths that start like the patterns reach deep into the index.
        for pattern in texts.iter().take(50) {
            let mut path: Vec<u8> = pattern
                .iter()
                .copied()
                .filter(|&b| b != b'*' && b != b'$')
                .collect();
            path.extend(text(&mut rng, false));
            agree(&placed, &bytes, &lazy, &path);
            agree(&placed, &bytes, &built, &path);
        }
    }
}

#[test]
fn patterns_with_only_slash_heads_are_found_by_their_literals() {
    // More than the literal-bucket threshold of `/*…` patterns: every one is in the bucket
    // that every path visits.
    let texts: Vec<Vec<u8>> = (0..100).map(|i| format!("/*x{i}y*").into_bytes()).collect();
    let refs: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
    let (placed, bytes) = compiled(&refs, Profile::Google);
    let matcher = Matcher::new(&placed, &bytes);
    assert_eq!(
        matcher.first_match(&bytes, &mut Probe::new(b"/a/x42y/b")),
        Some(42)
    );
    for path in [&b"/x1y"[..], b"/x10y", b"/nothing", b"/x99y/x5y", b"/"] {
        agree(&placed, &bytes, &matcher, path);
    }
}

/// The check at which a group of `size` entries builds: the [`BUILD_AFTER`]th, or sooner when
/// that many scans would go past [`SCAN_BUDGET`] entries.
fn builds_at(size: usize) -> u32 {
    (SCAN_BUDGET / size).clamp(1, BUILD_AFTER as usize) as u32
}

/// A large group is scanned for its first checks and gets its index at the
/// [`BUILD_AFTER`]th (sooner past [`SCAN_BUDGET`] entries scanned); a group of a few plain
/// rules never builds anything; a very large group builds at its first check.
#[rstest]
#[case::large(SCAN_MAX + 5, builds_at(SCAN_MAX + 5), true)]
#[case::large_by_budget(SCAN_BUDGET / 8, 8, true)]
#[case::very_large(5_000, 1, true)]
#[case::small(SCAN_MAX, u32::MAX, false)]
fn a_group_is_scanned_until_asked_often_enough(
    #[case] size: usize,
    #[case] builds_at: u32,
    #[case] indexed: bool,
) {
    let texts: Vec<Vec<u8>> = (0..size).map(|i| format!("/p{i}/").into_bytes()).collect();
    let refs: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
    let (placed, bytes) = compiled(&refs, Profile::Google);
    let matcher = Matcher::new(&placed, &bytes);
    let path = format!("/p{}/x", size - 1).into_bytes();
    for asked in 1..=BUILD_AFTER {
        assert_eq!(
            matcher.first_match(&bytes, &mut Probe::new(&path)),
            Some(len_u32(size - 1))
        );
        assert_eq!(
            matcher.index.get().is_some(),
            asked >= builds_at,
            "after {asked} checks"
        );
    }
    assert_eq!(matcher.index.get().is_some_and(Option::is_some), indexed);
}

/// Long segments are searched without a prebuilt searcher until the group builds, then
/// with one: the same answers either way.
#[test]
fn long_segments_get_searchers_at_the_build() {
    let (placed, bytes) = compiled(&[b"/*/a-long-segment-here/*x", b"/b"], Profile::Rfc9309);
    let matcher = Matcher::new(&placed, &bytes);
    for asked in 1..=BUILD_AFTER + 1 {
        for path in [
            &b"/q/a-long-segment-here/zx"[..],
            b"/q/a-long-segment-her/x",
            b"/b",
        ] {
            agree(&placed, &bytes, &matcher, path);
        }
        assert_eq!(
            matcher.entries.finders.get().is_some(),
            asked * 3 >= BUILD_AFTER
        );
    }
}

/// Threads that ask one matcher at once cross its build together: every answer is the
/// oracle's, before, during and after the build, and the index is built once.
#[test]
fn threads_crossing_the_build_agree_with_the_oracle() {
    let mut rng = Rng(0x5EED);
    let texts: Vec<Vec<u8>> = (0..SCAN_MAX * 4).map(|_| text(&mut rng, true)).collect();
    let refs: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
    let (placed, bytes) = compiled(&refs, Profile::Rfc9309);
    let paths: Vec<Vec<u8>> = (0..4 * BUILD_AFTER)
        .map(|_| text(&mut rng, false))
        .collect();
    let matcher = Matcher::new(&placed, &bytes);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for path in &paths {
                    agree(&placed, &bytes, &matcher, path);
                }
            });
        }
    });
    assert!(matcher.index.get().is_some_and(Option::is_some));
}
