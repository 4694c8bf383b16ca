//! What `robotrules explain` shows: the model's account of one (crawler, URL) question under
//! one or several profiles, and, side by side, why the profiles differ.
//!
//! Every decision here is the model's ([`robotrules::Explanation`]: the groups and how they
//! were chosen, the token that named the crawler, every matching rule, the winner, the rules
//! it tied with). This module only asks each profile and puts the answers together
//! ([`Report`], one [`ProfileReport`] per profile);
//! [`differences`] renders the model's causes of a difference
//! ([`robotrules::Crawler::differences`]), [`cut`] where the parse limit cut the file and the
//! matching rules past it, and [`text()`] writes the report for people. When the crawler has
//! usage rules (`Content-Usage`, `Content-Signal`), each profile's answer carries the URL's
//! usage preferences too ([`robotrules::usage::Usage`], worded by [`crate::usage_text`]).

mod cut;
mod differences;
mod profile_report;
mod report;
mod text;

pub(crate) use cut::{Cut, PastCut, READ_PAST_CUT};
pub(crate) use profile_report::ProfileReport;
pub(crate) use report::Report;
pub(crate) use text::text;
