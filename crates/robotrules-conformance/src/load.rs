//! Loading the corpus: every `*.jsonl` file under a directory, in sorted path order, one case
//! per non-blank line. Errors name the file and line; duplicate ids are rejected.

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::case::Case;

/// Why the corpus could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// A directory or file could not be read.
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A line is not a valid case.
    Case {
        /// The file, relative to the corpus directory.
        file: String,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::Case {
                file,
                line,
                message,
            } => write!(f, "{file}:{line}: {message}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { error, .. } => Some(error),
            LoadError::Case { .. } => None,
        }
    }
}

/// Loads every case of every `*.jsonl` file under `dir` (recursively), files in sorted path
/// order and cases in line order, so that every run sees the same sequence.
pub fn load_dir(dir: &Path) -> Result<Vec<Case>, LoadError> {
    let mut files = Vec::new();
    collect_jsonl(dir, &mut files)?;
    files.sort();
    let mut cases = Vec::new();
    for path in &files {
        let text = fs::read_to_string(path).map_err(|error| LoadError::Io {
            path: path.clone(),
            error,
        })?;
        let relative = path
            .strip_prefix(dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        cases.extend(parse_jsonl(&relative, &text)?);
    }
    reject_duplicate_ids(&cases)?;
    Ok(cases)
}

/// Parses the text of one `.jsonl` file named `file` (used in error messages). Blank lines
/// are skipped.
pub fn parse_jsonl(file: &str, text: &str) -> Result<Vec<Case>, LoadError> {
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let number = index + 1;
        let error = |message: String| LoadError::Case {
            file: file.to_owned(),
            line: number,
            message,
        };
        let value: Value =
            serde_json::from_str(line).map_err(|e| error(format!("not valid JSON: {e}")))?;
        let case = Case::from_json(&value, file, number).map_err(|message| {
            match value
                .get("id")
                .and_then(Value::as_str)
                .filter(|id| !id.trim().is_empty())
            {
                Some(id) => error(format!("{id}: {message}")),
                None => error(message),
            }
        })?;
        cases.push(case);
    }
    Ok(cases)
}

/// Fails on the second occurrence of any id, naming both places.
pub fn reject_duplicate_ids(cases: &[Case]) -> Result<(), LoadError> {
    let mut seen: HashMap<&str, &Case> = HashMap::with_capacity(cases.len());
    for case in cases {
        if let Some(first) = seen.insert(case.id.as_str(), case) {
            return Err(LoadError::Case {
                file: case.file.clone(),
                line: case.line,
                message: format!(
                    "duplicate id `{}` (first at {}:{})",
                    case.id, first.file, first.line
                ),
            });
        }
    }
    Ok(())
}

fn collect_jsonl(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), LoadError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| LoadError::Io { path, error }
    };
    for entry in fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(io(&path))?;
        if kind.is_dir() {
            collect_jsonl(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "jsonl") {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str) -> String {
        format!(
            r#"{{"id": "{id}", "source": "robotrules", "section": "s", "layer": "model", "profiles": ["rfc9309"], "input": {{"robots": "", "agent": "a", "url": "/"}}, "expect": {{"allowed": true}}}}"#
        )
    }

    #[test]
    fn parse_skips_blank_lines_and_numbers_lines_from_one() {
        let text = format!("\n{}\n   \n{}\n", line("a"), line("b"));
        let cases = parse_jsonl("x/y.jsonl", &text).unwrap();
        let places: Vec<_> = cases.iter().map(|c| (c.id.as_str(), c.line)).collect();
        assert_eq!(places, [("a", 2), ("b", 4)]);
        assert_eq!(cases[0].file, "x/y.jsonl");
    }

    #[test]
    fn parse_errors_name_file_and_line() {
        let text = format!("{}\n{{not json\n", line("a"));
        let err = parse_jsonl("x/y.jsonl", &text).unwrap_err().to_string();
        assert!(err.starts_with("x/y.jsonl:2: "), "{err}");
    }

    #[test]
    fn invalid_case_errors_name_the_id() {
        let text = line("bad").replace(r#""allowed": true"#, r#""allowed": "yes""#);
        let err = parse_jsonl("f.jsonl", &text).unwrap_err().to_string();
        assert_eq!(
            err,
            "f.jsonl:1: bad: `expect.allowed`: invalid type: string \"yes\", expected a boolean"
        );
    }

    #[test]
    fn duplicate_ids_are_rejected_with_both_places() {
        let text = format!("{}\n{}\n{}\n", line("a"), line("b"), line("a"));
        let cases = parse_jsonl("f.jsonl", &text).unwrap();
        let err = reject_duplicate_ids(&cases).unwrap_err().to_string();
        assert_eq!(err, "f.jsonl:3: duplicate id `a` (first at f.jsonl:1)");
    }

    #[test]
    fn load_dir_reads_nested_files_in_sorted_order() {
        let dir = std::env::temp_dir().join(format!(
            "robotrules-conformance-load-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("b")).unwrap();
        fs::create_dir_all(dir.join("a")).unwrap();
        fs::write(dir.join("b/1.jsonl"), line("from-b")).unwrap();
        fs::write(dir.join("a/2.jsonl"), line("from-a2")).unwrap();
        fs::write(dir.join("a/1.jsonl"), line("from-a1")).unwrap();
        fs::write(dir.join("a/notes.txt"), "ignored").unwrap();
        let cases = load_dir(&dir).unwrap();
        let ids: Vec<_> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["from-a1", "from-a2", "from-b"]);
        assert_eq!(cases[2].file, "b/1.jsonl");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn load_dir_reports_a_missing_directory() {
        let err = load_dir(Path::new("/nonexistent/robotrules-corpus")).unwrap_err();
        assert!(matches!(err, LoadError::Io { .. }));
    }
}
