//! Compare two versions of a robots.txt file, for a site owner before deploying the new one:
//! which URLs change verdict, and — without URLs — which rules' effect changed, each shown
//! with a *witness path* that the old and the new file decide differently.
//!
//! Both files are read under one [`Profile`] (parse each file once per profile you care about,
//! with [`RobotsTxt::parse`]); every answer is the model's own: [`Crawler::verdict`] decides,
//! [`Crawler::explain`] names the deciding line. A change is always per crawler and profile:
//! a typo in a `user-agent` line, for one, means something else to each profile.
//!
//! ```
//! use std::sync::Arc;
//! use robotrules_diff::{diff_rules, diff_urls};
//! use robotrules_model::{Profile, RobotsTxt};
//!
//! let parse = |file: &str| Arc::new(RobotsTxt::parse(file.as_bytes(), Profile::Rfc9309, 512_000));
//! let old = parse("User-agent: *\nDisallow: /private/\n");
//! let new = parse("User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n");
//!
//! // With URLs: the ones whose verdict changes.
//! let urls = ["https://example.com/tmp/a", "https://example.com/index.html"];
//! let changes = diff_urls(&old, &new, &["ExampleBot"], &urls)?;
//! assert_eq!(changes.len(), 1);
//! assert_eq!(changes[0].url, "https://example.com/tmp/a");
//! assert!(changes[0].before.allowed && !changes[0].after.allowed);
//! assert_eq!(changes[0].after.decided_by.as_ref().map(|r| r.line), Some(3));
//!
//! // Without URLs: the rules whose effect changed, each with a witness path.
//! let changes = diff_rules(&old, &new, &["ExampleBot"])?;
//! assert_eq!(changes.len(), 1);
//! assert_eq!(changes[0].witness, "/tmp/");
//! # Ok::<(), robotrules_diff::DiffError>(())
//! ```
//!
//! # How witnesses are found, and what that misses
//!
//! [`diff_rules`] does not enumerate paths (there are infinitely many); it asks both files
//! about a finite set of *candidate paths* derived from every rule of both files, in every
//! group ([`witness_candidates`]). For a pattern `P` (as the profile compares it: normalised,
//! a final `$` set apart), the candidates are:
//!
//! - `P` with each `*` replaced by a filler — a letter that occurs in no pattern of either
//!   file, `x` unless taken — a path `P` matches (`/a/*.pdf` → `/a/x.pdf`);
//! - `P` with each `*` removed (`/a/.pdf`): the shortest such path;
//! - the literal prefix of `P`, up to its first `*` (`/a/`);
//! - the first of these plus one byte past the end (`/a/x.pdfx`), which an end anchor `$`
//!   excludes and an unanchored pattern includes;
//! - and `/`;
//! - then *pairs*, where two rules meet: for each pattern `A` without `$` and each pattern `B`
//!   that starts with `*` or `/*` (it matches wherever its literal parts appear), `A`'s
//!   filled-in path followed by `B`'s, a path both match (`/*?` and `/*.pdf` give `/x?x.pdf`
//!   and `/x.pdfx?`). Pairs are made when there are at most [`MAX_PAIRS`] of them.
//!
//! (Under a profile without wildcards, `P` is literal, the candidates are `P` and `P` plus
//! a byte, and there are no pairs.) Each candidate is decided by both files for each crawler;
//! where the verdicts differ, the change is reported with the rule that decided before and the
//! one that decides after (both from [`Crawler::explain`]). Each deciding line appears in one
//! change per crawler: the first witness found in candidate order stands for the others (see
//! [`AgentDiff::rule_changes`]).
//!
//! **Why these candidates catch the common edits.** The verdict on a path changes only if the
//! set of rules that match it changes, or which of them decides. Every edit below changes the
//! rules that match one of its own rules' candidates:
//!
//! - *An added or removed rule* (`Disallow: /tmp/` added, `Allow: /private/press/`
//!   removed): the rule matches its own filled-in pattern, so that path is decided by it on
//!   one side and not on the other — unless a longer rule decides there on both sides, in which
//!   case the edit changes nothing at that path.
//! - *A group renamed, or lost to a misspelt `user-agent` line*: its rules now apply to other
//!   crawlers (or to none), and each rule's own path shows the difference for a crawler whose
//!   groups changed.
//! - *A widened or narrowed wildcard* (`/a/*.pdf` → `/*.pdf`): the wider pattern's filled-in
//!   path (`/x.pdf`) is matched by it and not by the narrower one.
//! - *An added or removed `$`*: the pattern plus one byte is matched by exactly one of them.
//! - *A reordered file* under longest-match precedence: the same rules match every path and
//!   the same one decides, so nothing is reported (under first-match precedence, the rule's
//!   own path shows the reordering).
//! - *A rule that only loses or wins where it meets another* (`Allow: /*.pdf$` beside
//!   `Disallow: /*?`, the `$` dropped: `/a.pdf?x` changes): the pairs put the two patterns
//!   together.
//!
//! **Limits.** A change visible on no candidate is not reported: one that shows only where
//! three or more patterns meet, or where two meet other than one's path followed by the
//! other's, or — in a file with too many patterns for [`MAX_PAIRS`] — where two meet at all
//! (see the `pairs_are_not_made_in_large_files` test). A reported change is always real (both
//! files were asked); an empty result is strong evidence, not a proof. With URLs
//! ([`diff_urls`]) nothing is guessed: each URL given is asked. Rules past the parse limit are
//! not in the parsed file, so they give no candidates (and decide nothing).

