//! Choosing a crawler's groups (RFC 9309 §2.2.1) and answering for URLs.

use std::cmp::Ordering;

use robotrules_url::Target;

use crate::error::{InvalidAgent, InvalidUrl};
use crate::extension::Extension;
use crate::matcher::Probe;
use crate::pattern::{len_u32, RuleKind};
use crate::profile::{AgentToken, CrawlerNames, GroupMerge, Precedence};
use crate::robots::{Group, RobotsTxt, Rule, UserAgent};

/// How the groups for a crawler were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Selection {
    /// Groups whose user-agent token equals the crawler's name, ignoring ASCII case; several
    /// are merged (RFC 9309 §2.2.1).
    Exact,
    /// The first record whose user-agent is found in the crawler's name, ignoring case (the
    /// 1994 convention's substring match).
    Substring,
    /// No group names the crawler: the `*` group (all of them, merged, or the first record,
    /// as the profile's [`GroupMerge`] says).
    Global,
    /// No group names the crawler and there is no `*` group: no rules apply.
    Unmatched,
}

impl Selection {
    /// The name used in JSON and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Selection::Exact => "exact",
            Selection::Substring => "substring",
            Selection::Global => "global",
            Selection::Unmatched => "unmatched",
        }
    }
}

impl std::fmt::Display for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The groups that apply to one crawler, resolved once; ask about any number of URLs.
#[derive(Clone, Copy, Debug)]
pub struct AgentRules<'a> {
    robots: &'a RobotsTxt,
    selection: Selection,
    /// The user-agent line that named the crawler (index into `agents`).
    named_by: Option<u32>,
    groups: Groups<'a>,
}

