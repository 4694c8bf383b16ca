//! `Crawler`: one crawler's groups in a parsed file, resolved once; and its request rate.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyAnyMethods, PyList, PyString};

use robotrules::InvalidUrl;

use crate::explanation::Explanation;
use crate::usage::{Usage, UsageStatement};
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

    /// The verdicts on the URLs of `chunk` (a list), in order, pushed onto `allowed`; the
    /// first URL the profile cannot read, or the first item that is not a `str`, is an error.
    fn chunk_verdicts(
        &self,
        py: Python<'_>,
        chunk: &Bound<'_, PyList>,
        allowed: &mut Vec<bool>,
    ) -> PyResult<()> {
        let count = chunk.len();
        let inner = &self.inner;
        // One `bytes` object for the chunk: the URLs joined with NUL, encoded as
        // `input::utf8` encodes one URL (`surrogatepass`, which never makes a NUL octet).
        // `str.join` fails only on an item that is not a `str`: the one-at-a-time way then
        // raises the same `TypeError` as before.
        if let Ok(joined) = intern!(py, "\0").call_method1(intern!(py, "join"), (chunk,)) {
            let joined = input::utf8(joined.cast::<PyString>()?)?;
            let batch = joined.as_bytes();
            // `false` when a URL holds a NUL itself: its pieces are then not the URLs.
            if let Some(verdicts) = py
                .detach(|| inner.allowed_joined(batch, count))
                .map_err(errors::url)?
            {
                allowed.extend(verdicts);
                return Ok(());
            }
        }
        // Each URL's UTF-8 as a `bytes` object, kept alive until the verdicts are in: the
        // verdicts then read the bytes in place, with the GIL released.
        let mut encoded = Vec::with_capacity(count);
        for url in chunk.iter() {
            encoded.push(input::utf8(url.cast::<PyString>()?)?);
        }
        let texts: Vec<&[u8]> = encoded.iter().map(|bytes| bytes.as_bytes()).collect();
        allowed.extend(py.detach(|| verdicts(inner, &texts)).map_err(errors::url)?);
        Ok(())
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
        // The URLs are read first, as before: a list is copied (its items, not their text),
        // since the GIL is released between chunks and another thread may change the list;
        // any other iterable is read into a list, each item cast to `str` as it comes (the
        // same `TypeError` at the same item as one at a time).
        let list = match urls.cast::<PyList>() {
            Ok(list) => list.get_slice(0, list.len()),
            Err(_) => {
                let mut items = Vec::with_capacity(urls.len().unwrap_or(0));
                for url in urls.try_iter()? {
                    items.push(url?.cast_into::<PyString>()?);
                }
                PyList::new(py, items)?
            }
        };
        let mut allowed = Vec::with_capacity(list.len());
        // In chunks small enough that each chunk's text stays in the cache from its encoding
        // to its last verdict (one buffer for 12,000 URLs was measured slower than one per URL).
        for start in (0..list.len()).step_by(CHUNK) {
            let chunk = list.get_slice(start, start + CHUNK);
            if let Err(error) = self.chunk_verdicts(py, &chunk, &mut allowed) {
                // As before, a URL that is not a `str` anywhere in the batch raises
                // `TypeError` before any URL is judged.
                if error.is_instance_of::<errors::InvalidUrl>(py) {
                    for url in list.iter().skip(start + CHUNK) {
                        url.cast::<PyString>()?;
                    }
                }
                return Err(error);
            }
        }
        Ok(allowed)
    }

    /// Why `url` is allowed or not: the verdict, the deciding line and rule, the reason and
    /// the profile.
    fn explain(&self, url: &Bound<'_, PyString>) -> PyResult<Explanation> {
        self.inner
            .explain(&input::text(url)?.as_str())
            .map(Explanation::from)
            .map_err(errors::url)
    }

    /// May the crawler use `url` for AI training, for search, for AI input, and which line
    /// says so: each vocabulary's categories (`Content-Usage`, `Content-Signal`) as
    /// `"allowed"`, `"disallowed"` or `"unknown"` with the deciding lines, and the combined
    /// answer for AI training and search. A URL the crawler may not crawl has no preference
    /// (`Usage.crawlable` is false). `header`, when given, is the value of the HTTP
    /// `Content-Usage` response header, combined as one more statement.
    #[pyo3(signature = (url, *, header = None))]
    pub(crate) fn usage(
        &self,
        url: &Bound<'_, PyString>,
        header: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Usage> {
        let usage = self
            .inner
            .usage(&input::text(url)?.as_str())
            .map_err(errors::url)?;
        Ok(Usage::from(match header {
            Some(value) => usage.with_header(input::body(value)?.as_bytes()),
            None => usage,
        }))
    }

    /// The crawler's `Content-Usage` and `Content-Signal` lines, read (path, Dictionary), in
    /// file order: its groups' lines and the file-wide `Content-Signal` lines.
    #[getter]
    fn usage_statements(&self, py: Python<'_>) -> PyResult<Vec<UsageStatement>> {
        self.inner
            .usage_statements()
            .iter()
            .map(|s| UsageStatement::new(py, s))
            .collect()
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
        // `*` is read as a crawler that no group names, and says so, as the CLI's output does.
        let label = robotrules::any_crawler_label(self.inner.name())
            .map(|label| format!(" ({label})"))
            .unwrap_or_default();
        format!(
            "<Crawler name={:?}{label} selection={} profile={}>",
            self.inner.name(),
            self.inner.selection(),
            self.inner.robots().profile()
        )
    }
}

/// The verdicts on `urls`, in order, or the first URL the profile cannot read. (Splitting a
/// batch over threads was measured no faster in wall time here, and half again the CPU: run K
/// of `docs/performance.md`.)
fn verdicts(crawler: &robotrules::Crawler, urls: &[&[u8]]) -> Result<Vec<bool>, InvalidUrl> {
    urls.iter()
        .map(|url| crawler.is_allowed(&String::from_utf8_lossy(url)))
        .collect()
}

/// The URLs `allowed_many` joins into one buffer at a time.
const CHUNK: usize = 1024;

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
        robotrules::RequestRate::new(self.requests, self.seconds)
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

/// What an HTTP `status` makes of a robots.txt (RFC 9309 §2.3.1, the fetch client's table):
/// `"success"`, `"redirect"`, `"unavailable"` (every path allowed) or `"unreachable"` (every
/// path disallowed). `has_location` says whether the response names a redirect target;
/// `too_many_requests` reads 429 as `"unreachable"` (the default) or `"unavailable"`.
#[pyfunction]
#[pyo3(signature = (status, has_location = false, too_many_requests = "unreachable"))]
pub(crate) fn status_access(
    status: u16,
    has_location: bool,
    too_many_requests: &str,
) -> PyResult<&'static str> {
    use robotrules::status::TooManyRequests;
    let policy = TooManyRequests::from_name(too_many_requests).ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "too_many_requests must be 'unreachable' or 'unavailable', not {too_many_requests:?}"
        ))
    })?;
    Ok(robotrules::status::status_access(status, has_location, policy).name())
}

/// The crawler's product token in a full `User-Agent` header (`Mozilla/5.0 (compatible;
/// Googlebot/2.1; …)` → `Googlebot`), or `None` when it names no crawler.
#[pyfunction]
pub(crate) fn crawler_token(user_agent: &Bound<'_, PyString>) -> PyResult<Option<String>> {
    Ok(robotrules::crawler_token(&input::text(user_agent)?.as_str()).map(str::to_owned))
}
