//! Inputs that crashed a fuzz target or failed a property test (issue 4), kept as tests.
//!
//! Each test names the finding (`fuzz crash N` / `property failure N`), the target that found
//! it and the input bytes; `docs/robustness.md` lists them with their status.

use robotrules::grammar::{parse_with, ParseOptions as GrammarOptions};
use robotrules::{ParseOptions, Profile, Robots};
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
        &GrammarOptions {
            limit,
            max_line_len: None,
        },
    );
    assert!(parsed.lines.is_empty(), "nothing but the BOM to read");
    for profile in Profile::ALL {
        let robots = Robots::parse_with(
            input,
            &ParseOptions {
                profile,
                parse_limit: limit,
            },
        );
        assert!(robots.is_allowed("FooBot", "/").unwrap());
    }
}
