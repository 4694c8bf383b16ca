//! Why profiles answer differently. The steps of a decision are compared in order — the
//! `/robots.txt` special case, the groups chosen, the path compared, the rules that match, the
//! winner — and the first step where the profiles part ways is the cause. The cause is named
//! from the fields of the profiles' readings that differ at that step
//! ([`robotrules_model::Reading`]), never from the profiles' names.

use std::collections::BTreeSet;

use robotrules::{Explanation, GroupRef, Profile, Reason, RuleMatch};
use robotrules_lint::render::{profile_list, profiles_do};
use robotrules_model::Reading;
use robotrules_model::{
    AgentListEnd, AgentToken, GroupMerge, KeySpellings, Precedence, SlashlessPattern, UrlReading,
};

use super::text::precedence;
use super::ProfileReport;

/// Sentences saying why the profiles' verdicts or deciding rules differ (none if they agree).
pub(super) fn find(profiles: &[ProfileReport]) -> Vec<String> {
    let answered: Vec<&Explanation> = profiles
        .iter()
        .filter_map(|p| p.explanation.as_ref())
        .collect();
    let outcome = |e: &Explanation| (e.allowed, e.decided_by.as_ref().map(|r| r.line));
    if answered.windows(2).all(|w| outcome(w[0]) == outcome(w[1])) {
        return Vec::new();
    }
    let robots_txt = |e: &Explanation| e.reason == Reason::RobotsTxtImplicitlyAllowed;
    if answered.iter().any(|e| robots_txt(e)) {
        let (yes, no) = split(&answered, |e| robots_txt(e));
        return vec![format!(
            "{} `/robots.txt` (RFC 9309 §2.2.2); {} the rules to it like any other path",
            profiles_do(&yes, "always allow"),
            profiles_do(&no, "apply")
        )];
    }
    let by_groups = partition(&answered, |e| e.groups.clone());
    if by_groups.len() > 1 {
        return vec![groups_differ(&by_groups)];
    }
    let by_path = partition(&answered, |e| e.path.clone());
    if by_path.len() > 1 {
        let parts: Vec<String> = by_path
            .iter()
            .map(|(path, ps)| format!("{} `{path}`", profiles_do(ps, "compare")))
            .collect();
        let (canonical, google) = split(&answered, |e| {
            e.profile.reading().urls == UrlReading::Canonical
        });
        return vec![format!(
            "the URL's path is compared differently: {}; {} dot segments and bring URL and \
             pattern to one percent-encoding (RFC 9309 §2.2.2), {} the URL as written",
            parts.join(", "),
            profiles_do(&canonical, "resolve"),
            profiles_do(&google, "compare")
        )];
    }
    let matched = |e: &Explanation| -> BTreeSet<(u32, bool)> {
        e.matches.iter().map(|m| (m.line, m.derived)).collect()
    };
    if partition(&answered, matched).len() > 1 {
        return rules_differ(&answered);
    }
    vec![winner_differs(&answered)]
}

/// The profiles for which `test` holds, and the others.
fn split(
    answered: &[&Explanation],
    test: impl Fn(&Explanation) -> bool,
) -> (Vec<Profile>, Vec<Profile>) {
    let (yes, no): (Vec<&&Explanation>, Vec<&&Explanation>) =
        answered.iter().partition(|e| test(e));
    (
        yes.iter().map(|e| e.profile).collect(),
        no.iter().map(|e| e.profile).collect(),
    )
}

/// The profiles grouped by `key`, in first-seen order.
fn partition<K: PartialEq>(
    answered: &[&Explanation],
    key: impl Fn(&Explanation) -> K,
) -> Vec<(K, Vec<Profile>)> {
    let mut parts: Vec<(K, Vec<Profile>)> = Vec::new();
    for e in answered {
        let k = key(e);
        match parts.iter_mut().find(|(pk, _)| *pk == k) {
            Some((_, ps)) => ps.push(e.profile),
            None => parts.push((k, vec![e.profile])),
        }
    }
    parts
}

