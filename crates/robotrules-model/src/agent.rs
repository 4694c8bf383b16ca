//! Choosing a crawler's groups (RFC 9309 §2.2.1) and answering for URLs.

use std::cmp::Ordering;

use robotrules_url::Target;

use crate::error::{InvalidAgent, InvalidUrl};
use std::time::Duration;

use crate::explain::Reason;
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
    /// Entries `start..end` of `agent_index`, which name the crawler.
    ByAgent(u32, u32),
    /// Every `*` group (`global_groups`).
    Global,
    /// No group.
    Empty,
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

    /// Every group whose token equals `name` (ignoring ASCII case), merged; else every `*`
    /// group.
    fn select_all(&self, name: &str) -> (Selection, Option<u32>, Groups) {
        let name = name.as_bytes();
        let cmp = |&i: &u32| cmp_ignore_case(self.text(self.agents[i as usize].token), name);
        let lo = self
            .agent_index
            .partition_point(|i| cmp(i) == Ordering::Less);
        let hi = lo + self.agent_index[lo..].partition_point(|i| cmp(i) == Ordering::Equal);
        if hi > lo {
            (
                Selection::Exact,
                self.agent_index.get(lo).copied(),
                Groups::ByAgent(len_u32(lo), len_u32(hi)),
            )
        } else if self.global_groups.is_empty() {
            (Selection::Unmatched, None, Groups::Empty)
        } else {
            (Selection::Global, None, Groups::Global)
        }
    }

    /// The first record whose token is found in the crawler's name (itself cut at its first
    /// `/`, as CPython does), else the first `*` record.
    fn select_first(&self, token: AgentToken, name: &str) -> (Selection, Option<u32>, Groups) {
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
            (None, None) => (Selection::Unmatched, None, Groups::Empty),
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
        let index = match self.groups {
            Groups::ByAgent(start, end) => {
                let at = (start as usize).checked_add(self.pos)?;
                if at >= end as usize {
                    return None;
                }
                let agent = *self.robots.agent_index.get(at)?;
                self.robots.agents.get(agent as usize)?.group
            }
            Groups::Global => *self.robots.global_groups.get(self.pos)?,
            Groups::Empty => return None,
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
