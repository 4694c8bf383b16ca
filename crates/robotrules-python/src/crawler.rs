//! `Crawler`: one crawler's groups in a parsed file, resolved once; and its request rate.

use pyo3::prelude::*;
use pyo3::types::{PyAnyMethods, PyList, PyString};

use robotrules::InvalidUrl;

use crate::explanation::Explanation;
use crate::{errors, input};

/// One crawler's rules in a parsed file: immutable, safe to share across threads.
#[pyclass(frozen, module = "robotrules._robotrules")]
pub(crate) struct Crawler {
    inner: robotrules::Crawler,
}

impl Crawler {
    pub(crate) fn new(inner: robotrules::Crawler) -> Crawler {
        Crawler { inner }
    }
}

#[pymethods]
impl Crawler {
    /// The crawler's name as given.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// The profile the file was read under.
    #[getter]
    fn profile(&self) -> &'static str {
        self.inner.robots().profile().as_str()
    }

    /// How its groups were chosen: `"exact"`, `"substring"`, `"global"` or `"unmatched"`.
    #[getter]
    fn selection(&self) -> &'static str {
        self.inner.selection().as_str()
    }

    /// May the crawler fetch `url` (absolute, or a path starting with `/`)?
    fn is_allowed(&self, url: &Bound<'_, PyString>) -> PyResult<bool> {
        self.inner
            .is_allowed(&input::text(url)?.as_str())
            .map_err(errors::url)
    }

    /// The verdict for each URL of `urls` (any iterable of `str`), in order. The URLs are
    /// read first, then judged with the GIL released; the first URL the profile cannot read
    /// raises `InvalidUrl`.
    fn allowed_many(&self, py: Python<'_>, urls: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
        // Each URL's UTF-8 as a `bytes` object, kept alive until the verdicts are in: the
        // verdicts then read the bytes in place, with the GIL released.
        let mut encoded = Vec::with_capacity(urls.len().unwrap_or(0));
        if let Ok(list) = urls.cast::<PyList>() {
            for url in list.iter() {
                encoded.push(input::utf8(url.cast::<PyString>()?)?);
            }
        } else {
            for url in urls.try_iter()? {
                encoded.push(input::utf8(url?.cast::<PyString>()?)?);
            }
        }
        let texts: Vec<&[u8]> = encoded.iter().map(|bytes| bytes.as_bytes()).collect();
        let inner = &self.inner;
        py.detach(|| verdicts(inner, &texts)).map_err(errors::url)
    }

    /// Why `url` is allowed or not: the verdict, the deciding line and rule, the reason and
    /// the profile.
    fn explain(&self, url: &Bound<'_, PyString>) -> PyResult<Explanation> {
        self.inner
            .explain(&input::text(url)?.as_str())
            .map(Explanation::from)
            .map_err(errors::url)
    }

    /// The crawl delay in seconds, from the crawler's groups' first valid `crawl-delay`
    /// record, or `None`.
    #[getter]
    fn crawl_delay(&self) -> Option<f64> {
        self.inner.crawl_delay().map(|d| d.as_secs_f64())
    }

    /// The request rate from the crawler's groups' first valid `request-rate` record, or
    /// `None`.
    #[getter]
    fn request_rate(&self) -> Option<RequestRate> {
        self.inner.request_rate().map(RequestRate::from)
    }

    /// The values of the crawler's groups' `visit-time` records, as written.
    #[getter]
    fn visit_times(&self) -> Vec<String> {
        self.inner.visit_times()
    }

    /// The extension records of the crawler's groups, in file order: `(key, value, line)`,
    /// the key lower-cased, the value as written.
    #[getter]
    fn extensions(&self) -> Vec<(String, String, u32)> {
        extension_tuples(self.inner.extensions())
    }

    /// Every `Sitemap:` URL in the file, as written.
    #[getter]
    fn sitemaps(&self) -> Vec<String> {
        self.inner.sitemaps().map(str::to_owned).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Crawler name={:?} selection={} profile={}>",
            self.inner.name(),
            self.inner.selection(),
            self.inner.robots().profile()
        )
    }
}

/// The verdicts on `urls`, in order, or the first URL the profile cannot read. (Splitting a
/// batch over threads was measured slower here: the verdicts are too short.)
fn verdicts(crawler: &robotrules::Crawler, urls: &[&[u8]]) -> Result<Vec<bool>, InvalidUrl> {
    urls.iter()
        .map(|url| crawler.is_allowed(&String::from_utf8_lossy(url)))
        .collect()
}

/// Extension records as Python tuples `(key, value, line)`.
pub(crate) fn extension_tuples(records: Vec<robotrules::Extension>) -> Vec<(String, String, u32)> {
    records
        .into_iter()
        .map(|e| (e.key.to_ascii_lowercase(), e.value, e.line))
        .collect()
}

/// A `request-rate` record: `requests` per `seconds`.
#[pyclass(frozen, eq, get_all, module = "robotrules._robotrules")]
#[derive(PartialEq, Eq)]
pub(crate) struct RequestRate {
    /// Number of requests…
    requests: u32,
    /// …per this many seconds.
    seconds: u32,
}

impl From<robotrules::RequestRate> for RequestRate {
    fn from(rate: robotrules::RequestRate) -> Self {
        RequestRate {
            requests: rate.requests,
            seconds: rate.seconds,
        }
    }
}

#[pymethods]
impl RequestRate {
    /// The time the rate leaves between two requests, in seconds.
    #[getter]
    fn interval(&self) -> f64 {
        robotrules::RequestRate {
            requests: self.requests,
            seconds: self.seconds,
        }
        .interval()
        .as_secs_f64()
    }

    fn __repr__(&self) -> String {
        format!(
            "RequestRate(requests={}, seconds={})",
            self.requests, self.seconds
        )
    }

    fn __hash__(&self) -> u64 {
        (u64::from(self.requests) << 32) | u64::from(self.seconds)
    }
}

/// The crawler's product token in a full `User-Agent` header (`Mozilla/5.0 (compatible;
/// Googlebot/2.1; …)` → `Googlebot`), or `None` when it names no crawler.
#[pyfunction]
pub(crate) fn crawler_token(user_agent: &Bound<'_, PyString>) -> PyResult<Option<String>> {
    Ok(robotrules_model::crawler_token(&input::text(user_agent)?.as_str()).map(str::to_owned))
}
