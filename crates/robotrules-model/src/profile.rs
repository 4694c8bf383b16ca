//! The three readings of a robots.txt file, and what each one decides, in one table.
//!
//! [`Profile`] names a reading; [`Profile::reading`] spells it out as a [`Reading`], one field
//! per decision that differs between the profiles. Everything that reads a file, a URL or a
//! cache header under a profile (the builder, the matcher, the URL reader, the client, the
//! command-line tool, lint, the conformance runner) asks this table and never the profile's
//! name, so a new profile is one more row here. `docs/profiles.md` shows the table with the
//! citation for every cell.

use std::fmt;
use std::str::FromStr;

pub use robotrules_url::UrlReading;

/// Which reading of robots.txt to apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Profile {
    /// RFC 9309, section by section (the default).
    #[default]
    Rfc9309,
    /// Bit-for-bit agreement with Google's reference library (google/robotstxt).
    Google,
    /// The 1994 convention: records end at blank lines, first match wins, no wildcards,
    /// substring user-agent matching.
    Legacy1994,
}

/// Google's line-length limit: `kMaxLineLen = 2083 * 8`, one byte of which is the terminator.
pub const GOOGLE_MAX_LINE_LEN: usize = 2083 * 8 - 1;

/// What a profile decides, one field per decision where the profiles differ.
///
/// Like `httparse::ParserConfig`, it is a plain description: read it, never branch on the
/// profile's name. The rows of `docs/profiles.md` cite the source of every value.
///
/// ```
/// use robotrules_model::{AgentToken, Precedence, Profile};
///
/// let rfc = Profile::Rfc9309.reading();
/// assert_eq!(rfc.agent_token, AgentToken::LeadingRun { digits: true });
/// assert_eq!(rfc.precedence, Precedence::LongestMatch);
/// assert!(rfc.implicit_robots_txt);
/// assert_eq!(Profile::Legacy1994.reading().precedence, Precedence::FirstMatch);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reading {
    /// Which spellings of the five keys count.
    pub keys: KeySpellings,
    /// What ends a group's user-agent lines, so that the next user-agent line starts a new
    /// group. Whether blank lines end a record is this field.
    pub agent_list_end: AgentListEnd,
    /// How a `user-agent` value becomes the token a crawler is matched against.
    pub agent_token: AgentToken,
    /// Which crawler names the profile answers for.
    pub crawler_names: CrawlerNames,
    /// Whether every group that names a crawler applies (merged), or only the first.
    pub groups: GroupMerge,
    /// Whether `*` (any sequence) and a final `$` (end of path) are special in patterns
    /// (RFC 9309 §2.2.3).
    pub wildcards: bool,
    /// How a pattern's percent-encoding is normalised before comparison.
    pub patterns: PatternEncoding,
    /// What a pattern that starts with neither `/` nor `*` means.
    pub slashless_pattern: SlashlessPattern,
    /// Whether an empty `disallow:` is a rule that allows every path (the 1994 convention's
    /// "an empty value indicates that all URLs can be retrieved"); otherwise an empty rule
    /// matches nothing and never decides.
    pub empty_disallow_allows_all: bool,
    /// How URLs are accepted and brought to the form compared.
    pub urls: UrlReading,
    /// Which matching rule decides.
    pub precedence: Precedence,
    /// Whether `/robots.txt` is always allowed (RFC 9309 §2.2.2).
    pub implicit_robots_txt: bool,
    /// Whether `allow: …/index.htm…` also allows the directory `…/$` (Google).
    pub index_html: bool,
    /// Lines longer than this many bytes are cut (the rest of the line is ignored).
    pub max_line_len: Option<usize>,
    /// Which cache-policy preset a fetching client applies by default.
    pub cache: CachePreset,
    /// Which crawlers a `Content-Signal` line outside any group speaks to (AI usage
    /// preferences, [`crate::Usage`]; crawl verdicts never read it).
    pub file_wide_signal: FileWideSignal,
}

/// Which crawlers a `Content-Signal` line that stands outside any group (before the first
/// `user-agent` line) speaks to. `Content-Usage` is a group rule (draft-ietf-aipref-attach-05
/// §3) and is never read outside a group; Cloudflare publishes no placement rule for
/// `Content-Signal` and writers put it both inside and outside groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileWideSignal {
    /// Every crawler: it is a statement without a path beside the crawler's own, combined
    /// with them most-restrictively (draft-ietf-aipref-vocab-07 §7.1), as crawler-commons
    /// reads it file-wide.
    EveryCrawler,
    /// No crawler: only lines inside a crawler's groups count.
    Ignored,
}

