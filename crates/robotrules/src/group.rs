//! A crawler's groups as written ([`Crawler::groups`](crate::Crawler::groups)) and the lines of
//! the groups a name gets ([`Robots::group_lines`](crate::Robots::group_lines)): what `show`
//! lists and what a warning about a crawler name points at.

use crate::model::{self, RobotsTxt};
use crate::{InvalidAgent, RuleKind, Selection};

/// One group a crawler gets: its first line, its user-agent values and its rules, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Group {
    /// The line of its first user-agent line.
    pub line: u32,
    /// Its user-agent values as written.
    pub agents: Vec<String>,
    /// Its allow and disallow rules, in line order, each once.
    pub rules: Vec<Rule>,
}

/// An allow or disallow rule as written; serialised as `{"line", "kind", "pattern"}`, as a
/// [`DecidingRule`](crate::DecidingRule) is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Rule {
    /// Its 1-based line.
    pub line: u32,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The pattern as written (invalid UTF-8 replaced).
    pub pattern: String,
}

/// The groups of `crawler`, in file order, with their rules as written (not the rules a
/// profile derives from them, such as Google's `index.html` rule).
pub(crate) fn groups_of(crawler: &model::Crawler) -> Vec<Group> {
    let robots: &RobotsTxt = crawler.robots();
    crawler
        .groups()
        .map(|(group, compiled)| {
            let mut rules: Vec<Rule> = compiled
                .rules()
                .iter()
                .filter(|rule| !rule.derived)
                .map(|rule| Rule {
                    line: rule.line,
                    kind: rule.kind,
                    pattern: rule.value(robots).into_owned(),
                })
                .collect();
            rules.sort_by(|a, b| {
                (a.line, a.kind.as_str(), &a.pattern).cmp(&(b.line, b.kind.as_str(), &b.pattern))
            });
            rules.dedup();
            Group {
                line: group.line,
                agents: group
                    .agents(robots)
                    .iter()
                    .map(|agent| agent.value(robots).into_owned())
                    .collect(),
                rules,
            }
        })
        .collect()
}

/// How the groups of crawler `name` in `robots` are chosen, and the first line of each.
pub(crate) fn group_lines(
    robots: &RobotsTxt,
    name: &str,
) -> Result<(Selection, Vec<u32>), InvalidAgent> {
    let (selection, indices) = robots.selection_of(name)?;
    let lines = indices
        .iter()
        .filter_map(|&i| robots.groups().get(i))
        .map(|group| group.line)
        .collect();
    Ok((selection, lines))
}