/// `the group at line 1 (`*`, `CCBot`)`.
fn groups_shown(groups: &[GroupRef]) -> String {
    if groups.is_empty() {
        return "no group".to_owned();
    }
    let shown: Vec<String> = groups
        .iter()
        .map(|g| {
            let agents: Vec<String> = g.agents.iter().map(|a| format!("`{a}`")).collect();
            format!("line {} ({})", g.line, agents.join(", "))
        })
        .collect();
    let noun = if groups.len() == 1 { "group" } else { "groups" };
    format!("the {noun} at {}", shown.join(" and "))
}

fn groups_differ(parts: &[(Vec<GroupRef>, Vec<Profile>)]) -> String {
    let shown: Vec<String> = parts
        .iter()
        .map(|(groups, ps)| format!("{} {}", profiles_do(ps, "apply"), groups_shown(groups)))
        .collect();
    let causes = group_causes(parts);
    if causes.is_empty() {
        return shown.join("; ");
    }
    format!("{}: {}", shown.join("; "), causes.join("; "))
}

/// What a reading does at one step of forming and choosing groups: a verb for
/// [`profiles_do`] and the rest of the clause.
type Clause = (&'static str, &'static str);

/// How a reading words one step of forming and choosing groups.
type Describe = fn(&Reading) -> Clause;

/// The fields of the readings behind different group choices: the first part's profiles are
/// the reference; for each other part, the field that explains its groups.
fn group_causes(parts: &[(Vec<GroupRef>, Vec<Profile>)]) -> Vec<String> {
    let Some((reference, base)) = parts.first() else {
        return Vec::new();
    };
    let agents = |groups: &[GroupRef]| groups.iter().map(|g| g.agents.len()).sum::<usize>();
    let mut causes: Vec<String> = Vec::new();
    for (groups, ps) in &parts[1..] {
        let joined = groups.first().map(|g| g.line) == reference.first().map(|g| g.line)
            && agents(groups) != agents(reference);
        let fewer = groups.len() != reference.len();
        let candidates: [(bool, Describe); 4] = [
            (fewer, |r| match r.groups {
                GroupMerge::First => ("use", "only the first record that names the crawler"),
                _ => (
                    "merge",
                    "every group that names the crawler (RFC 9309 §2.2.1)",
                ),
            }),
            (joined, |r| match r.agent_list_end {
                AgentListEnd::RuleOrBlankLine => {
                    ("end", "a record's user-agent lines at a blank line")
                }
                _ => (
                    "end",
                    "a group's user-agent lines only at an allow or disallow line",
                ),
            }),
            (true, |r| match r.agent_token {
                AgentToken::Substring => {
                    ("match", "a user-agent as a substring of the crawler's name")
                }
                AgentToken::LeadingRun { digits: true } => (
                    "match",
                    "the leading run of letters, digits, `_` and `-` of a user-agent",
                ),
                _ => (
                    "match",
                    "the leading run of letters, `_` and `-` of a user-agent (`MJ12bot` is `MJ`)",
                ),
            }),
            (true, |r| match r.keys {
                KeySpellings::Lenient => {
                    ("accept", "misspelt keys, key prefixes and missing colons")
                }
                _ => ("read", "exact keys only"),
            }),
        ];
        let field = candidates.iter().find(|(applies, describe)| {
            *applies
                && ps
                    .iter()
                    .chain(base)
                    .any(|p| describe(p.reading()) != describe(base[0].reading()))
        });
        if let Some((_, describe)) = field {
            for (who, clause) in [
                (base.as_slice(), describe(base[0].reading())),
                (ps.as_slice(), describe(ps[0].reading())),
            ] {
                let sentence = format!("{} {}", profiles_do(who, clause.0), clause.1);
                if !causes.contains(&sentence) {
                    causes.push(sentence);
                }
            }
        }
    }
    causes
}

