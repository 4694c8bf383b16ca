//! The inputs of a survey and the captures they hold: WARC files (plain or gzipped), whose
//! `response` records are HTTP captures, plain robots.txt files, and directories of them.
//!
//! A plain robots.txt file is one capture, its status read as 200, its host taken from its
//! path ([`host_of_file`]): `HOST/robots.txt` (a mirror's layout), `HOST_robots.txt`,
//! `HOST.txt` or `HOST`. A file is a WARC file when it starts as one (`WARC/`, or a gzip
//! member); any other file is a plain robots.txt.
//!
//! A directory holds one robots.txt per host: every regular file directly in it
//! (`example.com.txt`), and every subdirectory's `robots.txt` (`example.com/robots.txt`).
//! What else it holds is skipped and reported ([`Raw::Ignored`]): hidden entries (names
//! starting with `.`), subdirectories without a `robots.txt`, names without a host.

use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::http::parse_response;
use crate::survey::{host_of, Capture};
use crate::warc::{Malformed, Record, WarcReader, MAX_BLOCK};

/// One input of a survey.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A WARC file, plain or gzipped.
    Warc(PathBuf),
    /// A directory of robots.txt files, one per host.
    Dir(PathBuf),
    /// A plain robots.txt file, named after its host.
    File(PathBuf),
}

impl Input {
    /// The input at `path`: a directory; a WARC file when it starts as one (`WARC/` or a
    /// gzip member); else a plain robots.txt file.
    ///
    /// # Errors
    /// When `path` does not exist or cannot be read.
    pub fn at(path: impl Into<PathBuf>) -> io::Result<Input> {
        let path = path.into();
        if fs::metadata(&path)?.is_dir() {
            return Ok(Input::Dir(path));
        }
        let mut start = Vec::with_capacity(5);
        File::open(&path)?.take(5).read_to_end(&mut start)?;
        Ok(
            if start.starts_with(b"WARC/") || start.starts_with(&[0x1f, 0x8b]) {
                Input::Warc(path)
            } else {
                Input::File(path)
            },
        )
    }

    /// The path.
    pub fn path(&self) -> &Path {
        match self {
            Input::Warc(path) | Input::Dir(path) | Input::File(path) => path,
        }
    }
}

/// A record as read, before its HTTP response is parsed (that is done in parallel).
#[derive(Debug)]
pub enum Raw {
    /// A WARC `response` record.
    Response {
        /// The file it was read from, as shown.
        file: Arc<str>,
        /// The record.
        record: Record,
    },
    /// A robots.txt file from a directory.
    File {
        /// Its path, as shown.
        file: Arc<str>,
        /// The host it is named after.
        host: String,
        /// Its bytes.
        body: Vec<u8>,
    },
    /// A record that could not be read.
    Malformed {
        /// The file it was read from, as shown.
        file: Arc<str>,
        /// Where and why.
        error: Malformed,
    },
    /// A record that is not a capture: `request`, `metadata`, `warcinfo`, a response that is
    /// not HTTP.
    Skipped,
    /// An entry of a directory that is not read: hidden, a subdirectory without a
    /// `robots.txt`, a name without a host.
    Ignored {
        /// Its path, as shown.
        path: Arc<str>,
        /// Why it is not read (`a hidden file`).
        why: &'static str,
    },
}

/// What a raw record is.
#[derive(Debug)]
pub enum Reading {
    /// A capture.
    Capture(Capture),
    /// Not readable.
    Malformed(Arc<str>, Malformed),
    /// Not a capture.
    Skipped,
    /// An entry of a directory that is not read, and why.
    Ignored(Arc<str>, &'static str),
}

impl Raw {
    /// The URL of a `response` record, before anything else is read.
    pub fn url(&self) -> Option<&str> {
        match self {
            Raw::Response { record, .. } => Some(&record.target_uri),
            _ => None,
        }
    }

