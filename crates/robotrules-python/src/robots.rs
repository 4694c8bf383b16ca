//! `Robots`: a parsed robots.txt file.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::agent::NameReading;
use crate::crawler::{Crawler, RequestRate};
use crate::diagnostic::Diagnostic;
use crate::explanation::Explanation;
use crate::usage::Usage;
use crate::{errors, input};

/// A parsed robots.txt file: immutable, safe to share across threads.
///
/// Make one with `Robots.parse(body, profile=...)`; ask `is_allowed(agent, url)`, or keep
/// `crawler(agent)` to ask about many URLs.
#[pyclass(frozen, module = "robotrules._robotrules")]
pub(crate) struct Robots {
    inner: robotrules::Robots,
}

#[pymethods]
impl Robots {
    /// Parse `body` (`bytes` or `str`) under `profile` (`"rfc9309"`, `"google"` or
    /// `"legacy1994"`). Never fails on content: whatever cannot be read is reported in
    /// `diagnostics`. The GIL is released while parsing.
    #[staticmethod]
    #[pyo3(signature = (body, *, profile = "rfc9309", parse_limit = robotrules::DEFAULT_PARSE_LIMIT))]
    fn parse(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        profile: &str,
        parse_limit: usize,
    ) -> PyResult<Robots> {
        let options = robotrules::ParseOptions::new()
            .with_profile(errors::profile(profile)?)
            .with_parse_limit(parse_limit);
        let body = input::body(body)?;
        let bytes = body.as_bytes();
        let inner = py.detach(|| robotrules::Robots::parse_with(bytes, &options));
        Ok(Robots { inner })
    }

    /// The profile the file was read under.
    #[getter]
    fn profile(&self) -> &'static str {
        self.inner.profile().as_str()
    }

    /// The groups for crawler `agent`, resolved once: a `Crawler` to ask about many URLs.
    fn crawler(&self, agent: &Bound<'_, PyString>) -> PyResult<Crawler> {
        self.inner
            .crawler(&input::text(agent)?.as_str())
            .map(Crawler::new)
            .map_err(errors::agent)
    }

    /// The crawler that a foreign library's user agent or a full User-Agent header stands for:
    /// its product token, else `*` (the facade's `crawler_for`, the one policy of the
    /// drop-ins). Never raises.
    fn crawler_for(&self, user_agent: &Bound<'_, PyString>) -> PyResult<Crawler> {
        Ok(Crawler::new(
            self.inner.crawler_for(&input::text(user_agent)?.as_str()),
        ))
    }

    /// What this file's profile reads of crawler name `agent` when no group can name it as it
    /// is (Google's library reads `User-agent: MJ12bot` as `MJ`), with the groups it gets and
    /// the token to pass; `None` when the name is read whole.
    fn name_reading(&self, agent: &Bound<'_, PyString>) -> PyResult<Option<NameReading>> {
        Ok(self
            .inner
            .name_reading(&input::text(agent)?.as_str())
            .map(NameReading::from))
    }

    /// May crawler `agent` fetch `url` (absolute, or a path starting with `/`)?
    fn is_allowed(&self, agent: &Bound<'_, PyString>, url: &Bound<'_, PyString>) -> PyResult<bool> {
        self.inner
            .is_allowed(&input::text(agent)?.as_str(), &input::text(url)?.as_str())
            .map_err(errors::either)
    }

    /// Why `url` is allowed or not for `agent`.
    fn explain(
        &self,
        agent: &Bound<'_, PyString>,
        url: &Bound<'_, PyString>,
    ) -> PyResult<Explanation> {
        self.inner
            .explain(&input::text(agent)?.as_str(), &input::text(url)?.as_str())
            .map(Explanation::from)
            .map_err(errors::either)
    }

    /// The AI usage preferences of `url` for `agent`: `Crawler.usage`.
    #[pyo3(signature = (agent, url, *, header = None))]
    fn usage(
        &self,
        agent: &Bound<'_, PyString>,
        url: &Bound<'_, PyString>,
        header: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Usage> {
        self.crawler(agent)?.usage(url, header)
    }

    /// The crawl delay for `agent` in seconds, or `None`.
    fn crawl_delay(&self, agent: &Bound<'_, PyString>) -> PyResult<Option<f64>> {
        self.inner
            .crawl_delay(&input::text(agent)?.as_str())
            .map(|delay| delay.map(|d| d.as_secs_f64()))
            .map_err(errors::agent)
    }

    /// The request rate for `agent`, or `None`.
    fn request_rate(&self, agent: &Bound<'_, PyString>) -> PyResult<Option<RequestRate>> {
        self.inner
            .request_rate(&input::text(agent)?.as_str())
            .map(|rate| rate.map(RequestRate::from))
            .map_err(errors::agent)
    }

    /// Every `Sitemap:` URL in the file, as written (RFC 9309 §2.2.4).
    #[getter]
    fn sitemaps(&self) -> Vec<String> {
        self.inner.sitemaps().map(str::to_owned).collect()
    }

    /// The sitemaps resolved against the robots.txt URL `base`.
    fn sitemaps_from(&self, base: &Bound<'_, PyString>) -> PyResult<Vec<String>> {
        Ok(self.inner.sitemaps_from(&input::text(base)?.as_str()))
    }

    /// Every `License:` URL in the file (RSL 1.0), as written; file-wide like a sitemap.
    #[getter]
    fn licenses(&self) -> Vec<String> {
        self.inner
            .licenses()
            .map(|(_, url)| url.to_owned())
            .collect()
    }

    /// The `License:` URLs resolved against the robots.txt URL `base`.
    fn licenses_from(&self, base: &Bound<'_, PyString>) -> PyResult<Vec<String>> {
        Ok(self.inner.licenses_from(&input::text(base)?.as_str()))
    }

    /// Every `LLM-Policy:` URL in the file, as written; file-wide like a sitemap.
    #[getter]
    fn llm_policies(&self) -> Vec<String> {
        self.inner
            .llm_policies()
            .map(|(_, url)| url.to_owned())
            .collect()
    }

    /// The `LLM-Policy:` URLs resolved against the robots.txt URL `base`.
    fn llm_policies_from(&self, base: &Bound<'_, PyString>) -> PyResult<Vec<String>> {
        Ok(self.inner.llm_policies_from(&input::text(base)?.as_str()))
    }

    /// Every `Content-Signal:` line outside any group, `(value, line)`, value as written: the
    /// file-wide signals, which speak to every crawler (each crawler's `usage_statements`
    /// include them).
    #[getter]
    fn file_signals(&self) -> Vec<(String, u32)> {
        self.inner
            .file_signals()
            .map(|(line, value)| (value.to_owned(), line))
            .collect()
    }

    /// The extension records outside any group and the file-wide ones (`host`), in file
    /// order: `(key, value, line)`, the key lower-cased, the value as written.
    #[getter]
    fn file_extensions(&self) -> Vec<(String, String, u32)> {
        crate::crawler::extension_tuples(self.inner.file_extensions())
    }

    /// What the parser found: skipped bytes, ignored lines, lenient readings.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.inner
            .diagnostics()
            .iter()
            .map(Diagnostic::from)
            .collect()
    }

    /// How many bytes of the body were read (at most the parse limit, RFC 9309 §2.5).
    #[getter]
    fn bytes_read(&self) -> usize {
        self.inner.bytes_read()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Robots profile={} bytes_read={}>",
            self.inner.profile(),
            self.inner.bytes_read()
        )
    }
}
