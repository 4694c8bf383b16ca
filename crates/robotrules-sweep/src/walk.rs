//! Listing the files under a directory, recursively, in path order.

use std::path::{Path, PathBuf};

/// Every regular file under `dir` (symbolic links followed), sorted; plus the paths that
/// could not be listed, with the error.
pub(crate) fn files(dir: &Path) -> (Vec<PathBuf>, Vec<(PathBuf, String)>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        let entries = match std::fs::read_dir(&next) {
            Ok(entries) => entries,
            Err(error) => {
                errors.push((next, error.to_string()));
                continue;
            }
        };
        for entry in entries {
            match entry {
                Ok(entry) => {
                    let path = entry.path();
                    if path.is_dir() {
                        pending.push(path);
                    } else if path.is_file() {
                        files.push(path);
                    }
                }
                Err(error) => errors.push((next.clone(), error.to_string())),
            }
        }
    }
    files.sort();
    (files, errors)
}