fn rules_differ(answered: &[&Explanation]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    for e in answered {
        for m in &e.matches {
            if !seen.insert((m.line, m.derived)) {
                continue;
            }
            let (yes, no) = split(answered, |x| {
                x.matches
                    .iter()
                    .any(|n| n.line == m.line && n.derived == m.derived)
            });
            if no.is_empty() {
                continue;
            }
            out.push(only_some_match(m, &yes, &no));
        }
    }
    out
}

/// Why rule `m` matches under `yes` and not under `no`.
fn only_some_match(m: &RuleMatch, yes: &[Profile], no: &[Profile]) -> String {
    let line = m.line;
    let pattern = &m.pattern;
    if m.derived {
        return format!(
            "Google's `index.html` rule: `allow: {pattern}` (line {line}) also allows the \
             directory itself under {}; {} {} no such rule",
            profile_list(yes),
            profile_list(no),
            if no.len() == 1 { "has" } else { "have" }
        );
    }
    let all: Vec<Profile> = yes.iter().chain(no).copied().collect();
    if !pattern.starts_with(['/', '*']) {
        let (prepend, never): (Vec<Profile>, Vec<Profile>) = all
            .iter()
            .partition(|p| p.reading().slashless_pattern == SlashlessPattern::PrependSlash);
        return format!(
            "line {line} `{pattern}` does not start with `/`: {} it as `/{pattern}`, {} it",
            profiles_do(&prepend, "read"),
            profiles_do(&never, "never match")
        );
    }
    let literal: Vec<Profile> = all
        .iter()
        .copied()
        .filter(|p| !p.reading().wildcards)
        .collect();
    if pattern.contains(['*', '$']) && (literal == no || literal == yes) {
        let effect = if literal == no {
            "does not match"
        } else {
            "matches"
        };
        return format!(
            "line {line} `{pattern}`: {} `*` and `$` literally (no wildcards), so the rule \
             {effect} there",
            profiles_do(&literal, "read")
        );
    }
    format!(
        "line {line} `{pattern}` matches under {} but not under {}: the profiles encode patterns \
         and URLs differently (RFC 9309 §2.2.2)",
        profile_list(yes),
        profile_list(no)
    )
}

fn winner_differs(answered: &[&Explanation]) -> String {
    let decided = |x: &Explanation| {
        x.decided_by
            .as_ref()
            .map_or("no rule".to_owned(), |r| format!("line {}", r.line))
    };
    let first_match = |e: &Explanation| e.profile.reading().precedence == Precedence::FirstMatch;
    let (first, longest) = split(answered, first_match);
    let pick = |ps: &[Profile]| answered.iter().find(|e| ps.first() == Some(&e.profile));
    if let (Some(f), Some(l)) = (pick(&first), pick(&longest)) {
        if decided(f) != decided(l) {
            return format!(
                "{} the first matching rule in file order decide ({}); {} the longest match \
                 decide ({})",
                profiles_do(&first, "let"),
                decided(f),
                profiles_do(&longest, "let"),
                decided(l)
            );
        }
    }
    let lengths = |x: &Explanation| {
        let v: Vec<String> = x
            .matches
            .iter()
            .map(|m| format!("line {} = {}", m.line, m.priority))
            .collect();
        v.join(", ")
    };
    let others: Vec<&&Explanation> = answered.iter().filter(|e| !first_match(e)).collect();
    let shown: Vec<String> = others
        .iter()
        .map(|e| format!("{} ({}) decides by {}", e.profile, lengths(e), decided(e)))
        .collect();
    let how: Vec<String> = others
        .iter()
        .map(|e| format!("{}: {}", e.profile, precedence(e.profile.reading())))
        .collect();
    format!(
        "the longest match wins in each, but length is measured differently: {}; {}",
        shown.join(", "),
        how.join("; ")
    )
}
