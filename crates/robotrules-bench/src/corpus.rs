//! The files measured: the committed corpus, the typical file, and the real sample.
//!
//! The committed corpus (`corpus/`, provenance in `corpus/PROVENANCE.md`) is small and always
//! present. The real sample (2,060 files, 20 MB, `shared/corpora/real-sample/` beside the
//! repository) is used when present: set `ROBOTRULES_REAL_SAMPLE` to its folder, or leave the
//! default path; when it is absent, the figures over it are skipped. Its files of at most
//! 16 KiB ([`crawl_sample`]) are the crawl distribution, measured apart.

use std::path::{Path, PathBuf};

/// The environment variable naming the real-sample folder.
pub const REAL_SAMPLE_VAR: &str = "ROBOTRULES_REAL_SAMPLE";

/// The real sample's default location, relative to this crate's folder.
pub const REAL_SAMPLE_DEFAULT: &str = "../../../shared/corpora/real-sample";

/// The typical file for per-check figures: r-bloggers.com's robots.txt (712 bytes) from the
/// ropensci/robotstxt fixtures, close to the 766-byte file of Google's reference figures.
pub const TYPICAL_FILE: &str = "ropensci-robotstxt__rbloggers.txt";

/// One robots.txt file.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The file name.
    pub name: String,
    /// The file's bytes, as read.
    pub bytes: Vec<u8>,
    /// The bytes as UTF-8 (invalid sequences replaced), for `robotstxt`, which takes `&str`.
    pub text: String,
}

impl Sample {
    /// A sample from a name and its bytes.
    pub fn new(name: impl Into<String>, bytes: Vec<u8>) -> Sample {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Sample {
            name: name.into(),
            bytes,
            text,
        }
    }
}

/// The committed corpus folder.
pub fn committed_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// The committed corpus, sorted by name (every file but `PROVENANCE.md`).
///
/// # Errors
/// When the folder or a file cannot be read.
pub fn committed() -> std::io::Result<Vec<Sample>> {
    read_dir(&committed_dir(), |name| name != "PROVENANCE.md")
}

/// The typical file ([`TYPICAL_FILE`]) from the committed corpus.
///
/// # Errors
/// When the file cannot be read.
pub fn typical() -> std::io::Result<Sample> {
    let bytes = std::fs::read(committed_dir().join(TYPICAL_FILE))?;
    Ok(Sample::new(TYPICAL_FILE, bytes))
}

/// Where the real sample is: `$ROBOTRULES_REAL_SAMPLE`, else [`REAL_SAMPLE_DEFAULT`] from this
/// crate; `None` when that folder does not exist.
pub fn real_sample_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os(REAL_SAMPLE_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(REAL_SAMPLE_DEFAULT),
    };
    dir.is_dir().then_some(dir)
}

/// The whole real sample, sorted by name, or `None` when it is absent.
///
/// # Errors
/// When the folder exists but a file cannot be read.
pub fn real_sample() -> std::io::Result<Option<Vec<Sample>>> {
    match real_sample_dir() {
        Some(dir) => read_dir(&dir, |_| true).map(Some),
        None => Ok(None),
    }
}

/// The largest file of the crawl distribution: [`crawl_sample`] keeps the files of the real
/// sample up to this size (16 KiB), the robots.txt files a crawler meets on most hosts.
pub const CRAWL_MAX: usize = 16 * 1024;

/// The files of the real sample of at most [`CRAWL_MAX`] bytes (1,966 of 2,060), or `None`
/// when the sample is absent.
///
/// # Errors
/// When the folder exists but a file cannot be read.
pub fn crawl_sample() -> std::io::Result<Option<Vec<Sample>>> {
    Ok(real_sample()?.map(crawl_part))
}

/// The samples of at most [`CRAWL_MAX`] bytes.
pub fn crawl_part(samples: Vec<Sample>) -> Vec<Sample> {
    samples
        .into_iter()
        .filter(|s| s.bytes.len() <= CRAWL_MAX)
        .collect()
}

/// Total bytes of a set of samples.
pub fn total_bytes(samples: &[Sample]) -> u64 {
    samples.iter().map(|s| s.bytes.len() as u64).sum()
}

fn read_dir(dir: &Path, keep: impl Fn(&str) -> bool) -> std::io::Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_type()?.is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        if keep(&name) {
            samples.push(Sample::new(name, std::fs::read(entry.path())?));
        }
    }
    samples.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(samples)
}
