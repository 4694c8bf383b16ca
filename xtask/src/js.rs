//! The npm package `robotrules` (`crates/robotrules-js`): `cargo xtask js` builds it, packs it
//! and runs its tests; `cargo xtask test` runs the same step after the Python step, unless
//! `ROBOTRULES_SKIP_JS=1` (`skip.rs`) or the arguments choose other packages.
//!
//! What is missing is installed first: the `wasm32-unknown-unknown` target (`rustup target
//! add`), and `wasm-bindgen-cli` into `target/js-tools` at exactly the version of the
//! `wasm-bindgen` crate in `Cargo.lock` (the two must match), built from crates.io source, with
//! no prebuilt binary. It is installed without `--locked`: the lockfile published with
//! wasm-bindgen-cli pins a webpki-roots release that the registry here does not serve; the
//! tool's version is pinned either way. Node.js 18 or later with npm is installed with
//! `apt-get` when `node` or `npm` is missing (`debian.rs`).
//!
//! Then:
//! 1. `cargo build -p robotrules-js --target wasm32-unknown-unknown --profile wasm` (the
//!    workspace's `wasm` profile: opt-level 3, LTO; there is no wasm-opt here);
//! 2. wasm-bindgen `--target nodejs` into `npm/dist/node` and `--target web` into
//!    `npm/dist/web` (without the name section), and `node npm/build.mjs` (the wrapper as
//!    CommonJS and ESM, one .wasm);
//! 3. `npm pack` into `target/js/` (`robotrules-0.1.0.tgz`, whose size it prints);
//! 4. in `crates/robotrules-js/tests` and `crates/robotrules-js/tests/crawlee`, `npm ci` when
//!    the lockfile changed (mocha, chai, robots-parser and TypeScript; crawlee with
//!    `robots-parser` overridden by the drop-in; all pinned), then the packed tarball
//!    installed with `npm install --no-save`;
//! 5. `node --test` on the package's own tests (`*.test.mjs`), robots-parser 3.0.1's own
//!    suite against the drop-in (`robots-parser/run.cjs`), then the Crawlee crawl on loopback
//!    (`crawlee/crawl.test.mjs`);
//! 6. the static tester (`static_tester.rs`) written into `target/js/tester` and opened in
//!    headless Chromium from a static file server on loopback (`tester/tester.test.mjs`),
//!    Chromium installed when missing (`browser.rs`), unless `ROBOTRULES_SKIP_BROWSER=1`.
//!
//! It prints how long the step took.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{bail, Context as _};

use crate::cargo::check;
use crate::skip::Piece;

/// The WebAssembly target.
const TARGET: &str = "wasm32-unknown-unknown";

/// The package's version (`npm/package.json`), which names the packed tarball.
const PACKAGE: &str = "robotrules-0.1.0.tgz";

/// Runs the JS step after `cargo test` and the Python step ended with `status`, unless it
/// failed, the step is skipped, or the arguments chose other packages.
pub(crate) fn after_cargo_test(
    status: ExitCode,
    args: &[std::ffi::OsString],
) -> anyhow::Result<ExitCode> {
    if status != ExitCode::SUCCESS
        || Piece::Js.skipped()
        || (crate::cargo::names_packages(args)
            && !args
                .iter()
                .any(|arg| arg.to_string_lossy().ends_with("robotrules-js")))
    {
        return Ok(status);
    }
    run(crate::cargo::workspace_root())
}

/// The target directory of the workspace at `root`.
fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// `cargo xtask static-tester DIR`: builds the WebAssembly and writes the static tester into
/// `dir` ([`crate::static_tester`]).
pub(crate) fn static_tester(root: &Path, dir: &Path) -> anyhow::Result<ExitCode> {
    let npm = build(root)?;
    crate::static_tester::write(root, &npm.join("dist/web"), dir)?;
    Ok(ExitCode::SUCCESS)
}

