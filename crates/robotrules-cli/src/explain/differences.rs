//! Why profiles answer differently, in words. The causes are the model's
//! ([`robotrules_model::differences`]): derived from the decisions each profile made, each
//! with its line. This module picks the pairs to compare and renders each cause; it works
//! nothing out again and never names a cause the model did not find.

use std::sync::Arc;

use robotrules::{Explanation, GroupRef, Profile, Selection};
use robotrules_lint::render::profiles_do;
use robotrules_model::{
    Compared, Crawler, Decided, Difference, Precedence, RobotsTxt, Side, SlashlessPattern,
};
use robotrules_text::excerpt;

use super::text::precedence;
use super::ProfileReport;

/// One profile's answer with the crawler it came from.
struct Answered<'a> {
    crawler: Crawler,
    explanation: &'a Explanation,
}

/// Sentences saying why the profiles' verdicts or deciding rules differ (none if they agree):
/// the first profile that answered is compared with each other one that decides differently.
pub(super) fn find(
    profiles: &[ProfileReport],
    bytes: &[u8],
    agent: &str,
    parse_limit: usize,
) -> Vec<String> {
    let answered: Vec<Answered<'_>> = profiles
        .iter()
        .filter_map(|p| {
            let explanation = p.explanation.as_ref()?;
            let robots = Arc::new(RobotsTxt::parse(bytes, p.profile, parse_limit));
            let crawler = Crawler::new(robots, agent).ok()?;
            Some(Answered {
                crawler,
                explanation,
            })
        })
        .collect();
    let Some((first, others)) = answered.split_first() else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for other in others {
        let found = robotrules_model::differences(
            &first.crawler,
            first.explanation,
            &other.crawler,
            other.explanation,
        );
        for d in &found {
            let sentence = render(d, [first.explanation, other.explanation], bytes);
            if !out.contains(&sentence) {
                out.push(sentence);
            }
        }
    }
    out
}

