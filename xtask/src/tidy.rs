//! Tidy: the invariants `docs/ARCHITECTURE.md` states, checked on every `cargo test` (in the
//! manner of rust-analyzer's tidy tests) so that they stay true rather than merely written.
//!
//! - **Dependency directions.** text and grammar depend on no other workspace crate, url on
//!   text only; model on text, grammar and url only; fetch on neither grammar nor model; lint
//!   on none of fetch, the facade or the CLI; diff on text, grammar, url and model only; no
//!   published crate but the CLI depends on clap.
//! - **Front-ends through the facade.** The CLI and the Python package list none of
//!   robotrules-model, -grammar, -url and -fetch in any dependency table: the facade gives
//!   them what they need (the lint, diff and survey crates they may use directly).
//! - **One table of profile decisions.** No source file outside
//!   `crates/robotrules-model/src/profile.rs` branches on a profile by name: no comparison
//!   (`== Profile::Google`), no pattern (a `match` arm, the pattern of `matches!(…)`, `if let`),
//!   however many lines the expression spans. Naming a profile to build a value is fine.
//! - **No import circle.** In each crate of the workspace (every target: libraries,
//!   binaries, tests, benchmarks, examples, xtask), no two files import from each other,
//!   directly or round a longer circle: the graph is read from `use` trees and from `crate::`,
//!   `self::`, `super::` and child-module paths in code, following the module tree (`a.rs` or
//!   `a/mod.rs`, children in `a/`) and re-exports (`crate::Error` is the file that defines it,
//!   when the root re-exports it). A parent's `mod child;` is not an import, nor is
//!   `#[cfg(test)]` code. The failure names each file of a circle and the line of each import
//!   that closes it.
//! - **One convention for module files.** A module with children is `x.rs` with its children
//!   in `x/`; no file is named `mod.rs` (under `crates/`, `xtask/`, `fuzz/`, `examples/`).
//! - **The architecture document is true.** Every path and Rust item `docs/ARCHITECTURE.md`
//!   names in backticks exists: a path from the root, from `docs/` or under the crate whose
//!   section names it; an item (`Crawler::new`, `Robots`, `parse_with`) defined in the
//!   workspace, a method in a file that implements something for its type.
//! - **A curated facade.** `crates/robotrules/src` re-exports no layer crate whole
//!   (`pub use robotrules_model as model;`, `::{self as model}`, `::*`): its items, one by one.
//! - **Parse-only users stay light.** The facade without default features pulls in no tokio,
//!   reqwest, hyper, annotate-snippets or serde_json.
//! - **Generated docs are fresh.** `docs/conformance.md` against the corpus is checked by
//!   `crates/robotrules-conformance/tests/it/docs_fresh.rs` (the same check as
//!   `cargo xtask conformance --check`), next to the code that renders it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::cargo::{cargo_command, workspace_root};

/// `cargo ARGS` in the workspace root: its standard output, or a panic with standard error.
fn cargo(args: &[&str]) -> String {
    let output = cargo_command()
        .args(args)
        .current_dir(workspace_root())
        .output()
        .unwrap_or_else(|error| panic!("cannot run cargo {args:?}: {error}"));
    assert!(
        output.status.success(),
        "cargo {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `cargo metadata` of the workspace's own packages (no dependencies), as JSON.
pub(crate) fn workspace_metadata() -> Value {
    serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]))
    .unwrap_or_else(|error| panic!("cargo metadata is not JSON: {error}"))
}

/// Each workspace package: whether it is published, and its normal and build dependencies
/// (dev-dependencies are for its tests and never reach its users).
fn packages() -> BTreeMap<String, (bool, Vec<String>)> {
    let metadata = workspace_metadata();
    let mut out = BTreeMap::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let name = package["name"].as_str().unwrap_or_default().to_owned();
        let published = package["publish"].as_array().is_none_or(|p| !p.is_empty());
        let deps = package["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["kind"].as_str() != Some("dev"))
            .filter_map(|d| d["name"].as_str().map(str::to_owned))
            .collect();
        out.insert(name, (published, deps));
    }
    out
}

#[test]
fn dependency_directions() {
    let packages = packages();
    let workspace: Vec<&String> = packages.keys().collect();
    let deps = |name: &str| -> Vec<String> {
        packages
            .get(name)
            .unwrap_or_else(|| panic!("no workspace crate {name}"))
            .1
            .clone()
    };
    let in_workspace = |name: &str| -> Vec<String> {
        deps(name)
            .into_iter()
            .filter(|d| workspace.contains(&d))
            .collect()
    };
    for (krate, allowed) in [
        ("robotrules-text", &[][..]),
        ("robotrules-bytes", &[][..]),
        ("robotrules-grammar", &["robotrules-bytes"][..]),
        (
            "robotrules-url",
            &["robotrules-text", "robotrules-bytes"][..],
        ),
        (
            "robotrules-model",
            &[
                "robotrules-text",
                "robotrules-bytes",
                "robotrules-grammar",
                "robotrules-url",
            ][..],
        ),
        (
            "robotrules-fetch",
            &["robotrules-text", "robotrules-url"][..],
        ),
        (
            "robotrules-lint",
            &[
                "robotrules-text",
                "robotrules-grammar",
                "robotrules-url",
                "robotrules-model",
            ][..],
        ),
        (
            "robotrules-diff",
            &[
                "robotrules-text",
                "robotrules-grammar",
                "robotrules-url",
                "robotrules-model",
            ][..],
        ),
        (
            // The fetch crate without its client: the sans-IO status table alone.
            "robotrules-survey",
            &["robotrules-url", "robotrules-model", "robotrules-fetch"][..],
        ),
    ] {
        let found = in_workspace(krate);
        let stray: Vec<&String> = found
            .iter()
            .filter(|d| !allowed.contains(&d.as_str()))
            .collect();
        assert!(
            stray.is_empty(),
            "{krate} may depend only on {allowed:?} in the workspace, but depends on {stray:?}"
        );
    }
    for (name, (published, deps)) in &packages {
        if *published && name != "robotrules-cli" {
            assert!(
                !deps.iter().any(|d| d == "clap"),
                "{name} is published and depends on clap: only the CLI parses command lines"
            );
        }
    }
}

/// The front-ends, which reach robots.txt files only through the facade (plus the lint, diff
/// and survey crates where they need them): the CLI, the Python and npm packages, and the
/// tester's API the CLI and the npm package share.
const FRONT_ENDS: [&str; 4] = [
    "robotrules-cli",
    "robotrules-python",
    "robotrules-js",
    "robotrules-tester-api",
];

/// The layers the facade is built on, which no front-end lists as a dependency.
const BEHIND_THE_FACADE: [&str; 4] = [
    "robotrules-model",
    "robotrules-grammar",
    "robotrules-url",
    "robotrules-fetch",
];

/// Each dependency of a front-end on a layer behind the facade, in any table of its
/// `Cargo.toml` (`[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, per target;
/// by package name, so a renamed one too), as `crate -> layer (kind)`; and each front-end
/// that `metadata` (`cargo metadata`'s JSON) does not hold, so that a renamed one is not
/// passed over.
fn front_ends_past_the_facade(metadata: &Value) -> Vec<String> {
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let mut found = Vec::new();
    for front in FRONT_ENDS {
        let Some(package) = packages.iter().find(|p| p["name"] == front) else {
            found.push(format!("{front}: no such workspace crate"));
            continue;
        };
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let name = dep["name"].as_str().unwrap_or_default();
            if BEHIND_THE_FACADE.contains(&name) {
                let kind = dep["kind"].as_str().unwrap_or("normal");
                found.push(format!("{front} -> {name} ({kind})"));
            }
        }
    }
    found
}

