//! The summary of a survey: per crawler, how many hosts are blocked, partial, open and
//! unknown, how many name it and how many contradict themselves for it; how many captures
//! carry each AI usage signal; and the records that were skipped or malformed.

use crate::reach::Reach;
use crate::survey::Surveyed;
use crate::usage::Signals;

/// One crawler's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AgentTally {
    /// Captures where no path is allowed.
    pub blocked: u64,
    /// Captures where some paths are.
    pub partial: u64,
    /// Captures where every path is.
    pub open: u64,
    /// Redirects whose target is not in the input (counted apart from the shares).
    pub unknown: u64,
    /// Captures whose robots.txt has a group naming the crawler.
    pub named: u64,
    /// Captures whose robots.txt contradicts itself for the crawler
    /// ([`crate::Contradiction`]).
    pub contradictions: u64,
}

impl AgentTally {
    /// The captures with a known reach: the denominator of the shares.
    pub fn known(&self) -> u64 {
        self.blocked + self.partial + self.open
    }

    /// The count of `reach`.
    pub fn count(&self, reach: Reach) -> u64 {
        match reach {
            Reach::Blocked => self.blocked,
            Reach::Partial => self.partial,
            Reach::Open => self.open,
            Reach::Unknown => self.unknown,
        }
    }
}

/// How many captures carry each AI usage signal: the adoption of the signals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SignalTally {
    /// Captures with a `Content-Usage` line.
    pub content_usage: u64,
    /// Captures with a `Content-Signal` line.
    pub content_signal: u64,
    /// Captures with a `License:` URL.
    pub license: u64,
    /// Captures with an `LLM-Policy:` URL.
    pub llm_policy: u64,
    /// Captures with any of the four.
    pub any: u64,
}

impl SignalTally {
    /// Counts one capture's signals.
    pub fn add(&mut self, signals: &Signals) {
        self.content_usage += u64::from(signals.content_usage);
        self.content_signal += u64::from(signals.content_signal);
        self.license += u64::from(signals.license);
        self.llm_policy += u64::from(signals.llm_policy);
        self.any += u64::from(signals.any());
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &SignalTally) {
        self.content_usage += other.content_usage;
        self.content_signal += other.content_signal;
        self.license += other.license;
        self.llm_policy += other.llm_policy;
        self.any += other.any;
    }

    /// The counts with the names the summary shows them under, in order.
    pub fn named(&self) -> [(&'static str, u64); 5] {
        [
            ("Content-Usage", self.content_usage),
            ("Content-Signal", self.content_signal),
            ("License", self.license),
            ("LLM-Policy", self.llm_policy),
            ("any", self.any),
        ]
    }

    /// The summary's adoption line, each count with its share of `captures`:
    /// `AI usage signals: Content-Usage 3 (1.5%), Content-Signal 12 (6.0%), License 0 (0.0%),
    /// LLM-Policy 1 (0.5%), any 14 (7.0%)`.
    pub fn line(&self, captures: u64) -> String {
        let parts: Vec<String> = self
            .named()
            .iter()
            .map(|(name, count)| {
                // Counts of captures: far below 2^52, exact as f64.
                #[allow(clippy::cast_precision_loss)]
                let share = if captures == 0 {
                    0.0
                } else {
                    *count as f64 * 100.0 / captures as f64
                };
                format!("{name} {count} ({share:.1}%)")
            })
            .collect();
        format!("AI usage signals: {}", parts.join(", "))
    }
}

/// The counts of a survey, or of part of one (tallies add up).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per crawler, in the survey's order.
    pub agents: Vec<AgentTally>,
    /// Captures surveyed.
    pub captures: u64,
    /// Records that are not captures (`request`, `metadata`, `warcinfo`, non-HTTP).
    pub skipped: u64,
    /// Records that could not be read.
    pub malformed: u64,
    /// Entries of directories that were not read (hidden, no robots.txt, no host).
    pub ignored: u64,
    /// How many captures carry each AI usage signal.
    pub signals: SignalTally,
}

impl Tally {
    /// Counts `surveyed`.
    pub fn add(&mut self, surveyed: &Surveyed) {
        let agents = &surveyed.per_agent.agents;
        if self.agents.len() < agents.len() {
            self.agents.resize(agents.len(), AgentTally::default());
        }
        self.captures += 1;
        for (tally, facts) in self.agents.iter_mut().zip(agents) {
            match facts.reach {
                Reach::Blocked => tally.blocked += 1,
                Reach::Partial => tally.partial += 1,
                Reach::Open => tally.open += 1,
                Reach::Unknown => tally.unknown += 1,
            }
            tally.named += u64::from(facts.named);
            tally.contradictions += u64::from(facts.usage.contradiction.is_some());
        }
        self.signals.add(&surveyed.per_agent.signals);
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &Tally) {
        if self.agents.len() < other.agents.len() {
            self.agents
                .resize(other.agents.len(), AgentTally::default());
        }
        for (a, b) in self.agents.iter_mut().zip(&other.agents) {
            a.blocked += b.blocked;
            a.partial += b.partial;
            a.open += b.open;
            a.unknown += b.unknown;
            a.named += b.named;
            a.contradictions += b.contradictions;
        }
        self.signals.merge(&other.signals);
        self.captures += other.captures;
        self.skipped += other.skipped;
        self.malformed += other.malformed;
        self.ignored += other.ignored;
    }
}
