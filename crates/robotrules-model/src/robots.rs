//! The parsed file: groups of user-agents, rules and extension records, sitemaps, findings.

use std::borrow::Cow;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::extension::Extension;
use crate::pattern::{Pattern, RuleKind};
use crate::profile::Profile;

/// A byte range in the value's arena.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Text {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Text {
    pub(crate) fn get(self, arena: &[u8]) -> &[u8] {
        let start = self.start as usize;
        arena
            .get(start..start + self.len as usize)
            .unwrap_or_default()
    }
}

/// A parsed robots.txt file under one profile. Immutable, `Send + Sync`; share it behind an
/// `Arc` (the facade does).
#[derive(Clone, Debug)]
pub struct RobotsTxt {
    pub(crate) profile: Profile,
    /// Every pattern, user-agent token and value as written, back to back.
    pub(crate) arena: Box<[u8]>,
    pub(crate) groups: Vec<Group>,
    pub(crate) rules: Vec<Rule>,
    pub(crate) agents: Vec<UserAgent>,
    /// Indices of the non-global entries of `agents`, sorted by lower-cased token.
    pub(crate) agent_index: Vec<u32>,
    /// Groups that have a `*` line, in file order.
    pub(crate) global_groups: Vec<u32>,
    /// `(key, offset)` entries of large groups, sorted: each group's distinct rules by the
    /// byte they require after the leading `/` (0: none), then by precedence.
    pub(crate) rule_index: Vec<(u8, u32)>,
    pub(crate) group_extensions: Vec<Extension>,
    pub(crate) file_extensions: Vec<Extension>,
    pub(crate) sitemaps: Vec<(u32, String)>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) bytes_read: usize,
}

/// A group: user-agent lines and the rules and records that follow them (RFC 9309 §2.1); in
/// the `legacy1994` profile, a record ended by a blank line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Line of the group's first user-agent line.
    pub line: u32,
    pub(crate) agents: Range<u32>,
    /// All rules: the distinct ones in precedence order, then duplicates.
    pub(crate) rules: Range<u32>,
    /// End of the distinct rules (RFC 9309 §2.2.2: "Duplicate rules in a group MAY be
    /// deduplicated"); only these are consulted to decide.
    pub(crate) distinct_end: u32,
    /// This group's entries in [`RobotsTxt::rule_index`] (empty for small groups).
    pub(crate) index: Range<u32>,
    pub(crate) extensions: Range<u32>,
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
    /// The token as written: a part of `value` (see [`crate::AgentToken`]).
    pub(crate) token: Text,
}

/// One allow or disallow rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// 1-based line number.
    pub line: u32,
    /// Whether the rule was derived from the line rather than written there (Google's
    /// `index.html` rewrite: `Allow: /d/index.html` also allows `/d/$`).
    pub derived: bool,
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
        self.sitemaps.iter().map(|(_, s)| s.as_str())
    }

    /// Sitemap URLs with their line numbers.
    pub fn sitemap_lines(&self) -> impl Iterator<Item = (u32, &str)> {
        self.sitemaps.iter().map(|(l, s)| (*l, s.as_str()))
    }

    /// Extension records outside any group (or file-wide ones such as `host`).
    pub fn file_extensions(&self) -> &[Extension] {
        &self.file_extensions
    }

    /// Every finding, grammar's and model's, in input order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// How many bytes of the input were read (the rest was past the parse limit).
    pub fn bytes_read(&self) -> usize {
        self.bytes_read
    }

    /// Approximate heap bytes held by this value.
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        let ext = |e: &[Extension]| {
            e.iter()
                .map(|x| size_of::<Extension>() + x.key.len() + x.value.len())
                .sum::<usize>()
        };
        self.arena.len()
            + self.groups.capacity() * size_of::<Group>()
            + self.rules.capacity() * size_of::<Rule>()
            + self.agents.capacity() * size_of::<UserAgent>()
            + (self.agent_index.capacity() + self.global_groups.capacity()) * 4
            + self.rule_index.capacity() * size_of::<(u8, u32)>()
            + ext(&self.group_extensions)
            + ext(&self.file_extensions)
            + self
                .sitemaps
                .iter()
                .map(|(_, s)| 28 + s.len())
                .sum::<usize>()
            + self.diagnostics.capacity() * size_of::<Diagnostic>()
    }

    pub(crate) fn text(&self, text: Text) -> &[u8] {
        text.get(&self.arena)
    }
}

