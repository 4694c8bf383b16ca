//! The client's answer for one URL: the file's [`crate::Decision`] with what the fetch and
//! the cache say (RFC 9309 §2.3.1), and the one place the access result decides alone.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules_url::OriginRef;

use robotrules_fetch::cache::Basis;
use robotrules_fetch::{AccessKind, VerdictClass};

use super::entry::{age, Entry};
use super::error::ClientError;
use crate::{DecidingRule, Explanation, Reason, Usage};

/// The answer for one URL: the file's [`crate::Decision`] when the robots.txt was fetched
/// (a success), with what the fetch and the cache say. Building one allocates nothing: the
/// robots.txt URL and the deciding rule are shared with the client's cache.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Answer {
    /// May the crawler fetch the URL? The file's rules decide for a success; an unavailable
    /// file allows every URL (RFC 9309 §2.3.1.3), an unreachable one disallows every URL
    /// (§2.3.1.4).
    pub allowed: bool,
    /// The access result applied: success, unavailable or unreachable (RFC 9309 §2.3.1).
    /// While the file is unreachable this is the last good copy's result when the cache
    /// serves one ([`Answer::basis`]).
    pub access: AccessKind,
    /// Why the robots.txt is unavailable or unreachable (`HTTP status 503`); none for a
    /// success.
    pub access_reason: Option<Arc<str>>,
    /// What the access result means for every URL of the origin.
    pub verdict_class: VerdictClass,
    /// Why the cache served that access result (the latest fetch, the last good copy, or
    /// "unreachable too long").
    pub basis: Basis,
    /// How old the robots.txt copy used is.
    pub cache_age: Duration,
    /// True when no fetch was waited for.
    pub from_cache: bool,
    /// The robots.txt that governs the URL (`scheme://host[:port]/robots.txt`, IDN as
    /// punycode, default port elided).
    pub robots_txt_url: Arc<str>,
    /// The file's rules' answer (why, and the deciding rule), when the access result is a
    /// success.
    pub rules: Option<crate::Decision>,
    /// The crawl delay the origin's robots.txt sets for the crawler (its groups' first valid
    /// `crawl-delay` record; serialised in seconds), none when the file is unavailable or
    /// unreachable.
    pub crawl_delay: Option<Duration>,
    /// The URL's AI usage preferences, when asked for ([`Client::usage`](super::Client::usage)):
    /// the file's `Content-Usage` and `Content-Signal` lines for a success, combined with the
    /// HTTP `Content-Usage` header when the caller gives it; every category unknown for an
    /// unavailable file, none for a URL the crawler may not fetch. Left out of the JSON when
    /// not asked for.
    pub usage: Option<Box<Usage>>,
}

impl Answer {
    /// Why the file's rules allowed or disallowed the URL, when the access result is a
    /// success.
    pub fn reason(&self) -> Option<Reason> {
        self.rules.as_ref().map(|rules| rules.reason)
    }

    /// The rule that decided, when the file's rules decided and one matched.
    pub fn decided_by(&self) -> Option<&DecidingRule> {
        self.rules.as_ref()?.decided_by.as_ref()
    }
}

/// Flat, as the command line's JSON has it: the access fields, then `reason` and
/// `decided_by` (`null` unless the file's rules decided), `crawl_delay` in seconds.
impl serde::Serialize for Answer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut out = serializer.serialize_struct("Answer", 12)?;
        out.serialize_field("allowed", &self.allowed)?;
        out.serialize_field("access", &self.access)?;
        match &self.access_reason {
            Some(reason) => out.serialize_field("access_reason", reason)?,
            None => out.skip_field("access_reason")?,
        }
        out.serialize_field("verdict_class", &self.verdict_class)?;
        out.serialize_field("basis", &self.basis)?;
        out.serialize_field("cache_age", &self.cache_age)?;
        out.serialize_field("from_cache", &self.from_cache)?;
        out.serialize_field("robots_txt_url", &self.robots_txt_url)?;
        out.serialize_field("reason", &self.reason())?;
        out.serialize_field("decided_by", &self.decided_by())?;
        match self.crawl_delay {
            Some(delay) => out.serialize_field("crawl_delay", &delay.as_secs_f64())?,
            None => out.skip_field("crawl_delay")?,
        }
        match &self.usage {
            Some(usage) => out.serialize_field("usage", usage)?,
            None => out.skip_field("usage")?,
        }
        out.end()
    }
}

/// A decision with the full account of it ([`Client::explain`](super::Client::explain)).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Explained {
    /// The decision, as [`Client::is_allowed`](super::Client::is_allowed) gives it.
    pub decision: Answer,
    /// Which groups, which rules, which line: present when the file's rules decided (the
    /// access result is a success).
    pub explanation: Option<Explanation>,
}

/// The URL a decision is for: as given, or already read up to its origin.
#[derive(Clone, Copy)]
pub(super) enum Asked<'a> {
    Url(&'a str),
    Origin(OriginRef<'a>),
}

/// What the access result alone decides for every URL of the origin (RFC 9309 §2.3.1): `None`
/// for a success (the file's rules decide), `Some(true)` for an unavailable file (§2.3.1.3:
/// allow all), `Some(false)` for an unreachable one (§2.3.1.4: disallow all, `/robots.txt`
/// included). The one place the workspace maps the access result to a verdict.
pub(super) fn blanket(class: VerdictClass) -> Option<bool> {
    match class {
        VerdictClass::Conditional => None,
        VerdictClass::FullAllow => Some(true),
        VerdictClass::FullDisallow => Some(false),
    }
}

/// The decision for the URL `asked` with what is known about its origin (`entry`, at `now`).
#[inline]
pub(super) fn decide(
    entry: &Entry,
    asked: Asked<'_>,
    from_cache: bool,
    now: SystemTime,
) -> Result<Answer, ClientError> {
    let blanket = blanket(entry.verdict_class);
    let rules = match (blanket, &entry.crawler) {
        (None, Some(crawler)) => {
            let target = match asked {
                Asked::Url(url) => crawler.target(url)?,
                Asked::Origin(origin) => crawler.target_of(&origin),
            };
            Some(crate::Decision::of(crawler, &target))
        }
        _ => None,
    };
    Ok(Answer {
        allowed: rules
            .as_ref()
            .map_or(blanket.unwrap_or(true), |rules| rules.allowed),
        access: entry.access.kind(),
        access_reason: entry.access_reason.clone(),
        verdict_class: entry.verdict_class,
        basis: entry.basis,
        cache_age: age(now, &entry.served),
        from_cache,
        robots_txt_url: Arc::clone(&entry.robots_txt_url),
        rules,
        crawl_delay: entry.crawl_delay,
        usage: None,
    })
}

/// [`decide`], with the URL's usage preferences (`header`: the value of the HTTP
/// `Content-Usage` response header, when the caller has one).
pub(super) fn decide_usage(
    entry: &Entry,
    url: &str,
    header: Option<&[u8]>,
    from_cache: bool,
    now: SystemTime,
) -> Result<Answer, ClientError> {
    let mut answer = decide(entry, Asked::Url(url), from_cache, now)?;
    let usage = match (&entry.crawler, &answer.rules) {
        (Some(crawler), Some(_)) => crawler.usage(&crawler.target(url)?),
        _ => Usage::unstated(answer.allowed),
    };
    answer.usage = Some(Box::new(match header {
        Some(value) => usage.with_header(value),
        None => usage,
    }));
    Ok(answer)
}