/// The whole step in the workspace at `root`.
pub(crate) fn run(root: &Path) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let crate_dir = root.join("crates/robotrules-js");
    let target_dir = target_dir(root);
    let npm = build(root)?;

    let packed = target_dir.join("js");
    std::fs::create_dir_all(&packed).with_context(|| format!("making {}", packed.display()))?;
    eprintln!("xtask: npm pack");
    let mut pack = npm_command();
    pack.args(["pack", "--silent", "--pack-destination"])
        .arg(&packed)
        .current_dir(&npm);
    check(pack)?;
    let tarball = packed.join(PACKAGE);
    let size = std::fs::metadata(&tarball)
        .with_context(|| format!("npm pack wrote no {}", tarball.display()))?
        .len();
    eprintln!(
        "xtask: {} is {} KB (gzipped)",
        tarball.display(),
        size.div_ceil(1024)
    );

    let tests = crate_dir.join("tests");
    let crawlee = tests.join("crawlee");
    for dir in [&tests, &crawlee] {
        ensure_test_packages(dir)?;
        let mut install = npm_command();
        install
            .args([
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--silent",
            ])
            .arg(&tarball)
            .current_dir(dir);
        check(install)?;
    }

    eprintln!("xtask: running the JS tests (node --test crates/robotrules-js/tests)");
    let status = node_tests(&tests)?;
    let status = if status == ExitCode::SUCCESS {
        eprintln!(
            "xtask: running robots-parser 3.0.1's own suite against robotrules/robots-parser"
        );
        let mut suite = Command::new("node");
        suite
            .arg(tests.join("robots-parser/run.cjs"))
            .current_dir(&tests);
        crate::cargo::run(suite)?
    } else {
        status
    };
    let status = if status == ExitCode::SUCCESS {
        eprintln!(
            "xtask: running the Crawlee crawl (node --test crates/robotrules-js/tests/crawlee)"
        );
        node_tests(&crawlee)?
    } else {
        status
    };
    let status = if status == ExitCode::SUCCESS {
        static_tester_test(root, &npm, &target_dir.join("js/tester"))?
    } else {
        status
    };
    eprintln!("xtask: the JS step took {:.0?}", started.elapsed());
    Ok(status)
}

/// Step 6: the static tester written into `site` and opened in headless Chromium from a
/// static file server (`tests/tester`), Chromium installed first when missing as for the
/// browser tests of `robotrules serve`; skipped with them (`ROBOTRULES_SKIP_BROWSER=1`).
fn static_tester_test(root: &Path, npm: &Path, site: &Path) -> anyhow::Result<ExitCode> {
    crate::static_tester::write(root, &npm.join("dist/web"), site)?;
    if Piece::Browser.skipped() {
        eprintln!(
            "xtask: not opening the static tester in Chromium ({}=1)",
            Piece::Browser.variable()
        );
        return Ok(ExitCode::SUCCESS);
    }
    crate::browser::ensure_installed()?;
    let started = Instant::now();
    eprintln!(
        "xtask: opening the static tester in headless Chromium (node --test \
         crates/robotrules-js/tests/tester)"
    );
    let tests = root.join("crates/robotrules-js/tests/tester");
    let mut node_test = node_test_runner();
    node_test
        .arg(tests.join("tester.test.mjs"))
        .env("ROBOTRULES_STATIC_TESTER", site)
        .current_dir(&tests);
    let status = crate::cargo::run(node_test)?;
    eprintln!(
        "xtask: the static tester's browser test took {:.1?}",
        started.elapsed()
    );
    Ok(status)
}

