//! The two vocabularies of AI usage preferences a robots.txt carries, their labels, how each
//! reads a value, and the rule that combines statements (draft-ietf-aipref-vocab-07 §5.1).

use robotrules_grammar::MemberValue;

use crate::extension::ExtensionKey;

/// A vocabulary of usage categories, and the line that carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Vocabulary {
    /// The IETF AIPREF vocabulary (draft-ietf-aipref-vocab-07): labels `train-ai` and
    /// `search`, values the Tokens `y` and `n`; carried by `Content-Usage`
    /// (draft-ietf-aipref-attach-05) and by the HTTP `Content-Usage` header.
    Aipref,
    /// Cloudflare's content signals (draft-romm-aipref-contentsignals-00): labels `search`,
    /// `ai-input` and `ai-train`, values `yes` and `no`; carried by `Content-Signal`.
    ContentSignals,
}

impl Vocabulary {
    /// Both, in the order reports show them.
    pub const ALL: [Vocabulary; 2] = [Vocabulary::Aipref, Vocabulary::ContentSignals];

    /// The name used in JSON and reports: `aipref`, `content-signals`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Vocabulary::Aipref => "aipref",
            Vocabulary::ContentSignals => "content-signals",
        }
    }

    /// The robots.txt key that carries it: `content-usage`, `content-signal`.
    pub const fn key(self) -> &'static str {
        match self {
            Vocabulary::Aipref => "content-usage",
            Vocabulary::ContentSignals => "content-signal",
        }
    }

    /// The draft that defines it, with its version.
    pub const fn draft(self) -> &'static str {
        match self {
            Vocabulary::Aipref => "draft-ietf-aipref-vocab-07",
            Vocabulary::ContentSignals => "draft-romm-aipref-contentsignals-00",
        }
    }

    /// The labels it defines, in its draft's order (vocab-07 §6.1; contentsignals-00 §4).
    pub const fn labels(self) -> &'static [&'static str] {
        match self {
            Vocabulary::Aipref => &["train-ai", "search"],
            Vocabulary::ContentSignals => &["search", "ai-input", "ai-train"],
        }
    }

    /// The values that state a preference: `(allow, disallow)`.
    pub const fn values(self) -> (&'static str, &'static str) {
        match self {
            // vocab-07 §6.2: "mapped to single byte Tokens […] of `y` and `n`".
            Vocabulary::Aipref => ("y", "n"),
            // Cloudflare's content signals policy: "yes" means allowed, "no" not allowed.
            Vocabulary::ContentSignals => ("yes", "no"),
        }
    }

    /// What a member's value states (vocab-07 §6.5): a Token equal to the vocabulary's allow
    /// or disallow value; anything else (another Token, a Boolean, another type) is unknown,
    /// "not errors".
    pub fn outcome(self, value: &MemberValue) -> Outcome {
        let (allow, disallow) = self.values();
        match value {
            MemberValue::Token(token) if token == allow => Outcome::Allowed,
            MemberValue::Token(token) if token == disallow => Outcome::Disallowed,
            _ => Outcome::Unknown,
        }
    }

    /// The vocabulary a record key carries, if it carries one (`Content-Usage`: AIPREF;
    /// `Content-Signal`: Cloudflare's).
    pub const fn of_key(key: ExtensionKey) -> Option<Vocabulary> {
        match key {
            ExtensionKey::ContentUsage => Some(Vocabulary::Aipref),
            ExtensionKey::ContentSignal => Some(Vocabulary::ContentSignals),
            _ => None,
        }
    }
}

impl std::fmt::Display for Vocabulary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The preference for one category of use (draft-ietf-aipref-vocab-07 §3): "allowed",
/// "disallowed" or "unknown".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Outcome {
    /// The use is allowed.
    Allowed,
    /// The use is disallowed.
    Disallowed,
    /// No statement says.
    Unknown,
}

