//! Explain: for a crawler and a URL, the chosen groups, every matching rule, the deciding
//! rule with its line, or why nothing applied. The matching rules come from the same
//! compiled matcher that decides ([`crate::Crawler::verdict`]), in the same precedence.

use crate::compile::{rank, GroupRules, Rule};
use crate::crawler::{Chosen, Crawler, Reason, Selection};
use crate::error::InvalidUrl;
use crate::matcher::Probe;
use crate::pattern::RuleKind;
use crate::profile::{Precedence, Profile};
use crate::robots::RobotsTxt;

/// A group that applies.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
    /// Explain the verdict for crawler `agent` on `url`. For many URLs, make a
    /// [`Crawler`] once.
    ///
    /// # Errors
    /// A crawler name or a URL the profile cannot read.
    pub fn explain(&self, agent: &str, url: &str) -> Result<Explanation, crate::Error> {
        Ok(self.choose(agent)?.explain(self, agent, url, true)?)
    }
}

impl Crawler {
    /// The full account of the verdict on `url`: the groups chosen, every matching rule, the
    /// deciding rule and its line.
    ///
    /// # Errors
    /// As [`Crawler::target`].
    pub fn explain(&self, url: &str) -> Result<Explanation, InvalidUrl> {
        self.chosen().explain(self.robots(), self.name(), url, true)
    }

    /// [`Crawler::explain`] without the rules that only match: the groups, the verdict and
    /// the deciding rule, with `matches` and `tied_with` left empty. It costs one check where
    /// `explain` tries every rule of the groups.
    ///
    /// # Errors
    /// As [`Crawler::target`].
    pub fn explain_decision(&self, url: &str) -> Result<Explanation, InvalidUrl> {
        self.chosen()
            .explain(self.robots(), self.name(), url, false)
    }
}

impl Chosen {
    /// Explain the verdict on `url` in `robots`; `agent` is only recorded in the result.
    /// Without `every`, the matching rules are not looked for (`matches` and `tied_with`
    /// are empty).
    pub(crate) fn explain(
        &self,
        robots: &RobotsTxt,
        agent: &str,
        url: &str,
        every: bool,
    ) -> Result<Explanation, InvalidUrl> {
        let longest = robots.profile().reading().precedence == Precedence::LongestMatch;
        let target = self.target(robots, url)?;
        let path = target.path();
        let mut groups = Vec::new();
        // (rule, its group's compiled rules)
        let mut matches: Vec<(&Rule, &GroupRules)> = Vec::new();
        for (group, rules) in self.groups(robots) {
            groups.push(GroupRef {
                index: group.index(),
                line: group.line,
                agents: group
                    .agents(robots)
                    .iter()
                    .map(|a| a.value(robots).into_owned())
                    .collect(),
            });
            if !every {
                continue;
            }
            let mut probe = Probe::new(path);
            matches.extend(
                rules
                    .every_match(&mut probe)
                    .into_iter()
                    .map(|r| (r, rules)),
            );
        }
        if longest {
            matches.sort_by_key(|(r, _)| (rank(r), r.line));
        } else {
            matches.sort_by_key(|(r, _)| r.line);
        }
        let verdict = self.verdict(robots, &target);
        let decided = verdict.rule;
        let tied_with = match decided {
            Some(winner) if longest && winner.kind == RuleKind::Allow => matches
                .iter()
                .filter(|(r, _)| r.kind != winner.kind && r.priority() == winner.priority())
                .map(|(r, _)| r.line)
                .collect(),
            _ => Vec::new(),
        };
        let decided_by = decided.and_then(|winner| {
            let (_, rules) = self
                .groups(robots)
                .find(|(g, _)| g.index() == winner.group as usize)?;
            Some(rule_match(robots, rules, &winner))
        });
        Ok(Explanation {
            profile: robots.profile(),
            agent: agent.to_owned(),
            url: url.to_owned(),
            path: String::from_utf8_lossy(path).into_owned(),
            allowed: verdict.allowed,
            reason: verdict.reason,
            selection: self.selection(),
            token: self.named_by(robots).map(|a| a.token(robots).into_owned()),
            groups,
            matches: matches
                .iter()
                .map(|(r, rules)| rule_match(robots, rules, r))
                .collect(),
            decided_by,
            tied_with,
        })
    }
}

fn rule_match(robots: &RobotsTxt, rules: &GroupRules, rule: &Rule) -> RuleMatch {
    let mut normalized = rules.normalized(rule).into_owned();
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
