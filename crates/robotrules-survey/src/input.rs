//! The inputs of a survey and the captures they hold: WARC files (plain or gzipped), whose
//! `response` records are HTTP captures, and directories of robots.txt files.
//!
//! A directory holds one robots.txt per host, named after the host: every regular file
//! directly in it is one capture, its host the file name without a final `.txt`
//! (`example.com.txt` and `example.com` are both `example.com`), its status read as 200.
//! Subdirectories and hidden files (names starting with `.`) are skipped.

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
}

impl Input {
    /// The input at `path`: a directory, else a WARC file.
    ///
    /// # Errors
    /// When `path` does not exist or cannot be read.
    pub fn at(path: impl Into<PathBuf>) -> io::Result<Input> {
        let path = path.into();
        Ok(if fs::metadata(&path)?.is_dir() {
            Input::Dir(path)
        } else {
            Input::Warc(path)
        })
    }

    /// The path.
    pub fn path(&self) -> &Path {
        match self {
            Input::Warc(path) | Input::Dir(path) => path,
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
                let is_http = record
                    .content_type
                    .to_ascii_lowercase()
                    .starts_with("application/http");
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
            let mut files: Vec<PathBuf> = fs::read_dir(path)?
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| e.path())
                .collect();
            files.sort();
            for file in files {
                let name = file
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let host = name.strip_suffix(".txt").unwrap_or(&name).to_owned();
                let shown: Arc<str> = file.display().to_string().into();
                let mut body = Vec::new();
                let raw = match File::open(&file)
                    .and_then(|f| f.take(MAX_BLOCK).read_to_end(&mut body))
                {
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
                };
                if !each(raw) {
                    break;
                }
            }
        }
    }
    Ok(())
}