impl Outcome {
    /// The name used in JSON and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Allowed => "allowed",
            Outcome::Disallowed => "disallowed",
            Outcome::Unknown => "unknown",
        }
    }

    /// Several statements' preferences for one category combined (draft-ietf-aipref-vocab-07
    /// §5.1): any disallowed gives disallowed, else any allowed gives allowed, else unknown.
    ///
    /// ```
    /// use robotrules_model::Outcome::{Allowed, Disallowed, Unknown};
    /// assert_eq!(robotrules_model::Outcome::combine([Allowed, Disallowed, Unknown]), Disallowed);
    /// assert_eq!(robotrules_model::Outcome::combine([Unknown, Allowed]), Allowed);
    /// assert_eq!(robotrules_model::Outcome::combine([]), Unknown);
    /// ```
    pub fn combine(outcomes: impl IntoIterator<Item = Outcome>) -> Outcome {
        outcomes
            .into_iter()
            .fold(Outcome::Unknown, |so_far, next| match (so_far, next) {
                (Outcome::Disallowed, _) | (_, Outcome::Disallowed) => Outcome::Disallowed,
                (Outcome::Allowed, _) | (_, Outcome::Allowed) => Outcome::Allowed,
                _ => Outcome::Unknown,
            })
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A category of use both vocabularies name, each with its own label: what the combined
/// answer is given for. Cloudflare's `ai-input` (retrieval-augmented generation, grounding)
/// has no AIPREF counterpart and is not combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum SharedCategory {
    /// AI training: AIPREF `train-ai` (vocab-07 §4.1), Cloudflare `ai-train`
    /// (contentsignals-00 §3.3).
    TrainAi,
    /// Search: `search` in both (vocab-07 §4.2, contentsignals-00 §3.1).
    Search,
}

impl SharedCategory {
    /// Both, in the order reports show them.
    pub const ALL: [SharedCategory; 2] = [SharedCategory::TrainAi, SharedCategory::Search];

    /// The name used in JSON and reports (the AIPREF label).
    pub const fn as_str(self) -> &'static str {
        self.label(Vocabulary::Aipref)
    }

    /// Its label in `vocabulary`.
    pub const fn label(self, vocabulary: Vocabulary) -> &'static str {
        match (self, vocabulary) {
            (SharedCategory::TrainAi, Vocabulary::Aipref) => "train-ai",
            (SharedCategory::TrainAi, Vocabulary::ContentSignals) => "ai-train",
            (SharedCategory::Search, _) => "search",
        }
    }
}

impl std::fmt::Display for SharedCategory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use Outcome::{Allowed, Disallowed, Unknown};

    fn token(s: &str) -> MemberValue {
        MemberValue::Token(s.into())
    }

    /// vocab-07 §6.5 for AIPREF; Cloudflare's yes/no for content signals. Each vocabulary's
    /// values are its own: `yes` says nothing in AIPREF, `n` nothing in content signals.
    #[rstest]
    #[case(Vocabulary::Aipref, token("y"), Allowed)]
    #[case(Vocabulary::Aipref, token("n"), Disallowed)]
    #[case(Vocabulary::Aipref, token("yes"), Unknown)]
    #[case(Vocabulary::Aipref, token("no"), Unknown)]
    #[case(Vocabulary::Aipref, token("N"), Unknown)]
    #[case(Vocabulary::Aipref, MemberValue::Boolean(true), Unknown)]
    #[case(Vocabulary::Aipref, MemberValue::Other("string"), Unknown)]
    #[case(Vocabulary::ContentSignals, token("yes"), Allowed)]
    #[case(Vocabulary::ContentSignals, token("no"), Disallowed)]
    #[case(Vocabulary::ContentSignals, token("y"), Unknown)]
    #[case(Vocabulary::ContentSignals, token("n"), Unknown)]
    #[case(Vocabulary::ContentSignals, MemberValue::Boolean(false), Unknown)]
    fn values_read_in_their_vocabulary(
        #[case] vocabulary: Vocabulary,
        #[case] value: MemberValue,
        #[case] outcome: Outcome,
    ) {
        assert_eq!(vocabulary.outcome(&value), outcome);
    }

    /// vocab-07 §5.1, every pair.
    #[rstest]
    #[case(&[Disallowed, Allowed], Disallowed)]
    #[case(&[Allowed, Disallowed], Disallowed)]
    #[case(&[Unknown, Disallowed], Disallowed)]
    #[case(&[Allowed, Unknown], Allowed)]
    #[case(&[Unknown, Allowed], Allowed)]
    #[case(&[Allowed, Allowed], Allowed)]
    #[case(&[Unknown, Unknown], Unknown)]
    #[case(&[], Unknown)]
    fn most_restrictive_first(#[case] outcomes: &[Outcome], #[case] combined: Outcome) {
        assert_eq!(Outcome::combine(outcomes.iter().copied()), combined);
    }

    #[test]
    fn shared_categories_are_labels_of_both() {
        for category in SharedCategory::ALL {
            for vocabulary in Vocabulary::ALL {
                assert!(vocabulary.labels().contains(&category.label(vocabulary)));
            }
        }
    }
}