use std::collections::HashSet;
use std::sync::Arc;

use robotrules_model::{
    Crawler, Explanation, InvalidAgent, InvalidUrl, Profile, Reason, RobotsTxt, RuleMatch,
    Selection,
};
pub use robotrules_model::{Deadline, Expired};

/// Why a comparison cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiffError {
    /// The two files were read under different profiles: compare like with like.
    #[error(
        "the old file was read under {old} and the new one under {new}: \
         compare one profile at a time"
    )]
    ProfileMismatch {
        /// The old file's profile.
        old: Profile,
        /// The new file's profile.
        new: Profile,
    },
    /// A crawler name the profile does not answer for.
    #[error(transparent)]
    InvalidAgent(#[from] InvalidAgent),
    /// A URL the profile cannot read.
    #[error(transparent)]
    InvalidUrl(#[from] InvalidUrl),
}

/// One file's decision on one URL for one crawler.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FileDecision {
    /// May the crawler fetch it?
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// How the crawler's groups were chosen in this file.
    pub selection: Selection,
    /// The lines of the groups that apply (each group's first user-agent line), in file order.
    pub groups: Vec<u32>,
    /// The deciding rule, when a rule decided: line, pattern as written and as compared, kind.
    pub decided_by: Option<RuleMatch>,
}

impl From<Explanation> for FileDecision {
    fn from(e: Explanation) -> FileDecision {
        FileDecision {
            allowed: e.allowed,
            reason: e.reason,
            selection: e.selection,
            groups: e.groups.iter().map(|g| g.line).collect(),
            decided_by: e.decided_by,
        }
    }
}

impl FileDecision {
    /// The deciding rule's line, if a rule decided.
    pub fn line(&self) -> Option<u32> {
        self.decided_by.as_ref().map(|r| r.line)
    }
}

/// A URL whose verdict changes for a crawler under a profile.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UrlChange {
    /// The crawler's name.
    pub agent: String,
    /// The profile both files were read under.
    pub profile: Profile,
    /// The URL as given.
    pub url: String,
    /// The path (with query) as compared.
    pub path: String,
    /// The old file's decision.
    pub before: FileDecision,
    /// The new file's decision.
    pub after: FileDecision,
}

/// A change in the rules' effect, shown on a witness path that the two files decide
/// differently for a crawler under a profile.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RuleChange {
    /// The crawler's name.
    pub agent: String,
    /// The profile both files were read under.
    pub profile: Profile,
    /// A path the two files decide differently (one of [`witness_candidates`]).
    pub witness: String,
    /// The old file's decision on it (with the rule that decided).
    pub before: FileDecision,
    /// The new file's decision on it.
    pub after: FileDecision,
}

/// One crawler's view of both files: its groups chosen and compiled once in each, to compare
/// any number of URLs (from a stream, say) or candidate paths.
#[derive(Clone, Debug)]
pub struct AgentDiff {
    old: Crawler,
    new: Crawler,
}

