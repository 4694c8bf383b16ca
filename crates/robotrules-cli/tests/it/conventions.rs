//! The command-line conventions every subcommand follows: an example in its `--help`,
//! `--color` with `NO_COLOR`, shell completions, and no stdin hint when URLs come from a pipe.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use crate::support::{run, Fixture, Harness};

/// The subcommands listed under "Commands:" in `robotrules [COMMAND...] --help`, but `help`.
fn subcommands(path: &[&str]) -> Vec<String> {
    let mut args = path.to_vec();
    args.push("--help");
    let help = run(&args, b"").stdout;
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every subcommand, nested ones as `cache show`.
fn every_subcommand() -> Vec<Vec<String>> {
    let mut all = Vec::new();
    for name in subcommands(&[]) {
        let nested = subcommands(&[name.as_str()]);
        all.push(vec![name.clone()]);
        all.extend(nested.into_iter().map(|sub| vec![name.clone(), sub]));
    }
    all
}

#[test]
fn every_subcommand_help_has_an_example() {
    let all = every_subcommand();
    assert!(all.len() >= 13, "{all:?}");
    assert!(all.contains(&vec!["cache".to_owned(), "purge".to_owned()]));
    for path in all {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = run(&args, b"");
        assert_eq!(help.code, 0, "{path:?}: {help:?}");
        assert!(help.stdout.contains("Example"), "{path:?}: {}", help.stdout);
        assert!(
            help.stdout.contains("  robotrules "),
            "{path:?}: {}",
            help.stdout
        );
    }
}

#[test]
fn completions_for_each_shell_name_every_subcommand() {
    let names = subcommands(&[]);
    for shell in ["bash", "zsh", "fish"] {
        let script = run(&["completions", shell], b"");
        assert_eq!(script.code, 0, "{shell}: {script:?}");
        assert!(!script.stdout.trim().is_empty(), "{shell}");
        for name in &names {
            assert!(script.stdout.contains(name.as_str()), "{shell}: no {name}");
        }
        assert!(script.stdout.contains("color"), "{shell}: no --color");
    }
    assert_eq!(run(&["completions", "tcsh"], b"").code, 2);
}

/// A file lint has something to say about, so its report has colour to give.
const LINTED: &[u8] = b"User-agent: *\nDissallow: /private/\n";

#[test]
fn color_follows_the_flag_and_no_color() {
    let file = Fixture::new(LINTED);
    let colored = |harness: Harness, flag: &[&str]| {
        let mut args = flag.to_vec();
        args.extend(["lint", file.path()]);
        let report = harness.run(&args, b"");
        assert_ne!(report.code, 2, "{report:?}");
        assert!(!report.stdout.is_empty(), "{report:?}");
        report.stdout.contains('\x1b')
    };
    let no_color = Harness {
        no_color: true,
        ..Harness::default()
    };
    // A pipe is no terminal: auto means plain.
    assert!(!colored(Harness::default(), &[]));
    assert!(!colored(Harness::default(), &["--color", "auto"]));
    assert!(!colored(Harness::default(), &["--color", "never"]));
    assert!(colored(Harness::default(), &["--color", "always"]));
    // --color always wins over NO_COLOR (no-color.org); the flag is global.
    assert!(colored(no_color, &["--color=always"]));
    let file_path = file.path().to_owned();
    let after = no_color.run(&["lint", &file_path, "--color", "always"], b"");
    assert!(after.stdout.contains('\x1b'), "{after:?}");
    assert_eq!(
        run(&["--color", "sometimes", "lint", &file_path], b"").code,
        2
    );
}

#[test]
fn no_stdin_hint_when_urls_come_from_a_pipe() {
    let file = Fixture::new(b"User-agent: *\nDisallow: /private/\n");
    let checked = run(&["check", file.path(), "ExampleBot"], b"/a\n/private/b\n");
    assert_eq!(checked.code, 1, "{checked:?}");
    assert_eq!(checked.stdout, "allowed\t/a\ndisallowed\t/private/b\n");
    assert!(!checked.stderr.contains("standard input"), "{checked:?}");
}

#[test]
fn help_colour_follows_the_flag() {
    let always = run(&["--color", "always", "check", "--help"], b"");
    assert_eq!(always.code, 0, "{always:?}");
    assert!(always.stdout.contains('\x1b'), "{always:?}");
    let never = run(&["check", "--help", "--color=never"], b"");
    assert!(!never.stdout.contains('\x1b'), "{never:?}");
    assert!(!run(&["check", "--help"], b"").stdout.contains('\x1b'));
}
