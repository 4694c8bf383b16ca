//! The URLs the sweep asks about for a file: fixed ones that exercise the URL readers, then
//! URLs built from the file's own allow/disallow patterns so that its rules actually match.

use robotrules_grammar::{parse, KeyKind};

/// URLs asked about in every file: the root, `/robots.txt`, queries, fragments, escapes,
/// non-ASCII, dot segments, an `index.html`, a long path.
pub const FIXED: [&str; 12] = [
    "https://example.com/",
    "https://example.com/robots.txt",
    "https://example.com/index.html",
    "https://example.com/search?q=robots&page=2",
    "https://example.com/a/b/c.php?x=1#frag",
    "https://example.com/%7Euser/%e3%83%84?q=%2F",
    "https://example.com/ツ/ü?q=ä b",
    "https://example.com/a/../b/./c",
    "http://example.com:8080/wp-admin/admin-ajax.php",
    "/private/file.pdf",
    "/*$%",
    "https://example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
];

/// At most `n` URLs for the file: [`FIXED`] first, then for each allow/disallow pattern (in
/// file order) the pattern made concrete (`*` → `x`, final `$` dropped) and the same with a
/// suffix, until `n`.
///
/// ```
/// let urls = robotrules_sweep::urls::for_file(b"user-agent: *\ndisallow: /a*b$\n", 14);
/// assert_eq!(&urls[12..], ["https://example.com/axb", "https://example.com/axb/sub?q=1"]);
/// ```
pub fn for_file(bytes: &[u8], n: usize) -> Vec<String> {
    let mut urls: Vec<String> = FIXED.iter().take(n).map(|s| (*s).to_owned()).collect();
    let parsed = parse(bytes);
    let patterns = parsed
        .lines
        .iter()
        .filter_map(|line| line.directive)
        .filter(|d| matches!(d.kind, KeyKind::Allow | KeyKind::Disallow))
        .map(|d| parsed.slice(d.value))
        .filter(|v| !v.is_empty());
    for pattern in patterns {
        if urls.len() >= n {
            break;
        }
        let concrete = concrete_path(pattern);
        for url in [
            format!("https://example.com{concrete}"),
            format!("https://example.com{concrete}/sub?q=1"),
        ] {
            if urls.len() < n && !urls.contains(&url) {
                urls.push(url);
            }
        }
    }
    urls
}

/// A path the pattern matches (roughly): `*` → `x`, a final `$` dropped, `/` in front when
/// missing, invalid UTF-8 replaced; at most 2,000 bytes.
fn concrete_path(pattern: &[u8]) -> String {
    let pattern = pattern.strip_suffix(b"$").unwrap_or(pattern);
    let text = String::from_utf8_lossy(pattern);
    let mut path: String = text
        .chars()
        .map(|c| if c == '*' { 'x' } else { c })
        .take(2_000)
        .collect();
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    path
}
