//! `Usage` and its parts: may a crawler use a URL for AI training, for search, for AI input,
//! and which line says so (`Content-Usage`, draft-ietf-aipref-attach-05 with
//! draft-ietf-aipref-vocab-07; `Content-Signal`, draft-romm-aipref-contentsignals-00).
//!
//! The classes copy the facade's answer ([`robotrules::usage::Usage`]) into plain Python values:
//! vocabularies, labels and outcomes as the strings the CLI's JSON uses (`"aipref"`,
//! `"content-signals"`; `"allowed"`, `"disallowed"`, `"unknown"`), lines as 1-based `int`s.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt as _;

use robotrules::usage::{MemberValue, Outcome, SharedCategory, Vocabulary};

/// One category's preference in one vocabulary's terms, and what decided it.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
#[derive(Clone)]
pub(crate) struct CategoryUsage {
    /// The label (`"train-ai"`, `"ai-train"`, …).
    label: String,
    /// `"allowed"`, `"disallowed"` or `"unknown"`.
    outcome: &'static str,
    /// The lines that decided (none for unknown).
    lines: Vec<u32>,
    /// Whether the HTTP `Content-Usage` header states this outcome.
    header: bool,
}

impl From<&robotrules::usage::CategoryUsage> for CategoryUsage {
    fn from(c: &robotrules::usage::CategoryUsage) -> Self {
        CategoryUsage {
            label: c.label.clone(),
            outcome: c.outcome.as_str(),
            lines: c.lines.clone(),
            header: c.header,
        }
    }
}

#[pymethods]
impl CategoryUsage {
    fn __repr__(&self) -> String {
        format!(
            "CategoryUsage(label={:?}, outcome={:?}, lines={:?})",
            self.label, self.outcome, self.lines
        )
    }
}

/// One vocabulary's answer for a URL.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
#[derive(Clone)]
pub(crate) struct VocabularyUsage {
    /// `"aipref"` or `"content-signals"`.
    vocabulary: &'static str,
    /// The robots.txt key that carries it: `"content-usage"` or `"content-signal"`.
    key: &'static str,
    /// The draft that defines it, with its version.
    draft: &'static str,
    /// The lines of the statements that apply to the URL, in file order.
    applied: Vec<u32>,
    /// Those whose Dictionary does not parse (unknown for every category).
    unparsed: Vec<u32>,
    /// The labels the vocabulary defines, in its order, then any other label present.
    categories: Vec<CategoryUsage>,
}

impl From<&robotrules::usage::VocabularyUsage> for VocabularyUsage {
    fn from(v: &robotrules::usage::VocabularyUsage) -> Self {
        VocabularyUsage {
            vocabulary: v.vocabulary.as_str(),
            key: v.vocabulary.key(),
            draft: v.vocabulary.draft(),
            applied: v.applied.clone(),
            unparsed: v.unparsed.clone(),
            categories: v.categories.iter().map(CategoryUsage::from).collect(),
        }
    }
}

#[pymethods]
impl VocabularyUsage {
    /// The category `label`, or `None` when it is neither defined nor present.
    fn category(&self, label: &str) -> Option<CategoryUsage> {
        self.categories.iter().find(|c| c.label == label).cloned()
    }

    fn __repr__(&self) -> String {
        let outcomes: Vec<String> = self
            .categories
            .iter()
            .map(|c| format!("{}={}", c.label, c.outcome))
            .collect();
        format!(
            "VocabularyUsage(vocabulary={:?}, {})",
            self.vocabulary,
            outcomes.join(", ")
        )
    }
}

/// A category both vocabularies name, combined most-restrictively (vocab-07 §5.1).
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
#[derive(Clone)]
pub(crate) struct CombinedUsage {
    /// `"train-ai"` (AIPREF `train-ai`, Cloudflare `ai-train`) or `"search"`.
    category: &'static str,
    /// `"allowed"`, `"disallowed"` or `"unknown"`.
    outcome: &'static str,
    /// The lines that decided, from both vocabularies, in file order.
    lines: Vec<u32>,
    /// Whether the HTTP `Content-Usage` header decided (or decided too).
    header: bool,
}

impl From<&robotrules::usage::CombinedUsage> for CombinedUsage {
    fn from(c: &robotrules::usage::CombinedUsage) -> Self {
        CombinedUsage {
            category: c.category.as_str(),
            outcome: c.outcome.as_str(),
            lines: c.lines.clone(),
            header: c.header,
        }
    }
}

#[pymethods]
impl CombinedUsage {
    fn __repr__(&self) -> String {
        format!(
            "CombinedUsage(category={:?}, outcome={:?}, lines={:?})",
            self.category, self.outcome, self.lines
        )
    }
}

/// The AI usage preferences of one URL for one crawler.
#[pyclass(frozen, module = "robotrules._robotrules")]
pub(crate) struct Usage {
    inner: robotrules::usage::Usage,
}

impl From<robotrules::usage::Usage> for Usage {
    fn from(inner: robotrules::usage::Usage) -> Self {
        Usage { inner }
    }
}

/// The vocabulary named `name` (`"aipref"`, `"content-signals"`, or the key that carries it).
fn vocabulary(name: &str) -> PyResult<Vocabulary> {
    Vocabulary::ALL
        .into_iter()
        .find(|v| v.as_str() == name || v.key() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown vocabulary {name:?}: expected \"aipref\" or \"content-signals\""
            ))
        })
}

#[pymethods]
impl Usage {
    /// Whether the crawler may crawl the URL. When it may not, no preference applies
    /// (attach-05 §3.1): every outcome is `"unknown"` and the lists are empty.
    #[getter]
    fn crawlable(&self) -> bool {
        self.inner.crawlable
    }