/// Group indices, without allocating.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Groups<'a> {
    /// Entries of the agent index naming the crawler (indices into `agents`).
    ByAgent(&'a [u32]),
    /// Indices into `groups`.
    Listed(&'a [u32]),
    /// One group.
    Single(u32),
    /// The groups whose bits are set, in a file of at most 64 groups.
    Mask(u64),
}

/// Files with at most this many groups choose a crawler's groups by one scan of the
/// user-agent lines; larger ones build an [`AgentIndex`] on the first `agent` call.
const MASK_GROUPS: usize = 64;

/// The user-agent lines sorted by token, and the `*` groups: built once, for files with more
/// than [`MASK_GROUPS`] groups.
#[derive(Clone, Debug, Default)]
pub(crate) struct AgentIndex {
    /// Indices of the non-global entries of `agents`, sorted by lower-cased token, then by
    /// position.
    by_token: Box<[u32]>,
    /// Groups that have a `*` line, in file order.
    global: Box<[u32]>,
}

impl AgentIndex {
    fn new(robots: &RobotsTxt) -> AgentIndex {
        let mut by_token: Vec<u32> = (0..len_u32(robots.agents.len()))
            .filter(|&i| !robots.agents[i as usize].global)
            .collect();
        by_token.sort_by(|&a, &b| {
            let ta = robots.agents[a as usize].token_bytes(robots);
            let tb = robots.agents[b as usize].token_bytes(robots);
            cmp_ignore_case(ta, tb).then(a.cmp(&b))
        });
        let mut global: Vec<u32> = robots
            .agents
            .iter()
            .filter(|a| a.global)
            .map(|a| a.group)
            .collect();
        global.dedup();
        AgentIndex {
            by_token: by_token.into(),
            global: global.into(),
        }
    }

    pub(crate) fn heap_size(&self) -> usize {
        (self.by_token.len() + self.global.len()) * 4
    }
}

impl RobotsTxt {
    /// Resolve the groups for crawler `name`.
    ///
    /// # Errors
    /// Under a profile whose [`CrawlerNames`] is `Token` (`rfc9309`), a name that is not a
    /// token of the profile's alphabet; the error suggests the token the name starts with.
    /// `google` and `legacy1994` take any string (under `google`, one that is not a token only
    /// ever gets `*`).
    pub fn agent(&self, name: &str) -> Result<AgentRules<'_>, InvalidAgent> {
        let reading = self.profile.reading();
        if reading.crawler_names == CrawlerNames::Token {
            check_token(reading.agent_token, name)?;
        }
        let (selection, named_by, groups) = match reading.groups {
            GroupMerge::First => self.select_first(reading.agent_token, name),
            GroupMerge::All if self.groups.len() <= MASK_GROUPS => self.select_by_scan(name),
            GroupMerge::All => self.select_all(name),
        };
        Ok(AgentRules {
            robots: self,
            selection,
            named_by,
            groups,
        })
    }

    /// Is `url` allowed for crawler `agent`? See [`RobotsTxt::agent`] and
    /// [`AgentRules::is_allowed`].
    ///
    /// # Errors
    /// A crawler name or a URL the profile cannot read.
    pub fn is_allowed(&self, agent: &str, url: &str) -> Result<bool, crate::Error> {
        Ok(self.agent(agent)?.is_allowed(url)?)
    }

    /// [`RobotsTxt::select_all`] for a file of at most 64 groups: one scan of the user-agent
    /// lines, the groups as bits.
    fn select_by_scan(&self, name: &str) -> (Selection, Option<u32>, Groups<'_>) {
        let name = name.as_bytes();
        let (mut named, mut global) = (0u64, 0u64);
        let mut first = None;
        for (i, agent) in self.agents.iter().enumerate() {
            let bit = 1u64.checked_shl(agent.group).unwrap_or(0);
            if agent.global {
                global |= bit;
            } else if agent.token_bytes(self).eq_ignore_ascii_case(name) {
                named |= bit;
                first.get_or_insert(len_u32(i));
            }
        }
        if named != 0 {
            (Selection::Exact, first, Groups::Mask(named))
        } else if global != 0 {
            (Selection::Global, None, Groups::Mask(global))
        } else {
            (Selection::Unmatched, None, Groups::Listed(&[]))
        }
    }

    /// Every group whose token equals `name` (ignoring ASCII case), merged; else every `*`
    /// group.
    fn select_all(&self, name: &str) -> (Selection, Option<u32>, Groups<'_>) {
        let index = self
            .lazy
            .agent_index
            .get_or_init(|| Box::new(AgentIndex::new(self)));
        let name = name.as_bytes();
        let cmp = |&i: &u32| cmp_ignore_case(self.agents[i as usize].token_bytes(self), name);
        let sorted = &index.by_token;
        let lo = sorted.partition_point(|i| cmp(i) == Ordering::Less);
        let hi = lo + sorted[lo..].partition_point(|i| cmp(i) == Ordering::Equal);
        if hi > lo {
            let named = &sorted[lo..hi];
            (
                Selection::Exact,
                named.first().copied(),
                Groups::ByAgent(named),
            )
        } else if index.global.is_empty() {
            (Selection::Unmatched, None, Groups::Listed(&[]))
        } else {
            (Selection::Global, None, Groups::Listed(&index.global))
        }
    }

    /// The first record whose token is found in the crawler's name (itself cut at its first
    /// `/`, as CPython does), else the first `*` record.
    fn select_first(&self, token: AgentToken, name: &str) -> (Selection, Option<u32>, Groups<'_>) {
        let name = token.leading(name.as_bytes());
        let found = self.agents.iter().position(|a| {
            let token = a.token_bytes(self);
            !a.global && !token.is_empty() && contains_ignore_case(name, token)
        });
        let first_global = self.agents.iter().find(|a| a.global).map(|a| a.group);
        match (found, first_global) {
            (Some(i), _) => (
                Selection::Substring,
                Some(len_u32(i)),
                Groups::Single(self.agents[i].group),
            ),
            (None, Some(g)) => (Selection::Global, None, Groups::Single(g)),
            (None, None) => (Selection::Unmatched, None, Groups::Listed(&[])),
        }
    }
}

/// Whether `needle` occurs in `haystack`, ignoring ASCII case.
fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// A crawler name must be a non-empty token of the profile's alphabet.
fn check_token(alphabet: AgentToken, name: &str) -> Result<(), InvalidAgent> {
    let bytes = name.as_bytes();
    if !bytes.is_empty() && bytes.iter().all(|&b| alphabet.is_token_byte(b)) {
        return Ok(());
    }
    let leading = alphabet.leading(bytes);
    Err(InvalidAgent {
        name: name.to_owned(),
        suggestion: (!leading.is_empty()).then(|| String::from_utf8_lossy(leading).into_owned()),
    })
}

/// Compare a token with a name, both ignoring ASCII case.
pub(crate) fn cmp_ignore_case(token: &[u8], name: &[u8]) -> Ordering {
    token
        .iter()
        .map(u8::to_ascii_lowercase)
        .cmp(name.iter().map(u8::to_ascii_lowercase))
}

impl<'a> AgentRules<'a> {
    /// How the groups were chosen.
    pub fn selection(&self) -> Selection {
        self.selection
    }

