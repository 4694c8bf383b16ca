//! Compiling a group's rules, the first time a crawler asks about the group.
//!
//! Each allow/disallow line becomes a [`Rule`] ([`crate::pattern::compile`]: the profile's
//! normalised form, anchor, priority; Google's `index.html` rewrite adds a derived rule); the
//! rules are put in precedence order (RFC 9309 §2.2.2: most octets first, allow before
//! disallow on a tie, then file order; the 1994 reading keeps file order), identical rules of
//! large groups are moved after the distinct ones ("Duplicate rules in a group MAY be
//! deduplicated"), and the distinct ones are handed to the [`Matcher`].
//!
//! A parse does none of this: most groups of a file are never asked about by a given crawler.

use crate::matcher::{Matcher, Probe};
use crate::pattern::{compile, len_u32, Pattern, RuleKind};
use crate::profile::Precedence;
use crate::robots::{RobotsTxt, Rule};

/// Groups with more rules than this are deduplicated.
const DEDUPLICATE_FROM: usize = 16;

/// A group's compiled rules.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    /// All rules: the distinct ones in precedence order, then duplicates.
    pub(crate) rules: Box<[Rule]>,
    /// Every rule's normalised pattern bytes, back to back.
    pub(crate) bytes: Box<[u8]>,
    /// Finds the first distinct rule, in precedence order, that matches a path.
    matcher: Matcher,
}

impl Compiled {
    /// Compile group `index` of `robots`.
    pub(crate) fn new(robots: &RobotsTxt, index: u32) -> Compiled {
        let reading = robots.profile.reading();
        let lines = robots
            .groups
            .get(index as usize)
            .map_or(&[][..], |g| robots.rule_lines_of(g));
        let mut bytes = Vec::new();
        let mut rules = Vec::with_capacity(lines.len());
        let mut place = |pattern: &mut Pattern, compiled: &[u8]| {
            pattern.start = len_u32(bytes.len());
            pattern.len = len_u32(compiled.len());
            bytes.extend_from_slice(compiled);
        };
        for line in lines {
            let compiled = compile(robots.text(line.value), line.kind, reading);
            let mut pattern = compiled.pattern;
            place(&mut pattern, &compiled.bytes);
            rules.push(Rule {
                kind: line.kind,
                line: line.line,
                derived: false,
                group: index,
                value: line.value,
                pattern,
            });
            if let Some((rewritten, priority)) = compiled.index_html {
                let derived = compile(&rewritten, RuleKind::Allow, reading);
                let mut pattern = derived.pattern;
                place(&mut pattern, &derived.bytes);
                pattern.priority = priority;
                rules.push(Rule {
                    kind: RuleKind::Allow,
                    line: line.line,
                    derived: true,
                    group: index,
                    value: line.value,
                    pattern,
                });
            }
        }
        if reading.precedence == Precedence::LongestMatch {
            put_in_precedence_order(&mut rules);
        }
        let distinct = if rules.len() > DEDUPLICATE_FROM {
            move_duplicates_last(&mut rules, &bytes)
        } else {
            rules.len()
        };
        let matcher = Matcher::new(&rules[..distinct], &bytes);
        Compiled {
            rules: rules.into(),
            bytes: bytes.into(),
            matcher,
        }
    }

    /// The first distinct rule, in precedence order, that matches `path`.
    #[inline]
    pub(crate) fn first_match(&self, probe: &mut Probe<'_>) -> Option<&Rule> {
        let rule = self.matcher.first_match(&self.bytes, probe)?;
        self.rules.get(rule as usize)
    }

    pub(crate) fn heap_size(&self) -> usize {
        std::mem::size_of::<Compiled>()
            + self.rules.len() * std::mem::size_of::<Rule>()
            + self.bytes.len()
            + self.matcher.heap_size()
    }
}

/// Sort `rules` (in file order) by precedence: most octets first, allow before disallow on a
/// tie, then file order. A sort of small keys, then one permutation: the rules themselves are
/// moved once.
fn put_in_precedence_order(rules: &mut Vec<Rule>) {
    let mut keys: Vec<(u64, u32)> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let rank = u64::from(u32::MAX - r.pattern.priority) << 1
                | u64::from(r.kind == RuleKind::Disallow);
            (rank, len_u32(i))
        })
        .collect();
    // The position breaks ties, so an unstable sort keeps file order among equals.
    keys.sort_unstable();
    let mut sorted: Vec<Rule> = keys
        .iter()
        .filter_map(|&(_, i)| rules.get(i as usize).copied())
        .collect();
    std::mem::swap(rules, &mut sorted);
}

/// What makes two rules identical: kind, flags, priority and normalised bytes.
fn identity<'a>(rule: &Rule, bytes: &'a [u8]) -> (bool, [bool; 3], u32, &'a [u8]) {
    let p = &rule.pattern;
    (
        rule.kind == RuleKind::Allow,
        [p.anchored, p.matches_nothing, p.matches_everything],
        p.priority,
        p.bytes(bytes),
    )
}

/// A 64-bit digest of [`identity`], for finding candidate duplicates without comparing bytes.
fn digest(rule: &Rule, bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let p = &rule.pattern;
    let flags = u64::from(rule.kind == RuleKind::Allow)
        | u64::from(p.anchored) << 1
        | u64::from(p.matches_nothing) << 2
        | u64::from(p.matches_everything) << 3;
    let mut h = (u64::from(p.priority) << 8 | flags).wrapping_mul(K);
    for chunk in p.bytes(bytes).chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    h
}

/// Keep the first of identical rules in place and move the others, in order, after all
/// distinct rules; return how many are distinct. A later identical rule can never decide: the
/// earlier one matches first. Rules are grouped by a digest of their identity (sorting
/// numbers), and only rules with equal digests are compared.
fn move_duplicates_last(rules: &mut Vec<Rule>, bytes: &[u8]) -> usize {
    let mut order: Vec<(u64, u32)> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (digest(r, bytes), len_u32(i)))
        .collect();
    order.sort_unstable();
    let mut first = vec![true; rules.len()];
    let mut distinct_in_run: Vec<u32> = Vec::new();
    for run in order.chunk_by(|a, b| a.0 == b.0) {
        // Usually one rule; several only for duplicates (or a digest collision): each is
        // compared with the distinct rules of its run before it.
        distinct_in_run.clear();
        for &(_, i) in run {
            let rule = &rules[i as usize];
            if distinct_in_run
                .iter()
                .any(|&d| identity(&rules[d as usize], bytes) == identity(rule, bytes))
            {
                first[i as usize] = false;
            } else {
                distinct_in_run.push(i);
            }
        }
    }
    let distinct = first.iter().filter(|&&f| f).count();
    if distinct < rules.len() {
        let duplicates: Vec<Rule> = rules
            .iter()
            .zip(&first)
            .filter(|(_, &f)| !f)
            .map(|(r, _)| *r)
            .collect();
        let mut keep = first.iter();
        rules.retain(|_| keep.next().copied().unwrap_or(true));
        rules.extend(duplicates);
    }
    distinct
}
