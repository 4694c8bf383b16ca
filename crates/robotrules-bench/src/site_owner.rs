//! The site-owner commands' worst cases: files within the 512,000-byte parse limit on which a
//! command's work could grow faster than the file (a check per pair of rules, a scan per
//! statement, one excerpt of every line), and the commands asked about them
//! (`lint`, `explain --profile all`, `show`, `usage`, `diff`).
//!
//! [`files`] builds each file in memory, line by line up to [`SIZE`] bytes; [`CASES`] pairs
//! them with the commands of the table in `docs/performance.md` (the `site_owner` binary runs
//! them with the release `robotrules`).

use crate::synthetic::{letters, many_groups, single_line};

/// The size every file stays within: under the 512,000-byte parse limit, so every line is read.
pub const SIZE: usize = 510_000;

/// `head`, then `line(i)` for i = 0, 1, … while the file stays within [`SIZE`] bytes.
pub fn fill(head: &str, mut line: impl FnMut(usize) -> String) -> Vec<u8> {
    let mut out = String::from(head);
    for i in 0.. {
        let next = line(i);
        if out.len() + next.len() > SIZE {
            break;
        }
        out.push_str(&next);
    }
    out.into_bytes()
}

/// One rule 31,874 times under `User-agent: *`: every pair of rules is a duplicate.
pub fn same_rule() -> Vec<u8> {
    fill("User-agent: *\n", |_| "Disallow: /same\n".to_owned())
}

/// `Content-Usage: /xN/ train-ai=y` as every third line among `Disallow: /rN` rules (7,339
/// statements, each with a path of its own).
pub fn content_usage() -> Vec<u8> {
    fill("User-agent: *\n", |i| {
        if i % 3 == 0 {
            format!("Content-Usage: /x{i}/ train-ai=y\n")
        } else {
            format!("Disallow: /r{i}\n")
        }
    })
}

/// `Content-Signal: ai-train=no, search=yes` as every third line among `Disallow: /rN` rules.
pub fn content_signal() -> Vec<u8> {
    fill("User-agent: *\n", |i| {
        if i % 3 == 0 {
            "Content-Signal: ai-train=no, search=yes\n".to_owned()
        } else {
            format!("Disallow: /r{i}\n")
        }
    })
}

/// Groups `User-agent: botN` / `Disallow: /pN`, 13,646 of them: under `legacy1994` the
/// crawler `bot` is named by every one.
pub fn bot_groups() -> Vec<u8> {
    fill("", |i| format!("User-agent: bot{i}\nDisallow: /p{i}\n"))
}

/// `Disallow: /*a*b*c*N$`, 20,843 rules that start with a wildcard.
pub fn star_rules() -> Vec<u8> {
    fill("User-agent: *\n", |i| format!("Disallow: /*a*b*c*{i}$\n"))
}

/// Allow and disallow rules that are prefixes of one another in file order, with lower-case
/// percent-escapes: `Allow: /%aaN` then `Disallow: /%aaN/x`, 13,783 pairs (every rule an
/// escape to report, every disallow shadowed for first-match readers).
pub fn escaped_prefixes() -> Vec<u8> {
    fill("User-agent: *\n", |i| {
        let l = letters(i / 2, 4);
        if i % 2 == 0 {
            format!("Allow: /%aa{l}\n")
        } else {
            format!("Disallow: /%aa{l}/x\n")
        }
    })
}

/// A file of the set: its name (the file name the binary writes) and bytes.
pub struct File {
    /// The name, `same-rule.txt` for one.
    pub name: &'static str,
    /// What the file is, for the table.
    pub what: &'static str,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Every file of the set.
pub fn files() -> Vec<File> {
    vec![
        File {
            name: "same-rule.txt",
            what: "31,874 × `Disallow: /same` under one `User-agent: *`",
            bytes: same_rule(),
        },
        File {
            name: "content-usage.txt",
            what: "7,339 `Content-Usage: /xN/ train-ai=y` among 14,678 rules",
            bytes: content_usage(),
        },
        File {
            name: "content-signal.txt",
            what: "6,808 `Content-Signal: ai-train=no, search=yes` among 13,615 rules",
            bytes: content_signal(),
        },
        File {
            name: "bot-groups.txt",
            what: "13,646 groups `User-agent: botN` / `Disallow: /pN`",
            bytes: bot_groups(),
        },
        File {
            name: "star-rules.txt",
            what: "20,843 × `Disallow: /*a*b*c*N$`",
            bytes: star_rules(),
        },
        File {
            name: "escaped-prefixes.txt",
            what: "allow `/%aaN`, then disallow `/%aaN/x`, 13,783 pairs",
            bytes: escaped_prefixes(),
        },
        File {
            name: "single-line.txt",
            what: "one `Disallow:` line of 510 KB",
            bytes: single_line(SIZE),
        },
        File {
            name: "many-groups.txt",
            what: "10,000 groups (the matcher's `10k-groups`)",
            bytes: many_groups(10_000),
        },
    ]
}

/// A command of the table: a name and the `robotrules` arguments (file names of [`files`]).
pub struct Case {
    /// The row's name.
    pub name: &'static str,
    /// The arguments.
    pub args: &'static [&'static str],
}