#[test]
fn front_ends_depend_on_the_facade_not_its_layers() {
    let found = front_ends_past_the_facade(&workspace_metadata());
    assert!(
        found.is_empty(),
        "the front-ends ({FRONT_ENDS:?}) reach {BEHIND_THE_FACADE:?} only through the facade \
         (crates/robotrules): give the facade what they need, and drop from their Cargo.toml:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_front_end_check_sees_what_it_should() {
    let metadata = serde_json::json!({"packages": [
        {"name": "robotrules-cli", "dependencies": [
            {"name": "robotrules", "kind": null},
            {"name": "robotrules-lint", "kind": null},
            {"name": "robotrules-model", "kind": null, "rename": "model"},
            {"name": "robotrules-url", "kind": "dev"},
        ]},
        {"name": "robotrules-python", "dependencies": [
            {"name": "robotrules-fetch", "kind": "build", "target": "cfg(unix)"},
        ]},
        {"name": "robotrules-js", "dependencies": [{"name": "robotrules", "kind": null}]},
        {"name": "robotrules-tester-api", "dependencies": [
            {"name": "robotrules-grammar", "kind": null},
        ]},
        // Not a front-end: its layers are its own business.
        {"name": "robotrules-lint", "dependencies": [{"name": "robotrules-grammar", "kind": null}]},
    ]});
    assert_eq!(
        front_ends_past_the_facade(&metadata),
        [
            "robotrules-cli -> robotrules-model (normal)",
            "robotrules-cli -> robotrules-url (dev)",
            "robotrules-python -> robotrules-fetch (build)",
            "robotrules-tester-api -> robotrules-grammar (normal)",
        ]
    );
    let renamed = serde_json::json!({"packages": [{"name": "robotrules-cli", "dependencies": []}]});
    assert_eq!(
        front_ends_past_the_facade(&renamed),
        [
            "robotrules-python: no such workspace crate",
            "robotrules-js: no such workspace crate",
            "robotrules-tester-api: no such workspace crate",
        ]
    );
}

/// Every file and directory under `dir` (a directory after what it holds), leaving out build
/// output and what is not the project's own: directories named `target` or `node_modules`, and
/// hidden ones (`.git`).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name == "target" || name == "node_modules" || name.starts_with('.') {
                continue;
            }
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

/// The files under `dir` ([`walk`]) with one of `extensions` (`"rs"`).
fn files_under(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    walk(dir)
        .into_iter()
        .filter(|path| {
            path.extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
                && path.is_file()
        })
        .collect()
}

/// The one crate that may hold `unsafe` code (its SSE2 module; its crate documentation
/// says why). The workspace denies `unsafe_code` rather than forbidding it so that this crate
/// can allow it.
const UNSAFE_CRATE: &str = "crates/robotrules-bytes";

/// The lines of `source` with an `unsafe` token (a block, a function, an `impl`), or an
/// `allow` of `unsafe_code`: comments and strings left out.
fn unsafe_lines(source: &str) -> Vec<usize> {
    tokens(source)
        .iter()
        .filter(|t| t.text == "unsafe" || t.text == "unsafe_code")
        .map(|t| t.line)
        .collect()
}

#[test]
fn unsafe_code_lives_only_in_robotrules_bytes() {
    let root = crate::cargo::workspace_root();
    let mut found = Vec::new();
    for file in files_under(root, &["rs"]) {
        let relative = file.strip_prefix(root).unwrap_or(&file);
        if relative.starts_with(UNSAFE_CRATE) {
            continue;
        }
        let source = fs::read_to_string(&file).unwrap_or_default();
        for line in unsafe_lines(&source) {
            found.push(format!("{}:{line}", relative.display()));
        }
    }
    assert!(
        found.is_empty(),
        "unsafe code outside {UNSAFE_CRATE} (the workspace's only unsafe crate): {found:?}"
    );
}

#[test]
fn the_unsafe_check_sees_what_it_should() {
    assert_eq!(unsafe_lines("fn f() {\n    unsafe { g() }\n}"), [2]);
    assert_eq!(unsafe_lines("#[allow(unsafe_code)]\nmod m {}"), [1]);
    assert_eq!(unsafe_lines("unsafe fn f() {}"), [1]);
    // Words in comments and strings are not code.
    assert!(unsafe_lines("// unsafe\nlet s = \"unsafe\";").is_empty());
}

// ---------------------------------------------------------------------------------------------
// A lexical view of Rust source, shared by the checks below.

/// A token of Rust source with its line (1-based): an identifier or keyword (`r#` dropped), or
/// punctuation (`::`, `=>`, `==`, `!=`, `->`, `<=`, `>=`, `||` and `&&` as one token, any
/// other character alone). Comments, string and character literals (byte, raw and C strings
/// too), lifetimes and numbers are left out, so that no check reads text inside them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Token<'a> {
    text: &'a str,
    line: usize,
}

/// The tokens of `source` (see [`Token`]).
fn tokens(source: &str) -> Vec<Token<'_>> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let ident_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line += 1;
            i += 1;
        } else if b.is_ascii_whitespace() {
            i += 1;
        } else if source[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if source[i..].starts_with("/*") {
            i = skip_block_comment(bytes, i, &mut line);
        } else if b == b'"' {
            i = skip_string(bytes, i + 1, &mut line);
        } else if b == b'\'' {
            i = skip_char_or_lifetime(source, i);
        } else if b.is_ascii_digit() {
            while i < bytes.len() && ident_byte(bytes[i]) {
                i += 1;
            }
        } else if ident_byte(b) {
            let start = i;
            while i < bytes.len() && ident_byte(bytes[i]) {
                i += 1;
            }
            let word = &source[start..i];
            let next = bytes.get(i).copied();
            let raw_prefix = matches!(word, "r" | "br" | "cr");
            if next == Some(b'"') && matches!(word, "b" | "c" | "r" | "br" | "cr") {
                i = if raw_prefix {
                    skip_raw_string(bytes, i, &mut line)
                } else {
                    skip_string(bytes, i + 1, &mut line)
                };
            } else if next == Some(b'#') && raw_prefix {
                let hashes = bytes[i..].iter().take_while(|&&b| b == b'#').count();
                if bytes.get(i + hashes) == Some(&b'"') {
                    i = skip_raw_string(bytes, i, &mut line);
                } else if word == "r" && hashes == 1 {
                    // A raw identifier: `r#type` is the identifier `type`.
                    let start = i + 1;
                    i = start;
                    while i < bytes.len() && ident_byte(bytes[i]) {
                        i += 1;
                    }
                    out.push(Token {
                        text: &source[start..i],
                        line,
                    });
                } else {
                    out.push(Token { text: word, line });
                }
            } else if next == Some(b'\'') && word == "b" {
                i = skip_char_or_lifetime(source, i);
            } else {
                out.push(Token { text: word, line });
            }
        } else {
            let two = source.get(i..i + 2).unwrap_or_default();
            let len = if matches!(
                two,
                "::" | "=>" | "==" | "!=" | "->" | "<=" | ">=" | "||" | "&&"
            ) {
                2
            } else {
                source[i..].chars().next().map_or(1, char::len_utf8)
            };
            out.push(Token {
                text: &source[i..i + len],
                line,
            });
            i += len;
        }
    }
    out
}

/// The index just past the (nested) block comment that starts at `start`.
fn skip_block_comment(bytes: &[u8], start: usize, line: &mut usize) -> usize {
    let mut depth = 0;
    let mut i = start;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            *line += usize::from(bytes[i] == b'\n');
            i += 1;
        }
    }
    i
}

