//! Why profiles answer differently, in words. The causes are the model's
//! ([`robotrules::Crawler::differences`]): derived from the decisions each profile made, each
//! with its line. This module picks the pairs to compare and renders each cause; it works
//! nothing out again and never names a cause the model did not find.

use robotrules::reading::{
    AgentListEnd, Compared, Decided, Difference, GroupMerge, Precedence, Reading, Side,
    SlashlessPattern,
};
use robotrules::{Crawler, Explanation, GroupRef, Profile, Selection};
use robotrules_lint::render::{profile_list, profiles_do};
use robotrules_text::excerpt;

use super::profile_report::Asked;

/// One profile's answer with the crawler it came from.
struct Answered<'a> {
    crawler: &'a Crawler,
    explanation: &'a Explanation,
}

/// Sentences saying why the profiles' verdicts or deciding rules differ (none if they agree):
/// the first profile that answered is compared with each other one that decides differently.
pub(super) fn find(asked: &[Asked], bytes: &[u8]) -> Vec<String> {
    let answered: Vec<Answered<'_>> = asked
        .iter()
        .filter_map(|a| {
            Some(Answered {
                crawler: a.crawler.as_ref()?,
                explanation: a.report.explanation.as_ref()?,
            })
        })
        .collect();
    let Some((first, others)) = answered.split_first() else {
        return Vec::new();
    };
    // Each cause with the profiles it concerns beside the first: the same cause found for
    // two profiles (equal once one is written as the other) is said once, for both.
    let mut shared: Vec<(Difference, Vec<Profile>)> = Vec::new();
    for other in others {
        let found = first
            .crawler
            .differences(first.explanation, other.crawler, other.explanation);
        let profile = other.explanation.profile;
        for d in found {
            let same = shared
                .iter_mut()
                .find(|(c, ps)| d.with_profile(profile, ps[0]) == *c);
            match same {
                Some((_, ps)) => ps.push(profile),
                None => shared.push((d, vec![profile])),
            }
        }
    }
    let first = first.explanation.profile;
    shared
        .iter()
        .map(|(d, others)| {
            render(
                d,
                &Who {
                    first,
                    others: others.as_slice(),
                },
                bytes,
            )
        })
        .collect()
}

/// The profiles of a cause: the first profile, and those whose answers it explains against
/// the first (the cause names the first of them).
struct Who<'a> {
    first: Profile,
    others: &'a [Profile],
}

impl Who<'_> {
    /// The profiles `p` stands for in the cause.
    fn of(&self, p: Profile) -> Vec<Profile> {
        if p == self.first {
            vec![p]
        } else {
            self.others.to_vec()
        }
    }

    /// `p`'s profiles as the subject of `verb`.
    fn does(&self, p: Profile, verb: &str) -> String {
        profiles_do(&self.of(p), verb)
    }

    /// `p`'s profiles, listed.
    fn list(&self, p: Profile) -> String {
        profile_list(&self.of(p))
    }

    /// `p`'s profiles followed by the singular or plural form of a verb.
    fn agrees(&self, p: Profile, singular: &str, plural: &str) -> String {
        let verb = if self.of(p).len() == 1 {
            singular
        } else {
            plural
        };
        format!("{} {verb}", self.list(p))
    }

    /// The profiles on the other side of the cause from `p`.
    fn other(&self, p: Profile) -> Profile {
        if p == self.first {
            self.others.first().copied().unwrap_or(p)
        } else {
            self.first
        }
    }
}

