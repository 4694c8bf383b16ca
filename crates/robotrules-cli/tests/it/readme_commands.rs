//! Every command line in the README's `sh` blocks that can run offline, run as written (by
//! `sh -c`, with the built `robotrules` first on `PATH`) in a temporary directory holding the
//! files the lines name: each must exit 0 or 1, never 2, and print something (on standard
//! output or into the file it redirects to).
//!
//! Which lines run, and which are skipped and why:
//! - `robotrules …`, `cargo run -p robotrules-cli -- …` (run as `robotrules …`) and
//!   `cat FILE | robotrules …` run, with a leading `$ ` prompt stripped.
//! - A line that fetches a robots.txt (`fetch`, or a command whose ROBOTS, OLD or NEW is an
//!   `http(s)://` or `ftp://` URL) from `example.com` or `www.example.com` runs with that
//!   host replaced by a loopback test server serving the README's `examples/robots.txt`
//!   (`robotrules fetch https://www.example.com/any/page`, `robotrules diff
//!   https://example.com/robots.txt …`). A line fetching from any other host off loopback is
//!   skipped (none today). A URL to *check*, such as `check examples/robots.txt Googlebot
//!   https://example.com/page`, fetches nothing and runs as written.
//! - `batch` fetches every URL's origin, so its `urls.txt` holds URLs of loopback test
//!   servers (a robots.txt, a 404 and a 503).
//! - Other `cargo` lines are skipped: `cargo xtask test` is the whole workspace's test suite,
//!   and `cargo install --locked --path crates/robotrules-cli` writes to `~/.cargo/bin` (its package
//!   and binary name are checked below instead).
//!
//! The files provided: `examples/robots.txt` (the README's own),
//! `examples/ai-preferences.txt` (AI usage preferences, for `usage`), `new-robots.txt`,
//! `robots/*.txt` (two files), `urls.txt`.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

use crate::support::{Sites, SITE_ROBOTS};
use robotrules_testserver::http::Reply;

/// The options that take a value, so the positional arguments after them can be found.
const VALUED: [&str; 17] = [
    "--profile",
    "--format",
    "--only",
    "--output",
    "--deny",
    "-D",
    "-W",
    "-A",
    "--timeout",
    "--cache",
    "--cache-timeout",
    "--url",
    "--concurrency",
    "--color",
    "--user-agent",
    "--max-findings",
    "--ca-cert",
];

/// The command lines of the README's `sh` blocks, prompt stripped.
fn sh_lines(readme: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if in_sh && !trimmed.is_empty() {
            lines.push(trimmed.strip_prefix("$ ").unwrap_or(trimmed).to_owned());
        }
    }
    lines
}

/// Whether `arg` is a URL on a host other than loopback.
fn off_loopback(arg: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    ["http://", "https://", "ftp://"].iter().any(|scheme| {
        lower.strip_prefix(scheme).is_some_and(|rest| {
            !["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .any(|host| rest.starts_with(host))
        })
    })
}

/// Why `command` (the part from `robotrules` on) cannot run offline, if it cannot.
fn needs_network(command: &str) -> Option<&'static str> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let subcommand = words.get(1).copied().unwrap_or("");
    let mut positional = Vec::new();
    let mut rest = words.iter().skip(2);
    while let Some(word) = rest.next() {
        if word.starts_with('>') || *word == "|" {
            break;
        }
        if VALUED.contains(word) {
            rest.next();
        } else if !word.starts_with('-') {
            positional.push(*word);
        }
    }
    let fetched: &[&str] = match subcommand {
        "fetch" => &positional[..positional.len().min(1)],
        "diff" => &positional[..positional.len().min(2)],
        "check" | "explain" | "show" => &positional[..positional.len().min(1)],
        "lint" => &positional,
        _ => &[],
    };
    fetched
        .iter()
        .any(|arg| off_loopback(arg))
        .then_some("fetches a robots.txt off loopback")
}

/// The file a line redirects its standard output to (`> FILE`), if any.
fn redirect(line: &str) -> Option<&str> {
    line.split_once('>')
        .map(|(_, file)| file.split_whitespace().next().unwrap_or(""))
}

