//! The summary table of `survey`: per crawler, its purpose and the share and count of hosts
//! blocked, partial, open and naming it (shares of the captures whose reach is known), and the
//! captures that contradict themselves for it (`docs/survey.md`, "AI usage signals"); then the
//! adoption of the AI usage signals, the redirects left unknown, the records skipped and the
//! malformed ones.

use std::fmt::Write as _;

use robotrules_survey::{AgentTally, Survey, Tally};

/// The table, one line per crawler, then the totals.
pub(crate) fn render(survey: &Survey, tally: &Tally) -> String {
    let width = survey
        .agents()
        .iter()
        .map(|a| a.name.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:<14}  {:>16}  {:>16}  {:>16}  {:>16}  {:>7}  {:>14}",
        "agent", "purpose", "blocked", "partial", "open", "named", "unknown", "contradictions"
    );
    for (i, agent) in survey.agents().iter().enumerate() {
        let t = tally.agents.get(i).copied().unwrap_or_default();
        let _ = writeln!(
            out,
            "{:<width$}  {:<14}  {:>16}  {:>16}  {:>16}  {:>16}  {:>7}  {:>14}",
            agent.name,
            agent.purpose.as_str(),
            share(t.blocked, &t),
            share(t.partial, &t),
            share(t.open, &t),
            share(t.named, &t),
            t.unknown,
            t.contradictions,
        );
    }
    let _ = writeln!(out, "{}", tally.signals.line(tally.captures));
    let unknown = tally.agents.first().map_or(0, |t| t.unknown);
    let _ = writeln!(
        out,
        "{} capture{} ({} profile); {unknown} redirect{} to a capture not in the input (unknown); {} record{} skipped (not a robots.txt response), {} malformed",
        tally.captures,
        plural(tally.captures),
        survey.profile(),
        plural(unknown),
        tally.skipped,
        plural(tally.skipped),
        tally.malformed,
    );
    if tally.ignored > 0 {
        let _ = writeln!(
            out,
            "{} directory entr{} not read (named above)",
            tally.ignored,
            if tally.ignored == 1 { "y" } else { "ies" }
        );
    }
    out
}

/// Why a survey read no capture, from what it read instead: `1 input could not be read, 2
/// directory entries skipped (named above)`.
pub(crate) fn nothing_read(tally: &Tally, failed: u64) -> String {
    let mut parts = Vec::new();
    if failed > 0 {
        parts.push(format!(
            "{failed} input{} could not be read",
            plural(failed)
        ));
    }
    if tally.ignored > 0 {
        parts.push(format!(
            "{} directory entr{} skipped (named above)",
            tally.ignored,
            if tally.ignored == 1 { "y" } else { "ies" }
        ));
    }
    if tally.malformed > 0 {
        parts.push(format!(
            "{} malformed record{} (named above)",
            tally.malformed,
            plural(tally.malformed)
        ));
    }
    if tally.skipped > 0 {
        parts.push(format!(
            "{} WARC record{} not a robots.txt response",
            tally.skipped,
            plural(tally.skipped)
        ));
    }
    if parts.is_empty() {
        "the inputs hold nothing to read".to_owned()
    } else {
        parts.join(", ")
    }
}

/// `count` as a share of the known captures, then the count: `41.2% (1,203)`.
fn share(count: u64, tally: &AgentTally) -> String {
    let known = tally.known();
    if known == 0 {
        return format!("- ({count})");
    }
    #[allow(clippy::cast_precision_loss)]
    let percent = count as f64 * 100.0 / known as f64;
    format!("{percent:.1}% ({count})")
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotrules::Profile;
    use robotrules_survey::{Agent, AgentFacts, Contradiction, Reach, Signals, Surveyed};

    #[test]
    fn shares_are_of_known_captures_and_unknown_is_apart() {
        let survey = Survey::new(vec![Agent::named("GPTBot")], Profile::Google, 512_000).unwrap();
        let mut tally = Tally::default();
        let base = survey.capture(&Default::default());
        for reach in [Reach::Blocked, Reach::Open, Reach::Open, Reach::Unknown] {
            let mut s: Surveyed = base.clone();
            let mut facts = AgentFacts::by_status(reach);
            if reach == Reach::Blocked {
                facts.usage.contradiction = Some(Contradiction::AllowsDisallowed);
                s.per_agent.signals = Signals {
                    content_signal: true,
                    ..Signals::default()
                };
            }
            s.per_agent.agents = vec![facts];
            tally.add(&s);
        }
        let table = render(&survey, &tally);
        let line = table.lines().nth(1).unwrap();
        assert!(line.starts_with("GPTBot"), "{table}");
        assert!(
            line.contains("33.3% (1)") && line.contains("66.7% (2)"),
            "{table}"
        );
        assert!(table
            .lines()
            .next()
            .unwrap()
            .ends_with("unknown  contradictions"));
        // unknown 1, then 1 contradiction.
        assert!(line.trim_end().ends_with("1               1"), "{table}");
        assert!(
            table.contains(
                "AI usage signals: Content-Usage 0 (0.0%), Content-Signal 1 (25.0%), License 0 (0.0%), LLM-Policy 0 (0.0%), any 1 (25.0%)\n"
            ),
            "{table}"
        );
        assert!(
            table.contains("4 captures (google profile); 1 redirect to"),
            "{table}"
        );
    }
}