impl AgentDiff {
    /// Crawler `agent` in both files.
    ///
    /// # Errors
    /// The files were read under different profiles, or the profile refuses the name (see
    /// [`Crawler::new`]).
    pub fn new(
        old: &Arc<RobotsTxt>,
        new: &Arc<RobotsTxt>,
        agent: &str,
    ) -> Result<AgentDiff, DiffError> {
        same_profile(old, new)?;
        Ok(AgentDiff {
            old: Crawler::new(Arc::clone(old), agent)?,
            new: Crawler::new(Arc::clone(new), agent)?,
        })
    }

    /// The crawler's name.
    pub fn agent(&self) -> &str {
        self.old.name()
    }

    /// The profile both files were read under.
    pub fn profile(&self) -> Profile {
        self.old.robots().profile()
    }

    /// The change on `url`, if its verdict changes.
    ///
    /// # Errors
    /// A URL the profile cannot read (see [`Crawler::target`]).
    pub fn url(&self, url: &str) -> Result<Option<UrlChange>, InvalidUrl> {
        if self.flip(url)?.is_none() {
            return Ok(None);
        }
        self.change(url).map(Some)
    }

    /// When the verdict on `url` changes, the deciding lines before and after: the verdicts
    /// alone, without explaining.
    fn flip(&self, url: &str) -> Result<Option<Lines>, InvalidUrl> {
        let before = self.old.verdict(&self.old.target(url)?);
        let after = self.new.verdict(&self.new.target(url)?);
        Ok((before.allowed != after.allowed)
            .then(|| (before.rule.map(|r| r.line), after.rule.map(|r| r.line))))
    }

    /// The change on `url`, explained on both sides (the decisions: a change shows no other
    /// matching rule).
    fn change(&self, url: &str) -> Result<UrlChange, InvalidUrl> {
        let before = self.old.explain_decision(url)?;
        let after = self.new.explain_decision(url)?;
        Ok(UrlChange {
            agent: self.agent().to_owned(),
            profile: self.profile(),
            url: url.to_owned(),
            path: after.path.clone(),
            before: before.into(),
            after: after.into(),
        })
    }

    /// The rules whose effect changed for this crawler, each with the first of `candidates`
    /// that shows it (see the crate docs). A change is reported only when neither of its
    /// deciding lines (the old file's, the new file's) is already in a reported change, so
    /// each rule appears once, on its first witness: a removed `Allow` that used to win over
    /// fifty other rules is one change, not fifty. Candidates the profile cannot read as a URL
    /// are skipped.
    pub fn rule_changes(&self, candidates: &[String]) -> Vec<RuleChange> {
        self.rule_changes_within(candidates, Deadline::NONE)
            .unwrap_or_default()
    }

    /// [`AgentDiff::rule_changes`], stopped at `deadline` (asked every
    /// [`CANDIDATES_PER_CHECK`] candidates).
    ///
    /// # Errors
    /// [`Expired`] when the deadline passed before every candidate was asked.
    pub fn rule_changes_within(
        &self,
        candidates: &[String],
        deadline: Deadline,
    ) -> Result<Vec<RuleChange>, Expired> {
        if self.old.same_rules(&self.new) {
            // The same rules in both files: no path changes verdict.
            return Ok(Vec::new());
        }
        let (mut old_lines, mut new_lines) = (HashSet::new(), HashSet::new());
        let mut changes = Vec::new();
        for (asked, candidate) in candidates.iter().enumerate() {
            if asked % CANDIDATES_PER_CHECK == 0 {
                deadline.check()?;
            }
            // Explain only the changes that will be reported: in a file where most candidates
            // change, most are dropped as already shown.
            let Ok(Some((before, after))) = self.flip(candidate) else {
                continue;
            };
            let fresh =
                |seen: &HashSet<u32>, line: Option<u32>| line.is_none_or(|l| !seen.contains(&l));
            if fresh(&old_lines, before) && fresh(&new_lines, after) {
                let Ok(change) = self.change(candidate) else {
                    continue;
                };
                old_lines.extend(before);
                new_lines.extend(after);
                changes.push(RuleChange {
                    agent: change.agent,
                    profile: change.profile,
                    witness: change.url,
                    before: change.before,
                    after: change.after,
                });
            }
        }
        Ok(changes)
    }
}

/// How many candidates [`AgentDiff::rule_changes_within`] asks between two looks at its
/// deadline (each candidate is a check in each file, a few microseconds at most).
pub const CANDIDATES_PER_CHECK: usize = 64;

/// The deciding lines of a change: the old file's, the new file's (none when no rule decided).
type Lines = (Option<u32>, Option<u32>);