impl Group {
    /// The group's user-agent lines.
    pub fn agents<'a>(&self, robots: &'a RobotsTxt) -> &'a [UserAgent] {
        robots.agents.get(range(&self.agents)).unwrap_or_default()
    }

    /// The group's rules, in precedence order (file order in `legacy1994`); a rule identical
    /// to an earlier one comes after all distinct rules.
    pub fn rules<'a>(&self, robots: &'a RobotsTxt) -> &'a [Rule] {
        robots.rules.get(range(&self.rules)).unwrap_or_default()
    }

    /// The group's extension records (crawl-delay, …), in file order.
    pub fn extensions<'a>(&self, robots: &'a RobotsTxt) -> &'a [Extension] {
        robots
            .group_extensions
            .get(range(&self.extensions))
            .unwrap_or_default()
    }

    /// The rule that decides for `path` in this group: the first distinct rule, in precedence
    /// order, that matches. Large groups look only at the rules that can match `path`'s first
    /// byte after `/`.
    pub(crate) fn first_match<'a>(&self, robots: &'a RobotsTxt, path: &[u8]) -> Option<&'a Rule> {
        let arena = &robots.arena;
        let rules = robots
            .rules
            .get(self.rules.start as usize..self.distinct_end as usize)
            .unwrap_or_default();
        let key = match path {
            [b'/', second, ..] => *second,
            _ => 0,
        };
        let index = robots
            .rule_index
            .get(range(&self.index))
            .unwrap_or_default();
        if index.is_empty() {
            // A rule that fixes the byte after `/` is skipped on one compare.
            return rules
                .iter()
                .find(|r| (r.pattern.key == 0 || r.pattern.key == key) && r.matches(arena, path));
        }
        let generic_end = index.partition_point(|e| e.0 == 0);
        let (generic, bucket) = if key == 0 {
            (&index[..generic_end], &index[..0])
        } else {
            let lo = index.partition_point(|e| e.0 < key);
            let hi = lo + index[lo..].partition_point(|e| e.0 == key);
            (&index[..generic_end], &index[lo..hi])
        };
        // Both lists are in precedence order: walk them merged.
        let (mut i, mut j) = (0, 0);
        loop {
            let offset = match (generic.get(i), bucket.get(j)) {
                (Some(a), Some(b)) if a.1 < b.1 => {
                    i += 1;
                    a.1
                }
                (_, Some(b)) => {
                    j += 1;
                    b.1
                }
                (Some(a), None) => {
                    i += 1;
                    a.1
                }
                (None, None) => return None,
            };
            let rule = rules.get(offset as usize)?;
            if rule.matches(arena, path) {
                return Some(rule);
            }
        }
    }

    /// Whether one of the group's user-agent lines is `*`.
    pub fn is_global(&self, robots: &RobotsTxt) -> bool {
        self.agents(robots).iter().any(|a| a.global)
    }
}

fn range(r: &Range<u32>) -> Range<usize> {
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
        String::from_utf8_lossy(robots.text(self.token))
    }
}

impl Rule {
    /// The pattern as written.
    pub fn value<'a>(&self, robots: &'a RobotsTxt) -> Cow<'a, str> {
        String::from_utf8_lossy(robots.text(self.value))
    }

    /// The pattern as the matcher sees it (normalised, without a final `$`).
    pub fn normalized<'a>(&self, robots: &'a RobotsTxt) -> Cow<'a, str> {
        String::from_utf8_lossy(self.pattern.bytes(&robots.arena))
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

    pub(crate) fn matches(&self, arena: &[u8], path: &[u8]) -> bool {
        self.pattern.matches(arena, path)
    }
}
