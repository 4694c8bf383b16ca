//! The summary of a survey: per crawler, how many hosts are blocked, partial, open and
//! unknown, and how many name it; and the records that were skipped or malformed.

use crate::reach::Reach;
use crate::survey::Surveyed;

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
        }
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
        }
        self.captures += other.captures;
        self.skipped += other.skipped;
        self.malformed += other.malformed;
        self.ignored += other.ignored;
    }
}