fn same_profile(old: &RobotsTxt, new: &RobotsTxt) -> Result<(), DiffError> {
    let (old, new) = (old.profile(), new.profile());
    if old != new {
        return Err(DiffError::ProfileMismatch { old, new });
    }
    Ok(())
}

/// Each URL whose verdict changes between `old` and `new`, for each of `agents`: agent by
/// agent, URLs in the order given.
///
/// # Errors
/// The files were read under different profiles, the profile refuses an agent's name, or
/// cannot read a URL. To report a bad URL and carry on, use [`AgentDiff::url`].
pub fn diff_urls(
    old: &Arc<RobotsTxt>,
    new: &Arc<RobotsTxt>,
    agents: &[&str],
    urls: &[&str],
) -> Result<Vec<UrlChange>, DiffError> {
    let mut changes = Vec::new();
    for agent in agents {
        let diff = AgentDiff::new(old, new, agent)?;
        for url in urls {
            changes.extend(diff.url(url)?);
        }
    }
    Ok(changes)
}

/// The rules whose effect changed between `old` and `new`, for each of `agents`, each shown
/// on a witness path the two files decide differently (see the crate docs for how witnesses
/// are found and what that misses). Agent by agent, in candidate order. [`agents_to_compare`]
/// lists the crawlers the files name, and one for the rest.
///
/// # Errors
/// The files were read under different profiles, or the profile refuses an agent's name.
pub fn diff_rules(
    old: &Arc<RobotsTxt>,
    new: &Arc<RobotsTxt>,
    agents: &[&str],
) -> Result<Vec<RuleChange>, DiffError> {
    same_profile(old, new)?;
    let candidates = witness_candidates(old, new);
    let mut changes = Vec::new();
    for agent in agents {
        changes.extend(AgentDiff::new(old, new, agent)?.rule_changes(&candidates));
    }
    Ok(changes)
}

/// Names that stand for "any other crawler", tried in order until one is named by no group
/// of either file.
const OTHER_CRAWLERS: [&str; 4] = [
    "ExampleBot",
    "AnyOtherBot",
    "OtherCrawler",
    "RobotrulesDiff",
];

/// The crawlers worth comparing when the caller names none: every crawler a `user-agent`
/// line of either file names (its token as the profile reads it, as first written, each once
/// ignoring ASCII case; old file first), then one name that no group of either file names,
/// standing for every other crawler (the `*` groups): `ExampleBot` unless a file names it.
///
/// ```
/// use std::sync::Arc;
/// use robotrules_diff::agents_to_compare;
/// use robotrules_model::{Profile, RobotsTxt};
///
/// let parse = |file: &str| Arc::new(RobotsTxt::parse(file.as_bytes(), Profile::Rfc9309, 512_000));
/// let old = parse("User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n");
/// let new = parse("User-agent: googlebot\nUser-agent: GPTBot/1.2\nDisallow: /\n");
/// assert_eq!(agents_to_compare(&old, &new), ["Googlebot", "GPTBot", "ExampleBot"]);
/// ```
pub fn agents_to_compare(old: &Arc<RobotsTxt>, new: &Arc<RobotsTxt>) -> Vec<String> {
    let mut agents: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for robots in [old, new] {
        for group in robots.groups() {
            for agent in group.agents(robots).iter().filter(|a| !a.global) {
                let token = agent.token(robots);
                if !token.is_empty() && seen.insert(token.to_ascii_lowercase()) {
                    agents.push(token.into_owned());
                }
            }
        }
    }
    let unnamed = |name: &str| {
        [old, new].into_iter().all(|robots| {
            Crawler::new(Arc::clone(robots), name)
                .is_ok_and(|c| matches!(c.selection(), Selection::Global | Selection::Unmatched))
        })
    };
    agents.extend(
        OTHER_CRAWLERS
            .into_iter()
            .find(|name| unnamed(name))
            .map(str::to_owned),
    );
    agents
}

/// Pair candidates (see [`witness_candidates`]) are made only when there are at most this
/// many: about 200 patterns of each side of a pair.
pub const MAX_PAIRS: usize = 40_000;

