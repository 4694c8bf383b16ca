//! Compiling a group's rules: once per group a crawler uses ([`crate::Crawler`], at its second
//! check), or on request ([`Group::rules`]); and the first check's way, which tries the rules
//! as it compiles them and keeps nothing ([`first_match_uncompiled`]).
//!
//! Each allow/disallow line becomes a [`Rule`] ([`crate::pattern::compile`]: the profile's
//! normalised form, anchor, priority; Google's `index.html` rewrite adds a derived rule); the
//! rules are put in precedence order ([`rank`]; the 1994 reading keeps file order), identical
//! rules of large groups are moved after the distinct ones ("Duplicate rules in a group MAY
//! be deduplicated"), and the distinct ones are handed to the [`Matcher`].
//!
//! A parse does none of this: most groups of a file are never asked about by a given crawler.

use std::borrow::Cow;
use std::ops::ControlFlow;

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

use crate::matcher::{matches_alone, Matcher, Probe};
use crate::pattern::{compile, len_u32, Pattern, RuleKind};
use crate::profile::{Precedence, Reading};
use crate::robots::{Group, RobotsTxt, RuleLine};
use crate::text::Text;

/// Groups with more rules than this are deduplicated.
const DEDUPLICATE_FROM: usize = 16;

/// Runs of rules of equal rank at most this long are searched for duplicates by comparing
/// their rules ([`move_duplicates_last`]).
const COMPARE_RUN_MAX: usize = 8;

/// Groups with at most this many rules are sorted in place.
const SORT_IN_PLACE_MAX: usize = 20;

/// Larger groups are put in order by counting their rules of each rank when there are at most
/// this many ranks per rule (two per pattern length up to the longest: allow and disallow).
const COUNTING_SORT_RANKS_PER_RULE: usize = 4;

/// One allow or disallow rule, compiled under the profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// 1-based line number.
    pub line: u32,
    /// Whether the rule was derived from the line rather than written there (Google's
    /// `index.html` rewrite: `Allow: /d/index.html` also allows `/d/$`).
    pub derived: bool,
    /// The group it belongs to.
    pub(crate) group: u32,
    pub(crate) value: Text,
    pub(crate) pattern: Pattern,
}

impl Rule {
    /// The pattern as written.
    pub fn value<'a>(&self, robots: &'a RobotsTxt) -> Cow<'a, str> {
        String::from_utf8_lossy(robots.text(self.value))
    }

    /// The rule's priority under longest-match precedence: the octets of its pattern in the
    /// profile's normalised form, every `*` and `$` counted (RFC 9309 §2.2.2).
    pub fn priority(&self) -> u32 {
        self.pattern.priority
    }

    /// Whether the pattern ends in the `$` end anchor, as the profile reads it (never in
    /// `legacy1994`, where `$` is literal).
    pub fn is_anchored(&self) -> bool {
        self.pattern.anchored
    }

    /// Whether the rule has an empty pattern (it never decides anything).
    pub fn is_empty(&self) -> bool {
        self.pattern.matches_nothing
    }
}

/// Precedence between rules of longest-match readings (RFC 9309 §2.2.2): the rule with the
/// most octets wins, allow wins a tie. A smaller rank goes first; the one definition that
/// compiling, merging groups and explaining all use.
#[inline]
pub(crate) fn rank(rule: &Rule) -> u64 {
    u64::from(u32::MAX - rule.pattern.priority) << 1 | u64::from(rule.kind == RuleKind::Disallow)
}

/// Whether `rule` replaces `best`, the best rule found so far, rules being met in file order
/// and groups in file order: under longest match when its [`rank`] is smaller (an equal rank
/// keeps the earlier), else only when none was found (the first match decides).
#[inline]
pub(crate) fn beats(rule: &Rule, best: Option<&Rule>, longest: bool) -> bool {
    best.is_none_or(|b| longest && rank(rule) < rank(b))
}

