//! Choosing a crawler's groups (RFC 9309 §2.2.1) and answering for URLs.

use std::borrow::Cow;
use std::cmp::Ordering;

use robotrules_url::{canonical, google};
use serde::Serialize;

use crate::extension::Extension;
use crate::pattern::RuleKind;
use crate::profile::Profile;
use crate::robots::{Group, RobotsTxt, Rule};

/// Whether `name` is a product token: `1*(ALPHA / "_" / "-")` (RFC 9309 §2.2.1).
pub fn is_product_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
}

/// A crawler name the profile cannot match: RFC 9309 §2.2.1 requires a product token (letters,
/// `_` and `-`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid crawler name `{name}`: a product token has only letters, `_` and `-` (RFC 9309 §2.2.1)")]
pub struct InvalidAgent {
    /// The name given.
    pub name: String,
}

/// How the groups for a crawler were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Selection {
    /// Groups naming the crawler (merged when several, RFC 9309 §2.2.1).
    Specific,
    /// No group names it: the `*` group(s).
    Global,
    /// Neither: no rules apply.
    None,
}

/// The groups that apply to one crawler, resolved once; ask about any number of URLs.
#[derive(Clone, Copy, Debug)]
pub struct AgentRules<'a> {
    robots: &'a RobotsTxt,
    selection: Selection,
    groups: Groups<'a>,
}

/// Group indices, without allocating.
#[derive(Clone, Copy, Debug)]
enum Groups<'a> {
    /// Entries of `agent_index` naming the crawler (indices into `agents`).
    ByAgent(&'a [u32]),
    /// Indices into `groups`.
    Listed(&'a [u32]),
    /// One group.
    Single(u32),
}

impl RobotsTxt {
    /// Resolve the groups for crawler `name`. In `rfc9309`, a name that is not a product token
    /// is an error; `google` takes any string (one that is not a token only ever gets `*`);
    /// `legacy1994` takes any string.
    pub fn agent(&self, name: &str) -> Result<AgentRules<'_>, InvalidAgent> {
        if self.profile == Profile::Rfc9309 && !is_product_token(name) {
            return Err(InvalidAgent {
                name: name.to_owned(),
            });
        }
        let (selection, groups) = match self.profile {
            Profile::Legacy1994 => self.select_legacy(name),
            Profile::Rfc9309 | Profile::Google => self.select_exact(name),
        };
        Ok(AgentRules {
            robots: self,
            selection,
            groups,
        })
    }

    /// Is `url` allowed for crawler `agent`? See [`RobotsTxt::agent`] and
    /// [`AgentRules::is_allowed`].
    pub fn is_allowed(&self, agent: &str, url: &str) -> Result<bool, InvalidAgent> {
        Ok(self.agent(agent)?.is_allowed(url))
    }

    fn select_exact(&self, name: &str) -> (Selection, Groups<'_>) {
        let name = name.as_bytes();
        let cmp = |&i: &u32| cmp_lower(self.agents[i as usize].token.get(&self.arena), name);
        let lo = self
            .agent_index
            .partition_point(|i| cmp(i) == Ordering::Less);
        let hi = lo + self.agent_index[lo..].partition_point(|i| cmp(i) == Ordering::Equal);
        if hi > lo {
            (
                Selection::Specific,
                Groups::ByAgent(&self.agent_index[lo..hi]),
            )
        } else if self.global_groups.is_empty() {
            (Selection::None, Groups::Listed(&[]))
        } else {
            (Selection::Global, Groups::Listed(&self.global_groups))
        }
    }

    /// 1994: the first record whose user-agent value is a case-insensitive substring of the
    /// crawler's name (without version), else the first `*` record.
    fn select_legacy(&self, name: &str) -> (Selection, Groups<'_>) {
        let name = name
            .split('/')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let found = self.agents.iter().find(|a| {
            let token = a.token.get(&self.arena);
            !a.global && !token.is_empty() && memchr::memmem::find(name.as_bytes(), token).is_some()
        });
        match (found, self.global_groups.first()) {
            (Some(a), _) => (Selection::Specific, Groups::Single(a.group)),
            (None, Some(&g)) => (Selection::Global, Groups::Single(g)),
            (None, None) => (Selection::None, Groups::Listed(&[])),
        }
    }
}

