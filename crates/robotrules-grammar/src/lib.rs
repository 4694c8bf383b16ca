//! The robots.txt grammar of RFC 9309 §2.2, in [nom], over bytes.
//!
//! [`parse`] turns the bytes of a robots.txt file into [`Line`]s that borrow nothing but
//! record byte [`Span`]s into the input, so the input plus the lines is a lossless view of the
//! file. Parsing never fails and never panics: whatever cannot be read comes back as a
//! [`Finding`] beside the lines.
//!
//! Lines are read by nom parsers, one function per production, composed with nom
//! combinators. RFC 9309 §2.3.1.5 asks crawlers to "try to parse each line", so every line is
//! read with one lenient production that accepts any bytes and splits them where RFC 9309
//! §2.2's productions do:
//!
//! ```text
//! line          = key-text [":" value-text] [comment] line-break
//! line-break    = NL / end-of-input                ; NL = %x0D / %x0A / %x0D.0A
//! trimmed       = *WS text *WS                     ; the key before the colon; a line's text
//! record-value  = *WS value *WS                    ; after the colon, up to any comment
//! spaced-record = word 1*WS word                   ; no colon: exactly two words
//! ```
//!
//! The runs of bytes in between (`key-text`, `value-text`, the comment's text, `word`) are
//! the hot loops: nom parsers too, that test eight bytes at a time and hand long runs to
//! `memchr`. The file as a whole (UTF-8 validity, NUL bytes, the parse limit of RFC 9309 §2.5,
//! an optional line-length limit, a byte order mark, an HTML page served as robots.txt) is
//! checked once by the [`Lexer`], which reports what it finds.
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
mod dictionary;
mod finding;
mod key;
mod lexer;
mod limits;
mod line;
mod parse;
mod record;
mod scan;
mod span;
mod usage;

pub use dictionary::{dictionary, DictionaryError, Member, MemberValue};
pub use finding::{Finding, FindingKind, Severity};
pub use key::{classify_key, KeyKind, Spelling};
pub use lexer::{LexEnd, Lexer};
pub use limits::{Limits, DEFAULT_PARSE_LIMIT};
pub use line::{Directive, Line, Separator};
pub use parse::{parse, parse_with, Parsed};
pub use span::Span;
pub use usage::{usage_value, UsageValue};

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
