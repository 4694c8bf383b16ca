//! The AI usage columns of a survey: which signals a capture carries (`Content-Usage`,
//! `Content-Signal`, `License`, `LLM-Policy`), each crawler's usage outcome for `/` per
//! category, and whether the file contradicts itself for the crawler.
//!
//! The outcomes are the model's ([`Crawler::usage`]: draft-ietf-aipref-attach-05 §3.1 with
//! draft-ietf-aipref-vocab-07 and Cloudflare's content signals): for a crawler that may not
//! crawl `/`, every category is unknown ("no preferences are implied for resources that are
//! disallowed"). A contradiction is what such a file says anyway:
//!
//! - [`Contradiction::AllowsDisallowed`]: the crawler may not crawl `/`, and the statements
//!   that speak to it (its groups' lines and the file-wide `Content-Signal`) allow a use of
//!   `/` (any label stated allowed);
//! - [`Contradiction::SearchAllowedDisallowed`]: a search crawler ([`Purpose::Search`]) may
//!   not crawl `/`, and the file's default statements (those the `*` group and the file-wide
//!   lines make) allow search of `/` (`search=yes`, or `search=y`).
//!
//! Which statements speak of `/`: in each vocabulary, those whose path matches `/` with the
//! most octets (a path of `/`, `/*` or `/$`, or none), as attach-05 §3.1 picks the longest
//! matching path; a statement with a longer path (`/ai-ok/`) speaks of other URLs only.

use robotrules_model::{
    Crawler, ExtensionKey, Outcome, RobotsTxt, SharedCategory, UsageStatement, Vocabulary,
};

use crate::agents::Purpose;

/// Which AI usage signals a capture's robots.txt carries, anywhere in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Signals {
    /// A `Content-Usage` line (IETF AIPREF).
    pub content_usage: bool,
    /// A `Content-Signal` line (Cloudflare).
    pub content_signal: bool,
    /// A `License:` URL (RSL 1.0).
    pub license: bool,
    /// An `LLM-Policy:` URL.
    pub llm_policy: bool,
}

impl Signals {
    /// The signals `robots` carries, read from its records (no value is copied).
    pub fn of(robots: &RobotsTxt) -> Signals {
        Signals {
            content_usage: robots.has_record(ExtensionKey::ContentUsage),
            content_signal: robots.has_record(ExtensionKey::ContentSignal),
            license: robots.licenses().next().is_some(),
            llm_policy: robots.llm_policies().next().is_some(),
        }
    }

    /// Whether it carries any of the four.
    pub const fn any(&self) -> bool {
        self.content_usage || self.content_signal || self.license || self.llm_policy
    }
}

/// How a file contradicts itself for one crawler: it may not crawl `/`, and a usage
/// preference allows a use of it anyway (`docs/survey.md`, "AI usage signals").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Contradiction {
    /// The crawler may not crawl `/`, and the statements that speak to it allow a use of it.
    AllowsDisallowed,
    /// A search crawler may not crawl `/`, and the file's default statements allow search.
    SearchAllowedDisallowed,
}

impl Contradiction {
    /// The name used in the `contradiction` column.
    pub const fn as_str(self) -> &'static str {
        match self {
            Contradiction::AllowsDisallowed => "allows-disallowed",
            Contradiction::SearchAllowedDisallowed => "search-allowed-disallowed",
        }
    }
}

impl std::fmt::Display for Contradiction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One crawler's usage outcomes for `/`, and whether the file contradicts itself for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AgentUsage {
    /// AIPREF `train-ai` (`Content-Usage`).
    pub usage_train_ai: Outcome,
    /// AIPREF `search` (`Content-Usage`).
    pub usage_search: Outcome,
    /// Cloudflare `search` (`Content-Signal`).
    pub signal_search: Outcome,
    /// Cloudflare `ai-input` (`Content-Signal`).
    pub signal_ai_input: Outcome,
    /// Cloudflare `ai-train` (`Content-Signal`).
    pub signal_ai_train: Outcome,
    /// AI training, both vocabularies combined (vocab-07 §5.1).
    pub train_ai: Outcome,
    /// Search, both vocabularies combined.
    pub search: Outcome,
    /// How the file contradicts itself for the crawler, if it does.
    pub contradiction: Option<Contradiction>,
}