/// Steps 1 and 2: the WebAssembly, bound for Node.js and the web, and the package's wrapper
/// assembled; the package's folder (`crates/robotrules-js/npm`, its `dist/` written).
fn build(root: &Path) -> anyhow::Result<PathBuf> {
    let crate_dir = root.join("crates/robotrules-js");
    let target_dir = target_dir(root);
    ensure_node()?;
    ensure_target()?;
    let version = wasm_bindgen_version(root)?;
    let bindgen = ensure_wasm_bindgen(&target_dir.join("js-tools"), &version)?;

    eprintln!(
        "xtask: building the WebAssembly (cargo build -p robotrules-js --target {TARGET} \
         --profile wasm)"
    );
    let mut build = crate::cargo::cargo_command();
    build
        .args([
            "build",
            "--quiet",
            "-p",
            "robotrules-js",
            "--target",
            TARGET,
        ])
        .args(["--profile", "wasm", "--manifest-path"])
        .arg(root.join("Cargo.toml"));
    check(build)?;
    let wasm = target_dir
        .join(TARGET)
        .join("wasm")
        .join("robotrules_js.wasm");

    let npm = crate_dir.join("npm");
    let dist = npm.join("dist");
    if dist.exists() {
        std::fs::remove_dir_all(&dist).with_context(|| format!("removing {}", dist.display()))?;
    }
    for (target, out) in [("nodejs", "node"), ("web", "web")] {
        eprintln!("xtask: wasm-bindgen --target {target}");
        let mut bind = Command::new(&bindgen);
        // The name section only names functions in a trace; the package is smaller without.
        bind.args([
            "--target",
            target,
            "--no-typescript",
            "--remove-name-section",
        ])
        .args(["--remove-producers-section", "--out-dir"])
        .arg(dist.join(out))
        .arg(&wasm);
        check(bind)?;
    }
    let mut assemble = Command::new("node");
    assemble.arg(npm.join("build.mjs"));
    check(assemble)?;
    Ok(npm)
}

/// `node --test` on the `*.test.mjs` files of `dir`, run there.
fn node_tests(dir: &Path) -> anyhow::Result<ExitCode> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    let mut node_test = node_test_runner();
    node_test.args(&files).current_dir(dir);
    crate::cargo::run(node_test)
}

/// `node --test`, with `--test-force-exit` where this Node.js has it (20.14 and later): a
/// test file whose tests have all finished then exits even if something keeps its event loop
/// alive. Once, a finished test file's process stayed idle instead of exiting, which would
/// hold CI until its time limit.
fn node_test_runner() -> Command {
    let force_exit = Command::new("node")
        .args(["--test-force-exit", "--version"])
        .output()
        .is_ok_and(|output| output.status.success());
    let mut node_test = Command::new("node");
    node_test.arg("--test");
    if force_exit {
        node_test.arg("--test-force-exit");
    }
    node_test
}

/// Debian's packages for Node.js and npm (bookworm's Node.js is 18).
const NODE_PACKAGES: &[&str] = &["nodejs", "npm"];

/// Makes sure a Node.js of version 18 or later and npm are on `PATH`: installed with
/// `apt-get` when missing ([`crate::debian`], as `redis.rs` installs `redis-server`); an older
/// Node.js already installed is an error (nothing installed is upgraded).
fn ensure_node() -> anyhow::Result<()> {
    if crate::debian::on_path("node").is_none() || crate::debian::on_path("npm").is_none() {
        crate::debian::apt_install(&crate::debian::Install {
            packages: NODE_PACKAGES,
            why: Piece::Js.tests(),
            skip: Piece::Js.variable(),
            without_apt: "node or npm is missing and there is no apt-get to install them; install \
                          Node.js 18 or later with npm",
        })?;
    }
    let output = Command::new("node")
        .arg("--version")
        .output()
        .context("running node --version")?;
    let version = String::from_utf8_lossy(&output.stdout);
    if node_major(&version) < 18 {
        bail!(
            "the npm package needs Node.js 18 or later, found {:?}; install a newer one (or set \
             ROBOTRULES_SKIP_JS=1)",
            version.trim()
        );
    }
    Ok(())
}

/// The major version in `node --version`'s output (`v20.20.2` → 20), `0` if unreadable.
fn node_major(version: &str) -> u32 {
    version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|major| major.parse().ok())
        .unwrap_or(0)
}

/// `rustup target add wasm32-unknown-unknown` unless it is installed.
fn ensure_target() -> anyhow::Result<()> {
    let output = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .context("running rustup (the WebAssembly target is installed with it)")?;
    if String::from_utf8_lossy(&output.stdout)
        .lines()
        .any(|line| line.trim() == TARGET)
    {
        return Ok(());
    }
    eprintln!("xtask: rustup target add {TARGET}");
    let mut add = Command::new("rustup");
    add.args(["target", "add", TARGET]);
    check(add)
}

