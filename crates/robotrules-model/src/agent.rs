//! Choosing a crawler's groups (RFC 9309 §2.2.1) and answering for URLs.

use std::cmp::Ordering;

use robotrules_url::Target;

use crate::error::{InvalidAgent, InvalidUrl};
use std::time::Duration;

use crate::extension::{Extension, ExtensionKey, RequestRate};
use crate::pattern::RuleKind;
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
    /// Entries of `agent_index` naming the crawler (indices into `agents`).
    ByAgent(&'a [u32]),
    /// Indices into `groups`.
    Listed(&'a [u32]),
    /// One group.
    Single(u32),
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

    /// Every group whose token equals `name` (ignoring ASCII case), merged; else every `*`
    /// group.
    fn select_all(&self, name: &str) -> (Selection, Option<u32>, Groups<'_>) {
        let name = name.as_bytes();
        let cmp = |&i: &u32| cmp_ignore_case(self.text(self.agents[i as usize].token), name);
        let lo = self
            .agent_index
            .partition_point(|i| cmp(i) == Ordering::Less);
        let hi = lo + self.agent_index[lo..].partition_point(|i| cmp(i) == Ordering::Equal);
        if hi > lo {
            let named = &self.agent_index[lo..hi];
            (
                Selection::Exact,
                named.first().copied(),
                Groups::ByAgent(named),
            )
        } else if self.global_groups.is_empty() {
            (Selection::Unmatched, None, Groups::Listed(&[]))
        } else {
            (Selection::Global, None, Groups::Listed(&self.global_groups))
        }
    }

    /// The first record whose token is found in the crawler's name (itself cut at its first
    /// `/`, as CPython does), else the first `*` record.
    fn select_first(&self, token: AgentToken, name: &str) -> (Selection, Option<u32>, Groups<'_>) {
        let name = token.leading(name.as_bytes()).to_ascii_lowercase();
        let found = self.agents.iter().position(|a| {
            let token = self.text(a.token).to_ascii_lowercase();
            !a.global && !token.is_empty() && memchr::memmem::find(&name, &token).is_some()
        });
        match (found, self.global_groups.first()) {
            (Some(i), _) => (
                Selection::Substring,
                Some(len_u32(i)),
                Groups::Single(self.agents[i].group),
            ),
            (None, Some(&g)) => (Selection::Global, None, Groups::Single(g)),
            (None, None) => (Selection::Unmatched, None, Groups::Listed(&[])),
        }
    }
}

fn len_u32(n: usize) -> u32 {
    crate::pattern::len_u32(n)
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
    /// Rules are stored in precedence order, so the first match in a group is that group's
    /// best; across merged groups the best of the bests wins.
    pub(crate) fn decide(&self, path: &[u8]) -> Option<&'a Rule> {
        let longest = self.robots.profile.reading().precedence == Precedence::LongestMatch;
        let mut best: Option<&'a Rule> = None;
        for (_, group) in self.iter_groups() {
            if let Some(rule) = group.first_match(self.robots, path) {
                if best.is_none_or(|b| longest && outranks(rule, b)) {
                    best = Some(rule);
                }
            }
        }
        best
    }

    /// The crawl delay from the chosen groups' first valid `crawl-delay` record.
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.extensions().find_map(Extension::crawl_delay)
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

/// The chosen groups, without allocating.
pub(crate) struct GroupIter<'a> {
    robots: &'a RobotsTxt,
    groups: Groups<'a>,
    pos: usize,
}

impl<'a> Iterator for GroupIter<'a> {
    type Item = (usize, &'a Group);

    fn next(&mut self) -> Option<(usize, &'a Group)> {
        let index = match self.groups {
            Groups::ByAgent(a) => self.robots.agents.get(*a.get(self.pos)? as usize)?.group,
            Groups::Listed(g) => *g.get(self.pos)?,
            Groups::Single(g) => {
                if self.pos > 0 {
                    return None;
                }
                g
            }
        } as usize;
        self.pos += 1;
        Some((index, self.robots.groups.get(index)?))
    }
}