/// The index just past the string literal whose contents start at `start` (after its `"`).
fn skip_string(bytes: &[u8], start: usize, line: &mut usize) -> usize {
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return i + 1,
            b'\\' => {
                *line += usize::from(bytes.get(i + 1) == Some(&b'\n'));
                i += 2;
            }
            b'\n' => {
                *line += 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    i
}

/// The index just past the raw string whose `#`s (or `"`) start at `start`.
fn skip_raw_string(bytes: &[u8], start: usize, line: &mut usize) -> usize {
    let hashes = bytes[start..].iter().take_while(|&&b| b == b'#').count();
    let mut i = start + hashes + 1;
    while i < bytes.len() {
        if bytes[i] == b'"'
            && bytes[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&b| b == b'#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        *line += usize::from(bytes[i] == b'\n');
        i += 1;
    }
    i
}

/// The index just past the character literal (`'a'`, `'\n'`, `'\u{7f}'`, `b'a'`) or the
/// lifetime or label (`'a`, `'static`) at `start`.
fn skip_char_or_lifetime(source: &str, start: usize) -> usize {
    let bytes = source.as_bytes();
    let quote = start + bytes[start..].iter().position(|&b| b == b'\'').unwrap_or(0);
    if bytes.get(quote + 1) == Some(&b'\\') {
        let mut i = quote + 3;
        while i < bytes.len() && bytes[i] != b'\'' {
            i += 1;
        }
        return i + 1;
    }
    let width = source[quote + 1..].chars().next().map_or(1, char::len_utf8);
    if bytes.get(quote + 1 + width) == Some(&b'\'') {
        return quote + 2 + width;
    }
    let mut i = quote + 1;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    i
}

/// Whether `text` is an identifier or keyword.
fn is_ident(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// The index of the delimiter that closes the one at `open` (`(`, `[` or `{`), or the last
/// token's when it is never closed.
fn closing(toks: &[Token<'_>], open: usize) -> usize {
    let mut depth = 0usize;
    for (at, token) in toks.iter().enumerate().skip(open) {
        match token.text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at;
                }
            }
            _ => {}
        }
    }
    toks.len().saturating_sub(1)
}

/// The index of the delimiter that opens the one at `close` (`)`, `]` or `}`), if any.
fn opening(toks: &[Token<'_>], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for at in (0..=close).rev() {
        match toks[at].text {
            ")" | "]" | "}" => depth += 1,
            "(" | "[" | "{" => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// One table of profile decisions.

/// The profiles by name.
const PROFILE_NAMES: [&str; 3] = ["Rfc9309", "Google", "Legacy1994"];

/// The lines of `source` that branch on a profile's name, each with how: a comparison
/// (`== Profile::Google`, `Profile::Google != p`), a pattern (a `match` arm, `matches!(…)`'s
/// pattern, `if let`/`let … else`), spread over as many lines as it likes. Naming a profile to
/// construct a value (`ParseOptions { profile: Profile::Google, .. }`, `[Profile::Rfc9309,
/// Profile::Google]`) is not branching.
fn profile_branches(source: &str) -> Vec<(usize, &'static str)> {
    let toks = tokens(source);
    let named = |at: usize| {
        toks[at].text == "Profile"
            && toks.get(at + 1).is_some_and(|t| t.text == "::")
            && toks
                .get(at + 2)
                .is_some_and(|t| PROFILE_NAMES.contains(&t.text))
    };
    let in_range = |from: usize, to: usize| (from..to).filter(|&at| named(at)).collect::<Vec<_>>();
    let mut found = Vec::new();
    for at in (0..toks.len()).filter(|&at| named(at)) {
        let previous = path_start(&toks, at).checked_sub(1).map(|p| toks[p].text);
        let next = toks.get(at + 3).map(|t| t.text);
        if matches!(previous, Some("==" | "!=")) || matches!(next, Some("==" | "!=")) {
            found.push((toks[at].line, "compares a profile by name"));
        }
    }
    for at in 0..toks.len() {
        match toks[at].text {
            // `matches!(EXPRESSION, PATTERN)`: the pattern follows the first top-level comma.
            "matches"
                if toks.get(at + 1).is_some_and(|t| t.text == "!")
                    && toks.get(at + 2).is_some_and(|t| t.text == "(") =>
            {
                let close = closing(&toks, at + 2);
                let comma = top_level(&toks, at + 3, close, &[","]).unwrap_or(close);
                for hit in in_range(comma, close) {
                    found.push((toks[hit].line, "matches a profile by name in matches!"));
                }
            }
            // A `match` arm's pattern: back from `=>` to the previous arm (or the `{` that
            // opens the match).
            "=>" => {
                let start = arm_start(&toks, at);
                for hit in in_range(start, at) {
                    found.push((toks[hit].line, "matches a profile by name in a match arm"));
                }
            }
            // `if let PATTERN =`, `while let PATTERN =`, `let PATTERN = … else`.
            "let" => {
                let end = top_level(&toks, at + 1, toks.len(), &["=", ";"]).unwrap_or(at + 1);
                for hit in in_range(at + 1, end) {
                    found.push((toks[hit].line, "matches a profile by name in a let pattern"));
                }
            }
            _ => {}
        }
    }
    found.sort_unstable();
    found.dedup_by_key(|(line, _)| *line);
    found
}

/// The index of the first token of the path whose segment `toks[at]` is: for `Profile` in
/// `robotrules::Profile::Google`, that of `robotrules` (of the leading `::` in
/// `::robotrules::Profile::Google`).
fn path_start(toks: &[Token<'_>], at: usize) -> usize {
    let mut start = at;
    while start >= 2 && toks[start - 1].text == "::" && is_ident(toks[start - 2].text) {
        start -= 2;
    }
    if start >= 1 && toks[start - 1].text == "::" {
        start -= 1;
    }
    start
}

/// The first of `stops` in `from..to` outside any brackets opened there, or `None` when a
/// bracket opened before `from` closes first.
fn top_level(toks: &[Token<'_>], from: usize, to: usize, stops: &[&str]) -> Option<usize> {
    let mut depth = 0usize;
    for (at, token) in toks.iter().enumerate().take(to).skip(from) {
        match token.text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" if depth == 0 => return None,
            ")" | "]" | "}" => depth -= 1,
            text if depth == 0 && stops.contains(&text) => return Some(at),
            _ => {}
        }
    }
    None
}

/// Where the pattern of the `match` arm whose `=>` is at `arrow` begins: just after the
/// previous arm (its `,`, or the `}` of its block body) or the `{` that opens the match. A
/// `{…}` after a capitalised name is a struct pattern and part of it; any other `{…}` ends a
/// previous arm's body (`X => if c { … } else { … }`).
fn arm_start(toks: &[Token<'_>], arrow: usize) -> usize {
    let mut at = arrow;
    while let Some(previous) = at.checked_sub(1) {
        match toks[previous].text {
            "," | "=>" | ";" | "(" | "[" | "{" => return at,
            ")" | "]" | "}" => {
                let Some(open) = opening(toks, previous) else {
                    return at;
                };
                let struct_pattern = toks[previous].text != "}"
                    || open.checked_sub(1).is_some_and(|name| {
                        toks[name]
                            .text
                            .starts_with(|c: char| c.is_ascii_uppercase())
                    });
                if !struct_pattern {
                    return at;
                }
                at = open;
            }
            _ => at = previous,
        }
    }
    0
}

#[test]
fn no_profile_is_matched_by_name_outside_the_table() {
    let root = workspace_root();
    let table = root.join("crates/robotrules-model/src/profile.rs");
    let this = root.join("xtask/src/tidy.rs");
    let mut files = files_under(&root.join("crates"), &["rs"]);
    files.extend(files_under(&root.join("xtask"), &["rs"]));
    let mut found = Vec::new();
    for file in files.iter().filter(|f| **f != table && **f != this) {
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        let shown = file.strip_prefix(root).unwrap_or(file).display();
        for (line, how) in profile_branches(&text) {
            let code = text.lines().nth(line - 1).unwrap_or_default().trim();
            found.push(format!("{shown}:{line}: {how}: {code}"));
        }
    }
    assert!(
        found.is_empty(),
        "branch on the profile's reading (Profile::reading, Profile::those), not its name; \
         only crates/robotrules-model/src/profile.rs names profiles to decide:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_profile_check_sees_what_it_should() {
    let lines = |source: &str| -> Vec<usize> {
        profile_branches(source)
            .into_iter()
            .map(|(line, _)| line)
            .collect()
    };
    // Match arms, alone, with alternatives, in tuples and struct patterns, over several lines.
    assert_eq!(
        lines("match p {\n    Profile::Google => x,\n    _ => y,\n}"),
        [2]
    );
    assert_eq!(
        lines("match p {\n    Profile::Rfc9309 | Profile::Legacy1994 => y,\n    _ => z,\n}"),
        [2]
    );
    assert_eq!(
        lines("match p {\n    Profile::Rfc9309\n    | Profile::Legacy1994 => y,\n    _ => z }"),
        [2, 3]
    );
    assert_eq!(
        lines("match (p, q) {\n    (Profile::Google, true) => 1,\n    _ => 2 }"),
        [2]
    );
    assert_eq!(
        lines("match o { Options {\n profile: Profile::Google, ..\n } => 1, _ => 2 }"),
        [2]
    );
    // The arm's body is not its pattern, nor is a previous arm's block body.
    assert!(
        lines("match x {\n    1 => Profile::Google,\n    _ => Profile::Rfc9309,\n}").is_empty()
    );
    assert!(lines(
        "match x {\n 1 => if c { Profile::Google } else { Profile::Rfc9309 }\n _ => y }"
    )
    .is_empty());
    assert!(lines("match x {\n 1 => { Profile::Google }\n _ => y }").is_empty());
    // Comparisons, either way round, with a qualified path.
    assert_eq!(lines("if profile == Profile::Legacy1994 {"), [1]);
    assert_eq!(lines("let g = p != robotrules::Profile::Google;"), [1]);
    assert_eq!(lines("let g = Profile::Google\n    == p;"), [1]);
    // matches!, on one line or several; its expression half is not a pattern.
    assert_eq!(lines("assert!(matches!(p, Profile::Google));"), [1]);
    assert_eq!(
        lines(
            "let g = matches!(\n    options.profile,\n    Profile::Google | Profile::Rfc9309\n);"
        ),
        [3]
    );
    assert!(lines("matches!(Profile::Google.reading(), Reading { .. })").is_empty());
    // let patterns.
    assert_eq!(lines("if let Profile::Google = p {}"), [1]);
    assert_eq!(
        lines("let Some(\n    Profile::Google) = p else { return };"),
        [2]
    );
    // Constructing is not branching; neither are comments and strings.
    assert!(lines("let p = Profile::Google;").is_empty());
    assert!(lines("for p in [Profile::Rfc9309, Profile::Google] {").is_empty());
    assert!(lines("f(ParseOptions { profile: Profile::Google, ..Default::default() })").is_empty());
    assert!(lines("#[case::google(Profile::Google, 3)]").is_empty());
    assert!(lines("// Profile::Google => as a comment").is_empty());
    assert!(lines("/* matches!(p, Profile::Google) */").is_empty());
    assert!(lines("let s = \"p == Profile::Google\";").is_empty());
    assert!(lines("let s = r#\"Profile::Google =>\"#;").is_empty());
}

#[test]
fn parse_only_users_pull_in_no_runtime_no_http_no_renderer() {
    let tree = cargo(&[
        "tree",
        "--offline",
        "-p",
        "robotrules",
        "--no-default-features",
        "-e",
        "normal",
        "--prefix",
        "none",
    ]);
    for heavy in [
        "tokio",
        "reqwest",
        "hyper",
        "annotate-snippets",
        "serde_json",
    ] {
        let pulled = tree
            .lines()
            .any(|line| line.split_whitespace().next() == Some(heavy));
        assert!(
            !pulled,
            "robotrules with default-features = false pulls in {heavy}:\n{tree}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// No file-level import circle in any crate.

/// One module of a crate: where it sits (`["crate", "matcher", "index"]`), the file it is
/// written in (an inline `mod x { … }` shares its parent's), its child modules, and the names
/// its `use` declarations bind: name → absolute path, or `None` for a name from another crate
/// (`pub use robotrules_model as model;`). What a glob brings in is not known.
#[derive(Debug, Default)]
struct Module {
    path: Vec<String>,
    file: String,
    children: BTreeMap<String, usize>,
    imports: BTreeMap<String, Option<Vec<String>>>,
}

/// A path as written in a module (`super::grams::Gram`, `crate::Error`, `index::Index`), with
/// its line: a leaf of a `use` tree, or a path in code.
#[derive(Debug)]
struct Written {
    module: usize,
    line: usize,
    path: Vec<String>,
    kind: Kind,
}

/// What a [`Written`] path is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A `use` leaf that binds a name: its last segment, or its `as` name.
    Use(String),
    /// A `use` leaf that ends in `*` (or `as _`).
    Glob,
    /// A path in code (`crate::a::f()`, `matcher::Matcher::new()`).
    Code,
}

/// One leaf of a `use` tree: its path (a `self` leaf folded into its prefix), its `as` name,
/// whether it is a glob, its line.
#[derive(Debug, PartialEq, Eq)]
struct UseLeaf {
    path: Vec<String>,
    alias: Option<String>,
    glob: bool,
    line: usize,
}

/// The module tree of one crate, read from its root file by following `mod NAME;`
/// declarations the way rustc does (`a.rs` or `a/mod.rs`; a child of `a.rs` or `a/mod.rs` in
/// `a/`), and every path it writes. `read` gives a file's text by its path relative to the
/// crate (`None`: no such file). `#[path]` attributes are not followed. Items under
/// `#[cfg(test)]` (unit-test modules, inline or in their own file) are left out: a test imports
/// what it tests, which says nothing of how the crate is built.
#[derive(Debug, Default)]
struct ModuleTree {
    modules: Vec<Module>,
    written: Vec<Written>,
}

impl ModuleTree {
    /// The tree of the crate whose root file is `root_file` (`src/lib.rs`).
    fn read(root_file: &str, read: &dyn Fn(&str) -> Option<String>) -> ModuleTree {
        let mut tree = ModuleTree::default();
        tree.modules.push(Module {
            path: vec!["crate".to_owned()],
            file: root_file.to_owned(),
            ..Module::default()
        });
        let dir = root_file
            .rsplit_once('/')
            .map_or_else(String::new, |(dir, _)| format!("{dir}/"));
        let mut queue = vec![(0, dir)];
        while let Some((module, children_dir)) = queue.pop() {
            let file = tree.modules[module].file.clone();
            let Some(text) = read(&file) else {
                continue;
            };
            tree.scan(&text, module, &children_dir, read, &mut queue);
        }
        tree
    }

    /// Reads the declarations and paths of one file, whose top module is `module` and whose
    /// child modules' files live in `children_dir`.
    fn scan(
        &mut self,
        text: &str,
        module: usize,
        children_dir: &str,
        read: &dyn Fn(&str) -> Option<String>,
        queue: &mut Vec<(usize, String)>,
    ) {
        let toks = tokens(text);
        // The inline modules open at this point: module, the depth of braces inside it, the
        // directory of its children.
        let mut open = vec![(module, 0usize, children_dir.to_owned())];
        let mut at = 0;
        while at < toks.len() {
            let (current, _, dir) = open.last().cloned().unwrap_or((module, 0, String::new()));
            let text_at = |i: usize| toks.get(i).map_or("", |t| t.text);
            match toks[at].text {
                "{" => {
                    if let Some(top) = open.last_mut() {
                        top.1 += 1;
                    }
                }
                "}" => {
                    let inline = open.len() > 1;
                    match open.last_mut() {
                        Some(top) if top.1 == 0 && inline => {
                            open.pop();
                        }
                        Some(top) => top.1 = top.1.saturating_sub(1),
                        None => {}
                    }
                }
                // Unit tests import what they test; they are not the crate's structure.
                "#" if text_at(at + 1) == "["
                    && text_at(at + 2) == "cfg"
                    && text_at(at + 3) == "("
                    && text_at(at + 4) == "test"
                    && text_at(at + 5) == ")"
                    && text_at(at + 6) == "]" =>
                {
                    at = end_of_item(&toks, at + 7) + 1;
                    continue;
                }
                "mod" if is_ident(text_at(at + 1)) && matches!(text_at(at + 2), ";" | "{") => {
                    let name = text_at(at + 1).to_owned();
                    let mut path = self.modules[current].path.clone();
                    path.push(name.clone());
                    let file = if text_at(at + 2) == "{" {
                        self.modules[current].file.clone()
                    } else {
                        let flat = format!("{dir}{name}.rs");
                        if read(&flat).is_some() {
                            flat
                        } else {
                            format!("{dir}{name}/mod.rs")
                        }
                    };
                    let child = self.modules.len();
                    self.modules.push(Module {
                        path,
                        file,
                        ..Module::default()
                    });
                    self.modules[current].children.insert(name.clone(), child);
                    if text_at(at + 2) == "{" {
                        open.push((child, 0, format!("{dir}{name}/")));
                        at += 3;
                        continue;
                    }
                    queue.push((child, format!("{dir}{name}/")));
                    at += 3;
                    continue;
                }
                "use" => {
                    let mut leaves = Vec::new();
                    at += 1;
                    use_tree(&toks, &mut at, Vec::new(), &mut leaves);
                    for leaf in leaves {
                        let binds = leaf.alias.or_else(|| leaf.path.last().cloned());
                        let kind = match binds {
                            Some(name) if !leaf.glob && name != "_" => Kind::Use(name),
                            _ => Kind::Glob,
                        };
                        self.written.push(Written {
                            module: current,
                            line: leaf.line,
                            path: leaf.path,
                            kind,
                        });
                    }
                    continue;
                }
                // `pub(in crate::a)` names a module for visibility: not an import.
                "in" if at >= 2 && text_at(at - 1) == "(" && text_at(at - 2) == "pub" => {
                    at = closing(&toks, at - 1) + 1;
                    continue;
                }
                word if is_ident(word)
                    && text_at(at + 1) == "::"
                    && !matches!(text_at(at.wrapping_sub(1)), "::" | ".") =>
                {
                    let line = toks[at].line;
                    let mut path = vec![word.to_owned()];
                    at += 1;
                    while text_at(at) == "::" && is_ident(text_at(at + 1)) {
                        path.push(text_at(at + 1).to_owned());
                        at += 2;
                    }
                    self.written.push(Written {
                        module: current,
                        line,
                        path,
                        kind: Kind::Code,
                    });
                    continue;
                }
                _ => {}
            }
            at += 1;
        }
    }

    /// `written` (as written in `module`) as an absolute path from `crate`, or `None` when it
    /// leads out of the crate (`std::…`, another crate, a local name).
    fn absolute(&self, module: usize, written: &[String]) -> Option<Vec<String>> {
        let here = &self.modules[module];
        let (first, rest) = written.split_first()?;
        let mut path = match first.as_str() {
            "crate" => vec!["crate".to_owned()],
            "self" => here.path.clone(),
            "super" => {
                let mut path = here.path.clone();
                path.pop();
                path
            }
            name if here.children.contains_key(name) => {
                let mut path = here.path.clone();
                path.push(name.to_owned());
                path
            }
            name => here.imports.get(name).cloned().flatten()?,
        };
        for segment in rest {
            if segment == "super" && path.len() > 1 {
                path.pop();
            } else if segment != "self" {
                path.push(segment.clone());
            }
        }
        (!path.is_empty()).then_some(path)
    }

    /// Fills each module's names from its `use` declarations (twice, so that one `use` may
    /// build on another's name).
    fn bind_imports(&mut self) {
        for _ in 0..2 {
            for at in 0..self.written.len() {
                let Written {
                    module, path, kind, ..
                } = &self.written[at];
                let Kind::Use(name) = kind else {
                    continue;
                };
                if self.modules[*module].children.contains_key(name) {
                    continue;
                }
                let (module, name) = (*module, name.clone());
                match self.absolute(module, path) {
                    Some(absolute) => {
                        self.modules[module].imports.insert(name, Some(absolute));
                    }
                    // `robotrules_model::Profile`, `std::fmt`: another crate's (a local enum's
                    // variants, `Kind::Use`, are capitalised and stay unknown).
                    None if path.first().is_some_and(|first| {
                        first.starts_with(|c: char| c.is_ascii_lowercase())
                    }) =>
                    {
                        self.modules[module].imports.entry(name).or_insert(None);
                    }
                    None => {}
                }
            }
        }
    }

    /// The module an absolute path ends in, following re-exports (`crate::Error` is
    /// `crate::error::Error` when the root says `pub use error::Error`); and whether the whole
    /// path named modules. `None` when it leads to another crate through a re-export
    /// (`crate::Profile` after `pub use robotrules_model::Profile;`).
    fn resolve(&self, path: &[String], hops: usize) -> Option<(usize, bool)> {
        let mut module = 0;
        for (at, segment) in path.iter().enumerate().skip(1) {
            let here = &self.modules[module];
            if let Some(&child) = here.children.get(segment) {
                module = child;
            } else if let Some(target) = here.imports.get(segment).filter(|_| hops < 8) {
                let mut through = target.clone()?;
                through.extend_from_slice(&path[at + 1..]);
                return self.resolve(&through, hops + 1);
            } else {
                return Some((module, false));
            }
        }
        Some((module, true))
    }

    /// The file-level import graph: for each file, the files it imports from, with the line
    /// of the first import.
    fn graph(mut self) -> BTreeMap<String, BTreeMap<String, usize>> {
        self.bind_imports();
        let mut graph: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        for module in &self.modules {
            graph.entry(module.file.clone()).or_default();
        }
        for written in &self.written {
            let Some(path) = self.absolute(written.module, &written.path) else {
                continue;
            };
            let Some((target, only_modules)) = self.resolve(&path, 0) else {
                continue;
            };
            // `use crate::matcher;` brings a module into scope: the paths through it import.
            if only_modules && matches!(written.kind, Kind::Use(_)) {
                continue;
            }
            let from = &self.modules[written.module].file;
            let to = &self.modules[target].file;
            if from != to {
                let line = graph
                    .entry(from.clone())
                    .or_default()
                    .entry(to.clone())
                    .or_insert(written.line);
                *line = (*line).min(written.line);
            }
        }
        graph
    }
}

/// The index of the last token of the item that starts at `start`: its `;`, or the `}` of
/// its first `{…}` (a module, function or impl body), at the item's own depth.
fn end_of_item(toks: &[Token<'_>], start: usize) -> usize {
    let mut at = start;
    while let Some(token) = toks.get(at) {
        match token.text {
            ";" => return at,
            "{" => return closing(toks, at),
            "(" | "[" => at = closing(toks, at) + 1,
            _ => at += 1,
        }
    }
    toks.len()
}

/// The leaves of the `use` tree that starts at `toks[*at]`, after `prefix`. Leaves `*at`
/// past the tree.
fn use_tree(toks: &[Token<'_>], at: &mut usize, prefix: Vec<String>, out: &mut Vec<UseLeaf>) {
    let mut path = prefix;
    while let Some(token) = toks.get(*at) {
        match token.text {
            "::" => *at += 1,
            "*" => {
                *at += 1;
                let line = token.line;
                out.push(UseLeaf {
                    path,
                    alias: None,
                    glob: true,
                    line,
                });
                return;
            }
            "{" => {
                *at += 1;
                while let Some(inner) = toks.get(*at) {
                    match inner.text {
                        "}" => {
                            *at += 1;
                            return;
                        }
                        "," => *at += 1,
                        _ => {
                            let before = *at;
                            use_tree(toks, at, path.clone(), out);
                            if *at == before {
                                *at += 1;
                            }
                        }
                    }
                }
                return;
            }
            word if is_ident(word) => {
                *at += 1;
                let more = toks.get(*at).is_some_and(|t| t.text == "::");
                // `a::{self}` is `a`.
                if !(word == "self" && !more && !path.is_empty()) {
                    path.push(word.to_owned());
                }
                if more {
                    continue;
                }
                let mut alias = None;
                if toks.get(*at).is_some_and(|t| t.text == "as") {
                    alias = toks.get(*at + 1).map(|t| t.text.to_owned());
                    *at += 2;
                }
                out.push(UseLeaf {
                    path,
                    alias,
                    glob: false,
                    line: token.line,
                });
                return;
            }
            _ => return,
        }
    }
}

/// The sets of files that import each other in `graph` (its strongly connected components
/// with more than one file), each sorted, in sorted order (Tarjan's algorithm).
fn import_circles(graph: &BTreeMap<String, BTreeMap<String, usize>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeMap<String, usize>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeMap<&'g str, bool>,
        circles: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, file: &'g str) {
            let index = self.index.len();
            self.index.insert(file, index);
            self.low.insert(file, index);
            self.stack.push(file);
            self.on_stack.insert(file, true);
            let graph = self.graph;
            for next in graph.get(file).into_iter().flat_map(BTreeMap::keys) {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[file].min(self.low[next]);
                    self.low.insert(file, low);
                } else if self.on_stack.get(next).copied().unwrap_or(false) {
                    let low = self.low[file].min(self.index[next]);
                    self.low.insert(file, low);
                }
            }
            if self.low[file] == self.index[file] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.insert(top, false);
                    component.push(top.to_owned());
                    if top == file {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.circles.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeMap::new(),
        circles: Vec::new(),
    };
    for file in graph.keys() {
        if !walk.index.contains_key(file.as_str()) {
            walk.visit(file);
        }
    }
    walk.circles.sort();
    walk.circles
}

/// What a circle is made of: each import between its files, `from:line imports to`, with
/// file names shown under `shown`.
fn describe_circle(
    graph: &BTreeMap<String, BTreeMap<String, usize>>,
    circle: &[String],
    shown: &str,
) -> String {
    let mut out = format!(
        "{} files of {shown} import each other: {}\n",
        circle.len(),
        circle.join(", ")
    );
    for from in circle {
        for (to, line) in graph.get(from).into_iter().flatten() {
            if circle.contains(to) {
                let _ = writeln!(out, "    {shown}/{from}:{line} imports from {to}");
            }
        }
    }
    out
}

/// The root file of every target of every workspace package (libraries, binaries, tests,
/// benchmarks, examples; not build scripts), each with its package's directory: from
/// `cargo metadata`, so that a `[[bin]]` or `[[test]]` with its own path is found too.
fn crate_roots() -> Vec<(PathBuf, String)> {
    let metadata = workspace_metadata();
    let mut out = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap_or_default());
        let Some(dir) = manifest.parent() else {
            continue;
        };
        for target in package["targets"].as_array().into_iter().flatten() {
            let build_script = target["kind"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|kind| kind == "custom-build");
            let src = Path::new(target["src_path"].as_str().unwrap_or_default());
            if let (false, Ok(relative)) = (build_script, src.strip_prefix(dir)) {
                out.push((dir.to_path_buf(), relative.to_string_lossy().into_owned()));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn no_crate_has_an_import_circle() {
    let root = workspace_root();
    let roots = crate_roots();
    assert!(
        roots
            .iter()
            .any(|(dir, file)| dir.ends_with("robotrules-cli") && file == "src/main.rs"),
        "the CLI's binary is not among the crate roots: {roots:?}"
    );
    let mut found = String::new();
    for (krate, root_file) in roots {
        let read = |file: &str| fs::read_to_string(krate.join(file)).ok();
        let graph = ModuleTree::read(&root_file, &read).graph();
        let shown = krate
            .strip_prefix(root)
            .unwrap_or(&krate)
            .display()
            .to_string();
        for circle in import_circles(&graph) {
            found.push_str(&describe_circle(&graph, &circle, &shown));
        }
    }
    assert!(
        found.is_empty(),
        "files of a crate import each other (through `use`, `crate::`, `super::` or \
         child-module paths): move what both need into a file of its own, or have one side \
         stop importing the other\n{found}"
    );
}

// ---------------------------------------------------------------------------------------------
// One convention for module files.

/// The `mod.rs` files under `dir` (a module is `x.rs` with its children in `x/`).
fn mod_rs_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = files_under(dir, &["rs"]);
    files.retain(|file| file.file_name().is_some_and(|name| name == "mod.rs"));
    files
}

#[test]
fn every_module_file_is_named_after_its_module() {
    let root = workspace_root();
    let mut found: Vec<String> = ["crates", "xtask", "fuzz", "examples"]
        .iter()
        .flat_map(|dir| mod_rs_files(&root.join(dir)))
        .map(|file| {
            file.strip_prefix(root)
                .unwrap_or(&file)
                .display()
                .to_string()
        })
        .collect();
    found.sort();
    assert!(
        found.is_empty(),
        "a module is `x.rs` with its children in `x/`, never `x/mod.rs` \
         (docs/ARCHITECTURE.md): rename {found:?}"
    );
}

#[test]
fn the_module_file_check_sees_what_it_should() {
    let dir = std::env::temp_dir().join(format!("xtask-tidy-mod-rs-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("src/a")).unwrap();
    fs::create_dir_all(dir.join("target/debug")).unwrap();
    fs::write(dir.join("src/a/mod.rs"), "").unwrap();
    fs::write(dir.join("src/b.rs"), "").unwrap();
    fs::write(dir.join("target/debug/mod.rs"), "").unwrap();
    let found = mod_rs_files(&dir);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(found, [dir.join("src/a/mod.rs")]);
}

/// The import graph of a crate given as `(path, text)` pairs, rooted at `src/lib.rs`.
#[cfg(test)]
fn graph_of(files: &[(&str, &str)]) -> BTreeMap<String, BTreeMap<String, usize>> {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()))
        .collect();
    ModuleTree::read("src/lib.rs", &|file| files.get(file).cloned()).graph()
}

#[test]
fn the_circle_finder_finds_circles_and_only_circles() {
    let graph = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        for (from, to) in edges {
            graph
                .entry((*from).to_owned())
                .or_default()
                .insert((*to).to_owned(), 1);
            graph.entry((*to).to_owned()).or_default();
        }
        graph
    };
    let circles = |edges: &[(&str, &str)]| import_circles(&graph(edges));
    assert!(circles(&[]).is_empty());
    assert!(circles(&[("a", "b"), ("b", "c"), ("a", "c")]).is_empty());
    assert_eq!(circles(&[("a", "b"), ("b", "a")]), [["a", "b"]]);
    assert_eq!(
        circles(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]),
        [["a", "b", "c"]]
    );
    assert_eq!(
        circles(&[
            ("a", "b"),
            ("b", "a"),
            ("c", "d"),
            ("d", "e"),
            ("e", "c"),
            ("b", "c")
        ]),
        vec![vec!["a", "b"], vec!["c", "d", "e"]]
    );
    let described = describe_circle(
        &graph(&[("x", "y"), ("y", "x")]),
        &["x".into(), "y".into()],
        "k",
    );
    assert!(described.contains("k/x:1 imports from y"), "{described}");
}

#[test]
fn the_import_graph_follows_modules_paths_and_re_exports() {
    // lib.rs re-exports from its children; a child's `crate::Error` is error.rs's, not lib's.
    let graph = graph_of(&[
        (
            "src/lib.rs",
            "mod error;\nmod agent;\npub use error::Error;\npub use agent::Agent;\n",
        ),
        ("src/error.rs", "pub struct Error;\n"),
        ("src/agent.rs", "use crate::Error;\npub struct Agent;\n"),
    ]);
    assert_eq!(
        graph["src/agent.rs"].keys().collect::<Vec<_>>(),
        ["src/error.rs"]
    );
    assert_eq!(
        graph["src/lib.rs"].keys().collect::<Vec<_>>(),
        ["src/agent.rs", "src/error.rs"]
    );
    assert!(import_circles(&graph).is_empty());

    // `a.rs` with `a/b.rs`, `c/mod.rs` with `c/d.rs`; super, self, nested groups, aliases and
    // paths in code. A parent's `mod` is not an import, nor is a test module's `use super::*`
    // of its parent.
    let graph = graph_of(&[
        ("src/lib.rs", "pub mod a;\nmod c;\n"),
        (
            "src/a.rs",
            "mod b;\n#[cfg(test)]\nmod tests;\npub fn f() { self::b::g(); }\n",
        ),
        (
            "src/a/b.rs",
            "use super::super::c::{self as sea, d::{D}};\npub fn g() {}\n",
        ),
        ("src/a/tests.rs", "use super::*;\n"),
        (
            "src/c/mod.rs",
            "pub mod d;\npub fn h() { let s = \"crate::a::f\"; }\n",
        ),
        ("src/c/d.rs", "pub struct D;\n// crate::a::f\n"),
    ]);
    assert_eq!(graph["src/a.rs"].keys().collect::<Vec<_>>(), ["src/a/b.rs"]);
    assert_eq!(
        graph["src/a/b.rs"].keys().collect::<Vec<_>>(),
        ["src/c/d.rs"]
    );
    assert!(!graph.contains_key("src/a/tests.rs"));
    assert!(graph["src/c/mod.rs"].is_empty());
    assert!(graph["src/c/d.rs"].is_empty());
    assert!(import_circles(&graph).is_empty());

    // Unit tests are left out: here only the test module of d.rs imports from a.rs.
    let graph = graph_of(&[
        ("src/lib.rs", "mod a;\nmod d;\n"),
        ("src/a.rs", "use crate::d::D;\npub fn f() {}\n"),
        (
            "src/d.rs",
            "pub struct D;\n#[cfg(test)]\nmod tests {\n    use crate::a::f;\n}\n\
             #[cfg(test)]\nfn helper() { crate::a::f() }\n",
        ),
    ]);
    assert_eq!(graph["src/a.rs"].keys().collect::<Vec<_>>(), ["src/d.rs"]);
    assert!(graph["src/d.rs"].is_empty());

    // A child importing its parent's own items is a circle only when the parent imports the
    // child's items too; qualified paths in code count, with their lines.
    let graph = graph_of(&[
        (
            "src/lib.rs",
            "mod matcher;\npub struct Robots;\nfn f() {\n    matcher::Matcher::new();\n}\n",
        ),
        (
            "src/matcher.rs",
            "pub struct Matcher;\nfn g(r: &crate::Robots) {}\n",
        ),
    ]);
    assert_eq!(graph["src/lib.rs"]["src/matcher.rs"], 4);
    assert_eq!(graph["src/matcher.rs"]["src/lib.rs"], 2);
    assert_eq!(import_circles(&graph), [["src/lib.rs", "src/matcher.rs"]]);

    // A name the root re-exports from another crate is that crate's, not the root's.
    let graph = graph_of(&[
        (
            "src/lib.rs",
            "pub mod client;\npub use robotrules_model as model;\n\
             pub use robotrules_model::Profile;\npub use client::Client;\n",
        ),
        (
            "src/client.rs",
            "use crate::{model::Rule, Profile};\npub struct Client;\n",
        ),
    ]);
    assert!(graph["src/client.rs"].is_empty());
    assert!(import_circles(&graph).is_empty());

    // Siblings through their parent's re-export; inline modules; `pub(in crate::x)`.
    let graph = graph_of(&[
        ("src/lib.rs", "mod m;\n"),
        (
            "src/m.rs",
            "mod grams;\nmod index;\nuse grams::Gram;\npub use index::Index;\n",
        ),
        (
            "src/m/grams.rs",
            "pub struct Gram;\nfn f(_: super::Index) {}\n",
        ),
        (
            "src/m/index.rs",
            "pub(in crate::m) struct Index;\nmod inner {\n    use super::super::Gram;\n}\n",
        ),
    ]);
    assert_eq!(
        graph["src/m/grams.rs"].keys().collect::<Vec<_>>(),
        ["src/m/index.rs"]
    );
    assert_eq!(
        graph["src/m/index.rs"].keys().collect::<Vec<_>>(),
        ["src/m/grams.rs"]
    );
    assert_eq!(
        import_circles(&graph),
        [["src/m/grams.rs", "src/m/index.rs"]]
    );
}

// ---------------------------------------------------------------------------------------------
// The architecture document names what exists.

/// Names from outside the workspace that `docs/ARCHITECTURE.md` may put in backticks: the
/// standard library's and other crates' items, and Google's C++ functions the url crate ports.
const EXTERNAL_NAMES: &[&str] = &[
    "Arc",
    "Cow",
    "Borrowed",
    "Send",
    "Sync",
    "memchr",
    "memmem",
    "GetPathParamsQuery",
    "MaybeEscapePattern",
    "clippy",
    "unwrap_used",
    "catch_unwind",
    "texting_robots",
];

/// Whether a backticked span names a path: no space, and a trailing `/` or a file extension.
fn names_a_path(span: &str) -> bool {
    const EXTENSIONS: [&str; 10] = [
        ".rs", ".md", ".toml", ".py", ".txt", ".tsv", ".json", ".html", ".js", ".css",
    ];
    !span.contains(' ')
        && !span.contains("://")
        && (span.ends_with('/') || EXTENSIONS.iter().any(|ext| span.ends_with(ext)))
}

/// The segments of a backticked span that names a Rust item (`Crawler::new`, `Robots`,
/// `parse_with`, `Profile::reading()`), or `None` for other code (commands, keys, literals,
/// single lower-case words, which are too often plain words to check, and upper-case names
/// such as environment variables).
fn rust_item(span: &str) -> Option<Vec<&str>> {
    let path = span.strip_suffix("()").unwrap_or(span);
    let segments: Vec<&str> = path.split("::").collect();
    let identifier = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !segments.iter().all(|s| identifier(s)) {
        return None;
    }
    let camel = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().any(|c| c.is_ascii_lowercase())
    };
    let snake = path.contains('_') && !path.chars().any(|c| c.is_ascii_uppercase());
    (segments.len() > 1 || camel(path) || snake).then_some(segments)
}

/// What the workspace's Rust sources define: the names after a defining keyword (`fn`,
/// `struct`, `enum`, `trait`, `type`, `const`, `static`, `mod`, `union`, `macro_rules!`),
/// module files' names and the workspace crates' names as paths write them (`items`); the
/// capitalised names alone at the start of a line before `,`, `(` or `{` (enum variants); and
/// per file the types it implements something for and its functions, to find a type's methods.
#[derive(Debug, Default)]
struct Defined {
    items: std::collections::BTreeSet<String>,
    variants: std::collections::BTreeSet<String>,
    /// Per file: the types it writes an `impl` for, and its functions.
    impls: Vec<(Vec<String>, std::collections::BTreeSet<String>)>,
}

impl Defined {
    /// What the sources under `crates/` and `xtask/` define.
    fn read(root: &Path) -> Defined {
        let mut files = files_under(&root.join("crates"), &["rs"]);
        files.extend(files_under(&root.join("xtask"), &["rs"]));
        let mut defined = Defined::default();
        for file in &files {
            if let Some(stem) = file.file_stem().and_then(|s| s.to_str()) {
                defined.items.insert(stem.to_owned());
            }
            if let Ok(text) = fs::read_to_string(file) {
                defined.add(&text);
            }
        }
        for dir in fs::read_dir(root.join("crates"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Some(name) = dir.file_name().to_str() {
                defined.items.insert(name.replace('-', "_"));
            }
        }
        defined
    }

    /// Adds what `text` defines.
    fn add(&mut self, text: &str) {
        let toks = tokens(text);
        for (i, tok) in toks.iter().enumerate() {
            let defines = matches!(
                tok.text,
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "mod" | "union"
            ) || (tok.text == "!" && i > 0 && toks[i - 1].text == "macro_rules");
            if let Some(next) = toks.get(i + 1).filter(|_| defines) {
                self.items.insert(next.text.to_owned());
            }
        }
        for line in text.lines() {
            let trimmed = line.trim_start();
            let name: String = trimmed
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let rest = trimmed[name.len()..].trim_start();
            if name.starts_with(|c: char| c.is_ascii_uppercase())
                && [",", "(", "{"].iter().any(|p| rest.starts_with(p))
            {
                self.variants.insert(name);
            }
        }
        let mut implemented = Vec::new();
        let mut fns = std::collections::BTreeSet::new();
        for (i, tok) in toks.iter().enumerate() {
            if tok.text == "impl" {
                let header = toks[i + 1..]
                    .iter()
                    .take_while(|t| t.text != "{" && t.text != ";")
                    .take(16);
                implemented.extend(header.map(|t| t.text.to_owned()));
            } else if tok.text == "fn" {
                if let Some(name) = toks.get(i + 1) {
                    fns.insert(name.text.to_owned());
                }
            }
        }
        self.impls.push((implemented, fns));
    }

    /// Whether the path `segments` names something the workspace defines (or an
    /// [`EXTERNAL_NAMES`] name): every segment an item, except that after a type a
    /// capitalised last segment may be a variant, and a lower-case one must be a `fn` of a
    /// file that implements something for the type (`impl Type`, `impl Trait for Type`).
    fn has(&self, segments: &[&str]) -> bool {
        let known = |s: &str| self.items.contains(s) || EXTERNAL_NAMES.contains(&s);
        let Some((last, parents)) = segments.split_last() else {
            return false;
        };
        if !parents.iter().all(|s| known(s)) {
            return false;
        }
        let after_type = parents
            .last()
            .is_some_and(|p| p.starts_with(|c: char| c.is_ascii_uppercase()));
        if !after_type || EXTERNAL_NAMES.contains(last) {
            return known(last);
        }
        if last.starts_with(|c: char| c.is_ascii_uppercase()) {
            return self.variants.contains(*last) || known(last);
        }
        let ty = parents.last().copied().unwrap_or_default();
        self.impls
            .iter()
            .any(|(types, fns)| types.iter().any(|t| t == ty) && fns.contains(*last))
    }
}

/// Whether `path` (as the document writes it, under the section of `krate`) is a file or
/// directory: from the workspace root, from `docs/`, or as the tail of a path in `krate`
/// (`matcher/entry.rs` in the model crate, `api.rs` in the CLI), or anywhere in the workspace
/// outside a crate's section.
fn path_exists(root: &Path, krate: Option<&Path>, path: &str, all: &[PathBuf]) -> bool {
    let trimmed = path.trim_end_matches('/');
    if root.join(trimmed).exists() || root.join("docs").join(trimmed).exists() {
        return true;
    }
    let base = krate.map_or_else(|| root.to_path_buf(), |k| root.join(k));
    let tail = format!("/{trimmed}");
    all.iter().filter(|p| p.starts_with(&base)).any(|p| {
        let shown = p.display().to_string();
        shown.ends_with(&tail) || shown.contains(&format!("{tail}/"))
    })
}

/// What `doc` names in backticks that does not exist: each with its line.
fn stale_names(doc: &str, root: &Path, defined: &Defined, all: &[PathBuf]) -> Vec<String> {
    let mut stale = Vec::new();
    let mut krate: Option<PathBuf> = None;
    let mut in_fence = false;
    for (number, line) in doc.lines().enumerate() {
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if line.starts_with("## ") || line.starts_with("### ") {
            krate = line
                .split('`')
                .nth(1)
                .filter(|s| s.starts_with("crates/") || *s == "xtask/")
                .map(PathBuf::from);
        }
        for span in line.split('`').skip(1).step_by(2) {
            let missing = if names_a_path(span) {
                !path_exists(root, krate.as_deref(), span, all)
            } else if let Some(segments) = rust_item(span) {
                !defined.has(&segments)
            } else {
                false
            };
            if missing {
                stale.push(format!("line {}: `{span}`", number + 1));
            }
        }
    }
    stale
}

#[test]
fn the_architecture_document_names_only_what_exists() {
    let root = workspace_root();
    let doc = fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap_or_default();
    let all = walk(root);
    let stale = stale_names(&doc, root, &Defined::read(root), &all);
    assert!(
        stale.is_empty(),
        "docs/ARCHITECTURE.md names paths or Rust items that do not exist (rename or drop \
         them):\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_architecture_check_sees_what_it_should() {
    assert!(names_a_path("src/cmd/") && names_a_path("matcher/entry.rs"));
    assert!(!names_a_path("cargo xtask test") && !names_a_path("scheme://host[:port]"));
    assert_eq!(rust_item("Crawler::new"), Some(vec!["Crawler", "new"]));
    assert_eq!(
        rust_item("Profile::reading()"),
        Some(vec!["Profile", "reading"])
    );
    assert_eq!(rust_item("parse_with"), Some(vec!["parse_with"]));
    assert_eq!(rust_item("Robots"), Some(vec!["Robots"]));
    assert_eq!(rust_item("open"), None);
    assert_eq!(rust_item("NL"), None);
    assert_eq!(rust_item("ROBOTRULES_SKIP_REDIS"), None);
    assert_eq!(rust_item("Send + Sync"), None);
    let root = workspace_root();
    let defined = Defined::read(root);
    assert!(defined.has(&["Crawler"]) && defined.has(&["robotrules_model", "Profile"]));
    assert!(defined.has(&["Profile", "Google"]) && defined.has(&["Crawler", "new"]));
    assert!(!defined.has(&["Robots", "agent"]) && !defined.has(&["Profile", "Bing"]));
    let all = walk(&root.join("crates/robotrules-model"));
    let doc = "### `crates/robotrules-model`\n\n`matcher/entry.rs`, `Crawler::new`, \
               `matcher/nowhere.rs`, `Crawler::agent`, `Nowhere`, `open`\n";
    assert_eq!(
        stale_names(doc, root, &defined, &all),
        [
            "line 3: `matcher/nowhere.rs`",
            "line 3: `Crawler::agent`",
            "line 3: `Nowhere`"
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// A curated facade.

/// The `pub use` (and `pub extern crate`) declarations of `source` that re-export a whole
/// `robotrules_*` crate, under another name (`pub use robotrules_model as model;`, `pub use
/// robotrules_model::{self as model};`), under its own (`pub use robotrules_model;`) or by
/// glob (`pub use robotrules_model::*;`): each with its line and the crate. Re-exporting an
/// item (`pub use robotrules_model::Profile;`) is what a curated facade does, and passes.
fn wholesale_re_exports(source: &str) -> Vec<(usize, String)> {
    let toks = tokens(source);
    let mut found = Vec::new();
    for at in 0..toks.len() {
        let text_at = |i: usize| toks.get(i).map_or("", |t| t.text);
        if text_at(at) != "pub" {
            continue;
        }
        let mut leaves = Vec::new();
        match (text_at(at + 1), text_at(at + 2)) {
            ("use", _) => {
                let mut end = at + 2;
                use_tree(&toks, &mut end, Vec::new(), &mut leaves);
            }
            ("extern", "crate") => leaves.push(UseLeaf {
                path: vec![text_at(at + 3).to_owned()],
                alias: None,
                glob: false,
                line: toks[at].line,
            }),
            _ => continue,
        }
        for leaf in leaves {
            if let [krate] = leaf.path.as_slice() {
                if krate.starts_with("robotrules_") {
                    found.push((leaf.line, krate.clone()));
                }
            }
        }
    }
    found
}

#[test]
fn the_facade_re_exports_no_layer_crate_wholesale() {
    let root = workspace_root();
    let mut files = files_under(&root.join("crates/robotrules/src"), &["rs"]);
    files.sort();
    let mut found = Vec::new();
    for file in &files {
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        let shown = file.strip_prefix(root).unwrap_or(file).display();
        for (line, krate) in wholesale_re_exports(&text) {
            let code = text.lines().nth(line - 1).unwrap_or_default().trim();
            found.push(format!("{shown}:{line}: re-exports all of {krate}: {code}"));
        }
    }
    assert!(
        found.is_empty(),
        "the facade re-exports what most users need, item by item; the layer crates are \
         published with their own APIs for those who want them whole:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_facade_check_sees_what_it_should() {
    let crates = |source: &str| -> Vec<String> {
        wholesale_re_exports(source)
            .into_iter()
            .map(|(_, krate)| krate)
            .collect()
    };
    assert_eq!(
        crates("pub use robotrules_model as model;"),
        ["robotrules_model"]
    );
    assert_eq!(
        wholesale_re_exports("//! docs\n\npub use ::robotrules_url\n    as url;"),
        [(3, "robotrules_url".to_owned())]
    );
    assert_eq!(
        crates("pub use robotrules_lint::{self as lint};"),
        ["robotrules_lint"]
    );
    assert_eq!(
        crates("pub use robotrules_grammar;"),
        ["robotrules_grammar"]
    );
    assert_eq!(crates("pub use robotrules_fetch::*;"), ["robotrules_fetch"]);
    assert_eq!(
        crates("pub extern crate robotrules_fetch as fetch;"),
        ["robotrules_fetch"]
    );
    assert!(crates("pub use robotrules_model::{Profile, Robots as Model};").is_empty());
    assert!(crates("pub use robotrules_fetch::cache::{CachePolicy, Store};").is_empty());
    assert!(crates("pub(crate) use robotrules_model as model;").is_empty());
    assert!(crates("use robotrules_model as model;").is_empty());
    assert!(crates("// pub use robotrules_model as model;").is_empty());
}

// ---------------------------------------------------------------------------------------------
// Reproducible installs.

/// The `cargo install …` commands in `text` that lack `--locked`, as `(line, command)`. A
/// command is `cargo install` followed by an argument, up to the end of the line, a backtick
/// or a quote; prose such as "with cargo installed" is not one.
fn unlocked_installs(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("cargo install ") {
            let tail = &rest[at..];
            let end = tail.find(['`', '"', '\'', '#', ')']).unwrap_or(tail.len());
            let command = tail[..end].trim_end();
            if !command.split_whitespace().any(|word| word == "--locked") {
                out.push((index + 1, command.to_owned()));
            }
            rest = &tail[end..];
        }
    }
    out
}

#[test]
fn every_install_shown_is_locked() {
    let root = workspace_root();
    // Every file a user reads an install command from: Markdown, shell scripts, and Rust
    // source (messages that tell the user what to run).
    let files = files_under(root, &["md", "sh", "rs"]);
    let this = Path::new(file!())
        .file_name()
        .map(|name| name.to_owned())
        .unwrap_or_default();
    let mut found = String::new();
    for file in files {
        // This file names the command in its own checks.
        if file.ends_with(Path::new("xtask/src").join(&this)) {
            continue;
        }
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for (line, command) in unlocked_installs(&text) {
            let shown = file.strip_prefix(root).unwrap_or(&file).display();
            let _ = writeln!(found, "{shown}:{line}: {command}");
        }
    }
    assert!(
        found.is_empty(),
        "install commands without --locked (a user's build would not be the one CI tested, \
         whose versions Cargo.lock pins):\n{found}"
    );
}

#[test]
fn the_install_check_sees_what_it_should() {
    assert_eq!(
        unlocked_installs("```sh\ncargo install --path crates/robotrules-cli\n```\n"),
        [(2, "cargo install --path crates/robotrules-cli".to_owned())]
    );
    assert_eq!(
        unlocked_installs("run `cargo install cargo-fuzz` once, or `cargo install x --locked`"),
        [(1, "cargo install cargo-fuzz".to_owned())]
    );
    assert!(unlocked_installs("cargo install --locked --path crates/robotrules-cli").is_empty());
    assert!(unlocked_installs("with cargo installed:").is_empty());
}