impl AgentUsage {
    /// The outcome columns, in [`USAGE_COLUMNS`] order (`usage_train_ai` to `search`).
    pub const fn outcomes(&self) -> [Outcome; 7] {
        [
            self.usage_train_ai,
            self.usage_search,
            self.signal_search,
            self.signal_ai_input,
            self.signal_ai_train,
            self.train_ai,
            self.search,
        ]
    }

    /// Nothing stated: every category unknown, no contradiction (a status decided, or the
    /// file has no usage line for the crawler).
    pub const UNSTATED: AgentUsage = AgentUsage {
        usage_train_ai: Outcome::Unknown,
        usage_search: Outcome::Unknown,
        signal_search: Outcome::Unknown,
        signal_ai_input: Outcome::Unknown,
        signal_ai_train: Outcome::Unknown,
        train_ai: Outcome::Unknown,
        search: Outcome::Unknown,
        contradiction: None,
    };

    /// Whether `crawler` may crawl `/`.
    pub fn root_allowed(crawler: &Crawler) -> bool {
        crawler.target("/").is_ok_and(|root| crawler.allows(&root))
    }

    /// The outcomes for `/` of `crawler`, which may crawl `/` or not ([`root_allowed`]), and
    /// [`Contradiction::AllowsDisallowed`]; what does not depend on the crawler's purpose
    /// ([`AgentUsage::for_purpose`] adds that).
    ///
    /// [`root_allowed`]: AgentUsage::root_allowed
    pub fn of(crawler: &Crawler, root_allowed: bool) -> AgentUsage {
        let statements = crawler.usage_statements();
        if !root_allowed {
            let allows = allowing_at_root(statements, None);
            return AgentUsage {
                contradiction: allows.then_some(Contradiction::AllowsDisallowed),
                ..AgentUsage::UNSTATED
            };
        }
        let Ok(root) = crawler.target("/") else {
            return AgentUsage::UNSTATED;
        };
        if statements.is_empty() {
            return AgentUsage::UNSTATED;
        }
        let usage = crawler.usage(&root);
        AgentUsage {
            usage_train_ai: usage.outcome(Vocabulary::Aipref, "train-ai"),
            usage_search: usage.outcome(Vocabulary::Aipref, "search"),
            signal_search: usage.outcome(Vocabulary::ContentSignals, "search"),
            signal_ai_input: usage.outcome(Vocabulary::ContentSignals, "ai-input"),
            signal_ai_train: usage.outcome(Vocabulary::ContentSignals, "ai-train"),
            train_ai: usage.combined(SharedCategory::TrainAi),
            search: usage.combined(SharedCategory::Search),
            contradiction: None,
        }
    }

    /// This answer for a crawler of `purpose` that may (`root_allowed`) or may not crawl `/`,
    /// where `default_allows_search` says whether the file's default statements allow search
    /// of `/`: adds [`Contradiction::SearchAllowedDisallowed`] when there is no other.
    #[must_use]
    pub fn for_purpose(
        mut self,
        purpose: Purpose,
        root_allowed: bool,
        default_allows_search: bool,
    ) -> AgentUsage {
        if self.contradiction.is_none()
            && purpose == Purpose::Search
            && !root_allowed
            && default_allows_search
        {
            self.contradiction = Some(Contradiction::SearchAllowedDisallowed);
        }
        self
    }
}

/// The names of the usage columns, in order: the capture's signals, then the crawler's
/// outcomes for `/` and its contradiction ([`UsageRow`]). They follow a row's
/// [`COLUMNS`](crate::COLUMNS), one [`UsageRow`] per row ([`crate::Surveyed::usage_rows`]).
pub const USAGE_COLUMNS: [&str; 12] = [
    "content_usage",
    "content_signal",
    "license",
    "llm_policy",
    "usage_train_ai",
    "usage_search",
    "signal_search",
    "signal_ai_input",
    "signal_ai_train",
    "train_ai",
    "search",
    "contradiction",
];

