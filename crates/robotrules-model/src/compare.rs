//! Why two profiles decide one question differently, derived from the decisions each made.
//!
//! [`differences`] takes two crawlers (one file read under two profiles) and their
//! explanations of one URL. When the outcomes (verdict and deciding line) agree there is
//! nothing to say. Otherwise each cause below is looked for in turn, one function each, and
//! only from what the model did: a line that is a rule or user-agent line in one reading and a
//! [`DiagnosticKind::KeyNotAccepted`] in the other; a user-agent line read as two different
//! tokens; different groups; one rule matching in one reading only; the same matches ranked
//! differently. When none is found the answer is [`Difference::Undetermined`], with both
//! deciding lines and no guess.

use crate::compile::{GroupRules, Rule};
use crate::crawler::{Crawler, Reason, Selection};
use crate::diagnostic::DiagnosticKind;
use crate::explain::{Explanation, GroupRef, RuleMatch};
use crate::profile::{GroupMerge, Precedence, Profile};
use crate::robots::UserAgent;
use robotrules_grammar::{FindingKind, KeyKind, Span};

/// One side of a comparison: a profile and what it did at the step concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Side<T> {
    /// The profile.
    pub profile: Profile,
    /// What it did.
    pub value: T,
}

/// How a rule is compared under one profile.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Compared {
    /// The rule's pattern as compared (normalised).
    pub pattern: String,
    /// The URL's path as compared.
    pub path: String,
}

/// The deciding rule under one profile, with its length.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Decided {
    /// The deciding line, if a rule decided.
    pub line: Option<u32>,
    /// Its priority under longest-match precedence.
    pub priority: Option<u32>,
    /// How the profile picks among matching rules.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub precedence: Precedence,
}

/// Why two profiles' verdicts or deciding lines differ, with the line concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "cause", rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Difference {
    /// `/robots.txt` is always allowed under `allowed_by` (RFC 9309 §2.2.2).
    ImplicitRobotsTxt {
        /// The profile that allows it implicitly.
        allowed_by: Profile,
    },
    /// Line `line`'s key is read as `read_as` under `accepted_by` and ignored under
    /// `ignored_by` (a misspelt key, a key prefix or a missing colon).
    KeySpelling {
        /// The line.
        line: u32,
        /// The key as written (offsets into the input).
        key: Span,
        /// The record it is read as where accepted.
        read_as: KeyKind,
        /// The profile that reads it.
        accepted_by: Profile,
        /// The profile that ignores the line.
        ignored_by: Profile,
    },
    /// The user-agent line `line` gives two different tokens, so it names the crawler under
    /// one profile only.
    AgentToken {
        /// The user-agent line.
        line: u32,
        /// The value as written.
        value: String,
        /// The token each profile reads.
        tokens: [Side<String>; 2],
    },
    /// Different groups apply: how each profile chose them.
    Groups {
        /// The groups each profile applies, and how they were chosen.
        groups: [Side<(Selection, Vec<GroupRef>)>; 2],
        /// Whether the profiles differ in merging groups (every group or the first record).
        merging: bool,
    },
    /// Google's line-length limit cut line `line` under `cut_by`.
    LineCut {
        /// The line.
        line: u32,
        /// The profile that cut it.
        cut_by: Profile,
    },
    /// Rule `line` (`pattern` as written) matches under `matches` only: the pattern or the
    /// path compared differs between the profiles (percent-encoding, dot segments, wildcards,
    /// a pattern without a leading `/`).
    Encoding {
        /// The rule's line.
        line: u32,
        /// The pattern as written.
        pattern: String,
        /// The profile under which it matches, then the other: pattern and path as compared.
        compared: [Side<Compared>; 2],
    },
    /// An empty `disallow:` at `line` allows everything under `allows_all` (the 1994
    /// convention) and matches nothing under the other profile (RFC 9309 §2.2.2).
    EmptyDisallow {
        /// The line.
        line: u32,
        /// The profile that reads it as allowing everything.
        allows_all: Profile,
    },
    /// Google's `index.html` rule: the allow at `line` also allows the directory under
    /// `derived_by`.
    IndexHtml {
        /// The allow rule's line.
        line: u32,
        /// The profile that derives the rule.
        derived_by: Profile,
    },
    /// Both deciding rules match under both profiles, and precedence picks different ones.
    Precedence {
        /// The deciding rule under each profile.
        decided: [Side<Decided>; 2],
    },
    /// No cause found: the profiles decide differently, at these lines.
    Undetermined {
        /// The deciding line under each profile (`None`: no rule decided).
        decided: [Side<Option<u32>>; 2],
    },
}

