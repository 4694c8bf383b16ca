//! The meaning of a robots.txt file: groups, user-agent selection, merging, allow/disallow
//! precedence, the `*`/`$` matcher, sitemaps, extension records and explain — under one of
//! three [`Profile`]s (RFC 9309, Google's reference library, the 1994 convention).
//!
//! [`RobotsTxt::parse`] reads bytes once into a compact, immutable value of plain data
//! (`Send + Sync`); [`Crawler::new`] chooses a crawler's groups and compiles their rules once;
//! [`Crawler::is_allowed`] then answers for any number of URLs without allocating (beyond
//! re-encoding a URL that is not in canonical form, in the profiles that normalise).
//!
//! ```
//! use std::sync::Arc;
//! use robotrules_model::{Crawler, Profile, RobotsTxt};
//!
//! let robots = RobotsTxt::parse(b"user-agent: *\ndisallow: /private\n", Profile::Rfc9309, 512_000);
//! let crawler = Crawler::new(Arc::new(robots), "ExampleBot")?;
//! assert!(!crawler.is_allowed("https://example.com/private/x")?);
//! assert!(crawler.is_allowed("/public")?);
//! # Ok::<(), robotrules_model::Error>(())
//! ```
//!
//! What each profile decides is one table, [`Profile::reading`]; nothing else in the
//! workspace branches on a profile's name.

mod account;
pub mod agents;
mod build;
mod compare;
mod compile;
mod contradiction;
mod crawler;
mod deadline;
mod diagnostic;
mod error;
mod explain;
mod extension;
mod matcher;
mod pattern;
mod profile;
mod robots;
mod text;
mod usage;
mod user_agent;

#[cfg(test)]
mod first_check;
#[cfg(test)]
mod test_rng;

pub use account::precedence_sentence;
pub use compare::{differences, Compared, Decided, Difference, Side};
pub use compile::{GroupRules, Rule};
pub use contradiction::{Contradiction, ContradictionKind};
pub use crawler::{Crawler, Reason, Selection, Verdict};
pub use deadline::{Deadline, Expired};
pub use diagnostic::{Diagnostic, DiagnosticKind};
pub use error::{Error, InvalidAgent, InvalidUrl};
pub use explain::{Explanation, GroupRef, RuleMatch};
pub use extension::{Extension, ExtensionKey, RequestRate};
pub use pattern::RuleKind;
pub use profile::{
    AgentListEnd, AgentToken, CachePreset, CrawlerNames, FileWideSignal, GroupMerge, KeySpellings,
    PatternEncoding, Precedence, Profile, Reading, SlashlessPattern, UnknownProfile, UrlReading,
    GOOGLE_MAX_LINE_LEN,
};
pub use robotrules_grammar::{DictionaryError, Member, MemberValue, Severity, Span};
pub use robotrules_url::{Target, UrlError};
pub use robots::{Group, RobotsTxt, UserAgent};
pub use usage::{
    CategoryUsage, CombinedUsage, Outcome, SharedCategory, Usage, UsageStatement, Vocabulary,
    VocabularyUsage,
};
pub use user_agent::{
    any_crawler_label, crawler_token, is_any_crawler, is_browser_product, looks_like_url,
    suggested_token, ANY_CRAWLER, ANY_CRAWLER_LABEL, BROWSER_PRODUCTS,
};

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