/// The usage columns of one row: a capture's [`Signals`] and one crawler's [`AgentUsage`]
/// ([`USAGE_COLUMNS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct UsageRow {
    /// The capture's signals.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub signals: Signals,
    /// The crawler's outcomes for `/` and its contradiction.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub usage: AgentUsage,
}

impl UsageRow {
    /// The outcome columns, in [`USAGE_COLUMNS`] order (`usage_train_ai` to `search`).
    pub const fn outcomes(&self) -> [Outcome; 7] {
        self.usage.outcomes()
    }

    /// The signal columns, in [`USAGE_COLUMNS`] order (`content_usage` to `llm_policy`).
    pub const fn signal_flags(&self) -> [bool; 4] {
        let s = &self.signals;
        [s.content_usage, s.content_signal, s.license, s.llm_policy]
    }
}

/// Whether the file's default statements (those that speak to a crawler no group names: the
/// `*` group's and the file-wide lines) allow search of `/`, in either vocabulary.
pub fn default_allows_search(robots: &std::sync::Arc<RobotsTxt>) -> bool {
    // `*` is read as a crawler that no group names (`robotrules check '*'`).
    Crawler::new(std::sync::Arc::clone(robots), "*")
        .is_ok_and(|any| allowing_at_root(any.usage_statements(), Some("search")))
}

/// Whether the statements that speak of `/` (per vocabulary, those with the longest path
/// matching `/`, or those without a path when none has one) state `label` allowed, or any
/// label when `label` is `None`.
fn allowing_at_root(statements: &[UsageStatement], label: Option<&str>) -> bool {
    Vocabulary::ALL.into_iter().any(|vocabulary| {
        let speaking: Vec<&UsageStatement> = statements
            .iter()
            .filter(|s| s.vocabulary == vocabulary)
            .collect();
        let Some(longest) = speaking.iter().filter_map(|s| root_match(s)).max() else {
            return false;
        };
        speaking
            .iter()
            .filter(|s| root_match(s) == Some(longest))
            .any(|s| allows(s, label))
    })
}

/// How many octets of the statement's path match `/` (`Some(0)` for a statement without a
/// path, `None` for a path that does not match `/`).
fn root_match(statement: &UsageStatement) -> Option<usize> {
    match statement.path.as_deref() {
        None => Some(0),
        Some(path @ ("/" | "/*" | "/$")) => Some(path.len()),
        Some(_) => None,
    }
}

