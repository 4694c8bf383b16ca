//! AI usage preferences: may a crawler use a URL it may crawl for AI training, for search,
//! for AI input — and which line says so.
//!
//! Two vocabularies ride in robots.txt: the IETF's (`Content-Usage: [path] train-ai=n`,
//! draft-ietf-aipref-attach-05 §3 with draft-ietf-aipref-vocab-07) and Cloudflare's
//! (`Content-Signal: search=yes, ai-train=no`, draft-romm-aipref-contentsignals-00). A
//! crawler's statements are its groups' lines (`statement`); for a URL:
//!
//! - preferences apply only to a URL the crawler may crawl (attach-05 §3.1: "no preferences
//!   are implied for resources that are disallowed"); the crawl verdict is the crawler's own,
//!   never changed by these lines;
//! - in each vocabulary, the statements whose path matches with the most octets apply (paths
//!   matched as Allow/Disallow paths are, attach-05 §3.1), all of them on a tie; without a
//!   matching path, those without one;
//! - for each category, the statements that apply combine most-restrictively (vocab-07 §5.1);
//!   labels a vocabulary does not define are reported but decide nothing else;
//! - the categories both vocabularies name (AI training, search) get a combined answer by the
//!   same rule ([`SharedCategory`]).
//!
//! The HTTP `Content-Usage` header (attach-05 §2) is one more AIPREF statement, combined the
//! same way ([`Usage::with_header`]).

mod statement;
mod vocabulary;

use std::collections::HashMap;

use robotrules_grammar::dictionary;

pub(crate) use statement::UsageRules;
pub use statement::UsageStatement;
pub use vocabulary::{Outcome, SharedCategory, Vocabulary};

/// The usage preferences for one URL and one crawler.
///
/// ```
/// use robotrules_model::{Crawler, Outcome, Profile, RobotsTxt, SharedCategory, Vocabulary};
/// use std::sync::Arc;
///
/// let robots = Arc::new(RobotsTxt::parse(b"User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n", Profile::Rfc9309, 512_000));
/// let crawler = Crawler::new(robots, "ExampleBot")?;
/// let usage = crawler.usage(&crawler.target("/ai-ok/test")?);
/// assert_eq!(usage.outcome(Vocabulary::Aipref, "train-ai"), Outcome::Allowed);
/// assert_eq!(usage.category(Vocabulary::Aipref, "train-ai").unwrap().lines, [5]);
/// assert_eq!(usage.combined(SharedCategory::TrainAi), Outcome::Allowed);
/// assert!(!crawler.usage(&crawler.target("/never/test")?).crawlable);
/// # Ok::<(), robotrules_model::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Usage {
    /// Whether the crawler may crawl the URL. When it may not, no preference applies
    /// (attach-05 §3.1) and the lists are empty.
    pub crawlable: bool,
    /// Each vocabulary in its own terms ([`Vocabulary::ALL`] order), when crawlable.
    pub vocabularies: Vec<VocabularyUsage>,
    /// The categories both vocabularies name, combined ([`SharedCategory::ALL`] order), when
    /// crawlable.
    pub combined: Vec<CombinedUsage>,
}

/// One vocabulary's answer for a URL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct VocabularyUsage {
    /// Which vocabulary.
    pub vocabulary: Vocabulary,
    /// The lines of the statements that apply to the URL (the longest matching path), in
    /// file order.
    pub applied: Vec<u32>,
    /// Those of them whose Dictionary does not parse (unknown for every category).
    pub unparsed: Vec<u32>,
    /// Every label the vocabulary defines, in its order, then any other label the applying
    /// statements carry, in order of appearance.
    pub categories: Vec<CategoryUsage>,
}

/// One category's preference, and what decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct CategoryUsage {
    /// The label, in its vocabulary's terms (`train-ai`, `ai-train`, …).
    pub label: String,
    /// Allowed, disallowed or unknown.
    pub outcome: Outcome,
    /// The lines that decided: every applying statement that states this outcome (none for
    /// unknown).
    pub lines: Vec<u32>,
    /// Whether the HTTP `Content-Usage` header states this outcome (it decided, or decided
    /// too).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub header: bool,
}