/// Which spellings of `user-agent`, `allow`, `disallow` and `sitemap` count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeySpellings {
    /// Exact keys with a colon (RFC 9309 §2.2); anything else is an unknown record.
    Exact,
    /// Also Google's accepted typos (`useragent`, `dissallow`, …), key prefixes
    /// (`Disallowed:`) and a missing colon (`disallow /x`).
    Lenient,
}

/// What ends a group's list of user-agent lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentListEnd {
    /// An allow or disallow line. Other records do not interfere (RFC 9309 §2.2.4), so
    /// `User-agent: a` / `Crawl-delay: 5` / `User-agent: b` / `Disallow: /` is one group.
    Rule,
    /// A rule line or a blank line: the 1994 convention's records are "separated by one or
    /// more blank lines". Rule lines after a blank line with no user-agent line between still
    /// join the open record.
    RuleOrBlankLine,
}

/// How a `user-agent` value becomes a token, and how it is compared with a crawler's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentToken {
    /// The leading run of letters, `_` and `-` (and digits, when `digits`) is the token,
    /// equal to the crawler's name ignoring ASCII case (RFC 9309 §2.2.1). `*` alone, or
    /// followed by whitespace, is the global group.
    LeadingRun {
        /// Whether digits belong to the token (`MJ12bot` is `MJ12bot`, not `MJ`).
        digits: bool,
    },
    /// The value without version (`/…`), found anywhere in the crawler's name ignoring case
    /// (the 1994 convention's "case insensitive substring match").
    Substring,
}

impl AgentToken {
    /// Whether `byte` belongs to a token (always false for [`AgentToken::Substring`], whose
    /// token is not a run of an alphabet).
    pub const fn is_token_byte(self, byte: u8) -> bool {
        match self {
            AgentToken::LeadingRun { digits } => {
                byte.is_ascii_alphabetic()
                    || byte == b'_'
                    || byte == b'-'
                    || (digits && byte.is_ascii_digit())
            }
            AgentToken::Substring => false,
        }
    }

    /// The leading token of `value` (for [`AgentToken::Substring`], the value up to its first
    /// `/`, trimmed).
    pub fn leading(self, value: &[u8]) -> &[u8] {
        &value[self.leading_range(value)]
    }

    /// Where [`AgentToken::leading`] lies in `value`.
    #[inline]
    pub(crate) fn leading_range(self, value: &[u8]) -> std::ops::Range<usize> {
        match self {
            AgentToken::LeadingRun { digits } => {
                let table = &TOKEN_BYTES[usize::from(digits)];
                0..value
                    .iter()
                    .position(|&b| !table[usize::from(b)])
                    .unwrap_or(value.len())
            }
            AgentToken::Substring => {
                let end = memchr::memchr(b'/', value).unwrap_or(value.len());
                let start = value[..end]
                    .iter()
                    .position(|b| !b.is_ascii_whitespace())
                    .unwrap_or(end);
                let trimmed = value[start..end]
                    .iter()
                    .rposition(|b| !b.is_ascii_whitespace())
                    .map_or(start, |last| start + last + 1);
                start..trimmed
            }
        }
    }
}

/// [`AgentToken::is_token_byte`] of `LeadingRun { digits: false }` and `{ digits: true }`.
static TOKEN_BYTES: [[bool; 256]; 2] = {
    let mut tables = [[false; 256]; 2];
    let mut byte = 0;
    while byte < 256 {
        tables[0][byte] = AgentToken::LeadingRun { digits: false }.is_token_byte(byte as u8);
        tables[1][byte] = AgentToken::LeadingRun { digits: true }.is_token_byte(byte as u8);
        byte += 1;
    }
    tables
};

/// Which crawler names a profile answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CrawlerNames {
    /// A token of the [`AgentToken`] alphabet; anything else is an error
    /// ([`crate::InvalidAgent`]) whose message shows the token to pass.
    Token,
    /// Any string. One that is not a token never equals a group's token.
    Any,
}

/// Which of the groups that name a crawler apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GroupMerge {
    /// All of them, merged (RFC 9309 §2.2.1); else every `*` group, merged.
    All,
    /// The first record that names it; else the first `*` record.
    First,
}

/// How a pattern's percent-encoding is normalised (RFC 9309 §2.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternEncoding {
    /// The canonical form shared with the URL side (`robotrules_url::canonical`): `%62` is
    /// `b`, non-ASCII encoded, hex upper-cased, `%2A`/`%24` a literal `*`/`$`.
    Canonical,
    /// Google's `MaybeEscapePattern`: bytes ≥ 0x80 encoded and `%xx` upper-cased, nothing else.
    GoogleEscape,
}

