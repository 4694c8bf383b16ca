//! Running the `robotrules` binary as a crawler pipes it, for the binaries that time whole
//! runs (`cli_throughput`, `fleet_cache`): where the release binary is, URL lists over many
//! origins, and the best wall time and peak resident set size of a run.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::Background;

use crate::synthetic::Xorshift;
use crate::urls::{urls_for, ORIGIN};

/// `count` loopback HTTP servers on `background`, each an origin answering `/robots.txt`
/// with `body`.
pub fn robots_servers(background: &Background, count: usize, body: &[u8]) -> Vec<HttpServer> {
    (0..count)
        .map(|_| {
            let server = background.http().unwrap_or_else(|e| panic!("{e}"));
            server.route("/robots.txt", Reply::ok(body.to_vec()));
            server
        })
        .collect()
}

/// The workspace's root folder.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Starts `command` (a [`binary`] command), saying how to build the binary when it is not
/// there.
pub fn spawn(command: &mut Command) -> Child {
    command.spawn().unwrap_or_else(|e| {
        panic!(
            "{}: {e} (build it: cargo build --release -p robotrules-cli)",
            binary().display()
        )
    })
}

/// The release `robotrules` binary: `$ROBOTRULES_BIN`, else `release/robotrules` in
/// `$CARGO_TARGET_DIR` (default `target/`).
pub fn binary() -> PathBuf {
    std::env::var_os("ROBOTRULES_BIN").map_or_else(
        || {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| workspace().join("target"), PathBuf::from);
            target.join("release/robotrules")
        },
        PathBuf::from,
    )
}

/// Writes `count` URLs on `origins` to `path`, one per line: origins drawn at random (a
/// fixed seed), paths drawn from `body`'s own URL set (generic crawl paths and the file's
/// rule paths), each URL made unique with `&n=INDEX`.
///
/// # Errors
/// When the file cannot be written.
pub fn write_urls(
    path: &Path,
    count: usize,
    origins: &[String],
    body: &[u8],
) -> std::io::Result<()> {
    let paths: Vec<String> = urls_for(body)
        .into_iter()
        .filter_map(|url| url.strip_prefix(ORIGIN).map(str::to_owned))
        .collect();
    let mut rng = Xorshift::new(9);
    let mut out = BufWriter::new(File::create(path)?);
    for i in 0..count {
        let origin = &origins[rng.below(origins.len())];
        let path = &paths[rng.below(paths.len())];
        writeln!(out, "{origin}{path}&n={i}")?;
    }
    out.flush()
}

/// Runs the binary with `args` and `input` on standard input, output to /dev/null, `runs`
/// times, calling `before` ahead of each run (to empty a cache, say): the best wall time, and
/// the peak resident set size seen (KiB).
///
/// # Panics
/// When the binary cannot be started (with a hint to build it) or `input` cannot be opened.
pub fn time_runs(
    args: &[&str],
    input: &Path,
    runs: usize,
    mut before: impl FnMut(),
) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut peak = 0;
    for _ in 0..runs {
        before();
        let started = Instant::now();
        let mut child = spawn(
            Command::new(binary())
                .args(args)
                .current_dir(workspace())
                .stdin(File::open(input).unwrap_or_else(|e| panic!("{}: {e}", input.display())))
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        );
        let status_file = format!("/proc/{}/status", child.id());
        loop {
            if let Ok(status) = std::fs::read_to_string(&status_file) {
                if let Some(rss) = status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
                {
                    peak = peak.max(rss);
                }
            }
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => panic!("{e}"),
            }
        }
        best = best.min(started.elapsed());
    }
    (best, peak)
}