/// One cause in words.
fn render(d: &Difference, who: &Who<'_>, bytes: &[u8]) -> String {
    match d {
        Difference::ImplicitRobotsTxt { allowed_by } => format!(
            "{} `/robots.txt` (RFC 9309 §2.2.2); {} the rules to it like any other path",
            who.does(*allowed_by, "always allow"),
            who.does(who.other(*allowed_by), "apply")
        ),
        Difference::KeySpelling {
            line,
            key,
            read_as,
            accepted_by,
            ignored_by,
        } => {
            let written = bytes.get(key.start..key.end).unwrap_or_default();
            format!(
                "line {line}: {} the key `{}` as `{}`; {} not accept that spelling and \
                 {} the line (RFC 9309 §2.2: keys are exact)",
                who.does(*accepted_by, "read"),
                excerpt(written, 40),
                read_as.canonical().unwrap_or("a record"),
                who.agrees(*ignored_by, "does", "do"),
                if who.of(*ignored_by).len() == 1 {
                    "ignores"
                } else {
                    "ignore"
                },
            )
        }
        Difference::AgentToken {
            line,
            value,
            tokens,
        } => {
            let [named, not] = tokens;
            let token = |t: &str| {
                if t.is_empty() {
                    "no token".to_owned()
                } else {
                    format!("`{}`", excerpt(t.as_bytes(), 60))
                }
            };
            format!(
                "line {line} `user-agent: {}`: {} the token {} and {} {}, so the line names the \
                 crawler under {} only (how a user-agent becomes a token, RFC 9309 §2.2.1)",
                excerpt(value.as_bytes(), 60),
                who.does(named.profile, "read"),
                token(&named.value),
                who.does(not.profile, "read"),
                token(&not.value),
                who.list(named.profile)
            )
        }
        Difference::Groups { groups, merging } => {
            let shown: Vec<String> = groups
                .iter()
                .map(|s| {
                    let (selection, groups) = &s.value;
                    format!(
                        "{} {} ({})",
                        who.does(s.profile, "apply"),
                        groups_shown(groups),
                        selection_words(*selection)
                    )
                })
                .collect();
            let mut sentence = shown.join("; ");
            if *merging {
                let (merged, first): (Vec<Profile>, Vec<Profile>) = groups
                    .iter()
                    .flat_map(|s| who.of(s.profile))
                    .partition(|p| p.reading().groups == GroupMerge::All);
                sentence.push_str(&format!(
                    ": {} every group that names the crawler (RFC 9309 §2.2.1), {} only the \
                     first record",
                    profiles_do(&merged, "merge"),
                    profiles_do(&first, "use")
                ));
            }
            let lines = |s: &Side<(Selection, Vec<GroupRef>)>| {
                s.value.1.iter().map(|g| g.line).collect::<Vec<_>>()
            };
            let [x, y] = groups;
            let ends = |p: Profile| p.reading().agent_list_end;
            if lines(x) == lines(y) && ends(x.profile) != ends(y.profile) {
                let (blank, rule): (Vec<Profile>, Vec<Profile>) = groups
                    .iter()
                    .flat_map(|s| who.of(s.profile))
                    .partition(|p| ends(*p) == AgentListEnd::RuleOrBlankLine);
                sentence.push_str(&format!(
                    ": {} a record's user-agent lines at a blank line (1994), {} them only at \
                     an allow or disallow line (RFC 9309 §2.1)",
                    profiles_do(&blank, "end"),
                    profiles_do(&rule, "end")
                ));
            }
            sentence
        }
        Difference::LineCut { line, cut_by } => format!(
            "line {line} is longer than {}'s line-length limit: {} the rest of it",
            who.list(*cut_by),
            who.does(*cut_by, "ignore")
        ),
        Difference::Encoding {
            line,
            pattern,
            compared,
        } => encoding(*line, pattern, compared, who),
        Difference::EmptyDisallow { line, allows_all } => format!(
            "line {line} is an empty `disallow:`: {} it as allowing everything (1994 \
             convention), {} nothing (RFC 9309 §2.2.2)",
            who.does(*allows_all, "read"),
            who.agrees(who.other(*allows_all), "matches", "match")
        ),
        Difference::IndexHtml { line, derived_by } => format!(
            "Google's `index.html` rule: the allow at line {line} also allows the directory \
             itself under {}; {} no such rule",
            who.list(*derived_by),
            who.agrees(who.other(*derived_by), "has", "have")
        ),
        Difference::Precedence { decided } => precedence_differs(decided, who),
        Difference::Undetermined { decided } => {
            let [a, b] = decided;
            format!(
                "the profiles decide differently: {} by {}, {} by {}",
                who.list(a.profile),
                line_or_none(a.value),
                who.list(b.profile),
                line_or_none(b.value)
            )
        }
        _ => "the profiles decide differently".to_owned(),
    }
}

fn line_or_none(line: Option<u32>) -> String {
    line.map_or("no rule".to_owned(), |l| format!("line {l}"))
}

/// `the group at line 1 (`*`, `CCBot`)`.
fn groups_shown(groups: &[GroupRef]) -> String {
    if groups.is_empty() {
        return "no group".to_owned();
    }
    let shown: Vec<String> = groups
        .iter()
        .map(|g| {
            let agents: Vec<String> = g
                .agents
                .iter()
                .map(|a| format!("`{}`", excerpt(a.as_bytes(), 40)))
                .collect();
            format!("line {} ({})", g.line, agents.join(", "))
        })
        .collect();
    let noun = if groups.len() == 1 { "group" } else { "groups" };
    format!("the {noun} at {}", shown.join(" and "))
}

