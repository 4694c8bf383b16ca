//! # robotrules
//!
//! The Robots Exclusion Protocol for Rust: RFC 9309, Google's robots.txt specification (bit
//! for bit with Google's reference library in the [`Profile::Google`] profile), and the 1994
//! convention ([`Profile::Legacy1994`]).
//!
//! Parse a file once, then ask as often as you like, from as many threads as you like:
//!
//! ```
//! use robotrules::Robots;
//!
//! let robots = Robots::parse(b"
//! User-agent: *
//! Disallow: /private/
//! Allow: /private/press/
//! Crawl-delay: 2
//!
//! Sitemap: https://example.com/sitemap.xml
//! ");
//! assert!(!robots.is_allowed("ExampleBot", "https://example.com/private/x")?);
//! assert!(robots.is_allowed("ExampleBot", "https://example.com/private/press/1")?);
//! assert_eq!(robots.crawl_delay("ExampleBot")?, Some(std::time::Duration::from_secs(2)));
//! assert_eq!(robots.sitemaps().collect::<Vec<_>>(), ["https://example.com/sitemap.xml"]);
//!
//! // A crawler name must be a product token (RFC 9309 §2.2.1), a URL absolute or a path.
//! assert!(robots.is_allowed("Example Bot/1.0", "/").is_err());
//! assert!(robots.is_allowed("ExampleBot", "example.com/private/x").is_err());
//! # Ok::<(), robotrules::Error>(())
//! ```
//!
//! For many URLs of one crawler, choose and compile its groups once with [`Robots::crawler`]:
//!
//! ```
//! use robotrules::{ParseOptions, Profile, Robots};
//!
//! let options = ParseOptions { profile: Profile::Google, ..ParseOptions::default() };
//! let robots = Robots::parse_with(b"user-agent: foobot\ndisallow: /*.gif$\n", &options);
//! let foobot = robots.crawler("FooBot")?;
//! assert!(!foobot.is_allowed("https://example.com/a/b.gif")?);
//! assert!(foobot.is_allowed("https://example.com/a/b.gif?size=2")?);
//! # Ok::<(), robotrules::Error>(())
//! ```
//!
//! [`Robots::explain`] says which line decided and why. What each profile decides is one
//! table, [`Profile::reading`]. The layers are re-exported for those who need them:
//! [`grammar`], [`url`], [`model`], and with their features `lint` and `fetch`.
//!
//! ## Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `fetch` | on | `client::Client`: fetching (HTTP, HTTPS, FTP) and caching robots.txt end to end (tokio, reqwest) |
//! | `lint` | on | `robotrules::lint`: site-owner lints rendered rustc-style |
//! | `serde` | with `fetch` | `Serialize` for explanations, diagnostics and decisions |
//!
//! Parse-only users turn the defaults off (`default-features = false`) and pull in neither
//! tokio, reqwest, hyper, annotate-snippets nor serde_json.

use std::sync::Arc;

#[cfg(feature = "fetch")]
pub mod client;

#[cfg(feature = "fetch")]
pub use robotrules_fetch as fetch;
pub use robotrules_grammar as grammar;
#[cfg(feature = "lint")]
pub use robotrules_lint as lint;
pub use robotrules_model as model;
pub use robotrules_url as url;

pub use robotrules_grammar::DEFAULT_PARSE_LIMIT;
pub use robotrules_model::{
    Crawler, Diagnostic, DiagnosticKind, Error, Explanation, Extension, ExtensionKey, GroupRef,
    InvalidAgent, InvalidUrl, Profile, Reading, Reason, RequestRate, RuleKind, RuleMatch,
    Selection, Severity, Span, UnknownProfile, Verdict,
};

/// How to read a robots.txt file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    /// The reading to apply (default [`Profile::Rfc9309`]).
    pub profile: Profile,
    /// Bytes past this many are ignored and reported (RFC 9309 §2.5 asks for at least
    /// 500 KiB; the default is [`DEFAULT_PARSE_LIMIT`], 512,000 bytes).
    pub parse_limit: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            profile: Profile::default(),
            parse_limit: DEFAULT_PARSE_LIMIT,
        }
    }
}

#[cfg(feature = "lint")]
/// Lint `bytes` for `options.profile`: every finding with its stable code, severity, span,
/// line, column, message and help, at most [`lint::DEFAULT_MAX_FINDINGS`] of them (the rest
/// counted). See [`lint::lint`] for more options and [`lint::render`] to show the report.
///
/// ```
/// let report = robotrules::lint(b"user-agent: *\ndissallow: /x\n", &Default::default());
/// assert_eq!(report.findings[0].code.as_str(), "misspelt-key");
/// ```
pub fn lint(bytes: &[u8], options: &ParseOptions) -> lint::LintReport {
    let options = lint::LintOptions {
        profile: options.profile,
        parse_limit: options.parse_limit,
        ..lint::LintOptions::default()
    };
    lint::lint(bytes, &options)
}

/// A parsed robots.txt file. Cheap to clone (an `Arc`), `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Robots {
    inner: Arc<model::RobotsTxt>,
}

