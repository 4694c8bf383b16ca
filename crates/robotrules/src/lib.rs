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
//! For many URLs of one crawler, resolve its groups once with [`Robots::crawler`]: an owned
//! [`Crawler`] (`Send + Sync`, cheap to clone) with the crawler's crawl delay and request rate.
//!
//! ```
//! use std::time::Duration;
//! use robotrules::{Crawler, ParseOptions, Profile, Robots};
//!
//! let options = ParseOptions::new().with_profile(Profile::Google);
//! let robots = Robots::parse_with(b"user-agent: foobot\ndisallow: /*.gif$\ncrawl-delay: 5\n", &options);
//! let foobot: Crawler = robots.crawler("FooBot")?;
//! assert!(!foobot.is_allowed("https://example.com/a/b.gif")?);
//! assert!(foobot.is_allowed("https://example.com/a/b.gif?size=2")?);
//! assert_eq!(foobot.crawl_delay(), Some(Duration::from_secs(5)));
//! # Ok::<(), robotrules::Error>(())
//! ```
//!
//! [`Robots::explain`] and [`Crawler::explain`] say which line decided and why. The layers
//! (`robotrules-grammar`, `robotrules-url`, `robotrules-model`, `robotrules-fetch`,
//! `robotrules-lint`) are published on their own, each with its own API, for those who need
//! more than this crate holds.
//!
//! ## Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `fetch` | off | `client::Client`: fetching (HTTP, HTTPS, FTP) and caching robots.txt end to end (tokio, reqwest) |
//! | `lint` | on | [`lint()`](crate::lint()): site-owner lints with stable codes |
//! | `serde` | with `fetch` | `Serialize` for explanations, diagnostics and decisions |
//!
//! [`status`] reads an HTTP status as RFC 9309 §2.3.1 does, in every build, for crawlers that
//! fetch robots.txt with their own HTTP client.
//!
//! Parsing needs no runtime: by default the crate pulls in neither tokio, reqwest, hyper nor
//! rustls. The client is opt-in (`features = ["fetch"]`; before, `fetch` was a default
//! feature). With `default-features = false`, neither annotate-snippets nor serde_json.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

mod agent;
#[cfg(feature = "fetch")]
pub mod client;
mod cut;
mod decision;
mod group;
mod lines;
pub mod reading;
pub mod status;
pub mod usage;

pub use agent::{crawler_name_for, name_reading, NameReading};
use usage::{Contradiction, Usage, UsageStatement};

pub use cut::Cut;
pub use decision::{DecidingRule, Decision};
pub use group::{Group, Rule};
pub use lines::line_spans;

use robotrules_model as model;

pub use robotrules_grammar::DEFAULT_PARSE_LIMIT;
#[cfg(feature = "lint")]
pub use robotrules_lint::{Finding, LintReport};
pub use robotrules_model::{
    any_crawler_label, Diagnostic, Error, Explanation, Extension, ExtensionKey, GroupRef,
    InvalidAgent, InvalidUrl, Profile, Reason, RequestRate, RuleKind, RuleMatch, Selection,
    Severity, Span, UnknownProfile,
};
pub use robotrules_model::{crawler_token, is_browser_product};

/// How to read a robots.txt file: the profile, and the parse limit (RFC 9309 §2.5). A
/// builder: start from [`ParseOptions::new`] (or `default()`) and change what you need.
///
/// ```
/// use robotrules::{ParseOptions, Profile};
///
/// let options = ParseOptions::new().with_profile(Profile::Google);
/// assert_eq!((options.profile(), options.parse_limit()), (Profile::Google, 512_000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    profile: Profile,
    parse_limit: usize,
}

impl ParseOptions {
    /// The defaults: [`Profile::Rfc9309`], and [`DEFAULT_PARSE_LIMIT`] (512,000 bytes).
    pub const fn new() -> ParseOptions {
        ParseOptions {
            profile: Profile::Rfc9309,
            parse_limit: DEFAULT_PARSE_LIMIT,
        }
    }

    /// These options with the reading `profile`.
    #[must_use]
    pub const fn with_profile(mut self, profile: Profile) -> ParseOptions {
        self.profile = profile;
        self
    }

    /// These options with bytes past `parse_limit` ignored and reported (RFC 9309 §2.5 asks
    /// for at least 500 KiB).
    #[must_use]
    pub const fn with_parse_limit(mut self, parse_limit: usize) -> ParseOptions {
        self.parse_limit = parse_limit;
        self
    }

    /// The reading to apply.
    pub const fn profile(&self) -> Profile {
        self.profile
    }

