//! When a file contradicts itself about a crawler: its crawl rules leave the crawler nothing
//! to crawl, and a usage preference allows it a use anyway. The one definition that lint
//! renders (`usage-contradicts-crawl`) and the survey counts (its `contradiction` column).
//!
//! Preferences apply only to URLs a crawler may crawl (draft-ietf-aipref-attach-05 §3.1: "no
//! preferences are implied for resources that are disallowed"), so a preference that allows a
//! use to a crawler that may crawl nothing never applies. Two cases:
//!
//! - [`Contradiction::AllowsUse`]: a statement that speaks to the crawler (its groups' lines,
//!   the file-wide `Content-Signal` lines) allows a use;
//! - [`Contradiction::SearchAllowed`]: the crawler is a search engine's, its own group closes
//!   everything, and the statements for crawlers that no group names allow search, while those
//!   crawlers may crawl something: the file says "use this for search" and "search engines,
//!   keep out" at once. Which crawlers are search engines' is the caller's data.

use robotrules_grammar::MemberValue;

use crate::crawler::{Crawler, Selection};
use crate::pattern::RuleKind;
use crate::profile::Precedence;
use crate::usage::{Outcome, SharedCategory, Vocabulary};
use crate::user_agent::ANY_CRAWLER;

/// How a file contradicts itself for one crawler.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Contradiction {
    /// The crawler may crawl nothing, and the statement at line `statement` allows it a use,
    /// `allowing` as written (`ai-train=yes`).
    AllowsUse {
        /// The statement's line.
        statement: u32,
        /// The member that allows a use, as written (`label=value`, or the bare label).
        allowing: String,
        /// The line of the rule that disallows everything.
        blocked_by: u32,
        /// The group the statement stands in, as the file counts groups (none for a
        /// file-wide line).
        group: Option<usize>,
    },
    /// A search engine's crawler may crawl nothing under its own group, while the statement at
    /// line `statement`, for crawlers that no group names, allows search.
    SearchAllowed {
        /// The statement's line.
        statement: u32,
        /// The line of the rule that disallows everything to the search crawler.
        blocked_by: u32,
        /// The statement's vocabulary.
        vocabulary: Vocabulary,
    },
}

/// Which case of [`Contradiction`]: what the survey's `contradiction` column records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum ContradictionKind {
    /// [`Contradiction::AllowsUse`] (`allows-disallowed`).
    AllowsDisallowed,
    /// [`Contradiction::SearchAllowed`] (`search-allowed-disallowed`).
    SearchAllowedDisallowed,
}

impl ContradictionKind {
    /// The case's name: `allows-disallowed` or `search-allowed-disallowed`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ContradictionKind::AllowsDisallowed => "allows-disallowed",
            ContradictionKind::SearchAllowedDisallowed => "search-allowed-disallowed",
        }
    }
}

impl std::fmt::Display for ContradictionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Contradiction {
    /// Which case it is.
    pub const fn kind(&self) -> ContradictionKind {
        match self {
            Contradiction::AllowsUse { .. } => ContradictionKind::AllowsDisallowed,
            Contradiction::SearchAllowed { .. } => ContradictionKind::SearchAllowedDisallowed,
        }
    }

    /// The line of the statement that contradicts the crawl rules.
    pub const fn statement(&self) -> u32 {
        match self {
            Contradiction::AllowsUse { statement, .. }
            | Contradiction::SearchAllowed { statement, .. } => *statement,
        }
    }

    /// The line of the rule that leaves the crawler nothing to crawl.
    pub const fn blocked_by(&self) -> u32 {
        match self {
            Contradiction::AllowsUse { blocked_by, .. }
            | Contradiction::SearchAllowed { blocked_by, .. } => *blocked_by,
        }
    }
}

impl Crawler {
    /// The line of the rule that leaves the crawler nothing to crawl: `/` is disallowed by it,
    /// and no allow rule opens a path (under longest-match precedence, any allow rule with a
    /// pattern; under first-match, one listed before it). `None` when the crawler may crawl
    /// something, or no rule decided `/`.
    pub fn blocked_by(&self) -> Option<u32> {
        let root = self.target("/").ok()?;
        let verdict = self.verdict(&root);
        let rule = verdict.rule?;
        if verdict.allowed {
            return None;
        }
        let first_match = self.robots().profile().reading().precedence == Precedence::FirstMatch;
        let opens_something = self.groups().flat_map(|(_, rules)| rules.rules()).any(|r| {
            r.kind == RuleKind::Allow && !r.is_empty() && (!first_match || r.line < rule.line)
        });
        (!opens_something).then_some(rule.line)
    }

    /// How the file contradicts itself for this crawler: one [`Contradiction::AllowsUse`] per
    /// statement that allows a use while the crawler may crawl nothing, in file order.
    pub fn usage_contradictions(&self) -> Vec<Contradiction> {
        let Some(blocked_by) = self.blocked_by() else {
            return Vec::new();
        };
        self.usage_statements()
            .iter()
            .filter_map(|statement| {
                let members = statement.members.as_ref().ok()?;
                let allowing = members
                    .iter()
                    .find(|m| statement.vocabulary.outcome(&m.value) == Outcome::Allowed)?;
                let allowing = match &allowing.value {
                    MemberValue::Token(t) => format!("{}={t}", allowing.label),
                    _ => allowing.label.clone(),
                };
                Some(Contradiction::AllowsUse {
                    statement: statement.line,
                    allowing,
                    blocked_by,
                    group: statement.group,
                })
            })
            .collect()
    }

