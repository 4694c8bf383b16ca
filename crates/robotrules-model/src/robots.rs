//! The parsed file: groups of user-agents, rules and extension records, sitemaps, findings.
//!
//! Plain data, immutable once built: every value the file gives (a rule's pattern, a
//! user-agent, a sitemap URL, an extension's key and value) is a range of one byte buffer,
//! and each line is a small fixed-size record. Nothing is compiled or cached here: a
//! crawler's compiled rules live with its [`crate::Crawler`], and [`Group::rules`] compiles a
//! group on request.

use std::borrow::Cow;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::extension::{Extension, ExtensionKey, Record, RecordKind};
use crate::pattern::RuleKind;
use crate::profile::Profile;
use crate::text::Text;

/// A parsed robots.txt file under one profile. Immutable, `Send + Sync`; share it behind an
/// `Arc` (a [`crate::Crawler`] does).
#[derive(Clone, Debug)]
pub struct RobotsTxt {
    pub(crate) profile: Profile,
    pub(crate) bytes_read: usize,
    /// Every pattern, user-agent, sitemap URL, extension key and value as written, back to
    /// back (sitemaps and extensions made valid UTF-8).
    pub(crate) text: Box<[u8]>,
    pub(crate) groups: Box<[Group]>,
    pub(crate) agents: Box<[UserAgent]>,
    /// Allow and disallow lines as written, each group's together, in file order.
    pub(crate) rule_lines: Box<[RuleLine]>,
    /// Sitemaps and extension records, in file order.
    pub(crate) records: Box<[Record]>,
    pub(crate) diagnostics: Box<[Diagnostic]>,
}

/// An allow or disallow line as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RuleLine {
    pub(crate) line: u32,
    pub(crate) value: Text,
    /// The kind the profile reads (an empty `disallow:` is an allow under the 1994 reading).
    pub(crate) kind: RuleKind,
}

/// A group: user-agent lines and the rules and records that follow them (RFC 9309 §2.1); in
/// the `legacy1994` profile, a record ended by a blank line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Line of the group's first user-agent line.
    pub line: u32,
    /// The group's position among the file's groups.
    pub(crate) index: u32,
    pub(crate) agents: Range<u32>,
    /// Its lines in [`RobotsTxt::rule_lines`].
    pub(crate) rules: Range<u32>,
}

/// One user-agent line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserAgent {
    /// 1-based line number.
    pub line: u32,
    /// Whether the line names every crawler (`*`).
    pub global: bool,
    pub(crate) group: u32,
    pub(crate) value: Text,
    /// The token as written is the first `token_len` bytes of `value` (see
    /// [`crate::AgentToken`]).
    pub(crate) token_len: u32,
}