/// Writes the files the README's lines read into `dir`; `sites` serve `urls.txt`'s origins.
fn provide_files(dir: &Path, sites: &Sites) {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let example = std::fs::read(workspace.join("examples/robots.txt")).unwrap();
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    std::fs::create_dir_all(dir.join("robots")).unwrap();
    std::fs::write(dir.join("examples/robots.txt"), &example).unwrap();
    let preferences = std::fs::read(workspace.join("examples/ai-preferences.txt")).unwrap();
    std::fs::write(dir.join("examples/ai-preferences.txt"), preferences).unwrap();
    std::fs::write(dir.join("robots/example.txt"), &example).unwrap();
    std::fs::write(dir.join("robots/shop.txt"), SITE_ROBOTS).unwrap();
    let mut new = example;
    new.extend_from_slice(b"\nUser-agent: Googlebot\nDisallow: /private/\n");
    std::fs::write(dir.join("new-robots.txt"), new).unwrap();
    let urls = [
        sites.url(0, "/"),
        sites.url(0, "/private/x"),
        sites.url(0, "/private/press/1"),
        sites.url(1, "/anything"),
        sites.url(2, "/anything"),
    ];
    std::fs::write(dir.join("urls.txt"), urls.join("\n") + "\n").unwrap();
}

#[test]
fn every_readme_command_that_can_run_offline_runs() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(workspace.join("README.md")).unwrap();
    let example = std::fs::read(workspace.join("examples/robots.txt")).unwrap();
    let sites = Sites::new(vec![
        Reply::ok(SITE_ROBOTS),
        Reply::status(404),
        Reply::status(503),
        Reply::ok(example),
    ]);
    // `http://127.0.0.1:PORT`, standing in for example.com.
    let example_site = sites.url(3, "/").trim_end_matches('/').to_owned();
    let dir = tempfile::tempdir().unwrap();
    provide_files(dir.path(), &sites);
    let binary = Path::new(env!("CARGO_BIN_EXE_robotrules"));
    let path = std::env::join_paths(
        std::iter::once(binary.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();

    let (mut ran, mut skipped) = (Vec::new(), Vec::new());
    for line in sh_lines(&readme) {
        let line = match line.strip_prefix("cargo run -p robotrules-cli -- ") {
            Some(rest) => format!("robotrules {rest}"),
            None => line,
        };
        let command = match line.find("robotrules ") {
            Some(at) if line.starts_with("robotrules ") || line.starts_with("cat ") => &line[at..],
            _ => {
                skipped.push((line.clone(), "not a robotrules command"));
                continue;
            }
        };
        let line = if needs_network(command).is_some() {
            let local = line
                .replace("https://www.example.com", &example_site)
                .replace("https://example.com", &example_site);
            let at = local.find("robotrules ").unwrap();
            if let Some(why) = needs_network(&local[at..]) {
                skipped.push((line.clone(), why));
                continue;
            }
            local
        } else {
            line.clone()
        };
        let command = &line[line.find("robotrules ").unwrap()..];
        let output = Command::new("sh")
            .args(["-c", &line])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .env_remove("http_proxy")
            .env_remove("HTTP_PROXY")
            .env_remove("all_proxy")
            .env_remove("ALL_PROXY")
            .output()
            .unwrap();
        let code = output.status.code().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(code == 0 || code == 1, "{line}: exit {code}\n{stderr}");
        let printed = match redirect(command) {
            Some(file) => std::fs::metadata(dir.path().join(file)).unwrap().len() > 0,
            None => !output.stdout.is_empty(),
        };
        assert!(printed, "{line}: printed nothing\n{stderr}");
        ran.push(line);
    }
    // Every robotrules line of the README runs (those fetching from example.com on loopback).
    assert!(ran.len() >= 9, "ran {ran:?}, skipped {skipped:?}");
    assert!(ran.iter().any(|line| line.contains("batch")), "ran {ran:?}");
    assert!(
        skipped
            .iter()
            .all(|(line, _)| !line.starts_with("robotrules lint")),
        "skipped {skipped:?}"
    );
}

#[test]
fn the_install_command_names_the_package_of_the_robotrules_binary() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(workspace.join("README.md")).unwrap();
    assert!(sh_lines(&readme)
        .iter()
        .any(|line| line == "cargo install --locked --path crates/robotrules-cli"));
    let manifest =
        std::fs::read_to_string(workspace.join("crates/robotrules-cli/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("[[bin]]\nname = \"robotrules\""),
        "{manifest}"
    );
    assert!(env!("CARGO_BIN_EXE_robotrules").ends_with("robotrules"));
}

#[test]
fn network_lines_are_told_apart() {
    assert!(needs_network("robotrules fetch https://www.example.com/any/page").is_some());
    assert!(needs_network("robotrules diff https://example.com/robots.txt new.txt Bot").is_some());
    assert!(needs_network("robotrules check robots.txt Bot https://example.com/page").is_none());
    assert!(needs_network("robotrules check http://127.0.0.1:8/robots.txt Bot /x").is_none());
    assert!(needs_network("robotrules explain --profile all r.txt Bot /x").is_none());
}