    /// The capture the record holds (its HTTP response parsed), or why there is none.
    pub fn read(self) -> Reading {
        match self {
            Raw::Response { file, record } => {
                let scheme_http = record.target_uri.get(..5).is_some_and(|s| {
                    s.eq_ignore_ascii_case("http:") || s.eq_ignore_ascii_case("https")
                });
                const HTTP: &[u8] = b"application/http";
                let is_http = record
                    .content_type
                    .as_bytes()
                    .get(..HTTP.len())
                    .is_some_and(|t| t.eq_ignore_ascii_case(HTTP));
                if !scheme_http || !is_http {
                    return Reading::Skipped;
                }
                match parse_response(&record.block) {
                    Ok(response) => Reading::Capture(Capture {
                        host: host_of(&record.target_uri).unwrap_or_default(),
                        url: record.target_uri,
                        time: record.date,
                        file: file.to_string(),
                        offset: Some(record.offset),
                        status: Some(response.status),
                        headers: response.headers,
                        body: response.body,
                    }),
                    Err(reason) => Reading::Malformed(
                        file,
                        Malformed {
                            offset: record.offset,
                            reason,
                        },
                    ),
                }
            }
            Raw::File { file, host, body } => Reading::Capture(Capture {
                host,
                file: file.to_string(),
                body,
                ..Capture::default()
            }),
            Raw::Malformed { file, error } => Reading::Malformed(file, error),
            Raw::Skipped => Reading::Skipped,
            Raw::Ignored { path, why } => Reading::Ignored(path, why),
        }
    }
}

/// Reads `input` record by record, handing each to `each`; stops early when `each` returns
/// `false`.
///
/// # Errors
/// When the file or directory cannot be opened or listed (a record that cannot be read is a
/// [`Raw::Malformed`] item, and reading goes on).
pub fn read_input(input: &Input, mut each: impl FnMut(Raw) -> bool) -> io::Result<()> {
    let shown: Arc<str> = input.path().display().to_string().into();
    match input {
        Input::Warc(path) => {
            let reader = WarcReader::new(BufReader::with_capacity(1 << 16, File::open(path)?));
            for item in reader {
                let raw = match item {
                    Ok(record) if record.kind == "response" => Raw::Response {
                        file: Arc::clone(&shown),
                        record,
                    },
                    Ok(_) => Raw::Skipped,
                    Err(error) => Raw::Malformed {
                        file: Arc::clone(&shown),
                        error,
                    },
                };
                if !each(raw) {
                    break;
                }
            }
        }
        Input::Dir(path) => {
            for raw in directory(path)? {
                if !each(raw) {
                    break;
                }
            }
        }
        Input::File(path) => {
            each(match host_of_file(path) {
                Some(host) => plain_file(path, host),
                None => Raw::Ignored {
                    path: shown,
                    why: "no host in its name",
                },
            });
        }
    }
    Ok(())
}

/// The records of a directory, in name order (see the module docs).
fn directory(path: &Path) -> io::Result<Vec<Raw>> {
    let mut entries: Vec<PathBuf> = fs::read_dir(path)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    Ok(entries.into_iter().map(|entry| dir_entry(&entry)).collect())
}

/// One entry of a directory: a robots.txt file, a host's directory holding one, or what is
/// ignored.
fn dir_entry(entry: &Path) -> Raw {
    let ignored = |why| Raw::Ignored {
        path: entry.display().to_string().into(),
        why,
    };
    let name = entry
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with('.') {
        return ignored("hidden");
    }
    let Ok(metadata) = fs::metadata(entry) else {
        return ignored("cannot be read");
    };
    let (file, host) = if metadata.is_dir() {
        let robots = entry.join("robots.txt");
        if !fs::metadata(&robots).is_ok_and(|m| m.is_file()) {
            return ignored("a directory without a robots.txt");
        }
        (robots, Some(name))
    } else if metadata.is_file() {
        let host = host_of_file(entry);
        (entry.to_path_buf(), host)
    } else {
        return ignored("not a file or directory");
    };
    match host {
        Some(host) => plain_file(&file, host),
        None => ignored("no host in its name"),
    }
}

/// The host a plain robots.txt file is named after: `HOST/robots.txt` gives its directory's
/// name, `HOST_robots.txt` and `HOST.txt` the name without the suffix, any other name the
/// name itself. `None` when that is empty.
pub(crate) fn host_of_file(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let host = if name.eq_ignore_ascii_case("robots.txt") {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        let parent = match parent {
            Some(parent) => parent.to_path_buf(),
            None => std::env::current_dir().ok()?,
        };
        // `./robots.txt`, `HOST/./robots.txt`: the directory's own name.
        let parent = if parent.file_name().is_some() {
            parent
        } else {
            fs::canonicalize(&parent).ok()?
        };
        parent.file_name()?.to_string_lossy().into_owned()
    } else {
        let lower = name.to_ascii_lowercase();
        let cut = ["_robots.txt", ".txt"]
            .iter()
            .find(|suffix| lower.ends_with(*suffix))
            .map_or(0, |suffix| suffix.len());
        name[..name.len() - cut].to_owned()
    };
    (!host.is_empty()).then_some(host)
}

/// A plain robots.txt file as a record: its bytes (up to [`MAX_BLOCK`]) under `host`.
fn plain_file(file: &Path, host: String) -> Raw {
    let shown: Arc<str> = file.display().to_string().into();
    let mut body = Vec::new();
    match File::open(file).and_then(|f| f.take(MAX_BLOCK).read_to_end(&mut body)) {
        Ok(_) => Raw::File {
            file: shown,
            host,
            body,
        },
        Err(error) => Raw::Malformed {
            file: shown,
            error: Malformed {
                offset: 0,
                reason: format!("cannot read the file: {error}"),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_come_from_the_file_name_or_its_directory() {
        let host = |path: &str| host_of_file(Path::new(path));
        assert_eq!(
            host("mirror/example.com/robots.txt").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host("mirror/example.com/ROBOTS.TXT").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host("mirror/example.com_robots.txt").as_deref(),
            Some("example.com")
        );
        assert_eq!(host("example.com.txt").as_deref(), Some("example.com"));
        assert_eq!(host("example.com").as_deref(), Some("example.com"));
        assert_eq!(host("mirror/.txt"), None);
        assert_eq!(host("_robots.txt"), None);
    }

    #[test]
    fn a_file_is_a_warc_file_only_when_it_starts_as_one() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            fs::write(&path, bytes).expect("written");
            Input::at(&path).expect("an input")
        };
        assert!(matches!(write("a.warc", b"WARC/1.0\r\n"), Input::Warc(_)));
        assert!(matches!(
            write("a.warc.gz", &[0x1f, 0x8b, 8]),
            Input::Warc(_)
        ));
        assert!(matches!(
            write("robots.txt", b"User-agent: *\n"),
            Input::File(_)
        ));
        assert!(matches!(write("empty.txt", b""), Input::File(_)));
        assert!(matches!(Input::at(dir.path()), Ok(Input::Dir(_))));
    }
}