impl RobotsTxt {
    /// The profile the file was read under.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The groups, in file order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every sitemap URL, in file order, as written (RFC 9309 §2.2.4).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> {
        self.sitemap_lines().map(|(_, url)| url)
    }

    /// Sitemap URLs with their line numbers. A `Sitemap:` line without a value names no URL
    /// and is skipped (robots-parser does the same); [`RobotsTxt::sitemap_records`] has it.
    pub fn sitemap_lines(&self) -> impl Iterator<Item = (u32, &str)> {
        self.sitemap_records().filter(|(_, url)| !url.is_empty())
    }

    /// Every `Sitemap:` record with its line number, those without a value too (for lint,
    /// which reports them).
    pub fn sitemap_records(&self) -> impl Iterator<Item = (u32, &str)> {
        self.records
            .iter()
            .filter(|r| r.kind == RecordKind::Sitemap)
            .map(|r| (r.line, r.value(&self.text)))
    }

    /// Every `License:` URL in the file with its line, as written (RSL 1.0; file-wide like a
    /// sitemap, wherever it stands). A line without a value is skipped.
    pub fn licenses(&self) -> impl Iterator<Item = (u32, &str)> {
        self.url_records(ExtensionKey::License)
    }

    /// Every `LLM-Policy:` URL in the file with its line, as written (file-wide like a
    /// sitemap, wherever it stands). A line without a value is skipped.
    pub fn llm_policies(&self) -> impl Iterator<Item = (u32, &str)> {
        self.url_records(ExtensionKey::LlmPolicy)
    }

    /// Every `Content-Signal:` line outside any group with its line, value as written: the
    /// file-wide signals, which apply to every crawler as the profile's
    /// [`FileWideSignal`](crate::FileWideSignal) says.
    pub fn file_signals(&self) -> impl Iterator<Item = (u32, &str)> {
        self.records
            .iter()
            .filter(|r| {
                r.group == Record::FILE
                    && r.kind == RecordKind::Extension(ExtensionKey::ContentSignal)
            })
            .map(|r| (r.line, r.value(&self.text)))
    }

    /// Whether the file has a record of `key` anywhere, in a group or outside one, whatever its
    /// value (without making an [`Extension`] of each record, as the groups' lists do).
    ///
    /// ```
    /// use robotrules_model::{ExtensionKey, Profile, RobotsTxt};
    ///
    /// let robots = RobotsTxt::parse(b"user-agent: *\ncontent-usage: train-ai=n\n", Profile::Rfc9309, 512_000);
    /// assert!(robots.has_record(ExtensionKey::ContentUsage));
    /// assert!(!robots.has_record(ExtensionKey::ContentSignal));
    /// ```
    pub fn has_record(&self, key: ExtensionKey) -> bool {
        self.records
            .iter()
            .any(|r| r.kind == RecordKind::Extension(key))
    }

    /// The non-empty values of the records of kind `key`, with their lines.
    fn url_records(&self, key: ExtensionKey) -> impl Iterator<Item = (u32, &str)> {
        self.records
            .iter()
            .filter(move |r| r.kind == RecordKind::Extension(key))
            .map(|r| (r.line, r.value(&self.text)))
            .filter(|(_, url)| !url.is_empty())
    }

    /// Extension records outside any group (or file-wide ones such as `host`).
    pub fn file_extensions(&self) -> Vec<Extension> {
        self.extensions_of(Record::FILE)
    }

    /// Every finding, grammar's and model's, in input order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// How many bytes of the input were read (the rest was past the parse limit).
    pub fn bytes_read(&self) -> usize {
        self.bytes_read
    }

    /// Approximate heap bytes held by this value. A crawler's compiled rules are counted by
    /// [`crate::Crawler::heap_size`].
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        self.text.len()
            + self.groups.len() * size_of::<Group>()
            + self.agents.len() * size_of::<UserAgent>()
            + self.rule_lines.len() * size_of::<RuleLine>()
            + self.records.len() * size_of::<Record>()
            + self.diagnostics.len() * size_of::<Diagnostic>()
    }

    pub(crate) fn text(&self, text: Text) -> &[u8] {
        text.get(&self.text)
    }

    /// The raw rule lines of a group.
    pub(crate) fn rule_lines_of(&self, group: &Group) -> &[RuleLine] {
        self.rule_lines.get(range(&group.rules)).unwrap_or_default()
    }

    /// The extension records of group `group` (or [`Record::FILE`]), in file order.
    pub(crate) fn extensions_of(&self, group: u32) -> Vec<Extension> {
        self.records
            .iter()
            .filter(|r| r.group == group)
            .filter_map(|r| r.extension(&self.text))
            .collect()
    }
}

impl Group {
    /// The group's user-agent lines.
    pub fn agents<'a>(&self, robots: &'a RobotsTxt) -> &'a [UserAgent] {
        robots.agents.get(range(&self.agents)).unwrap_or_default()
    }

    /// The group's position among the file's groups.
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// Whether the group has allow or disallow lines.
    pub fn has_rules(&self) -> bool {
        !self.rules.is_empty()
    }

    /// The group's extension records (crawl-delay, …), in file order.
    pub fn extensions(&self, robots: &RobotsTxt) -> Vec<Extension> {
        robots.extensions_of(self.index)
    }

    /// Whether one of the group's user-agent lines is `*`.
    pub fn is_global(&self, robots: &RobotsTxt) -> bool {
        self.agents(robots).iter().any(|a| a.global)
    }
}

pub(crate) fn range(r: &Range<u32>) -> Range<usize> {
    r.start as usize..r.end as usize
}

impl UserAgent {
    /// The value as written.
    pub fn value<'a>(&self, robots: &'a RobotsTxt) -> Cow<'a, str> {
        String::from_utf8_lossy(robots.text(self.value))
    }

    /// The token the value was read as, as written (`*` for global lines): `MJ12bot` from
    /// `MJ12bot/1.2` under `rfc9309`, `MJ` under `google`.
    pub fn token<'a>(&self, robots: &'a RobotsTxt) -> Cow<'a, str> {
        if self.global {
            return Cow::Borrowed("*");
        }
        String::from_utf8_lossy(self.token_bytes(robots))
    }

    /// The token's bytes (empty for global lines).
    pub(crate) fn token_bytes<'a>(&self, robots: &'a RobotsTxt) -> &'a [u8] {
        robots.text(Text {
            start: self.value.start,
            len: self.token_len,
        })
    }
}