impl Robots {
    /// Parse with the default options (RFC 9309, 512,000-byte limit). Never fails: whatever
    /// cannot be read is reported in [`Robots::diagnostics`].
    pub fn parse(bytes: &[u8]) -> Robots {
        Robots::parse_with(bytes, &ParseOptions::default())
    }

    /// Parse with the given options.
    pub fn parse_with(bytes: &[u8], options: &ParseOptions) -> Robots {
        let inner = model::RobotsTxt::parse(bytes, options.profile, options.parse_limit);
        Robots {
            inner: Arc::new(inner),
        }
    }

    /// A parsed file already shared elsewhere (the client's cache).
    #[cfg(feature = "fetch")]
    pub(crate) fn from_model(inner: Arc<model::RobotsTxt>) -> Robots {
        Robots { inner }
    }

    /// The profile the file was read under.
    pub fn profile(&self) -> Profile {
        self.inner.profile()
    }

    /// Choose and compile the groups for crawler `name` once, as an owned handle that shares
    /// this file: `'static`, `Send + Sync`, cheap to clone; keep it next to the file in a
    /// cache.
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /x\n");
    /// let crawler = robots.crawler("ExampleBot")?;
    /// let handle = std::thread::spawn(move || crawler.is_allowed("/x"));
    /// assert_eq!(handle.join().unwrap(), Ok(false));
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// In the `rfc9309` profile, a name that is not a product token (letters, digits, `_`,
    /// `-`); the error suggests the token the name starts with.
    pub fn crawler(&self, name: &str) -> Result<Crawler, InvalidAgent> {
        Crawler::new(Arc::clone(&self.inner), name)
    }

    /// May crawler `agent` fetch `url` (absolute, or a path starting with `/`)?
    ///
    /// # Errors
    /// As [`Robots::crawler`]; and a URL the profile cannot read (in `rfc9309` and
    /// `legacy1994`, neither an absolute URL with a host nor a path starting with `/`).
    pub fn is_allowed(&self, agent: &str, url: &str) -> Result<bool, Error> {
        self.inner.is_allowed(agent, url)
    }

    /// Why `url` is allowed or not for `agent`: the groups chosen, every matching rule, the
    /// deciding rule and its line.
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /a\nallow: /a/b\n");
    /// let why = robots.explain("ExampleBot", "/a/b/c")?;
    /// assert!(why.allowed);
    /// assert_eq!(why.decided_by.map(|r| r.line), Some(3));
    /// assert_eq!(why.matches.len(), 2);
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Robots::is_allowed`].
    pub fn explain(&self, agent: &str, url: &str) -> Result<Explanation, Error> {
        self.inner.explain(agent, url)
    }

    /// Every `Sitemap:` URL in the file, as written (RFC 9309 §2.2.4).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> {
        self.inner.sitemaps()
    }

    /// Every `Sitemap:` URL in the file resolved against the robots.txt URL `base` (a
    /// relative `/sitemap.xml` becomes `https://example.com/sitemap.xml`); a value that cannot
    /// be resolved is left as written.
    pub fn sitemaps_from(&self, base: &str) -> Vec<String> {
        self.sitemaps()
            .map(|s| robotrules_url::resolve(base, s).unwrap_or_else(|| s.to_owned()))
            .collect()
    }

    /// The crawl delay for `agent`, from its groups' first valid `crawl-delay` record.
    ///
    /// # Errors
    /// As [`Robots::crawler`].
    pub fn crawl_delay(&self, agent: &str) -> Result<Option<std::time::Duration>, InvalidAgent> {
        Ok(self.crawler(agent)?.crawl_delay())
    }

    /// The request rate for `agent`, from its groups' first valid `request-rate` record.
    ///
    /// # Errors
    /// As [`Robots::crawler`].
    pub fn request_rate(&self, agent: &str) -> Result<Option<model::RequestRate>, InvalidAgent> {
        Ok(self.crawler(agent)?.request_rate())
    }

    /// What the parser found: skipped bytes, ignored lines, lenient readings — each with its
    /// byte span and line.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.inner.diagnostics()
    }

    /// The full model, for groups, rules and records.
    pub fn model(&self) -> &model::RobotsTxt {
        &self.inner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn robots_is_shareable() {
        assert_send_sync::<Robots>();
        assert_send_sync::<model::RobotsTxt>();
        let robots = Robots::parse(b"user-agent: *\ndisallow: /\n");
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let r = robots.clone();
                std::thread::spawn(move || r.is_allowed("Bot", "/x").unwrap())
            })
            .collect();
        for h in handles {
            assert!(!h.join().unwrap());
        }
    }

    #[test]
    fn diagnostics_come_back_with_spans() {
        let robots = Robots::parse(b"disallow: /x\nuser-agent: *\ndissallow: /y\n");
        let codes: Vec<_> = robots
            .diagnostics()
            .iter()
            .map(|d| (d.code(), d.line))
            .collect();
        assert_eq!(codes, [("rule-outside-group", 1), ("misspelt-key", 3)]);
        assert_eq!(robots.diagnostics()[1].span, Span::new(27, 36));
    }
}

/// The crate README's example, run as a doctest so it stays true (the repository README's
/// examples are doctests of `robotrules-conformance`, which is not published).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