/// Why `a` and `b` (one file under two profiles, one crawler) decide `ea` and `eb`
/// differently; empty when the verdicts and deciding lines agree.
pub fn differences(
    a: &Crawler,
    ea: &Explanation,
    b: &Crawler,
    eb: &Explanation,
) -> Vec<Difference> {
    let outcome = |e: &Explanation| (e.allowed, e.decided_by.as_ref().map(|r| r.line));
    if outcome(ea) == outcome(eb) {
        return Vec::new();
    }
    if let Some(d) = implicit_robots_txt(ea, eb) {
        return vec![d];
    }
    let mut found = key_spellings(a, ea, b);
    found.extend(key_spellings(b, eb, a));
    found.extend(line_cuts(a, ea, b, eb));
    if !found.is_empty() {
        return found;
    }
    let lines = |e: &Explanation| e.groups.iter().map(|g| g.line).collect::<Vec<_>>();
    if lines(ea) != lines(eb) {
        return vec![agent_token(a, ea, b)
            .or_else(|| agent_token(b, eb, a))
            .unwrap_or_else(|| groups(ea, eb))];
    }
    let mut found = rules_matching_once(ea, b, eb);
    found.extend(rules_matching_once(eb, a, ea));
    if !found.is_empty() {
        return found;
    }
    // The same groups by their first lines, with different user-agent lines: where a group's
    // user-agent lines end.
    if ea.groups != eb.groups {
        return vec![groups(ea, eb)];
    }
    vec![precedence(ea, eb).unwrap_or_else(|| undetermined(ea, eb))]
}

/// One profile allows `/robots.txt` implicitly.
fn implicit_robots_txt(ea: &Explanation, eb: &Explanation) -> Option<Difference> {
    [ea, eb]
        .into_iter()
        .find(|e| e.reason == Reason::RobotsTxtImplicitlyAllowed)
        .map(|e| Difference::ImplicitRobotsTxt {
            allowed_by: e.profile,
        })
}