/// A category both vocabularies name, combined (vocab-07 §5.1).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct CombinedUsage {
    /// Which category.
    pub category: SharedCategory,
    /// Allowed, disallowed or unknown.
    pub outcome: Outcome,
    /// The lines that decided, from both vocabularies, in file order.
    pub lines: Vec<u32>,
    /// Whether the HTTP `Content-Usage` header decided (or decided too).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub header: bool,
}

impl Usage {
    /// The answer for a URL the crawler may not crawl: no preference.
    pub(crate) fn not_crawlable() -> Usage {
        Usage {
            crawlable: false,
            vocabularies: Vec::new(),
            combined: Vec::new(),
        }
    }

    /// The answer when no statement speaks (no robots.txt rules apply: an unavailable file,
    /// RFC 9309 §2.3.1.3): every defined category unknown when `crawlable`, nothing when not.
    pub fn unstated(crawlable: bool) -> Usage {
        if !crawlable {
            return Usage::not_crawlable();
        }
        let mut usage = Usage {
            crawlable: true,
            vocabularies: Vocabulary::ALL
                .into_iter()
                .map(|v| VocabularyUsage::of(v, &[]))
                .collect(),
            combined: Vec::new(),
        };
        usage.combine();
        usage
    }

    /// The answer for a crawlable URL, from the rules' statements applying to its path.
    pub(crate) fn of(rules: &UsageRules, path: &[u8]) -> Usage {
        let vocabularies = Vocabulary::ALL
            .into_iter()
            .map(|v| VocabularyUsage::of(v, &rules.applying(v, path)))
            .collect();
        let mut usage = Usage {
            crawlable: true,
            vocabularies,
            combined: Vec::new(),
        };
        usage.combine();
        usage
    }

    /// One vocabulary's answer (none when not crawlable).
    pub fn vocabulary(&self, vocabulary: Vocabulary) -> Option<&VocabularyUsage> {
        self.vocabularies
            .iter()
            .find(|v| v.vocabulary == vocabulary)
    }

    /// One category's answer in one vocabulary's terms, when it is reported.
    pub fn category(&self, vocabulary: Vocabulary, label: &str) -> Option<&CategoryUsage> {
        self.vocabulary(vocabulary)?
            .categories
            .iter()
            .find(|c| c.label == label)
    }

    /// One category's outcome in one vocabulary's terms: unknown when not reported.
    pub fn outcome(&self, vocabulary: Vocabulary, label: &str) -> Outcome {
        self.category(vocabulary, label)
            .map_or(Outcome::Unknown, |c| c.outcome)
    }

    /// A shared category's combined outcome: unknown when not crawlable.
    pub fn combined(&self, category: SharedCategory) -> Outcome {
        self.combined
            .iter()
            .find(|c| c.category == category)
            .map_or(Outcome::Unknown, |c| c.outcome)
    }

    /// This answer with the HTTP `Content-Usage` header's value (attach-05 §2: an RFC 9651
    /// Dictionary in the AIPREF vocabulary) as one more statement, combined with the
    /// robots.txt's most-restrictively (vocab-07 §5.1). A value that does not parse states
    /// nothing; a URL that is not crawlable stays without preference.
    ///
    /// ```
    /// use robotrules_model::{Crawler, Outcome, Profile, RobotsTxt, Vocabulary};
    /// use std::sync::Arc;
    ///
    /// let robots = Arc::new(RobotsTxt::parse(b"user-agent: *\ncontent-usage: train-ai=y\n", Profile::Rfc9309, 512_000));
    /// let crawler = Crawler::new(robots, "ExampleBot")?;
    /// let usage = crawler.usage(&crawler.target("/a")?).with_header(b"train-ai=n");
    /// let train = usage.category(Vocabulary::Aipref, "train-ai").unwrap();
    /// assert_eq!((train.outcome, train.header, train.lines.len()), (Outcome::Disallowed, true, 0));
    /// # Ok::<(), robotrules_model::Error>(())
    /// ```
    #[must_use]
    pub fn with_header(mut self, value: &[u8]) -> Usage {
        if !self.crawlable {
            return self;
        }
        let Ok(members) = dictionary(value) else {
            return self;
        };
        let Some(aipref) = self
            .vocabularies
            .iter_mut()
            .find(|v| v.vocabulary == Vocabulary::Aipref)
        else {
            return self;
        };
        for member in &members {
            let stated = Vocabulary::Aipref.outcome(&member.value);
            let category = match aipref
                .categories
                .iter()
                .position(|c| c.label == member.label)
            {
                Some(at) => &mut aipref.categories[at],
                None => {
                    aipref
                        .categories
                        .push(CategoryUsage::unknown(&member.label));
                    let last = aipref.categories.len() - 1;
                    &mut aipref.categories[last]
                }
            };
            let outcome = Outcome::combine([category.outcome, stated]);
            if outcome != category.outcome {
                category.lines.clear();
            }
            category.header = stated == outcome && outcome != Outcome::Unknown;
            category.outcome = outcome;
        }
        self.combine();
        self
    }

