//! How each profile reads a file, and why two profiles decide one question differently.
//!
//! [`Profile::reading`](crate::Profile::reading) is the one table of every decision that
//! differs between the profiles ([`Reading`], its fields' types here);
//! [`Crawler::differences`](crate::Crawler::differences) names the causes of a difference
//! between two profiles' verdicts ([`Difference`], one cause each, with its line).
//!
//! ```
//! use robotrules::reading::{Difference, Precedence};
//! use robotrules::{ParseOptions, Profile, Robots};
//!
//! assert_eq!(Profile::Legacy1994.reading().precedence, Precedence::FirstMatch);
//!
//! let file = b"user-agent: *\ndisallow: /*.pdf$\n";
//! let [rfc, legacy] = [Profile::Rfc9309, Profile::Legacy1994].map(|profile| {
//!     let options = ParseOptions::new().with_profile(profile);
//!     Robots::parse_with(file, &options).crawler("ExampleBot")
//! });
//! let (rfc, legacy) = (rfc?, legacy?);
//! let (a, b) = (rfc.explain("/a.pdf")?, legacy.explain("/a.pdf")?);
//! let causes = rfc.differences(&a, &legacy, &b);
//! assert!(matches!(causes[..], [Difference::Encoding { line: 2, .. }]));
//! # Ok::<(), robotrules::Error>(())
//! ```

pub use robotrules_model::{
    precedence_sentence, AgentListEnd, AgentToken, CrawlerNames, FileWideSignal, GroupMerge,
    Precedence, Reading, SlashlessPattern,
};
pub use robotrules_model::{Compared, Decided, Difference, Side};
