//! Grammar: any bytes parse (never panic), and the lines' spans tile the input, under the
//! default options, Google's line-length limit, and a parse limit that cuts the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules_fuzz::assert_spans_tile;
use robotrules_grammar::{parse, parse_with, Limits};

fuzz_target!(|data: &[u8]| {
    assert_spans_tile(&parse(data));
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
