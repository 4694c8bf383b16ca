//! `lint()`: site-owner findings with stable codes.

use pyo3::prelude::*;

use crate::{errors, input};

/// One lint finding.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
pub(crate) struct Finding {
    /// Stable code (`"misspelt-key"`, …).
    code: &'static str,
    /// `"error"` (the profile drops the line or rule), `"warning"` or `"note"`.
    severity: &'static str,
    /// 1-based line.
    line: u32,
    /// 1-based column, in characters.
    column: u32,
    /// Byte offset where it starts.
    start: usize,
    /// Byte offset one past where it ends.
    end: usize,
    /// What is wrong, in one line.
    message: String,
    /// A short note shown under the span.
    label: Option<String>,
    /// How to fix it, and why it matters.
    help: Option<String>,
    /// The profiles under which the problem occurs.
    profiles: Vec<&'static str>,
}

#[pymethods]
impl Finding {
    fn __repr__(&self) -> String {
        format!(
            "Finding(code={:?}, severity={:?}, line={}, column={}, message={:?})",
            self.code, self.severity, self.line, self.column, self.message
        )
    }
}

/// Lint `body` for `profile`: every finding, in file order (at most 100; the GIL is released
/// while linting).
#[pyfunction]
#[pyo3(signature = (body, *, profile = "rfc9309"))]
pub(crate) fn lint(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
    profile: &str,
) -> PyResult<Vec<Finding>> {
    let options = robotrules::ParseOptions::new().with_profile(errors::profile(profile)?);
    let body = input::body(body)?;
    let bytes = body.as_bytes();
    let report = py.detach(|| robotrules::lint(bytes, &options));
    Ok(report
        .findings
        .into_iter()
        .map(|lint| Finding {
            code: lint.code.as_str(),
            severity: lint.severity.as_str(),
            line: lint.line,
            column: lint.column,
            start: lint.span.start,
            end: lint.span.end,
            message: lint.message,
            label: lint.label,
            help: lint.help,
            profiles: lint.profiles.iter().map(|p| p.as_str()).collect(),
        })
        .collect())
}