/// Compare a lower-cased token with a name, ignoring the name's ASCII case.
fn cmp_lower(token: &[u8], name: &[u8]) -> Ordering {
    token
        .iter()
        .copied()
        .cmp(name.iter().map(u8::to_ascii_lowercase))
}

impl<'a> AgentRules<'a> {
    /// How the groups were chosen.
    pub fn selection(&self) -> Selection {
        self.selection
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

    fn iter_groups(&self) -> GroupIter<'a> {
        GroupIter {
            robots: self.robots,
            groups: self.groups,
            pos: 0,
        }
    }

    /// The URL's path+params+query as this profile compares it: Google's reading of the URL,
    /// then (`rfc9309`, `legacy1994`) the canonical percent-encoding of RFC 9309 §2.2.2.
    ///
    /// In `rfc9309` and `legacy1994`, a URL whose path has dot segments, `%2e`, backslashes,
    /// tabs or line breaks is read by the URL Standard parser (`robotrules_url::target_path`),
    /// so `/a/../private/x` is matched as `/private/x`; every other URL takes the
    /// allocation-free reading, which gives the same path for it.
    pub fn path_of(&self, url: &'a str) -> Cow<'a, [u8]> {
        let path = match self.robots.profile {
            Profile::Google => google::path_params_query(url),
            Profile::Rfc9309 | Profile::Legacy1994 => robotrules_url::matched_path(url),
        };
        match (self.robots.profile, path) {
            (Profile::Google, Cow::Borrowed(p)) => Cow::Borrowed(p.as_bytes()),
            (Profile::Google, Cow::Owned(p)) => Cow::Owned(p.into_bytes()),
            (_, Cow::Borrowed(p)) => canonical::path(p.as_bytes()),
            (_, Cow::Owned(p)) => Cow::Owned(canonical::path(p.as_bytes()).into_owned()),
        }
    }

    /// Is `url` (absolute, or a path starting with `/`) allowed?
    pub fn is_allowed(&self, url: &str) -> bool {
        let path = self.path_of(url);
        if self.robots.profile == Profile::Rfc9309 && is_robots_txt(&path) {
            return true;
        }
        self.decide(&path).is_none_or(|r| r.kind == RuleKind::Allow)
    }

    /// The deciding rule for a path in the profile's form, if any rule matches.
    ///
    /// Rules are stored in precedence order, so the first match in a group is that group's
    /// best; across merged groups the best of the bests wins.
    pub(crate) fn decide(&self, path: &[u8]) -> Option<&'a Rule> {
        let mut best: Option<&'a Rule> = None;
        for (_, group) in self.iter_groups() {
            if let Some(rule) = group.first_match(self.robots, path) {
                if best.is_none_or(|b| outranks(rule, b)) {
                    best = Some(rule);
                }
            }
        }
        best
    }

    /// The crawl delay in seconds from the chosen groups' first valid `crawl-delay` record.
    pub fn crawl_delay(&self) -> Option<f64> {
        self.extensions().find_map(Extension::crawl_delay)
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
fn outranks(a: &Rule, b: &Rule) -> bool {
    match a.pattern.priority.cmp(&b.pattern.priority) {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => a.kind == RuleKind::Allow && b.kind == RuleKind::Disallow,
    }
}

/// RFC 9309 §2.2.2: "The /robots.txt URI is implicitly allowed."
pub(crate) fn is_robots_txt(path: &[u8]) -> bool {
    let path = path.split(|&b| b == b'?').next().unwrap_or_default();
    path == b"/robots.txt"
}

/// The chosen groups, without allocating.
struct GroupIter<'a> {
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
