//! The AI usage columns of a survey: which signals a capture carries (`Content-Usage`,
//! `Content-Signal`, `License`, `LLM-Policy`), each crawler's usage outcome for `/` per
//! category, and whether the file contradicts itself for the crawler.
//!
//! The outcomes are the model's ([`Crawler::usage`]: draft-ietf-aipref-attach-05 §3.1 with
//! draft-ietf-aipref-vocab-07 and Cloudflare's content signals): for a crawler that may not
//! crawl `/`, every category is unknown ("no preferences are implied for resources that are
//! disallowed"). A contradiction is the model's too ([`robotrules_model::Contradiction`], the
//! definition lint's `usage-contradicts-crawl` renders): the crawler may crawl nothing and a
//! statement that speaks to it allows a use ([`Contradiction::AllowsDisallowed`]); or a search
//! crawler ([`Purpose::Search`]) is closed out by its own group while the statements for
//! crawlers no group names allow search ([`Contradiction::SearchAllowedDisallowed`]).

pub use robotrules_model::ContradictionKind as Contradiction;
use robotrules_model::{Crawler, ExtensionKey, Outcome, RobotsTxt, SharedCategory, Vocabulary};

use robotrules_model::agents::Purpose;

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

    /// This answer for a crawler of `purpose`, where `search` is the model's search
    /// contradiction for it ([`AgentUsage::search_contradiction`]): added when there is no
    /// other and the crawler is a search crawler.
    #[must_use]
    pub fn for_purpose(mut self, purpose: Purpose, search: Option<Contradiction>) -> AgentUsage {
        if self.contradiction.is_none() && purpose == Purpose::Search {
            self.contradiction = search;
        }
        self
    }

    /// The model's first search contradiction for `crawler`, were it a search crawler
    /// ([`Crawler::search_contradictions`]).
    pub fn search_contradiction(crawler: &Crawler) -> Option<Contradiction> {
        crawler
            .search_contradictions()
            .first()
            .map(robotrules_model::Contradiction::kind)
    }

    /// Whether `crawler` may crawl `/`.
    pub fn root_allowed(crawler: &Crawler) -> bool {
        crawler.target("/").is_ok_and(|root| crawler.allows(&root))
    }

    /// The outcomes for `/` of `crawler`, which may crawl `/` or not ([`root_allowed`]), and
    /// the model's first contradiction for it ([`Crawler::usage_contradictions`]); what does
    /// not depend on the crawler's purpose ([`AgentUsage::for_purpose`] adds that).
    ///
    /// [`root_allowed`]: AgentUsage::root_allowed
    pub fn of(crawler: &Crawler, root_allowed: bool) -> AgentUsage {
        let contradiction = crawler
            .usage_contradictions()
            .first()
            .map(robotrules_model::Contradiction::kind);
        let unstated = AgentUsage {
            contradiction,
            ..AgentUsage::UNSTATED
        };
        if !root_allowed || crawler.usage_statements().is_empty() {
            return unstated;
        }
        let Ok(root) = crawler.target("/") else {
            return unstated;
        };
        let usage = crawler.usage(&root);
        AgentUsage {
            usage_train_ai: usage.outcome(Vocabulary::Aipref, "train-ai"),
            usage_search: usage.outcome(Vocabulary::Aipref, "search"),
            signal_search: usage.outcome(Vocabulary::ContentSignals, "search"),
            signal_ai_input: usage.outcome(Vocabulary::ContentSignals, "ai-input"),
            signal_ai_train: usage.outcome(Vocabulary::ContentSignals, "ai-train"),
            train_ai: usage.combined(SharedCategory::TrainAi),
            search: usage.combined(SharedCategory::Search),
            contradiction,
        }
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
        let opened =
            "User-agent: *\nDisallow: /\nAllow: /ai-ok/\nContent-Usage: /ai-ok/ train-ai=y\n";
        assert_eq!(usage(opened, "CCBot").contradiction, None);
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
        // A path opened by an allow rule: the preference applies there, no contradiction.
        let body = "User-agent: GPTBot\nDisallow: /\nAllow: /public/\nContent-Usage: train-ai=y\n";
        assert_eq!(usage(body, "GPTBot").contradiction, None);
    }

    #[test]
    fn search_allowed_by_default_while_a_search_crawler_is_disallowed() {
        // Cloudflare's managed file with a Googlebot block added.
        let body = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n";
        let robots = robots(body);
        let googlebot = Crawler::new(Arc::clone(&robots), "Googlebot").unwrap();
        let allowed = AgentUsage::root_allowed(&googlebot);
        assert!(!allowed);
        let own = AgentUsage::of(&googlebot, allowed);
        assert_eq!(own.contradiction, None);
        let search = AgentUsage::search_contradiction(&googlebot);
        assert_eq!(
            own.for_purpose(Purpose::Search, search).contradiction,
            Some(Contradiction::SearchAllowedDisallowed)
        );
        // A training crawler blocked the same way contradicts nothing.
        assert_eq!(
            own.for_purpose(Purpose::Training, search).contradiction,
            None
        );
        let body =
            "User-agent: *\nContent-Signal: search=no\n\nUser-agent: Googlebot\nDisallow: /\n";
        let robots = self::robots(body);
        let googlebot = Crawler::new(robots, "Googlebot").unwrap();
        assert_eq!(AgentUsage::search_contradiction(&googlebot), None);
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
