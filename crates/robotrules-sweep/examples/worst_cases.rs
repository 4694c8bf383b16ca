//! Time robotrules on adversarial inputs that no real file in the sweep corpus reaches: files
//! at the parse limit built to maximise lines, groups, rules or matching work, long crawler
//! names and long URLs. Prints a Markdown table for `docs/robustness.md`.
//!
//! `cargo run --release -p robotrules-sweep --example worst_cases`
//!
//! With `-- --write DIR` it writes the adversarial files instead (for
//! `cargo xtask sweep DIR`; see `docs/robustness.md`).

use std::time::{Duration, Instant};

use robotrules::{ParseOptions, Profile, Robots, DEFAULT_PARSE_LIMIT};

/// `prefix` then `line` repeated up to `len` bytes.
fn filled(prefix: &str, line: &str, len: usize) -> String {
    let mut out = prefix.to_owned();
    while out.len() + line.len() <= len {
        out.push_str(line);
    }
    out
}

fn parse(body: &str, profile: Profile) -> Robots {
    Robots::parse_with(
        body.as_bytes(),
        &ParseOptions::new()
            .with_profile(profile)
            .with_parse_limit(DEFAULT_PARSE_LIMIT),
    )
}

/// Median of `runs` timings of `f`.
fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn row(case: &str, profile: Profile, what: &str, t: Duration) {
    println!(
        "| {case} | {profile} | {what} | {:.3} ms |",
        t.as_secs_f64() * 1e3
    );
}

/// The adversarial files `--write` produces, each filling the parse limit.
fn adversarial_files(n: usize) -> Vec<(&'static str, Vec<u8>)> {
    let numbered = |prefix: &str, line: fn(usize) -> String| {
        let mut out = prefix.to_owned();
        for i in 0.. {
            let next = line(i);
            if out.len() + next.len() > n {
                break;
            }
            out.push_str(&next);
        }
        out.into_bytes()
    };
    vec![
        ("empty-lines", filled("", "\n", n).into_bytes()),
        ("junk-lines", filled("", "a\n", n).into_bytes()),
        ("invalid-utf8", [0xFF, b'\n'].repeat(n / 2)),
        ("binary", (0..=255u8).cycle().take(n).collect()),
        ("user-agents", filled("", "user-agent: a\n", n).into_bytes()),
        (
            "rules",
            filled("user-agent: *\n", "disallow: /\n", n).into_bytes(),
        ),
        (
            "glob-rules",
            numbered("user-agent: *\n", |i| format!("disallow: /*q{i}\n")),
        ),
        (
            "index-html",
            filled("user-agent: *\n", "allow: /index.html\n", n).into_bytes(),
        ),
        (
            "one-line",
            format!("user-agent: *\ndisallow: /{}\n", "a".repeat(n - 30)).into_bytes(),
        ),
        (
            "star-pattern",
            format!("user-agent: *\ndisallow: /{}\n", "*a".repeat((n - 30) / 2)).into_bytes(),
        ),
        (
            "many-groups",
            numbered("", |i| format!("user-agent: bot{i}x\ndisallow: /p{i}\n")),
        ),
    ]
}

fn main() {
    let n = DEFAULT_PARSE_LIMIT;
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, dir] = &args[..] {
        if flag == "--write" {
            std::fs::create_dir_all(dir).expect("create the directory");
            for (name, bytes) in adversarial_files(n) {
                std::fs::write(std::path::Path::new(dir).join(name), bytes).expect("write a file");
            }
            return;
        }
    }
    println!("| input | profile | operation | median time |\n|---|---|---|---:|");
    let files = [
        ("500 KB of empty lines", filled("", "\n", n)),
        (
            "500 KB of `user-agent: a` lines",
            filled("", "user-agent: a\n", n),
        ),
        (
            "500 KB of `disallow: /` rules",
            filled("user-agent: *\n", "disallow: /\n", n),
        ),
        (
            "500 KB, one line",
            format!("user-agent: *\ndisallow: /{}\n", "a".repeat(n - 30)),
        ),
        (
            "500 KB of `disallow: /*a*a*…` (one rule)",
            format!("user-agent: *\ndisallow: /{}\n", "*a".repeat((n - 30) / 2)),
        ),
    ];
    for (name, body) in &files {
        row(
            name,
            Profile::Rfc9309,
            "grammar only",
            time(5, || drop(robotrules_grammar::parse(body.as_bytes()))),
        );
        for profile in Profile::ALL {
            row(
                name,
                profile,
                "parse",
                time(5, || drop(parse(body, profile))),
            );
        }
    }

    // Matching work per query: rules × URL length. 32,000 distinct glob rules, each of which
    // scans the whole URL (the model deduplicates identical rules).
    let mut globs = String::from("user-agent: *\n");
    for i in 0.. {
        let line = format!("disallow: /*q{i}\n");
        if globs.len() + line.len() > n {
            break;
        }
        globs.push_str(&line);
    }
    let url_10k = format!("/{}", "a".repeat(10_000));
    let url_1m = format!("/{}", "a".repeat(1 << 20));
    for profile in [Profile::Rfc9309, Profile::Google] {
        let robots = parse(&globs, profile);
        let rules = robots.crawler("FooBot").expect("a product token");
        row(
            "32k distinct `disallow: /*q<n>` rules, 10 KB URL",
            profile,
            "is_allowed",
            time(5, || assert!(rules.is_allowed(&url_10k).is_ok_and(|a| a))),
        );
        row(
            "32k distinct `disallow: /*q<n>` rules, 1 MiB URL",
            profile,
            "is_allowed",
            time(3, || assert!(rules.is_allowed(&url_1m).is_ok_and(|a| a))),
        );
    }
    // The anchored glob and a star-heavy pattern against a long URL.
    let star = format!("user-agent: *\ndisallow: /{}b$\n", "*a".repeat(5_000));
    for profile in [Profile::Rfc9309, Profile::Google] {
        let robots = parse(&star, profile);
        let rules = robots.crawler("FooBot").expect("a product token");
        row(
            "`/*a*a…*a` × 5,000 then `b$`, 1 MiB URL of `a`",
            profile,
            "is_allowed",
            time(3, || assert!(rules.is_allowed(&url_1m).is_ok_and(|a| a))),
        );
    }

    // Crawler names: 1994 matches every user-agent line as a substring of the name.
    let mut agents = String::new();
    for i in 0u32.. {
        let token: String = format!("{i:x}")
            .chars()
            .map(|c| (b'g' + c.to_digit(16).unwrap_or(0) as u8) as char)
            .collect();
        let line = format!("user-agent: q{token}\n");
        if agents.len() + line.len() > n {
            break;
        }
        agents.push_str(&line);
    }
    let name_1m = "b".repeat(1 << 20);
    for profile in Profile::ALL {
        let robots = parse(&agents, profile);
        row(
            "30k distinct `user-agent: q<letters>` lines, 1 MiB crawler name",
            profile,
            "crawler()",
            time(3, || {
                let _ = robots.crawler(&name_1m).map(|a| a.is_allowed("/"));
            }),
        );
    }
}
