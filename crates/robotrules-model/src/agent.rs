//! Choosing a crawler's groups (RFC 9309 §2.2.1) and answering for URLs.

use std::cmp::Ordering;

use robotrules_url::Target;

use crate::error::{InvalidAgent, InvalidUrl};
use std::time::Duration;

use crate::explain::Reason;
use crate::extension::{Extension, ExtensionKey, RequestRate};
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
///
/// A view that borrows the parsed file; [`CrawlerRules`] is the owned form, to keep next to a
/// shared copy of the file.
#[derive(Clone, Copy, Debug)]
pub struct AgentRules<'a> {
    robots: &'a RobotsTxt,
    resolved: Resolved,
}

/// How a crawler's groups were resolved: small, `Copy`, and meaningful only with the file it
/// was resolved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resolved {
    selection: Selection,
    /// The user-agent line that named the crawler (index into `agents`).
    named_by: Option<u32>,
    groups: Groups,
}

/// The chosen groups, as indices into the file: no allocation, no lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Groups {
    /// Entries `start..end` of the agent index's `by_token`, which name the crawler.
    ByAgent(u32, u32),
    /// Every `*` group (the agent index's `global`).
    Global,
    /// No group.
    Empty,
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
        Ok(AgentRules {
            robots: self,
            resolved: self.resolve(name)?,
        })
    }

    /// The groups for crawler `name`, as indices into this file.
    fn resolve(&self, name: &str) -> Result<Resolved, InvalidAgent> {
        let reading = self.profile.reading();
        if reading.crawler_names == CrawlerNames::Token {
            check_token(reading.agent_token, name)?;
        }
        let (selection, named_by, groups) = match reading.groups {
            GroupMerge::First => self.select_first(reading.agent_token, name),
            GroupMerge::All if self.groups.len() <= MASK_GROUPS => self.select_by_scan(name),
            GroupMerge::All => self.select_all(name),
        };
        Ok(Resolved {
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
    fn select_by_scan(&self, name: &str) -> (Selection, Option<u32>, Groups) {
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
            (Selection::Unmatched, None, Groups::Empty)
        }
    }

    /// The agent index, built the first time a large file is asked.
    fn agent_index(&self) -> &AgentIndex {
        self.lazy
            .agent_index
            .get_or_init(|| Box::new(AgentIndex::new(self)))
    }

    /// Every group whose token equals `name` (ignoring ASCII case), merged; else every `*`
    /// group.
    fn select_all(&self, name: &str) -> (Selection, Option<u32>, Groups) {
        let index = self.agent_index();
        let name = name.as_bytes();
        let cmp = |&i: &u32| cmp_ignore_case(self.agents[i as usize].token_bytes(self), name);
        let sorted = &index.by_token;
        let lo = sorted.partition_point(|i| cmp(i) == Ordering::Less);
        let hi = lo + sorted[lo..].partition_point(|i| cmp(i) == Ordering::Equal);
        if hi > lo {
            (
                Selection::Exact,
                sorted.get(lo).copied(),
                Groups::ByAgent(len_u32(lo), len_u32(hi)),
            )
        } else if index.global.is_empty() {
            (Selection::Unmatched, None, Groups::Empty)
        } else {
            (Selection::Global, None, Groups::Global)
        }
    }

    /// The first record whose token is found in the crawler's name (itself cut at its first
    /// `/`, as CPython does), else the first `*` record.
    fn select_first(&self, token: AgentToken, name: &str) -> (Selection, Option<u32>, Groups) {
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
            (None, None) => (Selection::Unmatched, None, Groups::Empty),
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
        self.resolved.selection
    }

    /// The user-agent line that named the crawler (the first in file order), when a group
    /// names it.
    pub fn named_by(&self) -> Option<&'a UserAgent> {
        self.robots.agents.get(self.resolved.named_by? as usize)
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
            groups: self.resolved.groups,
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

    /// The URL whose origin was read as `origin`, read as this profile matches it, without
    /// reading its authority again (see [`robotrules_url::Target::of`]).
    pub fn target_of<'u>(&self, origin: &robotrules_url::OriginRef<'u>) -> Target<'u> {
        Target::of(origin, self.robots.profile.reading().urls)
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
        self.verdict(target).allowed
    }

    /// The verdict on the URL read as `target`, with the deciding rule and why: what
    /// [`AgentRules::explain`] says first, without listing every matching rule (no
    /// allocation).
    pub fn verdict(&self, target: &Target<'_>) -> Verdict<'a> {
        if self.robots.profile.reading().implicit_robots_txt && target.is_robots_txt() {
            return Verdict {
                allowed: true,
                reason: Reason::RobotsTxtImplicitlyAllowed,
                rule: None,
            };
        }
        match self.decide(target.path()) {
            Some(rule) => Verdict {
                allowed: rule.kind == RuleKind::Allow,
                reason: Reason::RuleMatched,
                rule: Some(rule),
            },
            None if self.resolved.selection == Selection::Unmatched => Verdict {
                allowed: true,
                reason: Reason::NoGroup,
                rule: None,
            },
            None => Verdict {
                allowed: true,
                reason: Reason::NoMatchingRule,
                rule: None,
            },
        }
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

    /// The crawl delay from the chosen groups' first valid `crawl-delay` record.
    pub fn crawl_delay(&self) -> Option<Duration> {
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

    /// The request rate from the chosen groups' first valid `request-rate` record.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.extensions().find_map(Extension::request_rate)
    }

    /// The values of the chosen groups' `visit-time` records, as written (`0100-0800`).
    pub fn visit_times(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.extensions()
            .filter(|e| e.kind == ExtensionKey::VisitTime)
            .map(|e| e.value.as_str())
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

/// The verdict on one URL: allowed or not, why, and the deciding rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    /// May the crawler fetch the URL?
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// The deciding rule, when a rule decided.
    pub rule: Option<&'a Rule>,
}

/// The rules of one crawler, owned: the parsed file (shared, `Arc`) and the crawler's groups,
/// resolved once. `'static`, `Send + Sync` and cheap to clone, so it can live next to the
/// parsed copy in a per-origin cache; [`CrawlerRules::rules`] is the borrowed view.
///
/// ```
/// use std::sync::Arc;
/// use robotrules_model::{CrawlerRules, Profile, RobotsTxt};
///
/// let robots = Arc::new(RobotsTxt::parse(b"user-agent: *\ndisallow: /x\n", Profile::Rfc9309, 512_000));
/// let crawler = CrawlerRules::new(robots, "ExampleBot")?;
/// let shared = crawler.clone(); // an Arc clone: no copy of the file
/// assert!(!shared.is_allowed("https://example.com/x")?);
/// assert_eq!(crawler.name(), "ExampleBot");
/// # Ok::<(), robotrules_model::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct CrawlerRules {
    robots: std::sync::Arc<RobotsTxt>,
    name: std::sync::Arc<str>,
    resolved: Resolved,
}

impl CrawlerRules {
    /// Resolves crawler `name`'s groups in `robots` once.
    ///
    /// # Errors
    /// As [`RobotsTxt::agent`].
    pub fn new(
        robots: std::sync::Arc<RobotsTxt>,
        name: &str,
    ) -> Result<CrawlerRules, InvalidAgent> {
        let resolved = robots.resolve(name)?;
        Ok(CrawlerRules {
            robots,
            name: name.into(),
            resolved,
        })
    }

    /// The borrowed view, to ask with.
    pub fn rules(&self) -> AgentRules<'_> {
        AgentRules {
            robots: &self.robots,
            resolved: self.resolved,
        }
    }

    /// The crawler's name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parsed file.
    pub fn robots(&self) -> &std::sync::Arc<RobotsTxt> {
        &self.robots
    }

    /// Is `url` allowed? See [`AgentRules::is_allowed`].
    ///
    /// # Errors
    /// As [`AgentRules::target`].
    pub fn is_allowed(&self, url: &str) -> Result<bool, InvalidUrl> {
        self.rules().is_allowed(url)
    }

    /// The full account of the verdict on `url`. See [`AgentRules::explain`].
    ///
    /// # Errors
    /// As [`AgentRules::target`].
    pub fn explain(&self, url: &str) -> Result<crate::Explanation, InvalidUrl> {
        self.rules().explain(&self.name, url)
    }
}

/// The chosen groups, without allocating.
pub(crate) struct GroupIter<'a> {
    robots: &'a RobotsTxt,
    groups: Groups,
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
            Groups::ByAgent(start, end) => {
                let at = (start as usize).checked_add(self.pos)?;
                if at >= end as usize {
                    return None;
                }
                let agent = *self.robots.lazy.agent_index.get()?.by_token.get(at)?;
                self.robots.agents.get(agent as usize)?.group
            }
            Groups::Global => *self.robots.lazy.agent_index.get()?.global.get(self.pos)?,
            Groups::Empty => return None,
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
