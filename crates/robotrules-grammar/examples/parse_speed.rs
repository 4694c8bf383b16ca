//! Parse speed of the grammar alone: `parse_with` over real files, in release mode.
//!
//! ```text
//! cargo run --release -p robotrules-grammar --example parse_speed -- [FOLDER] [ROUNDS] [ONLY]
//! ```
//!
//! FOLDER defaults to `$ROBOTRULES_REAL_SAMPLE`, else the real sample beside the repository
//! (`../shared/corpora/real-sample`), else the bench crate's committed corpus. It prints, for
//! the whole folder, its files of at most 16 KiB (the files crawlers meet), the 712-byte
//! typical file, a 400 KB synthetic file of short lines, and hostile inputs read without parse
//! limit (a 10 MB line, a file of CRs, of NULs, of invalid UTF-8): MB/s (10⁶ bytes/s of the
//! bytes read, up to the parse limit), in the thread's CPU time (which leaves out the time
//! spent waiting for a core on a shared machine) and in wall time, each the best of nine
//! repetitions. Compare two builds by running them one after the other, a few times. With
//! ONLY, only the measurements whose name contains it run (for a profiler).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use robotrules_grammar::{parse_with, Limits};

/// How many times each measurement is repeated.
const REPEAT: usize = 9;

/// The thread's CPU time so far (zero where the platform does not say).
fn cpu_now() -> Duration {
    cpu_time::ThreadTime::try_now()
        .map(|t| t.as_duration())
        .unwrap_or_default()
}

/// The best CPU and wall times of [`REPEAT`] runs of `f`, in seconds.
fn timed(mut f: impl FnMut() -> usize) -> (usize, f64, f64) {
    let (mut cpu, mut wall, mut out) = (f64::MAX, f64::MAX, 0);
    for _ in 0..REPEAT {
        let (cpu_start, wall_start) = (cpu_now(), Instant::now());
        out = f();
        wall = wall.min(wall_start.elapsed().as_secs_f64());
        cpu = cpu.min(cpu_now().saturating_sub(cpu_start).as_secs_f64());
    }
    (out, cpu, wall)
}

/// Parse every file `rounds` times and print the speed.
fn measure(what: &str, files: &[Vec<u8>], rounds: usize, limits: &Limits) {
    if !std::env::args()
        .nth(3)
        .is_none_or(|only| what.contains(&only))
    {
        return;
    }
    let (lines, cpu, wall) = timed(|| {
        let mut lines = 0;
        for _ in 0..rounds {
            for file in files {
                lines += black_box(parse_with(black_box(file), limits)).lines.len();
            }
        }
        lines
    });
    let bytes: usize = files.iter().map(|f| f.len().min(limits.parse_limit)).sum();
    let total = (bytes * rounds) as f64;
    println!(
        "{what:<34} {:>5} files {bytes:>9} bytes {:>7} lines: {:>6.0} MB/s cpu {:>6.0} MB/s wall",
        files.len(),
        lines / rounds,
        total / cpu / 1e6,
        total / wall / 1e6,
    );
}

fn read_folder(dir: &Path) -> Vec<Vec<u8>> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    names.retain(|p| p.is_file() && !p.ends_with("PROVENANCE.md"));
    names.sort();
    names.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// A file of short lines: groups of rules with comments, typos and blank lines.
fn synthetic(size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + 64);
    let mut n = 0u32;
    while out.len() < size {
        n += 1;
        out.extend_from_slice(format!("User-agent: Bot{}\n", n % 7).as_bytes());
        out.extend_from_slice(format!("Disallow: /private/{n}/ # keep out\n").as_bytes());
        out.extend_from_slice(format!("Allow: /private/{n}/press\r\n").as_bytes());
        out.extend_from_slice(b"Dissallow /typo\n# a comment line\n\n");
        out.extend_from_slice(format!("Sitemap: https://example.com/s{n}.xml\n").as_bytes());
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = args
        .next()
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("ROBOTRULES_REAL_SAMPLE").map(PathBuf::from))
        .unwrap_or_else(|| manifest.join("../../../shared/corpora/real-sample"));
    let dir = if dir.is_dir() {
        dir
    } else {
        manifest.join("../robotrules-bench/corpus")
    };
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(20);
    let files = read_folder(&dir);
    println!("folder {}, {rounds} rounds", dir.display());
    let limits = Limits::default();
    measure("whole folder", &files, rounds, &limits);
    let small: Vec<Vec<u8>> = files
        .iter()
        .filter(|f| f.len() <= 16 * 1024)
        .cloned()
        .collect();
    measure("files of at most 16 KiB", &small, rounds, &limits);
    let typical = manifest.join("../robotrules-bench/corpus/ropensci-robotstxt__rbloggers.txt");
    if let Ok(bytes) = std::fs::read(typical) {
        measure("typical 712-byte file", &[bytes], rounds * 2_000, &limits);
    }
    measure(
        "synthetic 400 KB, short lines",
        &[synthetic(400_000)],
        rounds * 5,
        &limits,
    );
    // The hostile inputs are read whole (no parse limit), with Google's line-length limit.
    let unlimited = Limits {
        parse_limit: usize::MAX,
        max_line_len: Some(16_663),
    };
    let hostile: [(&str, Vec<u8>); 4] = [
        ("hostile: one 10 MB line", b"disallow: /".repeat(1_000_000)),
        ("hostile: 1 MB of CR", vec![b'\r'; 1_000_000]),
        (
            "hostile: 1 MB of NUL, colons, hashes",
            b"\0:#".repeat(250_000),
        ),
        (
            "hostile: 1 MB of invalid UTF-8",
            b"a: \xFF\xC3\n".repeat(160_000),
        ),
    ];
    for (what, bytes) in hostile {
        measure(what, &[bytes], rounds.div_ceil(4), &unlimited);
    }
}