/// The version of the `wasm-bindgen` crate in the workspace's `Cargo.lock`.
fn wasm_bindgen_version(root: &Path) -> anyhow::Result<String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).context("reading Cargo.lock")?;
    locked_version(&lock, "wasm-bindgen").context("Cargo.lock holds no wasm-bindgen crate")
}

/// The version of package `name` in the text of a `Cargo.lock`.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let version = lines.next()?.trim().strip_prefix("version = \"")?;
            return Some(version.trim_end_matches('"').to_owned());
        }
    }
    None
}

/// The `wasm-bindgen` binary at `version` under `root` (`root/bin`), installed from crates.io
/// when it is missing or another version.
fn ensure_wasm_bindgen(root: &Path, version: &str) -> anyhow::Result<PathBuf> {
    let binary = root
        .join("bin")
        .join(format!("wasm-bindgen{}", std::env::consts::EXE_SUFFIX));
    let installed = Command::new(&binary)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_default();
    if installed == format!("wasm-bindgen {version}") {
        return Ok(binary);
    }
    eprintln!(
        "xtask: installing wasm-bindgen-cli {version} from crates.io into {}",
        root.display()
    );
    let mut install = crate::cargo::cargo_command();
    // Not `--locked`: the lockfile published with wasm-bindgen-cli pins a webpki-roots release
    // that the registry here does not serve (see the module docs).
    install
        .args([
            "install",
            "wasm-bindgen-cli",
            "--version",
            version,
            "--root",
        ])
        .arg(root);
    check(install)?;
    Ok(binary)
}

/// `npm ci` in `dir` unless its `node_modules` was installed from the same lockfile.
fn ensure_test_packages(dir: &Path) -> anyhow::Result<()> {
    let lockfile = dir.join("package-lock.json");
    let lock = std::fs::read_to_string(&lockfile)
        .with_context(|| format!("reading {}", lockfile.display()))?;
    let stamp = dir.join("node_modules").join(".robotrules-lock.json");
    if std::fs::read_to_string(&stamp).is_ok_and(|had| had == lock) {
        return Ok(());
    }
    eprintln!(
        "xtask: npm ci in {} (pinned by its package-lock.json)",
        dir.display()
    );
    let mut ci = npm_command();
    ci.args(["ci", "--no-audit", "--no-fund", "--silent"])
        .current_dir(dir);
    check(ci)?;
    std::fs::write(&stamp, lock).with_context(|| format!("writing {}", stamp.display()))
}

/// `npm`.
fn npm_command() -> Command {
    Command::new("npm")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_versions_are_read_by_their_major() {
        assert_eq!(node_major("v20.20.2\n"), 20);
        assert_eq!(node_major("v18.19.0"), 18);
        assert_eq!(node_major("v9.0.0"), 9);
        assert_eq!(node_major(""), 0);
    }

    #[test]
    fn the_locked_version_is_read_from_the_package_s_own_entry() {
        let lock = "[[package]]\nname = \"wasm-bindgen-macro\"\nversion = \"9.9.9\"\n\n\
                    [[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n";
        assert_eq!(
            locked_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(locked_version(lock, "js-sys"), None);
    }

    #[test]
    fn the_crate_pins_the_locked_wasm_bindgen() {
        let root = crate::cargo::workspace_root();
        let locked = wasm_bindgen_version(root).unwrap();
        let manifest =
            std::fs::read_to_string(root.join("crates/robotrules-js/Cargo.toml")).unwrap();
        assert!(
            manifest.contains(&format!("wasm-bindgen = \"={locked}\"")),
            "crates/robotrules-js pins wasm-bindgen at another version than Cargo.lock's {locked}"
        );
    }

    #[test]
    fn the_tarball_is_named_after_the_package_s_version() {
        let root = crate::cargo::workspace_root();
        let package =
            std::fs::read_to_string(root.join("crates/robotrules-js/npm/package.json")).unwrap();
        let version = PACKAGE
            .strip_prefix("robotrules-")
            .and_then(|v| v.strip_suffix(".tgz"))
            .unwrap();
        assert!(
            package.contains(&format!("\"version\": \"{version}\"")),
            "{PACKAGE}"
        );
    }
}
