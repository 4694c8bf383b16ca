//! Grammar: any bytes parse (never panic), and the lines' spans tile the input, under the
//! default options, Google's line-length limit, and a parse limit that cuts the input; every
//! record's value read as a usage line (path and RFC 9651 Dictionary) never panics either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules_fuzz::assert_spans_tile;
use robotrules_grammar::{dictionary, parse, parse_with, usage_value, Limits};

fuzz_target!(|data: &[u8]| {
    let parsed = parse(data);
    assert_spans_tile(&parsed);
    for directive in parsed.lines.iter().filter_map(|line| line.directive) {
        let read = usage_value(data, directive.value);
        if let Err(error) = dictionary(read.preference.slice(data)) {
            assert!(error.offset <= read.preference.len());
        }
    }
    let first = usize::from(data.first().copied().unwrap_or(0));
    let options = [
        Limits {
            parse_limit: data.len() / 2,
            max_line_len: Some(first % 32),
        },
        Limits {
            parse_limit: first,
            max_line_len: None,
        },
        Limits {
            parse_limit: usize::MAX,
            max_line_len: Some(16_662),
        },
    ];
    for options in &options {
        assert_spans_tile(&parse_with(data, options));
    }
});
