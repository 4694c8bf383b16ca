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

/// A spelling as numbers: a key starts with it when `(key | fold) & mask == value`, where `key`
/// is the key's first 16 bytes (little-endian): `fold` sets the case bit of the letters only,
/// so a letter matches in either case and every other byte exactly.
#[derive(Clone, Copy)]
struct Folded {
    value: u128,
    fold: u128,
    mask: u128,
    len: usize,
}

const fn folded(spelling: &str) -> Folded {
    let bytes = spelling.as_bytes();
    let (mut value, mut fold, mut mask) = (0u128, 0u128, 0u128);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        value |= (b as u128) << (8 * i);
        if b.is_ascii_lowercase() {
            fold |= 0x20 << (8 * i);
        }
        mask |= 0xFF << (8 * i);
        i += 1;
    }
    Folded {
        value,
        fold,
        mask,
        len: bytes.len(),
    }
}

/// [`SPELLINGS`] folded, each kind's list padded with the canonical spelling.
const FOLDED: [[Folded; 6]; 4] = {
    let mut out = [[folded(""); 6]; 4];
    let mut k = 0;
    while k < 4 {
        let spellings = SPELLINGS[k].1;
        let mut i = 0;
        while i < 6 {
            let s = if i < spellings.len() {
                spellings[i]
            } else {
                spellings[0]
            };
            out[k][i] = folded(s);
            i += 1;
        }
        k += 1;
    }
    out
};

/// Up to the first 8 bytes of `bytes`, little-endian, zero-padded.
#[inline]
fn load8(bytes: &[u8]) -> u64 {
    if let Some(b) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*b);
    }
    let mut v = 0;
    for (i, &b) in bytes.iter().enumerate() {
        v |= u64::from(b) << (8 * i);
    }
    v
}

/// The first 16 bytes of `key`, little-endian, zero-padded.
#[inline]
fn first16(key: &[u8]) -> u128 {
    let high = key
        .get(8..)
        .map_or(0, |rest| load8(&rest[..rest.len().min(8)]));
    u128::from(load8(key)) | u128::from(high) << 64
}

/// Classify a key (already trimmed of whitespace). Comparison ignores ASCII case.
///
/// Every spelling of a kind starts with the same letter (`u`, `a`, `d`, `s`), and no two kinds
/// share one, so the first letter picks the only kind worth comparing with; each spelling is
/// then one masked comparison of the key's first 16 bytes.
///
/// ```
/// use robotrules_grammar::{classify_key, KeyKind, Spelling};
/// assert_eq!(classify_key(b"User-Agent"), (KeyKind::UserAgent, Spelling::Exact));
/// assert_eq!(classify_key(b"dissallow"), (KeyKind::Disallow, Spelling::Typo));
/// assert_eq!(classify_key(b"Disallowed"), (KeyKind::Disallow, Spelling::Prefix));
/// assert_eq!(classify_key(b"crawl-delay"), (KeyKind::Other, Spelling::Exact));
/// ```
#[inline]
pub fn classify_key(key: &[u8]) -> (KeyKind, Spelling) {
    let entry = match key.first().map(u8::to_ascii_lowercase) {
        Some(b'u') => 0,
        Some(b'a') => 1,
        Some(b'd') => 2,
        Some(b's') => 3,
        _ => return (KeyKind::Other, Spelling::Exact),
    };
    let kind = SPELLINGS[entry].0;
    let word = first16(key);
    let canonical = FOLDED[entry][0];
    // The common case first: the key as RFC 9309 spells it.
    if key.len() == canonical.len && (word | canonical.fold) & canonical.mask == canonical.value {
        return (kind, Spelling::Exact);
    }
    let mut prefix = false;
    for (i, s) in FOLDED[entry].iter().enumerate() {
        if key.len() >= s.len && (word | s.fold) & s.mask == s.value {
            if key.len() == s.len {
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

    /// The folded comparison agrees with `eq_ignore_ascii_case` on every key of up to three
    /// bytes changed from each spelling, with any byte at all in the changed places.
    #[test]
    fn folded_comparison_is_ascii_case_insensitive_equality() {
        let reference = |key: &[u8]| -> (KeyKind, Spelling) {
            for (kind, spellings) in SPELLINGS {
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
            }
            (KeyKind::Other, Spelling::Exact)
        };
        let mut checked = 0;
        for (_, spellings) in SPELLINGS {
            for spelling in spellings.iter() {
                let s = spelling.as_bytes();
                for at in 0..s.len() {
                    for byte in 0..=u8::MAX {
                        let mut key = s.to_vec();
                        key[at] = byte;
                        for extra in [&b""[..], b"s", b"\r"] {
                            let mut key = key.clone();
                            key.extend_from_slice(extra);
                            assert_eq!(classify_key(&key), reference(&key), "{key:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 50_000);
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
