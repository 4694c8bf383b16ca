//! The catalogue of lint codes: stable, kebab-case names that tools can match on.
//!
//! A code never changes meaning once published; `docs/lints.md` documents each one with an
//! example, why it matters and its citation, and a fixture in `tests/fixtures/<code>.txt`
//! shows it firing.

use std::fmt;
use std::str::FromStr;

use robotrules_model::{Precedence, Profile};
use serde::{Serialize, Serializer};

/// The family a lint belongs to: one module of checks each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// The file's bytes: encoding, size, line length, HTML.
    Bytes,
    /// Record keys: unknown, misspelt, missing colon.
    Keys,
    /// User-agent lines and how groups form and apply.
    Groups,
    /// Allow and disallow patterns and their precedence.
    Patterns,
    /// `Sitemap:` URLs.
    Sitemaps,
    /// Extension records such as `crawl-delay`.
    Extensions,
    /// AI usage preferences: `Content-Usage`, `Content-Signal`.
    Usage,
}

impl Family {
    /// The family's name, as it serialises and as `docs/lints.md` heads it in lower case.
    pub const fn as_str(self) -> &'static str {
        match self {
            Family::Bytes => "bytes",
            Family::Keys => "keys",
            Family::Groups => "groups",
            Family::Patterns => "patterns",
            Family::Sitemaps => "sitemaps",
            Family::Extensions => "extensions",
            Family::Usage => "usage",
        }
    }
}

macro_rules! codes {
    ($(#[doc = $doc:literal] $variant:ident = $name:literal, $family:ident;)*) => {
        /// A lint's stable code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(#[doc = $doc] $variant,)*
        }

        impl Code {
            /// Every code, in catalogue order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as written in output and documentation, e.g. `misspelt-key`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// What the code reports, in one sentence (its doc comment).
            pub const fn description(self) -> &'static str {
                match self {
                    $(Code::$variant => $doc.trim_ascii(),)*
                }
            }

            /// The family (module of checks) the code belongs to.
            pub const fn family(self) -> Family {
                match self {
                    $(Code::$variant => Family::$family,)*
                }
            }
        }
    };
}

codes! {
    /// The file is UTF-16 or UTF-32, or starts with a byte order mark other than UTF-8's.
    WrongEncoding = "wrong-encoding", Bytes;
    /// The file is not text (binary data): one finding instead of one per stray byte.
    NotText = "not-text", Bytes;
    /// A UTF-8 byte order mark at the start of the file.
    ByteOrderMark = "byte-order-mark", Bytes;
    /// Bytes that are not UTF-8 (RFC 9309 §2.3 asks for UTF-8).
    InvalidUtf8 = "invalid-utf8", Bytes;
    /// A NUL byte: the rest of its line is ignored.
    NulByte = "nul-byte", Bytes;
    /// The file is an HTML page, not a robots.txt.
    HtmlContent = "html-content", Bytes;
    /// Content past the parse limit (RFC 9309 §2.5) is ignored.
    ParseLimit = "parse-limit", Bytes;
    /// A line longer than Google's 16,663-byte limit: Google ignores the rest.
    LineTooLong = "line-too-long", Bytes;
    /// A line that is neither a `key: value` record nor a comment.
    NoDirective = "no-directive", Keys;
    /// A known key followed by a value without the `:` in between.
    MissingColon = "missing-colon", Keys;
    /// A misspelt known key (`dissallow`), with "did you mean".
    MisspeltKey = "misspelt-key", Keys;
    /// A key no profile knows.
    UnknownDirective = "unknown-directive", Keys;
    /// An allow or disallow before any user-agent line.
    RuleOutsideGroup = "rule-outside-group", Groups;
    /// A user-agent line without a value.
    EmptyUserAgent = "empty-user-agent", Groups;
    /// A user-agent value with characters after its product token (`MJ12bot` is `MJ`).
    UserAgentTruncated = "user-agent-truncated", Groups;
    /// Several groups for one agent, or several `*` groups.
    DuplicateGroup = "duplicate-group", Groups;
    /// A group for a named crawler, which therefore ignores every rule of the `*` group.
    SpecificGroupIgnoresGlobal = "specific-group-ignores-global", Groups;
    /// A named group without allow or disallow rules: its crawler ignores every `*` rule.
    GroupWithoutRules = "group-without-rules", Groups;
    /// An extension record between user-agent lines, which Google reads as joining groups.
    GroupJoinedByExtension = "group-joined-by-extension", Groups;
    /// A file without a single record (empty, blank or comments only): it allows everything.
    EmptyFile = "empty-file", Groups;
    /// A rule path starting with neither `/` nor `*`.
    PatternWithoutSlash = "pattern-without-slash", Patterns;
    /// A `$` that is not the last character of a pattern.
    DollarNotAtEnd = "dollar-not-at-end", Patterns;
    /// An `allow:` or `disallow:` without a value.
    EmptyRule = "empty-rule", Patterns;
    /// Raw non-ASCII characters in a pattern.
    NonAsciiPattern = "non-ascii-pattern", Patterns;
    /// A control character (ESC, a tab, …) inside a pattern, which no URL path holds raw.
    ControlCharacter = "control-character", Patterns;
    /// A percent-escape with lower-case hex digits in a pattern.
    LowercasePercentEscape = "lowercase-percent-escape", Patterns;
    /// An allow and a disallow of equal length that match the same URLs: allow wins.
    EqualLengthConflict = "equal-length-conflict", Patterns;
    /// A rule first-match readers never reach: an earlier, shorter rule of the other kind wins.
    RuleOrder = "rule-order", Patterns;
    /// A disallow rule that matches `/robots.txt`.
    RobotsTxtDisallowed = "robots-txt-disallowed", Patterns;
    /// A relative sitemap URL.
    SitemapRelativeUrl = "sitemap-relative-url", Sitemaps;
    /// A sitemap URL whose scheme is not `http` or `https`.
    SitemapUnsupportedScheme = "sitemap-unsupported-scheme", Sitemaps;
    /// A sitemap URL that cannot be parsed.
    SitemapInvalidUrl = "sitemap-invalid-url", Sitemaps;
    /// A sitemap URL that the file's own rules disallow for every crawler without a group.
    SitemapDisallowed = "sitemap-disallowed", Sitemaps;
    /// A `crawl-delay` value that is not a number.
    CrawlDelayNotANumber = "crawl-delay-not-a-number", Extensions;
    /// A negative `crawl-delay`.
    CrawlDelayNegative = "crawl-delay-negative", Extensions;
    /// A `crawl-delay` so large crawlers cap or ignore it.
    CrawlDelayTooLarge = "crawl-delay-too-large", Extensions;
    /// A `host` record, which Google and most crawlers ignore.
    HostDirective = "host-directive", Extensions;
    /// A `Content-Usage` or `Content-Signal` value that is not a Structured Fields Dictionary.
    PreferenceNotADictionary = "preference-not-a-dictionary", Usage;
    /// `yes`/`no` in `Content-Usage` (which reads `y`/`n`), or `y`/`n` in `Content-Signal`.
    PreferenceValue = "preference-value", Usage;
    /// A label the line's vocabulary does not define (`train-genai`), with the current one.
    UndefinedUsageLabel = "undefined-usage-label", Usage;
    /// A `Content-Usage` or `Content-Signal` line before any user-agent line.
    UsageOutsideGroup = "usage-outside-group", Usage;
    /// A `Content-Usage` or `Content-Signal` path that no crawlable URL reaches.
    UsagePathDisallowed = "usage-path-disallowed", Usage;
    /// A preference that allows a use to a crawler that may not crawl anything.
    UsageContradictsCrawl = "usage-contradicts-crawl", Usage;
}