    /// Each vocabulary in its own terms (`"aipref"`, then `"content-signals"`), when
    /// crawlable.
    #[getter]
    fn vocabularies(&self) -> Vec<VocabularyUsage> {
        self.inner
            .vocabularies
            .iter()
            .map(VocabularyUsage::from)
            .collect()
    }

    /// The categories both vocabularies name (`"train-ai"`, then `"search"`), combined, when
    /// crawlable.
    #[getter]
    fn combined(&self) -> Vec<CombinedUsage> {
        self.inner
            .combined
            .iter()
            .map(CombinedUsage::from)
            .collect()
    }

    /// AI training, both vocabularies combined: `"allowed"`, `"disallowed"` or `"unknown"`.
    #[getter]
    fn train_ai(&self) -> &'static str {
        self.inner.combined(SharedCategory::TrainAi).as_str()
    }

    /// Search, both vocabularies combined: `"allowed"`, `"disallowed"` or `"unknown"`.
    #[getter]
    fn search(&self) -> &'static str {
        self.inner.combined(SharedCategory::Search).as_str()
    }

    /// One vocabulary's answer (`"aipref"` or `"content-signals"`; the key that carries it,
    /// `"content-usage"` or `"content-signal"`, names it too), `None` when not crawlable.
    /// Raises `ValueError` for another name.
    fn vocabulary(&self, vocabulary: &str) -> PyResult<Option<VocabularyUsage>> {
        let vocabulary = self::vocabulary(vocabulary)?;
        Ok(self.inner.vocabulary(vocabulary).map(VocabularyUsage::from))
    }

    /// One category in one vocabulary's terms, `None` when not reported.
    fn category(&self, vocabulary: &str, label: &str) -> PyResult<Option<CategoryUsage>> {
        let vocabulary = self::vocabulary(vocabulary)?;
        Ok(self
            .inner
            .category(vocabulary, label)
            .map(CategoryUsage::from))
    }

    /// One category's outcome in one vocabulary's terms: `"unknown"` when not reported.
    fn outcome(&self, vocabulary: &str, label: &str) -> PyResult<&'static str> {
        Ok(self
            .inner
            .outcome(self::vocabulary(vocabulary)?, label)
            .as_str())
    }

    /// This answer with the HTTP `Content-Usage` response header's value (attach-05 §2) as
    /// one more statement, combined most-restrictively (vocab-07 §5.1); a value that does not
    /// parse states nothing.
    fn with_header(&self, value: &Bound<'_, PyAny>) -> PyResult<Usage> {
        let value = crate::input::body(value)?;
        Ok(Usage::from(
            self.inner.clone().with_header(value.as_bytes()),
        ))
    }

    fn __repr__(&self) -> String {
        if !self.inner.crawlable {
            return "Usage(crawlable=False)".to_owned();
        }
        let mut parts = Vec::new();
        for v in &self.inner.vocabularies {
            let outcomes: Vec<String> = v
                .categories
                .iter()
                .filter(|c| c.outcome != Outcome::Unknown)
                .map(|c| format!("{}={}", c.label, c.outcome))
                .collect();
            parts.push(format!("{}: {{{}}}", v.vocabulary, outcomes.join(", ")));
        }
        format!(
            "Usage(crawlable=True, train_ai={:?}, search={:?}, {})",
            self.train_ai(),
            self.search(),
            parts.join(", ")
        )
    }
}

/// One `Content-Usage` or `Content-Signal` line as a crawler reads it.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
pub(crate) struct UsageStatement {
    /// `"aipref"` (`Content-Usage`) or `"content-signals"` (`Content-Signal`).
    vocabulary: &'static str,
    /// 1-based line number.
    line: u32,
    /// The group it stands in (its position among the file's groups), `None` for a file-wide
    /// `Content-Signal`.
    group: Option<usize>,
    /// The path as written, when the value starts with `/` (attach-05 §3.2).
    path: Option<String>,
    /// The statement of preference as written.
    preference: String,
    /// The Dictionary's members as `(label, value)`: a Token as `str`, a Boolean as `bool`,
    /// another type as `None`; `None` when the statement does not parse.
    members: Option<Vec<(String, Py<PyAny>)>>,
    /// Where, in `preference`, the Dictionary stopped parsing; `None` when it parses.
    error_offset: Option<usize>,
    /// What the parser expected there; `None` when it parses.
    error: Option<String>,
}

impl UsageStatement {
    pub(crate) fn new(py: Python<'_>, s: &robotrules::usage::UsageStatement) -> PyResult<Self> {
        let (members, error_offset, error) = match &s.members {
            Ok(members) => {
                let mut read = Vec::with_capacity(members.len());
                for m in members {
                    let value = match &m.value {
                        MemberValue::Token(token) => token.into_py_any(py)?,
                        MemberValue::Boolean(b) => b.into_py_any(py)?,
                        MemberValue::Other(_) => py.None(),
                    };
                    read.push((m.label.clone(), value));
                }
                (Some(read), None, None)
            }
            Err(e) => (None, Some(e.offset), Some(e.message.clone())),
        };
        Ok(UsageStatement {
            vocabulary: s.vocabulary.as_str(),
            line: s.line,
            group: s.group,
            path: s.path.clone(),
            preference: s.preference.clone(),
            members,
            error_offset,
            error,
        })
    }
}

#[pymethods]
impl UsageStatement {
    fn __repr__(&self) -> String {
        format!(
            "UsageStatement(vocabulary={:?}, line={}, path={}, preference={:?})",
            self.vocabulary,
            self.line,
            self.path
                .as_ref()
                .map_or_else(|| "None".to_owned(), |p| format!("{p:?}")),
            self.preference
        )
    }
}