    /// Work out [`Usage::combined`] from the vocabularies.
    fn combine(&mut self) {
        let combined = SharedCategory::ALL
            .into_iter()
            .map(|category| {
                let parts: Vec<&CategoryUsage> = Vocabulary::ALL
                    .into_iter()
                    .filter_map(|v| self.category(v, category.label(v)))
                    .collect();
                let outcome = Outcome::combine(parts.iter().map(|c| c.outcome));
                let deciding = parts
                    .iter()
                    .filter(|c| c.outcome == outcome && outcome != Outcome::Unknown);
                let mut lines: Vec<u32> = deciding.clone().flat_map(|c| c.lines.clone()).collect();
                lines.sort_unstable();
                lines.dedup();
                CombinedUsage {
                    category,
                    outcome,
                    lines,
                    header: deciding.clone().any(|c| c.header),
                }
            })
            .collect();
        self.combined = combined;
    }
}

impl VocabularyUsage {
    /// The answer of `vocabulary` from the statements that apply (in file order).
    fn of(vocabulary: Vocabulary, applying: &[&UsageStatement]) -> VocabularyUsage {
        let mut categories: Vec<CategoryUsage> = vocabulary
            .labels()
            .iter()
            .map(|label| CategoryUsage::unknown(label))
            .collect();
        let mut at: HashMap<String, usize> = categories
            .iter()
            .enumerate()
            .map(|(i, c)| (c.label.clone(), i))
            .collect();
        // Per category, the lines that disallow and those that allow (each statement names a
        // label once: the Dictionary keeps a repeated key's last value).
        let mut stated: Vec<(Vec<u32>, Vec<u32>)> = vec![Default::default(); categories.len()];
        for statement in applying {
            let Ok(members) = &statement.members else {
                continue;
            };
            for member in members {
                let i = *at.entry(member.label.clone()).or_insert_with(|| {
                    categories.push(CategoryUsage::unknown(&member.label));
                    stated.push(Default::default());
                    categories.len() - 1
                });
                let Some((disallowing, allowing)) = stated.get_mut(i) else {
                    continue;
                };
                match vocabulary.outcome(&member.value) {
                    Outcome::Disallowed => disallowing.push(statement.line),
                    Outcome::Allowed => allowing.push(statement.line),
                    Outcome::Unknown => {}
                }
            }
        }
        for (category, (disallowing, allowing)) in categories.iter_mut().zip(stated) {
            // vocab-07 §5.1: any disallow, else any allow, else unknown.
            (category.outcome, category.lines) = if !disallowing.is_empty() {
                (Outcome::Disallowed, disallowing)
            } else if !allowing.is_empty() {
                (Outcome::Allowed, allowing)
            } else {
                (Outcome::Unknown, Vec::new())
            };
        }
        VocabularyUsage {
            vocabulary,
            applied: applying.iter().map(|s| s.line).collect(),
            unparsed: applying
                .iter()
                .filter(|s| s.members.is_err())
                .map(|s| s.line)
                .collect(),
            categories,
        }
    }
}

impl CategoryUsage {
    fn unknown(label: &str) -> CategoryUsage {
        CategoryUsage {
            label: label.to_owned(),
            outcome: Outcome::Unknown,
            lines: Vec::new(),
            header: false,
        }
    }
}

#[cfg(test)]
mod tests;
