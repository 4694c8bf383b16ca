//! An [`Explanation`] in plain text: the account `robotrules explain` prints for one profile
//! (the verdict, the groups and why, the path compared, every matching rule with its length,
//! the winner and the tie rule), without the deciding line's snippet, which needs the file.
//!
//! The wording of each step follows the profile's reading ([`crate::Reading`]), never its
//! name: "first match in file order" is what [`Precedence::FirstMatch`] says.

use std::fmt::{self, Write as _};

use robotrules_text::excerpt;

use crate::crawler::{Reason, Selection};
use crate::explain::{Explanation, RuleMatch};
use crate::profile::{GroupMerge, PatternEncoding, Precedence, Reading};

/// Longest agent or path shown, in characters.
const SHOW_INPUT: usize = 200;

/// How `reading` picks the winner among matching rules, in one sentence.
pub fn precedence_sentence(reading: &Reading) -> &'static str {
    match (reading.precedence, reading.patterns) {
        (Precedence::FirstMatch, _) => {
            "the first matching rule in file order wins (1994 convention)"
        }
        (_, PatternEncoding::GoogleEscape) => {
            "the longest match wins, counted in bytes of the pattern as written with every `*` \
             and `$`; a tie goes to allow (Google: the least restrictive rule)"
        }
        _ => {
            "the longest match wins, counted in octets of the normalised pattern with every `*` \
             and `$`; a tie goes to allow (RFC 9309 §2.2.2)"
        }
    }
}

/// `allow: /x`, the pattern cut to 80 characters.
fn rule_text(m: &RuleMatch) -> String {
    format!("{}: {}", m.kind, excerpt(m.pattern.as_bytes(), 80))
}

/// `line 3` or `lines 3, 7`.
fn lines(v: &[u32]) -> String {
    let v: Vec<String> = v.iter().map(u32::to_string).collect();
    if v.len() == 1 {
        format!("line {}", v[0])
    } else {
        format!("lines {}", v.join(", "))
    }
}

/// Which groups apply, and why.
fn groups(e: &Explanation, agent: &str) -> String {
    let at: Vec<u32> = e.groups.iter().map(|g| g.line).collect();
    let token = e.token.as_deref().unwrap_or(agent);
    let merge = e.profile.reading().groups;
    match (e.selection, merge, at.len()) {
        (Selection::Exact, _, 1) => format!(
            "the group at {} names `{token}` (product-token match, RFC 9309 §2.2.1)",
            lines(&at)
        ),
        (Selection::Exact, _, n) => format!(
            "{n} groups name `{token}` ({}): merged into one (RFC 9309 §2.2.1)",
            lines(&at)
        ),
        (Selection::Substring, _, _) => format!(
            "the first record whose user-agent `{token}` is part of `{agent}` ({}); later records are not read (1994)",
            lines(&at)
        ),
        (Selection::Global, GroupMerge::First, _) => format!(
            "no record names `{agent}`: the first `*` record ({})",
            lines(&at)
        ),
        (Selection::Global, _, 1) => format!(
            "no group names `{agent}`: the `*` group at {} applies",
            lines(&at)
        ),
        (Selection::Global, _, n) => format!(
            "no group names `{agent}`: the {n} `*` groups ({}) apply, merged",
            lines(&at)
        ),
        _ => format!("no group names `{agent}` and there is no `*` group: no rule applies"),
    }
}

/// The account, one line per step, each line ending in a line feed:
///
/// ```text
/// rfc9309: disallowed
///   groups: the group at line 1 names `ExampleBot` (product-token match, RFC 9309 §2.2.1)
///   path compared: /private/x
///   matching rules, strongest first:
///     line 2     disallow: /private  length 8  <- decides
///   the longest match wins, …
/// ```
impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self;
        let agent = excerpt(e.agent.as_bytes(), SHOW_INPUT);
        let reading = e.profile.reading();
        let mut out = String::new();
        let verdict = if e.allowed { "allowed" } else { "disallowed" };
        let _ = writeln!(out, "{}: {verdict}", e.profile);
        let _ = writeln!(out, "  groups: {}", groups(e, &agent));
        let _ = writeln!(
            out,
            "  path compared: {}",
            excerpt(e.path.as_bytes(), SHOW_INPUT)
        );
        if e.reason == Reason::RobotsTxtImplicitlyAllowed {
            out.push_str("  special case: `/robots.txt` is always allowed (RFC 9309 §2.2.2)\n");
        }
        if let Some(rule) = e.matches.iter().find(|m| m.derived) {
            let _ = writeln!(
                out,
                "  special case: Google's index.html rule: the allow at line {} also allows the directory itself",
                rule.line
            );
        }
        if e.matches.is_empty() {
            if e.reason == Reason::NoMatchingRule {
                out.push_str("  no rule matches: allowed (RFC 9309 §2.2.2)\n");
            }
            return f.write_str(&out);
        }
        let order = if reading.precedence == Precedence::FirstMatch {
            "in file order"
        } else {
            "strongest first"
        };
        let _ = writeln!(out, "  matching rules, {order}:");
        let width = e
            .matches
            .iter()
            .map(|m| rule_text(m).len())
            .max()
            .unwrap_or(0);
        for m in &e.matches {
            let wins = e
                .decided_by
                .as_ref()
                .is_some_and(|d| d.line == m.line && d.derived == m.derived);
            let derived = if m.derived { " (index.html rule)" } else { "" };
            let _ = writeln!(
                out,
                "    line {:<5} {:<width$}  length {}{derived}{}",
                m.line,
                rule_text(m),
                m.priority,
                if wins { "  <- decides" } else { "" }
            );
        }
        let _ = writeln!(out, "  {}", precedence_sentence(reading));
        if let (false, Some(winner)) = (e.tied_with.is_empty(), &e.decided_by) {
            let _ = writeln!(
                out,
                "  tie: {} as long (length {}); the allow wins",
                lines(&e.tied_with),
                winner.priority
            );
        }
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{Crawler, Profile, RobotsTxt};

    #[test]
    fn an_explanation_prints_the_account_without_a_snippet() {
        let robots = RobotsTxt::parse(
            b"user-agent: ExampleBot\ndisallow: /private\nallow: /private/open\n",
            Profile::Rfc9309,
            512_000,
        );
        let crawler = Crawler::new(Arc::new(robots), "ExampleBot").unwrap();
        let shown = crawler.explain("/private/x").unwrap().to_string();
        assert_eq!(
            shown,
            "rfc9309: disallowed\n  groups: the group at line 1 names `ExampleBot` \
             (product-token match, RFC 9309 §2.2.1)\n  path compared: /private/x\n  matching \
             rules, strongest first:\n    line 2     disallow: /private  length 8  <- decides\n  \
             the longest match wins, counted in octets of the normalised pattern with every `*` \
             and `$`; a tie goes to allow (RFC 9309 §2.2.2)\n"
        );
        let open = crawler.explain("/public").unwrap().to_string();
        assert!(
            open.ends_with("  no rule matches: allowed (RFC 9309 §2.2.2)\n"),
            "{open}"
        );
    }
}