/// One cause in words; `pair` is the two explanations compared.
fn render(d: &Difference, pair: [&Explanation; 2], bytes: &[u8]) -> String {
    let other = |p: Profile| {
        pair.iter()
            .map(|e| e.profile)
            .find(|&q| q != p)
            .unwrap_or(p)
    };
    match d {
        Difference::ImplicitRobotsTxt { allowed_by } => format!(
            "{} `/robots.txt` (RFC 9309 §2.2.2); {} the rules to it like any other path",
            profiles_do(&[*allowed_by], "always allow"),
            profiles_do(&[other(*allowed_by)], "apply")
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
                "line {line}: {accepted_by} reads the key `{}` as `{}`; {ignored_by} does not \
                 accept that spelling and ignores the line (RFC 9309 §2.2: keys are exact)",
                excerpt(written, 40),
                read_as.canonical().unwrap_or("a record"),
            )
        }
        Difference::AgentToken {
            line,
            value,
            tokens,
        } => {
            let [named, not] = tokens;
            format!(
                "line {line} `user-agent: {}`: {} the token `{}` and {} `{}`, so the line \
                 names the crawler under {} only (how a user-agent becomes a token, RFC 9309 \
                 §2.2.1)",
                excerpt(value.as_bytes(), 60),
                profiles_do(&[named.profile], "read"),
                named.value,
                profiles_do(&[not.profile], "read"),
                not.value,
                named.profile
            )
        }
        Difference::Groups { groups, merging } => {
            let shown: Vec<String> = groups
                .iter()
                .map(|s| {
                    let (selection, groups) = &s.value;
                    format!(
                        "{} {} ({})",
                        profiles_do(&[s.profile], "apply"),
                        groups_shown(groups),
                        selection_words(*selection)
                    )
                })
                .collect();
            let mut sentence = shown.join("; ");
            if *merging {
                let (merged, first): (Vec<Profile>, Vec<Profile>) = groups
                    .iter()
                    .map(|s| s.profile)
                    .partition(|p| p.reading().groups == robotrules_model::GroupMerge::All);
                sentence.push_str(&format!(
                    ": {} every group that names the crawler (RFC 9309 §2.2.1), {} only the \
                     first record",
                    profiles_do(&merged, "merge"),
                    profiles_do(&first, "use")
                ));
            }
            sentence
        }
        Difference::LineCut { line, cut_by } => format!(
            "line {line} is longer than {cut_by}'s line-length limit: {} the rest of it",
            profiles_do(&[*cut_by], "ignore")
        ),
        Difference::Encoding {
            line,
            pattern,
            compared,
        } => encoding(*line, pattern, compared),
        Difference::IndexHtml { line, derived_by } => format!(
            "Google's `index.html` rule: the allow at line {line} also allows the directory \
             itself under {derived_by}; {} has no such rule",
            other(*derived_by)
        ),
        Difference::Precedence { decided } => precedence_differs(decided),
        Difference::Undetermined { decided } => {
            let [a, b] = decided;
            format!(
                "the profiles decide differently: {} by {}, {} by {}",
                a.profile,
                line_or_none(a.value),
                b.profile,
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
fn encoding(line: u32, pattern: &str, compared: &[Side<Compared>; 2]) -> String {
    let [yes, no] = compared;
    let form = |c: &Compared| match &c.pattern {
        Some(p) => format!(
            "`{}` against the path `{}`",
            excerpt(p.as_bytes(), 80),
            excerpt(c.path.as_bytes(), 80)
        ),
        None => format!(
            "no such rule in its groups, path `{}`",
            excerpt(c.path.as_bytes(), 80)
        ),
    };
    let (ry, rn) = (yes.profile.reading(), no.profile.reading());
    let why = if !pattern.starts_with(['/', '*']) && ry.slashless_pattern != rn.slashless_pattern {
        let (prepend, never) = if ry.slashless_pattern == SlashlessPattern::PrependSlash {
            (yes.profile, no.profile)
        } else {
            (no.profile, yes.profile)
        };
        format!(
            "the pattern does not start with `/`: {} it as `/{pattern}`, {} it",
            profiles_do(&[prepend], "read"),
            profiles_do(&[never], "never match")
        )
    } else if pattern.contains(['*', '$']) && ry.wildcards != rn.wildcards {
        let literal = if ry.wildcards {
            no.profile
        } else {
            yes.profile
        };
        format!(
            "{} `*` and `$` literally (no wildcards)",
            profiles_do(&[literal], "read")
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
        "line {line} `{}` matches under {} only: {} compares {}; {} compares {}; {why}",
        excerpt(pattern.as_bytes(), 80),
        yes.profile,
        yes.profile,
        form(&yes.value),
        no.profile,
        form(&no.value)
    )
}

/// The same rules match and precedence picks different ones.
fn precedence_differs(decided: &[Side<Decided>; 2]) -> String {
    let how = |s: &Side<Decided>| {
        let line = line_or_none(s.value.line);
        match (s.value.precedence, s.value.priority) {
            (Precedence::FirstMatch, _) => format!(
                "{} the first matching rule in file order decide ({line})",
                profiles_do(&[s.profile], "let")
            ),
            (_, Some(length)) => format!(
                "{} the longest match decide ({line}, length {length})",
                profiles_do(&[s.profile], "let")
            ),
            (_, None) => format!(
                "{} the longest match decide ({line})",
                profiles_do(&[s.profile], "let")
            ),
        }
    };
    let [a, b] = decided;
    let mut sentence = format!("the same rules match: {}; {}", how(a), how(b));
    if a.value.precedence == b.value.precedence {
        sentence.push_str(&format!(
            "; {}: {}; {}: {}",
            a.profile,
            precedence(a.profile.reading()),
            b.profile,
            precedence(b.profile.reading())
        ));
    }
    sentence
}
