//! The parse limit in an explanation (RFC 9309 §2.5): where the file was cut, and the rules
//! past the cut that would have matched. Those are found by reading the file again without
//! the limit, only when it was cut; the model's verdict stays the one under the limit.
//!
//! A fetched file is cut earlier, by the fetcher's size limit (at its last full line before
//! the limit, [`Truncation`]): the rest was never downloaded, so the cut is reported with the
//! first line not fetched, and the rules past it cannot be named.

use std::fmt::Write as _;

use robotrules::client::Truncation;
use robotrules::{Crawler, ParseOptions, Profile, Robots, RuleKind};
use robotrules_text::excerpt;
use serde::Serialize;

use super::profile_report::Asked;

/// How much of a local file `explain` and `check --explain` read: past the parse limit, so
/// that the rules it leaves out can be named (64 MiB; the file is still parsed under the
/// limit, and anything past this is neither read nor reported).
pub(crate) const READ_PAST_CUT: usize = 64 << 20;

/// Where the parse limit cut a file, and what it left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Cut {
    /// What cut the file: the parser, or the fetcher's size limit.
    pub(crate) by: CutBy,
    /// The byte offset of the cut: bytes from here on were not read.
    pub(crate) at: usize,
    /// The limit in bytes.
    pub(crate) limit: usize,
    /// The 1-based line of the first line not read.
    pub(crate) line: u32,
    /// Rules past the cut that match the URL, per profile: ignored because of the limit.
    pub(crate) ignored: Vec<Ignored>,
}

/// What cut a file short (RFC 9309 §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum CutBy {
    /// The parser stopped at the parse limit; the rest is in hand, and the rules there that
    /// match are named.
    ParseLimit,
    /// The fetcher kept the body only up to its size limit; the rest was never downloaded.
    SizeLimit,
}

/// A rule past the parse limit that would have matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Ignored {
    /// The profile under which it would have matched.
    pub(crate) profile: Profile,
    /// Its 1-based line.
    pub(crate) line: u32,
    /// Allow or disallow.
    pub(crate) kind: RuleKind,
    /// The pattern as written.
    pub(crate) pattern: String,
}

/// A file the parse limit cut, read again whole for one crawler under one profile: what
/// `check --explain` asks for each URL.
pub(crate) struct PastCut {
    by: CutBy,
    at: usize,
    limit: usize,
    line: u32,
    whole: Option<Crawler>,
}

impl PastCut {
    /// The cut of `robots` (read from `bytes` under the limit), with `bytes` read again whole
    /// for `agent`; `None` when the whole file was read.
    pub(crate) fn new(robots: &Robots, bytes: &[u8], agent: &str) -> Option<PastCut> {
        let robotrules::Cut {
            at, limit, line, ..
        } = robots.cut()?;
        let whole = ParseOptions::new()
            .with_profile(robots.profile())
            .with_parse_limit(usize::MAX);
        Some(PastCut {
            by: CutBy::ParseLimit,
            at,
            limit,
            line,
            whole: Robots::parse_with(bytes, &whole).crawler(agent).ok(),
        })
    }

    /// The cut of a fetched `body` the fetcher kept only up to its size limit: nothing past
    /// it is in hand.
    pub(crate) fn downloaded(body: &[u8], truncation: Truncation) -> PastCut {
        let cut = Cut::downloaded(body, truncation);
        PastCut {
            by: cut.by,
            at: cut.at,
            limit: cut.limit,
            line: cut.line,
            whole: None,
        }
    }

    /// The cut, with the rules past it that match `url`.
    pub(crate) fn on(&self, url: &str) -> Cut {
        let ignored = self
            .whole
            .as_ref()
            .and_then(|c| c.explain(url).ok())
            .map(|e| {
                e.matches
                    .into_iter()
                    .filter(|m| m.line >= self.line && !m.derived)
                    .map(|m| Ignored {
                        profile: e.profile,
                        line: m.line,
                        kind: m.kind,
                        pattern: m.pattern,
                    })
                    .collect()
            })
            .unwrap_or_default();
        Cut {
            by: self.by,
            at: self.at,
            limit: self.limit,
            line: self.line,
            ignored,
        }
    }
}

impl Cut {
    /// The cut of a fetched `body` that the fetcher kept only up to its size limit: at the
    /// body's end, before the first line not fetched.
    pub(crate) fn downloaded(body: &[u8], truncation: Truncation) -> Cut {
        Cut {
            by: CutBy::SizeLimit,
            at: body.len(),
            limit: truncation.limit,
            line: lines_in(body).saturating_add(1),
            ignored: Vec::new(),
        }
    }