fn selection_words(selection: Selection) -> &'static str {
    match selection {
        Selection::Exact => "named by its token",
        Selection::Substring => "the first record whose user-agent is part of the name",
        Selection::Global => "no group names the crawler: `*`",
        _ => "no group names the crawler and there is no `*` group",
    }
}

/// Rule `line` matches under the first side only: both pattern and path as compared, and
/// which field of the readings makes them differ.
fn encoding(line: u32, pattern: &str, compared: &[Side<Compared>; 2], who: &Who<'_>) -> String {
    let [yes, no] = compared;
    let form = |c: &Compared| {
        format!(
            "`{}` against the path `{}`",
            excerpt(c.pattern.as_bytes(), 80),
            excerpt(c.path.as_bytes(), 80)
        )
    };
    let (ry, rn) = (yes.profile.reading(), no.profile.reading());
    let why = if !pattern.is_empty()
        && !pattern.starts_with(['/', '*'])
        && ry.slashless_pattern != rn.slashless_pattern
    {
        let (prepend, never) = if ry.slashless_pattern == SlashlessPattern::PrependSlash {
            (yes.profile, no.profile)
        } else {
            (no.profile, yes.profile)
        };
        format!(
            "the pattern does not start with `/`: {} it as `/{pattern}`, {} it",
            who.does(prepend, "read"),
            who.does(never, "never match")
        )
    } else if pattern.contains(['*', '$']) && ry.wildcards != rn.wildcards {
        let literal = if ry.wildcards {
            no.profile
        } else {
            yes.profile
        };
        format!(
            "{} `*` and `$` literally (no wildcards)",
            who.does(literal, "read")
        )
    } else if yes.value.path != no.value.path {
        "the URL's path is read differently (dot segments, percent-encoding; RFC 9309 §2.2.2)"
            .to_owned()
    } else if yes.value.pattern != no.value.pattern {
        "the pattern is percent-encoded differently (RFC 9309 §2.2.2)".to_owned()
    } else {
        "the profiles compare it differently".to_owned()
    };
    format!(
        "line {line} `{}` matches under {} only: {} {}; {} {}; {why}",
        excerpt(pattern.as_bytes(), 80),
        who.list(yes.profile),
        who.does(yes.profile, "compare"),
        form(&yes.value),
        who.does(no.profile, "compare"),
        form(&no.value)
    )
}

/// Both deciding rules match under both profiles and precedence picks different ones.
fn precedence_differs(decided: &[Side<Decided>; 2], who: &Who<'_>) -> String {
    let how = |s: &Side<Decided>| {
        let line = line_or_none(s.value.line);
        match (s.value.precedence, s.value.priority) {
            (Precedence::FirstMatch, _) => format!(
                "{} the first matching rule in file order decide ({line})",
                who.does(s.profile, "let")
            ),
            (_, Some(length)) => format!(
                "{} the longest match decide ({line}, length {length})",
                who.does(s.profile, "let")
            ),
            (_, None) => format!(
                "{} the longest match decide ({line})",
                who.does(s.profile, "let")
            ),
        }
    };
    let [a, b] = decided;
    let both = [a.value.line, b.value.line].map(line_or_none);
    let mut sentence = format!(
        "the rules at {} and {} both match under each profile, which picks a different one: \
         {}; {}",
        both[0],
        both[1],
        how(a),
        how(b)
    );
    if a.value.precedence == b.value.precedence {
        sentence.push_str(&format!(
            "; {}: {}; {}: {}",
            who.list(a.profile),
            precedence(a.profile.reading()),
            who.list(b.profile),
            precedence(b.profile.reading())
        ));
    }
    sentence
}

/// How the reading picks the winner among matching rules.
pub(super) fn precedence(reading: &Reading) -> &'static str {
    robotrules::reading::precedence_sentence(reading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_cause_found_says_so_with_both_lines_and_no_guess() {
        let d = Difference::Undetermined {
            decided: [
                Side {
                    profile: Profile::Rfc9309,
                    value: Some(3),
                },
                Side {
                    profile: Profile::Google,
                    value: None,
                },
            ],
        };
        let who = Who {
            first: Profile::Rfc9309,
            others: &[Profile::Google, Profile::Legacy1994],
        };
        assert_eq!(
            render(&d, &who, b""),
            "the profiles decide differently: rfc9309 by line 3, google and legacy1994 by no rule"
        );
    }
}