    /// The user-agent line that named the crawler (the first in file order), when a group
    /// names it.
    pub fn named_by(&self) -> Option<&'a UserAgent> {
        self.robots.agents.get(self.named_by? as usize)
    }

    /// The parsed file.
    pub fn robots(&self) -> &'a RobotsTxt {
        self.robots
    }

    /// The chosen groups' indices, in file order, without duplicates.
    pub fn group_indices(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.iter_groups().map(|(i, _)| i).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    pub(crate) fn iter_groups(&self) -> GroupIter<'a> {
        GroupIter {
            robots: self.robots,
            groups: self.groups,
            pos: 0,
        }
    }

    /// `url` read as this profile matches it ([`robotrules_url::Target`] under the profile's
    /// [`UrlReading`](crate::UrlReading)).
    ///
    /// # Errors
    /// A URL the profile cannot read (under the RFC reading: neither an absolute URL with a
    /// host nor a path starting with `/`).
    pub fn target<'u>(&self, url: &'u str) -> Result<Target<'u>, InvalidUrl> {
        Target::parse(url, self.robots.profile.reading().urls).map_err(|source| InvalidUrl {
            url: url.to_owned(),
            source,
        })
    }

    /// Is `url` (absolute, or a path starting with `/`) allowed?
    ///
    /// # Errors
    /// As [`AgentRules::target`].
    pub fn is_allowed(&self, url: &str) -> Result<bool, InvalidUrl> {
        Ok(self.allows(&self.target(url)?))
    }

    /// Is the URL read as `target` allowed? `target` must come from [`AgentRules::target`] of
    /// a file read under the same profile.
    pub fn allows(&self, target: &Target<'_>) -> bool {
        if self.robots.profile.reading().implicit_robots_txt && target.is_robots_txt() {
            return true;
        }
        self.decide(target.path())
            .is_none_or(|r| r.kind == RuleKind::Allow)
    }

    /// The deciding rule for a path in the profile's form, if any rule matches.
    ///
    /// Each group's matcher finds the group's best; across merged groups the best of the
    /// bests wins.
    pub(crate) fn decide(&self, path: &[u8]) -> Option<&'a Rule> {
        let longest = self.robots.profile.reading().precedence == Precedence::LongestMatch;
        let mut best: Option<&'a Rule> = None;
        let mut probe = Probe::new(path);
        for (_, group) in self.iter_groups() {
            if let Some(rule) = group.first_match(self.robots, &mut probe) {
                if best.is_none_or(|b| longest && outranks(rule, b)) {
                    best = Some(rule);
                }
            }
        }
        best
    }

    /// The crawl delay in seconds from the chosen groups' first valid `crawl-delay` record.
    pub fn crawl_delay(&self) -> Option<f64> {
        // Records are in file order and each group's lie after the previous group's, so the
        // chosen groups' records come in group order, then file order, as `extensions` gives
        // them; no `Extension` values are made.
        let chosen = self.group_indices();
        let robots = self.robots;
        robots
            .records
            .iter()
            .filter(|r| chosen.binary_search(&(r.group as usize)).is_ok())
            .find_map(|r| r.crawl_delay(&robots.text))
    }

    /// The chosen groups' extension records.
    pub fn extensions(&self) -> impl Iterator<Item = &'a Extension> + 'a {
        let robots = self.robots;
        let mut groups: Vec<&'a Group> = self.iter_groups().map(|(_, g)| g).collect();
        groups.sort_by_key(|g| g.line);
        groups.dedup_by_key(|g| g.line);
        groups.into_iter().flat_map(move |g| g.extensions(robots))
    }
}

/// Whether `a` beats `b`: higher priority, allow on a tie (RFC 9309 §2.2.2).
pub(crate) fn outranks(a: &Rule, b: &Rule) -> bool {
    match a.pattern.priority.cmp(&b.pattern.priority) {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => a.kind == RuleKind::Allow && b.kind == RuleKind::Disallow,
    }
}

/// The chosen groups, without allocating.
pub(crate) struct GroupIter<'a> {
    robots: &'a RobotsTxt,
    groups: Groups<'a>,
    pos: usize,
}

impl<'a> Iterator for GroupIter<'a> {
    type Item = (usize, &'a Group);

    fn next(&mut self) -> Option<(usize, &'a Group)> {
        if let Groups::Mask(bits) = &mut self.groups {
            if *bits == 0 {
                return None;
            }
            let index = bits.trailing_zeros() as usize;
            *bits &= *bits - 1;
            return Some((index, self.robots.groups.get(index)?));
        }
        let index = match self.groups {
            Groups::ByAgent(a) => self.robots.agents.get(*a.get(self.pos)? as usize)?.group,
            Groups::Listed(g) => *g.get(self.pos)?,
            Groups::Single(g) => {
                if self.pos > 0 {
                    return None;
                }
                g
            }
            Groups::Mask(_) => return None,
        } as usize;
        self.pos += 1;
        Some((index, self.robots.groups.get(index)?))
    }
}