    /// How many bytes are read at most.
    pub const fn parse_limit(&self) -> usize {
        self.parse_limit
    }
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions::new()
    }
}

#[cfg(feature = "lint")]
/// Lint `bytes` for `options.profile`: every finding with its stable code, severity, span,
/// line, column, message and help, at most 100 of them (the rest counted). The
/// `robotrules-lint` crate has more options (levels, the robots.txt URL) and renders the
/// report rustc-style, as JSON or as SARIF.
///
/// ```
/// let report = robotrules::lint(b"user-agent: *\ndissallow: /x\n", &Default::default());
/// assert_eq!(report.findings[0].code.as_str(), "misspelt-key");
/// ```
pub fn lint(bytes: &[u8], options: &ParseOptions) -> LintReport {
    let options = robotrules_lint::LintOptions {
        profile: options.profile,
        parse_limit: options.parse_limit,
        ..robotrules_lint::LintOptions::default()
    };
    robotrules_lint::lint(bytes, &options)
}

/// A parsed robots.txt file. Cheap to clone (an `Arc`), `Send + Sync`.
///
/// The questions that name a crawler (`is_allowed(agent, url)`, `explain`, `crawl_delay`, …)
/// keep the last few crawlers' compiled rules, shared by the clones, so asking again for the
/// same crawler does not compile its groups again; [`Robots::crawler`] hands out that
/// handle to keep.
#[derive(Clone, Debug)]
pub struct Robots {
    inner: Arc<model::RobotsTxt>,
    recent: Arc<Recent>,
}

/// The crawlers a [`Robots`] was last asked about, most recent first, in a fixed array: the
/// first crawler asked for allocates no list.
#[derive(Debug, Default)]
struct Recent(Mutex<[Option<model::Crawler>; Recent::KEPT]>);

impl Recent {
    /// How many crawlers are kept.
    const KEPT: usize = 8;

    /// Crawler `name` of `robots`, compiled now unless it is among the recent ones.
    fn crawler(
        &self,
        robots: &Arc<model::RobotsTxt>,
        name: &str,
    ) -> Result<model::Crawler, InvalidAgent> {
        if let Some(found) = self.with(|recent| {
            let at = Self::position(recent, name)?;
            // To the front, the ones before it one place back.
            recent[..=at].rotate_right(1);
            recent[0].clone()
        }) {
            return Ok(found);
        }
        // Compiled outside the lock: another thread may compile the same crawler meanwhile,
        // which costs time, never a wrong answer.
        let made = model::Crawler::new(Arc::clone(robots), name)?;
        self.with(|recent| {
            // In front, in place of the same crawler made meanwhile, or of the oldest.
            let at = Self::position(recent, name).unwrap_or(Self::KEPT - 1);
            recent[..=at].rotate_right(1);
            recent[0] = Some(made.clone());
        });
        Ok(made)
    }

    /// Where crawler `name` is in `recent`.
    fn position(recent: &[Option<model::Crawler>], name: &str) -> Option<usize> {
        recent
            .iter()
            .position(|c| c.as_ref().is_some_and(|c| c.name() == name))
    }

