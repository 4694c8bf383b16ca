//! `Survey`: the per-capture survey of the `robotrules-survey` crate, for engines that read
//! the WARC records themselves (a Spark job with warcio calls it once per `response` record).
//!
//! A `Survey` is made once (a partition's crawlers and profile); `Survey.capture` takes one
//! capture as the CLI's `Capture` holds it (URL, time, WARC file and offset, status, headers,
//! decoded body) and `Survey.response` one WARC `response` record's HTTP block, read by the
//! same code as `robotrules survey` reads it (status line, headers, de-chunking, gzip). Both
//! return a `Surveyed` whose `rows()` are the CLI's rows, column for column
//! (`SURVEY_COLUMNS`), and `usage_rows()` their AI usage columns (`SURVEY_USAGE_COLUMNS`).
//! The GIL is released while the body is parsed and every crawler judged.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use pyo3::IntoPyObjectExt as _;

use robotrules_survey::{Agent, Capture, Surveyed as Inner};

use crate::{errors, input};

/// A survey: the crawlers asked about, in order, and the profile files are read under.
#[pyclass(frozen, module = "robotrules._robotrules")]
pub(crate) struct Survey {
    inner: robotrules_survey::Survey,
}

#[pymethods]
impl Survey {
    /// A survey of `agents` (product tokens; `None`: the CLI's default list) under `profile`
    /// (default `"google"`, as `robotrules survey`). A name listed twice is kept once. Raises
    /// `InvalidAgent` for the first name the profile refuses, before any capture is read.
    #[new]
    #[pyo3(signature = (agents = None, *, profile = "google", parse_limit = robotrules::DEFAULT_PARSE_LIMIT))]
    fn new(agents: Option<Vec<String>>, profile: &str, parse_limit: usize) -> PyResult<Survey> {
        let profile = errors::profile(profile)?;
        let agents = match agents {
            None => robotrules_survey::default_agents(),
            Some(names) => {
                let mut agents: Vec<Agent> = Vec::with_capacity(names.len());
                for name in names.iter().map(|n| n.trim()) {
                    if !agents.iter().any(|a| a.name == name) {
                        agents.push(Agent::named(name));
                    }
                }
                agents
            }
        };
        if agents.is_empty() {
            return Err(PyValueError::new_err("no crawler to survey"));
        }
        let inner =
            robotrules_survey::Survey::new(agents, profile, parse_limit).map_err(errors::agent)?;
        Ok(Survey { inner })
    }

    /// The crawlers, in row order.
    #[getter]
    fn agents(&self) -> Vec<String> {
        self.inner.agents().iter().map(|a| a.name.clone()).collect()
    }

    /// The profile.
    #[getter]
    fn profile(&self) -> &'static str {
        self.inner.profile().as_str()
    }

    /// Surveys one capture: `url` fetched (`WARC-Target-URI`), `body` as decoded (bytes),
    /// `status` (`None`: a file, read as 200), `headers` as `(name, value)` pairs, `time`
    /// (`WARC-Date`), `file` and `offset` (the WARC file and the record's offset), `host`
    /// (default: the URL's, as the CLI shows it).
    #[pyo3(signature = (url, body, *, status = None, headers = Vec::new(), time = String::new(), file = String::new(), offset = None, host = None))]
    #[allow(clippy::too_many_arguments)] // Python keyword arguments, one per capture field.
    fn capture(
        &self,
        py: Python<'_>,
        url: String,
        body: &Bound<'_, PyAny>,
        status: Option<u16>,
        headers: Vec<(String, String)>,
        time: String,
        file: String,
        offset: Option<u64>,
        host: Option<String>,
    ) -> PyResult<Surveyed> {
        let body = input::body(body)?;
        let bytes = body.as_bytes();
        let inner = &self.inner;
        let surveyed = py.detach(|| {
            let capture = Capture {
                host: host.unwrap_or_else(|| robotrules_survey::host_of(&url).unwrap_or_default()),
                url,
                time,
                file,
                offset,
                status,
                headers,
                body: bytes.to_vec(),
            };
            inner.capture(&capture)
        });
        Ok(Surveyed::new(surveyed, inner.agents()))
    }

    /// Surveys one WARC `response` record: `block` is its HTTP response as received (status
    /// line, headers, body), read as `robotrules survey` reads it. Raises `ValueError` with the
    /// CLI's reason when `block` is not an HTTP response (the CLI reports such a record as
    /// malformed and goes on).
    #[pyo3(signature = (url, block, *, time = String::new(), file = String::new(), offset = None))]
    fn response(
        &self,
        py: Python<'_>,
        url: String,
        block: &Bound<'_, PyAny>,
        time: String,
        file: String,
        offset: Option<u64>,
    ) -> PyResult<Surveyed> {
        let block = input::body(block)?;
        let bytes = block.as_bytes();
        let inner = &self.inner;
        let surveyed = py.detach(|| {
            let response = robotrules_survey::parse_response(bytes)?;
            let capture = Capture {
                host: robotrules_survey::host_of(&url).unwrap_or_default(),
                url,
                time,
                file,
                offset,
                status: Some(response.status),
                headers: response.headers,
                body: response.body,
            };
            Ok::<_, String>(inner.capture(&capture))
        });
        surveyed
            .map(|s| Surveyed::new(s, inner.agents()))
            .map_err(PyValueError::new_err)
    }
}

/// One capture surveyed: its rows, and what a redirect needs to be resolved.
#[pyclass(frozen, module = "robotrules._robotrules")]
pub(crate) struct Surveyed {
    inner: Inner,
    agents: Vec<Agent>,
}

