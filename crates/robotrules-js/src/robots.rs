//! `Robots`: a parsed robots.txt file; and the free functions `lint` and `crawler_token`.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::crawler::Crawler;
use crate::failure::{self, Failure};
use crate::json;

/// A parsed robots.txt file (immutable). Its WebAssembly memory is freed by `free()` (or
/// `Symbol.dispose`), or when JavaScript collects it.
#[wasm_bindgen]
pub struct Robots {
    pub(crate) inner: robotrules::Robots,
}

#[wasm_bindgen]
impl Robots {
    /// Parse `body` under `profile` (`rfc9309`, `google` or `legacy1994`), reading at most
    /// `parse_limit` bytes (RFC 9309 §2.5; the default 512,000 when `None`). Never fails on
    /// content: whatever cannot be read is reported in the diagnostics.
    ///
    /// # Errors
    /// An unknown profile name.
    pub fn parse(body: &[u8], profile: &str, parse_limit: Option<u32>) -> Result<Robots, Failure> {
        let options = parse_options(profile, parse_limit)?;
        Ok(Robots {
            inner: robotrules::Robots::parse_with(body, &options),
        })
    }

    /// The profile the file was read under.
    pub fn profile(&self) -> String {
        self.inner.profile().as_str().to_owned()
    }

    /// The groups for crawler `agent`, resolved once.
    ///
    /// # Errors
    /// A name the profile does not answer for (`InvalidAgent`).
    pub fn crawler(&self, agent: &str) -> Result<Crawler, Failure> {
        Ok(Crawler::new(self.inner.crawler(agent)?))
    }

    /// May crawler `agent` fetch `url` (absolute, or a path starting with `/`)?
    ///
    /// # Errors
    /// A name or URL the profile cannot read.
    #[wasm_bindgen(js_name = isAllowed)]
    pub fn is_allowed(&self, agent: &str, url: &str) -> Result<bool, Failure> {
        Ok(self.inner.is_allowed(agent, url)?)
    }

    /// [`Robots::is_allowed`] as a number: `1` allowed, `0` not, `2`
    /// for a name or URL the profile cannot read (then `isAllowed` says why).
    #[wasm_bindgen(js_name = isAllowedCode)]
    pub fn is_allowed_code(&self, agent: &str, url: &str) -> u32 {
        crate::crawler::verdict_code(self.inner.is_allowed(agent, url).ok())
    }

    /// Every `Sitemap:` URL in the file, as written (RFC 9309 §2.2.4).
    pub fn sitemaps(&self) -> Vec<String> {
        self.inner.sitemaps().map(str::to_owned).collect()
    }

    /// The sitemaps resolved against the robots.txt URL `base`.
    #[wasm_bindgen(js_name = sitemapsFrom)]
    pub fn sitemaps_from(&self, base: &str) -> Vec<String> {
        self.inner.sitemaps_from(base)
    }

    /// Every `License:` URL in the file, as written (RSL 1.0; file-wide like a sitemap).
    pub fn licenses(&self) -> Vec<String> {
        self.inner
            .licenses()
            .map(|(_, url)| url.to_owned())
            .collect()
    }

    /// The licenses resolved against the robots.txt URL `base`.
    #[wasm_bindgen(js_name = licensesFrom)]
    pub fn licenses_from(&self, base: &str) -> Vec<String> {
        self.inner.licenses_from(base)
    }

    /// Every `LLM-Policy:` URL in the file, as written (file-wide like a sitemap).
    #[wasm_bindgen(js_name = llmPolicies)]
    pub fn llm_policies(&self) -> Vec<String> {
        self.inner
            .llm_policies()
            .map(|(_, url)| url.to_owned())
            .collect()
    }

    /// The LLM policies resolved against the robots.txt URL `base`.
    #[wasm_bindgen(js_name = llmPoliciesFrom)]
    pub fn llm_policies_from(&self, base: &str) -> Vec<String> {
        self.inner.llm_policies_from(base)
    }

    /// Every `Content-Signal:` line outside any group (for every crawler), as JSON
    /// `{"line", "value"}` objects, the value as written.
    #[wasm_bindgen(js_name = fileSignalsJson)]
    pub fn file_signals_json(&self) -> String {
        json::lines(self.inner.file_signals())
    }

    /// The parser's diagnostics, as JSON.
    #[wasm_bindgen(js_name = diagnosticsJson)]
    pub fn diagnostics_json(&self) -> String {
        json::diagnostics(self.inner.diagnostics())
    }

    /// The extension records outside any group and the file-wide ones (`host`), as JSON.
    #[wasm_bindgen(js_name = fileExtensionsJson)]
    pub fn file_extensions_json(&self) -> String {
        json::extensions(self.inner.file_extensions())
    }

    /// How many bytes of the body were read (at most the parse limit).
    #[wasm_bindgen(js_name = bytesRead)]
    pub fn bytes_read(&self) -> usize {
        self.inner.bytes_read()
    }
}

/// The options of [`Robots::parse`].
pub(crate) fn parse_options(
    profile: &str,
    parse_limit: Option<u32>,
) -> Result<robotrules::ParseOptions, Failure> {
    Ok(robotrules::ParseOptions {
        profile: failure::profile(profile)?,
        parse_limit: parse_limit.map_or(robotrules::DEFAULT_PARSE_LIMIT, |n| n as usize),
    })
}

/// Lint `body` under `profile`: the report as JSON (`robotrules lint --format json`'s findings).
///
/// # Errors
/// An unknown profile name.
#[wasm_bindgen(js_name = lintJson)]
pub fn lint(body: &[u8], profile: &str) -> Result<String, Failure> {
    let options = robotrules::ParseOptions {
        profile: failure::profile(profile)?,
        ..robotrules::ParseOptions::default()
    };
    Ok(json::lint(&robotrules::lint(body, &options)))
}

/// The crawler's product token in a full `User-Agent` header (`Mozilla/5.0 (compatible;
/// Googlebot/2.1; …)` → `Googlebot`), or `None` when it names no crawler.
#[wasm_bindgen(js_name = crawlerToken)]
pub fn crawler_token(user_agent: &str) -> Option<String> {
    robotrules::crawler_token(user_agent).map(str::to_owned)
}

/// The size of this instance's WebAssembly memory in bytes (it grows, never shrinks): what the
/// package's leak test watches. `0` outside WebAssembly.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) * 65536
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

/// What an HTTP `status` makes of a robots.txt (RFC 9309 §2.3.1, the fetch client's table):
/// `success`, `redirect`, `unavailable` (every path allowed) or `unreachable` (every path
/// disallowed). `has_location` says whether the response names a redirect target, and
/// `too_many_requests` how 429 is read (`unreachable`, the default, or `unavailable`).
///
/// # Errors
/// A `too_many_requests` that is neither name.
#[wasm_bindgen(js_name = statusAccess)]
pub fn status_access(
    status: u16,
    has_location: bool,
    too_many_requests: Option<String>,
) -> Result<String, Failure> {
    use robotrules::status::TooManyRequests;
    let policy = match too_many_requests.as_deref() {
        None => TooManyRequests::default(),
        Some(name) => TooManyRequests::from_name(name).ok_or_else(|| {
            Failure::range(format!(
                "tooManyRequests must be 'unreachable' or 'unavailable', not {name:?}"
            ), name)
        })?,
    };
    Ok(robotrules::status::status_access(status, has_location, policy)
        .name()
        .to_owned())
}