/// The lines that counted in `x`'s decision: the user-agent lines that chose its groups (those
/// with the token that named the crawler, or the `*` lines when none did) and the deciding
/// rule. A matching rule that did not decide, or another name in the same group, is no cause.
fn lines_used(x: &Crawler, ex: &Explanation) -> Vec<u32> {
    let robots = x.robots();
    let named = x.named_by().map(|n| n.token(robots));
    let chose = |a: &UserAgent| match &named {
        Some(token) => !a.global && a.token(robots).eq_ignore_ascii_case(token),
        None => a.global,
    };
    let mut lines: Vec<u32> = x
        .groups()
        .flat_map(|(g, _)| g.agents(robots).iter().filter(|a| chose(a)).map(|a| a.line))
        .chain(ex.decided_by.as_ref().map(|r| r.line))
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// Lines that counted in `x`'s decision whose key `y` does not accept.
fn key_spellings(x: &Crawler, ex: &Explanation, y: &Crawler) -> Vec<Difference> {
    let used = lines_used(x, ex);
    y.robots()
        .diagnostics()
        .iter()
        .filter(|d| used.binary_search(&d.line).is_ok())
        .filter_map(|d| match d.kind {
            DiagnosticKind::KeyNotAccepted { looks_like, .. } => Some(Difference::KeySpelling {
                line: d.line,
                key: d.span,
                read_as: looks_like,
                accepted_by: x.robots().profile(),
                ignored_by: y.robots().profile(),
            }),
            _ => None,
        })
        .collect()
}

/// Lines that counted in either decision and that one profile cut at its line-length limit.
fn line_cuts(a: &Crawler, ea: &Explanation, b: &Crawler, eb: &Explanation) -> Vec<Difference> {
    let mut used = lines_used(a, ea);
    used.extend(lines_used(b, eb));
    used.sort_unstable();
    used.dedup();
    [a, b]
        .into_iter()
        .flat_map(|c| {
            c.robots()
                .diagnostics()
                .iter()
                .filter(|d| {
                    matches!(
                        d.kind,
                        DiagnosticKind::Grammar(FindingKind::LineTooLong { .. })
                    )
                })
                .filter(|d| used.binary_search(&d.line).is_ok())
                .map(|d| Difference::LineCut {
                    line: d.line,
                    cut_by: c.robots().profile(),
                })
        })
        .collect()
}

/// The user-agent line that named the crawler under `x`, read as a different token under `y`.
fn agent_token(x: &Crawler, ex: &Explanation, y: &Crawler) -> Option<Difference> {
    let named: &UserAgent = x.named_by()?;
    let other = y.robots().agents.iter().find(|a| a.line == named.line)?;
    let (tx, ty) = (named.token(x.robots()), other.token(y.robots()));
    if tx.eq_ignore_ascii_case(&ty) {
        return None;
    }
    Some(Difference::AgentToken {
        line: named.line,
        value: named.value(x.robots()).into_owned(),
        tokens: [
            Side {
                profile: ex.profile,
                value: tx.into_owned(),
            },
            Side {
                profile: y.robots().profile(),
                value: ty.into_owned(),
            },
        ],
    })
}

/// Different groups, no token behind it: how each profile chose.
fn groups(ea: &Explanation, eb: &Explanation) -> Difference {
    let merge = |e: &Explanation| e.profile.reading().groups;
    let merging = merge(ea) != merge(eb)
        && [ea, eb]
            .iter()
            .any(|e| merge(e) == GroupMerge::All && e.groups.len() > 1);
    let side = |e: &Explanation| Side {
        profile: e.profile,
        value: (e.selection, e.groups.clone()),
    };
    Difference::Groups {
        groups: [side(ea), side(eb)],
        merging,
    }
}

/// The rule at `line` in `c`'s groups (the line's own rule, not a derived one).
fn rule_at(c: &Crawler, line: u32) -> Option<(&Rule, &GroupRules)> {
    c.groups().find_map(|(_, rules)| {
        rules
            .rules()
            .iter()
            .find(|r| r.line == line && !r.derived)
            .map(|r| (r, rules))
    })
}

/// `x`'s deciding rule when it does not match under `y`: Google's derived `index.html` rule,
/// or the pattern or path as compared differing. (A rule that matches and does not decide is
/// no cause; `y`'s deciding rule is looked at from `y`'s side.)
fn rules_matching_once(ex: &Explanation, y: &Crawler, ey: &Explanation) -> Vec<Difference> {
    let in_y = |m: &RuleMatch| {
        ey.matches
            .iter()
            .any(|n| n.line == m.line && n.derived == m.derived)
    };
    ex.decided_by
        .iter()
        .filter(|m| !in_y(m))
        .filter_map(|m| {
            if m.derived {
                return Some(Difference::IndexHtml {
                    line: m.line,
                    derived_by: ex.profile,
                });
            }
            let empty = |e: &Explanation| e.profile.reading().empty_disallow_allows_all;
            if m.pattern.is_empty() && empty(ex) != empty(ey) {
                return Some(Difference::EmptyDisallow {
                    line: m.line,
                    allows_all: ex.profile,
                });
            }
            // A rule outside `y`'s groups is a difference of groups, not of encoding.
            let (rule, rules) = rule_at(y, m.line)?;
            let mut other = rules.normalized(rule).into_owned();
            if rule.is_anchored() {
                other.push('$');
            }
            Some(Difference::Encoding {
                line: m.line,
                pattern: m.pattern.clone(),
                compared: [
                    Side {
                        profile: ex.profile,
                        value: Compared {
                            pattern: m.normalized.clone(),
                            path: ex.path.clone(),
                        },
                    },
                    Side {
                        profile: ey.profile,
                        value: Compared {
                            pattern: other,
                            path: ey.path.clone(),
                        },
                    },
                ],
            })
        })
        .collect()
}

/// The same rules match and different ones decide: precedence.
fn precedence(ea: &Explanation, eb: &Explanation) -> Option<Difference> {
    let decided = |e: &Explanation| Side {
        profile: e.profile,
        value: Decided {
            line: e.decided_by.as_ref().map(|r| r.line),
            priority: e.decided_by.as_ref().map(|r| r.priority),
            precedence: e.profile.reading().precedence,
        },
    };
    // Each deciding rule matches under the other profile too, and the other picked another.
    let matches_in = |e: &Explanation, line: u32| e.matches.iter().any(|m| m.line == line);
    let (la, lb) = (ea.decided_by.as_ref()?.line, eb.decided_by.as_ref()?.line);
    (la != lb && matches_in(eb, la) && matches_in(ea, lb)).then(|| Difference::Precedence {
        decided: [decided(ea), decided(eb)],
    })
}

/// No cause found: both deciding lines.
fn undetermined(ea: &Explanation, eb: &Explanation) -> Difference {
    let side = |e: &Explanation| Side {
        profile: e.profile,
        value: e.decided_by.as_ref().map(|r| r.line),
    };
    Difference::Undetermined {
        decided: [side(ea), side(eb)],
    }
}

impl Difference {
    /// The same cause with profile `from` written as `to` wherever it appears: two pairs'
    /// causes that are equal this way are one cause shared by both profiles.
    pub fn with_profile(&self, from: Profile, to: Profile) -> Difference {
        let p = |q: &mut Profile| {
            if *q == from {
                *q = to;
            }
        };
        let mut d = self.clone();
        match &mut d {
            Difference::ImplicitRobotsTxt { allowed_by } => p(allowed_by),
            Difference::KeySpelling {
                accepted_by,
                ignored_by,
                ..
            } => {
                p(accepted_by);
                p(ignored_by);
            }
            Difference::AgentToken { tokens, .. } => {
                tokens.iter_mut().for_each(|s| p(&mut s.profile))
            }
            Difference::Groups { groups, .. } => groups.iter_mut().for_each(|s| p(&mut s.profile)),
            Difference::LineCut { cut_by, .. } => p(cut_by),
            Difference::Encoding { compared, .. } => {
                compared.iter_mut().for_each(|s| p(&mut s.profile));
            }
            Difference::IndexHtml { derived_by, .. } => p(derived_by),
            Difference::EmptyDisallow { allows_all, .. } => p(allows_all),
            Difference::Precedence { decided } => {
                decided.iter_mut().for_each(|s| p(&mut s.profile))
            }
            Difference::Undetermined { decided } => {
                decided.iter_mut().for_each(|s| p(&mut s.profile));
            }
        }
        d
    }
}
