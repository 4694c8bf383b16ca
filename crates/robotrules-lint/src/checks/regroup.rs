//! What a user-agent line written so that some profiles ignore it (`User agent: BadBot`,
//! `Useragent BadBot`, `User_agent: BadBot`) does to the lines below it, per profile: read
//! from each profile's model (which group holds each rule and record below the line), never
//! from the text.
//!
//! Under a profile that ignores the line, the rules and records meant for its crawler join
//! the group above (so they apply to every crawler that group covers: `Disallow: /` below
//! `User agent: BadBot` blocks everyone when the group above is `*`), or, with no group above
//! (or after a blank line, for 1994-style readers), belong to no group and are ignored.

use robotrules_grammar::{KeyKind, Separator, Spelling};
use robotrules_model::{ExtensionKey, Profile, RobotsTxt, Span};

use super::spelling::near_miss;
use super::{profile_list, profiles_do};
use crate::context::Context;

/// How many moved lines a sentence names before "and N more".
const LIST_LINES: usize = 3;

/// The consequences of one group line: a sentence for the help, a short label for the span,
/// and places to show.
pub(super) struct Consequences {
    /// What happens to the lines below, per profile, as one sentence.
    pub(super) help: String,
    /// A short label for the line itself under the profile linted for, when its lines move.
    pub(super) label: Option<String>,
    /// (span, line, label) of the group the lines join and the first lines that move, under
    /// the profile linted for (or the first profile that ignores the line).
    pub(super) related: Vec<(Span, u32, String)>,
}

/// What one profile makes of the lines below the group line.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// They join the group at `group_line`, described as `who`.
    Join {
        group_line: u32,
        group: String,
        audience: String,
        lines: Vec<u32>,
    },
    /// They belong to no group.
    Orphaned { lines: Vec<u32> },
    /// Nothing follows it before the next user-agent line.
    Nothing,
    /// The profile reads the line as a user-agent line for `token`, in the group at
    /// `group_line`.
    Read { token: String, group_line: u32 },
}

/// Whether grammar line `number` is meant as a user-agent line: the key is `user-agent` in any
/// spelling the grammar knows, or a near miss of it.
fn meant_as_user_agent(ctx: &Context<'_>, number: u32) -> bool {
    ctx.line(number)
        .and_then(|l| l.directive)
        .is_some_and(|d| match d.kind {
            KeyKind::UserAgent => true,
            KeyKind::Other => near_miss(ctx.slice(d.key)) == Some("user-agent"),
            _ => false,
        })
}

/// The lines the group line heads: from the next line up to the next line meant as a
/// user-agent line (that line excluded).
fn scope(ctx: &Context<'_>, line: u32) -> (u32, u32) {
    let last = u32::try_from(ctx.parsed.lines.len()).unwrap_or(u32::MAX);
    let end = (line + 1..=last)
        .find(|&n| meant_as_user_agent(ctx, n))
        .unwrap_or(last.saturating_add(1));
    (line + 1, end)
}

/// Lines in `from..end` that are allow, disallow or known group records in the grammar,
/// written so every profile reads them (a misspelt or colon-less rule has its own finding,
/// and would be ignored for that reason, not for where it stands): what the author put under
/// the group line.
fn records_below(ctx: &Context<'_>, from: u32, end: u32) -> Vec<u32> {
    (from..end)
        .filter(|&n| {
            ctx.line(n).and_then(|l| l.directive).is_some_and(|d| {
                d.separator == Separator::Colon
                    && match d.kind {
                        KeyKind::Allow | KeyKind::Disallow => d.spelling == Spelling::Exact,
                        KeyKind::Other => {
                            ExtensionKey::from_key(ctx.slice(d.key)).is_group_member()
                        }
                        _ => false,
                    }
            })
        })
        .collect()
}

/// `the `*` group`, `the group for `a` and `b``.
fn describe(robots: &RobotsTxt, index: usize) -> (String, String, u32) {
    let Some(group) = robots.groups().get(index) else {
        return (String::new(), String::new(), 0);
    };
    if group.is_global(robots) {
        return (
            "the `*` group".to_owned(),
            "every crawler that group covers".to_owned(),
            group.line,
        );
    }
    let names: Vec<String> = group
        .agents(robots)
        .iter()
        .map(|a| format!("`{}`", a.token(robots)))
        .collect();
    let names = match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    (format!("the group for {names}"), names, group.line)
}

