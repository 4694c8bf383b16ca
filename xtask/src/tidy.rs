//! Tidy: the invariants `docs/ARCHITECTURE.md` states, checked on every `cargo test` (in the
//! manner of rust-analyzer's tidy tests) so that they stay true rather than merely written.
//!
//! - **Dependency directions.** text and grammar depend on no other workspace crate, url on
//!   text only; model on text, grammar and url only; fetch on neither grammar nor model; lint
//!   on none of fetch, the facade or the CLI; diff on text, grammar, url and model only; no
//!   published crate but the CLI depends on clap.
//! - **One table of profile decisions.** No source file outside
//!   `crates/robotrules-model/src/profile.rs` matches or compares a profile by name.
//! - **Parse-only users stay light.** The facade without default features pulls in no tokio,
//!   reqwest, hyper, annotate-snippets or serde_json.
//! - **Generated docs are fresh.** `docs/conformance.md` against the corpus is checked by
//!   `crates/robotrules-conformance/tests/docs_fresh.rs` (the same check as
//!   `cargo xtask conformance --check`), next to the code that renders it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The workspace root.
fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// `cargo ARGS` in the workspace root: its standard output, or a panic with standard error.
fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|error| panic!("cannot run cargo {args:?}: {error}"));
    assert!(
        output.status.success(),
        "cargo {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each workspace package: whether it is published, and its normal and build dependencies
/// (dev-dependencies are for its tests and never reach its users).
fn packages() -> BTreeMap<String, (bool, Vec<String>)> {
    let metadata: Value = serde_json::from_str(&cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]))
    .unwrap_or_else(|error| panic!("cargo metadata is not JSON: {error}"));
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
        ("robotrules-grammar", &[][..]),
        ("robotrules-url", &["robotrules-text"][..]),
        (
            "robotrules-model",
            &["robotrules-text", "robotrules-grammar", "robotrules-url"][..],
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

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `line` branches on a profile's name: a match arm (`Profile::Google =>`,
/// `Profile::Rfc9309 | …`) or a comparison (`== Profile::Legacy1994`).
fn branches_on_a_profile(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or_default();
    let names = ["Profile::Rfc9309", "Profile::Google", "Profile::Legacy1994"];
    names.iter().any(|name| {
        code.match_indices(name).any(|(at, _)| {
            let before = code[..at].trim_end();
            let after = code[at + name.len()..].trim_start();
            before.ends_with("==")
                || before.ends_with("!=")
                || after.starts_with("=>")
                || after.starts_with('|')
                || after.starts_with("==")
                || after.starts_with("!=")
        })
    })
}

#[test]
fn no_profile_is_matched_by_name_outside_the_table() {
    let root = root();
    let table = root.join("crates/robotrules-model/src/profile.rs");
    let this = root.join("xtask/src/tidy.rs");
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    rust_files(&root.join("xtask"), &mut files);
    let mut found = Vec::new();
    for file in files.iter().filter(|f| **f != table && **f != this) {
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if branches_on_a_profile(line) {
                let shown = file.strip_prefix(&root).unwrap_or(file).display();
                found.push(format!("{shown}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "branch on the profile's reading (Profile::reading, Profile::those), not its name:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_profile_check_sees_what_it_should() {
    assert!(branches_on_a_profile("        Profile::Google => x,"));
    assert!(branches_on_a_profile(
        "    Profile::Rfc9309 | Profile::Legacy1994 => y,"
    ));
    assert!(branches_on_a_profile("if profile == Profile::Legacy1994 {"));
    assert!(branches_on_a_profile("let g = p != Profile::Google;"));
    assert!(!branches_on_a_profile("let p = Profile::Google;"));
    assert!(!branches_on_a_profile(
        "for p in [Profile::Rfc9309, Profile::Google] {"
    ));
    assert!(!branches_on_a_profile("// Profile::Google => as a comment"));
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
