//! The witness search grows linearly with the files: each worst-case pair (`robotrules-bench`'s
//! `site_owner` set, `n` units) is compared under every profile for every crawler the files
//! name, and the bytes allocated for `2n` units may be at most 2.5 times those for `n`. An
//! explanation of every rule per change allocates in proportion to `n²` and fails here; no
//! clock is read.
//!
//! A test binary of its own, with one test: the global allocator counts every thread, and no
//! other test runs beside this one.

#![allow(clippy::unwrap_used)]

use std::alloc::System;
use std::sync::Arc;

use cap::Cap;
use robotrules_diff::{agents_to_compare, diff_rules};
use robotrules_model::{Profile, RobotsTxt};

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// `head`, then `line(i)` for i in `0..n`.
fn file(head: &str, n: usize, line: impl Fn(usize) -> String) -> String {
    let mut out = head.to_owned();
    for i in 0..n {
        out.push_str(&line(i));
    }
    out
}

fn same_rule(n: usize) -> String {
    file("User-agent: *\n", n, |_| "Disallow: /same\n".to_owned())
}

fn content_signal(n: usize) -> String {
    file("User-agent: *\n", n, |i| {
        if i % 3 == 0 {
            "Content-Signal: ai-train=no, search=yes\n".to_owned()
        } else {
            format!("Disallow: /r{i}\n")
        }
    })
}

fn star_rules(n: usize) -> String {
    file("User-agent: *\n", n, |i| {
        format!("Disallow: /*a*b*c*{i}$\n")
    })
}

fn escaped_prefixes(n: usize) -> String {
    file("User-agent: *\n", n, |i| {
        if i % 2 == 0 {
            format!("Allow: /%aa{i}\n")
        } else {
            format!("Disallow: /%aa{}/x\n", i - 1)
        }
    })
}

fn bot_groups(n: usize) -> String {
    file("", n, |i| format!("User-agent: bot{i}\nDisallow: /p{i}\n"))
}

/// A file of `n` units.
type Make = fn(usize) -> String;

/// The bytes allocated to compare `old(n)` with `new(n)` under every profile.
fn compared(old: Make, new: Make, n: usize) -> usize {
    let (old, new) = (old(n), new(n));
    let before = ALLOCATOR.total_allocated();
    for profile in Profile::ALL {
        let parse = |file: &str| Arc::new(RobotsTxt::parse(file.as_bytes(), profile, 512_000));
        let (old, new) = (parse(&old), parse(&new));
        let agents = agents_to_compare(&old, &new);
        let agents: Vec<&str> = agents.iter().map(String::as_str).collect();
        diff_rules(&old, &new, &agents).unwrap();
    }
    ALLOCATOR.total_allocated() - before
}

#[test]
fn the_witness_search_grows_linearly_with_the_files() {
    let pairs: [(&str, Make, Make); 4] = [
        ("same rule -> Content-Signal", same_rule, content_signal),
        ("star rules -> same rule", star_rules, same_rule),
        ("escaped prefixes -> same rule", escaped_prefixes, same_rule),
        ("bot groups -> bot groups", bot_groups, bot_groups),
    ];
    for (what, old, new) in pairs {
        compared(old, new, 1_000);
        let (a, b) = (compared(old, new, 1_000), compared(old, new, 2_000));
        assert!(
            b as f64 <= 2.5 * a as f64,
            "{what}: {a} bytes for 1,000 units, {b} for 2,000"
        );
    }
}
