//! `Diagnostic`: what the parser found while reading a file.

use pyo3::prelude::*;

/// A parser finding: skipped bytes, an ignored line, a lenient reading.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
pub(crate) struct Diagnostic {
    /// Stable code (`"misspelt-key"`, `"rule-outside-group"`, …).
    code: &'static str,
    /// `"error"` (content dropped), `"warning"` or `"note"`.
    severity: &'static str,
    /// 1-based line where it starts.
    line: u32,
    /// Byte offset where it starts.
    start: usize,
    /// Byte offset one past where it ends.
    end: usize,
    /// What was found, in one line.
    message: String,
}

impl From<&robotrules::Diagnostic> for Diagnostic {
    fn from(d: &robotrules::Diagnostic) -> Self {
        Diagnostic {
            code: d.code(),
            severity: d.severity().as_str(),
            line: d.line,
            start: d.span.start,
            end: d.span.end,
            message: d.to_string(),
        }
    }
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "Diagnostic(code={:?}, severity={:?}, line={}, message={:?})",
            self.code, self.severity, self.line, self.message
        )
    }
}
