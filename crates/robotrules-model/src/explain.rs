//! Explain: for a crawler and a URL, the chosen groups, every matching rule, the deciding
//! rule with its line, or why nothing applied.

use serde::Serialize;

use crate::agent::{is_robots_txt, AgentRules, InvalidAgent, Selection};
use crate::pattern::RuleKind;
use crate::profile::Profile;
use crate::robots::{RobotsTxt, Rule};

/// Why the verdict is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// `/robots.txt` itself is always allowed (RFC 9309 §2.2.2).
    RobotsTxtImplicitlyAllowed,
    /// No group names the crawler and there is no `*` group: no rules apply (RFC 9309 §2.2.1).
    NoGroup,
    /// Groups apply but none of their rules match the URL: allowed (RFC 9309 §2.2.2).
    NoMatchingRule,
    /// The deciding rule matched.
    RuleMatched,
}

/// A group that applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupRef {
    /// Index among the file's groups.
    pub index: usize,
    /// Line of its first user-agent line.
    pub line: u32,
    /// Its user-agent values as written.
    pub agents: Vec<String>,
}

/// A rule that matches the URL.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleMatch {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// 1-based line number.
    pub line: u32,
    /// The pattern as written.
    pub pattern: String,
    /// The pattern as compared (normalised; a final `$` shown).
    pub normalized: String,
    /// Its priority (longer wins).
    pub priority: u32,
    /// Set for a rule derived from the line (Google's `index.html` rewrite).
    pub derived: bool,
}

/// The full account of one decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The profile.
    pub profile: Profile,
    /// The crawler's name.
    pub agent: String,
    /// The URL as given.
    pub url: String,
    /// The path+params+query as compared.
    pub path: String,
    /// The verdict.
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// How the groups were chosen.
    pub selection: Selection,
    /// The groups that apply, in file order.
    pub groups: Vec<GroupRef>,
    /// Every matching rule of those groups, in precedence order (file order in `legacy1994`).
    pub matches: Vec<RuleMatch>,
    /// The deciding rule.
    pub decided_by: Option<RuleMatch>,
}

impl RobotsTxt {
    /// Explain the verdict for crawler `agent` on `url`.
    pub fn explain(&self, agent: &str, url: &str) -> Result<Explanation, InvalidAgent> {
        Ok(self.agent(agent)?.explain(agent, url))
    }
}

impl AgentRules<'_> {
    /// Explain the verdict on `url`; `agent` is only recorded in the result.
    pub fn explain(&self, agent: &str, url: &str) -> Explanation {
        let robots = self.robots();
        let path = self.path_of(url);
        let groups: Vec<GroupRef> = self
            .group_indices()
            .into_iter()
            .filter_map(|index| {
                let g = robots.groups().get(index)?;
                let agents = g
                    .agents(robots)
                    .iter()
                    .map(|a| a.value(robots).into_owned())
                    .collect();
                Some(GroupRef {
                    index,
                    line: g.line,
                    agents,
                })
            })
            .collect();
        let mut matches: Vec<(&Rule, RuleMatch)> = groups
            .iter()
            .filter_map(|g| robots.groups().get(g.index))
            .flat_map(|g| g.rules(robots))
            .filter(|r| r.matches(&robots.arena, &path))
            .map(|r| (r, rule_match(robots, r)))
            .collect();
        if robots.profile() != Profile::Legacy1994 {
            matches.sort_by_key(|(r, _)| {
                (
                    std::cmp::Reverse(r.priority()),
                    r.kind == RuleKind::Disallow,
                    r.line,
                )
            });
        }
        let decided = self.decide(&path).map(|r| rule_match(robots, r));
        let robots_txt = robots.profile() == Profile::Rfc9309 && is_robots_txt(&path);
        let (allowed, reason) = if robots_txt {
            (true, Reason::RobotsTxtImplicitlyAllowed)
        } else if let Some(rule) = &decided {
            (rule.kind == RuleKind::Allow, Reason::RuleMatched)
        } else if self.selection() == Selection::None {
            (true, Reason::NoGroup)
        } else {
            (true, Reason::NoMatchingRule)
        };
        Explanation {
            profile: robots.profile(),
            agent: agent.to_owned(),
            url: url.to_owned(),
            path: String::from_utf8_lossy(&path).into_owned(),
            allowed,
            reason,
            selection: self.selection(),
            groups,
            matches: matches.into_iter().map(|(_, m)| m).collect(),
            decided_by: if robots_txt { None } else { decided },
        }
    }
}

fn rule_match(robots: &RobotsTxt, rule: &Rule) -> RuleMatch {
    let mut normalized = rule.normalized(robots).into_owned();
    if rule.is_anchored() {
        normalized.push('$');
    }
    RuleMatch {
        kind: rule.kind,
        line: rule.line,
        pattern: rule.value(robots).into_owned(),
        normalized,
        priority: rule.priority(),
        derived: rule.derived,
    }
}
