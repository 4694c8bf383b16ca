//! The parsed file: groups of user-agents, rules and extension records, sitemaps, findings.
//!
//! The value keeps what parsing found in a compact form: every value the file gives (a rule's
//! pattern, a user-agent, a sitemap URL, an extension's key and value) is a range of one byte
//! buffer, and each line is a small fixed-size record. Patterns are compiled per group, the
//! first time a crawler asks about that group ([`crate::compile`]); extension records become
//! [`Extension`] values the first time they are asked for. Both are kept in [`OnceLock`]s, so
//! the value stays immutable, `Send + Sync`, and gives the same answers whoever asks first.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use crate::agent::AgentIndex;
use crate::compile::Compiled;
use crate::diagnostic::Diagnostic;
use crate::extension::{Extension, Extensions, Record, RecordKind};
use crate::matcher::Probe;
use crate::pattern::{Pattern, RuleKind};
use crate::profile::Profile;

/// A byte range in the value's text buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Text {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Text {
    pub(crate) fn get(self, text: &[u8]) -> &[u8] {
        let start = self.start as usize;
        text.get(start..start + self.len as usize)
            .unwrap_or_default()
    }
}

/// A parsed robots.txt file under one profile. Immutable, `Send + Sync`; share it behind an
/// `Arc` (the facade does).
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
    pub(crate) lazy: Lazy,
}

/// What is worked out only when first asked for.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lazy {
    /// One cell per group for its compiled rules; the cells themselves are made on the first
    /// check.
    pub(crate) compiled: OnceLock<Box<[OnceLock<Box<Compiled>>]>>,
    /// The user-agent lines sorted by token and the `*` groups, for files with many groups.
    pub(crate) agent_index: OnceLock<Box<AgentIndex>>,
    /// The extension records as [`Extension`] values.
    pub(crate) extensions: OnceLock<Box<Extensions>>,
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

/// One allow or disallow rule, compiled under the profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// 1-based line number.
    pub line: u32,
    /// Whether the rule was derived from the line rather than written there (Google's
    /// `index.html` rewrite: `Allow: /d/index.html` also allows `/d/$`).
    pub derived: bool,
    /// The group it belongs to (its compiled bytes live there).
    pub(crate) group: u32,
    pub(crate) value: Text,
    pub(crate) pattern: Pattern,
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

    /// Sitemap URLs with their line numbers.
    pub fn sitemap_lines(&self) -> impl Iterator<Item = (u32, &str)> {
        self.records
            .iter()
            .filter(|r| r.kind == RecordKind::Sitemap)
            .map(|r| (r.line, r.value(&self.text)))
    }

    /// Extension records outside any group (or file-wide ones such as `host`).
    pub fn file_extensions(&self) -> &[Extension] {
        &self.extensions().file
    }

    /// Every finding, grammar's and model's, in input order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// How many bytes of the input were read (the rest was past the parse limit).
    pub fn bytes_read(&self) -> usize {
        self.bytes_read
    }

    /// Approximate heap bytes held by this value, including what was compiled or built since
    /// parsing (a crawler's groups, extension values).
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        let lazy = &self.lazy;
        let compiled = lazy.compiled.get().map_or(0, |cells| {
            cells.len() * size_of::<OnceLock<Box<Compiled>>>()
                + cells
                    .iter()
                    .filter_map(OnceLock::get)
                    .map(|c| c.heap_size())
                    .sum::<usize>()
        });
        self.text.len()
            + self.groups.len() * size_of::<Group>()
            + self.agents.len() * size_of::<UserAgent>()
            + self.rule_lines.len() * size_of::<RuleLine>()
            + self.records.len() * size_of::<Record>()
            + self.diagnostics.len() * size_of::<Diagnostic>()
            + compiled
            + lazy.agent_index.get().map_or(0, |i| i.heap_size())
            + lazy.extensions.get().map_or(0, |e| e.heap_size())
    }

    pub(crate) fn text(&self, text: Text) -> &[u8] {
        text.get(&self.text)
    }

    /// The compiled rules of group `index`, compiled now if no one asked before.
    pub(crate) fn compiled(&self, index: u32) -> Option<&Compiled> {
        let cells = self.lazy.compiled.get_or_init(|| {
            (0..self.groups.len())
                .map(|_| OnceLock::new())
                .collect::<Box<[_]>>()
        });
        let cell = cells.get(index as usize)?;
        Some(cell.get_or_init(|| Box::new(Compiled::new(self, index))))
    }

    /// The extension records as values, made now if no one asked before.
    pub(crate) fn extensions(&self) -> &Extensions {
        self.lazy
            .extensions
            .get_or_init(|| Box::new(Extensions::new(self)))
    }

    /// The raw rule lines of a group.
    pub(crate) fn rule_lines_of(&self, group: &Group) -> &[RuleLine] {
        self.rule_lines.get(range(&group.rules)).unwrap_or_default()
    }
}

