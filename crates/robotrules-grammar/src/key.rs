//! Recognising record keys: exact, accepted typo, key prefix.
//!
//! RFC 9309 §2.2 defines the keys `user-agent`, `allow` and `disallow`; §2.2.4 lets crawlers
//! read other records (`sitemap`) and "accept common misspellings". Google's reference library
//! accepts a fixed set of typos and matches keys by prefix (`Disallowed:` is a disallow). The
//! grammar reports which of these happened; the profile decides whether it counts.

/// Which record a key names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum KeyKind {
    /// `user-agent` (RFC 9309 §2.2.1).
    UserAgent,
    /// `allow` (RFC 9309 §2.2.2).
    Allow,
    /// `disallow` (RFC 9309 §2.2.2).
    Disallow,
    /// `sitemap` (RFC 9309 §2.2.4, sitemaps.org).
    Sitemap,
    /// Any other key ("other records", RFC 9309 §2.2.4).
    Other,
}

impl KeyKind {
    /// The key as RFC 9309 (or sitemaps.org) spells it; `None` for other records.
    pub const fn canonical(self) -> Option<&'static str> {
        match self {
            KeyKind::UserAgent => Some("user-agent"),
            KeyKind::Allow => Some("allow"),
            KeyKind::Disallow => Some("disallow"),
            KeyKind::Sitemap => Some("sitemap"),
            KeyKind::Other => None,
        }
    }
}

/// How a recognised key was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Spelling {
    /// The key exactly (ignoring ASCII case).
    Exact,
    /// One of the misspellings Google's library accepts (`useragent`, `user agent`,
    /// `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`).
    Typo,
    /// The key (or an accepted typo) followed by more characters, e.g. `Disallowed`.
    Prefix,
}

/// Spellings per kind, canonical first, in the order Google's library tries them.
const SPELLINGS: [(KeyKind, &[&str]); 4] = [
    (
        KeyKind::UserAgent,
        &["user-agent", "useragent", "user agent"],
    ),
    (KeyKind::Allow, &["allow"]),
    (
        KeyKind::Disallow,
        &[
            "disallow",
            "dissallow",
            "dissalow",
            "disalow",
            "diasllow",
            "disallaw",
        ],
    ),
    (KeyKind::Sitemap, &["sitemap", "site-map"]),
];

/// Classify a key (already trimmed of whitespace). Comparison ignores ASCII case.
///
/// Every spelling of a kind starts with the same letter (`u`, `a`, `d`, `s`), and no two kinds
/// share one, so the first letter picks the only kind worth comparing with.
///
/// ```
/// use robotrules_grammar::{classify_key, KeyKind, Spelling};
/// assert_eq!(classify_key(b"User-Agent"), (KeyKind::UserAgent, Spelling::Exact));
/// assert_eq!(classify_key(b"dissallow"), (KeyKind::Disallow, Spelling::Typo));
/// assert_eq!(classify_key(b"Disallowed"), (KeyKind::Disallow, Spelling::Prefix));
/// assert_eq!(classify_key(b"crawl-delay"), (KeyKind::Other, Spelling::Exact));
/// ```
pub fn classify_key(key: &[u8]) -> (KeyKind, Spelling) {
    let entry = match key.first().map(u8::to_ascii_lowercase) {
        Some(b'u') => 0,
        Some(b'a') => 1,
        Some(b'd') => 2,
        Some(b's') => 3,
        _ => return (KeyKind::Other, Spelling::Exact),
    };
    let (kind, spellings) = SPELLINGS[entry];
    let mut prefix = false;
    for (i, spelling) in spellings.iter().enumerate() {
        let s = spelling.as_bytes();
        if key.len() >= s.len() && key[..s.len()].eq_ignore_ascii_case(s) {
            if key.len() == s.len() {
                let how = if i == 0 {
                    Spelling::Exact
                } else {
                    Spelling::Typo
                };
                return (kind, how);
            }
            prefix = true;
        }
    }
    if prefix {
        return (kind, Spelling::Prefix);
    }
    (KeyKind::Other, Spelling::Exact)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"user-agent", KeyKind::UserAgent, Spelling::Exact)]
    #[case(b"USER-AGENT", KeyKind::UserAgent, Spelling::Exact)]
    #[case(b"uSeR-aGeNt", KeyKind::UserAgent, Spelling::Exact)]
    #[case(b"useragent", KeyKind::UserAgent, Spelling::Typo)]
    #[case(b"user agent", KeyKind::UserAgent, Spelling::Typo)]
    #[case(b"User-agents", KeyKind::UserAgent, Spelling::Prefix)]
    #[case(b"allow", KeyKind::Allow, Spelling::Exact)]
    #[case(b"Allowance", KeyKind::Allow, Spelling::Prefix)]
    #[case(b"disallow", KeyKind::Disallow, Spelling::Exact)]
    #[case(b"dissallow", KeyKind::Disallow, Spelling::Typo)]
    #[case(b"dissalow", KeyKind::Disallow, Spelling::Typo)]
    #[case(b"disalow", KeyKind::Disallow, Spelling::Typo)]
    #[case(b"diasllow", KeyKind::Disallow, Spelling::Typo)]
    #[case(b"disallaw", KeyKind::Disallow, Spelling::Typo)]
    #[case(b"Disallowed", KeyKind::Disallow, Spelling::Prefix)]
    #[case(b"sitemap", KeyKind::Sitemap, Spelling::Exact)]
    #[case(b"site-map", KeyKind::Sitemap, Spelling::Typo)]
    #[case(b"sitemaps", KeyKind::Sitemap, Spelling::Prefix)]
    #[case(b"crawl-delay", KeyKind::Other, Spelling::Exact)]
    #[case(b"", KeyKind::Other, Spelling::Exact)]
    #[case(b"alow", KeyKind::Other, Spelling::Exact)]
    fn classifies(#[case] key: &[u8], #[case] kind: KeyKind, #[case] how: Spelling) {
        assert_eq!(classify_key(key), (kind, how));
    }

    /// Every spelling starts with its kind's letter, and no two kinds share a letter: the
    /// premise of the first-letter dispatch.
    #[test]
    fn each_kind_has_its_own_first_letter() {
        let mut letters = Vec::new();
        for (_, spellings) in SPELLINGS {
            let first = spellings[0].as_bytes()[0];
            assert!(spellings.iter().all(|s| s.as_bytes()[0] == first));
            assert!(!letters.contains(&first));
            letters.push(first);
        }
        assert_eq!(letters, b"uads");
    }
}
