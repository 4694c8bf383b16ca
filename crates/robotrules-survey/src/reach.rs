//! The reach class of a crawler on a host: `open`, `partial` or `blocked`, decided by the
//! model's matcher on witness paths, never by reading the rules' text.
//!
//! - **open**: no URL path on the host is disallowed for the crawler;
//! - **blocked**: no URL path is allowed (`/robots.txt` itself, always allowed by RFC 9309
//!   §2.2.2, does not count);
//! - **partial**: some paths are allowed and some are not.
//!
//! There are infinitely many paths, so the matcher is asked about a finite set of *witness
//! paths* built from the crawler's own rules (the groups the model chose for it, compiled):
//! `/`; `/` followed by a filler byte; and for every rule's pattern `P` as the matcher sees it
//! (normalised, a final `$` set apart) `P` with each `*` replaced by the filler (a path `P`
//! matches), `P` with each `*` removed, the literal prefix of `P` up to its first `*`, and the
//! first of these plus one filler byte (which an end anchor excludes). The filler is a
//! letter or digit that occurs in none of the crawler's patterns. A crawler with no
//! non-empty `disallow` rule is `open` without asking.
//!
//! Each witness is decided by [`Crawler::verdict`], exactly as `robotrules check` decides a
//! URL. `/` is always a witness, so `blocked` implies `check /` disallows and `open` implies
//! it allows. The method can miss: a path where an `allow` rule wins that none of the
//! witnesses reaches (reported `blocked` instead of `partial`), or where a `disallow` rule wins
//! only in combination with another rule's text (reported `open` instead of `partial`). Both
//! need two wildcard rules that meet in one path, which `docs/survey.md` discusses.

use std::borrow::Cow;

use robotrules_model::{Crawler, Reason, RuleKind};

/// How much of a host a crawler may fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Reach {
    /// No path is disallowed.
    Open,
    /// Some paths are allowed, some are not.
    Partial,
    /// No path is allowed (but `/robots.txt`).
    Blocked,
    /// Not known: a redirect whose target's capture is not in the input.
    Unknown,
}

impl Reach {
    /// Every class, in the order reports list them.
    pub const ALL: [Reach; 4] = [Reach::Blocked, Reach::Partial, Reach::Open, Reach::Unknown];

    /// The name used in rows and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reach::Open => "open",
            Reach::Partial => "partial",
            Reach::Blocked => "blocked",
            Reach::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for Reach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The fillers tried for `*`, in order (the first that occurs in no pattern).
const FILLERS: &[u8] = b"xzqjkvwyb0123456789";

/// The reach class of `crawler` on its file (see the module docs).
pub fn reach_of(crawler: &Crawler) -> Reach {
    // Disallow rules first: `/` usually shows an allowed path, and a disallow rule's own
    // witness a disallowed one, which decides `partial` in a few questions. The patterns are
    // borrowed from the compiled groups (copied only when not UTF-8), and every witness is
    // written into one buffer.
    let mut patterns: Vec<Cow<'_, str>> = Vec::new();
    let mut allows: Vec<Cow<'_, str>> = Vec::new();
    for (_, group) in crawler.groups() {
        for rule in group.rules() {
            if rule.is_empty() {
                continue;
            }
            let pattern = group.normalized(rule);
            match rule.kind {
                RuleKind::Disallow => patterns.push(pattern),
                RuleKind::Allow => allows.push(pattern),
            }
        }
    }
    if patterns.is_empty() {
        return Reach::Open;
    }
    patterns.append(&mut allows);
    let wildcards = crawler.robots().profile().reading().wildcards;
    let filler = FILLERS
        .iter()
        .copied()
        .find(|&c| {
            let upper = c.to_ascii_uppercase();
            !patterns
                .iter()
                .any(|p| p.bytes().any(|b| b == c || b == upper))
        })
        .map_or('x', char::from);
    let mut seen = Witnesses::default();
    let mut path = String::new();
    seen.ask(crawler, &mut path, ["/"]);
    seen.ask(crawler, &mut path, ["/", filler.encode_utf8(&mut [0; 4])]);
    for pattern in &patterns {
        if seen.both() {
            break;
        }
        if wildcards {
            let mut filled = [0; 4];
            let filled = &*filler.encode_utf8(&mut filled);
            seen.ask_filled(crawler, &mut path, pattern, filled, filled);
            seen.ask_filled(crawler, &mut path, pattern, filled, "");
            seen.ask_filled(crawler, &mut path, pattern, "", "");
            seen.ask(
                crawler,
                &mut path,
                [pattern.split('*').next().unwrap_or_default()],
            );
        } else {
            seen.ask(crawler, &mut path, [&**pattern]);
            seen.ask(
                crawler,
                &mut path,
                [&**pattern, &*filler.encode_utf8(&mut [0; 4])],
            );
        }
    }
    match (seen.allowed, seen.disallowed) {
        (true, true) => Reach::Partial,
        (false, true) => Reach::Blocked,
        // `/` is always decided one way or the other.
        _ => Reach::Open,
    }
}

/// What the witnesses asked so far showed.
#[derive(Default)]
struct Witnesses {
    allowed: bool,
    disallowed: bool,
}

impl Witnesses {
    fn both(&self) -> bool {
        self.allowed && self.disallowed
    }

    /// Decides `pattern` with each `*` replaced by `star`, then `end` appended.
    fn ask_filled(
        &mut self,
        crawler: &Crawler,
        path: &mut String,
        pattern: &str,
        star: &str,
        end: &str,
    ) {
        if self.both() {
            return;
        }
        let mut parts = pattern.split('*');
        let first = parts.next().unwrap_or_default();
        path.clear();
        path.push_str(first);
        for part in parts {
            path.push_str(star);
            path.push_str(part);
        }
        path.push_str(end);
        self.decide(crawler, path);
    }

    /// Decides the path made of `parts` (made to start with `/`).
    fn ask<'p>(
        &mut self,
        crawler: &Crawler,
        path: &mut String,
        parts: impl IntoIterator<Item = &'p str>,
    ) {
        if self.both() {
            return;
        }
        path.clear();
        for part in parts {
            path.push_str(part);
        }
        self.decide(crawler, path);
    }

    /// Decides `path` (made to start with `/`) for `crawler`.
    fn decide(&mut self, crawler: &Crawler, path: &mut String) {
        if !path.starts_with('/') {
            path.insert(0, '/');
        }
        let Ok(target) = crawler.target(path) else {
            return;
        };
        let verdict = crawler.verdict(&target);
        if verdict.reason == Reason::RobotsTxtImplicitlyAllowed {
            return;
        }
        if verdict.allowed {
            self.allowed = true;
        } else {
            self.disallowed = true;
        }
    }
}

#[cfg(test)]
mod tests;