/// One group's compiled rules.
#[derive(Clone, Debug)]
pub struct GroupRules {
    /// All rules: the distinct ones in precedence order, then duplicates.
    rules: Box<[Rule]>,
    /// For each duplicate (`rules[distinct..]`), the position of the distinct rule it equals.
    twins: Box<[u32]>,
    /// Every rule's normalised pattern bytes, back to back.
    bytes: Box<[u8]>,
    /// Finds the first distinct rule, in precedence order, that matches a path.
    matcher: Matcher,
}

impl Group {
    /// The group's rules compiled under the file's profile, in precedence order (file order
    /// in `legacy1994`); in groups of more than 16 rules, a rule identical to an earlier one
    /// comes after all distinct rules. Compiles the group now; a [`crate::Crawler`] keeps
    /// its groups compiled.
    pub fn rules(&self, robots: &RobotsTxt) -> GroupRules {
        GroupRules::new(robots, self.index)
    }
}

impl GroupRules {
    /// Compile group `index` of `robots`.
    pub(crate) fn new(robots: &RobotsTxt, index: u32) -> GroupRules {
        let reading = robots.profile.reading();
        let lines = robots
            .groups
            .get(index as usize)
            .map_or(&[][..], |g| robots.rule_lines_of(g));
        // One allocation each: the patterns' bytes (Google's escaping and `index.html` rewrite
        // rarely add any) and the rules (a derived rule is rare).
        let written: usize = lines.iter().map(|l| l.value.len as usize).sum();
        let mut bytes = Vec::with_capacity(written + written / 8);
        let mut rules = Vec::with_capacity(lines.len());
        each_rule(
            robots,
            index,
            |_| false,
            |rule, compiled| {
                bytes.extend_from_slice(compiled);
                rules.push(rule);
                ControlFlow::Continue(())
            },
        );
        if reading.precedence == Precedence::LongestMatch {
            put_in_precedence_order(&mut rules);
        }
        let twins = if rules.len() > DEDUPLICATE_FROM {
            let sorted = reading.precedence == Precedence::LongestMatch;
            move_duplicates_last(&mut rules, &bytes, sorted)
        } else {
            Vec::new()
        };
        let distinct = rules.len() - twins.len();
        let matcher = Matcher::new(rules[..distinct].iter().map(|r| &r.pattern), &bytes);
        GroupRules {
            rules: rules.into(),
            twins: twins.into(),
            bytes: bytes.into(),
            matcher,
        }
    }

    /// The rules, in precedence order (distinct ones first).
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The pattern of `rule`, one of these rules, as the matcher sees it (normalised, without
    /// a final `$`).
    pub fn normalized(&self, rule: &Rule) -> Cow<'_, str> {
        String::from_utf8_lossy(rule.pattern.bytes(&self.bytes))
    }

    /// The first distinct rule, in precedence order, that matches the path of `probe`.
    #[inline]
    pub(crate) fn first_match(&self, probe: &mut Probe<'_>) -> Option<&Rule> {
        let rule = self.matcher.first_match(&self.bytes, probe)?;
        self.rules.get(rule as usize)
    }

    /// Every rule that matches the path of `probe`, duplicates included, as the matcher finds
    /// them: distinct ones in precedence order, then duplicates.
    pub(crate) fn every_match(&self, probe: &mut Probe<'_>) -> Vec<&Rule> {
        let distinct = self.rules.len() - self.twins.len();
        let mut matched = vec![false; distinct];
        for i in self.matcher.every_match(&self.bytes, probe) {
            if let Some(m) = matched.get_mut(i as usize) {
                *m = true;
            }
        }
        let twins = self
            .twins
            .iter()
            .map(|&t| matched.get(t as usize) == Some(&true));
        matched
            .iter()
            .copied()
            .chain(twins)
            .zip(self.rules.iter())
            .filter_map(|(m, r)| m.then_some(r))
            .collect()
    }

    /// Approximate heap bytes held.
    pub fn heap_size(&self) -> usize {
        std::mem::size_of::<GroupRules>()
            + self.rules.len() * std::mem::size_of::<Rule>()
            + self.twins.len() * 4
            + self.bytes.len()
            + self.matcher.heap_size()
    }
}