/// Every command of the table.
pub const CASES: &[Case] = &[
    Case {
        name: "lint, same rule",
        args: &["lint", "same-rule.txt"],
    },
    Case {
        name: "lint, Content-Usage",
        args: &["lint", "content-usage.txt"],
    },
    Case {
        name: "lint, Content-Signal",
        args: &["lint", "content-signal.txt"],
    },
    Case {
        name: "lint, bot groups",
        args: &["lint", "bot-groups.txt"],
    },
    Case {
        name: "lint, star rules",
        args: &["lint", "star-rules.txt"],
    },
    Case {
        name: "lint, escaped prefixes",
        args: &["lint", "escaped-prefixes.txt"],
    },
    Case {
        name: "lint, single line",
        args: &["lint", "single-line.txt"],
    },
    Case {
        name: "lint --profile legacy1994, escaped prefixes",
        args: &["lint", "--profile", "legacy1994", "escaped-prefixes.txt"],
    },
    Case {
        name: "explain --profile all, same rule",
        args: &[
            "explain",
            "--profile",
            "all",
            "same-rule.txt",
            "ExampleBot",
            "/same",
        ],
    },
    Case {
        name: "explain --profile all --format json, same rule",
        args: &[
            "explain",
            "--profile",
            "all",
            "--format",
            "json",
            "same-rule.txt",
            "ExampleBot",
            "/same",
        ],
    },
    Case {
        name: "explain --profile all, bot groups (`bot`)",
        args: &[
            "explain",
            "--profile",
            "all",
            "bot-groups.txt",
            "bot",
            "/p5000",
        ],
    },
    Case {
        name: "explain --profile all, star rules",
        args: &[
            "explain",
            "--profile",
            "all",
            "star-rules.txt",
            "ExampleBot",
            "/xaxbxcx5",
        ],
    },
    Case {
        name: "explain --profile all, single line",
        args: &[
            "explain",
            "--profile",
            "all",
            "single-line.txt",
            "ExampleBot",
            "/aaaa/aaab/",
        ],
    },
    Case {
        name: "explain --profile all, Content-Usage",
        args: &[
            "explain",
            "--profile",
            "all",
            "content-usage.txt",
            "ExampleBot",
            "/x3/",
        ],
    },
    Case {
        name: "show, same rule",
        args: &["show", "same-rule.txt", "ExampleBot"],
    },
    Case {
        name: "show --profile legacy1994, bot groups (`bot`)",
        args: &["show", "--profile", "legacy1994", "bot-groups.txt", "bot"],
    },
    Case {
        name: "usage, Content-Usage",
        args: &["usage", "content-usage.txt", "ExampleBot", "/x3/", "/r4"],
    },
    Case {
        name: "diff, same rule → Content-Signal",
        args: &["diff", "same-rule.txt", "content-signal.txt"],
    },
    Case {
        name: "diff, star rules → same rule",
        args: &["diff", "star-rules.txt", "same-rule.txt"],
    },
    Case {
        name: "diff, escaped prefixes → same rule",
        args: &["diff", "escaped-prefixes.txt", "same-rule.txt"],
    },
    Case {
        name: "diff, bot groups → bot groups",
        args: &["diff", "bot-groups.txt", "bot-groups.txt"],
    },
    Case {
        name: "diff, many groups → same rule",
        args: &["diff", "many-groups.txt", "same-rule.txt"],
    },
    Case {
        name: "diff, bot groups → same rule",
        args: &["diff", "bot-groups.txt", "same-rule.txt"],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_within_the_parse_limit_and_every_case_names_one() {
        let files = files();
        for file in &files {
            assert!(file.bytes.len() <= SIZE, "{}", file.name);
            assert!(file.bytes.len() > 400_000, "{}", file.name);
        }
        for case in CASES {
            let named = case.args.iter().filter(|a| a.ends_with(".txt")).count();
            assert!(named >= 1, "{}", case.name);
            for arg in case.args.iter().filter(|a| a.ends_with(".txt")) {
                assert!(files.iter().any(|f| f.name == *arg), "{}: {arg}", case.name);
            }
        }
    }
}