/// What a pattern that starts with neither `/` nor `*` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SlashlessPattern {
    /// It is read with `/` in front, as Google's older specification did.
    PrependSlash,
    /// It never matches (every path starts with `/`).
    NeverMatches,
}

/// Which matching rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Precedence {
    /// The rule whose pattern has the most octets, counted in the [`PatternEncoding`] form with
    /// every `*` and `$` included (a trailing `*` too); allow wins a tie (RFC 9309 §2.2.2).
    LongestMatch,
    /// The first matching rule in file order (the 1994 convention).
    FirstMatch,
}

/// Which cache-policy preset a fetching client applies by default (`robotrules-fetch`'s
/// `CachePolicy`; the facade maps the preset to the policy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CachePreset {
    /// RFC 9309 §2.4: at most 24 hours, less when the server's cache headers say so.
    Rfc9309,
    /// Google: the server's `max-age`, else 24 hours.
    Google,
}

/// The table: one row per profile.
const RFC9309: Reading = Reading {
    keys: KeySpellings::Exact,
    agent_list_end: AgentListEnd::Rule,
    agent_token: AgentToken::LeadingRun { digits: true },
    crawler_names: CrawlerNames::Token,
    groups: GroupMerge::All,
    wildcards: true,
    patterns: PatternEncoding::Canonical,
    slashless_pattern: SlashlessPattern::PrependSlash,
    empty_disallow_allows_all: false,
    urls: UrlReading::Canonical,
    precedence: Precedence::LongestMatch,
    implicit_robots_txt: true,
    index_html: false,
    max_line_len: None,
    cache: CachePreset::Rfc9309,
    file_wide_signal: FileWideSignal::EveryCrawler,
};

const GOOGLE: Reading = Reading {
    keys: KeySpellings::Lenient,
    agent_list_end: AgentListEnd::Rule,
    agent_token: AgentToken::LeadingRun { digits: false },
    crawler_names: CrawlerNames::Any,
    groups: GroupMerge::All,
    wildcards: true,
    patterns: PatternEncoding::GoogleEscape,
    slashless_pattern: SlashlessPattern::NeverMatches,
    empty_disallow_allows_all: false,
    urls: UrlReading::Google,
    precedence: Precedence::LongestMatch,
    implicit_robots_txt: false,
    index_html: true,
    max_line_len: Some(GOOGLE_MAX_LINE_LEN),
    cache: CachePreset::Google,
    file_wide_signal: FileWideSignal::EveryCrawler,
};

const LEGACY1994: Reading = Reading {
    keys: KeySpellings::Exact,
    agent_list_end: AgentListEnd::RuleOrBlankLine,
    agent_token: AgentToken::Substring,
    crawler_names: CrawlerNames::Any,
    groups: GroupMerge::First,
    wildcards: false,
    patterns: PatternEncoding::Canonical,
    slashless_pattern: SlashlessPattern::NeverMatches,
    empty_disallow_allows_all: true,
    urls: UrlReading::Canonical,
    precedence: Precedence::FirstMatch,
    implicit_robots_txt: false,
    index_html: false,
    max_line_len: None,
    cache: CachePreset::Rfc9309,
    file_wide_signal: FileWideSignal::EveryCrawler,
};

impl Profile {
    /// Every profile, in the order reports show them.
    pub const ALL: [Profile; 3] = [Profile::Rfc9309, Profile::Google, Profile::Legacy1994];

    /// The profiles whose reading satisfies `test`, in [`Profile::ALL`] order: "the profiles
    /// with wildcards", "the profiles that cut long lines".
    pub fn those(test: impl Fn(&Reading) -> bool) -> Vec<Profile> {
        Profile::ALL
            .into_iter()
            .filter(|p| test(p.reading()))
            .collect()
    }

    /// What the profile decides.
    pub const fn reading(self) -> &'static Reading {
        match self {
            Profile::Rfc9309 => &RFC9309,
            Profile::Google => &GOOGLE,
            Profile::Legacy1994 => &LEGACY1994,
        }
    }

    /// The profile's name as the CLI, JSON and the corpus spell it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Profile::Rfc9309 => "rfc9309",
            Profile::Google => "google",
            Profile::Legacy1994 => "legacy1994",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A profile name that is not one of `rfc9309`, `google`, `legacy1994`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile `{0}` (expected rfc9309, google or legacy1994)")]
#[non_exhaustive]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    /// A profile by name, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Profile, UnknownProfile> {
        Profile::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownProfile(s.to_owned()))
    }
}