/// Compile group `index` of `robots` rule by rule, in file order (a derived rule right after
/// its line), handing `each` the rule and its normalised bytes, until it breaks; lines that
/// `skip` takes are left out. Each rule's pattern is placed after the bytes of those before it
/// (as [`GroupRules::new`] places them, when nothing is skipped).
fn each_rule(
    robots: &RobotsTxt,
    index: u32,
    skip: impl Fn(&RuleLine) -> bool,
    mut each: impl FnMut(Rule, &[u8]) -> ControlFlow<()>,
) {
    let reading = robots.profile.reading();
    let lines = robots
        .groups
        .get(index as usize)
        .map_or(&[][..], |g| robots.rule_lines_of(g));
    let mut offset = 0u32;
    let mut place = |mut pattern: Pattern, compiled: &[u8]| {
        pattern.start = offset;
        pattern.len = len_u32(compiled.len());
        offset = offset.saturating_add(pattern.len);
        pattern
    };
    for line in lines.iter().filter(|line| !skip(line)) {
        let compiled = compile(robots.text(line.value), line.kind, reading);
        let rule = Rule {
            kind: line.kind,
            line: line.line,
            derived: false,
            group: index,
            value: line.value,
            pattern: place(compiled.pattern, &compiled.bytes),
        };
        if each(rule, &compiled.bytes).is_break() {
            return;
        }
        if let Some((rewritten, priority)) = compiled.index_html {
            let derived = compile(&rewritten, RuleKind::Allow, reading);
            let mut pattern = place(derived.pattern, &derived.bytes);
            pattern.priority = priority;
            let rule = Rule {
                kind: RuleKind::Allow,
                line: line.line,
                derived: true,
                group: index,
                value: line.value,
                pattern,
            };
            if each(rule, &derived.bytes).is_break() {
                return;
            }
        }
    }
}

