//! The robots.txt grammar of RFC 9309 §2.2, in [nom], over bytes.
//!
//! [`parse`] turns the bytes of a robots.txt file into [`Line`]s that borrow nothing but
//! record byte [`Span`]s into the input, so the input plus the lines is a lossless view of the
//! file. Parsing never fails and never panics: whatever cannot be read comes back as a
//! [`Finding`] beside the lines.
//!
//! The grammar reports what it sees (which key, how it was spelt, whether the colon was
//! missing); it decides nothing. Which spellings count, and what a line means, is the model's
//! job (`robotrules-model`), under a profile.
//!
//! ```
//! use robotrules_grammar::{parse, KeyKind};
//!
//! let parsed = parse(b"User-agent: *\nDisallow: /private # keep out\n");
//! let rule = parsed.lines[1].directive.as_ref().unwrap();
//! assert_eq!(rule.kind, KeyKind::Disallow);
//! assert_eq!(parsed.slice(rule.value), b"/private");
//! ```

/// The productions that read a line, public only for the fuzz targets (`fuzz` feature).
#[cfg(feature = "fuzz")]
pub mod abnf;
#[cfg(not(feature = "fuzz"))]
mod abnf;
mod finding;
mod key;
mod lexer;
mod limits;
mod line;
mod parse;
mod record;
mod scan;
mod span;

pub use finding::{Finding, FindingKind, Severity};
pub use key::{classify_key, KeyKind, Spelling};
pub use lexer::{LexEnd, Lexer};
pub use limits::{Limits, DEFAULT_PARSE_LIMIT};
pub use line::{Directive, Line, Separator};
pub use parse::{parse, parse_with, Parsed};
pub use span::Span;

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
