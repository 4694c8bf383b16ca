//! Lint's work grows linearly with the file: each worst case (`robotrules-bench`'s
//! `site_owner` set, `n` units) is linted under every profile and rendered, and the bytes
//! allocated for `2n` units may be at most 2.5 times those for `n`. A scan of every rule per
//! rule or per statement allocates in proportion to `n²` and fails here; no clock is read.
//!
//! A test binary of its own, with one test: the global allocator counts every thread, and no
//! other test runs beside this one.

#![allow(clippy::unwrap_used)]

use std::alloc::System;

use cap::Cap;
use robotrules_lint::render::{findings_text, snippet, Place, TextOptions};
use robotrules_lint::{lint, LintOptions, Profile, Span};

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// The bytes `work` allocates.
fn allocated(work: impl FnOnce()) -> usize {
    let before = ALLOCATOR.total_allocated();
    work();
    ALLOCATOR.total_allocated() - before
}

/// `head`, then `line(i)` for i in `0..n`.
fn file(head: &str, n: usize, line: impl Fn(usize) -> String) -> Vec<u8> {
    let mut out = head.to_owned();
    for i in 0..n {
        out.push_str(&line(i));
    }
    out.into_bytes()
}

fn text_options() -> TextOptions {
    TextOptions {
        path: "robots.txt".to_owned(),
        color: false,
    }
}

/// Lint under every profile, and the findings as text.
fn lint_all(bytes: &[u8]) {
    for profile in Profile::ALL {
        let options = LintOptions {
            profile,
            ..LintOptions::default()
        };
        let _ = findings_text(&lint(bytes, &options), bytes, &text_options());
    }
}

/// Every line as a place of one excerpt, as `explain` shows thirty thousand matching rules.
fn every_line_shown(bytes: &[u8]) {
    let mut places = Vec::new();
    let mut start = 0;
    for (line, text) in bytes.split(|&b| b == b'\n').enumerate() {
        places.push(Place {
            span: Span::new(start, start + text.len()),
            line: u32::try_from(line + 1).unwrap(),
            label: Some("also matches"),
            primary: line == 1,
        });
        start += text.len() + 1;
    }
    let _ = snippet("decided by line 2", places, bytes, &text_options());
}

/// A file of `n` units.
type Make = fn(usize) -> Vec<u8>;

/// `run` on 1,000 and on 2,000 units allocates at most 2.5 times as much for the larger.
fn grows_linearly(what: &str, make: Make, run: fn(&[u8])) {
    let (small, large) = (make(1_000), make(2_000));
    run(&small);
    let (a, b) = (allocated(|| run(&small)), allocated(|| run(&large)));
    assert!(
        b as f64 <= 2.5 * a as f64,
        "{what}: {a} bytes for 1,000 units, {b} for 2,000"
    );
}

#[test]
fn lint_and_its_excerpts_grow_linearly_with_the_file() {
    let cases: [(&str, Make); 6] = [
        ("same rule", |n| {
            file("User-agent: *\n", n, |_| "Disallow: /same\n".to_owned())
        }),
        ("Content-Usage", |n| {
            file("User-agent: *\n", n, |i| {
                if i % 3 == 0 {
                    format!("Content-Usage: /x{i}/ train-ai=y\n")
                } else {
                    format!("Disallow: /r{i}\n")
                }
            })
        }),
        ("Content-Signal", |n| {
            file("User-agent: *\n", n, |i| {
                if i % 3 == 0 {
                    "Content-Signal: ai-train=no, search=yes\n".to_owned()
                } else {
                    format!("Disallow: /r{i}\n")
                }
            })
        }),
        ("star rules", |n| {
            file("User-agent: *\n", n, |i| {
                format!("Disallow: /*a*b*c*{i}$\n")
            })
        }),
        ("escaped prefixes", |n| {
            file("User-agent: *\n", n, |i| {
                if i % 2 == 0 {
                    format!("Allow: /%aa{i}\n")
                } else {
                    format!("Disallow: /%aa{}/x\n", i - 1)
                }
            })
        }),
        ("bot groups", |n| {
            file("", n, |i| format!("User-agent: bot{i}\nDisallow: /p{i}\n"))
        }),
    ];
    for (what, make) in cases {
        grows_linearly(&format!("lint, {what}"), make, lint_all);
        grows_linearly(&format!("excerpt, {what}"), make, every_line_shown);
    }
}