    fn with<T>(&self, f: impl FnOnce(&mut [Option<model::Crawler>; Self::KEPT]) -> T) -> T {
        // A panic elsewhere while the lock was held leaves a list that is still valid.
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// How many crawlers are kept now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.with(|recent| recent.iter().flatten().count())
    }
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
        Robots::from_model(Arc::new(inner))
    }

    /// A parsed file already shared elsewhere (the client's cache).
    pub(crate) fn from_model(inner: Arc<model::RobotsTxt>) -> Robots {
        Robots {
            inner,
            recent: Arc::default(),
        }
    }

    /// Whether `a` and `b` are one parsed file, shared: clones of one `Robots`, or the
    /// client's answers from one fetched copy (parsed once).
    pub fn ptr_eq(a: &Robots, b: &Robots) -> bool {
        Arc::ptr_eq(&a.inner, &b.inner)
    }

    /// The profile the file was read under.
    pub fn profile(&self) -> Profile {
        self.inner.profile()
    }

    /// The model's parsed file behind this one (shared, not copied), for the layers' own APIs:
    /// `robotrules-diff` compares two of them.
    pub fn model(&self) -> &Arc<model::RobotsTxt> {
        &self.inner
    }

    /// Choose the groups for crawler `name` once, as an owned handle that shares this file
    /// (its first check tries the rules as it reads them; its second compiles them, once):
    /// `'static`, `Send + Sync`, cheap to clone; keep it next to the file in a cache.
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
        self.recent
            .crawler(&self.inner, name)
            .map(|inner| Crawler { inner })
    }

    /// The crawler that a foreign library's user-agent argument or a User-Agent header stands
    /// for ([`crawler_name_for`]: its token, else `*`). Never fails: every name that policy
    /// gives is one the profile answers for.
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: examplebot\ndisallow: /\n");
    /// let crawler = robots.crawler_for("Mozilla/5.0 (compatible; ExampleBot/1.0)");
    /// assert_eq!(crawler.name(), "ExampleBot");
    /// assert!(!crawler.is_allowed("/x")?);
    /// assert_eq!(robots.crawler_for("").name(), "*");
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    pub fn crawler_for(&self, user_agent: &str) -> Crawler {
        let name = crawler_name_for(user_agent, self.profile());
        self.crawler(&name)
            .or_else(|_| self.crawler(robotrules_model::ANY_CRAWLER))
            .expect("`*` is a crawler name every profile answers for")
    }

    /// What this file's profile reads of crawler name `name` when a group can never name it
    /// as it is ([`name_reading`]), with the groups the name gets here and those the token to
    /// pass gets.
    pub fn name_reading(&self, name: &str) -> Option<NameReading> {
        Some(name_reading(self.profile(), name)?.in_file(|name| self.group_lines(name).ok()))
    }

    /// How the groups of crawler `name` are chosen, and the line of each group's first
    /// user-agent line, without compiling the crawler's rules.
    ///
    /// ```
    /// use robotrules::Selection;
    ///
    /// let file = b"user-agent: *\ndisallow: /\n\nuser-agent: a\nallow: /\n";
    /// let robots = robotrules::Robots::parse(file);
    /// assert_eq!(robots.group_lines("a")?, (Selection::Exact, vec![4]));
    /// assert_eq!(robots.group_lines("b")?, (Selection::Global, vec![1]));
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Robots::crawler`].
    pub fn group_lines(&self, name: &str) -> Result<(Selection, Vec<u32>), InvalidAgent> {
        group::group_lines(&self.inner, name)
    }

    /// The line of the first user-agent line of the file's group at position `group` (as
    /// [`UsageStatement::group`] counts the file's groups), none past the last group.
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: a\nallow: /\n\nuser-agent: b\ncontent-usage: train-ai=n\n");
    /// let b = robots.crawler("b")?;
    /// let statement = &b.usage_statements()[0];
    /// assert_eq!(statement.group.and_then(|g| robots.group_line(g)), Some(4));
    /// assert_eq!(robots.group_line(2), None);
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    pub fn group_line(&self, group: usize) -> Option<u32> {
        self.inner.groups().get(group).map(|g| g.line)
    }

    /// May crawler `agent` fetch `url` (absolute, or a path starting with `/`)?
    ///
    /// # Errors
    /// As [`Robots::crawler`]; and a URL the profile cannot read (in `rfc9309` and
    /// `legacy1994`, neither an absolute URL with a host nor a path starting with `/`).
    pub fn is_allowed(&self, agent: &str, url: &str) -> Result<bool, Error> {
        Ok(self.crawler(agent)?.is_allowed(url)?)
    }

    /// May crawler `agent` fetch `url`, why, and which rule decided: [`Crawler::decide`].
    ///
    /// # Errors
    /// As [`Robots::is_allowed`].
    pub fn decide(&self, agent: &str, url: &str) -> Result<Decision, Error> {
        Ok(self.crawler(agent)?.decide(url)?)
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
        Ok(self.crawler(agent)?.explain(url)?)
    }

    /// Every `Sitemap:` URL in the file, as written (RFC 9309 §2.2.4).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> {
        self.inner.sitemaps()
    }

    /// Every `Sitemap:` URL in the file resolved against the robots.txt URL `base` (a
    /// relative `/sitemap.xml` becomes `https://example.com/sitemap.xml`); a value that cannot
    /// be resolved is left as written.
    pub fn sitemaps_from(&self, base: &str) -> Vec<String> {
        resolve_all(base, self.sitemaps())
    }

    /// The AI usage preferences of `url` for `agent`: [`Crawler::usage`].
    ///
    /// # Errors
    /// As [`Robots::is_allowed`].
    pub fn usage(&self, agent: &str, url: &str) -> Result<Usage, Error> {
        Ok(self.crawler(agent)?.usage(url)?)
    }

    /// Every `License:` URL in the file with its line, as written (RSL 1.0; file-wide like a
    /// sitemap, wherever it stands).
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: *\nLicense: /license.xml\nLLM-Policy: https://example.com/llm.txt\n");
    /// assert_eq!(robots.licenses().collect::<Vec<_>>(), [(2, "/license.xml")]);
    /// assert_eq!(robots.licenses_from("https://example.com/robots.txt"), ["https://example.com/license.xml"]);
    /// assert_eq!(robots.llm_policies().collect::<Vec<_>>(), [(3, "https://example.com/llm.txt")]);
    /// ```
    pub fn licenses(&self) -> impl Iterator<Item = (u32, &str)> {
        self.inner.licenses()
    }

    /// Every `License:` URL resolved against the robots.txt URL `base`, as
    /// [`Robots::sitemaps_from`] resolves sitemaps.
    pub fn licenses_from(&self, base: &str) -> Vec<String> {
        resolve_all(base, self.licenses().map(|(_, url)| url))
    }

    /// Every `LLM-Policy:` URL in the file with its line, as written (file-wide like a
    /// sitemap, wherever it stands).
    pub fn llm_policies(&self) -> impl Iterator<Item = (u32, &str)> {
        self.inner.llm_policies()
    }

    /// Every `LLM-Policy:` URL resolved against the robots.txt URL `base`, as
    /// [`Robots::sitemaps_from`] resolves sitemaps.
    pub fn llm_policies_from(&self, base: &str) -> Vec<String> {
        resolve_all(base, self.llm_policies().map(|(_, url)| url))
    }

    /// Every `Content-Signal:` line outside any group with its line, value as written: the
    /// file-wide signals, which speak to every crawler as the profile's [`FileWideSignal`](crate::reading::FileWideSignal)
    /// says (each crawler's [`Crawler::usage_statements`] include them).
    pub fn file_signals(&self) -> impl Iterator<Item = (u32, &str)> {
        self.inner.file_signals()
    }

    /// The crawl delay for `agent`, from its groups' first valid `crawl-delay` record.
    ///
    /// # Errors
    /// As [`Robots::crawler`].
    pub fn crawl_delay(&self, agent: &str) -> Result<Option<Duration>, InvalidAgent> {
        Ok(self.crawler(agent)?.crawl_delay())
    }

    /// The request rate for `agent`, from its groups' first valid `request-rate` record.
    ///
    /// # Errors
    /// As [`Robots::crawler`].
    pub fn request_rate(&self, agent: &str) -> Result<Option<RequestRate>, InvalidAgent> {
        Ok(self.crawler(agent)?.request_rate())
    }

    /// The extension records that belong to no group, and the file-wide ones wherever they
    /// stand (`host`), in file order, values as written: what the drop-ins for other
    /// libraries read (Protego's `preferred_host`).
    pub fn file_extensions(&self) -> Vec<Extension> {
        self.inner.file_extensions()
    }

    /// What the parser found: skipped bytes, ignored lines, lenient readings — each with its
    /// byte span and line.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.inner.diagnostics()
    }

    /// Where the parse limit cut the file, if it did (RFC 9309 §2.5).
    pub fn cut(&self) -> Option<Cut> {
        Cut::of(self.inner.diagnostics())
    }

    /// How many bytes of the input were read: at most the parse limit
    /// ([`ParseOptions::parse_limit`]; RFC 9309 §2.5), the rest ignored.
    pub fn bytes_read(&self) -> usize {
        self.inner.bytes_read()
    }
}

