//! Explain: for a crawler and a URL, the chosen groups, every matching rule, the deciding
//! rule with its line, or why nothing applied.

use crate::agent::{AgentRules, Selection};
use crate::error::InvalidUrl;
use crate::pattern::RuleKind;
use crate::profile::{Precedence, Profile};
use crate::robots::{RobotsTxt, Rule};

/// Why the verdict is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
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

impl Reason {
    /// The name used in JSON and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::RobotsTxtImplicitlyAllowed => "robots-txt-implicitly-allowed",
            Reason::NoGroup => "no-group",
            Reason::NoMatchingRule => "no-matching-rule",
            Reason::RuleMatched => "rule-matched",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A group that applies.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GroupRef {
    /// Index among the file's groups.
    pub index: usize,
    /// Line of its first user-agent line.
    pub line: u32,
    /// Its user-agent values as written.
    pub agents: Vec<String>,
}

/// A rule that matches the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RuleMatch {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// 1-based line number.
    pub line: u32,
    /// The pattern as written.
    pub pattern: String,
    /// The pattern as compared (normalised; a final `$` shown).
    pub normalized: String,
    /// Its priority under longest-match precedence (see [`Rule::priority`]).
    pub priority: u32,
    /// Set for a rule derived from the line (Google's `index.html` rewrite).
    pub derived: bool,
}

/// The full account of one decision.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
    /// The user-agent token that named the crawler, as written (none for `*` or no group).
    pub token: Option<String>,
    /// The groups that apply, in file order.
    pub groups: Vec<GroupRef>,
    /// Every matching rule of those groups, in precedence order (file order under first-match
    /// precedence).
    pub matches: Vec<RuleMatch>,
    /// The deciding rule.
    pub decided_by: Option<RuleMatch>,
    /// Lines of the matching rules of the other kind that are exactly as long as the deciding
    /// allow rule: it won the tie because allow wins (RFC 9309 §2.2.2). Empty otherwise.
    pub tied_with: Vec<u32>,
}

impl RobotsTxt {
    /// Explain the verdict for crawler `agent` on `url`.
    ///
    /// # Errors
    /// A crawler name or a URL the profile cannot read.
    pub fn explain(&self, agent: &str, url: &str) -> Result<Explanation, crate::Error> {
        Ok(self.agent(agent)?.explain(agent, url)?)
    }
}

impl AgentRules<'_> {
    /// Explain the verdict on `url`; `agent` is only recorded in the result.
    ///
    /// # Errors
    /// As [`AgentRules::target`].
    pub fn explain(&self, agent: &str, url: &str) -> Result<Explanation, InvalidUrl> {
        let robots = self.robots();
        let reading = robots.profile().reading();
        let target = self.target(url)?;
        let path = target.path();
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
        let mut matches: Vec<&Rule> = groups
            .iter()
            .filter_map(|g| robots.groups().get(g.index))
            .flat_map(|g| g.rules(robots))
            .filter(|r| r.matches(robots, path))
            .collect();
        let longest = reading.precedence == Precedence::LongestMatch;
        if longest {
            matches.sort_by_key(|r| {
                (
                    std::cmp::Reverse(r.priority()),
                    r.kind == RuleKind::Disallow,
                    r.line,
                )
            });
        }
        let verdict = self.verdict(&target);
        let decided = verdict.rule;
        let tied_with = match decided {
            Some(winner) if longest && winner.kind == RuleKind::Allow => matches
                .iter()
                .filter(|r| r.kind != winner.kind && r.priority() == winner.priority())
                .map(|r| r.line)
                .collect(),
            _ => Vec::new(),
        };
        Ok(Explanation {
            profile: robots.profile(),
            agent: agent.to_owned(),
            url: url.to_owned(),
            path: String::from_utf8_lossy(path).into_owned(),
            allowed: verdict.allowed,
            reason: verdict.reason,
            selection: self.selection(),
            token: self.named_by().map(|a| a.token(robots).into_owned()),
            groups,
            matches: matches.iter().map(|r| rule_match(robots, r)).collect(),
            decided_by: decided.map(|r| rule_match(robots, r)),
            tied_with,
        })
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