impl Code {
    /// Whether a finding of this code is left out when linting for `profile` unless a level
    /// names the code (`-W rule-order`). `rule-order` speaks only of first-match readers, so
    /// it is reported by default only for a first-match profile (`legacy1994`); for the others
    /// a file such as WordPress's default (`disallow: /wp-admin/` before `allow:
    /// /wp-admin/admin-ajax.php`) would get a note most owners do not need.
    pub fn allowed_by_default(self, profile: Profile) -> bool {
        match self {
            Code::RuleOrder => profile.reading().precedence != Precedence::FirstMatch,
            _ => false,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A string that is not a lint code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl UnknownCode {
    /// The code (or `warnings`, `notes`) this is most likely a misspelling of:
    /// `misspeltkey` is `misspelt-key`.
    pub fn suggestion(&self) -> Option<&'static str> {
        let known = Code::ALL
            .iter()
            .map(|code| code.as_str())
            .chain(["warnings", "notes"]);
        crate::checks::spelling::closest(self.0.as_bytes(), known)
    }
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown lint code `{}`", self.0)?;
        if let Some(code) = self.suggestion() {
            write!(f, "; did you mean `{code}`?")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownCode {}

impl FromStr for Code {
    type Err = UnknownCode;

    fn from_str(s: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCode(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &code in Code::ALL {
            let name = code.as_str();
            assert!(seen.insert(name), "{name} twice");
            assert!(name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            assert_eq!(name.parse::<Code>(), Ok(code));
            assert_eq!(serde_json::to_string(&code).unwrap(), format!("\"{name}\""));
        }
        assert!("no-such-code".parse::<Code>().is_err());
    }

    #[test]
    fn an_unknown_code_suggests_the_code_it_misspells() {
        let error = "misspeltkey".parse::<Code>().unwrap_err();
        assert_eq!(error.suggestion(), Some("misspelt-key"));
        assert_eq!(
            error.to_string(),
            "unknown lint code `misspeltkey`; did you mean `misspelt-key`?"
        );
        let error = "Rule_Ordr".parse::<Code>().unwrap_err();
        assert_eq!(error.suggestion(), Some("rule-order"));
        let error = "no-such-code".parse::<Code>().unwrap_err();
        assert_eq!(error.to_string(), "unknown lint code `no-such-code`");
    }
}