/// Does the robots.txt at `robots_txt_url` govern `url` (RFC 9309 §2.3)? Only URLs of its
/// scheme, host and port (a default port equals the elided one, an IDN its punycode form), and
/// only when the file is `/robots.txt` at the root: one in a subfolder governs nothing. A path
/// (`/a?b`) is of the file's own origin, so a root robots.txt governs it.
///
/// ```
/// use robotrules::governs;
///
/// assert!(governs("https://example.com/robots.txt", "https://EXAMPLE.com:443/a")?);
/// assert!(governs("https://example.com/robots.txt", "/a")?);
/// assert!(!governs("https://example.com/robots.txt", "https://www.example.com/a")?);
/// assert!(!governs("https://example.com/folder/robots.txt", "/folder/a")?);
/// assert!(governs("https://example.com/robots.txt", "example.com/a").is_err());
/// # Ok::<(), robotrules::InvalidUrl>(())
/// ```
///
/// # Errors
/// Either URL when it cannot be read as an absolute URL with a host (`url` may also be a path
/// starting with `/`).
pub fn governs(robots_txt_url: &str, url: &str) -> Result<bool, InvalidUrl> {
    let origin = robotrules_url::robots_txt_origin(robots_txt_url)
        .map_err(|source| InvalidUrl::new(robots_txt_url, source))?;
    if url.starts_with('/') {
        return Ok(origin.is_some());
    }
    let target =
        robotrules_url::Origin::parse(url).map_err(|source| InvalidUrl::new(url, source))?;
    Ok(origin.is_some_and(|origin| origin == target))
}

