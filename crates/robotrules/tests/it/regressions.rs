//! Inputs that crashed a fuzz target or failed a property test (issue 4), kept as tests.
//!
//! Each test names the finding (`fuzz crash N` / `property failure N`), the target that found
//! it and the input bytes; `docs/robustness.md` lists them with their status.

use robotrules::{ParseOptions, Profile, Robots};
use robotrules_grammar::{parse_with, Limits};
use rstest::rstest;

/// Fuzz crash 1 (grammar_parse, artifact `crash-57218c316b6921e2cd61027a2387edc31a2d9471`,
/// input `EF BB BF`; also found by the property test `parsing_is_total_and_spans_tile_the_input`):
/// a parse limit smaller than the byte order mark that fills the whole input indexed one past
/// the end in `cut_at_limit` (`input[limit]` with `limit = limit.max(start) = input.len()`).
#[rstest]
#[case(b"\xef", 0)]
#[case(b"\xef\xbb", 0)]
#[case(b"\xef\xbb", 1)]
#[case(b"\xef\xbb\xbf", 0)]
#[case(b"\xef\xbb\xbf", 1)]
#[case(b"\xef\xbb\xbf", 2)]
fn byte_order_mark_longer_than_the_parse_limit(#[case] input: &[u8], #[case] limit: usize) {
    let parsed = parse_with(
        input,
        &Limits {
            parse_limit: limit,
            max_line_len: None,
        },
    );
    assert!(parsed.lines.is_empty(), "nothing but the BOM to read");
    for profile in Profile::ALL {
        let robots = Robots::parse_with(
            input,
            &ParseOptions::new()
                .with_profile(profile)
                .with_parse_limit(limit),
        );
        assert!(robots.is_allowed("FooBot", "/").unwrap());
    }
}

/// Property failure 2 (`properties::google_and_rfc9309_agree_where_profiles_md_says_so`, shrunk
/// to `disallow: //` and the URL `///.x`): in `rfc9309` (and `legacy1994`), a scheme-relative
/// URL `//host/path` is read as host and path (`/b` below), unless the path has a dot segment,
/// which sends it to the URL Standard as a bare path: `//example.com/a/../b` is then compared
/// as the path `//example.com/a/../b`, and `disallow: /b` no longer blocks it.
#[rstest]
#[case("//example.com/b")]
#[case("//example.com/a/../b")]
#[case("//example.com/./b")]
#[case("//example.com/b/./")]
#[case("http://example.com/a/../b")]
fn scheme_relative_urls_with_dot_segments_keep_their_host_out_of_the_path(#[case] url: &str) {
    let body = b"user-agent: *\ndisallow: /b\n";
    for profile in [Profile::Rfc9309, Profile::Legacy1994] {
        let robots = Robots::parse_with(body, &ParseOptions::new().with_profile(profile));
        assert!(
            !robots.is_allowed("FooBot", url).unwrap(),
            "{profile}: {url}"
        );
    }
}
