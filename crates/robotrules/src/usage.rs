//! AI usage preferences: may a crawler use a URL it may crawl for AI training, for search,
//! for AI input, and which line says so ([`Crawler::usage`](crate::Crawler::usage), a
//! [`Usage`]); the statements a file makes ([`UsageStatement`], read as RFC 9651
//! Dictionaries of [`Member`]s); and where a file contradicts itself
//! ([`Crawler::contradictions`](crate::Crawler::contradictions), a [`Contradiction`]).
//!
//! Two vocabularies ride in robots.txt ([`Vocabulary`]): the IETF's `Content-Usage`
//! (draft-ietf-aipref-attach-05 with draft-ietf-aipref-vocab-07) and Cloudflare's
//! `Content-Signal`. Each category of use is [`Outcome::Allowed`], `Disallowed` or `Unknown`;
//! the categories both name ([`SharedCategory`]) get a combined answer.
//!
//! ```
//! use robotrules::usage::{Outcome, SharedCategory, Vocabulary};
//!
//! let robots = robotrules::Robots::parse(b"user-agent: *\ncontent-usage: train-ai=n\n");
//! let usage = robots.usage("ExampleBot", "/a")?;
//! assert_eq!(usage.outcome(Vocabulary::Aipref, "train-ai"), Outcome::Disallowed);
//! assert_eq!(usage.combined(SharedCategory::TrainAi), Outcome::Disallowed);
//! # Ok::<(), robotrules::Error>(())
//! ```

pub use robotrules_model::{
    CategoryUsage, CombinedUsage, Contradiction, ContradictionKind, DictionaryError, Member,
    MemberValue, Outcome, SharedCategory, Usage, UsageStatement, Vocabulary, VocabularyUsage,
};
