//! Why a URL is allowed or not for a crawler, under one profile or side by side under several.
//!
//! The model's [`Explanation`] says which groups apply, which rules match and which decides.
//! This module adds what a person asks next: *why* those groups (the exact token, the `*`
//! fallback, merged groups), whether the winner won a tie, which special case applied
//! (`/robots.txt`, Google's `index.html` rule) and, across profiles, why the verdicts differ.
//! [`text`] renders it, with the deciding line shown in context.

mod differences;
mod text;

use robotrules_grammar::DEFAULT_PARSE_LIMIT;
use robotrules_model::{Explanation, Profile, RobotsTxt, RuleKind, RuleMatch, Selection};
use serde::Serialize;

pub use text::text;

/// What to explain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainOptions {
    /// The profiles to explain under, in the order shown.
    pub profiles: Vec<Profile>,
    /// Bytes past this many are ignored (RFC 9309 §2.5).
    pub parse_limit: usize,
}

impl Default for ExplainOptions {
    fn default() -> Self {
        ExplainOptions {
            profiles: vec![Profile::default()],
            parse_limit: DEFAULT_PARSE_LIMIT,
        }
    }
}

/// Why the groups that apply were chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum GroupChoice {
    /// Groups name the crawler's product token; several are merged (RFC 9309 §2.2.1).
    ExactToken {
        /// The token, lower-cased.
        token: String,
        /// How many groups name it.
        groups: usize,
    },
    /// No group names the crawler: the `*` group(s), merged when several.
    GlobalFallback {
        /// How many `*` groups there are.
        groups: usize,
    },
    /// 1994: the first record whose user-agent is a substring of the crawler's name.
    FirstRecord {
        /// That user-agent, lower-cased.
        token: String,
    },
    /// 1994: no record names the crawler: the first `*` record.
    FirstGlobalRecord,
    /// No group names the crawler and there is no `*` group.
    NoGroup,
}

/// A rule the winner tied with: equally long, of the other kind (allow wins, RFC 9309 §2.2.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tie {
    /// The shared priority (length).
    pub priority: u32,
    /// Lines of the rules the winner tied with.
    pub lines: Vec<u32>,
}

/// A special case that decided or shaped the verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SpecialCase {
    /// RFC 9309 §2.2.2: `/robots.txt` is implicitly allowed.
    RobotsTxt,
    /// Google: `allow: …/index.htm…` also allows the directory (`…/$`).
    IndexHtml {
        /// The allow line.
        line: u32,
    },
}

/// One profile's account.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProfileExplanation {
    /// The profile.
    pub profile: Profile,
    /// Why it cannot answer (a crawler name the profile rejects), if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The model's account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
    /// Why these groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_choice: Option<GroupChoice>,
    /// Set when the deciding rule won a tie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie: Option<Tie>,
    /// Special cases that applied.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub special_cases: Vec<SpecialCase>,
}

impl ProfileExplanation {
    /// The verdict, if the profile could answer.
    pub fn allowed(&self) -> Option<bool> {
        self.explanation.as_ref().map(|e| e.allowed)
    }
}

/// The account of one (crawler, URL) question under one or more profiles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplainReport {
    /// The crawler's name as given.
    pub agent: String,
    /// The URL as given.
    pub url: String,
    /// One account per profile, in the order asked for.
    pub profiles: Vec<ProfileExplanation>,
    /// Why the profiles' verdicts or deciding rules differ (empty when they agree).
    pub differences: Vec<String>,
}

impl ExplainReport {
    /// Whether any profile disallows the URL.
    pub fn any_disallowed(&self) -> bool {
        self.profiles.iter().any(|p| p.allowed() == Some(false))
    }

    /// Whether some profile could not answer.
    pub fn any_error(&self) -> bool {
        self.profiles.iter().any(|p| p.error.is_some())
    }
}

/// Explain whether crawler `agent` may fetch `url` under each of `options.profiles`.
/// Never fails: a profile that rejects the crawler's name carries the reason in
/// [`ProfileExplanation::error`].
pub fn explain(bytes: &[u8], agent: &str, url: &str, options: &ExplainOptions) -> ExplainReport {
    let models: Vec<RobotsTxt> = options
        .profiles
        .iter()
        .map(|&p| RobotsTxt::parse(bytes, p, options.parse_limit))
        .collect();
    let profiles: Vec<ProfileExplanation> = models
        .iter()
        .map(|robots| explain_one(robots, agent, url))
        .collect();
    let differences = differences::find(&profiles);
    ExplainReport {
        agent: agent.to_owned(),
        url: url.to_owned(),
        profiles,
        differences,
    }
}

fn explain_one(robots: &RobotsTxt, agent: &str, url: &str) -> ProfileExplanation {
    let profile = robots.profile();
    let rules = match robots.agent(agent) {
        Ok(rules) => rules,
        Err(error) => {
            return ProfileExplanation {
                profile,
                error: Some(error.to_string()),
                explanation: None,
                group_choice: None,
                tie: None,
                special_cases: Vec::new(),
            }
        }
    };
    let explanation = rules.explain(agent, url);
    let group_choice = group_choice(robots, &explanation, agent);
    let tie = explanation
        .decided_by
        .as_ref()
        .and_then(|winner| tie(profile, winner, &explanation.matches));
    let mut special_cases = Vec::new();
    if explanation.reason == robotrules_model::Reason::RobotsTxtImplicitlyAllowed {
        special_cases.push(SpecialCase::RobotsTxt);
    }
    if let Some(rule) = explanation.matches.iter().find(|m| m.derived) {
        special_cases.push(SpecialCase::IndexHtml { line: rule.line });
    }
    ProfileExplanation {
        profile,
        error: None,
        explanation: Some(explanation),
        group_choice: Some(group_choice),
        tie,
        special_cases,
    }
}

fn group_choice(robots: &RobotsTxt, explanation: &Explanation, agent: &str) -> GroupChoice {
    let groups = explanation.groups.len();
    let legacy = robots.profile() == Profile::Legacy1994;
    match explanation.selection {
        Selection::None => GroupChoice::NoGroup,
        Selection::Global if legacy => GroupChoice::FirstGlobalRecord,
        Selection::Global => GroupChoice::GlobalFallback { groups },
        Selection::Specific => {
            let name = agent.to_ascii_lowercase();
            // The user-agent line that named the crawler: its token.
            let token = explanation
                .groups
                .iter()
                .filter_map(|g| robots.groups().get(g.index))
                .flat_map(|g| g.agents(robots))
                .map(|a| a.token(robots).into_owned())
                .find(|t| {
                    !t.is_empty()
                        && t != "*"
                        && if legacy {
                            name.contains(t.as_str())
                        } else {
                            *t == name
                        }
                })
                .unwrap_or(name);
            if legacy {
                GroupChoice::FirstRecord { token }
            } else {
                GroupChoice::ExactToken { token, groups }
            }
        }
    }
}

/// The rules of the other kind the winner tied with (not in 1994, where order decides).
fn tie(profile: Profile, winner: &RuleMatch, matches: &[RuleMatch]) -> Option<Tie> {
    if profile == Profile::Legacy1994 {
        return None;
    }
    let lines: Vec<u32> = matches
        .iter()
        .filter(|m| m.priority == winner.priority && m.kind != winner.kind)
        .map(|m| m.line)
        .collect();
    (!lines.is_empty() && winner.kind == RuleKind::Allow).then_some(Tie {
        priority: winner.priority,
        lines,
    })
}
