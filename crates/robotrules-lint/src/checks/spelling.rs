//! Did you mean: the known key a misspelt one is closest to (optimal string alignment
//! distance), for the key lints and the misspelt group line.

/// Keys robotrules knows, for "did you mean".
pub(super) const KNOWN_KEYS: [&str; 13] = [
    "user-agent",
    "allow",
    "disallow",
    "sitemap",
    "crawl-delay",
    "request-rate",
    "visit-time",
    "clean-param",
    "content-signal",
    "content-usage",
    "host",
    "license",
    "llm-policy",
];

/// Longest key worth comparing for near misses.
const MAX_NEAR_MISS_KEY: usize = 32;

/// The known key `key` is most likely a misspelling of, if any.
pub(super) fn near_miss(key: &[u8]) -> Option<&'static str> {
    closest(key, KNOWN_KEYS)
}

/// The word of `known` that `word` is most likely a misspelling of, if any: compared without
/// `-`, `_` and blanks, case-insensitively, within a distance that grows with the length
/// (`dissallow` is `disallow`, `misspeltkey` is `misspelt-key`).
pub(crate) fn closest<'k>(
    word: &[u8],
    known: impl IntoIterator<Item = &'k str>,
) -> Option<&'k str> {
    if word.len() > MAX_NEAR_MISS_KEY {
        return None;
    }
    let squash = |k: &[u8]| -> Vec<u8> {
        k.iter()
            .filter(|b| !matches!(b, b'-' | b'_' | b' ' | b'\t'))
            .map(u8::to_ascii_lowercase)
            .collect()
    };
    let key = squash(word);
    let allowed = match key.len() {
        0..=3 => 0,
        4..=5 => 1,
        _ => 2,
    };
    known
        .into_iter()
        .map(|known| (edit_distance(&key, &squash(known.as_bytes())), known))
        .filter(|&(d, _)| d <= allowed)
        .min_by_key(|&(d, _)| d)
        .map(|(_, known)| known)
}

/// Optimal string alignment distance (Levenshtein with adjacent transpositions).
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for (i, row) in d.chunks_mut(width).enumerate() {
        row[0] = i;
    }
    for (j, cell) in d.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(b"alow", Some("allow"))]
    #[case(b"Disalllow", Some("disallow"))]
    #[case(b"user_agent", Some("user-agent"))]
    #[case(b"Crawl delay", Some("crawl-delay"))]
    #[case(b"crawldelay", Some("crawl-delay"))]
    #[case(b"site-maps", Some("sitemap"))]
    #[case(b"noindex", None)]
    #[case(b"foo", None)]
    #[case(b"hots", Some("host"))]
    fn near_misses(#[case] key: &[u8], #[case] known: Option<&str>) {
        assert_eq!(near_miss(key), known);
    }

    #[rstest]
    #[case(b"", b"abc", 3)]
    #[case(b"abc", b"abc", 0)]
    #[case(b"abc", b"acb", 1)]
    #[case(b"kitten", b"sitting", 3)]
    fn distances(#[case] a: &[u8], #[case] b: &[u8], #[case] d: usize) {
        assert_eq!(edit_distance(a, b), d);
    }
}
