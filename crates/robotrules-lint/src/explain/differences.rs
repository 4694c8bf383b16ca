//! Why two profiles answer differently: compared step by step (special cases, groups, the
//! path compared, the rules that match, the winner), the first step that differs is the cause.

use std::collections::BTreeSet;

use robotrules_model::{Explanation, Profile, Reason, RuleMatch};

use super::ProfileExplanation;

/// One sentence per cause, for every pair of profiles whose verdict or deciding rule differs.
pub(super) fn find(profiles: &[ProfileExplanation]) -> Vec<String> {
    let mut found = Vec::new();
    let answered: Vec<&Explanation> = profiles
        .iter()
        .filter_map(|p| p.explanation.as_ref())
        .collect();
    let robots_txt = |x: &Explanation| x.reason == Reason::RobotsTxtImplicitlyAllowed;
    if let Some(yes) = answered.iter().find(|e| robots_txt(e)) {
        let no: Vec<Profile> = answered
            .iter()
            .filter(|e| !robots_txt(e) && !e.allowed)
            .map(|e| e.profile)
            .collect();
        if !no.is_empty() {
            found.push(format!(
                "{} always allows `/robots.txt` (RFC 9309 §2.2.2); {} the rules to it like any \
                 other path",
                yes.profile,
                crate::checks::profiles_do(&no, "apply")
            ));
        }
    }
    for (i, a) in profiles.iter().enumerate() {
        for b in &profiles[i + 1..] {
            let (Some(ea), Some(eb)) = (&a.explanation, &b.explanation) else {
                continue;
            };
            let line = |e: &Explanation| e.decided_by.as_ref().map(|r| r.line);
            if (ea.allowed == eb.allowed && line(ea) == line(eb))
                || robots_txt(ea)
                || robots_txt(eb)
            {
                continue;
            }
            for sentence in compare(ea, eb) {
                if !found.contains(&sentence) {
                    found.push(sentence);
                }
            }
        }
    }
    found
}

fn group_lines(e: &Explanation) -> Vec<u32> {
    e.groups.iter().map(|g| g.line).collect()
}

fn lines(v: &[u32]) -> String {
    let v: Vec<String> = v.iter().map(u32::to_string).collect();
    match v.len() {
        0 => "none".to_owned(),
        1 => format!("line {}", v[0]),
        _ => format!("lines {}", v.join(", ")),
    }
}

fn compare(a: &Explanation, b: &Explanation) -> Vec<String> {
    let (pa, pb) = (a.profile, b.profile);
    if group_lines(a) != group_lines(b) {
        return vec![groups_differ(a, b)];
    }
    if a.path != b.path {
        return vec![format!(
            "{pa} compares the URL's path as `{}`, {pb} as `{}`: rfc9309 and legacy1994 bring \
             URL and pattern to one percent-encoding (RFC 9309 §2.2.2), google compares the URL \
             as written",
            a.path, b.path
        )];
    }
    let matched = |x: &Explanation| -> BTreeSet<(u32, bool)> {
        x.matches.iter().map(|m| (m.line, m.derived)).collect()
    };
    let (ma, mb) = (matched(a), matched(b));
    if ma != mb {
        let mut out = Vec::new();
        for m in a
            .matches
            .iter()
            .filter(|m| !mb.contains(&(m.line, m.derived)))
        {
            out.push(only_one_matches(m, pa, pb));
        }
        for m in b
            .matches
            .iter()
            .filter(|m| !ma.contains(&(m.line, m.derived)))
        {
            out.push(only_one_matches(m, pb, pa));
        }
        return out;
    }
    vec![winner_differs(a, b)]
}

fn groups_differ(a: &Explanation, b: &Explanation) -> String {
    let (pa, pb) = (a.profile, b.profile);
    let cause = if pa == Profile::Legacy1994 || pb == Profile::Legacy1994 {
        "legacy1994 takes only the first record whose user-agent is a substring of the crawler's \
         name, and a blank line ends a record's user-agent lines"
    } else {
        "google ends a group's user-agent lines only at an allow or disallow (not at an \
         extension record such as `crawl-delay`) and reads misspelt keys such as `useragent`"
    };
    format!(
        "{pa} applies the group at {}, {pb} the group at {}: {cause}",
        lines(&group_lines(a)),
        lines(&group_lines(b))
    )
}

/// Why rule `m` matches under `yes` and not under `no`.
fn only_one_matches(m: &RuleMatch, yes: Profile, no: Profile) -> String {
    let line = m.line;
    let pattern = &m.pattern;
    if m.derived {
        return format!(
            "google's `index.html` rule: `allow: {pattern}` (line {line}) also allows the directory itself; {no} has no such rule"
        );
    }
    if !pattern.starts_with(['/', '*']) {
        return format!(
            "line {line} `{pattern}` does not start with `/`: rfc9309 reads it as `/{pattern}`, google and legacy1994 never match it"
        );
    }
    let legacy = yes == Profile::Legacy1994 || no == Profile::Legacy1994;
    if legacy && pattern.contains(['*', '$']) {
        return format!(
            "line {line} `{pattern}`: legacy1994 reads `*` and `$` literally (the 1994 convention \
             has no wildcards), so the rule {} here",
            if yes == Profile::Legacy1994 {
                "matches"
            } else {
                "does not match"
            }
        );
    }
    format!(
        "line {line} `{pattern}` matches under {yes} (compared as `{}`) but not under {no}: the \
         profiles encode patterns and URLs differently (RFC 9309 §2.2.2)",
        m.normalized
    )
}

fn winner_differs(a: &Explanation, b: &Explanation) -> String {
    let (pa, pb) = (a.profile, b.profile);
    let decided = |x: &Explanation| {
        x.decided_by
            .as_ref()
            .map_or("no rule".to_owned(), |r| format!("line {}", r.line))
    };
    if pa == Profile::Legacy1994 || pb == Profile::Legacy1994 {
        let (legacy, other) = if pa == Profile::Legacy1994 {
            (a, b)
        } else {
            (b, a)
        };
        return format!(
            "legacy1994 lets the first matching rule in file order decide ({}); {} lets the \
             longest match decide ({})",
            decided(legacy),
            other.profile,
            decided(other)
        );
    }
    let lengths = |x: &Explanation| {
        let v: Vec<String> = x
            .matches
            .iter()
            .map(|m| format!("line {} = {}", m.line, m.priority))
            .collect();
        v.join(", ")
    };
    format!(
        "both let the longest match decide but measure length differently: {pa} ({}) decides by \
         {}, {pb} ({}) by {}; rfc9309 counts the octets of the canonical pattern, google the \
         pattern as written with every `*` and `$`",
        lengths(a),
        decided(a),
        lengths(b),
        decided(b)
    )
}