/// The candidate witness paths of two files (see the crate docs): `/`, then from every rule
/// of every group, the old file's first, each group's rules in line order, then the pairs;
/// each path once, each starting with `/`.
pub fn witness_candidates(old: &RobotsTxt, new: &RobotsTxt) -> Vec<String> {
    // Every pattern as compared (a final `$` set apart): whether `*` is a wildcard, whether
    // it is anchored.
    let mut patterns: Vec<(String, bool, bool)> = Vec::new();
    for robots in [old, new] {
        let wildcards = robots.profile().reading().wildcards;
        for group in robots.groups() {
            let rules = group.rules(robots);
            let mut ordered: Vec<_> = rules.rules().iter().collect();
            ordered.sort_by_key(|r| r.line);
            for rule in ordered {
                let pattern = rules.normalized(rule).into_owned();
                patterns.push((pattern, wildcards, rule.is_anchored()));
            }
        }
    }
    let filler = filler(patterns.iter().map(|(p, _, _)| p.as_str()));
    let fill = |pattern: &str| pattern.replace('*', filler.encode_utf8(&mut [0; 4]));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut add = |path: String| {
        let path = if path.starts_with('/') {
            path
        } else {
            format!("/{path}")
        };
        if seen.insert(path.clone()) {
            out.push(path);
        }
    };
    add("/".to_owned());
    for (pattern, wildcards, _) in &patterns {
        for path in from_pattern(pattern, *wildcards, filler) {
            add(path);
        }
    }
    // Pairs: a head (unanchored, so anything may follow it) followed by a floating tail (one
    // that starts with `*` or `/*`, so it matches wherever its literal parts appear): a path
    // both match.
    let mut distinct: Vec<(&str, bool)> = patterns
        .iter()
        .filter(|(_, wildcards, _)| *wildcards)
        .map(|(p, _, anchored)| (p.as_str(), *anchored))
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    let heads: Vec<String> = distinct
        .iter()
        .filter(|(_, anchored)| !anchored)
        .map(|(p, _)| fill(p))
        .collect();
    let tails: Vec<String> = distinct
        .iter()
        .filter(|(p, _)| p.starts_with('*') || p.starts_with("/*"))
        .map(|(p, _)| fill(p.strip_prefix('/').unwrap_or(p)))
        .collect();
    if heads.len().saturating_mul(tails.len()) <= MAX_PAIRS {
        for head in &heads {
            for tail in &tails {
                add(format!("{head}{tail}"));
            }
        }
    }
    out
}

/// The filler for `*`: the first of a few letters and digits that occurs in none of the
/// patterns, so that a filled-in part can never be mistaken for a pattern's literal text
/// (`/x*y` against `/*xy` differ on `/xzy`, where a filler `x` would give `/xxy`, matched by
/// both). `x` when every one occurs.
fn filler<'a>(patterns: impl Iterator<Item = &'a str> + Clone) -> char {
    const FILLERS: &str = "xzqjkvwyb0123456789";
    FILLERS
        .chars()
        .find(|&c| {
            let upper = c.to_ascii_uppercase();
            !patterns.clone().any(|p| p.contains(c) || p.contains(upper))
        })
        .unwrap_or('x')
}

/// The candidates of one pattern, as the profile compares it (without a final `$` anchor).
fn from_pattern(pattern: &str, wildcards: bool, filler: char) -> Vec<String> {
    if !wildcards {
        return vec![pattern.to_owned(), format!("{pattern}{filler}")];
    }
    let filled = pattern.replace('*', filler.encode_utf8(&mut [0; 4]));
    let past_end = format!("{filled}{filler}");
    let shortest = pattern.replace('*', "");
    let prefix = pattern.split('*').next().unwrap_or_default().to_owned();
    vec![filled, shortest, prefix, past_end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_of_a_pattern() {
        assert_eq!(
            from_pattern("/a/*.pdf", true, 'x'),
            ["/a/x.pdf", "/a/.pdf", "/a/", "/a/x.pdfx"]
        );
        assert_eq!(
            from_pattern("/a/*.pdf", false, 'x'),
            ["/a/*.pdf", "/a/*.pdfx"]
        );
        assert_eq!(from_pattern("", true, 'x'), ["", "", "", "x"]);
    }

    #[test]
    fn the_filler_is_in_no_pattern() {
        assert_eq!(filler(["/a/*.pdf"].into_iter()), 'x');
        assert_eq!(filler(["/x*y", "/*XY"].into_iter()), 'z');
        let every = "xzqjkvwyb0123456789";
        assert_eq!(filler([every].into_iter()), 'x');
    }
}

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
