//! The answer for one URL: allowed or not, why, the rule that decided
//! ([`Crawler::decide`](crate::Crawler::decide)), and on request the URL's AI usage
//! preferences ([`Crawler::decide_with_usage`](crate::Crawler::decide_with_usage)). Building
//! one without usage allocates nothing: the deciding rule shares the parsed file.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::model::{self, RobotsTxt, Rule};
use crate::{Reason, RuleKind, Usage};

/// May the crawler fetch the URL, why, and which rule decided (RFC 9309 §2.2.2).
///
/// ```
/// use robotrules::{Reason, RuleKind};
///
/// let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /a\nallow: /a/b\n");
/// let decision = robots.crawler("ExampleBot")?.decide("https://example.com/a/x")?;
/// assert!(!decision.allowed);
/// assert_eq!(decision.reason, Reason::RuleMatched);
/// let rule = decision.decided_by.expect("a rule matched");
/// assert_eq!((rule.line(), rule.kind(), &*rule.pattern()), (2, RuleKind::Disallow, "/a"));
/// # Ok::<(), robotrules::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Decision {
    /// May the crawler fetch the URL?
    pub allowed: bool,
    /// Why: a rule matched, none did, no group applies, or the URL is `/robots.txt`.
    pub reason: Reason,
    /// The rule that decided, when one matched.
    pub decided_by: Option<DecidingRule>,
    /// The URL's AI usage preferences, when asked for
    /// ([`Crawler::decide_with_usage`](crate::Crawler::decide_with_usage)); left out of the
    /// JSON when not.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub usage: Option<Box<Usage>>,
}

impl Decision {
    /// The verdict of `crawler` on the URL read as `target`.
    #[inline]
    pub(crate) fn of(crawler: &model::Crawler, target: &model::Target<'_>) -> Decision {
        let verdict = crawler.verdict(target);
        Decision {
            allowed: verdict.allowed,
            reason: verdict.reason,
            decided_by: verdict.rule.map(|rule| DecidingRule {
                robots: Arc::clone(crawler.robots()),
                rule,
            }),
            usage: None,
        }
    }
}

/// The rule that decided: its line, allow or disallow, and its pattern as written. It shares
/// the parsed file it belongs to (no copy); serialised as `{"line", "kind", "pattern"}`.
#[derive(Clone)]
#[non_exhaustive]
pub struct DecidingRule {
    robots: Arc<RobotsTxt>,
    rule: Rule,
}

impl DecidingRule {
    /// Its 1-based line number in the robots.txt.
    pub fn line(&self) -> u32 {
        self.rule.line
    }

    /// Allow or disallow.
    pub fn kind(&self) -> RuleKind {
        self.rule.kind
    }

    /// The pattern as written (invalid UTF-8 replaced).
    pub fn pattern(&self) -> Cow<'_, str> {
        self.rule.value(&self.robots)
    }
}

impl fmt::Debug for DecidingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecidingRule")
            .field("line", &self.line())
            .field("kind", &self.kind())
            .field("pattern", &self.pattern())
            .finish()
    }
}

impl PartialEq for DecidingRule {
    fn eq(&self, other: &Self) -> bool {
        (self.line(), self.kind(), self.pattern()) == (other.line(), other.kind(), other.pattern())
    }
}

impl Eq for DecidingRule {}

#[cfg(feature = "serde")]
impl serde::Serialize for DecidingRule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut rule = serializer.serialize_struct("DecidingRule", 3)?;
        rule.serialize_field("line", &self.line())?;
        rule.serialize_field("kind", &self.kind())?;
        rule.serialize_field("pattern", &self.pattern())?;
        rule.end()
    }
}