/// Whether `statement` states `label` allowed (any label when `None`).
fn allows(statement: &UsageStatement, label: Option<&str>) -> bool {
    let Ok(members) = &statement.members else {
        return false;
    };
    members.iter().any(|m| {
        label.is_none_or(|l| m.label == l)
            && statement.vocabulary.outcome(&m.value) == Outcome::Allowed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotrules_model::Profile;
    use std::sync::Arc;

    fn robots(body: &str) -> Arc<RobotsTxt> {
        Arc::new(RobotsTxt::parse(body.as_bytes(), Profile::Google, 512_000))
    }

    fn usage(body: &str, agent: &str) -> AgentUsage {
        let crawler = Crawler::new(robots(body), agent).unwrap();
        AgentUsage::of(&crawler, AgentUsage::root_allowed(&crawler))
    }

    #[test]
    fn signals_are_found_in_groups_and_outside_them_in_any_case() {
        let body = "License: /l.xml\nUser-agent: *\nCONTENT-SIGNAL: search=yes\n";
        let s = Signals::of(&robots(body));
        assert_eq!(
            s,
            Signals {
                content_usage: false,
                content_signal: true,
                license: true,
                llm_policy: false
            }
        );
        let body = "Content-Usage: train-ai=n\nLLM-Policy: https://example.com/llm.txt\n";
        let s = Signals::of(&robots(body));
        assert!(s.content_usage && s.llm_policy && !s.content_signal && !s.license);
        let body = "User-agent: *\nDisallow: /content-signal/\n";
        assert!(!Signals::of(&robots(body)).any());
    }

    #[test]
    fn outcomes_for_the_root() {
        let body = "User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes, ai-input=no, ai-train=yes\n";
        let u = usage(body, "CCBot");
        assert_eq!(
            (u.usage_train_ai, u.usage_search),
            (Outcome::Disallowed, Outcome::Unknown)
        );
        assert_eq!(
            (u.signal_search, u.signal_ai_input, u.signal_ai_train),
            (Outcome::Allowed, Outcome::Disallowed, Outcome::Allowed)
        );
        assert_eq!(
            (u.train_ai, u.search),
            (Outcome::Disallowed, Outcome::Allowed)
        );
        assert_eq!(u.contradiction, None);
    }

    #[test]
    fn a_path_longer_than_the_root_does_not_speak_of_it() {
        let body = "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n";
        assert_eq!(usage(body, "CCBot").usage_train_ai, Outcome::Disallowed);
        let blocked =
            "User-agent: *\nDisallow: /\nAllow: /ai-ok/\nContent-Usage: /ai-ok/ train-ai=y\n";
        assert_eq!(usage(blocked, "CCBot").contradiction, None);
    }

    #[test]
    fn a_crawler_disallowed_from_the_root_has_no_preference_and_may_contradict() {
        let body = "User-agent: GPTBot\nDisallow: /\nContent-Signal: ai-train=yes\n";
        let u = usage(body, "GPTBot");
        assert_eq!(u.signal_ai_train, Outcome::Unknown);
        assert_eq!(u.contradiction, Some(Contradiction::AllowsDisallowed));
        // Disallowing every use says the same as the crawl rules: no contradiction.
        let body = "User-agent: GPTBot\nDisallow: /\nContent-Signal: ai-train=no\n";
        assert_eq!(usage(body, "GPTBot").contradiction, None);
        // A longer path at the root overrides the pathless statement.
        let body = "User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=y\nContent-Usage: / train-ai=n\n";
        assert_eq!(usage(body, "GPTBot").contradiction, None);
    }

    #[test]
    fn search_allowed_by_default_while_a_search_crawler_is_disallowed() {
        // Cloudflare's managed file with a Googlebot block added.
        let body = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n";
        let robots = robots(body);
        assert!(default_allows_search(&robots));
        let googlebot = Crawler::new(Arc::clone(&robots), "Googlebot").unwrap();
        let allowed = AgentUsage::root_allowed(&googlebot);
        assert!(!allowed);
        let own = AgentUsage::of(&googlebot, allowed);
        assert_eq!(own.contradiction, None);
        assert_eq!(
            own.for_purpose(Purpose::Search, allowed, true)
                .contradiction,
            Some(Contradiction::SearchAllowedDisallowed)
        );
        // A training crawler blocked the same way contradicts nothing.
        assert_eq!(
            own.for_purpose(Purpose::Training, allowed, true)
                .contradiction,
            None
        );
        let body = "User-agent: *\nContent-Signal: search=no\n";
        assert!(!default_allows_search(&self::robots(body)));
    }

    /// JSON names the usage columns as [`USAGE_COLUMNS`] does, outcomes as the model's.
    #[cfg(feature = "serde")]
    #[test]
    fn a_usage_row_serialises_under_the_column_names() {
        let body = "User-agent: *\nContent-Signal: search=yes\n";
        let row = UsageRow {
            signals: Signals::of(&robots(body)),
            usage: usage(body, "CCBot"),
        };
        let value = serde_json::to_value(row).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut columns = USAGE_COLUMNS.to_vec();
        let mut keys = keys;
        columns.sort_unstable();
        keys.sort_unstable();
        assert_eq!(keys, columns);
        assert_eq!(value["signal_search"], "allowed");
        assert_eq!(value["contradiction"], serde_json::Value::Null);
        assert_eq!(value["content_signal"], true);
    }

    #[test]
    fn unparsed_statements_allow_nothing() {
        let body = "User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=y, ,\n";
        assert_eq!(usage(body, "GPTBot").contradiction, None);
    }
}