fn outcome(ctx: &Context<'_>, profile: Profile, line: u32, from: u32, end: u32) -> Outcome {
    let robots = ctx.model(profile);
    let held = ctx.lines_by_group(profile);
    if let Some(group) = held.agents.get(&line).and_then(|&i| robots.groups().get(i)) {
        let token = group
            .agents(robots)
            .iter()
            .find(|a| a.line == line)
            .map(|a| a.token(robots).into_owned())
            .unwrap_or_default();
        return Outcome::Read {
            token,
            group_line: group.line,
        };
    }
    let below = records_below(ctx, from, end);
    if below.is_empty() {
        return Outcome::Nothing;
    }
    // The lines move to one group (the one above); a line in none is ignored.
    let joined: Vec<u32> = below
        .iter()
        .copied()
        .filter(|n| held.members.contains_key(n))
        .collect();
    match joined.first().and_then(|n| held.members.get(n)) {
        Some(&index) => {
            let (group, audience, group_line) = describe(robots, index);
            Outcome::Join {
                group_line,
                group,
                audience,
                lines: joined,
            }
        }
        None => Outcome::Orphaned { lines: below },
    }
}

/// `` `Disallow: /` (line 5) and `Crawl-delay: 10` (line 6)``, at most [`LIST_LINES`].
fn name_lines(ctx: &Context<'_>, lines: &[u32]) -> String {
    let names: Vec<String> = lines
        .iter()
        .take(LIST_LINES)
        .map(|&n| format!("`{}` (line {n})", ctx.excerpt(ctx.record_span(n))))
        .collect();
    let more = lines.len().saturating_sub(LIST_LINES);
    let listed = match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] if more == 0 => format!("{} and {last}", init.join(", ")),
        _ => names.join(", "),
    };
    if more > 0 {
        format!("{listed} and {more} more line(s)")
    } else {
        listed
    }
}

/// The consequences of the user-agent line `line`, which `drops` ignore; `None` when it is no
/// user-agent line or no profile ignores it.
pub(super) fn consequences(
    ctx: &Context<'_>,
    line: u32,
    drops: &[Profile],
) -> Option<Consequences> {
    if drops.is_empty() {
        return None;
    }
    let (from, end) = scope(ctx, line);
    // Profiles with the same outcome share a sentence, in profile order.
    let mut outcomes: Vec<(Outcome, Vec<Profile>)> = Vec::new();
    for profile in Profile::ALL {
        let o = outcome(ctx, profile, line, from, end);
        match outcomes.iter_mut().find(|(seen, _)| *seen == o) {
            Some((_, profiles)) => profiles.push(profile),
            None => outcomes.push((o, vec![profile])),
        }
    }
    let value = ctx
        .line(line)
        .and_then(|l| l.directive)
        .map(|d| ctx.excerpt(d.value))
        .unwrap_or_default();
    let sentences: Vec<String> = outcomes
        .iter()
        .map(|(o, profiles)| {
            let under = format!("under {}", profile_list(profiles));
            match o {
                Outcome::Join {
                    group_line,
                    group,
                    audience,
                    lines,
                } => format!(
                    "{under}, {} {} {group} (line {group_line}), so {} to {audience}",
                    name_lines(ctx, lines),
                    if lines.len() == 1 { "joins" } else { "join" },
                    if lines.len() == 1 {
                        "it applies"
                    } else {
                        "they apply"
                    },
                ),
                Outcome::Orphaned { lines } => format!(
                    "{under}, {} {} no user-agent line and {} ignored",
                    name_lines(ctx, lines),
                    if lines.len() == 1 {
                        "follows"
                    } else {
                        "follow"
                    },
                    if lines.len() == 1 { "is" } else { "are" },
                ),
                Outcome::Nothing => {
                    format!("{under}, no rule or record follows it before the next user-agent line")
                }
                Outcome::Read { token, group_line } if *group_line == line => format!(
                    "{} it as a user-agent line: the lines below it are the group for `{token}`",
                    profiles_do(profiles, "read")
                ),
                Outcome::Read { token, group_line } => format!(
                    "{} it as a user-agent line: `{token}` joins the group of line {group_line}",
                    profiles_do(profiles, "read")
                ),
            }
        })
        .collect();
    let who = if value.is_empty() {
        "its crawler".to_owned()
    } else {
        format!("`{value}`")
    };
    let help = format!(
        "What the lines meant for {who} become: {}",
        sentences.join("; ")
    );
    // Places and label under the profile linted for, else the first that ignores the line.
    let shown = if drops.contains(&ctx.profile()) {
        ctx.profile()
    } else {
        drops[0]
    };
    let mut related = Vec::new();
    let mut label = None;
    if let Some((
        Outcome::Join {
            group_line,
            group,
            lines,
            ..
        },
        _,
    )) = outcomes.iter().find(|(_, p)| p.contains(&shown))
    {
        if shown == ctx.profile() {
            let by = if drops.len() == Profile::ALL.len() {
                "every profile".to_owned()
            } else {
                profile_list(drops)
            };
            label = Some(format!("ignored by {by}: the lines below join {group}"));
        }
        related.push((
            ctx.record_span(*group_line),
            *group_line,
            format!("{group} starts here ({shown})"),
        ));
        for &n in lines.iter().take(LIST_LINES) {
            related.push((ctx.record_span(n), n, format!("in {group} under {shown}")));
        }
    }
    Some(Consequences {
        help,
        label,
        related,
    })
}