/// The pieces of `text` between its NULs (`text.split('\0')`, with memchr's SIMD search).
fn nul_pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(0, text.as_bytes())
        .chain([text.len()])
        .map(move |end| {
            // NUL is ASCII: `start` and `end` are character boundaries.
            let piece = text.get(start..end).unwrap_or_default();
            start = end + 1;
            piece
        })
}

/// `urls` resolved against `base`; a value that cannot be resolved is left as written.
fn resolve_all<'a>(base: &str, urls: impl Iterator<Item = &'a str>) -> Vec<String> {
    urls.map(|u| robotrules_url::resolve(base, u).unwrap_or_else(|| u.to_owned()))
        .collect()
}

/// One crawler's rules in a parsed file ([`Robots::crawler`]): its groups resolved once, to
/// ask about many URLs. Owned, `Send + Sync`, cheap to clone (it shares the file).
///
/// ```
/// use std::time::Duration;
///
/// let robots = robotrules::Robots::parse(b"
/// User-agent: ExampleBot
/// Disallow: /private/
/// Crawl-delay: 2.5
/// Request-rate: 1/10s
/// Sitemap: https://example.com/sitemap.xml
/// ");
/// let bot = robots.crawler("ExampleBot")?;
/// assert!(!bot.is_allowed("/private/x")?);
/// assert_eq!(bot.explain("/private/x")?.decided_by.map(|rule| rule.line), Some(3));
/// assert_eq!(bot.crawl_delay(), Some(Duration::from_millis(2500)));
/// assert_eq!(bot.request_rate().map(|rate| rate.to_string()).as_deref(), Some("1 request per 10 seconds"));
/// assert_eq!(bot.sitemaps().collect::<Vec<_>>(), ["https://example.com/sitemap.xml"]);
/// # Ok::<(), robotrules::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Crawler {
    inner: model::Crawler,
}

impl Crawler {
    /// A crawler already resolved elsewhere (the client's entries).
    #[cfg(feature = "fetch")]
    pub(crate) fn from_model(inner: model::Crawler) -> Crawler {
        Crawler { inner }
    }

    /// The crawler's name as given.
    pub fn name(&self) -> &str {
        self.inner.name()
    }

    /// The model's crawler behind this one (shared, not copied), for the layers' own APIs:
    /// its groups and compiled rules, `robotrules_model::differences` between two profiles.
    pub fn model(&self) -> &model::Crawler {
        &self.inner
    }

    /// The parsed file (shared, not copied).
    pub fn robots(&self) -> Robots {
        Robots::from_model(Arc::clone(self.inner.robots()))
    }

    /// How the crawler's groups were chosen: a group names it, the `*` group, or none.
    pub fn selection(&self) -> Selection {
        self.inner.selection()
    }

    /// The crawler's groups, in file order, each with its user-agent values and its rules as
    /// written (in line order; not the rules a profile derives from them).
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: a\nuser-agent: b\ndisallow: /x\n");
    /// let groups = robots.crawler("b")?.groups();
    /// assert_eq!((groups[0].line, groups[0].agents.join(" ")), (1, "a b".to_owned()));
    /// let rule = &groups[0].rules[0];
    /// assert_eq!((rule.line, rule.kind, &*rule.pattern), (3, robotrules::RuleKind::Disallow, "/x"));
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    pub fn groups(&self) -> Vec<Group> {
        group::groups_of(&self.inner)
    }

    /// May the crawler fetch `url` (absolute, or a path starting with `/`)?
    ///
    /// # Errors
    /// A URL the profile cannot read (in `rfc9309` and `legacy1994`, neither an absolute URL
    /// with a host nor a path starting with `/`).
    pub fn is_allowed(&self, url: &str) -> Result<bool, InvalidUrl> {
        self.inner.is_allowed(url)
    }

    /// May the crawler fetch `url`, why, and which rule decided (line, kind, pattern): as
    /// cheap as [`Crawler::is_allowed`] (no allocation for a URL in canonical form; the
    /// deciding rule shares the parsed file).
    ///
    /// # Errors
    /// As [`Crawler::is_allowed`].
    #[inline]
    pub fn decide(&self, url: &str) -> Result<Decision, InvalidUrl> {
        Ok(Decision::of(&self.inner, &self.inner.target(url)?))
    }