impl Group {
    /// The group's user-agent lines.
    pub fn agents<'a>(&self, robots: &'a RobotsTxt) -> &'a [UserAgent] {
        robots.agents.get(range(&self.agents)).unwrap_or_default()
    }

    /// The group's rules, in precedence order (file order in `legacy1994`); in groups of more
    /// than 16 rules, a rule identical to an earlier one comes after all distinct rules.
    /// Compiles the group if no crawler asked about it yet.
    pub fn rules<'a>(&self, robots: &'a RobotsTxt) -> &'a [Rule] {
        robots
            .compiled(self.index)
            .map_or(&[], |c| c.rules.as_ref())
    }

    /// The group's extension records (crawl-delay, …), in file order.
    pub fn extensions<'a>(&self, robots: &'a RobotsTxt) -> &'a [Extension] {
        robots.extensions().of_group(self.index)
    }

    /// The rule that decides for `path` in this group: the first distinct rule, in precedence
    /// order, that matches. Only rules that can match `path` are visited
    /// ([`crate::matcher`]).
    pub(crate) fn first_match<'a>(
        &self,
        robots: &'a RobotsTxt,
        probe: &mut Probe<'_>,
    ) -> Option<&'a Rule> {
        robots.compiled(self.index)?.first_match(probe)
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

impl Rule {
    /// The pattern as written.
    pub fn value<'a>(&self, robots: &'a RobotsTxt) -> Cow<'a, str> {
        String::from_utf8_lossy(robots.text(self.value))
    }

    /// The pattern as the matcher sees it (normalised, without a final `$`).
    pub fn normalized<'a>(&self, robots: &'a RobotsTxt) -> Cow<'a, str> {
        String::from_utf8_lossy(self.pattern_bytes(robots))
    }

    /// The rule's priority under longest-match precedence: the octets of its pattern in the
    /// profile's normalised form, every `*` and `$` counted (RFC 9309 §2.2.2).
    pub fn priority(&self) -> u32 {
        self.pattern.priority
    }

    /// Whether the pattern ends in the `$` end anchor, as the profile reads it (never in
    /// `legacy1994`, where `$` is literal).
    pub fn is_anchored(&self) -> bool {
        self.pattern.anchored
    }

    /// Whether the rule has an empty pattern (it never decides anything).
    pub fn is_empty(&self) -> bool {
        self.pattern.matches_nothing
    }

    fn pattern_bytes<'a>(&self, robots: &'a RobotsTxt) -> &'a [u8] {
        robots
            .compiled(self.group)
            .map_or(&[], |c| self.pattern.bytes(&c.bytes))
    }

    /// Whether the rule matches `path` (in the profile's form), by the pattern's own
    /// definition: the reference the group's matcher is tested against.
    pub(crate) fn matches(&self, robots: &RobotsTxt, path: &[u8]) -> bool {
        self.pattern.matches(self.pattern_bytes(robots), path)
    }
}