/// The rule of group `index` that decides for the path of `probe`, found without compiling
/// the group ([`GroupRules`]): each rule that may match ([`may_match`]) is compiled, tried and
/// dropped in turn. The same rule as [`GroupRules::first_match`] gives, but for where its
/// pattern is placed (`pattern.start`, which only the compiled group's bytes give meaning to):
/// under longest match the first in file order among those of the best [`rank`], else the
/// first in file order. What a crawler's first check uses: cheaper than compiling the group
/// when few checks follow.
pub(crate) fn first_match_uncompiled(
    robots: &RobotsTxt,
    index: u32,
    probe: &mut Probe<'_>,
) -> Option<Rule> {
    let reading = robots.profile.reading();
    let longest = reading.precedence == Precedence::LongestMatch;
    let path = probe.path();
    let skip = |line: &RuleLine| !may_match(robots.text(line.value), line.kind, reading, path);
    let mut best: Option<Rule> = None;
    each_rule(robots, index, skip, |rule, compiled| {
        // The rule's bytes alone: its pattern starts at 0 in them.
        let alone = Pattern {
            start: 0,
            ..rule.pattern
        };
        if beats(&rule, best.as_ref(), longest) && matches_alone(&alone, compiled, probe) {
            best = Some(Rule {
                pattern: alone,
                ..rule
            });
            if !longest {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    });
    best
}

/// Whether a rule written `value` may match `path` (in the profile's form): `false` only when
/// the bytes that lead `value` and that no profile's form changes (ASCII letters and digits,
/// `/`, `-`, `_`, `~`: see `robotrules_url::canonical` and `robotrules_url::google`) do not
/// lead the path, which the pattern's literal head must. Google's `index.html` rewrite of an
/// allow rule (`/d/index.html` also allows `/d/$`) keeps those bytes up to the last `/`.
fn may_match(value: &[u8], kind: RuleKind, reading: &Reading, path: &[u8]) -> bool {
    // A pattern without a leading `/` may get one (`SlashlessPattern`): not worth reading.
    if value.first() != Some(&b'/') {
        return true;
    }
    let kept = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'~');
    if reading.index_html && kind == RuleKind::Allow {
        let lead = value.iter().position(|b| !kept(b)).unwrap_or(value.len());
        let lead = memchr::memrchr(b'/', &value[..lead]).map_or(0, |slash| slash + 1);
        return path.starts_with(&value[..lead]);
    }
    // Usually decided at the second or third byte.
    for (at, b) in value.iter().enumerate() {
        if !kept(b) {
            return true;
        }
        if path.get(at) != Some(b) {
            return false;
        }
    }
    true
}

/// Sort `rules` (in file order) by precedence ([`rank`]), then file order. A small group is
/// sorted in place (a stable sort, which allocates nothing for a few rules); a larger one by
/// counting its rules of each rank when the ranks are few beside the rules (the usual case:
/// patterns are short), else by a sort of small keys.
fn put_in_precedence_order(rules: &mut Vec<Rule>) {
    if rules.len() <= SORT_IN_PLACE_MAX {
        rules.sort_by_key(rank);
        return;
    }
    let longest = rules.iter().map(|r| r.pattern.priority).max().unwrap_or(0);
    // Two ranks per length up to the longest: allow, then disallow.
    let ranks = 2 * (longest as usize + 1);
    if ranks <= COUNTING_SORT_RANKS_PER_RULE * rules.len() {
        order_by_counting(rules, longest);
    } else {
        *rules = order_by_keys(rules);
    }
}

/// Put `rules` in precedence order, then file order, by a counting sort of their ranks, the
/// longest pattern being `longest` bytes. In place: each rule's place is worked out first (a
/// number per rule), then rules are swapped into their places, so no second array of rules
/// is touched.
fn order_by_counting(rules: &mut [Rule], longest: u32) {
    // Ranks in order: the longest allow rules, the longest disallow rules, then one byte
    // shorter, and so on.
    let slot = |r: &Rule| {
        2 * longest.saturating_sub(r.pattern.priority) as usize
            + usize::from(r.kind == RuleKind::Disallow)
    };
    // First the number of rules of each rank, then where the next rule of each rank goes.
    let mut next = vec![0u32; 2 * (longest as usize + 1) + 1];
    for r in rules.iter() {
        next[slot(r) + 1] += 1;
    }
    let mut placed = 0;
    for at in &mut next {
        placed += *at;
        *at = placed;
    }
    let mut place: Vec<u32> = rules
        .iter()
        .map(|r| {
            let at = &mut next[slot(r)];
            *at += 1;
            *at - 1
        })
        .collect();
    // Each swap puts one rule in its place for good: at most one swap per rule.
    for i in 0..rules.len() {
        loop {
            let to = place[i] as usize;
            if to == i {
                break;
            }
            rules.swap(i, to);
            place.swap(i, to);
        }
    }
}

/// `rules` in precedence order, then file order, by a sort of small keys, then one
/// permutation: the rules are moved once.
fn order_by_keys(rules: &[Rule]) -> Vec<Rule> {
    let mut keys: Vec<(u64, u32)> = rules
        .iter()
        .enumerate()
        .map(|(i, r)| (rank(r), len_u32(i)))
        .collect();
    // The position breaks ties, so an unstable sort keeps file order among equals.
    keys.sort_unstable();
    keys.iter()
        .filter_map(|&(_, i)| rules.get(i as usize).copied())
        .collect()
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

/// The search for duplicates of [`move_duplicates_last`], with its scratch space.
struct Search {
    /// The distinct rules of a short run so far.
    distinct: Vec<u32>,
    /// The distinct rules of long runs, by the [`digest`] of their identity.
    seen: HashTable<(u64, u32)>,
    /// Whether a duplicate was found.
    found: bool,
}

impl Search {
    /// Sets the twin of each rule of `run` that equals an earlier rule of it.
    fn run(&mut self, rules: &[Rule], bytes: &[u8], run: std::ops::Range<usize>, twin: &mut [u32]) {
        if run.len() <= COMPARE_RUN_MAX {
            self.distinct.clear();
            for i in run {
                self.twin_of(rules, bytes, len_u32(i), twin);
            }
            return;
        }
        // Rules of different runs are never identical, so one table serves every run: sized
        // once, at the first long run, for every rule from there on.
        if self.seen.capacity() == 0 {
            self.seen
                .reserve(rules.len() - run.start, |&(digest, _)| digest);
        }
        for i in run {
            let rule = &rules[i];
            let digest = digest(rule, bytes);
            // The digests first: bytes are compared only for a likely duplicate.
            let same = |&(seen, d): &(u64, u32)| {
                seen == digest && identity(&rules[d as usize], bytes) == identity(rule, bytes)
            };
            match self.seen.entry(digest, same, |&(digest, _)| digest) {
                Entry::Occupied(first) => {
                    twin[i] = first.get().1;
                    self.found = true;
                }
                Entry::Vacant(slot) => {
                    slot.insert((digest, len_u32(i)));
                }
            }
        }
    }

    /// Rule `i` against the distinct rules before it that it may equal: its twin when one
    /// is identical, else it joins them.
    fn twin_of(&mut self, rules: &[Rule], bytes: &[u8], i: u32, twin: &mut [u32]) {
        let rule = &rules[i as usize];
        match self
            .distinct
            .iter()
            .find(|&&d| identity(&rules[d as usize], bytes) == identity(rule, bytes))
        {
            Some(&d) => {
                twin[i as usize] = d;
                self.found = true;
            }
            None => self.distinct.push(i),
        }
    }
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
    let mut words = p.bytes(bytes).chunks_exact(8);
    for word in words.by_ref() {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        h = (h.rotate_left(23) ^ word).wrapping_mul(K);
    }
    // The last bytes, and how many there are (so that a zero byte is not nothing).
    let rest = words.remainder();
    let last = rest
        .iter()
        .rev()
        .fold(rest.len() as u64, |w, &b| w << 8 | u64::from(b));
    (h.rotate_left(23) ^ last).wrapping_mul(K)
}

/// Keep the first of identical rules in place and move the others, in order, after all
/// distinct rules; return, for each moved rule, the new position of the distinct rule it
/// equals. A later identical rule can never decide: the earlier one matches first.
///
/// Identical rules have the same [`rank`], so in rules put in precedence order (`sorted`)
/// they are in one run of equal rank: each run is searched on its own, a short run (the
/// usual one: a few rules of one length) by comparing its rules, a long one as rules in file
/// order are, in a hash table of the digests of their identity, only rules with equal digests
/// compared.
fn move_duplicates_last(rules: &mut Vec<Rule>, bytes: &[u8], sorted: bool) -> Vec<u32> {
    // For each rule, the earliest rule identical to it (itself when it is distinct).
    let mut twin: Vec<u32> = (0..len_u32(rules.len())).collect();
    let mut search = Search {
        distinct: Vec::new(),
        seen: HashTable::new(),
        found: false,
    };
    if sorted {
        let mut start = 0;
        for i in 1..=rules.len() {
            if i == rules.len() || rank(&rules[i]) != rank(&rules[start]) {
                if i - start > 1 {
                    search.run(rules, bytes, start..i, &mut twin);
                }
                start = i;
            }
        }
    } else {
        search.run(rules, bytes, 0..rules.len(), &mut twin);
    }
    if !search.found {
        return Vec::new();
    }
    // Where each distinct rule lands: the distinct rules before it.
    let mut new_position = vec![0u32; rules.len()];
    let mut next = 0;
    for (i, &t) in twin.iter().enumerate() {
        if t == len_u32(i) {
            new_position[i] = next;
            next += 1;
        }
    }
    let is_first = |i: usize| twin[i] == len_u32(i);
    let mut duplicates = Vec::new();
    let mut twins = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        if !is_first(i) {
            duplicates.push(*rule);
            twins.push(new_position[twin[i] as usize]);
        }
    }
    if !duplicates.is_empty() {
        let mut at = 0;
        rules.retain(|_| {
            at += 1;
            is_first(at - 1)
        });
        rules.extend(duplicates);
    }
    twins
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::test_rng::Rng;

    /// Both ways of ordering a large group give a stable sort by rank: groups of 21 to 400
    /// rules, of few lengths (counted) and of lengths spread far (sorted by key).
    #[test]
    fn counting_and_keyed_orders_are_the_stable_sort_by_rank() {
        let mut rng = Rng(0x5eed_0f0d);
        for case in 0..300 {
            let n = 21 + rng.below(380);
            let longest = if case % 2 == 0 {
                1 + rng.below(40)
            } else {
                1 + rng.below(5_000)
            };
            let mut text = String::from("user-agent: *\n");
            for _ in 0..n {
                let kind = if rng.below(3) == 0 {
                    "allow"
                } else {
                    "disallow"
                };
                let len = rng.below(longest + 1);
                text.push_str(&format!("{kind}: /{}\n", "a".repeat(len)));
            }
            let robots = RobotsTxt::parse(text.as_bytes(), Profile::Rfc9309, 512_000);
            let mut rules = Vec::new();
            each_rule(
                &robots,
                0,
                |_| false,
                |rule, _| {
                    rules.push(rule);
                    ControlFlow::Continue(())
                },
            );
            let mut stable = rules.clone();
            stable.sort_by_key(rank);
            let longest = rules.iter().map(|r| r.pattern.priority).max().unwrap_or(0);
            let mut counted = rules.clone();
            order_by_counting(&mut counted, longest);
            assert_eq!(counted, stable, "case {case}");
            assert_eq!(order_by_keys(&rules), stable, "case {case}");
            put_in_precedence_order(&mut rules);
            assert_eq!(rules, stable, "case {case}");
        }
    }

    #[test]
    fn duplicates_found_run_by_run_are_those_found_in_the_whole_group() {
        // Short runs of equal rank (a few rules of one length) and a long one (24 rules of
        // length 3), each with duplicates, allow and disallow alike.
        let mut text = String::from("user-agent: *\n");
        for i in 0..24 {
            let kind = if i % 3 == 0 { "allow" } else { "disallow" };
            text.push_str(&format!("{kind}: /{}\n", ["ab", "cd", "ef", "gh"][i % 4]));
            text.push_str(&format!("disallow: /x{}\n", "y".repeat(i % 5)));
            text.push_str(&format!("allow: /{i:02}\n"));
        }
        text.push_str("disallow: /ab\nallow: /ab\ndisallow: /xy\n");
        for profile in [Profile::Rfc9309, Profile::Google] {
            let robots = RobotsTxt::parse(text.as_bytes(), profile, 512_000);
            let group = GroupRules::new(&robots, 0);
            assert!(!group.twins.is_empty());
            // Every duplicate is identical to the distinct rule its twin names, and no two
            // distinct rules are identical.
            let distinct = group.rules.len() - group.twins.len();
            for (k, &t) in group.twins.iter().enumerate() {
                let (dup, first) = (&group.rules[distinct + k], &group.rules[t as usize]);
                assert_eq!(identity(dup, &group.bytes), identity(first, &group.bytes));
                assert!(first.line < dup.line);
            }
            for a in 0..distinct {
                for b in a + 1..distinct {
                    assert_ne!(
                        identity(&group.rules[a], &group.bytes),
                        identity(&group.rules[b], &group.bytes),
                        "{profile}"
                    );
                }
            }
            // The same order and twins as one search of the whole group by digest.
            let mut rules = group.rules[..distinct].to_vec();
            rules.extend_from_slice(&group.rules[distinct..]);
            let mut by_digest: Vec<Rule> = group.rules.to_vec();
            by_digest.sort_by_key(|r| (rank(r), r.line, r.derived));
            let twins = move_duplicates_last(&mut by_digest, &group.bytes, false);
            assert_eq!(twins, group.twins.to_vec(), "{profile}");
            assert_eq!(by_digest, rules, "{profile}");
        }
    }
}