    /// Where a file was cut, as one sentence for `show` and `check` without `--explain`
    /// (`explain`'s own words, without the rules past the cut): by the fetcher's size limit
    /// when `truncation` says so (of the fetched `body`), else by the parse limit `robots` was
    /// read under; `None` when the whole file was read.
    pub(crate) fn sentence(
        robots: &Robots,
        body: &[u8],
        truncation: Option<Truncation>,
    ) -> Option<String> {
        let cut = match truncation {
            Some(truncation) => Cut::downloaded(body, truncation),
            None => {
                let robotrules::Cut {
                    at, limit, line, ..
                } = robots.cut()?;
                Cut {
                    by: CutBy::ParseLimit,
                    at,
                    limit,
                    line,
                    ignored: Vec::new(),
                }
            }
        };
        Some(parse_limit(&cut).trim_end().to_owned())
    }

    /// The cut of `bytes` (parsed once per profile, `asked`), with the rules past it that
    /// match `url` for `agent` under each profile that answered; `None` when the whole file
    /// was read.
    pub(crate) fn find(bytes: &[u8], agent: &str, url: &str, asked: &[Asked]) -> Option<Cut> {
        let mut cut: Option<Cut> = None;
        for crawler in asked.iter().filter_map(|a| a.crawler.as_ref()) {
            let Some(past) = PastCut::new(&crawler.robots(), bytes, agent) else {
                continue;
            };
            let found = past.on(url);
            match &mut cut {
                Some(cut) => cut.ignored.extend(found.ignored),
                None => cut = Some(found),
            }
        }
        cut
    }

    /// The ignored rules as one clause for a row of `check --explain`: `ignored: line 9
    /// `disallow: /x`: past the parse limit at byte 512000 (RFC 9309 §2.5)`, or the cut alone.
    pub(crate) fn clause(&self) -> String {
        let at = self.at;
        if self.by == CutBy::SizeLimit {
            return format!(
                "file cut at byte {at} by the size limit when fetched, rules past it not \
                 fetched (RFC 9309 §2.5)"
            );
        }
        if self.ignored.is_empty() {
            return format!("file cut at byte {at} by the parse limit (RFC 9309 §2.5)");
        }
        let rules: Vec<String> = self
            .ignored
            .iter()
            .map(|r| format!("line {} {}: {}", r.line, r.kind, r.pattern))
            .collect();
        format!(
            "ignored: {}: past the parse limit at byte {at} (RFC 9309 §2.5)",
            rules.join(", ")
        )
    }
}

/// The lines of `body`, each ended by LF, CR or CRLF (a fetched body ends with one).
fn lines_in(body: &[u8]) -> u32 {
    let mut lines = 0_u32;
    let mut bytes = body.iter().peekable();
    while let Some(&byte) = bytes.next() {
        if byte == b'\n' || (byte == b'\r' && bytes.peek() != Some(&&b'\n')) {
            lines = lines.saturating_add(1);
        }
    }
    lines
}

/// The cut and the rules it left out.
pub(super) fn parse_limit(cut: &Cut) -> String {
    if cut.by == CutBy::SizeLimit {
        return format!(
            "the file was cut at byte {} by the size limit of {} bytes when fetched (RFC 9309 \
             §2.5): line {} and everything after it were not fetched, so no rule past the cut \
             can be named\n",
            cut.at, cut.limit, cut.line
        );
    }
    let mut out = format!(
        "the file was cut at byte {} by the parse limit of {} bytes (RFC 9309 §2.5): line {} \
         and everything after it were not read\n",
        cut.at, cut.limit, cut.line
    );
    for rule in &cut.ignored {
        let _ = writeln!(
            out,
            "  {}: line {} `{}: {}` matches: ignored: past the parse limit at byte {} (RFC 9309 \
             §2.5)",
            rule.profile,
            rule.line,
            rule.kind,
            excerpt(rule.pattern.as_bytes(), 80),
            cut.at
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetched_body_cut_at_the_size_limit_is_cut_before_its_next_line() {
        let truncation = Truncation {
            limit: 20,
            ignored_bytes: 9,
        };
        let cut = Cut::downloaded(b"a\r\nb\rc\nd\n", truncation);
        assert_eq!(
            (cut.by, cut.at, cut.limit, cut.line),
            (CutBy::SizeLimit, 9, 20, 5)
        );
        assert!(cut.ignored.is_empty());
        assert_eq!(Cut::downloaded(b"", truncation).line, 1);
    }
}