    /// How the file contradicts itself for this crawler when it is a search engine's: one
    /// [`Contradiction::SearchAllowed`] per statement for crawlers that no group names that
    /// allows search, when this crawler's own group leaves it nothing to crawl and those
    /// crawlers may crawl something. Empty for a crawler without a group of its own (the `*`
    /// group's statements speak to it: [`Crawler::usage_contradictions`] covers it).
    pub fn search_contradictions(&self) -> Vec<Contradiction> {
        if self.selection() != Selection::Exact {
            return Vec::new();
        }
        let Some(blocked_by) = self.blocked_by() else {
            return Vec::new();
        };
        let Ok(any) = Crawler::new(std::sync::Arc::clone(self.robots()), ANY_CRAWLER) else {
            return Vec::new();
        };
        if any.blocked_by().is_some() {
            return Vec::new();
        }
        any.usage_statements()
            .iter()
            .filter(|s| s.outcome(SharedCategory::Search.label(s.vocabulary)) == Outcome::Allowed)
            .map(|s| Contradiction::SearchAllowed {
                statement: s.line,
                blocked_by,
                vocabulary: s.vocabulary,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rstest::rstest;

    use super::*;
    use crate::profile::Profile;
    use crate::robots::RobotsTxt;

    fn crawler(body: &str, profile: Profile, name: &str) -> Crawler {
        let robots = Arc::new(RobotsTxt::parse(body.as_bytes(), profile, 512_000));
        Crawler::new(robots, name).unwrap()
    }

    #[rstest]
    #[case::blocked("User-agent: GPTBot\nDisallow: /\n", Profile::Rfc9309, Some(2))]
    #[case::opened(
        "User-agent: GPTBot\nDisallow: /\nAllow: /public/\n",
        Profile::Rfc9309,
        None
    )]
    #[case::first_match_after(
        "User-agent: GPTBot\nDisallow: /\nAllow: /public/\n",
        Profile::Legacy1994,
        Some(2)
    )]
    #[case::first_match_before(
        "User-agent: GPTBot\nAllow: /public/\nDisallow: /\n",
        Profile::Legacy1994,
        None
    )]
    #[case::empty_allow("User-agent: GPTBot\nDisallow: /\nAllow:\n", Profile::Google, Some(2))]
    #[case::open("User-agent: GPTBot\nDisallow: /private\n", Profile::Google, None)]
    fn a_crawler_is_blocked_when_no_rule_opens_a_path(
        #[case] body: &str,
        #[case] profile: Profile,
        #[case] expected: Option<u32>,
    ) {
        assert_eq!(crawler(body, profile, "GPTBot").blocked_by(), expected);
    }

    #[test]
    fn a_use_allowed_to_a_blocked_crawler_contradicts_the_crawl_rules() {
        let body = "User-agent: GPTBot\nDisallow: /\nContent-Signal: ai-train=yes\n\
                    Content-Signal: ai-train=no\nContent-Usage: /x train-ai=y\n";
        let found = crawler(body, Profile::Rfc9309, "GPTBot").usage_contradictions();
        assert_eq!(
            found,
            [
                Contradiction::AllowsUse {
                    statement: 3,
                    allowing: "ai-train=yes".to_owned(),
                    blocked_by: 2,
                    group: Some(0)
                },
                Contradiction::AllowsUse {
                    statement: 5,
                    allowing: "train-ai=y".to_owned(),
                    blocked_by: 2,
                    group: Some(0)
                }
            ]
        );
        // A path opened: the preferences apply to it, nothing contradicts.
        let open = "User-agent: GPTBot\nDisallow: /\nAllow: /public/\nContent-Usage: train-ai=y\n";
        assert!(crawler(open, Profile::Rfc9309, "GPTBot")
            .usage_contradictions()
            .is_empty());
        // A Dictionary that does not parse allows nothing.
        let unparsed = "User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=y, ,\n";
        assert!(crawler(unparsed, Profile::Rfc9309, "GPTBot")
            .usage_contradictions()
            .is_empty());
    }

    #[test]
    fn search_allowed_for_everyone_while_a_search_crawler_is_blocked() {
        // Cloudflare's managed file with a Googlebot block added.
        let body = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\n\
                    User-agent: Googlebot\nDisallow: /\n";
        let googlebot = crawler(body, Profile::Google, "Googlebot");
        assert!(googlebot.usage_contradictions().is_empty());
        assert_eq!(
            googlebot.search_contradictions(),
            [Contradiction::SearchAllowed {
                statement: 2,
                blocked_by: 6,
                vocabulary: Vocabulary::ContentSignals
            }]
        );
        // A crawler of the `*` group is not a search engine's own block.
        assert!(crawler(body, Profile::Google, "Bingbot")
            .search_contradictions()
            .is_empty());
        // `*` closed too: every crawler is blocked, and `AllowsUse` says so.
        let closed = "User-agent: *\nDisallow: /\nContent-Usage: search=y\n\n\
                      User-agent: Googlebot\nDisallow: /\n";
        assert!(crawler(closed, Profile::Google, "Googlebot")
            .search_contradictions()
            .is_empty());
        let refused =
            "User-agent: *\nContent-Signal: search=no\n\nUser-agent: Googlebot\nDisallow: /\n";
        assert!(crawler(refused, Profile::Google, "Googlebot")
            .search_contradictions()
            .is_empty());
    }
}