    /// [`Crawler::decide`] with the URL's AI usage preferences in [`Decision::usage`]: the
    /// verdict and the usage answer from one reading of the URL.
    ///
    /// ```
    /// use robotrules::usage::{Outcome, Vocabulary};
    ///
    /// let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /a\ncontent-usage: train-ai=n\n");
    /// let decision = robots.crawler("ExampleBot")?.decide_with_usage("/b")?;
    /// let usage = decision.usage.as_deref().expect("asked for");
    /// assert_eq!(usage.outcome(Vocabulary::Aipref, "train-ai"), Outcome::Disallowed);
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Crawler::is_allowed`].
    pub fn decide_with_usage(&self, url: &str) -> Result<Decision, InvalidUrl> {
        let target = self.inner.target(url)?;
        let mut decision = Decision::of(&self.inner, &target);
        decision.usage = Some(Box::new(self.inner.usage(&target)));
        Ok(decision)
    }

    /// May the crawler use `url` for AI training, for search, for AI input, and which line
    /// says so: each vocabulary's categories (AIPREF `train-ai` and `search` from
    /// `Content-Usage`; Cloudflare's `search`, `ai-input` and `ai-train` from
    /// `Content-Signal`; any other label present) as allowed, disallowed or unknown with the
    /// deciding lines, and the combined answer for the categories both name
    /// (draft-ietf-aipref-attach-05 §3.1, draft-ietf-aipref-vocab-07 §5.1). A URL the crawler
    /// may not crawl has no preference ([`Usage::crawlable`] is false). The crawl verdict is
    /// never changed by these lines.
    ///
    /// ```
    /// use robotrules::usage::{Outcome, SharedCategory, Vocabulary};
    ///
    /// let robots = robotrules::Robots::parse(b"
    /// User-Agent: *
    /// Allow: /
    /// Disallow: /never/
    /// Content-Usage: train-ai=n
    /// Content-Usage: /ai-ok/ train-ai=y
    /// Content-Signal: search=yes, ai-train=no
    /// ");
    /// let bot = robots.crawler("ExampleBot")?;
    /// let usage = bot.usage("https://example.com/ai-ok/test")?;
    /// let train = usage.category(Vocabulary::Aipref, "train-ai").expect("always reported");
    /// assert_eq!((train.outcome, train.lines.as_slice()), (Outcome::Allowed, &[6][..]));
    /// assert_eq!(usage.outcome(Vocabulary::ContentSignals, "ai-train"), Outcome::Disallowed);
    /// assert_eq!(usage.combined(SharedCategory::TrainAi), Outcome::Disallowed);
    /// assert_eq!(usage.combined(SharedCategory::Search), Outcome::Allowed);
    /// assert!(!bot.usage("/never/test")?.crawlable);
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Crawler::is_allowed`].
    pub fn usage(&self, url: &str) -> Result<Usage, InvalidUrl> {
        Ok(self.inner.usage(&self.inner.target(url)?))
    }

    /// The statements that speak of `url`, whether the crawler may crawl it or not, in file
    /// order: in each vocabulary those whose path matches it with the most octets, else those
    /// without a path (draft-ietf-aipref-attach-05 §3.1). [`Crawler::usage`] reads exactly
    /// these for a URL the crawler may crawl.
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /x\ncontent-usage: train-ai=n\ncontent-usage: /x/ train-ai=y\n");
    /// let bot = robots.crawler("ExampleBot")?;
    /// let lines = |url| bot.usage_statements_for(url).map(|s| s.iter().map(|s| s.line).collect::<Vec<_>>());
    /// assert_eq!(lines("/a")?, [3]);
    /// assert_eq!(lines("/x/a")?, [4]); // disallowed, and still spoken of
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Crawler::is_allowed`].
    pub fn usage_statements_for(&self, url: &str) -> Result<Vec<&UsageStatement>, InvalidUrl> {
        Ok(self.inner.usage_statements_for(&self.inner.target(url)?))
    }

    /// How the file contradicts itself for this crawler ([`Contradiction`]): it may crawl
    /// nothing, and a statement that speaks to it allows a use; with `search`, also when it
    /// is a search engine's crawler closed out by its own group while the statements for
    /// crawlers no group names allow search. What lint's `usage-contradicts-crawl` says and
    /// the survey's `contradiction` column counts.
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: GPTBot\ndisallow: /\ncontent-signal: ai-train=yes\n");
    /// let found = robots.crawler("GPTBot")?.contradictions(false);
    /// assert_eq!((found[0].statement(), found[0].blocked_by()), (3, 2));
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    pub fn contradictions(&self, search: bool) -> Vec<Contradiction> {
        let mut found = self.inner.usage_contradictions();
        if search {
            found.extend(self.inner.search_contradictions());
        }
        found
    }

    /// The crawler's `Content-Usage` and `Content-Signal` lines, read (path, Dictionary), in
    /// file order: its groups' and the file-wide `Content-Signal` lines.
    pub fn usage_statements(&self) -> &[UsageStatement] {
        self.inner.usage_statements()
    }

    /// Why `url` is allowed or not: the groups chosen, every matching rule, the deciding rule
    /// and its line.
    ///
    /// # Errors
    /// As [`Crawler::is_allowed`].
    pub fn explain(&self, url: &str) -> Result<Explanation, InvalidUrl> {
        self.inner.explain(url)
    }

    /// Why this crawler's `explanation` of a URL and `other`'s explanation of the same URL (the
    /// same file and crawler read under another profile) differ: each cause found, with its
    /// line (none when they agree on the verdict and the deciding line). See
    /// [`reading`].
    pub fn differences(
        &self,
        explanation: &Explanation,
        other: &Crawler,
        other_explanation: &Explanation,
    ) -> Vec<reading::Difference> {
        model::differences(&self.inner, explanation, &other.inner, other_explanation)
    }

    /// The verdict on each of `urls`, in order: [`Crawler::is_allowed`] on each, faster
    /// (a URL on the authority of the URL before is not checked again).
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /private\n");
    /// let bot = robots.crawler("ExampleBot")?;
    /// let urls = ["https://example.com/", "https://example.com/private/a", "/b"];
    /// assert_eq!(bot.allowed_many(urls)?, [true, false, true]);
    /// assert!(bot.allowed_many(["/a", "example.com/b"]).is_err());
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Crawler::is_allowed`], for the first URL it refuses.
    pub fn allowed_many<'u>(
        &self,
        urls: impl IntoIterator<Item = &'u str>,
    ) -> Result<Vec<bool>, InvalidUrl> {
        self.inner.allowed_many(urls)
    }

    /// The verdicts on the `count` URLs of `joined`, their bytes joined with NUL, in order: the
    /// one crossing the Python and JavaScript packages make for many URLs. Valid UTF-8 (the
    /// common case) is checked once for the whole batch and its URLs judged together
    /// ([`Crawler::allowed_many`]); otherwise each URL is read as the profile reads a string,
    /// bad bytes as U+FFFD. `Ok(None)`, before any URL is judged, when `joined` does not hold
    /// exactly `count - 1` NULs (a URL holds a NUL itself, so its pieces are not the URLs: ask
    /// one URL at a time then).
    ///
    /// ```
    /// let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /private\n");
    /// let bot = robots.crawler("ExampleBot")?;
    /// assert_eq!(bot.allowed_joined(b"/\0https://example.com/private/a\0/b", 3)?, Some(vec![true, false, true]));
    /// assert_eq!(bot.allowed_joined(b"/a\0/b", 1)?, None);
    /// assert!(bot.allowed_joined(b"/a\0example.com/b", 2).is_err());
    /// # Ok::<(), robotrules::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Crawler::is_allowed`], for the first URL it refuses.
    pub fn allowed_joined(
        &self,
        joined: &[u8],
        count: usize,
    ) -> Result<Option<Vec<bool>>, InvalidUrl> {
        if count == 0 {
            return Ok(Some(Vec::new()));
        }
        if memchr::memchr_iter(0, joined).count() + 1 != count {
            return Ok(None);
        }
        let verdicts = match std::str::from_utf8(joined) {
            // Valid UTF-8 cut at ASCII NULs: each piece is valid UTF-8 on its own.
            Ok(text) => self.allowed_many(nul_pieces(text))?,
            Err(_) => joined
                .split(|&b| b == 0)
                .map(|url| self.is_allowed(&String::from_utf8_lossy(url)))
                .collect::<Result<_, _>>()?,
        };
        Ok(Some(verdicts))
    }

    /// The crawl delay, from the crawler's groups' first valid `crawl-delay` record.
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.inner.crawl_delay()
    }

    /// The request rate, from the crawler's groups' first valid `request-rate` record.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.inner.request_rate()
    }

    /// The values of the crawler's groups' `visit-time` records, as written.
    pub fn visit_times(&self) -> Vec<String> {
        self.inner.visit_times()
    }

    /// The extension records of the crawler's groups (`crawl-delay`, `request-rate`,
    /// `visit-time`, …), group by group in file order, values as written: for readings other
    /// than [`Crawler::crawl_delay`] and [`Crawler::request_rate`] (a request rate with a
    /// time window, `1/10s 0600-0845`).
    pub fn extensions(&self) -> Vec<Extension> {
        self.inner.extensions()
    }

    /// Every `Sitemap:` URL in the file, as written (sitemaps belong to no group, RFC 9309
    /// §2.2.4).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> {
        self.inner.robots().sitemaps()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn robots_is_shareable() {
        assert_send_sync::<Robots>();
        assert_send_sync::<Crawler>();
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
    fn a_crawler_asked_again_is_not_compiled_again() {
        let robots = Robots::parse(b"user-agent: a\ndisallow: /a\n\nuser-agent: *\ndisallow: /\n");
        let first = robots.crawler("a").unwrap();
        let clone = robots.clone();
        assert!(!clone.is_allowed("a", "/a").unwrap());
        assert!(robots.is_allowed("a", "/b").unwrap());
        // The handle kept is the one made first (one compiled copy, shared).
        let again = robots.crawler("a").unwrap();
        assert!(model::Crawler::ptr_eq(&first.inner, &again.inner));
        // More crawlers than are kept: the oldest is made again, with the same answers.
        for i in 0..2 * Recent::KEPT {
            assert!(!robots.is_allowed(&format!("Bot{i}"), "/x").unwrap());
        }
        assert!(!robots.is_allowed("a", "/a").unwrap());
        assert_eq!(robots.recent.len(), Recent::KEPT);
    }

    #[test]
    fn the_cache_of_recent_crawlers_answers_alike_under_threads() {
        // Twice as many crawlers as are kept, each with its own rules, asked from several
        // threads at once in different orders: every answer must be the one a crawler
        // resolved alone gives, whatever the cache holds or evicts meanwhile.
        let count = 2 * Recent::KEPT;
        let mut file = String::new();
        for i in 0..count {
            file.push_str(&format!("user-agent: bot{i}\ndisallow: /{i}/\n\n"));
        }
        file.push_str("user-agent: *\ndisallow: /\n");
        let robots = Robots::parse(file.as_bytes());
        let names: Vec<String> = (0..=count).map(|i| format!("bot{i}")).collect();
        let paths: Vec<String> = (0..=count).map(|i| format!("/{i}/x")).collect();
        let expected: Vec<Vec<bool>> = names
            .iter()
            .map(|name| {
                let alone = Robots::parse(file.as_bytes()).crawler(name).unwrap();
                paths.iter().map(|p| alone.is_allowed(p).unwrap()).collect()
            })
            .collect();
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let robots = robots.clone();
                let names = names.clone();
                let paths = paths.clone();
                std::thread::spawn(move || {
                    let mut answers = vec![vec![false; paths.len()]; names.len()];
                    for round in 0..50 {
                        for k in 0..names.len() {
                            let n = (k * (t + 1) + round) % names.len();
                            for (p, path) in paths.iter().enumerate() {
                                answers[n][p] = robots.is_allowed(&names[n], path).unwrap();
                            }
                        }
                    }
                    answers
                })
            })
            .collect();
        for thread in threads {
            assert_eq!(thread.join().unwrap(), expected);
        }
        assert!(robots.recent.len() <= Recent::KEPT);
    }

    #[test]
    fn the_pieces_between_nuls_are_split_s() {
        for text in ["", "\0", "/a\0\0/b\0", "/caf\u{e9}\0/\u{fffd}", "/a"] {
            assert_eq!(
                nul_pieces(text).collect::<Vec<_>>(),
                text.split('\0').collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn joined_urls_are_judged_in_order() {
        let robots = Robots::parse(b"user-agent: *\ndisallow: /private\n");
        let bot = robots.crawler("bot").unwrap();
        assert_eq!(bot.allowed_joined(b"", 0), Ok(Some(vec![])));
        // One empty URL is one URL (that the profile cannot read).
        assert!(bot.allowed_joined(b"", 1).is_err());
        // Bytes that are not UTF-8 are read one URL at a time.
        assert_eq!(
            bot.allowed_joined(b"/private/\xff\0/\xfe", 2),
            Ok(Some(vec![false, true]))
        );
        // A URL holding a NUL is not split.
        assert_eq!(bot.allowed_joined(b"/a\0/b\0/c", 2), Ok(None));
        let error = bot.allowed_joined(b"/a\0example.com/b\0c", 3).unwrap_err();
        assert_eq!(error.url, "example.com/b");
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
/// examples are doctests of `robotrules-conformance`, which is not published); it shows the
/// client too, so it runs with the `fetch` feature.
#[cfg(all(doctest, feature = "fetch"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