impl Surveyed {
    fn new(inner: Inner, agents: &[Agent]) -> Surveyed {
        Surveyed {
            inner,
            agents: agents.to_vec(),
        }
    }
}

#[pymethods]
impl Surveyed {
    /// The URL fetched.
    #[getter]
    fn url(&self) -> &str {
        &self.inner.facts.url
    }

    /// A redirect's target, resolved against `url` (`None` when no redirect).
    #[getter]
    fn redirect(&self) -> Option<&str> {
        self.inner.facts.redirect.as_deref()
    }

    /// Whether this is a redirect whose reach waits for its target's capture (every row's
    /// `reach` is `"unknown"` until then).
    #[getter]
    fn awaits_target(&self) -> bool {
        self.inner.awaits_target()
    }

    /// The rows, one per crawler of the survey, each a tuple of `SURVEY_COLUMNS`.
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner
            .rows(&self.agents)
            .map(|r| {
                // PyO3 converts tuples of up to 12 items; a row has 15.
                let items = [
                    r.host.into_bound_py_any(py)?,
                    r.capture_time.into_bound_py_any(py)?,
                    r.warc_file.into_bound_py_any(py)?,
                    r.warc_offset.into_bound_py_any(py)?,
                    r.status.into_bound_py_any(py)?,
                    r.redirect.into_bound_py_any(py)?,
                    r.content_type.into_bound_py_any(py)?,
                    r.body_kind.as_str().into_bound_py_any(py)?,
                    r.bytes.into_bound_py_any(py)?,
                    r.parse_limit_cut.into_bound_py_any(py)?,
                    r.agent.into_bound_py_any(py)?,
                    r.named.into_bound_py_any(py)?,
                    r.reach.as_str().into_bound_py_any(py)?,
                    r.crawl_delay.into_bound_py_any(py)?,
                    r.sitemaps.into_bound_py_any(py)?,
                ];
                PyTuple::new(py, items)
            })
            .collect()
    }

    /// The columns that do not depend on the crawler, as in a row: `host` to
    /// `parse_limit_cut` (the first ten of `SURVEY_COLUMNS`).
    fn facts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = &self.inner.facts;
        (
            f.host.as_str(),
            f.time.as_str(),
            f.file.as_str(),
            f.offset,
            f.status,
            f.redirect.as_deref(),
            f.content_type.as_deref(),
            f.body_kind.as_str(),
            f.bytes,
            f.cut,
        )
            .into_pyobject(py)
    }

    /// The columns the crawlers' rules decide, column by column: `named`, `reach` and
    /// `crawl_delay` as lists in the survey's crawler order, and `sitemaps` (the last four of
    /// `SURVEY_COLUMNS`; an engine can keep one record per capture and expand it late).
    fn verdicts(&self) -> (Vec<bool>, Vec<&'static str>, Vec<Option<f64>>, u32) {
        let v = &self.inner.per_agent;
        (
            v.agents.iter().map(|a| a.named).collect(),
            v.agents.iter().map(|a| a.reach.as_str()).collect(),
            v.agents.iter().map(|a| a.crawl_delay).collect(),
            v.sitemaps,
        )
    }

    /// The AI usage columns of the rows, one tuple per crawler in row order, each of
    /// `SURVEY_USAGE_COLUMNS`: the capture's signals (`content_usage`, `content_signal`,
    /// `license`, `llm_policy`), the crawler's outcomes for `/` (`usage_train_ai`,
    /// `usage_search`, `signal_search`, `signal_ai_input`, `signal_ai_train`, `train_ai`,
    /// `search`) and its `contradiction` (`None` when the file does not contradict itself).
    fn usage_rows<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner
            .usage_rows(&self.agents)
            .map(|r| {
                let mut items = Vec::with_capacity(robotrules_survey::USAGE_COLUMNS.len());
                for flag in r.signal_flags() {
                    items.push(flag.into_bound_py_any(py)?);
                }
                for outcome in r.outcomes() {
                    items.push(outcome.as_str().into_bound_py_any(py)?);
                }
                items.push(
                    r.usage
                        .contradiction
                        .map(|c| c.as_str())
                        .into_bound_py_any(py)?,
                );
                PyTuple::new(py, items)
            })
            .collect()
    }

    /// Which AI usage signals the capture carries, as a dict of the four signal columns
    /// (`content_usage`, `content_signal`, `license`, `llm_policy`); a redirect's are its
    /// target's once resolved, as its verdicts are.
    #[getter]
    fn signals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.inner.per_agent.signals;
        let signals = PyDict::new(py);
        for (column, carried) in [
            ("content_usage", s.content_usage),
            ("content_signal", s.content_signal),
            ("license", s.license),
            ("llm_policy", s.llm_policy),
        ] {
            signals.set_item(column, carried)?;
        }
        Ok(signals)
    }

    fn __repr__(&self) -> String {
        let reach: Vec<&str> = self
            .inner
            .per_agent
            .agents
            .iter()
            .map(|a| a.reach.as_str())
            .collect();
        let status = self
            .inner
            .facts
            .status
            .map_or_else(|| "None".to_owned(), |s| s.to_string());
        format!(
            "Surveyed(url={:?}, status={status}, reach={reach:?})",
            self.inner.facts.url
        )
    }
}

/// `url` in the one serialisation redirect targets are compared in (the URL Standard's), as
/// `robotrules survey` compares them; `url` itself when it is no URL.
#[pyfunction]
pub(crate) fn url_key(url: &Bound<'_, PyString>) -> PyResult<String> {
    Ok(robotrules_survey::url_key(&input::text(url)?.as_str()))
}
