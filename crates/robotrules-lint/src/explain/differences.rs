//! Why profiles answer differently. The steps of a decision are compared in order — the
//! `/robots.txt` special case, the groups chosen, the path compared, the rules that match, the
//! winner — and the first step where the profiles part ways is the cause.

use std::collections::BTreeSet;

use robotrules_model::{Explanation, GroupRef, Profile, Reason, RuleMatch};

use super::ProfileExplanation;
use crate::checks::{profile_list, profiles_do};

/// Sentences saying why the profiles' verdicts or deciding rules differ (none if they agree).
pub(super) fn find(profiles: &[ProfileExplanation]) -> Vec<String> {
    let answered: Vec<&Explanation> = profiles
        .iter()
        .filter_map(|p| p.explanation.as_ref())
        .collect();
    let outcome = |e: &Explanation| (e.allowed, e.decided_by.as_ref().map(|r| r.line));
    if answered.windows(2).all(|w| outcome(w[0]) == outcome(w[1])) {
        return Vec::new();
    }
    let robots_txt = |e: &Explanation| e.reason == Reason::RobotsTxtImplicitlyAllowed;
    if let Some(yes) = answered.iter().find(|e| robots_txt(e)) {
        let no: Vec<Profile> = answered
            .iter()
            .filter(|e| !robots_txt(e))
            .map(|e| e.profile)
            .collect();
        return vec![format!(
            "{} always allows `/robots.txt` (RFC 9309 §2.2.2); {} the rules to it like any other path",
            yes.profile,
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
        return vec![format!(
            "the URL's path is compared differently: {}; rfc9309 and legacy1994 bring URL and \
             pattern to one percent-encoding (RFC 9309 §2.2.2), google compares the URL as written",
            parts.join(", ")
        )];
    }
    let matched = |e: &Explanation| -> BTreeSet<(u32, bool)> {
        e.matches.iter().map(|m| (m.line, m.derived)).collect()
    };
    let by_matches = partition(&answered, matched);
    if by_matches.len() > 1 {
        return rules_differ(&answered);
    }
    vec![winner_differs(&answered)]
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
    let mut causes = Vec::new();
    let agents = |groups: &[GroupRef]| groups.iter().map(|g| g.agents.len()).sum::<usize>();
    let rfc = parts
        .iter()
        .find(|(_, ps)| ps.contains(&Profile::Rfc9309))
        .map(|(g, _)| g);
    for (groups, ps) in parts {
        if ps.contains(&Profile::Rfc9309) {
            continue;
        }
        let joined = rfc.is_some_and(|r| {
            groups.first().map(|g| g.line) == r.first().map(|g| g.line)
                && agents(groups) > agents(r)
        });
        let fewer = rfc.is_some_and(|r| groups.len() < r.len());
        for &p in ps {
            causes.push(match (p, joined, fewer) {
                (Profile::Google, true, _) => "google ends a group's user-agent lines only at an \
                    allow or disallow line, not at an extension record such as `crawl-delay`"
                    .to_owned(),
                (Profile::Legacy1994, true, _) => {
                    "legacy1994 ends a record's user-agent lines only at a blank line".to_owned()
                }
                (Profile::Legacy1994, _, true) => "legacy1994 uses only the first record that \
                    names the crawler; rfc9309 and google merge every group for it (RFC 9309 §2.2.1)"
                    .to_owned(),
                (Profile::Legacy1994, _, _) => "legacy1994 matches a record's user-agent as a \
                    substring of the crawler's name and ends records at blank lines"
                    .to_owned(),
                (_, _, _) => format!(
                    "{p} reads the file's keys and group boundaries differently (misspelt keys, \
                     missing colons, extension records between user-agent lines)"
                ),
            });
        }
    }
    causes.dedup();
    format!("{}: {}", shown.join("; "), causes.join("; "))
}

fn rules_differ(answered: &[&Explanation]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    for e in answered {
        for m in &e.matches {
            if !seen.insert((m.line, m.derived)) {
                continue;
            }
            let (mut yes, mut no) = (Vec::new(), Vec::new());
            for x in answered {
                let matches = x
                    .matches
                    .iter()
                    .any(|n| n.line == m.line && n.derived == m.derived);
                if matches { &mut yes } else { &mut no }.push(x.profile);
            }
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
            "google's `index.html` rule: `allow: {pattern}` (line {line}) also allows the \
             directory itself; {} {} no such rule",
            profile_list(no),
            if no.len() == 1 { "has" } else { "have" }
        );
    }
    if !pattern.starts_with(['/', '*']) {
        return format!(
            "line {line} `{pattern}` does not start with `/`: rfc9309 reads it as `/{pattern}`, \
             google and legacy1994 never match it"
        );
    }
    if no == [Profile::Legacy1994] && pattern.contains(['*', '$']) {
        return format!(
            "line {line} `{pattern}`: legacy1994 reads `*` and `$` literally (the 1994 convention \
             has no wildcards), so the rule does not match here"
        );
    }
    if yes == [Profile::Legacy1994] && pattern.contains(['*', '$']) {
        return format!(
            "line {line} `{pattern}`: legacy1994 reads `*` and `$` literally (the 1994 convention \
             has no wildcards), so the rule matches here"
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
    let legacy = answered.iter().find(|e| e.profile == Profile::Legacy1994);
    let others: Vec<&&Explanation> = answered
        .iter()
        .filter(|e| e.profile != Profile::Legacy1994)
        .collect();
    if let (Some(legacy), Some(other)) = (legacy, others.first()) {
        if decided(legacy) != decided(other) {
            let names: Vec<Profile> = others.iter().map(|e| e.profile).collect();
            return format!(
                "legacy1994 lets the first matching rule in file order decide ({}); {} the \
                 longest match decide ({})",
                decided(legacy),
                profiles_do(&names, "let"),
                decided(other)
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
    let shown: Vec<String> = others
        .iter()
        .map(|e| format!("{} ({}) decides by {}", e.profile, lengths(e), decided(e)))
        .collect();
    format!(
        "the longest match wins in both, but length is measured differently: {}; rfc9309 counts \
         the octets of the canonical pattern, google the pattern as written with every `*` and `$`",
        shown.join(", ")
    )
}
